//! Application events (`#[derive(Event)]`): an application's own events, each owning its
//! decision type and the reducer that combines its handlers.
//!
//! In: handlers registered with [`Harness::on`], and an event value given to
//! [`Harness::emit`]. Out: the reducer's result (`None` for observational events or when no
//! handler produced one); a handler's panic is contained and reported through
//! [`Harness::take_failures`].

use std::any::{Any, TypeId};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use super::contain::panic_message;
use super::registry::CleanupSlot;
use super::{Cleanup, HandlerFailure, Harness, RegistrationId};

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

/// The handlers of one event type, type-erased (`Vec<EventHandler<E>>`), with the fn that
/// removes one of them by id.
pub(super) struct EventSlot {
    list: Box<dyn Any + Send + Sync>,
    remove: fn(&mut (dyn Any + Send + Sync), RegistrationId) -> bool,
}

impl EventSlot {
    /// Remove the handler registered as `id`; whether it was here.
    pub(super) fn remove_handler(&mut self, id: RegistrationId) -> bool {
        (self.remove)(self.list.as_mut(), id)
    }
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

impl Harness {
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
            self.cleanups
                .push(CleanupSlot::new(id, name.to_string(), run));
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
}
