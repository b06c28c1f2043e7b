//! What handlers see, and what a tool call becomes.
//!
//! In: a tool name and input (or a recorded `PreToolUse` payload), a non-tool seam's hook
//! payload. Out: the sealed [`ToolCall`], the [`SeamEvent`], the normalized [`ToolResult`]
//! with its [`ExecError`], what post-tool handlers see ([`ToolOutput`]) and the immutable
//! record observers get ([`ToolExecution`]).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::decision::Outcome;
use crate::seam::Seam;

static NEXT_CALL: AtomicU64 = AtomicU64::new(1);

/// Opaque identity of one tool call, unique in the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(u64);

impl fmt::Display for CallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "call-{}", self.0)
    }
}

#[derive(Debug)]
struct SealedCall {
    id: CallId,
    name: String,
    /// The `PreToolUse` hook payload (what tables evaluate), built once.
    payload: Value,
}

/// A tool call with its identity and arguments sealed before policy runs (interception-seams
/// seed: "the registry … materializes and freezes arguments, assigns an opaque token … before
/// policy begins").
///
/// Cheap to clone (shared); nothing can change its name or input afterwards, so the log, the
/// policy and the tool body agree on what ran.
#[derive(Debug, Clone)]
pub struct ToolCall(Arc<SealedCall>);

impl ToolCall {
    /// Seal a call of tool `name` with `input` in session `session_id`, working folder `cwd`.
    pub fn new(name: &str, input: Value, session_id: &str, cwd: &str) -> ToolCall {
        let id = CallId(NEXT_CALL.fetch_add(1, Ordering::Relaxed));
        let mut m = Map::new();
        m.insert("session_id".into(), Value::String(session_id.into()));
        m.insert("cwd".into(), Value::String(cwd.into()));
        m.insert(
            "hook_event_name".into(),
            Value::String(Seam::PreTool.event_name().into()),
        );
        m.insert("tool_name".into(), Value::String(name.into()));
        m.insert("tool_input".into(), input);
        m.insert("tool_use_id".into(), Value::String(id.to_string()));
        ToolCall(Arc::new(SealedCall {
            id,
            name: name.to_string(),
            payload: Value::Object(m),
        }))
    }

    /// Seal a call from a recorded `PreToolUse` payload (its `tool_name` and `tool_input`;
    /// other fields are kept for tables). `None` when `tool_name` is missing.
    pub fn from_payload(payload: Value) -> Option<ToolCall> {
        let name = payload.get("tool_name")?.as_str()?.to_string();
        let id = CallId(NEXT_CALL.fetch_add(1, Ordering::Relaxed));
        Some(ToolCall(Arc::new(SealedCall { id, name, payload })))
    }

    /// The call's identity.
    pub fn id(&self) -> CallId {
        self.0.id
    }

    /// The tool name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The frozen arguments (`Value::Null` when the payload had none).
    pub fn input(&self) -> &Value {
        self.0.payload.get("tool_input").unwrap_or(&Value::Null)
    }

    /// `tool_input.command` as text, if present (shell tools).
    pub fn command(&self) -> Option<&str> {
        self.input().get("command").and_then(Value::as_str)
    }

    /// The `PreToolUse` hook payload tables evaluate.
    pub fn payload(&self) -> &Value {
        &self.0.payload
    }

    /// What this call does, seen through the policy language's effect lenses (a shell
    /// command's reads, writes, deletes and requests; a file tool's path; an MCP tool's
    /// arguments). Paths resolve against `CLAUDE_PROJECT_DIR` and `$HOME` of this process.
    ///
    /// # Examples
    ///
    /// ```
    /// use seamguard_engine::effects::EffectKind;
    /// use seamguard_engine::harness::ToolCall;
    ///
    /// let call = ToolCall::new("Write", serde_json::json!({"file_path": "a.txt", "content": "x"}), "s", "/w");
    /// assert_eq!(call.effects().of(EffectKind::Write).count(), 1);
    /// ```
    pub fn effects(&self) -> crate::effects::Effects {
        crate::effects::effects_of(self.payload(), &crate::ShellEnv::from_process())
    }
}

/// One event at a non-tool seam (prompt-submit, session-start, stop, notification, …) as its
/// hook payload.
#[derive(Debug, Clone, PartialEq)]
pub struct SeamEvent {
    /// The seam.
    pub seam: Seam,
    /// The hook payload (Claude Code / Codex shape).
    pub payload: Value,
}

impl SeamEvent {
    /// An event at `seam`.
    pub fn new(seam: Seam, payload: Value) -> SeamEvent {
        SeamEvent { seam, payload }
    }

    /// A prompt-submit event for `prompt` in `session_id`.
    pub fn prompt(prompt: &str, session_id: &str, cwd: &str) -> SeamEvent {
        SeamEvent::new(
            Seam::PromptSubmit,
            serde_json::json!({
                "session_id": session_id, "cwd": cwd,
                "hook_event_name": Seam::PromptSubmit.event_name(), "prompt": prompt,
            }),
        )
    }

    /// The prompt text (prompt-submit; after earlier rewrites in the waterfall).
    pub fn prompt_text(&self) -> Option<&str> {
        self.payload.get("prompt").and_then(Value::as_str)
    }

    /// A top-level payload string field.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.payload.get(key).and_then(Value::as_str)
    }

    /// What the tool call of this event does, seen through the same lenses the policy
    /// language's effect tests use (`runs`, `reads`, `writes`, `deletes`, `sends`, …); empty
    /// for an event without a tool call. Paths resolve against `CLAUDE_PROJECT_DIR` and
    /// `$HOME` of this process; use [`crate::effects::effects_of`] for another environment.
    ///
    /// # Examples
    ///
    /// ```
    /// use seamguard_engine::effects::EffectKind;
    /// use seamguard_engine::harness::SeamEvent;
    /// use seamguard_engine::Seam;
    ///
    /// let ev = SeamEvent::new(Seam::PreTool, serde_json::json!({
    ///     "cwd": "/w", "tool_name": "Read", "tool_input": {"file_path": "/w/.env"}
    /// }));
    /// let fx = ev.effects();
    /// let read = fx.of(EffectKind::Read).next().and_then(|e| e.path()).map(|p| p.text.clone());
    /// assert_eq!(read.as_deref(), Some("/w/.env"));
    /// ```
    pub fn effects(&self) -> crate::effects::Effects {
        crate::effects::effects_of(&self.payload, &crate::ShellEnv::from_process())
    }
}

/// The normalized result of a tool call: always JSON, never a panic or a Rust error.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The presentation content: what the model sees ([`Tool::present`](super::Tool::present)
    /// of the value, then redaction and final content).
    pub content: Value,
    /// The canonical value: what the tool returned (or the value a post-tool
    /// [`ReplaceValue`](crate::PostToolDecision::ReplaceValue) put in its place), for
    /// programs; content redaction does not change it. `Null` for an error result.
    pub value: Value,
    /// Whether the call failed (denied, not approved, handler failure, tool error, timeout).
    pub is_error: bool,
    /// What failed, when `is_error`.
    pub error: Option<ExecError>,
}

impl ToolResult {
    /// A successful result whose value and content are `content` (the content before
    /// [`Tool::present`](super::Tool::present) runs).
    pub fn ok(content: Value) -> ToolResult {
        ToolResult {
            value: content.clone(),
            content,
            is_error: false,
            error: None,
        }
    }

    /// An error result whose content is the error's text.
    pub fn error(error: ExecError) -> ToolResult {
        ToolResult {
            content: Value::String(error.to_string()),
            value: Value::Null,
            is_error: true,
            error: Some(error),
        }
    }
}

/// Why a tool call produced an error result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// A pre-tool hook or a guard denied (or deferred) the call; the tool did not run.
    #[error("denied: {reason}")]
    Denied {
        /// The merged reason, the reasons' own text ([`ToolExecution::reasons`] has each
        /// with its rule).
        reason: String,
    },
    /// The call needed approval and did not get `allowed-once` (rejected, cancelled, no
    /// approver): a normalized denial (interception-seams seed).
    #[error("not approved: {reason}")]
    NotApproved {
        /// Why approval was asked, and how it ended.
        reason: String,
    },
    /// A handler panicked or returned an error.
    #[error("handler `{name}` ({provenance}) failed: {message}")]
    Handler {
        /// Handler name.
        name: String,
        /// `module (file:line)`.
        provenance: String,
        /// Panic message or error text.
        message: String,
    },
    /// The tool returned an error or panicked.
    #[error("tool failed: {message}")]
    Tool {
        /// The error text.
        message: String,
    },
    /// The run was cancelled (its token) before the call finished; whatever had not run
    /// yet (policy, approval, dispatch, post-tool policy) did not run.
    #[error("cancelled")]
    Cancelled,
    /// A policy asked the agent to stop (a `halt`, Claude Code's `continue: false`) before
    /// the tool ran: the call was not dispatched, whatever the decision, and the agent loop
    /// should stop ([`ToolExecution::halt`] has the rule that asked).
    #[error("halted: {reason}")]
    Halted {
        /// The halt's text.
        reason: String,
    },
    /// A wrapper ran out of time.
    #[error("timed out after {after_ms} ms")]
    Timeout {
        /// The limit, in milliseconds.
        after_ms: u64,
    },
}

impl ToolExecution {
    /// The record of a call that was never started because an earlier call of its batch
    /// halted the agent (`halt`): not dispatched, no policy run, the same halt.
    pub(super) fn not_started(call: ToolCall, halt: crate::decision::Attributed) -> ToolExecution {
        ToolExecution {
            result: ToolResult::error(ExecError::Halted {
                reason: halt.text.clone(),
            }),
            call,
            parent: None,
            feedback: None,
            contexts: Vec::new(),
            pre: Outcome::default(),
            post: None,
            dispatched: false,
            failures: Vec::new(),
            elapsed: Duration::ZERO,
            halt: Some(halt),
        }
    }

    /// The reasons behind the result, each with its rule or handler and where it is
    /// declared, apart: a post-tool block's when the post-tool phase blocked, else the
    /// pre-tool decision's (a denial, an ask).
    pub fn reasons(&self) -> &[crate::decision::Attributed] {
        match &self.post {
            Some(p) if p.verdict == Some(crate::decision::Verdict::Block) => &p.reasons,
            _ => &self.pre.reasons,
        }
    }

    /// The first reason's own text, without provenance.
    pub fn reason(&self) -> Option<&str> {
        self.reasons().first().map(|a| a.text.as_str())
    }
}

/// What post-tool handlers see: the sealed call and its current (normalized) result.
#[derive(Debug, Clone)]
pub struct ToolOutput {
    /// The call.
    pub call: ToolCall,
    /// The result so far (after earlier post-tool redactions).
    pub result: ToolResult,
    /// Whether the tool was dispatched (a denied call still reaches post-tool policy).
    pub dispatched: bool,
}

/// A context for the model, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    /// The text.
    pub text: String,
    /// Rule id, handler name, or the name given to [`Injector::inject`](super::Injector::inject).
    pub source: String,
    /// The call it belongs to, if any.
    pub call: Option<CallId>,
}

/// The immutable record of one tool call through the pipeline; observers get a `&` to it.
#[derive(Debug, Clone)]
pub struct ToolExecution {
    /// The sealed call.
    pub call: ToolCall,
    /// The call whose tool dispatched this one (a nested call), if any.
    pub parent: Option<CallId>,
    /// The final, normalized result.
    pub result: ToolResult,
    /// Post-tool block feedback for the model (the tool already ran).
    pub feedback: Option<String>,
    /// Contexts of this call, in order (appended after the batch by
    /// [`Batch::settle`](super::Batch::settle)).
    pub contexts: Vec<Injected>,
    /// Merged pre-tool outcome (hooks and guards of tables and handlers).
    pub pre: Outcome,
    /// Merged post-tool outcome (absent when a pre-phase failure bypassed it).
    pub post: Option<Outcome>,
    /// Whether the tool was dispatched.
    pub dispatched: bool,
    /// Handler failures of this call, in order.
    pub failures: Vec<HandlerFailure>,
    /// Wall time of the whole pipeline.
    pub elapsed: Duration,
    /// A policy's request that the agent stop (a `halt`: Claude Code's `continue: false`),
    /// with the rule that asked: the pre-tool one (then the tool did not run and the result
    /// is [`ExecError::Halted`]), else the post-tool one (the tool ran; its result stands).
    /// The agent loop must stop after this call; a [`Batch`](super::Batch) runs no later
    /// call.
    pub halt: Option<crate::decision::Attributed>,
}

/// A handler that failed (panicked or returned `Err`), with its provenance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerFailure {
    /// Handler name.
    pub name: String,
    /// `module (file:line)`.
    pub provenance: String,
    /// Panic message or error text.
    pub message: String,
}

impl HandlerFailure {
    pub(super) fn exec_error(&self) -> ExecError {
        ExecError::Handler {
            name: self.name.clone(),
            provenance: self.provenance.clone(),
            message: self.message.clone(),
        }
    }
}
