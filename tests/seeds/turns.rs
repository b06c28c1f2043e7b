//! The turn model (interception-seams seed, "Open the turn before prompt policy"; hook-protocol
//! seed, "Invocation and result records must sit inside an open turn").

use serde_json::{Value, json};

use seamguard::harness::{
    Harness, RegistrationOptions, SeamEvent, Submitted, ToolCall, TurnEnd, at, check_records,
};
use seamguard::{PromptDecision, policy};

fn blocks_secrets() -> Harness {
    let h = Harness::new();
    h.on(
        at::PromptSubmit,
        |ev, _| {
            ev.prompt_text()?
                .contains("password")
                .then(|| PromptDecision::Block {
                    reason: "prompts must not carry passwords".into(),
                    suppress_prompt: false,
                })
        },
        RegistrationOptions::named("no-passwords"),
    )
    .unwrap();
    h
}

#[tokio::test]
async fn a_blocked_prompt_is_a_rejected_zero_step_turn_with_a_prompt_blocked_record() {
    let h = blocks_secrets();
    let ev = SeamEvent::prompt("my password is hunter2", "s1", "/w");
    let Submitted::Rejected { turn, reason, .. } = h.submit_prompt(&ev).await else {
        panic!("the prompt must be blocked");
    };
    assert_eq!(reason, "prompts must not carry passwords");
    let records: Vec<Value> = h
        .records()
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("ts_ms");
            r
        })
        .collect();
    let t = turn.to_string();
    assert_eq!(
        records,
        vec![
            json!({"type": "turn/open", "turn_id": t, "session_id": "s1"}),
            json!({"type": "prompt/blocked", "turn_id": t, "session_id": "s1",
                   "prompt": "my password is hunter2",
                   "reason": "prompts must not carry passwords"}),
            json!({"type": "turn/close", "turn_id": t, "session_id": "s1",
                   "reason": "rejected", "steps": 0}),
        ]
    );
    assert_eq!(check_records(&h.records()), Ok(3));

    // An allowed prompt leaves its turn open until the loop ends it.
    let Submitted::Open { turn, .. } = h.submit_prompt(&SeamEvent::prompt("hi", "s1", "/w")).await
    else {
        panic!("allowed");
    };
    assert_eq!(turn.session_id(), "s1");
    h.end_turn(turn, TurnEnd::Interrupted { steps: 1 });
    let last = h.records().pop().unwrap();
    assert_eq!(last["reason"], "interrupted");
    assert_eq!(check_records(&h.records()), Ok(5));
}

#[tokio::test]
async fn hook_records_need_an_open_turn_and_the_checker_verifies_enclosure() {
    let mut h = Harness::new();
    h.add_table(policy!("tests/seeds/run_rule.toml"));
    let deploy = ToolCall::new("Bash", json!({ "command": "./deploy" }), "s2", "/tmp");
    // Outside a turn: the command hook runs and decides, but writes no hook/* record.
    let pre = h.pre_tool(&deploy).await;
    assert_eq!(pre.outcome().hook_runs.len(), 1);
    assert!(h.records().is_empty());

    // A log with a hook record outside its turn, a result without its invoked record, an
    // unknown dialect and a rejected turn without its prompt/blocked record.
    let bad = vec![
        json!({"type": "hook/invoked", "handler_id": "h1", "session_id": "s", "turn_id": "turn-1", "dialect": "claude-code"}),
        json!({"type": "turn/open", "session_id": "s", "turn_id": "turn-1"}),
        json!({"type": "hook/result", "handler_id": "h2", "session_id": "s", "turn_id": "turn-1", "dialect": "vim", "duration_ms": 1.0}),
        json!({"type": "turn/close", "session_id": "s", "turn_id": "turn-1", "reason": "rejected", "steps": 0}),
    ];
    assert_eq!(
        check_records(&bad),
        Err(vec![
            "record 0: `hook/invoked` outside an open turn (session `s`)".to_string(),
            "record 2: unknown dialect `vim`".to_string(),
            "record 2: result for `h2` without an invoked record".to_string(),
            "record 3: rejected turn `turn-1` has no prompt/blocked record".to_string(),
            "handler `h1` has no result".to_string(),
        ])
    );
}
