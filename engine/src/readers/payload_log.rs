//! Hook-payload logs (TRANSCRIPTS.md §2): payloads as a logging hook wrote them, bare
//! (`{"hook_event_name": …}`) or wrapped (`{"payload": {…}}`, PAI `capture-all-events` with
//! `hook_event_type`). They are replayed as recorded, in the dialect they are written in.
//!
//! A log written by a Gemini CLI, Cursor or Copilot CLI hook (HOSTS.md §1) holds the host's
//! own payloads: `BeforeTool`, `beforeShellExecution`, or Copilot's event-less
//! `{"toolName", "toolArgs"}`. Each is detected as `hook` detects it and rewritten into the
//! common payload of its seam ([`crate::codec::normalize`]), so `replay` judges it as `hook`
//! judged it; a payload the host's dialect cannot read (a `toolArgs` that is not JSON) is
//! unreadable, a host event seamguard does not judge (`afterFileEdit`) is skipped.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Format, Item, ProblemKind, ReadProblem, RecordedEvent};
use crate::codec::normalize;
use crate::dialect::Dialect;
use crate::event::{DecodeError, HookEvent};

/// The hook payload a record carries, bare or unwrapped (a wrapper's `hook_event_type`
/// names the event when the payload does not); the record back when it is not one.
pub(super) fn payload_of(mut m: Map<String, Value>) -> Result<Value, Map<String, Value>> {
    if m.get("hook_event_name").is_some_and(Value::is_string) || is_copilot_payload(&m) {
        return Ok(Value::Object(m));
    }
    let wrapped = m.get("payload").is_some_and(Value::is_object)
        && (m.contains_key("hook_event_type")
            || m.get("payload")
                .and_then(|p| p.get("hook_event_name"))
                .is_some()
            || matches!(m.get("payload"), Some(Value::Object(p)) if is_copilot_payload(p)));
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

/// The fields a Copilot CLI payload (camelCase configuration) carries besides `timestamp`
/// and `cwd`: one per event (HOSTS.md §1).
const COPILOT_FIELDS: &[&str] = &[
    "toolName",
    "toolArgs",
    "toolResult",
    "prompt",
    "source",
    "reason",
    "error",
];

/// Whether a record is a Copilot CLI payload: no event name and no transcript `type`, a
/// numeric `timestamp` or `toolName` / `toolArgs` (what `hook` detects Copilot by), and one of
/// the [`COPILOT_FIELDS`].
fn is_copilot_payload(m: &Map<String, Value>) -> bool {
    !m.contains_key("hook_event_name")
        && !m.contains_key("type")
        && COPILOT_FIELDS.iter().any(|k| m.contains_key(*k))
        && (m.contains_key("toolName")
            || m.contains_key("toolArgs")
            || m.get("timestamp").is_some_and(Value::is_number))
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
    let dialect = Dialect::detect(&p);
    let p = match normalize(&p, dialect) {
        Ok(p) => p,
        Err(e) => return problem(ProblemKind::Unreadable, format!("{dialect} payload: {e}")),
    };
    match HookEvent::from_value(&p) {
        Ok(ev) => Item::Event(RecordedEvent {
            file: file.clone(),
            line,
            format: Format::HookLog,
            dialect,
            seam: ev.seam(),
            payload: p,
        }),
        Err(e @ DecodeError::UnknownEvent(_)) => problem(ProblemKind::Skipped, e.to_string()),
        Err(e) => problem(ProblemKind::Unreadable, e.to_string()),
    }
}
