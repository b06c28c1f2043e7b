//! JavaScript's part of the exposure walk ([`Exposes`]): the calls that print (`console.log`
//! and its kin, `process.stdout.write`) or write into a file (`fs.writeFileSync`,
//! `fs.appendFile`, `Deno.writeTextFile`, `Bun.write`), the values that carry what they are
//! made of, and reads of `process.env` whose name does not resolve.
//!
//! In: a call or expression node. Out: what [`Exposes`] asks of a language.

use tree_sitter::Node;

use super::Js;
use crate::effects::inline::exposure::{Exposes, Sink};

/// Functions that print their arguments into the session.
const PRINTS: &[&str] = &[
    "console.log",
    "console.info",
    "console.error",
    "console.warn",
    "console.debug",
    "console.dir",
    "console.table",
    "console.trace",
    "process.stdout.write",
    "process.stderr.write",
];

/// Functions that write their second argument into the file their first names.
const WRITES: &[&str] = &[
    "fs.writeFile",
    "fs.appendFile",
    "fs.outputFile",
    "Deno.writeTextFile",
    "Deno.writeFile",
    "Bun.write",
];

/// Functions whose value is made of their arguments (`String(x)`, `JSON.stringify(x)`).
const CARRYING_FUNCTIONS: &[&str] = &[
    "String",
    "JSON.stringify",
    "btoa",
    "Buffer.from",
    "encodeURIComponent",
    "encodeURI",
    "Object.entries",
    "Object.values",
    "Object.assign",
];

/// Methods whose value is made of their object and arguments (`s.toUpperCase()`).
const CARRYING_METHODS: &[&str] = &[
    "toString",
    "slice",
    "substring",
    "substr",
    "split",
    "join",
    "concat",
    "toUpperCase",
    "toLowerCase",
    "trim",
    "trimStart",
    "trimEnd",
    "padStart",
    "padEnd",
    "replace",
    "replaceAll",
    "repeat",
    "reverse",
    "at",
];

/// Operators whose value is a test, not their operands (`process.env.X === undefined`).
const TESTS: &[&str] = &[
    "===",
    "!==",
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "in",
    "instanceof",
];

impl<'t> Exposes<'t> for Js<'t, '_> {
    fn env_unresolved(&self, m: Node<'t>, depth: usize) -> bool {
        match m.kind() {
            "subscript_expression" => {
                m.child_by_field_name("object")
                    .and_then(|o| self.qual(o, depth))
                    .is_some_and(|q| matches!(q.as_str(), "process.env" | "Bun.env"))
                    && m.child_by_field_name("index")
                        .is_none_or(|k| self.res(k, depth).is_none())
            }
            "call_expression" => {
                m.child_by_field_name("function")
                    .and_then(|f| self.qual(f, depth))
                    .is_some_and(|q| q == "Deno.env.get")
                    && self
                        .args(m)
                        .first()
                        .is_none_or(|k| self.res(*k, depth).is_none())
            }
            _ => false,
        }
    }

    fn carries(&self, m: Node<'t>, c: Node<'t>) -> bool {
        let is = |field: &str| {
            m.child_by_field_name(field)
                .is_some_and(|k| k.id() == c.id())
        };
        match m.kind() {
            "call_expression" => {
                let Some(f) = m.child_by_field_name("function") else {
                    return false;
                };
                self.qual(f, 0)
                    .is_some_and(|q| CARRYING_FUNCTIONS.contains(&q.as_str()))
                    || (f.kind() == "member_expression"
                        && f.child_by_field_name("property")
                            .is_some_and(|p| CARRYING_METHODS.contains(&self.t(p))))
            }
            // `process.env.X.length` is a number, not the value.
            "member_expression" => m
                .child_by_field_name("property")
                .is_none_or(|p| self.t(p) != "length"),
            "binary_expression" => m
                .child_by_field_name("operator")
                .is_none_or(|o| !TESTS.contains(&self.t(o))),
            // `!x`, `typeof x`; a closure or an object built by a constructor (`new
            // Octokit({auth: process.env.GITHUB_TOKEN})`) uses what it is given.
            "unary_expression"
            | "new_expression"
            | "arrow_function"
            | "function_expression"
            | "function_declaration" => false,
            // `x ? "set" : "unset"`: the condition is not printed.
            "ternary_expression" => !is("condition"),
            "pair" => !is("key"),
            _ => true,
        }
    }

    fn exposed_by(&self, call: Node<'t>) -> Option<(Sink, String, Vec<Node<'t>>)> {
        if call.kind() != "call_expression" {
            return None;
        }
        let q = self.qual(call.child_by_field_name("function")?, 0)?;
        if PRINTS.contains(&q.as_str()) {
            let args = self.args(call);
            return Some((Sink::Printed, q, args));
        }
        if WRITES.contains(&q.as_str()) {
            let data = self.args(call).get(1).copied()?;
            return Some((Sink::Written, q, vec![data]));
        }
        None
    }
}
