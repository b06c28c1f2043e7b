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

mod braces;
mod context;
mod emulate;
mod expand;
mod generators;
pub(crate) mod locators;
pub(crate) mod operands;
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

pub(crate) use context::PROCSUB;
pub(crate) use quote::{escape_invisible, is_invisible};
pub use tool::tool_paths;

use context::LineAnalysis;

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

/// Nesting of compound commands up to which the analysis runs on the caller's stack; deeper
/// lines are analysed on a thread whose stack is sized to them ([`STACK_PER_LEVEL`] a level).
const SHALLOW_COMPOUND_NESTING: usize = 100;

/// Stack given to one level of compound-command nesting, in bytes (measured: about 10 KiB a
/// level in a debug build).
const STACK_PER_LEVEL: usize = 64 << 10;

/// Most words a `for` loop's list may have for its variable to be bound to each of them (the
/// body is analysed once per word); longer lists keep the variable "only known at run time".
pub(crate) const MAX_LOOP_WORDS: usize = 64;

/// Budget of loop-body text (in characters) re-analysed by unrolling `for` loops on one line,
/// nested loops included; past it, a loop's variable stays "only known at run time".
pub(crate) const MAX_LOOP_UNROLL_BYTES: usize = 1 << 18;

/// One argument word after quote removal and expansion of what is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The text as the program would receive it (`$NAME` kept as written when unknown).
    pub text: String,
    /// Whether part of it comes from an unresolved expansion (variable, `$(…)`, arithmetic).
    pub dynamic: bool,
}

/// Which way a redirection moves data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RedirectMode {
    /// The file is read (`<`, `<&N` of a descriptor opened for reading).
    Read,
    /// The file is written from its start (`>`, `>|`, `&>`, `>& file`).
    Write,
    /// The file is appended to (`>>`, `&>>`).
    Append,
    /// The file is opened for reading and writing (`<>`).
    ReadWrite,
    /// Standard input is text written in the line (`<<EOF`, `<<<`): the target is that
    /// text, not a file.
    Text,
}

/// One redirection of a command to or from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The file descriptor redirected as written (`2` in `2> log`); `None` for the default
    /// (standard input for reads, standard output for writes, both outputs for `&>`).
    pub fd: Option<i32>,
    /// The direction.
    pub mode: RedirectMode,
    /// The file.
    pub target: Arg,
}

/// The files of some redirections (here-documents and here-strings are text, not files).
pub(crate) fn redirect_files(redirections: &[Redirect]) -> Vec<Arg> {
    redirections
        .iter()
        .filter(|r| r.mode != RedirectMode::Text)
        .map(|r| r.target.clone())
        .collect()
}

/// A simple command the shell will run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// Program as written after quote removal (`/bin/rm`, `rm`).
    pub program: String,
    /// Whether the program word is not a literal (unresolved variable or substitution).
    pub dynamic_program: bool,
    /// Arguments after the program.
    pub args: Vec<Arg>,
    /// Redirection targets (files written or read), in the order written: the file targets
    /// of [`SimpleCommand::redirections`].
    pub redirects: Vec<Arg>,
    /// The redirections with their direction and file descriptor (`2>> log`, `< .env`,
    /// `<&4` resolved to the file descriptor 4 was opened on).
    pub redirections: Vec<Redirect>,
    /// The wrappers it came through, outermost first (`sudo`, `bash -c`, `$(…)`).
    pub via: Vec<String>,
    /// Working directory in effect (after `cd` earlier on the line), if known.
    pub cwd: Option<String>,
}

impl SimpleCommand {
    /// A command known as written: `program` (empty for a file tool's operands) with `args`,
    /// no redirection, not through a wrapper, run in `cwd`.
    pub(crate) fn plain(program: &str, args: Vec<Arg>, cwd: Option<&str>) -> SimpleCommand {
        SimpleCommand {
            program: program.to_string(),
            dynamic_program: false,
            args,
            redirects: Vec::new(),
            redirections: Vec::new(),
            via: Vec::new(),
            cwd: cwd.map(str::to_string),
        }
    }

    /// The program's base name (`/usr/bin/git` → `git`).
    pub fn basename(&self) -> &str {
        self.program.rsplit('/').next().unwrap_or(&self.program)
    }

    /// What the command writes to standard output when it is a literal `echo` or `printf`
    /// (`None` for anything else, or when an argument is only known at run time).
    pub(crate) fn literal_output(&self) -> Option<String> {
        if self.dynamic_program || self.args.iter().any(|a| a.dynamic) {
            return None;
        }
        let args: Vec<String> = self.args.iter().map(|a| a.text.clone()).collect();
        match self.basename() {
            "echo" => Some(emulate::echo_output(&args)),
            "printf" => emulate::printf_output(&args).ok(),
            _ => None,
        }
    }

    /// The text a here-document or here-string feeds the command (`cat > f <<EOF`), when
    /// it has one known now.
    pub(crate) fn stdin_text(&self) -> Option<&str> {
        self.redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
            .filter(|r| !r.target.dynamic)
            .map(|r| r.target.text.as_str())
    }

    /// The part known now of the text fed to the command's standard input, even when the rest
    /// is only known at run time (`crontab - <<< "$X"`, `(crontab -l; echo …) | crontab -`),
    /// and whether that is all of it.
    pub(crate) fn stdin_known_text(&self) -> Option<(&str, bool)> {
        self.redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
            .map(|r| (r.target.text.as_str(), !r.target.dynamic))
    }

    /// `rm -rf / (via sudo)`: the command as run, and the wrapper path. A file tool's path
    /// (a command with no program) shows as a space and the path, as decision reasons have
    /// always quoted it.
    pub fn display(&self) -> String {
        self.render(true)
    }

    /// [`SimpleCommand::display`] without the space before a file tool's path: the form
    /// `explain` lists.
    pub fn display_words(&self) -> String {
        self.render(false)
    }

    fn render(&self, space_after_empty_program: bool) -> String {
        // Invisible and bidi characters are shown escaped, so the reason reads as what runs.
        let mut s = escape_invisible(&self.program);
        for a in &self.args {
            if space_after_empty_program || !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&escape_invisible(&a.text));
        }
        if s.chars().count() > 120 {
            s = format!("{}…", s.chars().take(119).collect::<String>());
        }
        if !self.via.is_empty() {
            s.push_str(&format!(" (via {})", self.via.join(", ")));
        }
        s
    }
}

/// The result of analysing one command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellAnalysis {
    /// Every simple command found, in source order (wrappers before what they wrap).
    pub commands: Vec<SimpleCommand>,
    /// Why part of the line could not be analysed (parse error, dynamic command word,
    /// depth limit), if so.
    pub unsure: Option<String>,
    /// The pipes between commands, as `(producer, consumer)` indices into
    /// [`ShellAnalysis::commands`]: `curl … | sh` is `(0, 1)`. Each names the first command
    /// recorded for a pipeline element (a wrapper before what it wraps).
    pub pipes: Vec<(usize, usize)>,
}

/// A shell-line analyser (the parser is swappable behind this trait).
pub trait ShellAnalyzer {
    /// Analyse a script; `cwd` is the working directory it starts in.
    fn analyze(&self, script: &str, cwd: Option<&str>) -> ShellAnalysis;
}

/// The `brush-parser` backed analyser.
#[derive(Debug, Default, Clone, Copy)]
pub struct BrushAnalyzer;

impl ShellAnalyzer for BrushAnalyzer {
    fn analyze(&self, script: &str, cwd: Option<&str>) -> ShellAnalysis {
        let run = || {
            parse::contained(|| {
                let mut cx = LineAnalysis::new(cwd);
                cx.script(script, &[], 0);
                cx.finish()
            })
        };
        let unsure = |why: String| ShellAnalysis {
            commands: Vec::new(),
            unsure: Some(why),
            pipes: Vec::new(),
        };
        // A stack overflow aborts the process (the host would read that as a non-blocking
        // error and run the call): deep nesting gets a stack sized to it, or is refused.
        match parse::keyword_depth(script) {
            d if d > MAX_COMPOUND_NESTING => unsure(format!(
                "the command line nests {d} compound commands deep, over the \
                 {MAX_COMPOUND_NESTING}-level analysis limit"
            )),
            d if d > SHALLOW_COMPOUND_NESTING => std::thread::scope(|s| {
                std::thread::Builder::new()
                    .stack_size((8 << 20) + d * STACK_PER_LEVEL)
                    .spawn_scoped(s, run)
                    .ok()
                    .and_then(|h| h.join().ok())
            })
            .unwrap_or_else(|| unsure("no thread could be started to analyse the line".into())),
            _ => run(),
        }
    }
}

/// Analyse a command value of a payload: a string is a shell command line, an array of
/// strings an argv run without a shell (non-string items skipped); anything else is not a
/// command.
pub(crate) fn analyze_command(v: &serde_json::Value, cwd: Option<&str>) -> Option<ShellAnalysis> {
    match v {
        serde_json::Value::String(s) => Some(BrushAnalyzer.analyze(s, cwd)),
        serde_json::Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect();
            Some(analyze_argv(&argv, cwd))
        }
        _ => None,
    }
}

/// Analyse an argv that is run without a shell (Codex `local_shell_call`, `exec` arrays).
pub(crate) fn analyze_argv(argv: &[String], cwd: Option<&str>) -> ShellAnalysis {
    let words: Vec<Arg> = argv
        .iter()
        .map(|a| Arg {
            text: a.clone(),
            dynamic: false,
        })
        .collect();
    analyze_words(words, None, cwd)
}

/// [`analyze_argv`] of words some of which are only known at run time, with a file as
/// standard input (a PowerShell or cmd.exe command: `Get-Content x | prog`).
pub(crate) fn analyze_words(
    words: Vec<Arg>,
    stdin: Option<Arg>,
    cwd: Option<&str>,
) -> ShellAnalysis {
    let mut cx = LineAnalysis::new(cwd);
    let redirects = stdin
        .map(|target| Redirect {
            fd: None,
            mode: RedirectMode::Read,
            target,
        })
        .into_iter()
        .collect();
    cx.peel(words, redirects, Vec::new(), 0);
    cx.finish()
}
