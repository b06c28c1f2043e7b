//! `seamguard check`: load and compile policy files, print their diagnostics and a summary.

use std::path::PathBuf;
use std::process::ExitCode;

use seamguard_engine::{DecisionTable, Seam};

use crate::discover;
use crate::report::{exit_code, print_diagnostics};

/// Validate policy files: spanned diagnostics, non-zero exit on errors.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Policy files or folders (default: discovered policies).
    paths: Vec<PathBuf>,
}

/// Exit 1 when a file has errors or no file is found.
pub(super) fn run(a: &Args) -> ExitCode {
    let files = discover::policy_paths(&a.paths, None);
    if files.is_empty() {
        eprintln!("seamguard: no policy files found (give a path, or create .seamguard/*.toml)");
        return ExitCode::from(1);
    }
    let loaded = discover::load_all(&files);
    let (mut errors, warnings) = print_diagnostics(&loaded);
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
    exit_code(errors > 0)
}
