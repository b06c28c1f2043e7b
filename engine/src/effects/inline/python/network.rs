//! Python requests and the data they carry: `urlopen`, `requests` / `httpx`, connections and
//! sockets with what is sent on them, and where a body comes from (environment variables,
//! files, literal text).
//!
//! In: call nodes of the parsed module. Out: `send` effects added to [`Collect`].

use tree_sitter::Node;

use super::Py;
use crate::effects::inline::collect::{Collect, add_body};
use crate::effects::inline::resolve::{Res, path_text, text};
use crate::effects::inline::sources::Reader;
use crate::effects::model::BodySource;

impl<'t> Py<'t, '_> {
    /// `urlopen(url_or_request, data)`.
    pub(super) fn urlopen(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
        let Some(target) = self.arg(n, 0, "url") else {
            return;
        };
        let mut body = Vec::new();
        let mut data = self.arg(n, 1, "data").is_some();
        if let Some(d) = self.arg(n, 1, "data") {
            add_body(&mut body, self.body(d, 0));
        }
        // A `Request(url, data, headers, …, method=…)` given inline or by name.
        let request = match target.kind() {
            "identifier" => self.bind.once(self.t(target)),
            _ => Some(target),
        }
        .filter(|r| {
            r.kind() == "call"
                && r.child_by_field_name("function")
                    .and_then(|f| self.qual(f, 0))
                    .is_some_and(|rq| rq == "urllib.request.Request")
        });
        let mut method = None;
        let url = match request {
            Some(r) => {
                if let Some(d) = self.arg(r, 1, "data") {
                    data = true;
                    add_body(&mut body, self.body(d, 0));
                }
                if let Some(h) = self.arg(r, 2, "headers") {
                    add_body(&mut body, self.env_sources(h, 0));
                }
                method = self
                    .arg(r, usize::MAX, "method")
                    .and_then(|m| self.res(m, 0))
                    .map(|m| m.text.to_uppercase());
                self.arg(r, 0, "url").and_then(|u| self.res(u, 0))
            }
            None => self.res(target, 0),
        };
        let method = method.or_else(|| Some(if data { "POST" } else { "GET" }.to_string()));
        match url {
            Some(u) => cx.send_url(&u, method, body),
            None => cx.unknown(q, "a URL"),
        }
    }

    /// `requests.post(url, data=…, json=…)`, `httpx.get(url)`, `requests.request(m, url)`.
    pub(super) fn http_client(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
        let verb = q.rsplit('.').next().unwrap_or("");
        let (method, url) = if verb == "request" {
            (
                self.arg(n, 0, "method")
                    .and_then(|m| self.res(m, 0))
                    .map(|m| m.text.to_uppercase()),
                self.arg(n, 1, "url"),
            )
        } else {
            (Some(verb.to_uppercase()), self.arg(n, 0, "url"))
        };
        let mut body = Vec::new();
        let data_pos = if verb == "request" { 2 } else { 1 };
        if matches!(verb, "post" | "put" | "patch" | "request")
            && let Some(d) = self.arg(n, data_pos, "data")
        {
            add_body(&mut body, self.body(d, 0));
        }
        for kw in ["data", "json", "files", "content"] {
            if let Some(d) = self.arg(n, usize::MAX, kw) {
                add_body(&mut body, self.body(d, 0));
            }
        }
        for kw in ["params", "headers", "cookies", "auth"] {
            if let Some(d) = self.arg(n, usize::MAX, kw) {
                add_body(&mut body, self.env_sources(d, 0));
            }
        }
        match url.and_then(|u| self.res(u, 0)) {
            Some(u) => cx.send_url(&u, method, body),
            None => cx.unknown(q, "a URL"),
        }
    }

    /// `create_connection((host, port))`, `s.connect((host, port))`.
    pub(super) fn connect(
        &self,
        n: Node<'t>,
        q: &str,
        body: Vec<BodySource>,
        cx: &mut Collect<'_>,
    ) {
        let Some(addr) = self.arg(n, 0, "address") else {
            return;
        };
        let addr = match addr.kind() {
            "identifier" => self.bind.once(self.t(addr)).unwrap_or(addr),
            _ => addr,
        };
        if addr.kind() == "tuple"
            && let Some(h) = addr.named_child(0)
            && let Some(host) = self.res(h, 0)
        {
            let port = addr.named_child(1).map(|p| self.t(p).to_string());
            cx.send_host(&host, port.as_deref(), body);
        } else {
            cx.unknown(q, "an address");
        }
    }

    /// The one name the value of `n` is bound to: `s = n`, `with n as s:` (not a tuple
    /// target, not an attribute).
    pub(super) fn bound_name(&self, n: Node<'t>) -> Option<&str> {
        let p = n.parent()?;
        let target = match p.kind() {
            "assignment"
                if p.child_by_field_name("right")
                    .is_some_and(|r| r.id() == n.id()) =>
            {
                p.child_by_field_name("left")?
            }
            "as_pattern" if p.named_child(0).is_some_and(|v| v.id() == n.id()) => {
                let alias = p.child_by_field_name("alias")?;
                match alias.named_child(0) {
                    Some(id) if alias.named_child_count() == 1 => id,
                    _ => alias,
                }
            }
            _ => return None,
        };
        (target.kind() == "identifier").then(|| text(target, self.src))
    }

    /// What is sent on a socket or connection bound to `name` (`s.sendall(…)`,
    /// `c.request('POST', '/', body)`, `smtp.sendmail(a, b, msg)`): the data argument of each
    /// method of [`SENDING_METHODS`] called on it.
    pub(super) fn sent_on(&self, name: &str) -> Vec<BodySource> {
        let mut body = Vec::new();
        for o in self.refs.get(name).map(Vec::as_slice).unwrap_or_default() {
            let Some(f) = o.parent().filter(|f| f.kind() == "attribute") else {
                continue;
            };
            let Some(c) = f.parent().filter(|c| c.kind() == "call") else {
                continue;
            };
            let method = f
                .child_by_field_name("attribute")
                .and_then(|a| SENDING_METHODS.iter().find(|(m, _, _)| *m == self.t(a)));
            if f.child_by_field_name("object")
                .is_some_and(|x| x.id() == o.id())
                && let Some((_, pos, keyword)) = method
                && let Some(d) = self.arg(c, *pos, keyword)
            {
                add_body(&mut body, self.body(d, 0));
            }
        }
        body
    }

    /// Whether `os.environ` at `m` is used whole (`dict(os.environ)`, `os.environ.copy()`),
    /// not one variable of it (`os.environ['X']`, `os.environ.get('X')`).
    pub(super) fn whole_environ(&self, m: Node<'t>) -> bool {
        let Some(p) = m.parent() else {
            return true;
        };
        let is = |field: &str| {
            p.child_by_field_name(field)
                .is_some_and(|v| v.id() == m.id())
        };
        match p.kind() {
            "subscript" => !is("value"),
            "attribute" if is("object") => p
                .child_by_field_name("attribute")
                .is_some_and(|a| matches!(self.t(a), "copy" | "items" | "values")),
            _ => true,
        }
    }

    /// A path as a body source (no working directory needed to name it).
    pub(super) fn path_of(&self, r: &Res) -> crate::effects::model::PathRef {
        crate::effects::model::PathRef::new(path_text(r, self.tilde_is_home), None)
    }
}

/// Methods of a socket or connection object that send data: the name, and the position and
/// keyword of the data argument.
const SENDING_METHODS: &[(&str, usize, &str)] = &[
    ("send", 0, "data"),
    ("sendall", 0, "data"),
    ("sendto", 0, "data"),
    ("sendfile", 0, "file"),
    ("request", 2, "body"),
    ("sendmail", 2, "msg"),
    ("send_message", 0, "msg"),
    ("storbinary", 1, "fp"),
    ("storlines", 1, "fp"),
];

/// Whether a full name is a function of an HTTP client library that sends a request.
pub(super) fn is_http_client(q: &str) -> bool {
    let Some((lib, verb)) = q.rsplit_once('.') else {
        return false;
    };
    matches!(lib, "requests" | "httpx" | "requests.api")
        && matches!(
            verb,
            "get" | "post" | "put" | "patch" | "delete" | "head" | "options" | "request" | "stream"
        )
}

impl<'t> Reader<'t> for Py<'t, '_> {
    const CALL: &'static str = "call";

    /// HTTP requests: `urlopen`, `requests`, `httpx`.
    fn downloads(q: &str) -> bool {
        q == "urllib.request.urlopen" || is_http_client(q)
    }

    fn url_arg(&self, call: Node<'t>) -> Option<Node<'t>> {
        self.arg(call, 0, "url")
    }

    fn is_literal(&self, n: Node<'t>) -> bool {
        n.kind() == "string"
    }

    /// `os.environ['X']`, `os.getenv('X')`, `dict(os.environ)`, `open(p).read()`,
    /// `Path(p).read_text()`.
    fn reads(&self, m: Node<'t>, depth: usize, out: &mut Vec<BodySource>) -> bool {
        match m.kind() {
            // `dict(os.environ)`, `os.environ.copy()`, `str(os.environ)`: every variable.
            "attribute" | "identifier"
                if matches!(
                    self.qual(m, depth).as_deref(),
                    Some("os.environ" | "os.environb")
                ) && self.whole_environ(m) =>
            {
                add_body(out, vec![BodySource::Environment]);
            }
            "subscript" => {
                if let (Some(v), Some(k)) = (
                    m.child_by_field_name("value"),
                    m.child_by_field_name("subscript"),
                ) && self.qual(v, depth).as_deref() == Some("os.environ")
                    && let Some(name) = self.res(k, depth)
                {
                    add_body(out, vec![BodySource::Env(name.text)]);
                }
            }
            "call" => {
                let Some(f) = m.child_by_field_name("function") else {
                    return true;
                };
                match self.qual(f, depth).as_deref() {
                    Some("os.getenv" | "os.environ.get") => {
                        if let Some(name) = self.arg(m, 0, "key").and_then(|k| self.res(k, depth)) {
                            add_body(out, vec![BodySource::Env(name.text)]);
                        }
                        return true;
                    }
                    Some("open" | "io.open" | "codecs.open") => {
                        if let Some(p) = self.arg(m, 0, "file").and_then(|p| self.res(p, depth)) {
                            add_body(out, vec![BodySource::File(self.path_of(&p))]);
                        }
                        return true;
                    }
                    _ => {}
                }
                if f.kind() == "attribute"
                    && let (Some(obj), Some(attr)) = (
                        f.child_by_field_name("object"),
                        f.child_by_field_name("attribute"),
                    )
                    && matches!(self.t(attr), "read_text" | "read_bytes" | "open")
                    && self.is_path(obj, depth)
                    && let Some(p) = self.res(obj, depth)
                {
                    add_body(out, vec![BodySource::File(self.path_of(&p))]);
                }
            }
            _ => return false,
        }
        true
    }

    /// An identifier that is not an attribute's name (`x`, not the `y` of `x.y`).
    fn name_ref(&self, m: Node<'t>) -> Option<&str> {
        let is_attr_name = m.parent().is_some_and(|p| {
            p.kind() == "attribute"
                && p.child_by_field_name("attribute")
                    .is_some_and(|a| a.id() == m.id())
        });
        (m.kind() == "identifier" && !is_attr_name).then(|| self.t(m))
    }
}
