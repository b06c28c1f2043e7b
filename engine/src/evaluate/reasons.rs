//! The reason a verdict gets when the rule (or command hook) behind it gives none, and the id
//! of the rule behind the one `ask` about what cannot be resolved, and how that ask names the
//! rules it could concern.

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

/// At most this many rules are named in the reason of the [`UNSURE_RULE`] ask.
const MAX_UNSURE_RULES: usize = 3;

/// The rules an [`UNSURE_RULE`] ask could concern, named: `` `a`, `b`, `c` and 4 more
/// rules ``.
pub(super) fn named_rules(rules: &[&str]) -> String {
    let mut out = rules
        .iter()
        .take(MAX_UNSURE_RULES)
        .map(|r| format!("`{r}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let more = rules.len().saturating_sub(MAX_UNSURE_RULES);
    if more > 0 {
        let plural = if more == 1 { "" } else { "s" };
        out.push_str(&format!(" and {more} more rule{plural}"));
    }
    out
}
