//! The continuation ledger of stop seams: how many times a rule already made the agent go
//! on in the current chain, kept between hook invocations (the hook binary is spawned once
//! per event).
//!
//! In: a key naming a session, seam and agent. Out: the count granted so far.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// Where the per-turn continuation count of stop seams is kept between hook invocations.
///
/// The key names a session, seam and agent. Implementations must not fail: a store that
/// cannot be read counts as "budget exhausted" (no endless loops).
pub trait ContinuationLedger: Send + Sync {
    /// Continuations already granted in the current chain.
    fn used(&self, key: &str) -> u32;
    /// Record the count for the current chain.
    fn set(&self, key: &str, n: u32);
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

    fn set(&self, key: &str, n: u32) {
        let p = self.path(key);
        if n == 0 && !p.exists() {
            return;
        }
        let _ = std::fs::create_dir_all(&self.dir);
        let _ = std::fs::write(p, n.to_string());
    }
}
