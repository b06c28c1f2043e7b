//! Tests of the agent-settings lens: each change class from whole files, from edits of files
//! on disk, from fragments (not on disk), and through the shell and patch routes.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use std::path::PathBuf;

use serde_json::{Value, json};

use super::super::{Effects, What, effects_of};
use crate::shell_env::ShellEnv;

fn env(home: &str, project: Option<&str>) -> ShellEnv {
    ShellEnv::new(project.map(str::to_string), home)
}

/// The settings changes of a call, as `(change, detail)`.
fn changes_in(fx: &Effects) -> Vec<(&'static str, String)> {
    fx.list
        .iter()
        .filter_map(|e| match &e.what {
            What::Configure(c) => Some((c.change.name(), c.detail.clone())),
            _ => None,
        })
        .collect()
}

fn changes(tool: &str, input: Value) -> Vec<(&'static str, String)> {
    let payload = json!({"cwd": "/nonexistent/p", "tool_name": tool, "tool_input": input});
    changes_in(&effects_of(&payload, &env("/nonexistent/home", None)))
}

/// A fresh folder for files on disk.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sg-settings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".claude")).unwrap();
    std::fs::create_dir_all(d.join(".codex")).unwrap();
    d
}

const HOOKED: &str = r#"{
  "permissions": { "allow": ["Bash(npm test)"], "defaultMode": "default" },
  "hooks": {
    "PreToolUse": [
      { "matcher": "*", "hooks": [ { "type": "command", "command": "seamguard hook --dialect claude-code" } ] }
    ]
  }
}
"#;

#[test]
fn whole_file_writes_name_each_change() {
    assert_eq!(
        changes(
            "Write",
            json!({"file_path": "/nonexistent/p/.claude/settings.json",
                   "content": "{\"permissions\": {\"defaultMode\": \"bypassPermissions\"}}"})
        ),
        [(
            "bypass-approval",
            "`permissions.defaultMode = \"bypassPermissions\"`".to_string()
        )]
    );
    assert_eq!(
        changes(
            "Write",
            json!({"file_path": "~/.claude/settings.local.json",
                   "content": "{\"permissions\": {\"allow\": [\"Bash(*)\", \"Bash(npm test)\", \"Read\", \"Bash\"], \"deny\": [\"Bash(:*)\"]}}"})
        ),
        [
            (
                "blanket-allow",
                "`Bash(*)` added to permissions.allow".to_string()
            ),
            (
                "blanket-allow",
                "`Bash` added to permissions.allow".to_string()
            ),
        ]
    );
    assert_eq!(
        changes(
            "Write",
            json!({"file_path": "/home/u/.codex/config.toml",
                   "content": "model = \"gpt-5\"\n[features]\nhooks = false\n[profiles.fast]\nsandbox_mode = \"danger-full-access\"\n"})
        ),
        [
            (
                "bypass-approval",
                "`profiles.fast.sandbox_mode = \"danger-full-access\"`".to_string()
            ),
            ("guard-removed", "`features.hooks = false`".to_string()),
        ]
    );
}

#[test]
fn ordinary_settings_changes_are_not_reported() {
    for (path, content) in [
        (
            "/nonexistent/p/.claude/settings.json",
            "{\"permissions\": {\"allow\": [\"Bash(npm test)\", \"Bash(git status:*)\", \"WebFetch(domain:docs.rs)\"], \"defaultMode\": \"acceptEdits\"}, \"model\": \"opus\"}",
        ),
        (
            "/nonexistent/home/.codex/config.toml",
            "approval_policy = \"on-request\"\nsandbox_mode = \"workspace-write\"\n[features]\nhooks = true\n",
        ),
        // Not a settings file.
        (
            "/nonexistent/p/docs/settings.json",
            "{\"permissions\": {\"defaultMode\": \"bypassPermissions\"}}",
        ),
    ] {
        assert_eq!(
            changes("Write", json!({"file_path": path, "content": content})),
            [],
            "{path}"
        );
    }
}

#[test]
fn edits_are_applied_to_the_file_on_disk() {
    let d = scratch("edit");
    let f = d.join(".claude/settings.json");
    std::fs::write(&f, HOOKED).unwrap();
    let f = f.to_str().unwrap();
    // The seamguard command rewritten.
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"command\": \"seamguard hook --dialect claude-code\"", "new_string": "\"command\": \"true\""})
        ),
        [(
            "guard-removed",
            "the PreToolUse hook `seamguard hook --dialect claude-code` (matcher `*`) is removed or changed"
                .to_string()
        )]
    );
    // The matcher narrowed: seamguard no longer sees the calls.
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"matcher\": \"*\"", "new_string": "\"matcher\": \"NoSuchTool\""})
        )
        .len(),
        1
    );
    // A permission added next to it, and a mode changed: not the guard's business here.
    assert_eq!(
        changes(
            "MultiEdit",
            json!({"file_path": f, "edits": [
                {"old_string": "\"Bash(npm test)\"", "new_string": "\"Bash(npm test)\", \"Bash(cargo build:*)\""},
                {"old_string": "\"defaultMode\": \"default\"", "new_string": "\"defaultMode\": \"plan\""}
            ]})
        ),
        []
    );
    // An edit whose old text is not in the file fails in the tool: nothing changes.
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"nothing like this\"", "new_string": "\"defaultMode\": \"bypassPermissions\""})
        ),
        []
    );
    // Text that breaks the file: the agent drops it, hooks and all.
    assert!(
        guard_removed(
            "Edit",
            json!({"file_path": f, "old_string": "\"hooks\": {", "new_string": "\"hooks\": {{"}),
        )
        .starts_with("the file would no longer parse")
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The detail of the one change of a call, which must be `guard-removed`.
fn guard_removed(tool: &str, input: Value) -> String {
    match changes(tool, input).as_slice() {
        [("guard-removed", detail)] => detail.clone(),
        other => format!("not one guard-removed change: {other:?}"),
    }
}

#[test]
fn a_settings_file_written_so_that_it_does_not_parse_removes_every_hook() {
    // Not on disk: a whole write of text that is no JSON.
    let f = "/nonexistent/p/.claude/settings.local.json";
    assert_eq!(
        guard_removed(
            "Write",
            json!({"file_path": f, "content": "written by the agent"}),
        ),
        "the file would not parse (expected value at line 1 column 1): the host drops it, hooks and all"
    );
    // A valid document without hooks, and an empty object: nothing the guard loses.
    assert_eq!(
        changes(
            "Write",
            json!({"file_path": f, "content": "{\"permissions\": {\"allow\": [\"Bash(npm test)\"]}}"})
        ),
        []
    );
    assert_eq!(
        changes("Write", json!({"file_path": f, "content": "{}"})),
        []
    );
    // On disk without any hook: an edit that breaks the file still drops it.
    let d = scratch("broken-no-hooks");
    let p = d.join(".claude/settings.json");
    std::fs::create_dir_all(p.parent().unwrap_or(&d)).ok();
    std::fs::write(&p, "{\"permissions\": {\"allow\": []}}").ok();
    let f = p.to_string_lossy().to_string();
    assert!(
        guard_removed(
            "Edit",
            json!({"file_path": f, "old_string": "\"allow\": []", "new_string": "\"allow\": [,]"}),
        )
        .starts_with("the file would no longer parse (")
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fragments_show_what_they_contain_when_the_file_is_not_on_disk() {
    let f = "/nonexistent/p/.claude/settings.json";
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"allow\": [", "new_string": "\"allow\": [\n      \"Bash(*)\","})
        ),
        [(
            "blanket-allow",
            "`Bash(*)` added to permissions.allow".to_string()
        )]
    );
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"allow\": [", "new_string": "\"allow\": [\n      \"Bash(npm test)\","})
        ),
        []
    );
    // A blanket rule added to `deny` restricts.
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"deny\": [", "new_string": "\"deny\": [\"Bash(*)\","})
        ),
        []
    );
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "\"defaultMode\": \"default\"", "new_string": "\"defaultMode\": \"bypassPermissions\""})
        ),
        [(
            "bypass-approval",
            "`permissions.defaultMode = \"bypassPermissions\"`".to_string()
        )]
    );
    assert_eq!(
        changes(
            "Edit",
            json!({"file_path": f, "old_string": "{ \"type\": \"command\", \"command\": \"seamguard hook --dialect claude-code\" }", "new_string": ""})
        ),
        [(
            "guard-removed",
            "the hook `seamguard hook --dialect claude-code` is removed or changed".to_string()
        )]
    );
}

#[test]
fn patches_and_shell_writes_are_read_too() {
    let d = scratch("patch");
    let cfg = d.join(".codex/config.toml");
    std::fs::write(
        &cfg,
        "model = \"gpt-5\"\napproval_policy = \"on-request\"\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let patch = format!(
        "*** Begin Patch\n*** Update File: {cfg}\n@@\n model = \"gpt-5\"\n-approval_policy = \"on-request\"\n+approval_policy = \"never\"\n*** End Patch\n"
    );
    assert_eq!(
        changes("apply_patch", json!({"command": patch})),
        [(
            "bypass-approval",
            "`approval_policy = \"never\"`".to_string()
        )]
    );
    let patch = format!(
        "*** Begin Patch\n*** Update File: {cfg}\n@@\n-model = \"gpt-5\"\n+model = \"gpt-5-codex\"\n*** End Patch\n"
    );
    assert_eq!(changes("apply_patch", json!({"command": patch})), []);
    // Appending to the file on disk.
    assert_eq!(
        changes(
            "Bash",
            json!({"command": format!("printf 'sandbox_mode = \"danger-full-access\"\\n' >> {cfg}")})
        ),
        [(
            "bypass-approval",
            "`sandbox_mode = \"danger-full-access\"`".to_string()
        )]
    );
    assert_eq!(
        changes(
            "Bash",
            json!({"command": "echo '{\"permissions\":{\"defaultMode\":\"bypassPermissions\"}}' > ~/.claude/settings.json"})
        ),
        [(
            "bypass-approval",
            "`permissions.defaultMode = \"bypassPermissions\"`".to_string()
        )]
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_hook_script_rewritten_without_seamguard_removes_the_guard() {
    let d = scratch("script");
    std::fs::create_dir_all(d.join(".claude/hooks")).unwrap();
    std::fs::write(
        d.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}}"#,
    )
    .unwrap();
    let script = d.join(".claude/hooks/guard.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nexec seamguard hook --dialect claude-code\n",
    )
    .unwrap();
    let p = d.to_str().unwrap();
    let run = |content: &str| {
        let payload = json!({"cwd": p, "tool_name": "Write",
            "tool_input": {"file_path": script.to_str().unwrap(), "content": content}});
        changes_in(&effects_of(&payload, &env("/nonexistent/home", Some(p))))
    };
    assert_eq!(
        run("#!/bin/sh\nexit 0\n"),
        [(
            "guard-removed",
            "a hook script that runs seamguard is rewritten without it".to_string()
        )]
    );
    assert_eq!(
        run("#!/bin/sh\nset -eu\nexec seamguard hook --dialect claude-code --policy .seamguard\n"),
        []
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn mcp_edits_are_read_as_fragments() {
    let f = "/nonexistent/p/.claude/settings.json";
    assert_eq!(
        changes(
            "mcp__filesystem__edit_file",
            json!({"path": f, "edits": [{"oldText": "\"defaultMode\": \"default\"", "newText": "\"defaultMode\": \"bypassPermissions\""}]})
        ),
        [(
            "bypass-approval",
            "`permissions.defaultMode = \"bypassPermissions\"`".to_string()
        )]
    );
    assert_eq!(
        changes(
            "mcp__filesystem__write_file",
            json!({"path": f, "content": "{\"model\": \"opus\"}"})
        ),
        []
    );
}

#[test]
fn emptied_hooks_and_no_op_commands_remove_the_guard() {
    let emptied = (
        "guard-removed",
        "every hook is removed (`\"hooks\"` emptied)".to_string(),
    );
    let no_op = (
        "guard-removed",
        "a hook command is replaced by one that does nothing".to_string(),
    );
    // Not on disk: the written text empties the hooks or neuters a command.
    for (tool, input, want) in [
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.claude/settings.json", "content": "{\"hooks\": {}}"}),
            &emptied,
        ),
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.cursor/hooks.json", "content": "{\"version\": 1, \"hooks\": {\"beforeShellExecution\": []}}"}),
            &emptied,
        ),
        (
            "Edit",
            json!({"file_path": "/nonexistent/p/.gemini/settings.json", "old_string": "\"command\": \"./guard.sh\"", "new_string": "\"command\": \"true\""}),
            &no_op,
        ),
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.github/hooks/guard.json", "content": "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"true\"}]}}"}),
            &no_op,
        ),
    ] {
        assert!(
            changes(tool, input.clone()).contains(want),
            "{tool} {input}"
        );
    }
    // Everyday edits of the same files change no hook.
    for (tool, input) in [
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.gemini/settings.json", "content": "{\"theme\": \"dark\"}"}),
        ),
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.cursor/hooks.json", "content": "{\"version\": 1, \"hooks\": {\"afterFileEdit\": [{\"command\": \"npx prettier --write\"}]}}"}),
        ),
        (
            "Write",
            json!({"file_path": "/nonexistent/p/.gemini/settings.json", "content": "{\"hooks\": {\"enabled\": true}}"}),
        ),
    ] {
        assert_eq!(changes(tool, input.clone()), Vec::new(), "{tool} {input}");
    }
    // On disk: a file that had hooks, written with none; one that had none stays quiet.
    let d = scratch("emptied");
    let f = d.join(".claude/settings.json");
    std::fs::write(&f, HOOKED).unwrap();
    let p = f.to_string_lossy().to_string();
    let got = changes(
        "Write",
        json!({"file_path": p, "content": "{\"permissions\": {}, \"hooks\": {}}"}),
    );
    // (seamguard's entry was among them: that is what is named.)
    assert!(got.iter().any(|(c, _)| *c == "guard-removed"), "{got:?}");
    std::fs::write(
        &f,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "make lint"}]}]}}"#,
    )
    .unwrap();
    let got = changes(
        "Write",
        json!({"file_path": p, "content": "{\"permissions\": {}, \"hooks\": {}}"}),
    );
    assert!(got.contains(&emptied), "{got:?}");
    std::fs::write(&f, "{\"permissions\": {}}").unwrap();
    assert_eq!(
        changes(
            "Write",
            json!({"file_path": p, "content": "{\"permissions\": {}, \"hooks\": {}}"})
        ),
        Vec::new()
    );
    let _ = std::fs::remove_dir_all(&d);
}
