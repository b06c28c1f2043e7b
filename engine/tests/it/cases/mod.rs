//! Cases from real bug reports (`shared/cases/cases.jsonl`), expressed as seamguard policies
//! and/or as command-hook outputs read through `decode_hook_output`. Each test names its case.

use seamguard_engine::{Contribution, Dialect, HookResponse, Seam, decode_hook_output};

mod codex;
mod matchers;
mod merge;
mod post_tool;
mod prompt;
mod stop;
mod wrong_shape;

fn decode_cc(seam: Seam, exit: Option<i32>, stdout: &str, stderr: &str) -> HookResponse {
    decode_hook_output(
        Dialect::ClaudeCode,
        seam,
        exit,
        stdout.as_bytes(),
        stderr.as_bytes(),
    )
}

fn decode_cx(seam: Seam, exit: Option<i32>, stdout: &str, stderr: &str) -> HookResponse {
    decode_hook_output(
        Dialect::Codex,
        seam,
        exit,
        stdout.as_bytes(),
        stderr.as_bytes(),
    )
}

/// A decoded hook answer as a merge contribution (how a runner of hooks.json hooks folds them).
fn contribution(name: &str, r: &HookResponse) -> Contribution {
    Contribution::verdict(name, r.verdict(), r.reason.clone())
}
