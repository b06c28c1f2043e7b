//! A halt is hard to miss (issue 30, 6): a policy's `halt` (Claude Code's `continue:
//! false`) stops the tool before dispatch, whatever the decision, and is in the typed
//! results — the seam method's, the tool call's record, and a batch's, which runs no
//! later call.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use seamguard::harness::{ExecError, Harness, PolicyTable, ToolCall, tool_fn};
use seamguard::{PreToolDecision, Scope};

const POLICY: &str = r#"
[[rule]]
id = "freeze"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "terraform apply" }
halt = "Infrastructure is frozen: stop and ask the on-call engineer"

[[rule]]
id = "allow-terraform"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "terraform" }
decision = "allow"

[[rule]]
id = "leak-stop"
seam = "post-tool"
when.tool_response = { contains = "PRIVATE KEY" }
halt = "A key was printed: stop the session"
"#;

fn harness() -> Harness {
    let mut h = Harness::new();
    h.add_table(PolicyTable::load_str(POLICY, "halt.toml", Scope::User).unwrap());
    h
}

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/w")
}

const FROZEN: &str = "Infrastructure is frozen: stop and ask the on-call engineer";

#[tokio::test]
async fn a_pre_tool_halt_is_in_the_evaluation_and_stops_dispatch_even_when_allowed() {
    let h = harness();
    let pre = h.pre_tool(&bash("terraform apply")).await;
    assert_eq!(pre.decision, Some(PreToolDecision::allow()));
    let halt = pre.halt().unwrap();
    assert_eq!((halt.text.as_str(), halt.rule.as_str()), (FROZEN, "freeze"));

    let ran = Arc::new(AtomicUsize::new(0));
    let n = ran.clone();
    let tool = tool_fn(move |_c: &ToolCall| {
        n.fetch_add(1, Ordering::SeqCst);
        Ok(json!("applied"))
    });
    let exec = h.execute(bash("terraform apply"), &tool).await;
    assert_eq!(ran.load(Ordering::SeqCst), 0, "the tool did not run");
    assert!(!exec.dispatched);
    assert_eq!(
        exec.result.error,
        Some(ExecError::Halted {
            reason: FROZEN.into()
        })
    );
    assert_eq!(exec.result.content, json!(format!("halted: {FROZEN}")));
    assert_eq!(exec.halt.as_ref().map(|h| h.rule.as_str()), Some("freeze"));
    assert!(exec.post.is_none());

    // Without the halt the same allow dispatches.
    let exec = h.execute(bash("terraform plan"), &tool).await;
    assert_eq!(exec.result.content, json!("applied"));
    assert_eq!(exec.halt, None);
}

#[tokio::test]
async fn a_post_tool_halt_keeps_the_result_and_a_batch_runs_no_later_call() {
    let h = harness();
    let ran = Arc::new(AtomicUsize::new(0));
    let n = ran.clone();
    let tool = tool_fn(move |c: &ToolCall| {
        n.fetch_add(1, Ordering::SeqCst);
        Ok(json!(format!("ran {}", c.command().unwrap_or(""))))
    });
    let leak = tool_fn(|_c: &ToolCall| Ok(json!("-----BEGIN PRIVATE KEY-----")));
    let mut batch = h.batch();
    batch.execute(bash("ls"), &tool).await;
    let exec = batch.execute(bash("cat id_rsa"), &leak).await;
    assert!(exec.dispatched, "the tool ran before the halt");
    assert_eq!(exec.result.content, json!("-----BEGIN PRIVATE KEY-----"));
    assert_eq!(
        exec.halt
            .as_ref()
            .map(|h| (h.text.as_str(), h.rule.as_str())),
        Some(("A key was printed: stop the session", "leak-stop"))
    );
    let later = batch.execute(bash("ls -la"), &tool).await;
    assert!(!later.dispatched);
    assert_eq!(
        later.result.error,
        Some(ExecError::Halted {
            reason: "A key was printed: stop the session".into()
        })
    );
    let settled = batch.settle();
    assert_eq!(ran.load(Ordering::SeqCst), 1, "only the first call ran");
    assert_eq!(settled.halt().map(|h| h.rule.as_str()), Some("leak-stop"));
    assert_eq!(settled.results.len(), 3);
}
