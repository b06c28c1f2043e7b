//! `--undo` of a settings file edited since `init` wrote it: take out exactly what `init` added
//! and keep every edit of the user's, through the same concrete syntax trees as the install.
//!
//! What `init` adds to a hooks JSON file is a seamguard handler for each event that had none
//! (with the matcher-less group around it, the event's list and the `hooks` object when they
//! were missing, and `"version": 1` in a Cursor or Copilot file that lacked it); to a Codex
//! `config.toml`, `true` in place of a `false` of `[features] hooks` / `codex_hooks`. The file as
//! it was before (`original`: the backup, or nothing when `init` created the file) says which
//! of those were there already, so the user's own seamguard handlers and containers stay.
//!
//! In: the current text and what the original held (parsed by the caller with `init`'s own
//! readers, so this module depends on none of them). Out: the new text and what was taken
//! out, or where the current text stops parsing.

use std::collections::BTreeSet;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstNode, CstObject, CstRootNode};
use serde_json::Value;
use toml_edit::DocumentMut;

/// The result of taking `init`'s additions out of a file.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unhooked {
    /// The new text.
    pub(super) text: String,
    /// What was taken out, in words (`3 seamguard handler(s)`, `features.hooks = true`).
    pub(super) removed: Vec<String>,
    /// Nothing is left that `init` did not write (a file `init` created: remove it).
    pub(super) empty: bool,
}

/// What a hooks JSON file held before `init` wrote it.
pub(super) struct Before<'a> {
    /// The original document (an empty object when `init` created the file).
    pub(super) doc: &'a Value,
    /// The events that had a seamguard handler: `init` added nothing to them.
    pub(super) had: &'a BTreeSet<String>,
    /// `init` created the file.
    pub(super) created: bool,
}

/// The command string of a handler object (`command`, `bash`, `powershell`).
fn handler_command(o: &CstObject) -> Option<String> {
    ["command", "bash", "powershell"].iter().find_map(|k| {
        o.get(k)?
            .value()?
            .to_serde_value()?
            .as_str()
            .map(str::to_string)
    })
}

/// Whether a node is a handler object whose command `is_handler` says runs seamguard.
fn is_seamguard(node: &CstNode, is_handler: fn(&str) -> bool) -> bool {
    node.as_object()
        .and_then(|o| handler_command(&o))
        .is_some_and(|c| is_handler(&c))
}

/// Remove the seamguard handlers of one event's list; the number removed. A group left
/// without handlers is removed with them.
fn strip_event(list: &jsonc_parser::cst::CstArray, is_handler: fn(&str) -> bool) -> usize {
    let mut removed = 0;
    for element in list.elements() {
        if is_seamguard(&element, is_handler) {
            element.remove();
            removed += 1;
            continue;
        }
        let Some(group) = element.as_object() else {
            continue;
        };
        let Some(inner) = group.array_value("hooks") else {
            continue;
        };
        let before = inner.elements().len();
        for h in inner.elements() {
            if is_seamguard(&h, is_handler) {
                h.remove();
                removed += 1;
            }
        }
        if before > 0 && inner.elements().is_empty() {
            element.remove();
        }
    }
    removed
}

/// Take `init`'s additions out of `current`, the text of a hooks JSON file that held `before`;
/// `is_handler` tells a seamguard handler's command.
///
/// # Errors
/// `current` does not parse: the byte offset where it stops and the parser's message.
pub(super) fn unhook_json(
    current: &str,
    before: &Before<'_>,
    is_handler: fn(&str) -> bool,
) -> Result<Unhooked, (usize, String)> {
    let root = CstRootNode::parse(current, &ParseOptions::default())
        .map_err(|e| (e.range().start, e.kind().to_string()))?;
    let Some(obj) = root.object_value() else {
        return Err((0, "the top level is not a JSON object".into()));
    };
    let had = before.had;
    let created = before.created;
    let before = before.doc;
    let before_hooks = before.get("hooks").and_then(Value::as_object);
    let mut removed = 0;
    if let Some(hooks) = obj.object_value("hooks") {
        for prop in hooks.properties() {
            let Some(event) = prop.name().and_then(|n| n.decoded_value().ok()) else {
                continue;
            };
            if had.contains(&event) {
                continue;
            }
            let Some(list) = prop.array_value() else {
                continue;
            };
            removed += strip_event(&list, is_handler);
            let existed = before_hooks.is_some_and(|h| h.contains_key(&event));
            if list.elements().is_empty() && !existed {
                prop.remove();
            }
        }
        if hooks.properties().is_empty()
            && before_hooks.is_none()
            && let Some(p) = obj.get("hooks")
        {
            p.remove();
        }
    }
    // `"version": 1` added to a Cursor or Copilot file that lacked it; in a file `init`
    // created, kept while the user's own hooks need it.
    if before.get("version").is_none()
        && let Some(v) = obj.get("version")
        && v.value().and_then(|v| v.to_serde_value()) == Some(Value::from(1))
        && (!created || obj.properties().len() == 1)
    {
        v.remove();
    }
    let text = root.to_string();
    let empty = created && obj.properties().is_empty();
    let removed = if removed == 0 {
        Vec::new()
    } else {
        vec![format!("{removed} seamguard handler(s)")]
    };
    Ok(Unhooked {
        text,
        removed,
        empty,
    })
}

/// Set `[features] hooks` / `codex_hooks` of a Codex `config.toml` back to `false` where the
/// original (`before`) had `false` and `init` made it `true`; the keys set back.
pub(super) fn unhook_toml(doc: &mut DocumentMut, before: Option<&DocumentMut>) -> Vec<String> {
    let mut removed = Vec::new();
    for key in ["hooks", "codex_hooks"] {
        let was_off = before
            .and_then(|d| d.get("features"))
            .and_then(|f| f.get(key))
            .and_then(|v| v.as_bool())
            == Some(false);
        if !was_off {
            continue;
        }
        if let Some(v) = doc
            .get_mut("features")
            .and_then(|f| f.get_mut(key))
            .and_then(|i| i.as_value_mut())
            && v.as_bool() == Some(true)
        {
            let decor = v.decor().clone();
            *v = toml_edit::Value::from(false);
            *v.decor_mut() = decor;
            removed.push(format!("features.{key} = true"));
        }
    }
    removed
}
