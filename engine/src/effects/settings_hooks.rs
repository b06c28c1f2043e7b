//! The hook entries of an agent's settings document: which run seamguard, whether the hooks
//! were emptied, which hook commands do nothing. The settings lens ([`super::settings`])
//! compares them before and after a write.
//!
//! In: a parsed settings document (JSON or TOML as a JSON value). Out: facts about its hooks.

use std::collections::BTreeSet;

use serde_json::Value;

/// Whether text names seamguard.
pub(super) fn mentions_seamguard(t: &str) -> bool {
    t.to_ascii_lowercase().contains("seamguard")
}

/// Every hook command of a document: `(event, matcher, command)`. Claude Code, Codex and
/// Gemini CLI nest `hooks: [{command}]` in a group; Cursor and Copilot CLI put the command on
/// the entry (`command`, `bash`, `powershell`).
pub(super) fn hook_commands(doc: &Value) -> Vec<(&str, &str, &str)> {
    let mut out = Vec::new();
    let Some(Value::Object(events)) = doc.get("hooks") else {
        return out;
    };
    for (event, groups) in events {
        for g in groups.as_array().into_iter().flatten() {
            let matcher = g.get("matcher").and_then(Value::as_str).unwrap_or("");
            let entries = g.get("hooks").and_then(Value::as_array);
            for h in entries.into_iter().flatten().chain(std::iter::once(g)) {
                for cmd in HOOK_COMMAND_KEYS
                    .iter()
                    .filter_map(|k| h.get(k).and_then(Value::as_str))
                {
                    out.push((event.as_str(), matcher, cmd));
                }
            }
        }
    }
    out
}

/// The hook entries that run seamguard: `(event, matcher, command)`.
pub(super) fn entries(doc: &Value) -> BTreeSet<(String, String, String)> {
    hook_commands(doc)
        .into_iter()
        .filter(|(_, _, cmd)| mentions_seamguard(cmd))
        .map(|(e, m, c)| (e.to_string(), m.to_string(), c.to_string()))
        .collect()
}

/// The keys of a hook entry that hold the command it runs.
pub(super) const HOOK_COMMAND_KEYS: &[&str] = &["command", "bash", "powershell"];

/// Commands that do nothing: a hook command replaced by one of these runs no guard.
pub(super) const NO_OPS: &[&str] = &[
    "true",
    ":",
    "exit 0",
    "/bin/true",
    "/usr/bin/true",
    "echo",
    "echo {}",
    "cat >/dev/null",
    "",
];

/// Whether a document's hooks are present and empty (`"hooks": {}`, `[]`, `null`, or every
/// event with no entry).
pub(super) fn hooks_emptied(doc: &Value) -> bool {
    match doc.get("hooks") {
        Some(Value::Null) => true,
        Some(Value::Object(events)) => events.values().all(|v| match v {
            Value::Array(a) => a.is_empty(),
            Value::Null => true,
            // Gemini CLI's `hooks.enabled` is a switch: hooks that only set it are not
            // emptied by the text.
            Value::Bool(_) | Value::Number(_) | Value::String(_) => false,
            Value::Object(o) => o.is_empty(),
        }),
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    }
}

/// Whether a document has any hook entry.
pub(super) fn has_hooks(doc: &Value) -> bool {
    doc.get("hooks").is_some() && !hooks_emptied(doc)
}

/// The hook commands of a document that do nothing (`"command": "true"`).
pub(super) fn no_op_commands(doc: &Value) -> usize {
    hook_commands(doc)
        .iter()
        .filter(|(_, _, cmd)| NO_OPS.contains(&cmd.trim()))
        .count()
}
