//! The Gemini CLI, Cursor and GitHub Copilot CLI dialects (HOSTS.md §1).
//!
//! **Decoding** ([`normalize`]): a host payload becomes the common payload every seam is
//! judged on (`hook_event_name` of the seam, `session_id`, `cwd`, `tool_name`, `tool_input`,
//! …). The host's tool names are kept (`run_shell_command`, `Shell`, `bash`): the effect
//! lenses and tool matchers know them from one table ([`crate::effects::host_tools`]). The
//! host's own event name is kept in [`HOST_EVENT_KEY`], since an answer depends on it (Cursor
//! enforces `ask` on some events only).
//!
//! **Encoding** ([`encode_host`]): the narrowest output the host accepts for the event, exit 0
//! with JSON; nothing on stdout when seamguard has no opinion. Where the host does not
//! enforce `ask` (Cursor `preToolUse` and `beforeReadFile`), an ask becomes a deny whose
//! reason says how to approve the call (`seamguard allow --last`), the rule Codex follows.
//!
//! | verdict | Gemini CLI `BeforeTool` | Cursor shell / MCP | Cursor `preToolUse` / `beforeReadFile` | Copilot CLI `preToolUse` |
//! |---|---|---|---|---|
//! | deny | `decision: "deny"` + `reason` | `permission: "deny"` + `user_message`, `agent_message` | same (`beforeReadFile`: `user_message` only) | `permissionDecision: "deny"` + reason |
//! | ask / defer | `decision: "ask"` + `reason` | `permission: "ask"` + messages | deny + how to approve | `permissionDecision: "ask"` + reason |
//! | allow | `decision: "allow"` (+ `hookSpecificOutput.tool_input`) | `permission: "allow"` | same | `permissionDecision: "allow"` (+ `modifiedArgs`) |
//! | no opinion | nothing | nothing | nothing | nothing |
//!
//! Other events: Gemini `BeforeAgent` / `AfterTool` / `AfterAgent` block with
//! `decision: "deny"` + `reason` and take `hookSpecificOutput.additionalContext`; a redaction
//! is `hookSpecificOutput.tool_output`; a halt is `continue: false` + `stopReason` where Gemini
//! honours flow control (not on `SessionStart`, `SessionEnd`, `Notification`, `PreCompress`).
//! Cursor `beforeSubmitPrompt` blocks with `continue: false` + `user_message`, `stop`
//! continues with `followup_message`. Copilot CLI reads no answer outside `preToolUse`.

use serde_json::{Map, Value, json};

use super::output::{Encoded, add_context, cap_chars, text_of};
use crate::decision::{ContinuationDecision, Outcome, Verdict};
use crate::dialect::Dialect;
use crate::seam::Seam;

/// The key under which [`normalize`] keeps the host's own event name.
pub const HOST_EVENT_KEY: &str = "host_hook_event_name";

/// Gemini CLI event names and the seam event each is judged as.
const GEMINI_EVENTS: &[(&str, &str)] = &[
    ("BeforeTool", "PreToolUse"),
    ("AfterTool", "PostToolUse"),
    ("BeforeAgent", "UserPromptSubmit"),
    ("AfterAgent", "Stop"),
    ("SessionStart", "SessionStart"),
    ("SessionEnd", "SessionEnd"),
    ("Notification", "Notification"),
    ("PreCompress", "PreCompact"),
];

/// Cursor event names and the seam event each is judged as.
const CURSOR_EVENTS: &[(&str, &str)] = &[
    ("preToolUse", "PreToolUse"),
    ("beforeShellExecution", "PreToolUse"),
    ("beforeMCPExecution", "PreToolUse"),
    ("beforeReadFile", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("beforeSubmitPrompt", "UserPromptSubmit"),
    ("stop", "Stop"),
    ("sessionStart", "SessionStart"),
    ("sessionEnd", "SessionEnd"),
];

/// GitHub Copilot CLI event names (the camelCase configuration) and the seam event each is
/// judged as. Its payloads carry no event name: [`normalize`] reads the event from the fields.
const COPILOT_EVENTS: &[(&str, &str)] = &[
    ("preToolUse", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("sessionStart", "SessionStart"),
    ("sessionEnd", "SessionEnd"),
];

/// The host's own event names that seamguard judges, each with the seam event it is judged
/// as (the events `seamguard init` registers for the host); empty for Claude Code and Codex,
/// whose event names are the seam event names.
///
/// ```
/// use seamguard_engine::{Dialect, codec::judged_host_events};
/// assert!(judged_host_events(Dialect::Cursor).contains(&("beforeShellExecution", "PreToolUse")));
/// assert_eq!(judged_host_events(Dialect::GeminiCli)[0], ("BeforeTool", "PreToolUse"));
/// assert!(judged_host_events(Dialect::Codex).is_empty());
/// ```
pub fn judged_host_events(dialect: Dialect) -> &'static [(&'static str, &'static str)] {
    match dialect {
        Dialect::GeminiCli => GEMINI_EVENTS,
        Dialect::Cursor => CURSOR_EVENTS,
        Dialect::CopilotCli => COPILOT_EVENTS,
        Dialect::ClaudeCode | Dialect::Codex => &[],
    }
}

/// The Cursor events whose `ask` the host enforces (HOSTS.md §1: "`ask` only on shell and
/// MCP events").
const CURSOR_ASK_EVENTS: &[&str] = &["beforeShellExecution", "beforeMCPExecution"];

/// The seam event a host event is judged as, if seamguard judges it.
fn seam_event(dialect: Dialect, host_event: &str) -> Option<&'static str> {
    let table = match dialect {
        Dialect::GeminiCli => GEMINI_EVENTS,
        Dialect::Cursor => CURSOR_EVENTS,
        _ => return None,
    };
    table
        .iter()
        .find(|(h, _)| *h == host_event)
        .map(|(_, s)| *s)
}

/// The host event of a seam (the first host event judged as it).
fn host_event_of(dialect: Dialect, seam: Seam) -> Option<&'static str> {
    let table = match dialect {
        Dialect::GeminiCli => GEMINI_EVENTS,
        Dialect::Cursor => CURSOR_EVENTS,
        _ => return None,
    };
    table
        .iter()
        .find(|(_, s)| *s == seam.event_name())
        .map(|(h, _)| *h)
}

/// Rewrite a host payload into the common payload its seam is judged on.
///
/// Claude Code and Codex payloads are returned unchanged. A host event seamguard does not
/// judge keeps its name (and is then no opinion, as any unknown event).
///
/// # Errors
/// A payload that is not an object, or a Copilot CLI `toolArgs` that is not JSON: the call
/// cannot be judged as the host sent it.
///
/// # Example
///
/// ```
/// use seamguard_engine::{Dialect, codec::normalize};
/// let gemini = serde_json::json!({
///     "session_id": "s", "cwd": "/w", "hook_event_name": "BeforeTool",
///     "tool_name": "run_shell_command", "tool_input": {"command": "ls"}
/// });
/// let p = normalize(&gemini, Dialect::GeminiCli).unwrap();
/// assert_eq!(p["hook_event_name"], "PreToolUse");
/// assert_eq!(p["host_hook_event_name"], "BeforeTool");
/// ```
pub fn normalize(payload: &Value, dialect: Dialect) -> Result<Value, String> {
    if matches!(dialect, Dialect::ClaudeCode | Dialect::Codex) {
        return Ok(payload.clone());
    }
    let Value::Object(m) = payload else {
        return Err(format!("a {dialect} hook payload must be a JSON object"));
    };
    let mut out = m.clone();
    match dialect {
        Dialect::GeminiCli => gemini(&mut out),
        Dialect::Cursor => cursor(&mut out)?,
        Dialect::CopilotCli => copilot(&mut out)?,
        Dialect::ClaudeCode | Dialect::Codex => {}
    }
    Ok(Value::Object(out))
}

/// Rename the event of a payload to the seam event it is judged as, keeping the host's name
/// under [`HOST_EVENT_KEY`]; returns the host's event name.
fn rename_event(m: &mut Map<String, Value>, dialect: Dialect) -> Option<String> {
    let host = m.get("hook_event_name")?.as_str()?.to_string();
    if let Some(seam) = seam_event(dialect, &host) {
        m.insert("hook_event_name".into(), json!(seam));
        m.insert(HOST_EVENT_KEY.into(), json!(host));
    }
    Some(host)
}

/// Move `from` to `to` unless `to` is already set.
fn move_key(m: &mut Map<String, Value>, from: &str, to: &str) {
    if !m.contains_key(to)
        && let Some(v) = m.remove(from)
    {
        m.insert(to.into(), v);
    }
}

/// Gemini CLI: the payload is already snake_case (`session_id`, `cwd`, `tool_name`,
/// `tool_input`, `tool_response`, `prompt`, `source`, `reason`); `AfterAgent` names the reply
/// `prompt_response`, `PreCompress` its cause `trigger`.
fn gemini(m: &mut Map<String, Value>) {
    match rename_event(m, Dialect::GeminiCli).as_deref() {
        Some("AfterAgent") => {
            if let Some(r) = m.get("prompt_response").cloned() {
                m.entry("last_assistant_message").or_insert(r);
            }
        }
        Some("SessionStart") => {
            m.entry("source").or_insert(json!("startup"));
        }
        Some("SessionEnd") => {
            m.entry("reason").or_insert(json!("other"));
        }
        _ => {}
    }
}

/// Cursor: `conversation_id` is the session, the first of `workspace_roots` the working
/// folder when no `cwd` is sent; the dedicated events carry their call at the top level.
fn cursor(m: &mut Map<String, Value>) -> Result<(), String> {
    if !m.contains_key("session_id")
        && let Some(c) = m.get("conversation_id").cloned()
    {
        m.insert("session_id".into(), c);
    }
    if !m.contains_key("cwd")
        && let Some(root) = m
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|r| r.first())
            .cloned()
    {
        m.insert("cwd".into(), root);
    }
    let host = rename_event(m, Dialect::Cursor);
    match host.as_deref() {
        Some("beforeShellExecution") => {
            let mut input = Map::new();
            if let Some(c) = m.remove("command") {
                input.insert("command".into(), c);
            }
            if let Some(c) = m.get("cwd").filter(|c| c.is_string()) {
                input.insert("cwd".into(), c.clone());
            }
            m.insert("tool_name".into(), json!("Shell"));
            m.insert("tool_input".into(), Value::Object(input));
        }
        Some("beforeReadFile") => {
            let mut input = Map::new();
            if let Some(p) = m.remove("file_path") {
                input.insert("file_path".into(), p);
            }
            m.insert("tool_name".into(), json!("Read"));
            m.insert("tool_input".into(), Value::Object(input));
        }
        Some("beforeMCPExecution") => {
            let tool = m.get("tool_name").and_then(Value::as_str).unwrap_or("");
            let server = m.get("mcp_server_name").and_then(Value::as_str);
            let name = match server {
                Some(s) if !s.is_empty() && !tool.is_empty() => format!("mcp__{s}__{tool}"),
                _ => format!("MCP:{tool}"),
            };
            m.insert("tool_name".into(), json!(name));
            let input = match m.remove("tool_input") {
                Some(Value::String(s)) => serde_json::from_str(&s).map_err(|e| {
                    format!("the tool_input of beforeMCPExecution is not JSON ({e})")
                })?,
                Some(v) => v,
                None => json!({}),
            };
            m.insert("tool_input".into(), input);
        }
        Some("preToolUse") => {
            // `MCP:<tool>` with its server named: the MCP tool name every MCP rule reads.
            let server = m.get("mcp_server_name").and_then(Value::as_str);
            let tool = m.get("tool_name").and_then(Value::as_str);
            if let (Some(s), Some(t)) = (server, tool.and_then(|t| t.strip_prefix("MCP:")))
                && !s.is_empty()
                && !t.is_empty()
            {
                let name = format!("mcp__{s}__{t}");
                m.insert("tool_name".into(), json!(name));
            }
        }
        Some("postToolUse") => move_key(m, "tool_output", "tool_response"),
        Some("stop") => {
            let again = m_loop_count(m) > 0;
            m.entry("stop_hook_active").or_insert(json!(again));
        }
        Some("sessionStart") => {
            m.entry("source").or_insert(json!("startup"));
        }
        Some("sessionEnd") => {
            m.entry("reason").or_insert(json!("other"));
        }
        _ => {}
    }
    m.entry("session_id").or_insert(json!(""));
    Ok(())
}

/// Cursor `stop`: how many times the agent was already sent back (`loop_count`).
fn m_loop_count(m: &Map<String, Value>) -> u64 {
    m.get("loop_count").and_then(Value::as_u64).unwrap_or(0)
}

/// Copilot CLI: camelCase fields and no event name, so the event is read from what the
/// payload carries: `toolResult` (`postToolUse`), `toolName` (`preToolUse`), `prompt`
/// (`userPromptSubmitted`), `source` (`sessionStart`), `reason` (`sessionEnd`). `toolArgs`
/// is a JSON string.
fn copilot(m: &mut Map<String, Value>) -> Result<(), String> {
    let (host, seam) = if m.contains_key("hook_event_name") {
        // The PascalCase configuration sends Claude-Code-shaped payloads.
        return Ok(());
    } else if m.contains_key("toolResult") {
        ("postToolUse", "PostToolUse")
    } else if m.contains_key("toolName") {
        ("preToolUse", "PreToolUse")
    } else if m.contains_key("prompt") {
        ("userPromptSubmitted", "UserPromptSubmit")
    } else if m.contains_key("source") {
        ("sessionStart", "SessionStart")
    } else if m.contains_key("reason") {
        ("sessionEnd", "SessionEnd")
    } else if m.contains_key("error") {
        ("errorOccurred", "errorOccurred")
    } else {
        return Err("a Copilot CLI payload without toolName, prompt, source or reason".into());
    };
    m.insert("hook_event_name".into(), json!(seam));
    m.insert(HOST_EVENT_KEY.into(), json!(host));
    move_key(m, "sessionId", "session_id");
    m.entry("session_id").or_insert(json!(""));
    move_key(m, "toolName", "tool_name");
    if let Some(args) = m.remove("toolArgs") {
        let input = match args {
            Value::String(s) => serde_json::from_str(&s)
                .map_err(|e| format!("the toolArgs of {host} are not a JSON string ({e})"))?,
            v => v,
        };
        m.insert("tool_input".into(), input);
    }
    if seam == "PreToolUse" || seam == "PostToolUse" {
        m.entry("tool_input").or_insert(json!({}));
    }
    move_key(m, "toolResult", "tool_response");
    Ok(())
}

/// The reason a host receives for an `ask` it does not enforce on `event`.
pub(crate) fn ask_denied_reason(host: &str, event: &str, reason: &str) -> String {
    format!(
        "Approval required: {reason} — {host} does not enforce a confirmation on {event}, so \
         seamguard denies; if the call is intended, the user can approve it with \
         `seamguard allow --last` and retry."
    )
}

/// The deny / ask / allow of a pre-tool outcome as a host can carry it.
enum PreTool {
    Deny(String),
    Ask(String),
    Allow,
    Nothing,
}

impl PreTool {
    /// The decision word and message to send, if any; with nothing to say, a `halt` denies.
    fn answer(self, halt: Option<&String>) -> Option<(&'static str, Option<String>)> {
        match self {
            PreTool::Deny(r) => Some(("deny", Some(r))),
            PreTool::Ask(r) => Some(("ask", Some(r))),
            PreTool::Allow => Some(("allow", None)),
            PreTool::Nothing => halt.map(|h| ("deny", Some(h.clone()))),
        }
    }
}

/// The pre-tool answer: a halt denies (a pre-tool event cannot stop the agent in Cursor or
/// Copilot CLI); an ask where `ask_enforced` is false denies with how to approve it.
fn pre_tool(
    outcome: &Outcome,
    reason: &str,
    ask_enforced: bool,
    host: &str,
    event: &str,
) -> PreTool {
    let nonempty = |r: &str| {
        if r.trim().is_empty() {
            "Denied by seamguard".to_string()
        } else {
            r.to_string()
        }
    };
    match outcome.verdict() {
        Verdict::Deny => PreTool::Deny(nonempty(reason)),
        Verdict::Ask | Verdict::Defer if ask_enforced => PreTool::Ask(nonempty(reason)),
        Verdict::Ask | Verdict::Defer => PreTool::Deny(ask_denied_reason(host, event, reason)),
        Verdict::Allow => PreTool::Allow,
        _ => PreTool::Nothing,
    }
}

/// Encode an outcome for Gemini CLI, Cursor or Copilot CLI; `host_event` is the host's
/// event name ([`HOST_EVENT_KEY`]) when known. Without it, the first host event of the seam
/// is assumed; for Cursor that is `preToolUse`, whose `ask` is answered with a deny.
pub(crate) fn encode_host(
    outcome: &Outcome,
    dialect: Dialect,
    host_event: Option<&str>,
) -> Encoded {
    let mut stderr_lines: Vec<String> = outcome.warnings.clone();
    let Some(seam) = outcome.seam else {
        return Encoded::quiet(&stderr_lines);
    };
    let reason = cap_chars(outcome.reason_text());
    let context = outcome.context_text();
    let halt = outcome.halt.as_ref().map(|h| cap_chars(h.text.clone()));
    let warn = (!outcome.warnings.is_empty()).then(|| cap_chars(outcome.warnings.join("\n")));
    let mut top = Map::new();
    let mut dropped = |what: &str, host: &str, event: &str| {
        stderr_lines.push(format!(
            "seamguard: {what} is not part of the {host} {event} answer; not sent"
        ));
    };
    match dialect {
        Dialect::GeminiCli => {
            let event = host_event
                .or_else(|| host_event_of(dialect, seam))
                .unwrap_or_else(|| seam.event_name());
            let mut hso = Map::new();
            match seam {
                Seam::PreTool => {
                    match pre_tool(outcome, &reason, true, "Gemini CLI", event) {
                        PreTool::Deny(r) => {
                            top.insert("decision".into(), json!("deny"));
                            top.insert("reason".into(), json!(r));
                        }
                        PreTool::Ask(r) => {
                            top.insert("decision".into(), json!("ask"));
                            top.insert("reason".into(), json!(r));
                        }
                        PreTool::Allow => {
                            top.insert("decision".into(), json!("allow"));
                            if let Some(ui) = &outcome.updated_input {
                                hso.insert("tool_input".into(), ui.clone());
                            }
                        }
                        PreTool::Nothing => {}
                    }
                    if context.is_some() {
                        dropped("additional context", "Gemini CLI", event);
                    }
                }
                Seam::PromptSubmit | Seam::PostTool => {
                    let v = outcome.verdict();
                    if v == Verdict::Block {
                        top.insert("decision".into(), json!("deny"));
                        top.insert("reason".into(), json!(reason));
                    } else if let (Verdict::Redact, Seam::PostTool) = (v, seam) {
                        // `hookSpecificOutput.tool_output` replaces the result the model sees.
                        let text = outcome
                            .redacted_response
                            .as_ref()
                            .map(text_of)
                            .filter(|t| !t.trim().is_empty())
                            .unwrap_or_else(|| "[REDACTED]".to_string());
                        hso.insert("tool_output".into(), json!(text));
                        add_context(&mut hso, context.as_deref());
                    } else {
                        add_context(&mut hso, context.as_deref());
                    }
                    if outcome.rewritten_prompt.is_some() {
                        dropped("a prompt rewrite", "Gemini CLI", event);
                    }
                }
                Seam::Stop => {
                    if let Some(ContinuationDecision::Continue { reason }) = outcome.continuation()
                    {
                        top.insert("decision".into(), json!("deny"));
                        top.insert("reason".into(), json!(reason));
                    }
                }
                Seam::SessionStart => {
                    add_context(&mut hso, context.as_deref());
                }
                _ => {}
            }
            if let Some(h) = halt {
                // SessionStart, SessionEnd, Notification and PreCompress ignore flow control.
                if matches!(
                    seam,
                    Seam::PreTool | Seam::PostTool | Seam::PromptSubmit | Seam::Stop
                ) {
                    top.insert("continue".into(), json!(false));
                    top.insert("stopReason".into(), json!(h));
                } else {
                    stderr_lines.push(format!(
                        "seamguard: halt requested but Gemini CLI {event} cannot stop the agent: {h}"
                    ));
                }
            }
            if let Some(w) = warn {
                top.insert("systemMessage".into(), json!(w));
            }
            if !hso.is_empty() {
                hso.insert("hookEventName".into(), json!(event));
                top.insert("hookSpecificOutput".into(), Value::Object(hso));
            }
        }
        Dialect::Cursor => {
            let event = host_event
                .or_else(|| host_event_of(dialect, seam))
                .unwrap_or_else(|| seam.event_name());
            match seam {
                Seam::PreTool => {
                    let ask_enforced = CURSOR_ASK_EVENTS.contains(&event);
                    let answer = pre_tool(outcome, &reason, ask_enforced, "Cursor", event)
                        .answer(halt.as_ref());
                    if let Some((permission, message)) = answer {
                        top.insert("permission".into(), json!(permission));
                        if let Some(msg) = message {
                            top.insert("user_message".into(), json!(msg));
                            // `beforeReadFile` answers carry no message for the agent.
                            if event != "beforeReadFile" {
                                top.insert("agent_message".into(), json!(msg));
                            }
                        }
                    }
                    if outcome.updated_input.is_some() {
                        dropped("an input rewrite", "Cursor", event);
                    }
                }
                Seam::PromptSubmit => {
                    let stop = (outcome.verdict() == Verdict::Block)
                        .then(|| reason.clone())
                        .or_else(|| halt.clone());
                    if let Some(r) = stop {
                        top.insert("continue".into(), json!(false));
                        top.insert("user_message".into(), json!(r));
                    }
                }
                Seam::Stop => {
                    if let Some(ContinuationDecision::Continue { reason }) = outcome.continuation()
                    {
                        top.insert("followup_message".into(), json!(reason));
                    }
                }
                _ => {
                    if outcome.verdict() != Verdict::Abstain || context.is_some() {
                        dropped("an answer", "Cursor", event);
                    }
                }
            }
        }
        Dialect::CopilotCli => {
            let event = host_event.unwrap_or(match seam {
                Seam::PreTool => "preToolUse",
                _ => seam.event_name(),
            });
            if seam == Seam::PreTool {
                let answer =
                    pre_tool(outcome, &reason, true, "Copilot CLI", event).answer(halt.as_ref());
                if let Some((decision, message)) = answer {
                    top.insert("permissionDecision".into(), json!(decision));
                    if let Some(msg) = message {
                        top.insert("permissionDecisionReason".into(), json!(msg));
                    }
                    if let (Verdict::Allow, Some(ui)) = (outcome.verdict(), &outcome.updated_input)
                    {
                        top.insert("modifiedArgs".into(), ui.clone());
                    }
                }
            } else if outcome.verdict() != Verdict::Abstain || context.is_some() || halt.is_some() {
                dropped("an answer", "Copilot CLI", event);
            }
        }
        // Never routed here: `encode` answers Claude Code and Codex itself.
        Dialect::ClaudeCode | Dialect::Codex => {}
    }
    Encoded::answer(top, &stderr_lines)
}
