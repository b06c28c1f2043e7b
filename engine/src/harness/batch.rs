//! Batches: one model step's tool calls, whose contexts are appended after all its results
//! (seed: "three load-bearing decisions", 2).
//!
//! In: calls run through [`Batch::execute`], and contexts pushed through the batch's
//! [`Injector`] while it runs. Out: a [`BatchOutcome`] — every result in call order, then
//! every context in FIFO order ([`BatchOutcome::transcript`]).

use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use super::{Harness, Injected, Tool, ToolCall, ToolExecution};
use crate::decision::Attributed;

impl Harness {
    /// Start a batch of tool calls whose contexts are appended after all its results.
    pub fn batch(&self) -> Batch<'_> {
        self.batch_in(None)
    }

    pub(super) fn batch_in(&self, signal: Option<CancellationToken>) -> Batch<'_> {
        Batch {
            harness: self,
            results: Vec::new(),
            fifo: Injector(Arc::new(Mutex::new(Vec::new()))),
            signal,
        }
    }
}

/// The batch's context FIFO: tools (or anything running during the batch) push contexts
/// here; they are appended after the batch's results, in the order pushed. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Injector(Arc<Mutex<Vec<Injected>>>);

impl Injector {
    /// Queue a context (asynchronous injection; seed: `agent.inject()` during execution).
    pub fn inject(&self, source: &str, text: &str) {
        if let Ok(mut v) = self.0.lock() {
            v.push(Injected {
                text: text.to_string(),
                source: source.to_string(),
                call: None,
            });
        }
    }

    fn push_all(&self, items: &[Injected]) {
        if let Ok(mut v) = self.0.lock() {
            v.extend(items.iter().cloned());
        }
    }

    fn drain(&self) -> Vec<Injected> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// A batch of tool calls (one model step). Results are recorded in call order; contexts
/// wait in the batch's FIFO until [`Batch::settle`].
#[derive(Debug)]
pub struct Batch<'h> {
    harness: &'h Harness,
    results: Vec<ToolExecution>,
    fifo: Injector,
    signal: Option<CancellationToken>,
}

/// One entry of the transcript a settled batch produces.
#[derive(Debug, Clone)]
pub enum TranscriptEntry {
    /// A tool result (in call order).
    Result(Box<ToolExecution>),
    /// A context message (after every result).
    Context(Injected),
}

/// A settled batch: every result, then every context in FIFO order.
#[derive(Debug, Clone)]
pub struct BatchOutcome {
    /// Results, in call order.
    pub results: Vec<ToolExecution>,
    /// Contexts, in the order they entered the FIFO.
    pub contexts: Vec<Injected>,
}

impl BatchOutcome {
    /// The first halt of the batch's calls ([`ToolExecution::halt`]): the agent loop must
    /// stop after this batch.
    pub fn halt(&self) -> Option<&Attributed> {
        self.results.iter().find_map(|r| r.halt.as_ref())
    }

    /// What the loop appends: results first, contexts after (tool-call/result adjacency).
    pub fn transcript(&self) -> Vec<TranscriptEntry> {
        self.results
            .iter()
            .map(|r| TranscriptEntry::Result(Box::new(r.clone())))
            .chain(self.contexts.iter().cloned().map(TranscriptEntry::Context))
            .collect()
    }
}

impl Batch<'_> {
    /// The batch's injector (give it to tools that add context while they run).
    pub fn injector(&self) -> Injector {
        self.fifo.clone()
    }

    /// Run one call through [`Harness::execute`]; its contexts enter the FIFO when its
    /// post-tool phase has finished.
    ///
    /// After a call of the batch halted ([`ToolExecution::halt`]), no later call runs: each
    /// is recorded as not dispatched, with [`ExecError::Halted`](super::ExecError::Halted)
    /// and the same halt, and no policy runs for it.
    pub async fn execute(&mut self, call: ToolCall, tool: &dyn Tool) -> &ToolExecution {
        if let Some(h) = self.halt().cloned() {
            let i = self.results.len();
            self.results.push(ToolExecution::not_started(call, h));
            return &self.results[i];
        }
        let exec = match &self.signal {
            Some(s) => {
                self.harness
                    .with_signal(s.clone())
                    .execute(call, tool)
                    .await
            }
            None => self.harness.execute(call, tool).await,
        };
        self.fifo.push_all(&exec.contexts);
        let i = self.results.len();
        self.results.push(exec);
        &self.results[i]
    }

    /// The first halt of the batch's calls so far: the agent loop must stop.
    pub fn halt(&self) -> Option<&Attributed> {
        self.results.iter().find_map(|r| r.halt.as_ref())
    }

    /// Settle: every result, then the FIFO's contexts in order.
    pub fn settle(self) -> BatchOutcome {
        BatchOutcome {
            results: self.results,
            contexts: self.fifo.drain(),
        }
    }
}
