//! Python values: the full names of callees through the module's imports (`sh.rmtree` →
//! `shutil.rmtree`), and the literal text of expressions (strings, f-strings, `%` and
//! `.format`, `os.path.join`, `Path.home() / 'x'`, names bound once).
//!
//! In: nodes of the parsed module. Out: full names and resolved values ([`Res`]).

use tree_sitter::Node;

use super::Py;
use crate::effects::inline::resolve::{
    MADE_TEMP, MAX_RESOLVE_DEPTH, Res, TEMP_DIR, argv_item, int_literal, items, unescape,
};

impl<'t> Py<'t, '_> {
    /// The full name of a callee or module expression (`sh.rmtree` → `shutil.rmtree`).
    pub(super) fn qual(&self, n: Node<'t>, depth: usize) -> Option<String> {
        if !self.budget.step(depth) {
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
    pub(super) fn arg(&self, call: Node<'t>, i: usize, kw: &str) -> Option<Node<'t>> {
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
    pub(super) fn positional(&self, call: Node<'t>) -> Option<Vec<Node<'t>>> {
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
    pub(super) fn kw_true(&self, call: Node<'t>, kw: &str) -> bool {
        self.arg(call, usize::MAX, kw)
            .is_some_and(|v| v.kind() == "true")
    }

    /// The value of an expression, when it is a literal or resolves to one.
    pub(super) fn res(&self, n: Node<'t>, depth: usize) -> Option<Res> {
        if !self.budget.step(depth) {
            return None;
        }
        let d = depth + 1;
        match n.kind() {
            "string" => self.string(n, d),
            "concatenated_string" => {
                let mut out = Res::lit("");
                let mut c = n.walk();
                for s in n.named_children(&mut c) {
                    out = out.concat(&self.partial.part(self.res(s, d))?);
                }
                Some(out)
            }
            "binary_operator" => {
                let l = self
                    .partial
                    .part(self.res(n.child_by_field_name("left")?, d))?;
                let right = n.child_by_field_name("right")?;
                match self.t(n.child_by_field_name("operator")?) {
                    "+" => Some(l.concat(&self.partial.part(self.res(right, d))?)),
                    "/" => Some(l.join(&self.partial.part(self.res(right, d))?, true)),
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
            // Code read from standard input runs as the file `<stdin>` in the working
            // directory (`Path(__file__).parent` is `.`); a script's is its path. (`-c` code has
            // no `__file__`.)
            "identifier" if self.t(n) == "__file__" && !self.bind.map.contains_key("__file__") => {
                match self.argv.first().cloned().flatten().as_deref() {
                    Some("-c") | None => None,
                    Some("" | "-") => Some(Res::lit("<stdin>")),
                    Some(script) => Some(Res::lit(script)),
                }
            }
            "identifier" => {
                let name = self.t(n);
                match self.bind.once(name) {
                    Some(v) => self.res(v, d),
                    // The folder of a loop over `os.walk(root)`: `root` or one below it.
                    None if self.bind.map.get(name).is_some_and(|b| b.len() == 1) => {
                        let root = self.res(*self.walked.get(name)?, d)?;
                        Some(root.join(&Res::lit("**"), false))
                    }
                    // Bound more than once: the assignment that reaches this use.
                    None => self.res(self.reaching(n)?, d),
                }
            }
            "subscript" => {
                // `os.environ['HOME']`, `sys.argv[1]`.
                let v = n.child_by_field_name("value")?;
                let k = n.child_by_field_name("subscript")?;
                // `'NEKOT_BUHTIG'[::-1]`: the string reversed.
                if k.kind() == "slice" && self.t(k).replace(' ', "") == "::-1" {
                    let r = self.res(v, d)?;
                    return Some(Res::lit(r.text.chars().rev().collect::<String>()));
                }
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

    /// The value of a path expression: resolved whole, or in part below a folder the code
    /// names (`os.path.join(base, f)` with `f` known only at run time: `base/*`; see
    /// [`Partial::path`](crate::effects::inline::resolve::Partial::path)).
    pub(super) fn path_res(&self, n: Node<'t>) -> Option<Res> {
        self.partial.path(|| self.res(n, 0))
    }

    /// A string literal or f-string whose parts all resolve.
    pub(super) fn string(&self, n: Node<'t>, d: usize) -> Option<Res> {
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
                        out = out.concat(&self.partial.part(None)?);
                        continue;
                    }
                    let v = self
                        .partial
                        .part(self.res(k.child_by_field_name("expression")?, d))?;
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
    pub(super) fn res_call(&self, n: Node<'t>, d: usize) -> Option<Res> {
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
                        out = out.join(&self.partial.part(self.res(a, d))?, true);
                    }
                    return Some(out);
                }
                "pathlib.Path" => {
                    let mut out = Res::lit("");
                    for a in pos()? {
                        out = out.join(&self.partial.part(self.res(a, d))?, true);
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
                // The folder part (`os.path.dirname('<stdin>')` is `''`: the working
                // directory, once joined).
                "os.path.dirname" => {
                    let p = self.res(self.arg(n, 0, "p")?, d)?;
                    let dir = match p.text.trim_end_matches('/').rsplit_once('/') {
                        Some(("", _)) => "/".to_string(),
                        Some((dir, _)) => dir.to_string(),
                        None => String::new(),
                    };
                    return Some(Res {
                        text: dir,
                        home: p.home,
                    });
                }
                "os.path.abspath" | "os.path.realpath" | "os.path.normpath" | "os.fspath"
                | "str" => return self.res(self.arg(n, 0, "path")?, d),
                "pathlib.Path.home" => return Some(Res::home()),
                // `chr(71)`: the character with that code point.
                "chr" => {
                    let code = self.arg(n, 0, "")?;
                    let c = (code.kind() == "integer")
                        .then(|| int_literal(self.t(code)))
                        .flatten()
                        .and_then(char::from_u32)?;
                    return Some(Res::lit(c.to_string()));
                }
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
                    out = out.join(&self.partial.part(self.res(a, d))?, true);
                }
                Some(out)
            }
            "join" if !self.is_path(obj, d) => {
                // `' '.join(['rm', '-rf', 'x'])`, `sep.join(parts)` with `sep = ''`.
                let sep = self.res(obj, d)?;
                let items = self.list(self.arg(n, 0, "")?, d)?;
                Some(Res::lit(items.join(&sep.text)))
            }
            // String methods that build a constant from constants (`'GXITHUB'.replace('X',
            // '')`, `'token'.upper()`).
            "upper" | "lower" | "strip" | "lstrip" | "rstrip" | "replace"
                if !self.is_path(obj, d) =>
            {
                let v = self.res(obj, d)?;
                let lit = |i: usize| self.arg(n, i, "").and_then(|a| self.res(a, d));
                let text = match attr {
                    "upper" => v.text.to_uppercase(),
                    "lower" => v.text.to_lowercase(),
                    _ if self.arg(n, 0, "").is_some() && attr != "replace" => return None,
                    "strip" => v.text.trim().to_string(),
                    "lstrip" => v.text.trim_start().to_string(),
                    "rstrip" => v.text.trim_end().to_string(),
                    // `replace(old, new)` replaces every occurrence; a count is not read.
                    _ => {
                        if self.arg(n, 2, "count").is_some() {
                            return None;
                        }
                        v.text.replace(&lit(0)?.text, &lit(1)?.text)
                    }
                };
                Some(Res { text, home: v.home })
            }
            _ => None,
        }
    }

    /// The items of a list or tuple of literals.
    pub(super) fn list(&self, n: Node<'t>, d: usize) -> Option<Vec<String>> {
        if !self.budget.spend() {
            return None;
        }
        match n.kind() {
            "list" | "tuple" => {
                let mut out = Vec::new();
                for k in items(n) {
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
    pub(super) fn is_path(&self, n: Node<'t>, d: usize) -> bool {
        if !self.budget.step(d) {
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
}

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
