//! How a policy's regexes are compiled: ASCII Perl classes, and no full DFA.
//!
//! In: the patterns of `regex` tests, `content_regex` and `redact` / `rewrite` actions. Out:
//! compiled sets and regexes that every consumer (evaluation, `explain`, the test oracle)
//! builds the same way, so they never disagree.
//!
//! **ASCII classes.** `\d`, `\s`, `\w`, their negations and the word boundaries (`\b`, `\B`,
//! `\<`, `\>`, `\b{start}` …) mean their ASCII forms: `\s` is `[\t\n\x0B\f\r ]`, `\w` is
//! `[0-9A-Za-z_]`, a word boundary is between an ASCII word character and anything else. `.`,
//! `[^…]` and `\p{…}` still read whole Unicode characters. Why: policies test command lines,
//! paths, tool arguments and file contents, whose syntax is ASCII — a shell splits words on
//! ASCII blanks only (`rm\u{a0}-rf` is one word, a command of that name), languages and
//! config formats separate tokens with ASCII whitespace, and a Cyrillic `с` in `сurl` is
//! another program under either reading. The Unicode tables made each such class cost 4–8×
//! more to compile, and a Unicode word boundary sends every scan of a non-ASCII text to the
//! slowest engine. The change was checked by judging the held-out attacks and everyday
//! commands under both readings (same verdicts); `tests/it/regex_ascii.rs` pins the verdicts
//! of non-breaking-space, zero-width, look-alike and accented variants of library attacks
//! (a disguised program name is judged by the shell lens: it asks).
//!
//! **No full DFA.** A hook process compiles a regex to scan one command: building a dense DFA
//! up front (the default for small patterns) cost more than the scans it speeds up; the lazy
//! DFA builds the states a text visits.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use regex_automata::MatchKind;
use regex_automata::meta;
use regex_syntax::ast::{self, Ast, ClassPerlKind, Visitor};

/// Positions to rewrite in a pattern: (start byte, end byte, replacement).
type Edits = Vec<(usize, usize, String)>;

/// `src` with its Perl classes and word boundaries in their ASCII forms (see the module
/// doc); `src` itself when it has none or does not parse (the compiler then reports it as
/// written).
pub(crate) fn ascii_classes(src: &str) -> Cow<'_, str> {
    if !src.contains('\\') {
        return Cow::Borrowed(src);
    }
    let Ok(tree) = ast::parse::Parser::new().parse(src) else {
        return Cow::Borrowed(src);
    };
    let Ok(mut edits) = ast::visit(
        &tree,
        Collect {
            src,
            edits: Vec::new(),
        },
    ) else {
        return Cow::Borrowed(src);
    };
    if edits.is_empty() {
        return Cow::Borrowed(src);
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(src.len() + 16 * edits.len());
    let mut at = 0;
    for (start, end, with) in edits {
        let Some(keep) = src.get(at..start) else {
            return Cow::Borrowed(src);
        };
        out.push_str(keep);
        out.push_str(&with);
        at = end;
    }
    out.push_str(src.get(at..).unwrap_or_default());
    Cow::Owned(out)
}

/// The ASCII members of a Perl class, written for use inside a bracketed class.
fn members(kind: &ClassPerlKind) -> &'static str {
    match kind {
        ClassPerlKind::Digit => "0-9",
        ClassPerlKind::Space => r"\t\n\x0B\f\r ",
        ClassPerlKind::Word => "0-9A-Za-z_",
    }
}

struct Collect<'a> {
    src: &'a str,
    edits: Edits,
}

impl Visitor for Collect<'_> {
    type Output = Edits;
    type Err = ();

    fn finish(self) -> Result<Edits, ()> {
        Ok(self.edits)
    }

    fn visit_pre(&mut self, ast: &Ast) -> Result<(), ()> {
        match ast {
            Ast::ClassPerl(c) => {
                let m = members(&c.kind);
                let neg = if c.negated { "^" } else { "" };
                self.edits.push((
                    c.span.start.offset,
                    c.span.end.offset,
                    format!("[{neg}{m}]"),
                ));
            }
            Ast::Assertion(a) if is_word_boundary(&a.kind) => {
                // `(?-u:…)` keeps the assertion as written, in its ASCII reading.
                let (start, end) = (a.span.start.offset, a.span.end.offset);
                let text = self.src.get(start..end).ok_or(())?;
                self.edits.push((start, end, format!("(?-u:{text})")));
            }
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ast::ClassSetItem) -> Result<(), ()> {
        if let ast::ClassSetItem::Perl(c) = item {
            let m = members(&c.kind);
            // Inside a class: the members themselves, or a nested negated class.
            let with = if c.negated {
                format!("[^{m}]")
            } else {
                m.to_string()
            };
            self.edits
                .push((c.span.start.offset, c.span.end.offset, with));
        }
        Ok(())
    }
}

fn is_word_boundary(k: &ast::AssertionKind) -> bool {
    use ast::AssertionKind as K;
    !matches!(k, K::StartLine | K::EndLine | K::StartText | K::EndText)
}

/// The compiler settings of policy regexes: no full DFA (see the module doc).
pub(crate) fn builder(kind: MatchKind) -> meta::Builder {
    let mut b = meta::Regex::builder();
    b.configure(
        meta::Config::new()
            .match_kind(kind)
            .dfa(false)
            .nfa_size_limit(Some(256 << 20))
            .hybrid_cache_capacity(8 << 20),
    );
    b
}

/// The pattern lists this process compiled, by their sources as written: rules of one
/// library repeat lists (a named list such as `@credential_formats` in several rules, one
/// guard's pattern in several seams), and a regex compiled from equal sources with equal
/// settings is the same matcher. Only what compiled is kept (a failing list is compiled again
/// and reports again).
static COMPILED: LazyLock<Mutex<HashMap<Vec<String>, meta::Regex>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// `patterns` compiled as one set matching all of them ([`MatchKind::All`], ASCII classes,
/// no full DFA), shared with every earlier compile of equal sources in this process.
///
/// # Errors
///
/// The compiler's message when a pattern does not parse or a size limit is exceeded.
pub(crate) fn many<S: AsRef<str>>(patterns: &[S]) -> Result<meta::Regex, String> {
    let key: Vec<String> = patterns.iter().map(|p| p.as_ref().to_string()).collect();
    if let Ok(known) = COMPILED.lock()
        && let Some(re) = known.get(&key)
    {
        return Ok(re.clone());
    }
    let srcs: Vec<Cow<'_, str>> = key.iter().map(|p| ascii_classes(p)).collect();
    let re = builder(MatchKind::All)
        .build_many(&srcs)
        .map_err(|e| e.to_string())?;
    if let Ok(mut known) = COMPILED.lock() {
        known.insert(key, re.clone());
    }
    Ok(re)
}

/// A set of policy regexes compiled together: which of them match a text.
#[derive(Debug, Clone)]
pub(crate) struct RegexSet {
    re: meta::Regex,
}

impl RegexSet {
    /// Compile `patterns` (ASCII classes, no full DFA).
    ///
    /// # Errors
    ///
    /// The compiler's message when a pattern does not parse or a size limit is exceeded.
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Result<RegexSet, String> {
        many(patterns).map(|re| RegexSet { re })
    }

    /// Whether any pattern matches `text`.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.re.is_match(text)
    }
}

/// One policy regex for find / replace (`redact`, `rewrite`), compiled like the tests'.
///
/// # Errors
///
/// The compiler's message when it does not compile.
pub(crate) fn single(src: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(&ascii_classes(src))
        .build()
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    #[test]
    fn perl_classes_and_boundaries_become_ascii() {
        let cases = [
            (r"\bcurl\s+-d\b", r"(?-u:\b)curl[\t\n\x0B\f\r ]+-d(?-u:\b)"),
            (r"[\w.-]+@\S+", r"[0-9A-Za-z_.-]+@[^\t\n\x0B\f\r ]+"),
            (r"[^\s;|&]+", r"[^\t\n\x0B\f\r ;|&]+"),
            (r"[\S\d]", r"[[^\t\n\x0B\f\r ]0-9]"),
            (r"\D\W\B", r"[^0-9][^0-9A-Za-z_](?-u:\B)"),
            (r"\<rm\>|\b{start}x", r"(?-u:\<)rm(?-u:\>)|(?-u:\b{start})x"),
            (r"^a.b$", r"^a.b$"),
            (r"\p{Greek}\.\*", r"\p{Greek}\.\*"),
            (r"(unclosed", r"(unclosed"),
        ];
        for (src, want) in cases {
            assert_eq!(ascii_classes(src), want, "{src}");
            regex::Regex::new(&ascii_classes(src))
                .map_or_else(|e| assert!(src.starts_with('('), "{src}: {e}"), |_| ());
        }
    }

    #[test]
    fn ascii_readings_differ_only_outside_ascii() {
        let m = |p: &str, text: &str| RegexSet::new(&[p]).unwrap().is_match(text);
        assert!(m(r"\brm\s+-rf\b", "rm  -rf /"));
        assert!(
            !m(r"\brm\s+-rf\b", "rm\u{a0}-rf /"),
            "a shell word, not a blank"
        );
        assert!(
            m(r"\brm\s+-rf\b", "érm -rf"),
            "é is no ASCII word character"
        );
        assert!(!m(r"\bcurl\b", "сurl x"), "a Cyrillic с is another program");
        assert!(m(r"^\w+=\d+$", "KEY=42"));
        assert!(!m(r"^\w+=\d+$", "clé=42"));
        assert!(m(r"x\S+y", "xéy"), "a negated class reads whole characters");
        assert!(m(r"^x.y$", "xéy"));
        let set = RegexSet::new(&["a", r"\d"]).unwrap();
        assert!(set.is_match("7") && set.is_match("a") && !set.is_match("b"));
    }
}
