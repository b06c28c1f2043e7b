//! `seamguard allow --last`: approve the call of the last `ask` in the audit log.
//!
//! In: the audit log (the `call`, `session_id` and `project` of the newest `ask` record).
//! Out: a grant in the user's grants file (`--session`, the default, or `--always`) or the
//! project's `.seamguard/grants.json` (`--project`); the grant's id on stdout. Exit 0 on a
//! recorded (or already present) grant, 1 when the log holds no ask to approve, 3 on an I/O
//! error.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use seamguard_engine::audit;

use crate::grants::{self, Grant, GrantScope};

/// How much of the end of the audit log is read first for the last ask.
const TAIL_BYTES: u64 = 4 << 20;

/// Approve the last call a rule asked about, so the same call runs without asking.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Approve the call of the newest `ask` in the audit log (required: the only source).
    #[arg(long, required = true)]
    last: bool,
    /// For the session the ask happened in (the default).
    #[arg(long, conflicts_with_all = ["project", "always"])]
    session: bool,
    /// For every session in the project (stored in its `.seamguard/grants.json`; lifts only
    /// asks of the project's own policies).
    #[arg(long, conflicts_with = "always")]
    project: bool,
    /// For every session of this user.
    #[arg(long)]
    always: bool,
    /// The audit log to read (default: $SEAMGUARD_AUDIT_LOG, else <state dir>/audit.jsonl).
    #[arg(long, value_name = "PATH")]
    audit_log: Option<PathBuf>,
}

/// Run `seamguard allow`.
pub(super) fn run(a: &Args) -> ExitCode {
    let Some(log) = super::log::audit_path(a.audit_log.as_deref()) else {
        eprintln!("seamguard: the audit log is off (SEAMGUARD_AUDIT_LOG=off): no ask to approve");
        return ExitCode::from(1);
    };
    let is_ask = |r: &&Value| {
        r.get("decision").and_then(Value::as_str) == Some("ask") && r.get("call").is_some()
    };
    // The last ask is near the end of the log: read its tail first, the whole log only when
    // the tail holds none.
    let mut results = Vec::new();
    for max in [TAIL_BYTES, u64::MAX] {
        results = match super::log::read_results_tail(&log, max) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("seamguard: {e}");
                return ExitCode::from(3);
            }
        };
        if results.iter().any(|r| is_ask(&r)) {
            break;
        }
    }
    let Some(rec) = results.iter().rev().find(is_ask) else {
        eprintln!(
            "seamguard: no ask to approve in {} (only pre-tool asks can be approved)",
            log.display()
        );
        return ExitCode::from(1);
    };
    let scope = if a.always {
        GrantScope::Always
    } else if a.project {
        GrantScope::Project
    } else {
        GrantScope::Session
    };
    let text = |k: &str| rec.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let call = rec.get("call").cloned().unwrap_or(Value::Null);
    let session = (scope == GrantScope::Session).then(|| text("session_id"));
    let file = match scope {
        GrantScope::Project => match rec.get("project").and_then(Value::as_str) {
            Some(p) => grants::project_file(std::path::Path::new(p)),
            None => {
                eprintln!(
                    "seamguard: the last ask has no project folder; use --session or --always"
                );
                return ExitCode::from(1);
            }
        },
        _ => grants::user_file(),
    };
    let mut all = match grants::read(&file) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("seamguard: {e}");
            return ExitCode::from(3);
        }
    };
    let subject = text("subject");
    let tool = text("tool_name");
    if let Some(g) = all
        .iter()
        .find(|g| g.call == call && g.scope == scope && g.session_id == session)
    {
        println!(
            "already granted: {} ({}) {tool}: {subject}",
            g.id,
            scope.name()
        );
        return ExitCode::SUCCESS;
    }
    let now = audit::now_ms();
    let id = grants::new_id(&call, scope, session.as_deref(), now);
    let rules: Vec<String> = rec
        .get("rules")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    all.push(Grant {
        id: id.clone(),
        scope,
        session_id: session.clone(),
        call,
        tool_name: tool.clone(),
        subject: subject.clone(),
        rules: rules.clone(),
        created_ms: now,
    });
    if let Err(e) = grants::write(&file, all) {
        eprintln!("seamguard: {e}");
        return ExitCode::from(3);
    }
    let where_ = match &session {
        Some(s) => format!("session {s}"),
        None => scope.name().to_string(),
    };
    println!("granted {id} ({where_}) {tool}: {subject}");
    println!("  lifts the ask of: {}", rules.join(", "));
    println!(
        "  stored in {}; undo with `seamguard grants revoke {id}`",
        file.display()
    );
    ExitCode::SUCCESS
}
