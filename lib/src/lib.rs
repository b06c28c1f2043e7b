//! # seamguard
//!
//! The library to embed: re-exports [`seamguard_engine`] (policies, decision table, seam
//! evaluator, dialect codecs) at its root, and the `seamguard-macros` front end of the
//! embedding API ([`hook`], [`guard`], [`policy!`], `#[derive(Event)]`). It depends on the
//! engine and the macros only; the `seamguard` command (hook command for every host, `check`,
//! `test`, `replay`, `init`) is the separate `seamguard-cli` package, so embedding pulls no
//! command-line parser, thread pool or settings editor.
//!
//! The engine's public modules are reachable from here by the same paths: [`harness`] (the
//! embedding API), [`readers`] (recorded sessions for replay), [`explain`], [`event`],
//! [`policy`](mod@policy), [`import`], [`trust`], [`runner`], [`shell`] and [`audit`]; [`engine`] names
//! the engine crate itself.
//!
//! ```
//! use seamguard::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, load_str};
//!
//! let policy = load_str(
//!     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
//!      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\n",
//!     "inline.toml",
//!     Scope::User,
//!     0,
//! );
//! let engine = Engine::new(DecisionTable::new(vec![policy]));
//! let payload = serde_json::json!({
//!     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
//!     "tool_name": "Bash", "tool_input": {"command": "sudo rm -rf /"}
//! });
//! let outcome = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
//! assert_eq!(outcome.verdict(), Verdict::Deny);
//! ```

pub use seamguard_engine as engine;
/// The application-event trait under the derive's name (like `serde::Serialize`): `use
/// seamguard::Event` brings both the derive and the trait, so `impl Event for …` and
/// `#[derive(Event)]` name the same thing. `seamguard::harness::Event` is the same trait.
pub use seamguard_engine::harness::Event;
pub use seamguard_engine::*;
pub use seamguard_macros::{Event, guard, hook, policy};

/// One import for a harness: the engine's [`prelude`](seamguard_engine::prelude) (the
/// [`Harness`](harness::Harness), calls and events, typed decisions and their constructors,
/// registration, tools and wrappers) and the macros `#[hook]`, `#[guard]`, `policy!`,
/// `hooks!` and `#[derive(Event)]`.
///
/// ```
/// use seamguard::prelude::*;
///
/// #[guard(tool = "Bash")]
/// fn no_rm(call: &ToolCall) -> Option<GuardDeny> {
///     call.command()?.contains("rm -rf").then(|| GuardDeny::new("no rm -rf"))
/// }
///
/// let h = Harness::new();
/// h.register_all(hooks![no_rm])?;
/// let call = ToolCall::builder("Bash").arg("command", "rm -rf /").build();
/// let rt = tokio::runtime::Builder::new_current_thread().build()?;
/// let pre = rt.block_on(h.pre_tool(&call));
/// assert_eq!(pre.decision, Some(PreToolDecision::deny("no rm -rf")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use seamguard_engine::prelude::*;
    pub use seamguard_macros::{Event, guard, hook, policy};
}

/// The Rust quick start of the README, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeQuickStart;

/// The Rust examples of the book's "Embedding in Rust" chapter, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/embedding.md")]
struct BookEmbedding;
