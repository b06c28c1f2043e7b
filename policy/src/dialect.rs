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
}

impl Dialect {
    /// The CLI / policy name: `claude-code` or `codex`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::ClaudeCode => "claude-code",
            Dialect::Codex => "codex",
        }
    }

    /// Parse `claude-code` / `claude` / `codex`.
    pub fn from_name(s: &str) -> Option<Dialect> {
        match s {
            "claude-code" | "claude" => Some(Dialect::ClaudeCode),
            "codex" => Some(Dialect::Codex),
            _ => None,
        }
    }

    /// Guess the host from a payload (HOOKS.md Part G.1).
    ///
    /// Codex payloads carry `turn_id` on turn-scoped events and `model` on every event but
    /// SessionEnd, and may send `transcript_path: null`; Claude Code sends `model` only on
    /// `SessionStart` and never `turn_id` on the events seamguard handles. A transcript under
    /// `/.codex/` is also taken as Codex. Everything else is Claude Code.
    pub fn detect(payload: &Value) -> Dialect {
        let Value::Object(m) = payload else {
            return Dialect::ClaudeCode;
        };
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
}
