//! Lean decoding of one record: a [`Value`] like `serde_json` builds it, except the tool-result
//! bodies, which are skipped unbuilt and read as `null` ([`ReadOptions::skip_tool_results`]).
//!
//! A body is recognised by its place in the record and by a sibling key naming what the
//! object is. The sibling can come after the body (JSON objects have no key order), so a
//! candidate is first taken as a [`RawValue`] (the bytes are checked, nothing is built) and
//! decoded after all only when the object turns out not to be a tool result:
//!
//! | format | place | skipped when |
//! |---|---|---|
//! | Claude Code transcript | `toolUseResult` of a record | the record's `type` is `user` |
//! | Claude Code transcript | `content` of a `message.content[]` block | the block's `type` is `tool_result` |
//! | Codex rollout | `payload.output` | `payload.type` is `function_call_output` or `custom_tool_call_output` |
//! | hook-payload log | `tool_response` of a payload (bare, or `payload.tool_response`) | its `hook_event_name` is `PostToolUse` or `AfterTool` |
//! | hook-payload log (Cursor) | `tool_output` of a payload | its `hook_event_name` is `postToolUse` |
//!
//! Everything else is decoded as [`serde_json::from_slice`] decodes it.
//!
//! [`ReadOptions::skip_tool_results`]: super::ReadOptions::skip_tool_results

use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Where in a record an object or array is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum At {
    /// The record.
    Top,
    /// The record's `message` object (Claude Code).
    Message,
    /// `message.content` (Claude Code).
    Content,
    /// An element of `message.content` (a content block).
    Block,
    /// The record's `payload` object (Codex rollouts, wrapped hook payloads).
    Payload,
}

impl At {
    /// Where the value of member `key` of an object here is (`None`: anywhere else, decoded
    /// whole).
    fn member(self, key: &str) -> Option<At> {
        match (self, key) {
            (At::Top, "message") => Some(At::Message),
            (At::Top, "payload") => Some(At::Payload),
            (At::Message, "content") => Some(At::Content),
            _ => None,
        }
    }

    /// Whether member `key` of an object here may be a tool-result body.
    fn candidate(self, key: &str) -> bool {
        match self {
            At::Top => matches!(key, "toolUseResult" | "tool_response" | "tool_output"),
            At::Payload => matches!(key, "output" | "tool_response" | "tool_output"),
            At::Block => key == "content",
            At::Message | At::Content => false,
        }
    }

    /// Whether candidate member `key` of object `m` here is a tool-result body.
    fn is_body(self, key: &str, m: &Map<String, Value>) -> bool {
        let is = |k: &str, names: &[&str]| {
            m.get(k)
                .and_then(Value::as_str)
                .is_some_and(|v| names.contains(&v))
        };
        let hook = |key: &str| match key {
            "tool_response" => is("hook_event_name", &["PostToolUse", "AfterTool"]),
            "tool_output" => is("hook_event_name", &["postToolUse"]),
            _ => false,
        };
        match (self, key) {
            (At::Top, "toolUseResult") => is("type", &["user"]),
            (At::Block, "content") => is("type", &["tool_result"]),
            (At::Payload, "output") => {
                is("type", &["function_call_output", "custom_tool_call_output"])
            }
            (At::Top | At::Payload, k) => hook(k),
            _ => false,
        }
    }
}

/// Decode one record, its tool-result bodies read as `null`.
///
/// # Errors
/// When the bytes are not one JSON value (as [`serde_json::from_slice`]); the caller then
/// decodes the record the strict way, for the same result and the same error messages.
pub(super) fn record(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = Lean(Some(At::Top)).deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// A value at a place in the record (`None`: decoded whole).
#[derive(Clone, Copy)]
struct Lean(Option<At>);

impl<'de> DeserializeSeed<'de> for Lean {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self.0 {
            None => Value::deserialize(d),
            Some(at) => d.deserialize_any(LeanVisitor(at)),
        }
    }
}

struct LeanVisitor(At);

impl<'de> Visitor<'de> for LeanVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Lean(Some(self.0)).deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // Only the elements of `message.content` have a place of their own.
        let element = (self.0 == At::Content).then_some(At::Block);
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(Lean(element))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let at = self.0;
        let mut m = Map::new();
        // Candidate bodies, kept raw until the object's kind is known; `null` holds their
        // place meanwhile (a later duplicate key replaces an earlier value in place, as
        // `serde_json` does).
        let mut held: Vec<(String, &'de RawValue)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if at.candidate(&key) {
                let raw: &'de RawValue = map.next_value()?;
                held.retain(|(k, _)| k != &key);
                held.push((key.clone(), raw));
                m.insert(key, Value::Null);
            } else {
                let v = map.next_value_seed(Lean(at.member(&key)))?;
                m.insert(key, v);
            }
        }
        for (key, raw) in held {
            if !at.is_body(&key, &m) {
                let v = serde_json::from_str(raw.get()).map_err(serde::de::Error::custom)?;
                m.insert(key, v);
            }
        }
        Ok(Value::Object(m))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `v` with its tool-result bodies set to `null`, found on the decoded value (the
    /// reference the lean decoding is checked against).
    fn nulled(mut v: Value) -> Value {
        fn hook(m: &mut Map<String, Value>) {
            let event = m.get("hook_event_name").and_then(Value::as_str);
            let key = match event {
                Some("PostToolUse" | "AfterTool") => "tool_response",
                Some("postToolUse") => "tool_output",
                _ => return,
            };
            if let Some(x) = m.get_mut(key) {
                *x = Value::Null;
            }
        }
        let Some(top) = v.as_object_mut() else {
            return v;
        };
        hook(top);
        if top.get("type").and_then(Value::as_str) == Some("user")
            && let Some(x) = top.get_mut("toolUseResult")
        {
            *x = Value::Null;
        }
        if let Some(Value::Array(blocks)) =
            top.get_mut("message").and_then(|m| m.get_mut("content"))
        {
            for b in blocks.iter_mut().filter_map(Value::as_object_mut) {
                if b.get("type").and_then(Value::as_str) == Some("tool_result")
                    && let Some(x) = b.get_mut("content")
                {
                    *x = Value::Null;
                }
            }
        }
        if let Some(Value::Object(p)) = top.get_mut("payload") {
            hook(p);
            let ty = p.get("type").and_then(Value::as_str);
            if matches!(ty, Some("function_call_output" | "custom_tool_call_output"))
                && let Some(x) = p.get_mut("output")
            {
                *x = Value::Null;
            }
        }
        v
    }

    /// The lean value of `s`, checked against the reference, keys in the same order.
    fn lean_of(s: &str) -> Value {
        let lean = record(s.as_bytes()).expect("lean decoding");
        let full: Value = serde_json::from_str(s).expect("valid JSON");
        let want = nulled(full);
        assert_eq!(lean, want, "{s}");
        assert_eq!(lean.to_string(), want.to_string(), "key order of {s}");
        lean
    }

    #[test]
    fn claude_tool_results_are_skipped_whatever_the_key_order() {
        let v = lean_of(
            r#"{"toolUseResult":{"stdout":"x"},"type":"user","message":{"role":"user","content":[{"content":[{"type":"text","text":"out"}],"type":"tool_result","tool_use_id":"t1","is_error":false}]},"sessionId":"s"}"#,
        );
        assert_eq!(
            v,
            json!({"toolUseResult": null, "type": "user", "message": {"role": "user", "content": [
                {"content": null, "type": "tool_result", "tool_use_id": "t1", "is_error": false}
            ]}, "sessionId": "s"})
        );
    }

    #[test]
    fn what_is_not_a_tool_result_is_kept() {
        // A prompt whose blocks carry `content`, an assistant record with `toolUseResult`,
        // a pre-tool hook payload with a `tool_response`, a Codex call's arguments.
        let v = lean_of(
            r#"{"type":"user","message":{"content":[{"type":"document","content":{"a":1}},{"type":"text","text":"hi"}]}}"#,
        );
        assert_eq!(v["message"]["content"][0]["content"], json!({"a": 1}));
        let v = lean_of(r#"{"type":"assistant","toolUseResult":[1,2]}"#);
        assert_eq!(v["toolUseResult"], json!([1, 2]));
        let v = lean_of(
            r#"{"tool_response":"kept","hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}"#,
        );
        assert_eq!(v["tool_response"], "kept");
        let v = lean_of(
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","arguments":"{}","output":"o"}}"#,
        );
        assert_eq!(v["payload"]["output"], "o");
        let v = lean_of(r#"{"message":{"content":"a prompt"},"type":"user"}"#);
        assert_eq!(v["message"]["content"], "a prompt");
    }

    #[test]
    fn codex_outputs_and_hook_responses_are_skipped() {
        let v = lean_of(
            r#"{"timestamp":"t","type":"response_item","payload":{"output":"Exit code: 0\nlots","type":"function_call_output","call_id":"c"}}"#,
        );
        assert_eq!(
            v["payload"],
            json!({"output": null, "type": "function_call_output", "call_id": "c"})
        );
        let v = lean_of(
            r#"{"tool_response":{"stdout":"x"},"hook_event_name":"PostToolUse","tool_name":"Bash"}"#,
        );
        assert!(v["tool_response"].is_null());
        let v = lean_of(r#"{"hook_event_name":"postToolUse","tool_output":"x"}"#);
        assert!(v["tool_output"].is_null());
        let v = lean_of(r#"{"payload":{"hook_event_name":"AfterTool","tool_response":{"a":[1]}}}"#);
        assert!(v["payload"]["tool_response"].is_null());
    }

    #[test]
    fn duplicate_keys_and_numbers_decode_as_serde_json_decodes_them() {
        lean_of(
            r#"{"type":"user","toolUseResult":1,"a":1.5,"toolUseResult":{"x":2},"b":-3,"c":18446744073709551615}"#,
        );
        lean_of(r#"{"type":"assistant","toolUseResult":1,"toolUseResult":{"x":2}}"#);
        lean_of(r#"[{"type":"user","toolUseResult":1}]"#);
        lean_of(r#""just a string""#);
    }

    #[test]
    fn what_serde_json_refuses_the_lean_decoding_refuses() {
        for bad in [
            &b"{\"type\":\"user\",\"toolUseResult\":\"\xff\"}"[..],
            b"{\"type\":\"user\",\"toolUseResult\":{\"a\":}}",
            b"{\"type\":\"user\"} trailing",
            b"{\"type\":\"user\",\"toolUseResult\":\"abc",
        ] {
            assert!(record(bad).is_err(), "{}", String::from_utf8_lossy(bad));
            assert!(serde_json::from_slice::<Value>(bad).is_err());
        }
    }

    #[test]
    fn every_recorded_line_decodes_to_the_full_value_without_its_bodies() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/recorded");
        let mut lines = 0;
        let mut skipped = 0;
        for f in crate::readers::collect_files(&[dir]) {
            let text = std::fs::read_to_string(&f).expect("recording");
            if f.extension().is_some_and(|x| x == "json") {
                continue;
            }
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let full: Value = serde_json::from_str(line).expect("valid JSON line");
                let lean = lean_of(line);
                lines += 1;
                skipped += usize::from(lean != full);
            }
        }
        // The recordings hold tool results to skip, in every line format.
        assert_eq!((lines, skipped), (8_739, 1_290), "lines, lines with bodies");
    }

    #[test]
    fn a_lean_read_gives_the_same_events_and_problems_but_the_bodies() {
        use crate::readers::{EventReader, Item, ReadOptions};
        use crate::seam::Seam;

        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/recorded");
        let lean = ReadOptions {
            skip_tool_results: true,
        };
        let (mut events, mut bodies) = (0, 0);
        for f in crate::readers::collect_files(&[dir]) {
            let full: Vec<Item> = EventReader::open(&f).collect();
            let mut read: Vec<Item> = EventReader::open_with(&f, lean).collect();
            assert_eq!(full.len(), read.len(), "{}", f.display());
            for (a, b) in full.into_iter().zip(read.iter_mut()) {
                let mut a = a;
                if let (Item::Event(e), Item::Event(got)) = (&mut a, &*b) {
                    events += 1;
                    let p = e.payload.as_object_mut().expect("an object payload");
                    let before = Value::Object(p.clone());
                    // Whole documents (Gemini CLI chats) are read in full.
                    let lines = e.format != crate::readers::Format::GeminiChat;
                    match e.seam {
                        _ if !lines => {}
                        Seam::PostTool if p.contains_key("tool_response") => {
                            p.insert("tool_response".into(), Value::Null);
                        }
                        Seam::PostToolFailure => {
                            p.insert("error".into(), Value::String(String::new()));
                            p.shift_remove("is_interrupt");
                        }
                        _ => {}
                    }
                    bodies += usize::from(before != got.payload);
                }
                assert_eq!(&a, b, "{}", f.display());
            }
        }
        assert_eq!(
            (events, bodies),
            (5_889, 1_290),
            "events, events with a body"
        );
    }
}
