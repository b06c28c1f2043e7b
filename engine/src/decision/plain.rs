//! The reason of a typed decision: the reasons' own text, without the ` [rule]` that the
//! host-facing text ([`Outcome::reason_text`](super::Outcome::reason_text)) appends — in the
//! embedding API the rule of each reason is a field of its own
//! ([`Outcome::reasons`](super::Outcome::reasons)).
//!
//! In: reason texts in rule order. Out: one line.

use super::Outcome;

impl Outcome {
    /// The reasons' own text for a typed decision: [`plain_reasons`] (no ` [rule]`).
    pub fn plain_reason(&self) -> String {
        plain_reasons(self.reasons.iter().map(|a| a.text.as_str()))
    }
}

/// Reasons joined for a typed decision, as [`join_reasons`](super::join_reasons) joins them
/// for a host (each on one line, the same reason said once, what seamguard could not check
/// said once, distinct reasons joined by `; `), without the ` [rule]`s.
///
/// ```
/// use seamguard_engine::plain_reasons;
///
/// let r = plain_reasons(["No  secrets\nhere.", "No secrets here", "Asks first"].into_iter());
/// assert_eq!(r, "No secrets here.; Asks first");
/// ```
pub fn plain_reasons<'a>(reasons: impl Iterator<Item = &'a str>) -> String {
    super::reasons::join_reasons_as(reasons.map(|t| (t, "")), false)
}
