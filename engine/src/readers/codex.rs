//! Codex rollouts (TRANSCRIPTS.md §3): `{timestamp, type, payload}` lines become
//! `SessionStart`, `UserPromptSubmit`, `PreToolUse` / `PostToolUse` (shell calls as `Bash`
//! with a command string; the tool calls inside a code-mode `exec` call one by one, see
//! [`code_mode`]), `Stop` and `PreCompact` payloads in the Codex dialect.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde_json::{Map, Value, json};

pub use super::codex_tools::argv_to_command;
use super::codex_tools::codex_tool;
use super::{Format, Item, Log, ProblemKind, ReadProblem, code_mode, log_fields, str_of};
use crate::dialect::Dialect;
use crate::seam::Seam;

/// Whether `t` is a Codex rollout record type.
pub(super) fn is_record_type(t: &str) -> bool {
    matches!(
        t,
        "session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted"
    )
}

/// One hook call a recorded call is replayed as.
struct Replayed {
    /// Its `tool_use_id`.
    id: String,
    /// Its `tool_name`.
    tool: String,
    /// Its `tool_input`.
    input: Value,
    /// Its folder, when not the session's (a code-mode call's `workdir`).
    cwd: Option<String>,
}

impl Replayed {
    /// Put the call's fields into a payload.
    fn fill(&self, p: &mut Map<String, Value>) {
        if let Some(c) = &self.cwd {
            p.insert("cwd".into(), Value::String(c.clone()));
        }
        p.insert("tool_name".into(), Value::String(self.tool.clone()));
        p.insert("tool_use_id".into(), Value::String(self.id.clone()));
        p.insert("tool_input".into(), self.input.clone());
    }
}

/// The state of one rollout: session, turn, model, and the tool calls not answered yet.
pub(super) struct CodexState {
    log: Log,
    session_id: String,
    cwd: Option<String>,
    model: Option<String>,
    /// Recorded turn id (newer builds).
    turn_id: Option<String>,
    /// User prompts seen (synthetic turn ids `turn-N`).
    turns: usize,
    sessions: usize,
    /// Recorded call id → the hook calls it was replayed as (one, or one per tool call of a
    /// code-mode `exec`).
    calls: HashMap<String, Vec<Replayed>>,
    /// A prompt waiting for the turn context that follows it: (line, text).
    pending_prompt: Option<(usize, String)>,
    /// The last agent message of the turn: (line, text), for builds without `task_complete`.
    pending_stop: Option<(usize, String)>,
    /// The current turn ended (`task_complete` / `turn_aborted`).
    turn_closed: bool,
}

impl CodexState {
    pub(super) fn new(file: Arc<str>) -> CodexState {
        CodexState {
            log: Log {
                file,
                format: Format::CodexRollout,
                dialect: Dialect::Codex,
            },
            session_id: String::new(),
            cwd: None,
            model: None,
            turn_id: None,
            turns: 0,
            sessions: 0,
            calls: HashMap::new(),
            pending_prompt: None,
            pending_stop: None,
            turn_closed: true,
        }
    }

    fn base(&self, name: &str, turn: bool) -> Map<String, Value> {
        let mut p = Map::new();
        p.insert("session_id".into(), Value::String(self.session_id.clone()));
        if turn {
            let t = self
                .turn_id
                .clone()
                .unwrap_or_else(|| format!("turn-{}", self.turns));
            p.insert("turn_id".into(), Value::String(t));
        }
        log_fields(&mut p, &self.log.file, self.cwd.as_deref());
        p.insert("hook_event_name".into(), Value::String(name.to_string()));
        if let Some(m) = &self.model {
            p.insert("model".into(), Value::String(m.clone()));
        }
        p
    }

    fn flush_prompt(&mut self, out: &mut VecDeque<Item>) {
        if let Some((line, text)) = self.pending_prompt.take() {
            let mut p = self.base("UserPromptSubmit", true);
            p.insert("prompt".into(), Value::String(text));
            out.push_back(self.log.event(line, Seam::PromptSubmit, p));
        }
    }

    fn stop(&mut self, out: &mut VecDeque<Item>, line: usize, last: Option<String>) {
        let mut p = self.base("Stop", true);
        p.insert("stop_hook_active".into(), Value::Bool(false));
        p.insert(
            "last_assistant_message".into(),
            last.map_or(Value::Null, Value::String),
        );
        out.push_back(self.log.event(line, Seam::Stop, p));
    }

    fn close_turn(&mut self, out: &mut VecDeque<Item>) {
        if !self.turn_closed
            && let Some((line, text)) = self.pending_stop.take()
        {
            self.stop(out, line, Some(text));
        }
        self.pending_stop = None;
        self.turn_closed = true;
    }

    pub(super) fn end(&mut self, out: &mut VecDeque<Item>) {
        self.flush_prompt(out);
        self.close_turn(out);
    }

    fn pre_tool(
        &mut self,
        out: &mut VecDeque<Item>,
        line: usize,
        call_id: &str,
        name: &str,
        input: Value,
    ) {
        let call = Replayed {
            id: call_id.to_string(),
            tool: name.to_string(),
            input,
            cwd: None,
        };
        self.replay_calls(out, line, call_id, vec![call]);
    }

    /// The `PreToolUse` events of the hook calls one recorded call `call_id` is replayed as.
    fn replay_calls(
        &mut self,
        out: &mut VecDeque<Item>,
        line: usize,
        call_id: &str,
        calls: Vec<Replayed>,
    ) {
        self.flush_prompt(out);
        for c in &calls {
            let mut p = self.base("PreToolUse", true);
            c.fill(&mut p);
            out.push_back(self.log.event(line, Seam::PreTool, p));
        }
        self.calls.insert(call_id.to_string(), calls);
    }

    /// A code-mode `exec` call: one `PreToolUse` per tool call in its code, as that tool
    /// (`tools.exec_command` → `Bash` in its `workdir`), with the id `<call id>#<n>`; what of
    /// the code cannot be read is one more `exec` call holding the source of those parts as its
    /// `input`, which the engine asks about once with their causes (`code_mode::judge`).
    fn code_mode(&mut self, out: &mut VecDeque<Item>, line: usize, call_id: &str, code: &str) {
        let u = code_mode::unwrap(code);
        let mut calls: Vec<Replayed> = u
            .calls
            .into_iter()
            .enumerate()
            .map(|(i, c)| Replayed {
                id: format!("{call_id}#{}", i + 1),
                cwd: code_mode::resolve_dir(self.cwd.as_deref(), c.workdir.as_deref()),
                tool: c.tool_name,
                input: c.tool_input,
            })
            .collect();
        if !u.unresolved.is_empty() {
            let mut parts: Vec<&str> = Vec::new();
            for p in &u.unresolved {
                if !parts.contains(&p.source.as_str()) {
                    parts.push(&p.source);
                }
            }
            calls.push(Replayed {
                id: call_id.to_string(),
                tool: code_mode::EXEC_TOOL.to_string(),
                input: json!({ "input": parts.join(";\n") }),
                cwd: None,
            });
        }
        self.replay_calls(out, line, call_id, calls);
    }

    pub(super) fn record(&mut self, line: usize, m: &Map<String, Value>, out: &mut VecDeque<Item>) {
        let ty = str_of(m, "type").unwrap_or("");
        let Some(Value::Object(p)) = m.get("payload") else {
            return;
        };
        let pty = str_of(p, "type").unwrap_or("");
        match (ty, pty) {
            ("session_meta", _) => {
                self.flush_prompt(out);
                let id = str_of(p, "id").unwrap_or("").to_string();
                let resumed = self.sessions > 0 && id == self.session_id;
                self.sessions += 1;
                self.session_id = id;
                if let Some(c) = str_of(p, "cwd") {
                    self.cwd = Some(c.to_string());
                }
                if resumed {
                    return;
                }
                let mut e = self.base("SessionStart", false);
                e.insert("source".into(), Value::String("startup".into()));
                out.push_back(self.log.event(line, Seam::SessionStart, e));
            }
            ("turn_context", _) => {
                if let Some(c) = str_of(p, "cwd") {
                    self.cwd = Some(c.to_string());
                }
                if let Some(mo) = str_of(p, "model") {
                    self.model = Some(mo.to_string());
                }
                if let Some(t) = str_of(p, "turn_id") {
                    self.turn_id = Some(t.to_string());
                }
                self.flush_prompt(out);
            }
            ("compacted", _) => {
                self.flush_prompt(out);
                let mut e = self.base("PreCompact", true);
                e.insert("trigger".into(), Value::String("auto".into()));
                out.push_back(self.log.event(line, Seam::PreCompact, e));
            }
            ("event_msg", "task_started") => {
                if let Some(t) = str_of(p, "turn_id") {
                    self.turn_id = Some(t.to_string());
                }
            }
            ("event_msg", "user_message") => {
                self.flush_prompt(out);
                self.close_turn(out);
                self.turns += 1;
                self.turn_closed = false;
                if str_of(p, "kind").is_some_and(|k| k != "plain") {
                    // Injected context (older VS Code builds), not a human prompt.
                    return;
                }
                let text = str_of(p, "message").unwrap_or("").to_string();
                self.pending_prompt = Some((line, text));
            }
            ("event_msg", "agent_message") => {
                self.flush_prompt(out);
                let text = str_of(p, "message").unwrap_or("").to_string();
                self.pending_stop = Some((line, text));
            }
            ("event_msg", "task_complete") => {
                self.flush_prompt(out);
                if let Some(t) = str_of(p, "turn_id") {
                    self.turn_id = Some(t.to_string());
                }
                let last = str_of(p, "last_agent_message").map(str::to_string);
                self.stop(out, line, last);
                self.pending_stop = None;
                self.turn_closed = true;
            }
            ("event_msg", "turn_aborted") => {
                // An interrupted turn does not run Stop hooks.
                self.flush_prompt(out);
                self.pending_stop = None;
                self.turn_closed = true;
            }
            ("response_item", "function_call") => {
                let name = str_of(p, "name").unwrap_or("");
                let call_id = str_of(p, "call_id").unwrap_or("");
                let raw = str_of(p, "arguments").unwrap_or("{}");
                let args: Value = match super::json::json_value(raw.as_bytes()) {
                    Ok(v) => v,
                    Err(e) => {
                        out.push_back(Item::Problem(ReadProblem {
                            file: self.log.file.clone(),
                            line,
                            kind: ProblemKind::Skipped,
                            message: format!(
                                "`{name}` call with arguments that are not JSON ({e}); replayed with the raw text"
                            ),
                        }));
                        Value::String(raw.to_string())
                    }
                };
                // `write_stdin` types text into a running `exec_command` session. The live
                // hook never sees it (it does not trigger PreToolUse), but what it types can
                // be a command line: replay judges it as a `write_stdin` call whose `chars`
                // the shell lens reads.
                let (tool, input) = codex_tool(name, &args);
                self.pre_tool(out, line, call_id, &tool, input);
            }
            ("response_item", "custom_tool_call") => {
                let name = str_of(p, "name").unwrap_or("");
                let call_id = str_of(p, "call_id").unwrap_or("");
                if name == code_mode::EXEC_TOOL
                    && let Some(code) = str_of(p, "input")
                {
                    self.code_mode(out, line, call_id, code);
                    return;
                }
                let input = p.get("input").cloned().unwrap_or(Value::Null);
                let input = if name == "apply_patch" {
                    json!({ "command": input })
                } else {
                    input
                };
                self.pre_tool(out, line, call_id, name, input);
            }
            ("response_item", "local_shell_call") => {
                let call_id = str_of(p, "call_id")
                    .or_else(|| str_of(p, "id"))
                    .unwrap_or("");
                let argv: Vec<String> = p
                    .get("action")
                    .and_then(|a| a.get("command"))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let input = json!({ "command": argv_to_command(&argv) });
                self.pre_tool(out, line, call_id, "Bash", input);
            }
            ("response_item", "function_call_output" | "custom_tool_call_output") => {
                let call_id = str_of(p, "call_id").unwrap_or("");
                let Some(calls) = self.calls.remove(call_id) else {
                    return;
                };
                // The output of a code-mode call is the whole cell's: each of its calls is
                // answered with it.
                let output = p.get("output").cloned().unwrap_or(Value::Null);
                for c in calls {
                    let mut e = self.base("PostToolUse", true);
                    c.fill(&mut e);
                    e.insert("tool_response".into(), output.clone());
                    out.push_back(self.log.event(line, Seam::PostTool, e));
                }
            }
            _ => {}
        }
    }
}
