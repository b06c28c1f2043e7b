//! `seamguard trust PATH…`: trust the exact content of project files with command hooks.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::discover;
use crate::report::exit_code;

/// Trust the exact content of project files whose command hooks may run.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Policy or hooks-config files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Record each file's hash in the trust store.
pub(super) fn run(a: &Args) -> ExitCode {
    let store = discover::trust_store();
    let mut failed = false;
    for p in &a.paths {
        match store.trust(p) {
            Ok(h) => println!(
                "trusted {} (sha256 {h}) in {}",
                p.display(),
                store.path().display()
            ),
            Err(e) => {
                eprintln!("seamguard: {e}");
                failed = true;
            }
        }
    }
    exit_code(failed)
}
