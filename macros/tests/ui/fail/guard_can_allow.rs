use seamguard::harness::ToolCall;
use seamguard::{PreToolDecision, Verdict, guard};

#[guard(tool = "Bash")]
fn no_force_push(_call: &ToolCall) -> Option<PreToolDecision> {
    None
}

#[guard]
fn verdict_guard(_call: &ToolCall) -> Result<Verdict, String> {
    Ok(Verdict::Abstain)
}

fn main() {}
