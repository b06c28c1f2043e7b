//! JavaScript and TypeScript: the calls of a parsed program that touch files, the network or
//! run commands.
//!
//! Modules are followed through `require('fs')`, destructuring (`const {rmSync} =
//! require('node:fs')`), `import fs from 'fs'`, `import {execSync} from 'child_process'` and
//! `fs.promises`, so the table below speaks of functions by their full names (`fs.rm`,
//! `child_process.exec`); the `Sync` and promise forms of a function are the same entry.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::{
    Bindings, Budget, Collect, MAX_RESOLVE_DEPTH, Res, TEMP_DIR, add_body, argv_item, mode_text,
    nodes, path_text, read_in_rounds, rounds_from_fields, text, unescape,
};
use crate::effects::model::{BodySource, PathRef, What};

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

rounds_from_fields!(Js);

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
                    "identifier" => {
                        let id = self.t(name).to_string();
                        self.bind.bind(&id, value);
                    }
                    "object_pattern" => {
                        let mut c = name.walk();
                        for p in name.named_children(&mut c) {
                            match p.kind() {
                                "shorthand_property_identifier_pattern" => {
                                    let id = self.t(p).to_string();
                                    self.bind.bind(&id, None);
                                    if let Some(v) = value {
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
                                        let id = self.t(alias).to_string();
                                        self.bind.bind(&id, None);
                                        if let Some(v) = value {
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
                        let id = self.t(l).to_string();
                        let r = n.child_by_field_name("right");
                        self.bind.bind(&id, r);
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
                    let id = self.t(l).to_string();
                    self.bind.bind(&id, None);
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
                        let id = self.t(*first).to_string();
                        self.bind.bind(&id, Some(m));
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
                        Some(m) if p.kind() == "identifier" => {
                            let id = self.t(p).to_string();
                            self.bind.bind(&id, Some(m));
                        }
                        _ => self.bind_all(p),
                    }
                }
            }
            "function_declaration" | "class_declaration" | "generator_function_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let id = self.t(name).to_string();
                    self.bind.bind(&id, None);
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
                        "import_clause" => {
                            let mut c = k.walk();
                            for d in k.named_children(&mut c) {
                                if d.kind() == "identifier" {
                                    self.imports.insert(self.t(d).to_string(), module.clone());
                                }
                            }
                        }
                        "namespace_import" => {
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
        let mut c = n.walk();
        let items: Vec<Node<'t>> = n
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment")
            .collect();
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
                let name = self.t(id).to_string();
                self.bind.bind(&name, None);
            }
        }
    }

    /// The downloads whose response `n` is made of: `fetch` and `axios` requests inside it,
    /// or inside what a name in it was bound to (three bindings deep); each with its URL
    /// when known here.
    fn fetches_in(&self, n: Node<'t>) -> Vec<Option<Res>> {
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

    /// The full name of a callee or module expression (`require('fs').rmSync` → `fs.rm`).
    fn qual(&self, n: Node<'t>, depth: usize) -> Option<String> {
        if !self.budget.spend() {
            return None;
        }
        if depth > MAX_RESOLVE_DEPTH {
            return None;
        }
        let d = depth + 1;
        let q = match n.kind() {
            "identifier" => {
                let name = self.t(n);
                if let Some(m) = self.imports.get(name) {
                    m.clone()
                } else if let Some((v, prop)) = self.picked.get(name)
                    && self.bind.map.get(name).is_some_and(|b| b.len() == 1)
                {
                    format!("{}.{prop}", self.qual(*v, d)?)
                } else if let Some(v) = self.bind.once(name) {
                    // (A parameter bound to `import('m')` by `.then` is that module.)
                    match v.kind() {
                        "call_expression"
                        | "member_expression"
                        | "identifier"
                        | "await_expression"
                        | "subscript_expression"
                        | "parenthesized_expression" => self.qual(v, d)?,
                        _ => return None,
                    }
                } else {
                    name.to_string()
                }
            }
            "member_expression" => {
                let obj = n.child_by_field_name("object")?;
                let prop = n.child_by_field_name("property")?;
                format!("{}.{}", self.qual(obj, d)?, self.t(prop))
            }
            "subscript_expression" => {
                let obj = n.child_by_field_name("object")?;
                let idx = self.res(n.child_by_field_name("index")?, d)?;
                format!("{}.{}", self.qual(obj, d)?, idx.text)
            }
            "call_expression" => {
                // `require('fs')`, `await import('fs')`.
                let f = n.child_by_field_name("function")?;
                // `require`, `module.require`, `process.mainModule.require`, `import()`.
                let requires = self.t(f) == "require"
                    || (f.kind() == "member_expression"
                        && f.child_by_field_name("property")
                            .is_some_and(|p| self.t(p) == "require"));
                if !requires && f.kind() != "import" {
                    return None;
                }
                let args = n.child_by_field_name("arguments")?;
                module_name(&self.res(args.named_child(0)?, d)?.text)
            }
            "await_expression" | "parenthesized_expression" => self.qual(n.named_child(0)?, d)?,
            "non_null_expression" | "as_expression" => self.qual(n.named_child(0)?, d)?,
            _ => return None,
        };
        Some(canonical(&q))
    }

    /// The arguments of a call.
    fn args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let Some(a) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        // A tagged template (`` $`rm -rf ${x}` ``) has the template as its one argument.
        if a.kind() == "template_string" {
            return vec![a];
        }
        let mut c = a.walk();
        a.named_children(&mut c)
            .filter(|x| x.kind() != "comment")
            .collect()
    }

    /// Follow a name bound once to its value.
    fn value(&self, n: Node<'t>) -> Node<'t> {
        let mut n = n;
        for _ in 0..MAX_RESOLVE_DEPTH {
            match n.kind() {
                "identifier" => match self.bind.once(self.t(n)) {
                    Some(v) => n = v,
                    None => break,
                },
                "parenthesized_expression" | "await_expression" => match n.named_child(0) {
                    Some(v) => n = v,
                    None => break,
                },
                _ => break,
            }
        }
        n
    }

    /// The value of property `key` of an object literal.
    fn prop(&self, obj: Node<'t>, key: &str) -> Option<Node<'t>> {
        let obj = self.value(obj);
        if obj.kind() != "object" {
            return None;
        }
        let mut c = obj.walk();
        for p in obj.named_children(&mut c) {
            match p.kind() {
                "pair" => {
                    let k = p.child_by_field_name("key")?;
                    if self.t(k).trim_matches(['"', '\'']) == key {
                        return p.child_by_field_name("value");
                    }
                }
                "shorthand_property_identifier" if self.t(p) == key => {
                    return self.bind.once(key);
                }
                _ => {}
            }
        }
        None
    }

    /// Whether option `key` is `true` in an options argument; `None` when the options are not
    /// a literal object.
    fn flag(&self, opts: Option<Node<'t>>, key: &str) -> Option<bool> {
        let Some(o) = opts else {
            return Some(false);
        };
        let o = self.value(o);
        if o.kind() != "object" {
            return None;
        }
        Some(self.prop(o, key).is_some_and(|v| v.kind() == "true"))
    }

    /// The value of an expression, when it is a literal or resolves to one.
    fn res(&self, n: Node<'t>, depth: usize) -> Option<Res> {
        if !self.budget.spend() {
            return None;
        }
        if depth > MAX_RESOLVE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match n.kind() {
            "string" => {
                let mut out = String::new();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        "string_fragment" => out.push_str(self.t(k)),
                        "escape_sequence" => out.push_str(&unescape(self.t(k))),
                        _ => {}
                    }
                }
                Some(Res::lit(out))
            }
            "template_string" => {
                let mut out = Res::lit("");
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        "string_fragment" => out.text.push_str(self.t(k)),
                        "escape_sequence" => out.text.push_str(&unescape(self.t(k))),
                        "template_substitution" => {
                            out = out.concat(&self.res(k.named_child(0)?, d)?);
                        }
                        _ => {}
                    }
                }
                Some(out)
            }
            "binary_expression" => {
                let op = self.t(n.child_by_field_name("operator")?);
                if op != "+" {
                    return None;
                }
                let l = self.res(n.child_by_field_name("left")?, d)?;
                let r = self.res(n.child_by_field_name("right")?, d)?;
                Some(l.concat(&r))
            }
            "parenthesized_expression"
            | "await_expression"
            | "non_null_expression"
            | "as_expression" => self.res(n.named_child(0)?, d),
            "assignment_expression" => self.res(n.child_by_field_name("right")?, d),
            "identifier" => self.res(self.bind.once(self.t(n))?, d),
            "subscript_expression" => {
                // `process.argv[2]`.
                let obj = n.child_by_field_name("object")?;
                let idx = n.child_by_field_name("index")?;
                if idx.kind() == "number" && self.qual(obj, d).as_deref() == Some("process.argv") {
                    return argv_item(self.argv, self.t(idx));
                }
                (self.qual(n, d).as_deref() == Some("process.env.HOME")).then(Res::home)
            }
            "member_expression" => {
                (self.qual(n, d).as_deref() == Some("process.env.HOME")).then(Res::home)
            }
            "number" => Some(Res::lit(self.t(n))),
            "call_expression" => self.res_call(n, d),
            "new_expression" => {
                // `new URL('https://…')`.
                let c = n.child_by_field_name("constructor")?;
                (self.t(c) == "URL" && self.args(n).len() == 1)
                    .then(|| self.res(*self.args(n).first()?, d))
                    .flatten()
            }
            _ => None,
        }
    }

    /// The value of a call that computes a path or a string from literals.
    fn res_call(&self, n: Node<'t>, d: usize) -> Option<Res> {
        let f = n.child_by_field_name("function")?;
        let args = self.args(n);
        if let Some(q) = self.qual(f, d) {
            match q.as_str() {
                "path.join" | "path.posix.join" | "path.resolve" | "path.posix.resolve" => {
                    let resets = q.ends_with("resolve");
                    let mut out = Res::lit("");
                    for a in &args {
                        out = out.join(&self.res(*a, d)?, resets);
                    }
                    return Some(out);
                }
                "path.normalize" | "String" => return self.res(*args.first()?, d),
                "os.homedir" => return Some(Res::home()),
                "os.tmpdir" => return Some(Res::lit(TEMP_DIR)),
                // `fs.mkdtempSync(path.join(os.tmpdir(), 'x-'))`: the prefix and six random
                // characters.
                "fs.mkdtempSync" | "fs.mkdtemp" | "fs.promises.mkdtemp" | "fsPromises.mkdtemp" => {
                    return Some(self.res(*args.first()?, d)?.concat(&Res::lit("XXXXXX")));
                }
                "process.cwd" | "Deno.cwd" => return Some(Res::lit(".")),
                "Deno.env.get" => {
                    return (self.res(*args.first()?, d)?.text == "HOME").then(Res::home);
                }
                _ => {}
            }
        }
        if f.kind() != "member_expression" {
            return None;
        }
        let obj = f.child_by_field_name("object")?;
        match self.t(f.child_by_field_name("property")?) {
            "toString" | "trim" => self.res(obj, d),
            "join" => {
                let sep = match args.first() {
                    Some(s) => self.res(*s, d)?.text,
                    None => ",".into(),
                };
                Some(Res::lit(self.list(obj, d)?.join(&sep)))
            }
            _ => None,
        }
    }

    /// The items of an array of literals.
    fn list(&self, n: Node<'t>, d: usize) -> Option<Vec<String>> {
        if !self.budget.spend() {
            return None;
        }
        let n = self.value(n);
        if n.kind() != "array" {
            return None;
        }
        let mut c = n.walk();
        let items: Vec<Node<'t>> = n
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment")
            .collect();
        items
            .into_iter()
            .map(|k| self.res(k, d + 1).map(|r| r.text))
            .collect()
    }

    /// The path an argument names, or `None` after recording that it is only known at run
    /// time.
    fn path_arg(&self, a: Option<Node<'t>>, q: &str, cx: &mut Collect<'_>) -> Option<PathRef> {
        match a.and_then(|a| self.res(a, 0)) {
            Some(r) => Some(cx.path(&r)),
            None => {
                cx.unknown(q, "a path");
                None
            }
        }
    }

    /// A read of an argument: a literal path, or a path known only at run time.
    fn read_arg(&self, a: Option<Node<'t>>, cx: &mut Collect<'_>) {
        // A number is a file descriptor (`readFileSync(0)` reads standard input).
        let Some(a) = a.filter(|a| a.kind() != "number") else {
            return;
        };
        let p = match self.res(a, 0) {
            Some(r) => cx.path(&r),
            None => cx.computed_path(self.t(a)),
        };
        cx.push(What::Read(p));
    }

    /// The effects of one call (or `new` expression).
    fn call(&self, n: Node<'t>, cx: &mut Collect<'_>) {
        let callee = n
            .child_by_field_name("function")
            .or_else(|| n.child_by_field_name("constructor"));
        let Some(f) = callee else {
            return;
        };
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
                    cx.push(What::Delete { path: p, recursive });
                }
            }
            "fs.unlink" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: false,
                    });
                }
            }
            "fs.remove" | "fs.emptyDir" | "rimraf" | "rimraf.rimraf" | "rimraf.sync"
            | "rimraf.rimrafSync" | "del" | "del.deleteAsync" | "del.deleteSync" => {
                if let Some(p) = self.path_arg(a(0), q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                    });
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
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                    });
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
                let rest = match list {
                    Some(l) => match self.list(l, 0) {
                        Some(r) => r,
                        None => {
                            cx.unknown(q, "arguments");
                            return;
                        }
                    },
                    None => Vec::new(),
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
                let rest = match a(1).and_then(|o| self.prop(o, "args")) {
                    Some(l) => match self.list(l, 0) {
                        Some(r) => r,
                        None => {
                            cx.unknown(q, "arguments");
                            return;
                        }
                    },
                    None => Vec::new(),
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

    /// What is written on the object a call returns (a request, a socket): the data of its
    /// `write` / `end` / `send` calls, chained (`https.request(o).end(data)`) or on the name
    /// it is bound to (`const r = https.request(o); r.write(data)`).
    fn written_on(&self, call: Node<'t>) -> Vec<BodySource> {
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

    /// Move into the `cwd` option of a command's options, if it has one; the folder to come
    /// back to.
    fn enter_cwd(&self, opts: Option<Node<'t>>, q: &str, cx: &mut Collect<'_>) -> Option<String> {
        let saved = cx.cwd.clone();
        if let Some(d) = opts.and_then(|o| self.prop(o, "cwd")) {
            cx.chdir(self.res(d, 0), &format!("{q} with a `cwd` option"));
        }
        saved
    }

    /// Where the data of an expression comes from: environment variables, files read, or
    /// literal text.
    fn body(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        let mut out = self.env_sources(n, depth);
        if self.res(n, depth).is_some() {
            add_body(&mut out, vec![BodySource::Literal]);
        }
        out
    }

    /// The environment variables and files an expression reads (`process.env.X`,
    /// `Deno.env.get('X')`, `fs.readFileSync(p)`).
    fn env_sources(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
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

/// One spelling for the names that have several: `fs.promises.rm` and `fs.rmSync` are
/// `fs.rm`, `child_process.execSync` is `child_process.exec`, `Deno.removeSync` is
/// `Deno.remove`.
fn canonical(q: &str) -> String {
    let q = q.replace("fs.promises.", "fs.");
    let q = if q == "fs.promises" {
        "fs".to_string()
    } else {
        q
    };
    let family = ["fs.", "child_process.", "Deno.", "Bun."]
        .iter()
        .any(|p| q.starts_with(p));
    if family && let Some(base) = q.strip_suffix("Sync") {
        return base.to_string();
    }
    q
}
