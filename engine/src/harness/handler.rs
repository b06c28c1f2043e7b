//! Handlers and their descriptors: what a Rust handler may return at each seam, and how
//! `#[hook]` / `#[guard]` describe one to the harness.
//!
//! In: a handler fn (sync or async) with its name, seam, matcher and provenance. Out: a
//! [`HookDescriptor`] holding a typed [`HandlerFn`], whose calls answer a [`Reply`] of the
//! seam's decision type; a failed call is a [`HandlerFailure`].

use std::fmt;

use std::sync::Arc;

use super::contain::{CatchUnwind, contained, panic_message};
use super::model::{Dyn, HandlerError, HookContext, Reply, Stored};
use super::{BoxFuture, SeamEvent, ToolCall, ToolExecution, ToolOutput};
use crate::decision::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};
use crate::seam::Seam;

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
        #[diagnostic::do_not_recommend]
        impl IntoReply<$t> for $t {
            fn into_reply(self) -> Result<$t, HandlerError> {
                Ok(self)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<E: fmt::Display> IntoReply<$t> for Result<$t, E> {
            fn into_reply(self) -> Result<$t, HandlerError> {
                self.map_err(|e| HandlerError(e.to_string()))
            }
        }
    };
    ($t:ty, bare) => {
        into_reply!(Option<$t>);
        #[diagnostic::do_not_recommend]
        impl IntoReply<Option<$t>> for $t {
            fn into_reply(self) -> Result<Option<$t>, HandlerError> {
                Ok(Some(self))
            }
        }
        #[diagnostic::do_not_recommend]
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
    pub(super) fn kind_name(&self) -> &'static str {
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
    pub(super) fn fits(&self, seam: Seam) -> bool {
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

impl Stored {
    pub(super) fn is_guard(&self) -> bool {
        matches!(self, Stored::Guard(_))
    }
}

impl From<HandlerFn> for Stored {
    fn from(h: HandlerFn) -> Stored {
        use std::sync::Arc;
        match h {
            HandlerFn::PreTool(f) => Stored::PreTool(Arc::new(move |i, _| f(i))),
            HandlerFn::Guard(f) => Stored::Guard(Arc::new(move |i, _| f(i))),
            HandlerFn::Permission(f) => Stored::Permission(Arc::new(move |i, _| f(i))),
            HandlerFn::PostTool(f) => Stored::PostTool(Arc::new(move |i, _| f(i))),
            HandlerFn::Prompt(f) => Stored::Prompt(Arc::new(move |i, _| f(i))),
            HandlerFn::Context(f) => Stored::Context(Arc::new(move |i, _| f(i))),
            HandlerFn::Continuation(f) => Stored::Continuation(Arc::new(move |i, _| f(i))),
            HandlerFn::Observe(f) => Stored::Observe(Arc::new(move |i, _| f(i))),
            HandlerFn::ToolResult(f) => Stored::ToolResult(Arc::new(move |i, _| {
                f(i);
                Reply::Ready(Ok(()))
            })),
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
    /// ([`Matcher::classify`](crate::Matcher::classify)); `None` matches all.
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

/// A sync handler closure as [`Harness::on`] stores it.
pub type Closure<E, O> = Arc<dyn Fn(&E, &HookContext) -> O + Send + Sync>;

/// An async handler as [`Harness::on_async`] stores it: called with the event and context,
/// it returns a `'static` future (the event and context are cloned into it).
pub type AsyncClosure<E, O> = Arc<dyn Fn(&E, &HookContext) -> BoxFuture<'static, O> + Send + Sync>;

/// A handler given to a [`Target`]: sync or async.
pub enum Handler<E, O> {
    /// From [`Harness::on`].
    Sync(Closure<E, O>),
    /// From [`Harness::on_async`].
    Async(AsyncClosure<E, O>),
}

impl<E, O> std::fmt::Debug for Handler<E, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Handler::Sync(_) => "Handler::Sync",
            Handler::Async(_) => "Handler::Async",
        })
    }
}

impl<E: 'static, O: Send + 'static> Handler<E, O> {
    /// The stored form: a reply now (sync) or a future (async), with `map` applied to the
    /// handler's output.
    pub(super) fn stored<T: 'static>(
        self,
        map: impl Fn(O) -> T + Send + Sync + Copy + 'static,
    ) -> Dyn<E, T> {
        match self {
            Handler::Sync(f) => Arc::new(move |i, cx| Reply::Ready(Ok(map(f(i, cx))))),
            Handler::Async(f) => Arc::new(move |i, cx| {
                let fut = f(i, cx);
                Reply::Pending(Box::pin(async move { Ok(map(fut.await)) }))
            }),
        }
    }
}

/// The failure message of a handler stopped by cancellation.
pub(super) const CANCELLED: &str = "cancelled";

/// Call a handler with panics and errors contained; a cancelled run does not call it, and
/// an async handler still running when the run is cancelled is dropped (`"cancelled"`).
pub(super) async fn invoke<I, T>(f: &Dyn<I, T>, input: &I, cx: &HookContext) -> Result<T, String> {
    if cx.is_cancelled() {
        return Err(CANCELLED.to_string());
    }
    call(f, input, cx, || Err(CANCELLED.to_string())).await
}

/// Call an observer with panics and errors contained. It runs also for a cancelled run
/// (it observes how the run ended); an async observer still running when the run is
/// cancelled is dropped, which is not a failure.
pub(super) async fn observe<I>(f: &Dyn<I, ()>, input: &I, cx: &HookContext) -> Result<(), String> {
    call(f, input, cx, || Ok(())).await
}

/// Call `f` with panics and errors contained; an async handler still running when the run
/// is cancelled is dropped and answers `cancelled()`.
async fn call<I, T>(
    f: &Dyn<I, T>,
    input: &I,
    cx: &HookContext,
    cancelled: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    match contained(|| f(input, cx)) {
        Err(p) => Err(panic_message(p)),
        Ok(Reply::Ready(r)) => r.map_err(|e| e.0),
        Ok(Reply::Pending(fut)) => {
            tokio::select! {
                biased;
                () = cx.signal().cancelled() => cancelled(),
                r = CatchUnwind(fut) => r.and_then(|r| r.map_err(|e| e.0)),
            }
        }
    }
}
