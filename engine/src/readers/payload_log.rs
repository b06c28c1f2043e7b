//! Hook-payload logs (TRANSCRIPTS.md §2): payloads as a logging hook wrote them, bare
//! (`{"hook_event_name": …}`) or wrapped (`{"payload": {…}}`, PAI `capture-all-events` with
//! `hook_event_type`). They are replayed as recorded, in the dialect they are written in.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Format, Item, ProblemKind, ReadProblem, RecordedEvent};
use crate::dialect::Dialect;
use crate::event::{DecodeError, HookEvent};

/// The hook payload a record carries, bare or unwrapped (a wrapper's `hook_event_type`
/// names the event when the payload does not); the record back when it is not one.
pub(super) fn payload_of(mut m: Map<String, Value>) -> Result<Value, Map<String, Value>> {
    if m.get("hook_event_name").is_some_and(Value::is_string) {
        return Ok(Value::Object(m));
    }
    let wrapped = m.get("payload").is_some_and(Value::is_object)
        && (m.contains_key("hook_event_type")
            || m.get("payload")
                .and_then(|p| p.get("hook_event_name"))
                .is_some());
    if !wrapped {
        return Err(m);
    }
    let outer_name = m.get("hook_event_type").cloned();
    match m.remove("payload") {
        Some(Value::Object(mut p)) => {
            if !p.contains_key("hook_event_name")
                && let Some(n) = outer_name
            {
                p.insert("hook_event_name".into(), n);
            }
            Ok(Value::Object(p))
        }
        // Checked above: the payload is an object.
        _ => Err(m),
    }
}

/// The event of one payload at `file:line`, or the problem when it does not decode (an
/// unknown event name is skipped, anything else is unreadable).
pub(super) fn event(file: &Arc<str>, line: usize, p: Value) -> Item {
    let problem = |kind, message| {
        Item::Problem(ReadProblem {
            file: file.clone(),
            line,
            kind,
            message,
        })
    };
    match HookEvent::from_value(&p) {
        Ok(ev) => {
            let dialect = Dialect::detect(&p);
            Item::Event(RecordedEvent {
                file: file.clone(),
                line,
                format: Format::HookLog,
                dialect,
                seam: ev.seam(),
                payload: p,
            })
        }
        Err(e @ DecodeError::UnknownEvent(_)) => problem(ProblemKind::Skipped, e.to_string()),
        Err(e) => problem(ProblemKind::Unreadable, e.to_string()),
    }
}
