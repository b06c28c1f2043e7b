//! What one decision depends on, and what it gives back.
//!
//! In: a [`Request`]: the seam, the hook payload, the host's dialect and the session memory
//! the call is judged in. The rest of what a decision reads is fixed when the engine is
//! built: the compiled policies and the environment (home and project folder, the
//! [`ShellEnv`](crate::ShellEnv) of the [`DecisionTable`](crate::DecisionTable)); the
//! working directory and project folder of a call are read from its payload (`cwd`,
//! `transcript_path`). Out: a [`Decision`]: the merged [`Outcome`] and the call's effects
//! when the evaluation worked them out ([`Engine::decide`](crate::Engine::decide)).

use std::rc::Rc;
use std::sync::LazyLock;

use serde_json::Value;

use crate::decision::Outcome;
use crate::dialect::Dialect;
use crate::effects::Effects;
use crate::memory::SessionMemory;
use crate::seam::Seam;

/// The empty session memory: a call judged on its own.
static NO_MEMORY: LazyLock<SessionMemory> = LazyLock::new(SessionMemory::default);

/// One event to decide on, with everything the decision depends on beyond the engine's own
/// policies and environment.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The seam the event arrived at (the payload's `hook_event_name` is not re-read).
    pub seam: Seam,
    /// The hook input as JSON.
    pub payload: &'a Value,
    /// The host's dialect (matcher aliases, code mode, how an ask is answered).
    pub dialect: Dialect,
    /// What the session did earlier (files it wrote, symlinks it created, paths it read) as
    /// the lenses and the `earlier_read_inside` tests see it.
    pub memory: &'a SessionMemory,
}

impl<'a> Request<'a> {
    /// A request judged on its own: an empty session memory.
    pub fn new(seam: Seam, payload: &'a Value, dialect: Dialect) -> Request<'a> {
        Request {
            seam,
            payload,
            dialect,
            memory: &NO_MEMORY,
        }
    }

    /// The same request judged in `memory`.
    pub fn in_memory(self, memory: &'a SessionMemory) -> Request<'a> {
        Request { memory, ..self }
    }

    /// The memory, `None` when it is empty (the lenses then skip every lookup).
    pub(crate) fn memory(&self) -> Option<&'a SessionMemory> {
        Some(self.memory).filter(|m| !m.is_empty())
    }
}

/// What a decision gives back.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The merged outcome.
    pub outcome: Outcome,
    /// The effects of the tool call when a rule's test needed them (the same as
    /// [`effects_in`](crate::effects::effects_in) gives for the payload in the request's
    /// memory, without finding them again); `None` when no test needed them or the call was
    /// judged in parts (Codex code mode).
    pub effects: Option<Rc<Effects>>,
}
