//! What a command runs from a file, from its name and words only (no I/O): a script run by a
//! shell or by its `#!` line, code run by an interpreter (`python x.py`), SQL given to a
//! database client, `make`, and the `package.json` scripts of `npm run NAME` (`yarn`, `pnpm`,
//! `bun`).
//!
//! In: one simple command. Out: its [`Job`], if any.

use crate::effects::code_runs::osascript_language;
use crate::effects::language::Language;
use crate::effects::programs::{JULIA_VALUED, OSASCRIPT_VALUED, RSCRIPT_VALUED};
use crate::shell::{Arg, RedirectMode, SimpleCommand};

/// The languages of the code lens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// Python.
    Python,
    /// JavaScript / TypeScript (Node, Deno, Bun).
    JavaScript,
    /// PowerShell (`./build.ps1`).
    PowerShell,
    /// A cmd.exe batch file (`./build.bat`, `x.cmd`).
    Cmd,
    /// AppleScript (`osascript x.applescript`, a `#!/usr/bin/osascript` script).
    AppleScript,
    /// R (`Rscript x.R`, `R -f x.R`, a `#!/usr/bin/env Rscript` script).
    R,
    /// Julia (`julia x.jl`, a `#!/usr/bin/env julia` script).
    Julia,
}

/// How a script file is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    /// By a shell (`bash x.sh`, `source x.sh`).
    Shell,
    /// By its `#!` line (`./x.sh`): a shell when it has none.
    Shebang,
    /// By an interpreter of the code lens (`python x.py`).
    Code(Lang),
    /// By a database client (`psql -f x.sql`, `mysql app < x.sql`): SQL statements.
    Sql,
}

/// What a command runs from a file.
pub(super) enum Job {
    /// A script file.
    Script { path: String, how: How },
    /// `make`: recipes of a Makefile.
    Make,
    /// `npm run NAME`, `npm test`, `npm install` (…): scripts of `package.json`, run in
    /// `dir` (or the working directory).
    Npm {
        names: Vec<String>,
        dir: Option<String>,
    },
}

/// Shells that run a script file named by their first operand.
pub(super) const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash"];

/// A shell's options that take a value.
pub(super) const SHELL_VALUED: &[&str] = &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];

/// Python's options that take a value.
pub(super) const PYTHON_VALUED: &[&str] = &["-W", "-X", "--check-hash-based-pycs"];

/// Node's options that take a value (when not written `--opt=value`).
pub(super) const NODE_VALUED: &[&str] = &[
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-C",
    "--conditions",
    "--input-type",
    "--env-file",
    "--title",
];

/// The file a command's standard input is read from (`< x.sh`), when the last redirection of
/// standard input reads one.
pub(super) fn stdin_file(c: &SimpleCommand) -> Option<&Arg> {
    c.redirections
        .iter()
        .rev()
        .find(|r| r.fd.is_none_or(|fd| fd == 0) && r.mode != RedirectMode::Write)
        .filter(|r| r.mode == RedirectMode::Read)
        .map(|r| &r.target)
}

/// The script operand of a shell's words (`bash -x x.sh`), if it reads one: none with `-c`
/// (inline text, the analyser's) or `-s` (standard input).
pub(super) fn shell_operand(args: &[Arg]) -> Option<&Arg> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            return args.get(i + 1);
        }
        if SHELL_VALUED.contains(&t) {
            i += 2;
            continue;
        }
        if t.starts_with('-') && !t.starts_with("--") && (t.contains('c') || t.contains('s')) {
            return None;
        }
        if t.starts_with('-') || t.starts_with('+') {
            i += 1;
            continue;
        }
        return Some(a);
    }
    None
}

/// The script operand of an interpreter's words: the first operand after its options;
/// none when the code comes from an option (`-c`, `-m`, `-e`) or standard input.
pub(super) fn code_operand<'a>(
    args: &'a [Arg],
    valued: &[&str],
    inline: &[&str],
) -> Option<&'a Arg> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            return args.get(i + 1);
        }
        if t == "-" {
            return None;
        }
        if inline.iter().any(|o| {
            t == *o
                || (o.starts_with("--") && t.starts_with(&format!("{o}=")))
                || (o.len() == 2
                    && !t.starts_with("--")
                    && t.starts_with('-')
                    && t.ends_with(&o[1..]))
        }) {
            return None;
        }
        if valued.contains(&t) {
            i += 2;
            continue;
        }
        if t.starts_with('-') {
            i += 1;
            continue;
        }
        return Some(a);
    }
    None
}

/// What `c` runs from a file, if anything (no I/O: the name and words only).
pub(super) fn job_of(c: &SimpleCommand) -> Option<Job> {
    if c.dynamic_program || c.program.is_empty() {
        return None;
    }
    let base = c.basename();
    // Devices and descriptors (`/dev/null`, `/dev/stdin`, `/proc/self/fd/0`) are no script
    // files: standard input is the analyser's to follow.
    let script = |a: Option<&Arg>, how: How| {
        a.filter(|a| {
            !a.dynamic
                && !a.text.is_empty()
                && a.text != "-"
                && !a.text.starts_with("/dev/")
                && !a.text.starts_with("/proc/self/fd/")
        })
        .map(|a| Job::Script {
            path: a.text.clone(),
            how,
        })
    };
    // A database client's file of SQL (`psql -f x.sql`), or its standard input read from a
    // file (`mysql app < schema.sql`).
    if let Some(row) = crate::effects::programs::database::client(c) {
        let file = row.sql(c).into_iter().find_map(|s| match s {
            crate::effects::programs::database::Sql::File(a) => Some(a),
            crate::effects::programs::database::Sql::Text(_) => None,
        });
        return script(file.as_ref().or(stdin_file(c)), How::Sql);
    }
    if SHELLS.contains(&base) {
        let inline = c.args.iter().any(|a| {
            let t = a.text.as_str();
            t.starts_with('-') && !t.starts_with("--") && t.contains('c')
        });
        // `bash < x.sh`, `sh -s < x.sh`: the script is standard input, read from a file.
        let op = shell_operand(&c.args).or_else(|| (!inline).then(|| stdin_file(c)).flatten());
        return script(op, How::Shell);
    }
    match base {
        "source" | "." => {
            let first = match c.args.first() {
                Some(a) if a.text == "--" => c.args.get(1),
                other => other,
            };
            return script(first, How::Shell);
        }
        "make" | "gmake" => return Some(Job::Make),
        "npm" | "pnpm" | "yarn" | "bun" => return npm_job(base, &c.args),
        // `osascript x.applescript`, `osascript -l JavaScript x.js` (a compiled `.scpt` is a
        // binary: nothing is read from it).
        "osascript" => {
            let op = code_operand(&c.args, OSASCRIPT_VALUED, &["-e"]);
            let lang = match osascript_language(&c.args) {
                Language::JavaScript => Lang::JavaScript,
                _ => Lang::AppleScript,
            };
            return script(op, How::Code(lang));
        }
        // `Rscript x.R` (the first operand; `-e` code is the inline lens's), `R -f x.R`,
        // `R --file=x.R` (R(1): the file is read as standard input would be).
        "Rscript" => {
            let op = code_operand(&c.args, RSCRIPT_VALUED, &["-e"]);
            return script(op, How::Code(Lang::R));
        }
        "R" => {
            let op = c.args.iter().enumerate().find_map(|(k, a)| {
                if a.text == "-f" {
                    c.args.get(k + 1)
                } else {
                    a.text.strip_prefix("--file=").map(|_| a)
                }
            });
            let op = op.map(|a| match a.text.strip_prefix("--file=") {
                Some(f) => Arg {
                    text: f.to_string(),
                    dynamic: a.dynamic,
                },
                None => a.clone(),
            });
            return script(op.as_ref(), How::Code(Lang::R));
        }
        "julia" => {
            let op = code_operand(&c.args, JULIA_VALUED, &["-e", "-E", "--eval", "--print"]);
            return script(op, How::Code(Lang::Julia));
        }
        "node" | "nodejs" => {
            let op = code_operand(&c.args, NODE_VALUED, &["-e", "--eval", "-p", "--print"]);
            return script(op, How::Code(Lang::JavaScript));
        }
        _ => {}
    }
    if is_python(base) {
        let op = code_operand(&c.args, PYTHON_VALUED, &["-c", "-m"]);
        return script(op, How::Code(Lang::Python));
    }
    if c.program.contains('/') {
        // A PowerShell script or a batch file runs by its extension, not a `#!` line.
        let lower = c.program.to_ascii_lowercase();
        let how = if lower.ends_with(".ps1") {
            How::Code(Lang::PowerShell)
        } else if lower.ends_with(".bat") || lower.ends_with(".cmd") {
            How::Code(Lang::Cmd)
        } else {
            How::Shebang
        };
        return Some(Job::Script {
            path: c.program.clone(),
            how,
        });
    }
    None
}

/// The lifecycle scripts `npm install` / `npm ci` (with no package named) runs from the
/// project's own `package.json`, in order.
pub(super) const NPM_INSTALL_SCRIPTS: &[&str] =
    &["preinstall", "install", "postinstall", "prepare"];

/// The `package.json` scripts a package manager call runs: `npm run NAME` (`run-script`,
/// `pnpm run`, `yarn run`, `bun run`), `npm test` / `start` / `stop` / `restart` (and `yarn` /
/// `pnpm` with a script name), with their `pre` / `post` scripts; `npm install` / `ci` with
/// no package named runs the install lifecycle. `--prefix DIR`, `-C DIR`, `--cwd DIR` name
/// the package folder.
pub(super) fn npm_job(base: &str, args: &[Arg]) -> Option<Job> {
    let mut dir: Option<String> = None;
    let mut words: Vec<&Arg> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let t = a.text.as_str();
        if matches!(t, "--prefix" | "-C" | "--dir" | "--cwd") {
            dir = Some(args.get(i)?.text.clone());
            i += 1;
            continue;
        }
        if let Some(d) = ["--prefix=", "--dir=", "--cwd="]
            .iter()
            .find_map(|p| t.strip_prefix(p))
        {
            dir = Some(d.to_string());
            continue;
        }
        if t == "--" {
            break;
        }
        if t.starts_with('-') {
            continue;
        }
        words.push(a);
    }
    if words.iter().any(|a| a.dynamic) {
        return None;
    }
    let first = words.first().map(|a| a.text.as_str());
    let with_hooks = |n: &str| vec![format!("pre{n}"), n.to_string(), format!("post{n}")];
    let names = match (base, first) {
        (_, Some("run" | "run-script" | "rum" | "urn")) => with_hooks(&words.get(1)?.text),
        (_, Some("test" | "t" | "tst" | "start" | "stop" | "restart")) => {
            let n = match first? {
                "t" | "tst" => "test",
                n => n,
            };
            with_hooks(n)
        }
        ("npm" | "pnpm" | "yarn", Some("install" | "i" | "ci" | "add")) | ("yarn", None)
            if words.len() <= 1 =>
        {
            NPM_INSTALL_SCRIPTS.iter().map(|s| s.to_string()).collect()
        }
        // `yarn build`, `pnpm build`: a script name where no built-in command is meant.
        ("yarn" | "pnpm", Some(n)) if !YARN_BUILTINS.contains(&n) => with_hooks(n),
        _ => return None,
    };
    Some(Job::Npm { names, dir })
}

/// `yarn` / `pnpm` commands that are not script names.
pub(super) const YARN_BUILTINS: &[&str] = &[
    "add",
    "audit",
    "bin",
    "cache",
    "config",
    "create",
    "dlx",
    "exec",
    "global",
    "help",
    "info",
    "init",
    "install",
    "i",
    "link",
    "list",
    "ls",
    "outdated",
    "pack",
    "publish",
    "remove",
    "rm",
    "up",
    "update",
    "upgrade",
    "why",
    "workspace",
    "workspaces",
    "version",
    "store",
    "import",
    "licenses",
    "login",
    "logout",
    "owner",
    "prune",
    "rebuild",
    "unlink",
    "set",
    "plugin",
    "patch",
    "dedupe",
    "fetch",
    "setup",
    "env",
    "root",
    "x",
];

/// `python`, `python3`, `python3.12`, `pypy3`.
pub(super) fn is_python(base: &str) -> bool {
    let rest = base
        .strip_prefix("python")
        .or_else(|| base.strip_prefix("pypy"));
    rest.is_some_and(|r| r.chars().all(|ch| ch.is_ascii_digit() || ch == '.'))
}
