//! The Redis command model: which commands a Redis server (or Valkey, KeyDB) is sent destroy
//! its data, stop it or switch its protection off, however they reach it: as `redis-cli`'s
//! operands, as lines fed to its standard input (a pipe, a heredoc), or inside the Lua text of
//! a script it runs (`EVAL "return redis.call('flushall')" 0`).
//!
//! In: the words of one Redis command, or a script's text, or the lines of a command file.
//! Out: the [`Command`] judged, if it destroys, stops or opens the server: its operation
//! (`flushall`, `shutdown`, `config set`) and what it acts on, for the reason to name.
//! The CLI's row is in [`clis`](super::clis); the reader of its command line is
//! [`infra`](super::infra).

/// One Redis command that destroys, stops or opens the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Command {
    /// The operation as the reason names it (`flushall`, `config set`, `acl setuser`).
    pub(crate) operation: String,
    /// What it acts on (`every key`, `the server`, `requirepass`).
    pub(crate) object: String,
    /// The words it names after the operation that the reason shows (a user, a value).
    pub(crate) targets: Vec<String>,
}

/// How deep commands inside scripts are read (`EVAL` text that calls `EVAL`).
const MAX_SCRIPT_DEPTH: usize = 2;

/// What one command judged by its first word does.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Deletes every key (`FLUSHALL`, `FLUSHDB`; `ASYNC` / `SYNC` only say how).
    Flush(&'static str),
    /// Stops the server (`SHUTDOWN`, `SHUTDOWN NOSAVE`; `SHUTDOWN ABORT` cancels one).
    Shutdown,
    /// `CONFIG SET PARAM VALUE …`: judged by [`CONFIG`].
    Config,
    /// `ACL SETUSER NAME RULE…`: a user without a password, or one given every command (an
    /// administrator: `+@all`, `allcommands`);
    /// `ACL DELUSER NAME…`: users removed (their clients cut off).
    Acl,
    /// `CLIENT KILL …`: connections of other clients cut off (by filter: `TYPE normal`, `USER
    /// app`, `ADDR …`, or the old `CLIENT KILL IP:PORT`); `CLIENT LIST` and the rest only read
    /// or set this connection.
    Client,
    /// `DEBUG SEGFAULT` / `DEBUG RESTART`: the server crashes or restarts.
    Debug,
    /// `EVAL SCRIPT …`, `EVAL_RO`, `FUNCTION LOAD CODE`: the commands the script calls;
    /// `SCRIPT FLUSH`, `FUNCTION FLUSH`: every cached script or loaded library deleted.
    Script,
}

/// The commands judged, by their first word (any case).
const COMMANDS: &[(&str, Kind)] = &[
    ("flushall", Kind::Flush("every key of the server")),
    ("flushdb", Kind::Flush("every key of the database")),
    ("shutdown", Kind::Shutdown),
    ("config", Kind::Config),
    ("acl", Kind::Acl),
    ("client", Kind::Client),
    ("script", Kind::Script),
    ("debug", Kind::Debug),
    ("eval", Kind::Script),
    ("eval_ro", Kind::Script),
    ("function", Kind::Script),
];

/// Whether a parameter's new value switches its protection off.
type Opens = fn(&str) -> bool;

/// Configuration parameters whose new value switches a protection off, what the reason calls
/// them, and whether a value does: `requirepass ""` (no password), `protected-mode no`, `bind
/// 0.0.0.0` / `*` (every interface). `CONFIG SET dir|dbfilename`, `MODULE LOAD` and
/// `REPLICAOF HOST` (the server writing or loading files of another's choosing) are the
/// policy's database-server rule, not a destroy.
const CONFIG: &[(&str, &str, Opens)] = &[
    ("requirepass", "the server's password (requirepass)", |v| {
        v.is_empty()
    }),
    ("protected-mode", "the server's protected mode", |v| {
        v.eq_ignore_ascii_case("no")
    }),
    ("bind", "the server's bind to this machine", |v| {
        v.split_whitespace()
            .any(|a| matches!(a.trim_start_matches('-'), "0.0.0.0" | "*" | "::" | "::*"))
    }),
];

/// The command `words` sends, if it destroys, stops or opens the server.
pub(crate) fn judge(words: &[&str]) -> Option<Command> {
    judge_at(words, 0)
}

fn judge_at(words: &[&str], depth: usize) -> Option<Command> {
    let (first, rest) = words.split_first()?;
    let name = first.to_ascii_lowercase();
    let kind = COMMANDS.iter().find(|(n, _)| *n == name)?.1;
    let lower: Vec<String> = rest.iter().map(|w| w.to_ascii_lowercase()).collect();
    let command = |operation: &str, object: &str, targets: &[&str]| Command {
        operation: operation.to_string(),
        object: object.to_string(),
        targets: targets.iter().map(|t| (*t).to_string()).collect(),
    };
    match kind {
        Kind::Flush(object) => Some(command(&name, object, &[])),
        Kind::Shutdown => {
            (!lower.iter().any(|w| w == "abort")).then(|| command(&name, "the server", &[]))
        }
        Kind::Config => {
            if lower.first().map(String::as_str) != Some("set") {
                return None;
            }
            // `CONFIG SET PARAM VALUE [PARAM VALUE …]` (several pairs since Redis 7).
            rest.get(1..)?.chunks(2).find_map(|pair| {
                let [param, value] = pair else { return None };
                let param = param.to_ascii_lowercase();
                let (_, object, opens) = CONFIG.iter().find(|(p, _, _)| *p == param)?;
                opens(value).then(|| command("config set", object, &[]))
            })
        }
        Kind::Acl => {
            let [sub, _user, rules @ ..] = lower.as_slice() else {
                return None;
            };
            let every = |r: &String| matches!(r.as_str(), "+@all" | "allcommands");
            let open = rules.iter().any(|r| r == "nopass" || every(r));
            if sub == "deluser" {
                let named: Vec<&str> = rest.get(1..).unwrap_or_default().to_vec();
                return Some(command("acl deluser", "the users", &named));
            }
            (sub == "setuser" && open).then(|| {
                let named = rest.get(1).copied().unwrap_or_default();
                command("acl setuser", "the user", &[named])
            })
        }
        Kind::Debug => {
            let sub = lower.first()?;
            matches!(sub.as_str(), "segfault" | "restart" | "crash-and-recover")
                .then(|| command(&format!("debug {sub}"), "the server", &[]))
        }
        Kind::Client => (lower.first().map(String::as_str) == Some("kill")).then(|| {
            let filter: Vec<&str> = rest.get(1..).unwrap_or_default().to_vec();
            command("client kill", "the connections of other clients", &filter)
        }),
        Kind::Script if lower.first().map(String::as_str) == Some("flush") => {
            let object = if name == "script" {
                "every cached script of the server"
            } else {
                "every function library of the server"
            };
            Some(command(&format!("{name} flush"), object, &[]))
        }
        Kind::Script if name == "script" => None,
        Kind::Script => {
            // `EVAL SCRIPT NUMKEYS …`, `FUNCTION LOAD [REPLACE] CODE`.
            let text = if name == "function" {
                (lower.first().map(String::as_str) == Some("load"))
                    .then(|| rest.last().copied())
                    .flatten()?
            } else {
                rest.first().copied()?
            };
            script(text, depth + 1)
        }
    }
}

/// The first command a Lua script calls (`redis.call('FLUSHALL')`, `redis.pcall("config",
/// "set", "requirepass", "")`, `server.call(…)` in Valkey) that destroys, stops or opens the
/// server. Calls whose words are not string literals are not known now, and count for nothing.
pub(crate) fn script(text: &str, depth: usize) -> Option<Command> {
    if depth > MAX_SCRIPT_DEPTH {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    ["redis.call", "redis.pcall", "server.call", "server.pcall"]
        .iter()
        .flat_map(|f| lower.match_indices(f).map(|(i, f)| i + f.len()))
        .filter_map(|at| {
            let args = text.get(at..)?.trim_start().strip_prefix('(')?;
            let words = literal_arguments(args);
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            judge_at(&words, depth)
        })
        .next()
}

/// The string literals at the start of a call's argument list (`'config', 'set', "x")`),
/// up to its closing parenthesis or the first argument that is not a literal.
fn literal_arguments(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = args.trim_start();
    while let Some(quote) = rest.chars().next().filter(|ch| *ch == '\'' || *ch == '"') {
        let body = &rest[1..];
        let Some(end) = body.find(quote) else { break };
        out.push(body[..end].to_string());
        rest = body[end + 1..].trim_start();
        match rest.strip_prefix(',') {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    out
}

/// The first command of a command file (the lines fed to `redis-cli`'s standard input) that
/// destroys, stops or opens the server. Each line is one command, its words split as
/// `redis-cli` splits them (quotes group words).
pub(crate) fn lines(text: &str) -> Option<Command> {
    text.lines().find_map(|line| {
        let words = split_line(line);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        judge(&words)
    })
}

/// The words of one command line: split at white space, `"…"` and `'…'` grouping words
/// (an empty pair is an empty word: `CONFIG SET requirepass ""`).
fn split_line(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '"' | '\'' => {
                let w = word.get_or_insert_with(String::new);
                for inner in chars.by_ref() {
                    if inner == ch {
                        break;
                    }
                    w.push(inner);
                }
            }
            c if c.is_whitespace() => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(words: &[&str]) -> Option<(String, String, Vec<String>)> {
        judge(words).map(|c| (c.operation, c.object, c.targets))
    }

    fn judged(words: &[&str], operation: &str, object: &str, targets: &[&str]) {
        let want = (
            operation.to_string(),
            object.to_string(),
            targets.iter().map(|t| t.to_string()).collect(),
        );
        assert_eq!(op(words), Some(want), "{words:?}");
    }

    #[test]
    fn commands_that_destroy_stop_or_open_the_server() {
        judged(
            &["FLUSHALL", "ASYNC"],
            "flushall",
            "every key of the server",
            &[],
        );
        judged(&["flushdb"], "flushdb", "every key of the database", &[]);
        judged(&["SHUTDOWN", "NOSAVE"], "shutdown", "the server", &[]);
        judged(&["shutdown"], "shutdown", "the server", &[]);
        judged(
            &["CONFIG", "SET", "requirepass", ""],
            "config set",
            "the server's password (requirepass)",
            &[],
        );
        judged(
            &["config", "set", "maxmemory", "1gb", "protected-mode", "no"],
            "config set",
            "the server's protected mode",
            &[],
        );
        judged(
            &["config", "set", "bind", "0.0.0.0"],
            "config set",
            "the server's bind to this machine",
            &[],
        );
        judged(
            &["ACL", "SETUSER", "default", "on", "nopass"],
            "acl setuser",
            "the user",
            &["default"],
        );
        judged(
            &["acl", "setuser", "default", "on", "allkeys", "+@all"],
            "acl setuser",
            "the user",
            &["default"],
        );
        judged(
            &[
                "ACL", "SETUSER", "mallory", "on", ">pw", "~*", "&*", "+@all",
            ],
            "acl setuser",
            "the user",
            &["mallory"],
        );
        judged(&["DEBUG", "SEGFAULT"], "debug segfault", "the server", &[]);
        judged(
            &["ACL", "DELUSER", "alice", "bob"],
            "acl deluser",
            "the users",
            &["alice", "bob"],
        );
        judged(
            &["CLIENT", "KILL", "TYPE", "normal"],
            "client kill",
            "the connections of other clients",
            &["TYPE", "normal"],
        );
        judged(
            &["script", "flush", "async"],
            "script flush",
            "every cached script of the server",
            &[],
        );
        judged(
            &["FUNCTION", "FLUSH"],
            "function flush",
            "every function library of the server",
            &[],
        );
        judged(
            &["EVAL", "return redis.call('flushall')", "0"],
            "flushall",
            "every key of the server",
            &[],
        );
        judged(
            &[
                "eval",
                "redis.pcall(\"CONFIG\", \"SET\", \"requirepass\", \"\")",
                "0",
            ],
            "config set",
            "the server's password (requirepass)",
            &[],
        );
    }

    #[test]
    fn everyday_commands_are_not_judged() {
        for words in [
            &["GET", "k"][..],
            &["INFO"],
            &["KEYS", "*"],
            &["CONFIG", "GET", "requirepass"],
            &["CONFIG", "SET", "requirepass", "s3cret"],
            &["config", "set", "protected-mode", "yes"],
            &["config", "set", "bind", "127.0.0.1"],
            &["SET", "k", "v"],
            &["DEL", "key"],
            &["SHUTDOWN", "ABORT"],
            &["ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+get"],
            &["ACL", "LIST"],
            &["ACL", "WHOAMI"],
            &["CLIENT", "LIST"],
            &["CLIENT", "SETNAME", "worker"],
            &["SCRIPT", "EXISTS", "abc"],
            &["SCRIPT", "LOAD", "return redis.call('flushall')"],
            &["FUNCTION", "LIST"],
            &["CONFIG", "SET", "dir", "/var/lib/redis"],
            &["DEBUG", "OBJECT", "k"],
            &["EVAL", "return redis.call('get', KEYS[1])", "1", "k"],
            &["EVAL", "return redis.call(cmd)", "0"],
            &[],
        ] {
            assert_eq!(op(words), None, "{words:?}");
        }
    }

    #[test]
    fn command_files_are_read_line_by_line() {
        let c = lines("SET a 1\nCONFIG SET requirepass \"\"\n").map(|c| c.object);
        assert_eq!(c.as_deref(), Some("the server's password (requirepass)"));
        assert_eq!(
            lines("FLUSHALL\n").map(|c| c.operation).as_deref(),
            Some("flushall")
        );
        assert_eq!(lines("GET a\nINFO\n"), None);
        assert_eq!(split_line("set 'a b' \"\" c"), ["set", "a b", "", "c"]);
    }
}
