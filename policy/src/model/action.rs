//! What a rule does when it fires: its decision and the actions beside it (reason, context,
//! rewrite, redaction, feedback, continuation, halt, command hook).
//!
//! In: nothing (types only, filled by `lower`). Out: [`Action`] and its parts.

/// A verdict value written as `decision = "…"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DecisionValue {
    /// `allow`.
    Allow,
    /// `deny`.
    Deny,
    /// `ask`.
    Ask,
    /// `defer`.
    Defer,
    /// `block`.
    Block,
}

impl DecisionValue {
    /// Parse a decision keyword.
    pub fn from_name(s: &str) -> Option<DecisionValue> {
        Some(match s {
            "allow" => DecisionValue::Allow,
            "deny" => DecisionValue::Deny,
            "ask" => DecisionValue::Ask,
            "defer" => DecisionValue::Defer,
            "block" => DecisionValue::Block,
            _ => return None,
        })
    }

    /// The keyword.
    pub fn name(self) -> &'static str {
        match self {
            DecisionValue::Allow => "allow",
            DecisionValue::Deny => "deny",
            DecisionValue::Ask => "ask",
            DecisionValue::Defer => "defer",
            DecisionValue::Block => "block",
        }
    }
}

/// A prompt rewrite (prompt-submit, waterfall: later rules see earlier rewrites).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Rewrite {
    /// Replace every match of `regex` with `replace` (`$1` groups allowed).
    Replace {
        /// Regex source.
        regex: String,
        /// Replacement text.
        replace: String,
    },
    /// Put text before the prompt.
    Prepend(String),
    /// Put text after the prompt.
    Append(String),
}

/// A post-tool redaction: every match of `regex` in every string of the tool output is
/// replaced by `replace` in what the model sees.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Redaction {
    /// Regex source.
    pub regex: String,
    /// Replacement (default `[REDACTED]`).
    pub replace: String,
}

/// What a failing `run` command means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum OnError {
    /// Protocol default: a failing command hook is non-blocking.
    #[default]
    Ignore,
    /// Any failure (crash, timeout, bad output) becomes a deny.
    Deny,
}

/// A command hook as a rule action (`run = { command, timeout, on_error }`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunSpec {
    /// Shell command line.
    pub command: String,
    /// Timeout in milliseconds (protocol default 600 s; 30 s on prompt-submit).
    pub timeout_ms: u64,
    /// `on_error`.
    pub on_error: OnError,
    /// `env`: extra environment variables (plugin roots of imported plugin hooks).
    pub env: Vec<(String, String)>,
    /// `async` (Claude Code's `"async": true`): run detached — the decision does not wait
    /// for the command and its result does not affect the outcome.
    #[serde(rename = "async", default)]
    pub detached: bool,
}

/// Everything a rule does when it fires.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Action {
    /// `decision`.
    pub decision: Option<DecisionValue>,
    /// `reason` (shown per host rules; for deny it is what the model sees).
    pub reason: Option<String>,
    /// `context`: additional context for the model.
    pub context: Option<String>,
    /// `rewrite` (prompt-submit).
    pub rewrite: Option<Rewrite>,
    /// `redact` (post-tool).
    pub redact: Vec<Redaction>,
    /// `feedback` (post-tool block).
    pub feedback: Option<String>,
    /// `continue_with` (stop seams): the reason the agent receives to keep going.
    pub continue_with: Option<String>,
    /// `max_continuations` per turn (default 1: never re-block when `stop_hook_active`).
    pub max_continuations: u32,
    /// `halt`: stop the agent entirely (`continue: false`) with this stop reason.
    pub halt: Option<String>,
    /// `run`: a command hook.
    pub run: Option<RunSpec>,
    /// `suppress_prompt` (prompt-submit block): do not echo the prompt back (case HK-11).
    pub suppress_prompt: bool,
    /// `observe`: fire without acting (audit only).
    pub observe: bool,
}
