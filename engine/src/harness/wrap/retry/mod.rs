//! The [`Retry`] wrapper: runs the rest of the chain again while it returns an error result,
//! at most `attempts` times in all.
//!
//! In: the rest of the chain ([`Next`]). Out: the first success, or the last failure.

use super::{Next, Wrapper};
use crate::harness::{BoxFuture, ToolCall, ToolResult};

/// Runs the dispatch again while it fails, at most `attempts` times in all (≥ 1).
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// Total attempts.
    pub attempts: u32,
}

impl Wrapper for Retry {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let mut last = next.run().await;
            for _ in 1..self.attempts.max(1) {
                if !last.is_error {
                    break;
                }
                last = next.run().await;
            }
            last
        })
    }
}

#[cfg(test)]
mod tests;
