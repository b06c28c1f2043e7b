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
//! In: the current text and the original text. Out: the new text and what was taken out, or an
//! error naming the file when the current text no longer parses.

use std::collections::BTreeSet;
use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstNode, CstObject, CstRootNode};
use serde_json::Value;

use super::is_handler;
use super::json_edit::{json_installed, parse_jsonc};
use super::layout::{disp, line_col};
use super::toml_edit::parse_toml;

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

/// Take `init`'s additions out of `current`, the text of `path` (a hooks JSON file, or a Codex
/// `config.toml` by its extension); `original` is the text before `init` (`None`: `init`
/// created the file).
///
/// # Errors
/// `current` (or `original`) does not parse: `file:line:col` and the parser's message.
pub(super) fn unhook(
    path: &Path,
    current: &str,
    original: Option<&str>,
) -> Result<Unhooked, String> {
    if path.extension().is_some_and(|x| x == "toml") {
        unhook_toml(path, current, original)
    } else {
        unhook_json(path, current, original)
    }
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

/// Whether a node is a seamguard handler object.
fn is_seamguard(node: &CstNode) -> bool {
    node.as_object()
        .and_then(|o| handler_command(&o))
        .is_some_and(|c| is_handler(&c))
}

/// Remove the seamguard handlers of one event's list; the number removed. A group left
/// without handlers is removed with them.
fn strip_event(list: &jsonc_parser::cst::CstArray) -> usize {
    let mut removed = 0;
    for element in list.elements() {
        if is_seamguard(&element) {
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
            if is_seamguard(&h) {
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

fn unhook_json(path: &Path, current: &str, original: Option<&str>) -> Result<Unhooked, String> {
    let before = match original {
        Some(t) if !t.trim().is_empty() => parse_jsonc(path, t)?,
        _ => Value::Object(serde_json::Map::new()),
    };
    let root = CstRootNode::parse(current, &ParseOptions::default()).map_err(|e| {
        let (l, c) = line_col(current, e.range().start);
        format!("{}:{l}:{c}: {}", disp(path), e.kind())
    })?;
    let Some(obj) = root.object_value() else {
        return Err(format!(
            "{}: the top level is not a JSON object",
            disp(path)
        ));
    };
    // Events that had a seamguard handler before `init`: it added nothing to them.
    let had: BTreeSet<String> = json_installed(&before);
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
            removed += strip_event(&list);
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
        && (original.is_some() || obj.properties().len() == 1)
    {
        v.remove();
    }
    let text = root.to_string();
    let empty = original.is_none() && obj.properties().is_empty();
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

fn unhook_toml(path: &Path, current: &str, original: Option<&str>) -> Result<Unhooked, String> {
    let mut doc = parse_toml(path, current)?;
    let before = original.map(|t| parse_toml(path, t)).transpose()?;
    let mut removed = Vec::new();
    for key in ["hooks", "codex_hooks"] {
        let was_off = before
            .as_ref()
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
            *v = ::toml_edit::Value::from(false);
            *v.decor_mut() = decor;
            removed.push(format!("features.{key} = true"));
        }
    }
    Ok(Unhooked {
        text: doc.to_string(),
        removed,
        empty: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "seamguard hook --dialect claude-code";

    fn group(cmd: &str) -> String {
        format!(r#"{{"hooks":[{{"type":"command","command":"{cmd}"}}]}}"#)
    }

    #[test]
    fn takes_out_what_init_added_and_keeps_the_users_edits() {
        use super::super::json_edit::{Shape, add_json_hooks};
        let original = format!(
            "{{\n  \"model\": \"opus\",\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {}\n    ]\n  }}\n}}\n",
            group("./mine.sh")
        );
        let shape = Shape::Grouped {
            block_on_failure: true,
            jsonc: false,
        };
        let (installed, added) = add_json_hooks(
            Path::new("s.json"),
            Some(&original),
            &["PreToolUse", "Stop"],
            &BTreeSet::new(),
            CMD,
            shape,
        )
        .unwrap()
        .unwrap();
        assert_eq!(added, ["PreToolUse", "Stop"]);
        // The user's edit after init: another model.
        let current = installed.replace("opus", "sonnet");
        let u = unhook(Path::new("s.json"), &current, Some(&original)).unwrap();
        assert_eq!(u.text, original.replace("opus", "sonnet"));
        assert_eq!(u.removed, ["2 seamguard handler(s)"]);
        assert!(!u.empty);
    }

    #[test]
    fn a_handler_the_user_had_before_stays_and_a_created_file_ends_empty() {
        let original = format!("{{\"hooks\":{{\"Stop\":[{}]}}}}", group(CMD));
        let current = format!(
            "{{\"hooks\":{{\"Stop\":[{}],\"PreToolUse\":[{}]}}}}",
            group(CMD),
            group(CMD)
        );
        let u = unhook(Path::new("s.json"), &current, Some(&original)).unwrap();
        assert_eq!(u.text, original);
        let created = format!(
            "{{\n  \"version\": 1,\n  \"hooks\": {{\n    \"preToolUse\": [{{\"command\": \"{CMD}\", \"failClosed\": true}}]\n  }}\n}}\n"
        );
        let u = unhook(Path::new("hooks.json"), &created, None).unwrap();
        assert_eq!((u.text.as_str(), u.empty), ("{}\n", true));
    }

    #[test]
    fn codex_features_flag_goes_back_to_false_and_broken_json_is_an_error() {
        let u = unhook(
            Path::new("config.toml"),
            "model = \"o3\"\n[features]\nhooks = true # on\n",
            Some("[features]\nhooks = false # on\n"),
        )
        .unwrap();
        assert_eq!(u.text, "model = \"o3\"\n[features]\nhooks = false # on\n");
        assert_eq!(u.removed, ["features.hooks = true"]);
        let e = unhook(Path::new("s.json"), "{\"hooks\": {", Some("{}")).unwrap_err();
        assert!(e.starts_with("s.json:1:"), "{e}");
    }
}
