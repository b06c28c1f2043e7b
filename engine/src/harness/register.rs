//! Registering on a harness: descriptors and cleanups in, [`RegistrationId`]s out;
//! unregistration and disposal; the snapshot of the handlers a run uses (see `registry` for
//! how snapshots keep a run under way unchanged).
//!
//! In: [`HookDescriptor`]s, cleanups. Out: [`RegistrationId`]s, [`RegisterError`]s,
//! [`CleanupError`]s.

use super::contain::catch_cleanup;
use super::model::{Cleanup, Entry, RegistrationId, Registry, Stored, SubjectMatcher};
use super::registry::{CleanupError, CleanupErrors, CleanupSlot, Install, RegisterError};
use super::{Harness, HookDescriptor};
use crate::matcher::{Matcher, MatcherMode};
use crate::policy::{Scope, Source};
use std::sync::Arc;

impl Harness {
    /// Register every descriptor of a [`hooks!`](crate::hooks) list, in order.
    ///
    /// # Errors
    /// The first refused descriptor ([`RegisterError`]); the ones before it stay registered.
    pub fn register_all(
        &self,
        descriptors: &[HookDescriptor],
    ) -> Result<Vec<RegistrationId>, RegisterError> {
        descriptors.iter().map(|d| self.register(d)).collect()
    }

    /// Register one handler; its descriptor's cleanup (if any) runs on unregister/dispose.
    /// Takes `&self`: a shared harness (`Arc<Harness>`) can load an extension while calls
    /// are in flight (see the module docs of `registry`: calls keep their snapshot).
    ///
    /// # Errors
    /// A duplicate name, an invalid matcher regex, or a handler kind that does not fit the
    /// seam.
    pub fn register(&self, d: &HookDescriptor) -> Result<RegistrationId, RegisterError> {
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
        &self,
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

    /// Store one handler: the single path of descriptors and closures alike.
    pub(super) fn install(
        &self,
        i: Install,
        cleanup: Option<Cleanup>,
    ) -> Result<RegistrationId, RegisterError> {
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
        let regs = &self.registrations;
        let name = i.name.clone();
        let id = regs.update(|r| {
            if r.names.contains(&i.name) {
                return Err(RegisterError::Duplicate(i.name));
            }
            let id = regs.fresh_id();
            r.names.insert(i.name.clone());
            let is_guard = i.handler.is_guard();
            let is_observer = matches!(i.handler, Stored::ToolResult(_));
            let entry = Arc::new(Entry {
                id,
                rule: i.name,
                provenance: i.provenance,
                source: Source {
                    file: Arc::from(i.file),
                    line: i.line as usize,
                    column: 1,
                    scope: Scope::Embedded,
                },
                matcher,
                handler: i.handler,
            });
            if is_guard {
                r.guards.push(entry);
            } else if is_observer {
                r.observers.push(entry);
            } else if let Some(v) = r.hooks.get_mut(i.seam.index()) {
                v.push(entry);
            }
            Ok(id)
        })?;
        if let Some(run) = cleanup {
            regs.add_cleanup(CleanupSlot::new(id, name, run));
        }
        Ok(id)
    }

    /// Remove one registration and run its cleanup once. Takes `&self` (a shared harness);
    /// calls already under way keep the handler, calls that start afterwards do not see it.
    ///
    /// Returns `Ok(false)` when the id is unknown (already removed).
    ///
    /// # Errors
    /// The cleanup's error (the registration is removed regardless).
    pub fn unregister(&self, id: impl Into<RegistrationId>) -> Result<bool, CleanupError> {
        self.registrations.unregister(id.into())
    }

    /// Remove every registration and run the remaining cleanups once each, in reverse
    /// registration order; a failing (or panicking) cleanup does not stop the others.
    ///
    /// # Errors
    /// Every cleanup that failed, in the order they ran.
    pub fn dispose(&self) -> Result<(), CleanupErrors> {
        self.registrations.dispose()
    }

    /// The handlers calls starting now run on.
    pub(super) fn snapshot(&self) -> Arc<Registry> {
        self.registrations.snapshot()
    }
}
