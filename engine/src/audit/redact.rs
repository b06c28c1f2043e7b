//! Masking secrets in what the audit log keeps: credential formats by shape (a token's known
//! prefix, separators and length survive, its letters and digits become `0`), secret-looking
//! assignments and URL parameters, and the values of keys named like secrets.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

pub use crate::secret_names::secret_name;

/// A masking pattern, compiled the first time a text holds one of its `needles` (literal
/// texts every match contains; compared in lower case when `fold`): most payloads hold none,
/// and a hook process compiles nothing for them.
struct Pattern {
    needles: &'static [&'static str],
    fold: bool,
    source: &'static str,
    compiled: OnceLock<Option<Regex>>,
}

impl Pattern {
    const fn new(needles: &'static [&'static str], fold: bool, source: &'static str) -> Pattern {
        Pattern {
            needles,
            fold,
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The regex, when `text` (and its lower-case form `lower`) may hold a match.
    fn for_text(&self, text: &str, lower: &str) -> Option<&Regex> {
        let hay = if self.fold { lower } else { text };
        if !self.needles.iter().any(|n| hay.contains(n)) {
            return None;
        }
        self.compiled
            .get_or_init(|| {
                let src = self.source.replace("STEM", STEM);
                // A word boundary before a format that starts with a letter: a token is not
                // the tail of a longer word.
                let bound = if src.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    r"(?-u:\b)"
                } else {
                    ""
                };
                // ASCII classes (names, separators and tokens are ASCII): the Unicode `\w` of
                // a case-insensitive name pattern cost over 12 M instructions to compile.
                let src = format!("{bound}(?:{src})");
                Regex::new(&crate::compile::regex::ascii_classes(&src)).ok()
            })
            .as_ref()
    }
}

/// Credential formats with a fixed prefix: the capture groups are the secret parts (masked),
/// the rest (prefixes, separators) is kept. The formats of the library's
/// `no-hardcoded-credentials` rule and of the URL lens's token check.
static TOKENS: [Pattern; 17] = [
    Pattern::new(
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        false,
        r"gh[pousr]_([A-Za-z0-9]{20,})",
    ),
    Pattern::new(&["github_pat_"], false, r"github_pat_([A-Za-z0-9_]{20,})"),
    Pattern::new(&["glpat-"], false, r"glpat-([A-Za-z0-9_-]{20,})"),
    Pattern::new(
        &["sk-"],
        false,
        r"sk-(?:proj-|ant-[a-z]+\d*-|ant-)?([A-Za-z0-9_-]{20,})",
    ),
    Pattern::new(&["xox"], false, r"xox[abposr]-([A-Za-z0-9-]{10,})"),
    Pattern::new(
        &["AKIA", "ASIA", "AGPA", "AIDA", "AROA"],
        false,
        r"(?:AKIA|ASIA|AGPA|AIDA|AROA)([0-9A-Z]{16})",
    ),
    Pattern::new(&["npm_"], false, r"npm_([A-Za-z0-9]{36})"),
    Pattern::new(&["AIza"], false, r"AIza([0-9A-Za-z_-]{35})"),
    Pattern::new(&["ya29."], false, r"ya29\.([0-9A-Za-z_-]{20,})"),
    Pattern::new(
        &["_live_", "_test_"],
        false,
        r"(?:sk|rk)_(?:live|test)_([A-Za-z0-9]{16,})",
    ),
    Pattern::new(&["hf_"], false, r"hf_([A-Za-z0-9]{30,})"),
    Pattern::new(
        &["SG."],
        false,
        r"SG\.([A-Za-z0-9_-]{16,})\.([A-Za-z0-9_-]{16,})",
    ),
    Pattern::new(
        &["eyJ"],
        false,
        r"eyJ([A-Za-z0-9_-]{10,})\.eyJ([A-Za-z0-9_-]{10,})\.([A-Za-z0-9_-]{10,})",
    ),
    Pattern::new(
        &["pypi-"],
        false,
        r"pypi-AgEIcHlwaS5vcmc([A-Za-z0-9_-]{50,})",
    ),
    Pattern::new(&["dop_v1_"], false, r"dop_v1_([a-f0-9]{64})"),
    Pattern::new(
        &["hooks.slack.com"],
        false,
        r"hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/([A-Za-z0-9]{20,})",
    ),
    Pattern::new(
        &["PRIVATE KEY"],
        false,
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----((?s:.)*?)(?:-----END|\z)",
    ),
];

/// Lower-case words one of which every secret name matched by [`STEM`] holds.
const STEM_WORDS: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "credential",
    "authorization",
    "cookie",
    "sig",
    "auth",
    "jwt",
];

/// The secret-name words as a regex alternation (`STEM` in [`PLACES`]); each holds one of
/// [`STEM_WORDS`], the cheap test made before the regex is compiled.
const STEM: &str = "(?i:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|authorization|cookie|signature|pwd|pass|auth|sig|jwt)";

/// Secrets known by where they stand, not by their shape: the last capture group is the
/// value, masked unless it is an environment reference or a path; a group named `name`
/// must be named like a secret ([`secret_name`]). `STEM` stands for the words a secret's
/// name holds, so a match starts at such a name and never swallows one.
static PLACES: [Pattern; 5] = [
    // The password of a URL's user info.
    Pattern::new(
        &["://"],
        false,
        r#"[A-Za-z][A-Za-z0-9+.-]*://[^/\s@:"'<>]+:([^/\s@"'<>]+)@"#,
    ),
    // A query parameter or an assignment (`KEY=value`, `key: value`, `"key": "value"`).
    Pattern::new(
        STEM_WORDS,
        true,
        r#"(?P<name>[\w.\[\]-]*STEM[\w.\[\]-]*)["']?\s*[:=]\s*["']?([^\s"'`;&|<>,(){}\[\]\\]+)"#,
    ),
    // A flag and its value (`--password hunter2`, `--token=…`).
    Pattern::new(
        STEM_WORDS,
        true,
        r#"--(?P<name>[\w-]*STEM[\w-]*)[ =]["']?([^-\s"'`;&|<>\\][^\s"'`;&|<>\\]*)"#,
    ),
    // Credentials in request headers.
    Pattern::new(
        &["authorization"],
        true,
        r#"(?i)(?:proxy-)?authorization\s*:\s*(?:(?:bearer|basic|token|digest)\s+)?([^\s"'`\\]+)"#,
    ),
    Pattern::new(
        &["api-key", "private-token", "auth-token", "cookie"],
        true,
        r#"(?i)(?:x-api-key|api-key|private-token|x-auth-token|cookie)\s*:\s*([^\s"'`\\]+)"#,
    ),
];

/// Whether a value is left as it is: an environment reference or command substitution, a
/// path, or a word that only introduces the credential.
fn kept_value(v: &str) -> bool {
    v.contains(['$', '`'])
        || v.starts_with(['/', '~', '.', '@', '%'])
        || [
            "bearer", "basic", "token", "digest", "true", "false", "null",
        ]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
}

/// `text` with the secrets it holds masked (every letter and digit of the secret part
/// replaced by `0`; see the module documentation), and how many were masked.
pub fn redact_text(text: &str) -> (Cow<'_, str>, usize) {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let lower = text.to_ascii_lowercase();
    for re in TOKENS.iter().filter_map(|p| p.for_text(text, &lower)) {
        for c in re.captures_iter(text) {
            spans.extend(c.iter().skip(1).flatten().map(|m| (m.start(), m.end())));
        }
    }
    for re in PLACES.iter().filter_map(|p| p.for_text(text, &lower)) {
        for c in re.captures_iter(text) {
            if c.name("name").is_some_and(|n| !secret_name(n.as_str())) {
                continue;
            }
            let Some(v) = c.iter().skip(1).flatten().last() else {
                continue;
            };
            if kept_value(v.as_str()) {
                continue;
            }
            spans.push((v.start(), v.end()));
        }
    }
    if spans.is_empty() {
        return (Cow::Borrowed(text), 0);
    }
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in spans {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(a, b) in &merged {
        out.push_str(text.get(at..a).unwrap_or(""));
        out.extend(
            text.get(a..b)
                .unwrap_or("")
                .chars()
                .map(|c| if c.is_alphanumeric() { '0' } else { c }),
        );
        at = b;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (Cow::Owned(out), merged.len())
}

/// `value` with every string passed through [`redact_text`] and the string values of keys
/// named like secrets ([`secret_name`]) masked whole (unless an environment reference or a
/// path); and how many values were masked.
pub fn redact(value: &Value) -> (Value, usize) {
    let mut n = 0;
    let v = redact_in(value, false, &mut n);
    (v, n)
}

fn redact_in(value: &Value, secret_key: bool, n: &mut usize) -> Value {
    match value {
        Value::String(s) if secret_key && !s.is_empty() && !kept_value(s) => {
            *n += 1;
            Value::String(
                s.chars()
                    .map(|c| if c.is_alphanumeric() { '0' } else { c })
                    .collect(),
            )
        }
        Value::String(s) => {
            let (r, k) = redact_text(s);
            *n += k;
            Value::String(r.into_owned())
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| redact_in(i, false, n)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), redact_in(v, secret_name(k), n)))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}
