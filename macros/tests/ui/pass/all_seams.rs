//! Every handler shape compiles, registers and runs.
use seamguard::harness::{
    EventHandler, Harness, SeamEvent, ToolCall, ToolExecution, ToolOutput, first_result,
};
use seamguard::{
    ContinuationDecision, Event, GuardDeny, PermissionDecision, PostToolDecision,
    PreToolDecision, PromptDecision, guard, hook, hooks, policy,
};

#[hook(seam = "pre-tool", tool = "Bash")]
fn sync_hook(_c: &ToolCall) -> Option<PreToolDecision> {
    None
}

#[hook(seam = "pre-tool", tool = "mcp__.*")]
async fn async_hook(_c: &ToolCall) -> Result<PreToolDecision, String> {
    Ok(PreToolDecision::Ask { reason: "mcp".into() })
}

#[guard(tool = "Bash|Write")]
fn a_guard(_c: &ToolCall) -> Option<GuardDeny> {
    None
}

#[guard]
async fn async_guard(_c: &ToolCall) -> Result<Option<GuardDeny>, std::io::Error> {
    Ok(None)
}

#[hook(seam = "permission-request", tool = "Bash")]
fn permission(_c: &ToolCall) -> Option<PermissionDecision> {
    None
}

#[hook(seam = "post-tool")]
fn post(_o: &ToolOutput) -> PostToolDecision {
    PostToolDecision::Accept { additional_contexts: vec![] }
}

#[hook(seam = "prompt-submit")]
fn prompt(_e: &SeamEvent) -> Option<PromptDecision> {
    None
}

#[hook(seam = "session-start", tool = "startup|resume")]
fn context(_e: &SeamEvent) -> String {
    "be careful".into()
}

#[hook(seam = "subagent-stop")]
fn continuation(_e: &SeamEvent) -> Option<ContinuationDecision> {
    None
}

#[hook(seam = "notification", name = "notify-audit")]
fn notified(_e: &SeamEvent) {}

#[hook(seam = "tool-result")]
fn observed(_e: &ToolExecution) {}

mod nested {
    use seamguard::harness::ToolCall;
    use seamguard::{PreToolDecision, hook};

    #[hook(seam = "pre-tool", crate = ::seamguard)]
    pub fn in_a_module(_c: &ToolCall) -> Option<PreToolDecision> {
        None
    }
}

#[derive(Event)]
#[event(decision = String, reducer = first_result)]
struct Input {
    _text: String,
}

#[derive(Event)]
struct Observed;

async fn reduce_generic<T: Send + Sync + 'static>(
    _e: &Wrapper<T>,
    _h: &[EventHandler<Wrapper<T>>],
) -> Option<u8> {
    None
}

#[derive(Event)]
#[event(decision = u8, reducer = reduce_generic)]
struct Wrapper<T: Send + Sync + 'static>(T);

fn main() {
    let mut h = Harness::new();
    h.add_table(policy!("../../../../policies"));
    let ids = h
        .register_all(hooks![
            sync_hook,
            async_hook,
            a_guard,
            async_guard,
            permission,
            post,
            prompt,
            context,
            continuation,
            notified,
            observed,
            nested::in_a_module,
        ])
        .unwrap();
    assert_eq!(ids.len(), 12);
    assert_eq!(<notified as seamguard::harness::Registered>::DESCRIPTOR.name, "notify-audit");
    let d = <sync_hook as seamguard::harness::Registered>::DESCRIPTOR;
    assert_eq!(d.provenance.line, 11, "the line of the fn");
    assert!(d.provenance.file.ends_with("all_seams.rs"));
    let _ = (Input { _text: String::new() }, Observed, Wrapper(1u8));
}
