//! Async closures with state (issue 30, 2): `on_async` at a built-in seam and at an
//! application event; the future is awaited, and the run's cancellation reaches it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;

use seamguard::harness::{
    CancellationToken, Harness, RegistrationOptions, ToolCall, at, first_result,
};
use seamguard::{Event, PreToolDecision};

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/tmp")
}

#[tokio::test]
async fn an_async_closure_keeps_state_across_calls_and_is_awaited() {
    let h = Harness::new();
    let seen = Arc::new(AtomicU32::new(0));
    let state = seen.clone();
    h.on_async(
        at::PreTool,
        move |call, _cx| {
            let state = state.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(5)).await;
                let n = state.fetch_add(1, Ordering::SeqCst) + 1;
                (n >= 2).then(|| PreToolDecision::Deny {
                    reason: format!("call {n} of {}", call.name()),
                })
            }
        },
        RegistrationOptions::named("second-call"),
    )
    .unwrap();
    assert_eq!(h.pre_tool(&bash("ls")).await.decision, None);
    assert_eq!(
        h.pre_tool(&bash("ls")).await.decision,
        Some(PreToolDecision::Deny {
            reason: "call 2 of Bash".into()
        })
    );
    assert_eq!(seen.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn cancelling_the_run_drops_an_async_closure_and_the_call_is_denied() {
    let h = Harness::new();
    h.on_async(
        at::PreTool,
        |_call, _cx| async move {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            None
        },
        RegistrationOptions::named("slow"),
    )
    .unwrap();
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(10)).await;
        cancel.cancel();
    });
    let pre = h.with_signal(token).pre_tool(&bash("ls")).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::Deny {
            reason: "the run was cancelled before every policy answered".into()
        })
    );
    assert!(pre.is_cancelled());
    assert_eq!(pre.failures, vec![], "the dropped closure did not fail");
}

#[derive(Event, Clone)]
#[event(decision = u32, reducer = first_result)]
struct Ping(u32);

#[tokio::test]
async fn emit_awaits_async_application_event_handlers() {
    let h = Harness::new();
    let calls = Arc::new(AtomicU32::new(0));
    let state = calls.clone();
    h.on_async(
        at::event::<Ping>(),
        move |ping, _cx| {
            let state = state.clone();
            async move {
                tokio::task::yield_now().await;
                state.fetch_add(1, Ordering::SeqCst);
                (ping.0 > 1).then_some(ping.0 * 10)
            }
        },
        RegistrationOptions::named("times-ten"),
    )
    .unwrap();
    h.on(
        at::event::<Ping>(),
        |_, _| Some(7),
        RegistrationOptions::named("seven"),
    )
    .unwrap();
    // The async handler answers first; when it abstains the next one does.
    assert_eq!(h.emit(&Ping(3)).await, Some(30));
    assert_eq!(h.emit(&Ping(1)).await, Some(7));
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    // Cancelled before it is called: not called, no result, no failure.
    let token = CancellationToken::new();
    token.cancel();
    assert_eq!(h.with_signal(token).emit(&Ping(3)).await, None);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert!(h.take_failures().is_empty());
}
