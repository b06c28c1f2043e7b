//! The audit log: `hook/invoked` + `hook/result` records as JSON Lines (hook-protocol seed,
//! "hook/* session events").
//!
//! Every evaluation writes one `hook/invoked` and one `hook/result` record sharing a
//! `handler_id`; every command hook that ran adds its own pair (`<evaluation id>/<rule id>`).
//! All records of one evaluation are appended with a single `write` on a file opened with
//! `O_APPEND`, so concurrent `seamguard hook` processes (the host runs hooks in parallel)
//! never tear or interleave lines.
//!
//! Record fields: `type`, `handler_id`, `ts_ms` (Unix time, ms), `dialect`, `event`,
//! `session_id`; results add `decision`, `reason`, `rules` (fired rule ids), `duration_ms`
//! (float, ms), and for command hooks `exit_code`, `timed_out`, `failure`. When rules of a
//! `mode = "observe"` policy had something to say, the result also carries `observed`
//! (`decision`, `reason`, `rules`: what the outcome would have been with them enforced),
//! `tool_name` and `subject` (the command, file path, URL or prompt, at most 200 characters),
//! so the log alone shows what the observe profile would have stopped. `seamguard hook` adds
//! `tool_name` and `subject` to every decided result, and for an `ask` (or an ask a grant
//! lifted) `call` (the normalized call a grant matches), `project`, and `grant` /
//! `grant_scope` when a grant decided.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use crate::decision::Outcome;
use crate::dialect::Dialect;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh handler id: `sg-<pid>-<unix ns>-<n>`.
pub fn new_handler_id() -> String {
    let ns = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "sg-{}-{ns}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Unix time in milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The records of one evaluation, in order. `payload` (the hook input, when it was read)
/// gives the `session_id`, and the `tool_name` / `subject` of an observed outcome.
pub fn records(
    handler_id: &str,
    dialect: Dialect,
    event: &str,
    started_ms: u64,
    duration_ms: f64,
    outcome: &Outcome,
    payload: Option<&Value>,
) -> Vec<Value> {
    let session_id = payload
        .and_then(|p| p.get("session_id"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut v = vec![json!({
        "type": "hook/invoked",
        "handler_id": handler_id,
        "ts_ms": started_ms,
        "dialect": dialect.name(),
        "event": event,
        "session_id": session_id,
    })];
    for r in &outcome.hook_runs {
        let id = format!("{handler_id}/{}", r.id);
        v.push(json!({
            "type": "hook/invoked",
            "handler_id": id,
            "ts_ms": started_ms,
            "dialect": dialect.name(),
            "event": event,
            "session_id": session_id,
            "command": r.command,
        }));
        v.push(json!({
            "type": "hook/result",
            "handler_id": id,
            "ts_ms": started_ms + r.duration_ms,
            "dialect": dialect.name(),
            "event": event,
            "session_id": session_id,
            "exit_code": r.exit_code,
            "timed_out": r.timed_out,
            "failure": r.failure,
            "duration_ms": r.duration_ms as f64,
        }));
    }
    let mut result = json!({
        "type": "hook/result",
        "handler_id": handler_id,
        "ts_ms": now_ms(),
        "dialect": dialect.name(),
        "event": event,
        "session_id": session_id,
        "decision": outcome.verdict().name(),
        "reason": outcome.reason_text(),
        "rules": outcome.fired_ids(),
        "duration_ms": duration_ms,
    });
    if let (Some(o), Some(obj)) = (&outcome.observed, result.as_object_mut()) {
        obj.insert(
            "observed".into(),
            json!({ "decision": o.verdict.name(), "reason": o.reason, "rules": o.rules }),
        );
        if let Some(p) = payload {
            obj.insert(
                "tool_name".into(),
                p.get("tool_name").cloned().unwrap_or(Value::Null),
            );
            obj.insert(
                "subject".into(),
                subject(p).map_or(Value::Null, Value::String),
            );
        }
    }
    v.push(result);
    v
}

/// What an event is about, for a human reading the log: the tool input's `command`,
/// `file_path`, `path`, `url` or `pattern`, else the `prompt`; at most 200 characters.
pub fn subject(payload: &Value) -> Option<String> {
    let ti = payload.get("tool_input");
    let s = ["command", "file_path", "path", "url", "pattern"]
        .iter()
        .find_map(|k| ti.and_then(|t| t.get(*k)).and_then(Value::as_str))
        .or_else(|| payload.get("prompt").and_then(Value::as_str))?;
    let mut out: String = s.chars().take(200).collect();
    if s.chars().nth(200).is_some() {
        out.push('…');
    }
    Some(out)
}

/// Append records to the log in one write (creating the file and its folder).
///
/// # Errors
/// The I/O error; the caller reports it (the evaluation itself already happened).
pub fn append(path: &Path, records: &[Value]) -> std::io::Result<()> {
    let mut buf = Vec::new();
    for r in records {
        buf.extend_from_slice(r.to_string().as_bytes());
        buf.push(b'\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(&buf)
}

/// Check the record invariants of the hook-protocol seed over a whole log: every line is a
/// JSON object; every `hook/result` follows a `hook/invoked` with the same `handler_id`; no
/// handler has two results; the dialect is known; `duration_ms` is finite and not negative.
///
/// # Errors
/// One message per violation, naming the 1-based line.
#[cfg(feature = "oracle")]
#[doc(hidden)]
pub fn check_invariants(text: &str) -> Result<usize, Vec<String>> {
    let mut open: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut closed: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut errors = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                errors.push(format!("line {ln}: not JSON: {e}"));
                continue;
            }
        };
        n += 1;
        let id = v
            .get("handler_id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if !matches!(
            v.get("dialect").and_then(Value::as_str),
            Some("claude-code" | "codex")
        ) {
            errors.push(format!("line {ln}: unknown dialect"));
        }
        match v.get("type").and_then(Value::as_str) {
            Some("hook/invoked") => {
                if !open.insert(id.clone()) {
                    errors.push(format!("line {ln}: handler `{id}` invoked twice"));
                }
            }
            Some("hook/result") => {
                if !open.contains(&id) {
                    errors.push(format!(
                        "line {ln}: result for `{id}` without an invoked record"
                    ));
                }
                if !closed.insert(id.clone()) {
                    errors.push(format!("line {ln}: second result for `{id}`"));
                }
                match v.get("duration_ms").and_then(Value::as_f64) {
                    Some(d) if d.is_finite() && d >= 0.0 => {}
                    _ => errors.push(format!(
                        "line {ln}: duration_ms missing, negative or not finite"
                    )),
                }
            }
            _ => errors.push(format!("line {ln}: unknown record type")),
        }
    }
    for id in open.difference(&closed) {
        errors.push(format!("handler `{id}` has no result"));
    }
    if errors.is_empty() {
        Ok(n)
    } else {
        Err(errors)
    }
}
