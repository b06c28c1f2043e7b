//! Session memory in a replay: the same memory the live hook keeps, per recorded session,
//! held in this process (nothing is written), so a dry-run judges a later call with what the
//! session did before it.

use std::collections::HashMap;
use std::rc::Rc;

use seamguard_engine::effects::Effects;
use seamguard_engine::memory::{SessionMemory, entries_of, with_memory};
use seamguard_engine::readers::RecordedEvent;
use seamguard_engine::{Outcome, Seam, ShellEnv, Verdict};

/// The memories of the sessions replayed so far.
#[derive(Default)]
pub(super) struct Memories {
    by_session: HashMap<String, Rc<SessionMemory>>,
}

/// The session an event belongs to: its `session_id`, or its file (one recorded file is one
/// session).
fn session_of(ev: &RecordedEvent) -> String {
    match ev.payload.get("session_id").and_then(|v| v.as_str()) {
        Some(id) if !id.is_empty() => format!("id\u{0}{id}"),
        _ => format!("file\u{0}{}", ev.file),
    }
}

impl Memories {
    /// Run `f` (the evaluations of `ev`) with its session's memory in effect.
    pub(super) fn evaluate<R>(&mut self, ev: &RecordedEvent, f: impl FnOnce() -> R) -> R {
        let m = self.by_session.entry(session_of(ev)).or_default().clone();
        with_memory(m, f)
    }

    /// Remember what a pre-tool call does, unless it was denied (as the hook does); `known`:
    /// its effects, when its evaluation found them (in this memory: nothing was remembered
    /// since).
    pub(super) fn record(
        &mut self,
        ev: &RecordedEvent,
        out: &Outcome,
        env: &ShellEnv,
        known: Option<&Effects>,
    ) {
        if ev.seam != Seam::PreTool || matches!(out.verdict(), Verdict::Deny | Verdict::Block) {
            return;
        }
        let slot = self.by_session.entry(session_of(ev)).or_default();
        let found;
        let fx = match known {
            Some(fx) => fx,
            None => {
                found = with_memory(slot.clone(), || {
                    seamguard_engine::effects::effects_of(&ev.payload, env)
                });
                &found
            }
        };
        let entries = entries_of(fx, env);
        if !entries.is_empty() {
            Rc::make_mut(slot).remember(entries);
        }
    }
}
