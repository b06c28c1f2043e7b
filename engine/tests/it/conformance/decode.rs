//! Decoding command-hook output as the hosts read it (HOOKS.md A5.1/A5.2, B3).

use seamguard_engine::{Dialect, Seam, Verdict, decode_hook_output};

#[test]
fn vendor_keys_are_tolerated_by_claude_and_fail_open_in_codex() {
    // A guard's deny with extra vendor keys inside hookSpecificOutput (as real guards emit).
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf outside the project","ruleId":"fs.rm-rf","severity":"high"}}"#;
    let cc = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PreTool,
        Some(0),
        out.as_bytes(),
        b"",
    );
    assert_eq!(cc.verdict, Some(Verdict::Deny));
    assert_eq!(cc.reason.as_deref(), Some("rm -rf outside the project"));
    assert_eq!(cc.error, None);
    let cx = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
    assert_eq!(
        cx.verdict, None,
        "B3: an unknown key makes the output invalid → fail open"
    );
    assert_eq!(
        cx.error.as_deref(),
        Some(
            "invalid PreToolUse JSON output: unknown field `ruleId` in hookSpecificOutput (Codex rejects unknown keys)"
        )
    );
    // An extra top-level key (e.g. terminalSequence) as well.
    let out = r#"{"terminalSequence":"\u0007","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let cx = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
    assert_eq!(cx.verdict, None);
    assert!(cx.error.is_some());
}

#[test]
fn codex_invalid_pre_tool_outputs_fail_open() {
    // HOOKS.md B3 "PreToolUse" column "invalid" and the universal-field rule.
    let invalid = [
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"why"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":""}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
        r#"{"decision":"approve"}"#,
        r#"{"reason":"no decision"}"#,
        r#"{"decision":"block","reason":"  "}"#,
        r#"{"continue":false,"stopReason":"halt"}"#,
        r#"{"stopReason":"why"}"#,
        r#"{"suppressOutput":true}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}"#,
        r#"["not","an","object"]"#,
        r#"{"truncated":"#,
    ];
    for out in invalid {
        let r = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
        assert_eq!(r.verdict, None, "{out}");
        assert!(r.error.is_some(), "{out} must be rejected");
    }
    let valid = [
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            Verdict::Deny,
        ),
        (r#"{"decision":"block","reason":"no"}"#, Verdict::Deny),
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}"#,
            Verdict::Allow,
        ),
        (r#"{"systemMessage":"note"}"#, Verdict::Abstain),
        ("plain text is ignored on PreToolUse", Verdict::Abstain),
        ("", Verdict::Abstain),
    ];
    for (out, v) in valid {
        let r = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
        assert_eq!(r.error, None, "{out}");
        assert_eq!(r.verdict(), v, "{out}");
    }
}

#[test]
fn codex_permission_request_outputs() {
    let dec = |out: &str| {
        decode_hook_output(
            Dialect::Codex,
            Seam::PermissionRequest,
            Some(0),
            out.as_bytes(),
            b"",
        )
    };
    let r = dec(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#,
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(
        r.reason.as_deref(),
        Some("Denied by hook"),
        "deny without message gets a default"
    );
    let r = dec(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#,
    );
    assert_eq!(r.verdict, Some(Verdict::Allow));
    // updatedInput / updatedPermissions / interrupt:true → failed, no decision (never auto-allows).
    for d in [
        r#"{"behavior":"allow","updatedInput":{"command":"ls"}}"#,
        r#"{"behavior":"allow","updatedPermissions":[]}"#,
        r#"{"behavior":"deny","message":"no","interrupt":true}"#,
    ] {
        let r = dec(&format!(
            "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PermissionRequest\",\"decision\":{d}}}}}"
        ));
        assert_eq!(r.verdict, None, "{d}");
        assert!(r.error.is_some(), "{d}");
    }
    // Exit 2 on PermissionRequest: Codex denies with stderr (Claude Code ignores it; Part C).
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::PermissionRequest,
        Some(2),
        b"",
        b"no publishing",
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("no publishing"));
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PermissionRequest,
        Some(2),
        b"",
        b"no publishing",
    );
    assert_eq!(r.verdict, None);
}

#[test]
fn codex_stop_requires_json_and_plain_text_is_context_where_documented() {
    let r = decode_hook_output(Dialect::Codex, Seam::Stop, Some(0), b"keep going", b"");
    crate::support::assert_discarded(
        &r,
        "plain text output is invalid for Stop/SubagentStop: JSON required",
    );
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::Stop,
        Some(0),
        br#"{"decision":"block","reason":"run the tests"}"#,
        b"",
    );
    assert_eq!(r.verdict, Some(Verdict::Continue));
    assert_eq!(r.reason.as_deref(), Some("run the tests"));
    for seam in [Seam::SessionStart, Seam::PromptSubmit, Seam::SubagentStart] {
        let r = decode_hook_output(Dialect::Codex, seam, Some(0), b"branch: main\n", b"");
        assert_eq!(r.context.as_deref(), Some("branch: main"), "{seam}");
        assert_eq!(r.error, None);
    }
    // PostToolUse: `reason` without `decision` is invalid.
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::PostTool,
        Some(0),
        br#"{"reason":"x"}"#,
        b"",
    );
    assert!(r.error.is_some());
}

#[test]
fn claude_reads_json_on_every_exit_code_and_exit_2_wins() {
    // A5.1 (current behaviour): a schema-valid JSON object decides whatever the exit code.
    let out = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json deny"}}"#;
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, Some(1), out, b"oops");
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("json deny"));
    // A5.2: even permissionDecision:"allow" cannot override exit 2.
    let allow =
        br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PreTool,
        Some(2),
        allow,
        b"blocked by exit 2",
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("blocked by exit 2"));
    // Plain text on exit 0 is context only for UserPromptSubmit and SessionStart.
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PromptSubmit,
        Some(0),
        b"[1,2]",
        b"",
    );
    assert_eq!(
        r.context.as_deref(),
        Some("[1,2]"),
        "a JSON array is plain text (A5.1)"
    );
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, Some(0), b"hello", b"");
    assert_eq!(r.context, None);
    assert_eq!(r.verdict, None);
    // Timeout: output discarded, no decision.
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, None, out, b"");
    assert_eq!(r.verdict, None);
    assert!(r.error.is_some());
}
