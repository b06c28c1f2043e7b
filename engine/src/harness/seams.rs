//! The public seam methods of [`Harness`]: each evaluates with a token that is never
//! cancelled. [`Harness::with_signal`](super::Harness::with_signal) gives the same methods
//! under a caller's cancellation token.

use tokio_util::sync::CancellationToken;

use super::{Evaluated, Harness, SeamEvent, Tool, ToolCall, ToolExecution, ToolOutput};
use crate::decision::{
    ContinuationDecision, PermissionDecision, PostToolDecision, PreToolDecision, PromptDecision,
};

impl Harness {
    /// **pre-tool** (phases 1–2 only, no dispatch): the merged [`PreToolDecision`] of every
    /// table and handler for a sealed call; `None` is abstain.
    ///
    /// A handler that panics or returns `Err` counts as a deny (fail closed) and is listed
    /// in `failures`. A handler's `Allow { updated_input }` is ignored with a warning: the
    /// call is sealed (interception-seams seed, "Pre-tool input rewrite is a separate
    /// consistency decision"). Command hooks of the tables' fired `run` rules run here.
    pub async fn pre_tool(&self, call: &ToolCall) -> Evaluated<Option<PreToolDecision>> {
        self.pre_tool_in(call, &CancellationToken::new()).await
    }

    /// **permission-request**: tables and handlers; `None` leaves the dialog to the user.
    /// A failing handler counts as a deny.
    pub async fn permission_request(
        &self,
        call: &ToolCall,
    ) -> Evaluated<Option<PermissionDecision>> {
        self.permission_request_in(call, &CancellationToken::new())
            .await
    }

    /// **prompt-submit** (waterfall): tables first, then handlers in registration order;
    /// each handler sees the prompt as rewritten so far. A failing handler blocks the prompt
    /// (fail closed).
    pub async fn prompt_submit(&self, event: &SeamEvent) -> Evaluated<PromptDecision> {
        self.prompt_submit_in(event, &CancellationToken::new())
            .await
    }

    /// **session-start** / **subagent-start**: the additional contexts of tables and
    /// handlers, in order. A failing handler adds nothing (startup cannot be blocked).
    pub async fn session_start(&self, event: &SeamEvent) -> Evaluated<Vec<String>> {
        self.session_start_in(event, &CancellationToken::new())
            .await
    }

    /// **stop** / **subagent-stop**: whether the agent continues, and with what reason.
    /// A failing handler lets the agent stop (no endless loops).
    pub async fn stop(&self, event: &SeamEvent) -> Evaluated<ContinuationDecision> {
        self.stop_in(event, &CancellationToken::new()).await
    }

    /// Observe-only seams (`notification`, `session-end`, `pre-compact`, `post-compact`,
    /// `post-tool-failure`): tables (their `run`/`halt` actions) and observers.
    pub async fn notify(&self, event: &SeamEvent) -> Evaluated<()> {
        self.notify_in(event, &CancellationToken::new()).await
    }

    /// **post-tool** (phase 4 on its own): tables' post-tool rules (when the tool was
    /// dispatched), then handlers as a waterfall — each sees the content as redacted so far.
    /// A failing handler stops the waterfall and is returned in `failures` (the pipeline
    /// turns it into an error result).
    pub async fn post_tool(&self, output: &ToolOutput) -> Evaluated<PostToolDecision> {
        self.post_tool_in(output, &CancellationToken::new()).await
    }

    /// Run one sealed call through the five phases (see the module docs) and return its
    /// immutable record. Never panics and never returns a Rust error: every failure is an
    /// error [`ToolResult`](super::ToolResult).
    pub async fn execute(&self, call: ToolCall, tool: &dyn Tool) -> ToolExecution {
        self.execute_in(call, tool, &CancellationToken::new()).await
    }
}
