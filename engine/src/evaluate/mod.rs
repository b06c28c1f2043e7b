//! The evaluate stage: one event in, one merged [`Outcome`](crate::Outcome) out.
//!
//! * [`fire`]: which rules of a compiled seam table fire for a payload (field scans,
//!   anchors, then each candidate's `when` / `unless` via [`pred`], [`shell_cond`] (shell-aware
//!   tests) and [`effect_cond`] (effect tests));
//! * [`lines`]: the shell analyses of a payload's command-line fields, made once and shared
//!   by the snapshot's gates and the evaluation;
//! * [`trace`]: the sink the evaluator reports to: a no-op for the hook, a recorder for
//!   `explain`, so `explain` shows the very evaluation the hook ran;
//! * [`engine`]: the seam evaluator (waterfall of hooks, command hooks, guards, merge) and
//!   [`ledger`], the stop seams' continuation budget; [`decide`]: the ways into it;
//! * [`concern`]: what an `ask` is about (the rule and the objects it asked about), worked out
//!   after the evaluation for calls that ask;
//! * [`request`]: what one decision depends on ([`Request`](crate::Request)) and gives back
//!   ([`Decision`](crate::Decision));
//! * [`reasons`]: the reason a verdict gets when its rule gives none;
//! * [`runner`]: runs the command hooks a rule names, as the host would, and [`command_hooks`]
//!   reads their results back into contributions;
//! * `oracle` (feature `oracle`): the slow reference evaluator the property tests hold the
//!   table to.

pub(crate) mod command_hooks;
pub mod concern;
pub(crate) mod decide;
pub(crate) mod effect_cond;
pub(crate) mod engine;
pub(crate) mod fire;
pub(crate) mod ledger;
pub(crate) mod lines;
#[cfg(feature = "oracle")]
pub(crate) mod oracle;
pub(crate) mod pred;
#[cfg(test)]
mod program_names_tests;
pub(crate) mod reasons;
pub(crate) mod request;
pub mod runner;
pub(crate) mod shell_cond;
pub(crate) mod trace;
#[cfg(test)]
mod unsure_tests;
