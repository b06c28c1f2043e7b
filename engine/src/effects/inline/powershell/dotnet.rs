//! .NET calls in PowerShell code that act on files, the network and processes:
//! `[IO.File]::WriteAllText(p, t)`, `[IO.Directory]::Delete(p, $true)`,
//! `(New-Object Net.WebClient).DownloadString(u)`, `.UploadFile(u, f)`,
//! `[Diagnostics.Process]::Start(…)`, `New-Object Net.Sockets.TcpClient(h, p)`.
//!
//! In: an `argument_list` node (the parentheses of a method call) and the text before it on
//! the same expression (the receiver and the method name). Out: effects through
//! [`Collect`].

use tree_sitter::Node;

use super::model::{lit, path, program_word};
use super::words::{Vars, env_names, ps_values, split_top, split_windows};
use crate::effects::inline::{Collect, Res, text};
use crate::effects::model::{BodySource, Gone, What};
use crate::shell::Arg;

/// The receiver (lower case, as written: `[system.io.file]`, `(new-object net.webclient)`)
/// and method name (lower case) of the call whose arguments are `n`, and its arguments.
fn call_parts(n: Node<'_>, code: &str, vars: &Vars) -> Option<(String, String, Vec<Arg>)> {
    let parent = n.parent()?;
    let before = code.get(parent.start_byte()..n.start_byte())?.trim_end();
    let lower = before.to_ascii_lowercase();
    let cut = lower.rfind(['.', ':'])?;
    let method = lower[cut + 1..].trim().to_string();
    let receiver = lower[..cut].trim_end_matches(':').to_string();
    let inner = text(n, code).trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(inner);
    let args = split_top(inner, ',')
        .into_iter()
        .filter(|a| !a.trim().is_empty())
        .map(|a| {
            ps_values(a.trim(), vars).into_iter().next().unwrap_or(Arg {
                text: a.trim().to_string(),
                dynamic: true,
            })
        })
        .collect();
    Some((receiver, method, args))
}

/// The URL a download call fetches (`.DownloadString(u)`, `.DownloadData(u)`,
/// `.OpenRead(u)`, `.GetStringAsync(u)`), if `n` is the arguments of one.
pub(super) fn download_url(n: Node<'_>, code: &str, vars: &Vars) -> Option<Arg> {
    let (_, method, args) = call_parts(n, code, vars)?;
    if matches!(
        method.as_str(),
        "downloadstring" | "downloaddata" | "downloadstringtaskasync" | "getstringasync"
    ) || (method == "openread" && args.first().is_some_and(|a| a.text.contains("://")))
    {
        return args.into_iter().next();
    }
    None
}

/// The files a call reads (`[IO.File]::ReadAllText(p)`), if `n` is the arguments of one.
pub(super) fn read_paths(n: Node<'_>, code: &str, vars: &Vars) -> Vec<Arg> {
    match call_parts(n, code, vars) {
        Some((r, m, args)) if r.ends_with("file]") && m.starts_with("read") => {
            args.into_iter().take(1).collect()
        }
        _ => Vec::new(),
    }
}

/// The effects of one .NET method call.
pub(super) fn call(n: Node<'_>, code: &str, vars: &Vars, cx: &mut Collect<'_>) {
    let Some((receiver, method, args)) = call_parts(n, code, vars) else {
        return;
    };
    let file = receiver.ends_with("file]");
    let dir = receiver.ends_with("directory]");
    let shown = n
        .parent()
        .map(|p| text(p, code).trim().to_string())
        .unwrap_or_default();
    let arg = |i: usize| args.get(i).cloned();
    match method.as_str() {
        "downloadstring"
        | "downloaddata"
        | "downloadstringtaskasync"
        | "getstringasync"
        | "getasync"
        | "getbytearrayasync"
        | "getstreamasync" => {
            if let Some(u) = arg(0) {
                send(cx, &u, "GET", Vec::new());
            }
        }
        "openread" if args.first().is_some_and(|a| a.text.contains("://")) => {
            if let Some(u) = arg(0) {
                send(cx, &u, "GET", Vec::new());
            }
        }
        "downloadfile" | "downloadfiletaskasync" => {
            if let Some(u) = arg(0) {
                send(cx, &u, "GET", Vec::new());
            }
            if let Some(p) = arg(1) {
                write(cx, &p, false);
            }
        }
        "uploadfile" | "uploadfiletaskasync" => {
            let (Some(u), Some(f)) = (arg(0), args.last().cloned()) else {
                return;
            };
            let p = path(&f, cx);
            cx.push(What::Read(p.clone()));
            send(cx, &u, "POST", vec![BodySource::File(p)]);
        }
        "uploadstring" | "uploaddata" | "uploadvalues" | "postasync" | "putasync" => {
            let (Some(u), Some(d)) = (arg(0), args.last().cloned()) else {
                return;
            };
            let mut body: Vec<BodySource> = env_names(&d.text)
                .into_iter()
                .map(BodySource::Env)
                .collect();
            if !d.dynamic {
                body.push(BodySource::Literal);
            }
            send(cx, &u, "POST", body);
        }
        m if file && (m.starts_with("read") || m == "opentext") => {
            if let Some(p) = arg(0) {
                cx.push(What::Read(path(&p, cx)));
            }
        }
        m if file && (m.starts_with("write") || m.starts_with("append") || m == "create") => {
            if let Some(p) = arg(0) {
                let k = cx.push(What::Write {
                    path: path(&p, cx),
                    append: m.starts_with("append"),
                    content: None,
                });
                let content = arg(1).filter(|c| !c.dynamic).map(|c| c.text);
                cx.set_content(k, content);
            }
        }
        "createdirectory" if dir => {
            if let Some(p) = arg(0) {
                write(cx, &p, false);
            }
        }
        "delete" if file || dir => {
            if let Some(p) = arg(0) {
                let recursive =
                    dir && arg(1).is_some_and(|r| r.text.eq_ignore_ascii_case("true") || r.dynamic);
                cx.push(What::Delete {
                    path: path(&p, cx),
                    recursive,
                    gone: Gone::Removed,
                });
            }
        }
        "copy" | "move" if file || dir => {
            let (Some(a), Some(b)) = (arg(0), arg(1)) else {
                return;
            };
            if method == "move" {
                cx.push(What::Delete {
                    path: path(&a, cx),
                    recursive: dir,
                    gone: Gone::Removed,
                });
            } else {
                cx.push(What::Read(path(&a, cx)));
            }
            write(cx, &b, false);
        }
        "start" if receiver.contains("process]") => match arg(0) {
            Some(p) if !p.dynamic => {
                let mut words = vec![program_word(&p)];
                if let Some(a) = arg(1) {
                    if a.dynamic {
                        words.push(a);
                    } else {
                        words.extend(split_windows(&a.text).iter().map(|w| lit(w)));
                    }
                }
                cx.words("Process.Start", words, None);
            }
            _ => cx.unsure(format!(
                "`{shown}` starts a program whose name is known only at run time"
            )),
        },
        "load" | "loadfrom" | "loadfile" if receiver.contains("assembly]") => {
            cx.unsure(format!("`{shown}` loads a .NET assembly"));
        }
        _ => {}
    }
}

/// `New-Object Net.Sockets.TcpClient("host", port)`: a connection to that host.
pub(super) fn tcp_client(shown: &str, vars: &Vars, cx: &mut Collect<'_>) {
    let Some(open) = shown.find('(') else {
        let rest: Vec<&str> = shown.split_whitespace().skip(2).collect();
        let args = rest.join(" ");
        connect(&args, vars, cx);
        return;
    };
    let inner = shown[open + 1..].trim_end().trim_end_matches(')');
    connect(inner, vars, cx);
}

/// A connection to `host, port` as written.
fn connect(args: &str, vars: &Vars, cx: &mut Collect<'_>) {
    let parts: Vec<Arg> = split_top(args, ',')
        .into_iter()
        .filter_map(|a| ps_values(a.trim(), vars).into_iter().next())
        .collect();
    match parts.first() {
        Some(h) if !h.dynamic => {
            let port = parts.get(1).filter(|p| !p.dynamic).map(|p| p.text.clone());
            cx.send_host(&Res::lit(h.text.clone()), port.as_deref(), Vec::new());
        }
        _ => cx.unsure("a TCP connection to an address known only at run time".into()),
    }
}

/// A `send` to a URL as written.
fn send(cx: &mut Collect<'_>, u: &Arg, method: &str, body: Vec<BodySource>) {
    cx.send_url(&Res::lit(u.text.clone()), Some(method.into()), body);
    if u.dynamic
        && let Some(crate::effects::inline::Found::What(w)) = cx.found.last_mut()
        && let What::Send(s) = w.as_mut()
    {
        s.dynamic = true;
        s.endpoint = None;
    }
}

/// A write of a path.
fn write(cx: &mut Collect<'_>, p: &Arg, append: bool) {
    cx.push(What::Write {
        path: path(p, cx),
        append,
        content: None,
    });
}
