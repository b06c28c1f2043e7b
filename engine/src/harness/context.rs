//! The context handlers receive (agent-harness seed, "Context model"): the run's
//! cancellation token and the application's context object set with
//! [`Harness::set_context`].
//!
//! In: the token a caller gives ([`Harness::with_signal`]) or none (a token that is never
//! cancelled, or the enclosing run's token for a nested call), and the harness's context
//! object. Out: a [`HookContext`] passed to closures registered with
//! [`Harness::on`](super::Harness::on), and reachable from `#[hook]` fns, tools and
//! reducers through [`HookContext::current`].
//!
//! The token is the run's: handlers, wrappers and tools see it (wrappers through
//! [`Next::signal`](super::Next::signal), a child token), but nothing downstream can replace
//! it or remove it — dispatch always races the run's own token.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, RwLock};

use tokio_util::sync::CancellationToken;

use super::model::{AppValue, Deferred, HookContext, Registry};
use super::{CallId, Injected};

tokio::task_local! {
    static CURRENT: HookContext;
}

impl fmt::Debug for HookContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HookContext")
            .field("cancelled", &self.signal.is_cancelled())
            .field("app", &self.app.is_some())
            .field("parent", &self.parent)
            .finish()
    }
}

impl HookContext {
    pub(super) fn new(signal: CancellationToken, app: Option<AppValue>) -> Self {
        HookContext {
            signal,
            app,
            parent: None,
            deferred: None,
            registry: None,
        }
    }

    /// The handler snapshot of the run, if it has one.
    pub(super) fn registry(&self) -> Option<&Arc<Registry>> {
        self.registry.as_ref()
    }

    /// The context of the handler, tool or wrapper running now (`None` outside a harness
    /// run). `#[hook]` fns and tools read the signal and the application context here.
    pub fn current() -> Option<HookContext> {
        CURRENT.try_with(HookContext::clone).ok()
    }

    /// The run's cancellation token (a clone: cancelling it cancels the run).
    pub fn signal(&self) -> &CancellationToken {
        &self.signal
    }

    /// Whether the run was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.signal.is_cancelled()
    }

    /// The application's context object ([`Harness::set_context`]), if it is a `T`; `None`
    /// both when none was set and when it is another type. [`HookContext::state`] says
    /// which.
    pub fn app<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.app.as_ref().and_then(|a| a.value.downcast_ref::<T>())
    }

    /// The application's context object as a `T` (like axum's `State<T>`).
    ///
    /// # Errors
    /// [`ContextError::NotSet`] when the harness has no context object,
    /// [`ContextError::OtherType`] (naming both types) when it holds another type.
    ///
    /// # Examples
    /// ```
    /// use seamguard_engine::PreToolDecision;
    /// use seamguard_engine::harness::{Harness, HookContext, RegistrationOptions, ToolCall, at};
    ///
    /// struct Freeze(bool);
    /// let h = Harness::new();
    /// h.on(
    ///     at::PreTool,
    ///     |_call: &ToolCall, cx: &HookContext| match cx.state::<Freeze>() {
    ///         Ok(Freeze(frozen)) => frozen.then(|| PreToolDecision::deny("the repository is frozen")),
    ///         Err(e) => Some(PreToolDecision::deny(e.to_string())),
    ///     },
    ///     RegistrationOptions::named("freeze"),
    /// )?;
    /// let call = ToolCall::builder("Bash").arg("command", "git push").build();
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    ///
    /// h.set_context(7_u32);
    /// let wrong = rt.block_on(h.pre_tool(&call)).decision;
    /// assert_eq!(
    ///     wrong,
    ///     Some(PreToolDecision::deny(format!(
    ///         "the application context is a `u32`, not the `{}` asked for",
    ///         std::any::type_name::<Freeze>()
    ///     )))
    /// );
    /// h.set_context(Freeze(true));
    /// let frozen = rt.block_on(h.pre_tool(&call)).decision;
    /// assert_eq!(frozen, Some(PreToolDecision::deny("the repository is frozen")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state<T: Any + Send + Sync>(&self) -> Result<&T, ContextError> {
        let Some(a) = self.app.as_ref() else {
            return Err(ContextError::NotSet {
                expected: std::any::type_name::<T>(),
            });
        };
        a.value.downcast_ref::<T>().ok_or(ContextError::OtherType {
            expected: std::any::type_name::<T>(),
            found: a.type_name,
        })
    }

    /// The call whose tool is running, for a nested call (interception-seams seed: "nested
    /// calls carry only the parent token").
    pub fn parent(&self) -> Option<CallId> {
        self.parent
    }

    /// The context of `call`'s tool while it runs: nested calls name it as their parent,
    /// and deferred contexts collect in `deferred`.
    pub(super) fn for_tool(mut self, call: CallId, deferred: Deferred) -> HookContext {
        self.parent = Some(call);
        self.deferred = Some(deferred);
        self
    }

    /// Defer a context to the call whose tool is running (interception-seams seed:
    /// `ToolRunContext.deferContext()`): it is appended with that call's result unless the
    /// call's post-tool policy blocks it, also when the tool then fails. Outside a tool,
    /// nothing is deferred (`false`).
    pub fn defer_context(&self, source: &str, text: &str) -> bool {
        let Some(d) = &self.deferred else {
            return false;
        };
        let call = self.parent;
        d.lock()
            .map(|mut v| {
                v.push(Injected {
                    text: text.to_string(),
                    source: source.to_string(),
                    call,
                });
            })
            .is_ok()
    }

    /// Hand the contexts of a nested call to the tool that dispatched it.
    pub(super) fn defer_nested(&self, contexts: &[Injected]) {
        if let Some(d) = &self.deferred
            && let Ok(mut v) = d.lock()
        {
            v.extend(contexts.iter().cloned());
        }
    }

    /// The context of a run under `signal` with the application context `app` and the
    /// handlers `snapshot` gives; `None` for the signal: the enclosing run's (a nested call
    /// inherits it), else a token that is never cancelled.
    pub(super) fn for_run(
        signal: Option<&CancellationToken>,
        app: Option<AppValue>,
        snapshot: impl FnOnce() -> Arc<Registry>,
    ) -> HookContext {
        let mut cx = match (signal, HookContext::current()) {
            (Some(s), _) => HookContext::new(s.clone(), app),
            (None, Some(outer)) => {
                let mut cx = HookContext::new(outer.signal.clone(), app);
                cx.parent = outer.parent;
                cx.deferred = outer.deferred;
                cx
            }
            (None, None) => HookContext::new(CancellationToken::new(), app),
        };
        cx.registry = Some(snapshot());
        cx
    }

    /// Run `f` with this context as [`HookContext::current`].
    pub(super) async fn scope<F: Future>(self, f: F) -> F::Output {
        CURRENT.scope(self, f).await
    }
}

/// Why [`HookContext::state`] has no `T`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    /// The harness has no context object ([`Harness::set_context`] was never called).
    #[error("no application context is set (Harness::set_context); a `{expected}` was asked for")]
    NotSet {
        /// The type asked for.
        expected: &'static str,
    },
    /// The context object is of another type.
    #[error("the application context is a `{found}`, not the `{expected}` asked for")]
    OtherType {
        /// The type asked for.
        expected: &'static str,
        /// The type given to [`Harness::set_context`].
        found: &'static str,
    },
}

/// The application context slot of a harness.
#[derive(Default)]
pub(super) struct AppContext(RwLock<Option<AppValue>>);

impl fmt::Debug for AppContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AppContext")
    }
}

impl AppContext {
    /// Put `context` in the slot (a poisoned slot is left as it is).
    pub(super) fn set<T: Any + Send + Sync>(&self, context: T) {
        if let Ok(mut slot) = self.0.write() {
            *slot = Some(AppValue {
                value: Arc::new(context),
                type_name: std::any::type_name::<T>(),
            });
        }
    }

    /// What the slot holds now.
    pub(super) fn get(&self) -> Option<AppValue> {
        self.0.read().ok().and_then(|a| a.clone())
    }
}
