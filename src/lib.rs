//! # seamguard
//!
//! Facade crate: re-exports [`seamguard_engine`] (policies, decision table, seam evaluator,
//! dialect codecs). The `seamguard` binary in this package is the hook command for Claude
//! Code and Codex (`seamguard hook`) and the policy tool (`check`, `test`, `replay`).

pub use seamguard_engine as engine;
pub use seamguard_engine::*;
pub use seamguard_macros::{Event, guard, hook, policy};
