//! JavaScript values: the full names of callees through `require`, `import` and
//! destructuring (`require('fs').rmSync` → `fs.rm`), object-literal options, and the literal
//! text of expressions (strings, template strings, `+`, `path.join`, names bound once).
//!
//! In: nodes of the parsed program. Out: full names and resolved values ([`Res`]).

use tree_sitter::Node;

use super::{Js, module_name};
use crate::effects::inline::resolve::{
    MAX_RESOLVE_DEPTH, Res, TEMP_DIR, argv_item, int_literal, items, unescape,
};

impl<'t> Js<'t, '_> {
    /// The full name of a callee or module expression (`require('fs').rmSync` → `fs.rm`).
    pub(super) fn qual(&self, n: Node<'t>, depth: usize) -> Option<String> {
        if !self.budget.step(depth) {
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
    pub(super) fn args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let Some(a) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        // A tagged template (`` $`rm -rf ${x}` ``) has the template as its one argument.
        if a.kind() == "template_string" {
            return vec![a];
        }
        items(a)
    }

    /// Follow a name bound once to its value.
    pub(super) fn value(&self, n: Node<'t>) -> Node<'t> {
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
    pub(super) fn prop(&self, obj: Node<'t>, key: &str) -> Option<Node<'t>> {
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
    pub(super) fn flag(&self, opts: Option<Node<'t>>, key: &str) -> Option<bool> {
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
    pub(super) fn res(&self, n: Node<'t>, depth: usize) -> Option<Res> {
        if !self.budget.step(depth) {
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
                            out = out.concat(&self.partial.part(self.res(k.named_child(0)?, d))?);
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
                let l = self
                    .partial
                    .part(self.res(n.child_by_field_name("left")?, d))?;
                let r = self
                    .partial
                    .part(self.res(n.child_by_field_name("right")?, d))?;
                Some(l.concat(&r))
            }
            "parenthesized_expression"
            | "await_expression"
            | "non_null_expression"
            | "as_expression" => self.res(n.named_child(0)?, d),
            "assignment_expression" => self.res(n.child_by_field_name("right")?, d),
            // Code given on the command line (`node -e`, `node - <<JS`) runs as if from a
            // file in the working directory: `__dirname` is `.`.
            "identifier"
                if self.t(n) == "__dirname" && !self.bind.map.contains_key("__dirname") =>
            {
                self.tilde_is_home.then(|| Res::lit("."))
            }
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

    /// The value of a path expression: resolved whole, or in part below a folder the code
    /// names (`path.join(dir, f)` with `f` known only at run time: `dir/*`; see
    /// [`Partial::path`](crate::effects::inline::resolve::Partial::path)).
    pub(super) fn path_res(&self, n: Node<'t>) -> Option<Res> {
        self.partial.path(|| self.res(n, 0))
    }

    /// The value of a call that computes a path or a string from literals.
    pub(super) fn res_call(&self, n: Node<'t>, d: usize) -> Option<Res> {
        let f = n.child_by_field_name("function")?;
        let args = self.args(n);
        if let Some(q) = self.qual(f, d) {
            match q.as_str() {
                "path.join" | "path.posix.join" | "path.resolve" | "path.posix.resolve" => {
                    let resets = q.ends_with("resolve");
                    let mut out = Res::lit("");
                    for a in &args {
                        out = out.join(&self.partial.part(self.res(*a, d))?, resets);
                    }
                    return Some(out);
                }
                "path.normalize" | "String" => return self.res(*args.first()?, d),
                "os.homedir" => return Some(Res::home()),
                // `String.fromCharCode(71, 73)`: the characters of those UTF-16 code units.
                "String.fromCharCode" => {
                    let units = args
                        .iter()
                        .map(|a| {
                            (a.kind() == "number")
                                .then(|| int_literal(self.t(*a)))
                                .flatten()
                                .and_then(|n| u16::try_from(n).ok())
                        })
                        .collect::<Option<Vec<u16>>>()?;
                    return Some(Res::lit(String::from_utf16(&units).ok()?));
                }
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
        let lit = |i: usize| args.get(i).and_then(|a| self.res(*a, d));
        match self.t(f.child_by_field_name("property")?) {
            "toString" => self.res(obj, d),
            "trim" => Some(Res::lit(self.res(obj, d)?.text.trim())),
            "toUpperCase" => Some(Res::lit(self.res(obj, d)?.text.to_uppercase())),
            "toLowerCase" => Some(Res::lit(self.res(obj, d)?.text.to_lowercase())),
            // `'AWS_'.concat('SECRET', '_KEY')`.
            "concat" => {
                let mut out = self.res(obj, d)?;
                for i in 0..args.len() {
                    out = out.concat(&lit(i)?);
                }
                Some(out)
            }
            // With a string pattern, `replace` replaces the first occurrence, `replaceAll`
            // every one (a regular expression is not read).
            "replace" | "replaceAll"
                if args.len() == 2 && self.value(args[0]).kind() != "regex" =>
            {
                let v = self.res(obj, d)?;
                let (from, to) = (lit(0)?.text, lit(1)?.text);
                let text = if self.t(f.child_by_field_name("property")?) == "replace" {
                    v.text.replacen(&from, &to, 1)
                } else {
                    v.text.replace(&from, &to)
                };
                Some(Res { text, home: v.home })
            }
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
    pub(super) fn list(&self, n: Node<'t>, d: usize) -> Option<Vec<String>> {
        if !self.budget.spend() {
            return None;
        }
        let n = self.value(n);
        // `'NEKOT'.split('')`, `[…].reverse()`: a string split by a literal, an array reversed.
        if n.kind() == "call_expression"
            && d <= MAX_RESOLVE_DEPTH
            && let Some(f) = n.child_by_field_name("function")
            && f.kind() == "member_expression"
            && let (Some(obj), Some(prop)) = (
                f.child_by_field_name("object"),
                f.child_by_field_name("property"),
            )
        {
            let args = self.args(n);
            return match (self.t(prop), args.as_slice()) {
                ("reverse", []) => {
                    let mut items = self.list(obj, d + 1)?;
                    items.reverse();
                    Some(items)
                }
                ("split", [sep]) if self.value(*sep).kind() != "regex" => {
                    let text = self.res(obj, d + 1)?.text;
                    let sep = self.res(*sep, d + 1)?.text;
                    Some(if sep.is_empty() {
                        text.chars().map(String::from).collect()
                    } else {
                        text.split(sep.as_str()).map(str::to_string).collect()
                    })
                }
                _ => None,
            };
        }
        if n.kind() != "array" {
            return None;
        }
        items(n)
            .into_iter()
            .map(|k| self.res(k, d + 1).map(|r| r.text))
            .collect()
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
