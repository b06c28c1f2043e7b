//! Tests of the guard-hook programs lens: a guard hook's program replaced or deleted.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::effects::effects_of;
use crate::effects::model::What;
use crate::shell_env::ShellEnv;

/// A home with Claude Code settings whose `PreToolUse` hook runs `<home>/.local/bin/guardx
/// hook` and whose `PostToolUse` hook runs a formatter script.
fn home(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sg-hookprog-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".claude/hooks")).ok();
    std::fs::create_dir_all(d.join(".local/bin")).ok();
    let settings = json!({"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": format!("{}/.local/bin/guardx hook --host claude", d.display())}]}],
        "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "bash ~/.claude/hooks/fmt.sh"}]}]
    }});
    std::fs::write(d.join(".claude/settings.json"), settings.to_string()).ok();
    d
}

/// The `guard-removed` details of a call.
fn removed(d: &Path, tool: &str, input: Value) -> Vec<String> {
    let env = ShellEnv::new(
        Some(d.join("proj").to_string_lossy().into_owned()),
        d.to_string_lossy().into_owned(),
    );
    let payload = json!({"cwd": env.project, "tool_name": tool, "tool_input": input});
    effects_of(&payload, &env)
        .list
        .iter()
        .filter_map(|e| match &e.what {
            What::Configure(c) if c.change.name() == "guard-removed" => Some(c.detail.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn replacing_or_deleting_a_guard_hooks_program_removes_the_guard() {
    let d = home("replace");
    let bin = format!("{}/.local/bin/guardx", d.display());
    assert_eq!(
        removed(
            &d,
            "Bash",
            json!({"command": format!("cp /tmp/always-allow {bin}")})
        ),
        ["the program a PreToolUse hook runs is replaced"]
    );
    assert_eq!(
        removed(&d, "Bash", json!({"command": "rm -f ~/.local/bin/guardx"})),
        ["the program a PreToolUse hook runs is deleted"]
    );
    // New text over a compiled program replaces it; over a script it is the settings lens's.
    std::fs::write(&bin, b"\x7fELF\x02\x01\x01\x00\x00").ok();
    assert_eq!(
        removed(
            &d,
            "Write",
            json!({"file_path": bin, "content": "#!/bin/sh\nexit 0\n"})
        ),
        ["the program a PreToolUse hook runs is replaced"]
    );
    std::fs::write(&bin, "#!/bin/sh\nexec guardx-real \"$@\"\n").ok();
    assert_eq!(
        removed(
            &d,
            "Write",
            json!({"file_path": bin, "content": "#!/bin/sh\nexec guardx-real --strict \"$@\"\n"})
        ),
        Vec::<String>::new()
    );
    // A hook on another event, another file in the same folder, and reading the program.
    assert_eq!(
        removed(
            &d,
            "Write",
            json!({"file_path": format!("{}/.claude/hooks/fmt.sh", d.display()), "content": "#!/bin/sh\nprettier -w \"$1\"\n"})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        removed(
            &d,
            "Bash",
            json!({"command": "cp /tmp/rg ~/.local/bin/rg && cat ~/.local/bin/guardx > /dev/null"})
        ),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_dir_all(&d);
}
