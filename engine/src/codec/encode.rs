//! Claude Code and Codex encoding, and the entry points that route every dialect: an
//! [`Outcome`] becomes the narrowest output the host accepts for the event.
//!
//! In: an [`Outcome`], a dialect and (for [`encode_for`]) the judged payload. Out: [`Encoded`].
//! Gemini CLI, Cursor and Copilot CLI are answered by [`super::hosts`].
//!
//! | verdict | Claude Code | Codex |
//! |---|---|---|
//! | pre-tool deny | `permissionDecision: "deny"` + reason | same |
//! | pre-tool ask / defer | `ask` / `defer` + reason | deny with "approval required" reason (`codex_ask = "deny"`, default) or nothing (`"ignore"`) |
//! | pre-tool allow | `allow` (+ `updatedInput`) | nothing, or `allow` + `updatedInput` |
//! | permission allow / deny | `decision.behavior` | same (`updatedInput` dropped) |
//! | prompt block | `decision: "block"` + reason | same |
//! | post-tool block | `decision: "block"` + reason | same (replaces the result) |
//! | post-tool redact | `updatedToolOutput` | `decision: "block"` with the redacted output as reason |
//! | stop continue | `decision: "block"` + reason | same |
//! | halt | `continue: false` + `stopReason` | same where accepted; pre-tool: deny |
//! | contexts | `hookSpecificOutput.additionalContext` | same |

use serde_json::{Map, Value, json};

use super::hosts::{self, HOST_EVENT_KEY};
use super::output::{Encoded, add_context, cap_chars, text_of};
use crate::decision::{ContinuationDecision, Outcome, Verdict};
use crate::dialect::Dialect;
use crate::policy::CodexAsk;
use crate::seam::Seam;

fn claude_keeps_system_message(seam: Seam) -> bool {
    !matches!(
        seam,
        Seam::Notification | Seam::PreCompact | Seam::PostCompact | Seam::SessionEnd
    )
}

fn codex_keeps_universal(seam: Seam) -> bool {
    matches!(
        seam,
        Seam::SessionStart
            | Seam::PreCompact
            | Seam::PostCompact
            | Seam::PromptSubmit
            | Seam::SubagentStop
            | Seam::Stop
            | Seam::SubagentStart
            | Seam::PostTool
    )
}

/// `decision: "block"` with `reason` at the top level of the output.
fn block(top: &mut Map<String, Value>, reason: &str) {
    top.insert("decision".into(), json!("block"));
    top.insert("reason".into(), json!(reason));
}

/// The warning that a prompt rewrite was dropped: `host`'s protocol cannot carry it.
fn rewrite_dropped(host: &str) -> String {
    format!(
        "seamguard: prompt rewrite is not part of the {host} hook protocol; the prompt was passed unchanged"
    )
}

/// The reason Codex receives for an `ask` it cannot express (case CX-01).
pub(crate) fn codex_ask_reason(reason: &str) -> String {
    format!(
        "Approval required: {reason} — Codex hooks cannot ask for confirmation, so seamguard denies; \
         if the call is intended, the user can approve it with `seamguard allow --last` and retry."
    )
}

/// How Codex is answered for an `ask` / `defer` it cannot express: with nothing only when
/// the policy of every rule that asked says `codex_ask = "ignore"`, else with a deny.
fn codex_ask(outcome: &Outcome) -> CodexAsk {
    if !outcome.codex_ask.is_empty() && outcome.codex_ask.iter().all(|a| *a == CodexAsk::Ignore) {
        CodexAsk::Ignore
    } else {
        CodexAsk::Deny
    }
}

/// Encode an outcome for a host.
///
/// The outcome's seam decides the event; an outcome without a seam encodes to nothing.
///
/// # Errors
/// Never fails: every outcome has an encoding in every dialect (what a host cannot express,
/// such as an `ask` in Codex, is mapped per the policy's `codex_ask`).
///
/// # Example
///
/// ```
/// use serde_json::json;
/// use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, encode, load_str};
///
/// let policy = load_str(
///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\nreason = \"no rm -rf\"\n",
///     "inline.toml",
///     Scope::User,
///     0,
/// );
/// let engine = Engine::new(DecisionTable::new(vec![policy]));
/// let payload = json!({
///     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
///     "tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"}
/// });
/// let outcome = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
/// let encoded = encode(&outcome, Dialect::ClaudeCode);
/// assert_eq!(encoded.exit_code, 0);
/// assert!(encoded.stdout.contains("\"permissionDecision\":\"deny\""));
/// ```
pub fn encode(outcome: &Outcome, dialect: Dialect) -> Encoded {
    if matches!(
        dialect,
        Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli
    ) {
        return hosts::encode_host(outcome, dialect, None);
    }
    let mut stderr_lines: Vec<String> = outcome.warnings.clone();
    let Some(seam) = outcome.seam else {
        return Encoded::quiet(&stderr_lines);
    };
    let event = seam.event_name();
    let verdict = outcome.verdict();
    let reason = cap_chars(outcome.reason_text());
    // Contexts pass through whole: the host spills a long one to a file with a preview.
    let context = outcome.context_text();
    let mut top = Map::new();
    let mut hso = Map::new();
    hso.insert("hookEventName".into(), Value::String(event.into()));
    let base_hso_len = hso.len();
    let mut halt = outcome.halt.as_ref().map(|h| cap_chars(h.text.clone()));
    let warn = if outcome.warnings.is_empty() {
        None
    } else {
        Some(cap_chars(outcome.warnings.join("\n")))
    };

    match dialect {
        Dialect::ClaudeCode => {
            match seam {
                Seam::PreTool => {
                    let pd = match verdict {
                        Verdict::Allow => Some("allow"),
                        Verdict::Ask => Some("ask"),
                        Verdict::Defer => Some("defer"),
                        Verdict::Deny => Some("deny"),
                        _ => None,
                    };
                    if let Some(pd) = pd {
                        hso.insert("permissionDecision".into(), json!(pd));
                        if !reason.is_empty() {
                            hso.insert("permissionDecisionReason".into(), json!(reason));
                        }
                        if let (Verdict::Allow | Verdict::Ask, Some(ui)) =
                            (verdict, &outcome.updated_input)
                        {
                            hso.insert("updatedInput".into(), ui.clone());
                        }
                    }
                    add_context(&mut hso, context.as_deref());
                }
                Seam::PermissionRequest => match verdict {
                    Verdict::Allow => {
                        let mut d = Map::new();
                        d.insert("behavior".into(), json!("allow"));
                        if let Some(ui) = &outcome.updated_input {
                            d.insert("updatedInput".into(), ui.clone());
                        }
                        hso.insert("decision".into(), Value::Object(d));
                    }
                    Verdict::Deny => {
                        hso.insert(
                            "decision".into(),
                            json!({"behavior": "deny", "message": reason}),
                        );
                    }
                    _ => {}
                },
                Seam::PromptSubmit => {
                    if verdict == Verdict::Block {
                        block(&mut top, &reason);
                        if outcome.suppress_prompt {
                            top.insert("suppressOriginalPrompt".into(), json!(true));
                        }
                    } else {
                        add_context(&mut hso, context.as_deref());
                    }
                    if outcome.rewritten_prompt.is_some() {
                        stderr_lines.push(rewrite_dropped("Claude Code"));
                    }
                }
                Seam::PostTool => match verdict {
                    Verdict::Block => block(&mut top, &reason),
                    _ => {
                        if let (Verdict::Redact, Some(r)) = (verdict, &outcome.redacted_response) {
                            hso.insert("updatedToolOutput".into(), r.clone());
                        }
                        add_context(&mut hso, context.as_deref());
                    }
                },
                Seam::PostToolFailure | Seam::SessionStart | Seam::SubagentStart => {
                    add_context(&mut hso, context.as_deref());
                }
                Seam::Stop | Seam::SubagentStop => {
                    if let Some(cd) = outcome.continuation()
                        && let ContinuationDecision::Continue { reason } = cd
                    {
                        block(&mut top, &reason);
                    }
                }
                Seam::PreCompact => {
                    if verdict == Verdict::Block {
                        block(&mut top, &reason);
                    } else if let Some(h) = halt.take() {
                        // PreCompact discards `continue`; blocking compaction is the closest effect.
                        block(&mut top, &h);
                    }
                }
                Seam::Notification | Seam::PostCompact | Seam::SessionEnd => {}
            }
            if let Some(h) = halt {
                if matches!(
                    seam,
                    Seam::Notification | Seam::PostCompact | Seam::SessionEnd
                ) {
                    stderr_lines.push(format!(
                        "seamguard: halt requested but {event} cannot stop the agent: {h}"
                    ));
                } else {
                    top.insert("continue".into(), json!(false));
                    top.insert("stopReason".into(), json!(h));
                }
            }
            if let Some(w) = &warn
                && claude_keeps_system_message(seam)
            {
                top.insert("systemMessage".into(), json!(w));
            }
        }
        Dialect::Codex => {
            if !seam.in_codex() {
                stderr_lines.push(format!(
                    "seamguard: {event} is not a Codex event; no output"
                ));
                return Encoded::quiet(&stderr_lines);
            }
            match seam {
                Seam::PreTool => {
                    let deny_reason = match verdict {
                        Verdict::Deny => Some(reason.clone()),
                        Verdict::Ask | Verdict::Defer => match codex_ask(outcome) {
                            CodexAsk::Deny => Some(codex_ask_reason(&reason)),
                            CodexAsk::Ignore => {
                                stderr_lines.push(format!(
                                    "seamguard: `{}` is not a Codex verdict; left to Codex's approval mode (codex_ask = \"ignore\"): {reason}",
                                    verdict.name()
                                ));
                                None
                            }
                        },
                        _ => None,
                    };
                    let deny_reason = deny_reason.or_else(|| halt.take());
                    if let Some(r) = deny_reason {
                        let r = if r.trim().is_empty() {
                            "Denied by seamguard".to_string()
                        } else {
                            r
                        };
                        hso.insert("permissionDecision".into(), json!("deny"));
                        hso.insert("permissionDecisionReason".into(), json!(r));
                    } else if let (Verdict::Allow, Some(ui)) = (verdict, &outcome.updated_input) {
                        hso.insert("permissionDecision".into(), json!("allow"));
                        hso.insert("updatedInput".into(), ui.clone());
                    }
                    add_context(&mut hso, context.as_deref());
                    halt = None;
                }
                Seam::PermissionRequest => {
                    match verdict {
                        Verdict::Allow => {
                            hso.insert("decision".into(), json!({"behavior": "allow"}));
                        }
                        Verdict::Deny => {
                            hso.insert(
                                "decision".into(),
                                json!({"behavior": "deny", "message": reason}),
                            );
                        }
                        _ => {}
                    }
                    halt = None;
                }
                Seam::PromptSubmit => {
                    if verdict == Verdict::Block {
                        block(&mut top, &reason);
                    } else {
                        add_context(&mut hso, context.as_deref());
                    }
                    if outcome.rewritten_prompt.is_some() {
                        stderr_lines.push(rewrite_dropped("Codex"));
                    }
                }
                Seam::PostTool => match verdict {
                    Verdict::Block => block(&mut top, &reason),
                    Verdict::Redact => {
                        // Codex replaces the tool result with a block reason: exactly a redaction.
                        let text = outcome
                            .redacted_response
                            .as_ref()
                            .map(text_of)
                            .unwrap_or_default();
                        let text = if text.trim().is_empty() {
                            "[REDACTED]".to_string()
                        } else {
                            text
                        };
                        block(&mut top, &text);
                    }
                    _ => {
                        add_context(&mut hso, context.as_deref());
                    }
                },
                Seam::SessionStart | Seam::SubagentStart => {
                    add_context(&mut hso, context.as_deref());
                }
                Seam::Stop | Seam::SubagentStop => {
                    if let Some(ContinuationDecision::Continue { reason }) = outcome.continuation()
                    {
                        block(&mut top, &reason);
                    }
                }
                Seam::PreCompact if verdict == Verdict::Block && halt.is_none() => {
                    halt = Some(reason.clone());
                }
                _ => {}
            }
            if let Some(h) = halt {
                if codex_keeps_universal(seam) {
                    top.insert("continue".into(), json!(false));
                    top.insert("stopReason".into(), json!(h));
                } else {
                    stderr_lines.push(format!(
                        "seamguard: halt requested but Codex {event} cannot stop the agent: {h}"
                    ));
                }
            }
            if let Some(w) = &warn
                && seam != Seam::SessionEnd
            {
                top.insert("systemMessage".into(), json!(w));
            }
        }
        // Answered by `hosts::encode_host` above.
        Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli => {}
    }
    if seam == Seam::SessionEnd {
        top.clear();
        hso.retain(|k, _| k == "hookEventName");
    }
    if hso.len() > base_hso_len {
        top.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    Encoded::answer(top, &stderr_lines)
}

/// [`encode`] for the payload the outcome judged: the host's own event name, kept by
/// [`normalize`](super::hosts::normalize) under [`HOST_EVENT_KEY`], picks the answer where a host answers its events
/// differently (Cursor enforces `ask` on `beforeShellExecution` and `beforeMCPExecution`
/// only).
///
/// Cursor sends a shell command or an MCP call twice: as `preToolUse` and as the event of
/// its own (`beforeShellExecution`, `beforeMCPExecution`), where an `ask` is enforced. Only
/// the latter is answered (`answered_elsewhere`): on `preToolUse` the ask would have to be
/// a deny, and Cursor would get two answers for one call.
pub fn encode_for(outcome: &Outcome, dialect: Dialect, payload: &Value) -> Encoded {
    match dialect {
        Dialect::ClaudeCode | Dialect::Codex => encode(outcome, dialect),
        Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli => {
            let host_event = payload.get(HOST_EVENT_KEY).and_then(Value::as_str);
            if answered_elsewhere(dialect, host_event, payload) {
                return Encoded::quiet(&outcome.warnings);
            }
            hosts::encode_host(outcome, dialect, host_event)
        }
    }
}

/// Whether a Cursor `preToolUse` payload is a call Cursor also sends as an event of its own
/// that seamguard answers (a `Shell` command: `beforeShellExecution`; an MCP tool:
/// `beforeMCPExecution`). `seamguard init` hooks both, and `status` reports a missing one.
fn answered_elsewhere(dialect: Dialect, host_event: Option<&str>, payload: &Value) -> bool {
    let tool = payload
        .get("tool_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    dialect == Dialect::Cursor
        && host_event == Some("preToolUse")
        && (tool == "Shell" || tool.starts_with("mcp__") || tool.starts_with("MCP:"))
}
