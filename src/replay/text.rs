//! The human-readable replay summary (`--format text`), rendered from the typed [`Report`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::report::{Against, Brief, ChangeSummary, Report, Transition};

/// ANSI styling, on only when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Clone, Copy)]
pub(super) struct Style(pub(super) bool);

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

/// `key count, key count, …`.
fn counts(m: &BTreeMap<String, usize>) -> String {
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rule ids joined by commas.
fn joined<'a>(ids: impl IntoIterator<Item = &'a String>) -> String {
    ids.into_iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `before → after: n, …`.
fn transitions(t: &[Transition]) -> String {
    t.iter()
        .map(|t| format!("{} → {}: {}", t.from, t.to, t.events))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The grouped changes, printed first: `allow → deny: 3` per verdict pair, then per rule
/// the changed events it now fires on (`+n`) and no longer fires on (`-n`).
fn render_changes(
    w: &mut impl Write,
    c: &ChangeSummary,
    changed: usize,
    against: Against,
    events: usize,
    style: Style,
) -> io::Result<()> {
    let what = match against {
        Against::Baseline => "the baseline",
        Against::Recorded => "the recorded decisions",
    };
    writeln!(
        w,
        "{}",
        style.bold(&format!(
            "changes against {what}: {changed} of {events} event(s)"
        ))
    )?;
    for t in &c.transitions {
        writeln!(w, "  {} → {}: {}", t.from, t.to, t.events)?;
    }
    if !c.rules.is_empty() {
        writeln!(w, "{}", style.bold("changes per rule:"))?;
    }
    for r in &c.rules {
        let mut counts = Vec::new();
        if r.added > 0 {
            counts.push(format!("+{}", r.added));
        }
        if r.removed > 0 {
            counts.push(format!("-{}", r.removed));
        }
        writeln!(
            w,
            "  {}  {}  ({})",
            r.rule,
            counts.join(" "),
            transitions(&r.transitions)
        )?;
    }
    Ok(())
}

/// Write the text summary of `report`, replayed with `rules` rule(s).
pub(super) fn render(
    w: &mut impl Write,
    report: &Report,
    rules: usize,
    style: Style,
) -> io::Result<()> {
    let selected = report.selected.as_ref().map_or(report.events, |s| s.events);
    if let Some(diff) = &report.diff {
        render_changes(
            w,
            &diff.changes,
            diff.changed,
            diff.against,
            selected,
            style,
        )?;
    }
    writeln!(
        w,
        "{}",
        style.bold(&format!(
            "replayed {} events from {} file(s) with {rules} rule(s)",
            report.events,
            report.files.len(),
        ))
    )?;
    for s in &report.files {
        let extra = if s.problems > 0 {
            format!(", {} problem(s)", s.problems)
        } else {
            String::new()
        };
        writeln!(
            w,
            "  {}: {} events ({}{extra})",
            s.path,
            s.events,
            s.format.unwrap_or("nothing read")
        )?;
    }
    if let Some(s) = &report.selected {
        let mut filters = Vec::new();
        if !s.verdicts.is_empty() {
            filters.push(format!("--verdict {}", s.verdicts.join(",")));
        }
        for r in &s.rules {
            filters.push(format!("--rule {r}"));
        }
        if s.only_changed {
            filters.push("--only-changed".to_string());
        }
        writeln!(
            w,
            "selected {} of {} events ({}); the counts and lists below are about them",
            s.events,
            report.events,
            filters.join(" ")
        )?;
    }
    writeln!(w, "events by seam: {}", counts(&report.events_by_seam))?;
    let vs = report
        .verdicts
        .iter()
        .map(|(k, v)| format!("{} {v}", style.verdict(k)))
        .collect::<Vec<_>>()
        .join(", ");
    writeln!(w, "verdicts: {vs}")?;
    let i = &report.interruptions;
    if i.pre_tool_events > 0 {
        let n =
            |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        let answered = match (i.approvals_modelled, i.approved) {
            (false, _) => "; approvals not modelled".to_string(),
            (true, 0) => String::new(),
            (true, k) => format!(
                "; not counted: {} answered earlier in the session",
                n(k, "ask", "asks")
            ),
        };
        writeln!(
            w,
            "interruptions: {} of {} pre-tool events = {} per 1,000 ({}, {}{answered}); {} = {} per 1,000",
            i.interruptions,
            i.pre_tool_events,
            i.per_1000,
            n(i.asks, "ask", "asks"),
            n(i.denies, "deny", "denies"),
            n(i.distinct_concerns, "distinct concern", "distinct concerns"),
            i.distinct_concerns_per_1000
        )?;
    }
    writeln!(w, "{}", style.bold("rule hits:"))?;
    let mut hv: Vec<_> = report.rule_hits.iter().collect();
    hv.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (r, n) in hv {
        if r == seamguard_engine::UNSURE_RULE {
            // Lines with a part seamguard cannot resolve: one ask each, whatever number of
            // rules could have been involved.
            writeln!(w, "  {n:>6}  {r}  (undecidable: asked once per call)")?;
        } else {
            writeln!(w, "  {n:>6}  {r}")?;
        }
    }
    let n = report.decisions.len();
    let title = if report.selected.is_some() {
        format!("selected events ({n}):")
    } else {
        // Asks an earlier answer covered are listed too, as the allow they became.
        let approved = report
            .decisions
            .iter()
            .filter(|d| d.verdict == "allow")
            .count();
        if approved > 0 {
            format!("decisions other than allow, and asks answered earlier ({n}):")
        } else {
            format!("decisions other than allow ({n}):")
        }
    };
    writeln!(w, "{}", style.bold(&title))?;
    for d in &report.decisions {
        writeln!(
            w,
            "  {}:{}  {} {}  {}  [{}]  {}",
            d.head.file,
            d.head.line,
            d.head.seam,
            d.head.subject,
            style.verdict(d.verdict),
            joined(&d.rules),
            d.head.summary,
        )?;
        // An event no rule decided (listed by a filter) has no reason.
        if let Some(reason) = d.reason.lines().next().filter(|r| !r.is_empty()) {
            writeln!(w, "      {reason}")?;
        }
        // What the call does besides running its programs (the summary shows those).
        let seen: Vec<&str> = d
            .effects
            .iter()
            .filter(|e| !e.starts_with("runs "))
            .map(String::as_str)
            .take(4)
            .collect();
        if !seen.is_empty() {
            writeln!(w, "      effects: {}", seen.join("; "))?;
        }
    }
    if !report.would_run.is_empty() {
        let n = report.would_run.len();
        writeln!(
            w,
            "{}",
            style.bold(&format!(
                "command hooks not executed ({n}; --exec-hooks runs them):"
            ))
        )?;
        for r in &report.would_run {
            writeln!(
                w,
                "  {}:{}  [{}]  would run: {}",
                r.file, r.line, r.run.rule, r.run.command
            )?;
        }
    }
    // After the decisions: what they show matters first.
    let never = &report.never_fired;
    writeln!(
        w,
        "{} {}",
        style.bold("rules that never fired:"),
        if never.is_empty() {
            "none".to_string()
        } else {
            never.len().to_string()
        }
    )?;
    for n in never {
        writeln!(w, "  {} ({})", n.rule, n.source)?;
    }
    if let Some(diff) = &report.diff {
        let n = diff.events.len();
        let (what, side_name) = match diff.against {
            Against::Baseline => ("the baseline", "baseline"),
            Against::Recorded => ("the recorded decisions", "recorded"),
        };
        writeln!(
            w,
            "{}",
            style.bold(&format!("changed against {what} ({n} event(s)):"))
        )?;
        writeln!(
            w,
            "  {side_name} verdicts: {}",
            counts(&diff.baseline_verdicts)
        )?;
        let side = |b: &Brief| format!("{} [{}]", style.verdict(b.verdict), joined(&b.rules));
        for c in &diff.events {
            writeln!(
                w,
                "  {}:{}  {} {}  {}\n      {side_name} {}  ->  policy {}",
                c.head.file,
                c.head.line,
                c.head.seam,
                c.head.subject,
                c.head.summary,
                side(&c.baseline),
                side(&c.policy),
            )?;
        }
    }
    Ok(())
}
