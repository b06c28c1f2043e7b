//! The harness's durable records: `turn/open`, `prompt/blocked`, `turn/close` (the turn
//! model, `turn`) and the `hook/invoked` + `hook/result` pairs of the command hooks it runs
//! inside a turn (hook-protocol seed, "hook/* session events"), kept in memory and, when
//! [`Harness::with_record_log`] names a file, appended to it as JSON Lines.
//!
//! In: records built by the command-hook runner. Out: [`Harness::records`] (a snapshot, in
//! order) and the log file.

use std::path::PathBuf;

use serde_json::Value;

use super::Harness;

impl Harness {
    /// Also append every record to `path` (JSON Lines, one `write` per record on a file
    /// opened with `O_APPEND`, as the audit log of the hook command).
    pub fn with_record_log(mut self, path: impl Into<PathBuf>) -> Harness {
        self.records.file = Some(path.into());
        self
    }

    /// Every record so far, in order (`hook/invoked`, `hook/result`, …).
    pub fn records(&self) -> Vec<Value> {
        self.records
            .list
            .lock()
            .map(|v| v.clone())
            .unwrap_or_default()
    }

    /// Append one record. A log file that cannot be written is reported as a contained
    /// failure ([`Harness::take_failures`]); the in-memory record is kept.
    pub(super) fn push_record(&self, record: Value) {
        if let Some(path) = &self.records.file
            && let Err(e) = crate::audit::append(path, std::slice::from_ref(&record))
            && let Ok(mut f) = self.failures.lock()
        {
            f.push(super::HandlerFailure {
                name: "record log".into(),
                provenance: path.display().to_string(),
                message: e.to_string(),
            });
        }
        if let Ok(mut v) = self.records.list.lock() {
            v.push(record);
        }
    }

    /// Append a `hook/*` record inside the open turn of `session_id` (its `turn_id` is
    /// added). Outside an open turn — session-start runs before turn 1, and a harness that
    /// does not use turns has none — no record is written (hook-protocol seed: `hook/*`
    /// records sit inside an open turn); the run is still in the outcome's `hook_runs`.
    pub(super) fn record_hook(&self, session_id: &str, mut record: Value) {
        let Some(turn) = self.turns.open_in(session_id) else {
            return;
        };
        if let Some(o) = record.as_object_mut() {
            o.insert("turn_id".into(), Value::String(turn.to_string()));
        }
        self.push_record(record);
    }
}
