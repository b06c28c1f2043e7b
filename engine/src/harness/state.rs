//! What a harness holds besides its tables and handlers: where its records go, the open
//! turn of each session, and the detached command hooks still running.
//!
//! In: nothing (each part starts empty). Out: [`Records`], [`Turns`] (with [`TurnId`]),
//! [`Detached`], the fields of a [`Harness`](super::Harness).

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::decision::HookRun;
use crate::runner::{CommandHook, RunContext, run_one};

/// Where the records of a harness go.
#[derive(Debug, Default)]
pub(super) struct Records {
    pub(super) list: Mutex<Vec<Value>>,
    pub(super) file: Option<PathBuf>,
}

/// The open turn of each session.
#[derive(Debug, Default)]
pub(super) struct Turns {
    pub(super) open: Mutex<HashMap<String, TurnId>>,
    pub(super) next: AtomicU64,
}

impl Turns {
    /// The open turn of `session_id`, if any.
    pub(super) fn open_in(&self, session_id: &str) -> Option<TurnId> {
        self.open.lock().ok()?.get(session_id).copied()
    }
}

/// Detached command hooks of a harness: the tasks still running, and the reports of those
/// that ended and were not yet returned by [`Harness::shutdown`].
#[derive(Debug, Default)]
pub(super) struct Detached {
    pub(super) running: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    pub(super) ended: Arc<Mutex<Vec<HookRun>>>,
}

impl Detached {
    /// Start `hook` on the runtime without waiting for it.
    pub(super) fn spawn(&self, hook: CommandHook, input: Arc<Vec<u8>>, cx: RunContext) {
        let ended = self.ended.clone();
        let task = tokio::spawn(async move {
            let res = run_one(&hook, input, &cx).await;
            let run = res.hook_run(&hook);
            if let Ok(mut v) = ended.lock() {
                v.push(run);
            }
        });
        if let Ok(mut v) = self.running.lock() {
            v.retain(|t| !t.is_finished());
            v.push(task);
        }
    }
}

/// Identity of one turn, unique in the harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnId(pub(super) u64);

impl fmt::Display for TurnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn-{}", self.0)
    }
}
