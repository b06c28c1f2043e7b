//! A harness is shared: `Arc<Harness>` crosses spawned tasks and threads, and a tool reaches
//! the harness that dispatched it to run nested calls (issue 18, defects); command hooks of
//! policy tables run through the engine's runner (hook-protocol seed, "runner").

use std::sync::Arc;

use serde_json::{Value, json};

use seamguard::harness::ToolError;
use seamguard::harness::{
    BoxFuture, ExecError, Harness, SeamEvent, Submitted, Tool, ToolCall, TurnEnd, check_records,
    tool_fn,
};
use seamguard::{PreToolDecision, Verdict, policy};

const fn shareable<T: Send + Sync + 'static>() {}

#[test]
fn harness_is_send_and_sync() {
    // Compile-time: a harness can be put in an `Arc` and used from any task.
    const { shareable::<Harness>() };
    const { shareable::<Arc<Harness>>() };
}

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/tmp")
}

/// A composite tool: runs each command of `input.commands` as a nested `Bash` call through
/// the harness that dispatched it.
struct Composite {
    harness: std::sync::Weak<Harness>,
}

impl Tool for Composite {
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let harness = self.harness.upgrade().ok_or("harness gone")?;
            let echo = tool_fn(|c: &ToolCall| Ok(json!(c.command().unwrap_or(""))));
            let mut out = Vec::new();
            for cmd in call.input()["commands"].as_array().into_iter().flatten() {
                let nested = bash(cmd.as_str().unwrap_or(""));
                let exec = harness.execute(nested, &echo).await;
                out.push(json!({ "ok": !exec.result.is_error, "content": exec.result.content }));
            }
            Ok(Value::Array(out))
        })
    }
}

#[test]
fn arc_harness_crosses_spawned_tasks_and_tools_dispatch_nested_calls() {
    let mut h = Harness::new();
    h.add_table(seamguard::DecisionTable::new(vec![seamguard::load_str(
        "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
         when.command = { program = \"rm\" }\ndecision = \"deny\"\nreason = \"no rm\"\n",
        "inline.toml",
        seamguard::Scope::User,
        0,
    )]));
    let harness = Arc::new(h);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let from_task = rt.block_on({
        let harness = harness.clone();
        async move {
            // `tokio::spawn` needs a `Send + 'static` future holding the harness.
            let task = tokio::spawn(async move {
                let composite = Composite {
                    harness: Arc::downgrade(&harness),
                };
                let call = ToolCall::new(
                    "Composite",
                    json!({ "commands": ["ls", "rm -rf /"] }),
                    "s1",
                    "/tmp",
                );
                harness.execute(call, &composite).await
            });
            task.await.unwrap()
        }
    });
    assert!(!from_task.result.is_error);
    assert_eq!(
        from_task.result.content,
        json!([
            { "ok": true, "content": "ls" },
            { "ok": false, "content": "denied: no rm: rm -rf /" },
        ])
    );

    // And from another thread.
    let other = {
        let harness = harness.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(harness.pre_tool(&bash("rm x"))).decision
        })
    };
    assert_eq!(
        other.join().unwrap(),
        Some(PreToolDecision::Deny {
            reason: "no rm: rm x".into()
        })
    );
}

#[tokio::test]
async fn run_rule_in_a_policy_table_blocks_with_exit_2() {
    let mut h = Harness::new();
    h.add_table(policy!("tests/seeds/run_rule.toml"));
    let ran = std::sync::atomic::AtomicUsize::new(0);
    let tool = tool_fn(|_c: &ToolCall| {
        ran.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(json!("deployed"))
    });

    let Submitted::Open { turn, .. } = h
        .submit_prompt(&SeamEvent::prompt("deploy to prod", "s1", "/tmp"))
        .await
    else {
        panic!("the prompt is not blocked");
    };
    let exec = h.execute(bash("./deploy prod"), &tool).await;
    assert_eq!(ran.load(std::sync::atomic::Ordering::SeqCst), 0);
    assert_eq!(exec.pre.verdict(), Verdict::Deny);
    assert_eq!(
        exec.result.error,
        Some(ExecError::Denied {
            reason: "deploys need a ticket".into()
        })
    );

    assert_eq!(exec.pre.hook_runs.len(), 1);
    assert_eq!(exec.pre.hook_runs[0].exit_code, Some(2));

    // One hook/invoked + hook/result pair inside the open turn, paired by handler id.
    let records = h.records();
    assert_eq!(records.len(), 3, "{records:#?}");
    assert_eq!(records[0]["type"], "turn/open");
    let (invoked, result) = (&records[1], &records[2]);
    assert_eq!(invoked["type"], "hook/invoked");
    assert_eq!(invoked["rule"], "deploy-ticket");
    assert_eq!(invoked["event"], "PreToolUse");
    assert_eq!(invoked["session_id"], "s1");
    assert_eq!(invoked["turn_id"], turn.id().to_string());
    assert_eq!(result["type"], "hook/result");
    assert_eq!(result["handler_id"], invoked["handler_id"]);
    assert_eq!(result["turn_id"], turn.id().to_string());
    assert_eq!(result["exit_code"], 2);
    assert_eq!(result["decision"], "deny");
    assert_eq!(result["reason"], "deploys need a ticket");

    // A command the rule does not select runs no hook.
    let exec = h.execute(bash("ls"), &tool).await;
    assert_eq!(exec.result.content, json!("deployed"));
    h.end_turn(turn, TurnEnd::Completed { steps: 2 });
    let records = h.records();
    assert_eq!(records.len(), 4);
    assert_eq!(records[3]["type"], "turn/close");
    assert_eq!(records[3]["steps"], 2);
    assert_eq!(check_records(&records), Ok(4));
}
