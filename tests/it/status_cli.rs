//! `seamguard status` on a temporary HOME: no hook installed, hooks installed but never run,
//! a hook that ran, a command in a build folder, and the JSON form; Gemini CLI, Cursor and
//! Copilot CLI hooks files (events, what a failing hook does, the last run of their dialect).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::support::{BIN, Run, output_with_stdin};

static NEXT: AtomicUsize = AtomicUsize::new(0);

const POLICY: &str = r#"
[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { contains = "git push" }
decision = "ask"
"#;

/// A fresh folder with `home/`, `proj/` (the working folder), a user policy and `bin/seamguard`
/// (a script running the tested binary: a stable install, as `PATH` would find it).
fn workdir() -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("status-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["home", "proj", "bin", "config/seamguard"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::write(dir.join("config/seamguard/p.toml"), POLICY).unwrap();
    let script = dir.join("bin/seamguard");
    std::fs::write(&script, format!("#!/bin/sh\nexec '{BIN}' \"$@\"\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

fn seamguard(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let mut cmd = crate::support::command();
    cmd.args(args)
        .current_dir(dir.join("proj"))
        .env("HOME", dir.join("home"))
        .env("PATH", path)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
        // The test's files live wherever the checkout is (a CI clone may be under /tmp): the
        // temp folder status warns about is another one.
        .env("TMPDIR", dir.join("system-tmp"))
        .env_remove("CODEX_HOME")
        .env_remove("COPILOT_HOME")
        .env_remove("SEAMGUARD_AUDIT_LOG")
        .env_remove("CLAUDE_PROJECT_DIR");
    Run::utf8(output_with_stdin(&mut cmd, stdin))
}

/// `status`'s expected text: `{home}`, `{bin}`, `{v}` and `{log}` in `text` filled with the
/// test's home, its `bin/seamguard`, the version and its audit log.
fn expected_status(dir: &Path, text: &str) -> String {
    text.replace("{home}", &dir.join("home").display().to_string())
        .replace(
            "{bin}",
            &dir.join("bin/seamguard")
                .canonicalize()
                .unwrap()
                .display()
                .to_string(),
        )
        .replace("{v}", env!("CARGO_PKG_VERSION"))
        .replace(
            "{log}",
            &dir.join("state/seamguard/audit.jsonl")
                .display()
                .to_string(),
        )
}

fn claude_settings(dir: &Path, command: &str) {
    let handler =
        json!([{ "hooks": [{ "type": "command", "command": command, "onFailure": "block" }] }]);
    let s = json!({ "hooks": { "PreToolUse": handler, "PermissionRequest": handler } });
    std::fs::create_dir_all(dir.join("home/.claude")).unwrap();
    std::fs::write(dir.join("home/.claude/settings.json"), s.to_string()).unwrap();
}

#[test]
fn nothing_installed_is_a_problem() {
    let dir = workdir();
    let r = seamguard(&dir, &["status"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!(
            "Claude Code\n  hook: not installed (run `seamguard init`)\nCodex\n  hook: not installed (run `seamguard init --agent codex`)\nPolicies\n  1 file, 1 rule, 0 errors, 0 duplicates\nAudit log: {}\nproblem: seamguard's hook is not installed for any agent: run `seamguard init`\n",
            dir.join("state/seamguard/audit.jsonl").display()
        )
    );
}

#[test]
fn installed_but_never_run_then_run() {
    let dir = workdir();
    claude_settings(&dir, "seamguard hook --dialect claude-code");
    let r = seamguard(&dir, &["status"], b"");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let expected = expected_status(
        &dir,
        "Claude Code\n  hook: {home}/.claude/settings.json (user): PermissionRequest, PreToolUse\n  not hooked: SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure, Stop, SubagentStop, SubagentStart, Notification, PreCompact, PostCompact, SessionEnd\n  command: seamguard hook --dialect claude-code -> {bin} (seamguard {v}, stable)\n  when the hook fails: blocks the call (onFailure = \"block\" on the seamguard handlers)\n  last ran: never\nCodex\n  hook: not installed (run `seamguard init --agent codex`)\nPolicies\n  1 file, 1 rule, 0 errors, 0 duplicates\nAudit log: {log}\nwarning: Claude Code: the hook is installed but has never run (no record in the audit log)\n",
    );
    assert_eq!(r.stdout, expected);

    let payload = json!({
        "session_id": "s1", "transcript_path": "", "cwd": dir.join("proj").display().to_string(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    let h = seamguard(
        &dir,
        &["hook", "--dialect", "claude-code"],
        payload.to_string().as_bytes(),
    );
    assert_eq!(h.code, 0, "{}", h.stderr);
    let r = seamguard(&dir, &["status", "--format", "json"], b"");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let claude = &v["agents"][0];
    assert_eq!(claude["agent"], "claude-code");
    assert_eq!(claude["installed"], true);
    assert_eq!(claude["events"], json!(["PermissionRequest", "PreToolUse"]));
    assert!(claude["last_run_ms"].as_u64().unwrap() > 1_700_000_000_000);
    assert_eq!(claude["commands"][0]["stable"], true);
    assert_eq!(v["agents"][1]["installed"], false);
    assert_eq!(v["policies"]["source"], "configured");
    assert_eq!(v["policies"]["rules"], 1);
    assert_eq!(v["warnings"], json!([]));
    assert_eq!(v["problems"], json!([]));
    let r = seamguard(&dir, &["status"], b"");
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("  last ran: "))
        .unwrap();
    assert!(
        line.ends_with(" s ago)") && line.contains(" UTC ("),
        "{line}"
    );
}

#[test]
fn a_hook_run_from_a_build_folder_and_codex_hooks_turned_off_are_problems() {
    let dir = workdir();
    std::fs::remove_dir_all(dir.join("config")).unwrap();
    let codex = dir.join("home/.codex");
    std::fs::create_dir_all(&codex).unwrap();
    let handler = json!([{ "hooks": [{ "type": "command", "command": format!("{BIN} hook --dialect codex") }] }]);
    std::fs::write(
        codex.join("hooks.json"),
        json!({ "hooks": { "PreToolUse": handler } }).to_string(),
    )
    .unwrap();
    std::fs::write(codex.join("config.toml"), "[features]\nhooks = false\n").unwrap();
    let r = seamguard(&dir, &["status", "--format", "json"], b"");
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let bin = Path::new(BIN).canonicalize().unwrap();
    assert_eq!(
        v["problems"],
        json!([
            format!(
                "Codex: {} is in a build folder: rebuilding or `cargo clean` replaces or removes it",
                bin.display()
            ),
            format!(
                "Codex: hooks are turned off (features.hooks = false in {})",
                codex.join("config.toml").display()
            ),
        ])
    );
    assert_eq!(
        v["agents"][1]["on_hook_failure"],
        "runs the call (Codex has no setting that blocks on a failed hook)"
    );
    assert_eq!(v["policies"]["source"], "built-in");
    assert!(
        v["policies"]["notice"]
            .as_str()
            .unwrap()
            .contains("built-in balanced library")
    );
}

#[test]
fn two_different_seamguard_commands_judge_each_call_twice() {
    let dir = workdir();
    claude_settings(&dir, "seamguard hook --dialect claude-code");
    let handler = json!([{ "hooks": [{ "type": "command", "command": "seamguard hook --dialect claude-code --policy p.toml" }] }]);
    std::fs::create_dir_all(dir.join("proj/.claude")).unwrap();
    std::fs::write(
        dir.join("proj/.claude/settings.json"),
        json!({ "hooks": { "PreToolUse": handler } }).to_string(),
    )
    .unwrap();
    let r = seamguard(&dir, &["status", "--format", "json"], b"");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["warnings"],
        json!([
            "Claude Code: seamguard is hooked in 2 files with 2 different commands, so each call is judged more than once",
            "Claude Code: the hook is installed but has never run (no record in the audit log)"
        ])
    );
    // Only the user file blocks on failure: the project handler lets a call run.
    assert!(
        v["agents"][0]["on_hook_failure"]
            .as_str()
            .unwrap()
            .starts_with("runs the call")
    );
    assert_eq!(v["agents"][0]["files"][1]["events"], json!(["PreToolUse"]));
}

/// A Cursor `hooks.json` with the seamguard entry on `events`, `failClosed` as given.
fn cursor_hooks(dir: &Path, events: &[&str], fail_closed: bool) {
    let mut entry = json!({ "command": "seamguard hook --dialect cursor" });
    if fail_closed {
        entry["failClosed"] = json!(true);
    }
    let hooks: serde_json::Map<String, Value> = events
        .iter()
        .map(|e| (e.to_string(), json!([{ "command": "./audit.sh" }, entry])))
        .collect();
    std::fs::create_dir_all(dir.join("home/.cursor")).unwrap();
    std::fs::write(
        dir.join("home/.cursor/hooks.json"),
        json!({ "version": 1, "hooks": hooks }).to_string(),
    )
    .unwrap();
}

const CURSOR_GATING: [&str; 4] = [
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
];

#[test]
fn cursor_hooked_fail_closed_then_run_in_its_dialect() {
    let dir = workdir();
    cursor_hooks(&dir, &CURSOR_GATING, true);
    let r = seamguard(&dir, &["status"], b"");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let expected = expected_status(
        &dir,
        "Claude Code\n  hook: not installed (run `seamguard init`)\nCodex\n  hook: not installed (run `seamguard init --agent codex`)\nCursor\n  hook: {home}/.cursor/hooks.json (user): beforeMCPExecution, beforeReadFile, beforeShellExecution, preToolUse\n  not hooked: postToolUse, beforeSubmitPrompt, stop, sessionStart, sessionEnd\n  command: seamguard hook --dialect cursor -> {bin} (seamguard {v}, stable)\n  when the hook fails: blocks the call (\"failClosed\": true on the seamguard entries of the tool events)\n  last ran: never\nPolicies\n  1 file, 1 rule, 0 errors, 0 duplicates\nAudit log: {log}\nwarning: Cursor: the hook is installed but has never run (no record in the audit log)\n",
    );
    assert_eq!(r.stdout, expected);

    // One call in Cursor's own shape: the record carries the dialect, so only Cursor ran.
    let payload = json!({
        "conversation_id": "c1", "generation_id": "g1", "hook_event_name": "beforeShellExecution",
        "command": "git push origin main", "cwd": dir.join("proj").display().to_string(),
        "workspace_roots": [dir.join("proj").display().to_string()],
    });
    let h = seamguard(&dir, &["hook"], payload.to_string().as_bytes());
    assert_eq!(h.code, 0, "{}", h.stderr);
    assert!(
        h.stdout.starts_with(r#"{"permission":"ask""#),
        "{}",
        h.stdout
    );
    let r = seamguard(&dir, &["status", "--format", "json"], b"");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let agents = v["agents"].as_array().unwrap();
    let names: Vec<&str> = agents
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "claude-code",
            "codex",
            "gemini-cli",
            "cursor",
            "copilot-cli"
        ]
    );
    let cursor = &agents[3];
    assert_eq!(cursor["installed"], true);
    assert!(cursor["last_run_ms"].as_u64().unwrap() > 1_700_000_000_000);
    for other in [0, 1, 2, 4] {
        assert_eq!(agents[other]["installed"], false);
        assert_eq!(agents[other]["last_run_ms"], Value::Null);
    }
    assert_eq!(v["warnings"], json!([]));
    assert_eq!(v["problems"], json!([]));
}

#[test]
fn cursor_without_fail_closed_gemini_turned_off_and_copilot_are_reported() {
    let dir = workdir();
    // failClosed missing, and beforeReadFile not hooked at all.
    cursor_hooks(&dir, &CURSOR_GATING[..3], false);
    let gemini = dir.join("proj/.gemini");
    std::fs::create_dir_all(&gemini).unwrap();
    std::fs::write(
        gemini.join("settings.json"),
        "{\n  // turned off for now\n  \"hooksConfig\": { \"enabled\": false },\n  \"hooks\": { \"BeforeTool\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"seamguard hook --dialect gemini-cli\" } ] } ] }\n}\n",
    )
    .unwrap();
    let copilot = dir.join("proj/.github/hooks");
    std::fs::create_dir_all(&copilot).unwrap();
    std::fs::write(
        copilot.join("guard.json"),
        json!({ "version": 1, "hooks": { "preToolUse": [{ "type": "command", "bash": "seamguard hook --dialect copilot-cli" }] } }).to_string(),
    )
    .unwrap();
    let r = seamguard(&dir, &["status", "--format", "json"], b"");
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["problems"],
        json!([
            "Gemini CLI: hooks are turned off (hooksConfig.enabled = false in ".to_string()
                + &gemini.join("settings.json").display().to_string()
                + ")",
            "Cursor: seamguard has no beforeReadFile hook, so tool calls are not checked there",
        ])
    );
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents[2]["events"], json!(["BeforeTool"]));
    assert_eq!(
        agents[2]["on_hook_failure"],
        "runs the call (Gemini CLI only warns when a hook fails with another exit code than 0 or 2; it has no setting that blocks)"
    );
    assert_eq!(
        agents[3]["on_hook_failure"],
        "runs the call (a seamguard entry of a tool event has no \"failClosed\": true; `seamguard init --agent cursor` writes it)"
    );
    assert_eq!(agents[4]["installed"], true);
    assert_eq!(agents[4]["events"], json!(["preToolUse"]));
    assert_eq!(
        agents[4]["files"][1]["path"],
        copilot.join("guard.json").display().to_string()
    );
    assert!(
        agents[4]["on_hook_failure"]
            .as_str()
            .unwrap()
            .starts_with("runs the call on a timeout")
    );
    // The text report names a host that is in use but not hooked, with the flag to hook it.
    std::fs::remove_file(copilot.join("guard.json")).unwrap();
    let r = seamguard(&dir, &["status"], b"");
    assert!(
        r.stdout.contains(
            "Copilot CLI\n  hook: not installed (run `seamguard init --agent copilot-cli`)\n"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn an_audit_log_and_state_folder_that_cannot_be_written_are_warned_about() {
    let dir = workdir();
    // Nothing can be created under /proc, whoever runs the test.
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let mut cmd = crate::support::seamguard();
    cmd.args(["status"])
        .current_dir(dir.join("proj"))
        .env("HOME", dir.join("home"))
        .env("PATH", path)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", "/proc/seamguard-test-state")
        .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
        .env("SEAMGUARD_AUDIT_LOG", "/proc/seamguard-test/audit.jsonl")
        .env("TMPDIR", dir.join("system-tmp"))
        .env_remove("CODEX_HOME")
        .env_remove("COPILOT_HOME")
        .env_remove("CLAUDE_PROJECT_DIR");
    let r = Run::utf8(output_with_stdin(&mut cmd, b""));
    let warnings: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 2, "{}", r.stdout);
    assert!(
        warnings[0].starts_with(
            "warning: the audit log /proc/seamguard-test/audit.jsonl cannot be written (/proc ("
        ) && warnings[0]
            .ends_with("): decisions are not recorded, and `seamguard allow --last` finds nothing"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].starts_with(
            "warning: the state folder /proc/seamguard-test-state/seamguard cannot be written (/proc ("
        ) && warnings[1].ends_with(
            "): no policy snapshots, session memory or resident server"
        ),
        "{}",
        warnings[1]
    );
}

/// A project `.seamguard/` folder that cannot be listed is not skipped (its deny rules then
/// silently stopped applying and the built-in library judged): the hook denies tool calls
/// with the cause, and `status` reports the error. Run as a user the folder is closed to
/// (as root, the test runs the commands as `nobody`, since root reads any folder).
#[test]
fn an_unreadable_project_policy_folder_fails_closed_and_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = workdir();
    let open = |p: &Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    for d in ["", "home", "proj", "config", "config/seamguard"] {
        open(&dir.join(d), 0o777);
    }
    let project = dir.join("proj/.seamguard");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("p.toml"),
        "[[rule]]\nid = \"no-ls\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"ls\" }\ndecision = \"deny\"\n",
    )
    .unwrap();
    // No user policy: only the project's.
    std::fs::remove_file(dir.join("config/seamguard/p.toml")).unwrap();
    open(&project, 0o000);
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    let run = |args: &[&str], stdin: &[u8]| {
        let mut cmd = if root {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
            c
        } else {
            std::process::Command::new(BIN)
        };
        cmd.args(args)
            .current_dir(dir.join("proj"))
            .env("HOME", dir.join("home"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_STATE_HOME", dir.join("home"))
            .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
            .env("SEAMGUARD_AUDIT_LOG", "off")
            .env("SEAMGUARD_SERVE", "0")
            .env_remove("CLAUDE_PROJECT_DIR");
        Run::utf8(output_with_stdin(&mut cmd, stdin))
    };
    let payload = json!({"session_id": "s", "cwd": dir.join("proj").display().to_string(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let r = run(&["hook"], payload.to_string().as_bytes());
    open(&project, 0o755);
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let cause = format!(
        "{}:1:1: error: cannot read policy file: Permission denied (os error 13)",
        project.display()
    );
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{}{}",
        r.stdout, r.stderr
    );
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"],
        format!(
            "seamguard policy {} failed to load, so tool calls are denied until it is fixed: {cause}. Fix it (`seamguard check {}`), or set `on_load_error = \"warn\"` in its [policy] table to let calls through while it is broken [seamguard:load-error]",
            project.display(),
            project.display()
        )
    );
    open(&project, 0o000);
    let r = run(&["status"], b"");
    open(&project, 0o755);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains(&format!(
            "Policies\n  1 file, 0 rules, 1 error, 0 duplicates\n  error: {}:1:1: cannot read policy file: Permission denied (os error 13)\n",
            project.display()
        )),
        "{}",
        r.stdout
    );
}
