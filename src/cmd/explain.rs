//! `seamguard explain`: the flags of [`crate::explain`].

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{DialectArg, DocFormat};
use crate::explain;

/// Explain one event: the rules of its seam that fired, were unsure or came close (`--all`:
/// every rule), each predicate, the merge, the encoded output.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// `FILE:LINE` of a recorded session (every event recorded at that line) or of
    /// seamguard's audit log (the evaluation recorded there, judged again from its input), or
    /// `#N`: the decision numbered N by `seamguard log`.
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
    format: DocFormat,
}

/// Explain the event with [`crate::explain::run`].
pub(super) fn run(a: Args) -> ExitCode {
    let target = match a.target.as_deref().and_then(|t| t.strip_prefix('#')) {
        Some(n) => match numbered(n) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("seamguard: {e}");
                return ExitCode::from(2);
            }
        },
        None => a.target,
    };
    explain::run(&explain::Options {
        target,
        event: a.event,
        policies: a.policies,
        dialect: a.dialect.map(Into::into),
        json: a.format != DocFormat::Text,
        all: a.all,
    })
}

/// `FILE:LINE` of the decision numbered `n` (the digits after `#`) by `seamguard log`.
fn numbered(n: &str) -> Result<String, String> {
    let n: usize =
        n.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
            format!("`#{n}`: a decision number of `seamguard log` is `#1`, `#2`, …")
        })?;
    let log = super::log::audit_path(None)
        .ok_or("the audit log is off (SEAMGUARD_AUDIT_LOG=off): no numbered decision")?;
    match super::log::result_location(&log, n)? {
        Some((file, line)) => Ok(format!("{}:{line}", file.display())),
        None => Err(format!(
            "{} holds fewer than {n} decisions (`seamguard log` numbers them)",
            log.display()
        )),
    }
}
