//! The seam evaluator: one event in, one merged [`Outcome`] out.
//!
//! Order at a seam (DESIGN.md §2, interception-seams seed): hooks in declared order (a
//! waterfall: a prompt rewrite is seen by later rules) → guards (pre-tool only, deny-only,
//! judged on the final input) → most-restrictive merge. Stop seams honour `stop_hook_active`
//! and a per-turn continuation budget kept in a [`ContinuationLedger`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::Value;

use crate::codec::{HookResponse, decode_hook_output};
use crate::decision::HookRun;
use crate::decision::{Contribution, GuardDeny, Observed, Outcome, Verdict, merge};
use crate::dialect::Dialect;
use crate::policy::OnError;
use crate::policy::{
    CodexAsk, DecisionValue, OnLoadError, OnUnsure, PolicyMode, Rewrite, Rule, RuleKind, Scope,
};
use crate::runner::{CommandHook, HookRunner, RunContext, RunResult};
use crate::seam::Seam;
use crate::table::{DecisionTable, Fired};

/// Rule id used for contributions seamguard makes itself (fail-closed load errors).
pub const LOAD_ERROR_RULE: &str = "seamguard:load-error";

/// Where the per-turn continuation count of stop seams is kept between hook invocations.
///
/// The key names a session, seam and agent. Implementations must not fail: a store that
/// cannot be read counts as "budget exhausted" (no endless loops).
pub trait ContinuationLedger: Send + Sync {
    /// Continuations already granted in the current chain.
    fn used(&self, key: &str) -> u32;
    /// Record the count for the current chain.
    fn set(&self, key: &str, n: u32);
}

/// In-memory ledger (replay, embedding, tests).
#[derive(Debug, Default)]
pub struct MemoryLedger(Mutex<HashMap<String, u32>>);

impl ContinuationLedger for MemoryLedger {
    fn used(&self, key: &str) -> u32 {
        self.0
            .lock()
            .map(|m| m.get(key).copied().unwrap_or(0))
            .unwrap_or(u32::MAX)
    }

    fn set(&self, key: &str, n: u32) {
        if let Ok(mut m) = self.0.lock() {
            m.insert(key.to_string(), n);
        }
    }
}

/// File ledger: one small file per key under a state folder (the hook binary is spawned
/// once per event, so the count must outlive the process).
#[derive(Debug, Clone)]
pub struct FileLedger {
    dir: PathBuf,
}

impl FileLedger {
    /// A ledger under `dir` (created on first write).
    pub fn new(dir: PathBuf) -> FileLedger {
        FileLedger { dir }
    }

    fn path(&self, key: &str) -> PathBuf {
        let safe: String = key
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(safe)
    }
}

impl ContinuationLedger for FileLedger {
    fn used(&self, key: &str) -> u32 {
        match std::fs::read_to_string(self.path(key)) {
            Ok(s) => s.trim().parse().unwrap_or(u32::MAX),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(_) => u32::MAX,
        }
    }

    fn set(&self, key: &str, n: u32) {
        let p = self.path(key);
        if n == 0 && !p.exists() {
            return;
        }
        let _ = std::fs::create_dir_all(&self.dir);
        let _ = std::fs::write(p, n.to_string());
    }
}

/// Evaluates events against a [`DecisionTable`].
pub struct Engine {
    table: DecisionTable,
    ledger: Option<Box<dyn ContinuationLedger>>,
    runner: Option<Box<dyn HookRunner>>,
    project_dir: Option<String>,
    enforce_observed: bool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

fn default_reason(v: Verdict, id: &str) -> Option<String> {
    match v {
        Verdict::Deny => Some(format!("Denied by seamguard rule `{id}`")),
        Verdict::Ask => Some(format!("seamguard rule `{id}` asks for approval")),
        Verdict::Defer => Some(format!("Deferred by seamguard rule `{id}`")),
        Verdict::Block => Some(format!("Blocked by seamguard rule `{id}`")),
        _ => None,
    }
}

/// Why an `updatedInput` cannot replace a tool's input (HOOKS.md A5.4: it replaces the
/// whole input; B3: Bash and `apply_patch` need a string `command`), if it cannot.
fn invalid_rewrite(tool_name: &str, ui: &Value) -> Option<String> {
    let Value::Object(m) = ui else {
        return Some(
            "updatedInput must be a JSON object (it replaces the whole tool input)".into(),
        );
    };
    let needs: &[&str] = match tool_name {
        "Bash" | "PowerShell" | "apply_patch" => &["command"],
        "Write" => &["file_path", "content"],
        "Edit" => &["file_path", "old_string", "new_string"],
        "Read" => &["file_path"],
        _ => &[],
    };
    needs
        .iter()
        .find(|k| !m.get(**k).is_some_and(Value::is_string))
        .map(|k| {
            format!("updatedInput replaces the whole input and has no string `{k}` for {tool_name}")
        })
}

fn redact_value(v: &mut Value, res: &[(regex::Regex, &str)]) -> bool {
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

impl Engine {
    /// An engine without a continuation ledger: on a stop seam with `stop_hook_active`,
    /// no rule may continue again (the safe reading of an unknown count).
    pub fn new(table: DecisionTable) -> Engine {
        Engine {
            table,
            ledger: None,
            runner: None,
            project_dir: None,
            enforce_observed: false,
        }
    }

    /// Evaluate `[policy] mode = "observe"` rules as if enforced. `seamguard test` and
    /// `replay` do this: they act on nothing, and a test states what a rule would decide.
    pub fn with_observe_enforced(mut self, yes: bool) -> Engine {
        self.enforce_observed = yes;
        self
    }

    /// Whether rules of policy `p` only record what they would decide (`mode = "observe"`).
    fn observing(&self, p: usize) -> bool {
        !self.enforce_observed
            && self
                .table
                .policies()
                .get(p)
                .is_some_and(|m| m.mode == PolicyMode::Observe)
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

    /// Turn one command-hook run into a contribution (or a warning), as the host would read
    /// it; `on_error = "deny"` turns any failure into a deny.
    fn hook_contribution(
        &self,
        (seam, dialect, tool_name): (Seam, Dialect, &str),
        h: &CommandHook,
        res: &RunResult,
        warnings: &mut Vec<String>,
        updated_input: &mut Option<(String, Value)>,
    ) -> Option<Contribution> {
        let where_ = h
            .source
            .as_ref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let resp = if res.timed_out || res.spawn_error.is_some() {
            HookResponse {
                error: res.failure(),
                ..HookResponse::default()
            }
        } else {
            decode_hook_output(dialect, seam, res.exit_code, &res.stdout, &res.stderr)
        };
        let truncated = (res.stdout_truncated || res.stderr_truncated).then(|| {
            format!(
                "wrote more than {} bytes (output truncated)",
                crate::runner::OUTPUT_CAP_BYTES
            )
        });
        // A run that produced a decision (exit 2 with stderr, or schema-valid JSON on any exit
        // code in Claude Code) is applied; what was wrong with it is only reported.
        let decided = resp.verdict.is_some();
        let invalid_rewrite = resp
            .updated_input
            .as_ref()
            .and_then(|ui| invalid_rewrite(tool_name, ui));
        let problem = res
            .failure()
            .filter(|_| !decided)
            .or_else(|| resp.error.clone())
            .or(truncated)
            .or_else(|| invalid_rewrite.clone());
        if let Some(f) = &problem {
            if !decided && h.on_error == OnError::Deny {
                let v = match seam {
                    Seam::PreTool | Seam::PermissionRequest => Some(Verdict::Deny),
                    Seam::PromptSubmit | Seam::PostTool | Seam::PreCompact => Some(Verdict::Block),
                    _ => None,
                };
                if let Some(v) = v {
                    return Some(Contribution {
                        rule: h.id.clone(),
                        source: h.source.clone(),
                        guard: false,
                        verdict: v,
                        reason: Some(format!(
                            "command hook `{}` failed and is set to fail closed (on_error = \"deny\"): {f}",
                            h.id
                        )),
                        context: None,
                        halt: None,
                        observe: false,
                    });
                }
            }
            if decided {
                warnings.push(format!(
                    "seamguard: command hook `{}`{where_}: {f}; its decision ({}) still applies",
                    h.id,
                    resp.verdict().name()
                ));
            } else {
                warnings.push(format!(
                    "seamguard: command hook `{}`{where_} failed, no decision taken: {f}",
                    h.id
                ));
            }
        }
        if let Some(m) = &resp.system_message {
            warnings.push(m.clone());
        }
        let mut verdict = resp.verdict();
        if verdict == Verdict::Allow && h.source.as_ref().is_some_and(|s| s.scope == Scope::Project)
        {
            warnings.push(format!(
                "seamguard: command hook `{}`{where_} is project-scope; its `allow` is not honoured",
                h.id
            ));
            verdict = Verdict::Abstain;
        }
        if let Some(why) = &invalid_rewrite {
            // Case HK-14: never run something the hook did not mean; ask instead.
            if matches!(verdict, Verdict::Allow | Verdict::Abstain) && seam == Seam::PreTool {
                verdict = Verdict::Ask;
            }
            return Some(Contribution {
                rule: h.id.clone(),
                source: h.source.clone(),
                guard: false,
                verdict,
                reason: Some(format!(
                    "invalid rewrite from command hook `{}`: {why}",
                    h.id
                )),
                context: resp.context,
                halt: resp.halt,
                observe: false,
            });
        }
        if let Some(ui) = &resp.updated_input {
            if let Some((prev, old)) = updated_input.as_ref()
                && old != ui
            {
                warnings.push(format!(
                        "seamguard: command hooks `{prev}` and `{}` both rewrite the tool input; using `{}` (the later one in declared order)",
                        h.id, h.id
                    ));
            }
            *updated_input = Some((h.id.clone(), ui.clone()));
        }
        if verdict == Verdict::Abstain && resp.context.is_none() && resp.halt.is_none() {
            return None;
        }
        let reason = resp
            .reason
            .filter(|r| !r.trim().is_empty())
            .or_else(|| default_reason(verdict, &h.id));
        Some(Contribution {
            rule: h.id.clone(),
            source: h.source.clone(),
            guard: false,
            verdict,
            reason,
            context: resp.context,
            halt: resp.halt,
            observe: false,
        })
    }

    /// Evaluate one payload at its seam.
    ///
    /// `payload` is the hook input as JSON (its `hook_event_name` is not re-read: `seam`
    /// decides). Never fails; problems become warnings in the outcome.
    pub fn evaluate(&self, seam: Seam, payload: &Value, dialect: Dialect) -> Outcome {
        let mut contributions: Vec<Contribution> = Vec::new();
        let mut warnings: Vec<String> = Vec::new();
        let mut rewritten_prompt: Option<String> = None;
        let mut redacted: Option<Value> = None;
        let mut suppress_prompt = false;
        let mut ask_policies: Vec<usize> = Vec::new();
        // Contributions of observe-mode policies (indices into `contributions`).
        let mut observed: Vec<usize> = Vec::new();

        for f in self.table.failures() {
            let first = f.errors.first().map(|e| e.to_string()).unwrap_or_default();
            let n = f.errors.len();
            let plural = if n == 1 { "" } else { "s" };
            warnings.push(format!(
                "seamguard: policy {} has {n} error{plural} and some rules are not enforced (run `seamguard check`): {first}",
                f.policy.file
            ));
            if f.policy.on_load_error == OnLoadError::Deny
                && matches!(seam, Seam::PreTool | Seam::PermissionRequest)
            {
                contributions.push(Contribution {
                    rule: LOAD_ERROR_RULE.to_string(),
                    source: None,
                    guard: true,
                    verdict: Verdict::Deny,
                    reason: Some(format!(
                        "seamguard policy {} failed to load and is set to fail closed (on_load_error = \"deny\"): {first}",
                        f.policy.file
                    )),
                    context: None,
                    halt: None,
                    observe: false,
                });
                if !self.enforce_observed && f.policy.mode == PolicyMode::Observe {
                    if let Some(c) = contributions.last_mut() {
                        c.observe = true;
                    }
                    observed.push(contributions.len() - 1);
                }
            }
        }

        // Stop-seam budget.
        let stop_active = payload
            .get("stop_hook_active")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let ledger_key = format!(
            "{}-{}-{}",
            payload
                .get("session_id")
                .and_then(Value::as_str)
                .unwrap_or("nosession"),
            seam.name(),
            payload
                .get("agent_id")
                .and_then(Value::as_str)
                .unwrap_or("main"),
        );
        let used = if matches!(seam, Seam::Stop | Seam::SubagentStop) {
            if !stop_active {
                0
            } else {
                self.ledger
                    .as_ref()
                    .map_or(u32::MAX, |l| l.used(&ledger_key))
            }
        } else {
            0
        };

        // Hooks, in declared order (waterfall for prompt rewrites).
        let mut current = payload.clone();
        let mut to_run: Vec<CommandHook> = Vec::new();
        // One pass finds hooks and guards together (the command line is analysed once);
        // guards are re-checked only if the input changed before they run.
        let (hooks_fired, mut guards_fired): (Vec<Fired>, Vec<Fired>) = self
            .table
            .fire_detailed(seam, &current, dialect, None)
            .into_iter()
            .partition(|f| {
                self.table
                    .rule(f.rule)
                    .is_none_or(|r| r.kind == RuleKind::Hook)
            });
        let mut fired = hooks_fired;
        let mut input_changed = false;
        let mut i = 0;
        while let Some(f) = fired.get(i).cloned() {
            i += 1;
            let g = f.rule;
            let Some(rule) = self.table.rule(g) else {
                continue;
            };
            let a = &rule.action;
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
                let on_unsure = self
                    .table
                    .policies()
                    .get(rule.policy)
                    .map(|p| p.on_unsure)
                    .unwrap_or_default();
                match on_unsure {
                    OnUnsure::Ignore => continue,
                    OnUnsure::Ask if seam == Seam::PreTool && verdict != Verdict::Allow => {
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
                reason = Some(format!("{why}; seamguard cannot rule out: {base}"));
            } else if let Some(m) = &f.matched {
                let base = reason.clone().or_else(|| default_reason(verdict, &rule.id));
                reason = base.map(|b| format!("{b}: {m}"));
            } else if let Some(cmd) = current
                .pointer("/tool_input/command")
                .and_then(Value::as_str)
                .filter(|c| c.chars().any(crate::shell::is_invisible))
            {
                // Case BY-08: show what will really run, invisible characters escaped.
                let base = reason.clone().or_else(|| default_reason(verdict, &rule.id));
                reason = base.map(|b| format!("{b}: `{}`", crate::shell::escape_invisible(cmd)));
            }
            if verdict == Verdict::Allow
                && self
                    .table
                    .policies()
                    .get(rule.policy)
                    .is_some_and(|p| p.scope == Scope::Project)
            {
                warnings.push(format!(
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
                if used < a.max_continuations {
                    verdict = Verdict::Continue;
                    reason = Some(cw.clone());
                } else {
                    warnings.push(format!(
                        "seamguard: rule `{}` would continue, but its budget of {} continuation(s) per turn is used (stop_hook_active); letting the agent stop",
                        rule.id, a.max_continuations
                    ));
                }
            }
            if self.observing(rule.policy) {
                // Record what it would do; change nothing (no rewrite, redaction or run).
                if reason.is_none() {
                    reason = default_reason(verdict, &rule.id);
                }
                if let (Some(run), Verdict::Abstain) = (&a.run, verdict) {
                    reason = Some(format!("would run command hook `{}`", run.command));
                }
                let mut c = self.contribution(rule, verdict, reason);
                c.observe = true;
                observed.push(contributions.len());
                contributions.push(c);
                continue;
            }
            if verdict == Verdict::Ask {
                ask_policies.push(rule.policy);
            }
            if seam == Seam::PromptSubmit && a.decision == Some(DecisionValue::Block) {
                suppress_prompt |= a.suppress_prompt;
            }
            if let Some(rw) = &a.rewrite {
                let prompt = current
                    .get("prompt")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let next = match rw {
                    Rewrite::Prepend(p) => format!("{p}{prompt}"),
                    Rewrite::Append(p) => format!("{prompt}{p}"),
                    Rewrite::Replace { regex, replace } => match regex::Regex::new(regex) {
                        Ok(re) => re.replace_all(&prompt, replace.as_str()).into_owned(),
                        Err(e) => {
                            warnings
                                .push(format!("seamguard: rule `{}`: rewrite regex: {e}", rule.id));
                            prompt.clone()
                        }
                    },
                };
                if next != prompt {
                    if let Some(obj) = current.as_object_mut() {
                        obj.insert("prompt".into(), Value::String(next.clone()));
                    }
                    input_changed = true;
                    rewritten_prompt = Some(next);
                    // Later rules see the rewritten prompt.
                    let refired =
                        self.table
                            .fire_detailed(seam, &current, dialect, Some(RuleKind::Hook));
                    let mut rest: Vec<Fired> = refired.into_iter().filter(|x| x.rule > g).collect();
                    fired.truncate(i);
                    fired.append(&mut rest);
                }
            }
            if !a.redact.is_empty() {
                let mut res = Vec::new();
                for r in &a.redact {
                    match regex::Regex::new(&r.regex) {
                        Ok(re) => res.push((re, r.replace.as_str())),
                        Err(e) => warnings
                            .push(format!("seamguard: rule `{}`: redact regex: {e}", rule.id)),
                    }
                }
                let base = redacted
                    .clone()
                    .or_else(|| current.get("tool_response").cloned())
                    .unwrap_or(Value::Null);
                let mut v = base;
                if redact_value(&mut v, &res) {
                    redacted = Some(v);
                    if verdict == Verdict::Abstain {
                        verdict = Verdict::Redact;
                    }
                }
            }
            if reason.is_none() {
                reason = default_reason(verdict, &rule.id);
            }
            if let Some(run) = &a.run {
                let trusted = self
                    .table
                    .policies()
                    .get(rule.policy)
                    .is_none_or(|p| p.trusted);
                if trusted {
                    to_run.push(CommandHook {
                        id: rule.id.clone(),
                        command: run.command.clone(),
                        timeout_ms: run.timeout_ms,
                        on_error: run.on_error,
                        source: Some(rule.source.clone()),
                        env: run.env.clone(),
                    });
                } else {
                    warnings.push(format!(
                        "seamguard: NOT running command hook `{}` ({}): {} is a project file you have not trusted; review it, then run `seamguard trust {}`",
                        rule.id, rule.source, rule.source.file, rule.source.file
                    ));
                }
                let only_run = verdict == Verdict::Abstain
                    && a.context.is_none()
                    && a.halt.is_none()
                    && !a.observe;
                if only_run {
                    continue;
                }
            }
            contributions.push(self.contribution(rule, verdict, reason));
        }

        // Command hooks of the seam, concurrently; decoded as the host would.
        let mut pending_runs = Vec::new();
        let mut hook_runs = Vec::new();
        let mut updated_input: Option<(String, Value)> = None;
        if !to_run.is_empty() {
            match &self.runner {
                None => {
                    for h in &to_run {
                        pending_runs.push((h.id.clone(), h.command.clone()));
                    }
                }
                Some(runner) => {
                    let input = serde_json::to_vec(&current).unwrap_or_default();
                    let cx = RunContext {
                        dialect,
                        cwd: current
                            .get("cwd")
                            .and_then(Value::as_str)
                            .map(str::to_string),
                        project_dir: self.project_dir.clone(),
                    };
                    let results = runner.run(&to_run, &input, &cx);
                    let tool_name = current
                        .get("tool_name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    for (h, res) in to_run.iter().zip(results) {
                        let c = self.hook_contribution(
                            (seam, dialect, &tool_name),
                            h,
                            &res,
                            &mut warnings,
                            &mut updated_input,
                        );
                        if let Some(c) = c {
                            contributions.push(c);
                        }
                        hook_runs.push(HookRun {
                            id: h.id.clone(),
                            command: h.command.clone(),
                            exit_code: res.exit_code,
                            timed_out: res.timed_out,
                            duration_ms: res.duration_ms,
                            failure: res.failure(),
                        });
                    }
                }
            }
        }
        if let Some((_, ui)) = &updated_input
            && let Some(obj) = current.as_object_mut()
        {
            obj.insert("tool_input".into(), ui.clone());
            input_changed = true;
        }

        // Guards judge the final input.
        if seam == Seam::PreTool {
            if input_changed {
                guards_fired =
                    self.table
                        .fire_detailed(seam, &current, dialect, Some(RuleKind::Guard));
            }
            for f in guards_fired {
                let Some(rule) = self.table.rule(f.rule) else {
                    continue;
                };
                let base = rule
                    .action
                    .reason
                    .clone()
                    .unwrap_or_else(|| format!("Denied by seamguard guard `{}`", rule.id));
                let reason = match (&f.unsure, &f.matched) {
                    // Guards fail closed: say so, so the reason is not read as a finding.
                    // The guard's own reason would read like a finding ("Disk and partition
                    // tools…" on a line that does not parse): say only why it could not check.
                    (Some(why), _) => {
                        format!("{why}; seamguard's guards deny what they cannot check")
                    }
                    (None, Some(m)) => format!("{base}: {m}"),
                    (None, None) => base,
                };
                let mut c = Contribution::from_guard(
                    &rule.id,
                    Some(rule.source.clone()),
                    GuardDeny { reason },
                );
                if self.observing(rule.policy) {
                    c.observe = true;
                    observed.push(contributions.len());
                }
                contributions.push(c);
            }
        }

        // Patterns compile on first use: report any that failed (size limits).
        for e in self.table.seam_errors(seam) {
            warnings.push(format!("seamguard: {e}"));
        }
        let would = if observed.is_empty() {
            None
        } else {
            let mut all = contributions.clone();
            for &i in &observed {
                if let Some(c) = all.get_mut(i) {
                    c.observe = false;
                }
            }
            let w = merge(seam, all);
            let rules = observed
                .iter()
                .filter_map(|&i| contributions.get(i))
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
        let mut out = merge(seam, contributions);
        out.observed = would;
        out.pending_runs = pending_runs;
        out.hook_runs = hook_runs;
        if matches!(out.verdict(), Verdict::Allow | Verdict::Ask) {
            out.updated_input = updated_input.map(|(_, v)| v);
        }
        out.rewritten_prompt = rewritten_prompt;
        out.redacted_response = redacted;
        out.suppress_prompt = suppress_prompt && out.verdict() == Verdict::Block;
        out.warnings = warnings;
        out.codex_ask = if !ask_policies.is_empty()
            && ask_policies.iter().all(|p| {
                self.table
                    .policies()
                    .get(*p)
                    .is_some_and(|m| m.codex_ask == CodexAsk::Ignore)
            }) {
            CodexAsk::Ignore
        } else {
            CodexAsk::Deny
        };
        if matches!(seam, Seam::Stop | Seam::SubagentStop)
            && let Some(l) = &self.ledger
        {
            if out.verdict() == Verdict::Continue {
                l.set(&ledger_key, used.saturating_add(1));
            } else if !stop_active {
                l.set(&ledger_key, 0);
            }
        }
        out
    }
}
