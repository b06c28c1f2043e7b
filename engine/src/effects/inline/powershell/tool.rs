//! The `PowerShell` tool of Claude Code (on Windows) and Copilot CLI: its `command` is
//! PowerShell code.
//!
//! In: the tool's name and input, the working folder. Out: the code's effects through the
//! code lens, under a route naming the tool's `/command`.

use serde_json::Value;

use crate::effects::code_runs::CodeRun;
use crate::effects::inline::{Language, run_code};
use crate::effects::model::{Effects, Lens, Route};
use crate::effects::nested::Nest;
use crate::shell::Arg;
use crate::shell_env::ShellEnv;

/// The `PowerShell` tool (Claude Code on Windows, Copilot CLI's `powershell`): its
/// `command` is PowerShell code.
pub(crate) fn powershell_tool(
    tool: &str,
    input: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    let Some(command) = input.get("command").and_then(Value::as_str) else {
        return;
    };
    let run = CodeRun {
        who: tool.to_string(),
        lang: Language::PowerShell,
        code: Arg {
            text: command.to_string(),
            dynamic: false,
        },
        argv: Vec::new(),
    };
    let route = Route {
        tool: tool.to_string(),
        lens: Some(Lens::Shell),
        argument: "/command".into(),
        command: Some(command.chars().take(200).collect()),
        via: Vec::new(),
    };
    run_code(&run, &route, cwd, env, 0, nest, fx);
}
