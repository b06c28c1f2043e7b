//! Registration: descriptors and cleanups in, [`RegistrationId`]s out; unregistration and
//! disposal run each cleanup once, contained.
//!
//! In: a [`HookDescriptor`] (and optionally a [`Cleanup`]). Out: a [`RegistrationId`], or a
//! [`RegisterError`] (duplicate name, invalid matcher, handler kind that does not fit the
//! seam); on unregister / dispose, the [`CleanupError`]s of the cleanups that failed.

use std::sync::Arc;

use super::contain::{catch_cleanup, contained, panic_message};
use super::handler::Stored;
use super::{HandlerFailure, Harness, HookDescriptor};
use crate::decision::{Contribution, Verdict};
use crate::matcher::{Matcher, MatcherMode};
use crate::policy::{Scope, Source};
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

/// A handler's matcher on the seam's subject (tool name, source, …).
pub(super) enum SubjectMatcher {
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

/// One live handler registration.
pub(super) struct Entry {
    pub(super) id: RegistrationId,
    pub(super) rule: String,
    /// `module (file:line)`, or the `source` given to [`Harness::on`].
    pub(super) provenance: String,
    pub(super) source: Source,
    pub(super) matcher: SubjectMatcher,
    pub(super) handler: Stored,
}

impl Entry {
    /// Whether the handler runs for `subject` (no subject: only match-all handlers).
    pub(super) fn subject_matches(&self, subject: Option<&str>) -> bool {
        match &self.matcher {
            SubjectMatcher::All => true,
            m => subject.is_some_and(|s| m.matches(s)),
        }
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

impl Harness {
    pub(super) fn fresh_id(&mut self) -> RegistrationId {
        let id = RegistrationId(self.next_id);
        self.next_id += 1;
        id
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
        self.install(
            Install {
                name: d.name.to_string(),
                seam: d.seam,
                matcher: d.matcher.map(str::to_string),
                provenance: d.provenance.to_string(),
                file: d.provenance.file,
                line: d.provenance.line,
                handler: Stored::from(d.handler),
            },
            cleanup,
        )
    }

    /// Whether `name` is taken by a live registration (handler or application-event
    /// handler): names are unique across every registration path.
    pub(super) fn name_taken(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Store one handler: the single path of descriptors and closures alike.
    pub(super) fn install(
        &mut self,
        i: Install,
        cleanup: Option<Cleanup>,
    ) -> Result<RegistrationId, RegisterError> {
        if self.name_taken(&i.name) {
            return Err(RegisterError::Duplicate(i.name));
        }
        let mode = match self.dialect {
            crate::dialect::Dialect::Codex => MatcherMode::Codex,
            _ => MatcherMode::ClaudeCode,
        };
        let matcher = match i.matcher.as_deref().map(|m| Matcher::classify(m, mode)) {
            None | Some(Matcher::All) => SubjectMatcher::All,
            Some(Matcher::Exact(v)) => SubjectMatcher::Exact(v),
            Some(Matcher::Regex(r)) => match regex::Regex::new(&r) {
                Ok(re) => SubjectMatcher::Regex(re),
                Err(e) => {
                    return Err(RegisterError::Matcher {
                        name: i.name,
                        matcher: r,
                        message: e.to_string(),
                    });
                }
            },
        };
        let id = self.fresh_id();
        self.names.insert(i.name.clone());
        let is_guard = i.handler.is_guard();
        let is_observer = matches!(i.handler, Stored::ToolResult(_));
        let entry = Entry {
            id,
            rule: i.name.clone(),
            provenance: i.provenance,
            source: Source {
                file: Arc::from(i.file),
                line: i.line as usize,
                column: 1,
                scope: Scope::Embedded,
            },
            matcher,
            handler: i.handler,
        };
        if is_guard {
            self.guards.push(entry);
        } else if is_observer {
            self.observers.push(entry);
        } else if let Some(v) = self.hooks.get_mut(i.seam.index()) {
            v.push(entry);
        }
        if let Some(run) = cleanup {
            self.cleanups.push(CleanupSlot::new(id, i.name, run));
        }
        Ok(id)
    }

    /// Remove one registration and run its cleanup once.
    ///
    /// Returns `Ok(false)` when the id is unknown (already removed).
    ///
    /// # Errors
    /// The cleanup's error (the registration is removed regardless).
    pub fn unregister(&mut self, id: RegistrationId) -> Result<bool, CleanupError> {
        let mut found = false;
        let mut gone = None;
        for v in self
            .hooks
            .iter_mut()
            .chain([&mut self.guards, &mut self.observers])
        {
            if let Some(pos) = v.iter().position(|e| e.id == id) {
                gone = Some(v.remove(pos).rule);
            }
        }
        for slot in self.events.values_mut() {
            if let Some(name) = slot.remove_handler(id) {
                gone = Some(name);
            }
        }
        if let Some(name) = gone {
            self.names.remove(&name);
            found = true;
        }
        if let Some(pos) = self.cleanups.iter().position(|c| c.id == id) {
            return self.cleanups.remove(pos).run().map(|()| true);
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
        self.names.clear();
        let mut errors = Vec::new();
        while let Some(slot) = self.cleanups.pop() {
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
}
