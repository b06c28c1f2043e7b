//! `seamguard replay`: dry-run recorded agent sessions against policies, never acting on them.
//!
//! Every file is read by [`seamguard_engine::readers`] (format detected per file: Claude Code
//! transcripts, Codex rollouts, hook-payload logs, Gemini CLI chats), every event is evaluated
//! with the policies (and with `--baseline` ones when given), and a report is printed.
//! Command hooks (`run`) are not executed unless `--exec-hooks` is given: fired ones are
//! listed as "would run".
//!
//! # JSON report (`--format json`)
//!
//! One object (`"schema": "seamguard.replay/1"`):
//!
//! | key | value |
//! |---|---|
//! | `policies`, `baseline_policies` | policy files used (`baseline_policies` empty without `--baseline`) |
//! | `files` | `[{path, format, events, problems}]`, `format` one of `hook-log`, `claude-transcript`, `codex-rollout`, `gemini-chat` (`null` when nothing was read) |
//! | `events` | number of events evaluated |
//! | `events_by_seam` | `{seam: count}` (`pre-tool`, `post-tool`, `prompt-submit`, …) |
//! | `verdicts` | `{verdict: count}` (`none`, `allow`, `ask`, `deny`, `block`, `continue`, …) |
//! | `rule_hits` | `{rule id: events it fired on}` |
//! | `never_fired` | `[{rule, source}]`: rules that fired on no event (`source` is `file:line:column`) |
//! | `decisions` | every event whose verdict is not `none`/`allow`, or that adds context or halts: an *event record* |
//! | `would_run` | `[{file, line, rule, command}]`: command hooks that fired and were not executed |
//! | `diff` | `null`, or with `--baseline` `{changed, baseline_verdicts, baseline_rule_hits, events: [{file, line, format, dialect, seam, subject, summary, baseline: OUTCOME, policy: OUTCOME}]}` |
//! | `problems` | `[{file, line, kind, message}]`, `kind` `error` (unreadable) or `skipped` (read, not replayed) |
//!
//! An *event record* is `{file, line, format, dialect, seam, subject, summary, verdict,
//! reason, rules, contexts, halt, would_run}`; `line` is 1-based (entry index for JSON
//! arrays and Gemini chats), `subject` the matcher subject (tool name, …), `summary` the
//! command / path / prompt shortened to one line, `rules` the fired rule ids in order. An
//! OUTCOME is `{verdict, reason, rules}`.
//!
//! `--format jsonl` writes one line per event (`{"type": "event", …event record…}`, plus
//! `"baseline": OUTCOME` with `--baseline`), one per problem (`{"type": "problem", file,
//! line, kind, message}`), and a last line `{"type": "summary", events, events_by_seam,
//! verdicts, rule_hits, changed}`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use seamguard_engine::readers::{self, EventReader, Format, Item, ProblemKind, RecordedEvent};
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::{DecisionTable, Dialect, Engine, MemoryLedger, Outcome, Verdict};

use crate::{bump, discover, show};

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

/// ANSI styling, on only when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Clone, Copy)]
struct Style(bool);

impl Style {
    fn paint(self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    fn bold(self, s: &str) -> String {
        self.paint("1", s)
    }

    fn verdict(self, v: &str) -> String {
        match v {
            "deny" | "block" => self.paint("1;31", v),
            "ask" | "defer" => self.paint("1;33", v),
            "continue" | "redact" => self.paint("1;36", v),
            _ => v.to_string(),
        }
    }
}

/// Progress on stderr for long runs: only when stderr is a terminal, after one second.
struct Progress {
    on: bool,
    start: Instant,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        let now = Instant::now();
        Progress {
            on: std::io::stderr().is_terminal(),
            start: now,
            last: now,
            shown: false,
        }
    }

    fn tick(&mut self, file_i: usize, files: usize, events: usize, name: &str) {
        if !self.on || !events.is_multiple_of(256) {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < Duration::from_secs(1)
            || now.duration_since(self.last) < Duration::from_millis(200)
        {
            return;
        }
        self.last = now;
        self.shown = true;
        let rate = events as f64 / now.duration_since(self.start).as_secs_f64().max(1e-9);
        let name: String = name
            .chars()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        eprint!("\r\x1b[2K[{file_i}/{files}] {events} events ({rate:.0}/s) {name}");
    }

    fn done(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
        }
    }
}

/// The one-line summary of an event: the command, path, URL, pattern or prompt.
pub(crate) fn summary_of(payload: &Value) -> String {
    let ti = payload.get("tool_input");
    let s = ti
        .and_then(|t| {
            t.get("command")
                .or_else(|| t.get("file_path"))
                .or_else(|| t.get("url"))
                .or_else(|| t.get("pattern"))
                .or_else(|| t.get("query"))
        })
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
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

fn subject_of(ev: &RecordedEvent) -> String {
    ev.seam
        .matcher_subject()
        .field()
        .and_then(|k| ev.payload.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Rule ids an outcome fired, including command hooks that only would run.
fn fired_set(o: &Outcome) -> BTreeSet<String> {
    o.fired
        .iter()
        .map(|c| c.rule.clone())
        .chain(o.pending_runs.iter().map(|(id, _)| id.clone()))
        .collect()
}

fn brief(o: &Outcome) -> Value {
    json!({
        "verdict": o.verdict().name(),
        "reason": o.reason_text(),
        "rules": fired_set(o),
    })
}

fn event_record(ev: &RecordedEvent, dialect: Dialect, o: &Outcome) -> Value {
    json!({
        "file": &*ev.file,
        "line": ev.line,
        "format": ev.format.name(),
        "dialect": dialect.name(),
        "seam": ev.seam.name(),
        "subject": subject_of(ev),
        "summary": summary_of(&ev.payload),
        "verdict": o.verdict().name(),
        "reason": o.reason_text(),
        "rules": o.fired_ids(),
        "contexts": o.contexts.iter().map(|c| c.text.clone()).collect::<Vec<_>>(),
        "halt": o.halt.as_ref().map(|h| h.text.clone()),
        "would_run": o.pending_runs.iter().map(|(id, c)| json!({"rule": id, "command": c})).collect::<Vec<_>>(),
    })
}

fn load_engine(paths: &[PathBuf], exec_hooks: bool) -> (Engine, Vec<String>) {
    let files = discover::policy_paths(paths, None);
    let names = files.iter().map(|(p, _)| p.display().to_string()).collect();
    let loaded = discover::load_all(&files);
    for p in &loaded {
        for d in &p.diagnostics {
            eprintln!("{}", d.render());
        }
    }
    let mut engine = Engine::new(DecisionTable::new(loaded))
        .with_ledger(Box::new(MemoryLedger::default()))
        .with_observe_enforced(true);
    if exec_hooks {
        engine = engine.with_runner(Box::new(ProcessRunner));
    }
    (engine, names)
}

struct FileStat {
    path: String,
    format: Option<Format>,
    events: usize,
    problems: usize,
}

fn fail_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Deny | Verdict::Block => 4,
        Verdict::Ask | Verdict::Defer => 2,
        _ => 0,
    }
}

/// Run a replay; exit 1 with `--fail-on` when a matching verdict occurs, 2 on unusable
/// arguments or when no recorded file was found.
pub(crate) fn run(o: &Options) -> ExitCode {
    let fail_at = match o.fail_on.as_deref() {
        None => None,
        Some("deny") => Some(4u8),
        Some("ask") => Some(2u8),
        Some(x) => {
            eprintln!("seamguard: --fail-on expects `deny` or `ask`, not `{x}`");
            return ExitCode::from(2);
        }
    };
    if o.exec_hooks {
        eprintln!(
            "seamguard: --exec-hooks: command hooks of fired rules are executed (with the recorded payload on stdin)"
        );
    }
    let (engine, policy_names) = load_engine(&o.policies, o.exec_hooks);
    let baseline = if o.baseline.is_empty() {
        None
    } else {
        Some(load_engine(&o.baseline, o.exec_hooks))
    };
    let files = readers::collect_files(&o.inputs);
    if files.is_empty() {
        eprintln!("seamguard: no recorded files (*.jsonl, *.json) found in the given paths");
        return ExitCode::from(2);
    }
    let style = Style(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let jsonl = o.format == OutputFormat::Jsonl;
    let mut stdout = std::io::stdout().lock();
    let mut progress = Progress::new();

    let mut stats: Vec<FileStat> = Vec::new();
    let mut problems: Vec<readers::ReadProblem> = Vec::new();
    let mut decisions: Vec<Value> = Vec::new();
    let mut would_run: Vec<Value> = Vec::new();
    let mut changes: Vec<Value> = Vec::new();
    let mut by_seam: BTreeMap<String, usize> = BTreeMap::new();
    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    let mut hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut base_verdicts: BTreeMap<String, usize> = BTreeMap::new();
    let mut base_hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0usize;
    let mut failed = false;

    for (fi, f) in files.iter().enumerate() {
        let mut st = FileStat {
            path: show(f),
            format: None,
            events: 0,
            problems: 0,
        };
        for item in EventReader::open(f) {
            let ev = match item {
                Item::Event(ev) => ev,
                Item::Problem(p) => {
                    st.problems += 1;
                    if jsonl {
                        let _ = writeln!(
                            stdout,
                            "{}",
                            json!({"type": "problem", "file": &*p.file, "line": p.line, "kind": p.kind.name(), "message": p.message})
                        );
                    }
                    problems.push(p);
                    continue;
                }
            };
            st.format.get_or_insert(ev.format);
            st.events += 1;
            total += 1;
            progress.tick(fi + 1, files.len(), total, &st.path);
            let dialect = o.dialect.unwrap_or(ev.dialect);
            let out = engine.evaluate(ev.seam, &ev.payload, dialect);
            bump(&mut by_seam, ev.seam.name());
            bump(&mut verdicts, out.verdict().name());
            for id in fired_set(&out) {
                bump(&mut hits, &id);
            }
            if let Some(r) = fail_at {
                failed |= fail_rank(out.verdict()) >= r;
            }
            let base_out = baseline
                .as_ref()
                .map(|(b, _)| b.evaluate(ev.seam, &ev.payload, dialect));
            if let Some(b) = &base_out {
                bump(&mut base_verdicts, b.verdict().name());
                for id in fired_set(b) {
                    bump(&mut base_hits, &id);
                }
                if b.verdict() != out.verdict() || fired_set(b) != fired_set(&out) {
                    changes.push(json!({
                        "file": &*ev.file,
                        "line": ev.line,
                        "format": ev.format.name(),
                        "dialect": dialect.name(),
                        "seam": ev.seam.name(),
                        "subject": subject_of(&ev),
                        "summary": summary_of(&ev.payload),
                        "baseline": brief(b),
                        "policy": brief(&out),
                    }));
                }
            }
            for (id, cmd) in &out.pending_runs {
                would_run
                    .push(json!({"file": &*ev.file, "line": ev.line, "rule": id, "command": cmd}));
            }
            if jsonl {
                let mut r = event_record(&ev, dialect, &out);
                r["type"] = json!("event");
                if let Some(b) = &base_out {
                    r["baseline"] = brief(b);
                }
                let _ = writeln!(stdout, "{r}");
            } else if !matches!(out.verdict(), Verdict::Abstain | Verdict::Allow)
                || !out.contexts.is_empty()
                || out.halt.is_some()
            {
                decisions.push(event_record(&ev, dialect, &out));
            }
        }
        stats.push(st);
    }
    progress.done();

    let never: Vec<(String, String)> = engine
        .table()
        .rules()
        .iter()
        .filter(|r| !hits.contains_key(&r.id))
        .map(|r| (r.id.clone(), r.source.to_string()))
        .collect();

    match o.format {
        OutputFormat::Jsonl => {
            let _ = writeln!(
                stdout,
                "{}",
                json!({
                    "type": "summary",
                    "events": total,
                    "events_by_seam": by_seam,
                    "verdicts": verdicts,
                    "rule_hits": hits,
                    "changed": baseline.as_ref().map(|_| changes.len()),
                })
            );
        }
        OutputFormat::Json => {
            let report = json!({
                "schema": "seamguard.replay/1",
                "policies": policy_names,
                "baseline_policies": baseline.as_ref().map(|(_, n)| n.clone()).unwrap_or_default(),
                "files": stats.iter().map(|s| json!({"path": s.path, "format": s.format.map(Format::name), "events": s.events, "problems": s.problems})).collect::<Vec<_>>(),
                "events": total,
                "events_by_seam": by_seam,
                "verdicts": verdicts,
                "rule_hits": hits,
                "never_fired": never.iter().map(|(r, s)| json!({"rule": r, "source": s})).collect::<Vec<_>>(),
                "decisions": decisions,
                "would_run": would_run,
                "diff": baseline.as_ref().map(|_| json!({
                    "changed": changes.len(),
                    "baseline_verdicts": base_verdicts,
                    "baseline_rule_hits": base_hits,
                    "events": changes,
                })),
                "problems": problems.iter().map(|p| json!({"file": &*p.file, "line": p.line, "kind": p.kind.name(), "message": p.message})).collect::<Vec<_>>(),
            });
            let _ = writeln!(
                stdout,
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        OutputFormat::Text => {
            let w = &mut stdout;
            let fmt = |m: &BTreeMap<String, usize>| {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(
                w,
                "{}",
                style.bold(&format!(
                    "replayed {total} events from {} file(s) with {} rule(s)",
                    stats.len(),
                    engine.table().rules().len()
                ))
            );
            for s in &stats {
                let extra = if s.problems > 0 {
                    format!(", {} problem(s)", s.problems)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    w,
                    "  {}: {} events ({}{extra})",
                    s.path,
                    s.events,
                    s.format.map_or("nothing read", Format::name)
                );
            }
            let _ = writeln!(w, "events by seam: {}", fmt(&by_seam));
            let vs = verdicts
                .iter()
                .map(|(k, v)| format!("{} {v}", style.verdict(k)))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(w, "verdicts: {vs}");
            let _ = writeln!(w, "{}", style.bold("rule hits:"));
            let mut hv: Vec<_> = hits.iter().collect();
            hv.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (r, n) in hv {
                let _ = writeln!(w, "  {n:>6}  {r}");
            }
            let _ = writeln!(
                w,
                "{} {}",
                style.bold("rules that never fired:"),
                if never.is_empty() {
                    "none".to_string()
                } else {
                    never.len().to_string()
                }
            );
            for (r, s) in &never {
                let _ = writeln!(w, "  {r} ({s})");
            }
            let _ = writeln!(
                w,
                "{}",
                style.bold(&format!(
                    "decisions other than allow ({}):",
                    decisions.len()
                ))
            );
            for d in &decisions {
                let s = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                let reason = s("reason");
                let rules = d
                    .get("rules")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                let _ = writeln!(
                    w,
                    "  {}:{}  {} {}  {}  [{}]  {}\n      {}",
                    s("file"),
                    d.get("line").and_then(Value::as_u64).unwrap_or(0),
                    s("seam"),
                    s("subject"),
                    style.verdict(&s("verdict")),
                    rules,
                    s("summary"),
                    reason.lines().next().unwrap_or("")
                );
            }
            if !would_run.is_empty() {
                let _ = writeln!(
                    w,
                    "{}",
                    style.bold(&format!(
                        "command hooks not executed ({}; --exec-hooks runs them):",
                        would_run.len()
                    ))
                );
                for r in &would_run {
                    let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    let _ = writeln!(
                        w,
                        "  {}:{}  [{}]  would run: {}",
                        s("file"),
                        r.get("line").and_then(Value::as_u64).unwrap_or(0),
                        s("rule"),
                        s("command")
                    );
                }
            }
            if baseline.is_some() {
                let _ = writeln!(
                    w,
                    "{}",
                    style.bold(&format!(
                        "changed against the baseline ({} event(s)):",
                        changes.len()
                    ))
                );
                let _ = writeln!(w, "  baseline verdicts: {}", fmt(&base_verdicts));
                for c in &changes {
                    let s = |v: &Value, k: &str| {
                        v.get(k).and_then(Value::as_str).unwrap_or("").to_string()
                    };
                    let side = |v: &Value| {
                        let rules = v
                            .get("rules")
                            .and_then(Value::as_array)
                            .map(|a| {
                                a.iter()
                                    .filter_map(Value::as_str)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            })
                            .unwrap_or_default();
                        format!("{} [{rules}]", style.verdict(&s(v, "verdict")))
                    };
                    let b = c.get("baseline").cloned().unwrap_or(Value::Null);
                    let p = c.get("policy").cloned().unwrap_or(Value::Null);
                    let _ = writeln!(
                        w,
                        "  {}:{}  {} {}  {}\n      baseline {}  ->  policy {}",
                        s(c, "file"),
                        c.get("line").and_then(Value::as_u64).unwrap_or(0),
                        s(c, "seam"),
                        s(c, "subject"),
                        s(c, "summary"),
                        side(&b),
                        side(&p),
                    );
                }
            }
        }
    }
    if o.format != OutputFormat::Jsonl {
        for p in &problems {
            eprintln!("{p}");
        }
    }
    let errors = problems
        .iter()
        .filter(|p| p.kind == ProblemKind::Unreadable)
        .count();
    if !problems.is_empty() {
        eprintln!(
            "seamguard: {errors} unreadable record(s), {} skipped; the rest was replayed",
            problems.len() - errors
        );
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
