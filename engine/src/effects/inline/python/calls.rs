//! Python calls that touch files or run commands: the role of each function the module calls
//! (`open`, `os.remove`, `shutil.rmtree`, `subprocess.run`, `os.system`, `Path(p).write_text`,
//! …) and the effects it has with the arguments it is given.
//!
//! In: one call node. Out: effects, commands and code added to [`Collect`].

use tree_sitter::Node;

use super::Py;
use super::network::is_http_client;
use crate::effects::inline::collect::Collect;
use crate::effects::inline::resolve::{Res, mode_text};
use crate::effects::inline::sources::Reader;
use crate::effects::model::{Gone, What};
use crate::shell::Arg;

impl<'t> Py<'t, '_> {
    /// The path an argument names, or `None` after recording that it is only known at run
    /// time.
    pub(super) fn path_arg(
        &self,
        call: Node<'t>,
        i: usize,
        kw: &str,
        q: &str,
        cx: &mut Collect<'_>,
    ) -> Option<crate::effects::model::PathRef> {
        match self.arg(call, i, kw).and_then(|a| self.path_res(a)) {
            Some(r) => Some(cx.path(&r)),
            None => {
                cx.unknown(q, "a path");
                None
            }
        }
    }

    /// The effects of one call.
    pub(super) fn call(&mut self, n: Node<'t>, cx: &mut Collect<'_>) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        // Methods of a `pathlib.Path`.
        if f.kind() == "attribute"
            && let (Some(obj), Some(attr)) = (
                f.child_by_field_name("object"),
                f.child_by_field_name("attribute"),
            )
            && self.is_path(obj, 0)
        {
            let attr = self.t(attr).to_string();
            self.path_method(n, obj, &attr, cx);
            return;
        }
        // (A method of an object the table does not name, `s.connect(…)`, has no full name.)
        let q = self.qual(f, 0).unwrap_or_default();
        match q.as_str() {
            "open" | "io.open" | "codecs.open" | "builtins.open" => {
                let mode = match self.arg(n, 1, "mode") {
                    None => Some("r".to_string()),
                    Some(m) => self.res(m, 0).map(|r| r.text),
                };
                let path = self.arg(n, 0, "file");
                if path.is_some_and(|p| p.kind() == "integer") {
                    return;
                }
                let resolved = path.and_then(|p| self.path_res(p));
                self.open(n, &q, resolved, path, mode, cx);
            }
            "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: false,
                        gone: Gone::Removed,
                    });
                }
            }
            "shutil.rmtree" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                        gone: Gone::Removed,
                    });
                }
            }
            "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree"
            | "os.symlink" | "os.link" => {
                let src = self.arg(n, 0, "src").and_then(|a| self.path_res(a));
                let dst = self.path_arg(n, 1, "dst", &q, cx);
                match src {
                    Some(s) => {
                        cx.push(What::Read(cx.path(&s)));
                    }
                    None => {
                        let shown = self.arg(n, 0, "src").map_or("", |a| self.t(a));
                        cx.push(What::Read(cx.computed_path(shown)));
                    }
                }
                if let Some(d) = dst {
                    cx.push(What::Write {
                        path: d,
                        append: false,
                        content: None,
                    });
                }
            }
            "shutil.move" | "os.rename" | "os.replace" | "os.renames" => {
                let src = self.path_arg(n, 0, "src", &q, cx);
                let dst = self.path_arg(n, 1, "dst", &q, cx);
                if let Some(s) = src {
                    cx.push(What::Delete {
                        path: s,
                        recursive: true,
                        gone: Gone::Removed,
                    });
                }
                if let Some(d) = dst {
                    cx.push(What::Write {
                        path: d,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.chmod" | "os.lchmod" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    let mode = self.arg(n, 1, "mode").and_then(|m| mode_text(self.t(m)));
                    cx.push(What::ChangePermission {
                        path: p,
                        mode,
                        recursive: false,
                    });
                }
            }
            // A signal to a process: `os.kill(pid, signal.SIGKILL)`, a process group, a thread.
            // A PID known only at run time is a computed target, which a lookup of processes
            // by name in the same line names (`pgrep seamguard` run by `subprocess`).
            "os.kill" | "os.killpg" | "signal.pthread_kill" => {
                let target = match self.arg(n, 0, "pid") {
                    Some(a) if self.t(a).replace(' ', "").parse::<i64>().is_ok() => Arg {
                        text: self.t(a).replace(' ', ""),
                        dynamic: false,
                    },
                    Some(a) => match self.res(a, 0) {
                        Some(r) => Arg {
                            text: r.text,
                            dynamic: false,
                        },
                        None => Arg {
                            text: self.t(a).to_string(),
                            dynamic: true,
                        },
                    },
                    None => return,
                };
                let signal = self.arg(n, 1, "sig").map(|s| {
                    let t = self.t(s);
                    t.rsplit('.').next().unwrap_or(t).to_string()
                });
                cx.push(What::Signal {
                    targets: vec![target],
                    signal,
                    by_pattern: false,
                });
            }
            "os.chown" | "os.lchown" | "shutil.chown" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::ChangePermission {
                        path: p,
                        mode: None,
                        recursive: false,
                    });
                }
            }
            // A folder created where only run time knows is no question: an empty folder
            // overwrites, removes and runs nothing (a file written into it later is judged
            // on its own).
            "os.mkdir" | "os.makedirs" => {
                if let Some(r) = self.arg(n, 0, "path").and_then(|a| self.res(a, 0)) {
                    let path = cx.path(&r);
                    cx.push(What::Write {
                        path,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.truncate" | "os.mkfifo" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.system"
            | "os.popen"
            | "libc.system"
            | "libc.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "commands.getoutput"
            | "commands.getstatusoutput" => {
                match self.arg(n, 0, "cmd").and_then(|a| self.res(a, 0)) {
                    Some(cmd) => cx.shell(&q, cmd.text),
                    None => cx.unknown(&q, "a command"),
                }
            }
            "os.dup2" => {
                // `os.dup2(s.fileno(), 0)`: a descriptor becomes standard input, output or
                // error (os module, "File Descriptor Operations"); a target computed at run
                // time (`for f in (0, 1, 2)`) may be one, a number past 2 is not.
                let target = self.arg(n, 1, "fd2").map(|a| self.t(a));
                if target.is_some_and(|t| {
                    t.parse::<u32>().is_ok_and(|k| k <= 2) || t.parse::<u32>().is_err()
                }) {
                    cx.streams_on_socket = true;
                }
            }
            "os.chdir" => {
                let dir = self.arg(n, 0, "path").and_then(|a| self.res(a, 0));
                cx.chdir(dir, &q);
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen"
            | "pty.spawn" => {
                // `cwd=`: the command runs there.
                let saved = cx.cwd.clone();
                if let Some(d) = self.arg(n, usize::MAX, "cwd") {
                    cx.chdir(self.res(d, 0), &format!("{q}(cwd=…)"));
                }
                // `stdin=s` / `stdin=s.fileno()`: a descriptor of the code (a socket) as the
                // program's standard input (`subprocess.PIPE`, `sys.stdin`, `None` are not).
                let stdin = self.arg(n, usize::MAX, "stdin").map(|a| self.t(a));
                if stdin.is_some_and(|t| {
                    let t = t.strip_suffix(".fileno()").unwrap_or(t);
                    !t.is_empty()
                        && t.chars().all(|c| c.is_alphanumeric() || c == '_')
                        && !matches!(t, "None" | "PIPE" | "DEVNULL" | "STDOUT")
                }) {
                    cx.streams_on_socket = true;
                }
                self.subprocess(n, &q, cx);
                cx.cwd = saved;
            }
            q if q.starts_with("os.exec")
                || q.starts_with("os.spawn")
                || q.starts_with("os.posix_spawn") =>
            {
                let Some(pos) = self.positional(n) else {
                    cx.unknown(q, "a command");
                    return;
                };
                // `os.spawnv(mode, file, args)`: the mode comes first.
                let skip = usize::from(q.starts_with("os.spawn"));
                let rest = pos.get(skip + 1..).unwrap_or_default();
                let words = if q.contains('v') || q.starts_with("os.posix_spawn") {
                    rest.first().and_then(|a| self.list(*a, 0))
                } else {
                    // `os.execle(path, arg0, …, env)`: the last argument is the environment.
                    let args = match rest.split_last() {
                        Some((_, init)) if q.ends_with('e') => init,
                        _ => rest,
                    };
                    args.iter()
                        .map(|a| self.res(*a, 0).map(|r| r.text))
                        .collect::<Option<Vec<String>>>()
                };
                match words {
                    Some(w) => cx.argv(q, w),
                    None => cx.unknown(q, "a command"),
                }
            }
            "urllib.request.urlopen" => self.urlopen(n, &q, cx),
            "urllib.request.urlretrieve" => {
                match self.arg(n, 0, "url").and_then(|a| self.res(a, 0)) {
                    Some(u) => cx.send_url(&u, Some("GET".into()), Vec::new()),
                    None => cx.unknown(&q, "a URL"),
                }
                if self.arg(n, 1, "filename").is_some()
                    && let Some(p) = self.path_arg(n, 1, "filename", &q, cx)
                {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            q if is_http_client(q) => self.http_client(n, q, cx),
            "http.client.HTTPConnection"
            | "http.client.HTTPSConnection"
            | "smtplib.SMTP"
            | "smtplib.SMTP_SSL"
            | "ftplib.FTP"
            | "ftplib.FTP_TLS"
            | "telnetlib.Telnet" => {
                let Some(h) = self.arg(n, 0, "host") else {
                    return;
                };
                // `c = HTTPSConnection(h); c.request('POST', '/', body=…)`: what is sent on
                // the connection is the body.
                let body = self
                    .bound_name(n)
                    .map(|name| self.sent_on(name))
                    .unwrap_or_default();
                match self.res(h, 0) {
                    Some(host) => {
                        let port = self.arg(n, 1, "port").map(|p| self.t(p).to_string());
                        cx.send_host(&host, port.as_deref(), body);
                    }
                    None => cx.unknown(&q, "a host"),
                }
            }
            "socket.create_connection" => {
                // `s = socket.create_connection(…)`, `with socket.create_connection(…) as s:`:
                // what is sent on `s` is the body.
                let body = self
                    .bound_name(n)
                    .map(|name| self.sent_on(name))
                    .unwrap_or_default();
                self.connect(n, &q, body, cx);
            }
            "exec" | "eval" | "builtins.exec" | "builtins.eval" | "compile" => {
                // Code run as code: literal code is read like the rest; other code is not
                // known before it runs.
                let Some(a) = self.arg(n, 0, "source") else {
                    return;
                };
                match self.res(a, 0) {
                    Some(code) if q != "compile" => cx.code(&q, code.text),
                    Some(_) => {}
                    None => {
                        // Code that is a download's response (`exec(urlopen(u).read())`,
                        // `r = requests.get(u); exec(r.text)`) is fetched and run.
                        let fetched = self.fetches_in(a);
                        if fetched.is_empty() {
                            cx.unsure(format!("`{q}` of code known only at run time"));
                        }
                        for url in fetched {
                            cx.fetch_and_run(url.as_ref());
                        }
                    }
                }
            }
            "getattr" => {
                // `getattr(os, name)` with a name not known here.
                if let Some(obj) = self.arg(n, 0, "").and_then(|o| self.qual(o, 0))
                    && EFFECT_MODULES.contains(&obj.as_str())
                    && self.arg(n, 1, "").and_then(|a| self.res(a, 0)).is_none()
                {
                    cx.unsure(format!(
                        "`getattr` on `{obj}` with a name known only at run time"
                    ));
                }
            }
            _ => {
                // `s.connect((host, port))` on a socket.
                if f.kind() == "attribute"
                    && let (Some(obj), Some(attr)) = (
                        f.child_by_field_name("object"),
                        f.child_by_field_name("attribute"),
                    )
                    && matches!(self.t(attr), "connect" | "connect_ex")
                    && obj.kind() == "identifier"
                    && self.bind.once(self.t(obj)).is_some_and(|v| {
                        v.kind() == "call"
                            && v.child_by_field_name("function")
                                .and_then(|vf| self.qual(vf, 0))
                                .is_some_and(|vq| vq == "socket.socket")
                    })
                {
                    let body = self.sent_on(self.t(obj));
                    self.connect(n, "socket.connect", body, cx);
                }
            }
        }
    }

    /// `subprocess.run([…])`, `subprocess.run('…', shell=True)`.
    pub(super) fn subprocess(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
        let shell = self.kw_true(n, "shell");
        let Some(cmd) = self.arg(n, 0, "args") else {
            return;
        };
        if let Some(words) = self.list(cmd, 0) {
            match (shell, words.split_first()) {
                (true, Some((line, _))) => cx.shell(q, line.clone()),
                _ => cx.argv(q, words),
            }
        } else if let Some(line) = self.res(cmd, 0) {
            if shell {
                cx.shell(q, line.text);
            } else {
                cx.argv(q, vec![line.text]);
            }
        } else {
            cx.unknown(q, "a command");
        }
    }

    /// `open(path, mode)`, `Path(path).open(mode)`.
    pub(super) fn open(
        &mut self,
        n: Node<'t>,
        q: &str,
        resolved: Option<Res>,
        path: Option<Node<'t>>,
        mode: Option<String>,
        cx: &mut Collect<'_>,
    ) {
        let Some(mode) = mode else {
            cx.unsure(format!("`{q}` with a mode known only at run time"));
            return;
        };
        let writes = mode.contains(['w', 'x', 'a', '+']);
        let Some(r) = resolved else {
            if writes {
                cx.unknown(q, "a path");
            } else {
                let shown = path.map_or("", |p| self.t(p));
                cx.push(What::Read(cx.computed_path(shown)));
            }
            return;
        };
        let p = cx.path(&r);
        if mode.contains('r') || mode.contains('+') && !mode.contains(['w', 'x', 'a']) {
            cx.push(What::Read(p.clone()));
        }
        if writes {
            let idx = cx.push(What::Write {
                path: p,
                append: mode.contains('a'),
                content: None,
            });
            self.opened.insert(n.id(), idx);
        }
    }

    /// A method call on a `pathlib.Path`.
    pub(super) fn path_method(
        &mut self,
        n: Node<'t>,
        obj: Node<'t>,
        attr: &str,
        cx: &mut Collect<'_>,
    ) {
        let q = format!("Path.{attr}");
        let resolved = self.path_res(obj);
        let known = |cx: &mut Collect<'_>| -> Option<crate::effects::model::PathRef> {
            match &resolved {
                Some(r) => Some(cx.path(r)),
                None => {
                    cx.unknown(&q, "a path");
                    None
                }
            }
        };
        match attr {
            "write_text" | "write_bytes" => {
                if let Some(p) = known(cx) {
                    let content = self
                        .arg(n, 0, "data")
                        .and_then(|a| self.res(a, 0))
                        .map(|r| r.text);
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content,
                    });
                }
            }
            "read_text" | "read_bytes" => match &resolved {
                Some(r) => {
                    cx.push(What::Read(cx.path(r)));
                }
                None => {
                    cx.push(What::Read(cx.computed_path(self.t(obj))));
                }
            },
            "open" => {
                let mode = match self.arg(n, 0, "mode") {
                    None => Some("r".to_string()),
                    Some(m) => self.res(m, 0).map(|r| r.text),
                };
                self.open(n, &q, resolved.clone(), Some(obj), mode, cx);
            }
            "unlink" | "rmdir" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: false,
                        gone: Gone::Removed,
                    });
                }
            }
            // See `os.makedirs`: an unknown folder created is no question.
            "mkdir" => {
                if let Some(r) = &resolved {
                    let path = cx.path(r);
                    cx.push(What::Write {
                        path,
                        append: false,
                        content: None,
                    });
                }
            }
            "touch" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            "chmod" | "lchmod" => {
                if let Some(p) = known(cx) {
                    let mode = self.arg(n, 0, "mode").and_then(|m| mode_text(self.t(m)));
                    cx.push(What::ChangePermission {
                        path: p,
                        mode,
                        recursive: false,
                    });
                }
            }
            "rename" | "replace" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                        gone: Gone::Removed,
                    });
                }
                if let Some(t) = self.path_arg(n, 0, "target", &q, cx) {
                    cx.push(What::Write {
                        path: t,
                        append: false,
                        content: None,
                    });
                }
            }
            "symlink_to" | "hardlink_to" => {
                if let Some(t) = self.arg(n, 0, "target").and_then(|a| self.res(a, 0)) {
                    cx.push(What::Read(cx.path(&t)));
                }
                if let Some(p) = known(cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Modules whose functions touch files, processes or the network: a function of one looked
/// up by a computed name is not known before it runs.
const EFFECT_MODULES: &[&str] = &[
    "os",
    "subprocess",
    "shutil",
    "pty",
    "posix",
    "socket",
    "builtins",
    "urllib.request",
    "requests",
    "httpx",
    "ctypes",
    "pathlib",
];
