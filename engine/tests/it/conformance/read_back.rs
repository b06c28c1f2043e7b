//! Read-back: what we emit is what the host decodes, and Codex never receives forbidden output.

use seamguard_engine::{Dialect, Seam, Verdict, decode_hook_output};

use super::{PRE_DENY, STOP_CONTINUE, codex_violations, run};

#[test]
fn encoded_verdicts_read_back_through_the_host_decoders() {
    let rows: Vec<(&str, Seam, Verdict, Verdict)> = vec![
        (PRE_DENY, Seam::PreTool, Verdict::Deny, Verdict::Deny),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
            Seam::PreTool,
            Verdict::Ask,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"defer\"\n",
            Seam::PreTool,
            Verdict::Defer,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"allow\"\n",
            Seam::PreTool,
            Verdict::Allow,
            Verdict::Abstain,
        ),
        (
            "[[rule]]\nid = \"p\"\nseam = \"permission-request\"\ndecision = \"deny\"\n",
            Seam::PermissionRequest,
            Verdict::Deny,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"p\"\nseam = \"permission-request\"\ndecision = \"allow\"\n",
            Seam::PermissionRequest,
            Verdict::Allow,
            Verdict::Allow,
        ),
        (
            "[[rule]]\nid = \"b\"\nseam = \"prompt-submit\"\ndecision = \"block\"\n",
            Seam::PromptSubmit,
            Verdict::Block,
            Verdict::Block,
        ),
        (
            "[[rule]]\nid = \"b\"\nseam = \"post-tool\"\nfeedback = \"look again\"\n",
            Seam::PostTool,
            Verdict::Block,
            Verdict::Block,
        ),
        (
            STOP_CONTINUE,
            Seam::Stop,
            Verdict::Continue,
            Verdict::Continue,
        ),
    ];
    for (policy, seam, claude_verdict, codex_verdict) in rows {
        let (_, enc) = run(policy, seam, Dialect::ClaudeCode);
        let back = decode_hook_output(
            Dialect::ClaudeCode,
            seam,
            Some(0),
            enc.stdout.as_bytes(),
            b"",
        );
        assert_eq!(back.error, None, "{seam}: {}", enc.stdout);
        assert_eq!(
            back.verdict(),
            claude_verdict,
            "claude {seam}: {}",
            enc.stdout
        );
        let (_, enc) = run(policy, seam, Dialect::Codex);
        let back = decode_hook_output(Dialect::Codex, seam, Some(0), enc.stdout.as_bytes(), b"");
        assert_eq!(back.error, None, "{seam}: {}", enc.stdout);
        assert_eq!(
            back.verdict(),
            codex_verdict,
            "codex {seam}: {}",
            enc.stdout
        );
        if matches!(
            codex_verdict,
            Verdict::Deny | Verdict::Block | Verdict::Continue
        ) {
            assert!(
                back.reason.as_deref().is_some_and(|r| !r.trim().is_empty()),
                "codex {seam}: reason must be non-empty"
            );
        }
    }
}

#[test]
fn codex_never_receives_forbidden_output_for_any_pre_tool_verdict_mix() {
    // Every subset of {allow, ask, defer, deny, context, halt} rules at pre-tool.
    let parts = [
        "[[rule]]\nid = \"r-allow\"\nseam = \"pre-tool\"\ndecision = \"allow\"\n",
        "[[rule]]\nid = \"r-ask\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
        "[[rule]]\nid = \"r-defer\"\nseam = \"pre-tool\"\ndecision = \"defer\"\n",
        "[[rule]]\nid = \"r-deny\"\nseam = \"pre-tool\"\ndecision = \"deny\"\n",
        "[[rule]]\nid = \"r-ctx\"\nseam = \"pre-tool\"\ncontext = \"note\"\n",
        "[[rule]]\nid = \"r-halt\"\nseam = \"pre-tool\"\nhalt = \"stop\"\n",
    ];
    let mut checked = 0;
    for mask in 0u32..(1 << parts.len()) {
        let policy: String = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, p)| *p)
            .collect::<Vec<_>>()
            .join("\n");
        let (o, enc) = run(&policy, Seam::PreTool, Dialect::Codex);
        let violations = codex_violations(Seam::PreTool, &enc.stdout);
        assert!(
            violations.is_empty(),
            "mask {mask:06b}: {violations:?} in {}",
            enc.stdout
        );
        let back = decode_hook_output(
            Dialect::Codex,
            Seam::PreTool,
            Some(0),
            enc.stdout.as_bytes(),
            b"",
        );
        assert_eq!(back.error, None, "mask {mask:06b}: {}", enc.stdout);
        // Anything stricter than allow (or a halt) must reach Codex as a deny.
        let strict = matches!(o.verdict(), Verdict::Ask | Verdict::Defer | Verdict::Deny)
            || o.halt.is_some();
        assert_eq!(
            back.verdict() == Verdict::Deny,
            strict,
            "mask {mask:06b}: {}",
            enc.stdout
        );
        checked += 1;
    }
    assert_eq!(checked, 64);
}
