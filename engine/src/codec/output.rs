//! What seamguard writes to a host: stdout, stderr and exit code, and the cap on the texts in it.
//!
//! In: the JSON object an encoder built and its diagnostics. Out: [`Encoded`], the exact bytes
//! for stdout (nothing, or one JSON object and a newline), the stderr text and exit code 0.

use serde_json::{Map, Value, json};

/// What to write to the host: stdout bytes, stderr text, exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// Exact stdout (empty, or one JSON object and a newline).
    pub stdout: String,
    /// Diagnostics for stderr.
    pub stderr: String,
    /// Process exit code.
    pub exit_code: i32,
}

impl Encoded {
    /// No answer on stdout: only the diagnostics, exit 0.
    pub(crate) fn quiet(stderr_lines: &[String]) -> Encoded {
        Encoded {
            stdout: String::new(),
            stderr: stderr_lines.join("\n"),
            exit_code: 0,
        }
    }

    /// The answer `top` on stdout (nothing when it is empty) and the diagnostics, exit 0.
    pub(crate) fn answer(top: Map<String, Value>, stderr_lines: &[String]) -> Encoded {
        let stdout = if top.is_empty() {
            String::new()
        } else {
            format!("{}\n", Value::Object(top))
        };
        Encoded {
            stdout,
            stderr: stderr_lines.join("\n"),
            exit_code: 0,
        }
    }
}

/// Longest reason / context / message seamguard emits, in characters: well under the hosts'
/// 10,000-character cap (HOOKS.md A2; case HK-18), so nothing of ours is spilled to a file.
pub(crate) const MAX_TEXT_CHARS: usize = 9_000;

/// Cut a text to [`MAX_TEXT_CHARS`] characters (never inside a character).
pub(crate) fn cap_chars(s: String) -> String {
    if s.chars().count() <= MAX_TEXT_CHARS {
        return s;
    }
    let mut t: String = s.chars().take(MAX_TEXT_CHARS - 40).collect();
    t.push_str(" … [truncated by seamguard]");
    t
}

/// `hookSpecificOutput.additionalContext` set to `context`, when there is one.
pub(crate) fn add_context(hso: &mut Map<String, Value>, context: Option<&str>) {
    if let Some(c) = context {
        hso.insert("additionalContext".into(), json!(c));
    }
}

/// A JSON value as text: a string as itself, anything else as its JSON.
pub(crate) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
