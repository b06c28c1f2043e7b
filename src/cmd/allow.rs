//! `seamguard allow --last` / `allow --id N`: approve the concerns of an `ask` in the audit log.
//!
//! The grant covers the ask's concerns (rule and object: the host, path, package or program it
//! asked about, see [`seamguard_engine::concern`]), so later calls raising only those concerns
//! pass, not only the same call string.
//!
//! In: the audit log (the `call`, `session_id` and `project` of the newest `ask` record, or of
//! record `N` as `seamguard log` numbers them). Out: a grant in the user's grants file
//! (`--session`, the default, or `--always`) or the project's `.seamguard/grants.json`
//! (`--project`); the grant's id on stdout. Exit 0 on a recorded (or already present) grant,
//! 1 when there is no ask to approve there (or it is one no grant may lift: a call seamguard
//! could not read), 3 on an I/O error.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use seamguard_engine::audit;
use seamguard_engine::concern::{Concern, Object};
use seamguard_engine::memory::store::MemoryStore;

use crate::grants::{self, Grant, GrantScope};

/// How much of the end of the audit log is read first for the last ask.
const TAIL_BYTES: u64 = 4 << 20;

/// Approve a call a rule asked about, so the same call runs without asking.
///
/// `--last` approves the newest ask in the audit log; `--id N` the ask numbered N by
/// `seamguard log` (`#N` at the start of its line; `seamguard log --verdict ask` lists the
/// asks), when several sessions ask at once. A call seamguard could not read (asked as
/// `seamguard:unsure` with nothing to show) is never approved: read it and change the call.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["last", "id"])))]
pub(crate) struct Args {
    /// Approve the call of the newest `ask` in the audit log.
    #[arg(long)]
    last: bool,
    /// Approve the call of the `ask` numbered N by `seamguard log` (`#N`).
    #[arg(long, value_name = "N")]
    id: Option<usize>,
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
    let rec = match a.id {
        Some(n) => {
            // Numbers count every decision of the log from its start, as `seamguard log` does.
            let all = match super::log::read_results(&log) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("seamguard: {e}");
                    return ExitCode::from(3);
                }
            };
            match n.checked_sub(1).and_then(|i| all.get(i)) {
                Some(r) if is_ask(&r) => r.clone(),
                Some(r) => {
                    eprintln!(
                        "seamguard: decision #{n} in {} is `{}`, not an ask seamguard can approve (see `seamguard log --verdict ask`)",
                        log.display(),
                        r.get("decision").and_then(Value::as_str).unwrap_or("?")
                    );
                    return ExitCode::from(1);
                }
                None => {
                    eprintln!(
                        "seamguard: {} holds {} decision(s), no #{n}",
                        log.display(),
                        all.len()
                    );
                    return ExitCode::from(1);
                }
            }
        }
        None => {
            // The last ask is near the end of the log: read its tail first, the whole log only
            // when the tail holds none.
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
            match results.iter().rev().find(is_ask) {
                Some(r) => r.clone(),
                None => {
                    eprintln!(
                        "seamguard: no ask to approve in {} (only pre-tool asks can be approved)",
                        log.display()
                    );
                    return ExitCode::from(1);
                }
            }
        }
    };
    let rec = &rec;
    let asked: Vec<&str> = rec
        .get("rules")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if grants::unreadable_unsure(&asked, rec.get("subject").and_then(Value::as_str)) {
        eprintln!(
            "seamguard: the ask was raised because seamguard could not read the call ({}); grants never lift what seamguard could not read (another ask: `seamguard log --verdict ask`, then `seamguard allow --id N`)",
            rec.get("reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
                .unwrap_or("seamguard:unsure")
        );
        return ExitCode::from(1);
    }
    let scope = if a.always {
        GrantScope::Always
    } else if a.project {
        GrantScope::Project
    } else {
        GrantScope::Session
    };
    let text = |k: &str| rec.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let call = rec.get("call").cloned().unwrap_or(Value::Null);
    // The exact call's digest (records written before it existed: the call as recorded).
    let call_sha256 = rec
        .get("call_sha256")
        .and_then(Value::as_str)
        .map(str::to_string);
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
    if let Some(g) = all.iter().find(|g| {
        g.call == call
            && g.call_sha256 == call_sha256
            && g.scope == scope
            && g.session_id == session
    }) {
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
    let concerns = concerns_of(rec);
    all.push(Grant {
        id: id.clone(),
        scope,
        session_id: session.clone(),
        call,
        call_sha256,
        tool_name: tool.clone(),
        subject: subject.clone(),
        rules: rules.clone(),
        concerns: concerns.clone(),
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
    let exact = concerns
        .iter()
        .all(|c| c.objects.iter().all(|o| matches!(o, Object::Call { .. })));
    if exact {
        println!("  lifts the ask of: {}", rules.join(", "));
    } else {
        println!("  lifts later asks about:");
        for c in &concerns {
            println!("    {}", c.describe());
        }
    }
    println!(
        "  stored in {}; undo with `seamguard grants revoke {id}`",
        file.display()
    );
    ExitCode::SUCCESS
}

/// The concerns of the ask of audit record `rec`: as the session memory holds them (exact,
/// by the call's `call_id`), else as the record has them (secrets masked: a masked object
/// only covers the same masked words).
fn concerns_of(rec: &Value) -> Vec<Concern> {
    let text = |k: &str| rec.get(k).and_then(Value::as_str).unwrap_or("");
    let (session, call) = (text("session_id"), text("call_id"));
    if !session.is_empty() && !call.is_empty() {
        let store = MemoryStore::new(crate::discover::state_dir().join("memory"));
        if let Some((c, _)) = store.load(session).memory.asked(call) {
            return c.to_vec();
        }
    }
    rec.get("concerns")
        .and_then(|v| serde_json::from_value::<Vec<Concern>>(v.clone()).ok())
        .unwrap_or_default()
}
