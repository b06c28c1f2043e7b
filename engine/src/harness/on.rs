//! One registration API (agent-harness seed, "Hook handlers and registration options"):
//! [`Harness::on`]`(target, handler, options)` for built-in seams and application events
//! alike, with closures that keep their own state, the run's [`HookContext`], provenance,
//! an optional cleanup, and names unique across every registration path (descriptors from
//! `#[hook]` included).
//!
//! In: a target ([`at`]), a closure `Fn(&Event, &HookContext) -> Output` and
//! [`RegistrationOptions`]. Out: a [`RegistrationId`] — the unregister handle
//! ([`RegistrationId::unregister`]) — or a [`RegisterError`].

use std::marker::PhantomData;
use std::sync::Arc;

use super::handler::{Reply, Stored};
use super::registry::Install;
use super::{
    CleanupError, Event, Harness, HookContext, RegisterError, RegistrationId, RegistrationOptions,
    SeamEvent, ToolCall, ToolExecution, ToolOutput,
};
use crate::decision::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};
use crate::seam::Seam;

/// A handler closure as [`Harness::on`] stores it.
pub type Closure<E, O> = Arc<dyn Fn(&E, &HookContext) -> O + Send + Sync>;

/// What [`Harness::on`] registers at: one target per built-in seam (and guards, and
/// tool-result observers), or an application event ([`at::event`]).
pub trait Target: Sized {
    /// What the handler receives.
    type Event: 'static;
    /// What the handler returns.
    type Output: 'static;
    /// The target's name (the default registration name is `<name>#<id>`).
    fn name(&self) -> &'static str;
    /// Store `handler`.
    #[doc(hidden)]
    fn install(
        self,
        harness: &mut Harness,
        handler: Closure<Self::Event, Self::Output>,
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
                    harness: &mut Harness,
                    handler: Closure<$input, $output>,
                    reg: Reg,
                ) -> Result<RegistrationId, RegisterError> {
                    let f = Stored::$variant(Arc::new(move |i, cx| Reply::Ready(Ok(handler(i, cx)))));
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
            harness: &mut Harness,
            handler: Closure<SeamEvent, ()>,
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
            let f = Stored::Observe(Arc::new(move |i, cx| {
                handler(i, cx);
                Reply::Ready(Ok(()))
            }));
            harness.install_reg(self.0, f, reg)
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
            harness: &mut Harness,
            handler: Closure<ToolExecution, ()>,
            reg: Reg,
        ) -> Result<RegistrationId, RegisterError> {
            harness.install_reg(Seam::PostTool, Stored::ToolResult(handler), reg)
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
            harness: &mut Harness,
            handler: Closure<E, Option<E::Decision>>,
            reg: Reg,
        ) -> Result<RegistrationId, RegisterError> {
            if reg.matcher.is_some() {
                return Err(RegisterError::Matcher {
                    name: reg.name,
                    matcher: reg.matcher.unwrap_or_default(),
                    message: "application events have no subject to match".into(),
                });
            }
            harness.install_event::<E>(
                reg.name,
                Some(reg.provenance),
                Box::new(move |e, cx| handler(e, cx)),
                reg.cleanup,
            )
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
    /// handle.
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
    /// let mut harness = Harness::new();
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
    /// assert_eq!(pre.decision, Some(PreToolDecision::Ask { reason: "web [web]".into() }));
    /// assert_eq!(seen.load(Ordering::SeqCst), 1);
    /// assert_eq!(id.unregister(&mut harness), Ok(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn on<T, F>(
        &mut self,
        target: T,
        handler: F,
        options: RegistrationOptions,
    ) -> Result<RegistrationId, RegisterError>
    where
        T: Target,
        F: Fn(&T::Event, &HookContext) -> T::Output + Send + Sync + 'static,
    {
        let at = std::panic::Location::caller();
        let name = match options.name {
            Some(n) => n,
            None => format!("{}#{}", target.name(), self.next_id),
        };
        let reg = Reg {
            name,
            provenance: options
                .source
                .unwrap_or_else(|| format!("{}:{}", at.file(), at.line())),
            file: at.file(),
            line: at.line(),
            matcher: options.matcher,
            cleanup: options.cleanup,
        };
        target.install(self, Arc::new(handler), reg)
    }

    fn install_reg(
        &mut self,
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
    pub fn unregister(self, harness: &mut Harness) -> Result<bool, CleanupError> {
        harness.unregister(self)
    }
}
