//! Values the inline-code walkers resolve without running the code, shared by the Python and
//! JavaScript readers: resolved text ([`Res`]), the names bound in the code ([`Bindings`]), the
//! step budget, and helpers on tree-sitter nodes and string literals.
//!
//! In: nodes of a parsed tree and the text they come from. Out: resolved values.

use std::collections::HashMap;

use tree_sitter::Node;

/// How deep a value is followed through names and calls (`a = b; b = c; …`).
pub(super) const MAX_RESOLVE_DEPTH: usize = 24;

/// How many resolution steps one piece of code may take (names bound to names bound to
/// names can branch: `b = a + a; c = b + b; …`); past it the code is `unsure`.
pub(super) const MAX_STEPS: usize = 200_000;

/// The steps a walker has taken, against [`MAX_STEPS`].
#[derive(Default)]
pub(super) struct Budget(std::cell::Cell<usize>);

impl Budget {
    /// Take one step; `false` once the budget is spent.
    pub(super) fn spend(&self) -> bool {
        let n = self.0.get().saturating_add(1);
        self.0.set(n);
        n <= MAX_STEPS
    }

    /// Take one step `depth` levels into a value: `false` once the budget is spent or past
    /// [`MAX_RESOLVE_DEPTH`] (the step is taken either way).
    pub(super) fn step(&self, depth: usize) -> bool {
        self.spend() && depth <= MAX_RESOLVE_DEPTH
    }

    /// Whether the budget ran out.
    pub(super) fn exhausted(&self) -> bool {
        self.0.get() > MAX_STEPS
    }
}

/// What a part of a path only known at run time stands for while a path is resolved in part
/// ([`Partial`]); [`partial_path`] turns it into `*`.
pub(super) const UNKNOWN: char = '\u{1}';

/// Whether the walker is resolving a path in part: a part only known at run time (a loop
/// name, a function's parameter, a call the walker does not model) stands for any name.
#[derive(Default)]
pub(super) struct Partial(std::cell::Cell<bool>);

impl Partial {
    /// `r`, or while resolving in part the stand-in for a part known only at run time.
    pub(super) fn part(&self, r: Option<Res>) -> Option<Res> {
        r.or_else(|| self.0.get().then(|| Res::lit(UNKNOWN.to_string())))
    }

    /// Run `f` resolving in part.
    fn within<T>(&self, f: impl FnOnce() -> T) -> T {
        let before = self.0.replace(true);
        let out = f();
        self.0.set(before);
        out
    }

    /// A path by `res`: resolved whole, or else in part ([`partial_path`]).
    pub(super) fn path(&self, res: impl Fn() -> Option<Res>) -> Option<Res> {
        res().or_else(|| self.within(&res).and_then(partial_path))
    }
}

/// A path resolved in part, its parts known only at run time as `*` (`path.join(dir, f)` →
/// `dir/*`, `` `${dir}/${slug(t)}.json` `` → `dir/*.json`): only when everything before the
/// first such part is known and names a folder (holds a `/`), so the path is judged as one in
/// that folder, as the shell's `dir/*` is. `None` when nothing was unknown or the folder is
/// not known (`os.path.join(d, 'x')` with `d` unknown). A part known only at run time that
/// holds a `/` or `..` would leave the folder; a reader cannot know, and judges the folder the
/// code names.
fn partial_path(r: Res) -> Option<Res> {
    let first = r.text.find(UNKNOWN)?;
    if !r.text[..first].contains('/') {
        return None;
    }
    let mut text = String::with_capacity(r.text.len());
    for c in r.text.chars() {
        if c != UNKNOWN {
            text.push(c);
        } else if !text.ends_with('*') {
            text.push('*');
        }
    }
    Some(Res { text, home: r.home })
}

/// The temporary folder code gets from its runtime (`tempfile.gettempdir()`, `os.tmpdir()`):
/// `/tmp`, or a per-user folder that the scratch list holds too (`$TMPDIR` on macOS).
pub(super) const TEMP_DIR: &str = "/tmp";

/// The name of a folder `tempfile.mkdtemp()` makes (random at run time; always new).
pub(super) const MADE_TEMP: &str = "tmpXXXXXXXX";

/// A value a walker resolved without running the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Res {
    /// The text (`~` stands for the home folder when `home`).
    pub(super) text: String,
    /// The text starts with the home folder, expanded by the code (`expanduser`,
    /// `Path.home()`, `os.homedir()`), not a literal `~` (which `open` does not expand).
    pub(super) home: bool,
}

impl Res {
    /// A literal.
    pub(super) fn lit(text: impl Into<String>) -> Res {
        Res {
            text: text.into(),
            home: false,
        }
    }

    /// The home folder.
    pub(super) fn home() -> Res {
        Res {
            text: "~".into(),
            home: true,
        }
    }

    /// `self` followed by `other` (string concatenation).
    pub(super) fn concat(mut self, other: &Res) -> Res {
        if self.text.is_empty() {
            return other.clone();
        }
        self.text.push_str(&other.text);
        self
    }

    /// `self` joined with `other` by a `/`; an absolute `other` replaces it when `resets`
    /// (`os.path.join`, `Path / '/x'`).
    pub(super) fn join(self, other: &Res, resets: bool) -> Res {
        if self.text.is_empty() || (resets && (other.text.starts_with('/') || other.home)) {
            return other.clone();
        }
        if other.text.is_empty() {
            return self;
        }
        // (`/` joined with `x` is `/x`.)
        let mut text = self.text.trim_end_matches('/').to_string();
        text.push('/');
        text.push_str(other.text.trim_start_matches('/'));
        Res {
            text,
            home: self.home,
        }
    }

    /// `os.path.expanduser`: a leading `~` is the home folder.
    pub(super) fn expand_user(mut self) -> Res {
        if self.text == "~" || self.text.starts_with("~/") {
            self.home = true;
        }
        self
    }
}

/// The text of a path: a literal leading `~` is a folder named `~` (the file functions do
/// not expand it) unless `tilde_is_home`.
pub(super) fn path_text(r: &Res, tilde_is_home: bool) -> String {
    if r.text.starts_with('~') && !r.home && !tilde_is_home {
        format!("./{}", r.text)
    } else {
        r.text.clone()
    }
}

/// Item `i` (as written in the code) of an argument vector, when it is known.
pub(super) fn argv_item(argv: &[Option<String>], i: &str) -> Option<Res> {
    let i: usize = i.trim().parse().ok()?;
    // A word the shell passed with a leading `~` was expanded to the home folder.
    argv.get(i)
        .cloned()
        .flatten()
        .map(|a| Res::lit(a).expand_user())
}

/// A whole-number literal of Python or JavaScript (`71`, `0x47`, `0o107`, `0b1000111`, `7_1`).
pub(super) fn int_literal(t: &str) -> Option<u32> {
    let t = t.replace('_', "").to_ascii_lowercase();
    match t.get(..2) {
        Some("0x") => u32::from_str_radix(&t[2..], 16).ok(),
        Some("0o") => u32::from_str_radix(&t[2..], 8).ok(),
        Some("0b") => u32::from_str_radix(&t[2..], 2).ok(),
        _ => t.parse().ok(),
    }
}

/// A numeric file mode as `chmod` spells it (`0o755`, `0755`, `493` → `755`).
pub(super) fn mode_text(t: &str) -> Option<String> {
    let t = t.trim().replace('_', "");
    let n = if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        u32::from_str_radix(o, 8).ok()?
    } else if let Some(x) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u32::from_str_radix(x, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        u32::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<u32>().ok()?
    };
    Some(format!("{n:o}"))
}

/// Names bound in the code, counted: a name bound exactly once to a value can be resolved to
/// that value.
pub(super) struct Bindings<'t> {
    /// Each name's bound values (a name bound by a parameter or a loop has a `None`).
    pub(super) map: HashMap<String, Vec<Option<Node<'t>>>>,
}

impl<'t> Bindings<'t> {
    /// No bindings.
    pub(super) fn new() -> Self {
        Bindings {
            map: HashMap::new(),
        }
    }

    /// Record a binding of `name` (to `value`, when it is one expression).
    pub(super) fn bind(&mut self, name: &str, value: Option<Node<'t>>) {
        self.map.entry(name.to_string()).or_default().push(value);
    }

    /// The one value `name` is bound to, if it is bound exactly once.
    pub(super) fn once(&self, name: &str) -> Option<Node<'t>> {
        match self.map.get(name).map(Vec::as_slice) {
            Some([Some(v)]) => Some(*v),
            _ => None,
        }
    }
}

/// Every node of a tree in source order (pre-order), without recursion.
pub(crate) fn nodes(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        out.push(n);
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The named children of a node, comments left out: the elements of a literal list or array,
/// the arguments of a call.
pub(super) fn items(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|k| k.kind() != "comment")
        .collect()
}

/// The text of a node.
pub(crate) fn text<'s>(n: Node<'_>, src: &'s str) -> &'s str {
    src.get(n.byte_range()).unwrap_or("")
}

/// Decode the backslash escapes of a string literal's text (`\n`, `\t`, `\\`, `\'`, `\x41`,
/// `\u0041`); an escape that is not understood keeps its text.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            '`' => out.push('`'),
            '$' => out.push('$'),
            '\n' => {}
            'x' | 'u' => {
                let len = if e == 'x' { 2 } else { 4 };
                let mut hex = String::new();
                if e == 'u' && it.peek() == Some(&'{') {
                    it.next();
                    while let Some(&h) = it.peek() {
                        it.next();
                        if h == '}' {
                            break;
                        }
                        hex.push(h);
                    }
                } else {
                    for _ in 0..len {
                        if let Some(&h) = it.peek()
                            && h.is_ascii_hexdigit()
                        {
                            hex.push(h);
                            it.next();
                        }
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(e);
                        out.push_str(&hex);
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}
