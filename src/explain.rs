//! `seamguard explain`: one event, the rules of its seam that fired, could not be decided or
//! came close (`--all`: every rule), each with its matcher, the predicate leaves of `when` /
//! `unless` that decided (what a held leaf matched, which list entries), the simple commands
//! a shell test saw, the merged verdict, and the exact bytes each dialect would receive on
//! stdout.
//!
//! The event is a payload file (`--event FILE`, `-` for stdin) or `FILE:LINE` of a recorded
//! session (every event reconstructed from that line: an assistant line with three tool calls
//! gives three pre-tool events). Nothing is executed: fired `run` rules are listed as
//! "would run".

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::explain::{Explanation, Held, PredTrace, RuleTrace, explain};
use seamguard_engine::readers::{EventReader, Item, RecordedEvent};
use seamguard_engine::{DecisionTable, Dialect, Engine, MemoryLedger, Request, RuleKind};

use crate::replay::audit_log::{AuditReader, is_audit_log};
use crate::{discover, outcome_json};

/// Options of `seamguard explain`.
#[derive(Debug)]
pub(crate) struct Options {
    /// `FILE:LINE` of a recorded session.
    pub(crate) target: Option<String>,
    /// `--event FILE`.
    pub(crate) event: Option<PathBuf>,
    /// `--policy`.
    pub(crate) policies: Vec<PathBuf>,
    /// `--dialect`.
    pub(crate) dialect: Option<Dialect>,
    /// `--format json`.
    pub(crate) json: bool,
    /// `--all`: every rule of the seam, each predicate in full (default: the rules that
    /// fired, were unsure or came close, with what matched).
    pub(crate) all: bool,
}

/// Split `FILE:LINE` at its last colon (paths may contain colons).
fn split_target(t: &str) -> Option<(PathBuf, usize)> {
    let (f, l) = t.rsplit_once(':')?;
    let line = l.parse::<usize>().ok()?;
    Some((PathBuf::from(f), line))
}

fn events_of(reader: EventReader, line: Option<usize>) -> (Vec<RecordedEvent>, Vec<String>) {
    let mut events = Vec::new();
    let mut problems = Vec::new();
    for item in reader {
        match item {
            Item::Event(e) => {
                if line.is_none_or(|l| e.line == l) {
                    events.push(e);
                } else if line.is_some_and(|l| e.line > l) && !events.is_empty() {
                    break;
                }
            }
            Item::Problem(p) => {
                if line.is_none_or(|l| p.line == l) {
                    problems.push(p.to_string());
                }
            }
        }
    }
    (events, problems)
}

/// The event of an audit log's `hook/result` record at `line` of `FILE:LINE` target `t`,
/// with the problems of that line (a record kept without its input, a refused payload).
fn audit_events_at(t: &str, line: Option<usize>) -> (Vec<RecordedEvent>, Vec<String>) {
    let Some((file, _)) = split_target(t) else {
        return (Vec::new(), Vec::new());
    };
    let mut events = Vec::new();
    let mut problems = Vec::new();
    for a in AuditReader::open(&file) {
        match a.item {
            Item::Event(e) if line == Some(e.line) => events.push(e),
            Item::Problem(p) if line == Some(p.line) || p.line == 0 => problems.push(p.to_string()),
            _ => {}
        }
    }
    (events, problems)
}

fn mark(h: Held, counted: bool) -> &'static str {
    match (h, counted) {
        (Held::Yes, _) => "✓",
        (Held::No, _) => "✗",
        (Held::Unsure, true) => "? (unsure, counts as held)",
        (Held::Unsure, false) => "? (unsure, counts as not held)",
    }
}

fn print_pred(w: &mut impl Write, t: &PredTrace, depth: usize, seen: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(w, "{pad}{} {}", mark(t.held, t.counted), t.label);
    print_field(w, t, &pad, seen);
    for c in &t.children {
        print_pred(w, c, depth + 1, seen);
    }
}

/// A leaf's field value, why it could not be analysed, and the simple commands seen in it:
/// once per field and event.
fn print_field(w: &mut impl Write, t: &PredTrace, pad: &str, seen: &mut Vec<String>) {
    if let Some(f) = &t.field
        && !seen.contains(f)
    {
        seen.push(f.clone());
        if let Some(v) = &t.value {
            let _ = writeln!(w, "{pad}    {f} = {v:?}");
        } else {
            let _ = writeln!(w, "{pad}    {f}: absent");
        }
        if let Some(u) = &t.unsure {
            let _ = writeln!(w, "{pad}    unsure: {u}");
        }
    }
    // The simple commands a shell test saw: once per field, at the first test that analysed
    // it (the field's first test may be a plain regex).
    if let Some(f) = &t.field
        && !t.commands.is_empty()
    {
        let key = format!("{f}\u{0}commands");
        if !seen.contains(&key) {
            seen.push(key);
            let _ = writeln!(w, "{pad}    simple commands seen:");
            for c in &t.commands {
                let _ = writeln!(w, "{pad}      {c}");
            }
        }
    }
}

/// The part of a predicate that decided, briefly: a held `any` shows only its children that
/// held; every leaf shows its lists cut short, what it matched and which entries matched.
fn print_brief(w: &mut impl Write, t: &PredTrace, depth: usize, seen: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(w, "{pad}{} {}", mark(t.held, t.counted), t.brief);
    if t.field.is_some() {
        // Effect tests read no field of their own: their value is the effects listed above.
        if t.value.is_some() || t.unsure.is_some() || !t.commands.is_empty() {
            print_field(w, t, &pad, seen);
        }
        if let Some(m) = &t.matched {
            let _ = writeln!(w, "{pad}    matched: {m}");
        }
        if !t.entries.is_empty() {
            let _ = writeln!(w, "{pad}    by: {}", t.entries.join(", "));
        }
    }
    let only_held = t.label == "any" && t.field.is_none() && t.counted;
    for c in &t.children {
        if only_held && !c.counted {
            continue;
        }
        print_brief(w, c, depth + 1, seen);
    }
}

/// Whether the default view shows a rule in full: it fired on what could be seen, or came
/// close. A rule that fired or stopped only on the part of the call that could not be
/// resolved ([`undecided`]) is shown in full too when there are few such rules
/// (`few_undecided`); when there are many, they are named in one line instead: the call's
/// one `seamguard:unsure` ask already stands for them.
fn shown(r: &RuleTrace, fired: &[&str], few_undecided: bool) -> bool {
    if undecided(r) && !fired.contains(&r.id.as_str()) {
        return few_undecided && (r.fired || r.close || r.unsure);
    }
    r.fired || (r.matcher_matched && r.close)
}

/// Whether a rule is one the default view names in the one line of rules the unresolved
/// part of the call keeps from being decided.
fn undecided(r: &RuleTrace) -> bool {
    r.matcher_matched && r.unsure
}

/// At most this many rule ids are named on a line of the default view.
const MAX_NAMED: usize = 8;

/// `a, b, c and 4 more`.
fn named(ids: &[&str]) -> String {
    let mut out = ids
        .iter()
        .take(MAX_NAMED)
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > MAX_NAMED {
        out.push_str(&format!(" and {} more", ids.len() - MAX_NAMED));
    }
    out
}

/// A rule in full: its matcher and every node of `when` and `unless`.
fn print_rule_all(w: &mut impl Write, r: &RuleTrace, seen: &mut Vec<String>) {
    let _ = writeln!(
        w,
        "    matcher {}: {}",
        r.matcher,
        if r.matcher_matched {
            "✓ matches"
        } else {
            "✗ no match"
        }
    );
    match &r.when {
        None => {
            let _ = writeln!(w, "    when: (always)");
        }
        Some(t) => {
            let _ = writeln!(w, "    when:");
            print_pred(w, t, 3, seen);
        }
    }
    if let Some(t) = &r.unless {
        let _ = writeln!(w, "    unless:");
        print_pred(w, t, 3, seen);
    }
}

/// A rule briefly: the part of `when` that decided, and `unless` when it counted (it
/// excused the rule, or could not be decided).
fn print_rule_brief(w: &mut impl Write, r: &RuleTrace, seen: &mut Vec<String>) {
    let _ = writeln!(w, "    matcher {}: ✓ matches", r.matcher);
    match &r.when {
        None => {
            let _ = writeln!(w, "    when: (always)");
        }
        Some(t) => {
            let _ = writeln!(w, "    when:");
            print_brief(w, t, 3, seen);
        }
    }
    if let Some(t) = r
        .unless
        .as_ref()
        .filter(|u| u.counted || u.held == Held::Unsure)
    {
        let _ = writeln!(w, "    unless:");
        print_brief(w, t, 3, seen);
    }
}

fn print_text(w: &mut impl Write, ev: &RecordedEvent, x: &Explanation, color: bool, all: bool) {
    let b = |s: &str| {
        if color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let _ = writeln!(
        w,
        "{}",
        b(&format!(
            "{}  {} event ({}, {}), subject {:?}",
            ev.location(),
            x.seam,
            ev.format,
            x.dialect,
            x.subjects.join(" / ")
        ))
    );
    if !x.effects.is_empty() {
        let _ = writeln!(w, "  effects:");
        for e in &x.effects {
            let _ = writeln!(w, "    {e}");
        }
    }
    let mut seen: Vec<String> = Vec::new();
    if x.rules.is_empty() {
        let _ = writeln!(w, "  no rule at this seam");
    }
    let mut hidden = 0;
    let mut unresolved: Vec<&str> = Vec::new();
    let fired = x.outcome.fired_ids();
    let few_undecided = x.rules.iter().filter(|r| undecided(r)).count() <= MAX_NAMED;
    for r in &x.rules {
        if !all && !shown(r, &fired, few_undecided) {
            if undecided(r) {
                unresolved.push(&r.id);
            } else {
                hidden += 1;
            }
            continue;
        }
        let kind = match r.kind {
            RuleKind::Hook => "rule",
            RuleKind::Guard => "guard",
        };
        let verdict = if r.fired && r.unsure && !all {
            "FIRES (unsure: counted fail-closed)"
        } else if r.fired {
            "FIRES"
        } else if !all && r.close && r.unless.as_ref().is_some_and(|u| u.counted) {
            "came close: `unless` excused it"
        } else if !all && r.close {
            "came close: one leaf did not hold"
        } else if !all {
            "unsure, does not fire"
        } else {
            "does not fire"
        };
        let _ = writeln!(
            w,
            "  {kind} {} ({}) — {verdict} → {}",
            b(&r.id),
            r.source,
            r.action
        );
        if all {
            print_rule_all(w, r, &mut seen);
        } else {
            print_rule_brief(w, r, &mut seen);
        }
        if let Some(c) = &r.run {
            let _ = writeln!(
                w,
                "    run: {c}{}",
                if r.fired {
                    "  (would run: not executed)"
                } else {
                    ""
                }
            );
        }
        if r.fired != r.engine_fired {
            let _ = writeln!(
                w,
                "    note: the engine {} this rule but the reference evaluator says it {} (please report)",
                if r.engine_fired {
                    "fired"
                } else {
                    "did not fire"
                },
                if r.fired { "fires" } else { "does not fire" }
            );
        }
    }
    if !unresolved.is_empty() {
        let _ = writeln!(
            w,
            "  {} rule(s) could not be decided on the part of the call that cannot be resolved (--all shows each): {}",
            unresolved.len(),
            named(&unresolved)
        );
    }
    if hidden > 0 {
        let _ = writeln!(
            w,
            "  {hidden} other rule(s) of this seam did not fire and did not come close (--all lists every rule)"
        );
    }
    let o = &x.outcome;
    let _ = writeln!(
        w,
        "{} {}  (fired: [{}])",
        b("merged verdict:"),
        o.verdict().name(),
        o.fired_ids().join(", ")
    );
    let reason = o.reason_text();
    if !reason.is_empty() {
        let _ = writeln!(w, "  reason: {}", reason.replace('\n', "\n          "));
    }
    for (id, c) in &o.pending_runs {
        let _ = writeln!(w, "  would run: {c}  [{id}]");
    }
    for warn in &o.warnings {
        let _ = writeln!(w, "  warning: {warn}");
    }
    for (d, od, e) in &x.encoded {
        let stdout = if e.stdout.is_empty() {
            "(nothing)".to_string()
        } else {
            e.stdout.trim_end_matches('\n').to_string()
        };
        let _ = writeln!(
            w,
            "  {} stdout ({}; exit {}): {stdout}",
            b(d.name()),
            od.verdict().name(),
            e.exit_code
        );
    }
}

fn load(path: &Path) -> EventReader {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
            eprintln!("seamguard: cannot read stdin: {e}");
        }
        return EventReader::from_reader("<stdin>", std::io::Cursor::new(buf));
    }
    EventReader::open(path)
}

/// The policies the hook would enforce for `payload`: the `--policy` paths or the discovered
/// folders, a file with errors failing closed as in the hook; the built-in balanced library
/// when nothing is configured anywhere (said on stderr, as `try` says it).
fn policies(o: &Options, payload: Option<&Value>) -> Vec<seamguard_engine::LoadedPolicy> {
    let files = discover::policy_paths(&o.policies, payload);
    if files.is_empty() && o.policies.is_empty() {
        eprintln!("{}", crate::library::JUDGING_NOTICE);
        return crate::library::load_balanced(seamguard_engine::LoadOptions::default());
    }
    let mut loaded = discover::load_all(&files);
    discover::apply_load_error_default(&mut loaded, None);
    loaded
}

/// Run `seamguard explain`.
pub(crate) fn run(o: &Options) -> ExitCode {
    let (reader, line) = match (&o.event, &o.target) {
        (Some(f), _) => (load(f), None),
        (None, Some(t)) => match split_target(t) {
            Some((f, l)) => (EventReader::open(&f), Some(l)),
            None => {
                eprintln!("seamguard: expected FILE:LINE (or --event FILE), got `{t}`");
                return ExitCode::from(2);
            }
        },
        (None, None) => {
            eprintln!("seamguard: give FILE:LINE or --event FILE");
            return ExitCode::from(2);
        }
    };
    let audit = matches!((&o.event, &o.target), (None, Some(t))
        if split_target(t).is_some_and(|(f, _)| is_audit_log(&f)));
    let (events, problems) = match &o.target {
        // seamguard's own audit log: the record at the line, re-judged from its input (as
        // `replay` re-judges it).
        Some(t) if audit => audit_events_at(t, line),
        _ => events_of(reader, line),
    };
    for p in &problems {
        eprintln!("{p}");
    }
    if events.is_empty() {
        if audit {
            eprintln!(
                "seamguard: no evaluation there: an audit log's evaluations are its `hook/result` lines that kept their input (`seamguard replay FILE` lists them by line)"
            );
        } else {
            eprintln!("seamguard: no hook event found there");
        }
        return ExitCode::from(2);
    }
    let loaded = policies(o, events.first().map(|e| &e.payload));
    for p in &loaded {
        for d in &p.diagnostics {
            eprintln!("{}", d.render());
        }
    }
    let engine = Engine::new(DecisionTable::new(loaded))
        .with_ledger(Box::new(MemoryLedger::default()))
        .with_observe_enforced(true);
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = std::io::stdout().lock();
    let mut json_out = Vec::new();
    for ev in &events {
        let dialect = o.dialect.unwrap_or(ev.dialect);
        let x = explain(&engine, &Request::new(ev.seam, &ev.payload, dialect));
        if o.json {
            let mut v = x.to_json();
            v["file"] = json!(&*ev.file);
            v["line"] = json!(ev.line);
            v["format"] = json!(ev.format.name());
            v["outcome"] = outcome_json(&x.outcome);
            v["payload"] = ev.payload.clone();
            json_out.push(v);
        } else {
            print_text(&mut out, ev, &x, color, o.all);
            let _ = writeln!(out);
        }
    }
    if o.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&Value::Array(json_out)).unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}
