//! The regexes of a rule's actions (`rewrite` replace, `redact`), compiled once per table on
//! the rule's first firing, not on every evaluation.
//!
//! In: a [`Rule`]'s action. Out: its compiled regexes, or the compiler's message for each
//! that does not compile.

use crate::policy::{Rewrite, Rule};

/// A rule's action regexes, compiled.
#[derive(Debug)]
pub(crate) struct ActionRegexes {
    /// `rewrite = { regex, replace }`.
    pub(crate) rewrite: Option<Result<regex::Regex, String>>,
    /// `redact`, in order (their replacements stay in the rule).
    pub(crate) redact: Vec<Result<regex::Regex, String>>,
}

impl ActionRegexes {
    /// Compile the regexes of `rule`'s action.
    pub(crate) fn compile(rule: &Rule) -> ActionRegexes {
        let rewrite = match &rule.action.rewrite {
            Some(Rewrite::Replace { regex, .. }) => Some(super::regex::single(regex)),
            _ => None,
        };
        let redact = rule
            .action
            .redact
            .iter()
            .map(|r| super::regex::single(&r.regex))
            .collect();
        ActionRegexes { rewrite, redact }
    }
}
