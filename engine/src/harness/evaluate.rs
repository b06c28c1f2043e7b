//! One method per seam: tables first, then Rust handlers, merged most-restrictively with
//! [`merge`] into the seam's typed decision.
//!
//! In: a sealed [`ToolCall`] (pre-tool, permission-request), a [`ToolOutput`] (post-tool) or
//! a [`SeamEvent`] (every other seam). Out: [`Evaluated`] — the typed decision, the merged
//! [`Outcome`](crate::Outcome) and the handlers that failed. What a failing
//! handler means is per seam: pre-tool and permission-request deny, prompt-submit blocks,
//! session-start adds nothing, stop lets the agent stop, post-tool stops the waterfall.

use serde_json::Value;

use super::handler::invoke;
use super::model::Stored;
use super::run::push_contexts;
use super::table::TablePart;
use super::tool::revalue;
use super::{
    Evaluated, HandlerFailure, Harness, HookContext, SeamEvent, Tool, ToolCall, ToolOutput,
};
use crate::decision::{
    ContinuationDecision, Contribution, GuardDeny, HookRun, Outcome, PermissionDecision,
    PostToolDecision, PreToolDecision, PromptDecision, Verdict, merge, pre_tool_decision,
};
use crate::seam::Seam;

/// The hook payload tables judge a tool result with: `post-tool` with its `tool_response`
/// (the presentation content), or `post-tool-failure` with its `error` text.
fn post_payload(output: &ToolOutput) -> (Seam, Value) {
    let failed = output.result.is_error;
    let seam = if failed {
        Seam::PostToolFailure
    } else {
        Seam::PostTool
    };
    let mut payload = output.call.payload().clone();
    if let Some(o) = payload.as_object_mut() {
        o.insert("hook_event_name".into(), seam.event_name().into());
        if failed {
            let text = match &output.result.content {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            o.insert("error".into(), Value::String(text));
        } else {
            o.insert("tool_response".into(), output.result.content.clone());
        }
    }
    (seam, payload)
}

fn typed_or<D>(d: Option<D>, default: D) -> D {
    d.unwrap_or(default)
}

/// An event given to the wrong seam method: nothing runs; the method's decision is the one
/// a failing handler gives there (`verdict`, with the failure's message as the reason).
fn misrouted<D>(
    seam: Seam,
    failure: HandlerFailure,
    verdict: Verdict,
    decide: impl FnOnce(&crate::decision::Outcome) -> D,
) -> Evaluated<D> {
    let mut contributions = Vec::new();
    if verdict != Verdict::Abstain {
        contributions.push(Contribution {
            rule: failure.name.clone(),
            source: None,
            guard: false,
            verdict,
            reason: Some(failure.message.clone()),
            context: None,
            halt: None,
            observe: false,
        });
    }
    let outcome = merge(seam, contributions);
    Evaluated::ready(decide(&outcome), outcome, vec![failure])
}

impl Harness {
    /// Phases 1 and 2 on a sealed call: tables' hooks, handler hooks, tables' guards,
    /// handler guards; merged most-restrictively.
    pub(super) async fn pre_phase(
        &self,
        call: &ToolCall,
        cx: &HookContext,
    ) -> Evaluated<Option<PreToolDecision>> {
        let mut failures = Vec::new();
        let mut warnings = Vec::new();
        let mut hook_runs = Vec::new();
        let (mut contributions, table_guards) = if self.tables.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let part = self.eval_tables(Seam::PreTool, call.payload(), cx).await;
            warnings = part.warnings;
            hook_runs = part.hook_runs;
            (part.hooks, part.guards)
        };
        let reg = self.registry_for(cx);
        for e in reg.seam_entries(Seam::PreTool) {
            let Some(Stored::PreTool(f)) = e.for_subject(Some(call.name())) else {
                continue;
            };
            match invoke(f, call, cx).await {
                Ok(None) => {}
                Ok(Some(d)) => {
                    let (verdict, reason) = match d {
                        PreToolDecision::Allow {
                            reason,
                            updated_input,
                        } => {
                            if updated_input.is_some() {
                                warnings.push(format!(
                                    "seamguard: handler `{}` ({}) returned updated_input; ignored: a tool call's arguments are sealed before policy runs",
                                    e.rule, e.provenance
                                ));
                            }
                            (Verdict::Allow, reason)
                        }
                        PreToolDecision::Ask { reason } => (Verdict::Ask, Some(reason)),
                        PreToolDecision::Defer { reason } => (Verdict::Defer, Some(reason)),
                        PreToolDecision::Deny { reason } => (Verdict::Deny, Some(reason)),
                    };
                    contributions.push(e.contribution(verdict, reason));
                }
                // Cut off by the run's cancellation: not a failure of the handler, and no
                // handler after it is called (the cancellation denies, below).
                Err(_) if cx.is_cancelled() => break,
                Err(m) => {
                    // Fail closed: a pre-tool hook that cannot answer denies the call.
                    e.fail(Verdict::Deny, m, &mut contributions, &mut failures);
                }
            }
        }
        contributions.extend(table_guards);
        for e in &reg.guards {
            let Some(Stored::Guard(f)) = e.for_subject(Some(call.name())) else {
                continue;
            };
            match invoke(f, call, cx).await {
                Ok(None) => {}
                Ok(Some(deny)) => contributions.push(Contribution::from_guard(
                    &e.rule,
                    Some(e.source.clone()),
                    deny,
                )),
                Err(_) if cx.is_cancelled() => break,
                Err(m) => {
                    contributions.push(Contribution::from_guard(
                        &e.rule,
                        Some(e.source.clone()),
                        GuardDeny {
                            reason: format!("guard failed: {m}"),
                        },
                    ));
                    failures.push(e.failure(m));
                }
            }
        }
        let cancelled = cx.is_cancelled();
        if cancelled {
            contributions.push(cancelled_deny());
        }
        let mut ev = Evaluated::merged_on_use(
            pre_tool_decision(&contributions),
            Seam::PreTool,
            contributions,
            warnings,
            failures,
        );
        ev.hook_runs = hook_runs;
        ev.cancelled_if(cancelled)
    }

    /// See [`Harness::pre_tool`].
    pub(super) async fn pre_tool_in(
        &self,
        call: &ToolCall,
        cx: &HookContext,
    ) -> Evaluated<Option<PreToolDecision>> {
        self.pre_phase(call, cx).await
    }

    /// See [`Harness::permission_request`].
    pub(super) async fn permission_request_in(
        &self,
        call: &ToolCall,
        cx: &HookContext,
    ) -> Evaluated<Option<PermissionDecision>> {
        let mut payload = call.payload().clone();
        if let Some(o) = payload.as_object_mut() {
            o.insert(
                "hook_event_name".into(),
                Value::String(Seam::PermissionRequest.event_name().into()),
            );
        }
        let part = self
            .eval_tables(Seam::PermissionRequest, &payload, cx)
            .await;
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        for e in self.registry_for(cx).seam_entries(Seam::PermissionRequest) {
            let Some(Stored::Permission(f)) = e.for_subject(Some(call.name())) else {
                continue;
            };
            match invoke(f, call, cx).await {
                Ok(None) => {}
                Ok(Some(PermissionDecision::Allow { .. })) => {
                    contributions.push(e.contribution(Verdict::Allow, None));
                }
                Ok(Some(PermissionDecision::Deny { message })) => {
                    contributions.push(e.contribution(Verdict::Deny, Some(message)));
                }
                Err(_) if cx.is_cancelled() => break,
                Err(m) => e.fail(Verdict::Deny, m, &mut contributions, &mut failures),
            }
        }
        // The tables' guard contributions here are their load errors (fail closed).
        contributions.extend(part.guards);
        let cancelled = cx.is_cancelled();
        if cancelled {
            contributions.push(cancelled_deny());
        }
        let outcome = merged(
            Seam::PermissionRequest,
            contributions,
            part.warnings,
            part.hook_runs,
        );
        Evaluated::ready(outcome.permission(), outcome, failures).cancelled_if(cancelled)
    }

    /// See [`Harness::prompt_submit`].
    pub(super) async fn prompt_submit_in(
        &self,
        event: &SeamEvent,
        cx: &HookContext,
    ) -> Evaluated<PromptDecision> {
        if let Some(f) = event.misrouted("prompt_submit", &[Seam::PromptSubmit]) {
            return misrouted(Seam::PromptSubmit, f, Verdict::Block, |o| {
                typed_or(
                    o.prompt(),
                    PromptDecision::Allow {
                        rewritten_prompt: None,
                        additional_contexts: Vec::new(),
                    },
                )
            });
        }
        let part = self
            .eval_tables(Seam::PromptSubmit, &event.payload, cx)
            .await;
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let mut current = event.clone();
        current.seam = Seam::PromptSubmit;
        let mut rewritten = part.rewritten_prompt;
        if let (Some(p), Some(o)) = (&rewritten, current.payload.as_object_mut()) {
            o.insert("prompt".into(), Value::String(p.clone()));
        }
        let judged = rewritten.clone();
        for e in self.registry_for(cx).seam_entries(Seam::PromptSubmit) {
            let Stored::Prompt(f) = &e.handler else {
                continue;
            };
            match invoke(f, &current, cx).await {
                Ok(None) => {}
                Ok(Some(PromptDecision::Allow {
                    rewritten_prompt,
                    additional_contexts,
                })) => {
                    contributions.push(e.contribution(Verdict::Allow, None));
                    push_contexts(&mut contributions, e, additional_contexts);
                    if let Some(p) = rewritten_prompt {
                        if let Some(o) = current.payload.as_object_mut() {
                            o.insert("prompt".into(), Value::String(p.clone()));
                        }
                        rewritten = Some(p);
                    }
                }
                Ok(Some(PromptDecision::Block { reason, .. })) => {
                    contributions.push(e.contribution(Verdict::Block, Some(reason)));
                }
                Err(_) if cx.is_cancelled() => break,
                Err(m) => e.fail(Verdict::Block, m, &mut contributions, &mut failures),
            }
        }
        let mut warnings = part.warnings;
        let mut suppress = part.suppress_prompt;
        if rewritten != judged {
            // A handler rewrote the prompt: the tables judge the final one (`recheck`).
            let re = self.recheck(
                (Seam::PromptSubmit, &current.payload),
                &contributions,
                &warnings,
            );
            contributions.extend(re.blocks);
            warnings.extend(re.warnings);
            suppress |= re.suppress_prompt;
            if re.rewritten_prompt.is_some() {
                rewritten = re.rewritten_prompt;
            }
        }
        let mut outcome = merged(Seam::PromptSubmit, contributions, warnings, part.hook_runs);
        outcome.rewritten_prompt = rewritten;
        outcome.suppress_prompt = suppress && outcome.verdict() == Verdict::Block;
        let decision = typed_or(
            outcome.prompt(),
            PromptDecision::Allow {
                rewritten_prompt: None,
                additional_contexts: Vec::new(),
            },
        );
        Evaluated::ready(decision, outcome, failures).cancelled_if(cx.is_cancelled())
    }

    /// See [`Harness::session_start`].
    pub(super) async fn session_start_in(
        &self,
        event: &SeamEvent,
        cx: &HookContext,
    ) -> Evaluated<Vec<String>> {
        if let Some(f) =
            event.misrouted("session_start", &[Seam::SessionStart, Seam::SubagentStart])
        {
            return misrouted(Seam::SessionStart, f, Verdict::Abstain, |_| Vec::new());
        }
        let part = self.eval_tables(event.seam, &event.payload, cx).await;
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let subject = event
            .seam
            .matcher_subject()
            .field()
            .and_then(|f| event.field(f));
        for e in self.registry_for(cx).seam_entries(event.seam) {
            let Some(Stored::Context(f)) = e.for_subject(subject) else {
                continue;
            };
            match invoke(f, event, cx).await {
                Ok(Some(text)) => push_contexts(&mut contributions, e, vec![text]),
                Ok(None) => {}
                Err(_) if cx.is_cancelled() => break,
                Err(m) => failures.push(e.failure(m)),
            }
        }
        let outcome = merged(event.seam, contributions, part.warnings, part.hook_runs);
        decided(outcome, failures, cx, |o| {
            o.contexts.iter().map(|a| a.text.clone()).collect()
        })
    }

    /// See [`Harness::stop`].
    pub(super) async fn stop_in(
        &self,
        event: &SeamEvent,
        cx: &HookContext,
    ) -> Evaluated<ContinuationDecision> {
        if let Some(f) = event.misrouted("stop", &[Seam::Stop, Seam::SubagentStop]) {
            return misrouted(Seam::Stop, f, Verdict::Abstain, |_| {
                ContinuationDecision::Stop
            });
        }
        let part = self.eval_tables(event.seam, &event.payload, cx).await;
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        for e in self.registry_for(cx).seam_entries(event.seam) {
            let Stored::Continuation(f) = &e.handler else {
                continue;
            };
            match invoke(f, event, cx).await {
                Ok(Some(ContinuationDecision::Continue { reason })) => {
                    contributions.push(e.contribution(Verdict::Continue, Some(reason)));
                }
                Ok(_) => {}
                Err(_) if cx.is_cancelled() => break,
                Err(m) => failures.push(e.failure(m)),
            }
        }
        let outcome = merged(event.seam, contributions, part.warnings, part.hook_runs);
        decided(outcome, failures, cx, |o| {
            typed_or(o.continuation(), ContinuationDecision::Stop)
        })
    }

    /// See [`Harness::notify`].
    pub(super) async fn notify_in(&self, event: &SeamEvent, cx: &HookContext) -> Evaluated<()> {
        if let Some(f) = event.misrouted(
            "notify",
            &[
                Seam::Notification,
                Seam::SessionEnd,
                Seam::PreCompact,
                Seam::PostCompact,
                Seam::PostToolFailure,
            ],
        ) {
            return misrouted(event.seam, f, Verdict::Abstain, |_| ());
        }
        let part = self.eval_tables(event.seam, &event.payload, cx).await;
        let mut failures = Vec::new();
        for e in self.registry_for(cx).seam_entries(event.seam) {
            let Stored::Observe(f) = &e.handler else {
                continue;
            };
            match invoke(f, event, cx).await {
                Ok(()) => {}
                Err(_) if cx.is_cancelled() => break,
                Err(m) => failures.push(e.failure(m)),
            }
        }
        let outcome = merged(event.seam, part.hooks, part.warnings, part.hook_runs);
        Evaluated::ready((), outcome, failures).cancelled_if(cx.is_cancelled())
    }

    /// See [`Harness::post_tool`]. `tool` checks and presents a replaced value (without
    /// one, every value is valid and presents as itself).
    pub(super) async fn post_tool_in(
        &self,
        output: &ToolOutput,
        tool: Option<&dyn Tool>,
        cx: &HookContext,
    ) -> Evaluated<PostToolDecision> {
        let mut current = output.clone();
        let mut part = TablePart::default();
        let judge = output.dispatched && !self.tables.is_empty();
        if judge {
            let (seam, payload) = post_payload(&current);
            part = self.eval_tables(seam, &payload, cx).await;
            if let Some(r) = part.redacted.take() {
                current.result.content = r;
            }
        }
        let judged = current.result.content.clone();
        let mut contributions = part.hooks;
        let mut failures = Vec::new();
        let mut redacted = false;
        let mut replaced = false;
        for e in self.registry_for(cx).seam_entries(Seam::PostTool) {
            let Some(Stored::PostTool(f)) = e.for_subject(Some(output.call.name())) else {
                continue;
            };
            match invoke(f, &current, cx).await {
                Ok(None) => {}
                Ok(Some(PostToolDecision::Accept {
                    additional_contexts,
                })) => push_contexts(&mut contributions, e, additional_contexts),
                Ok(Some(PostToolDecision::Redact {
                    tool_response,
                    additional_contexts,
                })) => {
                    current.result.content = tool_response;
                    redacted = true;
                    contributions.push(e.contribution(Verdict::Redact, None));
                    push_contexts(&mut contributions, e, additional_contexts);
                }
                Ok(Some(PostToolDecision::ReplaceValue {
                    value,
                    additional_contexts,
                })) => match revalue(tool, &value) {
                    Ok(content) => {
                        current.result.value = value;
                        current.result.content = content;
                        replaced = true;
                        contributions.push(e.contribution(Verdict::Redact, None));
                        push_contexts(&mut contributions, e, additional_contexts);
                    }
                    Err(m) => {
                        failures.push(e.failure(format!("replaced the value: {m}")));
                        break;
                    }
                },
                Ok(Some(PostToolDecision::Block {
                    feedback,
                    additional_contexts,
                })) => {
                    contributions.push(e.contribution(Verdict::Block, Some(feedback)));
                    push_contexts(&mut contributions, e, additional_contexts);
                }
                Err(_) if cx.is_cancelled() => break,
                Err(m) => {
                    failures.push(e.failure(m));
                    break;
                }
            }
        }
        let mut warnings = part.warnings;
        if judge && current.result.content != judged {
            // A handler changed what the model sees: the tables judge the final content
            // (`recheck`); their redactions apply to it again.
            let (seam, payload) = post_payload(&current);
            let re = self.recheck((seam, &payload), &contributions, &warnings);
            contributions.extend(re.blocks);
            warnings.extend(re.warnings);
            if let Some(r) = re.redacted {
                current.result.content = r;
                redacted = true;
            }
        }
        let mut outcome = merged(Seam::PostTool, contributions, warnings, part.hook_runs);
        if replaced {
            outcome.replaced_value = Some(current.result.value);
            if outcome.verdict.is_none() {
                outcome.verdict = Some(Verdict::Redact);
            }
        }
        if redacted || current.result.content != output.result.content {
            outcome.redacted_response = Some(current.result.content);
            if outcome.verdict.is_none() {
                outcome.verdict = Some(Verdict::Redact);
            }
        }
        let decision = typed_or(
            outcome.post_tool(),
            PostToolDecision::Accept {
                additional_contexts: Vec::new(),
            },
        );
        Evaluated::ready(decision, outcome, failures).cancelled_if(cx.is_cancelled())
    }
}

/// What a cancelled run answers at `pre-tool` and `permission-request` (fail closed).
fn cancelled_deny() -> Contribution {
    Contribution::verdict(
        super::CANCELLED_RULE,
        Verdict::Deny,
        Some("the run was cancelled before every policy answered".into()),
    )
}

/// The merged outcome of a seam's contributions, with the tables' warnings and the command
/// hooks they ran.
fn merged(
    seam: Seam,
    contributions: Vec<Contribution>,
    warnings: Vec<String>,
    hook_runs: Vec<HookRun>,
) -> Outcome {
    let mut outcome = merge(seam, contributions);
    outcome.warnings = warnings;
    outcome.hook_runs = hook_runs;
    outcome
}

/// A seam method's result: the decision `decide` reads off the merged outcome, marked
/// cancelled when the run is.
fn decided<D>(
    outcome: Outcome,
    failures: Vec<HandlerFailure>,
    cx: &HookContext,
    decide: impl FnOnce(&Outcome) -> D,
) -> Evaluated<D> {
    Evaluated::ready(decide(&outcome), outcome, failures).cancelled_if(cx.is_cancelled())
}
