//! The harness's durable records: `hook/invoked` + `hook/result` pairs of the command hooks
//! it runs (hook-protocol seed, "hook/* session events"), kept in memory and, when
//! [`Harness::with_record_log`] names a file, appended to it as JSON Lines.
//!
//! In: records built by the command-hook runner. Out: [`Harness::records`] (a snapshot, in
//! order) and the log file.

use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::Value;

use super::Harness;

/// Where the records of a harness go.
#[derive(Debug, Default)]
pub(super) struct Records {
    pub(super) list: Mutex<Vec<Value>>,
    pub(super) file: Option<PathBuf>,
}

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

    /// Append a `hook/*` record.
    pub(super) fn record_hook(&self, record: Value) {
        self.push_record(record);
    }
}
