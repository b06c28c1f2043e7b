//! `seamguard hook` for Gemini CLI, Cursor and Copilot CLI payloads: detected (or named with
//! `--dialect`), judged by the bundled library, answered in the host's own format.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{output_with_stdin, root};

fn hook(dialect: Option<&str>, payload: &Value) -> (i32, String) {
    let mut cmd = crate::support::command();
    cmd.arg("hook").arg("--policy").arg(root().join("policies"));
    if let Some(d) = dialect {
        cmd.args(["--dialect", d]);
    }
    cmd.env("SEAMGUARD_AUDIT_LOG", "off");
    let out = output_with_stdin(&mut cmd, payload.to_string().as_bytes());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The reason `policies/destructive.toml` gives for `sudo rm -rf /`.
const RM_ROOT: &str = "Recursive delete outside the project directory [no-recursive-delete-outside-project]; Recursive delete of /, a top-level system folder or a home folder [no-recursive-delete-of-root-or-home]: rm -rf / (via sudo)";

#[test]
fn gemini_before_tool_is_detected_and_denied_with_decision() {
    let payload = json!({
        "session_id": "s", "transcript_path": "/home/user/.gemini/tmp/h/chats/s.json",
        "cwd": "/home/user/project", "hook_event_name": "BeforeTool",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "tool_name": "run_shell_command", "tool_input": {"command": "sudo rm -rf /"}
    });
    let (code, out) = hook(None, &payload);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!("{}\n", json!({"decision": "deny", "reason": RM_ROOT}))
    );
}

#[test]
fn cursor_shell_event_is_detected_and_denied_with_permission() {
    let payload = json!({
        "conversation_id": "c", "generation_id": "g", "hook_event_name": "beforeShellExecution",
        "cursor_version": "2.0.77", "workspace_roots": ["/home/user/project"],
        "command": "sudo rm -rf /", "cwd": "/home/user/project"
    });
    let (code, out) = hook(None, &payload);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "{}\n",
            json!({"permission": "deny", "user_message": RM_ROOT, "agent_message": RM_ROOT})
        )
    );
}

#[test]
fn copilot_tool_args_string_is_parsed_and_denied() {
    let payload = json!({
        "timestamp": 1_704_614_600_000_u64, "cwd": "/home/user/project",
        "toolName": "bash", "toolArgs": "{\"command\":\"sudo rm -rf /\",\"description\":\"clean\"}"
    });
    let (code, out) = hook(Some("copilot-cli"), &payload);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "{}\n",
            json!({"permissionDecision": "deny", "permissionDecisionReason": RM_ROOT})
        )
    );
}

#[test]
fn malformed_copilot_tool_args_are_denied_not_passed() {
    let payload = json!({
        "timestamp": 1, "cwd": "/home/user/project", "toolName": "bash",
        "toolArgs": "{\"command\": \"rm -rf ~"
    });
    let (code, out) = hook(None, &payload);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(v["permissionDecision"], "deny", "{out}");
    let reason = v["permissionDecisionReason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(
            "seamguard could not judge this tool call: the toolArgs of preToolUse are not a JSON string"
        ),
        "{reason}"
    );
}

#[test]
fn host_events_seamguard_does_not_judge_get_no_answer() {
    let payload = json!({
        "session_id": "s", "cwd": "/home/user/project", "hook_event_name": "BeforeModel",
        "timestamp": "2026-01-01T00:00:00.000Z", "llm_request": {"model": "gemini-2.5-pro"}
    });
    assert_eq!(hook(None, &payload), (0, String::new()));
    let ls = json!({
        "session_id": "s", "cwd": "/home/user/project", "hook_event_name": "BeforeTool",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls -la"}
    });
    assert_eq!(hook(Some("gemini-cli"), &ls), (0, String::new()));
}

/// An ask Cursor does not enforce on `preToolUse` is denied with how to approve it, and
/// approving it (`seamguard allow --last`) lets the same call run.
#[test]
fn cursor_pre_tool_ask_is_denied_until_approved_with_allow_last() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hosts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let policy = "[[rule]]\nid = \"config-ask\"\nseam = \"pre-tool\"\ntool = \"Write\"\nwhen.file_path = { glob = \"**/deploy.yml\" }\ndecision = \"ask\"\nreason = \"Changing the deployment needs your approval\"\n";
    std::fs::write(dir.join("ask.toml"), policy).unwrap_or_default();
    let run = |args: &[&str], stdin: &[u8]| {
        let mut cmd = crate::support::command();
        cmd.args(args)
            .current_dir(&dir)
            .env("HOME", dir.join("home"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
            .env_remove("SEAMGUARD_AUDIT_LOG")
            .env_remove("CLAUDE_PROJECT_DIR");
        output_with_stdin(&mut cmd, stdin)
    };
    let payload = json!({
        "conversation_id": "c1", "generation_id": "g", "hook_event_name": "preToolUse",
        "cursor_version": "2.0.77", "workspace_roots": [dir.display().to_string()],
        "tool_name": "Write",
        "tool_input": {"file_path": dir.join("deploy.yml").display().to_string(), "content": "replicas: 3\n"},
        "tool_use_id": "t1"
    })
    .to_string();
    let first = run(&["hook", "--policy", "ask.toml"], payload.as_bytes());
    let v: Value = serde_json::from_slice(&first.stdout).unwrap_or_default();
    assert_eq!(v["permission"], "deny", "{v}");
    assert_eq!(
        v["agent_message"],
        "Approval required: Changing the deployment needs your approval [config-ask] — Cursor does not enforce a confirmation on preToolUse, so seamguard denies; if the call is intended, the user can approve it with `seamguard allow --last` and retry."
    );
    let allow = run(&["allow", "--last"], b"");
    assert_eq!(
        allow.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&allow.stderr)
    );
    let again = run(&["hook", "--policy", "ask.toml"], payload.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        "{\"permission\":\"allow\"}\n"
    );
}

/// Cursor sends a shell command as `preToolUse` and as `beforeShellExecution` (an MCP call:
/// `beforeMCPExecution`): only the event that enforces an ask is answered, so Cursor gets one
/// answer per call (it got an ask and a deny for the same command).
#[test]
fn cursor_gets_one_answer_for_a_shell_or_mcp_call() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hosts-one-answer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let policy = "[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\nwhen.runs = { program = \"git\", subcommand = \"push\" }\ndecision = \"ask\"\nreason = \"Pushing needs your approval\"\n\n[[rule]]\nid = \"mcp-ask\"\nseam = \"pre-tool\"\ntool = \"mcp__.*\"\ndecision = \"ask\"\nreason = \"MCP calls need your approval\"\n";
    std::fs::write(dir.join("ask.toml"), policy).unwrap_or_default();
    let run = |payload: Value| {
        let mut cmd = crate::support::command();
        cmd.args(["hook", "--policy", "ask.toml"])
            .current_dir(&dir)
            .env("HOME", dir.join("home"))
            .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
            .env("SEAMGUARD_AUDIT_LOG", "off");
        let out = output_with_stdin(&mut cmd, payload.to_string().as_bytes());
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let base = |event: &str| {
        json!({
            "conversation_id": "c1", "generation_id": "g", "hook_event_name": event,
            "cursor_version": "2.0.77", "workspace_roots": [dir.display().to_string()],
        })
    };
    let mut pre = base("preToolUse");
    pre["tool_name"] = json!("Shell");
    pre["tool_input"] = json!({"command": "git push origin main"});
    assert_eq!(run(pre), (Some(0), String::new()));
    let mut shell = base("beforeShellExecution");
    shell["command"] = json!("git push origin main");
    shell["cwd"] = json!(dir.display().to_string());
    assert_eq!(
        run(shell),
        (
            Some(0),
            "{\"permission\":\"ask\",\"user_message\":\"Pushing needs your approval: git push origin main [push-ask]\",\"agent_message\":\"Pushing needs your approval: git push origin main [push-ask]\"}\n".to_string()
        )
    );
    let mut pre_mcp = base("preToolUse");
    pre_mcp["tool_name"] = json!("MCP:read_file");
    pre_mcp["mcp_server_name"] = json!("fs");
    pre_mcp["tool_input"] = json!({"path": "a.txt"});
    assert_eq!(run(pre_mcp), (Some(0), String::new()));
    let mut mcp = base("beforeMCPExecution");
    mcp["tool_name"] = json!("read_file");
    mcp["mcp_server_name"] = json!("fs");
    mcp["tool_input"] = json!("{\"path\": \"a.txt\"}");
    assert_eq!(
        run(mcp),
        (
            Some(0),
            "{\"permission\":\"ask\",\"user_message\":\"MCP calls need your approval [mcp-ask]\",\"agent_message\":\"MCP calls need your approval [mcp-ask]\"}\n".to_string()
        )
    );
}
