//! Scripts run by path: what a script file does when a call runs it.
//!
//! In: the `run` effects the lenses found: `bash x.sh`, `sh x.sh`, `./x.sh`, `scripts/x.sh`
//! (a program word that is a path), `sh -c ./x.sh` (the analyser already gives the inner
//! `./x.sh`), `source x.sh` / `. x.sh`, `make [TARGET…]`, the `package.json` scripts of
//! `npm run NAME` / `npm test` / `npm install` (and `yarn`, `pnpm`, `bun`), and
//! `python x.py` / `node x.js`, `Rscript x.R` / `R -f x.R` / `julia x.jl`.
//! A shell reading its script from a file on standard input (`bash < x.sh`) runs it too.
//! Out: the effects of the script's commands added to the call, each route marked
//! `via "runs <path>"` (`"runs <path> as written earlier in this session"` for a remembered
//! version, `"runs <Makefile> (target `t`)"` for a make recipe), so every rule that judges a
//! command judges it inside a script too.
//!
//! What is read: the file on disk relative to the command's working directory (symlinks
//! resolved), only a regular file, at most [`MAX_SCRIPT`](disk::MAX_SCRIPT) bytes; and what the
//! session wrote there earlier ([`crate::memory`]). Both are judged when both exist and differ (a script
//! changed on disk since the agent wrote it, or not on disk yet in a replay).
//!
//! Decisions:
//! - a file that does not exist and that the session did not write adds nothing: the shell
//!   fails to run it (`./configure` before `autoreconf`, a `node_modules/.bin/x` not
//!   installed); a file written earlier on the same line is the shell analyser's to follow;
//! - a binary (ELF, Mach-O, PE, or a NUL byte in its first 8 KiB) adds nothing: it is a
//!   program, not a script;
//! - a file that cannot be read, is larger than [`MAX_SCRIPT`](disk::MAX_SCRIPT) or is not a
//!   regular file (a FIFO, a device) is `unsure`, with that cause;
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

mod disk;
mod jobs;
mod make;

use std::collections::HashSet;

use super::model::{Effect, Effects, Route, What};
use crate::memory::SessionMemory;
use crate::shell::{Arg, BrushAnalyzer, ShellAnalyzer, SimpleCommand};
use crate::shell_env::ShellEnv;
pub(crate) use disk::{Disk, read_script};
use disk::{Interp, interpreter};
use jobs::{How, Job, Lang, job_of};
use make::{MakeCall, Makefile};

/// Most script text analysed for one call, in bytes (1 MiB, the longest command line).
pub(crate) const MAX_CALL_SCRIPT_BYTES: usize = crate::shell::MAX_SCRIPT_BYTES;

/// How many levels of scripts run by scripts are followed.
pub(crate) const MAX_SCRIPT_DEPTH: usize = 4;

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
        Lang::AppleScript => super::inline::Language::AppleScript,
        Lang::R => super::inline::Language::R,
        Lang::Julia => super::inline::Language::Julia,
    };
    let mut found = Effects::default();
    super::dispatch::code(language, text, argv, route, cwd, env, &mut found);
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

    /// A file or folder this command runs from (`abs`, shown as `shown`) that the session
    /// downloaded in an earlier call and has not written since with visible content: the
    /// command is added again, its route `via "downloaded earlier in this session …"`, so
    /// the rules on running code nobody has seen judge it whatever the file holds now. (A
    /// script downloaded on the same line is the shell analyser's: `unsure`. A package
    /// manager's install or scripts in a clone stay quiet, on the same line as later, like
    /// a build with cargo or go: the everyday way to try out a cloned project.)
    fn downloaded(&mut self, abs: &str, shown: &str) {
        let memory = self.memory;
        let Some(url) = memory.and_then(|m| m.downloaded_from(abs)) else {
            if let Some(cause) = memory.and_then(|m| m.unseen_cause(abs))
                && self.visited.insert(format!("unseen\u{0}{abs}"))
            {
                let label =
                    format!("unseen content written earlier in this session ({cause}): {shown}");
                let route = self.route_via(Some(&label));
                self.out.push(Effect {
                    what: What::Run(self.c.clone()),
                    route,
                });
            }
            return;
        };
        // Once per place: the command added is not read again.
        if !self.visited.insert(format!("downloaded\u{0}{abs}")) {
            return;
        }
        let label = format!("downloaded earlier in this session: {shown} from {url}");
        let route = self.route_via(Some(&label));
        self.out.push(Effect {
            what: What::Run(self.c.clone()),
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
        // A program run by path whose name says nothing of a script may be one the project
        // built (`./target/release/tool` after `cargo build` in a clone): not judged as
        // downloaded.
        if !matches!(how, How::Shebang) || crate::memory::script_named(path) {
            self.downloaded(&abs, path);
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
            let local =
                crate::effects::programs::database::local_dev_of(self.c, st.database.as_deref());
            if keep_unsure && let Some(why) = st.unparsed(&who) {
                self.unsure(why, Some(label));
            }
            let route = self.route_via(Some(label));
            self.out.push(Effect {
                what: What::Run(st.run(self.c.cwd.as_deref(), local)),
                route,
            });
        }
    }

    /// Shell text run from a file, in `cwd`.
    fn shell_text(&mut self, text: &str, cwd: Option<&str>, label: &str, keep_unsure: bool) {
        let a = BrushAnalyzer.analyze(text, cwd);
        let mut inner = Effects::default();
        super::dispatch::shell_analysis(
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
        // `make -f - <<EOF`, `make -f /dev/stdin <<< '…'`: the makefile is the text fed to
        // it, written in the line; its recipes are judged as any other.
        if matches!(call.file.as_deref(), Some("-" | "/dev/stdin")) {
            match self.c.stdin_known_text() {
                Some((text, true)) => {
                    let label = "runs the makefile on standard input";
                    let mf = Makefile::parse(text);
                    for (target, line) in mf.recipes(&call.targets, &call.vars) {
                        let l = format!("{label} (target `{target}`)");
                        self.shell_text(&line, dir.as_deref().or(cwd), &l, true);
                    }
                }
                Some((_, false)) => self.unsure(
                    format!(
                        "`{}` reads a makefile from standard input that is only partly known now",
                        self.c.display_words()
                    ),
                    None,
                ),
                None => {}
            }
            return;
        }
        let Some(dir) = dir else {
            return;
        };
        self.downloaded(&dir, call.dir.as_deref().unwrap_or("."));
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

#[cfg(test)]
mod tests;
