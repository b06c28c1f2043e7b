//! Requests: the bodies a request sends (`-d @file`, `-F f=@file`, `$VAR`) and the
//! `send` effects to a URL, a host or an scp-style remote.

use crate::effects::model::{BodySource, PathRef, Send, What};
use crate::shell::{Arg, RedirectMode, SimpleCommand};

/// The file standard input is redirected from, if any (`nc host 80 < file`).
pub(super) fn stdin_file(c: &SimpleCommand) -> Option<&Arg> {
    c.redirections
        .iter()
        .rev()
        .find(|r| r.mode == RedirectMode::Read && r.fd.is_none_or(|fd| fd == 0))
        .map(|r| &r.target)
}

/// The variable names a word expands (`$AWS_KEY`, `${TOKEN}`, `${TOKEN:-x}`), in order.
pub(crate) fn variables(t: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let braced = b.get(i + 1) == Some(&b'{');
            let start = if braced { i + 2 } else { i + 1 };
            let mut end = start;
            while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                end += 1;
            }
            if end > start
                && !b[start].is_ascii_digit()
                && let Some(name) = t.get(start..end)
                && !out.iter().any(|n| n == name)
            {
                out.push(name.to_string());
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The body sources of a request data word (`@file`, `@-`, `$VAR`, literal text).
pub(super) fn data_sources(v: &Arg, c: &SimpleCommand) -> Vec<BodySource> {
    let mut body = Vec::new();
    if let Some(f) = v.text.strip_prefix('@') {
        if f == "-" {
            body.push(BodySource::Stdin);
        } else {
            body.push(BodySource::File(PathRef::from_arg(
                &Arg {
                    text: f.to_string(),
                    dynamic: v.dynamic,
                },
                c.cwd.as_deref(),
            )));
        }
        return body;
    }
    let vars = variables(&v.text);
    if vars.is_empty() {
        body.push(BodySource::Literal);
    }
    body.extend(vars.into_iter().map(BodySource::Env));
    body
}

/// The body sources of a form field (`name=@file`, `name=<file`, `name=value`).
pub(super) fn form_sources(v: &Arg, c: &SimpleCommand) -> Vec<BodySource> {
    match v.text.split_once('=') {
        Some((_, value)) if value.starts_with(['@', '<']) => {
            let f = value.get(1..).unwrap_or_default();
            let f = f.split(';').next().unwrap_or(f);
            if f == "-" {
                vec![BodySource::Stdin]
            } else {
                vec![BodySource::File(PathRef::from_arg(
                    &Arg {
                        text: f.to_string(),
                        dynamic: v.dynamic,
                    },
                    c.cwd.as_deref(),
                ))]
            }
        }
        Some((_, value)) => data_sources(
            &Arg {
                text: value.to_string(),
                dynamic: v.dynamic,
            },
            c,
        ),
        None => data_sources(v, c),
    }
}

/// Add body sources, keeping each once.
pub(super) fn add_body(body: &mut Vec<BodySource>, more: Vec<BodySource>) {
    for b in more {
        if !body.contains(&b) {
            body.push(b);
        }
    }
}

/// Whether the destination part of a URL (`scheme://authority`, or a bare host) is only
/// known at run time.
fn destination_dynamic(a: &Arg) -> bool {
    if !a.dynamic {
        return false;
    }
    let t = a.text.as_str();
    let rest = t.split_once("://").map_or(t, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    t.starts_with('$')
        || authority.contains(['$', '`'])
        || t.split_once("://").is_some_and(|(s, _)| s.contains('$'))
}

/// A `send` to a URL word; variables in the URL itself are sent too.
pub(super) fn send_url(url: &Arg, method: Option<String>, mut body: Vec<BodySource>) -> What {
    let dynamic = destination_dynamic(url);
    add_body(
        &mut body,
        variables(&url.text)
            .into_iter()
            .map(BodySource::Env)
            .collect(),
    );
    What::Send(Send {
        url: Some(url.text.clone()),
        endpoint: if dynamic {
            None
        } else {
            crate::effects::url::parse(&url.text)
        },
        method,
        body,
        dynamic,
        runs_response: false,
    })
}

/// A `send` to a host (`nc host 80`, `ssh user@host`): no URL, the endpoint parsed from
/// `host[:port]`.
pub(super) fn send_host(host: &Arg, port: Option<&str>, body: Vec<BodySource>) -> What {
    let h = host
        .text
        .rsplit_once('@')
        .map_or(host.text.as_str(), |(_, h)| h);
    crate::effects::url::send_host(h, port, host.dynamic, body)
}

/// A `send` to a remote copy operand (`host:path`, `user@host:path`, `rsync://host/x`).
pub(super) fn send_remote(a: &Arg, body: Vec<BodySource>) -> What {
    if a.text.contains("://") {
        return send_url(a, None, body);
    }
    let host = a.text.split_once(':').map_or(a.text.as_str(), |(h, _)| h);
    let h = host.rsplit_once('@').map_or(host, |(_, h)| h);
    What::Send(Send {
        url: Some(a.text.clone()),
        endpoint: if a.dynamic {
            None
        } else {
            crate::effects::url::parse(h)
        },
        method: None,
        body,
        dynamic: a.dynamic,
        runs_response: false,
    })
}
