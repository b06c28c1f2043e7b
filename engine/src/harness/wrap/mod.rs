//! Phase 3, around-dispatch: [`Wrapper`] layers around the tool, in registration order (the
//! first added is outermost), each in its own folder like tower's middleware.
//!
//! In: the sealed call, the harness's wrappers and the tool. Out: a normalized
//! [`ToolResult`] — a tool error or panic is an error result before any wrapper sees it.
//!
//! * [`Timeout`] (`timeout/`): fails a dispatch that takes too long;
//! * [`Retry`] (`retry/`): runs it again while it fails;
//! * [`Metrics`] (`metrics/`): counts dispatches, failures and time.

mod metrics;
#[cfg(test)]
mod mock;
mod retry;
mod timeout;

use std::fmt;

pub use metrics::Metrics;
pub use retry::Retry;
pub use timeout::Timeout;

use tokio_util::sync::CancellationToken;

use super::contain::{CatchUnwind, contained, panic_message};
use super::{BoxFuture, ExecError, Tool, ToolCall, ToolResult};

/// The rest of the around-dispatch chain; `run` it (any number of times, e.g. to retry).
#[derive(Clone, Copy)]
pub struct Next<'a> {
    rest: &'a [Box<dyn Wrapper>],
    tool: &'a dyn Tool,
    call: &'a ToolCall,
    signal: &'a CancellationToken,
}

impl fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("remaining_wrappers", &self.rest.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Next<'a> {
    /// The whole chain: every wrapper of the harness, then the tool.
    pub(in crate::harness) fn new(
        wrappers: &'a [Box<dyn Wrapper>],
        tool: &'a dyn Tool,
        call: &'a ToolCall,
        signal: &'a CancellationToken,
    ) -> Next<'a> {
        Next {
            rest: wrappers,
            tool,
            call,
            signal,
        }
    }

    /// The run's cancellation signal, as a child token: it is cancelled when the run is,
    /// and cancelling it affects nothing upstream. A wrapper cannot replace or remove the
    /// run's own token: [`Next::run`] always races it.
    pub fn signal(&self) -> CancellationToken {
        self.signal.child_token()
    }

    /// Run the remaining wrappers and the tool. The result is already normalized: a tool
    /// error or panic is an error [`ToolResult`], and a dispatch the run's token cancels is
    /// [`ExecError::Cancelled`] (the tool's future is dropped).
    pub fn run(self) -> BoxFuture<'a, ToolResult> {
        match self.rest.split_first() {
            Some((w, rest)) => w.around(
                self.call,
                Next {
                    rest,
                    tool: self.tool,
                    call: self.call,
                    signal: self.signal,
                },
            ),
            None => Box::pin(async move {
                if self.signal.is_cancelled() {
                    return ToolResult::error(ExecError::Cancelled);
                }
                let fut = match contained(|| self.tool.call(self.call)) {
                    Ok(f) => f,
                    Err(p) => {
                        return ToolResult::error(ExecError::Tool {
                            message: panic_message(p),
                        });
                    }
                };
                tokio::select! {
                    biased;
                    () = self.signal.cancelled() => ToolResult::error(ExecError::Cancelled),
                    r = CatchUnwind(fut) => match r {
                        Ok(Ok(v)) => ToolResult::ok(v),
                        Ok(Err(e)) => ToolResult::error(ExecError::Tool {
                            message: e.to_string(),
                        }),
                        Err(message) => ToolResult::error(ExecError::Tool { message }),
                    },
                }
            }),
        }
    }
}

/// An around-dispatch layer (seed: `tools/execute`): timeout, retry, metrics. Wrappers
/// compose in registration order (the first is outermost) and cannot change the call.
pub trait Wrapper: Send + Sync {
    /// Wrap one dispatch; call `next.run()` to delegate, or return a result without it.
    fn around<'a>(&'a self, call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult>;
}
