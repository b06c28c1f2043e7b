//! `seamguard check`: load and compile policy files, print their diagnostics and a summary.

use std::path::PathBuf;
use std::process::ExitCode;

use seamguard_engine::{DecisionTable, Seam, Severity};

use crate::discover;
use crate::report::{exit_code, print_diagnostics};

/// Validate policy files: spanned diagnostics, non-zero exit on errors.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Policy files or folders (default: discovered policies).
    paths: Vec<PathBuf>,
    /// Treat lint warnings (unknown tools, tests naming no rule, files or rule ids loaded
    /// twice, shadowed rules, conditions that never hold) as errors.
    #[arg(long)]
    deny_warnings: bool,
}

/// Exit 1 when a file has errors (or, with `--deny-warnings`, warnings) or no file is found.
pub(super) fn run(a: &Args) -> ExitCode {
    let (files, mut lints) = crate::lint::dedupe(discover::found_policy_paths(&a.paths, None));
    if files.is_empty() {
        eprintln!("seamguard: no policy files found (give a path, or create .seamguard/*.toml)");
        return ExitCode::from(1);
    }
    let loaded = discover::load_all(&files);
    let (mut errors, mut warnings) = print_diagnostics(&loaded);
    lints.extend(crate::lint::lint(&loaded));
    for mut l in lints {
        if a.deny_warnings {
            l.severity = Severity::Error;
            errors += 1;
        } else {
            warnings += 1;
        }
        eprintln!("{}", l.render());
    }
    let n_policies = loaded.len();
    let table = DecisionTable::new(loaded);
    for e in table.compile_all() {
        eprintln!("error: {e}");
        errors += 1;
    }
    let mut per_seam = Vec::new();
    for s in Seam::ALL {
        let n = table.seam_len(s);
        if n > 0 {
            per_seam.push(format!("{s}: {n}"));
        }
    }
    println!(
        "{n_policies} policy file(s), {} rule(s) ({}), {errors} error(s), {warnings} warning(s)",
        table.rules().len(),
        if per_seam.is_empty() {
            "none".to_string()
        } else {
            per_seam.join(", ")
        }
    );
    exit_code(errors > 0 || (a.deny_warnings && warnings > 0))
}
