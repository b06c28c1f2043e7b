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
//!
//! # Layout
//!
//! `report` holds the typed report (the JSON keys above, in order) and its JSONL lines,
//! `text` renders the same report for people, `progress` shows progress on stderr.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use seamguard_engine::readers::{self, EventReader, Item, ProblemKind};
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::{DecisionTable, Dialect, Engine, MemoryLedger, Verdict};

use crate::{bump, discover, show};

mod memory;
mod progress;
mod report;
mod text;

use progress::Progress;
use report::{
    Brief, Change, EventRecord, FileStat, JsonlEvent, JsonlProblem, JsonlSummary, NeverFired,
    PendingRun, ProblemRecord, Report, WouldRun, fired_set,
};
use text::Style;

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
    let (baseline, baseline_names) = if o.baseline.is_empty() {
        (None, None)
    } else {
        let (b, names) = load_engine(&o.baseline, o.exec_hooks);
        (Some(b), Some(names))
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

    let mut report = Report::new(policy_names, baseline_names);
    let mut failed = false;
    let mut memories = memory::Memories::default();

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
                        let line = JsonlProblem {
                            kind: "problem",
                            problem: ProblemRecord::from(&p),
                        };
                        let _ = writeln!(stdout, "{}", json_line(&line));
                    }
                    report.problems.push(p);
                    continue;
                }
            };
            st.format.get_or_insert(ev.format.name());
            st.events += 1;
            report.events += 1;
            progress.tick(fi + 1, files.len(), report.events, &st.path);
            let dialect = o.dialect.unwrap_or(ev.dialect);
            let out = memories.evaluate(&ev, || engine.evaluate(ev.seam, &ev.payload, dialect));
            bump(&mut report.events_by_seam, ev.seam.name());
            bump(&mut report.verdicts, out.verdict().name());
            let fired = fired_set(&out);
            for id in &fired {
                bump(&mut report.rule_hits, id);
            }
            if let Some(r) = fail_at {
                failed |= fail_rank(out.verdict()) >= r;
            }
            let mut base_brief = None;
            if let (Some(b), Some(diff)) = (&baseline, &mut report.diff) {
                let b = memories.evaluate(&ev, || b.evaluate(ev.seam, &ev.payload, dialect));
                bump(&mut diff.baseline_verdicts, b.verdict().name());
                let base_fired = fired_set(&b);
                for id in &base_fired {
                    bump(&mut diff.baseline_rule_hits, id);
                }
                if b.verdict() != out.verdict() || base_fired != fired {
                    diff.events.push(Change::new(
                        &ev,
                        dialect,
                        Brief::new(&b, base_fired.clone()),
                        Brief::new(&out, fired),
                    ));
                }
                if jsonl {
                    base_brief = Some(Brief::new(&b, base_fired));
                }
            }
            memories.record(&ev, &out, engine.table().env());
            for run in &out.pending_runs {
                report.would_run.push(WouldRun {
                    file: ev.file.clone(),
                    line: ev.line,
                    run: PendingRun::new(run),
                });
            }
            if jsonl {
                let record = EventRecord::new(&ev, dialect, &out, engine.table().env());
                let line = JsonlEvent {
                    record: &record,
                    kind: "event",
                    baseline: base_brief,
                };
                let _ = writeln!(stdout, "{}", json_line(&line));
            } else if !matches!(out.verdict(), Verdict::Abstain | Verdict::Allow)
                || !out.contexts.is_empty()
                || out.halt.is_some()
            {
                report
                    .decisions
                    .push(EventRecord::new(&ev, dialect, &out, engine.table().env()));
            }
        }
        report.files.push(st);
    }
    progress.done();

    report.never_fired = engine
        .table()
        .rules()
        .iter()
        .filter(|r| !report.rule_hits.contains_key(&r.id))
        .map(|r| NeverFired {
            rule: r.id.clone(),
            source: r.source.to_string(),
        })
        .collect();
    if let Some(diff) = &mut report.diff {
        diff.changed = diff.events.len();
    }

    match o.format {
        OutputFormat::Jsonl => {
            let _ = writeln!(stdout, "{}", json_line(&JsonlSummary::of(&report)));
        }
        OutputFormat::Json => {
            let _ = writeln!(
                stdout,
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        OutputFormat::Text => {
            let _ = text::render(&mut stdout, &report, engine.table().rules().len(), style);
        }
    }
    if o.format != OutputFormat::Jsonl {
        for p in &report.problems {
            eprintln!("{p}");
        }
    }
    let errors = report
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::Unreadable)
        .count();
    if !report.problems.is_empty() {
        eprintln!(
            "seamguard: {errors} unreadable record(s), {} skipped; the rest was replayed",
            report.problems.len() - errors
        );
    }
    if fail_at.is_some() && report.events == 0 {
        // Nothing was judged: `--fail-on` cannot vouch for anything.
        eprintln!("seamguard: --fail-on: no event was read from the recordings; failing");
        return ExitCode::from(1);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One JSON line (empty if it cannot be serialized, which typed records always can).
fn json_line(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
