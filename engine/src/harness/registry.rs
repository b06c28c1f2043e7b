//! Registration: descriptors and cleanups in, [`RegistrationId`]s out; unregistration and
//! disposal run each cleanup once, contained.
//!
//! In: a [`HookDescriptor`] (and optionally a [`Cleanup`]). Out: a [`RegistrationId`], or a
//! [`RegisterError`] (duplicate name, invalid matcher, handler kind that does not fit the
//! seam); on unregister / dispose, the [`CleanupError`]s of the cleanups that failed.
//!
//! # Registering on a shared harness
//!
//! Registration and unregistration take `&self`: the handlers live in an immutable
//! [`Registry`] snapshot behind a lock, and every change builds the next snapshot and swaps
//! it in. A seam method, tool call or emission takes the snapshot once when it starts and
//! keeps it to the end: a call in flight runs the handlers that were registered when it
//! started, and a handler unregistered meanwhile still finishes for it. Its cleanup runs
//! when it is unregistered (it may run while such a call is still under way).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};

use super::HandlerFailure;
use super::contain::{contained, panic_message};
use super::model::{Cleanup, Entry, RegistrationId, Registry, Stored, SubjectMatcher};

use crate::decision::{Contribution, Verdict};
use crate::seam::Seam;

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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cleanup of `{name}` failed: {message}")]
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

/// The handle [`Harness::on`](super::Harness::on) returns: unregisters its registration
/// without the harness at hand ([`Registration::unregister`]).
///
/// Unregistering is explicit: dropping the handle leaves the handler registered (so
/// `harness.on(…)?;` with the handle ignored registers for the harness's lifetime). The
/// handle holds the harness's registrations weakly: once the harness is gone,
/// [`Registration::unregister`] answers `Ok(false)`.
#[derive(Debug, Clone)]
pub struct Registration {
    id: RegistrationId,
    from: Weak<Registrations>,
}

impl Registration {
    /// The registration's id (for [`Harness::unregister`]).
    pub fn id(&self) -> RegistrationId {
        self.id
    }

    /// Remove the registration and run its cleanup once. Calls already under way keep the
    /// handler (they run on the snapshot they started with); calls that start afterwards do
    /// not see it.
    ///
    /// Returns `Ok(false)` when it was already removed (or the harness is gone).
    ///
    /// # Errors
    /// The cleanup's error (the registration is removed regardless).
    pub fn unregister(self) -> Result<bool, CleanupError> {
        match self.from.upgrade() {
            Some(r) => r.unregister(self.id),
            None => Ok(false),
        }
    }
}

impl From<&Registration> for RegistrationId {
    fn from(r: &Registration) -> RegistrationId {
        r.id
    }
}

impl From<Registration> for RegistrationId {
    fn from(r: Registration) -> RegistrationId {
        r.id
    }
}

impl Registry {
    fn empty() -> Registry {
        Registry {
            hooks: (0..Seam::COUNT).map(|_| Vec::new()).collect(),
            guards: Vec::new(),
            observers: Vec::new(),
            events: HashMap::new(),
            names: HashSet::new(),
        }
    }

    /// The hooks registered at `seam` (guards and tool-result observers are kept apart).
    pub(super) fn seam_entries(&self, seam: Seam) -> &[Arc<Entry>] {
        self.hooks.get(seam.index()).map_or(&[][..], |v| v)
    }

    /// Remove registration `id`; its name when it was here.
    fn remove(&mut self, id: RegistrationId) -> Option<String> {
        let mut gone = None;
        for v in self
            .hooks
            .iter_mut()
            .chain([&mut self.guards, &mut self.observers])
        {
            if let Some(pos) = v.iter().position(|e| e.id == id) {
                gone = Some(v.remove(pos).rule.clone());
            }
        }
        for slot in self.events.values_mut() {
            if let Some(name) = slot.remove_handler(id) {
                gone = Some(name);
            }
        }
        if let Some(name) = &gone {
            self.names.remove(name);
        }
        gone
    }
}

/// The registrations of one harness: the published [`Registry`] snapshot, the cleanups
/// waiting for their registrations to go, and the id counter. Shared with the
/// [`Registration`] handles (weakly).
pub(super) struct Registrations {
    current: RwLock<Arc<Registry>>,
    cleanups: Mutex<Vec<CleanupSlot>>,
    next_id: AtomicU64,
}

impl Default for Registrations {
    fn default() -> Registrations {
        Registrations {
            current: RwLock::new(Arc::new(Registry::empty())),
            cleanups: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        }
    }
}

impl Registrations {
    /// The snapshot calls starting now run on.
    pub(super) fn snapshot(&self) -> Arc<Registry> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The id the next registration will get (for default names).
    pub(super) fn peek_id(&self) -> u64 {
        self.next_id.load(Ordering::Relaxed)
    }

    pub(super) fn fresh_id(&self) -> RegistrationId {
        RegistrationId(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Build the next snapshot with `change` and publish it (writers are serialized; readers
    /// keep the snapshot they hold). Nothing is published when `change` fails.
    pub(super) fn update<R, E>(
        &self,
        change: impl FnOnce(&mut Registry) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut slot = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let mut next = Registry::clone(&slot);
        let r = change(&mut next)?;
        *slot = Arc::new(next);
        Ok(r)
    }

    pub(super) fn add_cleanup(&self, slot: CleanupSlot) {
        self.cleanups
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(slot);
    }

    pub(super) fn unregister(&self, id: RegistrationId) -> Result<bool, CleanupError> {
        let found = self
            .update(|r| Ok::<_, std::convert::Infallible>(r.remove(id)))
            .ok()
            .flatten()
            .is_some();
        let slot = {
            let mut cleanups = self.cleanups.lock().unwrap_or_else(PoisonError::into_inner);
            cleanups
                .iter()
                .position(|c| c.id == id)
                .map(|pos| cleanups.remove(pos))
        };
        // The cleanup runs with no lock held: it may use the harness.
        match slot {
            Some(slot) => slot.run().map(|()| true),
            None => Ok(found),
        }
    }

    pub(super) fn dispose(&self) -> Result<(), CleanupErrors> {
        let _ = self.update(|r| {
            *r = Registry::empty();
            Ok::<_, std::convert::Infallible>(())
        });
        let slots =
            std::mem::take(&mut *self.cleanups.lock().unwrap_or_else(PoisonError::into_inner));
        let mut errors = Vec::new();
        for slot in slots.into_iter().rev() {
            if let Err(e) = slot.run() {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(CleanupErrors(errors))
        }
    }

    /// A handle on registration `id`.
    pub(super) fn handle(self: &Arc<Self>, id: RegistrationId) -> Registration {
        Registration {
            id,
            from: Arc::downgrade(self),
        }
    }
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

impl Entry {
    /// Whether the handler runs for `subject` (no subject: only match-all handlers).
    pub(super) fn subject_matches(&self, subject: Option<&str>) -> bool {
        match &self.matcher {
            SubjectMatcher::All => true,
            m => subject.is_some_and(|s| m.matches(s)),
        }
    }

    /// Its handler, when it runs for `subject` ([`Entry::subject_matches`]).
    pub(super) fn for_subject(&self, subject: Option<&str>) -> Option<&Stored> {
        self.subject_matches(subject).then_some(&self.handler)
    }

    pub(super) fn failure(&self, message: String) -> HandlerFailure {
        HandlerFailure {
            name: self.rule.clone(),
            provenance: self.provenance.clone(),
            message,
        }
    }

    /// A handler that failed with `message`: adds the contribution that fails closed with
    /// `verdict` (reason `handler failed: …`) and the failure to report.
    pub(super) fn fail(
        &self,
        verdict: Verdict,
        message: String,
        contributions: &mut Vec<Contribution>,
        failures: &mut Vec<HandlerFailure>,
    ) {
        let reason = format!("handler failed: {message}");
        contributions.push(self.contribution(verdict, Some(reason)));
        failures.push(self.failure(message));
    }

    pub(super) fn contribution(&self, verdict: Verdict, reason: Option<String>) -> Contribution {
        Contribution {
            rule: self.rule.clone(),
            source: Some(self.source.clone()),
            guard: self.handler.is_guard(),
            verdict,
            reason,
            context: None,
            halt: None,
            observe: false,
        }
    }
}

/// What [`Harness::install`] stores.
pub(super) struct Install {
    pub(super) name: String,
    pub(super) seam: Seam,
    pub(super) matcher: Option<String>,
    pub(super) provenance: String,
    pub(super) file: &'static str,
    pub(super) line: u32,
    pub(super) handler: Stored,
}

/// A cleanup waiting for its registration to go.
///
/// The cleanup is `Send` only; the mutex makes the slot (and so the [`Harness`]) `Sync`. It
/// is taken out by value (`into_inner`) when it runs, never locked while shared.
pub(super) struct CleanupSlot {
    pub(super) id: RegistrationId,
    pub(super) name: String,
    pub(super) run: std::sync::Mutex<Cleanup>,
}

impl CleanupSlot {
    pub(super) fn new(id: RegistrationId, name: String, run: Cleanup) -> CleanupSlot {
        CleanupSlot {
            id,
            name,
            run: std::sync::Mutex::new(run),
        }
    }

    /// Run the cleanup once, contained.
    pub(super) fn run(self) -> Result<(), CleanupError> {
        let name = self.name;
        let f = match self.run.into_inner() {
            Ok(f) => f,
            Err(poisoned) => poisoned.into_inner(),
        };
        match contained(f) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(message)) => Err(CleanupError { name, message }),
            Err(p) => Err(CleanupError {
                name,
                message: panic_message(p),
            }),
        }
    }
}
