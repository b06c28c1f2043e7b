//! The human-readable replay summary (`--format text`), rendered from the typed [`Report`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::report::{Brief, Report};

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

/// Write the text summary of `report`, replayed with `rules` rule(s).
pub(super) fn render(
    w: &mut impl Write,
    report: &Report,
    rules: usize,
    style: Style,
) -> io::Result<()> {
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
    writeln!(w, "events by seam: {}", counts(&report.events_by_seam))?;
    let vs = report
        .verdicts
        .iter()
        .map(|(k, v)| format!("{} {v}", style.verdict(k)))
        .collect::<Vec<_>>()
        .join(", ");
    writeln!(w, "verdicts: {vs}")?;
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
    let n = report.decisions.len();
    writeln!(
        w,
        "{}",
        style.bold(&format!("decisions other than allow ({n}):"))
    )?;
    for d in &report.decisions {
        writeln!(
            w,
            "  {}:{}  {} {}  {}  [{}]  {}\n      {}",
            d.head.file,
            d.head.line,
            d.head.seam,
            d.head.subject,
            style.verdict(d.verdict),
            joined(&d.rules),
            d.head.summary,
            d.reason.lines().next().unwrap_or("")
        )?;
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
    if let Some(diff) = &report.diff {
        let n = diff.events.len();
        writeln!(
            w,
            "{}",
            style.bold(&format!("changed against the baseline ({n} event(s)):"))
        )?;
        writeln!(
            w,
            "  baseline verdicts: {}",
            counts(&diff.baseline_verdicts)
        )?;
        let side = |b: &Brief| format!("{} [{}]", style.verdict(b.verdict), joined(&b.rules));
        for c in &diff.events {
            writeln!(
                w,
                "  {}:{}  {} {}  {}\n      baseline {}  ->  policy {}",
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
