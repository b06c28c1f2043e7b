//! What a path or a process id does under the tool's verb.
//!
//! In: a string the walk classified as a path (with the part its key plays) or a process id,
//! its siblings (`dryRun`, `recursive`, `mode`, `content`, `signal`) and the tool's verb.
//! Out: reads, writes (with the content written), deletes and moves of the path, the files a
//! search pattern names below its path, the files an upload reads, a signal to a process.

use serde_json::{Map, Value};

use super::keys::{KeyKind, Role, key_kind, pointer, words};
use super::tool::Verb;
use super::walk::Walk;
use crate::effects::model::{Effects, Gone, PathRef, Route, What};
use crate::shell::Arg;

impl Walk<'_> {
    /// `search_files {path, pattern}`: the files searched are the pattern below the path.
    pub(super) fn search_pattern(
        &mut self,
        m: &Map<String, Value>,
        ptr: &str,
        base: Option<&str>,
        fx: &mut Effects,
    ) {
        let searches = self
            .by_name
            .words
            .iter()
            .any(|w| matches!(w.as_str(), "search" | "find" | "glob"));
        if !searches || self.by_name.remote.is_some() {
            return;
        }
        // A content search (`search_code {path, pattern}`) matches text, not names: only its
        // file filter names files.
        let content_search = self.by_name.words.iter().any(|w| {
            matches!(
                w.as_str(),
                "code" | "content" | "contents" | "text" | "grep" | "regex"
            )
        });
        let pattern_keys: &[&str] = if content_search {
            &["filepattern", "glob", "include", "filefilter"]
        } else {
            &["pattern", "glob", "filepattern", "include"]
        };
        let path = m.iter().find_map(|(k, v)| {
            let s = v.as_str()?;
            matches!(
                key_kind(k),
                KeyKind::Path(Role::Any) | KeyKind::Path(Role::Context)
            )
            .then_some(s)
        });
        let pattern = m
            .iter()
            .find(|(k, v)| v.is_string() && pattern_keys.contains(&words(k).concat().as_str()));
        let (Some(path), Some((pk, Value::String(g)))) = (path, pattern) else {
            return;
        };
        if g.is_empty() || g.contains(char::is_whitespace) && !g.contains(['*', '.']) {
            return;
        }
        let b = path.trim_end_matches('/');
        let joined = if g.starts_with('/') || g.starts_with('~') {
            g.clone()
        } else if g.starts_with("**/") {
            format!("{b}/{g}")
        } else {
            format!("{b}/**/{g}")
        };
        fx.push(
            What::Read(PathRef::new(joined, base)),
            self.route(&pointer(ptr, pk)),
        );
    }

    /// The effects of a path by the tool's verb and the key's role.
    pub(super) fn path(
        &mut self,
        text: &str,
        role: Role,
        ptr: &str,
        parent: Option<&Map<String, Value>>,
        base: Option<&str>,
        fx: &mut Effects,
    ) {
        let p = PathRef::new(text, base);
        let r = self.route(ptr);
        let sib = |names: &[&str]| {
            parent.and_then(|m| {
                m.iter()
                    .find(|(k, _)| names.contains(&words(k).concat().as_str()))
                    .map(|(_, v)| v)
            })
        };
        let dry_run = sib(&["dryrun", "preview"]).and_then(Value::as_bool) == Some(true);
        let recursive = sib(&["recursive", "recurse"]).and_then(Value::as_bool) == Some(true);
        let append = self.by_name.verb == Verb::Append
            || sib(&["mode", "writemode"]).and_then(Value::as_str) == Some("append")
            || sib(&["append"]).and_then(Value::as_bool) == Some(true);
        let write = |fx: &mut Effects, p: PathRef, r: Route| {
            if dry_run {
                fx.push(What::Read(p), r);
            } else {
                fx.push(
                    What::Write {
                        path: p,
                        append,
                        content: content_of(parent),
                    },
                    r,
                );
            }
        };
        let role = match role {
            Role::Context => {
                fx.push(What::Read(p), r);
                return;
            }
            Role::Target if matches!(self.by_name.verb, Verb::Move | Verb::Copy) => Role::Dest,
            Role::Target => Role::Any,
            other => other,
        };
        match (self.by_name.verb, role) {
            (_, Role::Dest) => write(fx, p, r),
            (Verb::Move, _) => {
                fx.push(What::Read(p.clone()), r.clone());
                if dry_run {
                    return;
                }
                fx.push(
                    What::Delete {
                        path: p,
                        recursive: true,
                        gone: Gone::Moved,
                    },
                    r,
                );
            }
            (Verb::Write | Verb::Append, Role::Any) => write(fx, p, r),
            (Verb::Delete, Role::Any) => {
                if dry_run {
                    fx.push(What::Read(p), r);
                } else {
                    fx.push(
                        What::Delete {
                            path: p,
                            recursive,
                            gone: Gone::Removed,
                        },
                        r,
                    );
                }
            }
            (Verb::Upload, _) => {
                if self.upload_arg.is_none() {
                    self.upload_arg = Some(ptr.to_string());
                }
                self.uploads.push(p.clone());
                fx.push(What::Read(p), r);
            }
            _ => fx.push(What::Read(p), r),
        }
    }

    /// A process signalled (`kill_process {pid}`).
    pub(super) fn signal(
        &mut self,
        target: &str,
        ptr: &str,
        parent: Option<&Map<String, Value>>,
        fx: &mut Effects,
    ) {
        let signal = parent.and_then(|m| m.get("signal")).and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        fx.push(
            What::Signal {
                targets: vec![Arg {
                    text: target.to_string(),
                    dynamic: false,
                }],
                signal,
                by_pattern: false,
            },
            self.route(ptr),
        );
    }
}

/// The content a write carries: a `content` / `text` / `data` / `new_string` sibling, or the
/// new text of `edits[]`.
fn content_of(parent: Option<&Map<String, Value>>) -> Option<String> {
    let m = parent?;
    const CONTENT: &[&str] = &[
        "content",
        "contents",
        "text",
        "data",
        "body",
        "newtext",
        "newstring",
        "newcontent",
        "newcontents",
        "filetext",
        "newsource",
        "replacement",
        "code",
    ];
    for (k, v) in m {
        if let Some(s) = v.as_str()
            && CONTENT.contains(&words(k).concat().as_str())
        {
            return Some(s.to_string());
        }
    }
    let edits = m
        .iter()
        .find_map(|(k, v)| (words(k).concat() == "edits").then_some(v.as_array()?))?;
    let new: Vec<&str> = edits
        .iter()
        .filter_map(|e| {
            e.as_object()?.iter().find_map(|(k, v)| {
                matches!(
                    words(k).concat().as_str(),
                    "newtext" | "newstring" | "replacement" | "newcontent"
                )
                .then_some(v.as_str()?)
            })
        })
        .collect();
    (!new.is_empty()).then(|| new.join("\n"))
}
