//! Handlers that the harness tests and the harness bench both register.

use seamguard::harness::ToolCall;
use seamguard::{PreToolDecision, hook};

/// Denies every Bash `rm …` call ("no rm").
#[hook(seam = "pre-tool", tool = "Bash")]
pub(crate) fn deny_rm(call: &ToolCall) -> Option<PreToolDecision> {
    call.command()
        .filter(|c| c.starts_with("rm "))
        .map(|_| PreToolDecision::Deny {
            reason: "no rm".into(),
        })
}
