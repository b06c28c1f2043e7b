//! # seamguard-policy
//!
//! The policy language of seamguard: the first stage of the pipeline.
//!
//! **In:** policy files (TOML, DESIGN.md §3) and hook configurations of the hosts
//! (`settings.json`, `hooks.json`, Codex `config.toml`). **Out:** [`LoadedPolicy`] values —
//! typed [`Rule`]s with their [`Source`] (`file:line:column`), `[[test]]` examples and every
//! diagnostic of the file — which the engine compiles into its decision table.
//!
//! * [`seam`]: the lifecycle points and what each may decide.
//! * [`dialect`]: which host protocol a payload speaks.
//! * [`matcher`]: tool-name / source matchers in each host's own semantics.
//! * [`model`]: rules, predicates and actions after lowering.
//! * [`lower`]: TOML → model, with located diagnostics ([`PolicyError`]).
//! * [`import`]: host hook configurations → rules.
//! * [`hint`]: the one "did you mean …?" helper.
//! * [`trust`]: content-hash trust of project command hooks.
//!
//! This crate has no async runtime, no process handling and no shell parser, so the
//! `seamguard-macros` crate can check policies at compile time with exactly the loader the
//! runtime uses.
//!
//! ## Example
//!
//! ```
//! use seamguard_policy::{load_str, Scope, Seam};
//!
//! let policy = load_str(r#"
//! [[rule]]
//! id = "no-force-push"
//! seam = "pre-tool"
//! tool = "Bash"
//! when.command = { regex = 'git\s+push\s+.*--force' }
//! decision = "deny"
//! "#, "example.toml", Scope::User, 0);
//! assert!(!policy.has_errors());
//! assert_eq!(policy.rules[0].id, "no-force-push");
//! assert_eq!(policy.rules[0].seam, Seam::PreTool);
//! assert_eq!(policy.rules[0].source.to_string(), "example.toml:2:1");
//! ```

pub mod dialect;
pub mod hint;
pub mod import;
pub mod lists;
pub mod lower;
pub mod matcher;
pub mod model;
pub mod seam;
pub mod trust;

pub use dialect::Dialect;
pub use lower::{LoadOptions, load_dir, load_file, load_file_with, load_str, load_str_with};
pub use matcher::{Matcher, MatcherMode};
pub use model::{LoadedPolicy, PolicyError, PolicyTest, Rule, RuleKind, Scope, Severity, Source};
pub use seam::Seam;
