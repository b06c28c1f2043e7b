//! Streaming readers of recorded agent sessions: every file becomes a sequence of hook
//! payloads, as the host would have sent them, each with its source location.
//!
//! The format is detected per file (`../shared/protocols/TRANSCRIPTS.md`):
//!
//! | format | detected by | events produced |
//! |---|---|---|
//! | hook-payload log | a line with `hook_event_name`, a wrapper line `{"payload": {…}}` (PAI `capture-all-events`, `hook_event_type`), or a JSON array of payloads | the payloads as recorded |
//! | Claude Code transcript | lines with `type` + `uuid` / `sessionId` / `parentUuid` (also a JSON array of such lines, as in `logs/chat.json`) | `SessionStart` (first line of the session; `compact` after a compaction, preceded by `PreCompact`), `UserPromptSubmit` (human prompts), `PreToolUse` per `tool_use`, `PostToolUse` / `PostToolUseFailure` (`is_error`) per `tool_result`, `Stop` at the end of each assistant turn; in sub-agent files (`isSidechain`) `SubagentStart` / `SubagentStop` instead of session start, prompts and stop |
//! | Codex rollout | lines `{timestamp, type, payload}` with a rollout `type` | `SessionStart` (`session_meta`), `UserPromptSubmit` (`user_message`), `PreToolUse` per call (`shell` / `shell_command` / `exec_command` / `local_shell_call` → `Bash` with a command string; `apply_patch` with the patch as `command`), `PostToolUse` per output, `Stop` (`task_complete`, or the last agent message of a turn in builds without it), `PreCompact` (`compacted`) |
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

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::dialect::Dialect;
use crate::event::HookEvent;
use crate::seam::Seam;

/// Longest line read (longer lines are reported and skipped).
pub const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;

/// Largest single JSON document read whole (Gemini chats, pretty-printed payloads).
pub const MAX_DOCUMENT_BYTES: u64 = 512 * 1024 * 1024;

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

/// Quote one word for a POSIX shell (as `shlex` does): bare when it only has safe
/// characters, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\"'\"'"))
}

/// The command string a hook sees for an argv (Codex `shell`, `local_shell_call`):
/// `bash -lc SCRIPT` (and `sh`/`zsh`, `-c`/`-lc`) gives the script; anything else is joined
/// with shell quoting.
pub fn argv_to_command(argv: &[String]) -> String {
    if let [shell, flag, script] = argv {
        let base = shell.rsplit(['/', '\\']).next().unwrap_or(shell);
        if matches!(base, "bash" | "sh" | "zsh" | "dash" | "ksh")
            && matches!(flag.as_str(), "-c" | "-lc" | "-cl" | "-l -c")
        {
            return script.clone();
        }
    }
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

enum Mode {
    /// JSON Lines.
    Lines,
    /// A top-level JSON array, element by element.
    Array { index: usize, started: bool },
    /// Everything already produced (whole documents).
    Done,
}

/// A streaming reader of one recorded file. Never fails: problems are yielded as
/// [`Item::Problem`] in file order.
pub struct EventReader {
    file: Arc<str>,
    input: Box<dyn BufRead>,
    mode: Mode,
    line_no: usize,
    buf: Vec<u8>,
    out: VecDeque<Item>,
    finished: bool,
    claude: ClaudeState,
    codex: CodexState,
    audit_noted: bool,
}

impl fmt::Debug for EventReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventReader")
            .field("file", &self.file)
            .field("line", &self.line_no)
            .finish_non_exhaustive()
    }
}

impl EventReader {
    /// Open a file; a file that cannot be opened yields one problem.
    pub fn open(path: &Path) -> EventReader {
        let name = path.display().to_string();
        match File::open(path) {
            Ok(f) => EventReader::from_reader(&name, BufReader::with_capacity(256 * 1024, f)),
            Err(e) => {
                let mut r = EventReader::from_reader(&name, std::io::empty());
                r.finished = true;
                r.mode = Mode::Done;
                r.out.push_back(Item::Problem(ReadProblem {
                    file: r.file.clone(),
                    line: 0,
                    kind: ProblemKind::Unreadable,
                    message: format!("cannot open: {e}"),
                }));
                r
            }
        }
    }

    /// Read from any buffered source; `name` is used in locations.
    pub fn from_reader(name: &str, input: impl BufRead + 'static) -> EventReader {
        let file: Arc<str> = Arc::from(name);
        let mut r = EventReader {
            claude: ClaudeState::new(file.clone()),
            codex: CodexState::new(file.clone()),
            file,
            input: Box::new(input),
            mode: Mode::Lines,
            line_no: 0,
            buf: Vec::new(),
            out: VecDeque::new(),
            finished: false,
            audit_noted: false,
        };
        r.detect();
        r
    }

    /// The file name used in locations.
    pub fn file(&self) -> &str {
        &self.file
    }

    fn problem(&mut self, line: usize, kind: ProblemKind, message: String) {
        self.out.push_back(Item::Problem(ReadProblem {
            file: self.file.clone(),
            line,
            kind,
            message,
        }));
    }

    /// Decide between JSON Lines, a streamed array, and a whole document.
    fn detect(&mut self) {
        let head: Vec<u8> = match self.input.fill_buf() {
            Ok(b) => b.iter().take(8192).copied().collect(),
            Err(e) => {
                self.problem(0, ProblemKind::Unreadable, format!("cannot read: {e}"));
                self.finish();
                return;
            }
        };
        if head.contains(&0) {
            self.problem(
                1,
                ProblemKind::Unreadable,
                "binary file (NUL bytes; not a JSON recording), skipped".into(),
            );
            self.finish();
            return;
        }
        let first = head.iter().find(|c| !c.is_ascii_whitespace()).copied();
        match first {
            Some(b'[') => {
                self.mode = Mode::Array {
                    index: 0,
                    started: false,
                }
            }
            Some(b'{') => {
                // One object per line, or one (pretty-printed) document?
                if !self.read_line() {
                    self.finish();
                    return;
                }
                let line = std::mem::take(&mut self.buf);
                match serde_json::from_slice::<Value>(&line) {
                    Ok(v) => {
                        let n = self.line_no;
                        self.record(n, v);
                    }
                    Err(e) if e.is_eof() => {
                        let mut doc = line;
                        let limit = MAX_DOCUMENT_BYTES.saturating_sub(doc.len() as u64);
                        if let Err(e) = (&mut self.input).take(limit).read_to_end(&mut doc) {
                            self.problem(1, ProblemKind::Unreadable, format!("cannot read: {e}"));
                        }
                        self.document(&doc);
                        self.finish();
                    }
                    Err(e) => {
                        let n = self.line_no;
                        self.bad_line(n, &line, &e);
                    }
                }
            }
            _ => {}
        }
    }

    /// Read the next line into `self.buf`; false at the end of input.
    fn read_line(&mut self) -> bool {
        loop {
            self.buf.clear();
            let r = (&mut self.input)
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut self.buf);
            match r {
                Ok(0) => return false,
                Ok(_) => {}
                Err(e) => {
                    let n = self.line_no + 1;
                    self.problem(n, ProblemKind::Unreadable, format!("read error: {e}"));
                    return false;
                }
            }
            self.line_no += 1;
            if self.buf.len() as u64 >= MAX_LINE_BYTES && self.buf.last() != Some(&b'\n') {
                // Skip the rest of the overlong line.
                let mut sink = Vec::new();
                loop {
                    sink.clear();
                    match (&mut self.input).take(1 << 20).read_until(b'\n', &mut sink) {
                        Ok(0) => break,
                        Ok(_) if sink.last() == Some(&b'\n') => break,
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
                let n = self.line_no;
                self.problem(
                    n,
                    ProblemKind::Unreadable,
                    format!("line longer than {MAX_LINE_BYTES} bytes, skipped"),
                );
                continue;
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return true;
        }
    }

    fn bad_line(&mut self, n: usize, line: &[u8], e: &serde_json::Error) {
        let msg = if std::str::from_utf8(line).is_err() {
            "not UTF-8 text (binary data?)".to_string()
        } else if e.is_eof() {
            if line.last() == Some(&b'\n') {
                format!("incomplete JSON record: {e}")
            } else {
                format!("truncated record at the end of the file: {e}")
            }
        } else {
            format!("invalid JSON: {e}")
        };
        self.problem(n, ProblemKind::Unreadable, msg);
    }

    /// A whole JSON document: a Gemini chat, one payload, or an array.
    fn document(&mut self, doc: &[u8]) {
        let v: Value = match serde_json::from_slice(doc) {
            Ok(v) => v,
            Err(e) => {
                let line = e.line().max(1);
                let msg = if e.is_eof() {
                    format!("truncated JSON document: {e}")
                } else {
                    format!("invalid JSON document: {e}")
                };
                self.problem(line, ProblemKind::Unreadable, msg);
                return;
            }
        };
        match v {
            Value::Object(m) if m.get("messages").is_some_and(Value::is_array) => {
                let items = gemini_events(&self.file, &m);
                self.out.extend(items);
            }
            Value::Array(items) => {
                for (i, v) in items.into_iter().enumerate() {
                    self.record(i + 1, v);
                }
            }
            other => self.record(1, other),
        }
    }

    fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        self.mode = Mode::Done;
        self.claude.end(&mut self.out);
        self.codex.end(&mut self.out);
    }

    /// Read the next unit of input into `out`; false when the input is exhausted.
    fn step(&mut self) -> bool {
        match self.mode {
            Mode::Done => false,
            Mode::Lines => {
                if !self.read_line() {
                    return false;
                }
                let line = std::mem::take(&mut self.buf);
                let n = self.line_no;
                match serde_json::from_slice::<Value>(&line) {
                    Ok(v) => self.record(n, v),
                    Err(e) => self.bad_line(n, &line, &e),
                }
                self.buf = line;
                true
            }
            Mode::Array { index, started } => self.array_step(index, started),
        }
    }

    /// Skip whitespace and separators of a top-level array; the next significant byte.
    fn skip_separators(&mut self) -> std::io::Result<Option<u8>> {
        loop {
            let (skip, found) = {
                let b = self.input.fill_buf()?;
                if b.is_empty() {
                    return Ok(None);
                }
                let mut skip = 0;
                let mut found = None;
                for &c in b {
                    if c.is_ascii_whitespace() || c == b',' {
                        skip += 1;
                    } else {
                        found = Some(c);
                        break;
                    }
                }
                (skip, found)
            };
            self.input.consume(skip);
            if found.is_some() {
                return Ok(found);
            }
        }
    }

    fn array_step(&mut self, index: usize, started: bool) -> bool {
        let next = match self.skip_separators() {
            Ok(n) => n,
            Err(e) => {
                self.problem(
                    index + 1,
                    ProblemKind::Unreadable,
                    format!("read error: {e}"),
                );
                return false;
            }
        };
        if !started {
            if next == Some(b'[') {
                self.input.consume(1);
                self.mode = Mode::Array {
                    index,
                    started: true,
                };
                return true;
            }
            return false;
        }
        match next {
            None => {
                self.problem(
                    index + 1,
                    ProblemKind::Unreadable,
                    format!(
                        "truncated JSON array: the file ends after {index} element(s) without `]`"
                    ),
                );
                false
            }
            Some(b']') => {
                self.input.consume(1);
                false
            }
            Some(_) => {
                let i = index + 1;
                self.mode = Mode::Array {
                    index: i,
                    started: true,
                };
                let mut de = serde_json::Deserializer::from_reader(&mut self.input);
                match Value::deserialize(&mut de) {
                    Ok(v) => {
                        self.record(i, v);
                        true
                    }
                    Err(e) => {
                        let msg = if e.is_eof() {
                            format!("truncated JSON array element {i}: {e}")
                        } else {
                            format!("invalid JSON in array element {i}: {e}")
                        };
                        self.problem(i, ProblemKind::Unreadable, msg);
                        // The stream position after a syntax error is unknown: stop here.
                        false
                    }
                }
            }
        }
    }

    /// Classify one record and turn it into events.
    fn record(&mut self, line: usize, v: Value) {
        let Value::Object(mut m) = v else {
            self.problem(
                line,
                ProblemKind::Skipped,
                "not a JSON object: not a hook payload or a transcript record".into(),
            );
            return;
        };
        // Hook payloads, bare or wrapped.
        if m.get("hook_event_name").is_some_and(Value::is_string) {
            self.hook_payload(line, Value::Object(m));
            return;
        }
        if m.get("payload").is_some_and(Value::is_object)
            && (m.contains_key("hook_event_type")
                || m.get("payload")
                    .and_then(|p| p.get("hook_event_name"))
                    .is_some())
        {
            let outer_name = m.get("hook_event_type").cloned();
            let Some(Value::Object(mut p)) = m.remove("payload") else {
                return;
            };
            if !p.contains_key("hook_event_name")
                && let Some(n) = outer_name
            {
                p.insert("hook_event_name".into(), n);
            }
            self.hook_payload(line, Value::Object(p));
            return;
        }
        let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
        if ty.starts_with("hook/") && m.contains_key("handler_id") {
            if !self.audit_noted {
                self.audit_noted = true;
                self.problem(
                    line,
                    ProblemKind::Skipped,
                    "a seamguard audit log: its records carry decisions, not payloads; nothing to replay".into(),
                );
            }
            return;
        }
        if m.contains_key("payload") && m.contains_key("timestamp") && is_codex_type(ty) {
            self.codex.record(line, &m, &mut self.out);
            return;
        }
        if is_claude_type(ty)
            || (!ty.is_empty()
                && (m.contains_key("uuid")
                    || m.contains_key("sessionId")
                    || m.contains_key("parentUuid")))
        {
            if is_claude_type(ty) {
                self.claude.record(line, &m, &mut self.out);
            } else {
                self.problem(
                    line,
                    ProblemKind::Skipped,
                    format!("unknown Claude Code transcript record type `{ty}`"),
                );
            }
            return;
        }
        let what = if ty.is_empty() {
            "unknown record: no `hook_event_name`, and not a transcript or rollout line".to_string()
        } else {
            format!("unknown record type `{ty}`")
        };
        self.problem(line, ProblemKind::Skipped, what);
    }

    fn hook_payload(&mut self, line: usize, p: Value) {
        match HookEvent::from_value(&p) {
            Ok(ev) => {
                let dialect = Dialect::detect(&p);
                self.out.push_back(Item::Event(RecordedEvent {
                    file: self.file.clone(),
                    line,
                    format: Format::HookLog,
                    dialect,
                    seam: ev.seam(),
                    payload: p,
                }));
            }
            Err(e @ crate::event::DecodeError::UnknownEvent(_)) => {
                self.problem(line, ProblemKind::Skipped, e.to_string());
            }
            Err(e) => self.problem(line, ProblemKind::Unreadable, e.to_string()),
        }
    }
}

impl Iterator for EventReader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(i) = self.out.pop_front() {
                return Some(i);
            }
            if self.finished {
                return None;
            }
            if !self.step() {
                self.finish();
            }
        }
    }
}

fn is_codex_type(t: &str) -> bool {
    matches!(
        t,
        "session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted"
    )
}

fn is_claude_type(t: &str) -> bool {
    matches!(
        t,
        "user"
            | "assistant"
            | "system"
            | "summary"
            | "file-history-snapshot"
            | "queue-operation"
            | "attachment"
            | "permission-mode"
            | "last-prompt"
            | "progress"
            | "ai-title"
            | "custom-title"
            | "tag"
    )
}

fn str_of<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

fn event(
    file: &Arc<str>,
    line: usize,
    format: Format,
    dialect: Dialect,
    seam: Seam,
    payload: Map<String, Value>,
) -> Item {
    Item::Event(RecordedEvent {
        file: file.clone(),
        line,
        format,
        dialect,
        seam,
        payload: Value::Object(payload),
    })
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

// ---------------------------------------------------------------------------------------
// Claude Code transcripts

struct ClaudeState {
    file: Arc<str>,
    started: bool,
    sidechain: bool,
    session_id: String,
    agent_id: Option<String>,
    cwd: Option<String>,
    permission_mode: Option<String>,
    /// tool_use id → (tool name, input).
    calls: HashMap<String, (String, Value)>,
    /// The last assistant text line of the current turn: (line, text).
    pending_stop: Option<(usize, String)>,
}

/// Human-prompt lines that are harness notes, not prompts (slash-command echoes, local
/// command output, interruptions).
fn is_harness_text(t: &str) -> bool {
    let t = t.trim_start();
    [
        "<command-name>",
        "<command-message>",
        "<command-args>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "<bash-input>",
        "<bash-stdout>",
        "<bash-stderr>",
        "[Request interrupted by user",
        "Caveat: The messages below were generated by the user while running local commands",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

impl ClaudeState {
    fn new(file: Arc<str>) -> ClaudeState {
        ClaudeState {
            file,
            started: false,
            sidechain: false,
            session_id: String::new(),
            agent_id: None,
            cwd: None,
            permission_mode: None,
            calls: HashMap::new(),
            pending_stop: None,
        }
    }

    fn base(&self, name: &str) -> Map<String, Value> {
        let mut p = Map::new();
        p.insert("session_id".into(), Value::String(self.session_id.clone()));
        p.insert(
            "transcript_path".into(),
            Value::String(self.file.to_string()),
        );
        if let Some(c) = &self.cwd {
            p.insert("cwd".into(), Value::String(c.clone()));
        }
        if let Some(pm) = &self.permission_mode
            && !matches!(name, "SessionStart" | "SubagentStart")
        {
            p.insert("permission_mode".into(), Value::String(pm.clone()));
        }
        p.insert("hook_event_name".into(), Value::String(name.to_string()));
        if self.sidechain
            && let Some(a) = &self.agent_id
        {
            p.insert("agent_id".into(), Value::String(a.clone()));
        }
        p
    }

    fn emit(&self, out: &mut VecDeque<Item>, line: usize, seam: Seam, p: Map<String, Value>) {
        out.push_back(event(
            &self.file,
            line,
            Format::ClaudeTranscript,
            Dialect::ClaudeCode,
            seam,
            p,
        ));
    }

    fn flush_stop(&mut self, out: &mut VecDeque<Item>) {
        if let Some((line, text)) = self.pending_stop.take() {
            let (name, seam) = if self.sidechain {
                ("SubagentStop", Seam::SubagentStop)
            } else {
                ("Stop", Seam::Stop)
            };
            let mut p = self.base(name);
            p.insert("stop_hook_active".into(), Value::Bool(false));
            p.insert("last_assistant_message".into(), Value::String(text));
            self.emit(out, line, seam, p);
        }
    }

    fn end(&mut self, out: &mut VecDeque<Item>) {
        self.flush_stop(out);
    }

    fn record(&mut self, line: usize, m: &Map<String, Value>, out: &mut VecDeque<Item>) {
        let ty = str_of(m, "type").unwrap_or("");
        if !matches!(ty, "user" | "assistant" | "system") {
            if ty == "permission-mode"
                && let Some(pm) = str_of(m, "permissionMode")
            {
                self.permission_mode = Some(pm.to_string());
            }
            return;
        }
        if let Some(c) = str_of(m, "cwd") {
            self.cwd = Some(c.to_string());
        }
        if let Some(pm) = str_of(m, "permissionMode") {
            self.permission_mode = Some(pm.to_string());
        }
        if !self.started {
            let Some(sid) = str_of(m, "sessionId") else {
                return;
            };
            self.started = true;
            self.session_id = sid.to_string();
            self.sidechain = m.get("isSidechain").and_then(Value::as_bool) == Some(true);
            self.agent_id = str_of(m, "agentId").map(str::to_string);
            if self.sidechain {
                let p = self.base("SubagentStart");
                self.emit(out, line, Seam::SubagentStart, p);
            } else {
                let mut p = self.base("SessionStart");
                p.insert("source".into(), Value::String("startup".into()));
                self.emit(out, line, Seam::SessionStart, p);
            }
        }
        match ty {
            "system" => {
                if str_of(m, "subtype") == Some("compact_boundary") && !self.sidechain {
                    self.flush_stop(out);
                    let trigger = m
                        .get("compactMetadata")
                        .and_then(|c| c.get("trigger"))
                        .and_then(Value::as_str)
                        .unwrap_or("auto")
                        .to_string();
                    let mut p = self.base("PreCompact");
                    p.insert("trigger".into(), Value::String(trigger));
                    p.insert("custom_instructions".into(), Value::String(String::new()));
                    self.emit(out, line, Seam::PreCompact, p);
                    let mut p = self.base("SessionStart");
                    p.insert("source".into(), Value::String("compact".into()));
                    self.emit(out, line, Seam::SessionStart, p);
                }
            }
            "assistant" => {
                let Some(Value::Array(blocks)) = m.get("message").and_then(|x| x.get("content"))
                else {
                    return;
                };
                let mut any_tool = false;
                let mut text: Option<String> = None;
                for b in blocks {
                    match b.get("type").and_then(Value::as_str) {
                        Some("tool_use") => {
                            any_tool = true;
                            let name = b.get("name").and_then(Value::as_str).unwrap_or("");
                            let id = b.get("id").and_then(Value::as_str).unwrap_or("");
                            let input = b.get("input").cloned().unwrap_or_else(|| json!({}));
                            let mut p = self.base("PreToolUse");
                            p.insert("tool_name".into(), Value::String(name.to_string()));
                            p.insert("tool_input".into(), input.clone());
                            p.insert("tool_use_id".into(), Value::String(id.to_string()));
                            self.emit(out, line, Seam::PreTool, p);
                            self.calls.insert(id.to_string(), (name.to_string(), input));
                        }
                        Some("text") => {
                            if let Some(t) = b.get("text").and_then(Value::as_str) {
                                text = Some(t.to_string());
                            }
                        }
                        _ => {}
                    }
                }
                if any_tool {
                    self.pending_stop = None;
                } else if let Some(t) = text {
                    self.pending_stop = Some((line, t));
                }
            }
            _ => self.user(line, m, out),
        }
    }

    fn user(&mut self, line: usize, m: &Map<String, Value>, out: &mut VecDeque<Item>) {
        let Some(content) = m.get("message").and_then(|x| x.get("content")) else {
            return;
        };
        let results: Vec<&Value> = match content {
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
                .collect(),
            _ => Vec::new(),
        };
        if !results.is_empty() {
            self.pending_stop = None;
            for r in results {
                self.tool_result(line, m, r, out);
            }
            return;
        }
        let flag = |k: &str| m.get(k).and_then(Value::as_bool) == Some(true);
        if flag("isMeta") || flag("isCompactSummary") || flag("isVisibleInTranscriptOnly") {
            return;
        }
        let text = content_text(content);
        let has_image = matches!(content, Value::Array(b) if b.iter().any(|x| x.get("type").and_then(Value::as_str) == Some("image")));
        if (text.trim().is_empty() && !has_image) || is_harness_text(&text) {
            return;
        }
        if self.sidechain {
            // The prompt of a sub-agent comes from the parent agent's Task call.
            return;
        }
        self.flush_stop(out);
        let mut p = self.base("UserPromptSubmit");
        p.insert("prompt".into(), Value::String(text));
        self.emit(out, line, Seam::PromptSubmit, p);
    }

    fn tool_result(
        &mut self,
        line: usize,
        m: &Map<String, Value>,
        r: &Value,
        out: &mut VecDeque<Item>,
    ) {
        let id = r.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
        let Some((name, input)) = self.calls.remove(id) else {
            out.push_back(Item::Problem(ReadProblem {
                file: self.file.clone(),
                line,
                kind: ProblemKind::Skipped,
                message: format!("tool_result for `{id}`, whose tool_use is not in this file"),
            }));
            return;
        };
        let is_error = r.get("is_error").and_then(Value::as_bool) == Some(true);
        let content = r.get("content").cloned().unwrap_or(Value::Null);
        if is_error {
            let mut p = self.base("PostToolUseFailure");
            p.insert("tool_name".into(), Value::String(name));
            p.insert("tool_input".into(), input);
            p.insert("tool_use_id".into(), Value::String(id.to_string()));
            let err = content_text(&content);
            let interrupted = err.contains("[Request interrupted by user");
            p.insert("error".into(), Value::String(err));
            if interrupted {
                p.insert("is_interrupt".into(), Value::Bool(true));
            }
            self.emit(out, line, Seam::PostToolFailure, p);
        } else {
            let response = m
                .get("toolUseResult")
                .filter(|v| !v.is_null())
                .cloned()
                .unwrap_or(content);
            let mut p = self.base("PostToolUse");
            p.insert("tool_name".into(), Value::String(name));
            p.insert("tool_input".into(), input);
            p.insert("tool_response".into(), response);
            p.insert("tool_use_id".into(), Value::String(id.to_string()));
            self.emit(out, line, Seam::PostTool, p);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Codex rollouts

struct CodexState {
    file: Arc<str>,
    session_id: String,
    cwd: Option<String>,
    model: Option<String>,
    /// Recorded turn id (newer builds).
    turn_id: Option<String>,
    /// User prompts seen (synthetic turn ids `turn-N`).
    turns: usize,
    sessions: usize,
    /// call id → (tool name, tool input).
    calls: HashMap<String, (String, Value)>,
    /// A prompt waiting for the turn context that follows it: (line, text).
    pending_prompt: Option<(usize, String)>,
    /// The last agent message of the turn: (line, text), for builds without `task_complete`.
    pending_stop: Option<(usize, String)>,
    /// The current turn ended (`task_complete` / `turn_aborted`).
    turn_closed: bool,
}

impl CodexState {
    fn new(file: Arc<str>) -> CodexState {
        CodexState {
            file,
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
        p.insert(
            "transcript_path".into(),
            Value::String(self.file.to_string()),
        );
        if let Some(c) = &self.cwd {
            p.insert("cwd".into(), Value::String(c.clone()));
        }
        p.insert("hook_event_name".into(), Value::String(name.to_string()));
        if let Some(m) = &self.model {
            p.insert("model".into(), Value::String(m.clone()));
        }
        p
    }

    fn emit(&self, out: &mut VecDeque<Item>, line: usize, seam: Seam, p: Map<String, Value>) {
        out.push_back(event(
            &self.file,
            line,
            Format::CodexRollout,
            Dialect::Codex,
            seam,
            p,
        ));
    }

    fn flush_prompt(&mut self, out: &mut VecDeque<Item>) {
        if let Some((line, text)) = self.pending_prompt.take() {
            let mut p = self.base("UserPromptSubmit", true);
            p.insert("prompt".into(), Value::String(text));
            self.emit(out, line, Seam::PromptSubmit, p);
        }
    }

    fn stop(&mut self, out: &mut VecDeque<Item>, line: usize, last: Option<String>) {
        let mut p = self.base("Stop", true);
        p.insert("stop_hook_active".into(), Value::Bool(false));
        p.insert(
            "last_assistant_message".into(),
            last.map_or(Value::Null, Value::String),
        );
        self.emit(out, line, Seam::Stop, p);
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

    fn end(&mut self, out: &mut VecDeque<Item>) {
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
        self.flush_prompt(out);
        let mut p = self.base("PreToolUse", true);
        p.insert("tool_name".into(), Value::String(name.to_string()));
        p.insert("tool_use_id".into(), Value::String(call_id.to_string()));
        p.insert("tool_input".into(), input.clone());
        self.emit(out, line, Seam::PreTool, p);
        self.calls
            .insert(call_id.to_string(), (name.to_string(), input));
    }

    fn record(&mut self, line: usize, m: &Map<String, Value>, out: &mut VecDeque<Item>) {
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
                self.emit(out, line, Seam::SessionStart, e);
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
                self.emit(out, line, Seam::PreCompact, e);
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
                let args: Value = match serde_json::from_str(raw) {
                    Ok(v) => v,
                    Err(e) => {
                        out.push_back(Item::Problem(ReadProblem {
                            file: self.file.clone(),
                            line,
                            kind: ProblemKind::Skipped,
                            message: format!(
                                "`{name}` call with arguments that are not JSON ({e}); replayed with the raw text"
                            ),
                        }));
                        Value::String(raw.to_string())
                    }
                };
                if name == "write_stdin" {
                    // Feeds a running exec_command session; never re-triggers PreToolUse.
                    return;
                }
                let (tool, input) = codex_tool(name, &args);
                self.pre_tool(out, line, call_id, &tool, input);
            }
            ("response_item", "custom_tool_call") => {
                let name = str_of(p, "name").unwrap_or("");
                let call_id = str_of(p, "call_id").unwrap_or("");
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
                let Some((name, input)) = self.calls.remove(call_id) else {
                    return;
                };
                let output = p.get("output").cloned().unwrap_or(Value::Null);
                let mut e = self.base("PostToolUse", true);
                e.insert("tool_name".into(), Value::String(name));
                e.insert("tool_use_id".into(), Value::String(call_id.to_string()));
                e.insert("tool_input".into(), input);
                e.insert("tool_response".into(), output);
                self.emit(out, line, Seam::PostTool, e);
            }
            _ => {}
        }
    }
}

/// Map a Codex function call to the tool name and input its hook receives (HOOKS.md B2).
fn codex_tool(name: &str, args: &Value) -> (String, Value) {
    let argv = |v: &Value| -> Option<Vec<String>> {
        v.as_array().map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
    };
    match name {
        "shell" | "container.exec" => {
            let cmd = match args.get("command") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => argv(v).map(|a| argv_to_command(&a)).unwrap_or_default(),
                None => String::new(),
            };
            ("Bash".into(), json!({ "command": cmd }))
        }
        "shell_command" => {
            let cmd = match args.get("command") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => argv(v).map(|a| argv_to_command(&a)).unwrap_or_default(),
                None => String::new(),
            };
            ("Bash".into(), json!({ "command": cmd }))
        }
        "exec_command" => {
            let cmd = match args.get("cmd").or_else(|| args.get("command")) {
                Some(Value::String(s)) => s.clone(),
                Some(v) => argv(v).map(|a| argv_to_command(&a)).unwrap_or_default(),
                None => String::new(),
            };
            ("Bash".into(), json!({ "command": cmd }))
        }
        "apply_patch" => {
            let patch = args
                .get("input")
                .or_else(|| args.get("patch"))
                .or_else(|| args.get("command"))
                .cloned()
                .unwrap_or_else(|| args.clone());
            ("apply_patch".into(), json!({ "command": patch }))
        }
        _ => (name.to_string(), args.clone()),
    }
}

// ---------------------------------------------------------------------------------------
// Gemini CLI chats

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

fn gemini_events(file: &Arc<str>, doc: &Map<String, Value>) -> Vec<Item> {
    let mut out = Vec::new();
    let sid = str_of(doc, "sessionId").unwrap_or("").to_string();
    let Some(Value::Array(messages)) = doc.get("messages") else {
        return out;
    };
    let base = |name: &str, cwd: Option<&str>| {
        let mut p = Map::new();
        p.insert("session_id".into(), Value::String(sid.clone()));
        p.insert("transcript_path".into(), Value::String(file.to_string()));
        if let Some(c) = cwd {
            p.insert("cwd".into(), Value::String(c.to_string()));
        }
        p.insert("hook_event_name".into(), Value::String(name.to_string()));
        p
    };
    let emit = |out: &mut Vec<Item>, i: usize, seam: Seam, p: Map<String, Value>| {
        out.push(event(
            file,
            i,
            Format::GeminiChat,
            Dialect::ClaudeCode,
            seam,
            p,
        ));
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
                if let Some((line, last)) = pending_stop.take() {
                    let mut p = base("Stop", None);
                    p.insert("stop_hook_active".into(), Value::Bool(false));
                    p.insert("last_assistant_message".into(), Value::String(last));
                    emit(&mut out, line, Seam::Stop, p);
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
    if let Some((line, last)) = pending_stop.take() {
        let mut p = base("Stop", None);
        p.insert("stop_hook_active".into(), Value::Bool(false));
        p.insert("last_assistant_message".into(), Value::String(last));
        emit(&mut out, line, Seam::Stop, p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_commands() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            argv_to_command(&v(&["bash", "-lc", "ls -la | head"])),
            "ls -la | head"
        );
        assert_eq!(
            argv_to_command(&v(&["/bin/zsh", "-c", "echo hi"])),
            "echo hi"
        );
        assert_eq!(
            argv_to_command(&v(&["rg", "-n", "foo bar", "it's"])),
            "rg -n 'foo bar' 'it'\"'\"'s'"
        );
        assert_eq!(argv_to_command(&v(&["echo", ""])), "echo ''");
    }
}
