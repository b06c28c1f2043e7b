//! The ways into the seam evaluator: [`Engine::decide`] (a [`Request`] in, a [`Decision`]
//! out) and the entry points built on it.
//!
//! In: a request, or its parts (seam, payload, dialect; a session memory for
//! [`Engine::evaluate_in`]). Out: the outcome (and, from `decide`, the call's effects).

use serde_json::Value;

use super::engine::Engine;
use super::request::{Decision, Request};
use crate::decision::Outcome;
use crate::dialect::Dialect;
use crate::memory::SessionMemory;
use crate::seam::Seam;

impl Engine {
    /// Evaluate one payload at its seam.
    ///
    /// `payload` is the hook input as JSON (its `hook_event_name` is not re-read: `seam`
    /// decides).
    ///
    /// # Errors
    /// Never fails: a payload missing the fields a rule reads does not fire that rule, a
    /// pattern that does not compile or a failed command hook becomes a warning in the
    /// outcome, and a policy that failed to load fails closed per its `on_load_error`.
    ///
    /// # Example
    ///
    /// ```
    /// use serde_json::json;
    /// use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, load_str};
    ///
    /// let policy = load_str(
    ///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
    ///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\nreason = \"no rm -rf\"\n",
    ///     "inline.toml",
    ///     Scope::User,
    ///     0,
    /// );
    /// let engine = Engine::new(DecisionTable::new(vec![policy]));
    /// let payload = json!({
    ///     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
    ///     "tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"}
    /// });
    /// let outcome = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
    /// assert_eq!(outcome.verdict(), Verdict::Deny);
    /// assert_eq!(outcome.fired_ids(), ["no-rm"]);
    /// ```
    pub fn evaluate(&self, seam: Seam, payload: &Value, dialect: Dialect) -> Outcome {
        self.decide(&Request::new(seam, payload, dialect)).outcome
    }

    /// [`Engine::evaluate`] in an explicit session memory: what the session did earlier
    /// (files it wrote, symlinks it created, paths it read) as the lenses and the
    /// `earlier_read_inside` tests see it. [`Engine::evaluate`] is this in an empty memory;
    /// [`Engine::decide`] also returns the call's effects.
    ///
    /// ```
    /// use seamguard_engine::memory::SessionMemory;
    /// use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, load_str};
    ///
    /// let policy = load_str(
    ///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
    ///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\n",
    ///     "inline.toml",
    ///     Scope::User,
    ///     0,
    /// );
    /// let engine = Engine::new(DecisionTable::new(vec![policy]));
    /// let payload = serde_json::json!({"session_id": "s", "cwd": "/w",
    ///     "hook_event_name": "PreToolUse", "tool_name": "Bash",
    ///     "tool_input": {"command": "rm -rf /tmp/x"}});
    /// let memory = SessionMemory::default();
    /// let outcome = engine.evaluate_in(Seam::PreTool, &payload, Dialect::ClaudeCode, &memory);
    /// assert_eq!(outcome.verdict(), Verdict::Deny);
    /// ```
    pub fn evaluate_in(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        memory: &SessionMemory,
    ) -> Outcome {
        self.decide(&Request::new(seam, payload, dialect).in_memory(memory))
            .outcome
    }

    /// Decide on one event: everything the decision depends on is in `req` (seam, payload,
    /// dialect, session memory, effects found before) or fixed in the engine (policies, environment, ledger,
    /// runner). Returns the merged outcome and the call's effects when a rule's test worked
    /// them out (to record in the session memory without finding them again).
    ///
    /// Never fails, as [`Engine::evaluate`].
    ///
    /// ```
    /// use seamguard_engine::{DecisionTable, Dialect, Engine, Request, Scope, Seam, Verdict, load_str};
    ///
    /// let policy = load_str(
    ///     "[[rule]]\nid = \"no-env\"\nseam = \"pre-tool\"\n\
    ///      when.reads = { path_inside = [\"**/.env\"] }\ndecision = \"deny\"\n",
    ///     "inline.toml",
    ///     Scope::User,
    ///     0,
    /// );
    /// let engine = Engine::new(DecisionTable::new(vec![policy]));
    /// let payload = serde_json::json!({"session_id": "s", "cwd": "/w",
    ///     "hook_event_name": "PreToolUse", "tool_name": "Bash",
    ///     "tool_input": {"command": "cat .env"}});
    /// let d = engine.decide(&Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode));
    /// assert_eq!(d.outcome.verdict(), Verdict::Deny);
    /// assert_eq!(d.outcome.fired_ids(), ["no-env"]);
    /// let fx = d.effects.expect("the rule read the call's effects");
    /// assert_eq!(fx.list, seamguard_engine::effects::effects_of(&payload, engine.table().env()).list);
    /// ```
    pub fn decide(&self, req: &Request<'_>) -> Decision {
        let (outcome, effects) = self.evaluate_as(req, false);
        Decision { outcome, effects }
    }

    /// [`Engine::decide`] of a value handlers rewrote after a first evaluation: prompt
    /// prepends and appends are not applied again (replacements and redactions are).
    pub(crate) fn recheck(&self, req: &Request<'_>) -> Outcome {
        self.evaluate_as(req, true).0
    }
}
