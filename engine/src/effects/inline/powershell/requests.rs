//! Web requests and code evaluated from text in PowerShell: `Invoke-WebRequest` /
//! `Invoke-RestMethod` with their method, body, `-InFile` and `-OutFile`; what a subtree
//! downloads (a web cmdlet, `.DownloadString(…)`, a variable holding one); `Invoke-Expression`
//! and `[scriptblock]::Create` of a download (fetch-and-eval), of a literal (read as code) or
//! of a value only known at run time (`unsure`).

use tree_sitter::Node;

use super::binding::{Bound, bind};
use super::cmdlets::{Act, P, cmdlet};
use super::dotnet;
use super::model::{Command, Element, Flow, path, read_command};
use super::words::env_names;
use super::words::{Vars, provider};
use crate::effects::inline::{Collect, Found, Res, nodes, text};
use crate::effects::model::{BodySource, PathRef, Send, What};
use crate::shell::Arg;

/// Variables assigned the result of a web request (`$s = irm https://…`).
pub(super) fn download_variables(all: &[Node<'_>], code: &str) -> Vec<(String, Arg)> {
    let mut out = Vec::new();
    for n in all.iter().filter(|n| n.kind() == "assignment_expression") {
        let (Some(left), Some(value)) = (n.named_child(0), n.child_by_field_name("value")) else {
            continue;
        };
        if let Some(url) = download_in(value, code, &Vars::new(), &[]) {
            let name = text(left, code).trim().trim_start_matches('$');
            out.push((name.to_ascii_lowercase(), url));
        }
    }
    out
}

/// The URL a subtree downloads, if it holds a web request or a download call, or names a
/// variable holding one.
pub(super) fn download_in(
    n: Node<'_>,
    code: &str,
    vars: &Vars,
    downloads: &[(String, Arg)],
) -> Option<Arg> {
    for k in nodes(n) {
        match k.kind() {
            "command" => {
                let c = read_command(k, code, vars)?;
                if cmdlet(&c.name.text).is_some_and(|x| x.act == Act::Web) {
                    let url = first_url(&c).unwrap_or(Arg {
                        text: text(k, code).to_string(),
                        dynamic: true,
                    });
                    return Some(url);
                }
            }
            "variable" => {
                let v = text(k, code).trim_start_matches('$').to_ascii_lowercase();
                if let Some((_, u)) = downloads.iter().find(|(name, _)| *name == v) {
                    return Some(u.clone());
                }
            }
            "argument_list" => {
                if let Some(u) = dotnet::download_url(k, code, vars) {
                    return Some(u);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first URL among a command's values.
pub(super) fn first_url(c: &Command<'_>) -> Option<Arg> {
    c.elements.iter().find_map(|e| match e {
        Element::Value(_, vals) => vals
            .iter()
            .find(|v| v.text.contains("://") || v.dynamic)
            .cloned(),
        _ => None,
    })
}

/// `Invoke-WebRequest` / `Invoke-RestMethod`: a request, its body, the file it saves.
#[allow(clippy::too_many_arguments, reason = "one request's parts")]
pub(super) fn web(
    b: &Bound,
    input: Option<&Flow>,
    c: &Command<'_>,
    code: &str,
    vars: &Vars,
    shown: &str,
    cx: &mut Collect<'_>,
    out: &mut Flow,
) {
    let mut body: Vec<BodySource> = Vec::new();
    for a in b.of(P::InFile) {
        let p = path(a, cx);
        cx.push(What::Read(p.clone()));
        body.push(BodySource::File(p));
    }
    for (role, a, idx) in &b.values {
        if *role != P::Body {
            continue;
        }
        for v in env_names(&a.text) {
            body.push(BodySource::Env(v));
        }
        if !a.dynamic {
            body.push(BodySource::Literal);
        }
        // `-Body (Get-Content .env -Raw)`, `-Form @{f = Get-Item .env}`: files read in it.
        for i in idx {
            if let Some(Element::Value(ns, _)) = c.elements.get(*i) {
                for n in ns {
                    for p in reads_in(*n, code, vars, cx) {
                        body.push(BodySource::File(p));
                    }
                }
            }
        }
    }
    if let Some(f) = input {
        body.push(BodySource::Stdin);
        body.extend(f.reads.iter().cloned().map(BodySource::File));
        for e in &f.env {
            body.push(if e == "*" {
                BodySource::Environment
            } else {
                BodySource::Env(e.clone())
            });
        }
    }
    let method = b.of(P::Method).next().map(|m| m.text.to_ascii_uppercase());
    let mut any = false;
    for u in b.of(P::Url) {
        any = true;
        let mut body = body.clone();
        for v in env_names(&u.text) {
            body.push(BodySource::Env(v));
        }
        cx.send_url(
            &Res::lit(u.text.clone()),
            method.clone().or_else(|| Some("GET".into())),
            body,
        );
        if u.dynamic
            && let Some(Found::What(w)) = cx.found.last_mut()
            && let What::Send(s) = w.as_mut()
        {
            s.dynamic = true;
            s.endpoint = None;
        }
        out.download = Some(u.clone());
    }
    if !any {
        cx.unsure(format!(
            "`{shown}` sends a request to an address known only at run time"
        ));
    }
    for a in b.of(P::OutFile) {
        cx.push(What::Write {
            path: path(a, cx),
            append: false,
            content: None,
        });
    }
}

/// Files a subtree reads (`(Get-Content .env -Raw)`, `Get-Item .env`,
/// `[IO.File]::ReadAllText('.env')`).
pub(super) fn reads_in(n: Node<'_>, code: &str, vars: &Vars, cx: &Collect<'_>) -> Vec<PathRef> {
    let mut out = Vec::new();
    for k in nodes(n) {
        if k.kind() == "command"
            && let Some(c) = read_command(k, code, vars)
            && let Some(t) = cmdlet(&c.name.text)
            && matches!(t.act, Act::Read | Act::List)
        {
            let b = bind(&c, t);
            out.extend(
                b.of(P::Path)
                    .filter(|a| provider(&a.text).is_none())
                    .map(|a| path(a, cx)),
            );
        }
        if k.kind() == "argument_list" {
            out.extend(
                dotnet::read_paths(k, code, vars)
                    .iter()
                    .map(|a| path(a, cx)),
            );
        }
    }
    out
}

/// `Invoke-Expression`: literal code is read as PowerShell; a download is run as `curl … |
/// sh` is; anything else is code known only at run time.
pub(super) fn eval(
    c: &Command<'_>,
    b: &Bound,
    input: Option<&Flow>,
    code: &str,
    vars: &Vars,
    downloads: &[(String, Arg)],
    cx: &mut Collect<'_>,
) {
    let args: Vec<(Arg, Vec<usize>)> = b
        .values
        .iter()
        .filter(|(r, _, _)| *r == P::Code)
        .map(|(_, a, i)| (a.clone(), i.clone()))
        .collect();
    if args.is_empty() {
        match input {
            Some(f) if f.download.is_some() => {
                if let Some(u) = &f.download {
                    runs_download(u, cx);
                }
            }
            Some(f) if f.literal.is_some() => {
                if let Some(l) = &f.literal {
                    cx.code("Invoke-Expression", l.clone());
                }
            }
            Some(f) if !f.reads.is_empty() => {
                for p in &f.reads {
                    cx.push(What::Read(p.clone()));
                }
                cx.unsure("`Invoke-Expression` runs PowerShell code read from a file".into());
            }
            _ => {
                cx.unsure("`Invoke-Expression` runs PowerShell code known only at run time".into())
            }
        }
        return;
    }
    for (a, idx) in args {
        if !a.dynamic {
            cx.code("Invoke-Expression", a.text);
            continue;
        }
        let mut found = false;
        for i in idx {
            if let Some(Element::Value(ns, _)) = c.elements.get(i) {
                for n in ns {
                    if let Some(u) = download_in(*n, code, vars, downloads) {
                        runs_download(&u, cx);
                        found = true;
                    }
                }
            }
        }
        if !found {
            cx.unsure("`Invoke-Expression` runs PowerShell code known only at run time".into());
        }
    }
}

/// Text built by code and then run (`[scriptblock]::Create(…)`).
pub(super) fn evaluated(
    n: Node<'_>,
    code: &str,
    vars: &Vars,
    downloads: &[(String, Arg)],
    who: &str,
    cx: &mut Collect<'_>,
) {
    match download_in(n, code, vars, downloads) {
        Some(u) => runs_download(&u, cx),
        None => cx.unsure(format!("`{who}` makes code of text known only at run time")),
    }
}

/// A download that is run as code: a `send` whose response runs.
pub(super) fn runs_download(u: &Arg, cx: &mut Collect<'_>) {
    let dynamic = u.dynamic;
    cx.push(What::Send(Send {
        url: Some(u.text.clone()),
        endpoint: if dynamic {
            None
        } else {
            crate::effects::url::parse(&u.text)
        },
        method: Some("GET".into()),
        body: Vec::new(),
        dynamic,
        runs_response: true,
    }));
}
