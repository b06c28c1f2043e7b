//! One registration API (agent-harness seed, "Hook handlers and registration options"):
//! [`Harness::on`]`(target, handler, options)` for built-in seams and application events
//! alike, with closures that keep their own state, the run's [`HookContext`], provenance,
//! an optional cleanup, and names unique across every registration path (descriptors from
//! `#[hook]` included).
//!
//! In: a target ([`at`]), a closure — sync, `Fn(&Event, &HookContext) -> Output`
//! ([`Harness::on`]), or async, `Fn(Event, HookContext) -> impl Future<Output = Output>`
//! ([`Harness::on_async`]) — and [`RegistrationOptions`]. Out: a [`Registration`], the
//! handle that unregisters it ([`Registration::unregister`]), or a [`RegisterError`].
//!
//! Both take `&self`: an `Arc<Harness>` shared across tasks registers and unregisters
//! extensions while calls are in flight (each call keeps the handlers it started with).
//!
//! A sync closure runs on the task that evaluates the seam: it must not block (it would
//! stall the runtime and cannot be stopped by cancellation). Anything that waits — a
//! service, a lock across an await, a timer — belongs in an async closure: its future is
//! awaited, and dropped as soon as the run's token is cancelled (the handler then fails the
//! way a failing handler does at its seam). An async closure gets its own copies of the
//! event and the [`HookContext`] (a [`ToolCall`] is a reference-counted handle; the other
//! events are cloned), so the future it returns is `'static` and can capture state
//! (`Arc<…>`) moved into it.

use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use super::handler::{AsyncClosure, Handler};
use super::model::Stored;
use super::registry::Install;
use super::{
    BoxFuture, CleanupError, Event, Harness, HookContext, RegisterError, Registration,
    RegistrationId, RegistrationOptions, SeamEvent, ToolCall, ToolExecution, ToolOutput,
};
use crate::decision::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};
use crate::seam::Seam;

/// What [`Harness::on`] registers at: one target per built-in seam (and guards, and
/// tool-result observers), or an application event ([`at::event`]).
pub trait Target: Sized {
    /// What the handler receives.
    type Event: 'static;
    /// What the handler returns.
    type Output: Send + 'static;
    /// The target's name (the default registration name is `<name>#<id>`).
    fn name(&self) -> &'static str;
    /// Store `handler`.
    #[doc(hidden)]
    fn install(
        self,
        harness: &Harness,
        handler: Handler<Self::Event, Self::Output>,
        reg: Reg,
    ) -> Result<RegistrationId, RegisterError>;
}

/// The options of one registration, resolved (name, provenance).
#[doc(hidden)]
pub struct Reg {
    name: String,
    provenance: String,
    file: &'static str,
    line: u32,
    matcher: Option<String>,
    cleanup: Option<super::Cleanup>,
}

impl std::fmt::Debug for Reg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reg")
            .field("name", &self.name)
            .field("provenance", &self.provenance)
            .finish_non_exhaustive()
    }
}

/// The targets of [`Harness::on`].
pub mod at {
    use super::*;

    macro_rules! seam_target {
        ($(#[$doc:meta])* $t:ident, $seam:ident, $variant:ident, $input:ty, $output:ty) => {
            $(#[$doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $t;

            impl Target for $t {
                type Event = $input;
                type Output = $output;
                fn name(&self) -> &'static str {
                    Seam::$seam.name()
                }
                fn install(
                    self,
                    harness: &Harness,
                    handler: Handler<$input, $output>,
                    reg: Reg,
                ) -> Result<RegistrationId, RegisterError> {
                    let f = Stored::$variant(handler.stored(|o| o));
                    harness.install_reg(Seam::$seam, f, reg)
                }
            }
        };
    }

    seam_target!(
        /// `pre-tool` hook: allow / deny / ask / defer, or abstain with `None`.
        PreTool, PreTool, PreTool, ToolCall, Option<PreToolDecision>
    );
    seam_target!(
        /// Guard (pre-tool, after every hook): deny or abstain, never allow.
        Guard, PreTool, Guard, ToolCall, Option<GuardDeny>
    );
    seam_target!(
        /// `permission-request` hook.
        PermissionRequest, PermissionRequest, Permission, ToolCall, Option<PermissionDecision>
    );
    seam_target!(
        /// `post-tool` transform (waterfall).
        PostTool, PostTool, PostTool, ToolOutput, Option<PostToolDecision>
    );
    seam_target!(
        /// `prompt-submit` hook (waterfall: later handlers see earlier rewrites).
        PromptSubmit, PromptSubmit, Prompt, SeamEvent, Option<PromptDecision>
    );
    seam_target!(
        /// `session-start`: an additional context, or none.
        SessionStart, SessionStart, Context, SeamEvent, Option<String>
    );
    seam_target!(
        /// `subagent-start`: an additional context, or none.
        SubagentStart, SubagentStart, Context, SeamEvent, Option<String>
    );
    seam_target!(
        /// `stop`: continue with a reason, or let it stop.
        Stop, Stop, Continuation, SeamEvent, Option<ContinuationDecision>
    );
    seam_target!(
        /// `subagent-stop`: continue with a reason, or let it stop.
        SubagentStop, SubagentStop, Continuation, SeamEvent, Option<ContinuationDecision>
    );

    /// An observe-only seam (`notification`, `session-end`, `pre-compact`, `post-compact`,
    /// `post-tool-failure`); another seam is refused ([`RegisterError::Seam`]).
    #[derive(Debug, Clone, Copy)]
    pub struct Observe(pub Seam);

    impl Target for Observe {
        type Event = SeamEvent;
        type Output = ();
        fn name(&self) -> &'static str {
            self.0.name()
        }
        fn install(
            self,
            harness: &Harness,
            handler: Handler<SeamEvent, ()>,
            reg: Reg,
        ) -> Result<RegistrationId, RegisterError> {
            use Seam as S;
            if !matches!(
                self.0,
                S::Notification
                    | S::SessionEnd
                    | S::PreCompact
                    | S::PostCompact
                    | S::PostToolFailure
            ) {
                return Err(RegisterError::Seam {
                    name: reg.name,
                    kind: "observer",
                    seam: self.0,
                });
            }
            harness.install_reg(self.0, Stored::Observe(handler.stored(|o| o)), reg)
        }
    }

    /// `tool-result` observer: an immutable snapshot after the pipeline.
    #[derive(Debug, Clone, Copy)]
    pub struct ToolResult;

    impl Target for ToolResult {
        type Event = ToolExecution;
        type Output = ();
        fn name(&self) -> &'static str {
            "tool-result"
        }
        fn install(
            self,
            harness: &Harness,
            handler: Handler<ToolExecution, ()>,
            reg: Reg,
        ) -> Result<RegistrationId, RegisterError> {
            harness.install_reg(
                Seam::PostTool,
                Stored::ToolResult(handler.stored(|o| o)),
                reg,
            )
        }
    }

    /// An application event `E` (see [`event`]).
    pub struct App<E>(PhantomData<fn() -> E>);

    impl<E> std::fmt::Debug for App<E> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("App")
        }
    }

    /// The target of application event `E`: `harness.on(at::event::<InputEvent>(), …)`.
    pub fn event<E: Event>() -> App<E> {
        App(PhantomData)
    }

    impl<E: Event> Target for App<E> {
        type Event = E;
        type Output = Option<E::Decision>;
        fn name(&self) -> &'static str {
            E::NAME
        }
        fn install(
            self,
            harness: &Harness,
            handler: Handler<E, Option<E::Decision>>,
            reg: Reg,
        ) -> Result<RegistrationId, RegisterError> {
            if reg.matcher.is_some() {
                return Err(RegisterError::Matcher {
                    name: reg.name,
                    matcher: reg.matcher.unwrap_or_default(),
                    message: "application events have no subject to match".into(),
                });
            }
            harness.install_event::<E>(reg.name, Some(reg.provenance), handler, reg.cleanup)
        }
    }
}

impl Harness {
    /// Register `handler` at `target` — a built-in seam or an application event — with
    /// `options` (agent-harness seed: `hooks.on(type, handler, {source, cleanup})`).
    ///
    /// The handler is a closure (it can own its state) called with the event and the run's
    /// [`HookContext`] (cancellation signal, application context). A panic is contained
    /// and fails the way a failing `#[hook]` fn does at that seam. Returns the unregister
    /// handle ([`Registration`]: unregistering is explicit, dropping it keeps the handler).
    /// Takes `&self`: a shared harness registers while calls are in flight.
    ///
    /// The closure is sync and must not block; use [`Harness::on_async`] for a handler that
    /// waits on anything.
    ///
    /// # Errors
    /// A name already taken by a live registration (any path), an invalid matcher, or an
    /// observer at a seam that is not observe-only.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use seamguard_engine::harness::{Harness, RegistrationOptions, ToolCall, at};
    /// use seamguard_engine::PreToolDecision;
    ///
    /// let harness = Harness::new();
    /// let seen = Arc::new(AtomicUsize::new(0));
    /// let counter = seen.clone();
    /// let id = harness.on(
    ///     at::PreTool,
    ///     move |call, _cx| {
    ///         counter.fetch_add(1, Ordering::SeqCst);
    ///         (call.name() == "WebFetch").then(|| PreToolDecision::Ask { reason: "web".into() })
    ///     },
    ///     RegistrationOptions::named("web").source("extensions/web.rs"),
    /// )?;
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// let call = ToolCall::new("WebFetch", serde_json::json!({"url": "https://x.org"}), "s", "/w");
    /// let pre = rt.block_on(harness.pre_tool(&call));
    /// assert_eq!(pre.decision, Some(PreToolDecision::Ask { reason: "web".into() }));
    /// assert_eq!(seen.load(Ordering::SeqCst), 1);
    /// assert_eq!(id.unregister(), Ok(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn on<T, F>(
        &self,
        target: T,
        handler: F,
        options: RegistrationOptions,
    ) -> Result<Registration, RegisterError>
    where
        T: Target,
        F: Fn(&T::Event, &HookContext) -> T::Output + Send + Sync + 'static,
    {
        let reg = self.reg(&target, options, std::panic::Location::caller());
        let id = target.install(self, Handler::Sync(Arc::new(handler)), reg)?;
        Ok(self.registrations.handle(id))
    }

    /// Register an async `handler` at `target` (see [`Harness::on`]): a closure called with
    /// its own copies of the event and the run's [`HookContext`], returning a future. The
    /// future is awaited (the seam's evaluation waits for it), runs inside the run's
    /// [`HookContext::current`], and is dropped when the run's token is cancelled: the
    /// handler then fails the way a failing handler does at that seam (pre-tool denies,
    /// prompt-submit blocks, …). A panic while polling it is contained the same way.
    ///
    /// State the handler keeps is captured by the closure and cloned into each future
    /// (`let state = state.clone(); async move { … }`).
    ///
    /// # Errors
    /// As [`Harness::on`].
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use seamguard_engine::harness::{Harness, RegistrationOptions, ToolCall, at};
    /// use seamguard_engine::PreToolDecision;
    ///
    /// let harness = Harness::new();
    /// let budget = Arc::new(AtomicU32::new(1));
    /// let handle = harness.on_async(
    ///     at::PreTool,
    ///     move |call, cx| {
    ///         let budget = budget.clone();
    ///         async move {
    ///             // Stands for a call to a service: the evaluation awaits it.
    ///             tokio::task::yield_now().await;
    ///             if cx.is_cancelled() || call.name() != "WebFetch" {
    ///                 return None;
    ///             }
    ///             match budget.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)) {
    ///                 Ok(_) => None,
    ///                 Err(_) => Some(PreToolDecision::Deny { reason: "fetch budget spent".into() }),
    ///             }
    ///         }
    ///     },
    ///     RegistrationOptions::named("fetch-budget"),
    /// )?;
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// let call = ToolCall::new("WebFetch", serde_json::json!({"url": "https://x.org"}), "s", "/w");
    /// assert_eq!(rt.block_on(harness.pre_tool(&call)).decision, None);
    /// assert_eq!(
    ///     rt.block_on(harness.pre_tool(&call)).decision,
    ///     Some(PreToolDecision::Deny { reason: "fetch budget spent".into() })
    /// );
    /// assert_eq!(handle.unregister(), Ok(true));
    /// assert_eq!(rt.block_on(harness.pre_tool(&call)).decision, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn on_async<T, F, Fut>(
        &self,
        target: T,
        handler: F,
        options: RegistrationOptions,
    ) -> Result<Registration, RegisterError>
    where
        T: Target,
        T::Event: Clone + Send,
        F: Fn(T::Event, HookContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = T::Output> + Send + 'static,
    {
        let reg = self.reg(&target, options, std::panic::Location::caller());
        let f: AsyncClosure<T::Event, T::Output> = Arc::new(
            move |e: &T::Event, cx: &HookContext| -> BoxFuture<'static, T::Output> {
                Box::pin(handler(e.clone(), cx.clone()))
            },
        );
        let id = target.install(self, Handler::Async(f), reg)?;
        Ok(self.registrations.handle(id))
    }

    /// The resolved options of one registration made at `at`.
    fn reg<T: Target>(
        &self,
        target: &T,
        options: RegistrationOptions,
        at: &'static std::panic::Location<'static>,
    ) -> Reg {
        let name = match options.name {
            Some(n) => n,
            None => format!("{}#{}", target.name(), self.registrations.peek_id()),
        };
        Reg {
            name,
            provenance: options
                .source
                .unwrap_or_else(|| format!("{}:{}", at.file(), at.line())),
            file: at.file(),
            line: at.line(),
            matcher: options.matcher,
            cleanup: options.cleanup,
        }
    }

    fn install_reg(
        &self,
        seam: Seam,
        handler: Stored,
        reg: Reg,
    ) -> Result<RegistrationId, RegisterError> {
        self.install(
            Install {
                name: reg.name,
                seam,
                matcher: reg.matcher,
                provenance: reg.provenance,
                file: reg.file,
                line: reg.line,
                handler,
            },
            reg.cleanup,
        )
    }
}

impl RegistrationId {
    /// Unregister: remove the registration and run its cleanup once (see
    /// [`Harness::unregister`]).
    ///
    /// # Errors
    /// The cleanup's error (the registration is removed regardless).
    pub fn unregister(self, harness: &Harness) -> Result<bool, CleanupError> {
        harness.unregister(self)
    }
}
