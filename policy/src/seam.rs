//! Seams: the lifecycle points where events are emitted and decisions taken.
//!
//! A [`Seam`] is the host-neutral name of a hook point (DESIGN.md §1). Each seam maps to one
//! Claude Code event name (HOOKS.md A4) and, where Codex has it, to the same Codex event name
//! (HOOKS.md B2). The seam also fixes which field the matcher is tested against and which
//! actions a rule on it may take (the typed-decision surface of the interception-seams seed).

use std::fmt;

/// A lifecycle point of an agent session.
///
/// The closed set is used as an array index in the decision table ([`Seam::ALL`] order).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Seam {
    /// `SessionStart`: context-only; cannot block startup.
    SessionStart,
    /// `UserPromptSubmit`: allow (optionally with contexts) or block the prompt.
    PromptSubmit,
    /// `PreToolUse`: allow / deny / ask / defer a tool call; guards run here.
    PreTool,
    /// `PermissionRequest`: allow or deny the permission dialog.
    PermissionRequest,
    /// `PostToolUse`: accept, block with feedback, redact, add contexts.
    PostTool,
    /// `PostToolUseFailure` (Claude Code only): add contexts.
    PostToolFailure,
    /// `Stop`: let the agent stop or make it continue with a reason.
    Stop,
    /// `SubagentStop`: like `Stop`, for a subagent.
    SubagentStop,
    /// `SubagentStart`: context-only.
    SubagentStart,
    /// `Notification` (Claude Code only): observe-only.
    Notification,
    /// `PreCompact`: allow or block compaction.
    PreCompact,
    /// `PostCompact`: observe, or halt.
    PostCompact,
    /// `SessionEnd`: observe-only; output is ignored by both hosts.
    SessionEnd,
}

/// Which payload field a seam's matcher is tested against (HOOKS.md A4 column "M", B2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherSubject {
    /// `tool_name` (with Codex aliases in the Codex dialect).
    ToolName,
    /// `source` (`startup`, `resume`, `clear`, `compact`, `fork`).
    Source,
    /// `agent_type`.
    AgentType,
    /// `notification_type`.
    NotificationType,
    /// `trigger` (`manual`, `auto`).
    Trigger,
    /// `reason` (session end).
    Reason,
    /// The seam has no matcher (`UserPromptSubmit`, `Stop`): hosts ignore one.
    None,
}

impl MatcherSubject {
    /// The payload key the subject is read from, if any.
    pub fn field(self) -> Option<&'static str> {
        match self {
            MatcherSubject::ToolName => Some("tool_name"),
            MatcherSubject::Source => Some("source"),
            MatcherSubject::AgentType => Some("agent_type"),
            MatcherSubject::NotificationType => Some("notification_type"),
            MatcherSubject::Trigger => Some("trigger"),
            MatcherSubject::Reason => Some("reason"),
            MatcherSubject::None => None,
        }
    }
}

/// An action kind a rule may carry (DESIGN.md §3 "Actions per seam").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    /// `decision` (+ `reason`).
    Decision,
    /// `context`: additional context for the model.
    Context,
    /// `rewrite`: prompt rewrite (prompt-submit).
    Rewrite,
    /// `redact`: regex replacement over the tool output (post-tool).
    Redact,
    /// `feedback`: post-tool block with feedback.
    Feedback,
    /// `continue_with` (+ `max_continuations`): stop seams.
    ContinueWith,
    /// `halt`: `continue: false` with a stop reason.
    Halt,
    /// `run`: a command hook.
    Run,
}

impl Seam {
    /// Every seam, in table order.
    pub const ALL: [Seam; 13] = [
        Seam::SessionStart,
        Seam::PromptSubmit,
        Seam::PreTool,
        Seam::PermissionRequest,
        Seam::PostTool,
        Seam::PostToolFailure,
        Seam::Stop,
        Seam::SubagentStop,
        Seam::SubagentStart,
        Seam::Notification,
        Seam::PreCompact,
        Seam::PostCompact,
        Seam::SessionEnd,
    ];

    /// Number of seams (size of per-seam arrays).
    pub const COUNT: usize = Seam::ALL.len();

    /// Dense index of the seam, `0..Seam::COUNT`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The policy-file name of the seam (`pre-tool`, `prompt-submit`, …).
    pub fn name(self) -> &'static str {
        match self {
            Seam::SessionStart => "session-start",
            Seam::PromptSubmit => "prompt-submit",
            Seam::PreTool => "pre-tool",
            Seam::PermissionRequest => "permission-request",
            Seam::PostTool => "post-tool",
            Seam::PostToolFailure => "post-tool-failure",
            Seam::Stop => "stop",
            Seam::SubagentStop => "subagent-stop",
            Seam::SubagentStart => "subagent-start",
            Seam::Notification => "notification",
            Seam::PreCompact => "pre-compact",
            Seam::PostCompact => "post-compact",
            Seam::SessionEnd => "session-end",
        }
    }

    /// The host event name (`hook_event_name`) of the seam; identical in both dialects.
    pub fn event_name(self) -> &'static str {
        match self {
            Seam::SessionStart => "SessionStart",
            Seam::PromptSubmit => "UserPromptSubmit",
            Seam::PreTool => "PreToolUse",
            Seam::PermissionRequest => "PermissionRequest",
            Seam::PostTool => "PostToolUse",
            Seam::PostToolFailure => "PostToolUseFailure",
            Seam::Stop => "Stop",
            Seam::SubagentStop => "SubagentStop",
            Seam::SubagentStart => "SubagentStart",
            Seam::Notification => "Notification",
            Seam::PreCompact => "PreCompact",
            Seam::PostCompact => "PostCompact",
            Seam::SessionEnd => "SessionEnd",
        }
    }

    /// Parse a policy-file seam name.
    pub fn from_name(name: &str) -> Option<Seam> {
        Seam::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Map a host event name (`hook_event_name`) to its seam.
    pub fn from_event_name(name: &str) -> Option<Seam> {
        Seam::ALL.into_iter().find(|s| s.event_name() == name)
    }

    /// The field the matcher of this seam filters on.
    pub fn matcher_subject(self) -> MatcherSubject {
        match self {
            Seam::PreTool | Seam::PermissionRequest | Seam::PostTool | Seam::PostToolFailure => {
                MatcherSubject::ToolName
            }
            Seam::SessionStart => MatcherSubject::Source,
            Seam::SubagentStart | Seam::SubagentStop => MatcherSubject::AgentType,
            Seam::Notification => MatcherSubject::NotificationType,
            Seam::PreCompact | Seam::PostCompact => MatcherSubject::Trigger,
            Seam::SessionEnd => MatcherSubject::Reason,
            Seam::PromptSubmit | Seam::Stop => MatcherSubject::None,
        }
    }

    /// The `decision = "…"` values a rule on this seam may use.
    pub fn decision_values(self) -> &'static [&'static str] {
        match self {
            Seam::PreTool => &["allow", "deny", "ask", "defer"],
            Seam::PermissionRequest => &["allow", "deny"],
            Seam::PromptSubmit | Seam::PreCompact => &["allow", "block"],
            Seam::PostTool => &["block"],
            _ => &[],
        }
    }

    /// Whether a rule on this seam may carry the given action.
    pub fn allows(self, action: ActionKind) -> bool {
        use ActionKind as A;
        match self {
            Seam::SessionStart | Seam::SubagentStart => {
                matches!(action, A::Context | A::Halt | A::Run)
            }
            Seam::PromptSubmit => matches!(
                action,
                A::Decision | A::Context | A::Rewrite | A::Halt | A::Run
            ),
            Seam::PreTool => matches!(action, A::Decision | A::Context | A::Halt | A::Run),
            Seam::PermissionRequest => matches!(action, A::Decision | A::Run),
            Seam::PostTool => matches!(
                action,
                A::Decision | A::Context | A::Redact | A::Feedback | A::Halt | A::Run
            ),
            Seam::PostToolFailure => matches!(action, A::Context | A::Run),
            Seam::Stop | Seam::SubagentStop => matches!(action, A::ContinueWith | A::Halt | A::Run),
            Seam::PreCompact => matches!(action, A::Decision | A::Halt | A::Run),
            Seam::PostCompact => matches!(action, A::Halt | A::Run),
            Seam::Notification | Seam::SessionEnd => matches!(action, A::Run),
        }
    }

    /// Whether the seam exists in Codex (HOOKS.md B2).
    pub fn in_codex(self) -> bool {
        !matches!(self, Seam::PostToolFailure | Seam::Notification)
    }
}

impl fmt::Display for Seam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in Seam::ALL {
            assert_eq!(Seam::from_name(s.name()), Some(s));
            assert_eq!(Seam::from_event_name(s.event_name()), Some(s));
            assert_eq!(Seam::ALL[s.index()], s);
        }
        assert_eq!(Seam::from_event_name("PreToolUse"), Some(Seam::PreTool));
        assert_eq!(Seam::from_event_name("Setup"), None);
    }
}
