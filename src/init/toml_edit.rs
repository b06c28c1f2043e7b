//! Format-preserving edits of TOML: a Codex `config.toml` (hooks turned back on, seamguard
//! handlers found in its `[hooks]` tables) and the observe variant of a library policy.
//!
//! In: the file's text. Out: the edited text (every byte outside the changed values kept), or
//! what the file says about hooks.

use std::collections::BTreeSet;
use std::path::Path;

use ::toml_edit::{DocumentMut, Item, Table, TableLike, Value, value};

use super::layout::{disp, line_col, read_text};
use super::options::seamguard_events;
use crate::library::PolicyFile;

/// Parse a Codex `config.toml` with `file:line:col` errors.
pub(super) fn parse_toml(path: &Path, text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>().map_err(|e| {
        let (l, c) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        format!(
            "{}:{l}:{c}: not valid TOML: {}; nothing was written",
            disp(path),
            e.message()
        )
    })
}

/// Every `command` string under a TOML item.
pub(super) fn toml_commands(item: &Item, out: &mut Vec<String>) {
    match item {
        Item::Table(t) => table_commands(t, out),
        Item::ArrayOfTables(a) => a.iter().for_each(|t| table_commands(t, out)),
        Item::Value(v) => value_commands(v, out),
        Item::None => {}
    }
}

/// Every `command` string under a TOML value (inline tables, arrays).
fn value_commands(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| value_commands(x, out)),
        Value::InlineTable(t) => table_commands(t, out),
        _ => {}
    }
}

/// Every `command` string of a table: its own `command` key, and under its other keys.
fn table_commands(t: &dyn TableLike, out: &mut Vec<String>) {
    for (k, x) in t.iter() {
        match x.as_str() {
            Some(s) if k == "command" => out.push(s.to_string()),
            _ => toml_commands(x, out),
        }
    }
}

/// Events with a seamguard handler in the `[hooks]` tables of a Codex `config.toml`.
pub(super) fn toml_installed(doc: &DocumentMut) -> BTreeSet<String> {
    let hooks = doc.get("hooks").and_then(Item::as_table_like);
    seamguard_events(
        hooks
            .into_iter()
            .flat_map(|h| h.iter())
            .map(|(event, item)| {
                let mut cmds = Vec::new();
                toml_commands(item, &mut cmds);
                (event, cmds)
            }),
    )
}

/// Turn `[features] hooks = false` / `codex_hooks = false` into `true`; the keys changed.
pub(super) fn enable_codex_hooks(doc: &mut DocumentMut) -> Vec<String> {
    let mut changed = Vec::new();
    let Some(features) = doc.get_mut("features").and_then(Item::as_table_like_mut) else {
        return changed;
    };
    for key in ["hooks", "codex_hooks"] {
        if let Some(v) = features.get_mut(key).and_then(Item::as_value_mut)
            && v.as_bool() == Some(false)
        {
            let decor = v.decor().clone();
            *v = Value::from(true);
            *v.decor_mut() = decor;
            changed.push(format!("features.{key}"));
        }
    }
    changed
}

/// Keys of a Codex `config.toml` that turn hooks off (for a warning).
pub(super) fn codex_hooks_disabled(path: &Path) -> Vec<String> {
    let Ok(Some(text)) = read_text(path) else {
        return Vec::new();
    };
    let Ok(mut doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    enable_codex_hooks(&mut doc)
}

/// A library file with `mode = "observe"` in its `[policy]` table (format-preserving).
pub(super) fn observe(f: &PolicyFile) -> Result<String, String> {
    let mut doc: DocumentMut = f
        .text
        .parse()
        .map_err(|e| format!("embedded policy {}: {e}", f.name))?;
    let policy = doc
        .entry("policy")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(table) = policy.as_table_like_mut() else {
        return Err(format!(
            "embedded policy {}: `policy` is not a table",
            f.name
        ));
    };
    table.insert("mode", value("observe"));
    Ok(doc.to_string())
}
