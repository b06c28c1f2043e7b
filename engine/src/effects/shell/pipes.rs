//! Pipelines: what flows into a command that runs its standard input (`curl … | sh`),
//! and commands that print the environment or code that reads it into a pipe.

use super::request::variables;
use crate::effects::model::{BodySource, Effect, Effects, PathRef, What};
use crate::shell::{ShellAnalysis, SimpleCommand};

/// Whether a command prints every environment variable: `env` / `printenv` with no operand
/// (options only: `env -0`, `printenv --null`), `export -p`, `declare -x` / `-p`, `typeset
/// -x`, `compgen -v`, `set` with no argument.
fn prints_environment(c: &SimpleCommand) -> bool {
    if c.dynamic_program {
        return false;
    }
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    let only_options = words.iter().all(|w| w.starts_with('-'));
    match c.basename() {
        "env" | "printenv" => only_options,
        "set" => words.is_empty(),
        "export" => words == ["-p"],
        "declare" | "typeset" => {
            only_options
                && words
                    .iter()
                    .any(|w| matches!(*w, "-x" | "-p" | "-px" | "-xp"))
        }
        "compgen" => words == ["-v"],
        _ => code_reads_environment(c),
    }
}

/// git subcommands that print the content of the project's files or history (git-log(1)
/// `-p`, git-diff(1), git-show(1), a patch series, a file at a revision, an archive or a
/// bundle of the repository): what they print is the repository's, read from `.git`.
const HISTORY_PRINTERS: &[&str] = &[
    "diff",
    "show",
    "format-patch",
    "cat-file",
    "archive",
    "bundle",
    "blame",
    "grep",
    "stash",
];

/// What a git command that prints the project's files or history reads: its `.git` folder.
const HISTORY: &str = ".git";

/// Whether a `git` command prints the project's files or history (its subcommand among
/// [`HISTORY_PRINTERS`], or `log` / `whatchanged` with a patch: `-p`, `--patch`, `-u`).
fn prints_history(c: &SimpleCommand) -> bool {
    let pos = crate::shell::operands::positionals(c);
    let Some(sub) = pos.first().map(|a| a.text.as_str()) else {
        return false;
    };
    // `git show --stat`, `git diff --name-only`: names and counts, no content (unless a
    // patch is asked for as well).
    let names_only = c.args.iter().any(|a| {
        matches!(
            a.text.as_str(),
            "--stat" | "--shortstat" | "--numstat" | "--name-only" | "--name-status"
        )
    }) && !c
        .args
        .iter()
        .any(|a| matches!(a.text.as_str(), "-p" | "--patch" | "-u"));
    if names_only && matches!(sub, "diff" | "show") {
        return false;
    }
    HISTORY_PRINTERS.contains(&sub)
        || (matches!(sub, "log" | "whatchanged")
            && c.args
                .iter()
                .any(|a| matches!(a.text.as_str(), "-p" | "--patch" | "-u")))
}

/// What a language's code writes to read the whole environment, not one variable: a marker,
/// and the texts that, right after it, make it one variable instead (`ENVIRON["HOME"]`,
/// `os.environ.get('X')`).
type EnvironmentMarker = (&'static str, &'static [&'static str]);

/// The markers of reading the whole environment, by program.
fn environment_markers(base: &str) -> &'static [EnvironmentMarker] {
    match base {
        "awk" | "gawk" | "mawk" | "nawk" | "busybox" => &[("ENVIRON", &["["])],
        "perl" | "perl5" => &[("%ENV", &[])],
        "ruby" => &[("ENV", &["[", ".fetch", ".key?", ".include?", "_", "\""])],
        "php" => &[("getenv()", &[]), ("$_ENV", &["["]), ("$_SERVER", &["["])],
        b if b.starts_with("python") || b.starts_with("pypy") => &[
            (
                "os.environ",
                &[
                    "[",
                    ".get(",
                    ".setdefault(",
                    ".pop(",
                    ".__setitem__",
                    ".update(",
                ],
            ),
            ("environ.copy()", &[]),
        ],
        "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node" => &[
            ("process.env", &[".", "["]),
            ("Bun.env", &[".", "["]),
            ("Deno.env.toObject", &[]),
        ],
        _ => &[],
    }
}

/// Whether a command's inline program reads the whole environment (`awk 'BEGIN{for (k in
/// ENVIRON) print k}'`, `perl -e 'print %ENV'`, `ruby -e 'p ENV.to_h'`, `php -r
/// 'print_r(getenv());'`, `python3 -c 'print(dict(os.environ))'`): what it prints down a
/// pipe is every variable.
pub(super) fn code_reads_environment(c: &SimpleCommand) -> bool {
    let markers = environment_markers(c.basename());
    c.args.iter().any(|a| {
        markers.iter().any(|(marker, narrowing)| {
            a.text.match_indices(marker).any(|(k, _)| {
                let after = &a.text[k + marker.len()..];
                // A longer name (`ENVIRONMENT`, `process.envs`) is not the marker.
                let longer = marker.chars().last().is_some_and(|l| l.is_alphanumeric())
                    && after
                        .chars()
                        .next()
                        .is_some_and(|n| n.is_alphanumeric() || n == '_');
                !longer && !narrowing.iter().any(|n| after.trim_start().starts_with(n))
            })
        })
    })
}

/// Whether an awk program runs the lines it reads as commands: `system()` of a field
/// (`awk '{system($0)}'`), or lines printed into a shell (`awk '{print | "sh"}'`).
fn awk_runs_input(c: &SimpleCommand) -> bool {
    if !matches!(c.basename(), "awk" | "gawk" | "mawk" | "nawk") || c.dynamic_program {
        return false;
    }
    let Some(program) = c.args.iter().find(|a| !a.text.starts_with('-')) else {
        return false;
    };
    let t = program.text.replace(char::is_whitespace, "");
    let system_of_field = t.match_indices("system(").any(|(k, _)| {
        t[k + "system(".len()..]
            .split(')')
            .next()
            .is_some_and(|arg| arg.contains('$'))
    });
    let into_shell = SHELLS_C.iter().any(|sh| t.contains(&format!("|\"{sh}\"")));
    system_of_field || into_shell
}

/// Programs that run what they read on standard input as code when given no script
/// (`… | sh`, `… | python3 -`).
const STDIN_RUNNERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "busybox",
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "pwsh",
    "powershell",
    "osascript",
    "source",
    ".",
    "tclsh",
    "lua",
    "Rscript",
];

/// Whether `c` runs its standard input as code: a shell or interpreter with no script operand
/// and no inline code (`sh`, `sudo bash -s -- --flag`, `python3 -`, `source /dev/stdin`).
fn runs_stdin(c: &SimpleCommand) -> bool {
    if awk_runs_input(c) {
        return true;
    }
    let b = c.basename();
    let b = b.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    if !STDIN_RUNNERS.contains(&b) && !STDIN_RUNNERS.contains(&c.basename()) {
        return false;
    }
    for a in &c.args {
        let t = a.text.as_str();
        if t == "-" || t == "/dev/stdin" || t == "--" || t == "-s" {
            return true;
        }
        if t.starts_with('-') {
            // Inline code (`-c`, `-e`, `--eval`, `-r`) or a module (`-m`): not standard input.
            if matches!(
                t,
                "-c" | "-e" | "-E" | "--eval" | "-r" | "-m" | "-p" | "--print" | "-Command"
            ) || (t.len() > 1
                && !t.starts_with("--")
                && t.contains('c')
                && SHELLS_C.contains(&b))
            {
                return false;
            }
            continue;
        }
        // A script operand.
        return false;
    }
    true
}

/// Shells whose `-c` may be bundled with other flags (`-xc`).
const SHELLS_C: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"];

/// The commands a pipeline element runs: the first one recorded for it and those it wraps
/// (`sudo bash` is `sudo`, then `bash` through `sudo`).
fn element(a: &ShellAnalysis, first: usize) -> std::ops::Range<usize> {
    let Some(head) = a.commands.get(first) else {
        return first..first;
    };
    let depth = head.via.len();
    let mut end = first + 1;
    while a
        .commands
        .get(end)
        .is_some_and(|c| c.via.len() > depth && c.via.starts_with(&head.via))
    {
        end += 1;
    }
    first..end
}

/// What flows through the pipes of a line: a request whose response is piped into a shell or
/// interpreter runs that response as code (`curl … | sh`); a request whose body is standard
/// input sends what the commands before it read or print (`cat .env | curl -d @- …`,
/// `printf %s "$TOKEN" | nc host 80`), through filters (`| base64 |`).
pub(super) fn through_pipes(a: &ShellAnalysis, spans: &[std::ops::Range<usize>], fx: &mut Effects) {
    if a.pipes.is_empty() {
        super::search::history_searched(a, spans, &[], fx);
        return;
    }
    let effects_of = |r: std::ops::Range<usize>| -> Vec<usize> {
        r.filter_map(|k| spans.get(k))
            .flat_map(Clone::clone)
            .collect()
    };
    // What an element reads or prints, and what was piped into it, transitively.
    let mut fed: std::collections::HashMap<usize, Vec<BodySource>> =
        std::collections::HashMap::new();
    // The commands the project's history is piped into.
    let mut history: Vec<usize> = Vec::new();
    for &(from, to) in &a.pipes {
        let producer = element(a, from);
        let mut sources: Vec<BodySource> = fed.get(&from).cloned().unwrap_or_default();
        for k in producer.clone() {
            let Some(c) = a.commands.get(k) else { continue };
            match c.basename() {
                "echo" | "printf" | "print" => {
                    for arg in &c.args {
                        sources.extend(variables(&arg.text).into_iter().map(BodySource::Env));
                    }
                }
                // `env`, `printenv`, `export -p`, `declare -x`, `set`, `compgen -v` with no
                // name print every variable.
                _ if prints_environment(c) => sources.push(BodySource::Environment),
                // `git log -p`, `git diff`, `git show`: the project's files and history.
                "git" if prints_history(c) => {
                    sources.push(BodySource::File(PathRef::new(HISTORY, c.cwd.as_deref())))
                }
                "printenv" => sources.extend(
                    c.args
                        .iter()
                        .filter(|x| !x.text.starts_with('-') && !x.dynamic)
                        .map(|x| BodySource::Env(x.text.clone())),
                ),
                _ => {}
            }
            if let Some(text) = c.stdin_text() {
                sources.extend(variables(text).into_iter().map(BodySource::Env));
            }
        }
        for i in effects_of(producer.clone()) {
            if let Some(Effect {
                what: What::Read(p),
                ..
            }) = fx.list.get(i)
            {
                sources.push(BodySource::File(p.clone()));
            }
        }
        let consumer = element(a, to);
        // `git log -p | grep -i password`: a search of the history for secret values.
        if sources
            .iter()
            .any(|b| matches!(b, BodySource::File(f) if f.text == HISTORY))
        {
            history.extend(consumer.clone());
        }
        let runs = consumer
            .clone()
            .any(|k| a.commands.get(k).is_some_and(runs_stdin));
        // A request whose response is run as code.
        if runs {
            for i in effects_of(producer) {
                if let Some(Effect {
                    what: What::Send(s),
                    ..
                }) = fx.list.get_mut(i)
                {
                    s.runs_response = true;
                }
            }
        }
        // A request whose body is standard input sends what was fed into it.
        for i in effects_of(consumer) {
            if let Some(Effect {
                what: What::Send(s),
                ..
            }) = fx.list.get_mut(i)
                && s.body.contains(&BodySource::Stdin)
            {
                for src in &sources {
                    if !s.body.contains(src) {
                        s.body.push(src.clone());
                    }
                }
            }
        }
        fed.entry(to).or_default().extend(sources);
    }
    super::search::history_searched(a, spans, &history, fx);
}
