//! Typed decisions per seam and the most-restrictive merge (DESIGN.md §2; interception-seams
//! seed; hook-protocol seed "merge").
//!
//! Every rule that fires contributes one [`Contribution`]. [`merge`] folds contributions in
//! rule order into an [`Outcome`]:
//!
//! * the verdict is the maximum by the seam's order — `deny > defer > ask > allow > abstain`
//!   (pre-tool, Claude Code's own order), `deny > allow` (permission-request), `block > allow`
//!   (prompt-submit, pre-compact), `block > redact > accept` (post-tool), `continue > stop`
//!   (stop seams). The verdict never depends on rule order, and adding a contribution never
//!   lowers it (monotonicity);
//! * the reasons of every contribution that carries the winning verdict are kept in rule order;
//! * additional contexts accumulate in rule order, each with its rule;
//! * the first halt (`continue: false`) is sticky.

use serde_json::Value;

mod build;
mod plain;
mod reasons;

pub use plain::plain_reasons;
pub use reasons::{CANNOT_RULE_OUT, join_reasons};

use crate::policy::Source;
use crate::seam::Seam;

/// A verdict of one rule (or of the merged outcome) at a seam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No opinion: the host's normal flow applies.
    Abstain,
    /// Allow (pre-tool: skip the prompt; permission-request: grant; prompt: let through).
    Allow,
    /// Ask the user (pre-tool).
    Ask,
    /// Defer the call (pre-tool; Claude Code `-p` only).
    Defer,
    /// Deny (pre-tool, permission-request).
    Deny,
    /// Block (prompt-submit, post-tool feedback, pre-compact).
    Block,
    /// Post-tool: replace parts of the tool output the model sees.
    Redact,
    /// Stop seams: keep the agent working with a reason.
    Continue,
}

impl Verdict {
    /// Lower-case name (`deny`, `ask`, …; `none` for abstain).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Abstain => "none",
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Defer => "defer",
            Verdict::Deny => "deny",
            Verdict::Block => "block",
            Verdict::Redact => "redact",
            Verdict::Continue => "continue",
        }
    }

    /// Restrictiveness of this verdict at a seam; higher wins the merge.
    ///
    /// Verdicts a seam cannot produce rank 0 like abstain.
    pub fn rank(self, seam: Seam) -> u8 {
        use Verdict as V;
        // The verdicts the seam can produce, least restrictive first.
        let order: &[Verdict] = match seam {
            Seam::PreTool => &[V::Allow, V::Ask, V::Defer, V::Deny],
            Seam::PermissionRequest => &[V::Allow, V::Deny],
            Seam::PromptSubmit | Seam::PreCompact => &[V::Allow, V::Block],
            Seam::PostTool => &[V::Redact, V::Block],
            Seam::Stop | Seam::SubagentStop => &[V::Continue],
            _ => &[],
        };
        (1..)
            .zip(order)
            .find_map(|(rank, v)| (*v == self).then_some(rank))
            .unwrap_or(0)
    }
}

/// A text with the rule it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attributed {
    /// The text.
    pub text: String,
    /// Rule id (or command-hook id).
    pub rule: String,
    /// Where the rule is declared.
    pub source: Option<Source>,
}

/// The decision of a deny-only guard. A guard returns `Option<GuardDeny>`: there is no value
/// that allows, so no guard can turn a deny into an allow (interception-seams seed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardDeny {
    /// Why the call is denied (shown to the model).
    pub reason: String,
}

/// What one rule contributes to a seam's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    /// Rule id.
    pub rule: String,
    /// Where the rule is declared.
    pub source: Option<Source>,
    /// Whether it is a guard.
    pub guard: bool,
    /// Its verdict.
    pub verdict: Verdict,
    /// Reason for the verdict (deny/ask/block reason, continuation prompt).
    pub reason: Option<String>,
    /// Additional context for the model.
    pub context: Option<String>,
    /// Halt request: stop the agent with this reason.
    pub halt: Option<String>,
    /// Observer: fired, but takes no part in the decision.
    pub observe: bool,
}

impl Contribution {
    /// A contribution with only a verdict.
    pub fn verdict(rule: &str, verdict: Verdict, reason: Option<String>) -> Contribution {
        Contribution {
            rule: rule.to_string(),
            source: None,
            guard: false,
            verdict,
            reason,
            context: None,
            halt: None,
            observe: false,
        }
    }

    /// The contribution of a guard's deny.
    pub fn from_guard(rule: &str, source: Option<Source>, deny: GuardDeny) -> Contribution {
        Contribution {
            rule: rule.to_string(),
            source,
            guard: true,
            verdict: Verdict::Deny,
            reason: Some(deny.reason),
            context: None,
            halt: None,
            observe: false,
        }
    }
}

/// The merged result of all rules at a seam for one event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    /// The seam (None only for an outcome built before the seam was known).
    pub seam: Option<Seam>,
    /// Merged verdict.
    pub verdict: Option<Verdict>,
    /// Reasons of the contributions that carry the winning verdict, in rule order.
    pub reasons: Vec<Attributed>,
    /// Additional contexts, in rule order.
    pub contexts: Vec<Attributed>,
    /// First halt request (sticky).
    pub halt: Option<Attributed>,
    /// Prompt after the rewrite waterfall (prompt-submit), if any rule rewrote it.
    pub rewritten_prompt: Option<String>,
    /// Replacement tool input (from command hooks), judged by guards.
    pub updated_input: Option<Value>,
    /// Tool response after redaction (post-tool), if any rule redacted: the presentation
    /// content the model sees (embedding API: recomputed from a replaced value, then any
    /// later content replacement).
    pub redacted_response: Option<Value>,
    /// The canonical tool value after a post-tool value replacement (embedding API only;
    /// hook hosts have no canonical value), if any handler replaced it.
    pub replaced_value: Option<Value>,
    /// Do not echo the prompt in the block message (prompt-submit, case HK-11).
    pub suppress_prompt: bool,
    /// Every contribution that fired, in rule order (observers included).
    pub fired: Vec<Contribution>,
    /// Warnings for the user (policy load errors, budget exhausted, …).
    pub warnings: Vec<String>,
    /// The `codex_ask` setting of the policy of each rule that asked, in rule order: how the
    /// Codex encoder answers an `ask` Codex cannot express.
    pub codex_ask: Vec<crate::policy::CodexAsk>,
    /// Command hooks that fired but were not executed (no runner: replay): (rule id, command).
    pub pending_runs: Vec<(String, String)>,
    /// Command hooks that ran, in declared order.
    pub hook_runs: Vec<HookRun>,
    /// What `[policy] mode = "observe"` rules would have decided (merged together with the
    /// enforced rules), when any of them had something to say; they took no part in
    /// `verdict`. Written to the audit log by `seamguard hook`.
    pub observed: Option<Observed>,
}

/// What the outcome would have been if observe-mode policies were enforced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The merged verdict with observe-mode rules enforced.
    pub verdict: Verdict,
    /// Its reasons, joined as in [`Outcome::reason_text`].
    pub reason: String,
    /// Ids of the observe-mode rules that had a verdict, context or halt, in rule order.
    pub rules: Vec<String>,
}

/// A command hook that ran during an evaluation (for audit and reports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookRun {
    /// Rule id.
    pub id: String,
    /// Command line.
    pub command: String,
    /// Exit code (`None`: killed or not started).
    pub exit_code: Option<i32>,
    /// Killed at its timeout.
    pub timed_out: bool,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
    /// Failure description, if it failed.
    pub failure: Option<String>,
}

impl Outcome {
    /// The merged verdict (abstain when nothing decided).
    pub fn verdict(&self) -> Verdict {
        self.verdict.unwrap_or(Verdict::Abstain)
    }

    /// The reasons joined for the host in one sentence: `text [rule-id]`, distinct reasons
    /// joined by `; `, the same reason given by several rules once (`text [a, b]`), and what
    /// seamguard could not check said once for every rule it concerns (see [`join_reasons`]).
    pub fn reason_text(&self) -> String {
        join_reasons(
            self.reasons
                .iter()
                .map(|a| (a.text.as_str(), a.rule.as_str())),
        )
    }

    /// The additional contexts joined by blank lines.
    pub fn context_text(&self) -> Option<String> {
        if self.contexts.is_empty() {
            return None;
        }
        Some(
            self.contexts
                .iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
        )
    }

    /// `Some` when this is an outcome of `seam` (each typed decision belongs to one seam).
    fn at(&self, seam: Seam) -> Option<()> {
        (self.seam == Some(seam)).then_some(())
    }

    /// Ids of every fired rule, in order.
    pub fn fired_ids(&self) -> Vec<&str> {
        self.fired.iter().map(|c| c.rule.as_str()).collect()
    }

    /// The typed pre-tool decision, or `None` for abstain or another seam. Typed decisions
    /// carry the reasons' own text ([`Outcome::plain_reason`]); the rules that gave them are
    /// in [`Outcome::reasons`].
    pub fn pre_tool(&self) -> Option<PreToolDecision> {
        self.at(Seam::PreTool)?;
        let reason = self.plain_reason();
        Some(match self.verdict() {
            Verdict::Allow => PreToolDecision::Allow {
                reason: (!reason.is_empty()).then_some(reason),
                updated_input: self.updated_input.clone(),
            },
            Verdict::Ask => PreToolDecision::Ask { reason },
            Verdict::Defer => PreToolDecision::Defer { reason },
            Verdict::Deny => PreToolDecision::Deny { reason },
            _ => return None,
        })
    }

    /// The typed permission-request decision.
    pub fn permission(&self) -> Option<PermissionDecision> {
        self.at(Seam::PermissionRequest)?;
        Some(match self.verdict() {
            Verdict::Allow => PermissionDecision::Allow {
                updated_input: self.updated_input.clone(),
            },
            Verdict::Deny => PermissionDecision::Deny {
                message: self.plain_reason(),
            },
            _ => return None,
        })
    }

    /// The typed prompt-submit decision (allow when nothing blocked).
    pub fn prompt(&self) -> Option<PromptDecision> {
        self.at(Seam::PromptSubmit)?;
        Some(match self.verdict() {
            Verdict::Block => PromptDecision::Block {
                reason: self.plain_reason(),
                suppress_prompt: self.suppress_prompt,
            },
            _ => PromptDecision::Allow {
                rewritten_prompt: self.rewritten_prompt.clone(),
                additional_contexts: self.contexts.iter().map(|a| a.text.clone()).collect(),
            },
        })
    }

    /// The typed post-tool decision (accept when nothing blocked or redacted).
    pub fn post_tool(&self) -> Option<PostToolDecision> {
        self.at(Seam::PostTool)?;
        let contexts = self.contexts.iter().map(|a| a.text.clone()).collect();
        Some(match self.verdict() {
            Verdict::Block => {
                // Only the blocking rules' contexts go with a block (seed: "an outer block
                // … exposes only contexts explicitly supplied by the blocking decision").
                let blockers: Vec<&str> = self
                    .fired
                    .iter()
                    .filter(|c| !c.observe && c.verdict == Verdict::Block)
                    .map(|c| c.rule.as_str())
                    .collect();
                PostToolDecision::Block {
                    feedback: self.plain_reason(),
                    additional_contexts: self
                        .contexts
                        .iter()
                        .filter(|a| blockers.contains(&a.rule.as_str()))
                        .map(|a| a.text.clone())
                        .collect(),
                }
            }
            Verdict::Redact => match (&self.replaced_value, &self.redacted_response) {
                (Some(v), _) => PostToolDecision::ReplaceValue {
                    value: v.clone(),
                    additional_contexts: contexts,
                },
                (None, Some(r)) => PostToolDecision::Redact {
                    tool_response: r.clone(),
                    additional_contexts: contexts,
                },
                (None, None) => PostToolDecision::Accept {
                    additional_contexts: contexts,
                },
            },
            _ => PostToolDecision::Accept {
                additional_contexts: contexts,
            },
        })
    }

    /// The typed continuation decision of a stop seam.
    pub fn continuation(&self) -> Option<ContinuationDecision> {
        if !matches!(self.seam, Some(Seam::Stop | Seam::SubagentStop)) {
            return None;
        }
        Some(match self.verdict() {
            Verdict::Continue => ContinuationDecision::Continue {
                reason: self
                    .reasons
                    .iter()
                    .map(|a| a.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n"),
            },
            _ => ContinuationDecision::Stop,
        })
    }
}

/// Pre-tool decision (`PreToolUse.permissionDecision`).
#[derive(Debug, Clone, PartialEq)]
pub enum PreToolDecision {
    /// Allow, skipping the permission prompt (never past the host's deny/ask rules).
    Allow {
        /// Optional reason (shown to the user).
        reason: Option<String>,
        /// Replacement tool input.
        updated_input: Option<Value>,
    },
    /// Ask the user.
    Ask {
        /// Shown in the prompt.
        reason: String,
    },
    /// Defer (Claude Code `-p` only).
    Defer {
        /// Ignored by the host; kept for audit.
        reason: String,
    },
    /// Deny; the reason is shown to the model.
    Deny {
        /// Non-empty reason.
        reason: String,
    },
}

/// Permission-request decision (`hookSpecificOutput.decision.behavior`).
#[derive(Debug, Clone, PartialEq)]
pub enum PermissionDecision {
    /// Grant.
    Allow {
        /// Replacement tool input (Claude Code only).
        updated_input: Option<Value>,
    },
    /// Refuse.
    Deny {
        /// Message.
        message: String,
    },
}

/// Prompt-submit decision.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptDecision {
    /// Let the prompt through, optionally rewritten and with contexts.
    Allow {
        /// The rewritten prompt (embedding API; hook hosts cannot rewrite prompts).
        rewritten_prompt: Option<String>,
        /// Contexts, in rule order.
        additional_contexts: Vec<String>,
    },
    /// Reject the prompt.
    Block {
        /// Shown to the user.
        reason: String,
        /// Do not echo the prompt.
        suppress_prompt: bool,
    },
}

/// Post-tool decision.
///
/// A tool result has a canonical value (what the tool returned, for programs) and
/// presentation content (what the model sees, computed from the value by
/// [`Tool::present`](crate::harness::Tool::present)). [`Redact`](Self::Redact) replaces the
/// presentation and keeps the value (not a confidentiality boundary: the value still holds
/// what was redacted); [`ReplaceValue`](Self::ReplaceValue) replaces the value, which the
/// harness revalidates ([`Tool::validate`](crate::harness::Tool::validate)) and presents
/// again (interception-seams seed, `tools/post-execute`).
#[derive(Debug, Clone, PartialEq)]
pub enum PostToolDecision {
    /// Keep the result.
    Accept {
        /// Contexts, in rule order.
        additional_contexts: Vec<String>,
    },
    /// Block with feedback (the tool already ran: "flagged after the fact", case HK-10).
    Block {
        /// Feedback for the model.
        feedback: String,
        /// Contexts that go with the block, in rule order: after a block these are the only
        /// contexts the call keeps (contexts of accepting handlers and deferred contexts of
        /// nested calls are discarded).
        additional_contexts: Vec<String>,
    },
    /// Replace the presentation content (the output the model sees); the canonical value
    /// is kept.
    Redact {
        /// The redacted tool response (same shape as the original).
        tool_response: Value,
        /// Contexts, in rule order.
        additional_contexts: Vec<String>,
    },
    /// Replace the canonical value: the harness revalidates it (an invalid value fails the
    /// handler, so the call ends in an error result) and recomputes the presentation from it.
    /// As a merged decision, the presentation the model sees is
    /// [`Outcome::redacted_response`].
    ReplaceValue {
        /// The new canonical value.
        value: Value,
        /// Contexts, in rule order.
        additional_contexts: Vec<String>,
    },
}

/// Stop-seam decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContinuationDecision {
    /// Let the agent stop.
    Stop,
    /// Keep the agent working; the reason is its next instruction.
    Continue {
        /// Model-facing reason.
        reason: String,
    },
}

/// The verdict of [`merge`] alone: the most restrictive verdict among the contributions that
/// decide (observers take no part); `Abstain` when none does.
///
/// ```
/// use seamguard_engine::{Contribution, Seam, Verdict, merged_verdict};
///
/// let c = [
///     Contribution::verdict("a", Verdict::Allow, None),
///     Contribution::verdict("b", Verdict::Ask, Some("check first".into())),
/// ];
/// assert_eq!(merged_verdict(Seam::PreTool, &c), Verdict::Ask);
/// ```
pub fn merged_verdict(seam: Seam, contributions: &[Contribution]) -> Verdict {
    contributions
        .iter()
        .filter(|c| !c.observe)
        .map(|c| c.verdict)
        .fold(Verdict::Abstain, |best, v| {
            if v.rank(seam) > best.rank(seam) {
                v
            } else {
                best
            }
        })
}

/// `merge(Seam::PreTool, contributions).pre_tool()` without building the outcome: the
/// harness answers a pre-tool call with this and merges the whole outcome only when asked.
/// The verdict comes from [`merged_verdict`], the reason is [`Outcome::plain_reason`]'s.
pub fn pre_tool_decision(contributions: &[Contribution]) -> Option<PreToolDecision> {
    let seam = Seam::PreTool;
    let best = merged_verdict(seam, contributions);
    if best.rank(seam) == 0 {
        return None;
    }
    let winners = || {
        contributions
            .iter()
            .filter(move |c| !c.observe && c.verdict == best)
    };
    let reason = plain_reasons(winners().filter_map(|c| c.reason.as_deref()));
    Some(match best {
        Verdict::Allow => PreToolDecision::Allow {
            reason: (!reason.is_empty()).then_some(reason),
            updated_input: None,
        },
        Verdict::Ask => PreToolDecision::Ask { reason },
        Verdict::Defer => PreToolDecision::Defer { reason },
        _ => PreToolDecision::Deny { reason },
    })
}

/// Merge contributions (in rule order) into an outcome for `seam`.
///
/// Order-independent for the verdict; contexts and reasons keep rule order. Observers are
/// recorded in `fired` and take no part in the decision.
pub fn merge(seam: Seam, contributions: Vec<Contribution>) -> Outcome {
    let mut out = Outcome {
        seam: Some(seam),
        ..Outcome::default()
    };
    let best = merged_verdict(seam, &contributions);
    for c in &contributions {
        if c.observe {
            continue;
        }
        if let Some(ctx) = &c.context {
            out.contexts.push(Attributed {
                text: ctx.clone(),
                rule: c.rule.clone(),
                source: c.source.clone(),
            });
        }
        if let Some(h) = &c.halt
            && out.halt.is_none()
        {
            out.halt = Some(Attributed {
                text: h.clone(),
                rule: c.rule.clone(),
                source: c.source.clone(),
            });
        }
        if best.rank(seam) > 0
            && c.verdict == best
            && let Some(r) = &c.reason
        {
            out.reasons.push(Attributed {
                text: r.clone(),
                rule: c.rule.clone(),
                source: c.source.clone(),
            });
        }
    }
    out.verdict = (best.rank(seam) > 0).then_some(best);
    out.fired = contributions;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harness's pre-tool shortcut gives exactly what the merged outcome gives.
    #[test]
    fn pre_tool_decision_equals_the_merged_outcome() {
        let v = [
            Verdict::Abstain,
            Verdict::Allow,
            Verdict::Ask,
            Verdict::Defer,
            Verdict::Deny,
        ];
        for a in v {
            for b in v {
                for (ra, rb) in [(Some("ra"), Some("rb")), (None, Some("rb")), (None, None)] {
                    let mut cs = vec![
                        Contribution::verdict("a", a, ra.map(str::to_string)),
                        Contribution::verdict("b", b, rb.map(str::to_string)),
                        Contribution::verdict("c", Verdict::Deny, Some("seen".into())),
                    ];
                    cs[2].observe = true;
                    assert_eq!(
                        pre_tool_decision(&cs),
                        merge(Seam::PreTool, cs.clone()).pre_tool(),
                        "{a:?} {b:?} {ra:?} {rb:?}"
                    );
                }
            }
        }
    }

    fn c(rule: &str, v: Verdict, r: &str) -> Contribution {
        Contribution::verdict(rule, v, Some(r.to_string()))
    }

    #[test]
    fn hk12_deny_beats_ask_beats_allow() {
        let out = merge(
            Seam::PreTool,
            vec![
                c(
                    "h1-allow-list",
                    Verdict::Allow,
                    "kubectl is on the allow list",
                ),
                c(
                    "h2-prod-guard",
                    Verdict::Ask,
                    "namespace deletion needs a human",
                ),
                c(
                    "h3-destructive-guard",
                    Verdict::Deny,
                    "Deleting a namespace is irreversible; not allowed from the agent.",
                ),
            ],
        );
        assert_eq!(out.verdict(), Verdict::Deny);
        assert_eq!(
            out.reason_text(),
            "Deleting a namespace is irreversible; not allowed from the agent. [h3-destructive-guard]"
        );
        let out = merge(
            Seam::PreTool,
            vec![
                c("h1", Verdict::Allow, "kubectl is on the allow list"),
                c("h2", Verdict::Ask, "namespace deletion needs a human"),
            ],
        );
        assert_eq!(out.verdict(), Verdict::Ask);
        assert_eq!(out.reason_text(), "namespace deletion needs a human [h2]");
        let out = merge(
            Seam::PreTool,
            vec![c("d", Verdict::Defer, "later"), c("a", Verdict::Ask, "q")],
        );
        assert_eq!(out.verdict(), Verdict::Defer);
    }

    #[test]
    fn halt_is_sticky_and_contexts_keep_order() {
        let mut a = c("a", Verdict::Abstain, "x");
        a.context = Some("first".into());
        a.halt = Some("stop now".into());
        let mut b = c("b", Verdict::Abstain, "y");
        b.context = Some("second".into());
        b.halt = Some("later halt".into());
        let out = merge(Seam::SessionStart, vec![a, b]);
        assert_eq!(out.context_text().as_deref(), Some("first\n\nsecond"));
        assert_eq!(out.halt.as_ref().map(|h| h.text.as_str()), Some("stop now"));
        assert_eq!(out.verdict(), Verdict::Abstain);
    }

    #[test]
    fn observers_do_not_decide() {
        let mut o = c("o", Verdict::Deny, "x");
        o.observe = true;
        let out = merge(Seam::PreTool, vec![o]);
        assert_eq!(out.verdict(), Verdict::Abstain);
        assert_eq!(out.fired_ids(), vec!["o"]);
    }

    /// Several reasons read as one sentence: the same reason once with every rule, what
    /// seamguard could not check once for every rule it concerns, whitespace runs as one
    /// space.
    #[test]
    fn reasons_join_into_one_sentence_without_repeats() {
        let why = "cannot tell where it goes: sends to $H (Bash: `curl $H`)";
        let out = merge(
            Seam::PreTool,
            vec![
                Contribution::verdict(
                    "a",
                    Verdict::Ask,
                    Some(format!("{why}{CANNOT_RULE_OUT}Uploads need approval")),
                ),
                Contribution::verdict(
                    "b",
                    Verdict::Ask,
                    Some(format!(
                        "{why}{CANNOT_RULE_OUT}Network access needs approval."
                    )),
                ),
                Contribution::verdict("c", Verdict::Ask, Some("Pushing  needs\napproval".into())),
                Contribution::verdict("d", Verdict::Ask, Some("Pushing needs approval.".into())),
                Contribution::verdict(
                    "f",
                    Verdict::Ask,
                    Some("Inline code opens a file: `ruby -e x`".into()),
                ),
                Contribution::verdict(
                    "g",
                    Verdict::Ask,
                    Some("Inline code opens a file; it may be a secret: `ruby -e x`".into()),
                ),
                Contribution::verdict(
                    "e",
                    Verdict::Ask,
                    Some(format!("{why}{CANNOT_RULE_OUT}Uploads need approval")),
                ),
            ],
        );
        assert_eq!(
            out.reason_text(),
            "cannot tell where it goes: sends to $H (Bash: `curl $H`); seamguard cannot rule out: \
             Uploads need approval [a, e], Network access needs approval. [b]; \
             Pushing needs approval [c, d]; \
             Inline code opens a file; it may be a secret: `ruby -e x` [g, f]"
        );
        // The typed decision says the same without the rules.
        let pre = pre_tool_decision(&out.fired);
        let plain = "cannot tell where it goes: sends to $H (Bash: `curl $H`); seamguard cannot \
             rule out: Uploads need approval, Network access needs approval.; \
             Pushing needs approval; \
             Inline code opens a file; it may be a secret: `ruby -e x`";
        assert_eq!(
            pre,
            Some(PreToolDecision::Ask {
                reason: plain.into()
            })
        );
        assert_eq!(out.pre_tool(), pre);
    }
}
