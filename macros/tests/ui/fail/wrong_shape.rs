use seamguard::harness::{SeamEvent, ToolCall, ToolExecution};
use seamguard::{PreToolDecision, hook};

// Two parameters.
#[hook(seam = "post-tool")]
fn two_params(_call: &ToolCall, _n: u32) -> Option<PreToolDecision> {
    None
}

// No return type where the seam needs a decision.
#[hook(seam = "stop")]
fn no_return(_e: &SeamEvent) {}

// Result observers are synchronous.
#[hook(seam = "tool-result")]
async fn async_observer(_e: &ToolExecution) {}

// A matcher on a seam that has none.
#[hook(seam = "prompt-submit", tool = "Bash")]
fn prompt(_e: &SeamEvent) -> Option<seamguard::PromptDecision> {
    None
}

fn main() {}
