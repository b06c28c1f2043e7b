//! PreToolUse answers per dialect and verdict (HOOKS.md A5.4, B3 "PreToolUse").

use seamguard_engine::{Dialect, Seam, Verdict};

use super::{PRE_DENY, Row, check, check_rows, codex_ask, line, run};

#[test]
fn pre_tool_answers() {
    check_rows(&[
        // Part G.3: the same deny form is valid for both hosts.
        Row::both(
            "deny",
            PRE_DENY,
            Seam::PreTool,
            Verdict::Deny,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are not allowed [no-force-push]"}}"#,
            ),
        ),
        Row::both(
            "deny without reason gets a non-empty default",
            "[[rule]]\nid = \"d\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"deny\"\n",
            Seam::PreTool,
            Verdict::Deny,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Denied by seamguard rule `d` [d]"}}"#,
            ),
        ),
        Row::each(
            "allow",
            "[[rule]]\nid = \"ok\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\n",
            Seam::PreTool,
            Verdict::Allow,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
            ),
            // B3 / G.2: Codex rejects `allow` without `updatedInput`; silence is the allow.
            String::new(),
        ),
        Row::each(
            "allow with reason",
            "[[rule]]\nid = \"ok\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\nreason = \"git is trusted here\"\n",
            Seam::PreTool,
            Verdict::Allow,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"git is trusted here [ok]"}}"#,
            ),
            String::new(),
        ),
        Row::each(
            "ask",
            "[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { prefix = \"git push\" }\ndecision = \"ask\"\nreason = \"Pushing needs a human\"\n",
            Seam::PreTool,
            Verdict::Ask,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Pushing needs a human [push-ask]"}}"#,
            ),
            codex_ask("Pushing needs a human [push-ask]"),
        ),
        Row::each(
            "defer",
            "[[rule]]\nid = \"later\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"defer\"\nreason = \"Decided by the CI runner\"\n",
            Seam::PreTool,
            Verdict::Defer,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"Decided by the CI runner [later]"}}"#,
            ),
            // Part C: `defer` is an unknown value to Codex (fails open); mapped like `ask`.
            codex_ask("Decided by the CI runner [later]"),
        ),
        Row::both(
            "contexts accumulate in rule order",
            include_str!("../../data/policies/conformance-contexts.toml"),
            Seam::PreTool,
            Verdict::Abstain,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"Remote is github.com/example/app.\n\nMain is protected."}}"#,
            ),
        ),
        Row::each(
            "halt",
            "[[rule]]\nid = \"stop-all\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nhalt = \"Production freeze in effect\"\n",
            Seam::PreTool,
            Verdict::Abstain,
            line(r#"{"continue":false,"stopReason":"Production freeze in effect"}"#),
            // B3: Codex PreToolUse rejects `continue:false`; the closest valid effect is a deny.
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Production freeze in effect"}}"#,
            ),
        ),
        Row::both(
            "guard beats allow",
            include_str!("../../data/policies/conformance-guard-beats-allow.toml"),
            Seam::PreTool,
            Verdict::Deny,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are never allowed [no-force]"}}"#,
            ),
        ),
        // Part G.2: no opinion = exit 0 with empty stdout, valid for both hosts.
        Row::both(
            "nothing matches is empty stdout",
            "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\ntool = \"Read\"\ndecision = \"deny\"\n",
            Seam::PreTool,
            Verdict::Abstain,
            String::new(),
        ),
    ]);
}

#[test]
fn pre_tool_ask_with_codex_ask_ignore_is_silent_for_codex() {
    let policy = "[policy]\ncodex_ask = \"ignore\"\n\n[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"ask\"\nreason = \"Pushing needs a human\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Ask,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Pushing needs a human [push-ask]"}}"#,
        ),
        "",
    );
    let (_, enc) = run(policy, Seam::PreTool, Dialect::Codex);
    assert_eq!(
        enc.stderr,
        "seamguard: `ask` is not a Codex verdict; left to Codex's approval mode (codex_ask = \"ignore\"): Pushing needs a human [push-ask]"
    );
}

#[test]
fn pre_tool_deny_with_context() {
    let policy = format!(
        "{PRE_DENY}\n[[rule]]\nid = \"ctx\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ncontext = \"Open a pull request instead.\"\n"
    );
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are not allowed [no-force-push]","additionalContext":"Open a pull request instead."}}"#,
    );
    check(&policy, Seam::PreTool, Verdict::Deny, &out, &out);
}
