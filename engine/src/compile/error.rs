//! Errors of the table compile: patterns that exceed the size limits.
//!
//! In: the failing pattern and the rule that wrote it. Out: a typed error that names the
//! rule and where it was declared (`file:line:column`).

use crate::policy::Source;

/// A pattern of the table that does not compile (size limits). The test it belongs to never
/// holds; in `when` it fails closed at evaluation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// A regex of an indexed test (regex, contains, prefix, string equals) on a field.
    #[error("{at}: rule `{rule}`: regex `{pattern}` on `{field}` does not compile: {message}")]
    IndexedRegex {
        /// The rule's id.
        rule: String,
        /// Where the rule is declared.
        at: Source,
        /// The field the test reads.
        field: String,
        /// The regex as compiled.
        pattern: String,
        /// The compiler's message.
        message: String,
    },
    /// A test compiled on first use (not an index anchor).
    #[error("{at}: rule `{rule}`: the {test} test on `{field}` does not compile")]
    Test {
        /// The rule's id.
        rule: String,
        /// Where the rule is declared.
        at: Source,
        /// `regex` or `glob`.
        test: &'static str,
        /// The field the test reads.
        field: String,
    },
    /// The regex matchers of a seam's rules, compiled together.
    #[error("matcher regexes do not compile together: {message}")]
    Matchers {
        /// The compiler's message.
        message: String,
    },
}
