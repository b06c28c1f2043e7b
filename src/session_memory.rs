//! The session memory of `seamguard hook`: loaded before a tool call is judged, added to
//! after it was allowed or asked (a denied call did nothing to remember).
//!
//! Kept in `memory/` of the state folder, one file per session
//! ([`seamguard_engine::memory::store`]). Never a reason to fail open: what cannot be read or
//! written is reported (the load problems as outcome warnings, the record problems on
//! stderr) and the call is judged with what could be read.

use std::rc::Rc;

use serde_json::Value;

use seamguard_engine::memory::store::MemoryStore;
use seamguard_engine::memory::{SessionMemory, entries_of, with_memory};
use seamguard_engine::{Outcome, Seam, ShellEnv, Verdict};

use crate::discover;

/// The memory of the session a hook event belongs to.
pub(crate) struct Session {
    /// The store and the session id; `None` for an event that uses no memory (not a
    /// pre-tool call, or no `session_id`).
    at: Option<(MemoryStore, String)>,
    memory: Rc<SessionMemory>,
    problems: Vec<String>,
}

impl Session {
    /// The memory of the session of a pre-tool `payload` (an empty one otherwise).
    pub(crate) fn load(payload: &Value, seam: Seam) -> Session {
        let id = payload
            .get("session_id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let (Seam::PreTool, Some(id)) = (seam, id) else {
            return Session {
                at: None,
                memory: Rc::default(),
                problems: Vec::new(),
            };
        };
        let store = MemoryStore::new(discover::state_dir().join("memory"));
        let loaded = store.load(id);
        Session {
            at: Some((store, id.to_string())),
            memory: Rc::new(loaded.memory),
            problems: loaded
                .problems
                .into_iter()
                .map(|p| format!("seamguard: {p}"))
                .collect(),
        }
    }

    /// What went wrong loading it (to report with the answer).
    pub(crate) fn take_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.problems)
    }

    /// Run `f` (the evaluation) with this memory in effect.
    pub(crate) fn evaluate<R>(&self, f: impl FnOnce() -> R) -> R {
        with_memory(self.memory.clone(), f)
    }

    /// Remember what the call does, unless it was denied.
    /// `known`: the call's effects, when its evaluation worked them out (in this memory).
    pub(crate) fn record(
        self,
        payload: &Value,
        outcome: &Outcome,
        env: &ShellEnv,
        known: Option<&seamguard_engine::effects::Effects>,
    ) {
        let Some((store, id)) = self.at else {
            return;
        };
        if matches!(outcome.verdict(), Verdict::Deny | Verdict::Block) {
            return;
        }
        let found;
        let fx = match known {
            Some(fx) => fx,
            None => {
                found = with_memory(self.memory.clone(), || {
                    seamguard_engine::effects::effects_of(payload, env)
                });
                &found
            }
        };
        let mut memory = Rc::unwrap_or_clone(self.memory);
        let new = memory.remember(entries_of(fx, env));
        if let Err(e) = store.append(&id, &new) {
            eprintln!("seamguard: {e}");
        }
    }
}
