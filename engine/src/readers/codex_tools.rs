//! How Codex names its tools to hooks (HOOKS.md B2): a recorded function call (`shell`,
//! `exec_command`, `apply_patch`, …) as the tool name and input its `PreToolUse` hook gets,
//! and an argv as the command string the hook sees. Shared by the rollout reader and the
//! code-mode unwrapping.

use serde_json::{Value, json};

/// Quote one word for a POSIX shell (as `shlex` does): bare when it only has safe
/// characters, else in single quotes.
pub(crate) fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\"'\"'"))
}

/// The command string a hook sees for an argv (Codex `shell`, `local_shell_call`):
/// `bash -lc SCRIPT` (and `sh`/`zsh`, `-c`/`-lc`) gives the script; anything else is joined
/// with shell quoting.
pub fn argv_to_command(argv: &[String]) -> String {
    if let [shell, flag, script] = argv {
        let base = crate::shell::program_name(shell);
        if matches!(base.as_ref(), "bash" | "sh" | "zsh" | "dash" | "ksh")
            && matches!(flag.as_str(), "-c" | "-lc" | "-cl" | "-l -c")
        {
            return script.clone();
        }
    }
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Map a Codex function call to the tool name and input its hook receives (HOOKS.md B2).
pub(crate) fn codex_tool(name: &str, args: &Value) -> (String, Value) {
    let argv = |v: &Value| -> Option<Vec<String>> {
        v.as_array().map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
    };
    // A command line: a string as is, an argv shell-quoted.
    let command = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => argv(v).map(|a| argv_to_command(&a)).unwrap_or_default(),
        None => String::new(),
    };
    match name {
        "shell" | "container.exec" | "shell_command" => (
            "Bash".into(),
            json!({ "command": command(args.get("command")) }),
        ),
        "exec_command" => {
            let cmd = command(args.get("cmd").or_else(|| args.get("command")));
            ("Bash".into(), json!({ "command": cmd }))
        }
        "apply_patch" => {
            let patch = args
                .get("input")
                .or_else(|| args.get("patch"))
                .or_else(|| args.get("command"))
                .cloned()
                .unwrap_or_else(|| args.clone());
            ("apply_patch".into(), json!({ "command": patch }))
        }
        _ => (name.to_string(), args.clone()),
    }
}
