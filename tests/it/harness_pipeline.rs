//! The embedding API's tool pipeline (issue 6): ordering and containment rules of the
//! interception-seams seed, one test each, plus cleanup semantics (agent-harness seed) and
//! application events.

// Handlers and cleanups below panic and unwrap on purpose: containment is what is tested.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use seamguard::harness::{
    Approval, Approver, BoxFuture, EventHandler, ExecError, Harness, Metrics, RegistrationOptions,
    Retry, SeamEvent, Timeout, Tool, ToolCall, ToolError, ToolExecution, ToolOutput,
    TranscriptEntry, at, tool_fn,
};
use seamguard::{
    ContinuationDecision, Event, GuardDeny, PostToolDecision, PreToolDecision, PromptDecision,
    Scope, Verdict, guard, hook, hooks, load_str, policy,
};

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/work/project")
}

/// A tool that counts its calls.
fn counting(n: &Arc<AtomicUsize>) -> impl Tool + use<> {
    let n = n.clone();
    tool_fn(move |call: &ToolCall| {
        n.fetch_add(1, Ordering::SeqCst);
        Ok(json!({ "stdout": format!("ran {}", call.command().unwrap_or("")) }))
    })
}

// ---- deny skips dispatch -------------------------------------------------------------------

#[tokio::test]
async fn deny_skips_dispatch() {
    let h = Harness::new();
    h.register_all(hooks![crate::sample_hooks::deny_rm])
        .unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = counting(&ran);

    let exec = h.execute(bash("rm -rf build"), &tool).await;
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "a denied call must not dispatch"
    );
    assert!(!exec.dispatched);
    assert!(exec.result.is_error);
    assert_eq!(
        exec.result.error,
        Some(ExecError::Denied {
            reason: "no rm".into()
        })
    );
    assert_eq!(exec.pre.verdict(), Verdict::Deny);

    let exec = h.execute(bash("ls"), &tool).await;
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(exec.dispatched && !exec.result.is_error);
    assert_eq!(exec.result.content, json!({ "stdout": "ran ls" }));
}

// ---- a guard cannot be resurrected by a later allow ----------------------------------------

#[guard(tool = "Bash")]
fn no_force_push(call: &ToolCall) -> Option<GuardDeny> {
    call.command()
        .filter(|c| c.contains("push --force"))
        .map(|_| GuardDeny {
            reason: "force pushes are never allowed".into(),
        })
}

#[hook(seam = "pre-tool", tool = "Bash|Read")]
fn allow_everything(_call: &ToolCall) -> PreToolDecision {
    PreToolDecision::Allow {
        reason: Some("trusted".into()),
        updated_input: None,
    }
}

#[tokio::test]
async fn guard_cannot_be_resurrected_by_a_later_allow() {
    let mut h = Harness::new();
    // The guard is registered first; an allow hook and an allowing TOML rule come later.
    h.register_all(hooks![no_force_push, allow_everything])
        .unwrap();
    h.add_table(seamguard::DecisionTable::new(vec![load_str(
        r#"
[[rule]]
id = "toml-allow-git"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git" }
decision = "allow"
"#,
        "allow.toml",
        Scope::User,
        0,
    )]));
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = counting(&ran);

    let call = bash("git push --force origin main");
    let pre = h.pre_tool(&call).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::Deny {
            reason: "force pushes are never allowed".into()
        })
    );
    // Hooks first (table, then handlers), guards last; the allows fired but lost.
    assert_eq!(
        pre.outcome().fired_ids(),
        vec!["toml-allow-git", "allow_everything", "no_force_push"]
    );
    assert_eq!(pre.outcome().pre_tool(), pre.decision, "fast path == merge");
    let exec = h.execute(call, &tool).await;
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert!(matches!(exec.result.error, Some(ExecError::Denied { .. })));

    // Without the guard's trigger the allow stands.
    let pre = h.pre_tool(&bash("git status")).await;
    assert!(matches!(pre.decision, Some(PreToolDecision::Allow { .. })));
}

// ---- an observer error cannot change the result --------------------------------------------

static OBSERVED: AtomicUsize = AtomicUsize::new(0);

#[hook(seam = "tool-result")]
fn panicking_observer(exec: &ToolExecution) {
    OBSERVED.fetch_add(1, Ordering::SeqCst);
    panic!("observer bug while looking at {}", exec.call.name());
}

#[hook(seam = "tool-result", tool = "Bash")]
fn counting_observer(_exec: &ToolExecution) {
    OBSERVED.fetch_add(100, Ordering::SeqCst);
}

#[tokio::test]
async fn observer_error_cannot_change_the_result() {
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = counting(&ran);
    let plain = Harness::new().execute(bash("echo hi"), &tool).await;

    let h = Harness::new();
    h.register_all(hooks![panicking_observer, counting_observer])
        .unwrap();
    let exec = h.execute(bash("echo hi"), &tool).await;
    assert_eq!(
        exec.result, plain.result,
        "the observer's panic changed nothing"
    );
    assert!(exec.failures.is_empty());
    assert_eq!(
        OBSERVED.load(Ordering::SeqCst),
        101,
        "both observers ran, the second after the first one's panic"
    );
    let failures = h.take_failures();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].name, "panicking_observer");
    assert!(failures[0].message.contains("observer bug"));
    assert!(failures[0].provenance.contains("harness_pipeline"));
}

// ---- a panicking handler becomes an error result -------------------------------------------

#[hook(seam = "pre-tool", tool = "Write")]
async fn panicking_hook(_call: &ToolCall) -> Option<PreToolDecision> {
    std::future::ready(()).await;
    panic!("handler bug");
}

#[hook(seam = "post-tool", tool = "Read")]
fn failing_post(_out: &ToolOutput) -> Result<Option<PostToolDecision>, String> {
    Err("cannot inspect".into())
}

#[tokio::test]
async fn panicking_handler_becomes_an_error_result() {
    let h = Harness::new();
    h.register_all(hooks![panicking_hook, failing_post])
        .unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = counting(&ran);

    let exec = h
        .execute(
            ToolCall::new("Write", json!({"file_path": "a"}), "s", "/p"),
            &tool,
        )
        .await;
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "a failed pre-tool hook skips dispatch"
    );
    assert!(exec.result.is_error);
    match &exec.result.error {
        Some(ExecError::Handler { name, message, .. }) => {
            assert_eq!(name, "panicking_hook");
            assert!(message.contains("handler bug"), "{message}");
        }
        other => panic!("expected a handler error, got {other:?}"),
    }
    assert!(
        exec.post.is_none(),
        "a pre-phase failure bypasses post-tool"
    );

    // A post-tool handler's Err after a successful dispatch.
    let exec = h
        .execute(
            ToolCall::new("Read", json!({"file_path": "a"}), "s", "/p"),
            &tool,
        )
        .await;
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(exec.result.is_error);
    assert!(matches!(
        &exec.result.error,
        Some(ExecError::Handler { message, .. }) if message == "cannot inspect"
    ));

    // A tool that panics, a tool that fails, and a tool that hangs past its timeout.
    let mut h = Harness::new();
    let metrics = Arc::new(Metrics::default());
    h.wrap(metrics.clone())
        .wrap(Timeout(Duration::from_millis(50)));
    let panics = tool_fn(|_c: &ToolCall| -> Result<Value, ToolError> { panic!("tool bug") });
    let exec = h.execute(bash("x"), &panics).await;
    assert!(
        matches!(&exec.result.error, Some(ExecError::Tool { message }) if message.contains("tool bug"))
    );
    let fails = tool_fn(|_c: &ToolCall| Err("exit 1".into()));
    let exec = h.execute(bash("x"), &fails).await;
    assert_eq!(
        exec.result.error,
        Some(ExecError::Tool {
            message: "exit 1".into()
        })
    );
    // A typed error: `?` on an I/O error, with the tool's own words before its cause.
    let reads = tool_fn(|_c: &ToolCall| {
        let text = std::fs::read_to_string("/nonexistent/seamguard/config.toml")
            .map_err(|e| ToolError::with_source("cannot read config.toml", e))?;
        Ok(json!(text))
    });
    let exec = h.execute(bash("x"), &reads).await;
    assert_eq!(
        exec.result.error,
        Some(ExecError::Tool {
            message: "cannot read config.toml: No such file or directory (os error 2)".into()
        })
    );
    struct Hangs;
    impl Tool for Hangs {
        fn call<'a>(&'a self, _c: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
            Box::pin(async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                Ok(Value::Null)
            })
        }
    }
    let exec = h.execute(bash("sleep"), &Hangs).await;
    assert_eq!(exec.result.error, Some(ExecError::Timeout { after_ms: 50 }));
    assert_eq!((metrics.calls(), metrics.errors()), (4, 4));
}

// ---- contexts appear after the batch's results ---------------------------------------------

#[hook(seam = "post-tool")]
fn note_each(out: &ToolOutput) -> Option<PostToolDecision> {
    Some(PostToolDecision::Accept {
        additional_contexts: vec![format!("note on {}", out.call.command().unwrap_or("?"))],
    })
}

#[tokio::test]
async fn contexts_appear_after_the_batch_results() {
    let h = Harness::new();
    h.register_all(hooks![note_each]).unwrap();
    let mut batch = h.batch();
    let injector = batch.injector();
    let tool = tool_fn(move |call: &ToolCall| {
        // An asynchronous injection while the first tool runs.
        if call.command() == Some("first") {
            injector.inject("background-indexer", "index updated");
        }
        Ok(json!("ok"))
    });
    let r1 = batch.execute(bash("first"), &tool).await;
    assert_eq!(r1.contexts.len(), 1, "the call carries its own contexts");
    batch.execute(bash("second"), &tool).await;
    let settled = batch.settle();

    let shape: Vec<String> = settled
        .transcript()
        .iter()
        .map(|e| match e {
            TranscriptEntry::Result(r) => format!("result {}", r.call.command().unwrap_or("")),
            TranscriptEntry::Context(c) => format!("context {} ({})", c.text, c.source),
        })
        .collect();
    assert_eq!(
        shape,
        vec![
            "result first",
            "result second",
            "context index updated (background-indexer)",
            "context note on first (note_each)",
            "context note on second (note_each)",
        ]
    );
}

// ---- cleanup semantics (agent-harness seed) ------------------------------------------------

static CLEANUP_LOG: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn cleanup_a() {
    CLEANUP_LOG.lock().unwrap().push("a");
}
fn cleanup_b() -> Result<(), String> {
    CLEANUP_LOG.lock().unwrap().push("b");
    Err("b failed".into())
}
fn cleanup_c() -> Result<(), std::fmt::Error> {
    CLEANUP_LOG.lock().unwrap().push("c");
    Ok(())
}
fn cleanup_d() {
    CLEANUP_LOG.lock().unwrap().push("d");
    panic!("d panicked");
}

#[hook(seam = "session-start", cleanup = cleanup_a)]
fn ctx_a(_e: &SeamEvent) -> Option<String> {
    Some("from a".into())
}
#[hook(seam = "session-start", tool = "startup", cleanup = cleanup_b)]
fn ctx_b(_e: &SeamEvent) -> Option<String> {
    Some("from b".into())
}
#[hook(seam = "stop", cleanup = cleanup_c)]
async fn keep_going(_e: &SeamEvent) -> Option<ContinuationDecision> {
    Some(ContinuationDecision::Continue {
        reason: "run the tests".into(),
    })
}
#[hook(seam = "prompt-submit", name = "shout", cleanup = cleanup_d)]
fn shout(e: &SeamEvent) -> Option<PromptDecision> {
    Some(PromptDecision::Allow {
        rewritten_prompt: e.prompt_text().map(str::to_uppercase),
        additional_contexts: vec![],
    })
}

#[tokio::test]
async fn cleanups_run_once_in_reverse_order_with_errors_collected() {
    let h = Harness::new();
    let ids = h
        .register_all(hooks![ctx_a, ctx_b, keep_going, shout])
        .unwrap();
    assert!(
        h.register_all(hooks![ctx_a]).is_err(),
        "duplicate names are refused"
    );

    let start = SeamEvent::new(
        seamguard::Seam::SessionStart,
        json!({"session_id": "s", "source": "startup"}),
    );
    assert_eq!(
        h.session_start(&start).await.decision,
        vec!["from a", "from b"]
    );
    let stop = SeamEvent::new(seamguard::Seam::Stop, json!({"session_id": "s"}));
    assert_eq!(
        h.stop(&stop).await.decision,
        ContinuationDecision::Continue {
            reason: "run the tests".into()
        }
    );
    let p = h.prompt_submit(&SeamEvent::prompt("hi", "s", "/p")).await;
    assert_eq!(
        p.decision,
        PromptDecision::Allow {
            rewritten_prompt: Some("HI".into()),
            additional_contexts: vec![]
        }
    );

    // Unregister runs that registration's cleanup once.
    assert!(h.unregister(ids[0]).unwrap());
    assert_eq!(h.unregister(ids[0]), Ok(false));
    assert_eq!(h.session_start(&start).await.decision, vec!["from b"]);

    let err = h.dispose().unwrap_err();
    assert_eq!(*CLEANUP_LOG.lock().unwrap(), vec!["a", "d", "c", "b"]);
    let names: Vec<&str> = err.0.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["shout", "ctx_b"]);
    assert!(err.to_string().contains("b failed"));
    assert!(h.dispose().is_ok(), "cleanups run only once");
    assert_eq!(CLEANUP_LOG.lock().unwrap().len(), 4);
}

// ---- ask resolution, retry ------------------------------------------------------------------

#[hook(seam = "pre-tool", tool = "WebFetch")]
fn ask_for_network(_c: &ToolCall) -> Option<PreToolDecision> {
    Some(PreToolDecision::Ask {
        reason: "network".into(),
    })
}

struct Yes;
impl Approver for Yes {
    fn approve<'a>(&'a self, _c: &'a ToolCall, _r: &'a str) -> BoxFuture<'a, Approval> {
        Box::pin(async { Approval::AllowedOnce })
    }
}

#[tokio::test]
async fn ask_needs_allowed_once_and_retry_reruns_failures() {
    let fetch = || ToolCall::new("WebFetch", json!({"url": "https://x"}), "s", "/p");
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = counting(&ran);
    let mut h = Harness::new();
    h.register_all(hooks![ask_for_network]).unwrap();
    let exec = h.execute(fetch(), &tool).await;
    assert!(matches!(
        exec.result.error,
        Some(ExecError::NotApproved { .. })
    ));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    h.set_approver(Yes);
    let exec = h.execute(fetch(), &tool).await;
    assert!(!exec.result.is_error);
    assert_eq!(ran.load(Ordering::SeqCst), 1);

    let tries = Arc::new(AtomicUsize::new(0));
    let t2 = tries.clone();
    let flaky = tool_fn(move |_c: &ToolCall| {
        if t2.fetch_add(1, Ordering::SeqCst) < 2 {
            Err("flaky".into())
        } else {
            Ok(json!("third time"))
        }
    });
    let mut h = Harness::new();
    h.wrap(Retry { attempts: 3 });
    let exec = h.execute(bash("x"), &flaky).await;
    assert_eq!(exec.result.content, json!("third time"));
    assert_eq!(tries.load(Ordering::SeqCst), 3);
}

// ---- TOML rules, policy! and handlers in one outcome ---------------------------------------

#[tokio::test]
async fn tables_and_handlers_merge_most_restrictively() {
    let mut h = Harness::new();
    h.add_table(policy!("policies"));
    h.register_all(hooks![allow_everything]).unwrap();
    let pre = h.pre_tool(&bash("sudo rm -rf /")).await;
    assert!(matches!(pre.decision, Some(PreToolDecision::Deny { .. })));
    assert!(pre.outcome().fired_ids().contains(&"allow_everything"));
    let pre = h.pre_tool(&bash("ls")).await;
    assert!(matches!(pre.decision, Some(PreToolDecision::Allow { .. })));

    // Post-tool redaction by a handler is a waterfall the final content sees.
    #[hook(seam = "post-tool", tool = "Bash")]
    fn redact_tokens(out: &ToolOutput) -> Option<PostToolDecision> {
        let s = out.result.content.as_str()?;
        s.contains("sk-").then(|| PostToolDecision::Redact {
            tool_response: Value::String(s.replace("sk-123", "[REDACTED]")),
            additional_contexts: vec![],
        })
    }
    let h = Harness::new();
    h.register_all(hooks![redact_tokens]).unwrap();
    let leaky = tool_fn(|_c: &ToolCall| Ok(json!("token sk-123")));
    let exec = h.execute(bash("env"), &leaky).await;
    assert_eq!(exec.result.content, json!("token [REDACTED]"));
}

// ---- application events ---------------------------------------------------------------------

/// The seed's `InputEvent`: the first handler that transforms or handles wins.
#[derive(Event)]
#[event(name = "input", decision = InputResult, reducer = seamguard::harness::first_result)]
struct InputEvent {
    text: String,
}

#[derive(Debug, PartialEq)]
enum InputResult {
    Transform(String),
}

/// Observational: no decision, no reducer.
#[derive(Event)]
struct MessageStart {
    id: u32,
}

async fn last_wins(e: &Counter, hs: &[EventHandler<Counter>]) -> Option<u32> {
    let mut last = None;
    for h in hs {
        last = h.call(e).await.or(last);
    }
    last
}

#[derive(Event)]
#[event(decision = u32, reducer = last_wins)]
struct Counter;

#[tokio::test]
async fn application_events_use_their_reducer() {
    let h = Harness::new();
    assert_eq!(<InputEvent as seamguard::harness::Event>::NAME, "input");
    let named = RegistrationOptions::named;
    h.on(at::event::<InputEvent>(), |_, _| None, named("noop"))
        .unwrap();
    h.on(
        at::event::<InputEvent>(),
        |e, _| Some(InputResult::Transform(e.text.to_uppercase())),
        named("upper"),
    )
    .unwrap();
    h.on(
        at::event::<InputEvent>(),
        |_, _| Some(InputResult::Transform("late".into())),
        named("never"),
    )
    .unwrap();
    let r = h.emit(&InputEvent { text: "hi".into() }).await;
    assert_eq!(r, Some(InputResult::Transform("HI".into())));

    let seen = Arc::new(AtomicUsize::new(0));
    let s2 = seen.clone();
    h.on(
        at::event::<MessageStart>(),
        move |m, _| {
            s2.fetch_add(m.id as usize, Ordering::SeqCst);
            None
        },
        named("count"),
    )
    .unwrap();
    h.on(
        at::event::<MessageStart>(),
        |_, _| panic!("listener bug"),
        named("boom"),
    )
    .unwrap();
    assert_eq!(h.emit(&MessageStart { id: 7 }).await, None);
    assert_eq!(seen.load(Ordering::SeqCst), 7);
    assert_eq!(h.take_failures().len(), 1);

    h.on(at::event::<Counter>(), |_, _| Some(1), named("one"))
        .unwrap();
    let id = h
        .on(at::event::<Counter>(), |_, _| Some(2), named("two"))
        .unwrap();
    assert_eq!(h.emit(&Counter).await, Some(2));
    h.unregister(id).unwrap();
    assert_eq!(h.emit(&Counter).await, Some(1));
}
