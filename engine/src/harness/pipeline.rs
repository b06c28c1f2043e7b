//! The five-phase tool pipeline ([`Harness::execute`]; see the module docs of
//! [`harness`](crate::harness) for the diagram).
//!
//! In: a sealed [`ToolCall`] and the [`Tool`] to dispatch. Out: the immutable
//! [`ToolExecution`] — never a panic or a Rust error: a denial, a rejected ask, a failed
//! handler, a tool error or panic, a wrapper panic or a timeout is an error [`ToolResult`].
//! Observers then see the record; their panics are contained and reported through
//! [`Harness::take_failures`].

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::approval;
use super::contain::{CatchUnwind, contained};
use super::handler::observe;
use super::model::{Deferred, Stored};
use super::tool::revalue;
use super::{
    ExecError, Harness, HookContext, Injected, Next, Tool, ToolCall, ToolExecution, ToolOutput,
    ToolResult,
};
use crate::decision::{PostToolDecision, PreToolDecision, Verdict};

impl Harness {
    /// The five phases under `cancel` (see [`Harness::execute`]).
    pub(super) async fn execute_in(
        &self,
        call: ToolCall,
        tool: &dyn Tool,
        cx: &HookContext,
    ) -> ToolExecution {
        let start = Instant::now();
        let parent = cx.parent();
        // Phases 1–2.
        let mut pre = self.pre_phase(&call, cx).await;
        let mut failures = std::mem::take(&mut pre.failures);
        let decision = pre.decision.take();
        let pre_cancelled = pre.is_cancelled();
        let pre_outcome = pre.into_outcome();
        let mut bypass = None;
        let mut dispatch = true;
        let mut result = ToolResult::ok(Value::Null);
        if pre_cancelled || cx.is_cancelled() {
            // A cancelled run dispatches nothing (the pre-tool answer is the cancellation's
            // deny); the handlers it cut off are not failures.
            bypass = Some(ExecError::Cancelled);
            dispatch = false;
        } else if let Some(f) = failures.first() {
            bypass = Some(f.exec_error());
            dispatch = false;
        } else if let Some(h) = &pre_outcome.halt {
            // The agent is asked to stop: nothing is dispatched (nor approved), whatever
            // the decision; post-tool policy does not run on a call that did not happen.
            bypass = Some(ExecError::Halted {
                reason: h.text.clone(),
            });
            dispatch = false;
        } else {
            match decision {
                Some(PreToolDecision::Deny { reason } | PreToolDecision::Defer { reason }) => {
                    result = ToolResult::error(ExecError::Denied { reason });
                    dispatch = false;
                }
                Some(PreToolDecision::Ask { reason }) => {
                    let asked = tokio::select! {
                        biased;
                        () = cx.signal().cancelled() => Err(ExecError::Cancelled),
                        r = approval::resolve(self.approver.as_deref(), &call, &reason) => r,
                    };
                    if let Err(denied) = asked {
                        result = ToolResult::error(denied);
                        dispatch = false;
                    }
                }
                _ => {}
            }
        }
        // Phase 3 (contexts the tool and its nested calls defer collect here).
        let deferred_list: Deferred = Arc::default();
        if dispatch {
            let tool_cx = cx.clone().for_tool(call.id(), deferred_list.clone());
            let next = Next::new(&self.wrappers, tool, &call, cx.signal());
            result = match tool_cx.scope(CatchUnwind(next.run())).await {
                Ok(r) => r,
                Err(message) => ToolResult::error(ExecError::Tool {
                    message: format!("wrapper {message}"),
                }),
            };
            // The canonical value against the tool's declaration, and its presentation.
            if !result.is_error {
                match revalue(Some(tool), &result.value) {
                    Ok(content) => result.content = content,
                    Err(message) => result = ToolResult::error(ExecError::Tool { message }),
                }
            }
        }
        let deferred: Vec<Injected> = deferred_list
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default();
        if cx.is_cancelled() && bypass.is_none() {
            // Cancelled during dispatch: post-tool policy does not run on a run that is over.
            bypass = Some(ExecError::Cancelled);
        }
        // Phase 4.
        let mut feedback = None;
        let contexts;
        let mut post = None;
        if let Some(err) = bypass {
            result = ToolResult::error(err);
            // Deferred contexts survive failures (seed: "collects nested-dispatch context
            // through failures").
            contexts = deferred;
        } else {
            let output = ToolOutput {
                call: call.clone(),
                result,
                dispatched: dispatch,
            };
            let ev = self.post_tool_in(&output, Some(tool), cx).await;
            result = output.result;
            if ev.is_cancelled() {
                // Post-tool policy cut off: what it would have redacted or blocked is
                // unknown, so the result is the cancellation, not the tool's content.
                result = ToolResult::error(ExecError::Cancelled);
                contexts = deferred;
            } else if let Some(f) = ev.failures.first() {
                result = ToolResult::error(f.exec_error());
                failures.extend(ev.failures.clone());
                contexts = deferred;
            } else {
                if let Some(v) = &ev.outcome().replaced_value {
                    result.value = v.clone();
                }
                if let Some(r) = &ev.outcome().redacted_response {
                    result.content = r.clone();
                }
                let blocked = if let PostToolDecision::Block { feedback: fb, .. } = &ev.decision {
                    feedback = Some(fb.clone());
                    true
                } else {
                    false
                };
                let outcome = ev.outcome();
                // An accepted call keeps deferred contexts before decision contexts; a
                // block discards them and keeps only the blocking decisions' contexts.
                let blockers: Vec<&str> = outcome
                    .fired
                    .iter()
                    .filter(|c| c.verdict == Verdict::Block)
                    .map(|c| c.rule.as_str())
                    .collect();
                let decided = outcome
                    .contexts
                    .iter()
                    .filter(|a| !blocked || blockers.contains(&a.rule.as_str()))
                    .map(|a| Injected {
                        text: a.text.clone(),
                        source: a.rule.clone(),
                        call: Some(call.id()),
                    });
                contexts = if blocked {
                    decided.collect()
                } else {
                    deferred.into_iter().chain(decided).collect()
                };
            }
            post = Some(ev.into_outcome());
        }
        // Phase 5: final content, exactly once, on every outcome.
        if let Ok(Some(c)) = contained(|| tool.finalize_content(&result.content, result.is_error)) {
            result.content = c;
        }
        let halt = pre_outcome
            .halt
            .clone()
            .or_else(|| post.as_ref().and_then(|p| p.halt.clone()));
        let exec = ToolExecution {
            halt,
            call,
            parent,
            result,
            feedback,
            contexts,
            pre: pre_outcome,
            post,
            dispatched: dispatch,
            failures,
            elapsed: start.elapsed(),
        };
        // A nested call's contexts go to the tool that dispatched it.
        cx.defer_nested(&exec.contexts);
        // Observers: an immutable snapshot; panics contained per observer.
        for e in &self.registry_for(cx).observers {
            let Stored::ToolResult(f) = &e.handler else {
                continue;
            };
            if !e.subject_matches(Some(exec.call.name())) {
                continue;
            }
            if let Err(m) = observe(f, &exec, cx).await
                && let Ok(mut v) = self.failures.lock()
            {
                v.push(e.failure(m));
            }
        }
        exec
    }
}
