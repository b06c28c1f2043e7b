//! Application events on a harness: a handler installed for an event type, and an event
//! emitted to its handlers, their results combined by the event's reducer.
//!
//! In: an [`Event`] and its handlers. Out: the reducer's decision, if any.

use super::app_event::{Event, EventFn, EventHandler, remove_typed};
use super::model::EventSlot;
use super::registry::CleanupSlot;
use super::{Cleanup, Harness, HookContext, RegisterError, RegistrationId};
use std::any::TypeId;
use std::sync::Arc;

impl Harness {
    /// Store an application-event handler (the `App` target of [`Harness::on`]).
    pub(super) fn install_event<E: Event>(
        &self,
        name: String,
        source: Option<String>,
        f: EventFn<E>,
        cleanup: Option<Cleanup>,
    ) -> Result<RegistrationId, RegisterError> {
        let regs = &self.registrations;
        let failures = self.failures.clone();
        let id = regs.update(|r| {
            if r.names.contains(&name) {
                return Err(RegisterError::Duplicate(name.clone()));
            }
            let id = regs.fresh_id();
            r.names.insert(name.clone());
            let h = EventHandler::<E> {
                id,
                name: name.clone(),
                source,
                f,
                failures,
            };
            let slot = r
                .events
                .entry(TypeId::of::<E>())
                .or_insert_with(|| EventSlot {
                    list: Arc::new(Vec::<EventHandler<E>>::new()),
                    remove: remove_typed::<E>,
                });
            let mut next = slot.handlers::<E>().to_vec();
            next.push(h);
            slot.list = Arc::new(next);
            Ok(id)
        })?;
        if let Some(run) = cleanup {
            regs.add_cleanup(CleanupSlot::new(id, name, run));
        }
        Ok(id)
    }

    /// Emit an application event: its reducer combines the handlers' results, awaiting
    /// async handlers (`None`: no handler produced one, or an observational event).
    /// Handlers see the context of the enclosing run (a token that is never cancelled
    /// outside one); use [`Harness::with_signal`] to emit under a cancellation token. The
    /// handlers are those registered when the emission starts.
    pub async fn emit<E: Event>(&self, event: &E) -> Option<E::Decision> {
        self.emit_in(event, self.context(None)).await
    }

    pub(super) async fn emit_in<E: Event>(
        &self,
        event: &E,
        cx: HookContext,
    ) -> Option<E::Decision> {
        if cx.is_cancelled() {
            return None;
        }
        let reg = self.registry_for(&cx);
        let handlers: &[EventHandler<E>] = reg
            .events
            .get(&TypeId::of::<E>())
            .map_or(&[], EventSlot::handlers::<E>);
        cx.scope(E::reduce(event, handlers)).await
    }
}
