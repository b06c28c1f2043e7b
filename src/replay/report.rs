//! The replay report as typed data: what the JSON report (`seamguard.replay/1`), the JSONL
//! lines and the text summary are all rendered from. Field order is the key order of the
//! JSON output.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;

use seamguard_engine::readers::{ReadProblem, RecordedEvent};
use seamguard_engine::{Dialect, Outcome, Verdict};

/// The schema name of the JSON report.
const SCHEMA: &str = "seamguard.replay/1";

/// The whole report of one replay (`--format json`).
#[derive(Debug, Serialize)]
pub(super) struct Report {
    /// Always [`SCHEMA`].
    schema: &'static str,
    /// Policy files used.
    pub(super) policies: Vec<String>,
    /// `--baseline` policy files (empty without).
    pub(super) baseline_policies: Vec<String>,
    /// One entry per recorded file, in reading order.
    pub(super) files: Vec<FileStat>,
    /// Number of events evaluated.
    pub(super) events: usize,
    /// With `--verdict`, `--rule` or `--only-changed`: the filters and the number of events
    /// they selected (every count and list below is about those); `null` without filters.
    pub(super) selected: Option<Selected>,
    /// Events per seam name.
    pub(super) events_by_seam: BTreeMap<String, usize>,
    /// Events per verdict name.
    pub(super) verdicts: BTreeMap<String, usize>,
    /// Rule id → events it fired on.
    pub(super) rule_hits: BTreeMap<String, usize>,
    /// Rules that fired on no event.
    pub(super) never_fired: Vec<NeverFired>,
    /// Events with a verdict other than none / allow, a context or a halt.
    pub(super) decisions: Vec<EventRecord>,
    /// Command hooks that fired and were not executed.
    pub(super) would_run: Vec<WouldRun>,
    /// The comparison with the baseline (with `--baseline` only).
    pub(super) diff: Option<Diff>,
    /// Records that were not replayed.
    #[serde(serialize_with = "problem_records")]
    pub(super) problems: Vec<ReadProblem>,
    /// What a person would have seen on the pre-tool events (all events, whatever the
    /// filters).
    pub(super) interruptions: Interruptions,
    /// Every rule that fired on an event, selected or not (for `never_fired`).
    #[serde(skip)]
    pub(super) fired_any: BTreeSet<String>,
}

impl Report {
    /// An empty report; `baseline` names the baseline policy files when there is one.
    pub(super) fn new(policies: Vec<String>, baseline: Option<Vec<String>>) -> Report {
        Report {
            schema: SCHEMA,
            policies,
            diff: baseline.as_ref().map(|_| Diff::default()),
            baseline_policies: baseline.unwrap_or_default(),
            files: Vec::new(),
            events: 0,
            selected: None,
            events_by_seam: BTreeMap::new(),
            verdicts: BTreeMap::new(),
            rule_hits: BTreeMap::new(),
            never_fired: Vec::new(),
            decisions: Vec::new(),
            would_run: Vec::new(),
            problems: Vec::new(),
            interruptions: Interruptions::default(),
            fired_any: BTreeSet::new(),
        }
    }
}

/// The event filters of a replay and what they selected.
#[derive(Debug, Default, Serialize)]
pub(super) struct Selected {
    /// `--verdict` names (empty: any verdict).
    pub(super) verdicts: Vec<String>,
    /// `--rule` ids (empty: any rule).
    pub(super) rules: Vec<String>,
    /// `--only-changed`.
    pub(super) only_changed: bool,
    /// Events that passed the filters.
    pub(super) events: usize,
}

/// What was read from one file.
#[derive(Debug, Serialize)]
pub(super) struct FileStat {
    /// The file, as shown.
    pub(super) path: String,
    /// Format name of its first event (`None`: nothing was read).
    pub(super) format: Option<&'static str>,
    /// Events read.
    pub(super) events: usize,
    /// Problems met.
    pub(super) problems: usize,
    /// Pre-tool events read.
    pub(super) pre_tool: usize,
    /// Of those, the interruptions a person would have seen (see [`Interruptions`]).
    pub(super) interruptions: usize,
}

/// The interruptions a person would have seen on the pre-tool events of a replay.
///
/// An *interruption* is a pre-tool call stopped in front of the person: an ask shown, or a
/// deny (defer included). With approvals modelled (the default), each ask shown is answered
/// yes and covers its concerns for the rest of its recorded session; a later ask covered by
/// them is `approved` (shown as an allow), not an interruption.
#[derive(Debug, Default, Clone, Serialize)]
pub(super) struct Interruptions {
    /// Whether asks were answered (not `--no-approvals`).
    pub(super) approvals_modelled: bool,
    /// Pre-tool events replayed.
    pub(super) pre_tool_events: usize,
    /// Asks shown plus denies.
    pub(super) interruptions: usize,
    /// Asks shown.
    pub(super) asks: usize,
    /// Denies (and defers).
    pub(super) denies: usize,
    /// Asks not shown: an earlier answer in the session covered every concern.
    pub(super) approved: usize,
    /// Distinct concerns (rule and object) asked about, counted per session.
    pub(super) distinct_concerns: usize,
    /// `interruptions` per 1,000 pre-tool events.
    pub(super) per_1000: f64,
    /// `distinct_concerns` per 1,000 pre-tool events.
    pub(super) distinct_concerns_per_1000: f64,
}

impl Interruptions {
    /// Add the counts of `o` (another file's), and work the rates out again.
    pub(super) fn add(&mut self, o: &Interruptions) {
        self.approvals_modelled |= o.approvals_modelled;
        self.pre_tool_events += o.pre_tool_events;
        self.interruptions += o.interruptions;
        self.asks += o.asks;
        self.denies += o.denies;
        self.approved += o.approved;
        self.distinct_concerns += o.distinct_concerns;
        let per = |n: usize| {
            if self.pre_tool_events == 0 {
                0.0
            } else {
                (n as f64 * 1000.0 / self.pre_tool_events as f64 * 10.0).round() / 10.0
            }
        };
        self.per_1000 = per(self.interruptions);
        self.distinct_concerns_per_1000 = per(self.distinct_concerns);
    }
}

/// A rule that fired on no event.
#[derive(Debug, Serialize)]
pub(super) struct NeverFired {
    /// Rule id.
    pub(super) rule: String,
    /// `file:line:column` of its declaration.
    pub(super) source: String,
}

/// A command hook that fired and was not executed.
#[derive(Debug, Serialize)]
pub(super) struct WouldRun {
    /// The recorded file.
    pub(super) file: Arc<str>,
    /// Its line (or entry index).
    pub(super) line: usize,
    /// The hook (`rule`, `command`).
    #[serde(flatten)]
    pub(super) run: PendingRun,
}

/// A pending command hook inside an [`EventRecord`].
#[derive(Debug, Serialize)]
pub(super) struct PendingRun {
    /// Rule id.
    pub(super) rule: String,
    /// The command line.
    pub(super) command: String,
}

impl PendingRun {
    /// The pending run of an outcome's `(rule id, command)`.
    pub(super) fn new((rule, command): &(String, String)) -> PendingRun {
        PendingRun {
            rule: rule.clone(),
            command: command.clone(),
        }
    }
}

/// Where a recorded event stands and what it is: the leading fields of an [`EventRecord`]
/// and of a [`Change`].
#[derive(Debug, Serialize)]
pub(super) struct EventHead {
    /// The recorded file.
    pub(super) file: Arc<str>,
    /// 1-based line (entry index for JSON arrays and Gemini chats).
    pub(super) line: usize,
    /// Format name of the file.
    pub(super) format: &'static str,
    /// Dialect the event was evaluated in.
    pub(super) dialect: &'static str,
    /// Seam name.
    pub(super) seam: &'static str,
    /// Matcher subject (tool name, …).
    pub(super) subject: String,
    /// Command / path / prompt on one line.
    pub(super) summary: String,
}

impl EventHead {
    /// The head of `ev` evaluated in `dialect`.
    pub(super) fn new(ev: &RecordedEvent, dialect: Dialect) -> EventHead {
        EventHead {
            file: ev.file.clone(),
            line: ev.line,
            format: ev.format.name(),
            dialect: dialect.name(),
            seam: ev.seam.name(),
            subject: subject_of(ev),
            summary: summary_of(&ev.payload),
        }
    }
}

/// One evaluated event and its outcome (an *event record* of the module doc).
#[derive(Debug, Serialize)]
pub(super) struct EventRecord {
    /// The event.
    #[serde(flatten)]
    pub(super) head: EventHead,
    /// Verdict name.
    pub(super) verdict: &'static str,
    /// Reasons joined, one per line.
    pub(super) reason: String,
    /// Fired rule ids, in order.
    pub(super) rules: Vec<String>,
    /// Additional contexts.
    pub(super) contexts: Vec<String>,
    /// Halt text.
    pub(super) halt: Option<String>,
    /// Command hooks that fired and were not executed.
    pub(super) would_run: Vec<PendingRun>,
    /// What the tool call does (one line per effect, with its route), for events that were
    /// not left alone; empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) effects: Vec<String>,
    /// An ask the person had answered already: the `file:line` of the earlier ask whose
    /// approval covers it (the verdict is then the allow the person saw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) approved_by: Option<String>,
}

impl EventRecord {
    /// The record of `ev` evaluated in `dialect` with outcome `o`; the effects of its tool
    /// call are listed when the outcome is not a plain allow (`env`: home and project).
    pub(super) fn new(
        ev: &RecordedEvent,
        dialect: Dialect,
        o: &Outcome,
        env: &seamguard_engine::ShellEnv,
    ) -> EventRecord {
        let flagged = !matches!(o.verdict(), Verdict::Abstain | Verdict::Allow);
        let effects = if flagged && ev.payload.get("tool_input").is_some() {
            seamguard_engine::effects::effects_of(&ev.payload, env)
                .list
                .iter()
                .map(ToString::to_string)
                .collect()
        } else {
            Vec::new()
        };
        EventRecord {
            effects,
            approved_by: None,
            head: EventHead::new(ev, dialect),
            verdict: o.verdict().name(),
            reason: o.reason_text(),
            rules: o.fired_ids().into_iter().map(str::to_string).collect(),
            contexts: o.contexts.iter().map(|c| c.text.clone()).collect(),
            halt: o.halt.as_ref().map(|h| h.text.clone()),
            would_run: o.pending_runs.iter().map(PendingRun::new).collect(),
        }
    }
}

/// An outcome in brief (an OUTCOME of the module doc).
#[derive(Debug, Clone, Serialize)]
pub(super) struct Brief {
    /// Verdict name.
    pub(super) verdict: &'static str,
    /// Reasons joined, one per line.
    pub(super) reason: String,
    /// Fired rule ids, command hooks that only would run included, sorted.
    pub(super) rules: BTreeSet<String>,
}

impl Brief {
    /// The brief of a decision recorded in an audit log: its verdict name (`None` when it is
    /// not one seamguard writes), reason and rule ids.
    pub(super) fn recorded(
        verdict: &str,
        reason: String,
        rules: BTreeSet<String>,
    ) -> Option<Brief> {
        let verdict = VERDICT_NAMES.iter().copied().find(|v| *v == verdict)?;
        Some(Brief {
            verdict,
            reason,
            rules,
        })
    }

    /// The brief of `o`, whose fired rules are `rules` ([`fired_set`]).
    pub(super) fn new(o: &Outcome, rules: BTreeSet<String>) -> Brief {
        Brief {
            verdict: o.verdict().name(),
            reason: o.reason_text(),
            rules,
        }
    }
}

/// An event whose outcome differs from the baseline's.
#[derive(Debug, Serialize)]
pub(super) struct Change {
    /// The event.
    #[serde(flatten)]
    pub(super) head: EventHead,
    /// Outcome with the baseline policies.
    pub(super) baseline: Brief,
    /// Outcome with the policies.
    pub(super) policy: Brief,
}

impl Change {
    /// The change of `ev` (evaluated in `dialect`) from `baseline` to `policy`.
    pub(super) fn new(
        ev: &RecordedEvent,
        dialect: Dialect,
        baseline: Brief,
        policy: Brief,
    ) -> Change {
        Change {
            head: EventHead::new(ev, dialect),
            baseline,
            policy,
        }
    }
}

/// The verdict names an outcome can have (`--verdict` accepts these).
pub(super) const VERDICT_NAMES: &[&str] = &[
    "none", "allow", "ask", "defer", "deny", "block", "redact", "continue",
];

/// What the outcomes are compared with.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Against {
    /// The `--baseline` policies.
    #[default]
    Baseline,
    /// The decisions recorded in an audit log (no `--baseline` given).
    Recorded,
}

/// The comparison with the baseline policies (or the recorded decisions).
#[derive(Debug, Default, Serialize)]
pub(super) struct Diff {
    /// `baseline` (the `--baseline` policies) or `recorded` (the decisions of an audit log).
    pub(super) against: Against,
    /// Number of changed events (`events.len()`, set when the replay ends).
    pub(super) changed: usize,
    /// The changed events grouped (set when the replay ends).
    pub(super) changes: ChangeSummary,
    /// Events per verdict name with the baseline.
    pub(super) baseline_verdicts: BTreeMap<String, usize>,
    /// Rule id → events it fired on with the baseline.
    pub(super) baseline_rule_hits: BTreeMap<String, usize>,
    /// The changed events.
    pub(super) events: Vec<Change>,
}

/// How many changed events went from one verdict to another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(super) struct Transition {
    /// Verdict before (baseline or recorded).
    pub(super) from: &'static str,
    /// Verdict after (the policies).
    pub(super) to: &'static str,
    /// Number of events.
    pub(super) events: usize,
}

/// What one rule changed: the events it now fires on and no longer fires on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(super) struct RuleChange {
    /// Rule id.
    pub(super) rule: String,
    /// Changed events it fires on with the policies only.
    pub(super) added: usize,
    /// Changed events it fired on with the baseline only.
    pub(super) removed: usize,
    /// The verdict transitions of those events.
    pub(super) transitions: Vec<Transition>,
}

/// The changed events grouped: per verdict transition, and per rule that started or stopped
/// firing. Sorted by number of events (most first), then by name, so the order is stable.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub(super) struct ChangeSummary {
    /// `before → after: n`, for every pair of verdicts (the same verdict twice when only the
    /// firing rules changed).
    pub(super) transitions: Vec<Transition>,
    /// Per rule.
    pub(super) rules: Vec<RuleChange>,
}

impl ChangeSummary {
    /// Group `changes`.
    pub(super) fn of(changes: &[Change]) -> ChangeSummary {
        let mut all = PairCounts::new();
        let mut per_rule: BTreeMap<&str, (usize, usize, PairCounts)> = BTreeMap::new();
        for c in changes {
            let pair = (c.baseline.verdict, c.policy.verdict);
            *all.entry(pair).or_insert(0) += 1;
            let added = c
                .policy
                .rules
                .difference(&c.baseline.rules)
                .map(|r| (r, true));
            let removed = c
                .baseline
                .rules
                .difference(&c.policy.rules)
                .map(|r| (r, false));
            for (rule, is_added) in added.chain(removed) {
                let e = per_rule.entry(rule.as_str()).or_default();
                if is_added {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
                *e.2.entry(pair).or_insert(0) += 1;
            }
        }
        let mut rules: Vec<RuleChange> = per_rule
            .into_iter()
            .map(|(rule, (added, removed, t))| RuleChange {
                rule: rule.to_string(),
                added,
                removed,
                transitions: sorted_transitions(t),
            })
            .collect();
        rules.sort_by(|a, b| {
            (b.added + b.removed)
                .cmp(&(a.added + a.removed))
                .then_with(|| a.rule.cmp(&b.rule))
        });
        ChangeSummary {
            transitions: sorted_transitions(all),
            rules,
        }
    }
}

/// Events per (verdict before, verdict after).
type PairCounts = BTreeMap<(&'static str, &'static str), usize>;

/// Transitions, most events first, then by verdict names.
fn sorted_transitions(m: PairCounts) -> Vec<Transition> {
    let mut v: Vec<Transition> = m
        .into_iter()
        .map(|((from, to), events)| Transition { from, to, events })
        .collect();
    // A stable sort of a name-ordered list: ties keep the name order.
    v.sort_by_key(|t| std::cmp::Reverse(t.events));
    v
}

/// A read problem as reported: `{file, line, kind, message}`.
#[derive(Debug, Serialize)]
pub(super) struct ProblemRecord<'a> {
    file: &'a str,
    line: usize,
    kind: &'static str,
    message: &'a str,
}

impl<'a> From<&'a ReadProblem> for ProblemRecord<'a> {
    fn from(p: &'a ReadProblem) -> ProblemRecord<'a> {
        ProblemRecord {
            file: &p.file,
            line: p.line,
            kind: p.kind.name(),
            message: &p.message,
        }
    }
}

fn problem_records<S: Serializer>(problems: &[ReadProblem], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(problems.iter().map(ProblemRecord::from))
}

/// A `--format jsonl` event line: the event record, then `type` and the baseline outcome.
#[derive(Debug, Serialize)]
pub(super) struct JsonlEvent<'a> {
    /// The event record.
    #[serde(flatten)]
    pub(super) record: &'a EventRecord,
    /// Always `event`.
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    /// The baseline outcome (with `--baseline` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) baseline: Option<Brief>,
}

/// A `--format jsonl` problem line.
#[derive(Debug, Serialize)]
pub(super) struct JsonlProblem<'a> {
    /// Always `problem`.
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    /// The problem.
    #[serde(flatten)]
    pub(super) problem: ProblemRecord<'a>,
}

/// The last `--format jsonl` line.
#[derive(Debug, Serialize)]
pub(super) struct JsonlSummary<'a> {
    /// Always `summary`.
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    /// Number of events.
    pub(super) events: usize,
    /// Events per seam name.
    pub(super) events_by_seam: &'a BTreeMap<String, usize>,
    /// Events per verdict name.
    pub(super) verdicts: &'a BTreeMap<String, usize>,
    /// Rule id → events it fired on.
    pub(super) rule_hits: &'a BTreeMap<String, usize>,
    /// Changed events (`null` without `--baseline` or a recorded baseline).
    pub(super) changed: Option<usize>,
    /// The changed events grouped (`null` without a baseline).
    pub(super) changes: Option<&'a ChangeSummary>,
    /// The filters and the events they selected (`null` without filters).
    pub(super) selected: Option<&'a Selected>,
    /// What a person would have seen on the pre-tool events.
    pub(super) interruptions: &'a Interruptions,
}

impl<'a> JsonlSummary<'a> {
    /// The summary line of `report`.
    pub(super) fn of(report: &'a Report) -> JsonlSummary<'a> {
        JsonlSummary {
            kind: "summary",
            events: report.events,
            events_by_seam: &report.events_by_seam,
            verdicts: &report.verdicts,
            rule_hits: &report.rule_hits,
            changed: report.diff.as_ref().map(|d| d.events.len()),
            changes: report.diff.as_ref().map(|d| &d.changes),
            selected: report.selected.as_ref(),
            interruptions: &report.interruptions,
        }
    }
}

/// The one-line summary of an event: the command, path, URL, pattern or prompt.
pub(super) fn summary_of(payload: &Value) -> String {
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

/// The matcher subject of an event (tool name, …), empty when its seam has none.
fn subject_of(ev: &RecordedEvent) -> String {
    ev.seam
        .matcher_subject()
        .field()
        .and_then(|k| ev.payload.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Rule ids an outcome fired, without command hooks that only would run (what an audit
/// record of the live hook, where they ran, lists).
pub(super) fn fired_only(o: &Outcome) -> BTreeSet<String> {
    o.fired.iter().map(|c| c.rule.clone()).collect()
}

/// Rule ids an outcome fired, including command hooks that only would run.
pub(super) fn fired_set(o: &Outcome) -> BTreeSet<String> {
    o.fired
        .iter()
        .map(|c| c.rule.clone())
        .chain(o.pending_runs.iter().map(|(id, _)| id.clone()))
        .collect()
}
