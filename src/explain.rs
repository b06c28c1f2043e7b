//! `seamguard explain`: one event, every rule of its seam, each predicate, the merge and the
//! encoded output per dialect.

use std::path::PathBuf;
use std::process::ExitCode;

use seamguard_engine::Dialect;

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
}

/// Run `seamguard explain`.
pub(crate) fn run(o: &Options) -> ExitCode {
    let _ = o;
    eprintln!("seamguard: explain is not implemented yet");
    ExitCode::from(2)
}
