//! Python's part of the exposure walk ([`Exposes`]): the calls that print (`print`,
//! `sys.stdout.write`, `pprint`, `logging`) or write into a file (`f.write` on a handle
//! `open` gave for writing, `print(…, file=f)`, `Path(p).write_text`, `json.dump`), the values
//! that carry what they are made of, and reads of `os.environ` whose name does not resolve.
//!
//! In: a call or expression node. Out: what [`Exposes`] asks of a language.

use tree_sitter::Node;

use super::Py;
use crate::effects::inline::exposure::{Exposes, Sink};

/// Functions that print their arguments into the session.
const PRINTS: &[&str] = &[
    "print",
    "builtins.print",
    "pprint.pprint",
    "pprint.pp",
    "sys.stdout.write",
    "sys.stderr.write",
    "sys.stdout.writelines",
    "sys.stderr.writelines",
    "logging.debug",
    "logging.info",
    "logging.warning",
    "logging.warn",
    "logging.error",
    "logging.critical",
    "logging.exception",
];

/// Functions whose value is made of their arguments (`str(x)`, `json.dumps(x)`).
const CARRYING_FUNCTIONS: &[&str] = &[
    "str",
    "repr",
    "format",
    "bytes",
    "dict",
    "list",
    "tuple",
    "sorted",
    "json.dumps",
    "base64.b64encode",
    "base64.b32encode",
    "base64.b16encode",
    "base64.urlsafe_b64encode",
    "base64.encodebytes",
    "binascii.hexlify",
    "codecs.encode",
];

/// Methods whose value is made of their object and arguments (`s.upper()`, `"".join(x)`).
const CARRYING_METHODS: &[&str] = &[
    "join",
    "format",
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "encode",
    "decode",
    "replace",
    "split",
    "hex",
    "ljust",
    "rjust",
    "center",
    "zfill",
    "title",
    "capitalize",
    "swapcase",
    "copy",
    "items",
    "values",
];

/// The functions that open a file (`open(p, "w")`).
const OPENS: &[&str] = &["open", "io.open", "codecs.open", "builtins.open"];

impl<'t> Py<'t, '_> {
    /// Whether `h` is a file handle opened for writing: an `open(p, "w")` call, or a name
    /// bound once to one.
    fn writing_handle(&self, h: Node<'t>) -> bool {
        let h = match h.kind() {
            "identifier" => match self.bind.once(self.t(h)) {
                Some(v) => v,
                None => return false,
            },
            _ => h,
        };
        if h.kind() != "call" {
            return false;
        }
        let Some(f) = h.child_by_field_name("function") else {
            return false;
        };
        let (mode, at) = if self.qual(f, 0).is_some_and(|q| OPENS.contains(&q.as_str())) {
            (self.arg(h, 1, "mode"), true)
        } else {
            // `Path(p).open("w")`.
            let path_open = f.kind() == "attribute"
                && f.child_by_field_name("attribute")
                    .is_some_and(|a| self.t(a) == "open")
                && f.child_by_field_name("object")
                    .is_some_and(|o| self.is_path(o, 0));
            (self.arg(h, 0, "mode"), path_open)
        };
        at && mode
            .and_then(|m| self.res(m, 0))
            .is_some_and(|m| m.text.contains(['w', 'x', 'a', '+']))
    }
}

impl<'t> Exposes<'t> for Py<'t, '_> {
    fn env_unresolved(&self, m: Node<'t>, depth: usize) -> bool {
        match m.kind() {
            "subscript" => {
                m.child_by_field_name("value")
                    .is_some_and(|v| self.qual(v, depth).as_deref() == Some("os.environ"))
                    && m.child_by_field_name("subscript")
                        .is_none_or(|k| self.res(k, depth).is_none())
            }
            "call" => {
                m.child_by_field_name("function")
                    .and_then(|f| self.qual(f, depth))
                    .is_some_and(|q| matches!(q.as_str(), "os.getenv" | "os.environ.get"))
                    && self
                        .arg(m, 0, "key")
                        .is_none_or(|k| self.res(k, depth).is_none())
            }
            _ => false,
        }
    }

    fn carries(&self, m: Node<'t>, c: Node<'t>) -> bool {
        match m.kind() {
            "call" => {
                let Some(f) = m.child_by_field_name("function") else {
                    return false;
                };
                self.qual(f, 0)
                    .is_some_and(|q| CARRYING_FUNCTIONS.contains(&q.as_str()))
                    || (f.kind() == "attribute"
                        && f.child_by_field_name("attribute")
                            .is_some_and(|a| CARRYING_METHODS.contains(&self.t(a))))
            }
            // A test of a value is not the value (`x is None`, `not x`, `"X" in os.environ`).
            "comparison_operator"
            | "not_operator"
            | "lambda"
            | "function_definition"
            | "generator_expression" => false,
            // `x if os.getenv("X") else y`: the condition is not printed.
            "conditional_expression" => m.named_child(1).is_none_or(|k| k.id() != c.id()),
            "keyword_argument" => m
                .child_by_field_name("name")
                .is_none_or(|k| k.id() != c.id()),
            _ => true,
        }
    }

    fn exposed_by(&self, call: Node<'t>) -> Option<(Sink, String, Vec<Node<'t>>)> {
        let f = call.child_by_field_name("function")?;
        let positional = || self.positional(call).unwrap_or_default();
        let q = self.qual(f, 0).unwrap_or_default();
        if PRINTS.contains(&q.as_str()) {
            // `print(x, file=f)` writes into the file `f` unless it is the terminal.
            let sink = match self.arg(call, usize::MAX, "file") {
                Some(h) if self.writing_handle(h) => Sink::Written,
                Some(h)
                    if !matches!(
                        self.qual(h, 0).as_deref(),
                        Some("sys.stdout" | "sys.stderr")
                    ) =>
                {
                    return None;
                }
                _ => Sink::Printed,
            };
            return Some((sink, q, positional()));
        }
        if q == "json.dump" {
            let handle = self.arg(call, 1, "fp")?;
            let value = self.arg(call, 0, "obj")?;
            return self
                .writing_handle(handle)
                .then(|| (Sink::Written, q, vec![value]));
        }
        if f.kind() != "attribute" {
            return None;
        }
        let obj = f.child_by_field_name("object")?;
        let attr = self.t(f.child_by_field_name("attribute")?);
        match attr {
            "write" | "writelines" if self.writing_handle(obj) => {
                Some((Sink::Written, attr.to_string(), positional()))
            }
            "write_text" | "write_bytes" if self.is_path(obj, 0) => {
                Some((Sink::Written, format!("Path.{attr}"), positional()))
            }
            _ => None,
        }
    }
}
