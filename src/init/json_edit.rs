//! Format-preserving edits of a Claude Code `settings.json` or a Codex `hooks.json`: a
//! matcher-less seamguard group is appended for each event that lacks one, through the
//! jsonc-parser concrete syntax tree, so every other byte stays as it was.
//!
//! In: the file's text (or none) and the events to cover. Out: the new text and the events
//! added, or `None` when every event already has a seamguard handler.

use std::collections::BTreeSet;
use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::Value;

use super::layout::{disp, line_col};
use super::seamguard_events;

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

/// Every `command` string under a JSON value.
pub(super) fn json_commands(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == "command" => out.push(s.clone()),
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

/// The matcher-less group with one command handler; `block_on_failure` adds Claude Code's
/// `onFailure: "block"` (see [`super::fail_closed`]).
fn group(command: &str, block_on_failure: bool) -> CstInputValue {
    let mut handler = vec![
        ("type".into(), CstInputValue::String("command".into())),
        ("command".into(), CstInputValue::String(command.into())),
    ];
    if block_on_failure {
        handler.push(("onFailure".into(), CstInputValue::String("block".into())));
    }
    CstInputValue::Object(vec![(
        "hooks".into(),
        CstInputValue::Array(vec![CstInputValue::Object(handler)]),
    )])
}

/// The events whose handler may carry `onFailure: "block"`: the ones that gate a call. A
/// Stop is never blocked by a failed hook (that would keep the agent going).
pub(super) const BLOCK_ON_FAILURE_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest"];

/// Add a seamguard group for each missing event to a settings / hooks JSON text.
///
/// Returns the new text and the events added; `None` when every event is covered.
/// `block_on_failure`: write `onFailure: "block"` on the [`BLOCK_ON_FAILURE_EVENTS`].
pub(super) fn add_json_hooks(
    path: &Path,
    old: Option<&str>,
    events: &[&str],
    covered: &BTreeSet<String>,
    command: &str,
    block_on_failure: bool,
) -> Result<Option<(String, Vec<String>)>, String> {
    let base = match old {
        Some(t) if !t.trim().is_empty() => t.to_string(),
        _ => "{}\n".to_string(),
    };
    let doc = parse_json(path, &base)?;
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
    let hooks = obj
        .object_value_or_create("hooks")
        .ok_or_else(|| format!("{}: `hooks` is not an object", disp(path)))?;
    for event in &missing {
        let arr = hooks
            .array_value_or_create(event)
            .ok_or_else(|| format!("{}: `hooks.{event}` is not an array", disp(path)))?;
        arr.append(group(
            command,
            block_on_failure && BLOCK_ON_FAILURE_EVENTS.contains(&event.as_str()),
        ));
    }
    let mut text = root.to_string();
    if old.is_none_or(|t| t.trim().is_empty()) && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(Some((text, missing)))
}
