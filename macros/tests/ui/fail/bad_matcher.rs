use seamguard::harness::ToolCall;
use seamguard::{GuardDeny, PreToolDecision, guard, hook};

#[hook(seam = "pre-tool", tool = "Bash|Edit(")]
fn check(_call: &ToolCall) -> Option<PreToolDecision> {
    None
}

// Looks like a permission rule: as a matcher it would never fire.
#[guard(tool = "Bash(git push*)")]
fn no_push(_call: &ToolCall) -> Option<GuardDeny> {
    None
}

fn main() {}
