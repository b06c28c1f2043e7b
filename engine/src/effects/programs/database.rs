//! Database clients: where a client takes the SQL it runs (`psql -c SQL`, `mysql -e SQL`,
//! `sqlite3 DB SQL`, `psql -f FILE`, standard input: a heredoc or a pipe).
//!
//! In: one analysed [`SimpleCommand`]. Out: the SQL texts it runs ([`Sql`]), each with where
//! it came from, for [`crate::effects::sql`] to read; the files of `-f FILE` are read paths.
//! Every client is one [`Client`] row.

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
            sql_of("psql app <<'EOF'\n\\dt\nDELETE FROM orders;\nEOF"),
            ["sql \\dt\nDELETE FROM orders;\n"]
        );
    }

    #[test]
    fn meta_commands_are_blanked() {
        assert_eq!(without_meta("\\c app\nDROP TABLE x;"), "\nDROP TABLE x;");
    }
}
