//! Payloads a real host can send that strict JSON parsing rejects: a tool call must never
//! slip through unchecked because of them.

use crate::support::{output_with_stdin, root};

fn hook(input: &[u8]) -> (i32, String) {
    let out = output_with_stdin(
        crate::support::command()
            .args(["hook", "--policy"])
            .arg(root().join("policies")),
        input,
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn lone_utf16_surrogate_from_node_is_read_and_judged() {
    let (code, out) = hook(
        br#"{"session_id":"s","cwd":"/home/user/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"sudo rm -rf / # \ud800"}}"#,
    );
    assert_eq!(code, 0);
    // Both delete rules of `policies/destructive.toml` fire on `rm -rf /`.
    assert_eq!(
        out,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Recursive delete outside the project directory [no-recursive-delete-outside-project]; Recursive delete of /, a top-level system folder or a home folder [no-recursive-delete-of-root-or-home]: rm -rf / (via sudo)\"}}\n"
    );
}

/// Windows PowerShell 5 writes a UTF-8 byte order mark before text it pipes: the call is
/// judged as the same payload without it (RFC 8259 §8.1), not refused as unreadable.
#[test]
fn a_payload_after_a_byte_order_mark_is_judged() {
    let body = br#"{"session_id":"s","cwd":"/home/user/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"sudo rm -rf /"}}"#;
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend_from_slice(body);
    let (code, out) = hook(&marked);
    assert_eq!(code, 0);
    assert_eq!(out, hook(body).1);
    assert!(
        out.contains("\"permissionDecision\":\"deny\"")
            && out.contains("[no-recursive-delete-of-root-or-home]"),
        "{out}"
    );
    let (code, out) = hook(
        &[&b"\xEF\xBB\xBF"[..], br#"{"session_id":"s","cwd":"/home/user/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#].concat(),
    );
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn too_deep_tool_call_payload_is_denied_not_ignored() {
    let mut nested = String::from("1");
    for _ in 0..200 {
        nested = format!("{{\"a\":{nested}}}");
    }
    let payload = format!(
        r#"{{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"mcp__x__y","tool_input":{{"deep":{nested}}}}}"#
    );
    let (code, out) = hook(payload.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"seamguard could not judge this tool call: malformed hook payload (1308 bytes): payload is not valid JSON at line 1 column 731: recursion limit exceeded at line 1 column 731; denied to be safe [seamguard:unreadable-payload]\"}}\n"
    );
}
