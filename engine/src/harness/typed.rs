//! Typed events per seam: [`SeamEvent`] built from, and read as, the seam's typed payload
//! ([`HookEvent`]: [`crate::event::SessionStart`], [`crate::event::Stop`], …), with the raw
//! JSON kept as the escape hatch. An event built for one seam and given to another seam's
//! method is an error ([`EventError::WrongSeam`] from [`SeamEvent::try_new`]; a failure
//! that fails closed from the seam methods).
//!
//! In: a typed payload, or a seam and a raw payload. Out: a checked [`SeamEvent`], or an
//! [`EventError`].

use std::fmt;

use serde_json::{Value, json};

use super::{HandlerFailure, SeamEvent};
use crate::event::{DecodeError, HookEvent};
use crate::seam::Seam;

/// Why a payload is not an event of the seam it was built for.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventError {
    /// The payload's `hook_event_name` names another seam's event.
    #[error("a `{found}` payload cannot be a `{expected}` event")]
    WrongSeam {
        /// The seam the event was built for.
        expected: Seam,
        /// The seam its payload names.
        found: Seam,
    },
    /// The payload does not decode as the seam's typed payload.
    #[error("{0}")]
    Decode(#[from] DecodeError),
}

/// What started a session (`session-start`'s `source`; interception-seams seed,
/// `SessionStartSource`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SessionStartSource {
    /// A fresh session.
    Startup,
    /// A reloaded persisted session.
    Resume,
    /// After `/clear`.
    Clear,
    /// After compaction.
    Compact,
    /// A forked session.
    Fork,
    /// A source this version does not know (kept as sent).
    Other(String),
}

impl SessionStartSource {
    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            SessionStartSource::Startup => "startup",
            SessionStartSource::Resume => "resume",
            SessionStartSource::Clear => "clear",
            SessionStartSource::Compact => "compact",
            SessionStartSource::Fork => "fork",
            SessionStartSource::Other(s) => s,
        }
    }

    /// Read a wire name.
    pub fn parse(s: &str) -> SessionStartSource {
        match s {
            "startup" => SessionStartSource::Startup,
            "resume" => SessionStartSource::Resume,
            "clear" => SessionStartSource::Clear,
            "compact" => SessionStartSource::Compact,
            "fork" => SessionStartSource::Fork,
            other => SessionStartSource::Other(other.to_string()),
        }
    }
}

impl fmt::Display for SessionStartSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn base(seam: Seam, session_id: &str, cwd: &str) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("session_id".into(), json!(session_id));
    m.insert("cwd".into(), json!(cwd));
    m.insert("hook_event_name".into(), json!(seam.event_name()));
    m
}

impl SeamEvent {
    /// An event at `seam` whose payload is checked: it must decode as the seam's typed
    /// payload, and a `hook_event_name` (added when absent) must name this seam's event.
    ///
    /// # Errors
    /// [`EventError::WrongSeam`], or [`EventError::Decode`] naming the missing or wrongly
    /// typed field.
    pub fn try_new(seam: Seam, mut payload: Value) -> Result<SeamEvent, EventError> {
        if let Some(o) = payload.as_object_mut() {
            o.entry("hook_event_name")
                .or_insert_with(|| json!(seam.event_name()));
        }
        let typed = HookEvent::from_value(&payload)?;
        if typed.seam() != seam {
            return Err(EventError::WrongSeam {
                expected: seam,
                found: typed.seam(),
            });
        }
        Ok(SeamEvent { seam, payload })
    }

    /// The event of a typed payload (its seam is the payload's).
    pub fn from_typed(event: &HookEvent) -> SeamEvent {
        SeamEvent {
            seam: event.seam(),
            payload: event.to_value(),
        }
    }

    /// The payload as the seam's typed payload.
    ///
    /// # Errors
    /// The payload does not decode ([`EventError::Decode`]) or names another seam
    /// ([`EventError::WrongSeam`]).
    pub fn typed(&self) -> Result<HookEvent, EventError> {
        let mut payload = self.payload.clone();
        if let Some(o) = payload.as_object_mut() {
            o.entry("hook_event_name")
                .or_insert_with(|| json!(self.seam.event_name()));
        }
        let typed = HookEvent::from_value(&payload)?;
        if typed.seam() != self.seam {
            return Err(EventError::WrongSeam {
                expected: self.seam,
                found: typed.seam(),
            });
        }
        Ok(typed)
    }

    /// A `session-start` event.
    pub fn session_start(source: SessionStartSource, session_id: &str, cwd: &str) -> SeamEvent {
        let mut m = base(Seam::SessionStart, session_id, cwd);
        m.insert("source".into(), json!(source.as_str()));
        SeamEvent::new(Seam::SessionStart, Value::Object(m))
    }

    /// A `stop` event (`stop_hook_active`: the agent already continues because of a stop
    /// hook).
    pub fn stop(stop_hook_active: bool, session_id: &str, cwd: &str) -> SeamEvent {
        let mut m = base(Seam::Stop, session_id, cwd);
        m.insert("stop_hook_active".into(), json!(stop_hook_active));
        SeamEvent::new(Seam::Stop, Value::Object(m))
    }

    /// A `notification` event.
    pub fn notification(message: &str, session_id: &str, cwd: &str) -> SeamEvent {
        let mut m = base(Seam::Notification, session_id, cwd);
        m.insert("message".into(), json!(message));
        SeamEvent::new(Seam::Notification, Value::Object(m))
    }

    /// A `session-end` event (`reason`: `clear`, `logout`, `prompt_input_exit`, `other`, …).
    pub fn session_end(reason: &str, session_id: &str, cwd: &str) -> SeamEvent {
        let mut m = base(Seam::SessionEnd, session_id, cwd);
        m.insert("reason".into(), json!(reason));
        SeamEvent::new(Seam::SessionEnd, Value::Object(m))
    }

    /// A `pre-compact` event (`trigger`: `manual` or `auto`).
    pub fn pre_compact(trigger: &str, session_id: &str, cwd: &str) -> SeamEvent {
        let mut m = base(Seam::PreCompact, session_id, cwd);
        m.insert("trigger".into(), json!(trigger));
        SeamEvent::new(Seam::PreCompact, Value::Object(m))
    }

    /// `session-start`'s `source`, typed (`None` at other seams or when absent).
    pub fn session_start_source(&self) -> Option<SessionStartSource> {
        matches!(self.seam, Seam::SessionStart)
            .then(|| self.field("source").map(SessionStartSource::parse))
            .flatten()
    }

    /// `stop_hook_active` of a stop seam (`false` when absent).
    pub fn stop_hook_active(&self) -> bool {
        self.payload
            .get("stop_hook_active")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// The failure of giving this event to a seam method that takes `accepted` seams: the
    /// event's seam, or the seam its payload's `hook_event_name` names, is not one of them.
    pub(super) fn misrouted(&self, method: &str, accepted: &[Seam]) -> Option<HandlerFailure> {
        let named = self
            .field("hook_event_name")
            .and_then(Seam::from_event_name);
        let wrong = if !accepted.contains(&self.seam) {
            Some(self.seam)
        } else {
            named.filter(|n| *n != self.seam)
        }?;
        Some(HandlerFailure {
            name: "seamguard".into(),
            provenance: format!("Harness::{method}"),
            message: format!(
                "a `{wrong}` event given to `{method}` (it takes {}); nothing evaluated",
                accepted
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}
