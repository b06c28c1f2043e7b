//! Secret variables a shell line prints into the session: `echo $NPM_AUTH`, `printf %s
//! "$GITHUB_TOKEN"`, `printenv AWS_SECRET_ACCESS_KEY`, and the same piped through filters
//! that print what they read (`echo "$NPM_TOKEN" | base64`, `printenv X | cut -c1-8`).
//!
//! In: the line's analysis (its commands and pipes) and the effects each command added. Out:
//! for each such command, a read of the environment ([`ENVIRON`]) on its route marked `via "a
//! secret variable printed ($NAME)"`: the same effect the inline-code lens adds for
//! `print(os.environ["X"])`, so one rule (`secret-variable-print-needs-approval`) judges every
//! route. Names are judged by [`secret_variable`], the one word-part list.
//!
//! Using a variable is not printing it: output redirected into a file (the copies lens's
//! business), piped into a program that consumes it (`| gh auth login --with-token`, `| docker
//! login --password-stdin`), a length (`${#X}`) or a test (`${X:+set}`, `${X+x}`) prints no
//! value.

use std::ops::Range;

use super::out::command_route;
use crate::audit::secret_variable;
use crate::effects::copies::{ENVIRON, SECRET_PRINTED};
use crate::effects::model::{Effects, PathRef, What};
use crate::shell::{RedirectMode, ShellAnalysis, SimpleCommand};

/// Filters that print what they read (their standard input reaches the session changed or
/// not): a value piped through them is still printed.
const PRINTING_FILTERS: &[&str] = &[
    "cat", "base64", "base32", "basenc", "xxd", "od", "hexdump", "cut", "head", "tail", "rev",
    "tr", "sed", "awk", "gawk", "mawk", "tee", "fold", "strings", "less", "more", "column", "sort",
    "nl", "uniq", "grep", "jq",
];

/// The variables whose value a word expands into output: every `$NAME` / `${NAME…}` but a
/// length (`${#NAME}`, no name read here) and a test for being set (`${NAME:+word}`,
/// `${NAME+word}`: prints the word, not the value).
fn expanded(text: &str) -> Vec<String> {
    super::request::variables(text)
        .into_iter()
        .filter(|n| {
            let tested = ["", ":"].iter().any(|sep| {
                text.contains(&format!("${{{n}{sep}+"))
                    && !text.contains(&format!("${n}"))
                    && !text.contains(&format!("${{{n}}}"))
            });
            !tested
        })
        .collect()
}

/// The secret-named variables a command prints to its standard output.
fn printed_by(c: &SimpleCommand) -> Vec<String> {
    if c.dynamic_program {
        return Vec::new();
    }
    let names: Vec<String> = match c.basename() {
        "echo" | "printf" | "print" => c
            .args
            .iter()
            .filter(|a| a.dynamic)
            .flat_map(|a| expanded(&a.text))
            .collect(),
        "printenv" => c
            .args
            .iter()
            .filter(|a| !a.text.starts_with('-') && !a.dynamic)
            .map(|a| a.text.clone())
            .collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if secret_variable(&n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Whether a command's standard output goes into a file (`> f`, `>> f`, `&> f`), not to the
/// session; `/dev/stdout` and `/dev/stderr` are the session.
fn stdout_to_file(c: &SimpleCommand) -> bool {
    c.redirections.iter().any(|r| {
        matches!(r.mode, RedirectMode::Write | RedirectMode::Append)
            && matches!(r.fd, None | Some(1))
            && !matches!(
                r.target.text.as_str(),
                "/dev/stdout" | "/dev/stderr" | "/dev/tty"
            )
    })
}

/// Most pipe steps followed from a printing command.
const MAX_STEPS: usize = 16;

/// Whether what command `k` writes to standard output reaches the session: not into a file,
/// and through pipes only into filters that print it in turn.
fn reaches_session(a: &ShellAnalysis, k: usize) -> bool {
    let mut at = k;
    for _ in 0..MAX_STEPS {
        let Some(c) = a.commands.get(at) else {
            return false;
        };
        if stdout_to_file(c) {
            return false;
        }
        let Some(&(_, to)) = a.pipes.iter().find(|(from, _)| *from == at) else {
            return true;
        };
        match a.commands.get(to) {
            Some(next) if !next.dynamic_program && PRINTING_FILTERS.contains(&next.basename()) => {
                at = to;
            }
            _ => return false,
        }
    }
    false
}

/// Add a read of the environment for every command whose output prints a secret-named
/// variable into the session (see the module docs).
pub(super) fn secrets_printed(a: &ShellAnalysis, spans: &[Range<usize>], fx: &mut Effects) {
    let mut derived = Vec::new();
    for (k, c) in a.commands.iter().enumerate() {
        let names = printed_by(c);
        if names.is_empty() || !reaches_session(a, k) {
            continue;
        }
        let Some(route) = command_route(spans, k, fx) else {
            continue;
        };
        let mut route = route;
        route
            .via
            .push(format!("{SECRET_PRINTED} (${})", names.join(", $")));
        derived.push((What::Read(PathRef::new(ENVIRON, None)), route));
    }
    for (w, r) in derived {
        fx.push(w, r);
    }
}
