//! HK-10: PostToolUse exit 2 is feedback after the fact, not an undo.

use seamguard_engine::{Dialect, PostToolDecision, Seam, Verdict, encode};
use serde_json::{Value, json};

use crate::support::{PROJECT, claude, engine};

use super::{decode_cc, decode_cx};

fn hk10_payload() -> Value {
    claude(
        PROJECT,
        "PostToolUse",
        json!({
            "tool_name": "Write",
            "tool_input": {"file_path": "/home/user/project/src/settings.py", "content": "API_KEY = '<REDACTED>'\n"},
            "tool_use_id": "toolu_01HK10",
            "tool_response": {"filePath": "/home/user/project/src/settings.py", "success": true}
        }),
    )
}

const HK10_STDERR: &str = "Hard-coded secret written to src/settings.py; move it to env.";

#[test]
fn hk10_post_tool_exit_2_is_feedback() {
    let r = decode_cc(Seam::PostTool, Some(2), "", HK10_STDERR);
    assert_eq!(r.verdict, Some(Verdict::Block));
    assert_eq!(r.reason.as_deref(), Some(HK10_STDERR));
    assert_eq!(r.updated_input, None);
    // Codex: the same stderr becomes feedback that replaces the tool result.
    let r = decode_cx(Seam::PostTool, Some(2), "", HK10_STDERR);
    assert_eq!(r.verdict, Some(Verdict::Block));
    assert_eq!(r.reason.as_deref(), Some(HK10_STDERR));
}

#[test]
fn hk10_policy_flags_after_the_fact_with_json_exit_0() {
    let engine = engine(
        "[[rule]]\nid = \"hardcoded-secret\"\nseam = \"post-tool\"\ntool = \"Write|Edit\"\nwhen.content = { regex = '(?i)(api_key|secret|token)\\s*=\\s*[\"\\x27]' }\nfeedback = \"Hard-coded secret written to the file; move it to env.\"\n",
    );
    let payload = hk10_payload();
    let o = engine.evaluate(Seam::PostTool, &payload, Dialect::ClaudeCode);
    assert_eq!(
        o.post_tool(),
        Some(PostToolDecision::Block {
            feedback: "Hard-coded secret written to the file; move it to env.".into(),
            additional_contexts: vec![],
        })
    );
    // The host's text names the rule; the typed decision leaves it to `reasons`.
    assert_eq!(
        o.reason_text(),
        "Hard-coded secret written to the file; move it to env. [hardcoded-secret]"
    );
    // Not an undo: the tool response is neither replaced nor redacted.
    assert_eq!(o.redacted_response, None);
    assert_eq!(o.updated_input, None);
    let enc = encode(&o, Dialect::ClaudeCode);
    assert_eq!(
        enc.stdout,
        "{\"decision\":\"block\",\"reason\":\"Hard-coded secret written to the file; move it to env. [hardcoded-secret]\"}\n"
    );
    assert_eq!(
        enc.exit_code, 0,
        "JSON with exit 0, not exit 2 (the case's note)"
    );
}

#[test]
fn hk10_exit_2_on_other_claude_events() {
    let err = "stop here";
    let blocks = [
        (Seam::PreTool, Verdict::Deny),
        (Seam::PromptSubmit, Verdict::Block),
        (Seam::Stop, Verdict::Continue),
        (Seam::SubagentStop, Verdict::Continue),
        (Seam::PreCompact, Verdict::Block),
    ];
    for (seam, v) in blocks {
        let r = decode_cc(seam, Some(2), "", err);
        assert_eq!(r.verdict, Some(v), "{seam}");
        assert_eq!(r.reason.as_deref(), Some(err), "{seam}");
    }
    // PermissionRequest: NOT honoured, stderr discarded.
    let r = decode_cc(Seam::PermissionRequest, Some(2), "", err);
    assert_eq!(r.verdict, None);
    assert_eq!(r.reason, None);
    assert_eq!(
        r.error.as_deref(),
        Some("exit 2 is ignored on PermissionRequest (stderr discarded)")
    );
    // Notification: ignored.
    let r = decode_cc(Seam::Notification, Some(2), "", err);
    assert_eq!(r.verdict, None);
    assert_eq!(r.reason, None);
    assert_eq!(r.context, None);
    // SessionStart / SessionEnd: stderr shown to the user only.
    for seam in [Seam::SessionStart, Seam::SessionEnd] {
        let r = decode_cc(seam, Some(2), "", err);
        assert_eq!(r.verdict, None, "{seam}");
        assert_eq!(r.context, None, "{seam}: not shown to Claude");
        assert_eq!(r.system_message.as_deref(), Some(err), "{seam}");
    }
    // PostToolUseFailure: stderr shown to Claude, nothing blocked.
    let r = decode_cc(Seam::PostToolFailure, Some(2), "", err);
    assert_eq!(r.verdict, None);
    assert_eq!(r.context.as_deref(), Some(err));
}
