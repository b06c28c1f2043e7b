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

// The second parameter is the run's context.
#[hook(seam = "pre-tool")]
fn second_param(call: &ToolCall, budget: u32) -> Option<seamguard::PreToolDecision> {
    let _ = (call, budget);
    None
}

fn main() {}
