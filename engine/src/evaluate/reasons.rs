//! The reason a verdict gets when the rule (or command hook) behind it gives none, and the id
//! of the rule behind the one `ask` about what cannot be resolved.

use crate::decision::Verdict;

/// Rule id of the one `ask` a pre-tool call gets when part of it cannot be resolved (an
/// unknown program word, a computed path, a line that does not parse) and rules whose effect
/// could be involved would otherwise each decide on it: the call is asked about once, with
/// the unresolved part as the reason (DESIGN.md §2, "Never throw into the agent").
pub const UNSURE_RULE: &str = "seamguard:unsure";

/// The reason a verdict gets when its rule gives none.
pub(crate) fn default_reason(v: Verdict, id: &str) -> Option<String> {
    match v {
        Verdict::Deny => Some(format!("Denied by seamguard rule `{id}`")),
        Verdict::Ask => Some(format!("seamguard rule `{id}` asks for approval")),
        Verdict::Defer => Some(format!("Deferred by seamguard rule `{id}`")),
        Verdict::Block => Some(format!("Blocked by seamguard rule `{id}`")),
        _ => None,
    }
}
