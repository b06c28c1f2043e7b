//! What a replay is asked to do and what it reads: the [`Options`] of `seamguard replay`, its
//! [`OutputFormat`], and the items of one recorded file ([`items_of`]).
//!
//! In: the options the `replay` subcommand fills in; a recorded file's path. Out: the items
//! of that file, each with the outcome recorded for it when the file is an audit log.

use std::path::{Path, PathBuf};

use seamguard_engine::Dialect;
use seamguard_engine::readers::{EventReader, Item, ReadOptions};

use super::audit_log;
use super::report::Brief;

/// Output format of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// Human-readable summary.
    Text,
    /// One JSON report.
    Json,
    /// One JSON object per event.
    Jsonl,
}

/// Options of `seamguard replay`.
#[derive(Debug)]
pub(crate) struct Options {
    /// Recorded files or folders.
    pub(crate) inputs: Vec<PathBuf>,
    /// `--format`.
    pub(crate) format: OutputFormat,
    /// `--fail-on`.
    pub(crate) fail_on: Option<String>,
    /// `--dialect`.
    pub(crate) dialect: Option<Dialect>,
    /// `--exec-hooks`.
    pub(crate) exec_hooks: bool,
    /// `--verdict`: only events with one of these verdicts.
    pub(crate) verdicts: Vec<String>,
    /// `--rule`: only events one of these rules fired on (either side of a comparison).
    pub(crate) rules: Vec<String>,
    /// `--only-changed`: only events whose outcome differs from the baseline.
    pub(crate) only_changed: bool,
    /// Model the person answering yes to each ask (not `--no-approvals`).
    pub(crate) approvals: bool,
}

impl Options {
    pub(super) fn filtered(&self) -> bool {
        !self.verdicts.is_empty() || !self.rules.is_empty() || self.only_changed
    }
}

/// The items of a recorded file in order, each with the outcome recorded for it (audit logs).
pub(super) type Items = Box<dyn Iterator<Item = (Item, Option<Brief>)>>;

/// The items of a recorded file, decoded once by the session scan and kept for its replay.
pub(super) type Decoded = Vec<(Item, Option<Brief>)>;

/// The items of one recorded file, each with the outcome recorded for it (audit logs).
pub(super) fn items_of(f: &Path, audit: bool, read: ReadOptions) -> Items {
    if audit {
        Box::new(audit_log::AuditReader::open(f).map(|a| (a.item, a.recorded)))
    } else {
        Box::new(EventReader::open_with(f, read).map(|i| (i, None)))
    }
}
