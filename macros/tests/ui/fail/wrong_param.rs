use seamguard::{PreToolDecision, hook};

// The parameter does not match the seam: an ordinary type error at the user's fn.
#[hook(seam = "pre-tool")]
fn wrong_param(command: &String) -> Option<PreToolDecision> {
    let _ = command;
    None
}

fn main() {}
