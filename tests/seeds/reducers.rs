//! The seed's base reducers (agent-harness seed, "Reducers"), shipped so applications do not
//! hand-write them: sequential transform, first-block-stops, first-cancel-or-last, collect.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use seamguard::Event;
use seamguard::harness::{
    Blocking, Cancelling, Harness, RegistrationOptions, Transform, at, collect, first_block_stops,
    first_cancel_or_last, sequential_transform,
};

/// The seed's `context` event: handlers rewrite the message list in turn.
#[derive(Event, Clone, Debug)]
#[event(name = "context", decision = Vec<String>, reducer = sequential_transform)]
struct ContextEvent {
    messages: Vec<String>,
}

impl Transform for ContextEvent {
    fn apply(&mut self, messages: Vec<String>) {
        self.messages = messages;
    }
    fn into_decision(self) -> Vec<String> {
        self.messages
    }
}

#[tokio::test]
async fn context_is_a_sequential_transform_each_handler_sees_current_messages() {
    let h = Harness::new();
    let n = RegistrationOptions::named;
    h.on(
        at::event::<ContextEvent>(),
        |e, _| {
            let mut m = e.messages.clone();
            m.insert(0, "system: be brief".into());
            Some(m)
        },
        n("prepend"),
    )
    .unwrap();
    h.on(at::event::<ContextEvent>(), |_, _| None, n("abstains"))
        .unwrap();
    h.on(
        at::event::<ContextEvent>(),
        // Sees the first handler's list.
        |e, _| Some(e.messages.iter().map(|m| m.to_uppercase()).collect()),
        n("shout"),
    )
    .unwrap();
    let out = h
        .emit(&ContextEvent {
            messages: vec!["user: hi".into()],
        })
        .await;
    assert_eq!(
        out,
        Some(vec!["SYSTEM: BE BRIEF".to_string(), "USER: HI".to_string()])
    );
}

#[derive(Debug, Clone, PartialEq)]
struct ToolCallResult {
    block: bool,
    reason: Option<String>,
}

impl Blocking for ToolCallResult {
    fn is_block(&self) -> bool {
        self.block
    }
}

#[derive(Event)]
#[event(name = "tool_call", decision = ToolCallResult, reducer = first_block_stops)]
struct ToolCallEvent {
    tool_name: String,
}

#[tokio::test]
async fn tool_call_first_block_stops() {
    let h = Harness::new();
    let later = Arc::new(AtomicUsize::new(0));
    let n = RegistrationOptions::named;
    h.on(
        at::event::<ToolCallEvent>(),
        |_, _| {
            Some(ToolCallResult {
                block: false,
                reason: Some("looked".into()),
            })
        },
        n("looks"),
    )
    .unwrap();
    h.on(
        at::event::<ToolCallEvent>(),
        |e, _| {
            (e.tool_name == "bash").then(|| ToolCallResult {
                block: true,
                reason: Some("no shell".into()),
            })
        },
        n("no-shell"),
    )
    .unwrap();
    let count = later.clone();
    h.on(
        at::event::<ToolCallEvent>(),
        move |_, _| {
            count.fetch_add(1, Ordering::SeqCst);
            None
        },
        n("after"),
    )
    .unwrap();
    let bash = ToolCallEvent {
        tool_name: "bash".into(),
    };
    assert_eq!(
        h.emit(&bash).await,
        Some(ToolCallResult {
            block: true,
            reason: Some("no shell".into())
        })
    );
    assert_eq!(
        later.load(Ordering::SeqCst),
        0,
        "nothing runs after a block"
    );
    let read = ToolCallEvent {
        tool_name: "read".into(),
    };
    assert_eq!(
        h.emit(&read).await,
        Some(ToolCallResult {
            block: false,
            reason: Some("looked".into())
        })
    );
    assert_eq!(later.load(Ordering::SeqCst), 1);
}

#[derive(Debug, Clone, PartialEq)]
enum BeforeCompact {
    Cancel,
    Summary(String),
}

impl Cancelling for BeforeCompact {
    fn is_cancel(&self) -> bool {
        *self == BeforeCompact::Cancel
    }
}

#[derive(Event)]
#[event(name = "session_before_compact", decision = BeforeCompact, reducer = first_cancel_or_last)]
struct SessionBeforeCompact {
    tokens: u32,
}

#[tokio::test]
async fn session_before_first_cancel_or_last() {
    let h = Harness::new();
    let n = RegistrationOptions::named;
    h.on(
        at::event::<SessionBeforeCompact>(),
        |_, _| Some(BeforeCompact::Summary("first".into())),
        n("first"),
    )
    .unwrap();
    h.on(
        at::event::<SessionBeforeCompact>(),
        |e, _| (e.tokens < 1000).then_some(BeforeCompact::Cancel),
        n("too-small"),
    )
    .unwrap();
    h.on(
        at::event::<SessionBeforeCompact>(),
        |_, _| Some(BeforeCompact::Summary("last".into())),
        n("last"),
    )
    .unwrap();
    assert_eq!(
        h.emit(&SessionBeforeCompact { tokens: 10 }).await,
        Some(BeforeCompact::Cancel)
    );
    assert_eq!(
        h.emit(&SessionBeforeCompact { tokens: 50_000 }).await,
        Some(BeforeCompact::Summary("last".into()))
    );
}

#[derive(Event)]
#[event(name = "resources_discover", decision = Vec<String>, reducer = collect)]
struct ResourcesDiscover;

#[tokio::test]
async fn collect_keeps_every_handlers_items_in_registration_order() {
    let h = Harness::new();
    assert_eq!(h.emit(&ResourcesDiscover).await, None);
    let n = RegistrationOptions::named;
    h.on(
        at::event::<ResourcesDiscover>(),
        |_, _| Some(vec!["skills/a.md".into(), "skills/b.md".into()]),
        n("skills"),
    )
    .unwrap();
    h.on(at::event::<ResourcesDiscover>(), |_, _| None, n("none"))
        .unwrap();
    h.on(
        at::event::<ResourcesDiscover>(),
        |_, _| Some(vec!["prompts/review.md".into()]),
        n("prompts"),
    )
    .unwrap();
    assert_eq!(
        h.emit(&ResourcesDiscover).await,
        Some(vec![
            "skills/a.md".to_string(),
            "skills/b.md".to_string(),
            "prompts/review.md".to_string()
        ])
    );
}
