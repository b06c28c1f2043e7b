use seamguard::hook;
use seamguard::harness::ToolCall;

// A return type that does not answer the seam.
#[hook(seam = "pre-tool")]
fn wrong_return(_call: &ToolCall) -> bool {
    true
}

fn main() {}
