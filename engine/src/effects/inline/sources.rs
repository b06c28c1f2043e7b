//! Where the data of an expression comes from, one walk for Python and JavaScript: the
//! downloads a value is made of (`exec(urlopen(u).read())`, `eval(await (await
//! fetch(u)).text())`), and the environment variables, files and literal text a request body
//! carries (`os.environ['X']`, `process.env.X`, `open(p).read()`, `fs.readFileSync(p)`).
//!
//! In: a language's reader ([`Reader`]) and an expression node. Out: download URLs and body
//! sources. The walk follows names bound once to their values; the reader says what a node
//! of its language reads by itself.

use tree_sitter::Node;

use super::collect::add_body;
use super::resolve::{Res, nodes};
use super::walker::Walker;
use crate::effects::model::BodySource;

/// How many bindings deep a download is looked for behind names (`r = get(u); exec(r.text)`).
const MAX_FETCH_BINDINGS: u8 = 3;

/// What the shared walks need from a language's reader, beyond its [`Walker`] state; the
/// walks themselves come with it ([`Reader::fetches_in`], [`Reader::body`],
/// [`Reader::env_sources`]).
pub(super) trait Reader<'t>: Walker<'t> {
    /// The kind of a call node in the language's grammar (`call`, `call_expression`).
    const CALL: &'static str;
    /// Whether the function of this full name downloads what its response is made of.
    fn downloads(q: &str) -> bool;
    /// The URL argument of a download call.
    fn url_arg(&self, call: Node<'t>) -> Option<Node<'t>>;
    /// Whether a node is literal text even when its value does not resolve (a Python string).
    fn is_literal(&self, n: Node<'t>) -> bool;
    /// The body sources node `m` reads by itself, added to `out`; `false` when the language
    /// has nothing to say about it (a name is then followed to its value).
    fn reads(&self, m: Node<'t>, depth: usize, out: &mut Vec<BodySource>) -> bool;
    /// The name a node refers to, when it is a name in an expression (not a property name).
    fn name_ref(&self, m: Node<'t>) -> Option<&str>;

    /// The downloads whose response `n` is made of: requests inside it, or inside what a name
    /// in it was bound to ([`MAX_FETCH_BINDINGS`] deep); each with its URL when known here.
    fn fetches_in(&self, n: Node<'t>) -> Vec<Option<Res>> {
        let mut out = Vec::new();
        let mut todo = vec![(n, 0_u8)];
        while let Some((node, depth)) = todo.pop() {
            for d in nodes(node) {
                let kind = d.kind();
                if kind == Self::CALL {
                    let q = d
                        .child_by_field_name("function")
                        .and_then(|f| self.full_name(f, 0))
                        .unwrap_or_default();
                    if Self::downloads(&q) {
                        out.push(self.url_arg(d).and_then(|u| self.value_of(u, 0)));
                    }
                } else if kind == "identifier"
                    && depth < MAX_FETCH_BINDINGS
                    && let Some(v) = self.bound().once(self.node_text(d))
                {
                    todo.push((v, depth + 1));
                }
            }
        }
        out
    }

    /// Where the data of an expression comes from: environment variables, files read, or
    /// literal text.
    fn body(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        let mut out = self.env_sources(n, depth);
        if self.value_of(n, depth).is_some() || self.is_literal(n) {
            add_body(&mut out, vec![BodySource::Literal]);
        }
        out
    }

    /// The environment variables and files an expression reads, through names bound once.
    fn env_sources(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        if !self.budget().step(depth) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for m in nodes(n) {
            if self.reads(m, depth, &mut out) {
                continue;
            }
            if let Some(name) = self.name_ref(m)
                && let Some(v) = self.bound().once(name)
            {
                add_body(&mut out, self.env_sources(v, depth + 1));
            }
        }
        out
    }
}
