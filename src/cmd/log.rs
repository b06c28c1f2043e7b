//! `seamguard log`: the decisions of the audit log, newest last, filtered and counted.
//!
//! Also the one place that says where the log is ([`audit_path`]) and reads it
//! ([`read_results`]); `hook` writes it, `allow --last` and `status` read it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::discover;

/// The audit log: `explicit` (`--audit-log`), else `$SEAMGUARD_AUDIT_LOG` (`off`: none), else
/// `<state dir>/audit.jsonl`.
pub(super) fn audit_path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    match discover::env_path("SEAMGUARD_AUDIT_LOG") {
        Some(p) if p.as_os_str() == "off" => None,
        Some(p) => Some(p),
        None => Some(discover::state_dir().join("audit.jsonl")),
    }
}

/// The `hook/result` records of the evaluations in the log (not those of command hooks), in
/// file order; lines that are not JSON are skipped. A missing log holds no record.
///
/// # Errors
/// The log exists but cannot be read.
pub(super) fn read_results(path: &Path) -> Result<Vec<Value>, String> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| {
            v.get("type").and_then(Value::as_str) == Some("hook/result")
                && v.get("decision").is_some()
        })
        .collect())
}
