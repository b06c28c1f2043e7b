//! The session memory of `seamguard hook`: loaded before a tool call is judged, added to
//! after it was allowed or asked (a denied call did nothing to remember), and the person's
//! answers to asks (approvals per concern, [`seamguard_engine::concern`]).
//!
//! Kept in `memory/` of the state folder, one file per session
//! ([`seamguard_engine::memory::store`]). Never a reason to fail open: what cannot be read or
//! written is reported (the load problems as outcome warnings, the record problems on
//! stderr) and the call is judged with what could be read.
//!
//! **Approvals learned from the host.** A pre-tool call that is answered `ask` is remembered
//! with its concerns and the host's id for it (`tool_use_id`). When the host then reports
//! that the call with that id ran (`PostToolUse`, or `PostToolUseFailure`: it ran and failed),
//! the person said yes: its concerns become an approval of the session, and later calls
//! raising only approved concerns are allowed ([`crate::approvals`]). A report of a call that
//! was never asked about (a denied call is never remembered), of another call than the one
//! asked about, or of one already approved approves nothing.

use serde_json::Value;

use seamguard_engine::concern::{Concern, call_key};
use seamguard_engine::memory::store::MemoryStore;
use seamguard_engine::memory::{Approval, Entry, SessionMemory, entries_of};
use seamguard_engine::{Outcome, Seam, ShellEnv, Verdict, audit};

use crate::discover;

/// The memory of the session a hook event belongs to.
pub(crate) struct Session {
    /// The store and the session id; `None` for an event that uses no memory (not a tool
    /// event, or no `session_id`).
    at: Option<(MemoryStore, String)>,
    memory: SessionMemory,
    problems: Vec<String>,
}

impl Session {
    /// The memory of the session of a pre-tool event `payload`, or of a post-tool report
    /// (`PostToolUse`, `PostToolUseFailure`) when approvals are learned from it (`learn`:
    /// [`crate::approvals::host_asks`]) and it names its call; an empty one otherwise.
    pub(crate) fn load(payload: &Value, seam: Seam, learn: bool) -> Session {
        let id = payload
            .get("session_id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let tool_seam = seam == Seam::PreTool
            || (learn
                && matches!(seam, Seam::PostTool | Seam::PostToolFailure)
                && tool_use_id(payload).is_some());
        let (true, Some(id)) = (tool_seam, id) else {
            return Session {
                at: None,
                memory: SessionMemory::default(),
                problems: Vec::new(),
            };
        };
        let store = MemoryStore::new(discover::state_dir().join("memory"));
        let loaded = store.load(id);
        Session {
            at: Some((store, id.to_string())),
            memory: loaded.memory,
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

    /// The memory the call is judged in ([`seamguard_engine::Request::in_memory`]).
    pub(crate) fn memory(&self) -> &SessionMemory {
        &self.memory
    }

    /// The approval of this session that answers every concern of `asked`, if one does.
    pub(crate) fn approval_for(&self, asked: &[Concern]) -> Option<Approval<'_>> {
        self.memory.approval_covering(asked)
    }

    /// Remember the event, once the answer is written:
    /// - a pre-tool call that was not denied: what it does (writes, links, reads); and, when
    ///   it asks and the host gave it an id, its concerns (to learn the answer from);
    /// - a post-tool report of a call that asked: the approval of its concerns.
    ///
    /// `known`: the call's effects, when its evaluation worked them out (in this memory).
    /// `learned`: what the final answer asks about (empty when it does not ask), when the
    /// host shows the ask to the person and reports the call if it then ran
    /// ([`crate::approvals::host_asks`]); `None` when it does not (nothing is learned).
    pub(crate) fn record(
        self,
        payload: &Value,
        seam: Seam,
        outcome: &Outcome,
        env: &ShellEnv,
        known: Option<&seamguard_engine::effects::Effects>,
        learned: Option<&[Concern]>,
    ) {
        let Some((store, id)) = self.at else {
            return;
        };
        let new = match seam {
            Seam::PreTool => {
                if matches!(outcome.verdict(), Verdict::Deny | Verdict::Block) {
                    return;
                }
                let found;
                let fx = match known {
                    Some(fx) => fx,
                    None => {
                        found = seamguard_engine::effects::effects_in(payload, env, &self.memory);
                        &found
                    }
                };
                let mut entries = entries_of(fx, env);
                if let Some(concerns) = learned
                    && outcome.verdict() == Verdict::Ask
                    && !concerns.is_empty()
                    && let Some(call) = tool_use_id(payload)
                {
                    entries.push(Entry::Asked {
                        call: call.to_string(),
                        concerns: concerns.to_vec(),
                        ms: audit::now_ms(),
                        key: call_key(payload).map_or_else(String::new, |k| k.to_string()),
                    });
                }
                let mut memory = self.memory;
                memory.remember(entries)
            }
            Seam::PostTool | Seam::PostToolFailure => match approval_of(&self.memory, payload) {
                Some(e) => vec![e],
                None => return,
            },
            _ => return,
        };
        if new.is_empty() {
            return;
        }
        if let Err(e) = store.append(&id, &new) {
            eprintln!("seamguard: {e}");
        }
    }
}

/// The host's id of a tool call (`tool_use_id`), when it gives one.
fn tool_use_id(payload: &Value) -> Option<&str> {
    payload
        .get("tool_use_id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The approval a post-tool report teaches: the call with its id asked, is the same call
/// (same normalized call), and was not approved yet.
pub(crate) fn approval_of(memory: &SessionMemory, payload: &Value) -> Option<Entry> {
    let call = tool_use_id(payload)?;
    let (concerns, key) = memory.asked(call)?;
    let same = call_key(payload)
        .is_some_and(|k| serde_json::from_str::<Value>(key).is_ok_and(|asked| asked == k));
    if !same || memory.approved(call) {
        return None;
    }
    Some(Entry::Approved {
        call: call.to_string(),
        concerns: concerns.to_vec(),
        ms: audit::now_ms(),
        by: "ran".to_string(),
    })
}
