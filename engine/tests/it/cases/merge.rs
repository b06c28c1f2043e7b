//! HK-12 and HK-13: hooks that disagree merge deny > defer > ask > allow, and an allow never
//! lowers a deny or ask from another rule.

use seamguard_engine::{
    Contribution, DecisionTable, Dialect, Engine, Scope, Seam, Verdict, encode, load_str, merge,
};
use serde_json::json;

use crate::support::{CODEX_ASK_TAIL, PROJECT, bash, engine};

use super::{contribution, decode_cc};

// =============================================================================================
// HK-12: several hooks disagree; deny > defer > ask > allow.

const H1: &str = "[[rule]]\nid = \"h1-allow-list\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { prefix = \"kubectl \" }\ndecision = \"allow\"\nreason = \"kubectl is on the allow list\"\n";
const H2: &str = "[[rule]]\nid = \"h2-prod-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { regex = 'kubectl\\s+delete\\s+(namespace|ns)\\b' }\ndecision = \"ask\"\nreason = \"namespace deletion needs a human\"\n";
const H3: &str = "[[rule]]\nid = \"h3-destructive-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { regex = 'kubectl\\s+delete\\s+namespace\\b' }\ndecision = \"deny\"\nreason = \"Deleting a namespace is irreversible; not allowed from the agent.\"\n";

fn hk12_eval(srcs: &[&str]) -> seamguard_engine::Outcome {
    let policies = srcs
        .iter()
        .enumerate()
        .map(|(i, s)| load_str(s, &format!("h{i}.toml"), Scope::User, i))
        .collect();
    Engine::new(DecisionTable::new(policies)).evaluate(
        Seam::PreTool,
        &bash(PROJECT, "kubectl delete namespace staging"),
        Dialect::ClaudeCode,
    )
}

#[test]
fn hk12_allow_ask_deny_merge_to_deny_with_h3_reason() {
    // In any order of the three policies (user, project, plugin).
    let orders = [[H1, H2, H3], [H3, H2, H1], [H2, H3, H1], [H1, H3, H2]];
    for order in orders {
        let o = hk12_eval(&order);
        crate::support::assert_verdict(
            &o,
            Verdict::Deny,
            "Deleting a namespace is irreversible; not allowed from the agent. [h3-destructive-guard]",
        );
        assert_eq!(
            encode(&o, Dialect::ClaudeCode).stdout,
            "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Deleting a namespace is irreversible; not allowed from the agent. [h3-destructive-guard]\"}}\n"
        );
    }
    // One file with all three rules.
    let o = hk12_eval(&[&format!("{H1}\n{H2}\n{H3}")]);
    assert_eq!(o.verdict(), Verdict::Deny);
    assert_eq!(
        o.fired_ids(),
        vec!["h1-allow-list", "h2-prod-guard", "h3-destructive-guard"]
    );
}

#[test]
fn hk12_variants_h1_h2_is_ask_and_h1_alone_is_allow() {
    let o = hk12_eval(&[H1, H2]);
    crate::support::assert_verdict(
        &o,
        Verdict::Ask,
        "namespace deletion needs a human [h2-prod-guard]",
    );
    assert_eq!(
        encode(&o, Dialect::ClaudeCode).stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"namespace deletion needs a human [h2-prod-guard]\"}}\n"
    );
    // Codex / non-interactive: the ask resolves to a deny carrying the ask reason.
    let enc = encode(&o, Dialect::Codex);
    assert_eq!(
        enc.stdout,
        format!(
            "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Approval required: namespace deletion needs a human [h2-prod-guard]{CODEX_ASK_TAIL}\"}}}}\n"
        )
    );
    let o = hk12_eval(&[H1]);
    crate::support::assert_verdict(
        &o,
        Verdict::Allow,
        "kubectl is on the allow list [h1-allow-list]",
    );
}

#[test]
fn hk12_decoded_command_hooks_merge_to_h3() {
    let h1 = decode_cc(
        Seam::PreTool,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"kubectl is on the allow list"}}"#,
        "",
    );
    let h2 = decode_cc(
        Seam::PreTool,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"namespace deletion needs a human"}}"#,
        "",
    );
    let h3 = decode_cc(
        Seam::PreTool,
        Some(2),
        "",
        "Deleting a namespace is irreversible; not allowed from the agent.",
    );
    assert_eq!(h1.verdict(), Verdict::Allow);
    assert_eq!(h2.verdict(), Verdict::Ask);
    assert_eq!(h3.verdict(), Verdict::Deny);
    let cs = vec![
        contribution("H1 allow-list", &h1),
        contribution("H2 prod-guard", &h2),
        contribution("H3 destructive-guard", &h3),
    ];
    let mut rev = cs.clone();
    rev.reverse();
    for contributions in [cs, rev] {
        let o = merge(Seam::PreTool, contributions);
        assert_eq!(o.verdict(), Verdict::Deny);
        assert_eq!(o.reasons.len(), 1);
        assert_eq!(
            o.reasons[0].text,
            "Deleting a namespace is irreversible; not allowed from the agent."
        );
    }
}

#[test]
fn hk12_deny_discards_another_hooks_rewrite() {
    let mut o = hk12_eval(&[H1, H2, H3]);
    o.updated_input = Some(json!({"command": "kubectl get namespace staging"}));
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let enc = encode(&o, dialect);
        assert!(
            !enc.stdout.contains("updatedInput"),
            "{dialect}: {}",
            enc.stdout
        );
        assert!(enc.stdout.contains("\"permissionDecision\":\"deny\""));
    }
}

// =============================================================================================
// HK-13: an allow never lowers a deny or ask from another rule.

const HK13_POLICY: &str = include_str!("../../data/policies/cases-hk13-policy.toml");

#[test]
fn hk13_allow_does_not_lift_deny_or_ask() {
    let engine = engine(HK13_POLICY);
    let o = engine.evaluate(
        Seam::PreTool,
        &bash(PROJECT, "git push --force origin main"),
        Dialect::ClaudeCode,
    );
    crate::support::assert_verdict(&o, Verdict::Deny, "Force pushes are denied [no-force-push]");
    // Only the ask rule matches.
    let o = engine.evaluate(
        Seam::PreTool,
        &bash(PROJECT, "git push origin main"),
        Dialect::ClaudeCode,
    );
    crate::support::assert_verdict(&o, Verdict::Ask, "Pushing needs approval [push-asks]");
    // No restricting rule matches.
    let o = engine.evaluate(
        Seam::PreTool,
        &bash(PROJECT, "git status"),
        Dialect::ClaudeCode,
    );
    crate::support::assert_verdict(&o, Verdict::Allow, "trusted repo [auto-approve]");
}

#[test]
fn hk13_allow_from_another_policy_does_not_lift_a_deny() {
    let deny = "[[rule]]\nid = \"no-force-push\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { contains = \"--force\" }\ndecision = \"deny\"\nreason = \"Force pushes are denied\"\n";
    let allow = "[[rule]]\nid = \"auto-approve\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\n";
    for (first, second) in [(allow, deny), (deny, allow)] {
        let policies = vec![
            load_str(first, "a.toml", Scope::Managed, 0),
            load_str(second, "b.toml", Scope::User, 1),
        ];
        let o = Engine::new(DecisionTable::new(policies)).evaluate(
            Seam::PreTool,
            &bash(PROJECT, "git push --force origin main"),
            Dialect::ClaudeCode,
        );
        crate::support::assert_verdict(
            &o,
            Verdict::Deny,
            "Force pushes are denied [no-force-push]",
        );
    }
    // A decoded command-hook allow merged with a rule's deny stays deny.
    let hook_allow = decode_cc(
        Seam::PreTool,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted repo"}}"#,
        "",
    );
    let o = merge(
        Seam::PreTool,
        vec![
            Contribution::verdict(
                "no-force-push",
                Verdict::Deny,
                Some("Force pushes are denied".into()),
            ),
            contribution("auto-approve.sh", &hook_allow),
        ],
    );
    assert_eq!(o.verdict(), Verdict::Deny);
}

#[test]
fn hk13_project_scope_allow_is_not_honoured() {
    let p = load_str(
        "[[rule]]\nid = \"auto-approve\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\n",
        ".seamguard/p.toml",
        Scope::Project,
        0,
    );
    let o = Engine::new(DecisionTable::new(vec![p])).evaluate(
        Seam::PreTool,
        &bash(PROJECT, "git status"),
        Dialect::ClaudeCode,
    );
    assert_eq!(o.verdict(), Verdict::Abstain);
}
