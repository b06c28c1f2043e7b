//! Load errors: warnings reach the host as a `systemMessage`, `on_load_error = "deny"` fails
//! closed.

use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, encode, load_str};
use serde_json::json;

use super::{claude_payload, codex_payload, codex_violations, line};

const BROKEN: &str = "[[rule]]\nid = \"bad\"\nseam = \"pre-tool\"\ndecision = \"deny\"\nreasn = \"typo\"\n\n[[rule]]\nid = \"ctx\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ncontext = \"Be careful.\"\n";

const BROKEN_FIRST: &str =
    "w.toml:5:1: error: unknown key `reasn` in [[rule]]; did you mean `reason`?";

fn broken_engine(src: &str) -> Engine {
    let p = load_str(src, "w.toml", Scope::User, 0);
    assert_eq!(p.diagnostics.len(), 1, "{:#?}", p.diagnostics);
    assert_eq!(p.diagnostics[0].to_string(), BROKEN_FIRST);
    assert_eq!(p.rules.len(), 1, "the good rule still loads (fail-partial)");
    Engine::new(DecisionTable::new(vec![p]))
}

#[test]
fn load_errors_become_a_system_message() {
    let engine = broken_engine(BROKEN);
    let warning = format!(
        "seamguard: policy w.toml has 1 error and some rules are not enforced (run `seamguard check`): {BROKEN_FIRST}"
    );
    let expected = line(
        &json!({
            "systemMessage": warning,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Be careful."}
        })
        .to_string(),
    );
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let payload = payload_of(Seam::PreTool, dialect);
        let enc = encode(&engine.evaluate(Seam::PreTool, &payload, dialect), dialect);
        assert_eq!(enc.stdout, expected, "{dialect}");
        assert_eq!(enc.stderr, warning, "{dialect}");
        assert_eq!(enc.exit_code, 0);
        if dialect == Dialect::Codex {
            assert_eq!(
                codex_violations(Seam::PreTool, &enc.stdout),
                Vec::<String>::new()
            );
        }
    }
}

#[test]
fn on_load_error_deny_fails_closed_on_pre_tool_and_permission_request() {
    let src = format!("[policy]\non_load_error = \"deny\"\n\n{BROKEN}");
    let p = load_str(&src, "w.toml", Scope::User, 0);
    let first = p.diagnostics[0].to_string();
    assert_eq!(first, BROKEN_FIRST.replace("w.toml:5:1", "w.toml:8:1"));
    let engine = Engine::new(DecisionTable::new(vec![p]));
    let reason = format!(
        "seamguard policy w.toml failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check w.toml`), or set `on_load_error = \"warn\"` in its [policy] table to let calls through while it is broken [seamguard:load-error]"
    );
    let warning = format!(
        "seamguard: policy w.toml has 1 error and some rules are not enforced (run `seamguard check`): {first}"
    );
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let payload = payload_of(Seam::PreTool, dialect);
        let o = engine.evaluate(Seam::PreTool, &payload, dialect);
        assert_eq!(o.verdict(), Verdict::Deny);
        let enc = encode(&o, dialect);
        let expected = json!({
            "systemMessage": warning,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
                "additionalContext": "Be careful."
            }
        });
        assert_eq!(enc.stdout, line(&expected.to_string()), "{dialect}");
        let payload = payload_of(Seam::PermissionRequest, dialect);
        let o = engine.evaluate(Seam::PermissionRequest, &payload, dialect);
        assert_eq!(o.verdict(), Verdict::Deny);
        let expected = json!({
            "systemMessage": warning,
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason}
            }
        });
        assert_eq!(
            encode(&o, dialect).stdout,
            line(&expected.to_string()),
            "{dialect}"
        );
    }
    // Other seams only warn.
    let o = engine.evaluate(
        Seam::PromptSubmit,
        &claude_payload(Seam::PromptSubmit),
        Dialect::ClaudeCode,
    );
    assert_eq!(o.verdict(), Verdict::Abstain);
}

/// The payload of `seam` in `dialect` (Claude Code or Codex).
fn payload_of(seam: Seam, dialect: Dialect) -> serde_json::Value {
    match dialect {
        Dialect::ClaudeCode => claude_payload(seam),
        Dialect::Codex => codex_payload(seam),
        other => unreachable!("not in the loop: {other}"),
    }
}
