//! Secrets that change place: data from the process environment written into a file, a file
//! copied to another name, and such a file read again later in the session.
//!
//! In: the call's effects (its shell commands with their redirections) and the session memory.
//! Out, as reads of the environment ([`ENVIRON`]) that the secret and exfiltration rules judge:
//! - a write whose data expands a secret-named variable ([`crate::audit::secret_variable`]:
//!   `echo $AWS_SECRET_ACCESS_KEY >> x`, `printf '%s' "$NPM_TOKEN" > t`, an unquoted
//!   here-document or here-string naming `$GITHUB_TOKEN` fed to `cat > notes.txt`) reads the
//!   environment, on the write's route marked `via "a secret variable written into a file"`;
//! - a read of a file the session wrote earlier as a copy (the memory's
//!   [`Entry::Copied`](crate::memory::Entry::Copied): such a write, an environment dump
//!   redirected into a file, `cp .env notes.txt`, `docker cp svc:/app/.env /tmp/x`; copies of
//!   copies followed back) is also a read of its source, marked `via "a copy of the
//!   environment written earlier in this session"` (or `a copy of SOURCE …`), and a request
//!   body read from it carries the source: the secret rules judge the source's path.
//!
//! Variables that name no secret (`echo $PATH > x`, `printenv HOME > h`) are not secrets; a
//! dump filtered or not is the environment rules' business (`env-dump-needs-approval`).

use super::model::{BodySource, Effects, PathRef, What};
use crate::memory::SessionMemory;
pub(crate) use crate::memory::copied::ENVIRON;
use crate::shell::{RedirectMode, SimpleCommand};
use crate::shell_env::ShellEnv;

/// The `via` of a read of the environment by a call that prints a secret-named variable into
/// the session, on any route (`echo $NPM_AUTH`, `print(os.environ["GITHUB_TOKEN"])`; then the
/// variables: `($GITHUB_TOKEN)`).
pub(crate) const SECRET_PRINTED: &str = "a secret variable printed";

/// The `via` of a write's read of the environment (then the variables: `($GITHUB_TOKEN)`).
pub(crate) const SECRET_WRITTEN: &str = "a secret variable written into a file";

/// The `via` of a read of a file the session wrote with data from the environment.
pub(crate) const COPY_READ: &str = "a copy of the environment written earlier in this session";

/// Programs whose output is their arguments (`echo`, `printf`) or their standard input
/// (`cat`, `tee`): what they write into a redirection is that data.
const COPIERS: &[&str] = &["echo", "printf", "cat", "tee"];

/// The secret-named variables a command expands into the data it writes: in the arguments of
/// `echo` / `printf`, in the here-document or here-string fed to `cat` / `tee` when the shell
/// expands it (an unquoted delimiter).
fn secret_variables_of(c: &SimpleCommand) -> Vec<String> {
    if c.dynamic_program || !COPIERS.contains(&c.basename()) {
        return Vec::new();
    }
    let mut text = String::new();
    if matches!(c.basename(), "echo" | "printf") {
        for a in c.args.iter().filter(|a| a.dynamic) {
            text.push_str(&a.text);
            text.push(' ');
        }
    }
    if let Some((fed, false)) = c.stdin_known_text() {
        text.push_str(fed);
    }
    super::shell::variables(&text)
        .into_iter()
        .filter(|v| crate::audit::secret_variable(v))
        .collect()
}

/// The files a command's redirections write, as written.
fn redirect_targets(c: &SimpleCommand) -> impl Iterator<Item = &str> {
    c.redirections
        .iter()
        .filter(|r| matches!(r.mode, RedirectMode::Write | RedirectMode::Append))
        .filter(|r| !r.target.dynamic && !r.target.text.starts_with("/dev/"))
        .map(|r| r.target.text.as_str())
}

/// Add a read of the environment for every file a command writes with a secret-named
/// variable expanded into it.
pub(crate) fn secret_variables_written(fx: &mut Effects) {
    let mut derived = Vec::new();
    for e in &fx.list {
        let What::Run(c) = &e.what else {
            continue;
        };
        let vars = secret_variables_of(c);
        if vars.is_empty() {
            continue;
        }
        for file in redirect_targets(c) {
            // On the write's route, which shows the redirection.
            let mut route = fx
                .list
                .iter()
                .find(|w| matches!(&w.what, What::Write { path, .. } if path.text == file))
                .map_or_else(|| e.route.clone(), |w| w.route.clone());
            route
                .via
                .push(format!("{SECRET_WRITTEN} (${})", vars.join(", $")));
            derived.push((What::Read(PathRef::new(ENVIRON, None)), route));
        }
    }
    for (w, r) in derived {
        fx.push(w, r);
    }
}

/// Most copies of copies followed back to a source.
const MAX_HOPS: usize = 8;

/// The first source a file the session copied comes from, following copies of copies.
fn source_of(m: &SessionMemory, abs: &str) -> Option<String> {
    let mut from = m.copied_from(abs)?.to_string();
    for _ in 0..MAX_HOPS {
        match m.copied_from(&from) {
            Some(f) if f != from && f != abs => from = f.to_string(),
            _ => break,
        }
    }
    Some(from)
}

/// Reads of a file the session wrote earlier as a copy: each is also a read of what it was
/// copied from (the environment, a secret file), and a request body read from it carries it.
pub(crate) fn through_copies(fx: &mut Effects, env: &ShellEnv, memory: Option<&SessionMemory>) {
    let Some(m) = memory.filter(|m| m.has_copies()) else {
        return;
    };
    let from = |p: &PathRef| {
        if p.dynamic {
            return None;
        }
        let abs = crate::memory::key_of(&p.text, p.cwd.as_deref(), &env.home)?;
        source_of(m, &abs)
    };
    let mut derived = Vec::new();
    for e in &mut fx.list {
        match &mut e.what {
            What::Send(s) => {
                let extra: Vec<BodySource> = s
                    .body
                    .iter()
                    .filter_map(|b| match b {
                        BodySource::File(p) => from(p),
                        _ => None,
                    })
                    .map(|f| BodySource::File(PathRef::new(f, None)))
                    .collect();
                s.body.extend(extra);
            }
            What::Read(p) => {
                if let Some(f) = from(p) {
                    let mut route = e.route.clone();
                    route.via.push(if f == ENVIRON {
                        COPY_READ.to_string()
                    } else {
                        format!("a copy of {f} written earlier in this session")
                    });
                    derived.push((What::Read(PathRef::new(f, None)), route));
                }
            }
            _ => {}
        }
    }
    for (w, r) in derived {
        fx.push(w, r);
    }
}

#[cfg(test)]
#[path = "copies_tests.rs"]
mod tests;
