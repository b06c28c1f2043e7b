//! Fuzz the policy loader: policy files are untrusted input (they may come from a cloned
//! repository), so any text must load into diagnostics without panicking, and whatever
//! loads must compile into a decision table and evaluate a Bash payload.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, load_str};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let policy = load_str(src, "fuzz.toml", Scope::Project, 0);
    if policy.has_errors() {
        return;
    }
    let engine = Engine::new(DecisionTable::new(vec![policy]));
    let payload = json!({
        "session_id": "fuzz", "cwd": "/home/user/project", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": { "command": "sudo rm -rf / && git push -f origin main" }
    });
    let _ = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
});
