//! `seamguard replay`: the flags of [`crate::replay`].

use std::path::PathBuf;
use std::process::ExitCode;

use super::{DialectArg, Format};
use crate::replay::{self, OutputFormat};

/// Dry-run recorded sessions (Claude Code transcripts, Codex rollouts, hook-payload logs,
/// Gemini CLI chats) against policies, never acting on them.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Recorded files or folders.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Policy file or folder (repeatable; default: discovered policies).
    #[arg(long = "policy", value_name = "PATH")]
    policies: Vec<PathBuf>,
    /// Policy file or folder to compare against (repeatable): list the events whose
    /// verdict or firing rules differ between the two policy sets.
    #[arg(long = "baseline", value_name = "PATH")]
    baseline: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Exit 1 if any event gets this verdict or a stricter one (`deny` or `ask`).
    #[arg(long, value_name = "VERDICT")]
    fail_on: Option<String>,
    /// Force the dialect of every event (default: the dialect of the recording).
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Execute the `run` command hooks of fired rules (default: list them as "would run").
    #[arg(long)]
    exec_hooks: bool,
}

impl From<Format> for OutputFormat {
    fn from(f: Format) -> OutputFormat {
        match f {
            Format::Text => OutputFormat::Text,
            Format::Json => OutputFormat::Json,
            Format::Jsonl => OutputFormat::Jsonl,
        }
    }
}

/// Replay the recordings with [`crate::replay::run`].
pub(super) fn run(a: Args) -> ExitCode {
    replay::run(&replay::Options {
        inputs: a.files,
        policies: a.policies,
        baseline: a.baseline,
        format: a.format.into(),
        fail_on: a.fail_on,
        dialect: a.dialect.map(Into::into),
        exec_hooks: a.exec_hooks,
    })
}
