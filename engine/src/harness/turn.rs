//! The turn model (interception-seams seed, "Three load-bearing loop decisions", 1): the
//! turn opens before prompt policy; a blocked prompt is a rejected zero-step turn with a
//! durable `prompt/blocked` record; `hook/*` records of command hooks sit inside the open
//! turn of their session ([`check_records`] verifies it).
//!
//! In: a prompt-submit event ([`Harness::submit_prompt`]) and the end of the turn
//! ([`Harness::end_turn`]). Out: [`Submitted`] — an open [`Turn`] or a rejected one — and
//! the `turn/open`, `prompt/blocked`, `turn/close` records ([`Harness::records`]).

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};

use super::state::TurnId;
use super::{Evaluated, Harness, HookContext, SeamEvent};
use crate::decision::PromptDecision;

/// An open turn: close it with [`Harness::end_turn`] (once: it is not `Clone`).
#[derive(Debug)]
pub struct Turn {
    id: TurnId,
    session_id: String,
}

impl Turn {
    /// The turn's identity.
    pub fn id(&self) -> TurnId {
        self.id
    }

    /// Its session.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }
}

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnEnd {
    /// The agent finished, after `steps` model steps.
    Completed {
        /// Model steps of the turn.
        steps: u32,
    },
    /// Cancelled or interrupted after `steps` model steps.
    Interrupted {
        /// Model steps of the turn.
        steps: u32,
    },
}

/// What [`Harness::submit_prompt`] did with a prompt.
#[derive(Debug)]
pub enum Submitted {
    /// Allowed: the turn is open (with the possibly rewritten prompt and the contexts to
    /// inject into it, in [`Evaluated::decision`]).
    Open {
        /// The open turn.
        turn: Turn,
        /// The prompt-submit evaluation.
        evaluated: Evaluated<PromptDecision>,
    },
    /// Blocked: a rejected zero-step turn, already closed, with its `prompt/blocked` record.
    Rejected {
        /// The rejected turn.
        turn: TurnId,
        /// The blocking reason (its own text; `evaluated.reasons()` has each with the rule
        /// or handler that gave it).
        reason: String,
        /// The prompt-submit evaluation.
        evaluated: Evaluated<PromptDecision>,
    },
}

fn session_of(event: &SeamEvent) -> String {
    event.field("session_id").unwrap_or("").to_string()
}

impl Harness {
    pub(super) async fn submit_prompt_in(&self, event: &SeamEvent, cx: &HookContext) -> Submitted {
        let session_id = session_of(event);
        let turn = self.open_turn(&session_id);
        let evaluated = self.prompt_submit_in(event, cx).await;
        match &evaluated.decision {
            PromptDecision::Block { reason, .. } => {
                let reason = reason.clone();
                self.push_record(json!({
                    "type": "prompt/blocked",
                    "turn_id": turn.id.to_string(),
                    "session_id": session_id,
                    "ts_ms": crate::audit::now_ms(),
                    "prompt": event.prompt_text(),
                    "reason": reason,
                }));
                let id = turn.id;
                self.close_turn(turn, "rejected", 0);
                Submitted::Rejected {
                    turn: id,
                    reason,
                    evaluated,
                }
            }
            PromptDecision::Allow { .. } => Submitted::Open { turn, evaluated },
        }
    }

    /// Close an open turn (`turn/close` with how it ended and its steps).
    pub fn end_turn(&self, turn: Turn, end: TurnEnd) {
        match end {
            TurnEnd::Completed { steps } => self.close_turn(turn, "completed", steps),
            TurnEnd::Interrupted { steps } => self.close_turn(turn, "interrupted", steps),
        }
    }

    fn open_turn(&self, session_id: &str) -> Turn {
        let id = TurnId(self.turns.next.fetch_add(1, Ordering::Relaxed) + 1);
        let previous = self
            .turns
            .open
            .lock()
            .ok()
            .and_then(|mut m| m.insert(session_id.to_string(), id));
        if let Some(prev) = previous {
            self.push_record(turn_close(prev, session_id, "interrupted", 0));
        }
        self.push_record(json!({
            "type": "turn/open",
            "turn_id": id.to_string(),
            "session_id": session_id,
            "ts_ms": crate::audit::now_ms(),
        }));
        Turn {
            id,
            session_id: session_id.to_string(),
        }
    }

    fn close_turn(&self, turn: Turn, reason: &str, steps: u32) {
        let still_open = self.turns.open.lock().ok().is_some_and(|mut m| {
            if m.get(&turn.session_id) == Some(&turn.id) {
                m.remove(&turn.session_id);
                true
            } else {
                false
            }
        });
        if still_open {
            self.push_record(turn_close(turn.id, &turn.session_id, reason, steps));
        }
    }
}

fn turn_close(id: TurnId, session_id: &str, reason: &str, steps: u32) -> Value {
    json!({
        "type": "turn/close",
        "turn_id": id.to_string(),
        "session_id": session_id,
        "ts_ms": crate::audit::now_ms(),
        "reason": reason,
        "steps": steps,
    })
}

/// Check the record invariants of a harness log (hook-protocol seed, "invariant
/// companion"): every record is a known type; `hook/*` and `prompt/blocked` records sit
/// inside an open turn of their session (same `turn_id`); a `hook/result` follows its
/// `hook/invoked` (same `handler_id`) and no handler has two results or none; the dialect
/// is known; `duration_ms` is finite and not negative; turns open and close in pairs, and a
/// `rejected` turn has zero steps and a `prompt/blocked` record.
///
/// # Errors
/// One message per violation, naming the 0-based record index.
pub fn check_records(records: &[Value]) -> Result<usize, Vec<String>> {
    let mut errors = Vec::new();
    let mut open: HashMap<String, String> = HashMap::new();
    let mut blocked: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut invoked: HashMap<String, bool> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let (ty, session, turn) = (s("type"), s("session_id"), s("turn_id"));
        let enclosed = |errors: &mut Vec<String>| {
            match open.get(&session) {
            Some(t) if *t == turn => {}
            Some(t) => errors.push(format!(
                "record {i}: `{ty}` names turn `{turn}` but the open turn of session `{session}` is `{t}`"
            )),
            None => errors.push(format!(
                "record {i}: `{ty}` outside an open turn (session `{session}`)"
            )),
        }
        };
        match ty.as_str() {
            "turn/open" => {
                if let Some(t) = open.insert(session.clone(), turn.clone()) {
                    errors.push(format!(
                        "record {i}: turn `{turn}` opened while `{t}` is open in session `{session}`"
                    ));
                }
            }
            "turn/close" => {
                if open.get(&session) != Some(&turn) {
                    errors.push(format!("record {i}: turn `{turn}` closed but not open"));
                }
                open.remove(&session);
                if s("reason") == "rejected" {
                    if r.get("steps").and_then(Value::as_u64) != Some(0) {
                        errors.push(format!("record {i}: rejected turn `{turn}` has steps"));
                    }
                    if !blocked.contains(&turn) {
                        errors.push(format!(
                            "record {i}: rejected turn `{turn}` has no prompt/blocked record"
                        ));
                    }
                }
            }
            "prompt/blocked" => {
                enclosed(&mut errors);
                blocked.insert(turn.clone());
            }
            "hook/invoked" | "hook/result" => {
                enclosed(&mut errors);
                if crate::dialect::Dialect::from_name(&s("dialect")).is_none() {
                    errors.push(format!("record {i}: unknown dialect `{}`", s("dialect")));
                }
                let id = s("handler_id");
                if ty == "hook/invoked" {
                    if invoked.insert(id.clone(), false).is_some() {
                        errors.push(format!("record {i}: handler `{id}` invoked twice"));
                    }
                } else {
                    match invoked.get_mut(&id) {
                        None => errors.push(format!(
                            "record {i}: result for `{id}` without an invoked record"
                        )),
                        Some(done) if *done => {
                            errors.push(format!("record {i}: second result for `{id}`"));
                        }
                        Some(done) => *done = true,
                    }
                    match r.get("duration_ms").and_then(Value::as_f64) {
                        Some(d) if d.is_finite() && d >= 0.0 => {}
                        _ => errors.push(format!(
                            "record {i}: duration_ms missing, negative or not finite"
                        )),
                    }
                }
            }
            other => errors.push(format!("record {i}: unknown record type `{other}`")),
        }
    }
    let mut unpaired: Vec<&String> = invoked
        .iter()
        .filter(|(_, done)| !**done)
        .map(|(id, _)| id)
        .collect();
    unpaired.sort();
    errors.extend(
        unpaired
            .into_iter()
            .map(|id| format!("handler `{id}` has no result")),
    );
    if errors.is_empty() {
        Ok(records.len())
    } else {
        Err(errors)
    }
}
