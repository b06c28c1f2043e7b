//! Typed events per seam method: [`PromptEvent`] (`prompt-submit`), [`StartEvent`]
//! (`session-start`, `subagent-start`), [`StopEvent`] (`stop`, `subagent-stop`) and
//! [`NoticeEvent`] (the observe-only seams). Each holds a [`SeamEvent`] of a seam its method
//! takes, checked when it is built, and is accepted only by that method: a stop event given
//! to `prompt_submit` does not compile.
//!
//! The seam methods take `&impl SeamInput<M>`, `M` one of the [`takes`] markers. A raw
//! [`SeamEvent`] fits every method (the escape hatch for replayed payloads) and is checked
//! at run time instead: a misrouted one fails closed, as the methods' docs say.
//!
//! In: a typed payload of [`crate::event`] (`UserPromptSubmit`, `Stop`, …), a `SeamEvent`,
//! or a constructor's fields. Out: the method's event type, or an [`EventError`].

use super::{EventError, SeamEvent, SessionStartSource};
use crate::event::{self as payload, HookEvent};
use crate::seam::Seam;

/// Which seam method an event is for (marker types of [`SeamInput`]; never built).
pub mod takes {
    /// [`Harness::prompt_submit`](crate::harness::Harness::prompt_submit) and
    /// [`Harness::submit_prompt`](crate::harness::Harness::submit_prompt).
    #[derive(Debug)]
    pub enum PromptSubmit {}
    /// [`Harness::session_start`](crate::harness::Harness::session_start).
    #[derive(Debug)]
    pub enum SessionStart {}
    /// [`Harness::stop`](crate::harness::Harness::stop).
    #[derive(Debug)]
    pub enum Stop {}
    /// [`Harness::notify`](crate::harness::Harness::notify).
    #[derive(Debug)]
    pub enum Notify {}
}

/// An event a seam method takes: the method's own event type, or a raw [`SeamEvent`]
/// (checked at run time).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event this seam method takes",
    label = "an event of another seam",
    note = "`prompt_submit` takes a `PromptEvent`, `session_start` a `StartEvent`, `stop` a `StopEvent`, `notify` a `NoticeEvent` (or a raw `SeamEvent`, checked at run time)"
)]
pub trait SeamInput<M> {
    /// The event the method evaluates.
    fn seam_event(&self) -> &SeamEvent;
}

impl<M> SeamInput<M> for SeamEvent {
    fn seam_event(&self) -> &SeamEvent {
        self
    }
}

macro_rules! seam_event_type {
    ($(#[$doc:meta])* $name:ident, $marker:ident, [$first:ident $(, $seam:ident)*]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(SeamEvent);

        impl $name {
            /// Check a raw event: its seam must be one this type stands for, and its payload
            /// must decode as that seam's typed payload ([`SeamEvent::try_new`]).
            ///
            /// # Errors
            /// [`EventError::WrongSeam`] (naming the first seam this type stands for as
            /// the one expected), or [`EventError::Decode`].
            pub fn try_new(event: SeamEvent) -> Result<$name, EventError> {
                if event.seam != Seam::$first $(&& event.seam != Seam::$seam)* {
                    return Err(EventError::WrongSeam {
                        expected: Seam::$first,
                        found: event.seam,
                    });
                }
                SeamEvent::try_new(event.seam, event.payload).map($name)
            }

            /// The raw event (also reachable through `Deref`).
            pub fn event(&self) -> &SeamEvent {
                &self.0
            }

            /// The raw event, by value.
            pub fn into_event(self) -> SeamEvent {
                self.0
            }
        }

        impl SeamInput<takes::$marker> for $name {
            fn seam_event(&self) -> &SeamEvent {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = SeamEvent;
            fn deref(&self) -> &SeamEvent {
                &self.0
            }
        }

        impl TryFrom<SeamEvent> for $name {
            type Error = EventError;
            fn try_from(event: SeamEvent) -> Result<$name, EventError> {
                $name::try_new(event)
            }
        }
    };
}

/// From typed payloads of [`crate::event`]: `$payload` → `$name`.
macro_rules! from_payload {
    ($name:ident: $($payload:ident),+) => {
        $(
            impl From<payload::$payload> for $name {
                fn from(p: payload::$payload) -> $name {
                    $name(SeamEvent::from_typed(&HookEvent::$payload(p)))
                }
            }
        )+
    };
}

seam_event_type!(
    /// A `prompt-submit` event: what [`Harness::prompt_submit`](super::Harness::prompt_submit)
    /// and [`Harness::submit_prompt`](super::Harness::submit_prompt) take.
    ///
    /// ```
    /// use seamguard_engine::harness::{Harness, PromptEvent, SeamEvent, StopEvent};
    ///
    /// let prompt = PromptEvent::new("tidy the repo", "s1", "/w");
    /// assert_eq!(prompt.prompt_text(), Some("tidy the repo"));
    /// // A raw event of another seam is refused when converted.
    /// assert!(PromptEvent::try_new(SeamEvent::stop(false, "s1", "/w")).is_err());
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// let r = rt.block_on(Harness::new().prompt_submit(&prompt));
    /// assert!(r.failures.is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    PromptEvent,
    PromptSubmit,
    [PromptSubmit]
);
seam_event_type!(
    /// A `session-start` or `subagent-start` event: what
    /// [`Harness::session_start`](super::Harness::session_start) takes.
    StartEvent,
    SessionStart,
    [SessionStart, SubagentStart]
);
seam_event_type!(
    /// A `stop` or `subagent-stop` event: what [`Harness::stop`](super::Harness::stop) takes.
    StopEvent,
    Stop,
    [Stop, SubagentStop]
);
seam_event_type!(
    /// An event of an observe-only seam (`notification`, `session-end`, `pre-compact`,
    /// `post-compact`, `post-tool-failure`): what [`Harness::notify`](super::Harness::notify)
    /// takes.
    NoticeEvent,
    Notify,
    [Notification, SessionEnd, PreCompact, PostCompact, PostToolFailure]
);

from_payload!(PromptEvent: UserPromptSubmit);
from_payload!(StartEvent: SessionStart, SubagentStart);
from_payload!(StopEvent: Stop, SubagentStop);
from_payload!(NoticeEvent: Notification, SessionEnd, PreCompact, PostCompact, PostToolUseFailure);

impl PromptEvent {
    /// A prompt-submit event for `prompt` in `session_id` ([`SeamEvent::prompt`]).
    pub fn new(prompt: &str, session_id: &str, cwd: &str) -> PromptEvent {
        PromptEvent(SeamEvent::prompt(prompt, session_id, cwd))
    }
}

impl StartEvent {
    /// A `session-start` event ([`SeamEvent::session_start`]).
    pub fn new(source: SessionStartSource, session_id: &str, cwd: &str) -> StartEvent {
        StartEvent(SeamEvent::session_start(source, session_id, cwd))
    }
}

impl StopEvent {
    /// A `stop` event ([`SeamEvent::stop`]; `stop_hook_active`: the agent already continues
    /// because of a stop hook).
    pub fn new(stop_hook_active: bool, session_id: &str, cwd: &str) -> StopEvent {
        StopEvent(SeamEvent::stop(stop_hook_active, session_id, cwd))
    }
}

impl NoticeEvent {
    /// A `notification` event ([`SeamEvent::notification`]).
    pub fn notification(message: &str, session_id: &str, cwd: &str) -> NoticeEvent {
        NoticeEvent(SeamEvent::notification(message, session_id, cwd))
    }

    /// A `session-end` event ([`SeamEvent::session_end`]).
    pub fn session_end(reason: &str, session_id: &str, cwd: &str) -> NoticeEvent {
        NoticeEvent(SeamEvent::session_end(reason, session_id, cwd))
    }

    /// A `pre-compact` event ([`SeamEvent::pre_compact`]).
    pub fn pre_compact(trigger: &str, session_id: &str, cwd: &str) -> NoticeEvent {
        NoticeEvent(SeamEvent::pre_compact(trigger, session_id, cwd))
    }
}
