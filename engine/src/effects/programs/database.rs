//! Database clients: where a client takes the SQL it runs (`psql -c SQL`, `mysql -e SQL`,
//! `sqlite3 DB SQL`, `psql -f FILE`, standard input: a heredoc or a pipe).
//!
//! In: one analysed [`SimpleCommand`]. Out: the SQL texts it runs ([`Sql`]), each with where
//! it came from, for [`crate::effects::sql`] to read; the files of `-f FILE` are read paths.
//! Every client is one [`Client`] row. Beside them, [`local_dev`]: whether a client's (or
//! `dropdb`'s) command works on a development or test database on this machine, where
//! dropping and emptying is everyday work. A Redis server names no database, so nothing
//! tells a development one: `redis-cli FLUSHALL` asks wherever the server is.

use super::parse::{option_value, split_long};
use crate::shell::{Arg, SimpleCommand};

/// One database client's command line.
#[derive(Debug)]
pub(crate) struct Client {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// Options whose value is SQL (`-c`, `--command`).
    pub(crate) sql: &'static [&'static str],
    /// Options whose value is a file of SQL (`-f`, `--file`).
    pub(crate) files: &'static [&'static str],
    /// Other options that take a separate value (`-U user`, `-h host`).
    pub(crate) valued: &'static [&'static str],
    /// Which operand is SQL (`sqlite3 DB SQL`: the second), if any.
    pub(crate) sql_operand: Option<usize>,
    /// Lines starting with a backslash are the client's own commands (`\dt`, `\c db`).
    pub(crate) meta: bool,
}

/// Every database client the table knows.
pub(crate) static CLIENTS: &[Client] = &[
    Client {
        names: &["psql"],
        sql: &["-c", "--command"],
        files: &["-f", "--file"],
        valued: &[
            "-d",
            "--dbname",
            "-h",
            "--host",
            "-p",
            "--port",
            "-U",
            "--username",
            "-v",
            "--set",
            "--variable",
            "-o",
            "--output",
            "-L",
            "--log-file",
            "-P",
            "--pset",
            "-F",
            "--field-separator",
            "-R",
            "--record-separator",
            "-T",
            "--table-attr",
        ],
        sql_operand: None,
        meta: true,
    },
    Client {
        names: &["mysql", "mariadb"],
        sql: &["-e", "--execute"],
        files: &[],
        valued: &[
            "-u",
            "--user",
            "-h",
            "--host",
            "-P",
            "--port",
            "-D",
            "--database",
            "-S",
            "--socket",
            "--default-character-set",
            "--defaults-file",
            "--defaults-extra-file",
            "--login-path",
            "--protocol",
        ],
        sql_operand: None,
        meta: false,
    },
    Client {
        names: &["sqlite3", "sqlite", "duckdb"],
        sql: &["-cmd"],
        files: &["-init"],
        valued: &["-separator", "-newline", "-nullvalue"],
        sql_operand: Some(1),
        meta: false,
    },
    Client {
        names: &["clickhouse-client"],
        sql: &["-q", "--query"],
        files: &["--queries-file"],
        valued: &[
            "-h",
            "--host",
            "--port",
            "-u",
            "--user",
            "-d",
            "--database",
            "--password",
            "-f",
            "--format",
        ],
        sql_operand: None,
        meta: false,
    },
    Client {
        // Cassandra's shell: `cqlsh [HOST [PORT]] -e CQL`, `-f FILE`; CQL's `DROP KEYSPACE`,
        // `DROP TABLE`, `TRUNCATE` read as SQL's.
        names: &["cqlsh"],
        sql: &["-e", "--execute"],
        files: &["-f", "--file"],
        valued: &[
            "-u",
            "--username",
            "-p",
            "--password",
            "-k",
            "--keyspace",
            "--cqlversion",
            "--protocol-version",
            "--connect-timeout",
            "--request-timeout",
            "--encoding",
            "--cqlshrc",
            "--credentials",
        ],
        sql_operand: None,
        meta: false,
    },
    Client {
        // InfluxDB 1's shell: `influx -execute 'DROP DATABASE prod'` (InfluxQL reads as SQL).
        names: &["influx"],
        sql: &["-execute"],
        files: &[],
        valued: &[
            "-host",
            "-port",
            "-username",
            "-password",
            "-database",
            "-format",
            "-precision",
            "-path",
        ],
        sql_operand: None,
        meta: false,
    },
    Client {
        names: &["sqlcmd"],
        sql: &["-Q", "-q"],
        files: &["-i"],
        valued: &["-S", "-U", "-P", "-d", "-o", "-s", "-w", "-h", "-t", "-l"],
        sql_operand: None,
        meta: false,
    },
];

/// Where a client's SQL came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sql {
    /// SQL on the command line or fed to standard input.
    Text(Arg),
    /// A file of SQL (`psql -f FILE`).
    File(Arg),
}

/// The row of a database client.
pub(crate) fn client(c: &SimpleCommand) -> Option<&'static Client> {
    if c.dynamic_program {
        return None;
    }
    let base = c.basename();
    CLIENTS.iter().find(|r| r.names.contains(&base))
}

/// Lines that are not the client's own commands (`\dt`, `\c app`): those are blanked.
pub(crate) fn without_meta(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with('\\') {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Client {
    /// The SQL texts and files `c` runs.
    pub(crate) fn sql(&self, c: &SimpleCommand) -> Vec<Sql> {
        let mut out = Vec::new();
        let mut operands = Vec::new();
        let mut i = 0;
        let mut after = false;
        while let Some(a) = c.args.get(i) {
            i += 1;
            let t = a.text.as_str();
            if after || !t.starts_with('-') || t == "-" {
                operands.push(a.clone());
                continue;
            }
            if t == "--" {
                after = true;
                continue;
            }
            // `--command=SQL`, `-cSQL`, `-c SQL`.
            let (name, inline) = split_long(t);
            let value = |inline: Option<&str>, i: &mut usize| option_value(a, inline, &c.args, i);
            let short_inline = |opts: &[&str]| {
                opts.iter()
                    .filter(|o| o.len() == 2 && !o.starts_with("--"))
                    .find(|o| t.len() > 2 && t.starts_with(**o) && !t.starts_with("--"))
                    .map(|o| &t[o.len()..])
            };
            if self.sql.contains(&name) {
                out.extend(value(inline, &mut i).map(Sql::Text));
            } else if let Some(v) = short_inline(self.sql) {
                out.push(Sql::Text(Arg {
                    text: v.to_string(),
                    dynamic: a.dynamic,
                }));
            } else if self.files.contains(&name) {
                out.extend(value(inline, &mut i).map(Sql::File));
            } else if self.valued.contains(&name) && inline.is_none() {
                i += 1;
            }
        }
        if let Some(k) = self.sql_operand {
            out.extend(operands.into_iter().skip(k).map(Sql::Text));
        }
        if let Some((text, whole)) = c.stdin_known_text() {
            out.push(Sql::Text(Arg {
                text: text.to_string(),
                dynamic: !whole,
            }));
        }
        out
    }
}

/// The options that name the server a client connects to.
const HOST_OPTIONS: &[&str] = &["-h", "--host"];

/// The options that name the database.
const NAME_OPTIONS: &[&str] = &["-d", "--dbname", "-D", "--database"];

/// The options with a value of `dropdb(1)`, `createdb(1)`, `dropuser(1)`.
const DROP_VALUED: &[&str] = &[
    "-h",
    "--host",
    "-p",
    "--port",
    "-U",
    "--username",
    "--maintenance-db",
    "-T",
    "--template",
    "-O",
    "--owner",
    "-E",
    "--encoding",
];

/// The options with a value of `redis-cli`, and its URL option.
pub(crate) const REDIS_VALUED: &[&str] = &[
    "-h", "-p", "-s", "-a", "--user", "--pass", "-u", "-n", "-r", "-i", "-d", "--cacert",
];

/// Name words of a development or test database (`app_test`, `test.db`, `shop-dev`).
const DEV_WORDS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "dev",
    "development",
    "e2e",
    "ci",
    "spec",
];

/// Whether `host` is this machine: `localhost`, `127.x`, `::1`, or a Unix socket folder.
fn local_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.is_empty()
        || host.starts_with('/')
        || matches!(host, "localhost" | "::1" | "0.0.0.0")
        || host.starts_with("127.")
}

/// Whether a database name (or a SQLite file) is a development or test one: one of its
/// words, split at `_`, `-` and `.`, is `test`, `dev`, `development`, `e2e`, … A file must
/// lie in the working folder (relative, no `..`).
fn dev_name(name: &str) -> bool {
    if name.starts_with('/') || name.starts_with('~') || name.split('/').any(|p| p == "..") {
        return false;
    }
    let base = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    base.split(['_', '-', '.']).any(|w| DEV_WORDS.contains(&w))
}

/// Whether `c` works on a development or test database on this machine: a database client
/// (`psql`, `mysql`, `sqlite3`, …) or `dropdb` / `createdb`, whose server is
/// local (no host given, `localhost`, `127.0.0.1`, `::1`, a socket folder; a
/// `postgres://…@localhost/app_test` URL) and whose database is named as a development or
/// test one (`app_test`, `shop_dev`, a `test.db` file in the working folder). A connection known only at run time
/// (`$DATABASE_URL`) is not local.
pub(crate) fn local_dev(c: &SimpleCommand) -> bool {
    local_dev_of(c, None)
}

/// [`local_dev`] for a statement that names its own database (`DROP DATABASE app_test`,
/// `statement_database`): the statement works on that database whatever the connection's
/// is, so only the server must be local and that name a development or test one.
pub(crate) fn local_dev_of(c: &SimpleCommand, statement_database: Option<&str>) -> bool {
    if c.dynamic_program {
        return false;
    }
    let base = c.basename();
    let (valued, sqlite): (Vec<&str>, bool) = if let Some(row) = client(c) {
        let mut v = row.valued.to_vec();
        v.extend(row.sql);
        v.extend(row.files);
        (v, row.sql_operand.is_some())
    } else if matches!(base, "dropdb" | "createdb" | "dropuser") {
        (DROP_VALUED.to_vec(), false)
    } else {
        return false;
    };
    let mut hosts: Vec<Arg> = Vec::new();
    let mut named = None;
    let mut operands: Vec<&Arg> = Vec::new();
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        i += 1;
        let t = a.text.as_str();
        if !t.starts_with('-') || t == "-" {
            operands.push(a);
            continue;
        }
        let (name, inline) = split_long(t);
        if !valued.contains(&name) {
            continue;
        }
        let v = match inline {
            Some(v) => Arg {
                text: v.to_string(),
                dynamic: a.dynamic,
            },
            None => {
                i += 1;
                match c.args.get(i - 1) {
                    Some(v) => v.clone(),
                    None => continue,
                }
            }
        };
        if HOST_OPTIONS.contains(&name) {
            hosts.push(v);
        } else if NAME_OPTIONS.contains(&name) {
            named = Some(!v.dynamic && dev_name(&v.text));
        }
    }
    if hosts.iter().any(|h| h.dynamic || !local_host(&h.text)) {
        return false;
    }
    // A URL operand names the server too.
    let url = operands.first().filter(|o| o.text.contains("://"));
    if let Some(o) = url
        && (o.dynamic || url_local(&o.text) != Some(true) || !hosts.is_empty())
    {
        return false;
    }
    if let Some(db) = statement_database.filter(|_| !sqlite) {
        // A connection named only at run time (`psql $DATABASE_URL`) may be another server.
        return !operands.first().is_some_and(|o| o.dynamic) && dev_name(db);
    }
    // The database: `-d NAME`, else the first operand (a SQLite file, or psql's, mysql's,
    // dropdb's name) or a connection URL.
    match (named, operands.first()) {
        (Some(false), _) => false,
        (Some(true), _) if !sqlite => true,
        (_, Some(o)) if o.dynamic => false,
        (_, Some(o)) if o.text.contains("://") => url_dev(&o.text),
        (_, Some(o)) => dev_name(&o.text),
        (_, None) => false,
    }
}

/// Whether a connection URL's host is this machine, when it parses.
fn url_local(text: &str) -> Option<bool> {
    let u = url::Url::parse(text).ok()?;
    Some(u.host_str().is_none_or(local_host))
}

/// Whether a connection URL names a development or test database.
fn url_dev(text: &str) -> bool {
    url::Url::parse(text)
        .ok()
        .is_some_and(|u| dev_name(u.path().trim_start_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    fn sql_of(line: &str) -> Vec<String> {
        let a = BrushAnalyzer.analyze(line, None);
        let Some(c) = a.commands.iter().find(|c| client(c).is_some()) else {
            return Vec::new();
        };
        client(c)
            .map(|r| r.sql(c))
            .unwrap_or_default()
            .into_iter()
            .map(|s| match s {
                Sql::Text(a) => format!("sql {}", a.text),
                Sql::File(a) => format!("file {}", a.text),
            })
            .collect()
    }

    #[test]
    fn where_clients_take_sql() {
        assert_eq!(
            sql_of("psql -U postgres -h db -c 'DROP TABLE x' app"),
            ["sql DROP TABLE x"]
        );
        assert_eq!(
            sql_of("psql --command='select 1' -f seed.sql"),
            ["sql select 1", "file seed.sql"]
        );
        assert_eq!(
            sql_of("mysql -u root -pS3cret app -e 'TRUNCATE t'"),
            ["sql TRUNCATE t"]
        );
        assert_eq!(sql_of("mysql -eSHOW\\ TABLES"), ["sql SHOW TABLES"]);
        assert_eq!(
            sql_of("sqlite3 app.db 'DELETE FROM users'"),
            ["sql DELETE FROM users"]
        );
        assert_eq!(sql_of("sqlite3 app.db"), Vec::<String>::new());
        assert_eq!(
            sql_of("cqlsh db1 9042 -u app -e 'TRUNCATE ks.users'"),
            ["sql TRUNCATE ks.users"]
        );
        assert_eq!(sql_of("cqlsh -f reset.cql"), ["file reset.cql"]);
        assert_eq!(
            sql_of("influx -host db -database prod -execute 'DROP MEASUREMENT cpu'"),
            ["sql DROP MEASUREMENT cpu"]
        );
        assert_eq!(sql_of("influx bucket delete -n prod"), Vec::<String>::new());
        assert_eq!(
            sql_of("psql app <<'EOF'\n\\dt\nDELETE FROM orders;\nEOF"),
            ["sql \\dt\nDELETE FROM orders;\n"]
        );
    }

    fn local(line: &str) -> bool {
        let a = BrushAnalyzer.analyze(line, None);
        a.commands.first().is_some_and(local_dev)
    }

    #[test]
    fn local_development_databases() {
        for line in [
            "sqlite3 test.db 'DROP TABLE IF EXISTS cache'",
            "sqlite3 db/app_test.sqlite3 'DELETE FROM t'",
            "psql -h localhost -U dev -d app_test -c 'TRUNCATE users'",
            "psql --host=127.0.0.1 --dbname=shop_dev -c 'TRUNCATE users'",
            "psql -h /var/run/postgresql app_test -c 'DROP TABLE x'",
            "psql app_test -c 'DROP TABLE x'",
            "psql postgres://dev@localhost:5432/app_test -c 'DROP TABLE x'",
            "mysql -u root app_test -e 'TRUNCATE t'",
            "mysql -h 127.0.0.1 -D test -e 'TRUNCATE t'",
            "dropdb --if-exists app_test",
            "dropdb -h localhost -U postgres shop-e2e",
        ] {
            assert!(local(line), "{line}");
        }
    }

    /// `local_dev_of` with the database the SQL names (`DROP DATABASE app_test`).
    fn local_named(line: &str, db: &str) -> bool {
        let a = BrushAnalyzer.analyze(line, None);
        a.commands
            .first()
            .is_some_and(|c| local_dev_of(c, Some(db)))
    }

    #[test]
    fn a_statement_names_its_own_database() {
        // MySQL's `DROP DATABASE` is run from a connection to no database or another one.
        let drop = "mysql -h 127.0.0.1 -u root -e 'DROP DATABASE app_test'";
        assert!(local_named(drop, "app_test"));
        assert!(local_named(
            "mysql -u root prod -e 'DROP DATABASE x'",
            "shop_dev"
        ));
        assert!(local_named(
            "psql -d postgres -c 'DROP DATABASE app_test'",
            "app_test"
        ));
        // The statement's database decides, and the server must still be local.
        assert!(!local_named(
            "mysql -h 127.0.0.1 -e 'DROP DATABASE app'",
            "app"
        ));
        assert!(!local_named(
            "mysql -h db.prod -e 'DROP DATABASE app_test'",
            "app_test"
        ));
        assert!(!local_named(
            "psql postgres://u@db.example.com/postgres -c 'DROP DATABASE app_test'",
            "app_test"
        ));
        assert!(!local_named(
            "psql $DATABASE_URL -c 'DROP DATABASE app_test'",
            "app_test"
        ));
        // Without the statement's name, a client connected to no database is not local dev.
        assert!(!local(drop));
    }

    #[test]
    fn remote_or_production_looking_databases() {
        for line in [
            "sqlite3 app.db 'DROP TABLE x'",
            "sqlite3 /var/lib/app/test.db 'DROP TABLE x'",
            "sqlite3 ../other/test.db 'DROP TABLE x'",
            "psql $DATABASE_URL -c 'TRUNCATE users'",
            "psql -d app -c 'TRUNCATE users'",
            "psql -h db.prod -d app_test -c 'TRUNCATE users'",
            "psql -c 'TRUNCATE users'",
            "psql postgres://dev@db.example.com/app_test -c 'DROP TABLE x'",
            "psql postgres://dev@localhost/app -c 'DROP TABLE x'",
            "mysql -h 10.0.0.5 app_test -e 'TRUNCATE t'",
            "mysql -u root latest -e 'TRUNCATE t'",
            "dropdb app",
            "dropdb -h prod app_test",
            "redis-cli FLUSHDB",
            "redis-cli -h 127.0.0.1 -p 6380 FLUSHALL",
            "redis-cli -u redis://localhost:6379/1 flushdb",
            "redis-cli -h cache.prod FLUSHALL",
            "redis-cli -h $REDIS_HOST FLUSHALL",
            "redis-cli -u redis://prod.example.com:6379 flushall",
        ] {
            assert!(!local(line), "{line}");
        }
    }

    #[test]
    fn meta_commands_are_blanked() {
        assert_eq!(without_meta("\\c app\nDROP TABLE x;"), "\nDROP TABLE x;");
    }
}
