//! The lowering session: a policy file's text, its line index and the diagnostics collected
//! so far, plus the readers that take one spanned TOML value to a typed value or report
//! what was expected at that value's `file:line:column`.
//!
//! In: spanned TOML values of one file. Out: typed values (`String`, `bool`, `i64`, tables),
//! or an error diagnostic and `None`.

use std::ops::Range;
use std::sync::Arc;

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::options::*;
use crate::model::*;

pub(super) struct LineIndex<'s> {
    pub(super) src: &'s str,
    pub(super) starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub(super) fn new(src: &'s str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { src, starts }
    }

    /// 1-based (line, column, line text) of a byte offset.
    pub(super) fn locate(&self, offset: usize) -> (usize, usize, String) {
        let offset = offset.min(self.src.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let end = self
            .starts
            .get(line + 1)
            .map(|e| e.saturating_sub(1))
            .unwrap_or(self.src.len());
        let text = self
            .src
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r');
        let col = self
            .src
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        (line + 1, col, text.to_string())
    }
}

pub(super) struct Lowering<'s> {
    pub(super) file: Arc<str>,
    pub(super) scope: Scope,
    pub(super) lines: LineIndex<'s>,
    pub(super) diags: Vec<PolicyError>,
    pub(super) opts: LoadOptions,
    /// The `"@name"` list references met so far.
    pub(super) list_refs: Vec<ListRef>,
}

impl Lowering<'_> {
    pub(super) fn diag(
        &mut self,
        severity: Severity,
        span: Range<usize>,
        message: String,
        note: Option<String>,
    ) {
        let (line, column, text) = self.lines.locate(span.start);
        // Underline the span, up to the end of its first line.
        let rest = text.chars().count().saturating_sub(column - 1);
        let spanned = self
            .lines
            .src
            .get(span.start..span.end.max(span.start))
            .map_or(1, |s| s.split('\n').next().unwrap_or("").chars().count());
        self.diags.push(PolicyError {
            severity,
            file: self.file.clone(),
            line,
            column,
            // One line, whatever the file's ids, keys or patterns hold.
            message: message.replace('\r', "\\r").replace('\n', "\\n"),
            snippet: Some(text),
            width: spanned.min(rest).max(1),
            note,
        });
    }

    /// An error whose background (the values that were expected, a parser's explanation)
    /// goes in a note.
    pub(super) fn error_with_note(
        &mut self,
        span: Range<usize>,
        message: impl Into<String>,
        note: impl Into<String>,
    ) {
        self.diag(Severity::Error, span, message.into(), Some(note.into()));
    }

    pub(super) fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.diag(Severity::Error, span, message.into(), None);
    }

    pub(super) fn warning(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.diag(Severity::Warning, span, message.into(), None);
    }

    pub(super) fn source(&self, span: &Range<usize>) -> Source {
        let (line, column, _) = self.lines.locate(span.start);
        Source {
            file: self.file.clone(),
            line,
            column,
            scope: self.scope,
        }
    }
}

pub(super) type TomlValue<'i> = Spanned<DeValue<'i>>;

pub(super) fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

pub(super) fn suggest(word: &str, candidates: &[&str]) -> String {
    crate::hint::suffix(word, candidates.iter().copied())
}

pub(super) fn check_keys(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    what: &str,
    allowed: &[&str],
) -> bool {
    let mut ok = true;
    for (k, _) in t.iter() {
        let key: &str = k.get_ref();
        if !allowed.contains(&key) {
            ok = false;
            let hint = suggest(key, allowed);
            ctx.error_with_note(
                k.span(),
                format!("unknown key `{key}` in {what}{hint}"),
                format!("expected one of: {}", allowed.join(", ")),
            );
        }
    }
    ok
}

pub(super) fn get<'a, 'i>(
    t: &'a DeTable<'i>,
    key: &str,
) -> Option<(&'a Spanned<std::borrow::Cow<'i, str>>, &'a TomlValue<'i>)> {
    t.iter().find(|(k, _)| {
        let s: &str = k.get_ref();
        s == key
    })
}

pub(super) fn want_str(ctx: &mut Lowering<'_>, v: &TomlValue<'_>, what: &str) -> Option<String> {
    match v.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a string, found {}", type_name(other)),
            );
            None
        }
    }
}

/// A string that must be one of `choices` (listed in the order the message names them):
/// the matching value, or an error "`what`: expected `a`, `b` or `c`, found `x`".
pub(super) fn want_keyword<T: Copy>(
    ctx: &mut Lowering<'_>,
    v: &TomlValue<'_>,
    what: &str,
    choices: &[(&str, T)],
) -> Option<T> {
    let s = want_str(ctx, v, what)?;
    if let Some((_, x)) = choices.iter().find(|(name, _)| *name == s) {
        return Some(*x);
    }
    let names: Vec<String> = choices.iter().map(|(n, _)| format!("`{n}`")).collect();
    let expected = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    };
    ctx.error(
        v.span(),
        format!("{what}: expected {expected}, found `{s}`"),
    );
    None
}

pub(super) fn want_bool(ctx: &mut Lowering<'_>, v: &TomlValue<'_>, what: &str) -> Option<bool> {
    match v.get_ref() {
        DeValue::Boolean(b) => Some(*b),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a boolean, found {}", type_name(other)),
            );
            None
        }
    }
}

pub(super) fn want_int(ctx: &mut Lowering<'_>, v: &TomlValue<'_>, what: &str) -> Option<i64> {
    match v.get_ref() {
        DeValue::Integer(i) => {
            let parsed = i64::from_str_radix(i.as_str().replace('_', "").as_str(), i.radix());
            match parsed {
                Ok(n) => Some(n),
                Err(e) => {
                    ctx.error(v.span(), format!("{what}: {e}"));
                    None
                }
            }
        }
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected an integer, found {}", type_name(other)),
            );
            None
        }
    }
}

/// A string or an array of strings, each with its span.
pub(super) fn want_str_list(
    ctx: &mut Lowering<'_>,
    v: &TomlValue<'_>,
    what: &str,
) -> Option<Vec<(String, Range<usize>)>> {
    match v.get_ref() {
        DeValue::String(s) => Some(vec![(s.to_string(), v.span())]),
        DeValue::Array(a) => {
            let mut out = Vec::new();
            let mut ok = true;
            for item in a.iter() {
                match item.get_ref() {
                    DeValue::String(s) => out.push((s.to_string(), item.span())),
                    other => {
                        ok = false;
                        ctx.error(
                            item.span(),
                            format!("{what}: expected a string, found {}", type_name(other)),
                        );
                    }
                }
            }
            if out.is_empty() && ok {
                ctx.error(v.span(), format!("{what}: the list is empty"));
                return None;
            }
            ok.then_some(out)
        }
        other => {
            ctx.error(
                v.span(),
                format!(
                    "{what}: expected a string or an array of strings, found {}",
                    type_name(other)
                ),
            );
            None
        }
    }
}

/// A string list whose items may be `"@name"` references to named lists (`@` and a list
/// name; anything else, such as a regex `@\S+`, is taken as written): each reference is
/// recorded (resolved later, across files, by
/// [`crate::lists::resolve`]).
pub(super) fn want_list_items(
    ctx: &mut Lowering<'_>,
    v: &TomlValue<'_>,
    what: &str,
) -> Option<Vec<(String, Range<usize>)>> {
    let items = want_str_list(ctx, v, what)?;
    let _ = what;
    for (s, span) in &items {
        if let Some(name) = crate::lists::reference(s) {
            let source = ctx.source(span);
            ctx.list_refs.push(ListRef {
                name: name.to_string(),
                source,
            });
        }
    }
    Some(items)
}

pub(super) fn want_table<'a, 'i>(
    ctx: &mut Lowering<'_>,
    v: &'a TomlValue<'i>,
    what: &str,
) -> Option<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a table, found {}", type_name(other)),
            );
            None
        }
    }
}

/// Convert a TOML value to JSON (for `equals` and `[[test]]` events).
pub(crate) fn to_json(v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str().replace('_', "").as_str(), i.radix())
            .map(Value::from)
            .unwrap_or(Value::Null),
        DeValue::Float(f) => f
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(a) => Value::Array(a.iter().map(|x| to_json(x.get_ref())).collect()),
        DeValue::Table(t) => {
            let mut m = Map::new();
            for (k, x) in t.iter() {
                m.insert(k.get_ref().to_string(), to_json(x.get_ref()));
            }
            Value::Object(m)
        }
    }
}

pub(super) fn check_regex(
    ctx: &mut Lowering<'_>,
    pattern: &str,
    span: Range<usize>,
    what: &str,
) -> bool {
    match crate::matcher::regex_error(pattern, ctx.opts.full_regex_check) {
        None => true,
        Some(e) => {
            ctx.error_with_note(
                span,
                format!("{what}: invalid regex: {e}"),
                "Rust `regex` syntax; no look-around or back-references",
            );
            false
        }
    }
}

pub(super) fn check_glob(ctx: &mut Lowering<'_>, pattern: &str, span: Range<usize>) -> bool {
    match globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
    {
        Ok(_) => true,
        Err(e) => {
            ctx.error(span, format!("invalid glob `{pattern}`: {}", e.kind()));
            false
        }
    }
}
