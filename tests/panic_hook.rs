//! Contained panics are reported through the harness, not printed through the global panic
//! hook (issue 18); every other panic still reaches the hook the application installed. Its
//! own test binary: the panic hook is process-wide. Opt-in (issue 30, 6): a plain
//! `Harness::new()` does not touch it.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "tests: the handler panics on purpose"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use seamguard::PreToolDecision;
use seamguard::harness::{Harness, RegistrationOptions, ToolCall, at};

/// `h` with a pre-tool handler `buggy` that panics.
fn with_buggy_handler(h: Harness) -> Harness {
    h.on(
        at::PreTool,
        |_call, _cx| -> Option<PreToolDecision> { panic!("handler bug") },
        RegistrationOptions::named("buggy"),
    )
    .unwrap();
    h
}

#[tokio::test]
async fn contained_panics_are_reported_through_the_harness_not_the_panic_hook() {
    // The application's hook, installed before the harness.
    let printed = Arc::new(AtomicUsize::new(0));
    let count = printed.clone();
    std::panic::set_hook(Box::new(move |_| {
        count.fetch_add(1, Ordering::SeqCst);
    }));

    // Without the opt-in the harness leaves the hook alone: the contained panic is
    // reported through the harness and reaches the application's hook too.
    let plain = with_buggy_handler(Harness::new());
    let call = ToolCall::new("Bash", json!({ "command": "ls" }), "s1", "/w");
    let pre = plain.pre_tool(&call).await;
    assert_eq!(pre.failures[0].message, "panicked: handler bug");
    assert_eq!(
        printed.load(Ordering::SeqCst),
        1,
        "the hook was not replaced"
    );
    printed.store(0, Ordering::SeqCst);

    let h = with_buggy_handler(Harness::new().quiet_contained_panics());
    let call = ToolCall::new("Bash", json!({ "command": "ls" }), "s1", "/w");
    let pre = h.pre_tool(&call).await;
    assert_eq!(pre.failures.len(), 1);
    assert_eq!(pre.failures[0].name, "buggy");
    assert_eq!(pre.failures[0].message, "panicked: handler bug");
    assert_eq!(
        printed.load(Ordering::SeqCst),
        0,
        "the contained panic was not printed"
    );

    // A panic outside the harness still reaches the application's hook.
    let outside = std::panic::catch_unwind(|| panic!("elsewhere"));
    assert!(outside.is_err());
    assert_eq!(printed.load(Ordering::SeqCst), 1);
}
