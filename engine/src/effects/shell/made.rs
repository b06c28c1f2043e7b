//! Deletes of what the same line made: `mkdir -p d/x && rm -rf d`, `touch p && rm p`, a
//! write check that removes its own probe.
//!
//! In: a line's analysis, the index of a deleting command, an operand, the shell
//! environment. Out: whether the operand is something an earlier command of the line made and
//! that does not exist now; [`mark_made`] marks such deletes [`Gone::MadeOnLine`].

use super::out::Out;
use crate::effects::model::{Gone, What};
use crate::shell::{Arg, ShellAnalysis};
use crate::shell_env::ShellEnv;

/// Marks each delete in `out` (the effects of command `k` of `a`) of a path the line made
/// itself ([`made_on_line`]) as [`Gone::MadeOnLine`].
pub(super) fn mark_made(a: &ShellAnalysis, k: usize, env: &ShellEnv, out: &mut Out) {
    for w in &mut out.list {
        if let What::Delete { path, gone, .. } = w {
            let o = Arg {
                text: path.text.clone(),
                dynamic: path.dynamic,
            };
            if made_on_line(a, k, &o, env) {
                *gone = Gone::MadeOnLine;
            }
        }
    }
}

/// Whether `o`, an operand the command at `k` of `a` deletes (`rm`, `unlink`, …: the
/// program table's delete role), is a file or folder an earlier command of the same line made
/// (`touch P`, `mkdir P`, `mkdir -p P/…`, `> P`) and that does not exist now: the line deletes what it
/// made itself (`touch ~/.rustup/tmp/probe && rm ~/.rustup/tmp/probe`, a write check) and
/// nothing that was there before the call. A path that exists now is not (`touch` of an
/// existing file makes nothing), nor one only known at run time.
pub(crate) fn made_on_line(a: &ShellAnalysis, k: usize, o: &Arg, env: &ShellEnv) -> bool {
    use crate::effects::programs::{Role, parse};
    let Some(c) = a.commands.get(k) else {
        return false;
    };
    if o.dynamic || !parse(c).is_some_and(|p| p.operands_of(Role::Delete).any(|d| d.text == o.text))
    {
        return false;
    }
    let abs = |text: &str, cwd: Option<&str>| crate::paths::normalize(text, cwd, &env.home);
    let Some(target) = abs(&o.text, c.cwd.as_deref()) else {
        return false;
    };
    if !target.starts_with('/') || std::fs::symlink_metadata(&target).is_ok() {
        return false;
    }
    a.commands.iter().take(k).any(|m| {
        if m.via != c.via || m.dynamic_program {
            return false;
        }
        let names = |x: &crate::shell::Arg| {
            !x.dynamic && abs(&x.text, m.cwd.as_deref()).as_deref() == Some(target.as_str())
        };
        // `mkdir -p a/b` makes every missing folder on the way: the target, missing now, is
        // made when it is `a/b` or one of its parents.
        let parents = m
            .args
            .iter()
            .any(|x| matches!(x.text.as_str(), "-p" | "--parents"));
        let under = |x: &crate::shell::Arg| {
            !x.dynamic
                && abs(&x.text, m.cwd.as_deref())
                    .is_some_and(|p| p.starts_with(&format!("{target}/")))
        };
        let made = matches!(m.basename(), "touch" | "mkdir")
            && m.args
                .iter()
                .any(|x| !x.text.starts_with('-') && (names(x) || (parents && under(x))));
        made || m.redirections.iter().any(|r| {
            matches!(
                r.mode,
                crate::shell::RedirectMode::Write | crate::shell::RedirectMode::Append
            ) && names(&r.target)
        })
    })
}
