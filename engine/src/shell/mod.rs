//! Shell-aware analysis: what a Bash command line will actually run.
//!
//! A command line is parsed by a real Bash parser (`brush-parser`, the parser of the brush
//! shell, which aims at bash compatibility) behind the small [`ShellAnalyzer`] trait, and
//! flattened into [`SimpleCommand`]s: every command of every pipeline, list, subshell,
//! brace group, `if`/`while`/`for`/`case` body, `$(…)`/backtick and process substitution,
//! with wrappers peeled (`sudo`, `doas`, `env`, `command`, `builtin`, `exec`, `nohup`,
//! `nice`, `timeout`, `time`, `stdbuf`, `xargs`, `watch`, `setsid`), shell re-entry parsed
//! recursively (`bash|sh|zsh|dash|ksh -c '…'`, `eval`, `ssh HOST '…'`, heredocs and
//! here-strings fed to a shell, `find -exec`), quoting removed the way the shell removes it
//! (`"r""m"`, `\rm`, `$'\x72\x6d'`), variables assigned earlier on the same line substituted
//! (`R=rm; $R -rf /`), a `for` loop's variable bound to each word of a static list
//! (`for f in docs/*.md; do cat "$f"; done`), the output of a literal `echo` (`-e` escapes
//! decoded) or `printf` (`%s`, `%b`, `%d`, `%%`, escapes, the format reused) read as the script
//! of a shell or `source` it is piped, redirected or process-substituted into, and `cd`
//! tracked for relative paths.
//!
//! What cannot be seen is reported, never guessed: a line that does not parse, a command word
//! from an unresolved variable or substitution, a shell or `source` running text from a pipe,
//! a process substitution or standard input that is only known at run time (`curl … | sh`,
//! `base64 -d | sh`, `source <(…)`), or the depth limit (8 levels of re-entry) sets
//! [`ShellAnalysis::unsure`], which the policy turns into its fail-closed verdict.
//!
//! # Layout
//!
//! What comes in is a command line (or an argv run without a shell, or a whole tool call's
//! payload) and the working directory it starts in; what goes out is a [`ShellAnalysis`]: the
//! [`SimpleCommand`]s that will run and, when part of the line cannot be seen, why. In
//! between, one file per concern:
//!
//! - `model`: the output types ([`Arg`], [`Redirect`], [`SimpleCommand`], [`ShellAnalysis`]);
//! - `limits`: the size, depth and nesting limits;
//! - `analyze`: the entry points ([`BrushAnalyzer`], a payload's command value, an argv);
//! - `parse`: the call into brush-parser, with the size, nesting and re-entry limits and
//!   the containment of its panics;
//! - `walk`: the walk over the syntax tree (lists, pipelines, compound commands,
//!   redirections, `for` loops);
//! - `expand`: word expansion (quote removal, known variables, `~`, substitutions);
//! - `quote`: quote removal of single pieces and display escaping;
//! - `emulate`: what a literal `echo` / `printf` writes;
//! - `programs`: what a program does to the analysis, by its name (`cd`, `read`, …),
//!   dispatching to
//! - `wrappers`: programs that run another program (`sudo`, `env`, `timeout`, `xargs`,
//!   `find -exec`, …), mostly as rows of one table, and
//! - `runners`: programs that run a command once per input, the input put into its words
//!   (GNU `parallel`, `fd -x` / `-X`), and
//! - `reentry`: programs that run text as a script (`bash -c`, `eval`, `ssh`, `source`);
//! - `context`: the analysis state all of them share;
//! - `tool`: the paths of a whole tool call ([`tool_paths`]);
//! - `operands`: what policies' shell tests read of one analysed command (git global
//!   options, the pattern and script operands of search and edit tools, `git push` flags),
//!   as tables.

mod analyze;
mod braces;
mod carriers;
mod context;
mod emulate;
mod expand;
mod find;
mod generators;
mod limits;
pub(crate) mod locators;
mod model;
mod names;
pub(crate) mod operands;
mod package_runners;
mod parse;
mod programs;
mod quote;
mod reentry;
mod runners;
mod tool;
mod walk;
pub(crate) mod wrappers;

#[cfg(test)]
mod substitution_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wrapper_tests;

pub(crate) use context::PROCSUB;
pub(crate) use quote::{escape_invisible, is_invisible};
pub use tool::tool_paths;

pub use analyze::{BrushAnalyzer, ShellAnalyzer};
pub(crate) use analyze::{analyze_argv, analyze_command, analyze_words};
pub use limits::MAX_SCRIPT_BYTES;
pub(crate) use limits::{MAX_DEPTH, MAX_LOOP_WORDS};
pub(crate) use model::redirect_files;
pub use model::{Arg, Redirect, RedirectMode, ShellAnalysis, SimpleCommand};
pub(crate) use names::{ProgramNames, base as program_base, listed_name, lists, program_name};
