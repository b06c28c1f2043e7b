//! JavaScript calls that touch files, run commands or send requests: the role of each
//! function the program calls (`fs.writeFileSync`, `fs.rmSync`, `child_process.execSync`,
//! `fetch`, `http.request`, `eval`, …) and the effects it has with the arguments it is given.
//!
//! In: one call or `new` node. Out: effects, commands and code added to [`Collect`].

use tree_sitter::Node;

use super::Js;
use crate::effects::inline::collect::{Collect, add_body};
use crate::effects::inline::resolve::{Res, mode_text};
use crate::effects::inline::sources::Reader;
use crate::effects::model::{Gone, PathRef, What};

impl<'t> Js<'t, '_> {
    /// The path an argument names, or `None` after recording that it is only known at run
    /// time.
    pub(super) fn path_arg(
        &self,
        a: Option<Node<'t>>,
        q: &str,
        cx: &mut Collect<'_>,
    ) -> Option<PathRef> {
        match a.and_then(|a| self.path_res(a)) {
            Some(r) => Some(cx.path(&r)),
            None => {
                cx.unknown(q, "a path");
                None
            }
        }
    }

    /// A read of an argument: a literal path, or a path known only at run time.
    pub(super) fn read_arg(&self, a: Option<Node<'t>>, cx: &mut Collect<'_>) {
        // A number is a file descriptor (`readFileSync(0)` reads standard input).
        let Some(a) = a.filter(|a| a.kind() != "number") else {
            return;
        };
        let p = match self.path_res(a) {
            Some(r) => cx.path(&r),
            None => cx.computed_path(self.t(a)),
        };
        cx.push(What::Read(p));
    }

    /// The words of an argument array (`['-la', dir]`), none without one; `None` after
    /// recording that they are known only at run time.
    fn arg_words(&self, l: Option<Node<'t>>, q: &str, cx: &mut Collect<'_>) -> Option<Vec<String>> {
        let Some(l) = l else {
            return Some(Vec::new());
        };
        let words = self.list(l, 0);
        if words.is_none() {
            cx.unknown(q, "arguments");
        }
        words
    }

    /// JavaScript for Automation's `doShellScript(LINE[, {administratorPrivileges: true}])`
    /// (`app.doShellScript(…)` of `Application.currentApplication()` with its standard
    /// additions): the line runs with `/bin/sh -c`, as root with administrator privileges (or
    /// an administrator's `userName`), as AppleScript's `do shell script` does; and the C
    /// library its Objective-C bridge imports (`ObjC.import('stdlib'); $.system(LINE)`,
    /// `$.popen(LINE, 'r')`): the line runs with `/bin/sh -c`. Whether `f` is one of them
    /// (`doShellScript` of any object: no other JavaScript names a method so).
    fn shell_script(&self, n: Node<'t>, f: Node<'t>, cx: &mut Collect<'_>) -> bool {
        if f.kind() != "member_expression" {
            return false;
        }
        let method = f.child_by_field_name("property").map(|p| self.t(p));
        let on_bridge = f
            .child_by_field_name("object")
            .is_some_and(|o| self.t(o) == "$");
        let args = self.args(n);
        if on_bridge && matches!(method, Some("system" | "popen")) {
            let call = format!("$.{}", method.unwrap_or_default());
            match args.first().and_then(|c| self.res(*c, 0)) {
                Some(line) => cx.shell(&call, line.text),
                None => cx.unknown(&call, "a command"),
            }
            return true;
        }
        if method != Some("doShellScript") {
            return false;
        }
        let opts = args.get(1).copied();
        let as_root = self.flag(opts, "administratorPrivileges") == Some(true)
            || opts.is_some_and(|o| self.prop(o, "userName").is_some());
        let call = if as_root {
            crate::effects::inline::ADMIN_SHELL
        } else {
            "doShellScript"
        };
        match args.first().and_then(|c| self.res(*c, 0)) {
            Some(line) => cx.shell(call, line.text),
            None => cx.unknown(call, "a command"),
        }
        true
    }

    /// The effects of one call (or `new` expression).
    pub(super) fn call(&self, n: Node<'t>, cx: &mut Collect<'_>) {
        let callee = n
            .child_by_field_name("function")
            .or_else(|| n.child_by_field_name("constructor"));
        let Some(f) = callee else {
            return;
        };
        if self.shell_script(n, f, cx) {
            return;
        }
        let Some(q) = self.qual(f, 0) else {
            return;
        };
        let args = self.args(n);
        let a = |i: usize| args.get(i).copied();
        let write = |cx: &mut Collect<'_>, p: PathRef, append: bool, content: Option<String>| {
            cx.push(What::Write {
                path: p,
                append,
                content,
            });
        };
        let q = q.as_str();
        match q {
            "fs.writeFile" | "fs.appendFile" | "fs.outputFile" | "Deno.writeTextFile"
            | "Deno.writeFile" | "Bun.write" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    let content = a(1).and_then(|c| self.res(c, 0)).map(|r| r.text);
                    let append = q == "fs.appendFile"
                        || (q.starts_with("Deno.") && self.flag(a(2), "append") == Some(true));
                    write(cx, p, append, content);
                }
            }
            "fs.readFile"
            | "fs.createReadStream"
            | "fs.readJson"
            | "Deno.readTextFile"
            | "Deno.readFile"
            | "Bun.file" => self.read_arg(a(0), cx),
            "fs.rm" | "fs.rmdir" | "Deno.remove" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    let recursive = self.flag(a(1), "recursive").unwrap_or(true);
                    removes(cx, p, recursive);
                }
            }
            "fs.unlink" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    removes(cx, p, false);
                }
            }
            "fs.remove" | "fs.emptyDir" | "rimraf" | "rimraf.rimraf" | "rimraf.sync"
            | "rimraf.rimrafSync" | "del" | "del.deleteAsync" | "del.deleteSync" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    removes(cx, p, true);
                }
            }
            "fs.chmod" | "fs.lchmod" | "Deno.chmod" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    let mode = a(1).and_then(|m| match m.kind() {
                        "number" => mode_text(self.t(m)),
                        _ => self
                            .res(m, 0)
                            .and_then(|r| mode_text(&format!("0o{}", r.text))),
                    });
                    cx.push(What::ChangePermission {
                        path: p,
                        mode,
                        recursive: false,
                    });
                }
            }
            // A signal to a process (`process.kill(pid, 'SIGKILL')`): a PID known only at run
            // time is a computed target, named by a lookup of processes in the same line.
            "process.kill" | "Deno.kill" => {
                let Some(pid) = a(0) else {
                    return;
                };
                let number = self.t(pid).replace(' ', "");
                let target = match number.parse::<i64>() {
                    Ok(_) => crate::shell::Arg {
                        text: number,
                        dynamic: false,
                    },
                    Err(_) => match self.res(pid, 0) {
                        Some(r) => crate::shell::Arg {
                            text: r.text,
                            dynamic: false,
                        },
                        None => crate::shell::Arg {
                            text: self.t(pid).to_string(),
                            dynamic: true,
                        },
                    },
                };
                let signal = a(1).map(|s| match self.res(s, 0) {
                    Some(r) => r.text,
                    None => self.t(s).to_string(),
                });
                cx.push(What::Signal {
                    targets: vec![target],
                    signal,
                    by_pattern: false,
                });
            }
            "fs.chown" | "fs.lchown" | "Deno.chown" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    cx.push(What::ChangePermission {
                        path: p,
                        mode: None,
                        recursive: false,
                    });
                }
            }
            "fs.copyFile" | "fs.cp" | "fs.copy" | "fs.symlink" | "fs.link" | "Deno.copyFile"
            | "Deno.symlink" => {
                self.read_arg(a(0), cx);
                if let Some(p) = self.path_arg(a(1), q, cx) {
                    write(cx, p, false, None);
                }
            }
            "fs.rename" | "fs.move" | "Deno.rename" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    removes(cx, p, true);
                }
                if let Some(p) = self.path_arg(a(1), q, cx) {
                    write(cx, p, false, None);
                }
            }
            // A folder created where only run time knows is no question: an empty folder
            // overwrites, removes and runs nothing.
            "fs.mkdir" | "fs.mkdirp" | "fs.ensureDir" | "Deno.mkdir" => {
                if let Some(r) = a(0).and_then(|arg| self.res(arg, 0)) {
                    let p = cx.path(&r);
                    write(cx, p, false, None);
                }
            }
            "fs.truncate" | "Deno.truncate" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    write(cx, p, false, None);
                }
            }
            "fs.createWriteStream" | "fs.open" => {
                let flags = match q {
                    "fs.open" => a(1).map(|f| self.res(f, 0).map(|r| r.text)),
                    _ => a(1).map(|o| match self.prop(o, "flags") {
                        Some(f) => self.res(f, 0).map(|r| r.text),
                        None => Some("w".into()),
                    }),
                }
                .unwrap_or_else(|| Some(if q == "fs.open" { "r" } else { "w" }.into()));
                let Some(flags) = flags else {
                    cx.unsure(format!("`{q}` with flags known only at run time"));
                    return;
                };
                if !flags.contains(['w', 'a', '+']) {
                    self.read_arg(a(0), cx);
                } else if let Some(p) = self.path_arg(a(0), q, cx) {
                    write(cx, p, flags.contains('a'), None);
                }
            }
            "Bun.$" | "zx.$" | "execa.$" | "execa.execaCommand" => {
                match a(0).and_then(|c| self.res(c, 0)) {
                    Some(cmd) => cx.shell(q, cmd.text),
                    None => cx.unknown(q, "a command"),
                }
            }
            "process.chdir" | "Deno.chdir" => {
                let dir = a(0).and_then(|d| self.res(d, 0));
                cx.chdir(dir, q);
            }
            "child_process.exec" => {
                let saved = self.enter_cwd(a(1), q, cx);
                match a(0).and_then(|c| self.res(c, 0)) {
                    Some(cmd) => cx.shell(q, cmd.text),
                    None => cx.unknown(q, "a command"),
                }
                cx.cwd = saved;
            }
            "child_process.execFile" | "child_process.spawn" | "child_process.fork" => {
                let Some(file) = a(0).and_then(|c| self.res(c, 0)) else {
                    cx.unknown(q, "a command");
                    return;
                };
                let (list, opts) = match a(1) {
                    Some(x) if self.value(x).kind() == "array" => (Some(x), a(2)),
                    other => (None, other),
                };
                let Some(rest) = self.arg_words(list, q, cx) else {
                    return;
                };
                let mut argv = Vec::new();
                if q == "child_process.fork" {
                    argv.push("node".to_string());
                }
                argv.push(file.text);
                argv.extend(rest);
                let saved = self.enter_cwd(opts, q, cx);
                if self.flag(opts, "shell") == Some(true) {
                    cx.shell(q, argv.join(" "));
                } else {
                    cx.argv(q, argv);
                }
                cx.cwd = saved;
            }
            "Bun.spawn" | "Bun.spawnSync" | "Deno.run" => {
                let cmd = match a(0) {
                    Some(x) if self.value(x).kind() == "array" => Some(x),
                    Some(o) => self.prop(o, "cmd"),
                    None => None,
                };
                match cmd.and_then(|c| self.list(c, 0)) {
                    Some(argv) => cx.argv(q, argv),
                    None => cx.unknown(q, "a command"),
                }
            }
            "Deno.Command" => {
                let Some(file) = a(0).and_then(|c| self.res(c, 0)) else {
                    cx.unknown(q, "a command");
                    return;
                };
                let Some(rest) = self.arg_words(a(1).and_then(|o| self.prop(o, "args")), q, cx)
                else {
                    return;
                };
                let mut argv = vec![file.text];
                argv.extend(rest);
                cx.argv(q, argv);
            }
            "fetch" => {
                let opts = a(1);
                let mut body = Vec::new();
                if let Some(b) = opts.and_then(|o| self.prop(o, "body")) {
                    add_body(&mut body, self.body(b, 0));
                }
                if let Some(h) = opts.and_then(|o| self.prop(o, "headers")) {
                    add_body(&mut body, self.env_sources(h, 0));
                }
                let method = opts
                    .and_then(|o| self.prop(o, "method"))
                    .and_then(|m| self.res(m, 0))
                    .map(|m| m.text.to_uppercase())
                    .or_else(|| Some("GET".into()));
                match a(0).and_then(|u| self.res(u, 0)) {
                    Some(u) => cx.send_url(&u, method, body),
                    None => cx.unknown(q, "a URL"),
                }
            }
            "axios.get" | "axios.delete" | "axios.head" | "axios.options" | "axios.post"
            | "axios.put" | "axios.patch" => {
                let verb = q.rsplit('.').next().unwrap_or("").to_uppercase();
                let mut body = Vec::new();
                if matches!(verb.as_str(), "POST" | "PUT" | "PATCH")
                    && let Some(b) = a(1)
                {
                    add_body(&mut body, self.body(b, 0));
                }
                match a(0).and_then(|u| self.res(u, 0)) {
                    Some(u) => cx.send_url(&u, Some(verb), body),
                    None => cx.unknown(q, "a URL"),
                }
            }
            "http.request" | "https.request" | "http.get" | "https.get" => {
                let scheme = q.split('.').next().unwrap_or("https");
                let first = a(0).map(|x| self.value(x));
                let opts = match first {
                    Some(x) if x.kind() == "object" => Some(x),
                    _ => a(1).filter(|o| self.value(*o).kind() == "object"),
                };
                let method = opts
                    .and_then(|o| self.prop(o, "method"))
                    .and_then(|m| self.res(m, 0))
                    .map(|m| m.text.to_uppercase())
                    .or_else(|| Some("GET".into()));
                let url = match first {
                    Some(x) if x.kind() == "object" => {
                        let host = self
                            .prop(x, "hostname")
                            .or_else(|| self.prop(x, "host"))
                            .and_then(|h| self.res(h, 0));
                        let path = match self.prop(x, "path") {
                            Some(p) => self.res(p, 0).map(|r| r.text),
                            None => Some("/".into()),
                        };
                        let port = self.prop(x, "port").map(|p| self.t(p).to_string());
                        match (host, path) {
                            (Some(h), Some(p)) => Some(Res::lit(format!(
                                "{scheme}://{}{}{}",
                                h.text,
                                port.map(|p| format!(":{p}")).unwrap_or_default(),
                                if p.starts_with('/') {
                                    p
                                } else {
                                    format!("/{p}")
                                }
                            ))),
                            _ => None,
                        }
                    }
                    Some(u) => self.res(u, 0),
                    None => None,
                };
                // `req.write(JSON.stringify(process.env)); req.end()`: the body is what is
                // written on the request.
                let body = self.written_on(n);
                match url {
                    Some(u) => cx.send_url(&u, method, body),
                    None => cx.unknown(q, "a URL"),
                }
            }
            "eval" | "Function" | "vm.runInThisContext" | "vm.runInNewContext" | "vm.Script" => {
                // Code run as code: literal code is read like the rest (`new Function(a, b,
                // body)`: the body is the last argument).
                let src = if q == "Function" {
                    args.last().copied()
                } else {
                    a(0)
                };
                let Some(src) = src else { return };
                match self.res(src, 0) {
                    Some(code) => cx.code(q, code.text),
                    None => {
                        // Code that is a download's response (`eval(await (await
                        // fetch(u)).text())`, `const {data} = await axios.get(u); eval(data)`).
                        let fetched = self.fetches_in(src);
                        if fetched.is_empty() {
                            cx.unsure(format!("`{q}` of code known only at run time"));
                        }
                        for url in fetched {
                            cx.fetch_and_run(url.as_ref());
                        }
                    }
                }
            }
            "net.connect"
            | "net.createConnection"
            | "tls.connect"
            | "Deno.connect"
            | "Deno.connectTls" => {
                let first = a(0).map(|x| self.value(x));
                let (host, port) = match first {
                    Some(o) if o.kind() == "object" => (
                        self.prop(o, "host").or_else(|| self.prop(o, "hostname")),
                        self.prop(o, "port"),
                    ),
                    Some(p) => (a(1), Some(p)),
                    None => (None, None),
                };
                let host = match host {
                    Some(h) => self.res(h, 0),
                    None => Some(Res::lit("localhost")),
                };
                match host {
                    Some(h) => {
                        let port = port.map(|p| self.t(p).to_string());
                        cx.send_host(&h, port.as_deref(), self.written_on(n));
                    }
                    None => cx.unknown(q, "a host"),
                }
            }
            _ => {}
        }
    }

    /// Move into the `cwd` option of a command's options, if it has one; the folder to come
    /// back to.
    pub(super) fn enter_cwd(
        &self,
        opts: Option<Node<'t>>,
        q: &str,
        cx: &mut Collect<'_>,
    ) -> Option<String> {
        let saved = cx.cwd.clone();
        if let Some(d) = opts.and_then(|o| self.prop(o, "cwd")) {
            cx.chdir(self.res(d, 0), &format!("{q} with a `cwd` option"));
        }
        saved
    }
}

/// Inline code removes `path` (`fs.rm`, `rimraf`; a rename too, as the code's own move
/// is not told apart from a removal here).
fn removes(cx: &mut Collect<'_>, path: PathRef, recursive: bool) {
    cx.push(What::Delete {
        path,
        recursive,
        gone: Gone::Removed,
    });
}
