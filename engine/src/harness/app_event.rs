//! Application events (`#[derive(Event)]`): an application's own events, each owning its
//! decision type and the reducer that combines its handlers.
//!
//! In: handlers registered with [`Harness::on`], and an event value given to
//! [`Harness::emit`]. Out: the reducer's result (`None` for observational events or when no
//! handler produced one); a handler's panic is contained and reported through
//! [`Harness::take_failures`].

use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};

use super::contain::{CatchUnwind, contained, panic_message};
use super::handler::Handler;
use tokio_util::sync::CancellationToken;

use super::model::{Cleanup, EventSlot, HookContext, List, RegistrationId};
use super::{BoxFuture, HandlerFailure};

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
    /// Combine the handlers (in registration order) into the event's result; awaited by
    /// [`Harness::emit`]. A handler is called with [`EventHandler::call`] (a future: async
    /// handlers are awaited).
    fn reduce<'a>(
        event: &'a Self,
        handlers: &'a [EventHandler<Self>],
    ) -> BoxFuture<'a, Option<Self::Decision>>;
}

/// A reducer of application event `E` as the trait calls it. `#[event(reducer = path)]`
/// names an `async fn(&E, &[EventHandler<E>]) -> Option<E::Decision>` (the base reducers
/// below are such fns) and the derive boxes its future.
pub type Reducer<E> =
    for<'a> fn(&'a E, &'a [EventHandler<E>]) -> BoxFuture<'a, Option<<E as Event>::Decision>>;

pub(super) type EventFn<E> = Handler<E, Option<<E as Event>::Decision>>;

/// One registered handler of an application event, as reducers see it.
pub struct EventHandler<E: Event> {
    pub(super) id: RegistrationId,
    pub(super) name: String,
    pub(super) source: Option<String>,
    pub(super) f: EventFn<E>,
    pub(super) failures: Arc<Mutex<Vec<HandlerFailure>>>,
}

impl<E: Event> Clone for EventHandler<E> {
    fn clone(&self) -> EventHandler<E> {
        EventHandler {
            id: self.id,
            name: self.name.clone(),
            source: self.source.clone(),
            f: self.f.clone(),
            failures: self.failures.clone(),
        }
    }
}

impl<E, O> Clone for Handler<E, O> {
    fn clone(&self) -> Handler<E, O> {
        match self {
            Handler::Sync(f) => Handler::Sync(f.clone()),
            Handler::Async(f) => Handler::Async(f.clone()),
        }
    }
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

    /// Run the handler with the context of the emission under way
    /// ([`HookContext::current`]); see [`EventHandler::call_with`].
    pub async fn call(&self, event: &E) -> Option<E::Decision> {
        let cx = HookContext::current()
            .unwrap_or_else(|| HookContext::new(CancellationToken::new(), None));
        self.call_with(event, &cx).await
    }

    /// Run the handler with `cx`, awaiting an async one; a cancelled run does not call it,
    /// and an async handler still running when the run is cancelled is dropped (`None`
    /// both, not a failure). A panic is contained, reported with provenance in
    /// [`Harness::take_failures`], and reads as `None`.
    pub async fn call_with(&self, event: &E, cx: &HookContext) -> Option<E::Decision> {
        if cx.is_cancelled() {
            return None;
        }
        let r = match &self.f {
            Handler::Sync(f) => contained(|| f(event, cx)).map_err(panic_message),
            Handler::Async(f) => match contained(|| f(event, cx)) {
                Err(p) => Err(panic_message(p)),
                Ok(fut) => tokio::select! {
                    biased;
                    () = cx.signal().cancelled() => return None,
                    r = CatchUnwind(fut) => r,
                },
            },
        };
        match r {
            Ok(d) => d,
            Err(message) => {
                if let Ok(mut v) = self.failures.lock() {
                    v.push(HandlerFailure {
                        name: self.name.clone(),
                        provenance: self.source.clone().unwrap_or_default(),
                        message,
                    });
                }
                None
            }
        }
    }
}

/// Reducer for observational events: call every handler, produce nothing.
pub async fn notify_all<E: Event<Decision = ()>>(
    event: &E,
    handlers: &[EventHandler<E>],
) -> Option<()> {
    for h in handlers {
        h.call(event).await;
    }
    None
}

/// Reducer: the first handler that returns something wins (later ones do not run).
pub async fn first_result<E: Event>(
    event: &E,
    handlers: &[EventHandler<E>],
) -> Option<E::Decision> {
    for h in handlers {
        if let Some(d) = h.call(event).await {
            return Some(d);
        }
    }
    None
}

/// A decision that can block the action (the seed's `tool_call` result, `{ block: true }`).
pub trait Blocking {
    /// Whether this decision blocks.
    fn is_block(&self) -> bool;
}

/// A decision that can cancel the action (the seed's `session_before_*` results,
/// `{ cancel: true }`).
pub trait Cancelling {
    /// Whether this decision cancels.
    fn is_cancel(&self) -> bool;
}

/// An event its handlers transform in turn (the seed's `context`,
/// `before_provider_request`, `tool_result` … reducers): each handler sees the event with
/// every earlier handler's decision applied.
pub trait Transform: Event + Clone {
    /// Apply one handler's decision.
    fn apply(&mut self, decision: Self::Decision);
    /// The event's result once every handler has been applied.
    fn into_decision(self) -> Self::Decision;
}

/// Reducer: sequential transform (agent-harness seed, `context`: "each handler sees current
/// messages"). `None` when no handler returned anything.
pub async fn sequential_transform<E: Transform>(
    event: &E,
    handlers: &[EventHandler<E>],
) -> Option<E::Decision> {
    let mut current = event.clone();
    let mut changed = false;
    for h in handlers {
        if let Some(d) = h.call(&current).await {
            current.apply(d);
            changed = true;
        }
    }
    changed.then(|| current.into_decision())
}

/// Reducer: the first blocking decision stops (later handlers do not run); otherwise the
/// last decision any handler returned (agent-harness seed, `tool_call`).
pub async fn first_block_stops<E: Event>(
    event: &E,
    handlers: &[EventHandler<E>],
) -> Option<E::Decision>
where
    E::Decision: Blocking,
{
    let mut last = None;
    for h in handlers {
        if let Some(d) = h.call(event).await {
            if d.is_block() {
                return Some(d);
            }
            last = Some(d);
        }
    }
    last
}

/// Reducer: the first cancelling decision stops; otherwise the last meaningful result
/// (agent-harness seed, `session_before_*`: `reduceFirstCancelOrLast`).
pub async fn first_cancel_or_last<E: Event>(
    event: &E,
    handlers: &[EventHandler<E>],
) -> Option<E::Decision>
where
    E::Decision: Cancelling,
{
    let mut last = None;
    for h in handlers {
        if let Some(d) = h.call(event).await {
            if d.is_cancel() {
                return Some(d);
            }
            last = Some(d);
        }
    }
    last
}

/// Reducer: every handler's items, in registration order (the seed's
/// `resources_discover`, `before_agent_start`'s injected messages). `None` when no handler
/// returned anything.
pub async fn collect<E, T>(event: &E, handlers: &[EventHandler<E>]) -> Option<Vec<T>>
where
    E: Event<Decision = Vec<T>>,
{
    let mut out: Option<Vec<T>> = None;
    for h in handlers {
        if let Some(items) = h.call(event).await {
            out.get_or_insert_with(Vec::new).extend(items);
        }
    }
    out
}

/// Options of a registration with [`Harness::on`] (agent-harness seed:
/// `HookRegistrationOptions`, plus a name and a matcher).
#[derive(Default)]
pub struct RegistrationOptions {
    /// Provenance text (extension path, module); default: the `file:line` of the `on` call.
    pub source: Option<String>,
    /// Runs once on unregister or dispose.
    pub cleanup: Option<Cleanup>,
    /// Unique name (the rule id in outcomes and reasons); default: `<target>#<id>`. A name
    /// already taken by any live registration is refused ([`RegisterError::Duplicate`]).
    pub name: Option<String>,
    /// Matcher on the seam's subject (tool name, session-start source, …), with the
    /// harness dialect's rules; default: every subject.
    pub matcher: Option<String>,
}

impl RegistrationOptions {
    /// Options naming the registration.
    pub fn named(name: impl Into<String>) -> RegistrationOptions {
        RegistrationOptions {
            name: Some(name.into()),
            ..RegistrationOptions::default()
        }
    }

    /// Set the provenance text.
    pub fn source(mut self, source: impl Into<String>) -> RegistrationOptions {
        self.source = Some(source.into());
        self
    }

    /// Set the cleanup (a closure returning `Result<(), String>`).
    pub fn cleanup(
        mut self,
        cleanup: impl FnOnce() -> Result<(), String> + Send + 'static,
    ) -> RegistrationOptions {
        self.cleanup = Some(Box::new(cleanup));
        self
    }

    /// Set the matcher.
    pub fn matcher(mut self, matcher: impl Into<String>) -> RegistrationOptions {
        self.matcher = Some(matcher.into());
        self
    }
}

impl fmt::Debug for RegistrationOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistrationOptions")
            .field("source", &self.source)
            .field("cleanup", &self.cleanup.is_some())
            .field("name", &self.name)
            .field("matcher", &self.matcher)
            .finish()
    }
}

impl EventSlot {
    /// Remove the handler registered as `id`; its name, when it was here.
    pub(super) fn remove_handler(&mut self, id: RegistrationId) -> Option<String> {
        let (list, name) = (self.remove)(self.list.as_ref(), id)?;
        self.list = list;
        Some(name)
    }

    pub(super) fn handlers<E: Event>(&self) -> &[EventHandler<E>] {
        self.list
            .downcast_ref::<Vec<EventHandler<E>>>()
            .map_or(&[], Vec::as_slice)
    }
}

pub(super) fn remove_typed<E: Event>(
    b: &(dyn Any + Send + Sync),
    id: RegistrationId,
) -> Option<(List, String)> {
    let v = b.downcast_ref::<Vec<EventHandler<E>>>()?;
    let pos = v.iter().position(|h| h.id == id)?;
    let mut next = v.clone();
    let name = next.remove(pos).name;
    Some((Arc::new(next), name))
}
