//! Approvals per concern: an ask the person answered is not asked again in the session.
//!
//! After evaluation, a pre-tool `ask` whose every concern (rule and object, see
//! [`seamguard_engine::concern`]) is covered by an approval of the same session is allowed
//! instead ([`apply`]); the audit record of the call says which approval allowed it
//! ([`annotate`]). Approvals come from the host (the asked call ran:
//! [`crate::session_memory`]) or from `seamguard allow --last`.
//!
//! What an approval never does: lift a deny (the merge put it above the ask already, and only
//! an outcome whose verdict is exactly `ask` is looked at); lift the ask of a call seamguard
//! could not read at all ([`crate::grants::unreadable_unsure`]); lift an ask of a managed
//! (`/etc/seamguard`) policy; cross sessions (a grant does that, `seamguard allow --always`).

use serde_json::{Value, json};

use seamguard_engine::concern::Concern;
use seamguard_engine::{Attributed, Dialect, Outcome, Scope, Seam, Verdict};

use crate::session_memory::Session;

/// The rule id an approval's allow is attributed to.
pub(crate) const APPROVAL_RULE: &str = "seamguard:approval";

/// The approval that lifted an ask.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Applied {
    /// The id of the approved call (`tool_use_id`), or the audit record it was approved from.
    pub(crate) call: String,
    /// When it was approved (Unix ms).
    pub(crate) ms: u64,
    /// How: `ran` or `allow`.
    pub(crate) by: String,
}

/// After evaluation: lift a pre-tool `ask` to `allow` when the session approved every concern
/// it raises. Never changes any other verdict.
pub(crate) fn apply(
    outcome: &mut Outcome,
    payload: &Value,
    seam: Seam,
    session: &Session,
    concerns: &[Concern],
) -> Option<Applied> {
    if seam != Seam::PreTool || !may_approve(outcome, payload) || concerns.is_empty() {
        return None;
    }
    let a = session.approval_for(concerns)?;
    let applied = Applied {
        call: a.call.to_string(),
        ms: a.ms,
        by: a.by.to_string(),
    };
    let how = if applied.by == "allow" {
        "with seamguard allow"
    } else {
        "the asked call ran"
    };
    let provenance = format!("{how}: {}, {}", applied.call, ago(applied.ms));
    allow(outcome, concerns, &provenance);
    Some(applied)
}

/// Whether an approval may answer the ask of `outcome`: its verdict is exactly `ask`, the
/// call is one seamguard could read, and no managed policy asked.
pub(crate) fn may_approve(outcome: &Outcome, payload: &Value) -> bool {
    if outcome.verdict() != Verdict::Ask {
        return false;
    }
    let asking: Vec<&seamguard_engine::Contribution> = outcome
        .fired
        .iter()
        .filter(|c| !c.observe && c.verdict == Verdict::Ask)
        .collect();
    let rules: Vec<&str> = asking.iter().map(|c| c.rule.as_str()).collect();
    !crate::grants::unreadable_unsure(&rules, crate::grants::full_subject(payload))
        && !asking
            .iter()
            .any(|c| c.source.as_ref().is_some_and(|s| s.scope == Scope::Managed))
}

/// Turn the ask of `outcome` into an allow by approval; `provenance` says which approval
/// (`the asked call ran: toolu_1, 3 s ago`).
pub(crate) fn allow(outcome: &mut Outcome, concerns: &[Concern], provenance: &str) {
    let said = concerns
        .iter()
        .map(Concern::describe)
        .collect::<Vec<_>>()
        .join("; ");
    outcome.verdict = Some(Verdict::Allow);
    outcome.codex_ask.clear();
    outcome.reasons = vec![Attributed {
        text: format!("approved earlier in this session ({provenance}): {said}"),
        rule: APPROVAL_RULE.to_string(),
        source: None,
    }];
}

/// Whether the person sees an ask of this pre-tool call and a later report that the call ran
/// means they said yes, so the ask may be learned from ([`crate::session_memory`]).
///
/// Only Claude Code (and the hosts that speak its protocol) shows a hook's `ask` as a prompt
/// and then reports the call with the same `tool_use_id` (HOOKS.md: `PostToolUse`,
/// `PostToolUseFailure`), and not in the modes where no prompt is shown
/// (`bypassPermissions`, `dontAsk`). Codex has no ask: an ask is denied by default
/// (`codex_ask = "deny"`) or left to Codex's own approval mode (`"ignore"`), so a call that
/// ran there says nothing about the person. Gemini CLI, Cursor and Copilot CLI ask but report
/// no id of the asked call afterwards. On those hosts approvals come from `seamguard allow`.
pub(crate) fn host_asks(dialect: Dialect, payload: &Value) -> bool {
    dialect == Dialect::ClaudeCode
        && !matches!(
            payload.get("permission_mode").and_then(Value::as_str),
            Some("bypassPermissions" | "dontAsk")
        )
}

/// `12 s ago`, `5 min ago`, `2 h ago`.
fn ago(ms: u64) -> String {
    let s = seamguard_engine::audit::now_ms().saturating_sub(ms) / 1000;
    match s {
        0..=119 => format!("{s} s ago"),
        120..=7199 => format!("{} min ago", s / 60),
        _ => format!("{} h ago", s / 3600),
    }
}

/// Add to the evaluation's `hook/result` record (the last one): `concerns` of an answer that
/// asks, or of an ask an approval or a grant lifted (each in words and as data), with the
/// host's `call_id` (`tool_use_id`), and `approval` (`{call, ms, by}`) when an approval allowed
/// the call.
pub(crate) fn annotate(
    records: &mut [Value],
    call_id: Option<&str>,
    asked: &[Concern],
    applied: Option<&Applied>,
) {
    let Some(Value::Object(last)) = records.last_mut() else {
        return;
    };
    if !asked.is_empty() {
        if let Some(id) = call_id {
            last.insert("call_id".into(), json!(id));
        }
        let masked: Vec<Value> = asked
            .iter()
            .map(|c| {
                let described = c.describe();
                let said = seamguard_engine::audit::redact_text(&described)
                    .0
                    .into_owned();
                let mut v = serde_json::to_value(c).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert("said".into(), json!(said));
                }
                // Secrets masked as in the rest of the record.
                seamguard_engine::audit::redact(&v).0
            })
            .collect();
        last.insert("concerns".into(), Value::Array(masked));
    }
    if let Some(a) = applied {
        last.insert(
            "approval".into(),
            json!({"call": a.call, "ms": a.ms, "by": a.by}),
        );
    }
}
