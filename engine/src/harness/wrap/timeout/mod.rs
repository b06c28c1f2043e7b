//! The [`Timeout`] wrapper: a dispatch that takes longer than the limit becomes an error
//! result ([`ExecError::Timeout`]); the dispatch future is dropped.
//!
//! In: the rest of the chain ([`Next`]). Out: its result, or the timeout error.

use std::time::Duration;

use super::{Next, Wrapper};
use crate::harness::{BoxFuture, ExecError, ToolCall, ToolResult};

/// Fails a dispatch that takes longer than the limit ([`ExecError::Timeout`]).
///
/// Needs a Tokio runtime with the time driver (`enable_time`) while the call runs.
#[derive(Debug, Clone, Copy)]
pub struct Timeout(pub Duration);

impl Wrapper for Timeout {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            match tokio::time::timeout(self.0, next.run()).await {
                Ok(r) => r,
                Err(_) => ToolResult::error(ExecError::Timeout {
                    after_ms: u64::try_from(self.0.as_millis()).unwrap_or(u64::MAX),
                }),
            }
        })
    }
}

#[cfg(test)]
mod tests;
