//! Typed events per seam (interception-seams seed: `session-start(agent, source)` carries a
//! `SessionStartSource`): typed constructors and readers, raw JSON as the escape hatch, and
//! an event built for the wrong seam is an error.

use serde_json::json;

use seamguard::event::HookEvent;
use seamguard::harness::{
    EventError, Harness, RegistrationOptions, SeamEvent, SessionStartSource, at,
};
use seamguard::{ContinuationDecision, PromptDecision, Seam};

#[tokio::test]
async fn session_start_carries_a_typed_source() {
    let h = Harness::new();
    h.on(
        at::SessionStart,
        |ev, _| match ev.session_start_source()? {
            SessionStartSource::Resume => Some("welcome back".into()),
            _ => None,
        },
        RegistrationOptions::named("resume-greeting"),
    )
    .unwrap();
    let resume = SeamEvent::session_start(SessionStartSource::Resume, "s1", "/w");
    assert_eq!(resume.payload["source"], "resume");
    assert_eq!(resume.payload["hook_event_name"], "SessionStart");
    assert_eq!(
        h.session_start(&resume).await.decision,
        vec!["welcome back".to_string()]
    );
    let fresh = SeamEvent::session_start(SessionStartSource::Startup, "s1", "/w");
    assert_eq!(h.session_start(&fresh).await.decision, Vec::<String>::new());
    assert_eq!(
        SessionStartSource::parse("reload"),
        SessionStartSource::Other("reload".into())
    );

    // The typed payload, and back.
    let HookEvent::SessionStart(typed) = resume.typed().unwrap() else {
        panic!("not a SessionStart payload");
    };
    assert_eq!(typed.source, "resume");
    assert_eq!(typed.session_id, "s1");
    assert_eq!(
        SeamEvent::from_typed(&HookEvent::SessionStart(typed)),
        resume
    );
}

#[test]
fn an_event_built_for_the_wrong_seam_is_an_error() {
    let stop_payload = json!({"session_id": "s1", "cwd": "/w", "hook_event_name": "Stop"});
    assert_eq!(
        SeamEvent::try_new(Seam::PromptSubmit, stop_payload.clone()).unwrap_err(),
        EventError::WrongSeam {
            expected: Seam::PromptSubmit,
            found: Seam::Stop
        }
    );
    // A missing field is named.
    let err = SeamEvent::try_new(Seam::PromptSubmit, json!({"session_id": "s1"})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "UserPromptSubmit payload: field `.`: missing field `prompt`"
    );
    let ok = SeamEvent::try_new(Seam::Stop, stop_payload.clone()).unwrap();
    assert_eq!(ok.seam, Seam::Stop);
    assert_eq!(ok.payload, stop_payload);
    // `hook_event_name` is added when absent.
    let bare = SeamEvent::try_new(Seam::Notification, json!({"session_id": "s1"})).unwrap();
    assert_eq!(bare.payload["hook_event_name"], "Notification");
}

#[tokio::test]
async fn a_seam_method_given_another_seams_event_fails_closed_and_says_so() {
    let h = Harness::new();
    let stop = SeamEvent::stop(false, "s1", "/w");
    let r = h.prompt_submit(&stop).await;
    let message =
        "a `stop` event given to `prompt_submit` (it takes `prompt-submit`); nothing evaluated";
    assert_eq!(
        r.decision,
        PromptDecision::Block {
            reason: message.into(),
            suppress_prompt: false,
        }
    );
    assert_eq!(r.failures.len(), 1);
    assert_eq!(r.failures[0].message, message);

    let prompt = SeamEvent::prompt("hi", "s1", "/w");
    let r = h.stop(&prompt).await;
    assert_eq!(r.decision, ContinuationDecision::Stop);
    assert_eq!(
        r.failures[0].message,
        "a `prompt-submit` event given to `stop` (it takes `stop`, `subagent-stop`); nothing evaluated"
    );
    // A raw event whose payload names another seam is caught too.
    let raw = SeamEvent::new(
        Seam::Stop,
        json!({"session_id": "s1", "cwd": "/w", "hook_event_name": "SessionStart", "source": "startup"}),
    );
    assert_eq!(
        h.stop(&raw).await.failures[0].message,
        "a `session-start` event given to `stop` (it takes `stop`, `subagent-stop`); nothing evaluated"
    );
}

#[tokio::test]
async fn each_seam_method_has_its_own_event_type() {
    use seamguard::harness::{NoticeEvent, PromptEvent, StartEvent, StopEvent};

    let h = Harness::new();
    h.on(
        at::Stop,
        |ev, _| {
            (!ev.stop_hook_active()).then(|| ContinuationDecision::continue_with("run the tests"))
        },
        RegistrationOptions::named("tests-first"),
    )
    .unwrap();
    h.on(
        at::SessionStart,
        |ev, _| Some(format!("started: {}", ev.session_start_source()?)),
        RegistrationOptions::named("greet"),
    )
    .unwrap();

    // The typed events evaluate as the raw events they hold.
    let stop = StopEvent::new(false, "s1", "/w");
    assert_eq!(
        h.stop(&stop).await.decision,
        ContinuationDecision::continue_with("run the tests")
    );
    assert_eq!(stop.event(), &SeamEvent::stop(false, "s1", "/w"));
    let start = StartEvent::new(SessionStartSource::Clear, "s1", "/w");
    assert_eq!(
        h.session_start(&start).await.decision,
        vec!["started: clear".to_string()]
    );
    let prompt = PromptEvent::new("hello", "s1", "/w");
    assert_eq!(
        h.prompt_submit(&prompt).await.decision,
        PromptDecision::allow()
    );
    let notice = NoticeEvent::session_end("logout", "s1", "/w");
    assert!(h.notify(&notice).await.failures.is_empty());

    // From the typed payloads of `seamguard::event`.
    let HookEvent::Stop(payload) = SeamEvent::stop(true, "s2", "/w").typed().unwrap() else {
        panic!("a stop payload");
    };
    let stop = StopEvent::from(payload);
    assert_eq!((stop.seam, stop.stop_hook_active()), (Seam::Stop, true));
    assert_eq!(h.stop(&stop).await.decision, ContinuationDecision::Stop);

    // From a raw event: the seam must be one the type stands for.
    assert_eq!(
        StopEvent::try_new(SeamEvent::prompt("hi", "s1", "/w")).unwrap_err(),
        EventError::WrongSeam {
            expected: Seam::Stop,
            found: Seam::PromptSubmit,
        }
    );
    let sub = StopEvent::try_new(
        SeamEvent::try_new(
            Seam::SubagentStop,
            json!({ "session_id": "s1", "cwd": "/w", "stop_hook_active": false }),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(sub.seam, Seam::SubagentStop);
    assert!(NoticeEvent::try_from(SeamEvent::notification("hi", "s1", "/w")).is_ok());
}
