//! The continuation ledger of stop seams: how many times a rule already made the agent go
//! on in the current chain, kept between hook invocations (the hook binary is spawned once
//! per event).
//!
//! In: a key naming a session, seam and agent. Out: the count granted so far. [`StopBudget`]
//! reads one event's key, `stop_hook_active` and count for the evaluator.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::Value;

use crate::seam::Seam;

/// Where the per-turn continuation count of stop seams is kept between hook invocations.
///
/// The key names a session, seam and agent. Implementations must not fail: a store that
/// cannot be read counts as "budget exhausted" (no endless loops).
pub trait ContinuationLedger: Send + Sync {
    /// Continuations already granted in the current chain.
    fn used(&self, key: &str) -> u32;
    /// Record the count for the current chain.
    fn set(&self, key: &str, n: u32);
    /// Why the count of `key` cannot be kept between invocations (the store cannot be read
    /// or written), if it cannot: the budget then counts as spent and the agent may stop.
    fn unusable(&self, key: &str) -> Option<String> {
        let _ = key;
        None
    }
}

/// In-memory ledger (replay, embedding, tests).
#[derive(Debug, Default)]
pub struct MemoryLedger(Mutex<HashMap<String, u32>>);

impl ContinuationLedger for MemoryLedger {
    fn used(&self, key: &str) -> u32 {
        self.0
            .lock()
            .map(|m| m.get(key).copied().unwrap_or(0))
            .unwrap_or(u32::MAX)
    }

    fn set(&self, key: &str, n: u32) {
        if let Ok(mut m) = self.0.lock() {
            m.insert(key.to_string(), n);
        }
    }
}

/// File ledger: one small file per key under a state folder (the hook binary is spawned
/// once per event, so the count must outlive the process).
#[derive(Debug, Clone)]
pub struct FileLedger {
    dir: PathBuf,
}

impl FileLedger {
    /// A ledger under `dir` (created on first write).
    pub fn new(dir: PathBuf) -> FileLedger {
        FileLedger { dir }
    }

    fn path(&self, key: &str) -> PathBuf {
        let safe: String = key
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(safe)
    }
}

impl ContinuationLedger for FileLedger {
    fn used(&self, key: &str) -> u32 {
        match std::fs::read_to_string(self.path(key)) {
            Ok(s) => s.trim().parse().unwrap_or(u32::MAX),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(_) => u32::MAX,
        }
    }

    fn unusable(&self, key: &str) -> Option<String> {
        let p = self.path(key);
        match std::fs::read_to_string(&p) {
            Ok(s) if s.trim().parse::<u32>().is_err() => {
                return Some(format!(
                    "the continuation ledger {} holds no count",
                    p.display()
                ));
            }
            // Appending nothing checks the file can be written without changing it.
            Ok(_) => {
                return std::fs::OpenOptions::new()
                    .append(true)
                    .open(&p)
                    .err()
                    .map(|e| {
                        format!(
                            "the continuation ledger {} cannot be written ({e})",
                            p.display()
                        )
                    });
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Some(format!(
                    "the continuation ledger {} cannot be read ({e})",
                    p.display()
                ));
            }
            Err(_) => {}
        }
        // No count yet: the folder must take one.
        let probe = self.dir.join(format!(".probe-{}", std::process::id()));
        let made = std::fs::create_dir_all(&self.dir).and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&probe)
                .map(drop)
        });
        match made {
            Ok(()) => {
                let _ = std::fs::remove_file(&probe);
                None
            }
            Err(e) => Some(format!(
                "the continuation ledger folder {} cannot be written ({e})",
                self.dir.display()
            )),
        }
    }

    fn set(&self, key: &str, n: u32) {
        let p = self.path(key);
        if n == 0 && !p.exists() {
            return;
        }
        let _ = std::fs::create_dir_all(&self.dir);
        let _ = std::fs::write(p, n.to_string());
    }
}

/// The stop-seam continuation budget of one event.
pub(crate) struct StopBudget {
    /// `stop_hook_active`: the agent is already continuing because of a stop hook.
    pub(crate) active: bool,
    /// The ledger key (session, seam, agent).
    pub(crate) key: String,
    /// Continuations already granted in this chain.
    pub(crate) used: u32,
    /// Why the ledger cannot keep the count (the budget then counts as spent).
    pub(crate) unusable: Option<String>,
}

impl StopBudget {
    /// The budget of an event at `seam`: empty off the stop seams; on them, the chain's key
    /// and, when `stop_hook_active`, the count the ledger holds for it.
    pub(crate) fn read(
        seam: Seam,
        payload: &Value,
        ledger: Option<&dyn ContinuationLedger>,
    ) -> StopBudget {
        if !matches!(seam, Seam::Stop | Seam::SubagentStop) {
            return StopBudget {
                active: false,
                key: String::new(),
                used: 0,
                unusable: None,
            };
        }
        let active = payload
            .get("stop_hook_active")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let key = format!(
            "{}-{}-{}",
            payload
                .get("session_id")
                .and_then(Value::as_str)
                .unwrap_or("nosession"),
            seam.name(),
            payload
                .get("agent_id")
                .and_then(Value::as_str)
                .unwrap_or("main"),
        );
        let unusable = if active {
            ledger.and_then(|l| l.unusable(&key))
        } else {
            None
        };
        let used = match (active, &unusable) {
            (false, _) => 0,
            (true, Some(_)) => u32::MAX,
            (true, None) => ledger.map_or(u32::MAX, |l| l.used(&key)),
        };
        StopBudget {
            active,
            key,
            used,
            unusable,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sg-ledger-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_writable_folder_keeps_the_count() {
        let d = scratch("ok");
        let l = FileLedger::new(d.join("continuations"));
        assert_eq!(l.unusable("s-stop-main"), None);
        l.set("s-stop-main", 2);
        assert_eq!(l.used("s-stop-main"), 2);
        assert_eq!(l.unusable("s-stop-main"), None);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_that_cannot_be_made_or_a_broken_count_is_unusable() {
        let d = scratch("bad");
        // A file where the folder should be: no count can ever be written (even as root).
        std::fs::write(d.join("state"), "").unwrap();
        let l = FileLedger::new(d.join("state").join("continuations"));
        let why = l.unusable("k").unwrap();
        assert!(
            why.starts_with(&format!(
                "the continuation ledger {} cannot be read (",
                d.join("state").join("continuations").join("k").display()
            )),
            "{why}"
        );
        let l = FileLedger::new(d.clone());
        std::fs::write(d.join("k"), "lots").unwrap();
        assert_eq!(
            l.unusable("k"),
            Some(format!(
                "the continuation ledger {} holds no count",
                d.join("k").display()
            ))
        );
        std::fs::create_dir_all(d.join("dir")).unwrap();
        assert!(l.unusable("dir").unwrap().contains("cannot be read"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
