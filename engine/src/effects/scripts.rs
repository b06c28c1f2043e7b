//! Scripts run by path: what a script file does when a call runs it.
//!
//! In: the `run` effects the lenses found: `bash x.sh`, `sh x.sh`, `./x.sh`, `scripts/x.sh`
//! (a program word that is a path), `sh -c ./x.sh` (the analyser already gives the inner
//! `./x.sh`), `source x.sh` / `. x.sh`, `make [TARGET…]`, the `package.json` scripts of
//! `npm run NAME` / `npm test` / `npm install` (and `yarn`, `pnpm`, `bun`), and
//! `python x.py` / `node x.js`.
//! A shell reading its script from a file on standard input (`bash < x.sh`) runs it too.
//! Out: the effects of the script's commands added to the call, each route marked
//! `via "runs <path>"` (`"runs <path> as written earlier in this session"` for a remembered
//! version, `"runs <Makefile> (target `t`)"` for a make recipe), so every rule that judges a
//! command judges it inside a script too.
//!
//! What is read: the file on disk relative to the command's working directory (symlinks
//! resolved), only a regular file, at most [`MAX_SCRIPT`] bytes; and what the session wrote
//! there earlier ([`crate::memory`]). Both are judged when both exist and differ (a script
//! changed on disk since the agent wrote it, or not on disk yet in a replay).
//!
//! Decisions:
//! - a file that does not exist and that the session did not write adds nothing: the shell
//!   fails to run it (`./configure` before `autoreconf`, a `node_modules/.bin/x` not
//!   installed); a file written earlier on the same line is the shell analyser's to follow;
//! - a binary (ELF, Mach-O, PE, or a NUL byte in its first 8 KiB) adds nothing: it is a
//!   program, not a script;
//! - a file that cannot be read, is larger than [`MAX_SCRIPT`] or is not a regular file (a
//!   FIFO, a device) is `unsure`, with that cause;
//! - a script the session wrote (remembered) whose content is not visible and that cannot
//!   be read now is `unsure`;
//! - parts of a script that the analyser cannot resolve (`exec "$JAVACMD" "$@"`: a command,
//!   argument, path or destination only known at run time) are judged as such (`unsure`)
//!   when the session wrote the script; in a file the session did not write (the project's
//!   own `./gradlew`) they are left out, as they were before scripts were read: its
//!   resolved effects are judged, and the call is not made noisy by its variables;
//! - Python and JavaScript files are read with the same bounds and handed to
//!   [`code_script`], where the code lens judges them.
//!
//! A script that runs another script is followed [`MAX_SCRIPT_DEPTH`] levels deep; a script
//! already followed in the call is not followed again (cycles stop); one call analyses at
//! most [`MAX_CALL_SCRIPT_BYTES`] of script text (what is past it is `unsure`).

use std::collections::{HashMap, HashSet};
use std::io::Read;

use super::model::{Effect, Effects, Route, What};
use crate::memory::SessionMemory;
use crate::shell::{Arg, BrushAnalyzer, RedirectMode, ShellAnalyzer, SimpleCommand};
use crate::shell_env::ShellEnv;

/// Largest script read, in bytes (256 KiB).
pub(crate) const MAX_SCRIPT: u64 = 256 * 1024;

/// Most script text analysed for one call, in bytes (1 MiB, the longest command line).
pub(crate) const MAX_CALL_SCRIPT_BYTES: usize = crate::shell::MAX_SCRIPT_BYTES;

/// How many levels of scripts run by scripts are followed.
pub(crate) const MAX_SCRIPT_DEPTH: usize = 4;

/// Most make targets (with their prerequisites) followed for one `make` call.
const MAX_MAKE_TARGETS: usize = 64;

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
}

/// How a script file is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
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
enum Job {
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
const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash"];

/// A shell's options that take a value.
const SHELL_VALUED: &[&str] = &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];

/// Python's options that take a value.
const PYTHON_VALUED: &[&str] = &["-W", "-X", "--check-hash-based-pycs"];

/// Node's options that take a value (when not written `--opt=value`).
const NODE_VALUED: &[&str] = &[
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
fn stdin_file(c: &SimpleCommand) -> Option<&Arg> {
    c.redirections
        .iter()
        .rev()
        .find(|r| r.fd.is_none_or(|fd| fd == 0) && r.mode != RedirectMode::Write)
        .filter(|r| r.mode == RedirectMode::Read)
        .map(|r| &r.target)
}

/// The script operand of a shell's words (`bash -x x.sh`), if it reads one: none with `-c`
/// (inline text, the analyser's) or `-s` (standard input).
fn shell_operand(args: &[Arg]) -> Option<&Arg> {
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
fn code_operand<'a>(args: &'a [Arg], valued: &[&str], inline: &[&str]) -> Option<&'a Arg> {
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
fn job_of(c: &SimpleCommand) -> Option<Job> {
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
const NPM_INSTALL_SCRIPTS: &[&str] = &["preinstall", "install", "postinstall", "prepare"];

/// The `package.json` scripts a package manager call runs: `npm run NAME` (`run-script`,
/// `pnpm run`, `yarn run`, `bun run`), `npm test` / `start` / `stop` / `restart` (and `yarn` /
/// `pnpm` with a script name), with their `pre` / `post` scripts; `npm install` / `ci` with
/// no package named runs the install lifecycle. `--prefix DIR`, `-C DIR`, `--cwd DIR` name
/// the package folder.
fn npm_job(base: &str, args: &[Arg]) -> Option<Job> {
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
const YARN_BUILTINS: &[&str] = &[
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
fn is_python(base: &str) -> bool {
    let rest = base
        .strip_prefix("python")
        .or_else(|| base.strip_prefix("pypy"));
    rest.is_some_and(|r| r.chars().all(|ch| ch.is_ascii_digit() || ch == '.'))
}

/// What the interpreter of a script's `#!` line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interp {
    Shell,
    Code(Lang),
    Other,
}

/// The interpreter a script names on its `#!` line (a shell when it has none: the shell runs
/// a text file the kernel cannot execute).
fn interpreter(text: &str) -> Interp {
    let Some(line) = text.strip_prefix("#!") else {
        return Interp::Shell;
    };
    let line = line.lines().next().unwrap_or("");
    let mut words = line.split_whitespace();
    let mut prog = words.next().unwrap_or("");
    if prog.rsplit('/').next() == Some("env") {
        prog = words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .unwrap_or("");
    }
    let base = prog.rsplit('/').next().unwrap_or(prog);
    if SHELLS.contains(&base) {
        Interp::Shell
    } else if is_python(base) {
        Interp::Code(Lang::Python)
    } else if matches!(base, "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node") {
        Interp::Code(Lang::JavaScript)
    } else {
        Interp::Other
    }
}

/// A script file as found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Disk {
    /// Not there (or a folder): nothing runs from it.
    Missing,
    /// A program, not a script.
    Binary,
    /// Its text.
    Text(String),
    /// It cannot be judged: why.
    Problem(String),
}

/// Executable formats by their first bytes: ELF, Mach-O (32/64-bit, both byte orders, fat),
/// PE (`MZ`), WebAssembly.
const BINARY_MAGIC: &[&[u8]] = &[
    b"\x7fELF",
    b"\xfe\xed\xfa\xce",
    b"\xce\xfa\xed\xfe",
    b"\xfe\xed\xfa\xcf",
    b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",
    b"MZ",
    b"\0asm",
];

/// Read the script at the absolute path `abs` (`shown`: as the call names it): only a
/// regular file (symlinks followed), a binary recognised by its first bytes, at most
/// [`MAX_SCRIPT`] bytes of text.
pub(crate) fn read_script(abs: &str, shown: &str) -> Disk {
    let meta = match std::fs::metadata(abs) {
        Ok(m) => m,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Disk::Missing;
        }
        Err(e) => return Disk::Problem(format!("cannot read the script `{shown}`: {e}")),
    };
    if meta.is_dir() {
        return Disk::Missing;
    }
    if !meta.is_file() {
        return Disk::Problem(format!(
            "`{shown}` is not a regular file (a FIFO, a device or a socket): what it runs cannot be read"
        ));
    }
    let mut f = match std::fs::File::open(abs) {
        Ok(f) => f,
        Err(e) => return Disk::Problem(format!("cannot read the script `{shown}`: {e}")),
    };
    let mut head = Vec::with_capacity(8192);
    if let Err(e) = (&mut f).take(8192).read_to_end(&mut head) {
        return Disk::Problem(format!("cannot read the script `{shown}`: {e}"));
    }
    if BINARY_MAGIC.iter().any(|m| head.starts_with(m)) || head.contains(&0) {
        return Disk::Binary;
    }
    if meta.len() > MAX_SCRIPT {
        return Disk::Problem(format!(
            "the script `{shown}` is larger than {} KiB: what it runs is not read",
            MAX_SCRIPT / 1024
        ));
    }
    let mut all = head;
    if let Err(e) = f.take(MAX_SCRIPT + 1).read_to_end(&mut all) {
        return Disk::Problem(format!("cannot read the script `{shown}`: {e}"));
    }
    if all.len() as u64 > MAX_SCRIPT {
        return Disk::Problem(format!(
            "the script `{shown}` is larger than {} KiB: what it runs is not read",
            MAX_SCRIPT / 1024
        ));
    }
    Disk::Text(String::from_utf8_lossy(&all).into_owned())
}

/// The Python / JavaScript code lens on a script file run by path (`python x.py`, `node
/// x.js`, `./x.py` whose `#!` line names python): `text` is the file's text (or the version
/// the session wrote), read with the bounds of a shell script; `argv` what the code sees as
/// its argument vector (the script, then its arguments); `route` the route its effects take
/// (its `via` already names the file). A part the lens cannot resolve counts only when
/// `keep_unsure` (a script this session wrote): a project's own script is judged by what it
/// resolves, like its shell scripts.
#[allow(
    clippy::too_many_arguments,
    reason = "one call site, all parts of one script run"
)]
fn code_script(
    lang: Lang,
    path: &str,
    text: &str,
    argv: &[String],
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    keep_unsure: bool,
    fx: &mut Vec<Effect>,
) {
    let language = match lang {
        Lang::Python => super::inline::Language::Python,
        Lang::JavaScript
            if [".ts", ".mts", ".cts", ".tsx"]
                .iter()
                .any(|x| path.to_ascii_lowercase().ends_with(x)) =>
        {
            super::inline::Language::TypeScript
        }
        Lang::JavaScript => super::inline::Language::JavaScript,
        Lang::PowerShell => super::inline::Language::PowerShell,
        Lang::Cmd => super::inline::Language::Cmd,
    };
    let mut found = Effects::default();
    super::inline::code_lens(language, text, argv, route, cwd, env, &mut found);
    fx.extend(
        found
            .list
            .into_iter()
            .filter(|e| keep_unsure || resolved(&e.what)),
    );
}

/// Add the effects of every script the call's `run` effects run by path.
pub(crate) fn scripts_run(fx: &mut Effects, env: &ShellEnv, memory: Option<&SessionMemory>) {
    let mut visited: HashSet<String> = HashSet::new();
    let mut budget = MAX_CALL_SCRIPT_BYTES;
    let mut start = 0;
    for depth in 0..=MAX_SCRIPT_DEPTH {
        let end = fx.list.len();
        if start >= end {
            break;
        }
        let mut derived: Vec<Effect> = Vec::new();
        for e in &fx.list[start..end] {
            let What::Run(c) = &e.what else {
                continue;
            };
            let Some(job) = job_of(c) else {
                continue;
            };
            let mut cx = Scripts {
                c,
                route: &e.route,
                env,
                memory,
                visited: &mut visited,
                budget: &mut budget,
                out: &mut derived,
            };
            if depth == MAX_SCRIPT_DEPTH {
                cx.unsure(
                    format!(
                        "`{}`: scripts run by scripts are not followed deeper than {MAX_SCRIPT_DEPTH} levels",
                        c.display_words()
                    ),
                    None,
                );
                continue;
            }
            match job {
                Job::Script { path, how } => cx.script(&path, how),
                Job::Make => cx.make(),
                Job::Npm { names, dir } => cx.npm(&names, dir.as_deref()),
            }
        }
        fx.list.extend(derived);
        start = end;
    }
}

/// Whether an effect is fully known now: not `unsure`, and no program, argument, path or
/// destination of it only known at run time.
fn resolved(w: &What) -> bool {
    match w {
        What::Unsure(_) => false,
        What::Run(c) => {
            // With the folder unknown (`cd "$D"`), a relative operand names an unknown path.
            let relative = |a: &Arg| !a.text.starts_with(['-', '/', '~']);
            !c.dynamic_program
                && !c.args.iter().chain(&c.redirects).any(|a| a.dynamic)
                && (c.cwd.is_some() || !c.args.iter().any(relative))
        }
        What::Read(p)
        | What::Load(p)
        | What::Write { path: p, .. }
        | What::Delete { path: p, .. }
        | What::ChangePermission { path: p, .. } => {
            // A relative path after a `cd` to a folder only known at run time is unknown too.
            !p.dynamic && (p.cwd.is_some() || p.text.starts_with(['/', '~']))
        }
        What::Send(s) => !s.dynamic && s.endpoint.is_some(),
        What::Signal { targets, .. } => !targets.iter().any(|a| a.dynamic),
        What::Install { packages, .. } => !packages.iter().any(|a| a.dynamic),
        What::Destroy { targets, .. } => !targets.iter().any(|a| a.dynamic),
        What::Configure(c) => !c.file.dynamic,
        What::Grant(g) => g.path.as_ref().is_none_or(|p| !p.dynamic),
    }
}

/// One command that runs a file, and where its effects go.
struct Scripts<'a> {
    c: &'a SimpleCommand,
    route: &'a Route,
    env: &'a ShellEnv,
    memory: Option<&'a SessionMemory>,
    visited: &'a mut HashSet<String>,
    /// Bytes of script text this call may still analyse.
    budget: &'a mut usize,
    out: &'a mut Vec<Effect>,
}

/// One version of a file to judge.
struct Version {
    /// How it is named in `via`.
    label: String,
    /// Its text.
    text: String,
    /// Whether what it leaves unresolved counts (`unsure`): in a file the session wrote,
    /// not in a fragment of one (an edit is judged by what it resolves to).
    keep_unsure: bool,
}

impl Scripts<'_> {
    /// The route of what runs from the file, `label` added to its wrappers.
    fn route_via(&self, label: Option<&str>) -> Route {
        let mut r = self.route.clone();
        if let Some(l) = label {
            r.via.push(l.to_string());
        }
        r
    }

    fn unsure(&mut self, why: String, label: Option<&str>) {
        let route = self.route_via(label);
        self.out.push(Effect {
            what: What::Unsure(why),
            route,
        });
    }

    /// The versions of the file at `abs` (disk, and what the session wrote), with the
    /// problems reported; `None` when nothing is there.
    fn versions(&mut self, abs: &str, shown: &str, label: &str) -> Option<Vec<Version>> {
        let disk = read_script(abs, shown);
        let written = self.memory.and_then(|m| m.written(abs));
        let here = written.is_some();
        let mut versions: Vec<Version> = Vec::new();
        let mut disk_text: Option<String> = None;
        match disk {
            Disk::Missing if written.is_none() => return None,
            Disk::Missing | Disk::Binary => {}
            Disk::Text(t) => {
                disk_text = Some(t.clone());
                versions.push(Version {
                    label: label.to_string(),
                    text: t,
                    keep_unsure: here,
                });
            }
            Disk::Problem(why) => self.unsure(why, Some(label)),
        }
        if let Some(w) = written {
            let remembered = format!("{label} as written earlier in this session");
            // The disk holds every edit made since the whole version: it is that version,
            // edited, and the edits are judged with it.
            let edited_on_disk = !w.fragments.is_empty()
                && disk_text
                    .as_deref()
                    .is_some_and(|d| w.fragments.iter().all(|f| d.contains(f)));
            if let Some(t) = w
                .whole
                .filter(|t| disk_text.as_deref() != Some(*t) && !edited_on_disk)
            {
                versions.push(Version {
                    label: remembered.clone(),
                    text: t.to_string(),
                    keep_unsure: true,
                });
            }
            // A fragment the file on disk holds is judged with it.
            for t in w.fragments {
                if !disk_text.as_deref().is_some_and(|d| d.contains(t)) {
                    versions.push(Version {
                        label: remembered.clone(),
                        text: t.to_string(),
                        keep_unsure: false,
                    });
                }
            }
            // Written with content that was not visible and not on disk now: the shell
            // cannot run it (it was removed, or never made because the write was refused),
            // and a replay on another machine has no disk to read. Nothing to add.
        }
        let size: usize = versions.iter().map(|v| v.text.len()).sum();
        if size > *self.budget {
            self.unsure(
                format!(
                    "the scripts this call runs are longer than {} KiB together: `{shown}` is not read",
                    MAX_CALL_SCRIPT_BYTES / 1024
                ),
                Some(label),
            );
            return Some(Vec::new());
        }
        *self.budget -= size;
        Some(versions)
    }

    /// A script file run by path.
    fn script(&mut self, path: &str, how: How) {
        let cwd = self.c.cwd.as_deref();
        let Some(abs) = crate::memory::key_of(path, cwd, &self.env.home) else {
            return;
        };
        if !self.visited.insert(abs.clone()) {
            return;
        }
        let label = format!("runs {path}");
        let Some(versions) = self.versions(&abs, path, &label) else {
            return;
        };
        for Version {
            label,
            text,
            keep_unsure,
        } in versions
        {
            let how = match (how, interpreter(&text)) {
                (How::Sql, _) => How::Sql,
                (How::Shebang, Interp::Shell) | (How::Shell, _) => How::Shell,
                (How::Shebang, Interp::Code(l)) | (How::Code(l), _) => How::Code(l),
                (How::Shebang, Interp::Other) => continue,
            };
            match how {
                How::Code(lang) => {
                    let route = self.route_via(Some(&label));
                    // The code sees the script and the words after it.
                    let argv: Vec<String> = std::iter::once(path.to_string())
                        .chain(
                            self.c
                                .args
                                .iter()
                                .skip_while(|a| a.text != path)
                                .skip(1)
                                .map(|a| a.text.clone()),
                        )
                        .collect();
                    code_script(
                        lang,
                        path,
                        &text,
                        &argv,
                        &route,
                        cwd,
                        self.env,
                        keep_unsure,
                        self.out,
                    );
                }
                How::Sql => self.sql_text(&text, &label, keep_unsure),
                _ => self.shell_text(&text, cwd, &label, keep_unsure),
            }
        }
    }

    /// SQL run from a file by a database client: its statements (a client's own
    /// backslash commands left out), as `run`s of `sql`.
    fn sql_text(&mut self, text: &str, label: &str, keep_unsure: bool) {
        let who = self.c.basename().to_string();
        let text = crate::effects::programs::database::without_meta(text);
        for st in super::sql::statements(&text, false).unwrap_or_default() {
            if keep_unsure && let Some(why) = st.unparsed(&who) {
                self.unsure(why, Some(label));
            }
            let route = self.route_via(Some(label));
            self.out.push(Effect {
                what: What::Run(st.run(self.c.cwd.as_deref())),
                route,
            });
        }
    }

    /// Shell text run from a file, in `cwd`.
    fn shell_text(&mut self, text: &str, cwd: Option<&str>, label: &str, keep_unsure: bool) {
        let a = BrushAnalyzer.analyze(text, cwd);
        let mut inner = Effects::default();
        super::shell::lens_analysis(
            &self.route.tool,
            &self.route.argument,
            &a,
            self.env,
            &mut inner,
        );
        for mut d in inner.list {
            if !keep_unsure && !resolved(&d.what) {
                continue;
            }
            d.route.lens = self.route.lens;
            let mut via = self.route.via.clone();
            via.push(label.to_string());
            via.append(&mut d.route.via);
            d.route.via = via;
            self.out.push(d);
        }
    }

    /// `make [-C DIR] [-f FILE] [VAR=value…] [TARGET…]`: the recipes of the targets (the
    /// default goal when none is named) and of their prerequisites.
    fn make(&mut self) {
        let Some(call) = MakeCall::parse(&self.c.args) else {
            return;
        };
        let cwd = self.c.cwd.as_deref();
        let dir = match &call.dir {
            Some(d) => crate::memory::key_of(d, cwd, &self.env.home),
            None => cwd.and_then(|c| crate::memory::key_of(c, None, &self.env.home)),
        };
        let Some(dir) = dir else {
            return;
        };
        let names: Vec<String> = match &call.file {
            Some(f) => vec![f.clone()],
            None => ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        };
        for name in names {
            let Some(abs) = crate::memory::key_of(&name, Some(&dir), &self.env.home) else {
                continue;
            };
            let key = format!("make\u{0}{abs}\u{0}{}", call.targets.join("\u{0}"));
            if self.visited.contains(&key) {
                return;
            }
            let label = format!("runs {name}");
            let Some(versions) = self.versions(&abs, &name, &label) else {
                continue;
            };
            self.visited.insert(key);
            for v in versions {
                let mf = Makefile::parse(&v.text);
                for (target, line) in mf.recipes(&call.targets, &call.vars) {
                    let l = format!("{} (target `{target}`)", v.label);
                    self.shell_text(&line, Some(&dir), &l, v.keep_unsure);
                }
            }
            // make reads the first of its default names that exists.
            return;
        }
    }
}

impl Scripts<'_> {
    /// `package.json` scripts run by a package manager, in the nearest folder (from the
    /// working directory, or `dir`, up) that has one on disk or written by the session.
    fn npm(&mut self, names: &[String], dir: Option<&str>) {
        let cwd = self.c.cwd.as_deref();
        let start = match dir {
            Some(d) => crate::memory::key_of(d, cwd, &self.env.home),
            None => cwd.and_then(|c| crate::memory::key_of(c, None, &self.env.home)),
        };
        let Some(mut folder) = start else {
            return;
        };
        for _ in 0..32 {
            let abs = format!("{}/package.json", folder.trim_end_matches('/'));
            let key = format!("npm\u{0}{abs}\u{0}{}", names.join("\u{0}"));
            if self.visited.contains(&key) {
                return;
            }
            let label = "runs package.json".to_string();
            if let Some(versions) = self.versions(&abs, "package.json", &label) {
                self.visited.insert(key);
                for version in versions {
                    let Ok(v) = serde_json::from_str::<serde_json::Value>(&version.text) else {
                        continue;
                    };
                    for n in names {
                        let cmd = v.get("scripts").and_then(|s| s.get(n.as_str()));
                        if let Some(cmd) = cmd.and_then(serde_json::Value::as_str) {
                            let l = format!("{} (script `{n}`)", version.label);
                            self.shell_text(cmd, Some(&folder), &l, version.keep_unsure);
                        }
                    }
                }
                return;
            }
            match folder.rsplit_once('/') {
                Some((parent, _)) if !parent.is_empty() => folder = parent.to_string(),
                _ => return,
            }
        }
    }
}

/// The words of a `make` call.
#[derive(Debug, Default, PartialEq, Eq)]
struct MakeCall {
    dir: Option<String>,
    file: Option<String>,
    targets: Vec<String>,
    vars: HashMap<String, String>,
}

/// `make` options that take a value.
const MAKE_VALUED: &[&str] = &["-I", "-j", "-l", "-o", "-W", "--jobs", "--load-average"];

impl MakeCall {
    /// `None` when nothing runs (`-n`, `-q`, `-p`, `-t`, `--version`, `--help`) or a word
    /// that matters is only known at run time.
    fn parse(args: &[Arg]) -> Option<MakeCall> {
        let mut call = MakeCall::default();
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            let t = a.text.as_str();
            let mut value = |inline: &str| -> Option<String> {
                if inline.is_empty() {
                    let v = args.get(i)?;
                    i += 1;
                    (!v.dynamic).then(|| v.text.clone())
                } else {
                    Some(inline.to_string())
                }
            };
            if let Some(rest) = t.strip_prefix("--") {
                let (name, inline) = rest.split_once('=').unwrap_or((rest, ""));
                match name {
                    "just-print" | "dry-run" | "recon" | "question" | "print-data-base"
                    | "touch" | "version" | "help" => return None,
                    "directory" => call.dir = Some(value(inline)?),
                    "file" | "makefile" => call.file = Some(value(inline)?),
                    "include-dir" | "what-if" | "new-file" | "assume-new" | "old-file"
                    | "assume-old" | "eval"
                        if inline.is_empty() =>
                    {
                        i += 1;
                    }
                    _ => {}
                }
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                let flags = &t[1..];
                for (k, ch) in flags.char_indices() {
                    match ch {
                        'n' | 'q' | 'p' | 't' | 'v' => return None,
                        'C' | 'f' => {
                            let v = value(&flags[k + 1..])?;
                            if ch == 'C' {
                                call.dir = Some(match call.dir.take() {
                                    Some(d) if !v.starts_with('/') => format!("{d}/{v}"),
                                    _ => v,
                                });
                            } else {
                                call.file = Some(v);
                            }
                            break;
                        }
                        'I' | 'o' | 'W' | 'l' => {
                            if flags[k + 1..].is_empty() {
                                i += 1;
                            }
                            break;
                        }
                        'j' => break,
                        _ => {}
                    }
                }
                continue;
            }
            if MAKE_VALUED.contains(&t) {
                i += 1;
                continue;
            }
            if let Some((k, v)) = t.split_once('=')
                && !k.is_empty()
                && !k.contains(char::is_whitespace)
            {
                let k = k.trim_end_matches([':', '?', '+', '!']);
                call.vars.insert(k.to_string(), v.to_string());
                continue;
            }
            if a.dynamic {
                return None;
            }
            call.targets.push(t.to_string());
        }
        Some(call)
    }
}

/// One rule of a Makefile.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct MakeRule {
    targets: Vec<String>,
    prereqs: Vec<String>,
    recipe: Vec<String>,
}

/// What a Makefile says, as far as recipes go: variables, explicit rules, the default goal.
#[derive(Debug, Default, PartialEq, Eq)]
struct Makefile {
    vars: HashMap<String, String>,
    rules: Vec<MakeRule>,
    default_goal: Option<String>,
}

/// Variables make defines by itself (GNU make's built-in rules).
const MAKE_DEFAULTS: &[(&str, &str)] = &[
    ("MAKE", "make"),
    ("CC", "cc"),
    ("CXX", "g++"),
    ("CPP", "cc -E"),
    ("AR", "ar"),
    ("AS", "as"),
    ("LD", "ld"),
    ("RM", "rm -f"),
    ("SHELL", "/bin/sh"),
    ("LEX", "lex"),
    ("YACC", "yacc"),
    ("FC", "f77"),
];

/// Directives that are not rules or assignments (conditionals keep both branches).
const MAKE_DIRECTIVES: &[&str] = &[
    "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
    "vpath", "unexport", "undefine", "private",
];

/// A line without its comment (`#` not escaped).
fn strip_comment(l: &str) -> &str {
    let b = l.as_bytes();
    for (i, &ch) in b.iter().enumerate() {
        if ch == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &l[..i];
        }
    }
    l
}

/// `NAME = value`, `NAME := value`, `NAME ?= value`, `NAME += value`, `NAME != cmd`: the
/// name, the operator's last-but-`=` part and the value.
fn assignment(t: &str) -> Option<(&str, &str, &str)> {
    let eq = t.find('=')?;
    let head = &t[..eq];
    let (name, op) = ["::", ":", "?", "+", "!"]
        .iter()
        .find_map(|op| head.strip_suffix(op).map(|n| (n, *op)))
        .unwrap_or((head, ""));
    let name = name.trim();
    if name.is_empty() || name.contains([':', ' ', '\t']) {
        return None;
    }
    Some((name, op, t[eq + 1..].trim()))
}

impl Makefile {
    fn parse(text: &str) -> Makefile {
        let mut mf = Makefile::default();
        let lines: Vec<&str> = text.lines().collect();
        let mut current: Option<usize> = None;
        let mut in_define = false;
        let mut i = 0;
        while let Some(&raw) = lines.get(i) {
            i += 1;
            if in_define {
                in_define = !raw.trim_start().starts_with("endef");
                continue;
            }
            if let Some(recipe) = raw.strip_prefix('\t') {
                let Some(r) = current.and_then(|r| mf.rules.get_mut(r)) else {
                    continue;
                };
                let mut l = recipe.to_string();
                // The shell gets a continued line with its backslash-newlines.
                while l.ends_with('\\')
                    && let Some(next) = lines.get(i)
                {
                    l.push('\n');
                    l.push_str(next.strip_prefix('\t').unwrap_or(next));
                    i += 1;
                }
                r.recipe.push(l);
                continue;
            }
            let mut l = raw.to_string();
            while l.ends_with('\\')
                && let Some(next) = lines.get(i)
            {
                l.pop();
                l.push(' ');
                l.push_str(next.trim_start());
                i += 1;
            }
            let t = strip_comment(&l).trim();
            if t.is_empty() {
                continue;
            }
            let first = t.split_whitespace().next().unwrap_or("");
            if first == "define"
                || (matches!(first, "export" | "override") && t.contains(" define "))
            {
                in_define = true;
                current = None;
                continue;
            }
            if MAKE_DIRECTIVES.contains(&first) {
                continue;
            }
            let t = t
                .strip_prefix("export ")
                .or_else(|| t.strip_prefix("override "))
                .unwrap_or(t)
                .trim();
            if let Some((name, op, value)) = assignment(t) {
                current = None;
                let v = match op {
                    "+" => match mf.vars.get(name) {
                        Some(old) => format!("{old} {value}"),
                        None => value.to_string(),
                    },
                    "?" if mf.vars.contains_key(name) => continue,
                    // `!=`: the output of a shell command, only known at run time.
                    "!" => format!("$(shell {value})"),
                    _ => value.to_string(),
                };
                if name == ".DEFAULT_GOAL" {
                    mf.default_goal = Some(v.trim().to_string());
                }
                mf.vars.insert(name.to_string(), v);
                continue;
            }
            let Some(colon) = t.find(':') else {
                current = None;
                continue;
            };
            // Targets and prerequisites are expanded when the rule is read.
            let none = HashMap::new();
            let targets: Vec<String> = mf
                .expand(&t[..colon], None, &none, 0)
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let rest = t[colon + 1..].trim_start_matches(':');
            let (prereqs, inline) = rest.split_once(';').unwrap_or((rest, ""));
            if prereqs.contains('=') || targets.is_empty() {
                // A target-specific variable (`t: VAR = x`).
                current = None;
                continue;
            }
            let prereqs: Vec<String> = mf
                .expand(prereqs, None, &none, 0)
                .split_whitespace()
                .filter(|p| *p != "|")
                .map(str::to_string)
                .collect();
            if mf.default_goal.is_none()
                && let Some(first) = targets
                    .iter()
                    .find(|t| !t.starts_with('.') && !t.contains('%'))
            {
                mf.default_goal = Some(first.clone());
            }
            let mut rule = MakeRule {
                targets,
                prereqs,
                recipe: Vec::new(),
            };
            if !inline.trim().is_empty() {
                rule.recipe.push(inline.trim().to_string());
            }
            mf.rules.push(rule);
            current = Some(mf.rules.len() - 1);
        }
        mf
    }

    /// The recipe lines of `goals` (the default goal when empty), prerequisites first, each
    /// with its target, expanded as make would and without its `@` / `-` / `+` prefixes.
    fn recipes(
        &self,
        goals: &[String],
        cmdline: &HashMap<String, String>,
    ) -> Vec<(String, String)> {
        let goals: Vec<String> = if goals.is_empty() {
            self.default_goal.iter().cloned().collect()
        } else {
            goals.to_vec()
        };
        let mut out = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for g in goals {
            self.walk(&g, 0, cmdline, &mut seen, &mut out);
        }
        out
    }

    fn walk(
        &self,
        target: &str,
        depth: usize,
        cmdline: &HashMap<String, String>,
        seen: &mut HashSet<String>,
        out: &mut Vec<(String, String)>,
    ) {
        if depth > crate::shell::MAX_DEPTH
            || seen.len() >= MAX_MAKE_TARGETS
            || !seen.insert(target.to_string())
        {
            return;
        }
        let rules: Vec<&MakeRule> = self
            .rules
            .iter()
            .filter(|r| r.targets.iter().any(|t| t == target))
            .collect();
        for r in &rules {
            for p in &r.prereqs {
                self.walk(p, depth + 1, cmdline, seen, out);
            }
        }
        for r in rules {
            let auto = Auto {
                target,
                prereqs: &r.prereqs,
            };
            for line in &r.recipe {
                let l = line.trim_start_matches(['@', '-', '+', ' ', '\t']);
                let l = self.expand(l, Some(&auto), cmdline, 0);
                if !l.trim().is_empty() {
                    out.push((target.to_string(), l));
                }
            }
        }
    }

    /// The value of variable `name`, expanded; `None` when make does not know it here.
    fn var(
        &self,
        name: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> Option<String> {
        let v = cmdline
            .get(name)
            .or_else(|| self.vars.get(name))
            .map(String::as_str)
            .or_else(|| {
                MAKE_DEFAULTS
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
            })?;
        Some(self.expand(v, auto, cmdline, depth + 1))
    }

    /// Expand make references in `s`: `$$` → `$`, known variables and automatic variables
    /// by their value, `$(shell CMD)` as the shell's `$(CMD)`, and what make cannot know
    /// here (a variable from the environment, a function) as a shell variable
    /// (`${NAME}`), which the shell lens treats as only known at run time.
    fn expand(
        &self,
        s: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> String {
        if depth > 16 || !s.contains('$') {
            return s.to_string();
        }
        let mut out = String::with_capacity(s.len());
        let mut chars = s.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            if ch != '$' {
                out.push(ch);
                continue;
            }
            let Some(&(j, next)) = chars.peek() else {
                out.push('$');
                break;
            };
            chars.next();
            match next {
                '$' => out.push('$'),
                '(' | '{' => {
                    let close = if next == '(' { ')' } else { '}' };
                    let mut level = 1;
                    let mut end = None;
                    for (k, c2) in chars.by_ref() {
                        if c2 == next {
                            level += 1;
                        } else if c2 == close {
                            level -= 1;
                            if level == 0 {
                                end = Some(k);
                                break;
                            }
                        }
                    }
                    let Some(end) = end else {
                        out.push_str(&s[i..]);
                        break;
                    };
                    let inner = &s[j + 1..end];
                    out.push_str(&self.reference(inner, auto, cmdline, depth));
                }
                c2 => {
                    let name = c2.to_string();
                    out.push_str(&self.reference(&name, auto, cmdline, depth));
                }
            }
        }
        out
    }

    /// The expansion of one reference (`VAR`, `@`, `shell CMD`, `wildcard *.c`).
    fn reference(
        &self,
        inner: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> String {
        if let Some(a) = auto {
            match inner {
                "@" => return a.target.to_string(),
                "<" => return a.prereqs.first().cloned().unwrap_or_default(),
                "^" | "+" | "?" => return a.prereqs.join(" "),
                "*" => return String::new(),
                _ => {}
            }
        }
        if let Some(cmd) = inner.strip_prefix("shell ") {
            return format!("$({})", self.expand(cmd, auto, cmdline, depth + 1));
        }
        if !inner.contains([' ', ',', ':', '$'])
            && let Some(v) = self.var(inner, auto, cmdline, depth)
        {
            return v;
        }
        let name: String = inner
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty()
            && !inner.contains([' ', ','])
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            format!("${{{name}}}")
        } else {
            "${MAKE_FUNCTION}".to_string()
        }
    }
}

/// Automatic variables of one recipe.
struct Auto<'a> {
    target: &'a str,
    prereqs: &'a [String],
}

#[cfg(test)]
#[path = "scripts_tests.rs"]
mod tests;
