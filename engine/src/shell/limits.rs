//! The limits of the shell analysis: how deep, how long and how nested a line may be before
//! it is "unsure". In: nothing. Out: the constants the parser, the walk and the emulation read.

/// Maximum nesting of shell re-entry (`bash -c`, `eval`, `$(…)`, …).
pub(crate) const MAX_DEPTH: usize = 8;

/// Longest command line analysed, in bytes (1 MiB); longer lines are "unsure".
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;

/// Deepest bracket nesting (`(`, `{`, `[`, backticks) handed to the parser; deeper lines are
/// "unsure" (the parser is recursive; this keeps its stack use bounded).
pub(crate) const MAX_NESTING: usize = 100;

/// Deepest nesting of compound commands (`if`, `for`, `while`, `case`, …) analysed; deeper
/// lines are "unsure". The parser and the walk recurse per level.
pub(crate) const MAX_COMPOUND_NESTING: usize = 4000;

/// Most words a `for` loop's list may have for its variable to be bound to each of them (the
/// body is analysed once per word); longer lists keep the variable "only known at run time".
pub(crate) const MAX_LOOP_WORDS: usize = 64;

/// Budget of loop-body text (in characters) re-analysed by unrolling `for` loops on one line,
/// nested loops included; past it, a loop's variable stays "only known at run time".
pub(crate) const MAX_LOOP_UNROLL_BYTES: usize = 1 << 18;
