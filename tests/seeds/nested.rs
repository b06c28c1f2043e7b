//! Nested calls (interception-seams seed: "Nested calls carry only the parent token";
//! "`ToolRunContext.deferContext()` … collects nested-dispatch context through failures";
//! "an outer block discards deferred contexts and exposes only contexts explicitly supplied
//! by the blocking decision").

use std::sync::{Arc, Mutex, Weak};

use serde_json::{Value, json};

use seamguard::harness::ToolError;
use seamguard::harness::{
    BoxFuture, CallId, Harness, HookContext, Injected, RegistrationOptions, Tool, ToolCall, at,
    tool_fn,
};
use seamguard::{PostToolDecision, PreToolDecision};

/// Runs `input.steps` as nested `Bash` calls, defers a summary, and fails when
/// `input.fail` is set.
struct Composite(Weak<Harness>);

impl Tool for Composite {
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let h = self.0.upgrade().ok_or("gone")?;
            let echo = tool_fn(|c: &ToolCall| Ok(json!(c.command().unwrap_or(""))));
            let steps: Vec<String> = call.input()["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect();
            for s in &steps {
                let nested = ToolCall::new("Bash", json!({ "command": s }), "s1", "/w");
                h.execute(nested, &echo).await;
            }
            let cx = HookContext::current().ok_or("no context")?;
            cx.defer_context("composite", &format!("ran {} steps", steps.len()));
            if call.input()["fail"] == json!(true) {
                return Err("step 3 crashed".into());
            }
            Ok(json!("done"))
        })
    }
}

/// What the `tool-result` observer saw: each call's command (or tool name) and parent.
type Parents = Arc<Mutex<Vec<(String, Option<CallId>)>>>;

fn harness() -> (Arc<Harness>, Parents) {
    let h = Harness::new();
    let n = RegistrationOptions::named;
    h.on(
        at::PostTool,
        |out, _| {
            let cmd = out.call.command()?;
            cmd.starts_with("npm test")
                .then(|| PostToolDecision::Accept {
                    additional_contexts: vec!["read the first failing test".into()],
                })
        },
        n("after-tests").matcher("Bash"),
    )
    .unwrap();
    h.on(
        at::PreTool,
        |call, _| {
            call.command()?
                .starts_with("rm")
                .then(|| PreToolDecision::Deny {
                    reason: "no rm".into(),
                })
        },
        n("no-rm").matcher("Bash"),
    )
    .unwrap();
    h.on(
        at::PostTool,
        |out, _| {
            if out.call.input()["block"] == json!(true) {
                return Some(PostToolDecision::Block {
                    feedback: "composite output withheld".into(),
                    additional_contexts: vec!["rerun the steps one by one".into()],
                });
            }
            Some(PostToolDecision::Accept {
                additional_contexts: vec!["composite finished".into()],
            })
        },
        n("composite-post").matcher("Composite"),
    )
    .unwrap();
    let seen: Parents = Arc::default();
    let log = seen.clone();
    h.on(
        at::ToolResult,
        move |exec, _| {
            log.lock().unwrap().push((
                exec.call.command().unwrap_or(exec.call.name()).to_string(),
                exec.parent,
            ));
        },
        n("parents"),
    )
    .unwrap();
    (Arc::new(h), seen)
}

fn texts(v: &[Injected]) -> Vec<(&str, &str)> {
    v.iter()
        .map(|i| (i.source.as_str(), i.text.as_str()))
        .collect()
}

#[tokio::test]
async fn nested_calls_carry_only_the_parent_token() {
    let (h, seen) = harness();
    let tool = Composite(Arc::downgrade(&h));
    let outer = ToolCall::new(
        "Composite",
        json!({ "steps": ["ls", "npm test"] }),
        "s1",
        "/w",
    );
    let outer_id = outer.id();
    let exec = h.execute(outer, &tool).await;
    assert_eq!(exec.parent, None);
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            ("ls".to_string(), Some(outer_id)),
            ("npm test".to_string(), Some(outer_id)),
            ("Composite".to_string(), None),
        ]
    );
}

#[tokio::test]
async fn deferred_contexts_survive_failures_and_precede_decision_contexts() {
    let (h, _) = harness();
    let tool = Composite(Arc::downgrade(&h));
    let ok = ToolCall::new(
        "Composite",
        json!({ "steps": ["npm test", "rm -rf x"] }),
        "s1",
        "/w",
    );
    let exec = h.execute(ok, &tool).await;
    assert!(!exec.result.is_error);
    assert_eq!(
        texts(&exec.contexts),
        vec![
            ("after-tests", "read the first failing test"),
            ("composite", "ran 2 steps"),
            ("composite-post", "composite finished"),
        ]
    );

    // The tool fails after its nested calls: their contexts are still delivered.
    let failing = ToolCall::new(
        "Composite",
        json!({ "steps": ["npm test"], "fail": true }),
        "s1",
        "/w",
    );
    let exec = h.execute(failing, &tool).await;
    assert!(exec.result.is_error);
    assert_eq!(
        texts(&exec.contexts),
        vec![
            ("after-tests", "read the first failing test"),
            ("composite", "ran 1 steps"),
            ("composite-post", "composite finished"),
        ]
    );
}

#[tokio::test]
async fn an_outer_block_discards_deferred_contexts() {
    let (h, _) = harness();
    let tool = Composite(Arc::downgrade(&h));
    let call = ToolCall::new(
        "Composite",
        json!({ "steps": ["npm test"], "block": true }),
        "s1",
        "/w",
    );
    let exec = h.execute(call, &tool).await;
    assert_eq!(exec.feedback.as_deref(), Some("composite output withheld"));
    assert_eq!(
        texts(&exec.contexts),
        vec![("composite-post", "rerun the steps one by one")]
    );
}

#[tokio::test]
async fn a_block_keeps_only_the_blocking_decisions_contexts() {
    let h = Harness::new();
    let n = RegistrationOptions::named;
    h.on(
        at::PostTool,
        |_, _| {
            Some(PostToolDecision::Accept {
                additional_contexts: vec!["looks fine".into()],
            })
        },
        n("accepts"),
    )
    .unwrap();
    h.on(
        at::PostTool,
        |out, _| {
            let shown = out.result.content.as_str()?;
            shown.contains("sk-").then(|| PostToolDecision::Block {
                feedback: "a token in the output".into(),
                additional_contexts: vec!["rotate the token".into(), "use the vault".into()],
            })
        },
        n("no-tokens"),
    )
    .unwrap();
    let leaky = tool_fn(|_c: &ToolCall| Ok(json!("token sk-123")));
    let call = ToolCall::new("Bash", json!({ "command": "env" }), "s1", "/w");
    let exec = h.execute(call, &leaky).await;
    assert_eq!(exec.feedback.as_deref(), Some("a token in the output"));
    assert_eq!(
        texts(&exec.contexts),
        vec![
            ("no-tokens", "rotate the token"),
            ("no-tokens", "use the vault"),
        ]
    );
    assert_eq!(
        exec.post.as_ref().unwrap().post_tool(),
        Some(PostToolDecision::Block {
            feedback: "a token in the output".into(),
            additional_contexts: vec!["rotate the token".into(), "use the vault".into()],
        })
    );

    // Without a block, every handler's contexts are kept.
    let clean = tool_fn(|_c: &ToolCall| Ok(json!("PATH=/bin")));
    let call = ToolCall::new("Bash", json!({ "command": "env" }), "s1", "/w");
    let exec = h.execute(call, &clean).await;
    assert_eq!(exec.feedback, None);
    assert_eq!(texts(&exec.contexts), vec![("accepts", "looks fine")]);
}
