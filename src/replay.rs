//! `seamguard replay`: dry-run recorded hook payloads against policies, never acting on them.
//!
//! Reads hook-payload logs (TRANSCRIPTS.md §2): one payload per line, PAI-style wrapper lines
//! (`{"payload": {…}}`), or one JSON array of payloads. Streaming (one line in memory at a
//! time for JSON Lines); an unreadable line is reported with `file:line` and the rest of the
//! file is still read.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{DecisionTable, Dialect, Engine, HookEvent, MemoryLedger, Verdict};

use crate::{bump, discover, outcome_json, show};

struct Problem {
    file: String,
    line: usize,
    message: String,
}

struct Decision {
    file: String,
    line: usize,
    seam: String,
    subject: String,
    summary: String,
    outcome: Value,
    verdict: Verdict,
}

fn collect_files(inputs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = walk(p);
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "jsonl" || x == "json") {
                out.push(p);
            }
        }
    }
    out
}

fn summary_of(payload: &Value) -> String {
    let ti = payload.get("tool_input");
    let s = ti
        .and_then(|t| {
            t.get("command")
                .or_else(|| t.get("file_path"))
                .or_else(|| t.get("url"))
                .or_else(|| t.get("pattern"))
        })
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            payload
                .get("prompt")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_default();
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 100 {
        format!("{}…", one_line.chars().take(99).collect::<String>())
    } else {
        one_line
    }
}

/// Unwrap a logged record into the hook payload it carries.
fn payload_of(v: Value) -> Value {
    if v.get("hook_event_name").is_none()
        && let Some(p) = v
            .get("payload")
            .filter(|p| p.get("hook_event_name").is_some())
        {
            return p.clone();
        }
    v
}

fn kind_hint(v: &Value) -> Option<&'static str> {
    if v.get("type").is_some() && (v.get("parentUuid").is_some() || v.get("sessionId").is_some()) {
        return Some("a Claude Code transcript");
    }
    if v.get("type").is_some() && v.get("payload").is_some() && v.get("timestamp").is_some() {
        return Some("a Codex rollout");
    }
    None
}

/// Output format of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// Human-readable summary.
    Text,
    /// One JSON report.
    Json,
    /// One JSON object per event.
    Jsonl,
}

/// Options of `seamguard replay`.
#[derive(Debug)]
pub(crate) struct Options {
    /// Recorded files or folders.
    pub(crate) inputs: Vec<PathBuf>,
    /// `--policy`.
    pub(crate) policies: Vec<PathBuf>,
    /// `--baseline`.
    pub(crate) baseline: Vec<PathBuf>,
    /// `--format`.
    pub(crate) format: OutputFormat,
    /// `--fail-on`.
    pub(crate) fail_on: Option<String>,
    /// `--dialect`.
    pub(crate) dialect: Option<Dialect>,
    /// `--exec-hooks`.
    pub(crate) exec_hooks: bool,
}

/// Run a replay; exit 1 with `--fail-on` when a matching verdict occurs, 2 on unusable input.
pub(crate) fn run(o: &Options) -> ExitCode {
    run_old(
        &o.inputs,
        &o.policies,
        o.format == OutputFormat::Json,
        o.format == OutputFormat::Jsonl,
        o.fail_on.as_deref(),
        o.dialect,
    )
}

fn run_old(
    inputs: &[PathBuf],
    policy_args: &[PathBuf],
    as_json: bool,
    as_jsonl: bool,
    fail_on: Option<&str>,
    force_dialect: Option<Dialect>,
) -> ExitCode {
    let fail_rank = match fail_on {
        None => None,
        Some("deny") => Some(4u8),
        Some("ask") => Some(2u8),
        Some(o) => {
            eprintln!("seamguard: --fail-on expects `deny` or `ask`, not `{o}`");
            return ExitCode::from(2);
        }
    };
    let paths = discover::policy_paths(policy_args, None);
    let loaded = discover::load_all(&paths);
    for p in &loaded {
        for d in &p.diagnostics {
            eprintln!("{}", d.render());
        }
    }
    let table = DecisionTable::new(loaded);
    let engine = Engine::new(table).with_ledger(Box::new(MemoryLedger::default()));
    let files = collect_files(inputs);
    let mut problems: Vec<Problem> = Vec::new();
    let mut decisions: Vec<Decision> = Vec::new();
    let mut by_seam: BTreeMap<String, usize> = BTreeMap::new();
    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    let mut hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_file: Vec<(String, usize)> = Vec::new();
    let mut stdout = std::io::stdout().lock();
    let mut failed = false;

    for f in &files {
        let name = show(f);
        let mut count = 0usize;
        let mut handle = |line: usize, v: Value, problems: &mut Vec<Problem>| {
            let hint = kind_hint(&v);
            let payload = payload_of(v);
            let event = match HookEvent::from_value(&payload) {
                Ok(e) => e,
                Err(e) => {
                    let msg = match hint {
                        Some(h) => format!(
                            "not a hook payload (this looks like {h}; transcript replay is not supported yet): {e}"
                        ),
                        None => e.to_string(),
                    };
                    problems.push(Problem {
                        file: name.clone(),
                        line,
                        message: msg,
                    });
                    return;
                }
            };
            count += 1;
            let seam = event.seam();
            let dialect = force_dialect.unwrap_or_else(|| Dialect::detect(&payload));
            let o = engine.evaluate(seam, &payload, dialect);
            bump(&mut by_seam, seam.name());
            bump(&mut verdicts, o.verdict().name());
            for c in &o.fired {
                bump(&mut hits, &c.rule);
            }
            let subject = seam
                .matcher_subject()
                .field()
                .and_then(|k| payload.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if let Some(r) = fail_rank {
                let rank = match o.verdict() {
                    Verdict::Deny | Verdict::Block => 4,
                    Verdict::Ask | Verdict::Defer => 2,
                    _ => 0,
                };
                failed |= rank >= r;
            }
            let d = Decision {
                file: name.clone(),
                line,
                seam: seam.name().to_string(),
                subject,
                summary: summary_of(&payload),
                outcome: outcome_json(&o),
                verdict: o.verdict(),
            };
            if as_jsonl {
                let _ = writeln!(
                    stdout,
                    "{}",
                    json!({"file": d.file, "line": d.line, "seam": d.seam, "subject": d.subject, "summary": d.summary, "outcome": d.outcome})
                );
            }
            if !matches!(d.verdict, Verdict::Abstain | Verdict::Allow)
                || !o.contexts.is_empty()
                || o.halt.is_some()
            {
                decisions.push(d);
            }
        };
        let file = match File::open(f) {
            Ok(x) => x,
            Err(e) => {
                problems.push(Problem {
                    file: name.clone(),
                    line: 0,
                    message: format!("cannot open: {e}"),
                });
                continue;
            }
        };
        let mut reader = BufReader::new(file);
        let first = reader
            .fill_buf()
            .map(|b| b.iter().find(|c| !c.is_ascii_whitespace()).copied())
            .unwrap_or(None);
        if first == Some(b'[') {
            let mut buf = Vec::new();
            if let Err(e) = reader.read_to_end(&mut buf) {
                problems.push(Problem {
                    file: name.clone(),
                    line: 0,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
            match serde_json::from_slice::<Value>(&buf) {
                Ok(Value::Array(items)) => {
                    for (i, v) in items.into_iter().enumerate() {
                        handle(i + 1, v, &mut problems);
                    }
                }
                Ok(_) => problems.push(Problem {
                    file: name.clone(),
                    line: 1,
                    message: "expected a JSON array of payloads".into(),
                }),
                Err(e) => problems.push(Problem {
                    file: name.clone(),
                    line: e.line(),
                    message: format!("invalid JSON: {e}"),
                }),
            }
        } else {
            let mut line_no = 0usize;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        problems.push(Problem {
                            file: name.clone(),
                            line: line_no + 1,
                            message: format!("read error: {e}"),
                        });
                        break;
                    }
                }
                line_no += 1;
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match serde_json::from_slice::<Value>(&buf) {
                    Ok(v) => handle(line_no, v, &mut problems),
                    Err(e) => {
                        let msg = if std::str::from_utf8(&buf).is_err() {
                            "not UTF-8 text (binary data?)".to_string()
                        } else {
                            format!("invalid JSON: {e}")
                        };
                        problems.push(Problem {
                            file: name.clone(),
                            line: line_no,
                            message: msg,
                        });
                    }
                }
            }
        }
        per_file.push((name, count));
    }

    let never: Vec<String> = engine
        .table()
        .rules()
        .iter()
        .filter(|r| !hits.contains_key(&r.id))
        .map(|r| format!("{} ({})", r.id, r.source))
        .collect();

    if as_json {
        let report = json!({
            "files": per_file.iter().map(|(f, n)| json!({"path": f, "events": n})).collect::<Vec<_>>(),
            "events_by_seam": by_seam,
            "verdicts": verdicts,
            "rule_hits": hits,
            "never_fired": never,
            "decisions": decisions.iter().map(|d| json!({"file": d.file, "line": d.line, "seam": d.seam, "subject": d.subject, "summary": d.summary, "outcome": d.outcome})).collect::<Vec<_>>(),
            "problems": problems.iter().map(|p| json!({"file": p.file, "line": p.line, "message": p.message})).collect::<Vec<_>>(),
        });
        let _ = writeln!(
            stdout,
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else if !as_jsonl {
        let total: usize = per_file.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            stdout,
            "replayed {total} events from {} file(s) with {} rule(s)",
            per_file.len(),
            engine.table().rules().len()
        );
        for (f, n) in &per_file {
            let _ = writeln!(stdout, "  {f}: {n} events");
        }
        let fmt = |m: &BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(stdout, "events by seam: {}", fmt(&by_seam));
        let _ = writeln!(stdout, "verdicts: {}", fmt(&verdicts));
        let _ = writeln!(stdout, "rule hits:");
        let mut hv: Vec<_> = hits.iter().collect();
        hv.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (r, n) in hv {
            let _ = writeln!(stdout, "  {n:>6}  {r}");
        }
        let _ = writeln!(
            stdout,
            "rules that never fired: {}",
            if never.is_empty() {
                "none".to_string()
            } else {
                never.len().to_string()
            }
        );
        for r in &never {
            let _ = writeln!(stdout, "  {r}");
        }
        let _ = writeln!(stdout, "decisions other than allow ({}):", decisions.len());
        for d in &decisions {
            let reason = d
                .outcome
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("");
            let first_reason = reason.lines().next().unwrap_or("");
            let _ = writeln!(
                stdout,
                "  {}:{}  {} {}  {}  {}\n      {}",
                d.file,
                d.line,
                d.seam,
                d.subject,
                d.verdict.name(),
                d.summary,
                first_reason
            );
        }
    }
    for p in &problems {
        eprintln!("{}:{}: {}", p.file, p.line, p.message);
    }
    if !problems.is_empty() {
        eprintln!(
            "seamguard: {} unreadable record(s); the rest was replayed",
            problems.len()
        );
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
