//! `seamguard grants [list | revoke ID]`: the approvals `allow` recorded.
//!
//! Lists the user's grants (`<state dir>/grants.json`) and those of the current project
//! (`.seamguard/grants.json` at or above the current folder), or removes one by id.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::json;

use super::args::DocFormat;
use crate::grants::{self, Grant};

/// List or revoke the grants that lift asks (see `seamguard allow`).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// Project folder whose grants are shown too (default: the current folder).
    #[arg(long, global = true, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Output format of `list` (`text` or `json`).
    #[arg(long, value_enum, default_value = "text", global = true)]
    format: DocFormat,
}

/// What to do with the grants.
#[derive(Subcommand, Debug)]
enum Action {
    /// Show every grant (the default).
    List,
    /// Remove a grant by its id.
    Revoke {
        /// The grant's id (`g-…`).
        id: String,
    },
}

/// The grants files: the user's, then the project's.
fn files(a: &Args) -> Vec<PathBuf> {
    let cwd = a
        .project
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    let payload = json!({ "cwd": cwd.display().to_string() });
    let mut v = vec![grants::user_file()];
    v.extend(grants::project_root(&payload).map(|r| grants::project_file(&r)));
    v
}

/// A text with its secrets masked as in the audit log ([`seamguard_engine::audit::redact_text`]).
fn masked(text: &str) -> String {
    seamguard_engine::audit::redact_text(text).0.into_owned()
}

/// One grant as a line of `list`: its subject and concerns masked as the audit log masks them
/// (the grants file keeps the call as it was, which the matching needs).
fn line(g: &Grant) -> String {
    let scope = match &g.session_id {
        Some(s) => format!("session {s}"),
        None => g.scope.name().to_string(),
    };
    let head = format!(
        "{}  {scope}  {}: {}  [{}]",
        g.id,
        g.tool_name,
        masked(&g.subject),
        g.rules.join(", ")
    );
    // A concern about the exact call says nothing the line does not.
    let covers: Vec<String> = g
        .concerns
        .iter()
        .filter(|c| {
            c.objects
                .iter()
                .any(|o| !matches!(o, seamguard_engine::concern::Object::Call { .. }))
        })
        .map(|c| format!("\n    covers {}", masked(&c.describe())))
        .collect();
    format!("{head}{}", covers.concat())
}

/// Run `seamguard grants`.
pub(super) fn run(a: &Args) -> ExitCode {
    let mut failed = false;
    let mut found: Vec<(PathBuf, Vec<Grant>)> = Vec::new();
    for f in files(a) {
        match grants::read(&f) {
            Ok(g) => found.push((f, g)),
            Err(e) => {
                eprintln!("seamguard: {e}");
                failed = true;
            }
        }
    }
    match &a.action {
        None | Some(Action::List) => {
            if a.format == DocFormat::Text {
                let all: Vec<&Grant> = found.iter().flat_map(|(_, g)| g).collect();
                if all.is_empty() {
                    println!("no grants");
                }
                for g in all {
                    println!("{}", line(g));
                }
            } else {
                let v: Vec<serde_json::Value> = found
                    .iter()
                    .flat_map(|(f, gs)| {
                        gs.iter().map(move |g| {
                            // `call`, `subject` and the concerns masked as in the audit log.
                            let v = serde_json::to_value(g).unwrap_or_default();
                            let (mut v, _) = seamguard_engine::audit::redact(&v);
                            v["file"] = json!(f.display().to_string());
                            v
                        })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            }
        }
        Some(Action::Revoke { id }) => {
            let Some((file, gs)) = found.iter().find(|(_, gs)| gs.iter().any(|g| g.id == *id))
            else {
                eprintln!("seamguard: no grant {id}");
                return ExitCode::from(1);
            };
            let kept: Vec<Grant> = gs.iter().filter(|g| g.id != *id).cloned().collect();
            if let Err(e) = grants::write(file, kept) {
                eprintln!("seamguard: {e}");
                return ExitCode::from(3);
            }
            println!("revoked {id}");
        }
    }
    if failed {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}
