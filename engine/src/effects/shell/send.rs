//! The network actions: requests (`curl`, `wget`), HTTPie items, raw connections (`nc`,
//! `socat`) and their bodies.

use super::out::{Out, path, read, read_into_body, write};
use super::request::{
    add_body, data_sources, form_sources, send_host, send_remote, send_url, stdin_file, variables,
};
use crate::effects::model::{BodySource, PathRef, Send, What};
use crate::effects::programs::{Parsed, Role, Switch, is_remote};
use crate::shell::{Arg, SimpleCommand};

/// `curl`, `wget`, `git push|fetch|clone …`: a `send` per URL with the method and body the
/// options give.
pub(super) fn send(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut body: Vec<BodySource> = Vec::new();
    let mut has_data = false;
    let mut uploads = false;
    let mut headers: Vec<BodySource> = Vec::new();
    for (role, v) in &p.values {
        match role {
            Role::Data => {
                has_data = true;
                add_body(&mut body, data_sources(v, c));
            }
            Role::Form => {
                has_data = true;
                add_body(&mut body, form_sources(v, c));
            }
            Role::Urlencoded => {
                has_data = true;
                // `name@file` / `@file` read the file; `name=value` is data.
                let file = match v.text.split_once('@') {
                    Some((name, f)) if !name.contains('=') => Some(f),
                    _ => None,
                };
                match file {
                    Some(f) => add_body(
                        &mut body,
                        data_sources(
                            &Arg {
                                text: format!("@{f}"),
                                dynamic: v.dynamic,
                            },
                            c,
                        ),
                    ),
                    None => add_body(&mut body, form_sources(v, c)),
                }
            }
            Role::BodyFile => {
                uploads = true;
                if v.text == "-" || v.text == "." {
                    add_body(&mut body, vec![BodySource::Stdin]);
                } else {
                    add_body(
                        &mut body,
                        vec![BodySource::File(PathRef::from_arg(v, c.cwd.as_deref()))],
                    );
                }
            }
            Role::Header => {
                add_body(
                    &mut headers,
                    variables(&v.text)
                        .into_iter()
                        .map(BodySource::Env)
                        .collect(),
                );
            }
            _ => {}
        }
    }
    if c.basename() == "gh" {
        github_cli(c, p, body, headers, out);
        return;
    }
    if let Some(relay) = default_relay(c.basename()) {
        relay_transfer(c, p, body, relay, out);
        return;
    }
    let is_git = c.basename() == "git";
    let method = if is_git {
        None
    } else if let Some(m) = p.values_of(Role::Method).next() {
        Some(m.text.to_ascii_uppercase())
    } else if p.has(Switch::Get) {
        Some("GET".to_string())
    } else if uploads && c.basename().starts_with("curl") {
        // `curl -T` uploads with PUT; `wget --post-file` posts.
        Some("PUT".to_string())
    } else if uploads || has_data {
        Some("POST".to_string())
    } else {
        Some("GET".to_string())
    };
    add_body(&mut body, headers);
    let urls: Vec<&Arg> = p
        .values_of(Role::Url)
        .chain(p.operands_of(Role::Url))
        .collect();
    if is_git {
        // Only operands written as URLs (`origin` names a configured remote).
        let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
        let mut sent_any = false;
        for a in &ops {
            if is_remote(&a.text) {
                out.push(send_remote(a, Vec::new()));
                sent_any = true;
            }
        }
        // `git clone URL DIR` writes DIR; `git clone URL` the folder named after the URL's
        // last segment, without `.git` (git-clone(1), "<directory>").
        if p.sub
            .first()
            .is_some_and(|s| s == "clone" || s == "submodule")
            && sent_any
            && let Some(last) = ops.last()
        {
            if !is_remote(&last.text) {
                write(last, false, c, out);
            } else if p.sub.len() == 1
                && let Some(name) = clone_folder(last)
            {
                write(&name, false, c, out);
            }
        }
        return;
    }
    // `curl -O URL`, `wget URL`: the response is saved under the URL's last path segment.
    let saves = p.has(Switch::RemoteName)
        || (c.basename().starts_with("wget")
            && !c.args.iter().any(|a| {
                let t = a.text.as_str();
                t == "--spider"
                    || t.starts_with("--output-document")
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains('O'))
            }));
    let prefix = c
        .args
        .windows(2)
        .find(|w| matches!(w[0].text.as_str(), "-P" | "--directory-prefix"))
        .map(|w| w[1].clone());
    for u in urls {
        if saves && let Some(name) = remote_name(u) {
            let file = match &prefix {
                Some(d) => Arg {
                    text: format!("{}/{}", d.text.trim_end_matches('/'), name.text),
                    dynamic: d.dynamic || name.dynamic,
                },
                None => name,
            };
            write(&file, false, c, out);
        }
        out.push(send_url(u, method.clone(), body.clone()));
    }
    // `wget -i urls.txt`: the addresses are in a file.
    if c.basename().starts_with("wget")
        && c.args
            .iter()
            .any(|a| a.text == "-i" || a.text.starts_with("--input-file"))
    {
        out.push(What::Send(Send {
            url: None,
            endpoint: None,
            method,
            body,
            dynamic: true,
            runs_response: false,
        }));
    }
}

/// The relay a relay transfer tool sends to unless told another: croc's public relay,
/// magic-wormhole's transit relay, ffsend's default Send host.
fn default_relay(program: &str) -> Option<&'static str> {
    match program {
        "croc" => Some("croc.schollz.com"),
        "wormhole" => Some("transit.magic-wormhole.io"),
        "ffsend" => Some("send.vis.ee"),
        _ => None,
    }
}

/// `croc send FILE…`, `wormhole send FILE…`, `ffsend upload FILE…`: each file is read and
/// sent to the relay (the one named by `--relay` / `--relay-url` / `--host`, else the tool's
/// default), where anyone holding the code fetches it. Sending text (`--text`) sends no file.
fn relay_transfer(
    c: &SimpleCommand,
    p: &Parsed,
    mut body: Vec<BodySource>,
    relay: &str,
    out: &mut Out,
) {
    read_into_body(p.operands_of(Role::BodyFile), c, &mut body, out);
    if body.is_empty() {
        return;
    }
    let host = p.values_of(Role::Host).next().map_or_else(
        || Arg {
            text: format!("https://{relay}/"),
            dynamic: false,
        },
        |h| Arg {
            text: if h.text.contains("://") {
                h.text.clone()
            } else {
                format!("https://{}/", h.text)
            },
            dynamic: h.dynamic,
        },
    );
    out.push(send_url(&host, Some("PUT".into()), body));
}

/// `gh api`, `gh issue|pr … --body-file`, `gh release create|upload`, `gh gist create`: a
/// request to the GitHub API whose body holds the files the command uploads (each also a
/// read: the file's content leaves), the fields and headers it sends. A command that uploads
/// nothing (no file, no field, no method) is no request here.
fn github_cli(
    c: &SimpleCommand,
    p: &Parsed,
    mut body: Vec<BodySource>,
    headers: Vec<BodySource>,
    out: &mut Out,
) {
    for a in p.operands_of(Role::BodyFile) {
        if a.text == "-" {
            add_body(&mut body, vec![BodySource::Stdin]);
        } else {
            add_body(
                &mut body,
                vec![BodySource::File(PathRef::from_arg(a, c.cwd.as_deref()))],
            );
        }
    }
    for b in &body {
        if let BodySource::File(f) = b {
            out.push(What::Read(f.clone()));
        }
    }
    let api = p.sub.first().is_some_and(|s| s == "api");
    // Only what the command uploads is judged here: `gh pr create -b TEXT`, `gh api
    // repos/o/r` (a read of the API) send nothing of the machine's.
    let fields = p.values.iter().any(|(r, _)| *r == Role::Form);
    if body.is_empty() && !fields && p.values_of(Role::Method).next().is_none() {
        return;
    }
    let method = match p.values_of(Role::Method).next() {
        Some(m) => m.text.to_ascii_uppercase(),
        // `gh api` posts when it is given fields or a body (gh-api(1)).
        None => "POST".to_string(),
    };
    let host = p
        .values_of(Role::Host)
        .next()
        .map_or("api.github.com", |h| h.text.as_str());
    let endpoint = p
        .operands
        .first()
        .filter(|_| api)
        .map_or("", |(_, a)| a.text.trim_start_matches('/'));
    let mut all = body;
    add_body(&mut all, headers);
    out.push(send_url(
        &Arg {
            text: format!("https://{host}/{endpoint}"),
            dynamic: false,
        },
        Some(method),
        all,
    ));
}

/// The file name a URL is saved under: its last path segment (`index.html` for none).
fn remote_name(u: &Arg) -> Option<Arg> {
    let rest = u.text.split_once("://").map_or(u.text.as_str(), |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let (_, path) = path.split_once('/').unwrap_or((path, ""));
    let name = path.rsplit('/').next().unwrap_or_default();
    let name = if name.is_empty() { "index.html" } else { name };
    (!name.starts_with('$')).then(|| Arg {
        text: name.to_string(),
        dynamic: u.dynamic && name.contains(['$', '`']),
    })
}

/// `nc host port`, `telnet host port`, `ssh [user@]host [cmd]`, `sftp host`: a `send` to
/// the host; `nc` and `telnet` send their standard input (a redirected file by name, text
/// written in the line as a literal).
pub(super) fn connect(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let base = c.basename();
    let netcat = matches!(
        base,
        "nc" | "ncat" | "netcat" | "telnet" | "openssl-s_client"
    );
    // `nc -l 4444` listens: it connects nowhere.
    if netcat
        && p.other_flags
            .iter()
            .any(|f| !f.text.starts_with("--") && f.text.contains('l'))
    {
        return;
    }
    let Some(host) = ops.first() else { return };
    let port = if netcat {
        ops.get(1)
            .map(|a| a.text.as_str())
            .filter(|t| !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit()))
    } else {
        None
    };
    let body = match stdin_file(c) {
        Some(f) => path(f, c).map(BodySource::File).into_iter().collect(),
        // `echo hi | nc h 80`, `nc h 80 <<< hi`: text written in the line.
        None if netcat && c.stdin_text().is_some() => vec![BodySource::Literal],
        None if netcat => vec![BodySource::Stdin],
        None => Vec::new(),
    };
    out.push(send_host(host, port, body));
}

/// `http [METHOD] URL [ITEMS]` (HTTPie, xh): `k=v` / `k:=json` data, `k@file` / `k=@file`
/// files, `k==v` query, `Header:value`.
pub(super) fn http_items(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let mut method: Option<String> = None;
    if let Some(first) = ops.first()
        && ops.len() > 1
        && !first.text.is_empty()
        && first.text.chars().all(|ch| ch.is_ascii_uppercase())
    {
        method = Some(first.text.clone());
        ops.remove(0);
    }
    let Some((url, items)) = ops.split_first() else {
        return;
    };
    let mut body: Vec<BodySource> = Vec::new();
    let mut has_data = false;
    for it in items {
        let t = it.text.as_str();
        let as_arg = |s: &str| Arg {
            text: s.to_string(),
            dynamic: it.dynamic,
        };
        let file_body = |f: &str| {
            vec![BodySource::File(PathRef::from_arg(
                &as_arg(f),
                c.cwd.as_deref(),
            ))]
        };
        if let Some((_, v)) = t.split_once("==") {
            add_body(
                &mut body,
                variables(v).into_iter().map(BodySource::Env).collect(),
            );
        } else if let Some((_, f)) = t.split_once(":=@").or_else(|| t.split_once("=@")) {
            has_data = true;
            add_body(&mut body, file_body(f));
        } else if let Some((_, v)) = t.split_once(":=").or_else(|| t.split_once('=')) {
            has_data = true;
            add_body(&mut body, data_sources(&as_arg(v), c));
        } else if let Some((_, f)) = t.split_once('@') {
            has_data = true;
            add_body(&mut body, file_body(f));
        } else if let Some((_, v)) = t.split_once(':') {
            add_body(
                &mut body,
                variables(v).into_iter().map(BodySource::Env).collect(),
            );
        }
    }
    if let Some(f) = stdin_file(c)
        && let Some(pr) = path(f, c)
    {
        has_data = true;
        add_body(&mut body, vec![BodySource::File(pr)]);
    }
    for h in p.values_of(Role::Header) {
        add_body(
            &mut body,
            variables(&h.text)
                .into_iter()
                .map(BodySource::Env)
                .collect(),
        );
    }
    let method = method.or_else(|| Some(if has_data { "POST" } else { "GET" }.to_string()));
    out.push(send_url(url, method, body));
}

/// `socat ADDRESS ADDRESS`: network addresses are sent to with the file or standard input
/// of the other side as body; `FILE:`/`OPEN:` read, `CREATE:` writes, `EXEC:`/`SYSTEM:` run
/// shell text.
pub(super) fn socat(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut body: Vec<BodySource> = Vec::new();
    let mut targets: Vec<Arg> = Vec::new();
    for (_, a) in &p.operands {
        let t = a.text.as_str();
        let (kind, rest) = t.split_once(':').unwrap_or((t, ""));
        let rest = rest.split(',').next().unwrap_or(rest);
        let arg = |s: &str| Arg {
            text: s.to_string(),
            dynamic: a.dynamic,
        };
        match kind.to_ascii_uppercase().as_str() {
            "TCP" | "TCP4" | "TCP6" | "TCP-CONNECT" | "OPENSSL" | "OPENSSL-CONNECT" | "SSL"
            | "UDP" | "UDP4" | "UDP6" | "UDP-SENDTO" | "UDP-CONNECT" | "SCTP" | "SCTP-CONNECT"
            | "SOCKS4" | "SOCKS4A" | "SOCKS5" | "PROXY" | "DCCP" => targets.push(arg(rest)),
            "FILE" | "OPEN" | "GOPEN" => {
                read(&arg(rest), c, out);
                if let Some(pr) = path(&arg(rest), c) {
                    body.push(BodySource::File(pr));
                }
            }
            "CREATE" => write(&arg(rest), false, c, out),
            "EXEC" | "SYSTEM" => out.scripts.push(("socat EXEC".into(), arg(rest))),
            "-" | "STDIO" | "STDIN" | "STDOUT" => match stdin_file(c).and_then(|f| path(f, c)) {
                Some(pr) => body.push(BodySource::File(pr)),
                None => body.push(BodySource::Stdin),
            },
            _ => {}
        }
    }
    for t in targets {
        let (host, port) = match t.text.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p.to_string())),
            None => (t.text.clone(), None),
        };
        out.push(send_host(
            &Arg {
                text: host,
                dynamic: t.dynamic,
            },
            port.as_deref(),
            body.clone(),
        ));
    }
}

/// The folder `git clone URL` makes: the URL's last path segment without a trailing `/` or
/// `.git` (`https://github.com/a/b.git` → `b`, `git@host:a/b` → `b`).
fn clone_folder(url: &Arg) -> Option<Arg> {
    let t = url.text.trim_end_matches('/');
    let last = t.rsplit(['/', ':']).next()?;
    let name = last.strip_suffix(".git").unwrap_or(last);
    (!name.is_empty() && name != "." && name != "..").then(|| Arg {
        text: name.to_string(),
        dynamic: url.dynamic,
    })
}

/// `certutil -urlcache -split -f URL [FILE]`, `certutil -verifyctl -f URL`, `bitsadmin
/// /transfer JOB [/download|/upload] [/priority P] URL FILE`, `bitsadmin /addfile JOB URL
/// FILE`: a request to each URL; the local file after it is written (read and sent with
/// `/upload`). Options are words after `-` or `/`, in any case; other verbs (`certutil
/// -hashfile F SHA256`, `bitsadmin /list`) transfer nothing.
pub(super) fn windows_transfer(c: &SimpleCommand, out: &mut Out) {
    let verb = |a: &Arg| {
        let t = a.text.to_ascii_lowercase();
        t.strip_prefix(['-', '/'])
            .filter(|_| !t.contains("://"))
            .map(str::to_string)
    };
    let verbs: Vec<String> = c.args.iter().filter_map(verb).collect();
    let has = |w: &str| verbs.iter().any(|v| v == w);
    let transfers = match c.basename() {
        "certutil" => has("urlcache") || has("verifyctl"),
        _ => has("transfer") || has("addfile"),
    };
    if !transfers {
        return;
    }
    let upload = has("upload");
    let mut after_url = false;
    for a in &c.args {
        if a.text.contains("://") {
            after_url = true;
            let body = Vec::new();
            let method = if upload { "PUT" } else { "GET" };
            // The body of an upload is the local file named after the URL.
            if !upload {
                out.push(send_url(a, Some(method.into()), body));
            } else if let Some(file) = c
                .args
                .iter()
                .skip_while(|w| !std::ptr::eq(*w, a))
                .skip(1)
                .find(|w| verb(w).is_none())
            {
                read(file, c, out);
                out.push(send_url(
                    a,
                    Some(method.into()),
                    vec![BodySource::File(PathRef::from_arg(file, c.cwd.as_deref()))],
                ));
            }
            continue;
        }
        if after_url && verb(a).is_none() && !a.text.eq_ignore_ascii_case("delete") {
            if !upload {
                write(a, false, c, out);
            }
            after_url = false;
        }
    }
}
