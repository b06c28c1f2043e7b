//! A scripted [`Tool`] for the wrappers' tests: answers from a script, counts its calls,
//! and can take its time.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use tokio_util::sync::CancellationToken;

use crate::harness::{BoxFuture, Next, Tool, ToolCall, ToolError, ToolResult, Wrapper};

/// Answers each call with the next scripted result (`Ok("done")` once the script is
/// exhausted), after `delay`.
#[derive(Debug, Default)]
pub(super) struct Scripted {
    script: Mutex<VecDeque<Result<Value, String>>>,
    calls: AtomicUsize,
    delay: Option<Duration>,
}

impl Scripted {
    /// A tool answering `script` in order.
    pub(super) fn new(script: impl IntoIterator<Item = Result<Value, String>>) -> Scripted {
        Scripted {
            script: Mutex::new(script.into_iter().collect()),
            ..Scripted::default()
        }
    }

    /// The same, each call taking `delay` first.
    pub(super) fn slow(delay: Duration) -> Scripted {
        Scripted {
            delay: Some(delay),
            ..Scripted::default()
        }
    }

    /// Calls so far.
    pub(super) fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl Tool for Scripted {
    fn call<'a>(&'a self, _call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let next = self
            .script
            .lock()
            .ok()
            .and_then(|mut s| s.pop_front())
            .unwrap_or_else(|| Ok(json!("done")));
        Box::pin(async move {
            if let Some(d) = self.delay {
                tokio::time::sleep(d).await;
            }
            next.map_err(ToolError::from)
        })
    }
}

/// A sealed shell call.
pub(super) fn call() -> ToolCall {
    ToolCall::new("Bash", json!({ "command": "make" }), "s", "/w")
}

/// Dispatch [`call`] to `tool` through `wrappers`, never cancelled.
pub(super) async fn dispatch(wrappers: &[Box<dyn Wrapper>], tool: &Scripted) -> ToolResult {
    let call = call();
    Next::new(wrappers, tool, &call, &CancellationToken::new())
        .run()
        .await
}
