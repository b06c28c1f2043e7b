//! Entry points of the shell analysis. In: a command line, an argv run without a shell, or a
//! payload's command value, with the working directory it starts in. Out: its
//! [`ShellAnalysis`], the parse contained and deep nesting given a stack sized to it.

use super::context::LineAnalysis;
use super::limits::MAX_COMPOUND_NESTING;
use super::model::{Arg, Redirect, RedirectMode, ShellAnalysis};
use super::parse;

/// Nesting of compound commands up to which the analysis runs on the caller's stack; deeper
/// lines are analysed on a thread whose stack is sized to them ([`STACK_PER_LEVEL`] a level).
const SHALLOW_COMPOUND_NESTING: usize = 100;

/// Stack given to one level of compound-command nesting, in bytes (measured: about 10 KiB a
/// level in a debug build).
const STACK_PER_LEVEL: usize = 64 << 10;

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
