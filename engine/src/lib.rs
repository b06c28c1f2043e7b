//! # seamguard-engine
//!
//! The core of seamguard, a policy engine for the lifecycle hooks of AI coding agents
//! (Claude Code, OpenAI Codex, and Rust agent harnesses).
//!
//! Data flows one way (DESIGN.md §2):
//!
//! ```text
//! TOML policy ──load──▶ LoadedPolicy ──▶ DecisionTable ──▶ Engine::evaluate ──▶ Outcome ──encode──▶ stdout + exit code
//! hook payload ──HookEvent::from_slice / Dialect::detect──────────────┘
//! ```
//!
//! The stages whose types are re-exported at the crate root (use them from here):
//!
//! * loading: [`load_str`], [`load_file`], [`load_dir`] (with [`LoadOptions`]) turn policy
//!   files into [`LoadedPolicy`] values with `file:line:column` diagnostics;
//! * compiling: [`DecisionTable`] indexes the rules per [`Seam`] (matcher buckets, one
//!   multi-pattern regex and one glob set per field);
//! * evaluating: [`Engine::evaluate`] runs one seam (waterfall, guards, stop-loop budget,
//!   fail-closed loads) into an [`Outcome`], merged most-restrictive-first ([`merge`]);
//! * encoding: [`encode`] writes the byte-exact host response per [`Dialect`];
//!   [`decode_hook_output`] reads a command hook's response.
//!
//! The modules that stay public are APIs named by path:
//!
//! * [`event`]: typed payloads of every Claude Code / Codex event seamguard evaluates.
//! * [`policy`]: the policy model (rules, predicates, actions) that loading produces.
//! * [`import`]: host hook configurations (`settings.json`, `hooks.json`, `config.toml`) as
//!   rules; [`trust`]: content-hash trust of project command hooks.
//! * [`runner`]: runs the command hooks a rule names.
//! * [`shell`]: the shell analysis behind `when.command` shell tests.
//! * [`effects`]: what a tool call does (runs, reads, writes, deletes, sends, …) on every
//!   route, the ground of `when.reads` / `when.sends` / … predicates.
//! * [`explain`]: a per-rule, per-predicate trace of one evaluation.
//! * [`program_table`]: the effect model's program table in words (the book's reference);
//!   [`policy_keys`]: every key of the policy format, described.
//! * [`readers`]: recorded sessions (Claude Code, Codex, Gemini, payload logs) as events
//!   for replay.
//! * [`audit`]: the audit log the hook command appends to.
//! * [`harness`]: the embedding API for Rust agent harnesses; [`prelude`]: its common
//!   items in one import.
//!
//! ## Policy files are untrusted input
//!
//! Policy files may come from a cloned repository. Loading never panics and never executes
//! anything; regexes are compiled with size limits; project-scope policies may only tighten
//! (their `allow` decisions are not honoured).
//!
//! ## Example
//!
//! ```
//! use seamguard_engine::{load_str, DecisionTable, Dialect, Engine, Scope, Seam, Verdict, encode};
//!
//! let policy = load_str(r#"
//! [[rule]]
//! id = "no-force-push"
//! seam = "pre-tool"
//! tool = "Bash"
//! when.command = { regex = 'git\s+push\s+.*--force' }
//! decision = "deny"
//! reason = "Force pushes are not allowed"
//! "#, "example.toml", Scope::User, 0);
//! let engine = Engine::new(DecisionTable::new(vec![policy]));
//! let payload = serde_json::json!({
//!     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
//!     "tool_name": "Bash", "tool_input": {"command": "git push --force origin main"}
//! });
//! let outcome = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
//! assert_eq!(outcome.verdict(), Verdict::Deny);
//! assert_eq!(
//!     encode(&outcome, Dialect::ClaudeCode).stdout,
//!     "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Force pushes are not allowed [no-force-push]\"}}\n"
//! );
//! ```

// The policy language (the `seamguard-policy` crate). Its model stays reachable by path as
// [`policy`] (the macros generate `policy::Rule { .. }` literals and embedders build rules by
// hand); host-configuration import and the trust store are their own modules; the rest is
// re-exported below.
pub use seamguard_policy::model as policy;
use seamguard_policy::{dialect, lower as load, matcher, seam};
pub use seamguard_policy::{import, lists, trust};
// Every key of the policy format, described (the book's generated "Policy keys" page).
pub use seamguard_policy::lower::keys as policy_keys;

// Public stages: each is an API its users name by path.
pub mod audit;
pub mod effects;
pub mod explain;
pub mod harness;
pub mod memory;
pub mod prelude;
pub mod program_table;
pub mod readers;
pub mod shell;

// Internal stages: their public types are re-exported at the crate root.
pub mod codec;
mod compile;
mod decision;
mod evaluate;
mod paths;
mod secret_names;
mod shell_env;

pub use codec::event::{self, DecodeError, HookEvent};
pub use codec::{Encoded, HookResponse, decode_hook_output, encode, encode_for};
pub use compile::cache::{
    Call, Part, SnapshotLoad, SnapshotUse, build_id, files_key, load_call_cached, load_file_cached,
    load_set_cached, snapshot_key,
};
pub use compile::table::{CompileError, DecisionTable, Fired, LoadFailure};
pub use decision::{
    Attributed, ContinuationDecision, Contribution, GuardDeny, HookRun, Observed, Outcome,
    PermissionDecision, PostToolDecision, PreToolDecision, PromptDecision, Verdict, merge,
    merged_verdict, pre_tool_decision,
};
pub use decision::{CANNOT_RULE_OUT, join_reasons, plain_reasons};
pub use dialect::Dialect;
pub use evaluate::engine::{Engine, LOAD_ERROR_RULE, UNSURE_RULE};
pub use evaluate::ledger::{ContinuationLedger, FileLedger, MemoryLedger};
pub use evaluate::lines::CommandLines;
pub use evaluate::request::{Decision, Request};
pub use evaluate::{concern, runner};
pub use load::{LoadOptions, load_dir, load_file, load_file_with, load_str, load_str_with};
pub use matcher::{Matcher, MatcherMode};
pub use paths::SharedResolutions;
pub use policy::{LoadedPolicy, PolicyError, PolicyTest, Rule, RuleKind, Scope, Severity, Source};
pub use seam::{ActionKind, MatcherSubject, Seam};
pub use shell_env::ShellEnv;
