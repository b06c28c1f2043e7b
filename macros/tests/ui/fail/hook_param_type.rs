use seamguard::harness::{SeamEvent, ToolCall};
use seamguard::{PromptDecision, hook};

// A prompt-submit hook receives `&SeamEvent`, not a tool call.
#[hook(seam = "prompt-submit")]
fn prompt_check(call: &ToolCall) -> Option<PromptDecision> {
    let _ = call;
    None
}

// Not a reference.
#[hook(seam = "stop")]
fn by_value(event: SeamEvent) -> Option<seamguard::ContinuationDecision> {
    let _ = event;
    None
}

fn main() {}
