//! Format-preserving edits of a hooks JSON file: a Claude Code `settings.json`, a Codex
//! `hooks.json`, a Gemini CLI `settings.json` (matcher-less groups, [`Shape::Grouped`]), a
//! Cursor `hooks.json` ([`Shape::Cursor`]) or a Copilot CLI hooks file ([`Shape::Copilot`]).
//! A seamguard handler is appended for each event that lacks one, through the jsonc-parser
//! concrete syntax tree, so every other byte stays as it was.
//!
//! In: the file's text (or none), the events to cover and the file's [`Shape`]. Out: the new
//! text and the events added, or `None` when every event already has a seamguard handler.

use std::collections::BTreeSet;
use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::Value;

use seamguard_engine::Dialect;

use super::layout::{disp, gating_events, line_col};
use super::options::seamguard_events;

/// Parse a hooks file as its host does: strictly, or with comments and trailing commas where
/// the host accepts them (Gemini CLI strips comments from its `settings.json`), with
/// `file:line:col`.
fn parse_for(path: &Path, text: &str, shape: Shape) -> Result<Value, String> {
    if shape.comments_allowed() {
        parse_jsonc(path, text)
    } else {
        parse_json(path, text)
    }
}

/// Parse a JSON text that may carry comments and trailing commas.
pub(super) fn parse_jsonc(path: &Path, text: &str) -> Result<Value, String> {
    let root = CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| {
        let (l, c) = line_col(text, e.range().start);
        format!("{}:{l}:{c}: {}; nothing was written", disp(path), e.kind())
    })?;
    Ok(root
        .value()
        .and_then(|v| v.to_serde_value())
        .unwrap_or(Value::Null))
}

/// Parse a settings / hooks JSON file strictly (what the hosts accept), with `file:line:col`.
fn parse_json(path: &Path, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg
            .rsplit_once(" at line ")
            .map_or(msg.as_str(), |(m, _)| m)
            .to_string();
        format!(
            "{}:{}:{}: not valid JSON: {msg}; nothing was written",
            disp(path),
            e.line(),
            e.column()
        )
    })
}

/// The keys that hold a handler's command line: `command` (Claude Code, Codex, Gemini CLI,
/// Cursor), `bash` and `powershell` (Copilot CLI).
const COMMAND_KEYS: &[&str] = &["command", "bash", "powershell"];

/// Every command string ([`COMMAND_KEYS`]) under a JSON value.
pub(super) fn json_commands(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if COMMAND_KEYS.contains(&k.as_str()) => {
                        out.push(s.clone());
                    }
                    _ => json_commands(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| json_commands(x, out)),
        _ => {}
    }
}

/// Events of a parsed hooks document that already have a seamguard handler.
pub(super) fn json_installed(doc: &Value) -> BTreeSet<String> {
    let hooks = doc.get("hooks").and_then(Value::as_object);
    seamguard_events(hooks.into_iter().flatten().map(|(event, groups)| {
        let mut cmds = Vec::new();
        json_commands(groups, &mut cmds);
        (event.as_str(), cmds)
    }))
}

/// The error of a document whose top level is not an object.
fn not_an_object(path: &Path) -> String {
    format!(
        "{}: the top level is not a JSON object; nothing was written",
        disp(path)
    )
}

/// Check the shape the edit relies on; a clear error instead of a silent rewrite.
fn check_shape(path: &Path, doc: &Value) -> Result<(), String> {
    let Some(root) = doc.as_object() else {
        return Err(not_an_object(path));
    };
    let Some(hooks) = root.get("hooks") else {
        return Ok(());
    };
    let Some(hooks) = hooks.as_object() else {
        return Err(format!(
            "{}: `hooks` is not an object; nothing was written",
            disp(path)
        ));
    };
    for (event, groups) in hooks {
        if !groups.is_array() {
            return Err(format!(
                "{}: `hooks.{event}` is not an array; nothing was written",
                disp(path)
            ));
        }
    }
    Ok(())
}

/// How a host's hooks file holds a handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// Claude Code, Codex, Gemini CLI: `hooks.<Event>` is a list of matcher groups, each
    /// with `hooks: [{"type": "command", "command": …}]`; `block_on_failure` adds Claude
    /// Code's `onFailure: "block"` on the [`BLOCK_ON_FAILURE_EVENTS`] (see
    /// [`super::fail_closed`]).
    Grouped {
        /// Write `onFailure: "block"` on the gating events.
        block_on_failure: bool,
        /// The host accepts comments and trailing commas (Gemini CLI).
        jsonc: bool,
    },
    /// Cursor: `{"version": 1, "hooks": {"<event>": [{"command": …}]}}`, with
    /// `"failClosed": true` on the events that gate a call (HOSTS.md §1: Cursor fails open
    /// unless the entry sets it).
    Cursor,
    /// Copilot CLI: `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash": …}]}}`
    /// (`powershell` on Windows).
    Copilot,
}

impl Shape {
    /// Whether the host reads the file with comments allowed (Gemini CLI's settings).
    fn comments_allowed(self) -> bool {
        matches!(self, Shape::Grouped { jsonc: true, .. })
    }

    /// Whether the file starts with `"version": 1` (added when missing).
    fn versioned(self) -> bool {
        matches!(self, Shape::Cursor | Shape::Copilot)
    }
}

/// The handler of `command` for `event` in a file of `shape`.
fn handler(shape: Shape, event: &str, command: &str) -> CstInputValue {
    let s = |v: &str| CstInputValue::String(v.into());
    match shape {
        Shape::Grouped {
            block_on_failure, ..
        } => {
            let mut handler = vec![
                ("type".into(), s("command")),
                ("command".into(), s(command)),
            ];
            if block_on_failure && BLOCK_ON_FAILURE_EVENTS.contains(&event) {
                handler.push(("onFailure".into(), s("block")));
            }
            CstInputValue::Object(vec![(
                "hooks".into(),
                CstInputValue::Array(vec![CstInputValue::Object(handler)]),
            )])
        }
        Shape::Cursor => {
            let mut entry = vec![("command".into(), s(command))];
            if gating_events(Dialect::Cursor).contains(&event) {
                entry.push(("failClosed".into(), CstInputValue::Bool(true)));
            }
            CstInputValue::Object(entry)
        }
        Shape::Copilot => {
            let key = if cfg!(windows) { "powershell" } else { "bash" };
            CstInputValue::Object(vec![
                ("type".into(), s("command")),
                (key.into(), s(command)),
            ])
        }
    }
}

/// The events whose handler may carry `onFailure: "block"`: the ones that gate a call. A
/// Stop is never blocked by a failed hook (that would keep the agent going).
pub(super) const BLOCK_ON_FAILURE_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest"];

/// Add a seamguard handler for each missing event to a hooks JSON text of `shape`.
///
/// Returns the new text and the events added; `None` when every event is covered (by this
/// file, or by `covered`: the events another file of the same scope already hooks).
pub(super) fn add_json_hooks(
    path: &Path,
    old: Option<&str>,
    events: &[&str],
    covered: &BTreeSet<String>,
    command: &str,
    shape: Shape,
) -> Result<Option<(String, Vec<String>)>, String> {
    let base = match old {
        Some(t) if !t.trim().is_empty() => t.to_string(),
        _ => "{}\n".to_string(),
    };
    let doc = parse_for(path, &base, shape)?;
    check_shape(path, &doc)?;
    let mut have = json_installed(&doc);
    have.extend(covered.iter().cloned());
    let missing: Vec<String> = events
        .iter()
        .filter(|e| !have.contains(**e))
        .map(|e| e.to_string())
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let root = CstRootNode::parse(&base, &ParseOptions::default()).map_err(|e| {
        let (l, c) = line_col(&base, e.range().start);
        format!("{}:{l}:{c}: {}; nothing was written", disp(path), e.kind())
    })?;
    let obj = root.object_value().ok_or_else(|| not_an_object(path))?;
    if shape.versioned() && obj.get("version").is_none() {
        obj.insert(0, "version", CstInputValue::Number("1".into()));
    }
    let hooks = obj
        .object_value_or_create("hooks")
        .ok_or_else(|| format!("{}: `hooks` is not an object", disp(path)))?;
    for event in &missing {
        let arr = hooks
            .array_value_or_create(event)
            .ok_or_else(|| format!("{}: `hooks.{event}` is not an array", disp(path)))?;
        arr.append(handler(shape, event, command));
    }
    let mut text = root.to_string();
    if old.is_none_or(|t| t.trim().is_empty()) && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(Some((text, missing)))
}
