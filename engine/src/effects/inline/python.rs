//! Python: the calls of a parsed module that touch files, the network or run commands.
//!
//! Names are qualified through the module's imports (`import shutil as sh` makes `sh.rmtree`
//! `shutil.rmtree`; `from os import remove` makes `remove` `os.remove`), so the table below
//! speaks of functions by their full names.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::{
    Bindings, Budget, Collect, MADE_TEMP, MAX_RESOLVE_DEPTH, Res, TEMP_DIR, add_body, argv_item,
    mode_text, nodes, path_text, read_in_rounds, rounds_from_fields, text, unescape,
};
use crate::effects::model::{BodySource, What};

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

rounds_from_fields!(Py);

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

/// The functions that `from M import *` can bring in, by module.
const STAR_NAMES: &[(&str, &[&str])] = &[
    (
        "os",
        &[
            "remove",
            "unlink",
            "rmdir",
            "removedirs",
            "chmod",
            "system",
            "popen",
            "rename",
            "replace",
            "makedirs",
            "mkdir",
            "symlink",
            "getenv",
            "environ",
        ],
    ),
    (
        "shutil",
        &["rmtree", "copy", "copy2", "copyfile", "copytree", "move"],
    ),
    (
        "subprocess",
        &[
            "run",
            "call",
            "check_call",
            "check_output",
            "Popen",
            "getoutput",
        ],
    ),
    ("pathlib", &["Path", "PurePath", "PosixPath"]),
    ("urllib.request", &["urlopen", "Request", "urlretrieve"]),
    (
        "requests",
        &["get", "post", "put", "patch", "delete", "request"],
    ),
];

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
                    let name = self.t(l).to_string();
                    self.bind.bind(&name, r);
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
                    let name = self.t(l).to_string();
                    self.bind.bind(&name, Some(r));
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
                        let name = self.t(*one).to_string();
                        self.bind.bind(&name, value);
                    } else {
                        for id in ids {
                            let name = self.t(id).to_string();
                            self.bind.bind(&name, None);
                        }
                    }
                }
            }
            "named_expression" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let name = self.t(name).to_string();
                    let v = n.child_by_field_name("value");
                    self.bind.bind(&name, v);
                }
            }
            "parameters" | "lambda_parameters" | "global_statement" | "nonlocal_statement" => {
                self.bind_all(n);
            }
            "function_definition" | "class_definition" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let name = self.t(name).to_string();
                    self.bind.bind(&name, None);
                }
            }
            "import_statement" => {
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        "dotted_name" => {
                            let full = self.t(k).to_string();
                            let head = full.split('.').next().unwrap_or("").to_string();
                            self.imports.insert(head.clone(), head);
                        }
                        "aliased_import" => {
                            if let (Some(name), Some(alias)) = (
                                k.child_by_field_name("name"),
                                k.child_by_field_name("alias"),
                            ) {
                                self.imports
                                    .insert(self.t(alias).to_string(), self.t(name).to_string());
                            }
                        }
                        _ => {}
                    }
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
                    match k.kind() {
                        "dotted_name" => {
                            let name = self.t(k).to_string();
                            self.imports
                                .insert(name.clone(), format!("{module}.{name}"));
                        }
                        "aliased_import" => {
                            if let (Some(name), Some(alias)) = (
                                k.child_by_field_name("name"),
                                k.child_by_field_name("alias"),
                            ) {
                                self.imports.insert(
                                    self.t(alias).to_string(),
                                    format!("{module}.{}", self.t(name)),
                                );
                            }
                        }
                        "wildcard_import" => self.stars.push(module.clone()),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
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
        let mut c = n.walk();
        let items: Vec<Node<'t>> = n
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment")
            .collect();
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
                let name = self.t(id).to_string();
                self.bind.bind(&name, None);
            }
        }
    }

    /// The full name of a callee or module expression (`sh.rmtree` → `shutil.rmtree`).
    fn qual(&self, n: Node<'t>, depth: usize) -> Option<String> {
        if !self.budget.spend() {
            return None;
        }
        if depth > MAX_RESOLVE_DEPTH {
            return None;
        }
        let q = match n.kind() {
            "identifier" => {
                let name = self.t(n);
                if let Some(m) = self.imports.get(name) {
                    m.clone()
                } else if let Some(v) = self.bind.once(name)
                    && matches!(v.kind(), "attribute" | "identifier" | "call")
                {
                    // `rm = shutil.rmtree; rm(p)`, `libc = ctypes.CDLL(None)`.
                    self.qual(v, depth + 1)?
                } else if let Some((m, _)) = STAR_NAMES
                    .iter()
                    .find(|(m, names)| self.stars.iter().any(|s| s == m) && names.contains(&name))
                {
                    format!("{m}.{name}")
                } else {
                    name.to_string()
                }
            }
            "attribute" => {
                let obj = n.child_by_field_name("object")?;
                let attr = n.child_by_field_name("attribute")?;
                format!("{}.{}", self.qual(obj, depth + 1)?, self.t(attr))
            }
            "call" => {
                // `__import__('os')`, `importlib.import_module('os')`, `getattr(os, 'system')`.
                let f = self.qual(n.child_by_field_name("function")?, depth + 1)?;
                match f.as_str() {
                    "__import__" | "importlib.import_module" => {
                        self.res(self.arg(n, 0, "name")?, depth + 1)?.text
                    }
                    "getattr" => {
                        let obj = self.qual(self.arg(n, 0, "")?, depth + 1)?;
                        let name = self.res(self.arg(n, 1, "")?, depth + 1)?.text;
                        format!("{obj}.{name}")
                    }
                    // The C library: `ctypes.CDLL(None).system(b'…')`.
                    "ctypes.CDLL"
                    | "ctypes.cdll.LoadLibrary"
                    | "ctypes.PyDLL"
                    | "ctypes.util.CDLL" => "libc".to_string(),
                    _ => return None,
                }
            }
            "subscript" => {
                // `sys.modules['os']`.
                let v = n.child_by_field_name("value")?;
                if self.qual(v, depth + 1)? != "sys.modules" {
                    return None;
                }
                self.res(n.child_by_field_name("subscript")?, depth + 1)?
                    .text
            }
            "parenthesized_expression" => self.qual(n.named_child(0)?, depth + 1)?,
            _ => return None,
        };
        Some(canonical(&q))
    }

    /// The argument `i` (or keyword `kw`) of a call.
    fn arg(&self, call: Node<'t>, i: usize, kw: &str) -> Option<Node<'t>> {
        let args = call.child_by_field_name("arguments")?;
        let mut c = args.walk();
        let mut k = 0;
        for a in args.named_children(&mut c) {
            match a.kind() {
                "keyword_argument" => {
                    if a.child_by_field_name("name")
                        .is_some_and(|n| self.t(n) == kw)
                    {
                        return a.child_by_field_name("value");
                    }
                }
                "list_splat" | "dictionary_splat" | "comment" => {}
                _ => {
                    if k == i {
                        return Some(a);
                    }
                    k += 1;
                }
            }
        }
        None
    }

    /// The positional arguments of a call, `None` when one is a `*splat`.
    fn positional(&self, call: Node<'t>) -> Option<Vec<Node<'t>>> {
        let args = call.child_by_field_name("arguments")?;
        let mut c = args.walk();
        let mut out = Vec::new();
        for a in args.named_children(&mut c) {
            match a.kind() {
                "keyword_argument" | "dictionary_splat" | "comment" => {}
                "list_splat" => return None,
                _ => out.push(a),
            }
        }
        Some(out)
    }

    /// Whether a keyword argument is the literal `True`.
    fn kw_true(&self, call: Node<'t>, kw: &str) -> bool {
        self.arg(call, usize::MAX, kw)
            .is_some_and(|v| v.kind() == "true")
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
            "string" => self.string(n, d),
            "concatenated_string" => {
                let mut out = Res::lit("");
                let mut c = n.walk();
                for s in n.named_children(&mut c) {
                    out = out.concat(&self.res(s, d)?);
                }
                Some(out)
            }
            "binary_operator" => {
                let l = self.res(n.child_by_field_name("left")?, d)?;
                let right = n.child_by_field_name("right")?;
                match self.t(n.child_by_field_name("operator")?) {
                    "+" => Some(l.concat(&self.res(right, d)?)),
                    "/" => Some(l.join(&self.res(right, d)?, true)),
                    // `'%s -rf %s' % ('rm', '~')`.
                    "%" => {
                        let values = match right.kind() {
                            "tuple" => self.list(right, d)?,
                            _ => vec![self.res(right, d)?.text],
                        };
                        percent_format(&l.text, &values).map(Res::lit)
                    }
                    _ => None,
                }
            }
            "parenthesized_expression" => self.res(n.named_child(0)?, d),
            "assignment" => self.res(n.child_by_field_name("right")?, d),
            "identifier" => self.res(self.bind.once(self.t(n))?, d),
            "subscript" => {
                // `os.environ['HOME']`, `sys.argv[1]`.
                let v = n.child_by_field_name("value")?;
                let k = n.child_by_field_name("subscript")?;
                match self.qual(v, d).as_deref() {
                    Some("os.environ") => (self.res(k, d)?.text == "HOME").then(Res::home),
                    Some("sys.argv") if k.kind() == "integer" => argv_item(self.argv, self.t(k)),
                    _ => None,
                }
            }
            "attribute" => {
                // `Path(p).parent`.
                let attr = self.t(n.child_by_field_name("attribute")?);
                let obj = n.child_by_field_name("object")?;
                if attr == "parent" && self.is_path(obj, d) {
                    let p = self.res(obj, d)?;
                    let parent = match p.text.trim_end_matches('/').rsplit_once('/') {
                        Some(("", _)) => "/".to_string(),
                        Some((dir, _)) => dir.to_string(),
                        None => ".".to_string(),
                    };
                    return Some(Res {
                        text: parent,
                        home: p.home,
                    });
                }
                None
            }
            "call" => self.res_call(n, d),
            _ => None,
        }
    }

    /// A string literal or f-string whose parts all resolve.
    fn string(&self, n: Node<'t>, d: usize) -> Option<Res> {
        let mut raw = false;
        let mut out = Res::lit("");
        let mut c = n.walk();
        for k in n.children(&mut c) {
            match k.kind() {
                "string_start" => {
                    raw = self
                        .t(k)
                        .chars()
                        .take_while(|c| c.is_ascii_alphabetic())
                        .any(|c| c.eq_ignore_ascii_case(&'r'));
                }
                "string_content" => {
                    let t = self.t(k);
                    out.text
                        .push_str(&if raw { t.to_string() } else { unescape(t) });
                }
                "interpolation" => {
                    // `{x!r}` and `{x:>8}` change the text.
                    let mut cc = k.walk();
                    if k.named_children(&mut cc)
                        .any(|x| matches!(x.kind(), "type_conversion" | "format_specifier"))
                    {
                        return None;
                    }
                    let v = self.res(k.child_by_field_name("expression")?, d)?;
                    out = out.concat(&v);
                }
                "escape_interpolation" => {
                    out.text.push_str(&self.t(k)[..1]);
                }
                _ => {}
            }
        }
        Some(out)
    }

    /// The value of a call that computes a path or a string from literals.
    fn res_call(&self, n: Node<'t>, d: usize) -> Option<Res> {
        let f = n.child_by_field_name("function")?;
        if let Some(q) = self.qual(f, d) {
            let pos = || self.positional(n);
            match q.as_str() {
                "os.path.expanduser" => {
                    return Some(self.res(self.arg(n, 0, "path")?, d)?.expand_user());
                }
                "os.path.join" | "posixpath.join" => {
                    let mut out = Res::lit("");
                    for a in pos()? {
                        out = out.join(&self.res(a, d)?, true);
                    }
                    return Some(out);
                }
                "pathlib.Path" => {
                    let mut out = Res::lit("");
                    for a in pos()? {
                        out = out.join(&self.res(a, d)?, true);
                    }
                    if out.text.is_empty() {
                        out.text.push('.');
                    }
                    return Some(out);
                }
                "os.path.expandvars" => {
                    // `$HOME/x`; other variables are not known here.
                    let r = self.res(self.arg(n, 0, "path")?, d)?;
                    let rest = r
                        .text
                        .strip_prefix("$HOME")
                        .or_else(|| r.text.strip_prefix("${HOME}"));
                    return match rest {
                        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                            Some(Res::home().concat(&Res::lit(rest)))
                        }
                        _ if r.text.contains('$') => None,
                        _ => Some(r),
                    };
                }
                "os.path.abspath" | "os.path.realpath" | "os.path.normpath" | "os.fspath"
                | "str" => return self.res(self.arg(n, 0, "path")?, d),
                "pathlib.Path.home" => return Some(Res::home()),
                "tempfile.gettempdir" => return Some(Res::lit(TEMP_DIR)),
                // A new folder in the temporary folder (or in `dir=`): `rmtree` of it later
                // deletes scratch the code made (`with TemporaryDirectory() as d` too).
                "tempfile.mkdtemp" | "tempfile.TemporaryDirectory" => {
                    let base = match self.arg(n, 2, "dir") {
                        Some(dir) => self.res(dir, d)?,
                        None => Res::lit(TEMP_DIR),
                    };
                    return Some(base.join(&Res::lit(MADE_TEMP), true));
                }
                "glob.glob" | "glob.iglob" => return self.res(self.arg(n, 0, "pathname")?, d),
                // The names in a folder, relative to the working directory as the code uses
                // them (`os.path.join(d, f)` puts the folder back).
                "os.listdir" => return Some(Res::lit("*")),
                "pathlib.Path.cwd" | "os.getcwd" => return Some(Res::lit(".")),
                "os.getenv" | "os.environ.get" => {
                    return (self.res(self.arg(n, 0, "key")?, d)?.text == "HOME").then(Res::home);
                }
                _ => {}
            }
        }
        // Methods on a value that resolves.
        if f.kind() != "attribute" {
            return None;
        }
        let obj = f.child_by_field_name("object")?;
        let attr = self.t(f.child_by_field_name("attribute")?);
        match attr {
            "expanduser" => Some(self.res(obj, d)?.expand_user()),
            "resolve" | "absolute" | "as_posix" | "encode" | "decode" => self.res(obj, d),
            "format" => {
                // `'{} -rf {}'.format('rm', '~')` with positional literals.
                let template = self.res(obj, d)?;
                let values = self
                    .positional(n)?
                    .into_iter()
                    .map(|a| self.res(a, d).map(|r| r.text))
                    .collect::<Option<Vec<String>>>()?;
                brace_format(&template.text, &values).map(Res::lit)
            }
            "glob" | "rglob" | "iterdir" if self.is_path(obj, d) => {
                let pattern = match attr {
                    "iterdir" => Res::lit("*"),
                    _ => self.res(self.arg(n, 0, "pattern")?, d)?,
                };
                let pattern = match attr {
                    "rglob" => Res::lit("**").join(&pattern, false),
                    _ => pattern,
                };
                Some(self.res(obj, d)?.join(&pattern, false))
            }
            "joinpath" => {
                let mut out = self.res(obj, d)?;
                for a in self.positional(n)? {
                    out = out.join(&self.res(a, d)?, true);
                }
                Some(out)
            }
            "join" if obj.kind() == "string" => {
                // `' '.join(['rm', '-rf', 'x'])`.
                let sep = self.res(obj, d)?;
                let items = self.list(self.arg(n, 0, "")?, d)?;
                Some(Res::lit(items.join(&sep.text)))
            }
            _ => None,
        }
    }

    /// The items of a list or tuple of literals.
    fn list(&self, n: Node<'t>, d: usize) -> Option<Vec<String>> {
        if !self.budget.spend() {
            return None;
        }
        match n.kind() {
            "list" | "tuple" => {
                let mut c = n.walk();
                let mut out = Vec::new();
                for k in n.named_children(&mut c) {
                    if k.kind() == "comment" {
                        continue;
                    }
                    out.push(self.res(k, d + 1)?.text);
                }
                Some(out)
            }
            "identifier" if d <= MAX_RESOLVE_DEPTH => self.list(self.bind.once(self.t(n))?, d + 1),
            "parenthesized_expression" => self.list(n.named_child(0)?, d + 1),
            _ => None,
        }
    }

    /// Whether an expression is a `pathlib.Path`.
    fn is_path(&self, n: Node<'t>, d: usize) -> bool {
        if !self.budget.spend() {
            return false;
        }
        if d > MAX_RESOLVE_DEPTH {
            return false;
        }
        match n.kind() {
            "call" => {
                let Some(f) = n.child_by_field_name("function") else {
                    return false;
                };
                match self.qual(f, d).as_deref() {
                    Some("pathlib.Path" | "pathlib.Path.home" | "pathlib.Path.cwd") => true,
                    _ => {
                        f.kind() == "attribute"
                            && f.child_by_field_name("attribute").is_some_and(|a| {
                                matches!(
                                    self.t(a),
                                    "expanduser"
                                        | "glob"
                                        | "rglob"
                                        | "iterdir"
                                        | "resolve"
                                        | "absolute"
                                        | "joinpath"
                                        | "with_name"
                                        | "with_suffix"
                                        | "with_stem"
                                )
                            })
                            && f.child_by_field_name("object")
                                .is_some_and(|o| self.is_path(o, d + 1))
                    }
                }
            }
            "binary_operator" => n
                .child_by_field_name("left")
                .is_some_and(|l| self.is_path(l, d + 1)),
            "attribute" => {
                n.child_by_field_name("attribute")
                    .is_some_and(|a| self.t(a) == "parent")
                    && n.child_by_field_name("object")
                        .is_some_and(|o| self.is_path(o, d + 1))
            }
            "identifier" => self
                .bind
                .once(self.t(n))
                .is_some_and(|v| self.is_path(v, d + 1)),
            "parenthesized_expression" => n.named_child(0).is_some_and(|v| self.is_path(v, d + 1)),
            _ => false,
        }
    }

    /// The path an argument names, or `None` after recording that it is only known at run
    /// time.
    fn path_arg(
        &self,
        call: Node<'t>,
        i: usize,
        kw: &str,
        q: &str,
        cx: &mut Collect<'_>,
    ) -> Option<crate::effects::model::PathRef> {
        match self.arg(call, i, kw).and_then(|a| self.res(a, 0)) {
            Some(r) => Some(cx.path(&r)),
            None => {
                cx.unknown(q, "a path");
                None
            }
        }
    }

    /// The effects of one call.
    fn call(&mut self, n: Node<'t>, cx: &mut Collect<'_>) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        // Methods of a `pathlib.Path`.
        if f.kind() == "attribute"
            && let (Some(obj), Some(attr)) = (
                f.child_by_field_name("object"),
                f.child_by_field_name("attribute"),
            )
            && self.is_path(obj, 0)
        {
            let attr = self.t(attr).to_string();
            self.path_method(n, obj, &attr, cx);
            return;
        }
        // (A method of an object the table does not name, `s.connect(…)`, has no full name.)
        let q = self.qual(f, 0).unwrap_or_default();
        match q.as_str() {
            "open" | "io.open" | "codecs.open" | "builtins.open" => {
                let mode = match self.arg(n, 1, "mode") {
                    None => Some("r".to_string()),
                    Some(m) => self.res(m, 0).map(|r| r.text),
                };
                let path = self.arg(n, 0, "file");
                if path.is_some_and(|p| p.kind() == "integer") {
                    return;
                }
                let resolved = path.and_then(|p| self.res(p, 0));
                self.open(n, &q, resolved, path, mode, cx);
            }
            "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: false,
                    });
                }
            }
            "shutil.rmtree" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                    });
                }
            }
            "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree"
            | "os.symlink" | "os.link" => {
                let src = self.arg(n, 0, "src").and_then(|a| self.res(a, 0));
                let dst = self.path_arg(n, 1, "dst", &q, cx);
                match src {
                    Some(s) => {
                        cx.push(What::Read(cx.path(&s)));
                    }
                    None => {
                        let shown = self.arg(n, 0, "src").map_or("", |a| self.t(a));
                        cx.push(What::Read(cx.computed_path(shown)));
                    }
                }
                if let Some(d) = dst {
                    cx.push(What::Write {
                        path: d,
                        append: false,
                        content: None,
                    });
                }
            }
            "shutil.move" | "os.rename" | "os.replace" | "os.renames" => {
                let src = self.path_arg(n, 0, "src", &q, cx);
                let dst = self.path_arg(n, 1, "dst", &q, cx);
                if let Some(s) = src {
                    cx.push(What::Delete {
                        path: s,
                        recursive: true,
                    });
                }
                if let Some(d) = dst {
                    cx.push(What::Write {
                        path: d,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.chmod" | "os.lchmod" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    let mode = self.arg(n, 1, "mode").and_then(|m| mode_text(self.t(m)));
                    cx.push(What::ChangePermission {
                        path: p,
                        mode,
                        recursive: false,
                    });
                }
            }
            "os.chown" | "os.lchown" | "shutil.chown" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::ChangePermission {
                        path: p,
                        mode: None,
                        recursive: false,
                    });
                }
            }
            // A folder created where only run time knows is no question: an empty folder
            // overwrites, removes and runs nothing (a file written into it later is judged
            // on its own).
            "os.mkdir" | "os.makedirs" => {
                if let Some(r) = self.arg(n, 0, "path").and_then(|a| self.res(a, 0)) {
                    let path = cx.path(&r);
                    cx.push(What::Write {
                        path,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.truncate" | "os.mkfifo" => {
                if let Some(p) = self.path_arg(n, 0, "path", &q, cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            "os.system"
            | "os.popen"
            | "libc.system"
            | "libc.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "commands.getoutput"
            | "commands.getstatusoutput" => {
                match self.arg(n, 0, "cmd").and_then(|a| self.res(a, 0)) {
                    Some(cmd) => cx.shell(&q, cmd.text),
                    None => cx.unknown(&q, "a command"),
                }
            }
            "os.chdir" => {
                let dir = self.arg(n, 0, "path").and_then(|a| self.res(a, 0));
                cx.chdir(dir, &q);
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen"
            | "pty.spawn" => {
                // `cwd=`: the command runs there.
                let saved = cx.cwd.clone();
                if let Some(d) = self.arg(n, usize::MAX, "cwd") {
                    cx.chdir(self.res(d, 0), &format!("{q}(cwd=…)"));
                }
                self.subprocess(n, &q, cx);
                cx.cwd = saved;
            }
            q if q.starts_with("os.exec")
                || q.starts_with("os.spawn")
                || q.starts_with("os.posix_spawn") =>
            {
                let Some(pos) = self.positional(n) else {
                    cx.unknown(q, "a command");
                    return;
                };
                // `os.spawnv(mode, file, args)`: the mode comes first.
                let skip = usize::from(q.starts_with("os.spawn"));
                let rest = pos.get(skip + 1..).unwrap_or_default();
                let words = if q.contains('v') || q.starts_with("os.posix_spawn") {
                    rest.first().and_then(|a| self.list(*a, 0))
                } else {
                    // `os.execle(path, arg0, …, env)`: the last argument is the environment.
                    let args = match rest.split_last() {
                        Some((_, init)) if q.ends_with('e') => init,
                        _ => rest,
                    };
                    args.iter()
                        .map(|a| self.res(*a, 0).map(|r| r.text))
                        .collect::<Option<Vec<String>>>()
                };
                match words {
                    Some(w) => cx.argv(q, w),
                    None => cx.unknown(q, "a command"),
                }
            }
            "urllib.request.urlopen" => self.urlopen(n, &q, cx),
            "urllib.request.urlretrieve" => {
                match self.arg(n, 0, "url").and_then(|a| self.res(a, 0)) {
                    Some(u) => cx.send_url(&u, Some("GET".into()), Vec::new()),
                    None => cx.unknown(&q, "a URL"),
                }
                if self.arg(n, 1, "filename").is_some()
                    && let Some(p) = self.path_arg(n, 1, "filename", &q, cx)
                {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            q if is_http_client(q) => self.http_client(n, q, cx),
            "http.client.HTTPConnection"
            | "http.client.HTTPSConnection"
            | "smtplib.SMTP"
            | "smtplib.SMTP_SSL"
            | "ftplib.FTP"
            | "ftplib.FTP_TLS"
            | "telnetlib.Telnet" => {
                let Some(h) = self.arg(n, 0, "host") else {
                    return;
                };
                // `c = HTTPSConnection(h); c.request('POST', '/', body=…)`: what is sent on
                // the connection is the body.
                let body = self
                    .bound_name(n)
                    .map(|name| self.sent_on(name))
                    .unwrap_or_default();
                match self.res(h, 0) {
                    Some(host) => {
                        let port = self.arg(n, 1, "port").map(|p| self.t(p).to_string());
                        cx.send_host(&host, port.as_deref(), body);
                    }
                    None => cx.unknown(&q, "a host"),
                }
            }
            "socket.create_connection" => {
                // `s = socket.create_connection(…)`, `with socket.create_connection(…) as s:`:
                // what is sent on `s` is the body.
                let body = self
                    .bound_name(n)
                    .map(|name| self.sent_on(name))
                    .unwrap_or_default();
                self.connect(n, &q, body, cx);
            }
            "exec" | "eval" | "builtins.exec" | "builtins.eval" | "compile" => {
                // Code run as code: literal code is read like the rest; other code is not
                // known before it runs.
                let Some(a) = self.arg(n, 0, "source") else {
                    return;
                };
                match self.res(a, 0) {
                    Some(code) if q != "compile" => cx.code(&q, code.text),
                    Some(_) => {}
                    None => {
                        // Code that is a download's response (`exec(urlopen(u).read())`,
                        // `r = requests.get(u); exec(r.text)`) is fetched and run.
                        let fetched = self.fetches_in(a);
                        if fetched.is_empty() {
                            cx.unsure(format!("`{q}` of code known only at run time"));
                        }
                        for url in fetched {
                            cx.fetch_and_run(url.as_ref());
                        }
                    }
                }
            }
            "getattr" => {
                // `getattr(os, name)` with a name not known here.
                if let Some(obj) = self.arg(n, 0, "").and_then(|o| self.qual(o, 0))
                    && EFFECT_MODULES.contains(&obj.as_str())
                    && self.arg(n, 1, "").and_then(|a| self.res(a, 0)).is_none()
                {
                    cx.unsure(format!(
                        "`getattr` on `{obj}` with a name known only at run time"
                    ));
                }
            }
            _ => {
                // `s.connect((host, port))` on a socket.
                if f.kind() == "attribute"
                    && let (Some(obj), Some(attr)) = (
                        f.child_by_field_name("object"),
                        f.child_by_field_name("attribute"),
                    )
                    && matches!(self.t(attr), "connect" | "connect_ex")
                    && obj.kind() == "identifier"
                    && self.bind.once(self.t(obj)).is_some_and(|v| {
                        v.kind() == "call"
                            && v.child_by_field_name("function")
                                .and_then(|vf| self.qual(vf, 0))
                                .is_some_and(|vq| vq == "socket.socket")
                    })
                {
                    let body = self.sent_on(self.t(obj));
                    self.connect(n, "socket.connect", body, cx);
                }
            }
        }
    }

    /// `subprocess.run([…])`, `subprocess.run('…', shell=True)`.
    fn subprocess(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
        let shell = self.kw_true(n, "shell");
        let Some(cmd) = self.arg(n, 0, "args") else {
            return;
        };
        if let Some(words) = self.list(cmd, 0) {
            match (shell, words.split_first()) {
                (true, Some((line, _))) => cx.shell(q, line.clone()),
                _ => cx.argv(q, words),
            }
        } else if let Some(line) = self.res(cmd, 0) {
            if shell {
                cx.shell(q, line.text);
            } else {
                cx.argv(q, vec![line.text]);
            }
        } else {
            cx.unknown(q, "a command");
        }
    }

    /// `open(path, mode)`, `Path(path).open(mode)`.
    fn open(
        &mut self,
        n: Node<'t>,
        q: &str,
        resolved: Option<Res>,
        path: Option<Node<'t>>,
        mode: Option<String>,
        cx: &mut Collect<'_>,
    ) {
        let Some(mode) = mode else {
            cx.unsure(format!("`{q}` with a mode known only at run time"));
            return;
        };
        let writes = mode.contains(['w', 'x', 'a', '+']);
        let Some(r) = resolved else {
            if writes {
                cx.unknown(q, "a path");
            } else {
                let shown = path.map_or("", |p| self.t(p));
                cx.push(What::Read(cx.computed_path(shown)));
            }
            return;
        };
        let p = cx.path(&r);
        if mode.contains('r') || mode.contains('+') && !mode.contains(['w', 'x', 'a']) {
            cx.push(What::Read(p.clone()));
        }
        if writes {
            let idx = cx.push(What::Write {
                path: p,
                append: mode.contains('a'),
                content: None,
            });
            self.opened.insert(n.id(), idx);
        }
    }

    /// A method call on a `pathlib.Path`.
    fn path_method(&mut self, n: Node<'t>, obj: Node<'t>, attr: &str, cx: &mut Collect<'_>) {
        let q = format!("Path.{attr}");
        let resolved = self.res(obj, 0);
        let known = |cx: &mut Collect<'_>| -> Option<crate::effects::model::PathRef> {
            match &resolved {
                Some(r) => Some(cx.path(r)),
                None => {
                    cx.unknown(&q, "a path");
                    None
                }
            }
        };
        match attr {
            "write_text" | "write_bytes" => {
                if let Some(p) = known(cx) {
                    let content = self
                        .arg(n, 0, "data")
                        .and_then(|a| self.res(a, 0))
                        .map(|r| r.text);
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content,
                    });
                }
            }
            "read_text" | "read_bytes" => match &resolved {
                Some(r) => {
                    cx.push(What::Read(cx.path(r)));
                }
                None => {
                    cx.push(What::Read(cx.computed_path(self.t(obj))));
                }
            },
            "open" => {
                let mode = match self.arg(n, 0, "mode") {
                    None => Some("r".to_string()),
                    Some(m) => self.res(m, 0).map(|r| r.text),
                };
                self.open(n, &q, resolved.clone(), Some(obj), mode, cx);
            }
            "unlink" | "rmdir" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: false,
                    });
                }
            }
            // See `os.makedirs`: an unknown folder created is no question.
            "mkdir" => {
                if let Some(r) = &resolved {
                    let path = cx.path(r);
                    cx.push(What::Write {
                        path,
                        append: false,
                        content: None,
                    });
                }
            }
            "touch" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            "chmod" | "lchmod" => {
                if let Some(p) = known(cx) {
                    let mode = self.arg(n, 0, "mode").and_then(|m| mode_text(self.t(m)));
                    cx.push(What::ChangePermission {
                        path: p,
                        mode,
                        recursive: false,
                    });
                }
            }
            "rename" | "replace" => {
                if let Some(p) = known(cx) {
                    cx.push(What::Delete {
                        path: p,
                        recursive: true,
                    });
                }
                if let Some(t) = self.path_arg(n, 0, "target", &q, cx) {
                    cx.push(What::Write {
                        path: t,
                        append: false,
                        content: None,
                    });
                }
            }
            "symlink_to" | "hardlink_to" => {
                if let Some(t) = self.arg(n, 0, "target").and_then(|a| self.res(a, 0)) {
                    cx.push(What::Read(cx.path(&t)));
                }
                if let Some(p) = known(cx) {
                    cx.push(What::Write {
                        path: p,
                        append: false,
                        content: None,
                    });
                }
            }
            _ => {}
        }
    }

    /// The downloads whose response `n` is made of: HTTP requests (`urlopen`, `requests`,
    /// `httpx`) inside it, or inside what a name in it was bound to (three bindings deep);
    /// each with its URL when known here.
    fn fetches_in(&self, n: Node<'t>) -> Vec<Option<Res>> {
        let mut out = Vec::new();
        let mut todo = vec![(n, 0_u8)];
        while let Some((node, depth)) = todo.pop() {
            for d in super::nodes(node) {
                match d.kind() {
                    "call" => {
                        let q = d
                            .child_by_field_name("function")
                            .and_then(|f| self.qual(f, 0))
                            .unwrap_or_default();
                        if q == "urllib.request.urlopen" || is_http_client(&q) {
                            let url = self.arg(d, 0, "url").and_then(|u| self.res(u, 0));
                            out.push(url);
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

    /// `urlopen(url_or_request, data)`.
    fn urlopen(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
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
    fn http_client(&self, n: Node<'t>, q: &str, cx: &mut Collect<'_>) {
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
    fn connect(&self, n: Node<'t>, q: &str, body: Vec<BodySource>, cx: &mut Collect<'_>) {
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
    fn bound_name(&self, n: Node<'t>) -> Option<&str> {
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
    fn sent_on(&self, name: &str) -> Vec<BodySource> {
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

    /// Where the data of an expression comes from: environment variables, files read, or
    /// literal text.
    fn body(&self, n: Node<'t>, depth: usize) -> Vec<BodySource> {
        let mut out = self.env_sources(n, depth);
        if self.res(n, depth).is_some() || n.kind() == "string" {
            add_body(&mut out, vec![BodySource::Literal]);
        }
        out
    }

    /// The environment variables and files an expression reads (`os.environ['X']`,
    /// `os.getenv('X')`, `open(p).read()`, `Path(p).read_text()`, an open file handle).
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
                // `dict(os.environ)`, `os.environ.copy()`, `str(os.environ)`: every variable.
                "attribute" | "identifier"
                    if matches!(
                        self.qual(m, depth).as_deref(),
                        Some("os.environ" | "os.environb")
                    ) && self.whole_environ(m) =>
                {
                    add_body(&mut out, vec![BodySource::Environment]);
                }
                "subscript" => {
                    if let (Some(v), Some(k)) = (
                        m.child_by_field_name("value"),
                        m.child_by_field_name("subscript"),
                    ) && self.qual(v, depth).as_deref() == Some("os.environ")
                        && let Some(name) = self.res(k, depth)
                    {
                        add_body(&mut out, vec![BodySource::Env(name.text)]);
                    }
                }
                "call" => {
                    let Some(f) = m.child_by_field_name("function") else {
                        continue;
                    };
                    match self.qual(f, depth).as_deref() {
                        Some("os.getenv" | "os.environ.get") => {
                            if let Some(name) =
                                self.arg(m, 0, "key").and_then(|k| self.res(k, depth))
                            {
                                add_body(&mut out, vec![BodySource::Env(name.text)]);
                            }
                            continue;
                        }
                        Some("open" | "io.open" | "codecs.open") => {
                            if let Some(p) = self.arg(m, 0, "file").and_then(|p| self.res(p, depth))
                            {
                                add_body(&mut out, vec![BodySource::File(self.path_of(&p))]);
                            }
                            continue;
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
                        add_body(&mut out, vec![BodySource::File(self.path_of(&p))]);
                    }
                }
                "identifier" => {
                    let is_attr_name = m.parent().is_some_and(|p| {
                        p.kind() == "attribute"
                            && p.child_by_field_name("attribute")
                                .is_some_and(|a| a.id() == m.id())
                    });
                    if is_attr_name {
                        continue;
                    }
                    if let Some(v) = self.bind.once(self.t(m)) {
                        add_body(&mut out, self.env_sources(v, depth + 1));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Whether `os.environ` at `m` is used whole (`dict(os.environ)`, `os.environ.copy()`),
    /// not one variable of it (`os.environ['X']`, `os.environ.get('X')`).
    fn whole_environ(&self, m: Node<'t>) -> bool {
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
    fn path_of(&self, r: &Res) -> crate::effects::model::PathRef {
        crate::effects::model::PathRef::new(path_text(r, self.tilde_is_home), None)
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

/// Modules whose functions touch files, processes or the network: a function of one looked
/// up by a computed name is not known before it runs.
const EFFECT_MODULES: &[&str] = &[
    "os",
    "subprocess",
    "shutil",
    "pty",
    "posix",
    "socket",
    "builtins",
    "urllib.request",
    "requests",
    "httpx",
    "ctypes",
    "pathlib",
];

/// Whether a full name is a function of an HTTP client library that sends a request.
fn is_http_client(q: &str) -> bool {
    let Some((lib, verb)) = q.rsplit_once('.') else {
        return false;
    };
    matches!(lib, "requests" | "httpx" | "requests.api")
        && matches!(
            verb,
            "get" | "post" | "put" | "patch" | "delete" | "head" | "options" | "request" | "stream"
        )
}

/// `template % values` with `%s` / `%r`-free placeholders; `None` for any other conversion.
fn percent_format(template: &str, values: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut it = template.chars();
    let mut k = 0;
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match it.next()? {
            '%' => out.push('%'),
            's' => {
                out.push_str(values.get(k)?);
                k += 1;
            }
            _ => return None,
        }
    }
    (k == values.len()).then_some(out)
}

/// `template.format(values)` with `{}` / `{0}` placeholders; `None` for any other field.
fn brace_format(template: &str, values: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut it = template.chars().peekable();
    let mut next = 0;
    while let Some(c) = it.next() {
        match c {
            '{' if it.peek() == Some(&'{') => {
                it.next();
                out.push('{');
            }
            '}' if it.peek() == Some(&'}') => {
                it.next();
                out.push('}');
            }
            '{' => {
                let mut field = String::new();
                for f in it.by_ref() {
                    if f == '}' {
                        break;
                    }
                    field.push(f);
                }
                let i = if field.is_empty() {
                    next += 1;
                    next - 1
                } else {
                    field.parse::<usize>().ok()?
                };
                out.push_str(values.get(i)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// One spelling for the names that have several (`posix.remove` → `os.remove`,
/// `urllib2.urlopen` → `urllib.request.urlopen`, `pathlib.PosixPath` → `pathlib.Path`).
fn canonical(q: &str) -> String {
    const RENAMES: &[(&str, &str)] = &[
        ("posix.", "os."),
        ("nt.", "os."),
        ("urllib2.", "urllib.request."),
        ("urllib.urlopen", "urllib.request.urlopen"),
        ("urllib.urlretrieve", "urllib.request.urlretrieve"),
        ("six.moves.urllib.request.", "urllib.request."),
        ("pathlib.PosixPath", "pathlib.Path"),
        ("pathlib.PurePosixPath", "pathlib.Path"),
        ("pathlib.PurePath", "pathlib.Path"),
        ("pathlib.WindowsPath", "pathlib.Path"),
        ("httplib.", "http.client."),
    ];
    for (from, to) in RENAMES {
        if let Some(rest) = q.strip_prefix(from) {
            return format!("{to}{rest}");
        }
    }
    if q == "Path" || q.starts_with("Path.") {
        return format!("pathlib.{q}");
    }
    q.to_string()
}
