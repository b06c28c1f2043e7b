//! Locator substitutions: `$(…)` whose output is a path of a known kind (`$(command -v
//! codex)` is a program on `PATH`, `$(go env GOPATH)` the Go workspace, `$(mktemp -d)` a
//! scratch folder, `$(git rev-parse --show-toplevel)` the project).
//!
//! In: the words of a command substitution. Out: a path standing for what it prints — not
//! its value on this machine, but one of the same kind, so that path tests judge
//! `strings $(command -v codex)` as a read of a program file (not a secret) and `rm -rf
//! $(go env GOPATH)` as a delete outside the project. The analyser keeps such a substitution
//! written out (`$(command -v codex)`, still only known at run time) so path tests can find it
//! ([`representative`]).
//!
//! Listing substitutions are the same idea for names: `$(ls tests | head -n 1)` prints a name
//! in `tests`, `$(ls -t ~/logs/run-*.log | head -1)` one of the files the pattern matches,
//! `$(uname -r)` one path component. Their stand-in is a glob with that domain (`*`,
//! `~/logs/run-*.log`), which path tests expand against the disk
//! ([`listing_pattern`]): `sed -n 1,200p tests/$(ls tests | head -n 1)` reads a file of
//! `tests`, judged as `tests/*`.

/// What `$(git rev-parse --show-toplevel)` stands for: the project folder, filled in by the
/// path test that knows it.
pub(crate) const PROJECT: &str = "\u{0}project";

/// The path a locator command prints, by kind (`None`: not a locator).
pub(crate) fn locator_path(words: &[&str]) -> Option<String> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && !n.starts_with('-')
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
    };
    Some(match words {
        ["command", "-v" | "-V", n] | ["which", n] | ["type", "-P" | "-p", n] if name_ok(n) => {
            format!("/usr/bin/{n}")
        }
        ["go", "env", "GOPATH"] => "~/go".into(),
        ["go", "env", "GOROOT"] => "/usr/local/go".into(),
        ["go", "env", "GOMODCACHE"] => "~/go/pkg/mod".into(),
        ["go", "env", "GOCACHE"] => "~/.cache/go-build".into(),
        ["go", "env", "GOBIN"] => "~/go/bin".into(),
        ["npm", "root", "-g"] | ["npm", "root", "--global"] => "/usr/local/lib/node_modules".into(),
        ["npm", "prefix", "-g"] | ["npm", "prefix", "--global"] => "/usr/local".into(),
        ["npm", "bin"] | ["yarn", "bin"] | ["pnpm", "bin"] => "node_modules/.bin".into(),
        ["npm", "root"] | ["pnpm", "root"] => "node_modules".into(),
        ["brew", "--prefix"] => "/opt/homebrew".into(),
        ["brew", "--prefix", n] if name_ok(n) => format!("/opt/homebrew/opt/{n}"),
        ["brew", "--cellar"] => "/opt/homebrew/Cellar".into(),
        ["rustc", "--print", "sysroot"] => "~/.rustup/toolchains/stable".into(),
        ["mktemp"] | ["mktemp", "-d"] | ["mktemp", "-t", _] | ["mktemp", "-d", "-t", _] => {
            "/tmp/tmp.XXXXXXXXXX".into()
        }
        ["git", "rev-parse", "--show-toplevel"] => PROJECT.into(),
        _ => return None,
    })
}

/// The glob standing for what a listing pipeline prints (`None`: not one).
///
/// `pipeline` is the words of each element (`[["ls", "-t", "logs/"], ["head", "-1"]]`). The
/// first element lists names:
/// - `ls` with only flags that keep one plain name per line (`-1`, `-t`, `-r`, `-S`, `-X`,
///   `-v`, `-U`, `-c`, `-u`, `-h` and their combinations; not `-a`/`-A`, which list dot
///   files, nor `-l`, `-d`, `-R`, `-F`, …): with no operand, or one folder written so that
///   `ls` can only print the names in it or the operand itself as one plain component
///   (`tests`, `logs/`, `.`), a name not starting with a dot: `*`; with one glob operand
///   (`~/logs/run-*.log`), the glob (a folder it matches would print its names: `ls` of a
///   pattern of files is what agents write, and a name printed that way is a relative name
///   of the working directory, judged as such by no path test — the one imprecision here).
/// - one value with no `/` and no leading dot: `uname` with one of `-r -m -s -n -p -i` (or
///   none), `arch`, `hostname` (or `-s`), `whoami`, `nproc`, `id -u|-g|-un|-gn`: `*`.
///
/// Every later element only selects or orders whole lines: `head`/`tail` with a line count,
/// `sort` (not `-o`), `uniq` (not `-c`), `tac`, `grep` with no flag that prints anything but
/// whole input lines (`-v -i -E -F -x -w -P -e PATTERN` and a pattern).
pub(crate) fn listing_pattern(pipeline: &[Vec<&str>]) -> Option<String> {
    let (first, filters) = pipeline.split_first()?;
    if !filters.iter().all(|f| selects_lines(f)) {
        return None;
    }
    let (program, args) = first.split_first()?;
    match (*program, args) {
        ("ls", _) => ls_pattern(args),
        ("uname", [] | ["-r" | "-m" | "-s" | "-n" | "-p" | "-i"])
        | ("uname", ["--kernel-release" | "--machine" | "--kernel-name" | "--nodename"])
        | ("arch" | "whoami" | "nproc", [])
        | ("hostname", [] | ["-s" | "--short"])
        | ("id", ["-u" | "-g" | "-un" | "-gn" | "-nu" | "-ng"]) => Some("*".into()),
        ("git", ["ls-files", rest @ ..]) => ls_files_pattern(rest),
        _ => None,
    }
}

/// [`listing_pattern`] of `git ls-files ARGS`: the project's tracked files that one pathspec
/// matches, at any depth (git-ls-files(1): a pathspec glob's `*` matches `/` too). `'*.py'`
/// stands for `**/*.py`, a folder `src` (or `src/`) for `src/**/*`; a pathspec that spells
/// a dot file or a parent (`.env*`, `../x`), an option (`-o`, `--others`, `-z`, …), no
/// pathspec (every tracked file, start-up files of the project included) or several stay
/// unknown.
fn ls_files_pattern(args: &[&str]) -> Option<String> {
    let specs: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !matches!(*a, "--" | "-c" | "--cached"))
        .collect();
    let [spec] = specs.as_slice() else {
        return None;
    };
    if spec.starts_with(['-', '.', '/', ':'])
        || spec.contains("/.")
        || spec.contains("..")
        || spec.is_empty()
    {
        return None;
    }
    if spec.contains(['*', '?', '[']) {
        return Some(if spec.contains('/') {
            (*spec).to_string()
        } else {
            format!("**/{spec}")
        });
    }
    Some(format!("{}/**/*", spec.trim_end_matches('/')))
}

/// [`listing_pattern`] of `ls ARGS`.
fn ls_pattern(args: &[&str]) -> Option<String> {
    let mut operands = Vec::new();
    for a in args {
        match a.strip_prefix('-') {
            Some("") => operands.push(*a),
            Some(flags) if !flags.starts_with('-') => {
                if !flags.chars().all(|c| "1trSXvUcuh".contains(c)) {
                    return None;
                }
            }
            Some(_) => return None,
            None => operands.push(*a),
        }
    }
    match operands.as_slice() {
        [] => Some("*".into()),
        // The pattern's matches, as written (a pattern only matches a dot file when it
        // spells the dot, and path tests read the pattern the way the shell does).
        [op] if op.contains(['*', '?', '[']) => Some(op.to_string()),
        // The names in the folder, or the operand itself when it is a file: both one
        // component not starting with a dot (`tests`), or names only (`logs/`: a file
        // given with a trailing slash is an error; `.` and `..` are folders).
        [op] if (!op.contains('/') && !op.starts_with('.'))
            || op.ends_with('/')
            || matches!(*op, "." | "..") =>
        {
            Some("*".into())
        }
        _ => None,
    }
}

/// Whether a pipeline element only selects or orders whole lines of its input.
fn selects_lines(words: &[&str]) -> bool {
    let count = |w: &str| {
        let w = w.strip_prefix(['+', '-']).unwrap_or(w);
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
    };
    match words {
        ["head" | "tail"] | ["tac"] => true,
        ["head" | "tail", n] => count(n),
        ["head" | "tail", "-n", n] => count(n),
        ["sort", flags @ ..] => flags.iter().all(|f| {
            f.starts_with('-')
                && f.chars()
                    .skip(1)
                    .all(|c| "rnuVhfbdgMk0123456789,.".contains(c))
                && !f.contains('o')
        }),
        ["uniq"] | ["uniq", "-u" | "-d" | "-i"] => true,
        ["grep", rest @ ..] => {
            let mut pattern = false;
            let mut it = rest.iter();
            while let Some(w) = it.next() {
                match *w {
                    "-e" => {
                        if it.next().is_none() {
                            return false;
                        }
                        pattern = true;
                    }
                    f if f.starts_with('-') && f.len() > 1 => {
                        if !f.chars().skip(1).all(|c| "viEFxwP".contains(c)) {
                            return false;
                        }
                    }
                    _ if !pattern => pattern = true,
                    // A second operand is a file to search, not the pipe.
                    _ => return false,
                }
            }
            pattern
        }
        _ => false,
    }
}

/// `text` with every locator substitution written out (`$(command -v codex)`) replaced by the
/// path it stands for, `project` for the project folder; `None` when it has another part
/// only known at run time (or no locator at all).
pub(crate) fn representative(text: &str, project: Option<&str>) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut found = false;
    while let Some(at) = rest.find("$(") {
        out.push_str(rest.get(..at)?);
        let after = rest.get(at + 2..)?;
        let end = after.find(')')?;
        let inner = after.get(..end)?;
        let path = if inner.contains('|') {
            let pipeline: Vec<Vec<&str>> = inner
                .split('|')
                .map(|e| e.split_whitespace().collect())
                .collect();
            listing_pattern(&pipeline)?
        } else {
            let words: Vec<&str> = inner.split_whitespace().collect();
            match locator_path(&words) {
                Some(p) => p,
                None => listing_pattern(&[words])?,
            }
        };
        if path == PROJECT {
            out.push_str(project?);
        } else {
            out.push_str(&path);
        }
        found = true;
        rest = after.get(end + 1..)?;
    }
    out.push_str(rest);
    (found && !out.contains(['$', '`', '…'])).then_some(out)
}
