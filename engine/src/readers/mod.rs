//! Streaming readers of recorded agent sessions: every file becomes a sequence of hook
//! payloads, as the host would have sent them, each with its source location.
//!
//! The format is detected per file (`../shared/protocols/TRANSCRIPTS.md`):
//!
//! | format | detected by | events produced |
//! |---|---|---|
//! | hook-payload log | a line with `hook_event_name`, a Copilot CLI payload (`toolName` / `toolArgs`, or a numeric `timestamp`, and no `type`), a wrapper line `{"payload": {…}}` (PAI `capture-all-events`, `hook_event_type`), or a JSON array of payloads | the payloads as recorded; Gemini CLI, Cursor and Copilot CLI payloads rewritten into the common payload of their seam, as `hook` rewrites them |
//! | Claude Code transcript | lines with `type` + `uuid` / `sessionId` / `parentUuid` (also a JSON array of such lines, as in `logs/chat.json`) | `SessionStart` (first line of the session; `compact` after a compaction, preceded by `PreCompact`), `UserPromptSubmit` (human prompts), `PreToolUse` per `tool_use`, `PostToolUse` / `PostToolUseFailure` (`is_error`) per `tool_result`, `Stop` at the end of each assistant turn; in sub-agent files (`isSidechain`) `SubagentStart` / `SubagentStop` instead of session start, prompts and stop |
//! | Codex rollout | lines `{timestamp, type, payload}` with a rollout `type` | `SessionStart` (`session_meta`), `UserPromptSubmit` (`user_message`), `PreToolUse` per call (`shell` / `shell_command` / `exec_command` / `local_shell_call` → `Bash` with a command string; `apply_patch` with the patch as `command`; `write_stdin` as itself, its `chars` read as a command line; a code-mode `exec` call as one call per tool call in its JavaScript, see [`code_mode`]), `PostToolUse` per output, `Stop` (`task_complete`, or the last agent message of a turn in builds without it), `PreCompact` (`compacted`) |
//! | Gemini CLI chat | one JSON document with `messages[]` | `SessionStart`, `UserPromptSubmit`, `PreToolUse` + `PostToolUse` / `PostToolUseFailure` per `toolCalls[]` entry (Gemini tool names mapped to Claude Code ones: `run_shell_command` → `Bash`, `read_file` → `Read`, …), `Stop` |
//!
//! Payloads carry what the host's hook would have received: Claude Code payloads have
//! `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `tool_use_id`, …; Codex payloads
//! add `turn_id` and `model` (the Codex dialect, HOOKS.md B2). `turn_id` is the recorded one
//! when the rollout has it and `turn-N` (N counts user prompts) in older builds.
//!
//! **Streaming.** JSON Lines files (and top-level JSON arrays) are read one record at a time:
//! memory stays flat whatever the file size (the only state kept is the tool calls that have
//! not been answered yet). A Gemini chat (or any other single JSON document) is parsed whole.
//!
//! **Errors never stop a file.** An unreadable line (invalid JSON, not UTF-8, too long), a
//! truncated last line or array, a binary file, an unknown record type: each becomes a
//! [`ReadProblem`] with `file:line`, and the rest of the file is still read.
//!
//! ```
//! use seamguard_engine::readers::{EventReader, Item};
//!
//! let log = "{\"session_id\":\"s\",\"cwd\":\"/w\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}\nnot json\n";
//! let items: Vec<Item> = EventReader::from_reader("log.jsonl", log.as_bytes()).collect();
//! assert!(matches!(&items[0], Item::Event(e) if e.line == 1 && e.payload["tool_name"] == "Bash"));
//! assert!(matches!(&items[1], Item::Problem(p) if p.line == 2));
//! ```
//!
//! # Layout
//!
//! - `frame`: the [`EventReader`]: line reading, streamed arrays and whole documents, format
//!   detection per record, and the problem records for what cannot be read;
//! - `lean`: decoding a record without its tool-result bodies ([`ReadOptions`]);
//! - `payload_log`: hook payloads as logged (bare or wrapped);
//! - `claude_code`: Claude Code transcripts;
//! - `codex`: Codex rollouts (and the argv → command string of their shell calls);
//! - [`code_mode`]: the tool calls inside a Codex code-mode `exec` call's JavaScript;
//! - `gemini`: Gemini CLI chats.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::seam::Seam;

mod claude_code;
pub mod code_mode;
mod codex;
mod codex_tools;
mod frame;
mod gemini;
mod json;
mod lean;
mod payload_log;

pub use codex::argv_to_command;
pub use frame::{EventReader, MAX_DOCUMENT_BYTES, MAX_LINE_BYTES};

/// What a reader may leave undecoded: nothing by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Read the tool-result bodies of JSON Lines records as `null` without building them: a
    /// post-tool payload's `tool_response` (and a Claude Code tool failure's `error` text,
    /// then empty). For a replay in which nothing reads them: no rule at the post-tool
    /// seams. Everything else, the events and problems included, is what a full read gives.
    /// Where the bodies are, per format, is listed in the `lean` module; whole documents
    /// (Gemini CLI chats, JSON arrays) are always read in full.
    pub skip_tool_results: bool,
}

/// The on-disk format a record was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Hook payloads as a logging hook wrote them (TRANSCRIPTS.md §2).
    HookLog,
    /// A Claude Code session transcript (TRANSCRIPTS.md §1).
    ClaudeTranscript,
    /// A Codex rollout (TRANSCRIPTS.md §3).
    CodexRollout,
    /// A Gemini CLI chat recording (TRANSCRIPTS.md §4).
    GeminiChat,
}

impl Format {
    /// Short name: `hook-log`, `claude-transcript`, `codex-rollout`, `gemini-chat`.
    pub fn name(self) -> &'static str {
        match self {
            Format::HookLog => "hook-log",
            Format::ClaudeTranscript => "claude-transcript",
            Format::CodexRollout => "codex-rollout",
            Format::GeminiChat => "gemini-chat",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One hook event reconstructed from a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedEvent {
    /// The file it was read from, as given.
    pub file: Arc<str>,
    /// 1-based line of the record (JSON arrays and Gemini chats: 1-based entry index).
    pub line: usize,
    /// The format of the file.
    pub format: Format,
    /// The host protocol the payload is in.
    pub dialect: Dialect,
    /// The seam it is evaluated at.
    pub seam: Seam,
    /// The hook payload (what the host would have written to the hook's stdin).
    pub payload: Value,
}

impl RecordedEvent {
    /// `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// How bad a [`ReadProblem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The record could not be read (invalid JSON, not UTF-8, truncated, binary file, a
    /// hook payload that does not decode).
    Unreadable,
    /// The record was read but not replayed (unknown record type, an event without a seam,
    /// a tool result without its call).
    Skipped,
}

impl ProblemKind {
    /// `error` or `skipped`.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Unreadable => "error",
            ProblemKind::Skipped => "skipped",
        }
    }
}

/// A record that was not turned into an event, with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadProblem {
    /// The file, as given.
    pub file: Arc<str>,
    /// 1-based line (or entry index); 0 when the whole file is concerned (cannot open).
    pub line: usize,
    /// Unreadable or skipped.
    pub kind: ProblemKind,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file,
            self.line,
            self.kind.name(),
            self.message
        )
    }
}

/// What a reader yields: an event or a problem, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A reconstructed hook event.
    Event(RecordedEvent),
    /// A record that was not replayed.
    Problem(ReadProblem),
}

/// The recorded files under `inputs`: files as given, folders walked recursively for
/// `*.jsonl` / `*.json` files, each folder's files in name order.
pub fn collect_files(inputs: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "jsonl" || x == "json") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// The log file as `transcript_path` and the working folder as `cwd` (when known), as the
/// payloads a transcript reader makes carry them.
fn log_fields(p: &mut Map<String, Value>, file: &str, cwd: Option<&str>) {
    p.insert("transcript_path".into(), Value::String(file.to_string()));
    if let Some(c) = cwd {
        p.insert("cwd".into(), Value::String(c.to_string()));
    }
}

/// The string at `k`, if it is one.
fn str_of<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

/// The log a transcript reader reads: the file, its format, and the dialect of the payloads
/// the reader makes of it.
struct Log {
    file: Arc<str>,
    format: Format,
    dialect: Dialect,
}

impl Log {
    /// An event at `line` of the log.
    fn event(&self, line: usize, seam: Seam, payload: Map<String, Value>) -> Item {
        Item::Event(RecordedEvent {
            file: self.file.clone(),
            line,
            format: self.format,
            dialect: self.dialect,
            seam,
            payload: Value::Object(payload),
        })
    }
}

/// The text of a content value: a string, or the `text` of its text blocks.
fn content_text(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| {
                if b.get("type").and_then(Value::as_str) == Some("text") {
                    b.get("text").and_then(Value::as_str)
                } else {
                    b.as_str()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
