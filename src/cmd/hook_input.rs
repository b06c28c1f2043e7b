//! The input side of `seamguard hook`: reading the payload within its size limit, decoding
//! it (bytes → the common payload of its seam, in its dialect, fields whose meaning is clear
//! coerced), and the answer to a payload seamguard cannot judge.
//!
//! In: the bytes on stdin. Out: a [`Decoded`] call, or why it is not one ([`Undecoded`]),
//! answered by [`Refusals::refuse`].
//!
//! Nothing here lets a tool call through silently. A payload that cannot be judged is
//! refused: a pre-tool or permission-request event is denied in its dialect's shape, any
//! other event gets a non-blocking message (a Stop is never blocked by it), and when the
//! event itself cannot be known the answer is exit 2 with the reason on stderr, which every
//! supported host reads as a block of a tool call (HOOKS.md A5.2, B3: Claude Code blocks a
//! `PreToolUse` on exit 2; Codex blocks a `PreToolUse` and denies a `PermissionRequest` on
//! exit 2 with a non-empty stderr).

use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value;

use seamguard_engine::audit::{self, PayloadDigest};
use seamguard_engine::{
    Contribution, DecodeError, Dialect, Encoded, HookEvent, Outcome, Seam, Verdict, encode, merge,
};

/// The largest payload seamguard reads (bytes). A bigger one is refused before it is parsed:
/// a tool call is denied, another event gets a message. Real payloads are far smaller (hosts
/// cap tool output); a command line over [`seamguard_engine::shell::MAX_SCRIPT_BYTES`] is
/// refused as well, before any rule looks at it.
pub(crate) const MAX_PAYLOAD_BYTES: usize = seamguard_client::MAX_PAYLOAD_BYTES;

/// The rule id a refusal is reported under.
pub(crate) const UNREADABLE_RULE: &str = "seamguard:unreadable-payload";

/// The payload as read from stdin: its first [`MAX_PAYLOAD_BYTES`] + 1 bytes and its full
/// length (the rest is read and dropped, so the host's write never fails on a closed pipe).
pub(crate) struct RawPayload {
    /// The bytes kept.
    pub(crate) bytes: Vec<u8>,
    /// How many bytes the host sent.
    pub(crate) total: u64,
    /// The SHA-256 of every byte the host sent (hex), the dropped rest included.
    pub(crate) sha256: String,
}

impl RawPayload {
    /// Whether the payload is over [`MAX_PAYLOAD_BYTES`].
    pub(crate) fn too_large(&self) -> bool {
        self.total > MAX_PAYLOAD_BYTES as u64
    }
}

/// Read the whole of `input`, keeping at most [`MAX_PAYLOAD_BYTES`] + 1 bytes, and digest
/// all of it.
///
/// # Errors
/// The read error of `input`.
pub(crate) fn read_payload(input: &mut dyn Read) -> std::io::Result<RawPayload> {
    let mut bytes = Vec::new();
    let kept = input
        .take(MAX_PAYLOAD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    let mut digest = PayloadDigest::default();
    digest.update(&bytes);
    let mut total = kept as u64;
    if bytes.len() > MAX_PAYLOAD_BYTES {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            digest.update(buf.get(..n).unwrap_or_default());
            total += n as u64;
        }
    }
    Ok(RawPayload {
        bytes,
        total,
        sha256: digest.finish(),
    })
}

/// A hook payload decoded: what the decision reads.
pub(crate) struct Decoded {
    /// The common payload of its seam (another host's payload normalized, fields coerced).
    pub(crate) payload: Value,
    /// The seam of its event.
    pub(crate) seam: Seam,
    /// The host's dialect (`--dialect`, else detected from the payload).
    pub(crate) dialect: Dialect,
    /// One note per coerced field (for the host's debug log).
    pub(crate) notes: Vec<String>,
}

/// Why a payload was not decoded.
pub(crate) enum Undecoded {
    /// An event seamguard does not know: nothing to judge (a line on stderr, exit 0).
    UnknownEvent(DecodeError),
    /// A payload seamguard cannot judge: refused ([`Refusals::refuse`]) with these parts.
    Refused {
        /// The event, when it is known.
        seam: Option<Seam>,
        /// The dialect, when it is known.
        dialect: Option<Dialect>,
        /// What was wrong.
        why: String,
        /// The parsed payload, when there is one.
        payload: Option<Value>,
    },
}

/// Decode a payload read within the size limit (`total`: the bytes the host sent):
/// parse it, coerce its fields, read its dialect (`dialect`, else detected), normalize another
/// host's payload, read its event and check its command line is within the analysis limit.
///
/// # Errors
/// [`Undecoded`]: an unknown event, or what makes the payload impossible to judge.
pub(crate) fn decode(
    bytes: &[u8],
    total: u64,
    dialect: Option<Dialect>,
) -> Result<Decoded, Undecoded> {
    let refused = |seam, dialect, why, payload| Undecoded::Refused {
        seam,
        dialect,
        why,
        payload,
    };
    let mut payload = match seamguard_engine::event::parse_json(bytes) {
        Ok(v) => v,
        Err(e) => {
            let why = format!("malformed hook payload ({total} bytes): {e}");
            return Err(refused(raw_seam(bytes), dialect, why, None));
        }
    };
    let notes = coerce_fields(&mut payload);
    let dialect = dialect.unwrap_or_else(|| Dialect::detect(&payload));
    // Gemini CLI, Cursor, Copilot CLI: the host's payload as the common payload of its seam.
    let payload = match seamguard_engine::codec::normalize(&payload, dialect) {
        Ok(p) => p,
        Err(why) => {
            let seam = dialect_seam(&payload, dialect);
            return Err(refused(seam, Some(dialect), why, None));
        }
    };
    let seam = match HookEvent::from_value(&payload) {
        Ok(ev) => ev.seam(),
        Err(e @ DecodeError::UnknownEvent(_)) => return Err(Undecoded::UnknownEvent(e)),
        Err(e) => {
            let seam = payload
                .get("hook_event_name")
                .and_then(|n| n.as_str())
                .and_then(Seam::from_event_name);
            return Err(refused(seam, Some(dialect), e.to_string(), Some(payload)));
        }
    };
    if matches!(seam, Seam::PreTool | Seam::PermissionRequest)
        && let Some(why) = oversized_command(&payload)
    {
        return Err(refused(Some(seam), Some(dialect), why, Some(payload)));
    }
    Ok(Decoded {
        payload,
        seam,
        dialect,
        notes,
    })
}

/// The seam of a payload that [`seamguard_engine::codec::normalize`] refused: the tool events
/// of the other hosts are pre-tool when they name a tool.
fn dialect_seam(payload: &Value, dialect: Dialect) -> Option<Seam> {
    match dialect {
        Dialect::Cursor | Dialect::CopilotCli | Dialect::GeminiCli => {
            let tool_call = ["toolName", "toolArgs", "tool_name", "tool_input", "command"]
                .iter()
                .any(|k| payload.get(*k).is_some());
            tool_call.then_some(Seam::PreTool)
        }
        Dialect::ClaudeCode | Dialect::Codex => None,
    }
}

/// Where the hook's refusals are recorded, and what every record of this call shares.
pub(crate) struct Refusals {
    /// The audit log (`None`: off).
    pub(crate) audit_log: Option<PathBuf>,
    /// When the call started (Unix ms), and the clock of its duration.
    pub(crate) started_ms: u64,
    /// When the call started.
    pub(crate) started: Instant,
    /// The digest of the raw payload, once it was read.
    pub(crate) digest: PayloadSha,
}

/// The SHA-256 (hex) of a call's raw payload, as its audit records name it.
pub(crate) enum PayloadSha {
    /// The payload was not read (yet).
    Unread,
    /// Digested while it was read.
    Known(String),
    /// The payload's bytes (shared with the call that judges them, not copied), digested
    /// when a record first needs them: a served call is answered before its records are
    /// written, and the digest is not part of the answer.
    Bytes(std::rc::Rc<Vec<u8>>, std::cell::OnceCell<String>),
}

impl PayloadSha {
    /// The digest (`None` while the payload was not read).
    pub(crate) fn get(&self) -> Option<&str> {
        match self {
            PayloadSha::Unread => None,
            PayloadSha::Known(s) => Some(s),
            PayloadSha::Bytes(b, d) => Some(d.get_or_init(|| audit::payload_digest(b))),
        }
    }
}

impl Refusals {
    /// [`refuse`] the payload and record the refusal in the audit log
    /// ([`audit::refusal_records`]): `dialect` is `None` while it is not known (the answer is
    /// then in the Claude Code shape, which every host reads), `payload` the parsed payload
    /// when there is one.
    pub(crate) fn refuse(
        &self,
        seam: Option<Seam>,
        dialect: Option<Dialect>,
        why: &str,
        payload: Option<&Value>,
    ) -> Encoded {
        let (outcome, enc) = refusal(seam, dialect.unwrap_or(Dialect::ClaudeCode), why);
        if let Some(path) = &self.audit_log {
            let recs = audit::refusal_records(
                &audit::new_handler_id(),
                dialect,
                seam.map(Seam::event_name),
                self.started_ms,
                self.started.elapsed().as_secs_f64() * 1000.0,
                &outcome,
                why,
                self.digest.get(),
                payload,
            );
            // Written first: the local log is the source of truth; the export only copies it.
            if let Err(e) = audit::append(path, &recs) {
                eprintln!(
                    "seamguard: cannot append to the audit log {}: {e}",
                    path.display()
                );
            }
            #[cfg(feature = "otel")]
            crate::otel::export(&recs);
        }
        enc
    }
}

/// Add the digest of the raw payload and the masked input to the evaluation's audit records
/// ([`audit::keep_input`]); `SEAMGUARD_AUDIT_INPUT=off` keeps only the digest.
pub(crate) fn keep_input(records: &mut [Value], payload: &Value, digest: &str) {
    let off = std::env::var_os("SEAMGUARD_AUDIT_INPUT").is_some_and(|v| v == "off");
    audit::keep_input(records, (!off).then_some(payload), digest);
}

/// The identifier fields a host sends as strings; a number there is read as its digits.
const ID_FIELDS: &[&str] = &[
    "session_id",
    "turn_id",
    "prompt_id",
    "agent_id",
    "tool_use_id",
];

/// Coerce the top-level fields of `payload` whose intended value is clear: a numeric
/// identifier (`"session_id": 5`) becomes its digits, a `stop_hook_active` written as
/// `"true"` / `"false"` or `1` / `0` becomes the boolean. Returns one note per coerced field.
/// Other wrong types are left for [`seamguard_engine::HookEvent::from_value`] to report.
pub(crate) fn coerce_fields(payload: &mut Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(map) = payload.as_object_mut() else {
        return notes;
    };
    for key in ID_FIELDS {
        if let Some(v) = map.get_mut(*key)
            && let Value::Number(n) = v
        {
            let s = n.to_string();
            notes.push(format!(
                "seamguard: `{key}` is a number ({s}); read as the string \"{s}\""
            ));
            *v = Value::String(s);
        }
    }
    if let Some(v) = map.get_mut("stop_hook_active") {
        let b = match v {
            Value::String(s) if s == "true" => Some(true),
            Value::String(s) if s == "false" => Some(false),
            Value::Number(n) if n.as_u64() == Some(1) => Some(true),
            Value::Number(n) if n.as_u64() == Some(0) => Some(false),
            _ => None,
        };
        if let Some(b) = b {
            notes.push(format!(
                "seamguard: `stop_hook_active` is {v}, not a boolean; read as {b}"
            ));
            *v = Value::Bool(b);
        }
    }
    notes
}

/// Why the command line of a tool call is too large to judge, when it is: the shell command
/// (`command` / `cmd`, a string or a list of strings) or a tool input that is itself a line,
/// over the analysis limit. Checked before any rule reads it.
pub(crate) fn oversized_command(payload: &Value) -> Option<String> {
    let limit = seamguard_engine::shell::MAX_SCRIPT_BYTES;
    let input = payload.get("tool_input")?;
    let len = |v: &Value| match v {
        Value::String(s) => s.len(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::len).sum(),
        _ => 0,
    };
    let n = match input {
        Value::Object(m) => m.get("command").or_else(|| m.get("cmd")).map_or(0, len),
        other => len(other),
    };
    (n > limit)
        .then(|| format!("the command line is {n} bytes, over the {limit}-byte analysis limit"))
}

/// Every event name the raw text declares (`"hook_event_name": "…"`), found without parsing
/// it; a name inside a string value is escaped (`\"`) and not found.
fn raw_event_names(input: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(input);
    let key = "\"hook_event_name\"";
    let mut names: Vec<String> = Vec::new();
    let mut rest = text.as_ref();
    while let Some(at) = rest.find(key) {
        rest = rest.get(at + key.len()..).unwrap_or("");
        let name = rest
            .trim_start()
            .strip_prefix(':')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('"'))
            .and_then(|r| r.split('"').next());
        if let Some(n) = name
            && !names.iter().any(|x| x == n)
        {
            names.push(n.to_string());
        }
    }
    names
}

/// The seam a payload that cannot be parsed declares: its one event name, when it names a
/// seam. Several different names, or none, mean the event cannot be known.
pub(crate) fn raw_seam(input: &[u8]) -> Option<Seam> {
    match raw_event_names(input).as_slice() {
        [one] => Seam::from_event_name(one),
        _ => None,
    }
}

/// The answer to a payload seamguard cannot judge (see the module documentation), and the
/// outcome it stands for (an unknown event, answered by exit 2, as a denied tool call): `seam`
/// is the event when it is known, `why` says what was wrong.
fn refusal(seam: Option<Seam>, dialect: Dialect, why: &str) -> (Outcome, Encoded) {
    let Some(seam) = seam else {
        let enc = Encoded {
            stdout: String::new(),
            stderr: format!(
                "seamguard could not read this hook payload ({why}) and cannot tell which event it is; blocked to be safe"
            ),
            exit_code: 2,
        };
        let mut c = Contribution::verdict(UNREADABLE_RULE, Verdict::Deny, Some(enc.stderr.clone()));
        c.guard = true;
        return (merge(Seam::PreTool, vec![c]), enc);
    };
    let outcome = if matches!(seam, Seam::PreTool | Seam::PermissionRequest) {
        let mut c = Contribution::verdict(
            UNREADABLE_RULE,
            Verdict::Deny,
            Some(format!(
                "seamguard could not judge this tool call: {why}; denied to be safe"
            )),
        );
        c.guard = true;
        merge(seam, vec![c])
    } else {
        Outcome {
            seam: Some(seam),
            warnings: vec![format!(
                "seamguard could not judge this {} event: {why}; no rule was applied",
                seam.event_name()
            )],
            ..Outcome::default()
        }
    };
    let mut enc = encode(&outcome, dialect);
    if enc.stderr.is_empty() {
        enc.stderr = format!("seamguard: {why}");
    }
    (outcome, enc)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_payload_digested_after_the_answer_is_the_digest_read_with_it() {
        let bytes = br#"{"hook_event_name":"PreToolUse","tool_name":"Read"}"#.to_vec();
        let read = read_payload(&mut bytes.as_slice()).unwrap();
        let later = super::PayloadSha::Bytes(std::rc::Rc::new(bytes.clone()), Default::default());
        assert_eq!(later.get(), Some(read.sha256.as_str()));
        assert_eq!(
            later.get(),
            super::PayloadSha::Known(read.sha256.clone()).get()
        );
        assert_eq!(super::PayloadSha::Unread.get(), None);
    }

    use super::*;
    use serde_json::json;

    fn refuse(seam: Option<Seam>, dialect: Dialect, why: &str) -> Encoded {
        refusal(seam, dialect, why).1
    }

    #[test]
    fn numeric_ids_and_boolean_words_are_coerced() {
        let mut v = json!({"session_id": 5, "turn_id": 7, "cwd": 7, "stop_hook_active": "true"});
        let notes = coerce_fields(&mut v);
        assert_eq!(
            v,
            json!({"session_id": "5", "turn_id": "7", "cwd": 7, "stop_hook_active": true})
        );
        assert_eq!(
            notes,
            [
                "seamguard: `session_id` is a number (5); read as the string \"5\"",
                "seamguard: `turn_id` is a number (7); read as the string \"7\"",
                "seamguard: `stop_hook_active` is \"true\", not a boolean; read as true",
            ]
        );
        let mut v = json!({"stop_hook_active": "yes"});
        assert!(coerce_fields(&mut v).is_empty());
        assert_eq!(v, json!({"stop_hook_active": "yes"}));
    }

    #[test]
    fn raw_event_name_needs_one_unescaped_name() {
        assert_eq!(
            raw_seam(br#"{"hook_event_name": "PreToolUse", "tool_input": {"command": "#),
            Some(Seam::PreTool)
        );
        assert_eq!(
            raw_seam(br#"{"hook_event_name":"Stop","x":{"hook_event_name":"PreToolUse""#),
            None
        );
        assert_eq!(
            raw_seam(br#"{"c":"{\"hook_event_name\":\"Stop\"}","hook_event_name":"PreToolUse"#),
            Some(Seam::PreTool)
        );
        assert_eq!(raw_seam(b"not json"), None);
    }

    #[test]
    fn oversized_command_is_measured_in_every_shape() {
        let big = "a".repeat(seamguard_engine::shell::MAX_SCRIPT_BYTES + 1);
        let n = big.len();
        let want = format!("the command line is {n} bytes, over the 1048576-byte analysis limit");
        for input in [
            json!({"command": big.clone()}),
            json!({"cmd": [big.clone()]}),
            json!(big.clone()),
        ] {
            assert_eq!(
                oversized_command(&json!({"tool_input": input})).as_deref(),
                Some(want.as_str())
            );
        }
        assert_eq!(
            oversized_command(&json!({"tool_input": {"command": "ls"}})),
            None
        );
        assert_eq!(
            oversized_command(&json!({"tool_input": {"content": big}})),
            None
        );
    }

    #[test]
    fn refusals_deny_tool_calls_and_never_block_a_stop() {
        let e = refuse(Some(Seam::PreTool), Dialect::Codex, "x");
        assert_eq!(
            e.stdout,
            "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"seamguard could not judge this tool call: x; denied to be safe [seamguard:unreadable-payload]\"}}\n"
        );
        assert_eq!(e.exit_code, 0);
        let e = refuse(Some(Seam::Stop), Dialect::ClaudeCode, "x");
        assert_eq!(e.exit_code, 0);
        assert!(!e.stdout.contains("block"), "{}", e.stdout);
        let e = refuse(None, Dialect::ClaudeCode, "x");
        assert_eq!((e.exit_code, e.stdout.as_str()), (2, ""));
    }

    #[test]
    fn read_payload_keeps_the_limit_and_counts_the_rest() {
        let data = vec![b' '; MAX_PAYLOAD_BYTES + 10];
        let raw = read_payload(&mut data.as_slice()).unwrap();
        assert_eq!(raw.bytes.len(), MAX_PAYLOAD_BYTES + 1);
        assert_eq!(raw.total, (MAX_PAYLOAD_BYTES + 10) as u64);
        assert!(raw.too_large());
        // The digest covers the bytes read past as well.
        assert_eq!(raw.sha256, audit::payload_digest(&data));
        assert_ne!(raw.sha256, audit::payload_digest(&raw.bytes));
    }
}
