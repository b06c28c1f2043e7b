//! HK-05: a deny in the wrong JSON shape is discarded (exit 0), decoded for Claude Code.

use seamguard_engine::{Dialect, HookResponse, Seam, Verdict, encode};

use crate::support::{PROJECT, bash, engine};

use super::decode_cc;

const HK05: [(&str, &str); 6] = [
    (
        "a_missing_event_name",
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
    ),
    (
        "b_root_decision_deny",
        r#"{"decision":"deny","reason":"no commits on main"}"#,
    ),
    (
        "c_flat_permission_decision",
        r#"{"permissionDecision":"deny","permissionDecisionReason":"no commits on main"}"#,
    ),
    (
        "d_legacy_block",
        r#"{"decision":"block","reason":"no commits on main"}"#,
    ),
    (
        "e_wrong_event_name",
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
    ),
    (
        "f_correct",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
    ),
];

fn hk05(variant: &str) -> HookResponse {
    let (_, out) = HK05.iter().find(|(n, _)| *n == variant).unwrap();
    decode_cc(Seam::PreTool, Some(0), out, "")
}

#[test]
fn hk05a_missing_event_name_is_rejected_and_the_commit_runs() {
    let r = hk05("a_missing_event_name");
    crate::support::assert_discarded(
        &r,
        "hook error: hookSpecificOutput.hookEventName is missing",
    );
}

#[test]
fn hk05b_root_decision_deny_is_rejected_and_the_commit_runs() {
    let r = hk05("b_root_decision_deny");
    crate::support::assert_discarded(
        &r,
        "hook error: top-level decision `deny` is not `approve` or `block`",
    );
}

#[test]
fn hk05c_flat_permission_decision_is_no_deny() {
    let r = hk05("c_flat_permission_decision");
    assert_eq!(r.verdict, None);
    assert_eq!(r.reason, None);
}

/// HK-05 `expected.engine_emitter`: "When the engine interprets third-party hooks, report a
/// discarded deny loudly". Variant c carries a deny the host discards; the decoder must say so.
#[test]
fn hk05c_discarded_flat_deny_is_reported() {
    let r = hk05("c_flat_permission_decision");
    assert!(
        r.error.is_some(),
        "a discarded `permissionDecision: deny` at top level must be reported, got {r:?}"
    );
}

#[test]
fn hk05d_legacy_block_denies_with_reason() {
    let r = hk05("d_legacy_block");
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("no commits on main"));
    assert_eq!(r.error, None);
}

#[test]
fn hk05e_wrong_event_name_is_rejected_never_read_for_another_event() {
    let r = hk05("e_wrong_event_name");
    crate::support::assert_discarded(
        &r,
        "hook error: hookSpecificOutput.hookEventName is `PostToolUse`, expected `PreToolUse`",
    );
    // Mirror bug (clawcodex): a PreToolUse-shaped allow under PermissionRequest is not honoured.
    let r = decode_cc(
        Seam::PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        "",
    );
    assert_eq!(r.verdict, None);
    assert!(r.error.is_some());
}

#[test]
fn hk05f_correct_form_blocks_and_is_what_we_emit() {
    let r = hk05("f_correct");
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("no commits on main"));
    assert_eq!(r.error, None);
    // Our encoder always emits form f (hookEventName = running event, non-empty reason).
    let engine = engine(
        "[[rule]]\nid = \"main-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { regex = '^git\\s+commit\\b' }\ndecision = \"deny\"\nreason = \"no commits on main\"\n",
    );
    let payload = bash(PROJECT, "git commit -am 'hotfix'");
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let enc = encode(&engine.evaluate(Seam::PreTool, &payload, dialect), dialect);
        assert_eq!(
            enc.stdout,
            "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no commits on main [main-guard]\"}}\n"
        );
        assert_eq!(enc.exit_code, 0);
    }
}
