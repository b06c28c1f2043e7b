//! Which files a call writes as copies of others, for the session memory: a copying
//! command's destination holds its source (`cp a b`, `mv a b`, `docker cp c:/a b`, `cat a >
//! b`), and a file written while the call reads the process environment holds the
//! environment (`env > vars.txt`, a secret variable expanded into a file).
//!
//! In: the call's effects. Out: `(destination, source)` pairs ([`copy_pairs`]) and whether the
//! call reads the environment ([`reads_environment`]); the memory keeps them as
//! [`super::Entry::Copied`], and `effects::copies` reads a copy later as its source.

use crate::effects::model::{Effects, PathRef, What};

/// The process environment as a file: where a copy of it, or of a variable in it, comes from.
pub(crate) const ENVIRON: &str = "/proc/self/environ";

/// Whether a call reads the environment as data: a read of `/proc/<pid>/environ` (also one
/// derived by `effects::copies`), or a bare `env` / `printenv` (no command, no variable name), whose output
/// the call may redirect.
pub(crate) fn reads_environment(fx: &Effects) -> bool {
    fx.list.iter().any(|e| match &e.what {
        What::Read(p) => !p.dynamic && is_environ(&p.text),
        What::Run(c) => {
            matches!(c.basename(), "env" | "printenv")
                && !c.dynamic_program
                && c.args.iter().all(|a| a.text.starts_with('-'))
        }
        _ => false,
    })
}

/// Whether a path names a process environment (`/proc/self/environ`, `/proc/1/environ`).
fn is_environ(p: &str) -> bool {
    p.strip_prefix("/proc/")
        .and_then(|rest| rest.split('/').nth(1))
        .is_some_and(|f| f == "environ")
}

/// Programs that copy the files they read into the files they write (`docker cp`, `kubectl
/// cp` and `podman cp` by their `cp` subcommand).
const COPY_PROGRAMS: &[&str] = &["cp", "mv", "install", "rsync", "ditto", "cat", "tac"];

/// The `(destination, source)` pairs of the call's copying commands, absolute: a command that
/// copies reads one file and writes another (`cp .env notes.txt`, `docker cp svc:/app/.env
/// /tmp/x`, `cat a > b`). A command that reads several files or writes several is left out
/// (which went where is not known). `abs` names a path as the memory does.
pub(crate) fn copy_pairs(
    fx: &Effects,
    abs: impl Fn(&PathRef) -> Option<String>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(e) = fx.list.get(at) {
        at += 1;
        let What::Run(c) = &e.what else {
            continue;
        };
        let copies = COPY_PROGRAMS.contains(&c.basename())
            || matches!(c.basename(), "docker" | "podman" | "kubectl" | "oc")
                && c.args.iter().any(|a| a.text == "cp");
        if !copies || c.dynamic_program {
            continue;
        }
        // The effects of this command follow its run, up to the next run.
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        while let Some(next) = fx.list.get(at) {
            // Reads derived by the lenses (through a link, of a copy's source) are not the
            // command's own.
            if next.route.via != e.route.via {
                at += 1;
                continue;
            }
            match &next.what {
                What::Run(_) => break,
                What::Read(p) => reads.push(abs(p)),
                What::Write { path, .. } => writes.push(abs(path)),
                _ => {}
            }
            at += 1;
        }
        if let ([Some(from)], [Some(to)]) = (reads.as_slice(), writes.as_slice())
            && from != to
        {
            out.push((to.clone(), from.clone()));
        }
    }
    out
}
