//! seamguard's own audit log as a recording: every evaluation whose `hook/result` record
//! kept its input (`input`, see [`seamguard_engine::audit`]) is re-judged, with the recorded
//! decision as what the new outcome is compared with.
//!
//! A file is an audit log when its first record is a `hook/invoked` or `hook/result` record
//! with a `handler_id` ([`is_audit_log`]). In it:
//!
//! - `hook/invoked` records and the records of command hooks (`handler_id` with a `/`) are
//!   read past: they judge nothing;
//! - a `hook/result` of an evaluation with an `input` object becomes an event at its line,
//!   in the recorded dialect and seam;
//! - one without is skipped, counted per cause and reported once per file at the end: records
//!   written before the input was kept, inputs over the size bound (`input_omitted`),
//!   payloads refused unread (`refused`);
//! - a line that is not a JSON object is an unreadable record.
//!
//! The recorded outcome a new one is compared with is what the live hook decided with every
//! rule enforced: the `observed` outcome when observe-mode rules had something to say, and
//! `ask` for a call a grant lifted (the replay applies no grant).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use seamguard_engine::readers::{
    Format, Item, MAX_LINE_BYTES, ProblemKind, ReadProblem, RecordedEvent,
};
use seamguard_engine::{Dialect, Seam};

use super::report::Brief;

/// The format name shown for an audit log (reports, `files[].format`).
pub(super) const FORMAT_NAME: &str = "audit-log";

/// Whether `path` is a seamguard audit log: its first non-blank line is a `hook/invoked` or
/// `hook/result` record with a `handler_id`.
pub(crate) fn is_audit_log(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut r = BufReader::new(f.take(MAX_LINE_BYTES));
    let mut line = Vec::new();
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&line) else {
            return false;
        };
        return matches!(
            v.get("type").and_then(Value::as_str),
            Some("hook/invoked" | "hook/result")
        ) && v.get("handler_id").is_some_and(Value::is_string);
    }
}

/// One item of an audit log: an event with the outcome recorded for it, or a problem.
pub(crate) struct AuditItem {
    /// The event or problem.
    pub(crate) item: Item,
    /// The recorded outcome of an event.
    pub(super) recorded: Option<Brief>,
}

/// Why a `hook/result` record of an evaluation is not re-judged.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Skip {
    /// Written before records kept their input.
    NoInput,
    /// The input was over the size bound.
    Omitted,
    /// The payload was refused unread.
    Refused,
    /// The record names no known dialect or event.
    Unknown,
}

impl Skip {
    fn message(self, n: usize, first: usize) -> String {
        let what = match self {
            Skip::NoInput => "recorded without their input (written before audit records kept it)",
            Skip::Omitted => "whose input was over the size bound and not kept",
            Skip::Refused => "of payloads refused unread (nothing to re-judge)",
            Skip::Unknown => "naming no known dialect or event",
        };
        format!("{n} audit record(s) {what}; not re-judged (first at line {first})")
    }
}

/// The events of an audit log, read one line at a time.
pub(crate) struct AuditReader {
    file: Arc<str>,
    lines: Option<Box<dyn BufRead>>,
    line: usize,
    /// Skipped records per cause: (count, first line).
    skipped: BTreeMap<Skip, (usize, usize)>,
    /// The per-cause problems, once the file is read.
    tail: Vec<ReadProblem>,
}

impl AuditReader {
    /// Read the audit log at `path` (shown as `path.display()`).
    pub(crate) fn open(path: &Path) -> AuditReader {
        let file: Arc<str> = Arc::from(crate::show(path));
        let (lines, tail) = match std::fs::File::open(path) {
            Ok(f) => (
                Some(Box::new(BufReader::new(f)) as Box<dyn BufRead>),
                Vec::new(),
            ),
            Err(e) => (
                None,
                vec![ReadProblem {
                    file: file.clone(),
                    line: 0,
                    kind: ProblemKind::Unreadable,
                    message: format!("cannot open: {e}"),
                }],
            ),
        };
        AuditReader {
            file,
            lines,
            line: 0,
            skipped: BTreeMap::new(),
            tail,
        }
    }

    /// Read from `r` (tests).
    #[cfg(test)]
    fn from_reader(name: &str, r: impl Read + 'static) -> AuditReader {
        AuditReader {
            file: Arc::from(name),
            lines: Some(Box::new(BufReader::new(r))),
            line: 0,
            skipped: BTreeMap::new(),
            tail: Vec::new(),
        }
    }

    fn problem(&self, kind: ProblemKind, message: String) -> AuditItem {
        AuditItem {
            item: Item::Problem(ReadProblem {
                file: self.file.clone(),
                line: self.line,
                kind,
                message,
            }),
            recorded: None,
        }
    }

    fn skip(&mut self, why: Skip) {
        let e = self.skipped.entry(why).or_insert((0, self.line));
        e.0 += 1;
    }

    /// The item of one record, if it is one to report.
    fn record(&mut self, v: &Value) -> Option<AuditItem> {
        if v.get("type").and_then(Value::as_str) != Some("hook/result") {
            return None;
        }
        let handler = v.get("handler_id").and_then(Value::as_str).unwrap_or("");
        if handler.contains('/') || v.get("decision").is_none() {
            // A command hook's own record: the evaluation's record holds its effect.
            return None;
        }
        if v.get("refused").and_then(Value::as_bool) == Some(true) {
            self.skip(Skip::Refused);
            return None;
        }
        let Some(input) = v.get("input").filter(|i| i.is_object()) else {
            self.skip(if v.get("input_omitted").is_some() {
                Skip::Omitted
            } else {
                Skip::NoInput
            });
            return None;
        };
        let dialect = v
            .get("dialect")
            .and_then(Value::as_str)
            .and_then(Dialect::from_name);
        let seam = v
            .get("event")
            .and_then(Value::as_str)
            .and_then(Seam::from_event_name);
        let (Some(dialect), Some(seam)) = (dialect, seam) else {
            self.skip(Skip::Unknown);
            return None;
        };
        Some(AuditItem {
            item: Item::Event(RecordedEvent {
                file: self.file.clone(),
                line: self.line,
                format: Format::HookLog,
                dialect,
                seam,
                payload: input.clone(),
            }),
            recorded: recorded_brief(v),
        })
    }
}

/// The string ids of a `rules` array.
fn ids(v: Option<&Value>) -> BTreeSet<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The outcome recorded in a `hook/result` record, every rule enforced (see the module
/// documentation).
fn recorded_brief(v: &Value) -> Option<Brief> {
    let str_at = |o: &Value, k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    let mut rules = ids(v.get("rules"));
    let (verdict, reason) = match v.get("observed") {
        Some(o) => {
            rules.extend(ids(o.get("rules")));
            (
                str_at(o, "decision")?,
                str_at(o, "reason").unwrap_or_default(),
            )
        }
        None => (
            str_at(v, "decision")?,
            str_at(v, "reason").unwrap_or_default(),
        ),
    };
    let verdict = if v.get("grant").is_some_and(Value::is_string) && verdict == "allow" {
        // A grant lifts an ask, and nothing else.
        "ask".to_string()
    } else {
        verdict
    };
    Brief::recorded(&verdict, reason, rules)
}

impl Iterator for AuditReader {
    type Item = AuditItem;

    fn next(&mut self) -> Option<AuditItem> {
        loop {
            let Some(lines) = self.lines.as_mut() else {
                if self.tail.is_empty() {
                    // Reported once, in cause order.
                    let skipped = std::mem::take(&mut self.skipped);
                    self.tail = skipped
                        .into_iter()
                        .rev()
                        .map(|(why, (n, first))| ReadProblem {
                            file: self.file.clone(),
                            line: first,
                            kind: ProblemKind::Skipped,
                            message: why.message(n, first),
                        })
                        .collect();
                }
                return self.tail.pop().map(|p| AuditItem {
                    item: Item::Problem(p),
                    recorded: None,
                });
            };
            let mut buf = Vec::new();
            let read = lines
                .by_ref()
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut buf);
            match read {
                Ok(0) => {
                    self.lines = None;
                    continue;
                }
                Err(e) => {
                    self.lines = None;
                    self.line += 1;
                    return Some(self.problem(ProblemKind::Unreadable, format!("read error: {e}")));
                }
                Ok(_) => {}
            }
            self.line += 1;
            if buf.len() as u64 > MAX_LINE_BYTES {
                // The rest of the line is read past.
                let mut rest = Vec::new();
                let _ = lines.read_until(b'\n', &mut rest);
                return Some(self.problem(
                    ProblemKind::Unreadable,
                    format!("line over {MAX_LINE_BYTES} bytes"),
                ));
            }
            if buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let v = match serde_json::from_slice::<Value>(&buf) {
                Ok(v) if v.is_object() => v,
                Ok(_) => {
                    return Some(
                        self.problem(ProblemKind::Unreadable, "not a JSON object".to_string()),
                    );
                }
                Err(e) => {
                    return Some(
                        self.problem(ProblemKind::Unreadable, format!("invalid JSON: {e}")),
                    );
                }
            };
            if let Some(item) = self.record(&v) {
                return Some(item);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn items(text: String) -> Vec<(usize, String)> {
        AuditReader::from_reader("audit.jsonl", std::io::Cursor::new(text.into_bytes()))
            .map(|i| match i.item {
                Item::Event(e) => (
                    e.line,
                    format!(
                        "event {} {} {} recorded {}",
                        e.dialect.name(),
                        e.seam.name(),
                        e.payload["tool_input"]["command"],
                        i.recorded
                            .map(|b| format!(
                                "{} [{}]",
                                b.verdict,
                                b.rules.into_iter().collect::<Vec<_>>().join(",")
                            ))
                            .unwrap_or_default()
                    ),
                ),
                Item::Problem(p) => (p.line, format!("{} {}", p.kind.name(), p.message)),
            })
            .collect()
    }

    #[test]
    fn records_with_input_are_events_and_the_rest_is_counted() {
        let input = json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
        let lines = [
            json!({"type": "hook/invoked", "handler_id": "h1", "dialect": "codex", "event": "PreToolUse"}),
            json!({"type": "hook/result", "handler_id": "h1", "dialect": "codex", "event": "PreToolUse",
                "decision": "deny", "reason": "r", "rules": ["b", "a"], "input": input}),
            json!({"type": "hook/result", "handler_id": "h1/run", "exit_code": 0}),
            json!({"type": "hook/result", "handler_id": "h2", "dialect": "claude-code",
                "event": "PreToolUse", "decision": "none", "rules": []}),
            json!({"type": "hook/result", "handler_id": "h3", "dialect": "claude-code",
                "event": "PreToolUse", "decision": "none", "rules": []}),
            json!({"type": "hook/result", "handler_id": "h4", "dialect": "claude-code",
                "event": "PreToolUse", "decision": "allow", "rules": ["x"], "grant": "g1",
                "observed": {"decision": "deny", "reason": "o", "rules": ["y"]}, "input": input}),
            json!({"type": "hook/result", "handler_id": "h5", "dialect": "claude-code",
                "event": "PreToolUse", "decision": "allow", "rules": ["x"], "grant": "g1", "input": input}),
            json!({"type": "hook/result", "handler_id": "h6", "event": null, "decision": "deny",
                "refused": true, "cause": "malformed"}),
            json!({"type": "hook/result", "handler_id": "h7", "dialect": "claude-code",
                "event": "PreToolUse", "decision": "none", "input_omitted": "over"}),
        ];
        let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        text.push_str("\n[1]\n{\"trunc");
        assert_eq!(
            items(text),
            [
                (2, "event codex pre-tool \"rm -rf /\" recorded deny [a,b]".to_string()),
                (
                    6,
                    "event claude-code pre-tool \"rm -rf /\" recorded deny [x,y]".to_string()
                ),
                (
                    7,
                    "event claude-code pre-tool \"rm -rf /\" recorded ask [x]".to_string()
                ),
                (11, "error not a JSON object".to_string()),
                (
                    12,
                    "error invalid JSON: EOF while parsing a string at line 1 column 7".to_string()
                ),
                (
                    4,
                    "skipped 2 audit record(s) recorded without their input (written before audit records kept it); not re-judged (first at line 4)".to_string()
                ),
                (
                    9,
                    "skipped 1 audit record(s) whose input was over the size bound and not kept; not re-judged (first at line 9)".to_string()
                ),
                (
                    8,
                    "skipped 1 audit record(s) of payloads refused unread (nothing to re-judge); not re-judged (first at line 8)".to_string()
                ),
            ]
        );
    }

    #[test]
    fn detection_needs_a_hook_record_first() {
        let dir = std::env::temp_dir().join(format!("sg-audit-detect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let yes = dir.join("a.jsonl");
        std::fs::write(&yes, "\n{\"type\":\"hook/invoked\",\"handler_id\":\"h\"}\n").unwrap();
        let payload = dir.join("b.jsonl");
        std::fs::write(&payload, "{\"hook_event_name\":\"PreToolUse\"}\n").unwrap();
        let no_id = dir.join("c.jsonl");
        std::fs::write(&no_id, "{\"type\":\"hook/result\"}\n").unwrap();
        assert_eq!(
            [&yes, &payload, &no_id, &dir.join("none")].map(|p| is_audit_log(p)),
            [true, false, false, false]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
