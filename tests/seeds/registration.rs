//! One registration API (agent-harness seed, "Hook handlers and registration options"):
//! `on(target, handler, {source, cleanup})` for built-in seams and application events,
//! closures with their own state, an unregister handle, names unique on every path, and the
//! context object (`setContext`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;

use seamguard::harness::{
    Harness, HookContext, RegisterError, RegistrationOptions, SeamEvent, ToolCall, at,
};
use seamguard::{Event, PreToolDecision, Seam, hook, hooks};

fn bash(cmd: &str) -> ToolCall {
    ToolCall::new("Bash", json!({ "command": cmd }), "s1", "/tmp")
}

#[tokio::test]
async fn closures_register_at_built_in_seams_with_their_own_state() {
    let h = Harness::new();
    let budget = Arc::new(AtomicUsize::new(2));
    let left = budget.clone();
    h.on(
        at::PreTool,
        move |_call, _cx| {
            // One closure, its own state: the third call is over budget.
            let before = left.load(Ordering::SeqCst);
            if before == 0 {
                return Some(PreToolDecision::Deny {
                    reason: "over the tool budget".into(),
                });
            }
            left.store(before - 1, Ordering::SeqCst);
            None
        },
        RegistrationOptions::named("budget")
            .source("extensions/budget.rs")
            .matcher("Bash"),
    )
    .unwrap();
    assert_eq!(h.pre_tool(&bash("ls")).await.decision, None);
    assert_eq!(h.pre_tool(&bash("ls")).await.decision, None);
    let third = h.pre_tool(&bash("ls")).await;
    assert_eq!(
        third.decision,
        Some(PreToolDecision::Deny {
            reason: "over the tool budget".into()
        })
    );
    // The matcher applies: another tool is not counted.
    let read = ToolCall::new("Read", json!({ "file_path": "/tmp/a" }), "s1", "/tmp");
    assert_eq!(h.pre_tool(&read).await.decision, None);
    assert_eq!(budget.load(Ordering::SeqCst), 0);
}

#[hook(seam = "pre-tool")]
fn taken(_call: &ToolCall) -> Option<PreToolDecision> {
    None
}

#[derive(Event)]
struct Ping;

#[test]
fn duplicate_names_are_refused_on_every_path() {
    let h = Harness::new();
    h.register_all(hooks![taken]).unwrap();
    let dup = |r: Result<_, RegisterError>| r.unwrap_err();
    assert_eq!(
        dup(h.on(
            at::PreTool,
            |_, _| None,
            RegistrationOptions::named("taken")
        )),
        RegisterError::Duplicate("taken".into())
    );
    assert_eq!(
        dup(h.on(
            at::event::<Ping>(),
            |_, _| None,
            RegistrationOptions::named("taken")
        )),
        RegisterError::Duplicate("taken".into())
    );
    h.on(
        at::event::<Ping>(),
        |_, _| None,
        RegistrationOptions::named("ping"),
    )
    .unwrap();
    assert_eq!(
        dup(h.on(at::Stop, |_, _| None, RegistrationOptions::named("ping"))),
        RegisterError::Duplicate("ping".into())
    );
    assert_eq!(
        h.register_all(hooks![taken]).unwrap_err(),
        RegisterError::Duplicate("taken".into())
    );
    // Without a name, each registration gets its own: `<target>#<id>`.
    let a = h.on(at::PreTool, |_, _| None, RegistrationOptions::default());
    let b = h.on(at::PreTool, |_, _| None, RegistrationOptions::default());
    assert!(a.is_ok() && b.is_ok());
    // An observer only at an observe-only seam.
    assert_eq!(
        dup(h.on(
            at::Observe(Seam::PreTool),
            |_, _| {},
            RegistrationOptions::named("obs")
        )),
        RegisterError::Seam {
            name: "obs".into(),
            kind: "observer",
            seam: Seam::PreTool
        }
    );
}

#[test]
fn the_unregister_handle_runs_the_cleanup_once_and_frees_the_name() {
    let h = Harness::new();
    let cleaned = Arc::new(AtomicUsize::new(0));
    let c = cleaned.clone();
    let id = h
        .on(
            at::SessionStart,
            |_, _| Some("hello".into()),
            RegistrationOptions::named("greeter").cleanup(move || {
                c.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        )
        .unwrap();
    // The handle unregisters on its own (no harness needed); a second time finds nothing.
    assert_eq!(id.clone().unregister(), Ok(true));
    assert_eq!(cleaned.load(Ordering::SeqCst), 1);
    assert_eq!(id.unregister(), Ok(false));
    assert_eq!(cleaned.load(Ordering::SeqCst), 1);
    assert!(h.dispose().is_ok());
    assert_eq!(cleaned.load(Ordering::SeqCst), 1);
    // The name is free again.
    assert!(
        h.on(
            at::SessionStart,
            |_, _| None,
            RegistrationOptions::named("greeter")
        )
        .is_ok()
    );
}

/// The application's context object.
#[derive(Debug)]
struct Team {
    protected: Vec<&'static str>,
}

/// A `#[hook]` fn reads the context through `HookContext::current`.
#[hook(seam = "pre-tool", tool = "Bash")]
fn protected_branches(call: &ToolCall) -> Option<PreToolDecision> {
    let cx = HookContext::current()?;
    let team = cx.app::<Team>()?;
    let cmd = call.command()?;
    team.protected
        .iter()
        .find(|b| cmd.contains(&format!("push origin {b}")))
        .map(|b| PreToolDecision::Deny {
            reason: format!("{b} is protected"),
        })
}

#[tokio::test]
async fn handlers_receive_the_context_set_with_set_context() {
    let h = Harness::new();
    h.register_all(hooks![protected_branches]).unwrap();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = seen.clone();
    h.on(
        at::SessionStart,
        move |ev: &SeamEvent, cx: &HookContext| {
            let team = cx.app::<Team>()?;
            log.lock()
                .unwrap()
                .push(format!("{:?}", ev.field("source")));
            Some(format!("protected: {}", team.protected.join(", ")))
        },
        RegistrationOptions::named("brief"),
    )
    .unwrap();

    // No context yet: the handlers abstain.
    let start = SeamEvent::new(
        Seam::SessionStart,
        json!({"session_id": "s1", "cwd": "/tmp", "hook_event_name": "SessionStart", "source": "startup"}),
    );
    assert_eq!(h.session_start(&start).await.decision, Vec::<String>::new());
    assert_eq!(
        h.pre_tool(&bash("git push origin main")).await.decision,
        None
    );

    // `set_context` takes `&self`: a shared harness changes it between runs.
    h.set_context(Team {
        protected: vec!["main", "release"],
    });
    assert_eq!(
        h.session_start(&start).await.decision,
        vec!["protected: main, release".to_string()]
    );
    assert_eq!(
        h.pre_tool(&bash("git push origin release")).await.decision,
        Some(PreToolDecision::Deny {
            reason: "release is protected".into()
        })
    );
    assert_eq!(*seen.lock().unwrap(), vec!["Some(\"startup\")".to_string()]);
}

#[tokio::test]
async fn reasons_and_their_provenance_come_apart() {
    let h = Harness::new();
    h.on(
        at::PreTool,
        |_call, _cx| {
            Some(PreToolDecision::Deny {
                reason: "no network in CI".into(),
            })
        },
        RegistrationOptions::named("offline").source("extensions/offline.rs"),
    )
    .unwrap();
    let pre = h.pre_tool(&bash("curl x")).await;
    assert_eq!(pre.reason(), Some("no network in CI"));
    assert_eq!(pre.reasons()[0].rule, "offline");
    let tool = seamguard::harness::tool_fn(|_c: &ToolCall| Ok(json!("x")));
    let exec = h.execute(bash("curl x"), &tool).await;
    assert_eq!(exec.reason(), Some("no network in CI"));
    assert_eq!(exec.reasons()[0].rule, "offline");
    // A handler's failure carries the `source` given at registration.
    let h = Harness::new();
    h.on(
        at::PreTool,
        |call, _cx| {
            let cmd = call.command().unwrap_or_default();
            let n: u32 = cmd.parse().map_err(|_| ()).ok()?;
            (n > 1).then(|| PreToolDecision::Deny {
                reason: "too many".into(),
            })
        },
        RegistrationOptions::named("parses").source("extensions/parse.rs"),
    )
    .unwrap();
    h.on(
        at::PreTool,
        |_call, _cx| -> Option<PreToolDecision> { panic!("extension bug") },
        RegistrationOptions::named("buggy").source("extensions/buggy.rs"),
    )
    .unwrap();
    let pre = h.pre_tool(&bash("2")).await;
    assert_eq!(pre.failures[0].name, "buggy");
    assert_eq!(pre.failures[0].provenance, "extensions/buggy.rs");
    assert_eq!(pre.failures[0].message, "panicked: extension bug");
    assert_eq!(pre.reason(), Some("too many"));
}

/// A `#[hook]` fn may take the run's context as a second parameter.
#[hook(seam = "pre-tool", tool = "Bash")]
async fn waits_for_approval_service(call: &ToolCall, cx: &HookContext) -> Option<PreToolDecision> {
    let team = cx.app::<Team>()?;
    let cmd = call.command()?;
    if cx.is_cancelled() {
        return None;
    }
    cmd.contains("--force").then(|| PreToolDecision::Ask {
        reason: format!("force flags need a look from {}", team.protected.join("/")),
    })
}

#[tokio::test]
async fn hook_fns_can_take_the_context_as_a_second_parameter() {
    let h = Harness::new();
    h.register_all(hooks![waits_for_approval_service]).unwrap();
    assert_eq!(h.pre_tool(&bash("git push --force")).await.decision, None);
    h.set_context(Team {
        protected: vec!["main"],
    });
    assert_eq!(
        h.pre_tool(&bash("git push --force")).await.decision,
        Some(PreToolDecision::Ask {
            reason: "force flags need a look from main".into()
        })
    );
}

/// A sync `#[hook]` fn with the context.
#[hook(seam = "stop")]
fn keep_going_unless_cancelled(
    _ev: &SeamEvent,
    cx: &HookContext,
) -> Option<seamguard::ContinuationDecision> {
    (!cx.is_cancelled()).then(|| seamguard::ContinuationDecision::Continue {
        reason: "tests are still red".into(),
    })
}

#[tokio::test]
async fn a_sync_hook_fn_sees_the_runs_signal() {
    let h = Harness::new();
    h.register_all(hooks![keep_going_unless_cancelled]).unwrap();
    let stop = SeamEvent::stop(false, "s1", "/w");
    assert_eq!(
        h.stop(&stop).await.decision,
        seamguard::ContinuationDecision::Continue {
            reason: "tests are still red".into()
        }
    );
    let token = seamguard::harness::CancellationToken::new();
    token.cancel();
    // A cancelled run calls no handler: the agent stops.
    assert_eq!(
        h.with_signal(token).stop(&stop).await.decision,
        seamguard::ContinuationDecision::Stop
    );
}

#[tokio::test]
async fn a_context_of_another_type_is_an_error_that_names_both_types() {
    struct Team;
    let h = Harness::new();
    h.on(
        at::PreTool,
        |_call: &ToolCall, cx: &HookContext| {
            cx.state::<Team>()
                .err()
                .map(|e| PreToolDecision::deny(e.to_string()))
        },
        RegistrationOptions::named("team"),
    )
    .unwrap();
    let team = std::any::type_name::<Team>();
    assert_eq!(
        h.pre_tool(&bash("ls")).await.decision,
        Some(PreToolDecision::deny(format!(
            "no application context is set (Harness::set_context); a `{team}` was asked for"
        )))
    );
    h.set_context(String::from("not a team"));
    assert_eq!(
        h.pre_tool(&bash("ls")).await.decision,
        Some(PreToolDecision::deny(format!(
            "the application context is a `alloc::string::String`, not the `{team}` asked for"
        )))
    );
    h.set_context(Team);
    assert_eq!(h.pre_tool(&bash("ls")).await.decision, None);
}
