//! JavaScript and TypeScript: the calls of a parsed program that touch files, the network or
//! run commands.
//!
//! Modules are followed through `require('fs')`, destructuring (`const {rmSync} =
//! require('node:fs')`), `import fs from 'fs'`, `import {execSync} from 'child_process'` and
//! `fs.promises`, so the table below speaks of functions by their full names (`fs.rm`,
//! `child_process.exec`); the `Sync` and promise forms of a function are the same entry.
//!
//! In: the parsed program and the [`Collect`] of the lens. Out: what the calls do, in it.
//! Here: the walk over the program and the names it binds; the values and full names in
//! `resolve`, the calls in `calls`, request bodies and downloads in `network`.

mod calls;
mod expose;
mod network;
mod resolve;

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::{Bindings, Budget, Collect, Walker, nodes, read_in_rounds, text, walker_from_fields};
use crate::effects::inline::exposure::Exposes;
use crate::effects::inline::resolve::{Partial, items};
use crate::effects::inline::sources::Reader;

/// Collect the effects of a parsed program.
pub(super) fn effects(tree: &Tree, src: &str, cx: &mut Collect<'_>) -> bool {
    let all = nodes(tree.root_node());
    let mut js = Js {
        src,
        argv: cx.argv,
        tilde_is_home: cx.tilde_is_home,
        budget: Budget::default(),
        bind: Bindings::new(),
        imports: HashMap::new(),
        picked: HashMap::new(),
        choices: Vec::new(),
        partial: Partial::default(),
    };
    for n in &all {
        js.collect(*n);
    }
    // A loop over a literal array (`for (const f of ['a.json', 'b.json'])`,
    // `['a', 'b'].forEach(f => …)`) is read once per element, with the loop name bound to
    // that element; the effects of every round are kept.
    read_in_rounds(&mut js, &all, cx);
    js.budget.exhausted()
}

impl<'t> Js<'t, '_> {
    /// One reading of every call of the program.
    fn calls(&mut self, all: &[Node<'t>], cx: &mut Collect<'_>) {
        let js = self;
        for n in all {
            // `import x from "https://…"`, `export * from "npm:x"`, `await import("jsr:@s/x")`:
            // modules fetched from the network run.
            let spec = match n.kind() {
                "import_statement" | "export_statement" => n.child_by_field_name("source"),
                "call_expression"
                    if n.child_by_field_name("function")
                        .is_some_and(|f| f.kind() == "import") =>
                {
                    n.child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                }
                _ => None,
            };
            if let Some(r) = spec.and_then(|x| js.res(x, 0)) {
                cx.module(&r);
            }
            if matches!(n.kind(), "call_expression" | "new_expression") {
                js.call(*n, cx);
                js.expose(*n, cx);
            } else if n.kind() == "identifier"
                && matches!(js.t(*n), "eval" | "Function")
                && n.parent().is_some_and(|p| p.kind() == "arguments")
            {
                // `fetch(u).then(r => r.text()).then(eval)`: handed over as a callback, it runs
                // whatever it is given: the response of a download in the promise chain it
                // is handed to, or code not known here.
                let chain = n
                    .parent()
                    .and_then(|args| args.parent())
                    .and_then(|call| call.child_by_field_name("function"));
                let fetched = chain.map(|c| js.fetches_in(c)).unwrap_or_default();
                if fetched.is_empty() {
                    cx.unsure(format!(
                        "`{}` passed as a callback runs code known only at run time",
                        js.t(*n)
                    ));
                }
                for url in fetched {
                    cx.fetch_and_run(url.as_ref());
                }
            }
        }
    }
}

walker_from_fields!(Js);

/// What is known about a program while its calls are read.
struct Js<'t, 's> {
    src: &'s str,
    /// `process.argv`.
    argv: &'s [Option<String>],
    /// A leading `~` in a string is the home folder ([`Collect::tilde_is_home`]).
    tilde_is_home: bool,
    /// The steps taken resolving values.
    budget: Budget,
    /// Names bound by declarations, assignments, parameters.
    bind: Bindings<'t>,
    /// Names bound by `import`, to what they name (`fs` → `fs`, `x` → `child_process.exec`).
    imports: HashMap<String, String>,
    /// Names picked out of a value by destructuring: the value and the property.
    picked: HashMap<String, (Node<'t>, String)>,
    /// Loops over a literal array: the loop name and the elements it takes.
    choices: Vec<(String, Vec<Node<'t>>)>,
    /// Whether a path is being resolved in part.
    partial: Partial,
}

impl<'t> Js<'t, '_> {
    fn t(&self, n: Node<'_>) -> &str {
        text(n, self.src)
    }

    /// Record the names a node binds.
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "variable_declarator" => {
                let Some(name) = n.child_by_field_name("name") else {
                    return;
                };
                let value = n.child_by_field_name("value");
                match name.kind() {
                    "identifier" => self.bind_node(name, value),
                    "object_pattern" => {
                        let mut c = name.walk();
                        for p in name.named_children(&mut c) {
                            match p.kind() {
                                "shorthand_property_identifier_pattern" => {
                                    self.bind_node(p, None);
                                    if let Some(v) = value {
                                        let id = self.t(p).to_string();
                                        self.picked.insert(id.clone(), (v, id));
                                    }
                                }
                                "pair_pattern" => {
                                    let (Some(k), Some(alias)) = (
                                        p.child_by_field_name("key"),
                                        p.child_by_field_name("value"),
                                    ) else {
                                        continue;
                                    };
                                    if alias.kind() == "identifier" {
                                        self.bind_node(alias, None);
                                        if let Some(v) = value {
                                            let id = self.t(alias).to_string();
                                            let key =
                                                self.t(k).trim_matches(['"', '\'']).to_string();
                                            self.picked.insert(id, (v, key));
                                        }
                                    } else {
                                        self.bind_all(alias);
                                    }
                                }
                                _ => self.bind_all(p),
                            }
                        }
                    }
                    _ => self.bind_all(name),
                }
            }
            "assignment_expression" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() == "identifier" {
                        self.bind_node(l, n.child_by_field_name("right"));
                    } else if matches!(l.kind(), "object_pattern" | "array_pattern") {
                        self.bind_all(l);
                    }
                }
            }
            "augmented_assignment_expression" | "update_expression" => {
                if let Some(l) = n
                    .child_by_field_name("left")
                    .or_else(|| n.child_by_field_name("argument"))
                    && l.kind() == "identifier"
                {
                    self.bind_node(l, None);
                }
            }
            "formal_parameters" => {
                // `import('fs').then(fs => …)`, `.then(function (cp) {…})`: the first
                // parameter is the module.
                if let Some(m) = self.then_module(n.parent()) {
                    let mut c = n.walk();
                    let params: Vec<Node<'t>> = n.named_children(&mut c).collect();
                    if let Some((first, rest)) = params.split_first()
                        && first.kind() == "identifier"
                    {
                        self.bind_node(*first, Some(m));
                        for p in rest {
                            self.bind_all(*p);
                        }
                        return;
                    }
                }
                self.bind_all(n);
            }
            "catch_clause" => self.bind_all(n),
            "for_in_statement" => {
                if let Some(l) = n.child_by_field_name("left") {
                    self.bind_all(l);
                    if l.kind() == "identifier"
                        && n.child_by_field_name("operator")
                            .is_some_and(|o| self.t(o) == "of")
                        && let Some(items) = n
                            .child_by_field_name("right")
                            .and_then(|r| self.literal_items(r))
                    {
                        self.choices.push((self.t(l).to_string(), items));
                    }
                }
            }
            "arrow_function" | "function_expression" if self.iterates_literal(n).is_some() => {
                let items = self.iterates_literal(n).unwrap_or_default();
                let first = n.child_by_field_name("parameter").or_else(|| {
                    n.child_by_field_name("parameters")
                        .and_then(|ps| ps.named_child(0))
                });
                // (A `(f) => …` has its names bound by its `formal_parameters`.)
                if let Some(p) = first.filter(|p| p.kind() == "identifier") {
                    let id = self.t(p).to_string();
                    if n.child_by_field_name("parameter").is_some() {
                        self.bind.bind(&id, None);
                    }
                    self.choices.push((id, items));
                }
            }
            "arrow_function" => {
                if let Some(p) = n.child_by_field_name("parameter") {
                    match self.then_module(Some(n)) {
                        Some(m) if p.kind() == "identifier" => self.bind_node(p, Some(m)),
                        _ => self.bind_all(p),
                    }
                }
            }
            "function_declaration" | "class_declaration" | "generator_function_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.bind_node(name, None);
                }
            }
            "import_statement" => {
                let Some(src) = n.child_by_field_name("source") else {
                    return;
                };
                let Some(module) = self.res(src, 0).map(|r| module_name(&r.text)) else {
                    return;
                };
                for k in nodes(n) {
                    match k.kind() {
                        // `import fs from 'fs'`, `import * as fs from 'fs'`.
                        "import_clause" | "namespace_import" => {
                            let mut c = k.walk();
                            for d in k.named_children(&mut c) {
                                if d.kind() == "identifier" {
                                    self.imports.insert(self.t(d).to_string(), module.clone());
                                }
                            }
                        }
                        "import_specifier" => {
                            let Some(name) = k.child_by_field_name("name") else {
                                continue;
                            };
                            let alias = k.child_by_field_name("alias").unwrap_or(name);
                            let name = self.t(name).trim_matches(['"', '\'']);
                            self.imports
                                .insert(self.t(alias).to_string(), format!("{module}.{name}"));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// When `f` is the callback of `import('m').then(f)` (or `require('m')`), the call that
    /// loads the module.
    fn then_module(&self, f: Option<Node<'t>>) -> Option<Node<'t>> {
        let f = f?;
        if !matches!(
            f.kind(),
            "arrow_function" | "function_expression" | "function"
        ) {
            return None;
        }
        let args = f.parent().filter(|a| a.kind() == "arguments")?;
        let call = args.parent().filter(|c| c.kind() == "call_expression")?;
        let then = call
            .child_by_field_name("function")
            .filter(|m| m.kind() == "member_expression")?;
        if then.child_by_field_name("property").map(|p| self.t(p)) != Some("then") {
            return None;
        }
        let loader = then.child_by_field_name("object")?;
        (loader.kind() == "call_expression").then_some(loader)
    }

    /// Every identifier under `n` is bound to something not known here.
    /// The elements of a literal array (`['a.json', 'b.json']`), directly or through a name
    /// bound once to one; `None` for anything else or one with `...spread`.
    fn literal_items(&self, n: Node<'t>) -> Option<Vec<Node<'t>>> {
        let n = match n.kind() {
            "identifier" => self.bind.once(self.t(n))?,
            _ => n,
        };
        if n.kind() != "array" {
            return None;
        }
        let items = items(n);
        if items.iter().any(|k| k.kind() == "spread_element") {
            return None;
        }
        Some(items)
    }

    /// The elements a callback is called with when it is the first argument of an array
    /// method over a literal array (`['a', 'b'].forEach(f => …)`, `.map`, `.filter`, …).
    fn iterates_literal(&self, f: Node<'t>) -> Option<Vec<Node<'t>>> {
        let args = f.parent().filter(|a| a.kind() == "arguments")?;
        if args.named_child(0).map(|x| x.id()) != Some(f.id()) {
            return None;
        }
        let call = args.parent().filter(|c| c.kind() == "call_expression")?;
        let callee = call
            .child_by_field_name("function")
            .filter(|m| m.kind() == "member_expression")?;
        let method = self.t(callee.child_by_field_name("property")?);
        if !matches!(
            method,
            "forEach" | "map" | "filter" | "flatMap" | "some" | "every" | "find"
        ) {
            return None;
        }
        self.literal_items(callee.child_by_field_name("object")?)
    }

    fn bind_all(&mut self, n: Node<'t>) {
        for id in nodes(n) {
            if matches!(
                id.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            ) {
                self.bind_node(id, None);
            }
        }
    }
}

/// A module name without its `node:` scheme, with `fs/promises` as `fs`.
fn module_name(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    match m {
        "fs/promises" | "fs-extra" | "graceful-fs" | "original-fs" => "fs".into(),
        "path/posix" => "path".into(),
        "child_process/promises" => "child_process".into(),
        other => other.to_string(),
    }
}
