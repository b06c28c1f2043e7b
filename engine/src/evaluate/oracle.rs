//! The reference evaluator (feature `oracle`, for tests and benchmarks only): every rule
//! checked one by one on the policy as written, with freshly compiled patterns. Slow by
//! design; property tests hold the compiled table to it.
//!
//! In: a [`Pred`] and a payload. Out: whether it holds.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use super::pred::{direct, text_as_written};
use super::shell_cond::{Folders, Judgement, eval_shell};
use crate::compile::globs::PathGlobs;
use crate::memory::SessionMemory;
use crate::policy::{Pred, Test};
use crate::shell::analyze_command;
use crate::shell_env::ShellEnv;

/// Evaluate a predicate the slow, obvious way.
///
/// `positive` is the polarity: an undecidable shell test holds in positive position and
/// fails under `not` / in `unless` (fail closed either way). `memory`: the session memory
/// the call is judged in.
pub(crate) fn naive_pred(
    p: &Pred,
    payload: &Value,
    env: &ShellEnv,
    memory: &SessionMemory,
    positive: bool,
) -> bool {
    match p {
        Pred::All(k) => k
            .iter()
            .all(|x| naive_pred(x, payload, env, memory, positive)),
        Pred::Any(k) => k
            .iter()
            .any(|x| naive_pred(x, payload, env, memory, positive)),
        Pred::Not(x) => !naive_pred(x, payload, env, memory, !positive),
        // Surely: every undecidable test below counts against holding.
        Pred::Sure(x) => naive_pred(x, payload, env, memory, false),
        Pred::Leaf(l) => {
            if let Test::Shell(t) = &l.test {
                let globs = PathGlobs::build(t, &env.home);
                let cwd = payload.get("cwd").and_then(Value::as_str);
                let a = if l.field.name == "paths" {
                    crate::shell::tool_paths(payload)
                } else {
                    match l
                        .field
                        .resolve(payload)
                        .and_then(|v| analyze_command(v, cwd))
                    {
                        Some(a) => a,
                        None => return false,
                    }
                };
                let folders = Folders::of(payload);
                return match eval_shell(t, &globs, &a, env, &folders, &RefCell::new(HashMap::new()))
                {
                    Judgement::Yes(_) => true,
                    Judgement::No => false,
                    Judgement::Unknown(_) => positive,
                };
            }
            if let Test::Effect(t) = &l.test {
                let globs = crate::compile::pred::EffectGlobs::build(t, &env.home);
                let fx = crate::effects::effects_in(payload, env, memory);
                let cache = RefCell::new(HashMap::new());
                let folders = Folders::of(payload);
                let cx = super::effect_cond::EffectContext {
                    env,
                    memory: Some(memory).filter(|m| !m.is_empty()),
                    payload,
                    folders: &folders,
                    cache: &cache,
                    runs: None,
                };
                return match super::effect_cond::eval_effect(t, &globs, &fx, &cx) {
                    Judgement::Yes(_) => true,
                    Judgement::No => false,
                    Judgement::Unknown(_) => positive,
                };
            }
            if let Test::Equals(vals) = &l.test
                && !vals.iter().all(Value::is_string)
            {
                return direct(&l.field, &l.test, payload);
            }
            let Some(text) = l.field.resolve_text(payload) else {
                return false;
            };
            text_as_written(&l.test, &text)
        }
    }
}
