//! Pieces the commands' reports share: policy diagnostics on stderr, outcomes as JSON, counts,
//! paths, and the exit code of a run that may have failed part-way.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{LoadedPolicy, Outcome, Severity};

/// Print every diagnostic of the policies to stderr; the numbers of errors and warnings.
pub(crate) fn print_diagnostics(policies: &[LoadedPolicy]) -> (usize, usize) {
    let mut errors = 0;
    let mut warnings = 0;
    let mut err = std::io::stderr().lock();
    for p in policies {
        for d in &p.diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let _ = writeln!(err, "{}", d.render());
        }
    }
    (errors, warnings)
}

/// Render an outcome as one JSON object for reports.
pub(crate) fn outcome_json(o: &Outcome) -> Value {
    json!({
        "verdict": o.verdict().name(),
        "reason": o.reason_text(),
        "rules": o.fired_ids(),
        "contexts": o.contexts.iter().map(|c| c.text.clone()).collect::<Vec<_>>(),
        "halt": o.halt.as_ref().map(|h| h.text.clone()),
    })
}

/// Count helper for reports.
pub(crate) fn bump(map: &mut BTreeMap<String, usize>, key: &str) {
    *map.entry(key.to_string()).or_insert(0) += 1;
}

/// A path as reports show it.
pub(crate) fn show(p: &Path) -> String {
    p.display().to_string()
}

/// Exit 1 when anything failed, else 0.
pub(crate) fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
