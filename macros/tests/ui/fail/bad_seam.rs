use seamguard::harness::ToolCall;
use seamguard::{PreToolDecision, hook};

#[hook(seam = "pre_tool", tool = "Bash")]
fn check(_call: &ToolCall) -> Option<PreToolDecision> {
    None
}

fn main() {}
