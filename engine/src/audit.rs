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
//!
//! # Re-judging a record: `payload_sha256` and `input`
//!
//! So that `seamguard replay` can judge a recorded call again with another policy,
//! [`keep_input`] adds to the evaluation's `hook/result`:
//!
//! - `payload_sha256`: the SHA-256 of the raw payload bytes as the host sent them (hex), which
//!   ties the record to a payload kept elsewhere (a host's own log) without holding it;
//! - `input`: the payload as it was judged (after the host's dialect was read into the common
//!   shape), every string value passed through [`redact_text`] and the values of keys named
//!   like secrets (`password`, `api_key`, `accessToken`, …) masked; `redacted` counts the
//!   masked values when there are any;
//! - `input_omitted` instead of `input` when the masked input is over [`MAX_INPUT_BYTES`]
//!   (replay counts those records as skipped).
//!
//! **What is kept, and what that costs.** Masking replaces every letter and digit of a
//! secret value with `0` and keeps everything else: the known prefix of a credential format
//! (`ghp_`, `AKIA`, `sk-ant-`, `-----BEGIN PRIVATE KEY-----`), its separators and its length.
//! The rules of the library test secrets by their shape (a token format in a file's content,
//! a credential parameter in a URL, a password flag), and a masked value has the same shape,
//! so a re-judged record gets the verdict the live call got. What is lost: a rule that tests
//! the exact characters of a secret value (none in the library) cannot be re-judged, and a
//! secret in a format seamguard does not know (a password in free text, a token of an
//! unknown service) is kept as it was: the input holds what the agent sent, commands and file
//! contents included. Environment references (`$API_KEY`) and paths are never masked (rules
//! test them). The digest of the raw bytes is not salted: with the masked input in hand, a
//! guess of a short masked secret can be confirmed against it, so a weak password in a
//! payload is not protected by masking; long tokens are. `SEAMGUARD_AUDIT_INPUT=off` keeps
//! only the digest. Records written before `input` existed are skipped by replay, counted.
//!
//! # Refusals and rotation
//!
//! A payload the hook refuses unread (truncated JSON, fields of the wrong type, over the size
//! limit) gets a record too ([`refusal_records`]): `refused: true`, `cause`, the verdict the
//! host was given, the digest, and the dialect and event when they are known (`null` when
//! not). [`append`] rotates the log once it would grow past [`ROTATE_BYTES`]: the full file
//! becomes [`rotated_path`] (`audit.1.jsonl`, replacing an older one) and a new one starts.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::decision::Outcome;
use crate::dialect::Dialect;

mod redact;

pub use crate::secret_names::secret_variable;
pub use redact::{redact, redact_text, secret_name};

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
        "reason": redact_text(&outcome.reason_text()).0,
        "rules": outcome.fired_ids(),
        "duration_ms": duration_ms,
    });
    if let (Some(o), Some(obj)) = (&outcome.observed, result.as_object_mut()) {
        obj.insert(
            "observed".into(),
            json!({ "decision": o.verdict.name(), "reason": redact_text(&o.reason).0, "rules": o.rules }),
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
/// `file_path`, `path`, `url` or `pattern`, else the `prompt`; at most 200 characters, secrets
/// masked ([`redact_text`]).
pub fn subject(payload: &Value) -> Option<String> {
    let ti = payload.get("tool_input");
    let s = ["command", "file_path", "path", "url", "pattern"]
        .iter()
        .find_map(|k| ti.and_then(|t| t.get(*k)).and_then(Value::as_str))
        .or_else(|| payload.get("prompt").and_then(Value::as_str))?;
    let (s, _) = redact_text(s);
    let mut out: String = s.chars().take(200).collect();
    if s.chars().nth(200).is_some() {
        out.push('…');
    }
    Some(out)
}

/// The size past which the log is rotated (10 MiB).
pub const ROTATE_BYTES: u64 = 10 << 20;

/// The previous log of `path` once rotated: `audit.jsonl` → `audit.1.jsonl` (`log` →
/// `log.1`).
pub fn rotated_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rotated = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}.1.{ext}"),
        _ => format!("{name}.1"),
    };
    path.with_file_name(rotated)
}

/// Append records to the log in one write (creating the file and its folder), rotating it
/// first when the write would take it past [`ROTATE_BYTES`].
///
/// # Errors
/// The I/O error; the caller reports it (the evaluation itself already happened).
pub fn append(path: &Path, records: &[Value]) -> std::io::Result<()> {
    append_bounded(path, records, ROTATE_BYTES)
}

/// [`append`] with the rotation size `bound`.
///
/// Concurrent hook processes rotate once: the process that rotates holds an exclusive lock on
/// the full file while it renames it, and a process that waited for that lock finds the path
/// no longer names the file it holds, so it leaves the new log alone.
///
/// # Errors
/// The I/O error.
#[doc(hidden)]
pub fn append_bounded(path: &Path, records: &[Value], bound: u64) -> std::io::Result<()> {
    let mut buf = Vec::new();
    for r in records {
        buf.extend_from_slice(r.to_string().as_bytes());
        buf.push(b'\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let open = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    };
    let mut f = open()?;
    let grows_past = |f: &std::fs::File| -> std::io::Result<bool> {
        let len = f.metadata()?.len();
        Ok(len > 0 && len + buf.len() as u64 > bound)
    };
    if grows_past(&f)? {
        f.lock()?;
        if names_file(path, &f) && grows_past(&f)? {
            std::fs::rename(path, rotated_path(path))?;
        }
        f.unlock()?;
        f = open()?;
    }
    f.write_all(&buf)
}

/// Whether `path` still names the open file `f` (not a file another process put there).
#[cfg(unix)]
fn names_file(path: &Path, f: &std::fs::File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(path), f.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn names_file(path: &Path, f: &std::fs::File) -> bool {
    matches!(
        (std::fs::metadata(path), f.metadata()),
        (Ok(a), Ok(b)) if a.len() == b.len()
    )
}

/// The SHA-256 of a payload's raw bytes, fed as they are read.
#[derive(Default)]
pub struct PayloadDigest(Sha256);

impl PayloadDigest {
    /// Add bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The digest in lower-case hex.
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The SHA-256 of `bytes` in lower-case hex (`payload_sha256`).
pub fn payload_digest(bytes: &[u8]) -> String {
    let mut d = PayloadDigest::default();
    d.update(bytes);
    d.finish()
}

/// The largest masked `input` a record keeps (serialized, bytes); over it the record says
/// `input_omitted`.
pub const MAX_INPUT_BYTES: usize = 64 << 10;

/// Add `payload_sha256` and the masked `input` (or `input_omitted`) to the evaluation's
/// `hook/result` record, the last of `records` (see the module documentation). `payload`
/// `None` keeps only the digest.
pub fn keep_input(records: &mut [Value], payload: Option<&Value>, digest: &str) {
    let Some(Value::Object(last)) = records.last_mut() else {
        return;
    };
    last.insert("payload_sha256".into(), json!(digest));
    let Some(payload) = payload else {
        return;
    };
    // Masking never makes a value longer: the bound is checked on the payload as it came, and
    // an input over it is not masked at all.
    let size = payload.to_string().len();
    if size > MAX_INPUT_BYTES {
        last.insert(
            "input_omitted".into(),
            json!(format!(
                "the input is {size} bytes, over the {MAX_INPUT_BYTES}-byte bound"
            )),
        );
        return;
    }
    let (input, redacted) = redact(payload);
    last.insert("input".into(), input);
    if redacted > 0 {
        last.insert("redacted".into(), json!(redacted));
    }
}

/// The records of a payload the hook refused unread: a `hook/invoked` and a `hook/result`,
/// both with `refused: true`, the result with the `cause`, the `decision` the host was given (`deny` for a tool
/// call or an unknown event, `none` for another event), the rules it is reported under, and
/// `payload_sha256` when the payload was read. `dialect` and `event` are `null` when they are
/// not known; `payload` (when it was parsed) gives `session_id`, `tool_name` and `subject`.
#[allow(clippy::too_many_arguments, reason = "one flat record, as `records`")]
pub fn refusal_records(
    handler_id: &str,
    dialect: Option<Dialect>,
    event: Option<&str>,
    started_ms: u64,
    duration_ms: f64,
    outcome: &Outcome,
    cause: &str,
    digest: Option<&str>,
    payload: Option<&Value>,
) -> Vec<Value> {
    let session_id = payload
        .and_then(|p| p.get("session_id"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let dialect = dialect.map(Dialect::name);
    let verdict = if event.is_none() {
        // Exit 2, which every host reads as a block of the call.
        "deny"
    } else {
        outcome.verdict().name()
    };
    let reason = redact_text(&outcome.reason_text()).0.into_owned();
    let cause = redact_text(cause).0.into_owned();
    let mut result = json!({
        "type": "hook/result",
        "handler_id": handler_id,
        "ts_ms": now_ms(),
        "dialect": dialect,
        "event": event,
        "session_id": session_id,
        "decision": verdict,
        "reason": reason,
        "rules": outcome.fired_ids(),
        "duration_ms": duration_ms,
        "refused": true,
        "cause": cause,
    });
    if let Some(obj) = result.as_object_mut() {
        if let Some(d) = digest {
            obj.insert("payload_sha256".into(), json!(d));
        }
        if let Some(p) = payload {
            // A refused payload's fields may be of any type: a tool name only when it is one.
            obj.insert(
                "tool_name".into(),
                p.get("tool_name")
                    .filter(|t| t.is_string())
                    .cloned()
                    .unwrap_or(Value::Null),
            );
            obj.insert(
                "subject".into(),
                subject(p).map_or(Value::Null, Value::String),
            );
        }
    }
    vec![
        json!({
            "type": "hook/invoked",
            "handler_id": handler_id,
            "ts_ms": started_ms,
            "dialect": dialect,
            "event": event,
            "session_id": session_id,
            "refused": true,
        }),
        result,
    ]
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
        let refused = v.get("refused").and_then(Value::as_bool) == Some(true);
        let dialect_ok = match v.get("dialect") {
            Some(Value::String(d)) => Dialect::from_name(d).is_some_and(|x| x.name() == d),
            // A refused payload's dialect may be unknown.
            Some(Value::Null) => refused,
            _ => false,
        };
        if !dialect_ok {
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

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    #[test]
    fn known_credential_formats_keep_their_shape() {
        let cases = [
            (
                "echo 'GH=ghp_abcdefghijklmnopqrstuvwxyz0123456789' >> .env",
                "echo 'GH=ghp_000000000000000000000000000000000000' >> .env",
            ),
            (
                "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
                "aws_access_key_id = AKIA0000000000000000",
            ),
            (
                "key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz_-AB",
                "key: sk-ant-api03-00000000000000000000000000_-00",
            ),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz+aC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n",
                "-----BEGIN OPENSSH PRIVATE KEY-----\n00000000+0000000=\n-----END OPENSSH PRIVATE KEY-----\n",
            ),
            (
                "curl https://hooks.slack.com/services/T0AB/B1CD/abcdefghijklmnopqrstuvwx",
                "curl https://hooks.slack.com/services/T0AB/B1CD/000000000000000000000000",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                redact_text(text),
                (Cow::Owned(want.to_string()), 1),
                "{text}"
            );
        }
    }

    #[test]
    fn secrets_known_by_their_place_are_masked_and_references_kept() {
        let cases = [
            (
                "curl 'https://api.x.io/v1?page_token=abc&api_key=s3cr3t&q=1'",
                "curl 'https://api.x.io/v1?page_token=abc&api_key=000000&q=1'",
                1,
            ),
            (
                "git clone https://bob:hunter2@git.example.com/r.git",
                "git clone https://bob:0000000@git.example.com/r.git",
                1,
            ),
            (
                "mysql --password hunter2 --user bob && deploy --token=abc.def",
                "mysql --password 0000000 --user bob && deploy --token=000.000",
                2,
            ),
            (
                "curl -H 'Authorization: Bearer abc123' -H \"X-Api-Key: k9\" https://x.io",
                "curl -H 'Authorization: Bearer 000000' -H \"X-Api-Key: 00\" https://x.io",
                2,
            ),
            (
                "DB_PASSWORD=pa55!word\nDEBUG=1\n",
                "DB_PASSWORD=0000!0000\nDEBUG=1\n",
                1,
            ),
        ];
        for (text, want, n) in cases {
            assert_eq!(
                redact_text(text),
                (Cow::Owned(want.to_string()), n),
                "{text}"
            );
        }
        // Environment references, paths, pagination cursors and ordinary text stay.
        for text in [
            "curl -H \"Authorization: Bearer $OPENAI_API_KEY\" https://api.openai.com/v1/models",
            "curl -d \"$AWS_SECRET_ACCESS_KEY\" https://x.io",
            "psql --password-file ~/.pgpass && cat --token-file=/run/secrets/t",
            "TOKEN_PATH=/home/u/.ssh/id_rsa gh auth status",
            "https://api.x.io/items?next_token=abc&max_tokens=5",
            "git push origin main && ls -la ~/.aws",
        ] {
            assert_eq!(redact_text(text), (Cow::Borrowed(text), 0), "{text}");
        }
    }

    #[test]
    fn values_of_secret_keys_are_masked_whole() {
        let v = json!({
            "tool_name": "mcp__db__connect",
            "tool_input": {"host": "db", "password": "hunter2", "apiKey": "k-1",
                "page_token": "p1", "key": "uploads/a.txt", "token_file": "/run/t",
                "env": {"GITHUB_TOKEN": "$GITHUB_TOKEN"}, "n": {"client_secret": 7},
                "content": "x = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'"},
        });
        assert_eq!(
            redact(&v),
            (
                json!({
                    "tool_name": "mcp__db__connect",
                    "tool_input": {"host": "db", "password": "0000000", "apiKey": "0-0",
                        "page_token": "p1", "key": "uploads/a.txt", "token_file": "/run/t",
                        "env": {"GITHUB_TOKEN": "$GITHUB_TOKEN"}, "n": {"client_secret": 7},
                        "content": "x = 'ghp_000000000000000000000000000000000000'"},
                }),
                3
            )
        );
    }

    #[test]
    fn the_input_is_kept_masked_within_its_bound() {
        let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "export API_TOKEN=abc123"}});
        let mut recs = vec![json!({"type": "hook/result", "decision": "none"})];
        keep_input(&mut recs, Some(&payload), "ab12");
        assert_eq!(
            recs[0],
            json!({"type": "hook/result", "decision": "none", "payload_sha256": "ab12",
                "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "export API_TOKEN=000000"}},
                "redacted": 1})
        );
        let big = json!({"tool_input": {"content": "a".repeat(MAX_INPUT_BYTES)}});
        let mut recs = vec![json!({"type": "hook/result"})];
        keep_input(&mut recs, Some(&big), "cd34");
        assert_eq!(
            recs[0],
            json!({"type": "hook/result", "payload_sha256": "cd34",
                "input_omitted": "the input is 65565 bytes, over the 65536-byte bound"})
        );
        let mut recs = vec![json!({"type": "hook/result"})];
        keep_input(&mut recs, None, "ef56");
        assert_eq!(
            recs[0],
            json!({"type": "hook/result", "payload_sha256": "ef56"})
        );
        assert_eq!(
            payload_digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn refusals_are_recorded_with_their_cause() {
        let out = crate::decision::merge(
            crate::Seam::PreTool,
            vec![crate::decision::Contribution::verdict(
                "seamguard:unreadable-payload",
                crate::Verdict::Deny,
                Some("could not judge: bad password=hunter2".to_string()),
            )],
        );
        let recs = refusal_records(
            "h1",
            Some(Dialect::Codex),
            Some("PreToolUse"),
            5,
            1.5,
            &out,
            "malformed",
            Some("ab"),
            None,
        );
        let mut r = recs[1].clone();
        r["ts_ms"] = json!(0);
        assert_eq!(
            r,
            json!({"type": "hook/result", "handler_id": "h1", "ts_ms": 0, "dialect": "codex",
                "event": "PreToolUse", "session_id": "", "decision": "deny",
                "reason": "could not judge: bad password=0000000 [seamguard:unreadable-payload]",
                "rules": ["seamguard:unreadable-payload"], "duration_ms": 1.5, "refused": true,
                "cause": "malformed", "payload_sha256": "ab"})
        );
        let unknown = refusal_records(
            "h2",
            None,
            None,
            5,
            1.0,
            &Outcome::default(),
            "x",
            None,
            None,
        );
        assert_eq!(
            (
                &unknown[1]["decision"],
                &unknown[1]["dialect"],
                &unknown[1]["event"]
            ),
            (&json!("deny"), &Value::Null, &Value::Null)
        );
        let text: String = recs
            .iter()
            .chain(&unknown)
            .map(|r| format!("{r}\n"))
            .collect();
        #[cfg(feature = "oracle")]
        assert_eq!(check_invariants(&text), Ok(4));
        assert_eq!(text.lines().count(), 4);
    }

    #[test]
    fn the_log_rotates_once_past_its_bound() {
        assert_eq!(
            rotated_path(Path::new("/s/audit.jsonl")),
            PathBuf::from("/s/audit.1.jsonl")
        );
        assert_eq!(rotated_path(Path::new("log")), PathBuf::from("log.1"));
        assert_eq!(rotated_path(Path::new(".log")), PathBuf::from(".log.1"));
        let dir = std::env::temp_dir().join(format!("sg-audit-rotate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let log = dir.join("audit.jsonl");
        let rec = |n: u64| vec![json!({"n": n})];
        // Each record is 9 bytes (`{"n":10}` and a newline): two fit under 20.
        for n in 10..14 {
            append_bounded(&log, &rec(n), 20).unwrap();
        }
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(read(&rotated_path(&log)), "{\"n\":10}\n{\"n\":11}\n");
        assert_eq!(read(&log), "{\"n\":12}\n{\"n\":13}\n");
        append_bounded(&log, &rec(14), 20).unwrap();
        assert_eq!(read(&rotated_path(&log)), "{\"n\":12}\n{\"n\":13}\n");
        assert_eq!(read(&log), "{\"n\":14}\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn concurrent_writers_rotate_once_and_lose_nothing() {
        let dir = std::env::temp_dir().join(format!("sg-audit-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("audit.jsonl");
        let full = "x".repeat(199) + "\n";
        std::fs::write(&log, &full).unwrap();
        // Every writer finds the log full: one rotates, the others write to the new file (the
        // 16 records fit under the bound: no second rotation).
        std::thread::scope(|s| {
            for n in 0..16u64 {
                let log = &log;
                s.spawn(move || append_bounded(log, &[json!({"n": n})], 200).unwrap());
            }
        });
        assert_eq!(std::fs::read_to_string(rotated_path(&log)).unwrap(), full);
        let mut got: Vec<u64> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["n"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        got.sort_unstable();
        assert_eq!(got, (0..16).collect::<Vec<_>>());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
