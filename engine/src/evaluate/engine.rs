//! The seam evaluator: one event in, one merged [`Outcome`] out.
//!
//! Order at a seam (DESIGN.md §2, interception-seams seed): hooks in declared order (a
//! waterfall: a prompt rewrite is seen by later rules) → command hooks → guards (pre-tool
//! only, deny-only, judged on the final input) → most-restrictive merge. Stop seams honour
//! `stop_hook_active` and a per-turn continuation budget kept in a [`ContinuationLedger`].

use std::borrow::Cow;
use std::rc::Rc;

use serde_json::Value;

use super::command_hooks::hook_contribution;
use super::ledger::{ContinuationLedger, StopBudget};
use super::pred::Known;
use super::reasons::default_reason;
use super::request::Request;
use super::runner::{CommandHook, HookRunner, RunContext};
use crate::compile::table::{DecisionTable, Fired};
use crate::decision::{
    CANNOT_RULE_OUT, Contribution, GuardDeny, HookRun, Observed, Outcome, Verdict, merge,
};
use crate::dialect::Dialect;
use crate::effects::Effects;
use crate::memory::SessionMemory;
use crate::policy::{
    CodexAsk, DecisionValue, OnLoadError, OnUnsure, PolicyMeta, PolicyMode, Rewrite, Rule,
    RuleKind, Scope,
};
use crate::seam::Seam;

/// Rule id used for contributions seamguard makes itself (fail-closed load errors).
pub const LOAD_ERROR_RULE: &str = "seamguard:load-error";

pub use super::reasons::UNSURE_RULE;
use super::reasons::named_rules;

/// Most distinct causes quoted in the reason of the [`UNSURE_RULE`] ask.
const MAX_UNSURE_CAUSES: usize = 3;

/// A rule that fired only because part of the call could not be resolved, collected into the
/// one [`UNSURE_RULE`] ask.
struct UnsureHit {
    /// The rule id.
    rule: String,
    /// What could not be resolved.
    why: String,
    /// Its policy is in observe mode.
    observe: bool,
    /// Its policy's `codex_ask`.
    codex_ask: CodexAsk,
}

/// Evaluates events against a [`DecisionTable`].
pub struct Engine {
    table: DecisionTable,
    ledger: Option<Box<dyn ContinuationLedger>>,
    runner: Option<Box<dyn HookRunner>>,
    project_dir: Option<String>,
    enforce_observed: bool,
    /// Whether a policy that failed to load denies whatever its `on_load_error` says.
    deny_load_errors: bool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

fn redact_value(v: &mut Value, res: &[(&regex::Regex, &str)]) -> bool {
    match v {
        Value::String(s) => {
            let mut changed = false;
            for (re, rep) in res {
                if re.is_match(s) {
                    *s = re.replace_all(s, *rep).into_owned();
                    changed = true;
                }
            }
            changed
        }
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |acc, x| redact_value(x, res) | acc),
        Value::Object(m) => m
            .values_mut()
            .fold(false, |acc, x| redact_value(x, res) | acc),
        _ => false,
    }
}

/// The state of one evaluation, threaded through its steps.
struct Eval<'p> {
    seam: Seam,
    dialect: Dialect,
    /// The session memory the event is judged in (`None`: empty).
    memory: Option<&'p SessionMemory>,
    /// The payload as the next rule sees it (copied only when a rule changes it).
    current: Cow<'p, Value>,
    /// Whether `current` differs from the payload (guards are then re-checked).
    input_changed: bool,
    recheck: bool, // A value already rewritten ([`Engine::recheck`]): no prepend / append.
    contributions: Vec<Contribution>,
    /// Contributions of observe-mode policies (indices into `contributions`).
    observed: Vec<usize>,
    warnings: Vec<String>,
    rewritten_prompt: Option<String>,
    redacted: Option<Value>,
    suppress_prompt: bool,
    /// The `codex_ask` setting of each asking rule's policy.
    codex_ask: Vec<CodexAsk>,
    /// Command hooks of fired `run` rules.
    to_run: Vec<CommandHook>,
    /// Continuations already granted in this chain (stop seams).
    used: u32,
    /// Why the continuation ledger cannot keep the count, when it cannot.
    ledger_unusable: Option<String>,
    /// Rules that fired only because part of the call could not be resolved (pre-tool).
    unsure: Vec<UnsureHit>,
}

/// What the command hooks of one evaluation produced.
#[derive(Default)]
struct CommandHookResults {
    /// Not executed (no runner): (rule id, command).
    pending: Vec<(String, String)>,
    /// Executed, in declared order.
    ran: Vec<HookRun>,
    /// The last tool-input rewrite: (rule id, input).
    updated_input: Option<(String, Value)>,
}

impl Engine {
    /// An engine without a continuation ledger: on a stop seam with `stop_hook_active`,
    /// no rule may continue again (the safe reading of an unknown count), and without a
    /// command-hook runner (fired `run` actions are only listed as pending).
    ///
    /// Never fails; see [`Engine::evaluate`] for an example.
    pub fn new(table: DecisionTable) -> Engine {
        Engine {
            table,
            ledger: None,
            runner: None,
            project_dir: None,
            enforce_observed: false,
            deny_load_errors: false,
        }
    }

    /// Deny every `pre-tool` call and `permission-request` while any policy of the table
    /// failed to load, whatever its `on_load_error` says (the embedding API's rule: a
    /// library caller never runs on a policy it could not load). Off by default: the CLI
    /// keeps each file's own `on_load_error`.
    pub fn with_load_errors_denied(mut self, yes: bool) -> Engine {
        self.deny_load_errors = yes;
        self
    }

    /// Evaluate `[policy] mode = "observe"` rules as if enforced. `seamguard test` and
    /// `replay` do this: they act on nothing, and a test states what a rule would decide.
    pub fn with_observe_enforced(mut self, yes: bool) -> Engine {
        self.enforce_observed = yes;
        self
    }

    /// Whether rules of a policy only record what they would decide (`mode = "observe"`).
    fn observing(&self, meta: Option<&PolicyMeta>) -> bool {
        !self.enforce_observed && meta.is_some_and(|m| m.mode == PolicyMode::Observe)
    }

    /// Attach a continuation ledger.
    pub fn with_ledger(mut self, ledger: Box<dyn ContinuationLedger>) -> Engine {
        self.ledger = Some(ledger);
        self
    }

    /// Attach a command-hook runner; without one, fired `run` actions are only listed in
    /// [`Outcome::pending_runs`] ("would run").
    pub fn with_runner(mut self, runner: Box<dyn HookRunner>) -> Engine {
        self.runner = Some(runner);
        self
    }

    /// `CLAUDE_PROJECT_DIR` to give Claude Code command hooks (default: the payload `cwd`).
    pub fn with_project_dir(mut self, dir: Option<String>) -> Engine {
        self.project_dir = dir;
        self
    }

    /// The compiled table.
    pub fn table(&self) -> &DecisionTable {
        &self.table
    }

    fn contribution(&self, rule: &Rule, verdict: Verdict, reason: Option<String>) -> Contribution {
        Contribution {
            rule: rule.id.clone(),
            source: Some(rule.source.clone()),
            guard: rule.kind == RuleKind::Guard,
            verdict,
            reason,
            context: rule.action.context.clone(),
            halt: rule.action.halt.clone(),
            observe: rule.action.observe,
        }
    }

    /// The outcome of `req`, and the call's effects when the evaluation of its payload
    /// worked them out. `recheck`: see [`Engine::recheck`].
    pub(super) fn evaluate_as(
        &self,
        req: &Request<'_>,
        recheck: bool,
    ) -> (Outcome, Option<Rc<Effects>>) {
        let Request {
            seam,
            payload,
            dialect,
            ..
        } = *req;
        let memory = req.memory();
        // Codex code mode: the tool calls inside an `exec` call, each judged as itself.
        if dialect == Dialect::Codex
            && let Some(out) = crate::readers::code_mode::judge(seam, payload, &|p| {
                // Each inner call is another value: the effects found before are not its own.
                let inner = Request {
                    payload: p,
                    known_effects: None,
                    known_lines: None,
                    ..*req
                };
                self.evaluate_as(&inner, false).0
            })
        {
            return (out, None);
        }
        let budget = StopBudget::read(seam, payload, self.ledger.as_deref());
        let mut st = Eval {
            seam,
            dialect,
            memory,
            current: Cow::Borrowed(payload),
            input_changed: false,
            recheck,
            contributions: Vec::new(),
            observed: Vec::new(),
            warnings: Vec::new(),
            rewritten_prompt: None,
            redacted: None,
            suppress_prompt: false,
            codex_ask: Vec::new(),
            to_run: Vec::new(),
            used: budget.used,
            ledger_unusable: budget.unusable.clone(),
            unsure: Vec::new(),
        };
        self.load_failures(&mut st);

        // One pass finds hooks and guards together (the command line is analysed once);
        // guards are re-checked only if the input changed before they run.
        let firing = self
            .table
            .fire_in(seam, payload, dialect, None, memory, req.known());
        let (hooks_fired, guards_fired): (Vec<Fired>, Vec<Fired>) =
            firing.fired.into_iter().partition(|f| {
                self.table
                    .rule(f.rule)
                    .is_none_or(|r| r.kind == RuleKind::Hook)
            });
        self.hooks(&mut st, hooks_fired);
        let runs = self.command_hooks(&mut st);
        if let Some((_, ui)) = &runs.updated_input
            && st.current.is_object()
            && let Some(obj) = st.current.to_mut().as_object_mut()
        {
            obj.insert("tool_input".into(), ui.clone());
            st.input_changed = true;
        }
        if seam == Seam::PreTool {
            self.guards(&mut st, guards_fired);
        }
        Self::unsure_ask(&mut st);

        // Patterns compile on first use: report any that failed (size limits).
        for e in self.table.seam_errors(seam) {
            st.warnings.push(format!("seamguard: {e}"));
        }
        let out = Self::finish(st, runs);
        if matches!(seam, Seam::Stop | Seam::SubagentStop)
            && let Some(l) = &self.ledger
        {
            if out.verdict() == Verdict::Continue {
                l.set(&budget.key, budget.used.saturating_add(1));
            } else if !budget.active {
                l.set(&budget.key, 0);
            }
        }
        (out, firing.effects)
    }

    /// Policies that failed to load: a warning each, and a deny where they fail closed.
    fn load_failures(&self, st: &mut Eval<'_>) {
        for f in self.table.failures() {
            let first = f.errors.first().map(|e| e.to_string()).unwrap_or_default();
            let n = f.errors.len();
            let plural = if n == 1 { "" } else { "s" };
            st.warnings.push(format!(
                "seamguard: policy {} has {n} error{plural} and some rules are not enforced (run `seamguard check`): {first}",
                f.policy.file
            ));
            if (f.policy.on_load_error == OnLoadError::Deny || self.deny_load_errors)
                && matches!(st.seam, Seam::PreTool | Seam::PermissionRequest)
            {
                st.contributions.push(Contribution {
                    rule: LOAD_ERROR_RULE.to_string(),
                    source: None,
                    guard: true,
                    verdict: Verdict::Deny,
                    reason: Some(if f.policy.on_load_error == OnLoadError::Deny {
                        format!(
                            "seamguard policy {file} failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check {file}`), or set `on_load_error = \"warn\"` in its [policy] table to let calls through while it is broken",
                            file = f.policy.file
                        )
                    } else {
                        // Denied by the embedding (`with_load_errors_denied`): the file's
                        // own setting cannot let calls through, so it is not suggested.
                        format!(
                            "seamguard policy {file} failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check {file}`)",
                            file = f.policy.file
                        )
                    }),
                    context: None,
                    halt: None,
                    observe: false,
                });
                if self.observing(Some(&f.policy)) {
                    if let Some(c) = st.contributions.last_mut() {
                        c.observe = true;
                    }
                    st.observed.push(st.contributions.len() - 1);
                }
            }
        }
    }

    /// The fired hook rules, in declared order; a prompt rewrite re-fires the rules after
    /// the rewriting one on the rewritten prompt (waterfall).
    fn hooks(&self, st: &mut Eval<'_>, mut fired: Vec<Fired>) {
        let mut i = 0;
        while let Some(f) = fired.get(i).cloned() {
            i += 1;
            let Some(rule) = self.table.rule(f.rule) else {
                continue;
            };
            if self.hook(st, &f, rule) {
                // Later rules see the rewritten prompt.
                let refired = self
                    .table
                    .fire_in(
                        st.seam,
                        &st.current,
                        st.dialect,
                        Some(RuleKind::Hook),
                        st.memory,
                        Known::default(),
                    )
                    .fired;
                let mut rest: Vec<Fired> =
                    refired.into_iter().filter(|x| x.rule > f.rule).collect();
                fired.truncate(i);
                fired.append(&mut rest);
            }
        }
    }

    /// Apply one fired hook rule; returns whether it rewrote the prompt.
    fn hook(&self, st: &mut Eval<'_>, f: &Fired, rule: &Rule) -> bool {
        let a = &rule.action;
        let meta = self.table.policies().get(rule.policy);
        let mut verdict = match a.decision {
            Some(DecisionValue::Allow) => Verdict::Allow,
            Some(DecisionValue::Deny) => Verdict::Deny,
            Some(DecisionValue::Ask) => Verdict::Ask,
            Some(DecisionValue::Defer) => Verdict::Defer,
            Some(DecisionValue::Block) => Verdict::Block,
            None => Verdict::Abstain,
        };
        let mut reason = a.reason.clone();
        if let Some(why) = &f.unsure {
            let on_unsure = meta.map(|p| p.on_unsure).unwrap_or_default();
            // A rule that only decides (asks or denies) asks once for the whole call, with
            // the unresolved part as the reason.
            let decides_only = matches!(verdict, Verdict::Ask | Verdict::Deny)
                && a.run.is_none()
                && a.context.is_none()
                && a.halt.is_none()
                && a.feedback.is_none()
                && a.continue_with.is_none()
                && a.redact.is_empty()
                && a.rewrite.is_none();
            if f.call_unsure
                && on_unsure == OnUnsure::Ask
                && st.seam == Seam::PreTool
                && decides_only
            {
                st.unsure.push(UnsureHit {
                    rule: rule.id.clone(),
                    why: why.clone(),
                    observe: self.observing(meta) || a.observe,
                    codex_ask: meta.map_or(CodexAsk::Deny, |m| m.codex_ask),
                });
                return false;
            }
            match on_unsure {
                OnUnsure::Ignore => return false,
                OnUnsure::Ask if st.seam == Seam::PreTool && verdict != Verdict::Allow => {
                    verdict = Verdict::Ask;
                }
                _ => {}
            }
            if verdict == Verdict::Allow {
                // Never allow what could not be seen.
                verdict = Verdict::Abstain;
            }
            let base = reason
                .clone()
                .or_else(|| default_reason(verdict, &rule.id))
                .unwrap_or_default();
            reason = Some(format!("{why}{CANNOT_RULE_OUT}{base}"));
        } else if let Some(m) = &f.matched {
            let base = reason.clone().or_else(|| default_reason(verdict, &rule.id));
            reason = base.map(|b| format!("{b}: {m}"));
        } else if let Some(cmd) = st
            .current
            .pointer("/tool_input/command")
            .and_then(Value::as_str)
            .filter(|c| c.chars().any(crate::shell::is_invisible))
        {
            // Case BY-08: show what will really run, invisible characters escaped.
            let base = reason.clone().or_else(|| default_reason(verdict, &rule.id));
            reason = base.map(|b| format!("{b}: `{}`", crate::shell::escape_invisible(cmd)));
        }
        if verdict == Verdict::Allow && meta.is_some_and(|p| p.scope == Scope::Project) {
            st.warnings.push(format!(
                "seamguard: rule `{}` ({}) is project-scope; its `allow` is not honoured (project policies may only tighten)",
                rule.id, rule.source
            ));
            verdict = Verdict::Abstain;
        }
        if let Some(fb) = &a.feedback {
            verdict = Verdict::Block;
            reason = Some(fb.clone());
        }
        if let Some(cw) = &a.continue_with {
            if st.used < a.max_continuations {
                verdict = Verdict::Continue;
                reason = Some(cw.clone());
            } else if let Some(why) = &st.ledger_unusable {
                st.warnings.push(format!(
                    "seamguard: rule `{}` would continue, but its continuation budget counts as spent because {why}; letting the agent stop",
                    rule.id
                ));
            } else {
                st.warnings.push(format!(
                    "seamguard: rule `{}` would continue, but its budget of {} continuation(s) per turn is used (stop_hook_active); letting the agent stop",
                    rule.id, a.max_continuations
                ));
            }
        }
        if self.observing(meta) {
            // Record what it would do; change nothing (no rewrite, redaction or run).
            if reason.is_none() {
                reason = default_reason(verdict, &rule.id);
            }
            if let (Some(run), Verdict::Abstain) = (&a.run, verdict) {
                reason = Some(format!("would run command hook `{}`", run.command));
            }
            let mut c = self.contribution(rule, verdict, reason);
            c.observe = true;
            st.observed.push(st.contributions.len());
            st.contributions.push(c);
            return false;
        }
        if verdict == Verdict::Ask {
            st.codex_ask
                .push(meta.map_or(CodexAsk::Deny, |m| m.codex_ask));
        }
        if st.seam == Seam::PromptSubmit && a.decision == Some(DecisionValue::Block) {
            st.suppress_prompt |= a.suppress_prompt;
        }
        let rewritten = self.rewrite(st, f.rule, rule);
        if !a.redact.is_empty() && self.redact(st, f.rule, rule) && verdict == Verdict::Abstain {
            verdict = Verdict::Redact;
        }
        if reason.is_none() {
            reason = default_reason(verdict, &rule.id);
        }
        if let Some(run) = &a.run {
            if meta.is_none_or(|p| p.trusted) {
                st.to_run.push(CommandHook {
                    id: rule.id.clone(),
                    command: run.command.clone(),
                    timeout_ms: run.timeout_ms,
                    on_error: run.on_error,
                    source: Some(rule.source.clone()),
                    env: run.env.clone(),
                    detached: run.detached,
                });
            } else {
                st.warnings.push(format!(
                    "seamguard: NOT running command hook `{}` ({}): {} is a project file you have not trusted; review it, then run `seamguard trust {}`",
                    rule.id, rule.source, rule.source.file, rule.source.file
                ));
            }
            let only_run = verdict == Verdict::Abstain
                && a.context.is_none()
                && a.halt.is_none()
                && !a.observe;
            if only_run {
                return rewritten;
            }
        }
        st.contributions
            .push(self.contribution(rule, verdict, reason));
        rewritten
    }

    /// A rule's prompt rewrite; returns whether the prompt changed.
    fn rewrite(&self, st: &mut Eval<'_>, g: u32, rule: &Rule) -> bool {
        let Some(rw) = &rule.action.rewrite else {
            return false;
        };
        if st.recheck && !matches!(rw, Rewrite::Replace { .. }) {
            return false;
        }
        let next = {
            let prompt = st
                .current
                .get("prompt")
                .and_then(Value::as_str)
                .unwrap_or("");
            let next: Cow<'_, str> = match rw {
                Rewrite::Prepend(p) => Cow::Owned(format!("{p}{prompt}")),
                Rewrite::Append(p) => Cow::Owned(format!("{prompt}{p}")),
                Rewrite::Replace { replace, .. } => {
                    match self
                        .table
                        .action_regexes(g)
                        .and_then(|x| x.rewrite.as_ref())
                    {
                        Some(Ok(re)) => re.replace_all(prompt, replace.as_str()),
                        Some(Err(e)) => {
                            st.warnings
                                .push(format!("seamguard: rule `{}`: rewrite regex: {e}", rule.id));
                            Cow::Borrowed(prompt)
                        }
                        None => Cow::Borrowed(prompt),
                    }
                }
            };
            (next != prompt).then(|| next.into_owned())
        };
        let Some(next) = next else {
            return false;
        };
        if let Some(obj) = st.current.to_mut().as_object_mut() {
            obj.insert("prompt".into(), Value::String(next.clone()));
        }
        st.input_changed = true;
        st.rewritten_prompt = Some(next);
        true
    }

    /// A rule's redactions of the tool response (applied to what earlier rules redacted);
    /// returns whether anything was redacted.
    fn redact(&self, st: &mut Eval<'_>, g: u32, rule: &Rule) -> bool {
        let mut res: Vec<(&regex::Regex, &str)> = Vec::new();
        if let Some(compiled) = self.table.action_regexes(g) {
            for (c, r) in compiled.redact.iter().zip(&rule.action.redact) {
                match c {
                    Ok(re) => res.push((re, r.replace.as_str())),
                    Err(e) => st
                        .warnings
                        .push(format!("seamguard: rule `{}`: redact regex: {e}", rule.id)),
                }
            }
        }
        let earlier = st.redacted.take();
        let had_earlier = earlier.is_some();
        let mut v = earlier
            .or_else(|| st.current.get("tool_response").cloned())
            .unwrap_or(Value::Null);
        let changed = redact_value(&mut v, &res);
        if changed || had_earlier {
            st.redacted = Some(v);
        }
        changed
    }

    /// Run the command hooks of the fired `run` rules concurrently (or list them as pending
    /// without a runner), decoded as the host would.
    fn command_hooks(&self, st: &mut Eval<'_>) -> CommandHookResults {
        let mut out = CommandHookResults::default();
        if st.to_run.is_empty() {
            return out;
        }
        let Some(runner) = &self.runner else {
            for h in &st.to_run {
                out.pending.push((h.id.clone(), h.command.clone()));
            }
            return out;
        };
        let input = serde_json::to_vec(&*st.current).unwrap_or_default();
        let cx = RunContext {
            dialect: st.dialect,
            cwd: st
                .current
                .get("cwd")
                .and_then(Value::as_str)
                .map(str::to_string),
            project_dir: self.project_dir.clone(),
        };
        let results = runner.run(&st.to_run, &input, &cx);
        let tool_name = st
            .current
            .get("tool_name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        for (h, res) in st.to_run.iter().zip(results) {
            // A detached run decides nothing (this one-shot evaluation still waits for it,
            // so the process ends quiescent); it is reported with the others.
            let c = if h.detached {
                None
            } else {
                hook_contribution(
                    (st.seam, st.dialect, &tool_name),
                    h,
                    &res,
                    &mut st.warnings,
                    &mut out.updated_input,
                )
            };
            if let Some(c) = c {
                st.contributions.push(c);
            }
            out.ran.push(res.hook_run(h));
        }
        out
    }

    /// Guards judge the final input (re-checked if hooks changed it).
    fn guards(&self, st: &mut Eval<'_>, mut fired: Vec<Fired>) {
        if st.input_changed {
            fired = self
                .table
                .fire_in(
                    st.seam,
                    &st.current,
                    st.dialect,
                    Some(RuleKind::Guard),
                    st.memory,
                    Known::default(),
                )
                .fired;
        }
        for f in fired {
            let Some(rule) = self.table.rule(f.rule) else {
                continue;
            };
            let meta = self.table.policies().get(rule.policy);
            if let Some(why) = &f.unsure {
                // What a guard cannot check is asked about, once for the call, unless its
                // policy chose `on_unsure = "deny"` (or `"ignore"`).
                match meta.map(|p| p.on_unsure).unwrap_or_default() {
                    OnUnsure::Ask if f.call_unsure => {
                        st.unsure.push(UnsureHit {
                            rule: rule.id.clone(),
                            why: why.clone(),
                            observe: self.observing(meta) || rule.action.observe,
                            codex_ask: meta.map_or(CodexAsk::Deny, |m| m.codex_ask),
                        });
                        continue;
                    }
                    OnUnsure::Ask => {
                        // Only this guard's own effect is undecidable (a computed path): it
                        // asks, saying what it could not see.
                        let base =
                            rule.action.reason.clone().unwrap_or_else(|| {
                                format!("Denied by seamguard guard `{}`", rule.id)
                            });
                        let mut c = self.contribution(
                            rule,
                            Verdict::Ask,
                            Some(format!("{why}{CANNOT_RULE_OUT}{base}")),
                        );
                        c.guard = true;
                        if self.observing(meta) {
                            c.observe = true;
                            st.observed.push(st.contributions.len());
                        } else {
                            st.codex_ask
                                .push(meta.map_or(CodexAsk::Deny, |m| m.codex_ask));
                        }
                        st.contributions.push(c);
                        continue;
                    }
                    OnUnsure::Ignore => continue,
                    OnUnsure::Deny => {}
                }
            }
            let base = rule
                .action
                .reason
                .clone()
                .unwrap_or_else(|| format!("Denied by seamguard guard `{}`", rule.id));
            let reason = match (&f.unsure, &f.matched) {
                // `on_unsure = "deny"`: say so, so the reason is not read as a finding.
                // The guard's own reason would read like a finding ("Disk and partition
                // tools…" on a line that does not parse): say only why it could not check.
                (Some(why), _) => {
                    format!(
                        "{why}; this policy denies what seamguard cannot check (on_unsure = \"deny\")"
                    )
                }
                (None, Some(m)) => format!("{base}: {m}"),
                (None, None) => base,
            };
            let mut c =
                Contribution::from_guard(&rule.id, Some(rule.source.clone()), GuardDeny { reason });
            if self.observing(meta) {
                c.observe = true;
                st.observed.push(st.contributions.len());
            }
            st.contributions.push(c);
        }
    }

    /// The one `ask` for what could not be resolved: the distinct causes, and how many rules
    /// could be involved (enforced and observed rules apart).
    fn unsure_ask(st: &mut Eval<'_>) {
        let hits = std::mem::take(&mut st.unsure);
        for observe in [false, true] {
            let mine: Vec<&UnsureHit> = hits.iter().filter(|h| h.observe == observe).collect();
            let Some(first) = mine.first() else {
                continue;
            };
            let mut causes: Vec<&str> = Vec::new();
            for h in &mine {
                if !causes.contains(&h.why.as_str()) {
                    causes.push(&h.why);
                }
            }
            let mut rules: Vec<&str> = mine.iter().map(|h| h.rule.as_str()).collect();
            rules.dedup();
            let shown = causes
                .iter()
                .take(MAX_UNSURE_CAUSES)
                .copied()
                .collect::<Vec<_>>()
                .join("; ");
            let more = causes.len().saturating_sub(MAX_UNSURE_CAUSES);
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            let reason = format!(
                "{shown}{more}: seamguard cannot check this part of the call, so it asks (it could concern {})",
                named_rules(&rules)
            );
            if observe {
                st.observed.push(st.contributions.len());
            } else {
                st.codex_ask.push(first.codex_ask);
            }
            st.contributions.push(Contribution {
                rule: UNSURE_RULE.to_string(),
                source: None,
                guard: false,
                verdict: Verdict::Ask,
                reason: Some(reason),
                context: None,
                halt: None,
                observe,
            });
        }
    }

    /// Merge the contributions, with what observe-mode rules would have decided.
    fn finish(st: Eval<'_>, runs: CommandHookResults) -> Outcome {
        let would = if st.observed.is_empty() {
            None
        } else {
            let mut all = st.contributions.clone();
            for &i in &st.observed {
                if let Some(c) = all.get_mut(i) {
                    c.observe = false;
                }
            }
            let w = merge(st.seam, all);
            let rules = st
                .observed
                .iter()
                .filter_map(|&i| st.contributions.get(i))
                .filter(|c| {
                    c.verdict != Verdict::Abstain || c.context.is_some() || c.halt.is_some()
                })
                .map(|c| c.rule.clone())
                .collect::<Vec<_>>();
            (!rules.is_empty()).then(|| Observed {
                verdict: w.verdict(),
                reason: w.reason_text(),
                rules,
            })
        };
        let mut out = merge(st.seam, st.contributions);
        out.observed = would;
        out.pending_runs = runs.pending;
        out.hook_runs = runs.ran;
        if matches!(out.verdict(), Verdict::Allow | Verdict::Ask) {
            out.updated_input = runs.updated_input.map(|(_, v)| v);
        }
        out.rewritten_prompt = st.rewritten_prompt;
        out.redacted_response = st.redacted;
        out.suppress_prompt = st.suppress_prompt && out.verdict() == Verdict::Block;
        out.warnings = st.warnings;
        out.codex_ask = st.codex_ask;
        out
    }
}
