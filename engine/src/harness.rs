//! The embedding API: policy tables and Rust handlers in one [`Harness`], one async method
//! per seam, and the five-phase tool pipeline (interception-seams seed; DESIGN.md §4).
//!
//! ```text
//!  ToolCall (sealed: id, name, input frozen before any policy runs)
//!    │
//!    ├─ 1. pre-tool waterfall   tables' [[rule]]s, then #[hook(seam = "pre-tool")] handlers:
//!    │                          allow / deny / ask / defer (no argument rewrite: the call is sealed)
//!    ├─ 2. guards               tables' [[guard]]s, then #[guard] handlers: Option<GuardDeny>,
//!    │                          nothing can allow, so no later allow resurrects a deny
//!    │      (deny, defer, a rejected ask, or a failed handler skip dispatch)
//!    ├─ 3. around-dispatch      Wrapper layers (Timeout, Retry, Metrics, …) around the tool;
//!    │                          a tool error or panic is normalized before wrappers see it
//!    ├─ 4. post-tool transform  tables' post-tool rules, then handlers (waterfall: each sees the
//!    │                          current, possibly redacted, content); block / redact / contexts
//!    ├─ 5. final content        Tool::finalize_content: once, on every outcome (also failures)
//!    └─ observers               #[hook(seam = "tool-result")]: an immutable snapshot; their panics
//!                               are contained and cannot change the returned ToolExecution
//! ```
//!
//! Merging is [`merge`] (most-restrictive), so a TOML rule and a Rust handler combine into one
//! [`Outcome`]. Contributions are ordered tables' hooks, handler hooks, tables' guards, handler
//! guards; the verdict does not depend on that order.
//!
//! Every failure — a handler that panics or returns `Err`, a tool that fails or panics, a
//! wrapper that panics, a timeout — becomes an error [`ToolResult`] (`is_error: true`) with an
//! [`ExecError`] saying what failed; nothing escapes [`Harness::execute`].
//!
//! Contexts from post-tool decisions and from [`Injector::inject`] enter the batch's FIFO and
//! are appended after every result of the batch ([`Batch::settle`]; seed: "three load-bearing
//! decisions", 2).
//!
//! Registrations carry provenance (module path, file, line) and an optional cleanup that runs
//! once on [`Harness::unregister`] or [`Harness::dispose`], in reverse registration order, with
//! errors collected (agent-harness seed, "Cleanup semantics").
//!
//! Handlers are usually written with the `seamguard-macros` attributes (`#[hook]`, `#[guard]`)
//! and registered with [`hooks!`](crate::hooks); a [`HookDescriptor`] can also be written by
//! hand.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::decision::{
    ContinuationDecision, Contribution, GuardDeny, Outcome, PermissionDecision, PostToolDecision,
    PreToolDecision, PromptDecision, Verdict, merge,
};
use crate::dialect::Dialect;
use crate::engine::Engine;
use crate::matcher::{Matcher, MatcherMode};
use crate::policy::{LoadedPolicy, Scope, Source};
use crate::seam::Seam;
use crate::table::DecisionTable;

/// A boxed, sendable future (the shape of async handlers, tools and wrappers).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

// ---------------------------------------------------------------------------------------------
// Policy tables
// ---------------------------------------------------------------------------------------------

/// A compiled policy table ready to evaluate: a [`DecisionTable`] with its seam evaluator.
///
/// `policy!("file.toml")` yields a `&'static PolicyTable`; [`PolicyTable::load_file`] builds
/// the same from a file at run time. Dereferences to the [`DecisionTable`].
#[derive(Debug)]
pub struct PolicyTable {
    engine: Engine,
}

impl PolicyTable {
    /// A table from a compiled [`DecisionTable`].
    pub fn new(table: DecisionTable) -> PolicyTable {
        PolicyTable {
            engine: Engine::new(table),
        }
    }

    /// A table from loaded policies (in precedence order). This is what `policy!` runs on
    /// first use, with policies built from constructors instead of parsed.
    pub fn from_policies(policies: Vec<LoadedPolicy>) -> PolicyTable {
        PolicyTable::new(DecisionTable::new(policies))
    }

    /// Load one policy file at run time (fail-partial, as [`crate::load_file`]: broken rules
    /// are skipped and reported in every outcome's warnings).
    pub fn load_file(path: &std::path::Path, scope: Scope) -> PolicyTable {
        PolicyTable::from_policies(vec![crate::load::load_file(path, scope, 0)])
    }

    /// The compiled table.
    pub fn table(&self) -> &DecisionTable {
        self.engine.table()
    }

    /// Evaluate one hook payload at `seam` ([`Engine::evaluate`]).
    pub fn evaluate(&self, seam: Seam, payload: &Value, dialect: Dialect) -> Outcome {
        self.engine.evaluate(seam, payload, dialect)
    }
}

impl std::ops::Deref for PolicyTable {
    type Target = DecisionTable;
    fn deref(&self) -> &DecisionTable {
        self.table()
    }
}

/// A table held by a [`Harness`]: a `&'static` one from `policy!` or an owned one.
#[derive(Debug)]
pub enum TableRef {
    /// From `policy!` (no copy).
    Static(&'static PolicyTable),
    /// Built at run time.
    Owned(Box<PolicyTable>),
}

impl std::ops::Deref for TableRef {
    type Target = PolicyTable;
    fn deref(&self) -> &PolicyTable {
        match self {
            TableRef::Static(t) => t,
            TableRef::Owned(t) => t,
        }
    }
}

impl From<&'static PolicyTable> for TableRef {
    fn from(t: &'static PolicyTable) -> TableRef {
        TableRef::Static(t)
    }
}

impl From<PolicyTable> for TableRef {
    fn from(t: PolicyTable) -> TableRef {
        TableRef::Owned(Box::new(t))
    }
}

impl From<DecisionTable> for TableRef {
    fn from(t: DecisionTable) -> TableRef {
        TableRef::Owned(Box::new(PolicyTable::new(t)))
    }
}

// ---------------------------------------------------------------------------------------------
// Events handlers see
// ---------------------------------------------------------------------------------------------

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
}

/// The normalized result of a tool call: always JSON, never a panic or a Rust error.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// What the model sees (after redaction and final content).
    pub content: Value,
    /// Whether the call failed (denied, not approved, handler failure, tool error, timeout).
    pub is_error: bool,
    /// What failed, when `is_error`.
    pub error: Option<ExecError>,
}

impl ToolResult {
    /// A successful result.
    pub fn ok(content: Value) -> ToolResult {
        ToolResult {
            content,
            is_error: false,
            error: None,
        }
    }

    /// An error result whose content is the error's text.
    pub fn error(error: ExecError) -> ToolResult {
        ToolResult {
            content: Value::String(error.to_string()),
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
        /// The merged reason (`text [rule]` per line).
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
    /// A wrapper ran out of time.
    #[error("timed out after {after_ms} ms")]
    Timeout {
        /// The limit, in milliseconds.
        after_ms: u64,
    },
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
    /// Rule id, handler name, or the name given to [`Injector::inject`].
    pub source: String,
    /// The call it belongs to, if any.
    pub call: Option<CallId>,
}

/// The immutable record of one tool call through the pipeline; observers get a `&` to it.
#[derive(Debug, Clone)]
pub struct ToolExecution {
    /// The sealed call.
    pub call: ToolCall,
    /// The final, normalized result.
    pub result: ToolResult,
    /// Post-tool block feedback for the model (the tool already ran).
    pub feedback: Option<String>,
    /// Contexts of this call, in order (appended after the batch by [`Batch::settle`]).
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
}

// ---------------------------------------------------------------------------------------------
// Handlers and descriptors
// ---------------------------------------------------------------------------------------------

/// A handler's error (its `Err` text or panic message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerError(pub String);

/// What a handler returned: at once (sync fn) or later (async fn).
pub enum Reply<'a, T> {
    /// A sync handler's value.
    Ready(Result<T, HandlerError>),
    /// An async handler's future.
    Pending(BoxFuture<'a, Result<T, HandlerError>>),
}

impl<T> fmt::Debug for Reply<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reply::Ready(_) => "Reply::Ready",
            Reply::Pending(_) => "Reply::Pending",
        })
    }
}

/// Converts what a handler fn returns into the seam's reply type `T`.
///
/// Implemented for `T` itself, for the bare decision where `T = Option<decision>`, and for
/// `Result<_, E: Display>` of both (an `Err` is a handler failure).
#[diagnostic::on_unimplemented(
    message = "a handler returning `{Self}` cannot answer this seam",
    label = "this return type does not fit the seam",
    note = "the seam expects `{T}` (or the bare decision, or `Result<_, E: Display>` of either)"
)]
pub trait IntoReply<T> {
    /// Convert.
    fn into_reply(self) -> Result<T, HandlerError>;
}

macro_rules! into_reply {
    ($t:ty) => {
        impl IntoReply<$t> for $t {
            fn into_reply(self) -> Result<$t, HandlerError> {
                Ok(self)
            }
        }
        impl<E: fmt::Display> IntoReply<$t> for Result<$t, E> {
            fn into_reply(self) -> Result<$t, HandlerError> {
                self.map_err(|e| HandlerError(e.to_string()))
            }
        }
    };
    ($t:ty, bare) => {
        into_reply!(Option<$t>);
        impl IntoReply<Option<$t>> for $t {
            fn into_reply(self) -> Result<Option<$t>, HandlerError> {
                Ok(Some(self))
            }
        }
        impl<E: fmt::Display> IntoReply<Option<$t>> for Result<$t, E> {
            fn into_reply(self) -> Result<Option<$t>, HandlerError> {
                self.map(Some).map_err(|e| HandlerError(e.to_string()))
            }
        }
    };
}

into_reply!(PreToolDecision, bare);
into_reply!(GuardDeny, bare);
into_reply!(PermissionDecision, bare);
into_reply!(PostToolDecision, bare);
into_reply!(PromptDecision, bare);
into_reply!(ContinuationDecision, bare);
into_reply!(String, bare);
into_reply!(());

/// The typed handler of one seam: a plain fn pointer (what `#[hook]` / `#[guard]` emit).
#[derive(Clone, Copy)]
pub enum HandlerFn {
    /// `pre-tool` hook: allow / deny / ask / defer, or abstain with `None`.
    PreTool(for<'a> fn(&'a ToolCall) -> Reply<'a, Option<PreToolDecision>>),
    /// Guard (pre-tool, after every hook): deny or abstain, never allow.
    Guard(for<'a> fn(&'a ToolCall) -> Reply<'a, Option<GuardDeny>>),
    /// `permission-request` hook.
    Permission(for<'a> fn(&'a ToolCall) -> Reply<'a, Option<PermissionDecision>>),
    /// `post-tool` transform (waterfall).
    PostTool(for<'a> fn(&'a ToolOutput) -> Reply<'a, Option<PostToolDecision>>),
    /// `prompt-submit` hook (waterfall: later handlers see earlier rewrites).
    Prompt(for<'a> fn(&'a SeamEvent) -> Reply<'a, Option<PromptDecision>>),
    /// `session-start` / `subagent-start`: an additional context, or none.
    Context(for<'a> fn(&'a SeamEvent) -> Reply<'a, Option<String>>),
    /// `stop` / `subagent-stop`: continue with a reason, or let it stop.
    Continuation(for<'a> fn(&'a SeamEvent) -> Reply<'a, Option<ContinuationDecision>>),
    /// Observe-only seams (`notification`, `session-end`, `pre-compact`, `post-compact`,
    /// `post-tool-failure`).
    Observe(for<'a> fn(&'a SeamEvent) -> Reply<'a, ()>),
    /// `tool-result` observer: an immutable snapshot after the pipeline (synchronous).
    ToolResult(fn(&ToolExecution)),
}

impl fmt::Debug for HandlerFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind_name())
    }
}

impl HandlerFn {
    fn kind_name(&self) -> &'static str {
        match self {
            HandlerFn::PreTool(_) => "pre-tool hook",
            HandlerFn::Guard(_) => "guard",
            HandlerFn::Permission(_) => "permission-request hook",
            HandlerFn::PostTool(_) => "post-tool hook",
            HandlerFn::Prompt(_) => "prompt-submit hook",
            HandlerFn::Context(_) => "context hook",
            HandlerFn::Continuation(_) => "continuation hook",
            HandlerFn::Observe(_) => "observer",
            HandlerFn::ToolResult(_) => "tool-result observer",
        }
    }

    /// Whether the handler may sit at `seam`.
    fn fits(&self, seam: Seam) -> bool {
        use Seam as S;
        match self {
            HandlerFn::PreTool(_) | HandlerFn::Guard(_) => seam == S::PreTool,
            HandlerFn::Permission(_) => seam == S::PermissionRequest,
            HandlerFn::PostTool(_) | HandlerFn::ToolResult(_) => seam == S::PostTool,
            HandlerFn::Prompt(_) => seam == S::PromptSubmit,
            HandlerFn::Context(_) => matches!(seam, S::SessionStart | S::SubagentStart),
            HandlerFn::Continuation(_) => matches!(seam, S::Stop | S::SubagentStop),
            HandlerFn::Observe(_) => matches!(
                seam,
                S::Notification
                    | S::SessionEnd
                    | S::PreCompact
                    | S::PostCompact
                    | S::PostToolFailure
            ),
        }
    }
}

/// Where a handler is declared (`module_path!()`, `file!()`, `line!()` of its fn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provenance {
    /// Module path.
    pub module_path: &'static str,
    /// Source file.
    pub file: &'static str,
    /// 1-based line of the fn.
    pub line: u32,
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}:{})", self.module_path, self.file, self.line)
    }
}

/// A handler as `#[hook]` / `#[guard]` describe it: a `const`, collected by
/// [`hooks!`](crate::hooks) into a `&'static [HookDescriptor]`.
#[derive(Debug, Clone, Copy)]
pub struct HookDescriptor {
    /// Unique name (the fn name unless given); the rule id in outcomes.
    pub name: &'static str,
    /// The seam (`PostTool` for `tool-result` observers).
    pub seam: Seam,
    /// Matcher on the seam's subject (tool name, source, …), Claude Code rules
    /// ([`Matcher::classify`]); `None` matches all.
    pub matcher: Option<&'static str>,
    /// Where the fn is.
    pub provenance: Provenance,
    /// The handler.
    pub handler: HandlerFn,
    /// Cleanup run once on unregister or dispose.
    pub cleanup: Option<fn() -> Result<(), String>>,
}

/// Implemented by the type `#[hook]` / `#[guard]` emit next to the fn (same name, type
/// namespace), so `hooks![check_bash]` finds `<check_bash as Registered>::DESCRIPTOR`.
pub trait Registered {
    /// The handler's descriptor.
    const DESCRIPTOR: HookDescriptor;
}

/// Build a `&'static [HookDescriptor]` from handler paths, in order:
/// `hooks![check_bash, guards::no_secrets]`.
///
/// An explicit list, not link-time collection: a misspelled name is a compile error and
/// nothing is silently dropped (STYLE.md "(b) Registering").
#[macro_export]
macro_rules! hooks {
    ($($h:path),* $(,)?) => {{
        const __SEAMGUARD_HOOKS: &[$crate::harness::HookDescriptor] =
            &[$(<$h as $crate::harness::Registered>::DESCRIPTOR),*];
        __SEAMGUARD_HOOKS
    }};
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
    fn exec_error(&self) -> ExecError {
        ExecError::Handler {
            name: self.name.clone(),
            provenance: self.provenance.clone(),
            message: self.message.clone(),
        }
    }
}

/// Why a registration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// Another live registration has the same name.
    #[error("a handler named `{0}` is already registered")]
    Duplicate(String),
    /// The matcher regex does not parse.
    #[error("handler `{name}`: invalid matcher `{matcher}`: {message}")]
    Matcher {
        /// Handler name.
        name: String,
        /// The matcher.
        matcher: String,
        /// The regex error.
        message: String,
    },
    /// The handler kind does not fit the descriptor's seam.
    #[error("handler `{name}`: a {kind} cannot be registered at seam `{seam}`")]
    Seam {
        /// Handler name.
        name: String,
        /// Handler kind.
        kind: &'static str,
        /// The seam.
        seam: Seam,
    },
}

/// A cleanup that failed on unregister or dispose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanupError {
    /// Registration name.
    pub name: String,
    /// The error or panic message.
    pub message: String,
}

/// Every cleanup that failed during [`Harness::dispose`] (the others still ran).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} cleanup(s) failed: {}", .0.len(), .0.iter().map(|e| format!("`{}`: {}", e.name, e.message)).collect::<Vec<_>>().join("; "))]
pub struct CleanupErrors(pub Vec<CleanupError>);

/// Identity of one registration (for [`Harness::unregister`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegistrationId(u64);

/// A cleanup given at registration time.
pub type Cleanup = Box<dyn FnOnce() -> Result<(), String> + Send>;

enum SubjectMatcher {
    All,
    Exact(Vec<String>),
    Regex(regex::Regex),
}

impl SubjectMatcher {
    fn matches(&self, subject: &str) -> bool {
        match self {
            SubjectMatcher::All => true,
            SubjectMatcher::Exact(v) => v.iter().any(|p| p == subject),
            SubjectMatcher::Regex(r) => r.is_match(subject),
        }
    }
}

struct Entry {
    id: RegistrationId,
    name: &'static str,
    rule: String,
    provenance: Provenance,
    source: Source,
    matcher: SubjectMatcher,
    handler: HandlerFn,
}

impl Entry {
    fn failure(&self, message: String) -> HandlerFailure {
        HandlerFailure {
            name: self.rule.clone(),
            provenance: self.provenance.to_string(),
            message,
        }
    }

    fn contribution(&self, verdict: Verdict, reason: Option<String>) -> Contribution {
        Contribution {
            rule: self.rule.clone(),
            source: Some(self.source.clone()),
            guard: matches!(self.handler, HandlerFn::Guard(_)),
            verdict,
            reason,
            context: None,
            halt: None,
            observe: false,
        }
    }
}

struct CleanupSlot {
    id: RegistrationId,
    name: String,
    run: Cleanup,
}

// ---------------------------------------------------------------------------------------------
// Panic containment
// ---------------------------------------------------------------------------------------------

fn panic_message(p: Box<dyn Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        format!("panicked: {s}")
    } else if let Some(s) = p.downcast_ref::<String>() {
        format!("panicked: {s}")
    } else {
        "panicked".to_string()
    }
}

/// Polls a boxed future inside `catch_unwind`.
struct CatchUnwind<'a, T>(BoxFuture<'a, T>);

impl<T> Future for CatchUnwind<'_, T> {
    type Output = Result<T, String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = &mut self.get_mut().0;
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(p) => Poll::Ready(Err(panic_message(p))),
        }
    }
}

/// Call a handler adapter with panics and errors contained.
async fn invoke<I: ?Sized, T>(
    f: for<'b> fn(&'b I) -> Reply<'b, T>,
    input: &I,
) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(|| f(input))) {
        Err(p) => Err(panic_message(p)),
        Ok(Reply::Ready(r)) => r.map_err(|e| e.0),
        Ok(Reply::Pending(fut)) => match CatchUnwind(fut).await {
            Ok(r) => r.map_err(|e| e.0),
            Err(m) => Err(m),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Tools, wrappers, approval
// ---------------------------------------------------------------------------------------------

/// A tool the harness dispatches.
pub trait Tool: Send + Sync {
    /// Run the call. `Err` is a tool failure (normalized into an error result).
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, String>>;

    /// Definition-owned final content (seed: `ToolDefinition.finalizeContent`): runs exactly
    /// once on every outcome, failures included; may replace the content (`Some`) but not
    /// `is_error`. A panic here keeps the content.
    fn finalize_content(&self, _content: &Value, _is_error: bool) -> Option<Value> {
        None
    }
}

/// A [`Tool`] from a sync closure (see [`tool_fn`]).
pub struct FnTool<F>(F);

impl<F> fmt::Debug for FnTool<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnTool")
    }
}

/// A tool from a closure `Fn(&ToolCall) -> Result<Value, String>`.
pub fn tool_fn<F>(f: F) -> FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, String> + Send + Sync,
{
    FnTool(f)
}

impl<F> Tool for FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, String> + Send + Sync,
{
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, String>> {
        let r = (self.0)(call);
        Box::pin(std::future::ready(r))
    }
}

/// The rest of the around-dispatch chain; `run` it (any number of times, e.g. to retry).
#[derive(Clone, Copy)]
pub struct Next<'a> {
    rest: &'a [Box<dyn Wrapper>],
    tool: &'a dyn Tool,
    call: &'a ToolCall,
}

impl fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("remaining_wrappers", &self.rest.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Next<'a> {
    /// Run the remaining wrappers and the tool. The result is already normalized: a tool
    /// error or panic is an error [`ToolResult`].
    pub fn run(self) -> BoxFuture<'a, ToolResult> {
        match self.rest.split_first() {
            Some((w, rest)) => w.around(
                self.call,
                Next {
                    rest,
                    tool: self.tool,
                    call: self.call,
                },
            ),
            None => Box::pin(async move {
                let fut = match catch_unwind(AssertUnwindSafe(|| self.tool.call(self.call))) {
                    Ok(f) => f,
                    Err(p) => {
                        return ToolResult::error(ExecError::Tool {
                            message: panic_message(p),
                        });
                    }
                };
                match CatchUnwind(fut).await {
                    Ok(Ok(v)) => ToolResult::ok(v),
                    Ok(Err(message)) => ToolResult::error(ExecError::Tool { message }),
                    Err(message) => ToolResult::error(ExecError::Tool { message }),
                }
            }),
        }
    }
}

/// An around-dispatch layer (seed: `tools/execute`): timeout, retry, metrics. Wrappers
/// compose in registration order (the first is outermost) and cannot change the call.
pub trait Wrapper: Send + Sync {
    /// Wrap one dispatch; call `next.run()` to delegate, or return a result without it.
    fn around<'a>(&'a self, call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult>;
}

/// Fails a dispatch that takes longer than the limit ([`ExecError::Timeout`]).
///
/// Needs a Tokio runtime with the time driver (`enable_time`) while the call runs.
#[derive(Debug, Clone, Copy)]
pub struct Timeout(pub Duration);

impl Wrapper for Timeout {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            match tokio::time::timeout(self.0, next.run()).await {
                Ok(r) => r,
                Err(_) => ToolResult::error(ExecError::Timeout {
                    after_ms: u64::try_from(self.0.as_millis()).unwrap_or(u64::MAX),
                }),
            }
        })
    }
}

/// Runs the dispatch again while it fails, at most `attempts` times in all (≥ 1).
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// Total attempts.
    pub attempts: u32,
}

impl Wrapper for Retry {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let mut last = next.run().await;
            for _ in 1..self.attempts.max(1) {
                if !last.is_error {
                    break;
                }
                last = next.run().await;
            }
            last
        })
    }
}

/// Counts dispatches, failures and total dispatch time (shared; clone the `Arc`).
#[derive(Debug, Default)]
pub struct Metrics {
    calls: AtomicU64,
    errors: AtomicU64,
    nanos: AtomicU64,
}

impl Metrics {
    /// Dispatches seen.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
    /// Dispatches that ended in an error result.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
    /// Total time inside the wrapped dispatch.
    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

impl Wrapper for Arc<Metrics> {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let t = Instant::now();
            let r = next.run().await;
            self.calls.fetch_add(1, Ordering::Relaxed);
            if r.is_error {
                self.errors.fetch_add(1, Ordering::Relaxed);
            }
            let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.nanos.fetch_add(ns, Ordering::Relaxed);
            r
        })
    }
}

/// How an `ask` was resolved (seed: approval seam).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    /// Run this call once.
    AllowedOnce,
    /// The user said no.
    Rejected,
    /// Nobody answered.
    Cancelled,
}

/// Resolves `ask` decisions in [`Harness::execute`]; without one, every ask is a denial.
pub trait Approver: Send + Sync {
    /// Ask about `call`, showing `reason`.
    fn approve<'a>(&'a self, call: &'a ToolCall, reason: &'a str) -> BoxFuture<'a, Approval>;
}

// ---------------------------------------------------------------------------------------------
// Application events (#[derive(Event)])
// ---------------------------------------------------------------------------------------------

/// An application's own event (agent-harness seed: `HookEvent<TType, TResult>`), usually
/// written with `#[derive(Event)]`.
///
/// The event type owns its decision type; a result-producing event must say how the
/// handlers' results combine ([`Event::reduce`], the seed's reducer table) — the derive
/// refuses to compile an event with a decision and no reducer. Observational events have
/// `Decision = ()`.
pub trait Event: Sized + Send + Sync + 'static {
    /// The event's name.
    const NAME: &'static str;
    /// What handlers may return (`()` for observational events).
    type Decision: Send + 'static;
    /// Combine the handlers (in registration order) into the event's result.
    fn reduce(event: &Self, handlers: &[EventHandler<Self>]) -> Option<Self::Decision>;
}

type EventFn<E> = dyn Fn(&E) -> Option<<E as Event>::Decision> + Send + Sync;

/// One registered handler of an application event, as reducers see it.
pub struct EventHandler<E: Event> {
    id: RegistrationId,
    name: String,
    source: Option<String>,
    f: Box<EventFn<E>>,
    failures: Arc<Mutex<Vec<HandlerFailure>>>,
}

impl<E: Event> fmt::Debug for EventHandler<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventHandler")
            .field("name", &self.name)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<E: Event> EventHandler<E> {
    /// Registration name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Registration source (provenance), if given.
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// Run the handler; a panic is contained, reported with provenance in
    /// [`Harness::take_failures`], and reads as `None`.
    pub fn call(&self, event: &E) -> Option<E::Decision> {
        match catch_unwind(AssertUnwindSafe(|| (self.f)(event))) {
            Ok(r) => r,
            Err(p) => {
                if let Ok(mut v) = self.failures.lock() {
                    v.push(HandlerFailure {
                        name: self.name.clone(),
                        provenance: self.source.clone().unwrap_or_default(),
                        message: panic_message(p),
                    });
                }
                None
            }
        }
    }
}

/// Reducer for observational events: call every handler, produce nothing.
pub fn notify_all<E: Event<Decision = ()>>(event: &E, handlers: &[EventHandler<E>]) -> Option<()> {
    for h in handlers {
        h.call(event);
    }
    None
}

/// Reducer: the first handler that returns something wins (later ones do not run).
pub fn first_result<E: Event>(event: &E, handlers: &[EventHandler<E>]) -> Option<E::Decision> {
    handlers.iter().find_map(|h| h.call(event))
}

/// Options of a runtime registration (agent-harness seed: `HookRegistrationOptions`).
#[derive(Default)]
pub struct RegistrationOptions {
    /// Provenance text (extension path, module).
    pub source: Option<String>,
    /// Runs once on unregister or dispose.
    pub cleanup: Option<Cleanup>,
}

impl fmt::Debug for RegistrationOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistrationOptions")
            .field("source", &self.source)
            .field("cleanup", &self.cleanup.is_some())
            .finish()
    }
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// The result of one seam method: the typed decision and the merged outcome behind it.
#[derive(Debug, Clone)]
pub struct Evaluated<D> {
    /// The typed decision.
    pub decision: D,
    /// Handlers that failed (contained; see each seam method for what a failure means).
    pub failures: Vec<HandlerFailure>,
    seam: Seam,
    contributions: Vec<Contribution>,
    warnings: Vec<String>,
    outcome: OnceLock<Outcome>,
}

impl<D> Evaluated<D> {
    fn ready(decision: D, outcome: Outcome, failures: Vec<HandlerFailure>) -> Evaluated<D> {
        Evaluated {
            decision,
            failures,
            seam: outcome.seam.unwrap_or(Seam::PreTool),
            contributions: Vec::new(),
            warnings: Vec::new(),
            outcome: OnceLock::from(outcome),
        }
    }

    /// The merged outcome (reasons and contexts with provenance, every fired rule/handler,
    /// warnings). On `pre-tool` it is merged on first use, so a caller that only needs the
    /// decision does not pay for it.
    pub fn outcome(&self) -> &Outcome {
        self.outcome.get_or_init(|| {
            let mut o = merge(self.seam, self.contributions.clone());
            o.warnings = self.warnings.clone();
            o
        })
    }

    /// The merged outcome, by value.
    pub fn into_outcome(mut self) -> Outcome {
        match self.outcome.take() {
            Some(o) => o,
            None => {
                let mut o = merge(self.seam, std::mem::take(&mut self.contributions));
                o.warnings = std::mem::take(&mut self.warnings);
                o
            }
        }
    }
}

/// The pre-tool decision of contributions, exactly as [`merge`] + [`Outcome::pre_tool`]
/// would give it, without building the outcome.
fn pre_tool_decision(contributions: &[Contribution]) -> Option<PreToolDecision> {
    let seam = Seam::PreTool;
    let best = contributions
        .iter()
        .filter(|c| !c.observe)
        .map(|c| c.verdict)
        .fold(Verdict::Abstain, |b, v| {
            if v.rank(seam) > b.rank(seam) { v } else { b }
        });
    if best.rank(seam) == 0 {
        return None;
    }
    let winners = || {
        contributions
            .iter()
            .filter(move |c| !c.observe && c.verdict == best)
    };
    let cap = winners()
        .filter_map(|c| c.reason.as_ref().map(|r| r.len() + c.rule.len() + 4))
        .sum();
    let mut reason = String::with_capacity(cap);
    for c in winners() {
        if let Some(r) = &c.reason {
            if !reason.is_empty() {
                reason.push('\n');
            }
            reason.push_str(r);
            reason.push_str(" [");
            reason.push_str(&c.rule);
            reason.push(']');
        }
    }
    Some(match best {
        Verdict::Allow => PreToolDecision::Allow {
            reason: (!reason.is_empty()).then_some(reason),
            updated_input: None,
        },
        Verdict::Ask => PreToolDecision::Ask { reason },
        Verdict::Defer => PreToolDecision::Defer { reason },
        _ => PreToolDecision::Deny { reason },
    })
}

/// Policy tables and Rust handlers evaluated together (see the module docs).
///
/// Build with [`Harness::new`] and the `add_*` / `register*` / `wrap` methods (they take
/// `&mut self`), then evaluate through `&self` from any number of tasks.
pub struct Harness {
    tables: Vec<TableRef>,
    dialect: Dialect,
    hooks: Vec<Vec<Entry>>,
    guards: Vec<Entry>,
    observers: Vec<Entry>,
    wrappers: Vec<Box<dyn Wrapper>>,
    approver: Option<Box<dyn Approver>>,
    events: HashMap<TypeId, EventSlot>,
    cleanups: Vec<CleanupSlot>,
    next_id: u64,
    failures: Arc<Mutex<Vec<HandlerFailure>>>,
}

impl fmt::Debug for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Harness")
            .field("tables", &self.tables.len())
            .field("hooks", &self.hooks.iter().map(Vec::len).sum::<usize>())
            .field("guards", &self.guards.len())
            .field("observers", &self.observers.len())
            .field("wrappers", &self.wrappers.len())
            .finish_non_exhaustive()
    }
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}

fn typed_or<D>(d: Option<D>, default: D) -> D {
    d.unwrap_or(default)
}

impl Harness {
    /// An empty harness (Claude Code dialect for table matchers).
    pub fn new() -> Harness {
        Harness {
            tables: Vec::new(),
            dialect: Dialect::ClaudeCode,
            hooks: (0..Seam::COUNT).map(|_| Vec::new()).collect(),
            guards: Vec::new(),
            observers: Vec::new(),
            wrappers: Vec::new(),
            approver: None,
            events: HashMap::new(),
            cleanups: Vec::new(),
            next_id: 1,
            failures: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The dialect tables evaluate in (tool-name aliases, matcher mode).
    pub fn with_dialect(mut self, dialect: Dialect) -> Harness {
        self.dialect = dialect;
        self
    }

    /// Add a policy table (`policy!(…)`, a [`PolicyTable`], or a [`DecisionTable`]). Tables
    /// evaluate in the order added, before handlers.
    pub fn add_table(&mut self, table: impl Into<TableRef>) -> &mut Harness {
        self.tables.push(table.into());
        self
    }

    /// Add an around-dispatch wrapper (the first added is outermost).
    pub fn wrap(&mut self, wrapper: impl Wrapper + 'static) -> &mut Harness {
        self.wrappers.push(Box::new(wrapper));
        self
    }

    /// Set the approver that resolves `ask` in [`Harness::execute`].
    pub fn set_approver(&mut self, approver: impl Approver + 'static) -> &mut Harness {
        self.approver = Some(Box::new(approver));
        self
    }

    fn fresh_id(&mut self) -> RegistrationId {
        let id = RegistrationId(self.next_id);
        self.next_id += 1;
        id
    }

    fn all_entries(&self) -> impl Iterator<Item = &Entry> {
        self.hooks
            .iter()
            .flatten()
            .chain(&self.guards)
            .chain(&self.observers)
    }

    /// Register every descriptor of a [`hooks!`](crate::hooks) list, in order.
    ///
    /// # Errors
    /// The first refused descriptor ([`RegisterError`]); the ones before it stay registered.
    pub fn register_all(
        &mut self,
        descriptors: &[HookDescriptor],
    ) -> Result<Vec<RegistrationId>, RegisterError> {
        descriptors.iter().map(|d| self.register(d)).collect()
    }

    /// Register one handler; its descriptor's cleanup (if any) runs on unregister/dispose.
    ///
    /// # Errors
    /// A duplicate name, an invalid matcher regex, or a handler kind that does not fit the
    /// seam.
    pub fn register(&mut self, d: &HookDescriptor) -> Result<RegistrationId, RegisterError> {
        let cleanup = d
            .cleanup
            .map(|f| -> Cleanup { Box::new(move || catch_cleanup(f)) });
        self.register_with(d, cleanup)
    }

    /// Register one handler with a cleanup closure (replacing the descriptor's own).
    ///
    /// # Errors
    /// As [`Harness::register`].
    pub fn register_with(
        &mut self,
        d: &HookDescriptor,
        cleanup: Option<Cleanup>,
    ) -> Result<RegistrationId, RegisterError> {
        if !d.handler.fits(d.seam) {
            return Err(RegisterError::Seam {
                name: d.name.to_string(),
                kind: d.handler.kind_name(),
                seam: d.seam,
            });
        }
        if self.all_entries().any(|e| e.name == d.name) {
            return Err(RegisterError::Duplicate(d.name.to_string()));
        }
        let matcher = match d
            .matcher
            .map(|m| Matcher::classify(m, MatcherMode::ClaudeCode))
        {
            None | Some(Matcher::All) => SubjectMatcher::All,
            Some(Matcher::Exact(v)) => SubjectMatcher::Exact(v),
            Some(Matcher::Regex(r)) => match regex::Regex::new(&r) {
                Ok(re) => SubjectMatcher::Regex(re),
                Err(e) => {
                    return Err(RegisterError::Matcher {
                        name: d.name.to_string(),
                        matcher: r,
                        message: e.to_string(),
                    });
                }
            },
        };
        let id = self.fresh_id();
        let entry = Entry {
            id,
            name: d.name,
            rule: d.name.to_string(),
            provenance: d.provenance,
            source: Source {
                file: Arc::from(d.provenance.file),
                line: d.provenance.line as usize,
                column: 1,
                scope: Scope::Embedded,
            },
            matcher,
            handler: d.handler,
        };
        match d.handler {
            HandlerFn::Guard(_) => self.guards.push(entry),
            HandlerFn::ToolResult(_) => self.observers.push(entry),
            _ => {
                if let Some(v) = self.hooks.get_mut(d.seam.index()) {
                    v.push(entry);
                }
            }
        }
        if let Some(run) = cleanup {
            self.cleanups.push(CleanupSlot {
                id,
                name: d.name.to_string(),
                run,
            });
        }
        Ok(id)
    }

    /// Register a handler of an application event (agent-harness seed: `hooks.on`).
    pub fn on<E: Event>(
        &mut self,
        name: &str,
        handler: impl Fn(&E) -> Option<E::Decision> + Send + Sync + 'static,
        options: RegistrationOptions,
    ) -> RegistrationId {
        let id = self.fresh_id();
        let h = EventHandler::<E> {
            id,
            name: name.to_string(),
            source: options.source,
            f: Box::new(handler),
            failures: self.failures.clone(),
        };
        let slot = self
            .events
            .entry(TypeId::of::<E>())
            .or_insert_with(|| EventSlot {
                list: Box::new(Vec::<EventHandler<E>>::new()),
                remove: remove_typed::<E>,
            });
        if let Some(v) = slot.list.downcast_mut::<Vec<EventHandler<E>>>() {
            v.push(h);
        }
        if let Some(run) = options.cleanup {
            self.cleanups.push(CleanupSlot {
                id,
                name: name.to_string(),
                run,
            });
        }
        id
    }

    /// Emit an application event: its reducer combines the handlers' results
    /// (`None`: no handler produced one, or an observational event).
    pub async fn emit<E: Event>(&self, event: &E) -> Option<E::Decision> {
        let handlers: &[EventHandler<E>] = self
            .events
            .get(&TypeId::of::<E>())
            .and_then(|b| b.list.downcast_ref::<Vec<EventHandler<E>>>())
            .map_or(&[], Vec::as_slice);
        E::reduce(event, handlers)
    }

    /// Remove one registration and run its cleanup once.
    ///
    /// Returns `Ok(false)` when the id is unknown (already removed).
    ///
    /// # Errors
    /// The cleanup's error (the registration is removed regardless).
    pub fn unregister(&mut self, id: RegistrationId) -> Result<bool, CleanupError> {
        let mut found = false;
        for v in self
            .hooks
            .iter_mut()
            .chain([&mut self.guards, &mut self.observers])
        {
            let before = v.len();
            v.retain(|e| e.id != id);
            found |= v.len() != before;
        }
        for slot in self.events.values_mut() {
            found |= (slot.remove)(slot.list.as_mut(), id);
        }
        if let Some(pos) = self.cleanups.iter().position(|c| c.id == id) {
            let slot = self.cleanups.remove(pos);
            let name = slot.name;
            return match catch_unwind(AssertUnwindSafe(slot.run)) {
                Ok(Ok(())) => Ok(true),
                Ok(Err(message)) => Err(CleanupError { name, message }),
                Err(p) => Err(CleanupError {
                    name,
                    message: panic_message(p),
                }),
            };
        }
        Ok(found)
    }

    /// Remove every registration and run the remaining cleanups once each, in reverse
    /// registration order; a failing (or panicking) cleanup does not stop the others.
    ///
    /// # Errors
    /// Every cleanup that failed, in the order they ran.
    pub fn dispose(&mut self) -> Result<(), CleanupErrors> {
        for v in &mut self.hooks {
            v.clear();
        }
        self.guards.clear();
        self.observers.clear();
        self.events.clear();
        let mut errors = Vec::new();
        while let Some(slot) = self.cleanups.pop() {
            let name = slot.name;
            match catch_unwind(AssertUnwindSafe(slot.run)) {
                Ok(Ok(())) => {}
                Ok(Err(message)) => errors.push(CleanupError { name, message }),
                Err(p) => errors.push(CleanupError {
                    name,
                    message: panic_message(p),
                }),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(CleanupErrors(errors))
        }
    }

    /// Failures of observers and application-event handlers since the last call (contained:
    /// they never change an outcome).
    pub fn take_failures(&self) -> Vec<HandlerFailure> {
        self.failures
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// Evaluate every table at `seam`: (hook contributions, guard contributions, the first
    /// table's outcome fields folded in).
    fn eval_tables(&self, seam: Seam, payload: &Value) -> TablePart {
        let mut part = TablePart::default();
        for t in &self.tables {
            let out = t.evaluate(seam, payload, self.dialect);
            for c in out.fired {
                if c.guard {
                    part.guards.push(c);
                } else {
                    part.hooks.push(c);
                }
            }
            part.warnings.extend(out.warnings);
            if out.rewritten_prompt.is_some() {
                part.rewritten_prompt = out.rewritten_prompt;
            }
            if out.redacted_response.is_some() {
                part.redacted = out.redacted_response;
            }
            part.suppress_prompt |= out.suppress_prompt;
            part.pending_runs.extend(out.pending_runs);
            part.hook_runs.extend(out.hook_runs);
        }
        part
    }

    fn subject_matches(e: &Entry, subject: Option<&str>) -> bool {
        match &e.matcher {
            SubjectMatcher::All => true,
            m => subject.is_some_and(|s| m.matches(s)),
        }
    }

    /// Phases 1 and 2 on a sealed call: tables' hooks, handler hooks, tables' guards,
    /// handler guards; merged most-restrictively.
    async fn pre_phase(&self, call: &ToolCall) -> Evaluated<Option<PreToolDecision>> {
        let mut failures = Vec::new();
        let mut warnings = Vec::new();
        let (mut contributions, table_guards) = if self.tables.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let part = self.eval_tables(Seam::PreTool, call.payload());
            warnings = part.warnings;
            (part.hooks, part.guards)
        };
        let hooks = self.hooks.get(Seam::PreTool.index()).map_or(&[][..], |v| v);
        for e in hooks {
            let HandlerFn::PreTool(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, Some(call.name())) {
                continue;
            }
            match invoke(f, call).await {
                Ok(None) => {}
                Ok(Some(d)) => {
                    let (verdict, reason) = match d {
                        PreToolDecision::Allow {
                            reason,
                            updated_input,
                        } => {
                            if updated_input.is_some() {
                                warnings.push(format!(
                                    "seamguard: handler `{}` ({}) returned updated_input; ignored: a tool call's arguments are sealed before policy runs",
                                    e.rule, e.provenance
                                ));
                            }
                            (Verdict::Allow, reason)
                        }
                        PreToolDecision::Ask { reason } => (Verdict::Ask, Some(reason)),
                        PreToolDecision::Defer { reason } => (Verdict::Defer, Some(reason)),
                        PreToolDecision::Deny { reason } => (Verdict::Deny, Some(reason)),
                    };
                    contributions.push(e.contribution(verdict, reason));
                }
                Err(m) => {
                    // Fail closed: a pre-tool hook that cannot answer denies the call.
                    contributions
                        .push(e.contribution(Verdict::Deny, Some(format!("handler failed: {m}"))));
                    failures.push(e.failure(m));
                }
            }
        }
        contributions.extend(table_guards);
        for e in &self.guards {
            let HandlerFn::Guard(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, Some(call.name())) {
                continue;
            }
            match invoke(f, call).await {
                Ok(None) => {}
                Ok(Some(deny)) => contributions.push(Contribution::from_guard(
                    &e.rule,
                    Some(e.source.clone()),
                    deny,
                )),
                Err(m) => {
                    contributions.push(Contribution::from_guard(
                        &e.rule,
                        Some(e.source.clone()),
                        GuardDeny {
                            reason: format!("guard failed: {m}"),
                        },
                    ));
                    failures.push(e.failure(m));
                }
            }
        }
        Evaluated {
            decision: pre_tool_decision(&contributions),
            failures,
            seam: Seam::PreTool,
            contributions,
            warnings,
            outcome: OnceLock::new(),
        }
    }

    /// **pre-tool** (phases 1–2 only, no dispatch): the merged [`PreToolDecision`] of every
    /// table and handler for a sealed call; `None` is abstain.
    ///
    /// A handler that panics or returns `Err` counts as a deny (fail closed) and is listed
    /// in `failures`. A handler's `Allow { updated_input }` is ignored with a warning: the
    /// call is sealed (interception-seams seed, "Pre-tool input rewrite is a separate
    /// consistency decision").
    pub async fn pre_tool(&self, call: &ToolCall) -> Evaluated<Option<PreToolDecision>> {
        self.pre_phase(call).await
    }

    /// **permission-request**: tables and handlers; `None` leaves the dialog to the user.
    /// A failing handler counts as a deny.
    pub async fn permission_request(
        &self,
        call: &ToolCall,
    ) -> Evaluated<Option<PermissionDecision>> {
        let mut payload = call.payload().clone();
        if let Some(o) = payload.as_object_mut() {
            o.insert(
                "hook_event_name".into(),
                Value::String(Seam::PermissionRequest.event_name().into()),
            );
        }
        let part = self.eval_tables(Seam::PermissionRequest, &payload);
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        for e in self.seam_entries(Seam::PermissionRequest) {
            let HandlerFn::Permission(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, Some(call.name())) {
                continue;
            }
            match invoke(f, call).await {
                Ok(None) => {}
                Ok(Some(PermissionDecision::Allow { .. })) => {
                    contributions.push(e.contribution(Verdict::Allow, None));
                }
                Ok(Some(PermissionDecision::Deny { message })) => {
                    contributions.push(e.contribution(Verdict::Deny, Some(message)));
                }
                Err(m) => {
                    contributions
                        .push(e.contribution(Verdict::Deny, Some(format!("handler failed: {m}"))));
                    failures.push(e.failure(m));
                }
            }
        }
        let mut outcome = merge(Seam::PermissionRequest, contributions);
        outcome.warnings = part.warnings;
        Evaluated::ready(outcome.permission(), outcome, failures)
    }

    fn seam_entries(&self, seam: Seam) -> &[Entry] {
        self.hooks.get(seam.index()).map_or(&[][..], |v| v)
    }

    /// **prompt-submit** (waterfall): tables first, then handlers in registration order;
    /// each handler sees the prompt as rewritten so far. A failing handler blocks the prompt
    /// (fail closed).
    pub async fn prompt_submit(&self, event: &SeamEvent) -> Evaluated<PromptDecision> {
        let part = self.eval_tables(Seam::PromptSubmit, &event.payload);
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let mut current = event.clone();
        current.seam = Seam::PromptSubmit;
        let mut rewritten = part.rewritten_prompt;
        if let (Some(p), Some(o)) = (&rewritten, current.payload.as_object_mut()) {
            o.insert("prompt".into(), Value::String(p.clone()));
        }
        for e in self.seam_entries(Seam::PromptSubmit) {
            let HandlerFn::Prompt(f) = e.handler else {
                continue;
            };
            match invoke(f, &current).await {
                Ok(None) => {}
                Ok(Some(PromptDecision::Allow {
                    rewritten_prompt,
                    additional_contexts,
                })) => {
                    contributions.push(e.contribution(Verdict::Allow, None));
                    push_contexts(&mut contributions, e, additional_contexts);
                    if let Some(p) = rewritten_prompt {
                        if let Some(o) = current.payload.as_object_mut() {
                            o.insert("prompt".into(), Value::String(p.clone()));
                        }
                        rewritten = Some(p);
                    }
                }
                Ok(Some(PromptDecision::Block { reason, .. })) => {
                    contributions.push(e.contribution(Verdict::Block, Some(reason)));
                }
                Err(m) => {
                    contributions
                        .push(e.contribution(Verdict::Block, Some(format!("handler failed: {m}"))));
                    failures.push(e.failure(m));
                }
            }
        }
        let mut outcome = merge(Seam::PromptSubmit, contributions);
        outcome.warnings = part.warnings;
        outcome.rewritten_prompt = rewritten;
        outcome.suppress_prompt = part.suppress_prompt && outcome.verdict() == Verdict::Block;
        let decision = typed_or(
            outcome.prompt(),
            PromptDecision::Allow {
                rewritten_prompt: None,
                additional_contexts: Vec::new(),
            },
        );
        Evaluated::ready(decision, outcome, failures)
    }

    /// **session-start** / **subagent-start**: the additional contexts of tables and
    /// handlers, in order. A failing handler adds nothing (startup cannot be blocked).
    pub async fn session_start(&self, event: &SeamEvent) -> Evaluated<Vec<String>> {
        let part = self.eval_tables(event.seam, &event.payload);
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let subject = event
            .seam
            .matcher_subject()
            .field()
            .and_then(|f| event.field(f));
        for e in self.seam_entries(event.seam) {
            let HandlerFn::Context(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, subject) {
                continue;
            }
            match invoke(f, event).await {
                Ok(Some(text)) => push_contexts(&mut contributions, e, vec![text]),
                Ok(None) => {}
                Err(m) => failures.push(e.failure(m)),
            }
        }
        let mut outcome = merge(event.seam, contributions);
        outcome.warnings = part.warnings;
        Evaluated::ready(
            outcome.contexts.iter().map(|a| a.text.clone()).collect(),
            outcome,
            failures,
        )
    }

    /// **stop** / **subagent-stop**: whether the agent continues, and with what reason.
    /// A failing handler lets the agent stop (no endless loops).
    pub async fn stop(&self, event: &SeamEvent) -> Evaluated<ContinuationDecision> {
        let part = self.eval_tables(event.seam, &event.payload);
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        for e in self.seam_entries(event.seam) {
            let HandlerFn::Continuation(f) = e.handler else {
                continue;
            };
            match invoke(f, event).await {
                Ok(Some(ContinuationDecision::Continue { reason })) => {
                    contributions.push(e.contribution(Verdict::Continue, Some(reason)));
                }
                Ok(_) => {}
                Err(m) => failures.push(e.failure(m)),
            }
        }
        let mut outcome = merge(event.seam, contributions);
        outcome.warnings = part.warnings;
        Evaluated::ready(
            typed_or(outcome.continuation(), ContinuationDecision::Stop),
            outcome,
            failures,
        )
    }

    /// Observe-only seams (`notification`, `session-end`, `pre-compact`, `post-compact`,
    /// `post-tool-failure`): tables (their `run`/`halt` actions) and observers.
    pub async fn notify(&self, event: &SeamEvent) -> Evaluated<()> {
        let part = self.eval_tables(event.seam, &event.payload);
        let mut failures = Vec::new();
        for e in self.seam_entries(event.seam) {
            let HandlerFn::Observe(f) = e.handler else {
                continue;
            };
            if let Err(m) = invoke(f, event).await {
                failures.push(e.failure(m));
            }
        }
        let mut outcome = merge(event.seam, part.hooks);
        outcome.warnings = part.warnings;
        Evaluated::ready((), outcome, failures)
    }

    /// **post-tool** (phase 4 on its own): tables' post-tool rules (when the tool was
    /// dispatched), then handlers as a waterfall — each sees the content as redacted so far.
    /// A failing handler stops the waterfall and is returned in `failures` (the pipeline
    /// turns it into an error result).
    pub async fn post_tool(&self, output: &ToolOutput) -> Evaluated<PostToolDecision> {
        let mut current = output.clone();
        let mut part = TablePart::default();
        if output.dispatched && !self.tables.is_empty() {
            let seam = if output.result.is_error {
                Seam::PostToolFailure
            } else {
                Seam::PostTool
            };
            let mut payload = output.call.payload().clone();
            if let Some(o) = payload.as_object_mut() {
                o.insert("hook_event_name".into(), seam.event_name().into());
                if output.result.is_error {
                    o.insert(
                        "error".into(),
                        Value::String(match &output.result.content {
                            Value::String(s) => s.clone(),
                            v => v.to_string(),
                        }),
                    );
                } else {
                    o.insert("tool_response".into(), output.result.content.clone());
                }
            }
            part = self.eval_tables(seam, &payload);
            if let Some(r) = part.redacted.take() {
                current.result.content = r;
            }
        }
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let mut redacted = false;
        for e in self.seam_entries(Seam::PostTool) {
            let HandlerFn::PostTool(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, Some(output.call.name())) {
                continue;
            }
            match invoke(f, &current).await {
                Ok(None) => {}
                Ok(Some(PostToolDecision::Accept {
                    additional_contexts,
                })) => push_contexts(&mut contributions, e, additional_contexts),
                Ok(Some(PostToolDecision::Redact {
                    tool_response,
                    additional_contexts,
                })) => {
                    current.result.content = tool_response;
                    redacted = true;
                    contributions.push(e.contribution(Verdict::Redact, None));
                    push_contexts(&mut contributions, e, additional_contexts);
                }
                Ok(Some(PostToolDecision::Block { feedback })) => {
                    contributions.push(e.contribution(Verdict::Block, Some(feedback)));
                }
                Err(m) => {
                    failures.push(e.failure(m));
                    break;
                }
            }
        }
        let mut outcome = merge(Seam::PostTool, contributions);
        outcome.warnings = part.warnings;
        if redacted || current.result.content != output.result.content {
            outcome.redacted_response = Some(current.result.content);
            if outcome.verdict.is_none() {
                outcome.verdict = Some(Verdict::Redact);
            }
        }
        let decision = typed_or(
            outcome.post_tool(),
            PostToolDecision::Accept {
                additional_contexts: Vec::new(),
            },
        );
        Evaluated::ready(decision, outcome, failures)
    }

    /// Run one sealed call through the five phases (see the module docs) and return its
    /// immutable record. Never panics and never returns a Rust error: every failure is an
    /// error [`ToolResult`].
    pub async fn execute(&self, call: ToolCall, tool: &dyn Tool) -> ToolExecution {
        let start = Instant::now();
        // Phases 1–2.
        let mut pre = self.pre_phase(&call).await;
        let mut failures = std::mem::take(&mut pre.failures);
        let decision = pre.decision.take();
        let pre_outcome = pre.into_outcome();
        let mut bypass = None;
        let mut dispatch = true;
        let mut result = ToolResult::ok(Value::Null);
        if let Some(f) = failures.first() {
            bypass = Some(f.exec_error());
            dispatch = false;
        } else {
            match decision {
                Some(PreToolDecision::Deny { reason } | PreToolDecision::Defer { reason }) => {
                    result = ToolResult::error(ExecError::Denied { reason });
                    dispatch = false;
                }
                Some(PreToolDecision::Ask { reason }) => {
                    let approval = match &self.approver {
                        None => None,
                        Some(a) => {
                            let fut = a.approve(&call, &reason);
                            Some(CatchUnwind(fut).await.unwrap_or(Approval::Cancelled))
                        }
                    };
                    if approval != Some(Approval::AllowedOnce) {
                        let how = match approval {
                            None => "no approver",
                            Some(Approval::Rejected) => "rejected",
                            _ => "cancelled",
                        };
                        result = ToolResult::error(ExecError::NotApproved {
                            reason: format!("{reason} ({how})"),
                        });
                        dispatch = false;
                    }
                }
                _ => {}
            }
        }
        // Phase 3.
        if dispatch {
            let next = Next {
                rest: &self.wrappers,
                tool,
                call: &call,
            };
            result = match CatchUnwind(next.run()).await {
                Ok(r) => r,
                Err(message) => ToolResult::error(ExecError::Tool {
                    message: format!("wrapper {message}"),
                }),
            };
        }
        // Phase 4.
        let mut feedback = None;
        let mut contexts = Vec::new();
        let mut post = None;
        if let Some(err) = bypass {
            result = ToolResult::error(err);
        } else {
            let output = ToolOutput {
                call: call.clone(),
                result,
                dispatched: dispatch,
            };
            let ev = self.post_tool(&output).await;
            result = output.result;
            if let Some(f) = ev.failures.first() {
                result = ToolResult::error(f.exec_error());
                failures.extend(ev.failures.clone());
            } else {
                if let Some(r) = &ev.outcome().redacted_response {
                    result.content = r.clone();
                }
                if let PostToolDecision::Block { feedback: fb } = &ev.decision {
                    feedback = Some(fb.clone());
                }
                contexts = ev
                    .outcome()
                    .contexts
                    .iter()
                    .map(|a| Injected {
                        text: a.text.clone(),
                        source: a.rule.clone(),
                        call: Some(call.id()),
                    })
                    .collect();
            }
            post = Some(ev.into_outcome());
        }
        // Phase 5: final content, exactly once, on every outcome.
        if let Ok(Some(c)) = catch_unwind(AssertUnwindSafe(|| {
            tool.finalize_content(&result.content, result.is_error)
        })) {
            result.content = c;
        }
        let exec = ToolExecution {
            call,
            result,
            feedback,
            contexts,
            pre: pre_outcome,
            post,
            dispatched: dispatch,
            failures,
            elapsed: start.elapsed(),
        };
        // Observers: an immutable snapshot; panics contained per observer.
        for e in &self.observers {
            let HandlerFn::ToolResult(f) = e.handler else {
                continue;
            };
            if !Self::subject_matches(e, Some(exec.call.name())) {
                continue;
            }
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| f(&exec)))
                && let Ok(mut v) = self.failures.lock()
            {
                v.push(e.failure(panic_message(p)));
            }
        }
        exec
    }

    /// Start a batch of tool calls whose contexts are appended after all its results.
    pub fn batch(&self) -> Batch<'_> {
        Batch {
            harness: self,
            results: Vec::new(),
            fifo: Injector(Arc::new(Mutex::new(Vec::new()))),
        }
    }
}

fn catch_cleanup(f: fn() -> Result<(), String>) -> Result<(), String> {
    catch_unwind(f).unwrap_or_else(|p| Err(panic_message(p)))
}

struct EventSlot {
    list: Box<dyn Any + Send + Sync>,
    remove: fn(&mut (dyn Any + Send + Sync), RegistrationId) -> bool,
}

fn remove_typed<E: Event>(b: &mut (dyn Any + Send + Sync), id: RegistrationId) -> bool {
    match b.downcast_mut::<Vec<EventHandler<E>>>() {
        Some(v) => {
            let n = v.len();
            v.retain(|h| h.id != id);
            n != v.len()
        }
        None => false,
    }
}

fn push_contexts(contributions: &mut Vec<Contribution>, e: &Entry, contexts: Vec<String>) {
    for text in contexts {
        let mut c = e.contribution(Verdict::Abstain, None);
        c.context = Some(text);
        contributions.push(c);
    }
}

#[derive(Default)]
struct TablePart {
    hooks: Vec<Contribution>,
    guards: Vec<Contribution>,
    warnings: Vec<String>,
    rewritten_prompt: Option<String>,
    redacted: Option<Value>,
    suppress_prompt: bool,
    pending_runs: Vec<(String, String)>,
    hook_runs: Vec<crate::decision::HookRun>,
}

/// The batch's context FIFO: tools (or anything running during the batch) push contexts
/// here; they are appended after the batch's results, in the order pushed. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Injector(Arc<Mutex<Vec<Injected>>>);

impl Injector {
    /// Queue a context (asynchronous injection; seed: `agent.inject()` during execution).
    pub fn inject(&self, source: &str, text: &str) {
        if let Ok(mut v) = self.0.lock() {
            v.push(Injected {
                text: text.to_string(),
                source: source.to_string(),
                call: None,
            });
        }
    }

    fn push_all(&self, items: &[Injected]) {
        if let Ok(mut v) = self.0.lock() {
            v.extend(items.iter().cloned());
        }
    }

    fn drain(&self) -> Vec<Injected> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// A batch of tool calls (one model step). Results are recorded in call order; contexts
/// wait in the batch's FIFO until [`Batch::settle`].
#[derive(Debug)]
pub struct Batch<'h> {
    harness: &'h Harness,
    results: Vec<ToolExecution>,
    fifo: Injector,
}

/// One entry of the transcript a settled batch produces.
#[derive(Debug, Clone)]
pub enum TranscriptEntry {
    /// A tool result (in call order).
    Result(Box<ToolExecution>),
    /// A context message (after every result).
    Context(Injected),
}

/// A settled batch: every result, then every context in FIFO order.
#[derive(Debug, Clone)]
pub struct BatchOutcome {
    /// Results, in call order.
    pub results: Vec<ToolExecution>,
    /// Contexts, in the order they entered the FIFO.
    pub contexts: Vec<Injected>,
}

impl BatchOutcome {
    /// What the loop appends: results first, contexts after (tool-call/result adjacency).
    pub fn transcript(&self) -> Vec<TranscriptEntry> {
        self.results
            .iter()
            .map(|r| TranscriptEntry::Result(Box::new(r.clone())))
            .chain(self.contexts.iter().cloned().map(TranscriptEntry::Context))
            .collect()
    }
}

impl Batch<'_> {
    /// The batch's injector (give it to tools that add context while they run).
    pub fn injector(&self) -> Injector {
        self.fifo.clone()
    }

    /// Run one call through [`Harness::execute`]; its contexts enter the FIFO when its
    /// post-tool phase has finished.
    pub async fn execute(&mut self, call: ToolCall, tool: &dyn Tool) -> &ToolExecution {
        let exec = self.harness.execute(call, tool).await;
        self.fifo.push_all(&exec.contexts);
        let i = self.results.len();
        self.results.push(exec);
        &self.results[i]
    }

    /// Settle: every result, then the FIFO's contexts in order.
    pub fn settle(self) -> BatchOutcome {
        BatchOutcome {
            results: self.results,
            contexts: self.fifo.drain(),
        }
    }
}

#[doc(hidden)]
pub mod __private {
    //! Used by code that `seamguard-macros` generates; not a public API.
    pub use crate::decision::{
        ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
        PromptDecision,
    };
    pub use crate::dialect::Dialect;
    pub use crate::matcher::{Matcher, MatcherMode};
    pub use crate::policy;
    pub use crate::seam::Seam;
    pub use serde_json;

    use super::{BoxFuture, HandlerError, IntoReply, Reply};
    use std::future::Future;

    /// A sync handler's return value as a reply.
    pub fn ready<'a, T, R: IntoReply<T>>(r: R) -> Reply<'a, T> {
        Reply::Ready(r.into_reply())
    }

    /// An async handler's future as a reply.
    pub fn pending<'a, T, R, F>(f: F) -> Reply<'a, T>
    where
        R: IntoReply<T>,
        F: Future<Output = R> + Send + 'a,
    {
        let fut: BoxFuture<'a, Result<T, HandlerError>> =
            Box::pin(async move { f.await.into_reply() });
        Reply::Pending(fut)
    }

    /// A cleanup fn's return value (`()` or `Result<(), E: Display>`).
    pub trait IntoCleanup {
        /// Convert.
        fn into_cleanup(self) -> Result<(), String>;
    }
    impl IntoCleanup for () {
        fn into_cleanup(self) -> Result<(), String> {
            Ok(())
        }
    }
    impl<E: std::fmt::Display> IntoCleanup for Result<(), E> {
        fn into_cleanup(self) -> Result<(), String> {
            self.map_err(|e| e.to_string())
        }
    }

    /// Type check of a `tool-result` observer.
    pub const fn observer(f: fn(&super::ToolExecution)) -> fn(&super::ToolExecution) {
        f
    }
}
