//! `seamguard replay`: dry-run recorded agent sessions against policies, never acting on them.
//!
//! Every file is read by [`seamguard_engine::readers`] (format detected per file: Claude Code
//! transcripts, Codex rollouts, hook-payload logs, Gemini CLI chats), or, for seamguard's own
//! audit log, by `audit_log` (its records that kept their input, re-judged, with the recorded
//! decision as the baseline when no `--baseline` is given); every event is evaluated
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
//! | `files` | `[{path, format, events, problems}]`, `format` one of `hook-log`, `claude-transcript`, `codex-rollout`, `gemini-chat`, `audit-log` (`null` when nothing was read) |
//! | `events` | number of events evaluated |
//! | `selected` | `null`, or with `--verdict` / `--rule` / `--only-changed` `{verdicts, rules, only_changed, events}` (`events`: how many passed the filters; every count and list below is about those, except `never_fired`) |
//! | `events_by_seam` | `{seam: count}` (`pre-tool`, `post-tool`, `prompt-submit`, …) |
//! | `verdicts` | `{verdict: count}` (`none`, `allow`, `ask`, `deny`, `block`, `continue`, …) |
//! | `rule_hits` | `{rule id: events it fired on}` |
//! | `never_fired` | `[{rule, source}]`: rules that fired on no event (`source` is `file:line:column`) |
//! | `decisions` | every event whose verdict is not `none`/`allow`, or that adds context or halts: an *event record* |
//! | `would_run` | `[{file, line, rule, command}]`: command hooks that fired and were not executed |
//! | `diff` | `null`, or with `--baseline` (or an audit log: its recorded decisions) `{against, changed, changes, baseline_verdicts, baseline_rule_hits, events: [{file, line, format, dialect, seam, subject, summary, baseline: OUTCOME, policy: OUTCOME}]}`; `against` is `baseline` or `recorded`; `changes` is `{transitions: [TRANSITION], rules: [{rule, added, removed, transitions: [TRANSITION]}]}`, a TRANSITION `{from, to, events}` (most events first, then by name) |
//! | `problems` | `[{file, line, kind, message}]`, `kind` `error` (unreadable) or `skipped` (read, not replayed) |
//!
//! An *event record* is `{file, line, format, dialect, seam, subject, summary, verdict,
//! reason, rules, contexts, halt, would_run}`; `line` is 1-based (entry index for JSON
//! arrays and Gemini chats), `subject` the matcher subject (tool name, …), `summary` the
//! command / path / prompt shortened to one line, `rules` the fired rule ids in order. An
//! OUTCOME is `{verdict, reason, rules}`.
//!
//! `--format jsonl` writes one compact line per selected event (`{"type": "event", …event
//! record…}`, plus `"baseline": OUTCOME` with a baseline), one per problem (`{"type":
//! "problem", file, line, kind, message}`), and a last line `{"type": "summary", events,
//! events_by_seam, verdicts, rule_hits, changed, changes, selected}`. Lines come in file
//! order, also when files are replayed side by side.
//!
//! # Filters
//!
//! `--verdict` (the verdict with the policies), `--rule` (fired with the policies or the
//! baseline) and `--only-changed` (verdict or firing rules differ from the baseline) select
//! events; all of them must hold. With a filter every selected event is listed, allowed ones
//! included, and `--fail-on` looks only at the selected events. The text report starts with
//! the grouped changes (`allow → deny: 3`, then per rule `+n` / `-n` changed events it now
//! fires / no longer fires on) whenever there is a baseline.
//!
//! # Layout
//!
//! `report` holds the typed report (the JSON keys above, in order) and its JSONL lines,
//! `text` renders the same report for people, `progress` shows progress on stderr.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use seamguard_engine::readers::{self, Item, ProblemKind, ReadOptions};
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::{
    Decision, DecisionTable, Dialect, Engine, LoadedPolicy, MemoryLedger, Request, Seam,
    SharedResolutions, Verdict,
};

use crate::{bump, show};

pub(crate) mod audit_log;
mod memory;
mod options;
mod parallel;
mod progress;
mod report;
mod text;

use options::{Decoded, Items, items_of};
pub(crate) use options::{Options, OutputFormat};
use parallel::{largest_first, parallel_groups};
use progress::Progress;
use report::{
    Against, Brief, Change, ChangeSummary, EventRecord, FileStat, JsonlEvent, JsonlProblem,
    JsonlSummary, NeverFired, PendingRun, ProblemRecord, Report, Selected, VERDICT_NAMES, WouldRun,
    fired_set,
};
use text::Style;

/// The policy files of a `--policy` (or `--baseline`) set and what they loaded: read once by
/// the command, which checks them before the replay starts.
pub(crate) struct Policies {
    /// The policy files, as shown in the report.
    pub(crate) names: Vec<String>,
    /// Their loaded policies, in the same order.
    pub(crate) loaded: Vec<LoadedPolicy>,
}

fn load_engine(policies: Policies, exec_hooks: bool) -> (Engine, Vec<String>) {
    let Policies { names, loaded } = policies;
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

/// Whether anything `engine` evaluates reads a tool's result: a rule at a post-tool seam
/// (its tests, redactions and command hooks see the post-tool payload). The session memory
/// remembers pre-tool calls only, and the report shows no tool result.
fn reads_tool_results(engine: &Engine) -> bool {
    [Seam::PostTool, Seam::PostToolFailure]
        .into_iter()
        .any(|s| engine.table().seam_len(s) > 0)
}

fn fail_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Deny | Verdict::Block => 4,
        Verdict::Ask | Verdict::Defer => 2,
        _ => 0,
    }
}

/// Run a replay against `policies` (and `baseline`, loaded from `o.baseline`); exit 1 with
/// `--fail-on` when a matching verdict occurs, 2 on unusable arguments or when no recorded
/// file was found.
pub(crate) fn run(o: &Options, policies: Policies, baseline: Option<Policies>) -> ExitCode {
    let fail_at = match o.fail_on.as_deref() {
        None => None,
        Some("deny") => Some(4u8),
        Some("ask") => Some(2u8),
        Some(x) => {
            eprintln!("seamguard: --fail-on expects `deny` or `ask`, not `{x}`");
            return ExitCode::from(2);
        }
    };
    if let Some(v) = o
        .verdicts
        .iter()
        .find(|v| !VERDICT_NAMES.contains(&v.as_str()))
    {
        eprintln!(
            "seamguard: --verdict {v}: expected one of {}",
            VERDICT_NAMES.join(", ")
        );
        return ExitCode::from(2);
    }
    if o.exec_hooks {
        eprintln!(
            "seamguard: --exec-hooks: command hooks of fired rules are executed (with the recorded payload on stdin)"
        );
    }
    let (engine, policy_names) = load_engine(policies, o.exec_hooks);
    let (baseline, baseline_names) = match baseline {
        None => (None, None),
        Some(b) => {
            let (b, names) = load_engine(b, o.exec_hooks);
            (Some(b), Some(names))
        }
    };
    let files = readers::collect_files(&o.inputs);
    if files.is_empty() {
        eprintln!("seamguard: no recorded files (*.jsonl, *.json) found in the given paths");
        return ExitCode::from(2);
    }
    let audit: Vec<bool> = files.iter().map(|f| audit_log::is_audit_log(f)).collect();
    let recorded = baseline.is_none() && audit.contains(&true);
    if o.only_changed && baseline.is_none() && !recorded {
        eprintln!(
            "seamguard: --only-changed compares with a baseline: give --baseline, or replay an audit log (its recorded decisions are the baseline)"
        );
        return ExitCode::from(2);
    }
    let known = |id: &String| {
        std::iter::once(&engine)
            .chain(baseline.as_ref())
            .any(|e| e.table().rules().iter().any(|r| &r.id == id))
            || id.starts_with("seamguard:")
    };
    if let Some(id) = o.rules.iter().find(|id| !known(id)) {
        if recorded {
            eprintln!(
                "seamguard: --rule {id}: no such rule in the policies; only recorded decisions can match it"
            );
        } else {
            eprintln!("seamguard: --rule {id}: no such rule in the policies or the baseline");
            return ExitCode::from(2);
        }
    }
    let style = Style(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let jsonl = o.format == OutputFormat::Jsonl;
    let mut stdout = std::io::stdout().lock();
    let mut progress = Progress::new();

    let mut report = Report::new(policy_names, baseline_names);
    if recorded {
        report.diff = Some(report::Diff {
            against: Against::Recorded,
            ..report::Diff::default()
        });
    }
    if o.filtered() {
        report.selected = Some(Selected {
            verdicts: o.verdicts.clone(),
            rules: o.rules.clone(),
            only_changed: o.only_changed,
            events: 0,
        });
    }
    let mut failed = false;
    // Tool results no rule reads are left undecoded.
    let read = ReadOptions {
        skip_tool_results: !std::iter::once(&engine)
            .chain(baseline.as_ref())
            .any(reads_tool_results),
    };
    let run = Replay {
        engine: &engine,
        read,
        baseline: baseline.as_ref(),
        dialect: o.dialect,
        fail_at,
        jsonl,
        options: o,
        audit: &audit,
    };
    let (groups, mut kept) = parallel_groups(o, &files, &audit, read);
    if groups.len() > 1 {
        // Each group on its own core, with its own session memory; parts merged in file
        // order, so the report and the lines are what one thread would have written. The
        // files the session scan decoded are replayed from what it kept.
        let work: Vec<(u64, Group)> = groups
            .iter()
            .map(|g| {
                let bytes = g
                    .iter()
                    .filter_map(|&fi| std::fs::metadata(files.get(fi)?).ok())
                    .map(|m| m.len())
                    .sum();
                let items = g
                    .iter()
                    .map(|&fi| (fi, kept.get_mut(fi).and_then(Option::take)))
                    .collect();
                (bytes, items)
            })
            .collect();
        let done = largest_first(work, |group: Group| {
            let mut memories = memory::Memories::default();
            group
                .into_iter()
                .filter_map(|(fi, items)| {
                    let f = files.get(fi)?;
                    let mut lines = Lines::Buffered(Vec::new());
                    let items = items.map_or_else(
                        || run.items_of(fi, f),
                        |v| Box::new(v.into_iter()) as Box<dyn Iterator<Item = _>>,
                    );
                    let part = run.file(fi, f, items, &mut memories, &mut lines, &mut |_, _| {});
                    Some((fi, part.with_lines(lines)))
                })
                .collect::<Vec<_>>()
        });
        let mut parts: Vec<Option<FilePart>> = files.iter().map(|_| None).collect();
        for (fi, part) in done.into_iter().flatten() {
            if let Some(slot) = parts.get_mut(fi) {
                *slot = Some(part);
            }
        }
        for (fi, part) in parts.into_iter().enumerate() {
            let Some(part) = part else { continue };
            for line in &part.lines {
                let _ = writeln!(stdout, "{line}");
            }
            progress.tick(
                fi + 1,
                files.len(),
                report.events + part.stat.events,
                &part.stat.path,
            );
            failed |= part.merge_into(&mut report);
        }
    } else {
        let mut memories = memory::Memories::default();
        for (fi, f) in files.iter().enumerate() {
            let mut lines = Lines::Direct(&mut stdout);
            let before = report.events;
            let items = run.items_of(fi, f);
            let part = run.file(fi, f, items, &mut memories, &mut lines, &mut |n, path| {
                progress.tick(fi + 1, files.len(), before + n, path);
            });
            failed |= part.merge_into(&mut report);
        }
    }
    progress.done();

    report.never_fired = engine
        .table()
        .rules()
        .iter()
        .filter(|r| !report.fired_any.contains(&r.id))
        .map(|r| NeverFired {
            rule: r.id.clone(),
            source: r.source.to_string(),
        })
        .collect();
    if let Some(diff) = &mut report.diff {
        diff.changed = diff.events.len();
        diff.changes = ChangeSummary::of(&diff.events);
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
    if !report.problems.is_empty() && report.events > 0 {
        eprintln!(
            "seamguard: {errors} unreadable record(s), {} skipped; the rest was replayed",
            report.problems.len() - errors
        );
    }
    if report.events == 0 && errors > 0 {
        // Every input was missing or unreadable: nothing was judged, and saying so with exit
        // 0 would read as a clean replay.
        eprintln!(
            "seamguard: no event could be read from the recordings given ({errors} unreadable record(s)); nothing was replayed"
        );
        return ExitCode::from(2);
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

/// Where the `--format jsonl` lines of one file go: straight out (one thread), or kept
/// until the files before it are written (files replayed in parallel).
enum Lines<'a> {
    Direct(&'a mut std::io::StdoutLock<'static>),
    Buffered(Vec<String>),
}

impl Lines<'_> {
    fn push(&mut self, line: String) {
        match self {
            Lines::Direct(out) => {
                let _ = writeln!(out, "{line}");
            }
            Lines::Buffered(v) => v.push(line),
        }
    }
}

/// What one recorded file adds to the report (its own [`Report`], merged in file order).
struct FilePart {
    stat: FileStat,
    part: Report,
    failed: bool,
    /// Its `--format jsonl` lines, when they were kept back.
    lines: Vec<String>,
}

impl FilePart {
    fn with_lines(mut self, lines: Lines<'_>) -> FilePart {
        if let Lines::Buffered(v) = lines {
            self.lines = v;
        }
        self
    }

    /// Add this file to `report`; whether a `--fail-on` verdict occurred in it.
    fn merge_into(self, report: &mut Report) -> bool {
        let FilePart {
            stat, part, failed, ..
        } = self;
        report.files.push(stat);
        report.events += part.events;
        if let (Some(into), Some(from)) = (&mut report.selected, part.selected) {
            into.events += from.events;
        }
        report.fired_any.extend(part.fired_any);
        merge_counts(&mut report.events_by_seam, part.events_by_seam);
        merge_counts(&mut report.verdicts, part.verdicts);
        merge_counts(&mut report.rule_hits, part.rule_hits);
        report.decisions.extend(part.decisions);
        report.would_run.extend(part.would_run);
        report.problems.extend(part.problems);
        report.interruptions.add(&part.interruptions);
        if let (Some(into), Some(from)) = (&mut report.diff, part.diff) {
            merge_counts(&mut into.baseline_verdicts, from.baseline_verdicts);
            merge_counts(&mut into.baseline_rule_hits, from.baseline_rule_hits);
            into.events.extend(from.events);
        }
        failed
    }
}

fn merge_counts(into: &mut BTreeMap<String, usize>, from: BTreeMap<String, usize>) {
    for (k, n) in from {
        *into.entry(k).or_insert(0) += n;
    }
}

/// What every file of one replay is evaluated with.
struct Replay<'a> {
    engine: &'a Engine,
    /// What the readers may leave undecoded.
    read: ReadOptions,
    baseline: Option<&'a Engine>,
    dialect: Option<Dialect>,
    fail_at: Option<u8>,
    jsonl: bool,
    options: &'a Options,
    /// Per file: whether it is an audit log.
    audit: &'a [bool],
}

/// The files of one group, in file order, with their kept items.
type Group = Vec<(usize, Option<Decoded>)>;

impl Replay<'_> {
    /// The items of recorded file number `fi`, read from disk.
    fn items_of(&self, fi: usize, f: &Path) -> Items {
        items_of(f, self.audit.get(fi).copied().unwrap_or(false), self.read)
    }

    /// Replay recorded file number `fi` with the session memories of the files before it in
    /// its group; `tick(events so far, path)` after each event.
    fn file(
        &self,
        fi: usize,
        f: &Path,
        items: Items,
        memories: &mut memory::Memories,
        lines: &mut Lines<'_>,
        tick: &mut dyn FnMut(usize, &str),
    ) -> FilePart {
        let engine = self.engine;
        let o = self.options;
        let audit = self.audit.get(fi).copied().unwrap_or(false);
        let mut report = Report::new(Vec::new(), self.baseline.map(|_| Vec::new()));
        if audit && self.baseline.is_none() {
            report.diff = Some(report::Diff::default());
        }
        if o.filtered() {
            report.selected = Some(Selected::default());
        }
        let mut failed = false;
        let mut st = FileStat {
            path: show(f),
            format: audit.then_some(audit_log::FORMAT_NAME),
            events: 0,
            problems: 0,
            pre_tool: 0,
            interruptions: 0,
        };
        // A dry run changes nothing on disk: each path is resolved once per stretch of
        // events, not once per evaluation (renewed to bound the memory). Command hooks that
        // run (`--exec-hooks`) may change the file system: then once per evaluation.
        let mut resolutions = (!o.exec_hooks).then(SharedResolutions::enter);
        let mut stretch = 0;
        for (item, recorded) in items {
            if stretch == RESOLUTIONS_PER_STRETCH && resolutions.take().is_some() {
                // The old memory ends before the new one starts.
                resolutions = Some(SharedResolutions::enter());
                stretch = 0;
            }
            stretch += 1;
            let ev = match item {
                Item::Event(ev) => ev,
                Item::Problem(p) => {
                    st.problems += 1;
                    if self.jsonl {
                        let line = JsonlProblem {
                            kind: "problem",
                            problem: ProblemRecord::from(&p),
                        };
                        lines.push(json_line(&line));
                    }
                    report.problems.push(p);
                    continue;
                }
            };
            st.format.get_or_insert(ev.format.name());
            st.events += 1;
            report.events += 1;
            tick(st.events, &st.path);
            let dialect = self.dialect.unwrap_or(ev.dialect);
            // The effects the evaluation finds are what the session memory remembers.
            let memory = memories.of(&ev);
            let request = Request::new(ev.seam, &ev.payload, dialect).in_memory(&memory);
            let Decision {
                outcome: mut out,
                effects: fx,
            } = engine.decide(&request);
            let fired = fired_set(&out);
            report.fired_any.extend(fired.iter().cloned());
            // The outcome compared with: the baseline policies', or the recorded one (whose
            // command hooks ran: compared without the ones that only would run here).
            let base = match self.baseline {
                Some(b) => {
                    let b = b.decide(&request).outcome;
                    let base_fired = fired_set(&b);
                    Some((Brief::new(&b, base_fired), Brief::new(&out, fired.clone())))
                }
                None => recorded.map(|r| (r, Brief::new(&out, report::fired_only(&out)))),
            };
            // Let go of the memory before the session adds to it (it is not copied then).
            drop(memory);
            let changed = base
                .as_ref()
                .is_some_and(|(b, now)| b.verdict != now.verdict || b.rules != now.rules);
            let selected = (o.verdicts.is_empty()
                || o.verdicts.iter().any(|v| v == out.verdict().name()))
                && (o.rules.is_empty()
                    || o.rules.iter().any(|id| {
                        fired.contains(id)
                            || base.as_ref().is_some_and(|(b, _)| b.rules.contains(id))
                    }))
                && (!o.only_changed || changed);
            // The person answering: an ask whose concerns an earlier ask of the session
            // approved is what they would have seen: an allow. (Comparisons above are of the
            // policies' own judgments, before any answer.)
            let approved_by = memories.answer(
                &ev,
                engine,
                &mut out,
                fx.as_deref(),
                o.approvals,
                &mut report.interruptions,
            );
            if ev.seam == Seam::PreTool {
                st.pre_tool += 1;
                if approved_by.is_none()
                    && matches!(out.verdict(), Verdict::Ask | Verdict::Deny | Verdict::Defer)
                {
                    st.interruptions += 1;
                }
            }
            memories.record(&ev, &out, engine.table().env(), fx.as_deref());
            if !selected {
                continue;
            }
            if let Some(s) = &mut report.selected {
                s.events += 1;
            }
            bump(&mut report.events_by_seam, ev.seam.name());
            bump(&mut report.verdicts, out.verdict().name());
            for id in &fired {
                bump(&mut report.rule_hits, id);
            }
            if let Some(r) = self.fail_at {
                failed |= fail_rank(out.verdict()) >= r;
            }
            let mut base_brief = None;
            if let (Some((b, now)), Some(diff)) = (base, &mut report.diff) {
                bump(&mut diff.baseline_verdicts, b.verdict);
                for id in &b.rules {
                    bump(&mut diff.baseline_rule_hits, id);
                }
                if changed {
                    let mut c = Change::new(&ev, dialect, b, now);
                    if audit {
                        c.head.format = audit_log::FORMAT_NAME;
                    }
                    if self.jsonl {
                        base_brief = Some(c.baseline.clone());
                    }
                    diff.events.push(c);
                } else if self.jsonl {
                    base_brief = Some(b);
                }
            }
            for run in &out.pending_runs {
                report.would_run.push(WouldRun {
                    file: ev.file.clone(),
                    line: ev.line,
                    run: PendingRun::new(run),
                });
            }
            let listed = o.filtered()
                || approved_by.is_some()
                || !matches!(out.verdict(), Verdict::Abstain | Verdict::Allow)
                || !out.contexts.is_empty()
                || out.halt.is_some();
            if self.jsonl || listed {
                let mut record = EventRecord::new(&ev, dialect, &out, engine.table().env());
                record.approved_by = approved_by;
                if audit {
                    record.head.format = audit_log::FORMAT_NAME;
                }
                if self.jsonl {
                    let line = JsonlEvent {
                        record: &record,
                        kind: "event",
                        baseline: base_brief,
                    };
                    lines.push(json_line(&line));
                } else {
                    report.decisions.push(record);
                }
            }
        }
        FilePart {
            stat: st,
            part: report,
            failed,
            lines: Vec::new(),
        }
    }
}

/// Events replayed with one memory of path resolutions (see [`Replay::file`]).
const RESOLUTIONS_PER_STRETCH: usize = 4096;

/// One JSON line (empty if it cannot be serialized, which typed records always can).
fn json_line(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
