//! Fixtures of the integration tests of both crates (this file is also a module of the root
//! crate's test binary): hook payloads of both hosts, fresh scratch folders, and the engine
//! recorded sessions are judged with.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use seamguard_engine::{DecisionTable, Engine, LoadedPolicy, MemoryLedger, ShellEnv};
use serde_json::{Value, json};

/// A new, empty folder `seamguard-<kind>-<name>-<pid>-<n>` in the temp folder.
pub(crate) fn fresh_dir(kind: &str, name: &str) -> PathBuf {
    new_dir_in(&std::env::temp_dir(), &format!("seamguard-{kind}-{name}"))
}

/// A new, empty folder `<prefix>-<pid>-<n>` in `base` (removed first if a run before left
/// it).
pub(crate) fn new_dir_in(base: &Path, prefix: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let p = base.join(format!("{prefix}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// An engine over `loaded` as recordings are replayed: the home folder is `/home/user` (the
/// recordings were scrubbed to it), the project each payload's `cwd` (as `seamguard replay`
/// does), session memory kept in memory.
pub(crate) fn recorded_engine(loaded: Vec<LoadedPolicy>) -> Engine {
    let env = ShellEnv::new(None, "/home/user");
    Engine::new(DecisionTable::new(loaded).with_env(env))
        .with_ledger(Box::new(MemoryLedger::default()))
}

/// A Claude Code payload of `event` in `cwd`, with `extra` fields appended.
pub(crate) fn claude(cwd: &str, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "session_id": "0d9f6c1a-0000-4000-8000-00000000c0de",
        "transcript_path": "/home/user/.claude/projects/-home-user-project/0d9f6c1a-0000-4000-8000-00000000c0de.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    append(&mut v, extra);
    v
}

/// A Codex payload of `event` in `cwd`, with `extra` fields appended.
pub(crate) fn codex(cwd: &str, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "session_id": "019d0a00-0000-7000-8000-00000000c0de",
        "turn_id": "019d0b00-0000-7000-8000-00000000c0de",
        "transcript_path": "/home/user/.codex/sessions/2026/01/01/rollout-019d0a00.jsonl",
        "cwd": cwd,
        "hook_event_name": event,
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
    });
    append(&mut v, extra);
    v
}

/// A Claude Code `PreToolUse` of `tool` with `input` in `cwd`.
pub(crate) fn claude_pre_tool(tool: &str, input: Value, cwd: &str) -> Value {
    claude(
        cwd,
        "PreToolUse",
        json!({"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_01CASE"}),
    )
}

/// A Codex `PreToolUse` of `tool` with `input` in `cwd`.
pub(crate) fn codex_pre_tool(tool: &str, input: Value, cwd: &str) -> Value {
    codex(
        cwd,
        "PreToolUse",
        json!({"tool_name": tool, "tool_input": input, "tool_use_id": "call_case"}),
    )
}

/// A Claude Code Bash call of `command` in `cwd`.
pub(crate) fn bash(cwd: &str, command: &str) -> Value {
    claude_pre_tool("Bash", json!({ "command": command }), cwd)
}

/// A Codex Bash call of `command` in `cwd`.
pub(crate) fn codex_bash(cwd: &str, command: &str) -> Value {
    codex_pre_tool("Bash", json!({ "command": command }), cwd)
}

/// Appends the fields of the object `extra` to the object `base` (in order).
fn append(base: &mut Value, extra: Value) {
    let (Value::Object(b), Value::Object(e)) = (base, extra) else {
        panic!("payloads and their extra fields are objects");
    };
    for (k, v) in e {
        b.insert(k, v);
    }
}
