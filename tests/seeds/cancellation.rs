//! Cancellation (interception-seams seed: "only `signal` may change around dispatch";
//! agent-harness seed: "Per-run `AbortSignal` is passed separately to `emit()` and
//! handlers"): one token per run reaches handlers, wrappers and the tool; a wrapper can
//! neither replace nor remove it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use seamguard::harness::ToolError;
use seamguard::harness::{
    BoxFuture, CancellationToken, EventHandler, ExecError, Harness, Next, PolicyTable,
    RegistrationOptions, SeamEvent, Tool, ToolCall, ToolResult, Wrapper, at, tool_fn,
};
use seamguard::{Event, PermissionDecision, PreToolDecision, PromptDecision, Scope};
use serde_json::json;

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/tmp")
}

/// A tool that never finishes on its own.
struct Hangs;

impl Tool for Hangs {
    fn call<'a>(
        &'a self,
        _call: &'a ToolCall,
    ) -> BoxFuture<'a, Result<serde_json::Value, ToolError>> {
        Box::pin(std::future::pending())
    }
}

/// Records whether the signal it saw was cancelled when dispatch came back.
#[derive(Default)]
struct Watch(Arc<AtomicBool>);

impl Wrapper for Watch {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let signal = next.signal();
            let r = next.run().await;
            self.0.store(signal.is_cancelled(), Ordering::SeqCst);
            r
        })
    }
}

/// Tries to drop the run's signal: cancels its own copy and dispatches anyway.
struct Rogue;

impl Wrapper for Rogue {
    fn around<'a>(&'a self, _call: &'a ToolCall, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            next.signal().cancel();
            next.run().await
        })
    }
}

#[tokio::test]
async fn cancellation_reaches_the_wrapper_the_handler_and_the_dispatch() {
    let mut h = Harness::new();
    let wrapper_saw = Arc::new(AtomicBool::new(false));
    h.wrap(Watch(wrapper_saw.clone()));
    let handler_signal: Arc<Mutex<Option<CancellationToken>>> = Arc::default();
    let keep = handler_signal.clone();
    h.on(
        at::PreTool,
        move |_call, cx| {
            *keep.lock().unwrap() = Some(cx.signal().clone());
            None
        },
        RegistrationOptions::named("keeps-signal"),
    )
    .unwrap();

    let token = CancellationToken::new();
    let later = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        later.cancel();
    });
    let exec = h
        .with_signal(token)
        .execute(bash("sleep 100"), &Hangs)
        .await;

    assert_eq!(exec.result.error, Some(ExecError::Cancelled));
    assert_eq!(exec.result.content, json!("cancelled"));
    assert!(exec.dispatched, "the dispatch started and was dropped");
    assert!(
        exec.post.is_none(),
        "no post-tool policy after a cancelled run"
    );
    assert!(
        wrapper_saw.load(Ordering::SeqCst),
        "the wrapper's signal is cancelled"
    );
    let seen = handler_signal.lock().unwrap().clone().unwrap();
    assert!(seen.is_cancelled(), "the handler got the run's token");
}

#[tokio::test]
async fn a_wrapper_cannot_replace_or_remove_the_signal() {
    let mut h = Harness::new();
    h.wrap(Rogue);
    let ok = tool_fn(|_c: &ToolCall| Ok(json!("ran")));
    let token = CancellationToken::new();
    // Cancelling the wrapper's copy does not cancel the run …
    let exec = h.with_signal(token.clone()).execute(bash("ls"), &ok).await;
    assert_eq!(exec.result.content, json!("ran"));
    assert!(!token.is_cancelled());
    // … and the run's own token still stops dispatch under it.
    token.cancel();
    let exec = h.with_signal(token).execute(bash("ls"), &ok).await;
    assert_eq!(exec.result.error, Some(ExecError::Cancelled));
    assert!(!exec.dispatched);
}

#[tokio::test]
async fn a_cancelled_prompt_waterfall_stops_and_says_it_was_cancelled() {
    let h = Harness::new();
    let token = CancellationToken::new();
    let cancel = token.clone();
    h.on(
        at::PromptSubmit,
        move |_ev, _cx| {
            cancel.cancel();
            Some(PromptDecision::Allow {
                rewritten_prompt: Some("rewritten".into()),
                additional_contexts: vec![],
            })
        },
        RegistrationOptions::named("cancels"),
    )
    .unwrap();
    let later = Arc::new(AtomicUsize::new(0));
    let count = later.clone();
    h.on(
        at::PromptSubmit,
        move |_ev, _cx| {
            count.fetch_add(1, Ordering::SeqCst);
            None
        },
        RegistrationOptions::named("after"),
    )
    .unwrap();
    let ev = SeamEvent::prompt("deploy", "s1", "/tmp");
    let r = h.with_signal(token).prompt_submit(&ev).await;
    assert_eq!(
        later.load(Ordering::SeqCst),
        0,
        "no handler runs after cancel"
    );
    // Not the pre-tool seam: the decision is what answered before the cancel, and the
    // evaluation says it was cancelled; the handler it skipped is no failure.
    assert!(r.is_cancelled());
    assert_eq!(
        r.decision,
        PromptDecision::Allow {
            rewritten_prompt: Some("rewritten".into()),
            additional_contexts: vec![],
        }
    );
    assert_eq!(r.failures, vec![]);
    assert_eq!(r.outcome().fired_ids(), ["cancels"]);

    // Not cancelled: the same harness says so.
    let r = h.prompt_submit(&ev).await;
    assert!(!r.is_cancelled());
}

/// The pre-tool answer of a cancelled run.
fn cancelled_deny() -> Option<PreToolDecision> {
    Some(PreToolDecision::Deny {
        reason: "the run was cancelled before every policy answered".into(),
    })
}

/// A token cancelled 100 ms from now.
fn cancelled_soon() -> CancellationToken {
    let token = CancellationToken::new();
    let later = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        later.cancel();
    });
    token
}

#[tokio::test]
async fn a_cancelled_command_hook_and_a_cancelled_rust_hook_both_deny_at_pre_tool() {
    // A command hook still running at the cancel.
    let mut by_command = Harness::new();
    by_command.add_table(
        PolicyTable::load_str(
            "[[rule]]\nid = \"slow-check\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
             run = { command = \"cat >/dev/null; sleep 5\", timeout = \"10s\" }\n",
            "slow.toml",
            Scope::User,
        )
        .unwrap(),
    );
    let started = std::time::Instant::now();
    let a = by_command
        .with_signal(cancelled_soon())
        .pre_tool(&bash("ls"))
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the hook was killed"
    );

    // A Rust hook still running at the cancel, and one after it that is never called.
    let by_rust = Harness::new();
    by_rust
        .on_async(
            at::PreTool,
            |_call, _cx| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                Some(PreToolDecision::allow())
            },
            RegistrationOptions::named("slow"),
        )
        .unwrap();
    by_rust
        .on(
            at::PreTool,
            |_c, _cx| Some(PreToolDecision::allow()),
            RegistrationOptions::named("skipped"),
        )
        .unwrap();
    let b = by_rust
        .with_signal(cancelled_soon())
        .pre_tool(&bash("ls"))
        .await;

    for r in [&a, &b] {
        assert_eq!(r.decision, cancelled_deny());
        assert!(r.is_cancelled());
        assert_eq!(r.failures, vec![], "cut off or skipped is not failed");
        assert_eq!(r.outcome().fired_ids(), ["seamguard:cancelled"]);
    }
    // Permission requests fail closed the same way.
    let token = CancellationToken::new();
    token.cancel();
    let p = by_rust
        .with_signal(token)
        .permission_request(&bash("ls"))
        .await;
    assert!(p.is_cancelled());
    assert_eq!(
        p.decision,
        Some(PermissionDecision::Deny {
            message: "the run was cancelled before every policy answered".into()
        })
    );
}

#[tokio::test]
async fn a_cancel_during_post_tool_policy_withholds_the_content() {
    let h = Harness::new();
    let token = CancellationToken::new();
    let cancel = token.clone();
    h.on_async(
        at::PostTool,
        move |_out, _cx| {
            let cancel = cancel.clone();
            async move {
                cancel.cancel();
                std::future::pending::<Option<seamguard::PostToolDecision>>().await
            }
        },
        RegistrationOptions::named("would-redact"),
    )
    .unwrap();
    let secret = tool_fn(|_c: &ToolCall| Ok(json!("sk-live-123")));
    let exec = h
        .with_signal(token)
        .execute(bash("cat .env"), &secret)
        .await;
    assert!(exec.dispatched);
    assert_eq!(exec.result.error, Some(ExecError::Cancelled));
    assert_eq!(exec.result.content, json!("cancelled"));
    assert_eq!(exec.failures, vec![]);
}

#[derive(Event)]
#[event(decision = u32, reducer = sum)]
struct Tally;

async fn sum(e: &Tally, hs: &[EventHandler<Tally>]) -> Option<u32> {
    let mut total = None;
    for h in hs {
        if let Some(n) = h.call(e).await {
            total = Some(total.unwrap_or(0) + n);
        }
    }
    total
}

#[tokio::test]
async fn emit_under_a_cancelled_signal_calls_no_further_handler() {
    let h = Harness::new();
    let token = CancellationToken::new();
    h.on(
        at::event::<Tally>(),
        |_, cx| {
            // Cancels the run it is part of.
            cx.signal().cancel();
            Some(1)
        },
        RegistrationOptions::named("first"),
    )
    .unwrap();
    h.on(
        at::event::<Tally>(),
        |_, _| Some(10),
        RegistrationOptions::named("second"),
    )
    .unwrap();
    // Without a signal, each emission has its own token.
    assert_eq!(h.emit(&Tally).await, Some(1));
    assert_eq!(h.emit(&Tally).await, Some(1));
    assert_eq!(h.with_signal(token.clone()).emit(&Tally).await, Some(1));
    assert_eq!(h.with_signal(token).emit(&Tally).await, None);
}

#[tokio::test]
async fn a_pre_tool_hook_cut_off_by_cancel_denies_nothing_and_dispatches_nothing() {
    let h = Harness::new();
    h.on(
        at::PreTool,
        |_c, _cx| {
            Some(PreToolDecision::Allow {
                reason: None,
                updated_input: None,
            })
        },
        RegistrationOptions::named("allow"),
    )
    .unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let n = ran.clone();
    let tool = tool_fn(move |_c: &ToolCall| {
        n.fetch_add(1, Ordering::SeqCst);
        Ok(json!("ran"))
    });
    let token = CancellationToken::new();
    token.cancel();
    let exec = h.with_signal(token).execute(bash("ls"), &tool).await;
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(exec.result.error, Some(ExecError::Cancelled));
    assert!(
        exec.failures.is_empty(),
        "cancellation is not a handler failure"
    );
}
