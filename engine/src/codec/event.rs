//! Typed hook payloads (HOOKS.md A4 for Claude Code, B2 for Codex).
//!
//! Every payload struct keeps the fields it does not know in `extra`, so a decoded payload
//! re-encodes to the same JSON value (key order aside). Every optional field is
//! `Option<Option<T>>` (absent → `None`, `null` → `Some(None)`): hosts send `null` for
//! documented nullable fields (`transcript_path` in Codex) and undocumented ones alike
//! (`custom_instructions` of real `PreCompact` payloads), and both survive a round trip.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::seam::Seam;

/// `Option<Option<T>>` serde helper: absent → `None`, `null` → `Some(None)`.
mod nullable {
    use super::*;

    pub(crate) fn deserialize<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Option::<T>::deserialize(d).map(Some)
    }

    pub(crate) fn serialize<S, T>(v: &Option<Option<T>>, s: S) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        T: Serialize,
    {
        match v {
            Some(inner) => inner.serialize(s),
            None => s.serialize_none(),
        }
    }
}

macro_rules! payload {
    (
        $(#[$meta:meta])*
        $name:ident { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct $name {
            /// Session UUID (Codex: thread id).
            pub session_id: String,
            /// Path of the session transcript; `null` is possible in Codex.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub transcript_path: Option<Option<String>>,
            /// Current working directory of the agent.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub cwd: Option<Option<String>>,
            /// The event name, e.g. `PreToolUse`.
            pub hook_event_name: String,
            /// `default`, `plan`, `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions`.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub permission_mode: Option<Option<String>>,
            /// Codex: the turn id on turn-scoped events.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub turn_id: Option<Option<String>>,
            /// Codex (and Claude Code SessionStart): the active model slug.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub model: Option<Option<String>>,
            /// Claude Code ≥ 2.1.196: UUID of the prompt being processed.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub prompt_id: Option<Option<String>>,
            /// Inside a subagent: its id.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub agent_id: Option<Option<String>>,
            /// Inside a subagent (or with `--agent`): its type.
            #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
            pub agent_type: Option<Option<String>>,
            $( $(#[$fmeta])* pub $field: $ty, )*
            /// Every field this struct does not name, kept for a lossless re-encode.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

payload! {
    /// `SessionStart`: `source` is `startup`, `resume`, `clear`, `compact` or `fork`.
    SessionStart {
        /// What started the session.
        source: String,
        /// Claude Code: session title when set.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        session_title: Option<Option<String>>,
    }
}

payload! {
    /// `UserPromptSubmit`: the prompt text in `prompt` (never `user_prompt`).
    UserPromptSubmit {
        /// The submitted prompt.
        prompt: String,
    }
}

payload! {
    /// `PreToolUse`: a tool call about to run.
    PreToolUse {
        /// Tool name (`Bash`, `Edit`, `mcp__server__tool`, Codex `apply_patch`, …).
        tool_name: String,
        /// Tool arguments (tool-specific object).
        tool_input: Value,
        /// Tool call id (Claude Code ≥ 2.0.43, Codex).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        tool_use_id: Option<Option<String>>,
    }
}

payload! {
    /// `PermissionRequest`: the permission dialog is about to be shown (no `tool_use_id`).
    PermissionRequest {
        /// Tool name.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Claude Code: suggested permission updates.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        permission_suggestions: Option<Option<Value>>,
    }
}

payload! {
    /// `PostToolUse`: a tool call has run.
    PostToolUse {
        /// Tool name.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Tool-specific structured response (Codex: often the model-facing string).
        tool_response: Value,
        /// Tool call id.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        tool_use_id: Option<Option<String>>,
        /// Run time of the tool in milliseconds (Claude Code ≥ 2.1.119).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        duration_ms: Option<Option<u64>>,
    }
}

payload! {
    /// `PostToolUseFailure` (Claude Code): a tool call failed.
    PostToolUseFailure {
        /// Tool name.
        tool_name: String,
        /// Tool arguments.
        tool_input: Value,
        /// Tool call id.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        tool_use_id: Option<Option<String>>,
        /// The error text.
        error: String,
        /// Whether the user interrupted the tool.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        is_interrupt: Option<Option<bool>>,
        /// Run time in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        duration_ms: Option<Option<u64>>,
    }
}

payload! {
    /// `Stop`: the agent wants to end its turn.
    Stop {
        /// `true` when the agent is already continuing because of a stop hook.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        stop_hook_active: Option<Option<bool>>,
        /// The last assistant message (nullable in Codex).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        last_assistant_message: Option<Option<String>>,
    }
}

payload! {
    /// `SubagentStop`: a subagent wants to stop.
    SubagentStop {
        /// `true` when the subagent is already continuing because of a stop hook.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        stop_hook_active: Option<Option<bool>>,
        /// Transcript of the subagent (nullable in Codex).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        agent_transcript_path: Option<Option<String>>,
        /// The subagent's last message.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        last_assistant_message: Option<Option<String>>,
    }
}

payload! {
    /// `SubagentStart`: a subagent was spawned (`agent_id`, `agent_type` in the common fields).
    SubagentStart {}
}

payload! {
    /// `Notification` (Claude Code): a notification is shown to the user.
    Notification {
        /// Notification text.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        message: Option<Option<String>>,
        /// Optional title.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        title: Option<Option<String>>,
        /// `permission_prompt`, `idle_prompt`, ….
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        notification_type: Option<Option<String>>,
    }
}

payload! {
    /// `PreCompact`: compaction is about to run.
    PreCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// Instructions given to `/compact` (empty for auto).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        custom_instructions: Option<Option<String>>,
    }
}

payload! {
    /// `PostCompact`: compaction finished.
    PostCompact {
        /// `manual` or `auto`.
        trigger: String,
        /// The summary (Claude Code).
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        compact_summary: Option<Option<String>>,
    }
}

payload! {
    /// `SessionEnd`: the session ends; output is ignored by both hosts.
    SessionEnd {
        /// `clear`, `resume`, `logout`, `prompt_input_exit`, `other`.
        reason: String,
    }
}

/// A decoded hook payload, one variant per seam.
#[derive(Debug, Clone, PartialEq)]
pub enum HookEvent {
    /// See [`SessionStart`].
    SessionStart(SessionStart),
    /// See [`UserPromptSubmit`].
    UserPromptSubmit(UserPromptSubmit),
    /// See [`PreToolUse`].
    PreToolUse(PreToolUse),
    /// See [`PermissionRequest`].
    PermissionRequest(PermissionRequest),
    /// See [`PostToolUse`].
    PostToolUse(PostToolUse),
    /// See [`PostToolUseFailure`].
    PostToolUseFailure(PostToolUseFailure),
    /// See [`Stop`].
    Stop(Stop),
    /// See [`SubagentStop`].
    SubagentStop(SubagentStop),
    /// See [`SubagentStart`].
    SubagentStart(SubagentStart),
    /// See [`Notification`].
    Notification(Notification),
    /// See [`PreCompact`].
    PreCompact(PreCompact),
    /// See [`PostCompact`].
    PostCompact(PostCompact),
    /// See [`SessionEnd`].
    SessionEnd(SessionEnd),
}

/// Why a payload could not be decoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is not JSON (or is truncated); `line`/`column` are 1-based.
    #[error("payload is not valid JSON at line {line} column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// The input is JSON but not an object.
    #[error("payload must be a JSON object, found {found}")]
    NotObject {
        /// JSON type found (`array`, `string`, …).
        found: &'static str,
    },
    /// `hook_event_name` is missing or not a string.
    #[error("payload has no string field `hook_event_name`")]
    MissingEventName,
    /// The event name is not one seamguard evaluates (reported, not fatal).
    #[error("unknown hook event `{0}`: seamguard has no seam for it, no decision taken")]
    UnknownEvent(String),
    /// A field is missing or has the wrong type.
    #[error("{event} payload: field `{path}`: {message}")]
    Field {
        /// The event name.
        event: String,
        /// Dotted path of the offending field (`tool_input`, `.` for the root).
        path: String,
        /// What was wrong.
        message: String,
    },
}

/// The type of a JSON value as a message names it (`a string`, `an array`, `null`).
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn typed<'a, T: Deserialize<'a>>(event: &str, v: &'a Value) -> Result<T, DecodeError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        DecodeError::Field {
            event: event.to_string(),
            path,
            message: e.into_inner().to_string(),
        }
    })
}

/// Parse raw stdin bytes into a JSON value.
///
/// A leading UTF-8 byte order mark is skipped (RFC 8259 §8.1 lets a parser ignore it; a
/// payload piped through Windows PowerShell 5 carries one), so the call is judged instead of
/// refused as unreadable.
///
/// # Errors
/// [`DecodeError::Json`] with the 1-based position for invalid or truncated JSON (counted
/// after the byte order mark).
pub fn parse_json(bytes: &[u8]) -> Result<Value, DecodeError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match serde_json::from_slice(bytes) {
        Ok(v) => Ok(v),
        Err(e) => {
            // Node's JSON.stringify writes a lone UTF-16 surrogate as `\ud800`, which strict
            // JSON parsers reject; read it as U+FFFD instead of dropping the whole payload.
            if let Some(v) =
                replace_lone_surrogates(bytes).and_then(|fixed| serde_json::from_slice(&fixed).ok())
            {
                return Ok(v);
            }
            Err(DecodeError::Json {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            })
        }
    }
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    u16::from_str_radix(s, 16).ok()
}

/// Replace `\uD800`–`\uDFFF` escapes that are not part of a surrogate pair by `\uFFFD`.
/// `None` when there is nothing to replace.
fn replace_lone_surrogates(b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'u') => {
                let Some(v) = b.get(i + 2..).and_then(hex4) else {
                    out.push(c);
                    i += 1;
                    continue;
                };
                let is_high = (0xD800..=0xDBFF).contains(&v);
                let next_low = b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && b.get(i + 8..)
                        .and_then(hex4)
                        .is_some_and(|w| (0xDC00..=0xDFFF).contains(&w));
                if is_high && next_low {
                    out.extend_from_slice(b.get(i..i + 12).unwrap_or(&[]));
                    i += 12;
                } else if (0xD800..=0xDFFF).contains(&v) {
                    out.extend_from_slice(b"\\uFFFD");
                    changed = true;
                    i += 6;
                } else {
                    out.extend_from_slice(b.get(i..i + 6).unwrap_or(&[]));
                    i += 6;
                }
            }
            Some(&n) => {
                out.push(c);
                out.push(n);
                i += 2;
            }
            None => {
                out.push(c);
                i += 1;
            }
        }
    }
    changed.then_some(out)
}

impl HookEvent {
    /// Decode a payload value into its typed event.
    ///
    /// # Errors
    /// [`DecodeError::NotObject`], [`DecodeError::MissingEventName`],
    /// [`DecodeError::UnknownEvent`] for events without a seam (e.g. `Setup`), and
    /// [`DecodeError::Field`] naming the path of a missing or wrongly typed field.
    pub fn from_value(v: &Value) -> Result<HookEvent, DecodeError> {
        let Value::Object(map) = v else {
            return Err(DecodeError::NotObject {
                found: json_type(v),
            });
        };
        let Some(Value::String(name)) = map.get("hook_event_name") else {
            return Err(DecodeError::MissingEventName);
        };
        let Some(seam) = Seam::from_event_name(name) else {
            return Err(DecodeError::UnknownEvent(name.clone()));
        };
        let n = name.as_str();
        Ok(match seam {
            Seam::SessionStart => HookEvent::SessionStart(typed(n, v)?),
            Seam::PromptSubmit => HookEvent::UserPromptSubmit(typed(n, v)?),
            Seam::PreTool => HookEvent::PreToolUse(typed(n, v)?),
            Seam::PermissionRequest => HookEvent::PermissionRequest(typed(n, v)?),
            Seam::PostTool => HookEvent::PostToolUse(typed(n, v)?),
            Seam::PostToolFailure => HookEvent::PostToolUseFailure(typed(n, v)?),
            Seam::Stop => HookEvent::Stop(typed(n, v)?),
            Seam::SubagentStop => HookEvent::SubagentStop(typed(n, v)?),
            Seam::SubagentStart => HookEvent::SubagentStart(typed(n, v)?),
            Seam::Notification => HookEvent::Notification(typed(n, v)?),
            Seam::PreCompact => HookEvent::PreCompact(typed(n, v)?),
            Seam::PostCompact => HookEvent::PostCompact(typed(n, v)?),
            Seam::SessionEnd => HookEvent::SessionEnd(typed(n, v)?),
        })
    }

    /// Decode raw bytes (one hook payload as sent on stdin).
    ///
    /// # Errors
    /// See [`parse_json`] and [`HookEvent::from_value`]: invalid JSON, a non-object, a
    /// missing or unknown `hook_event_name`, or a field of the wrong type, each as a
    /// [`DecodeError`].
    ///
    /// # Example
    ///
    /// ```
    /// use seamguard_engine::{DecodeError, HookEvent, Seam};
    ///
    /// let event = HookEvent::from_slice(
    ///     br#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse",
    ///          "tool_name":"Bash","tool_input":{"command":"ls"}}"#,
    /// )?;
    /// assert_eq!(event.seam(), Seam::PreTool);
    ///
    /// let err = HookEvent::from_slice(b"[1, 2]").unwrap_err();
    /// assert!(matches!(err, DecodeError::NotObject { .. }));
    /// # Ok::<(), DecodeError>(())
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<HookEvent, DecodeError> {
        HookEvent::from_value(&parse_json(bytes)?)
    }

    /// The seam of this event.
    pub fn seam(&self) -> Seam {
        match self {
            HookEvent::SessionStart(_) => Seam::SessionStart,
            HookEvent::UserPromptSubmit(_) => Seam::PromptSubmit,
            HookEvent::PreToolUse(_) => Seam::PreTool,
            HookEvent::PermissionRequest(_) => Seam::PermissionRequest,
            HookEvent::PostToolUse(_) => Seam::PostTool,
            HookEvent::PostToolUseFailure(_) => Seam::PostToolFailure,
            HookEvent::Stop(_) => Seam::Stop,
            HookEvent::SubagentStop(_) => Seam::SubagentStop,
            HookEvent::SubagentStart(_) => Seam::SubagentStart,
            HookEvent::Notification(_) => Seam::Notification,
            HookEvent::PreCompact(_) => Seam::PreCompact,
            HookEvent::PostCompact(_) => Seam::PostCompact,
            HookEvent::SessionEnd(_) => Seam::SessionEnd,
        }
    }

    /// Re-encode the event as a JSON value (lossless for every field it was decoded from).
    pub fn to_value(&self) -> Value {
        let r = match self {
            HookEvent::SessionStart(e) => serde_json::to_value(e),
            HookEvent::UserPromptSubmit(e) => serde_json::to_value(e),
            HookEvent::PreToolUse(e) => serde_json::to_value(e),
            HookEvent::PermissionRequest(e) => serde_json::to_value(e),
            HookEvent::PostToolUse(e) => serde_json::to_value(e),
            HookEvent::PostToolUseFailure(e) => serde_json::to_value(e),
            HookEvent::Stop(e) => serde_json::to_value(e),
            HookEvent::SubagentStop(e) => serde_json::to_value(e),
            HookEvent::SubagentStart(e) => serde_json::to_value(e),
            HookEvent::Notification(e) => serde_json::to_value(e),
            HookEvent::PreCompact(e) => serde_json::to_value(e),
            HookEvent::PostCompact(e) => serde_json::to_value(e),
            HookEvent::SessionEnd(e) => serde_json::to_value(e),
        };
        // Serializing plain structs of strings, maps and JSON values cannot fail.
        r.unwrap_or(Value::Null)
    }

    /// `stop_hook_active` of a stop seam (`false` when absent or not a stop seam).
    pub fn stop_hook_active(&self) -> bool {
        match self {
            HookEvent::Stop(e) => e.stop_hook_active.flatten().unwrap_or(false),
            HookEvent::SubagentStop(e) => e.stop_hook_active.flatten().unwrap_or(false),
            _ => false,
        }
    }
}

#[cfg(test)]
mod surrogate_tests {
    use super::*;

    #[test]
    fn lone_surrogates_are_read_as_replacement_characters() {
        let v = parse_json(br#"{"c":"rm \ud800 x","d":"\ud83d\ude00","e":"\\ud800"}"#).unwrap();
        assert_eq!(v["c"], "rm \u{FFFD} x");
        assert_eq!(v["d"], "\u{1F600}");
        assert_eq!(v["e"], "\\ud800");
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_one_inside_is_kept() {
        let v = parse_json(b"\xEF\xBB\xBF{\"c\":\"ls\"}").unwrap();
        assert_eq!(v, serde_json::json!({"c": "ls"}));
        let v = parse_json("{\"c\":\"\u{FEFF}ls\"}".as_bytes()).unwrap();
        assert_eq!(v["c"], "\u{FEFF}ls");
        // Only one mark is skipped: two are not a JSON text.
        let e = parse_json(b"\xEF\xBB\xBF\xEF\xBB\xBF{}").unwrap_err();
        assert!(
            matches!(
                e,
                DecodeError::Json {
                    line: 1,
                    column: 1,
                    ..
                }
            ),
            "{e:?}"
        );
    }
}
