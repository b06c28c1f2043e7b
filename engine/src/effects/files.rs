//! The file-tool lens: `Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `Grep`, `Glob`,
//! `LS` and Codex `apply_patch`.
//!
//! In: the tool name and its `tool_input`. Out: `read` / `write` / `delete` effects whose
//! route names the argument (`file_path`, `path`, a patch header), with the content of a write
//! when the input carries it.

use serde_json::Value;

use super::model::{Effects, Gone, Lens, PathRef, Route, What};

/// Whether `tool` is a file tool (or the input is an `apply_patch` patch).
pub(crate) fn handles(tool: &str, input: &Value) -> bool {
    matches!(
        tool,
        "Read"
            | "Write"
            | "Edit"
            | "MultiEdit"
            | "NotebookEdit"
            | "NotebookRead"
            | "Grep"
            | "Glob"
            | "LS"
            | "apply_patch"
            | "Delete"
    ) || patch_text(tool, input).is_some()
}

/// The patch text of an `apply_patch` call (Codex: `command`, `input` or `patch`).
fn patch_text<'v>(tool: &str, input: &'v Value) -> Option<&'v str> {
    let text = input
        .get("input")
        .or_else(|| input.get("patch"))
        .or_else(|| input.get("command"))
        .and_then(Value::as_str)
        .or_else(|| input.as_str())?;
    (tool == "apply_patch" || text.trim_start().starts_with("*** Begin Patch")).then_some(text)
}

fn route(tool: &str, argument: &str) -> Route {
    Route {
        tool: tool.to_string(),
        lens: Some(Lens::File),
        argument: argument.to_string(),
        command: None,
        via: Vec::new(),
    }
}

/// The effects of one file-tool call.
pub(crate) fn lens(tool: &str, input: &Value, cwd: Option<&str>, fx: &mut Effects) {
    if let Some(p) = patch_text(tool, input) {
        patch(tool, p, cwd, fx);
        return;
    }
    let s = |k: &str| input.get(k).and_then(Value::as_str);
    let path_key = ["file_path", "notebook_path", "path"]
        .into_iter()
        .find(|k| s(k).is_some());
    let Some(key) = path_key else {
        // `Grep` / `Glob` / `LS` without a path search the working directory.
        if matches!(tool, "Grep" | "Glob" | "LS")
            && let Some(c) = cwd
        {
            fx.push(What::Read(PathRef::new(c, Some(c))), route(tool, ""));
        }
        return;
    };
    let path = PathRef::new(s(key).unwrap_or_default(), cwd);
    let r = route(tool, &format!("/{key}"));
    match tool {
        // Cursor `Delete` (read through `host_tools`): the file goes.
        "Delete" => fx.push(
            What::Delete {
                path,
                recursive: false,
                gone: Gone::Removed,
            },
            r,
        ),
        "Write" => fx.push(
            What::Write {
                path,
                append: false,
                content: s("content").map(str::to_string),
            },
            r,
        ),
        "Edit" => fx.push(
            What::Write {
                path,
                append: false,
                content: s("new_string").map(str::to_string),
            },
            r,
        ),
        "MultiEdit" => {
            let content = input.get("edits").and_then(Value::as_array).map(|edits| {
                edits
                    .iter()
                    .filter_map(|e| e.get("new_string").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
            fx.push(
                What::Write {
                    path,
                    append: false,
                    content,
                },
                r,
            );
        }
        "NotebookEdit" => {
            if s("edit_mode") == Some("delete") {
                // Deleting a cell rewrites the notebook.
                fx.push(
                    What::Write {
                        path,
                        append: false,
                        content: None,
                    },
                    r,
                );
            } else {
                fx.push(
                    What::Write {
                        path,
                        append: false,
                        content: s("new_source").map(str::to_string),
                    },
                    r,
                );
            }
        }
        "Grep" | "Glob" => {
            // A glob filter can aim a search at files the path does not name
            // (`glob = ".env*"`): the filter joined onto the path is read too.
            fx.push(What::Read(path.clone()), r);
            if let Some(g) = s("glob").or_else(|| (tool == "Glob").then(|| s("pattern")).flatten())
            {
                let base = path.text.trim_end_matches('/');
                // The filter applies at any depth; its own last part names the files.
                let g = g.trim_start_matches("**/");
                let joined = if g.starts_with('/') || g.starts_with('~') {
                    g.to_string()
                } else {
                    format!("{base}/{g}")
                };
                fx.push(
                    What::Read(PathRef::new(joined, cwd)),
                    route(tool, if tool == "Glob" { "/pattern" } else { "/glob" }),
                );
            }
        }
        _ => fx.push(What::Read(path), r),
    }
}

/// The file headers of an `apply_patch` patch, as written.
const PATCH_HEADERS: &[&str] = &[
    "*** Add File",
    "*** Update File",
    "*** Delete File",
    "*** Move to",
];

/// The header and path of a patch line that names a file (`*** Update File: src/a.rs` →
/// `("*** Update File", "src/a.rs")`).
pub(crate) fn patch_header(line: &str) -> Option<(&'static str, &str)> {
    PATCH_HEADERS.iter().find_map(|h| {
        let path = line.strip_prefix(h)?.strip_prefix(": ")?;
        Some((*h, path.trim()))
    })
}

/// The effects of an `apply_patch` patch: `*** Add File:` / `*** Update File:` write (with
/// the added lines as content), `*** Delete File:` deletes, `*** Move to:` writes the new path
/// and deletes the old one.
fn patch(tool: &str, text: &str, cwd: Option<&str>, fx: &mut Effects) {
    // The file whose hunks are being read, and its added lines.
    let mut current: Option<(String, &'static str, Vec<&str>)> = None;
    let flush = |cur: &mut Option<(String, &'static str, Vec<&str>)>, fx: &mut Effects| {
        if let Some((path, header, added)) = cur.take() {
            fx.push(
                What::Write {
                    path: PathRef::new(path, cwd),
                    append: false,
                    content: Some(added.join("\n")),
                },
                route(tool, header),
            );
        }
    };
    for line in text.lines() {
        let header = patch_header(line);
        if let Some((kind @ ("*** Add File" | "*** Update File"), p)) = header {
            flush(&mut current, fx);
            current = Some((p.to_string(), kind, Vec::new()));
        } else if let Some(("*** Delete File", p)) = header {
            flush(&mut current, fx);
            fx.push(
                What::Delete {
                    path: PathRef::new(p, cwd),
                    recursive: false,
                    gone: Gone::Removed,
                },
                route(tool, "*** Delete File"),
            );
        } else if let Some((_, p)) = header {
            // `*** Move to`: the file being updated goes, its new path is written.
            if let Some((old, ..)) = &current {
                fx.push(
                    What::Delete {
                        path: PathRef::new(old.clone(), cwd),
                        recursive: false,
                        gone: Gone::Moved,
                    },
                    route(tool, "*** Move to"),
                );
            }
            if let Some(cur) = current.as_mut() {
                cur.0 = p.to_string();
                cur.1 = "*** Move to";
            }
        } else if line.starts_with("*** End Patch") {
            flush(&mut current, fx);
        } else if let Some(added) = line.strip_prefix('+')
            && let Some(cur) = current.as_mut()
        {
            cur.2.push(added);
        }
    }
    flush(&mut current, fx);
}
