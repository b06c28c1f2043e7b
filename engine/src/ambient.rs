//! The closure-style entry points' scope: a session memory set around a call, and a slot the
//! effects of an evaluation are handed back through.
//!
//! The decision path takes its inputs as values: [`Engine::decide`] takes a
//! [`Request`](crate::Request) (seam, payload, dialect, session memory) and returns the
//! outcome with the call's effects; [`effects_in`], [`Engine::concerns_in`] and
//! [`crate::explain::explain`] take the memory too. Nothing below those reads this module.
//!
//! Older callers wrap the entry points without a memory argument in a scope instead:
//! [`with_memory`] sets the session memory that [`Engine::evaluate`], [`Engine::concerns`],
//! [`effects_of`] and [`DecisionTable::fire_detailed`] read **once, at their entry**, and
//! [`keeping_effects`] collects the effects [`Engine::evaluate`] found. New code uses the
//! explicit forms. One read remains inside evaluation: effects handed in by
//! [`keeping_known_effects`] (the cold hook finds a call's effects before it loads rules) are
//! used instead of being found again — a cache of the same value, which changes no decision;
//! it goes when the hook moves to [`Engine::decide`].
//!
//! In: a memory (`with_memory`), a payload (`keeping_effects`). Out: the memory in effect
//! ([`in_memory`]), the effects kept for the payload.
//!
//! [`Engine::decide`]: crate::Engine::decide
//! [`Engine::evaluate`]: crate::Engine::evaluate
//! [`Engine::concerns`]: crate::Engine::concerns
//! [`Engine::concerns_in`]: crate::Engine::concerns_in
//! [`effects_of`]: crate::effects::effects_of
//! [`effects_in`]: crate::effects::effects_in
//! [`DecisionTable::fire_detailed`]: crate::DecisionTable::fire_detailed

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use crate::effects::model::Effects;
use crate::memory::SessionMemory;

/// The effects kept for one payload while [`keeping_effects`] runs (the payload by address:
/// it is borrowed, so unchanged, for as long as the slot is set).
struct Kept {
    payload: *const Value,
    effects: Option<Rc<Effects>>,
    /// Whether `effects` were known before the evaluations (then they use them).
    known: bool,
}

thread_local! {
    /// The session memory set by [`with_memory`] on this thread.
    static MEMORY: RefCell<Option<Rc<SessionMemory>>> = const { RefCell::new(None) };
    /// The slot of the innermost [`keeping_effects`] on this thread.
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// Run `f` with `memory` as the session memory of the closure-style entry points (see the
/// module documentation); the one in effect before is restored afterwards, also when `f`
/// panics. Prefer passing the memory: [`crate::Request::in_memory`],
/// [`crate::effects::effects_in`], [`crate::Engine::concerns_in`].
pub fn with_memory<R>(memory: Rc<SessionMemory>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Rc<SessionMemory>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            MEMORY.with(|c| *c.borrow_mut() = prev);
        }
    }
    let prev = MEMORY.with(|c| c.borrow_mut().replace(memory));
    let _restore = Restore(prev);
    f()
}

/// Run `f` with the memory [`with_memory`] set, an empty one when none is: where a
/// closure-style entry point turns into the explicit form.
pub(crate) fn in_memory<R>(f: impl FnOnce(&SessionMemory) -> R) -> R {
    match MEMORY.with(|c| c.borrow().clone()) {
        Some(m) => f(&m),
        None => f(&SessionMemory::default()),
    }
}

/// Run `f` (evaluations of `payload`) and return, with its result, the effects of the tool
/// call the first [`crate::Engine::evaluate`] of this very value (the same `&Value`, not a
/// copy or a rewritten input) found, if one needed them: what
/// [`crate::effects::effects_of`] gives for `payload` in the same session memory, without
/// finding them again. [`crate::Engine::decide`] returns them directly.
///
/// ```
/// use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, keeping_effects, load_str};
/// use serde_json::json;
///
/// let policy = load_str(
///     "[[rule]]\nid = \"no-env\"\nseam = \"pre-tool\"\nwhen.reads = { path_inside = [\"**/.env\"] }\ndecision = \"deny\"\n",
///     "inline.toml", Scope::User, 0,
/// );
/// let engine = Engine::new(DecisionTable::new(vec![policy]));
/// let payload = json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
///     "tool_name": "Bash", "tool_input": {"command": "cat .env"}});
/// let (out, fx) = keeping_effects(&payload, || engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode));
/// assert_eq!(out.fired_ids(), ["no-env"]);
/// let fx = fx.expect("the rule read the call's effects");
/// assert_eq!(fx.list, seamguard_engine::effects::effects_of(&payload, engine.table().env()).list);
/// ```
pub fn keeping_effects<R>(payload: &Value, f: impl FnOnce() -> R) -> (R, Option<Rc<Effects>>) {
    keeping_known_effects(payload, None, f)
}

/// [`keeping_effects`] of a call whose effects are already `known` (found by
/// [`crate::effects::effects_of`] for this very value in the session memory `f` evaluates in):
/// the evaluations of `payload` use them instead of finding them again.
pub fn keeping_known_effects<R>(
    payload: &Value,
    known: Option<Rc<Effects>>,
    f: impl FnOnce() -> R,
) -> (R, Option<Rc<Effects>>) {
    let outer = KEPT.with(|k| {
        k.borrow_mut().replace(Kept {
            payload: std::ptr::from_ref(payload),
            known: known.is_some(),
            effects: known,
        })
    });
    let r = f();
    let kept = KEPT.with(|k| std::mem::replace(&mut *k.borrow_mut(), outer));
    (r, kept.and_then(|k| k.effects))
}

/// The effects [`keeping_known_effects`] was given for this very `payload`, if any.
pub(crate) fn known_effects(payload: &Value) -> Option<Rc<Effects>> {
    KEPT.with(|k| {
        k.borrow()
            .as_ref()
            .filter(|k| k.known && std::ptr::eq(k.payload, payload))
            .and_then(|k| k.effects.clone())
    })
}

/// Hand the effects an evaluation of `payload` found to the innermost [`keeping_effects`],
/// when it is about this very value and holds none yet.
pub(crate) fn offer(payload: &Value, effects: Option<&Rc<Effects>>) {
    let Some(fx) = effects else {
        return;
    };
    KEPT.with(|k| {
        if let Some(k) = &mut *k.borrow_mut()
            && std::ptr::eq(k.payload, payload)
            && k.effects.is_none()
        {
            k.effects = Some(fx.clone());
        }
    });
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use serde_json::json;

    use super::{keeping_effects, with_memory};
    use crate::memory::{Entry, SessionMemory};
    use crate::{
        DecisionTable, Dialect, Engine, Request, Scope, Seam, ShellEnv, Verdict, load_str,
    };

    /// An engine whose rule asks about a send after a read of `~/.ssh` earlier in the session.
    fn taint_engine() -> Engine {
        let policy = load_str(
            "[[rule]]\nid = \"taint\"\nseam = \"pre-tool\"\n\
             when.sends = { host_not_in = [\"github.com\"], earlier_read_inside = [\"~/.ssh/**\"] }\n\
             decision = \"ask\"\n",
            "taint.toml",
            Scope::User,
            0,
        );
        let env = ShellEnv {
            project: None,
            home: "/home/u".into(),
        };
        Engine::new(DecisionTable::new(vec![policy]).with_env(env))
    }

    fn send() -> serde_json::Value {
        json!({"session_id": "s", "cwd": "/nonexistent-sg/p", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "curl -s https://paste.example/x"}})
    }

    fn secret_read() -> SessionMemory {
        SessionMemory::from_entries(vec![Entry::Read {
            path: "/home/u/.ssh/id_ed25519".into(),
        }])
    }

    #[test]
    fn the_scoped_memory_is_read_once_at_the_entry_and_gives_the_explicit_answer() {
        let engine = taint_engine();
        let payload = send();
        let memory = secret_read();
        let req = Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode);
        let explicit = engine.decide(&req.in_memory(&memory));
        assert_eq!(explicit.outcome.verdict(), Verdict::Ask);
        assert_eq!(explicit.outcome.fired_ids(), ["taint"]);
        let scoped = with_memory(Rc::new(memory), || {
            engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode)
        });
        assert_eq!(scoped, explicit.outcome);
        // Outside the scope, and in a request without memory: judged on its own.
        let alone = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
        assert_eq!(alone.verdict(), Verdict::Abstain);
        assert_eq!(engine.decide(&req).outcome, alone);
    }

    #[test]
    fn kept_effects_are_the_ones_the_decision_returns() {
        let engine = taint_engine();
        let payload = send();
        let decided = engine.decide(&Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode));
        let (out, kept) = keeping_effects(&payload, || {
            engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode)
        });
        assert_eq!(out, decided.outcome);
        let (Some(kept), Some(decided)) = (kept, decided.effects) else {
            panic!("the send test needed the call's effects");
        };
        assert_eq!(kept.list, decided.list);
        // A copy of the payload is another value: nothing is kept for it.
        let copy = payload.clone();
        let (_, none) = keeping_effects(&copy, || {
            engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode)
        });
        assert_eq!(none, None);
    }
}
