//! The hook path of code mode: an `exec` call judged as the tool calls in its code, merged
//! most-restrictive (see [`judge`]).

use serde_json::Value;

use super::*;
use crate::decision::{Contribution, Outcome, Verdict, merge, merged_verdict};
use crate::policy::CodexAsk;
use crate::seam::Seam;

/// Judge a code-mode `exec` call at `seam` (pre-tool or permission request): `evaluate`
/// judges one payload. `None` when `payload` is not such a call.
///
/// The outer call is judged too (rules about the `exec` tool itself, or about the text of
/// its code, still apply), with its code as `tool_input.code`; then each inner call as the
/// tool it is ([`inner_payload`]). The outcome is the most restrictive of them, each reason
/// of an inner call prefixed with the call (`code mode, tools.exec_command \`rm -rf ~\`:
/// …`); what could not be read adds an ask naming its causes. An inner call's input rewrite
/// is not kept: the code is not rewritten.
pub fn judge(seam: Seam, payload: &Value, evaluate: &dyn Fn(&Value) -> Outcome) -> Option<Outcome> {
    if !matches!(seam, Seam::PreTool | Seam::PermissionRequest) {
        return None;
    }
    let tool = payload.get("tool_name").and_then(Value::as_str)?;
    let code = code_of(tool, payload.get("tool_input")?)?;
    let u = unwrap(code);
    let mut outer = payload.clone();
    if let Some(m) = outer.as_object_mut() {
        let mut input = Map::new();
        input.insert("code".into(), Value::String(code.to_string()));
        m.insert("tool_input".into(), Value::Object(input));
    }
    let mut parts = vec![(None, evaluate(&outer))];
    for (i, call) in u.calls.iter().enumerate() {
        let inner = inner_payload(payload, call, i + 1);
        parts.push((Some(call.label()), evaluate(&inner)));
    }
    Some(merge_parts(seam, parts, &u.unresolved))
}

/// Merge the outcomes of the parts of one call (label, outcome) and the ask for what could
/// not be read.
fn merge_parts(
    seam: Seam,
    parts: Vec<(Option<String>, Outcome)>,
    unresolved: &[Unresolved],
) -> Outcome {
    let mut contributions = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut codex_ask = Vec::new();
    let mut pending_runs = Vec::new();
    let mut hook_runs = Vec::new();
    let mut observed: Option<crate::decision::Observed> = None;
    // The verdict the merge will give: each inner call's reasons that carry it are prefixed
    // with the call, once.
    let mut all: Vec<Contribution> = parts.iter().flat_map(|(_, o)| o.fired.clone()).collect();
    if !unresolved.is_empty() {
        all.push(Contribution::verdict(UNREAD_RULE, Verdict::Ask, None));
    }
    let best = merged_verdict(seam, &all);
    for (label, o) in parts {
        let mut named = false;
        for mut c in o.fired {
            if let (Some(l), Some(r), false) = (&label, &c.reason, named)
                && !c.observe
                && c.verdict == best
            {
                c.reason = Some(format!("code mode, {l}: {r}"));
                named = true;
            }
            contributions.push(c);
        }
        for w in o.warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        codex_ask.extend(o.codex_ask);
        pending_runs.extend(o.pending_runs);
        hook_runs.extend(o.hook_runs);
        if let Some(w) = o.observed
            && observed
                .as_ref()
                .is_none_or(|b| w.verdict.rank(seam) > b.verdict.rank(seam))
        {
            observed = Some(w);
        }
    }
    if !unresolved.is_empty() {
        let mut causes: Vec<&str> = Vec::new();
        for u in unresolved {
            if !causes.contains(&u.cause.as_str()) {
                causes.push(&u.cause);
            }
        }
        contributions.push(Contribution::verdict(
            UNREAD_RULE,
            Verdict::Ask,
            Some(format!(
                "{}: seamguard cannot check this part of the call, so it asks",
                causes.join("; ")
            )),
        ));
        codex_ask.push(CodexAsk::Deny);
    }
    let mut out = merge(seam, contributions);
    out.warnings = warnings;
    out.codex_ask = codex_ask;
    out.pending_runs = pending_runs;
    out.hook_runs = hook_runs;
    out.observed = observed;
    out
}
