//! The shell lens: a command line through the shell analyser, each simple command through
//! the program knowledge table.
//!
//! In: a command value (a command line string, or an argv array) and its working directory.
//! Out: a `run` effect per simple command, the effects the program knowledge table gives for
//! its operands and redirections, and `unsure` for what the analyser could not see.

use serde_json::Value;

use super::{Effects, Lens, Route, What};
use crate::shell::{ShellAnalysis, analyze_command};
use crate::table::ShellEnv;

/// The command value of a shell tool call (`Bash`, Codex `shell` / `exec_command` /
/// `local_shell` / `write_stdin`).
pub(crate) fn command_of<'v>(tool: &str, input: &'v Value) -> Option<&'v Value> {
    match tool {
        "write_stdin" => input.get("chars"),
        _ => input.get("command").or_else(|| input.get("cmd")),
    }
}

/// The effects of a command value found at `argument` of a `tool` call.
pub(crate) fn lens_value(
    tool: &str,
    argument: &str,
    v: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    if let Some(a) = analyze_command(v, cwd) {
        lens_analysis(tool, argument, &a, env, fx);
    }
}

/// The effects of an analysed command line.
pub(crate) fn lens_analysis(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    let _ = env;
    for c in &a.commands {
        let route = Route {
            tool: tool.to_string(),
            lens: Some(Lens::Shell),
            argument: argument.to_string(),
            command: Some(c.display_words()),
            via: c.via.clone(),
        };
        if !c.program.is_empty() {
            fx.push(What::Run(c.clone()), route);
        }
    }
    if let Some(u) = &a.unsure {
        fx.push(
            What::Unsure(u.clone()),
            Route {
                tool: tool.to_string(),
                lens: Some(Lens::Shell),
                argument: argument.to_string(),
                command: None,
                via: Vec::new(),
            },
        );
    }
}
