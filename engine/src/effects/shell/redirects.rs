//! Redirections: the files a command reads and writes through `<`, `>`, `>>`, and the
//! `/dev/tcp` connections, with the text that shows them.

use super::out::{Out, path, read, write};
use super::request::send_host;
use crate::effects::model::{BodySource, What};
use crate::shell::{Arg, RedirectMode, SimpleCommand};

/// `> /etc/hosts`, `< .env`: how a command with no program shows in a route.
pub(super) fn redirections_text(c: &SimpleCommand) -> String {
    c.redirections
        .iter()
        .map(redirection_text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One redirection as written: `>> ~/.bashrc`, `2> log`, `< .env`.
fn redirection_text(r: &crate::shell::Redirect) -> String {
    let op = match r.mode {
        RedirectMode::Read => "<",
        RedirectMode::Write => ">",
        RedirectMode::Append => ">>",
        RedirectMode::ReadWrite => "<>",
        RedirectMode::Text => "<<",
    };
    let fd = r.fd.map(|n| n.to_string()).unwrap_or_default();
    format!("{fd}{op} {}", r.target.text)
}

/// The redirection of `c` an effect of [`redirect_effects`] came from, as written (the file
/// it reads or writes, the `/dev/tcp` connection it opens).
pub(super) fn redirect_shown(c: &SimpleCommand, w: &What) -> Option<String> {
    let target = match w {
        What::Read(p) | What::Write { path: p, .. } => Some(p.text.as_str()),
        _ => None,
    };
    c.redirections
        .iter()
        .filter(|r| r.mode != RedirectMode::Text)
        .find(|r| match target {
            Some(t) => r.target.text == t,
            None => {
                r.target.text.starts_with("/dev/tcp/") || r.target.text.starts_with("/dev/udp/")
            }
        })
        .map(redirection_text)
}

/// The file a command's redirections read, write or append to; what a literal `echo` /
/// `printf` writes is the content of its writes. Bash's `/dev/tcp/HOST/PORT` and
/// `/dev/udp/HOST/PORT` are connections: a `send` whose body is what the command reads.
pub(super) fn redirect_effects(c: &SimpleCommand, out: &mut Out) {
    // `echo …`, `printf …`, `cat <<EOF`, `tee f <<< …`: what is written is visible.
    let content = c.literal_output().or_else(|| {
        matches!(c.basename(), "cat" | "tee")
            .then(|| c.stdin_text().map(str::to_string))
            .flatten()
    });
    for r in &c.redirections {
        if let Some(rest) = (!r.target.dynamic)
            .then(|| {
                r.target
                    .text
                    .strip_prefix("/dev/tcp/")
                    .or_else(|| r.target.text.strip_prefix("/dev/udp/"))
            })
            .flatten()
        {
            let (host, port) = rest.split_once('/').unwrap_or((rest, ""));
            let mut body: Vec<BodySource> = out
                .list
                .iter()
                .filter_map(|w| match w {
                    What::Read(p) => Some(BodySource::File(p.clone())),
                    _ => None,
                })
                .collect();
            if body.is_empty() && r.mode != RedirectMode::Read {
                body.push(if content.is_some() {
                    BodySource::Literal
                } else {
                    BodySource::Stdin
                });
            }
            let host = Arg {
                text: host.to_string(),
                dynamic: false,
            };
            out.push(send_host(&host, (!port.is_empty()).then_some(port), body));
            continue;
        }
        match r.mode {
            RedirectMode::Read => read(&r.target, c, out),
            RedirectMode::Write | RedirectMode::Append => {
                if let Some(p) = path(&r.target, c) {
                    out.push(What::Write {
                        path: p,
                        append: r.mode == RedirectMode::Append,
                        content: content.clone(),
                    });
                }
            }
            RedirectMode::ReadWrite => {
                read(&r.target, c, out);
                write(&r.target, false, c, out);
            }
            RedirectMode::Text => {}
        }
    }
}
