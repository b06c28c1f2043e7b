//! Decoding of command-hook output: a command hook's stdout / stderr / exit code read the way
//! its host reads it (HOOKS.md A5, B3).
//!
//! In: the dialect, the seam, the exit code and the output of one run. Out: a
//! [`HookResponse`] (its verdict, reason, context, rewrite, or why it is invalid).

use serde_json::{Map, Value};

use crate::decision::Verdict;
use crate::dialect::Dialect;
use crate::seam::Seam;

/// A command hook's answer, decoded the way its host reads it (HOOKS.md A5, B3).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HookResponse {
    /// Verdict the host would apply (abstain when none).
    pub verdict: Option<Verdict>,
    /// Reason / message / continuation prompt.
    pub reason: Option<String>,
    /// Additional context for the model (JSON field or plain stdout where the host adds it).
    pub context: Option<String>,
    /// `continue: false` with this stop reason.
    pub halt: Option<String>,
    /// `systemMessage`.
    pub system_message: Option<String>,
    /// `updatedInput` (pre-tool allow/ask, permission allow).
    pub updated_input: Option<Value>,
    /// Why the hook counts as failed or its output was discarded (non-blocking error).
    pub error: Option<String>,
}

impl HookResponse {
    fn failed(msg: impl Into<String>) -> HookResponse {
        HookResponse {
            error: Some(msg.into()),
            ..HookResponse::default()
        }
    }

    /// The verdict, abstain when none.
    pub fn verdict(&self) -> Verdict {
        self.verdict.unwrap_or(Verdict::Abstain)
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// What `decision: "block"` means at `seam`: the stop seams continue the agent, the others
/// block.
fn block_verdict(seam: Seam) -> Verdict {
    if matches!(seam, Seam::Stop | Seam::SubagentStop) {
        Verdict::Continue
    } else {
        Verdict::Block
    }
}

/// `additionalContext` of a `hookSpecificOutput` object, when there is one.
fn context_of(hso: Option<&Map<String, Value>>) -> Result<Option<String>, String> {
    hso.map_or(Ok(None), |h| str_field(h, "additionalContext"))
}

fn str_field(m: &Map<String, Value>, k: &str) -> Result<Option<String>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{k}` must be a string")),
    }
}

/// Decode one command hook run.
///
/// `exit_code` is `None` when the hook timed out or was killed by a signal (the output is
/// then discarded). Non-UTF-8 output is read lossily (U+FFFD), as the hosts do.
pub fn decode_hook_output(
    dialect: Dialect,
    seam: Seam,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookResponse {
    let out = String::from_utf8_lossy(stdout);
    let err = String::from_utf8_lossy(stderr);
    match dialect {
        Dialect::ClaudeCode => decode_claude(seam, exit_code, &out, &err),
        Dialect::Codex => decode_codex(seam, exit_code, &out, &err),
        // Hooks of these hosts are not imported; a hook run in their session is read by the
        // Claude Code rules (exit 2 blocks, JSON on exit 0), the protocol they descend from.
        Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli => {
            decode_claude(seam, exit_code, &out, &err)
        }
    }
}

fn decode_claude(seam: Seam, exit_code: Option<i32>, out: &str, err: &str) -> HookResponse {
    let Some(code) = exit_code else {
        return HookResponse::failed("hook timed out or was killed; output discarded, no decision");
    };
    let trimmed = out.trim_start();
    // A5.1: `{` → JSON (if it parses), anything else is plain text.
    let mut looks_like_json_error: Option<String> = None;
    let parsed: Option<Result<HookResponse, String>> = if trimmed.starts_with('{') {
        match serde_json::from_str::<Value>(out.trim()) {
            Ok(Value::Object(m)) => Some(claude_json(seam, &m)),
            Ok(_) => None,
            Err(e) => {
                // A5.1: the host reads it as plain text; a decision in it is lost (case HK-18).
                looks_like_json_error = Some(format!(
                    "stdout starts with `{{` but is not valid JSON ({e}); the host reads it as plain text, any decision in it is lost"
                ));
                None
            }
        }
    } else {
        None
    };
    if code == 2 {
        let blocking_reason = match &parsed {
            Some(Ok(r)) if r.reason.as_deref().is_some_and(|s| !s.is_empty()) => r.reason.clone(),
            _ => Some(err.trim().to_string()),
        };
        let mut r = HookResponse {
            reason: blocking_reason,
            ..HookResponse::default()
        };
        r.verdict = match seam {
            Seam::PreTool => Some(Verdict::Deny),
            Seam::PromptSubmit | Seam::PreCompact | Seam::PostTool => Some(Verdict::Block),
            Seam::Stop | Seam::SubagentStop => Some(Verdict::Continue),
            Seam::PostToolFailure => {
                r.context = r.reason.take();
                None
            }
            Seam::PermissionRequest => {
                r.reason = None;
                r.error = Some("exit 2 is ignored on PermissionRequest (stderr discarded)".into());
                None
            }
            _ => {
                r.system_message = r.reason.take();
                None
            }
        };
        if let Some(Err(e)) = parsed {
            r.error = Some(format!(
                "JSON output failed validation ({e}); exit 2 blocks with stderr"
            ));
        }
        return r;
    }
    match parsed {
        Some(Ok(r)) => r,
        Some(Err(e)) => HookResponse::failed(format!("hook error: {e}")),
        None if code != 0 => HookResponse::failed(format!(
            "Failed with non-blocking status code: {}",
            first_line(err.trim())
        )),
        None => {
            let text = out.trim();
            let mut r =
                if !text.is_empty() && matches!(seam, Seam::PromptSubmit | Seam::SessionStart) {
                    HookResponse {
                        context: Some(text.to_string()),
                        ..HookResponse::default()
                    }
                } else {
                    HookResponse::default()
                };
            r.error = looks_like_json_error;
            r
        }
    }
}

fn claude_json(seam: Seam, m: &Map<String, Value>) -> Result<HookResponse, String> {
    let event = seam.event_name();
    let mut r = HookResponse::default();
    if let Some(Value::Bool(false)) = m.get("continue") {
        r.halt = Some(str_field(m, "stopReason")?.unwrap_or_default());
    }
    r.system_message = str_field(m, "systemMessage")?;
    let hso = match m.get("hookSpecificOutput") {
        None => None,
        Some(Value::Object(h)) => {
            match h.get("hookEventName") {
                Some(Value::String(n)) if n == event => {}
                Some(Value::String(n)) => {
                    return Err(format!(
                        "hookSpecificOutput.hookEventName is `{n}`, expected `{event}`"
                    ));
                }
                _ => return Err("hookSpecificOutput.hookEventName is missing".into()),
            }
            Some(h)
        }
        Some(_) => return Err("hookSpecificOutput must be an object".into()),
    };
    r.context = context_of(hso)?;
    let top_decision = str_field(m, "decision")?;
    let top_reason = str_field(m, "reason")?;
    match seam {
        Seam::PreTool => {
            if let Some(h) = hso
                && let Some(pd) = str_field(h, "permissionDecision")?
            {
                r.verdict = Some(match pd.as_str() {
                    "allow" => Verdict::Allow,
                    "deny" => Verdict::Deny,
                    "ask" => Verdict::Ask,
                    "defer" => Verdict::Defer,
                    o => return Err(format!("unknown permissionDecision `{o}`")),
                });
                r.reason = str_field(h, "permissionDecisionReason")?;
                r.updated_input = h.get("updatedInput").cloned();
            }
            if r.verdict.is_none() {
                match top_decision.as_deref() {
                    Some("approve") => r.verdict = Some(Verdict::Allow),
                    Some("block") => r.verdict = Some(Verdict::Deny),
                    Some(o) => {
                        return Err(format!(
                            "top-level decision `{o}` is not `approve` or `block`"
                        ));
                    }
                    None => {}
                }
                if r.verdict.is_some() {
                    r.reason = top_reason;
                }
            }
            if r.verdict.is_none() {
                // Case HK-05: a decision in the wrong place is silently ignored by the host;
                // seamguard says so instead of treating it as "no opinion".
                let misplaced = ["permissionDecision", "permissionDecisionReason"]
                    .into_iter()
                    .find(|k| m.contains_key(*k));
                if let Some(k) = misplaced {
                    r.error = Some(format!(
                        "`{k}` at the top level is not a PreToolUse control field (it belongs in hookSpecificOutput); the host ignores it, so no decision"
                    ));
                }
            }
        }
        Seam::PermissionRequest => {
            if let Some(Value::Object(d)) = hso.and_then(|h| h.get("decision")) {
                match str_field(d, "behavior")?.as_deref() {
                    Some("allow") => {
                        r.verdict = Some(Verdict::Allow);
                        r.updated_input = d.get("updatedInput").cloned();
                    }
                    Some("deny") => {
                        r.verdict = Some(Verdict::Deny);
                        r.reason = str_field(d, "message")?;
                    }
                    Some(o) => return Err(format!("unknown decision.behavior `{o}`")),
                    None => return Err("decision.behavior is missing".into()),
                }
            }
        }
        Seam::PromptSubmit
        | Seam::PostTool
        | Seam::PreCompact
        | Seam::Stop
        | Seam::SubagentStop => {
            match top_decision.as_deref() {
                Some("block") => {
                    r.verdict = Some(block_verdict(seam));
                    r.reason = top_reason;
                }
                Some(o) => return Err(format!("top-level decision `{o}` is not `block`")),
                None => {}
            }
            if matches!(seam, Seam::Stop | Seam::SubagentStop)
                && r.verdict.is_none()
                && let Some(c) = r.context.take()
            {
                // Stop additionalContext is non-error feedback that also continues.
                r.verdict = Some(Verdict::Continue);
                r.reason = Some(c);
            }
        }
        _ => {}
    }
    Ok(r)
}

fn check_keys(m: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!(
                "unknown field `{k}` in {what} (Codex rejects unknown keys)"
            ));
        }
    }
    Ok(())
}

fn decode_codex(seam: Seam, exit_code: Option<i32>, out: &str, err: &str) -> HookResponse {
    let Some(code) = exit_code else {
        return HookResponse::failed("hook timed out or was killed: failed (fails open)");
    };
    if code == 2 {
        let reason = err.trim();
        if reason.is_empty() {
            return HookResponse::failed(
                "exit 2 with empty stderr: failed, not blocked (fails open)",
            );
        }
        let verdict = match seam {
            Seam::PreTool | Seam::PermissionRequest => Verdict::Deny,
            Seam::PromptSubmit | Seam::PostTool => Verdict::Block,
            Seam::Stop | Seam::SubagentStop => Verdict::Continue,
            _ => return HookResponse::failed("exit 2 has no blocking meaning on this event"),
        };
        return HookResponse {
            verdict: Some(verdict),
            reason: Some(reason.to_string()),
            ..HookResponse::default()
        };
    }
    if code != 0 {
        return HookResponse::failed(format!("hook exited with code {code}: failed (fails open)"));
    }
    let text = out.trim();
    if text.is_empty() {
        return HookResponse::default();
    }
    if text.starts_with('{') || text.starts_with('[') {
        return match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => codex_json(seam, &m).unwrap_or_else(|e| {
                HookResponse::failed(format!("invalid {} JSON output: {e}", seam.event_name()))
            }),
            _ => HookResponse::failed(format!(
                "invalid {} JSON output: not a JSON object",
                seam.event_name()
            )),
        };
    }
    match seam {
        Seam::SessionStart | Seam::PromptSubmit | Seam::SubagentStart => HookResponse {
            context: Some(text.to_string()),
            ..HookResponse::default()
        },
        Seam::Stop | Seam::SubagentStop => HookResponse::failed(
            "plain text output is invalid for Stop/SubagentStop: JSON required",
        ),
        _ => HookResponse::default(),
    }
}

fn codex_json(seam: Seam, m: &Map<String, Value>) -> Result<HookResponse, String> {
    let event = seam.event_name();
    const UNIVERSAL: &[&str] = &["continue", "stopReason", "systemMessage", "suppressOutput"];
    let (top_allowed, hso_allowed): (Vec<&str>, &[&str]) = match seam {
        Seam::PreTool => (
            vec![
                "systemMessage",
                "continue",
                "stopReason",
                "suppressOutput",
                "decision",
                "reason",
                "hookSpecificOutput",
            ],
            &[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ],
        ),
        Seam::PermissionRequest => (
            vec![
                "systemMessage",
                "continue",
                "stopReason",
                "suppressOutput",
                "hookSpecificOutput",
            ],
            &["hookEventName", "decision"],
        ),
        Seam::PostTool => (
            [UNIVERSAL, &["decision", "reason", "hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext", "updatedMCPToolOutput"],
        ),
        Seam::PromptSubmit => (
            [UNIVERSAL, &["decision", "reason", "hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext"],
        ),
        Seam::Stop | Seam::SubagentStop => ([UNIVERSAL, &["decision", "reason"]].concat(), &[]),
        Seam::SessionStart | Seam::SubagentStart => (
            [UNIVERSAL, &["hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext"],
        ),
        _ => (UNIVERSAL.to_vec(), &[]),
    };
    check_keys(m, &top_allowed, "the output")?;
    let mut r = HookResponse {
        system_message: str_field(m, "systemMessage")?,
        ..HookResponse::default()
    };
    let stop_reason = str_field(m, "stopReason")?;
    let cont = match m.get("continue") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("`continue` must be a boolean".into()),
    };
    let suppress = matches!(m.get("suppressOutput"), Some(Value::Bool(true)));
    if matches!(seam, Seam::PreTool | Seam::PermissionRequest)
        && (!cont || stop_reason.is_some() || suppress)
    {
        return Err(format!(
            "{event} accepts only `systemMessage` of the universal fields"
        ));
    }
    if !cont {
        r.halt = Some(stop_reason.unwrap_or_default());
    }
    let hso = match m.get("hookSpecificOutput") {
        None => None,
        Some(Value::Object(h)) => {
            check_keys(h, hso_allowed, "hookSpecificOutput")?;
            match h.get("hookEventName") {
                Some(Value::String(n)) if n == event => {}
                _ => {
                    return Err(format!(
                        "hookSpecificOutput.hookEventName must be `{event}`"
                    ));
                }
            }
            Some(h)
        }
        Some(_) => return Err("hookSpecificOutput must be an object".into()),
    };
    r.context = context_of(hso)?;
    let decision = str_field(m, "decision")?;
    let reason = str_field(m, "reason")?;
    let nonempty = |s: &Option<String>| s.as_deref().is_some_and(|x| !x.trim().is_empty());
    match seam {
        Seam::PreTool => {
            let pd = hso
                .map(|h| str_field(h, "permissionDecision"))
                .transpose()?
                .flatten();
            let pdr = hso
                .map(|h| str_field(h, "permissionDecisionReason"))
                .transpose()?
                .flatten();
            let ui = hso.and_then(|h| h.get("updatedInput")).cloned();
            match pd.as_deref() {
                Some("deny") => {
                    if !nonempty(&pdr) {
                        return Err("deny needs a non-empty permissionDecisionReason".into());
                    }
                    r.verdict = Some(Verdict::Deny);
                    r.reason = pdr;
                }
                Some("allow") => {
                    let Some(ui) = ui else {
                        return Err(
                            "unsupported permissionDecision:allow without updatedInput".into()
                        );
                    };
                    r.verdict = Some(Verdict::Allow);
                    r.updated_input = Some(ui);
                }
                Some(o) => return Err(format!("unsupported permissionDecision:{o}")),
                None => {
                    if ui.is_some() {
                        return Err("updatedInput without permissionDecision:allow".into());
                    }
                    if pdr.is_some() {
                        return Err("permissionDecisionReason without a decision".into());
                    }
                }
            }
            match decision.as_deref() {
                Some("block") if r.verdict.is_none() => {
                    if !nonempty(&reason) {
                        return Err("decision:block needs a non-empty reason".into());
                    }
                    r.verdict = Some(Verdict::Deny);
                    r.reason = reason;
                }
                Some(o) if o != "block" => return Err(format!("unsupported decision:{o}")),
                None if reason.is_some() => return Err("reason without decision".into()),
                _ => {}
            }
        }
        Seam::PermissionRequest => {
            if let Some(d) = hso.and_then(|h| h.get("decision")) {
                let Value::Object(d) = d else {
                    return Err("decision must be an object".into());
                };
                if d.contains_key("updatedInput")
                    || d.contains_key("updatedPermissions")
                    || matches!(d.get("interrupt"), Some(Value::Bool(true)))
                {
                    return Err("updatedInput / updatedPermissions / interrupt are not supported: no decision".into());
                }
                check_keys(d, &["behavior", "message", "interrupt"], "decision")?;
                match str_field(d, "behavior")?.as_deref() {
                    Some("allow") => r.verdict = Some(Verdict::Allow),
                    Some("deny") => {
                        r.verdict = Some(Verdict::Deny);
                        r.reason = Some(
                            str_field(d, "message")?.unwrap_or_else(|| "Denied by hook".into()),
                        );
                    }
                    _ => return Err("decision.behavior must be `allow` or `deny`".into()),
                }
            }
        }
        Seam::PostTool | Seam::PromptSubmit | Seam::Stop | Seam::SubagentStop => {
            match decision.as_deref() {
                Some("block") => {
                    if !nonempty(&reason) {
                        return Err("decision:block needs a non-empty reason".into());
                    }
                    r.verdict = Some(block_verdict(seam));
                    r.reason = reason;
                }
                Some(o) => return Err(format!("unsupported decision:{o}")),
                None if reason.is_some() && cont => return Err("reason without decision".into()),
                None => {}
            }
        }
        _ => {}
    }
    Ok(r)
}
