//! Python: the calls of a parsed module that touch files, the network or run commands.
//!
//! Names are qualified through the module's imports (`import shutil as sh` makes `sh.rmtree`
//! `shutil.rmtree`; `from os import remove` makes `remove` `os.remove`), so the table below
//! speaks of functions by their full names.
//!
//! In: the parsed module and the [`Collect`] of the lens. Out: what the calls do, in it.
//! Here: the walk over the module and the names it binds; the values and full names in
//! `resolve`, the calls that touch files and run commands in `calls`, requests in `network`.

mod calls;
mod expose;
mod network;
mod reach;
mod resolve;

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::{
    Bindings, Budget, Collect, Partial, Walker, nodes, read_in_rounds, text, walker_from_fields,
};
use crate::effects::inline::exposure::Exposes;
use crate::effects::inline::resolve::items;

/// Collect the effects of a parsed Python module.
pub(super) fn effects(tree: &Tree, src: &str, cx: &mut Collect<'_>) -> bool {
    let all = nodes(tree.root_node());
    let mut py = Py {
        src,
        argv: cx.argv,
        tilde_is_home: cx.tilde_is_home,
        budget: Budget::default(),
        refs: HashMap::new(),
        bind: Bindings::new(),
        imports: HashMap::new(),
        stars: Vec::new(),
        opened: HashMap::new(),
        choices: Vec::new(),
        partial: Partial::default(),
        walked: HashMap::new(),
    };
    for n in &all {
        py.collect(*n);
        if n.kind() == "identifier" {
            let name = py.t(*n).to_string();
            py.refs.entry(name).or_default().push(*n);
        }
    }
    // A loop over a literal sequence (`for f in ['a.json', 'b.json']`) is read once per
    // element, with the loop name bound to that element; the effects of every round are kept.
    read_in_rounds(&mut py, &all, cx);
    py.contents(&all, cx);
    py.budget.exhausted()
}

impl<'t> Py<'t, '_> {
    /// One reading of every call of the module.
    fn calls(&mut self, all: &[Node<'t>], cx: &mut Collect<'_>) {
        for n in all {
            if n.kind() == "call" {
                self.call(*n, cx);
                self.expose(*n, cx);
            } else if n.kind() == "identifier"
                && matches!(self.t(*n), "exec" | "eval")
                && n.parent().is_some_and(|p| p.kind() == "argument_list")
            {
                // `list(map(exec, lines))`: handed over as a function, it runs whatever it is
                // given.
                cx.unsure(format!(
                    "`{}` passed as a function runs code known only at run time",
                    self.t(*n)
                ));
            }
        }
    }
}

walker_from_fields!(Py);

/// What is known about a module while its calls are read.
struct Py<'t, 's> {
    src: &'s str,
    /// `sys.argv`.
    argv: &'s [Option<String>],
    /// A leading `~` in a string is the home folder ([`Collect::tilde_is_home`]).
    tilde_is_home: bool,
    /// The steps taken resolving values.
    budget: Budget,
    /// Every identifier of the module, by name.
    refs: HashMap<String, Vec<Node<'t>>>,
    /// Names bound by assignment, loops, parameters.
    bind: Bindings<'t>,
    /// Names bound by imports, to what they name (`sh` → `shutil`, `remove` → `os.remove`).
    imports: HashMap<String, String>,
    /// Modules imported with `from M import *`.
    stars: Vec<String>,
    /// `open(…)` calls that write: the node id and the index of their write effect.
    opened: HashMap<usize, usize>,
    /// Loops over a literal sequence: the loop name and the elements it takes.
    choices: Vec<(String, Vec<Node<'t>>)>,
    /// Whether a path is being resolved in part.
    partial: Partial,
    /// The folder name of a loop over `os.walk(root)` (`for d, _, files in os.walk(root)`),
    /// to the `root` argument: the folder is `root` or one below it.
    walked: HashMap<String, Node<'t>>,
}

impl<'t> Py<'t, '_> {
    fn t(&self, n: Node<'_>) -> &str {
        text(n, self.src)
    }

    /// Record the names a node binds.
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "assignment" => {
                let (Some(l), r) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return;
                };
                if l.kind() == "identifier" {
                    self.bind_node(l, r);
                } else {
                    self.bind_all(l);
                }
            }
            "augmented_assignment" => {
                if let Some(l) = n.child_by_field_name("left") {
                    self.bind_all(l);
                }
            }
            "for_statement" | "for_in_clause" => {
                let Some(l) = n.child_by_field_name("left") else {
                    return;
                };
                // `for f in glob.glob('*.o')`: each `f` is a path the pattern matches.
                let r = n
                    .child_by_field_name("right")
                    .filter(|r| self.lists_paths(*r));
                if l.kind() == "identifier"
                    && let Some(r) = r
                {
                    self.bind_node(l, Some(r));
                } else if matches!(l.kind(), "pattern_list" | "tuple_pattern")
                    && let Some(root) = n
                        .child_by_field_name("right")
                        .filter(|r| r.kind() == "call")
                        .filter(|r| {
                            r.child_by_field_name("function")
                                .and_then(|f| self.qual(f, 0))
                                .as_deref()
                                == Some("os.walk")
                        })
                        .and_then(|r| self.arg(r, 0, "top"))
                {
                    // `for dirpath, dirs, files in os.walk(root)`: `dirpath` is `root` or a
                    // folder below it; the names in `files` are the loop's `*` items.
                    if let Some(first) = l.named_child(0).filter(|f| f.kind() == "identifier") {
                        self.walked.insert(self.t(first).to_string(), root);
                    }
                    self.bind_all(l);
                } else {
                    self.bind_all(l);
                    if l.kind() == "identifier"
                        && let Some(items) = n
                            .child_by_field_name("right")
                            .and_then(|r| self.literal_items(r))
                    {
                        self.choices.push((self.t(l).to_string(), items));
                    }
                }
            }
            "as_pattern" => {
                let value = n.named_child(0);
                if let Some(alias) = n.child_by_field_name("alias") {
                    let ids: Vec<Node<'t>> = nodes(alias)
                        .into_iter()
                        .filter(|x| x.kind() == "identifier")
                        .collect();
                    if let [one] = ids.as_slice() {
                        self.bind_node(*one, value);
                    } else {
                        for id in ids {
                            self.bind_node(id, None);
                        }
                    }
                }
            }
            "named_expression" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.bind_node(name, n.child_by_field_name("value"));
                }
            }
            "parameters" | "lambda_parameters" | "global_statement" | "nonlocal_statement" => {
                self.bind_all(n);
            }
            "function_definition" | "class_definition" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.bind_node(name, None);
                }
            }
            "import_statement" => {
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    self.import_name(k, None);
                }
            }
            "import_from_statement" => {
                let Some(m) = n.child_by_field_name("module_name") else {
                    return;
                };
                if m.kind() != "dotted_name" {
                    return;
                }
                let module = self.t(m).to_string();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.id() == m.id() {
                        continue;
                    }
                    if k.kind() == "wildcard_import" {
                        self.stars.push(module.clone());
                    } else {
                        self.import_name(k, Some(&module));
                    }
                }
            }
            _ => {}
        }
    }

    /// Record the name one import binds: `import a.b` binds `a`, `import a.b as c` binds `c`
    /// to `a.b`; from module `M` (`from M import x`, `x as y`), the name bound is `M.x`.
    fn import_name(&mut self, k: Node<'t>, from: Option<&str>) {
        let (name, alias) = match k.kind() {
            "dotted_name" => (k, None),
            "aliased_import" => match (
                k.child_by_field_name("name"),
                k.child_by_field_name("alias"),
            ) {
                (Some(name), Some(alias)) => (name, Some(alias)),
                _ => return,
            },
            _ => return,
        };
        let name = self.t(name);
        let bound = match alias {
            Some(a) => self.t(a),
            None if from.is_some() => name,
            None => name.split('.').next().unwrap_or(""),
        };
        let full = match from {
            Some(m) => format!("{m}.{name}"),
            None if alias.is_some() => name.to_string(),
            None => bound.to_string(),
        };
        self.imports.insert(bound.to_string(), full);
    }

    /// Whether an expression lists paths by a pattern (`glob.glob('*.o')`,
    /// `Path('d').glob('*.py')`, `os.listdir('d')`).
    fn lists_paths(&self, n: Node<'t>) -> bool {
        if n.kind() != "call" {
            return false;
        }
        let Some(f) = n.child_by_field_name("function") else {
            return false;
        };
        if matches!(
            self.qual(f, 0).as_deref(),
            Some("glob.glob" | "glob.iglob" | "os.listdir")
        ) {
            return true;
        }
        f.kind() == "attribute"
            && f.child_by_field_name("attribute")
                .is_some_and(|a| matches!(self.t(a), "glob" | "rglob" | "iterdir"))
            && f.child_by_field_name("object")
                .is_some_and(|o| self.is_path(o, 0))
    }

    /// The elements of a literal list, tuple or set (`['a.json', 'b.json']`), directly or
    /// through a name bound once to one; `None` for anything else or one with `*spread`.
    fn literal_items(&self, n: Node<'t>) -> Option<Vec<Node<'t>>> {
        let n = match n.kind() {
            "identifier" => self.bind.once(self.t(n))?,
            _ => n,
        };
        if !matches!(n.kind(), "list" | "tuple" | "set" | "expression_list") {
            return None;
        }
        let items = items(n);
        if items
            .iter()
            .any(|k| matches!(k.kind(), "list_splat" | "dictionary_splat"))
        {
            return None;
        }
        Some(items)
    }

    /// Every identifier under `n` is bound to something not known here.
    fn bind_all(&mut self, n: Node<'t>) {
        for id in nodes(n) {
            if id.kind() == "identifier" {
                self.bind_node(id, None);
            }
        }
    }

    /// The content of the files opened for writing: what `f.write(…)` / `print(…, file=f)`
    /// write when every use of the handle is such a write of literal text.
    fn contents(&self, all: &[Node<'t>], cx: &mut Collect<'_>) {
        // A chained `open(p, 'w').write(x)`.
        for n in all {
            if n.kind() != "call" {
                continue;
            }
            let Some(f) = n.child_by_field_name("function") else {
                continue;
            };
            if f.kind() == "attribute"
                && let Some(obj) = f.child_by_field_name("object")
                && let Some(&idx) = self.opened.get(&obj.id())
                && f.child_by_field_name("attribute")
                    .is_some_and(|a| self.t(a) == "write")
            {
                let c = self
                    .arg(*n, 0, "")
                    .and_then(|a| self.res(a, 0))
                    .map(|r| r.text);
                cx.set_content(idx, c);
            }
        }
        // Handles bound once to an `open(…)` call.
        for (name, values) in &self.bind.map {
            let [Some(v)] = values.as_slice() else {
                continue;
            };
            let Some(&idx) = self.opened.get(&v.id()) else {
                continue;
            };
            let mut text = String::new();
            let mut known = true;
            let mut any = false;
            for m in self.refs.get(name).map(Vec::as_slice).unwrap_or_default() {
                let Some(p) = m.parent() else { continue };
                if p.kind() == "as_pattern_target"
                    || (p.kind() == "assignment"
                        && p.child_by_field_name("left")
                            .is_some_and(|l| l.id() == m.id()))
                {
                    continue;
                }
                if p.kind() == "attribute"
                    && let Some(call) = p.parent().filter(|c| c.kind() == "call")
                    && let Some(attr) = p.child_by_field_name("attribute")
                {
                    match self.t(attr) {
                        "write" => match self.arg(call, 0, "").and_then(|a| self.res(a, 0)) {
                            Some(r) => {
                                text.push_str(&r.text);
                                any = true;
                            }
                            None => known = false,
                        },
                        "writelines" => match self.arg(call, 0, "").and_then(|a| self.list(a, 0)) {
                            Some(items) => {
                                text.push_str(&items.concat());
                                any = true;
                            }
                            None => known = false,
                        },
                        "close" | "flush" | "fileno" => {}
                        _ => known = false,
                    }
                    continue;
                }
                // `print(x, file=f)`.
                if p.kind() == "keyword_argument"
                    && let Some(call) = p.parent().and_then(|a| a.parent())
                    && call.kind() == "call"
                    && call
                        .child_by_field_name("function")
                        .is_some_and(|f| self.t(f) == "print")
                    && let Some(items) = self.positional(call)
                {
                    let parts: Option<Vec<String>> = items
                        .iter()
                        .map(|a| self.res(*a, 0).map(|r| r.text))
                        .collect();
                    match parts {
                        Some(parts)
                            if self.arg(call, usize::MAX, "sep").is_none()
                                && self.arg(call, usize::MAX, "end").is_none() =>
                        {
                            text.push_str(&parts.join(" "));
                            text.push('\n');
                            any = true;
                        }
                        _ => known = false,
                    }
                    continue;
                }
                known = false;
            }
            if known && any {
                cx.set_content(idx, Some(text));
            }
        }
    }
}
