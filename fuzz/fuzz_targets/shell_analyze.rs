//! Fuzz the shell analyser: any bytes (as UTF-8, lossily) must analyse without panicking,
//! within bounded time (libFuzzer's `-timeout` catches hangs), and the path-aware view of a
//! Bash payload built from the same text must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seamguard_engine::shell::{BrushAnalyzer, ShellAnalyzer, tool_paths};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let script = String::from_utf8_lossy(data);
    let a = BrushAnalyzer.analyze(&script, Some("/home/user/project"));
    for c in &a.commands {
        let _ = c.display();
    }
    let _ = BrushAnalyzer.analyze(&script, None);
    let payload = json!({
        "cwd": "/home/user/project",
        "tool_name": "Bash",
        "tool_input": { "command": script },
    });
    let _ = tool_paths(&payload);
});
