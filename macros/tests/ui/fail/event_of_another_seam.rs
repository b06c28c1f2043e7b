use seamguard::harness::{Harness, PromptEvent, StopEvent};

async fn misrouted(h: &Harness) {
    // A stop event given to `prompt_submit`, and a prompt to `stop`: neither compiles.
    h.prompt_submit(&StopEvent::new(false, "s1", "/w")).await;
    h.stop(&PromptEvent::new("hi", "s1", "/w")).await;
}

fn main() {
    let _ = misrouted;
}
