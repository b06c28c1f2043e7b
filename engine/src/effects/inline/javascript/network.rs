//! JavaScript request bodies and downloads: what is written on a request or socket, where
//! data comes from (environment variables, files, literal text), and the downloads a value is
//! made of.
//!
//! In: nodes of the parsed program. Out: body sources and download URLs.

use tree_sitter::Node;

use super::Js;
use crate::effects::inline::collect::add_body;
use crate::effects::inline::resolve::{MAX_RESOLVE_DEPTH, Res, nodes, path_text};
use crate::effects::model::{BodySource, PathRef};

impl<'t> Js<'t, '_> {
    /// The downloads whose response `n` is made of: `fetch` and `axios` requests inside it,
    /// or inside what a name in it was bound to (three bindings deep); each with its URL
    /// when known here.
    pub(super) fn fetches_in(&self, n: Node<'t>) -> Vec<Option<Res>> {
        let mut out = Vec::new();
        let mut todo = vec![(n, 0_u8)];
        while let Some((node, depth)) = todo.pop() {
            for d in super::nodes(node) {
                match d.kind() {
                    "call_expression" => {
                        let q = d
                            .child_by_field_name("function")
                            .and_then(|f| self.qual(f, 0))
                            .unwrap_or_default();
                        if q == "fetch" || q == "axios" || q.starts_with("axios.") {
                            let first = self.args(d).first().copied();
                            out.push(first.and_then(|u| self.res(u, 0)));
                        }
                    }
                    "identifier" if depth < 3 => {
                        if let Some(v) = self.bind.once(self.t(d)) {
                            todo.push((v, depth + 1));
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// What is written on the object a call returns (a request, a socket): the data of its
    /// `write` / `end` / `send` calls, chained (`https.request(o).end(data)`) or on the name
    /// it is bound to (`const r = https.request(o); r.write(data)`).
    pub(super) fn written_on(&self, call: Node<'t>) -> Vec<BodySource> {
        let mut body = Vec::new();
        let sends = |m: Node<'t>| {
            m.kind() == "member_expression"
                && m.child_by_field_name("property")
                    .is_some_and(|p| matches!(self.t(p), "write" | "end" | "send"))
        };
        let data_of = |c: Node<'t>, body: &mut Vec<BodySource>| {
            if let Some(d) = self.args(c).first().copied() {
                add_body(body, self.body(d, 0));
            }
        };
        // Chained on the call itself.
        let mut outer = call;
        while let Some(m) = outer.parent().filter(|m| sends(*m))
            && m.child_by_field_name("object")
                .is_some_and(|o| o.id() == outer.id())
            && let Some(c) = m.parent().filter(|c| c.kind() == "call_expression")
        {
            data_of(c, &mut body);
            outer = c;
        }
        // On the name it is bound to.
        let name = call.parent().and_then(|p| match p.kind() {
            "variable_declarator"
                if p.child_by_field_name("value")
                    .is_some_and(|v| v.id() == call.id()) =>
            {
                p.child_by_field_name("name")
            }
            "assignment_expression"
                if p.child_by_field_name("right")
                    .is_some_and(|v| v.id() == call.id()) =>
            {
                p.child_by_field_name("left")
            }
            _ => None,
        });
        if let Some(name) = name.filter(|x| x.kind() == "identifier") {
            let name = self.t(name);
            let mut root = call;
            while let Some(p) = root.parent() {
                root = p;
            }
            for m in nodes(root) {
                if sends(m)
                    && m.child_by_field_name("object")
                        .is_some_and(|o| o.kind() == "identifier" && self.t(o) == name)
                    && let Some(c) = m.parent().filter(|c| c.kind() == "call_expression")
                {
                    data_of(c, &mut body);
                }
            }
        }
        body
    }

    /// Where the data of an expression comes from: environment variables, files read, or
    /// literal text.
    pub(super) fn body(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        let mut out = self.env_sources(n, depth);
        if self.res(n, depth).is_some() {
            add_body(&mut out, vec![BodySource::Literal]);
        }
        out
    }

    /// The environment variables and files an expression reads (`process.env.X`,
    /// `Deno.env.get('X')`, `fs.readFileSync(p)`).
    pub(super) fn env_sources(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        if !self.budget.spend() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if depth > MAX_RESOLVE_DEPTH {
            return out;
        }
        for m in nodes(n) {
            match m.kind() {
                "member_expression" | "subscript_expression"
                    if matches!(
                        self.qual(m, depth).as_deref(),
                        Some("process.env" | "Bun.env")
                    ) && !m.parent().is_some_and(|p| {
                        matches!(p.kind(), "member_expression" | "subscript_expression")
                            && p.child_by_field_name("object")
                                .is_some_and(|o| o.id() == m.id())
                    }) =>
                {
                    // `JSON.stringify(process.env)`, `{...process.env}`: every variable.
                    add_body(&mut out, vec![BodySource::Environment]);
                }
                "member_expression" | "subscript_expression" => {
                    if let Some(q) = self.qual(m, depth)
                        && let Some(name) = q
                            .strip_prefix("process.env.")
                            .or_else(|| q.strip_prefix("Bun.env."))
                        && !name.contains('.')
                    {
                        add_body(&mut out, vec![BodySource::Env(name.to_string())]);
                    }
                }
                "call_expression" => {
                    let Some(f) = m.child_by_field_name("function") else {
                        continue;
                    };
                    let first = self.args(m).first().copied();
                    match self.qual(f, depth).as_deref() {
                        Some("Deno.env.toObject") => {
                            add_body(&mut out, vec![BodySource::Environment]);
                        }
                        Some("Deno.env.get") => {
                            if let Some(name) = first.and_then(|k| self.res(k, depth)) {
                                add_body(&mut out, vec![BodySource::Env(name.text)]);
                            }
                        }
                        Some(
                            "fs.readFile" | "Deno.readTextFile" | "Deno.readFile" | "Bun.file",
                        ) => {
                            if let Some(p) = first.and_then(|p| self.res(p, depth)) {
                                let text = path_text(&p, self.tilde_is_home);
                                add_body(
                                    &mut out,
                                    vec![BodySource::File(PathRef::new(text, None))],
                                );
                            }
                        }
                        _ => {}
                    }
                }
                "identifier" => {
                    let is_prop = m.parent().is_some_and(|p| {
                        p.kind() == "member_expression"
                            && p.child_by_field_name("property")
                                .is_some_and(|a| a.id() == m.id())
                    });
                    if !is_prop && let Some(v) = self.bind.once(self.t(m)) {
                        add_body(&mut out, self.env_sources(v, depth + 1));
                    }
                }
                "shorthand_property_identifier" => {
                    if let Some(v) = self.bind.once(self.t(m)) {
                        add_body(&mut out, self.env_sources(v, depth + 1));
                    }
                }
                _ => {}
            }
        }
        out
    }
}
