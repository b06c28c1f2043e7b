//! `seamguard hook` for Gemini CLI, Cursor and Copilot CLI payloads: detected (or named with
//! `--dialect`), judged by the bundled library, answered in the host's own format.

use std::process::Command;

use serde_json::{Value, json};

use crate::support::{BIN, output_with_stdin, root};

fn hook(dialect: Option<&str>, payload: &Value) -> (i32, String) {
    let mut cmd = Command::new(BIN);
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
const RM_ROOT: &str = "Recursive delete outside the project directory: rm -rf / (via sudo) [no-recursive-delete-outside-project]\nRecursive delete of /, a top-level system folder or a home folder: rm -rf / (via sudo) [no-recursive-delete-of-root-or-home]";

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
