//! JavaScript request bodies and downloads: what is written on a request or socket, where
//! data comes from (environment variables, files, literal text), and the downloads a value is
//! made of.
//!
//! In: nodes of the parsed program. Out: body sources and download URLs.

use tree_sitter::Node;

use super::Js;
use crate::effects::inline::collect::add_body;
use crate::effects::inline::resolve::{nodes, path_text};
use crate::effects::inline::sources::Reader;
use crate::effects::model::{BodySource, PathRef};

impl<'t> Js<'t, '_> {
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
}

impl<'t> Reader<'t> for Js<'t, '_> {
    const CALL: &'static str = "call_expression";

    /// `fetch` and `axios` requests.
    fn downloads(q: &str) -> bool {
        q == "fetch" || q == "axios" || q.starts_with("axios.")
    }

    fn url_arg(&self, call: Node<'t>) -> Option<Node<'t>> {
        self.args(call).first().copied()
    }

    fn is_literal(&self, _: Node<'t>) -> bool {
        false
    }

    /// `process.env.X`, `JSON.stringify(process.env)`, `Deno.env.get('X')`,
    /// `fs.readFileSync(p)`.
    fn reads(&self, m: Node<'t>, depth: usize, out: &mut Vec<BodySource>) -> bool {
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
                add_body(out, vec![BodySource::Environment]);
            }
            "member_expression" | "subscript_expression" => {
                if let Some(q) = self.qual(m, depth)
                    && let Some(name) = q
                        .strip_prefix("process.env.")
                        .or_else(|| q.strip_prefix("Bun.env."))
                    && !name.contains('.')
                {
                    add_body(out, vec![BodySource::Env(name.to_string())]);
                }
            }
            "call_expression" => {
                let Some(f) = m.child_by_field_name("function") else {
                    return true;
                };
                let first = self.args(m).first().copied();
                match self.qual(f, depth).as_deref() {
                    Some("Deno.env.toObject") => {
                        add_body(out, vec![BodySource::Environment]);
                    }
                    Some("Deno.env.get") => {
                        if let Some(name) = first.and_then(|k| self.res(k, depth)) {
                            add_body(out, vec![BodySource::Env(name.text)]);
                        }
                    }
                    Some("fs.readFile" | "Deno.readTextFile" | "Deno.readFile" | "Bun.file") => {
                        if let Some(p) = first.and_then(|p| self.res(p, depth)) {
                            let text = path_text(&p, self.tilde_is_home);
                            add_body(out, vec![BodySource::File(PathRef::new(text, None))]);
                        }
                    }
                    _ => {}
                }
            }
            _ => return false,
        }
        true
    }

    /// An identifier that is not a property name, or a shorthand property (`{x}`).
    fn name_ref(&self, m: Node<'t>) -> Option<&str> {
        match m.kind() {
            "identifier" => {
                let is_prop = m.parent().is_some_and(|p| {
                    p.kind() == "member_expression"
                        && p.child_by_field_name("property")
                            .is_some_and(|a| a.id() == m.id())
                });
                (!is_prop).then(|| self.t(m))
            }
            "shorthand_property_identifier" => Some(self.t(m)),
            _ => None,
        }
    }
}
