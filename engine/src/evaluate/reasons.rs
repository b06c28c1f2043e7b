//! The reason a verdict gets when the rule (or command hook) behind it gives none.

use crate::decision::Verdict;

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
