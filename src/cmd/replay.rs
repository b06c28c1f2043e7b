//! `seamguard replay`: the flags of [`crate::replay`].

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{DialectArg, Format};
use crate::discover;
use crate::replay::{self, OutputFormat};

/// Dry-run recorded sessions (Claude Code transcripts, Codex rollouts, hook-payload logs,
/// Gemini CLI chats) against policies, never acting on them.
///
/// Exit status: 0 replayed (unreadable records are listed on stderr, the rest is replayed),
/// 1 a `--fail-on` verdict occurred (or nothing was read with `--fail-on`), 2 the policies are
/// unusable or no event could be read from the recordings given.
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
    /// Only events with this verdict (`allow`, `ask`, `deny`, `none`, …; repeatable or
    /// comma-separated). With a filter, the counts and lists are about the selected events,
    /// and every selected event is listed, allowed ones included.
    #[arg(long = "verdict", value_name = "VERDICT", value_delimiter = ',')]
    verdicts: Vec<String>,
    /// Only events this rule fired on (with the policies or the baseline; repeatable).
    #[arg(long = "rule", value_name = "ID")]
    rules: Vec<String>,
    /// Only events whose outcome (verdict or firing rules) differs from the baseline: the
    /// `--baseline` policies, or the decisions recorded in an audit log.
    #[arg(long)]
    only_changed: bool,
    /// Do not model the person answering: by default every ask is answered yes and covers
    /// its concerns (rule and object) for the rest of that recorded session, as approvals do
    /// in the hook; with this flag every ask counts.
    #[arg(long)]
    no_approvals: bool,
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

/// The policies of a set of `--policy` (or `--baseline`) paths, loaded once for both the
/// check and the replay; or why they cannot be replayed against: a path that does not exist,
/// a folder without a policy file, or no rule loaded at all (nothing given and nothing
/// discovered included). A replay against no rules would pass every `--fail-on`.
fn usable_policies(flag: &str, paths: &[PathBuf]) -> Result<replay::Policies, String> {
    for p in paths {
        if !p.exists() {
            return Err(format!(
                "{flag} {}: no such file or folder; give a policy file or a folder of *.toml files",
                p.display()
            ));
        }
    }
    let files = discover::policy_paths(paths, None);
    if let Some(dir) = paths
        .iter()
        .find(|d| d.is_dir() && !files.iter().any(|(f, _)| f.parent() == Some(d.as_path())))
    {
        return Err(format!(
            "{flag} {}: the folder holds no policy file (*.toml)",
            dir.display()
        ));
    }
    if files.is_empty() {
        return Err(
            "no policy given and none found (.seamguard/, $XDG_CONFIG_HOME/seamguard/, /etc/seamguard/); pass --policy"
                .to_string(),
        );
    }
    let loaded = discover::load_all(&files);
    let names: Vec<String> = files.iter().map(|(f, _)| f.display().to_string()).collect();
    if loaded.iter().all(|p| p.rules.is_empty()) {
        for d in loaded.iter().flat_map(|p| &p.diagnostics) {
            eprintln!("{}", d.render());
        }
        return Err(format!(
            "no rule loaded from {} (run `seamguard check` on it)",
            names.join(", ")
        ));
    }
    Ok(replay::Policies { names, loaded })
}

/// Replay the recordings with [`crate::replay::run`]; exit 2 before reading anything when
/// the policies are unusable (see [`usable_policies`]).
pub(super) fn run(a: Args) -> ExitCode {
    let checked = usable_policies("--policy", &a.policies).and_then(|p| {
        if a.baseline.is_empty() {
            Ok((p, None))
        } else {
            usable_policies("--baseline", &a.baseline).map(|b| (p, Some(b)))
        }
    });
    let (policies, baseline) = match checked {
        Ok(both) => both,
        Err(why) => {
            eprintln!("seamguard: {why}");
            return ExitCode::from(2);
        }
    };
    replay::run(
        &replay::Options {
            inputs: a.files,
            format: a.format.into(),
            fail_on: a.fail_on,
            dialect: a.dialect.map(Into::into),
            exec_hooks: a.exec_hooks,
            verdicts: a.verdicts,
            rules: a.rules,
            only_changed: a.only_changed,
            approvals: !a.no_approvals,
        },
        policies,
        baseline,
    )
}
