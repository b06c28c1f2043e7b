//! `seamguard explain`: the flags of [`crate::explain`].

use std::path::PathBuf;
use std::process::ExitCode;

use super::{DialectArg, Format};
use crate::explain;

/// Explain one event: the rules of its seam that fired, were unsure or came close (`--all`:
/// every rule), each predicate, the merge, the encoded output.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// `FILE:LINE` of a recorded session (every event recorded at that line) or of
    /// seamguard's audit log (the evaluation recorded there, judged again from its input).
    #[arg(required_unless_present = "event", conflicts_with = "event")]
    target: Option<String>,
    /// A file holding one hook payload (JSON), or `-` for stdin.
    #[arg(long, value_name = "FILE")]
    event: Option<PathBuf>,
    /// Policy file or folder (repeatable; default: discovered policies).
    #[arg(long = "policy", value_name = "PATH")]
    policies: Vec<PathBuf>,
    /// Dialect to evaluate in (default: the dialect of the event).
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// List every rule of the seam with each predicate in full (default: only the rules that
    /// fired, could not be decided or came close — matcher matched and one leaf short — with
    /// what matched: the effect, the glob or list entry). `--format json` always lists every
    /// rule.
    #[arg(long)]
    all: bool,
    /// Output format (`text` or `json`).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Explain the event with [`crate::explain::run`].
pub(super) fn run(a: Args) -> ExitCode {
    explain::run(&explain::Options {
        target: a.target,
        event: a.event,
        policies: a.policies,
        dialect: a.dialect.map(Into::into),
        json: a.format != Format::Text,
        all: a.all,
    })
}
