//! Gemini CLI chats (TRANSCRIPTS.md §4): one JSON document with `messages[]`, whose entries
//! become `SessionStart`, `UserPromptSubmit`, `PreToolUse` + `PostToolUse` /
//! `PostToolUseFailure` and `Stop` payloads, Gemini tool names mapped to Claude Code ones.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Format, Item, Log, content_text, log_fields, str_of};
use crate::dialect::Dialect;
use crate::seam::Seam;

/// Gemini tool name → (Claude Code tool name, argument renames).
fn gemini_tool(name: &str, args: &Value) -> (String, Value) {
    let mut input = match args {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    let rename = |input: &mut Map<String, Value>, from: &str, to: &str| {
        if !input.contains_key(to)
            && let Some(v) = input.get(from).cloned()
        {
            input.insert(to.to_string(), v);
        }
    };
    let tool = match name {
        "run_shell_command" => "Bash",
        "read_file" | "read_many_files" => {
            rename(&mut input, "absolute_path", "file_path");
            "Read"
        }
        "write_file" => "Write",
        "replace" => "Edit",
        "list_directory" => {
            rename(&mut input, "dir_path", "path");
            "LS"
        }
        "glob" => {
            rename(&mut input, "dir_path", "path");
            "Glob"
        }
        "search_file_content" => {
            rename(&mut input, "dir_path", "path");
            "Grep"
        }
        "google_web_search" => "WebSearch",
        "web_fetch" => "WebFetch",
        other => other,
    };
    (tool.to_string(), Value::Object(input))
}

/// The events of a Gemini chat document, in message order (line: 1-based message index).
pub(super) fn events(file: &Arc<str>, doc: &Map<String, Value>) -> Vec<Item> {
    let mut out = Vec::new();
    let sid = str_of(doc, "sessionId").unwrap_or("").to_string();
    let Some(Value::Array(messages)) = doc.get("messages") else {
        return out;
    };
    let base = |name: &str, cwd: Option<&str>| {
        let mut p = Map::new();
        p.insert("session_id".into(), Value::String(sid.clone()));
        log_fields(&mut p, file, cwd);
        p.insert("hook_event_name".into(), Value::String(name.to_string()));
        p
    };
    let log = Log {
        file: file.clone(),
        format: Format::GeminiChat,
        dialect: Dialect::ClaudeCode,
    };
    let emit = |out: &mut Vec<Item>, i: usize, seam: Seam, p: Map<String, Value>| {
        out.push(log.event(i, seam, p));
    };
    // The end of a turn: a stop at the line of its last assistant message.
    let stop = |out: &mut Vec<Item>, (line, last): (usize, String)| {
        let mut p = base("Stop", None);
        p.insert("stop_hook_active".into(), Value::Bool(false));
        p.insert("last_assistant_message".into(), Value::String(last));
        emit(out, line, Seam::Stop, p);
    };
    let mut pending_stop: Option<(usize, String)> = None;
    for (k, msg) in messages.iter().enumerate() {
        let i = k + 1;
        if k == 0 {
            let mut p = base("SessionStart", None);
            p.insert("source".into(), Value::String("startup".into()));
            emit(&mut out, i, Seam::SessionStart, p);
        }
        let ty = msg.get("type").and_then(Value::as_str).unwrap_or("");
        match ty {
            "user" => {
                let text = msg.get("content").map(content_text).unwrap_or_default();
                if text.trim().is_empty() {
                    continue;
                }
                if let Some(pending) = pending_stop.take() {
                    stop(&mut out, pending);
                }
                let mut p = base("UserPromptSubmit", None);
                p.insert("prompt".into(), Value::String(text));
                emit(&mut out, i, Seam::PromptSubmit, p);
            }
            "gemini" => {
                let calls = msg
                    .get("toolCalls")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                for c in calls {
                    let name = c.get("name").and_then(Value::as_str).unwrap_or("");
                    let id = c.get("id").and_then(Value::as_str).unwrap_or("");
                    let args = c.get("args").cloned().unwrap_or(Value::Null);
                    let (tool, input) = gemini_tool(name, &args);
                    let cwd = args.get("dir_path").and_then(Value::as_str);
                    let mut p = base("PreToolUse", cwd);
                    p.insert("tool_name".into(), Value::String(tool.clone()));
                    p.insert("tool_input".into(), input.clone());
                    p.insert("tool_use_id".into(), Value::String(id.to_string()));
                    emit(&mut out, i, Seam::PreTool, p);
                    let status = c.get("status").and_then(Value::as_str).unwrap_or("");
                    let response = c
                        .get("result")
                        .and_then(Value::as_array)
                        .and_then(|r| r.first())
                        .and_then(|r| r.get("functionResponse"))
                        .and_then(|r| r.get("response"))
                        .cloned()
                        .unwrap_or(Value::Null);
                    if status == "success" {
                        let mut p = base("PostToolUse", cwd);
                        p.insert("tool_name".into(), Value::String(tool));
                        p.insert("tool_input".into(), input);
                        p.insert("tool_response".into(), response);
                        p.insert("tool_use_id".into(), Value::String(id.to_string()));
                        emit(&mut out, i, Seam::PostTool, p);
                    } else if !status.is_empty() {
                        let err = response
                            .get("error")
                            .or_else(|| response.get("output"))
                            .map(|v| match v {
                                Value::String(s) => s.clone(),
                                o => o.to_string(),
                            })
                            .unwrap_or_else(|| status.to_string());
                        let mut p = base("PostToolUseFailure", cwd);
                        p.insert("tool_name".into(), Value::String(tool));
                        p.insert("tool_input".into(), input);
                        p.insert("tool_use_id".into(), Value::String(id.to_string()));
                        p.insert("error".into(), Value::String(err));
                        if status == "cancelled" {
                            p.insert("is_interrupt".into(), Value::Bool(true));
                        }
                        emit(&mut out, i, Seam::PostToolFailure, p);
                    }
                }
                let text = msg.get("content").map(content_text).unwrap_or_default();
                if !text.trim().is_empty() {
                    pending_stop = Some((i, text));
                }
            }
            _ => {}
        }
    }
    if let Some(pending) = pending_stop.take() {
        stop(&mut out, pending);
    }
    out
}
