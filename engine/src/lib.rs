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
//! * [`seam`]: the lifecycle points and what each may decide.
//! * [`event`]: typed payloads of every Claude Code / Codex event seamguard evaluates.
//! * [`load`] / [`policy`]: policy files with `file:line:column` diagnostics.
//! * [`table`]: rules compiled per seam into one index (matcher buckets, one multi-pattern
//!   regex and one glob set per field).
//! * [`decision`]: typed decisions and the most-restrictive merge.
//! * [`engine`]: the seam evaluator (waterfall, guards, stop-loop budget, fail-closed loads).
//! * [`codec`]: byte-exact encoding per dialect, and decoding of command-hook output.
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

/// Loading policy files: [`seamguard_policy::lower`].
pub use seamguard_policy::lower as load;
/// The policy model (rules, predicates, actions): [`seamguard_policy::model`].
pub use seamguard_policy::model as policy;
pub use seamguard_policy::{dialect, import, matcher, seam, trust};

pub mod audit;
pub mod cache;
pub mod codec;
mod compile;
pub mod decision;
pub mod engine;
mod evaluate;
pub mod event;
pub mod explain;
pub mod harness;
pub mod paths;
pub mod readers;
pub mod runner;
pub mod shell;
pub mod table;

pub use codec::{Encoded, HookResponse, decode_hook_output, encode};
pub use decision::{
    Attributed, ContinuationDecision, Contribution, GuardDeny, Observed, Outcome,
    PermissionDecision, PostToolDecision, PreToolDecision, PromptDecision, Verdict, merge,
};
pub use dialect::Dialect;
pub use engine::{ContinuationLedger, Engine, FileLedger, MemoryLedger};
pub use event::{DecodeError, HookEvent};
pub use load::{load_dir, load_file, load_str};
pub use matcher::{Matcher, MatcherMode};
pub use policy::{LoadedPolicy, PolicyError, PolicyTest, Rule, RuleKind, Scope, Severity};
pub use seam::Seam;
pub use table::{DecisionTable, Fired, ShellEnv};
