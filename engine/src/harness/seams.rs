//! The public seam methods of [`Harness`], and the same under a caller's cancellation token
//! ([`Harness::with_signal`] → [`Signalled`]).
//!
//! Without a token a run uses the enclosing run's (a nested call from inside a tool), else
//! a token that is never cancelled. Every run sets its [`HookContext`] as
//! [`HookContext::current`] for handlers, tools and reducers.

use tokio_util::sync::CancellationToken;

use super::{
    Batch, Evaluated, Event, Harness, SeamInput, Submitted, Tool, ToolCall, ToolExecution,
    ToolOutput, takes,
};
use crate::decision::{
    ContinuationDecision, PermissionDecision, PostToolDecision, PreToolDecision, PromptDecision,
};

impl Harness {
    /// The seam methods under `signal` (interception seams and harness hooks, agent-harness
    /// seed: "Per-run `AbortSignal` is passed separately to `emit()` and handlers").
    ///
    /// Cancelling the token stops the run where it is: handlers not yet called are not
    /// called, an async handler still running is dropped, a command hook still running is
    /// killed — none of them is reported as a failure. One rule, whatever was cut off (a
    /// Rust handler or a command hook): the seam's [`Evaluated::is_cancelled`] is `true`;
    /// at `pre-tool` and `permission-request` the decision is a deny by
    /// [`CANCELLED_RULE`](super::CANCELLED_RULE) (fail closed); at every other seam it is
    /// what answered before the cancel. A tool call ends with
    /// [`ExecError::Cancelled`](super::ExecError::Cancelled): without dispatch, with its
    /// dispatch dropped, or — cancelled during post-tool policy — without the tool's
    /// content. Wrappers see the token through [`Next::signal`](super::Next::signal) but
    /// cannot replace or remove it.
    ///
    /// # Example
    ///
    /// ```
    /// use seamguard_engine::PreToolDecision;
    /// use seamguard_engine::harness::{CancellationToken, Harness, ToolCall};
    ///
    /// let h = Harness::new();
    /// let token = CancellationToken::new();
    /// token.cancel();
    /// let call = ToolCall::new("Bash", serde_json::json!({"command": "ls"}), "s1", "/w");
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// let pre = rt.block_on(h.with_signal(token).pre_tool(&call));
    /// assert!(pre.is_cancelled());
    /// assert_eq!(
    ///     pre.decision,
    ///     Some(PreToolDecision::Deny {
    ///         reason: "the run was cancelled before every policy answered".into()
    ///     })
    /// );
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_signal(&self, signal: CancellationToken) -> Signalled<'_> {
        Signalled {
            harness: self,
            signal,
        }
    }

    /// **pre-tool** (phases 1–2 only, no dispatch): the merged [`PreToolDecision`] of every
    /// table and handler for a sealed call; `None` is abstain.
    ///
    /// A handler that panics or returns `Err` counts as a deny (fail closed) and is listed
    /// in `failures`. A handler's `Allow { updated_input }` is ignored with a warning: the
    /// call is sealed (interception-seams seed, "Pre-tool input rewrite is a separate
    /// consistency decision"). Command hooks of the tables' fired `run` rules run here.
    pub async fn pre_tool(&self, call: &ToolCall) -> Evaluated<Option<PreToolDecision>> {
        let cx = self.context(None);
        cx.clone().scope(self.pre_tool_in(call, &cx)).await
    }

    /// **permission-request**: tables and handlers; `None` leaves the dialog to the user.
    /// A failing handler counts as a deny.
    pub async fn permission_request(
        &self,
        call: &ToolCall,
    ) -> Evaluated<Option<PermissionDecision>> {
        let cx = self.context(None);
        cx.clone()
            .scope(self.permission_request_in(call, &cx))
            .await
    }

    /// **prompt-submit** (waterfall): tables first, then handlers in registration order;
    /// each handler sees the prompt as rewritten so far. A failing handler blocks the prompt
    /// (fail closed).
    pub async fn prompt_submit(
        &self,
        event: &impl SeamInput<takes::PromptSubmit>,
    ) -> Evaluated<PromptDecision> {
        let cx = self.context(None);
        cx.clone()
            .scope(self.prompt_submit_in(event.seam_event(), &cx))
            .await
    }

    /// **session-start** / **subagent-start**: the additional contexts of tables and
    /// handlers, in order. A failing handler adds nothing (startup cannot be blocked).
    pub async fn session_start(
        &self,
        event: &impl SeamInput<takes::SessionStart>,
    ) -> Evaluated<Vec<String>> {
        let cx = self.context(None);
        cx.clone()
            .scope(self.session_start_in(event.seam_event(), &cx))
            .await
    }

    /// **stop** / **subagent-stop**: whether the agent continues, and with what reason.
    /// A failing handler lets the agent stop (no endless loops).
    pub async fn stop(
        &self,
        event: &impl SeamInput<takes::Stop>,
    ) -> Evaluated<ContinuationDecision> {
        let cx = self.context(None);
        cx.clone()
            .scope(self.stop_in(event.seam_event(), &cx))
            .await
    }

    /// Observe-only seams (`notification`, `session-end`, `pre-compact`, `post-compact`,
    /// `post-tool-failure`): tables (their `run`/`halt` actions) and observers.
    pub async fn notify(&self, event: &impl SeamInput<takes::Notify>) -> Evaluated<()> {
        let cx = self.context(None);
        cx.clone()
            .scope(self.notify_in(event.seam_event(), &cx))
            .await
    }

    /// **post-tool** (phase 4 on its own): tables' post-tool rules (when the tool was
    /// dispatched), then handlers as a waterfall — each sees the content as redacted so far.
    /// A failing handler stops the waterfall and is returned in `failures` (the pipeline
    /// turns it into an error result). Without the tool, a replaced value
    /// ([`PostToolDecision::ReplaceValue`]) is not checked and presents as itself.
    pub async fn post_tool(&self, output: &ToolOutput) -> Evaluated<PostToolDecision> {
        let cx = self.context(None);
        cx.clone().scope(self.post_tool_in(output, None, &cx)).await
    }

    /// Submit a prompt as a turn: open the turn, then run prompt-submit policy
    /// ([`Harness::prompt_submit`]) inside it. A block records `prompt/blocked` (the
    /// original prompt and the reason) and closes the turn as `rejected` with zero steps.
    /// A session with a turn still open gets that turn closed as interrupted first.
    pub async fn submit_prompt(&self, event: &impl SeamInput<takes::PromptSubmit>) -> Submitted {
        let cx = self.context(None);
        cx.clone()
            .scope(self.submit_prompt_in(event.seam_event(), &cx))
            .await
    }

    /// Run one sealed call through the five phases (see the module docs) and return its
    /// immutable record. Never panics and never returns a Rust error: every failure is an
    /// error [`ToolResult`](super::ToolResult).
    ///
    /// Honours a halt: when a pre-tool policy halts (`halt`, Claude Code's `continue:
    /// false`), the tool is not dispatched, whatever the decision, and the result is
    /// [`ExecError::Halted`](super::ExecError::Halted); a post-tool halt keeps the result.
    /// Either way [`ToolExecution::halt`] names it, and the agent loop must stop.
    pub async fn execute(&self, call: ToolCall, tool: &dyn Tool) -> ToolExecution {
        let cx = self.context(None);
        cx.clone().scope(self.execute_in(call, tool, &cx)).await
    }
}

/// The seam methods of a [`Harness`] under one cancellation token
/// ([`Harness::with_signal`]).
#[derive(Debug, Clone)]
pub struct Signalled<'h> {
    harness: &'h Harness,
    signal: CancellationToken,
}

impl Signalled<'_> {
    /// The token.
    pub fn signal(&self) -> &CancellationToken {
        &self.signal
    }

    /// [`Harness::pre_tool`] under the token.
    pub async fn pre_tool(&self, call: &ToolCall) -> Evaluated<Option<PreToolDecision>> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.pre_tool_in(call, &cx)).await
    }

    /// [`Harness::permission_request`] under the token.
    pub async fn permission_request(
        &self,
        call: &ToolCall,
    ) -> Evaluated<Option<PermissionDecision>> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.permission_request_in(call, &cx)).await
    }

    /// [`Harness::prompt_submit`] under the token: a cancelled waterfall stops, its decision
    /// is what answered before the cancel, and [`Evaluated::is_cancelled`] is `true`.
    pub async fn prompt_submit(
        &self,
        event: &impl SeamInput<takes::PromptSubmit>,
    ) -> Evaluated<PromptDecision> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone()
            .scope(h.prompt_submit_in(event.seam_event(), &cx))
            .await
    }

    /// [`Harness::session_start`] under the token.
    pub async fn session_start(
        &self,
        event: &impl SeamInput<takes::SessionStart>,
    ) -> Evaluated<Vec<String>> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone()
            .scope(h.session_start_in(event.seam_event(), &cx))
            .await
    }

    /// [`Harness::stop`] under the token.
    pub async fn stop(
        &self,
        event: &impl SeamInput<takes::Stop>,
    ) -> Evaluated<ContinuationDecision> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.stop_in(event.seam_event(), &cx)).await
    }

    /// [`Harness::notify`] under the token.
    pub async fn notify(&self, event: &impl SeamInput<takes::Notify>) -> Evaluated<()> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.notify_in(event.seam_event(), &cx)).await
    }

    /// [`Harness::post_tool`] under the token.
    pub async fn post_tool(&self, output: &ToolOutput) -> Evaluated<PostToolDecision> {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.post_tool_in(output, None, &cx)).await
    }

    /// [`Harness::execute`] under the token (around dispatch: the tool's future is dropped
    /// when the token is cancelled).
    pub async fn execute(&self, call: ToolCall, tool: &dyn Tool) -> ToolExecution {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone().scope(h.execute_in(call, tool, &cx)).await
    }

    /// [`Harness::submit_prompt`] under the token.
    pub async fn submit_prompt(&self, event: &impl SeamInput<takes::PromptSubmit>) -> Submitted {
        let h = self.harness;
        let cx = h.context(Some(&self.signal));
        cx.clone()
            .scope(h.submit_prompt_in(event.seam_event(), &cx))
            .await
    }

    /// [`Harness::emit`] under the token: a cancelled emission calls no further handler.
    pub async fn emit<E: Event>(&self, event: &E) -> Option<E::Decision> {
        self.harness
            .emit_in(event, self.harness.context(Some(&self.signal)))
            .await
    }

    /// A [`Batch`] whose calls run under the token.
    pub fn batch(&self) -> Batch<'_> {
        self.harness.batch_in(Some(self.signal.clone()))
    }
}
