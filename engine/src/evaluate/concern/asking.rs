//! Which effects made each rule of an outcome ask: the concerns of an ask.
//!
//! In: the outcome of a pre-tool evaluation, the call's payload and effects, the table. Out:
//! one [`Concern`] per asking contribution (see [`super`]).
//!
//! Worked out after the evaluation and only for calls that ask, so the evaluation itself does
//! not change: each effect (and each simple command a shell test reads) is held against the
//! rule's effect and shell tests that stand in positive position of its `when`, **one at a
//! time**. The objects of a rule are those of every effect that holds (or is undecidable)
//! alone. That is all the effects a test could have matched, not only the first one the
//! evaluation found: an approval of a send to one host never covers a call that also sends
//! somewhere else.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use super::{Concern, Object, call_key, object_of};
use crate::compile::globs::PathGlobs;
use crate::compile::pred::EffectGlobs;
use crate::compile::table::DecisionTable;
use crate::decision::{Outcome, Verdict};
use crate::effects::{Effect, Effects, Route, What};
use crate::evaluate::effect_cond::{EffectContext, eval_effect};
use crate::evaluate::engine::Engine;
use crate::evaluate::reasons::UNSURE_RULE;
use crate::evaluate::shell_cond::{Folders, Judgement, eval_shell};
use crate::memory::SessionMemory;
use crate::policy::{Pred, Rule, Test};
use crate::seam::Seam;

impl Engine {
    /// The concerns of an outcome that asks: per asking rule, what it asked about (the host,
    /// path, package or program of the effects that made it ask, see [`super`]).
    /// Empty unless the outcome's verdict is `ask`. `effects` are the call's effects (as
    /// [`Engine::decide`] returned them, or [`crate::effects::effects_of`]) in an empty
    /// session memory ([`Engine::concerns_in`] takes the memory the outcome was judged in).
    ///
    /// ```
    /// use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, load_str};
    /// use seamguard_engine::concern::Object;
    /// let text = r#"
    /// [[rule]]
    /// id = "remote-login"
    /// seam = "pre-tool"
    /// when.sends = { host_not_in = ["example.com"] }
    /// decision = "ask"
    /// "#;
    /// let policy = load_str(text, "p.toml", Scope::User, 0);
    /// let engine = Engine::new(DecisionTable::new(vec![policy]));
    /// let payload = serde_json::json!({
    ///     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
    ///     "tool_name": "Bash", "tool_input": {"command": "ssh root@192.168.7.1 uptime"}
    /// });
    /// let outcome = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
    /// let fx = seamguard_engine::effects::effects_of(&payload, engine.table().env());
    /// let concerns = engine.concerns(Seam::PreTool, &payload, &outcome, &fx);
    /// assert_eq!(concerns[0].rule, "remote-login");
    /// assert_eq!(concerns[0].objects, [Object::Host { host: "192.168.7.1".into() }]);
    /// ```
    pub fn concerns(
        &self,
        seam: Seam,
        payload: &Value,
        outcome: &Outcome,
        effects: &crate::effects::Effects,
    ) -> Vec<super::Concern> {
        concerns(self.table(), seam, payload, outcome, effects, None)
    }

    /// [`Engine::concerns`] in an explicit session memory, the one the outcome was evaluated
    /// in ([`Engine::evaluate_in`]): `when.sends.earlier_read_inside` tests read its reads.
    pub fn concerns_in(
        &self,
        seam: Seam,
        payload: &Value,
        outcome: &Outcome,
        effects: &Effects,
        memory: &SessionMemory,
    ) -> Vec<Concern> {
        let memory = Some(memory).filter(|m| !m.is_empty());
        concerns(self.table(), seam, payload, outcome, effects, memory)
    }
}

/// The concerns of the asks in `outcome` (none unless its verdict is `ask`).
fn concerns(
    table: &DecisionTable,
    seam: Seam,
    payload: &Value,
    outcome: &Outcome,
    fx: &Effects,
    memory: Option<&SessionMemory>,
) -> Vec<Concern> {
    if outcome.verdict() != Verdict::Ask {
        return Vec::new();
    }
    let folders = Folders::of(payload);
    let whole = || Object::Call {
        key: call_key(payload).map_or_else(String::new, |k| k.to_string()),
    };
    let mut out: Vec<Concern> = Vec::new();
    for c in outcome
        .fired
        .iter()
        .filter(|c| !c.observe && c.verdict == Verdict::Ask)
    {
        let mut objects = if c.rule == UNSURE_RULE {
            // The causes, as the reason words them (without the count of rules).
            let reason = c.reason.as_deref().unwrap_or("");
            let cause = reason
                .split(": seamguard cannot check this part of the call")
                .next()
                .unwrap_or(reason);
            vec![Object::Cause {
                text: cause.to_string(),
            }]
        } else {
            match table
                .rules()
                .iter()
                .find(|r| r.id == c.rule && r.seam == seam)
            {
                Some(rule) => matched_objects(rule, payload, fx, table, &folders, memory),
                None => Vec::new(),
            }
        };
        if objects.is_empty() {
            objects.push(whole());
        }
        objects.dedup();
        match out.iter_mut().find(|x| x.rule == c.rule) {
            Some(x) => {
                for o in objects {
                    if !x.objects.contains(&o) {
                        x.objects.push(o);
                    }
                }
            }
            None => out.push(Concern {
                rule: c.rule.clone(),
                objects,
            }),
        }
    }
    out
}

/// The objects of the effects that hold one of `rule`'s positive effect or shell tests alone.
fn matched_objects(
    rule: &Rule,
    payload: &Value,
    fx: &Effects,
    table: &DecisionTable,
    folders: &Folders<'_>,
    memory: Option<&SessionMemory>,
) -> Vec<Object> {
    let project = folders.project.as_deref();
    let mut leaves = Vec::new();
    if let Some(w) = &rule.when {
        positive_leaves(w, true, &mut leaves);
    }
    let env = table.env();
    let cache = RefCell::new(HashMap::new());
    let mut objects: Vec<Object> = Vec::new();
    let mut add = |o: Option<Object>| {
        if let Some(o) = o
            && !objects.contains(&o)
        {
            objects.push(o);
        }
    };
    for (field, test) in leaves {
        match test {
            Test::Effect(t) => {
                let globs = EffectGlobs::build(t, &env.home);
                for e in fx.of(t.kind) {
                    let one = Effects {
                        list: vec![e.clone()],
                    };
                    let ecx = EffectContext {
                        env,
                        memory,
                        payload,
                        folders,
                        cache: &cache,
                        runs: None,
                    };
                    if !matches!(eval_effect(t, &globs, &one, &ecx), Judgement::No) {
                        match &e.what {
                            What::Run(c) => run_objects(c, fx, table, project)
                                .into_iter()
                                .for_each(|o| add(Some(o))),
                            _ => add(object_of(e, env, project)),
                        }
                    }
                }
            }
            Test::Shell(t) => {
                let cwd = payload.get("cwd").and_then(Value::as_str);
                let Some(a) = field
                    .resolve(payload)
                    .and_then(|v| crate::shell::analyze_command(v, cwd))
                else {
                    continue;
                };
                let globs = PathGlobs::build(t, &env.home);
                for c in &a.commands {
                    let one = crate::shell::ShellAnalysis {
                        commands: vec![c.clone()],
                        ..Default::default()
                    };
                    if !matches!(
                        eval_shell(t, &globs, &one, env, folders, &cache),
                        Judgement::No
                    ) {
                        run_objects(c, fx, table, project)
                            .into_iter()
                            .for_each(|o| add(Some(o)));
                    }
                }
            }
            _ => {}
        }
    }
    objects
}

/// The objects of a program run that made a rule ask: the hosts it sends to, when it sends
/// (`ssh root@h …`, `scp f h:`: the concern is the destination, whatever the remote command or
/// file), else the program with its first operand in the project ([`object_of`]).
fn run_objects(
    c: &crate::shell::SimpleCommand,
    fx: &Effects,
    table: &DecisionTable,
    project: Option<&str>,
) -> Vec<Object> {
    let words = crate::shell::SimpleCommand {
        via: Vec::new(),
        ..c.clone()
    }
    .display_words();
    let env = table.env();
    let hosts: Vec<Object> = fx
        .list
        .iter()
        .filter(|e| matches!(e.what, What::Send(_)) && e.route.command.as_deref() == Some(&words))
        .filter_map(|e| object_of(e, env, project))
        .collect();
    if !hosts.is_empty() {
        return hosts;
    }
    let e = Effect {
        what: What::Run(c.clone()),
        route: Route::default(),
    };
    object_of(&e, env, project).into_iter().collect()
}

/// The leaves of `p` in positive position (`when` itself, not under an odd number of `not`).
fn positive_leaves<'p>(
    p: &'p Pred,
    positive: bool,
    out: &mut Vec<(&'p crate::policy::Field, &'p Test)>,
) {
    match p {
        Pred::All(k) | Pred::Any(k) => {
            for c in k {
                positive_leaves(c, positive, out);
            }
        }
        Pred::Not(c) => positive_leaves(c, !positive, out),
        Pred::Sure(c) => positive_leaves(c, positive, out),
        Pred::Leaf(l) => {
            if positive {
                out.push((&l.field, &l.test));
            }
        }
    }
}
