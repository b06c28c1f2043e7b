//! Session memory in a replay: the same memory the live hook keeps, per recorded session,
//! held in this process (nothing is written), so a dry-run judges a later call with what the
//! session did before it, and the person's answers to its asks ([`Memories::answer`]).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use seamguard_engine::concern::Concern;
use seamguard_engine::effects::Effects;
use seamguard_engine::effects::effects_in;
use seamguard_engine::memory::{Entry, SessionMemory, entries_of};
use seamguard_engine::readers::RecordedEvent;
use seamguard_engine::{Engine, Outcome, Seam, ShellEnv, Verdict};

use super::report::Interruptions;

/// The memories of the sessions replayed so far.
#[derive(Default)]
pub(super) struct Memories {
    by_session: HashMap<String, Rc<SessionMemory>>,
    /// The concerns each session asked about so far (to count distinct concerns).
    asked: HashMap<String, HashSet<Concern>>,
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
    /// The memory `ev` is judged in: what its session did before it.
    pub(super) fn of(&mut self, ev: &RecordedEvent) -> Rc<SessionMemory> {
        self.by_session.entry(session_of(ev)).or_default().clone()
    }

    /// The person answering a pre-tool event, as the hook's approvals do: an ask whose every
    /// concern an earlier answered ask of the session covers is turned into that allow (the
    /// approval's `file:line` is returned); any other ask is shown and, with `model`, answered
    /// yes, so its concerns are approved for the rest of the session. Counts what the person
    /// saw in `tally`.
    pub(super) fn answer(
        &mut self,
        ev: &RecordedEvent,
        engine: &Engine,
        out: &mut Outcome,
        known: Option<&Effects>,
        model: bool,
        tally: &mut Interruptions,
    ) -> Option<String> {
        if ev.seam != Seam::PreTool {
            return None;
        }
        tally.pre_tool_events += 1;
        tally.approvals_modelled = model;
        match out.verdict() {
            Verdict::Deny | Verdict::Defer => {
                tally.denies += 1;
                tally.interruptions += 1;
                return None;
            }
            Verdict::Ask => {}
            _ => return None,
        }
        let session = session_of(ev);
        let slot = self.by_session.entry(session.clone()).or_default();
        let found;
        let fx = match known {
            Some(fx) => fx,
            None => {
                found = effects_in(&ev.payload, engine.table().env(), slot);
                &found
            }
        };
        let concerns = engine.concerns_in(Seam::PreTool, &ev.payload, out, fx, slot);
        let approvable = crate::approvals::may_approve(out, &ev.payload) && !concerns.is_empty();
        if model
            && approvable
            && let Some(a) = slot.approval_covering(&concerns)
        {
            let at = a.call.to_string();
            crate::approvals::allow(out, &concerns, &format!("the ask at {at}, answered yes"));
            tally.approved += 1;
            return Some(at);
        }
        tally.asks += 1;
        tally.interruptions += 1;
        let seen = self.asked.entry(session).or_default();
        for c in &concerns {
            if seen.insert(c.clone()) {
                tally.distinct_concerns += 1;
            }
        }
        if model && approvable {
            Rc::make_mut(slot).remember(vec![Entry::Approved {
                call: format!("{}:{}", ev.file, ev.line),
                concerns,
                ms: 0,
                by: "replay".to_string(),
            }]);
        }
        None
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
                found = effects_in(&ev.payload, env, slot);
                &found
            }
        };
        let entries = entries_of(fx, env);
        if !entries.is_empty() {
            Rc::make_mut(slot).remember(entries);
        }
    }
}
