//! HK-09: a stop rule honours `stop_hook_active` and a per-turn continuation budget.

use seamguard_engine::{Dialect, MemoryLedger, Seam, Verdict, encode};
use serde_json::{Value, json};

use crate::support::{PROJECT, claude, codex, engine};

const HK09_POLICY: &str = include_str!("../../data/policies/cases-hk09-policy.toml");

fn hk09_stop(active: bool) -> Value {
    claude(
        PROJECT,
        "Stop",
        json!({
            "stop_hook_active": active,
            "last_assistant_message": "I've finished the refactor; tests still fail on the network module, which needs credentials.",
            "background_tasks": [],
            "session_crons": []
        }),
    )
}

const HK09_BLOCK: &str = "{\"decision\":\"block\",\"reason\":\"cargo test is failing: fix the failing tests before finishing the turn.\"}\n";

#[test]
fn hk09_first_stop_blocks_with_the_reason() {
    let engine = engine(HK09_POLICY);
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let o = engine.evaluate(Seam::Stop, &hk09_stop(false), dialect);
        assert_eq!(o.verdict(), Verdict::Continue);
        let enc = encode(&o, dialect);
        // decision:block keeps the agent working; continue:false would be the opposite.
        assert_eq!(enc.stdout, HK09_BLOCK, "{dialect}");
        assert_eq!(enc.exit_code, 0);
    }
}

#[test]
fn hk09_stop_hook_active_lets_the_agent_stop() {
    let engine = engine(HK09_POLICY);
    let o = engine.evaluate(Seam::Stop, &hk09_stop(true), Dialect::ClaudeCode);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.halt, None);
    let enc = encode(&o, Dialect::ClaudeCode);
    assert_eq!(
        enc.stdout,
        "{\"systemMessage\":\"seamguard: rule `tests-must-pass` would continue, but its budget of 1 continuation(s) per turn is used (stop_hook_active); letting the agent stop\"}\n"
    );
    assert_eq!(enc.exit_code, 0);
}

#[test]
fn hk09_default_budget_with_a_ledger_is_one_continuation() {
    let engine = engine(HK09_POLICY).with_ledger(Box::new(MemoryLedger::default()));
    let first = engine.evaluate(Seam::Stop, &hk09_stop(false), Dialect::ClaudeCode);
    assert_eq!(first.verdict(), Verdict::Continue);
    let second = engine.evaluate(Seam::Stop, &hk09_stop(true), Dialect::ClaudeCode);
    assert_eq!(second.verdict(), Verdict::Abstain);
}

#[test]
fn hk09_max_continuations_three_continues_three_times_then_stops() {
    let src = format!("{HK09_POLICY}max_continuations = 3\n");
    let engine = engine(&src).with_ledger(Box::new(MemoryLedger::default()));
    let mut verdicts = Vec::new();
    for active in [false, true, true, true, true] {
        let o = engine.evaluate(Seam::Stop, &hk09_stop(active), Dialect::ClaudeCode);
        verdicts.push(o.verdict());
    }
    assert_eq!(
        verdicts,
        vec![
            Verdict::Continue,
            Verdict::Continue,
            Verdict::Continue,
            Verdict::Abstain,
            Verdict::Abstain
        ]
    );
    // A new turn (stop_hook_active = false) starts a new budget.
    let o = engine.evaluate(Seam::Stop, &hk09_stop(false), Dialect::ClaudeCode);
    assert_eq!(o.verdict(), Verdict::Continue);
    assert_eq!(encode(&o, Dialect::ClaudeCode).stdout, HK09_BLOCK);
}

#[test]
fn hk09_codex_has_the_same_field() {
    let engine = engine(HK09_POLICY).with_ledger(Box::new(MemoryLedger::default()));
    let stop = |active: bool| {
        codex(
            PROJECT,
            "Stop",
            json!({"stop_hook_active": active, "last_assistant_message": "tests still fail"}),
        )
    };
    let o = engine.evaluate(Seam::Stop, &stop(false), Dialect::Codex);
    assert_eq!(encode(&o, Dialect::Codex).stdout, HK09_BLOCK);
    let o = engine.evaluate(Seam::Stop, &stop(true), Dialect::Codex);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(!encode(&o, Dialect::Codex).stdout.contains("\"decision\""));
}
