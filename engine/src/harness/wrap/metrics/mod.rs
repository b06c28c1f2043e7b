//! The [`Metrics`] wrapper: counts dispatches, error results and the time spent inside the
//! rest of the chain. Shared: register an `Arc<Metrics>` and keep a clone to read it.
//!
//! In: the rest of the chain ([`Next`]). Out: its result, unchanged.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Next, Wrapper};
use crate::harness::{BoxFuture, ToolCall, ToolResult};

/// Counts dispatches, failures and total dispatch time (shared; clone the `Arc`).
#[derive(Debug, Default)]
pub struct Metrics {
    calls: AtomicU64,
    errors: AtomicU64,
    nanos: AtomicU64,
}

impl Metrics {
    /// Dispatches seen.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
    /// Dispatches that ended in an error result.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
    /// Total time inside the wrapped dispatch.
    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

impl Wrapper for Arc<Metrics> {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let t = Instant::now();
            let r = next.run().await;
            self.calls.fetch_add(1, Ordering::Relaxed);
            if r.is_error {
                self.errors.fetch_add(1, Ordering::Relaxed);
            }
            let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.nanos.fetch_add(ns, Ordering::Relaxed);
            r
        })
    }
}

#[cfg(test)]
mod tests;
