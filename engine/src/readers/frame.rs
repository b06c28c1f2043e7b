//! Framing: a recorded file becomes records (JSON Lines, a streamed top-level array, or one
//! whole document), each record is classified by its shape and handed to the reader of its
//! format; what cannot be read becomes a [`ReadProblem`] with its location.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::claude_code::ClaudeState;
use super::codex::CodexState;
use super::json::json_value;
use super::{
    Item, ProblemKind, ReadOptions, ReadProblem, claude_code, codex, gemini, lean, payload_log,
};

/// Longest line read (longer lines are reported and skipped).
pub const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;

/// Largest single JSON document read whole (Gemini chats, pretty-printed payloads).
pub const MAX_DOCUMENT_BYTES: u64 = 512 * 1024 * 1024;

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
    options: ReadOptions,
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
    /// Open a recorded file (its format is detected from its first record).
    ///
    /// # Errors
    /// Never fails: a file that cannot be opened yields one [`Item::Problem`] of kind
    /// [`ProblemKind::Unreadable`], and every record that cannot be replayed is a problem
    /// in file order.
    ///
    /// # Example
    ///
    /// ```
    /// use std::path::Path;
    /// use seamguard_engine::readers::{EventReader, Item, ProblemKind};
    ///
    /// let items: Vec<Item> = EventReader::open(Path::new("/nonexistent/session.jsonl")).collect();
    /// assert!(matches!(&items[..], [Item::Problem(p)] if p.kind == ProblemKind::Unreadable));
    /// ```
    pub fn open(path: &Path) -> EventReader {
        EventReader::open_with(path, ReadOptions::default())
    }

    /// Open a recorded file, read with `options` (what may be left undecoded).
    ///
    /// # Errors
    /// Never fails; problems are yielded as [`Item::Problem`], as for [`EventReader::open`].
    ///
    /// # Example
    ///
    /// ```
    /// use std::path::Path;
    /// use seamguard_engine::readers::{EventReader, Item, ReadOptions};
    ///
    /// let lean = ReadOptions { skip_tool_results: true };
    /// let items: Vec<Item> = EventReader::open_with(Path::new("/nonexistent/s.jsonl"), lean).collect();
    /// assert_eq!(items.len(), 1);
    /// ```
    pub fn open_with(path: &Path, options: ReadOptions) -> EventReader {
        let name = path.display().to_string();
        match File::open(path) {
            Ok(f) => EventReader::from_reader_with(
                &name,
                BufReader::with_capacity(256 * 1024, f),
                options,
            ),
            Err(e) => {
                let mut r = EventReader::from_reader_with(&name, std::io::empty(), options);
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
    ///
    /// # Errors
    /// Never fails; problems are yielded as [`Item::Problem`], as for [`EventReader::open`].
    ///
    /// # Example
    ///
    /// A log of hook payloads, one per line:
    ///
    /// ```
    /// use seamguard_engine::readers::{EventReader, Item};
    /// use seamguard_engine::Seam;
    ///
    /// let log = r#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    /// let mut events = EventReader::from_reader("hooks.jsonl", log.as_bytes());
    /// let Some(Item::Event(e)) = events.next() else { panic!("one event") };
    /// assert_eq!(e.seam, Seam::PreTool);
    /// assert_eq!(e.location(), "hooks.jsonl:1");
    /// assert!(events.next().is_none());
    /// ```
    pub fn from_reader(name: &str, input: impl BufRead + 'static) -> EventReader {
        EventReader::from_reader_with(name, input, ReadOptions::default())
    }

    /// Read from any buffered source with `options`; `name` is used in locations.
    ///
    /// # Errors
    /// Never fails; problems are yielded as [`Item::Problem`], as for [`EventReader::open`].
    ///
    /// # Example
    ///
    /// A tool result no rule reads, left undecoded:
    ///
    /// ```
    /// use seamguard_engine::readers::{EventReader, Item, ReadOptions};
    ///
    /// let log = r#"{"session_id":"s","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a b c"}}"#;
    /// let lean = ReadOptions { skip_tool_results: true };
    /// let mut events = EventReader::from_reader_with("hooks.jsonl", log.as_bytes(), lean);
    /// let Some(Item::Event(e)) = events.next() else { panic!("one event") };
    /// assert_eq!(e.payload["tool_input"]["command"], "ls");
    /// assert!(e.payload["tool_response"].is_null());
    /// ```
    pub fn from_reader_with(
        name: &str,
        input: impl BufRead + 'static,
        options: ReadOptions,
    ) -> EventReader {
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
            options,
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
                "binary file (NUL bytes; not a JSON recording), not read".into(),
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
                match self.decode(&line) {
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

    /// Decode one JSON Lines record (without its tool-result bodies when the options say
    /// so; a record the lean decoding does not read is decoded the strict way, whose result
    /// and error are what the caller gets).
    fn decode(&self, line: &[u8]) -> Result<Value, serde_json::Error> {
        if self.options.skip_tool_results
            && let Ok(v) = lean::record(line)
        {
            return Ok(v);
        }
        json_value(line)
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
        let v: Value = match json_value(doc) {
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
                let items = gemini::events(&self.file, &m);
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
                match self.decode(&line) {
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
        let Value::Object(m) = v else {
            self.problem(
                line,
                ProblemKind::Skipped,
                "not a JSON object: not a hook payload or a transcript record".into(),
            );
            return;
        };
        // Hook payloads, bare or wrapped.
        let m = match payload_log::payload_of(m) {
            Ok(p) => {
                self.out.push_back(payload_log::event(&self.file, line, p));
                return;
            }
            Err(m) => m,
        };
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
        if m.contains_key("payload") && m.contains_key("timestamp") && codex::is_record_type(ty) {
            self.codex.record(line, &m, &mut self.out);
            return;
        }
        if claude_code::is_record_type(ty)
            || (!ty.is_empty()
                && (m.contains_key("uuid")
                    || m.contains_key("sessionId")
                    || m.contains_key("parentUuid")))
        {
            if claude_code::is_record_type(ty) {
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

#[cfg(test)]
mod surrogate_tests {
    use super::*;
    use crate::readers::Item;

    #[test]
    fn a_hook_log_with_lone_surrogate_escapes_is_read_as_the_hook_reads_it() {
        // A Windows host wrote a lone low surrogate in a path; a pair stays a pair.
        let log = concat!(
            r#"{"session_id":"s","cwd":"C:\\w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat \udc90.txt \ud83d\ude00"}}"#,
            "\n",
            r#"{"session_id":"s","cwd":"C:\\w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
            "\n"
        );
        let items: Vec<Item> = EventReader::from_reader("hooks.jsonl", log.as_bytes()).collect();
        let commands: Vec<String> = items
            .iter()
            .map(|i| match i {
                Item::Event(e) => e
                    .payload
                    .pointer("/tool_input/command")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                Item::Problem(p) => format!("problem: {p:?}"),
            })
            .collect();
        assert_eq!(commands, ["cat \u{FFFD}.txt \u{1F600}", "ls"]);
    }

    #[test]
    fn broken_json_is_still_a_problem() {
        assert!(json_value(br#"{"a": "\udc90"#).is_err());
        assert!(json_value(br#"{"a": x}"#).is_err());
        assert_eq!(
            json_value(br#"{"a":"\ud800"}"#).ok(),
            Some(serde_json::json!({"a": "\u{FFFD}"}))
        );
    }
}
