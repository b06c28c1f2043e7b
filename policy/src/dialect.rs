//! Dialects: which host a payload comes from and how an outcome is encoded for it.

use std::fmt;

use serde_json::Value;

/// The host protocol: how a payload is decoded and an outcome encoded (DESIGN.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Claude Code (HOOKS.md Part A).
    ClaudeCode,
    /// OpenAI Codex (HOOKS.md Part B).
    Codex,
    /// Gemini CLI (HOSTS.md §1): `BeforeTool` / `AfterTool` / `BeforeAgent` …, answered with
    /// `decision`.
    GeminiCli,
    /// Cursor (HOSTS.md §1): `beforeShellExecution`, `beforeReadFile`, `beforeMCPExecution`,
    /// `preToolUse` …, answered with `permission`.
    Cursor,
    /// GitHub Copilot CLI (HOSTS.md §1): camelCase `toolName` / `toolArgs` (a JSON string),
    /// answered with `permissionDecision`.
    CopilotCli,
}

/// Gemini CLI event names no other host uses (HOSTS.md §1).
const GEMINI_EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "PreCompress",
];

/// Cursor event names (camelCase; HOSTS.md §1).
const CURSOR_EVENTS: &[&str] = &[
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
];

impl Dialect {
    /// The CLI / policy name: `claude-code` or `codex`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::ClaudeCode => "claude-code",
            Dialect::Codex => "codex",
            Dialect::GeminiCli => "gemini-cli",
            Dialect::Cursor => "cursor",
            Dialect::CopilotCli => "copilot-cli",
        }
    }

    /// Parse `claude-code` / `claude` / `codex` / `gemini-cli` / `gemini` / `cursor` /
    /// `copilot-cli` / `copilot`.
    pub fn from_name(s: &str) -> Option<Dialect> {
        match s {
            "claude-code" | "claude" => Some(Dialect::ClaudeCode),
            "codex" => Some(Dialect::Codex),
            "gemini-cli" | "gemini" => Some(Dialect::GeminiCli),
            "cursor" => Some(Dialect::Cursor),
            "copilot-cli" | "copilot" => Some(Dialect::CopilotCli),
            _ => None,
        }
    }

    /// Guess the host from a payload (HOOKS.md Part G.1).
    ///
    /// Codex payloads carry `turn_id` on turn-scoped events and `model` on every event but
    /// SessionEnd, and may send `transcript_path: null`; Claude Code sends `model` only on
    /// `SessionStart` and never `turn_id` on the events seamguard handles. A transcript under
    /// `/.codex/` is also taken as Codex. Everything else is Claude Code.
    ///
    /// The other hosts are told apart first, by what only they send (HOSTS.md §1): Cursor's
    /// `conversation_id` / `cursor_version` / `workspace_roots` or one of its camelCase event
    /// names; Copilot CLI's camelCase `toolName` / `toolArgs` (its events carry no event name);
    /// a Gemini CLI event name (`BeforeTool`, …), or a common Gemini event (`SessionStart`, …)
    /// with Gemini's `timestamp` or a transcript under `/.gemini/`.
    pub fn detect(payload: &Value) -> Dialect {
        let Value::Object(m) = payload else {
            return Dialect::ClaudeCode;
        };
        let event = m.get("hook_event_name").and_then(Value::as_str);
        if ["conversation_id", "cursor_version", "workspace_roots"]
            .iter()
            .any(|k| m.contains_key(*k))
            || event.is_some_and(|e| CURSOR_EVENTS.contains(&e))
        {
            return Dialect::Cursor;
        }
        if event.is_none()
            && (m.contains_key("toolName")
                || m.contains_key("toolArgs")
                || m.get("timestamp").is_some_and(Value::is_number))
        {
            return Dialect::CopilotCli;
        }
        if event.is_some_and(|e| GEMINI_EVENTS.contains(&e)) {
            return Dialect::GeminiCli;
        }
        let gemini_transcript = matches!(m.get("transcript_path"), Some(Value::String(p))
            if p.contains("/.gemini/") || p.contains("\\.gemini\\"));
        if event.is_some()
            && (gemini_transcript || m.get("timestamp").is_some_and(Value::is_string))
        {
            return Dialect::GeminiCli;
        }
        if m.contains_key("turn_id") {
            return Dialect::Codex;
        }
        match m.get("transcript_path") {
            Some(Value::Null) => return Dialect::Codex,
            Some(Value::String(p)) if p.contains("/.codex/") || p.contains("\\.codex\\") => {
                return Dialect::Codex;
            }
            _ => {}
        }
        let is_session_start =
            matches!(m.get("hook_event_name"), Some(Value::String(n)) if n == "SessionStart");
        if m.contains_key("model") && !is_session_start {
            return Dialect::Codex;
        }
        Dialect::ClaudeCode
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detects_codex_by_turn_id_model_and_null_transcript() {
        let codex =
            json!({"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","model":"gpt-5"});
        assert_eq!(Dialect::detect(&codex), Dialect::Codex);
        let null_tp = json!({"session_id":"s","transcript_path":null,"hook_event_name":"Stop"});
        assert_eq!(Dialect::detect(&null_tp), Dialect::Codex);
        let end = json!({"session_id":"thr_123","transcript_path":"/workspace/.codex/rollout.jsonl","hook_event_name":"SessionEnd","reason":"other"});
        assert_eq!(Dialect::detect(&end), Dialect::Codex);
        let cc_start = json!({"session_id":"s","transcript_path":"/h/.claude/projects/x/s.jsonl","hook_event_name":"SessionStart","model":"claude-sonnet-4-6","source":"startup"});
        assert_eq!(Dialect::detect(&cc_start), Dialect::ClaudeCode);
    }

    #[test]
    fn detects_gemini_cursor_and_copilot() {
        let gemini = json!({"session_id":"s","transcript_path":"/h/.gemini/tmp/x/chats/s.json","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}});
        assert_eq!(Dialect::detect(&gemini), Dialect::GeminiCli);
        let gemini_start = json!({"session_id":"s","cwd":"/w","hook_event_name":"SessionStart","timestamp":"2026-01-01T00:00:00Z","source":"startup"});
        assert_eq!(Dialect::detect(&gemini_start), Dialect::GeminiCli);
        let cursor = json!({"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"preToolUse","cursor_version":"2.0","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"ls"}});
        assert_eq!(Dialect::detect(&cursor), Dialect::Cursor);
        let cursor_shell =
            json!({"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w"});
        assert_eq!(Dialect::detect(&cursor_shell), Dialect::Cursor);
        let copilot = json!({"timestamp":1704614600000_u64,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"});
        assert_eq!(Dialect::detect(&copilot), Dialect::CopilotCli);
        for name in ["gemini-cli", "cursor", "copilot-cli"] {
            assert_eq!(Dialect::from_name(name).map(Dialect::name), Some(name));
        }
    }
}
