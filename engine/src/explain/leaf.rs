//! A held leaf judged once more on its own, as the evaluator judges it: what it matched (the
//! effect with its route, the simple command) and which entries of its lists match alone.
//!
//! In: a [`Leaf`], the payload, its shell analysis if the evaluator made one. Out: a
//! [`Judgement`], the list entries that match on their own.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use serde_json::Value;

use super::label::path_spec;
use crate::compile::globs::PathGlobs;
use crate::compile::pred::EffectGlobs;
use crate::effects::Effects;
use crate::evaluate::effect_cond::{EffectContext, eval_effect};
use crate::evaluate::pred::text_as_written;
use crate::evaluate::shell_cond::{Folders, GlobCache, Judgement, eval_shell};
use crate::memory::SessionMemory;
use crate::policy::{EffectTest, Leaf, ShellTest, Test};
use crate::shell::ShellAnalysis;
use crate::shell_env::ShellEnv;

/// What rendering a trace needs besides the trace: the payload, the shell environment, and
/// the call's effects (found once, when a held effect test asks what it matched).
pub(super) struct Ctx<'a> {
    /// The event's payload.
    pub(super) payload: &'a Value,
    /// The table's shell environment.
    pub(super) env: &'a ShellEnv,
    /// The session memory the event is judged in (`None`: empty).
    pub(super) memory: Option<&'a SessionMemory>,
    /// The payload's `cwd` and project folder.
    pub(super) folders: Folders<'a>,
    /// The call's effects, found on first use.
    pub(super) effects: OnceCell<Effects>,
}

impl Ctx<'_> {
    fn effects(&self) -> &Effects {
        self.effects.get_or_init(|| {
            crate::effects::effects_in(
                self.payload,
                self.env,
                self.memory.unwrap_or(&SessionMemory::default()),
            )
        })
    }

    /// A leaf judged on its own, as the evaluator judges it (`analysis`: the shell analysis
    /// the evaluator made of the leaf's field, if any).
    pub(super) fn judge(&self, l: &Leaf, analysis: Option<&ShellAnalysis>) -> Judgement {
        let cache: GlobCache = RefCell::new(HashMap::new());
        match &l.test {
            Test::Shell(t) => {
                let globs = PathGlobs::build(t, &self.env.home);
                let made;
                let a = match analysis {
                    Some(a) => a,
                    None if l.field.name == "paths" => {
                        made = crate::shell::tool_paths(self.payload);
                        &made
                    }
                    None => {
                        let cwd = self.payload.get("cwd").and_then(Value::as_str);
                        match l
                            .field
                            .resolve(self.payload)
                            .and_then(|v| crate::shell::analyze_command(v, cwd))
                        {
                            Some(a) => {
                                made = a;
                                &made
                            }
                            None => return Judgement::No,
                        }
                    }
                };
                eval_shell(t, &globs, a, self.env, &self.folders, &cache)
            }
            Test::Effect(t) => {
                let globs = EffectGlobs::build(t, &self.env.home);
                let cx = EffectContext {
                    env: self.env,
                    memory: self.memory,
                    payload: self.payload,
                    folders: &self.folders,
                    cache: &cache,
                    runs: None,
                };
                eval_effect(t, &globs, self.effects(), &cx)
            }
            other => {
                let holds = match other {
                    Test::Equals(v) if !v.iter().all(Value::is_string) => {
                        crate::evaluate::pred::direct(&l.field, other, self.payload)
                    }
                    _ => l
                        .field
                        .resolve_text(self.payload)
                        .is_some_and(|text| text_as_written(other, &text)),
                };
                if holds {
                    Judgement::Yes(String::new())
                } else {
                    Judgement::No
                }
            }
        }
    }

    /// The entries of a held leaf's lists that match on their own: the leaf with one list cut
    /// to one entry still holds. Lists of one entry are left out (the label shows them), and
    /// so are exclusion lists (`path_outside`, `host_not_in`: what holds there is an absence).
    pub(super) fn entries(&self, l: &Leaf, analysis: Option<&ShellAnalysis>) -> Vec<String> {
        let mut out = Vec::new();
        let mut try_each =
            |key: &str, n: usize, make: &dyn Fn(usize) -> Leaf, show: &dyn Fn(usize) -> String| {
                if n < 2 {
                    return;
                }
                for i in 0..n {
                    if matches!(self.judge(&make(i), analysis), Judgement::Yes(_)) {
                        out.push(format!("{key} = {}", show(i)));
                    }
                }
            };
        let with = |test: Test| Leaf {
            field: l.field.clone(),
            test,
        };
        match &l.test {
            Test::Equals(v) => try_each(
                "equals",
                v.len(),
                &|i| with(Test::Equals(vec![v[i].clone()])),
                &|i| v[i].to_string(),
            ),
            Test::Regex(v) => try_each(
                "regex",
                v.len(),
                &|i| with(Test::Regex(vec![v[i].clone()].into())),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Glob(v) => try_each(
                "glob",
                v.len(),
                &|i| with(Test::Glob(vec![v[i].clone()].into())),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Contains(v) => try_each(
                "contains",
                v.len(),
                &|i| with(Test::Contains(vec![v[i].clone()].into())),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Prefix(v) => try_each(
                "prefix",
                v.len(),
                &|i| with(Test::Prefix(vec![v[i].clone()].into())),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Shell(t) => {
                for (key, get) in SHELL_LISTS {
                    let v = get(t);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_shell_list(&mut t, key, &v[i]);
                            with(Test::Shell(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
            }
            Test::Effect(t) => {
                for (key, get) in SHELL_LISTS {
                    let v = get(&t.shell);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_shell_list(&mut std::sync::Arc::make_mut(&mut t).shell, key, &v[i]);
                            with(Test::Effect(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
                for (key, get) in EFFECT_LISTS {
                    let v = get(t);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_effect_list(std::sync::Arc::make_mut(&mut t), key, &v[i]);
                            with(Test::Effect(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
            }
        }
        out
    }
}

/// A list of a shell test as text entries (paths as written).
type ShellList = fn(&ShellTest) -> Vec<String>;

/// The "any of" lists of a shell test whose entries explain a match.
const SHELL_LISTS: &[(&str, ShellList)] = &[
    ("program", |t| t.programs.to_vec()),
    ("subcommand", |t| t.subcommands.to_vec()),
    ("flags_any", |t| {
        t.flags_any.iter().map(|g| g.join("")).collect()
    }),
    ("args_any", |t| t.args_any.to_vec()),
    ("path_inside", |t| {
        t.path_inside.iter().map(path_spec).collect()
    }),
    ("push_to", |t| t.push_to.to_vec()),
];

/// Cut list `key` of `t` to the one entry `i` of its text form.
fn set_shell_list(t: &mut ShellTest, key: &str, entry: &str) {
    let pick = |v: &mut Vec<String>| v.retain(|x| x == entry);
    match key {
        "program" => pick(&mut t.programs),
        "subcommand" => pick(&mut t.subcommands),
        "flags_any" => t.flags_any.retain(|g| g.join("") == entry),
        "args_any" => pick(&mut t.args_any),
        "path_inside" => t.path_inside.retain(|p| path_spec(p) == entry),
        "push_to" => pick(&mut t.push_to),
        _ => {}
    }
}

/// A list of an effect test as text entries.
type EffectList = fn(&EffectTest) -> Vec<String>;

/// The "any of" lists of an effect test (besides its shell lists) whose entries explain a
/// match.
const EFFECT_LISTS: &[(&str, EffectList)] = &[
    ("host_in", |t| t.host_in.to_vec()),
    ("ip_class", |t| t.ip_class.to_vec()),
    ("scheme", |t| t.scheme.to_vec()),
    ("method", |t| t.method.to_vec()),
    ("body_from", |t| t.body_from.iter().map(path_spec).collect()),
    ("body_from_env", |t| t.body_from_env.to_vec()),
    ("target", |t| t.targets.to_vec()),
    ("manager", |t| t.managers.to_vec()),
    ("cli", |t| t.clis.to_vec()),
    ("service", |t| t.services.to_vec()),
    ("operation", |t| t.operations.to_vec()),
    ("near_name", |t| t.near_names.to_vec()),
    ("lens", |t| t.lenses.to_vec()),
    ("via", |t| t.via.to_vec()),
    ("content_regex", |t| t.content_regex.to_vec()),
    ("mode", |t| t.modes.to_vec()),
    ("body", |t| t.body_kinds.to_vec()),
    ("change", |t| t.changes.to_vec()),
    ("agent", |t| t.agents.to_vec()),
    ("grant", |t| t.grants.to_vec()),
];

/// Cut list `key` of `t` to the one entry of its text form.
fn set_effect_list(t: &mut EffectTest, key: &str, entry: &str) {
    let pick = |v: &mut Vec<String>| v.retain(|x| x == entry);
    match key {
        "host_in" => pick(&mut t.host_in),
        "ip_class" => pick(&mut t.ip_class),
        "scheme" => pick(&mut t.scheme),
        "method" => pick(&mut t.method),
        "body_from" => t.body_from.retain(|p| path_spec(p) == entry),
        "body_from_env" => pick(&mut t.body_from_env),
        "target" => pick(&mut t.targets),
        "manager" => pick(&mut t.managers),
        "cli" => pick(&mut t.clis),
        "service" => pick(&mut t.services),
        "operation" => pick(&mut t.operations),
        "near_name" => pick(&mut t.near_names),
        "lens" => pick(&mut t.lenses),
        "via" => pick(&mut t.via),
        "content_regex" => pick(&mut t.content_regex),
        "mode" => pick(&mut t.modes),
        "body" => pick(&mut t.body_kinds),
        "change" => pick(&mut t.changes),
        "agent" => pick(&mut t.agents),
        "grant" => pick(&mut t.grants),
        _ => {}
    }
}
