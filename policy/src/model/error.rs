//! Policy diagnostics: an error or warning at `file:line:column`, rendered with its source
//! line.
//!
//! In: nothing (types only, filled by `lower`). Out: [`PolicyError`], [`Severity`].

use std::fmt;
use std::sync::Arc;

/// Severity of a policy diagnostic; displayed as `error` / `warning`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    /// The rule (or file) is not loaded.
    Error,
    /// Loaded, but probably not what was meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A diagnostic pointing at `file:line:column`; displayed as
/// `file:line:column: error: message` (or `warning:`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[error("{file}:{line}:{column}: {severity}: {message}")]
pub struct PolicyError {
    /// Error or warning.
    pub severity: Severity,
    /// File path.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, on one line.
    pub message: String,
    /// The source line, for display.
    pub snippet: Option<String>,
    /// How many characters from `column` the diagnostic underlines (at least 1).
    #[serde(default = "one")]
    pub width: usize,
    /// What does not fit on one line: the values that were expected, the regex parser's
    /// explanation. Rendered as a `note` under the source line.
    #[serde(default)]
    pub note: Option<String>,
}

fn one() -> usize {
    1
}

impl PolicyError {
    /// The diagnostic as a terminal shows it: the one-line form (`file:line:column: error:
    /// message`), then the source line with the span underlined and the `note`, drawn by
    /// `annotate-snippets`.
    ///
    /// ```
    /// use seamguard_policy::{load_str, Scope};
    ///
    /// let p = load_str("[[rule]]\nid = \"a\"\nseam = \"stop\"\nhalt = 1\n", "p.toml", Scope::User, 0);
    /// assert_eq!(
    ///     p.diagnostics[0].render(),
    ///     "p.toml:4:8: error: `halt`: expected a string, found an integer\n  |\n4 | halt = 1\n  |        ^"
    /// );
    /// ```
    pub fn render(&self) -> String {
        use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

        let mut out = self.to_string();
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut group = Group::with_level(level.clone());
        if let Some(line) = &self.snippet {
            let byte = |chars: usize| {
                line.char_indices()
                    .nth(chars)
                    .map_or(line.len(), |(i, _)| i)
            };
            let start = byte(self.column.saturating_sub(1));
            let end = byte(self.column.saturating_sub(1) + self.width.max(1)).max(start);
            group = group.element(
                Snippet::source(line.as_str())
                    .line_start(self.line)
                    .annotation(AnnotationKind::Primary.span(start..end)),
            );
        }
        if let Some(note) = &self.note {
            group = group.element(Level::NOTE.message(note.as_str()));
        }
        if self.snippet.is_some() || self.note.is_some() {
            out.push('\n');
            out.push_str(&Renderer::plain().render(&[group]));
        }
        out
    }
}
