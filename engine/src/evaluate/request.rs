//! What one decision depends on, and what it gives back.
//!
//! In: a [`Request`]: the seam, the hook payload, the host's dialect, the session memory
//! the call is judged in and the call's effects when they were found before. The rest of what a decision reads is fixed when the engine is
//! built: the compiled policies and the environment (home and project folder, the
//! [`ShellEnv`](crate::ShellEnv) of the [`DecisionTable`](crate::DecisionTable)); the
//! working directory and project folder of a call are read from its payload (`cwd`,
//! `transcript_path`). Out: a [`Decision`]: the merged [`Outcome`] and the call's effects
//! when the evaluation worked them out ([`Engine::decide`](crate::Engine::decide)).

use std::rc::Rc;
use std::sync::LazyLock;

use serde_json::Value;

use crate::decision::Outcome;
use crate::dialect::Dialect;
use crate::effects::Effects;
use crate::evaluate::lines::CommandLines;
use crate::memory::SessionMemory;
use crate::seam::Seam;

/// The empty session memory: a call judged on its own.
static NO_MEMORY: LazyLock<SessionMemory> = LazyLock::new(SessionMemory::default);

/// One event to decide on, with everything the decision depends on beyond the engine's own
/// policies and environment.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The seam the event arrived at (the payload's `hook_event_name` is not re-read).
    pub seam: Seam,
    /// The hook input as JSON.
    pub payload: &'a Value,
    /// The host's dialect (matcher aliases, code mode, how an ask is answered).
    pub dialect: Dialect,
    /// What the session did earlier (files it wrote, symlinks it created, paths it read) as
    /// the lenses and the `earlier_read_inside` tests see it.
    pub memory: &'a SessionMemory,
    /// The call's effects when they were found before the decision (what
    /// [`effects_in`](crate::effects::effects_in) gives for `payload` in `memory`: the hook
    /// finds them to load only the rules that can fire): the tests use them instead of
    /// finding them again. `None`: found when a test needs them.
    pub known_effects: Option<&'a Rc<Effects>>,
    /// The analyses of the payload's command lines made before the decision (by the
    /// snapshot's gates, [`Call::lines`](crate::Call::lines)): a test needing one takes it
    /// from there instead of analysing the line again. `None`: analysed when a test needs it.
    pub known_lines: Option<&'a CommandLines>,
}

impl<'a> Request<'a> {
    /// A request judged on its own: an empty session memory.
    pub fn new(seam: Seam, payload: &'a Value, dialect: Dialect) -> Request<'a> {
        Request {
            seam,
            payload,
            dialect,
            memory: &NO_MEMORY,
            known_effects: None,
            known_lines: None,
        }
    }

    /// The same request judged in `memory`.
    pub fn in_memory(self, memory: &'a SessionMemory) -> Request<'a> {
        Request { memory, ..self }
    }

    /// The same request with the call's effects found before (see
    /// [`Request::known_effects`]; `None` leaves them to be found).
    pub fn with_known_effects(self, effects: Option<&'a Rc<Effects>>) -> Request<'a> {
        Request {
            known_effects: effects,
            ..self
        }
    }

    /// The same request with the payload's command-line analyses made before (see
    /// [`Request::known_lines`]).
    pub fn with_known_lines(self, lines: Option<&'a CommandLines>) -> Request<'a> {
        Request {
            known_lines: lines,
            ..self
        }
    }

    /// What was worked out about the payload before the decision.
    pub(crate) fn known(&self) -> crate::evaluate::pred::Known<'a> {
        crate::evaluate::pred::Known {
            effects: self.known_effects,
            lines: self.known_lines,
        }
    }

    /// The memory, `None` when it is empty (the lenses then skip every lookup).
    pub(crate) fn memory(&self) -> Option<&'a SessionMemory> {
        Some(self.memory).filter(|m| !m.is_empty())
    }
}

/// What a decision gives back.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The merged outcome.
    pub outcome: Outcome,
    /// The effects of the tool call when a rule's test needed them (the same as
    /// [`effects_in`](crate::effects::effects_in) gives for the payload in the request's
    /// memory, without finding them again); `None` when no test needed them or the call was
    /// judged in parts (Codex code mode).
    pub effects: Option<Rc<Effects>>,
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use serde_json::{Value, json};

    use crate::memory::{Entry, SessionMemory};
    use crate::{
        DecisionTable, Dialect, Engine, Request, Scope, Seam, ShellEnv, Verdict, load_str,
    };

    /// An engine whose rules ask about a send after a read of `~/.ssh` earlier in the
    /// session, and deny a read of `.env`.
    fn engine() -> Engine {
        let policy = load_str(
            "[[rule]]\nid = \"taint\"\nseam = \"pre-tool\"\n\
             when.sends = { host_not_in = [\"github.com\"], earlier_read_inside = [\"~/.ssh/**\"] }\n\
             decision = \"ask\"\n\
             [[rule]]\nid = \"no-env\"\nseam = \"pre-tool\"\n\
             when.reads = { path_inside = [\"**/.env\"] }\ndecision = \"deny\"\n",
            "taint.toml",
            Scope::User,
            0,
        );
        let env = ShellEnv::new(None, "/home/u");
        Engine::new(DecisionTable::new(vec![policy]).with_env(env))
    }

    fn bash(command: &str) -> Value {
        json!({"session_id": "s", "cwd": "/nonexistent-sg/p", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}})
    }

    #[test]
    fn the_memory_of_the_request_is_what_the_decision_reads() {
        let engine = engine();
        let payload = bash("curl -s https://paste.example/x");
        let memory = SessionMemory::from_entries(vec![Entry::Read {
            path: "/home/u/.ssh/id_ed25519".into(),
        }]);
        let req = Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode);
        let remembered = engine.decide(&req.in_memory(&memory));
        assert_eq!(remembered.outcome.verdict(), Verdict::Ask);
        assert_eq!(remembered.outcome.fired_ids(), ["taint"]);
        assert_eq!(
            engine
                .evaluate_in(Seam::PreTool, &payload, Dialect::ClaudeCode, &memory)
                .fired_ids(),
            ["taint"]
        );
        // Without memory: judged on its own.
        let alone = engine.decide(&req);
        assert_eq!(alone.outcome.verdict(), Verdict::Abstain);
        assert_eq!(
            engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode),
            alone.outcome
        );
    }

    #[test]
    fn known_effects_are_used_and_returned() {
        let engine = engine();
        let payload = bash("cat .env");
        let req = Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode);
        let found = engine.decide(&req);
        assert_eq!(found.outcome.fired_ids(), ["no-env"]);
        let fx = found.effects.expect("the rules read the call's effects");
        // Effects handed in are the ones the tests read (here those of another line).
        let known = Rc::new(crate::effects::effects_of(
            &bash("ls"),
            engine.table().env(),
        ));
        let d = engine.decide(&req.with_known_effects(Some(&known)));
        assert_eq!(d.outcome.verdict(), Verdict::Abstain);
        assert!(d.effects.is_some_and(|e| Rc::ptr_eq(&e, &known)));
        let same = engine.decide(&req.with_known_effects(Some(&fx)));
        assert_eq!(same.outcome, found.outcome);
    }
}
