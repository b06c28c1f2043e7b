//! The paths a whole tool call touches (the policy language's virtual field `paths`).
//!
//! In: a hook payload (`tool_name`, `tool_input`, `cwd`). Out: a [`ShellAnalysis`] whose
//! commands carry the paths as operands — a file tool's path, the files an `apply_patch` patch
//! names, or every command of a shell command line.

use super::{Arg, BrushAnalyzer, ShellAnalysis, ShellAnalyzer, SimpleCommand, analyze_argv};

/// Every path a tool call touches, as an analysis whose commands carry the paths as operands:
/// file tools' `file_path` / `notebook_path` / `path`, the file headers of an `apply_patch`
/// patch (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`), and for
/// shell commands every operand and redirection of every simple command (with `cd`
/// tracking). This is the virtual field `paths` of the policy language.
pub fn tool_paths(payload: &serde_json::Value) -> ShellAnalysis {
    use serde_json::Value;
    let cwd = payload.get("cwd").and_then(Value::as_str);
    let ti = payload.get("tool_input");
    let tool = payload
        .get("tool_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut args: Vec<Arg> = Vec::new();
    for k in ["file_path", "notebook_path", "path"] {
        if let Some(p) = ti.and_then(|t| t.get(k)).and_then(Value::as_str) {
            args.push(Arg {
                text: p.to_string(),
                dynamic: false,
            });
        }
    }
    let patch = ti
        .and_then(|t| {
            t.get("input")
                .or_else(|| t.get("patch"))
                .or_else(|| t.get("command"))
        })
        .and_then(Value::as_str)
        .filter(|p| tool == "apply_patch" || p.trim_start().starts_with("*** Begin Patch"));
    if let Some(p) = patch {
        for (_, path) in p.lines().filter_map(crate::effects::files::patch_header) {
            args.push(Arg {
                text: path.to_string(),
                dynamic: false,
            });
        }
    } else {
        match ti.and_then(|t| t.get("command")) {
            Some(Value::String(c)) => {
                let mut a = BrushAnalyzer.analyze(c, cwd);
                if !args.is_empty() {
                    a.commands.push(file_command(args, cwd));
                }
                return a;
            }
            Some(Value::Array(items)) => {
                let argv: Vec<String> = items
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect();
                return analyze_argv(&argv, cwd);
            }
            _ => {}
        }
    }
    ShellAnalysis {
        commands: if args.is_empty() {
            Vec::new()
        } else {
            vec![file_command(args, cwd)]
        },
        unsure: None,
        pipes: Vec::new(),
    }
}

/// A command with no program whose operands are the paths a file tool names.
fn file_command(args: Vec<Arg>, cwd: Option<&str>) -> SimpleCommand {
    SimpleCommand::plain("", args, cwd)
}
