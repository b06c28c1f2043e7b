//! Grants: a person's approval of one exact call that a rule asked about.
//!
//! `seamguard allow --last` records a grant for the normalized call of the last `ask` in the
//! audit log; the hook then lifts a matching `ask` to `allow` after evaluation
//! ([`apply`]). A grant never touches a deny or a guard: it applies only when the merged
//! verdict is exactly `ask`, and a deny always outranks an ask in the merge. Nor does it lift
//! what seamguard could not read: the `seamguard:unsure` ask of a call with no command, path,
//! URL or prompt to show ([`unreadable_unsure`]).
//!
//! **Normalized call** ([`call_key`]): a shell command is its argv after quote removal when it
//! is one simple command (`git push --force origin main`); anything the shell would expand or
//! combine (pipes, `;`, redirections, `$`, globs, `~`, …) is keyed by its exact text, so a grant
//! never covers more than the line that was approved. A file tool call is the tool and the
//! absolute path; an MCP call the tool and the canonical JSON of its arguments (keys sorted); a
//! web fetch the tool and the URL's host; any other tool its name and canonical input.
//!
//! **Scopes and trust.** `session` grants (the default) match the same `session_id` only;
//! `always` grants match every session; both live in the user's state folder
//! (`<state dir>/grants.json`). `project` grants live in the project's
//! `.seamguard/grants.json` and are only as trusted as the project: they lift an ask only when
//! every rule that asked comes from a project policy. User grants lift asks of user, project,
//! command-line and built-in rules, never those of a managed (`/etc/seamguard`) policy.

use std::path::{Path, PathBuf};

pub(crate) use seamguard_engine::concern::call_key;
use seamguard_engine::concern::{Concern, covered_by};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use seamguard_engine::{Attributed, Outcome, Scope, Seam, Verdict};

use crate::discover;

/// Where a grant applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum GrantScope {
    /// The session the ask happened in.
    Session,
    /// Every session in the project (stored in the project's `.seamguard/`).
    Project,
    /// Every session of this user.
    Always,
}

impl GrantScope {
    /// Lower-case name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            GrantScope::Session => "session",
            GrantScope::Project => "project",
            GrantScope::Always => "always",
        }
    }
}

/// One recorded approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Grant {
    /// `g-` and 10 hex digits.
    pub(crate) id: String,
    /// Where it applies.
    pub(crate) scope: GrantScope,
    /// The session of a `session` grant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) session_id: Option<String>,
    /// The normalized call ([`call_key`]), its secrets masked as the audit log masks them
    /// (grants recorded before masking hold it as it was).
    pub(crate) call: Value,
    /// The SHA-256 (hex) of the exact normalized call ([`call_digest`]): what the grant
    /// matches the live call by, since `call` is masked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) call_sha256: Option<String>,
    /// The tool of the approved call.
    #[serde(default)]
    pub(crate) tool_name: String,
    /// The approved command, path or URL as the log shows it.
    #[serde(default)]
    pub(crate) subject: String,
    /// The rules whose ask was approved.
    #[serde(default)]
    pub(crate) rules: Vec<String>,
    /// The concerns approved (rule and object): the grant lifts any later ask whose every
    /// concern one of these covers, not only the same call. Empty in grants recorded before
    /// concerns existed (they match the exact call only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) concerns: Vec<Concern>,
    /// When it was recorded (Unix ms).
    pub(crate) created_ms: u64,
}

/// The grants file: `{"grants": [...]}`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct GrantFile {
    grants: Vec<Grant>,
}

/// The user's grants file (session and always grants).
pub(crate) fn user_file() -> PathBuf {
    discover::state_dir().join("grants.json")
}

/// The project grants file of a project root.
pub(crate) fn project_file(root: &Path) -> PathBuf {
    root.join(".seamguard").join("grants.json")
}

/// The project root of a hook call: `CLAUDE_PROJECT_DIR`, else the nearest folder at or above
/// the payload's `cwd` holding `.seamguard/` (not the home folder), else the `cwd` itself.
pub(crate) fn project_root(payload: &Value) -> Option<PathBuf> {
    if let Some(p) = discover::env_path("CLAUDE_PROJECT_DIR") {
        return Some(p);
    }
    let cwd = PathBuf::from(payload.get("cwd").and_then(Value::as_str)?);
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let found = cwd
        .ancestors()
        .find(|d| d.join(".seamguard").is_dir() && Some(d.to_path_buf()) != home)
        .map(Path::to_path_buf);
    Some(found.unwrap_or(cwd))
}

/// Read a grants file; a missing file holds no grant.
///
/// # Errors
/// The file exists but cannot be read or is not a grants file.
pub(crate) fn read(path: &Path) -> Result<Vec<Grant>, String> {
    match std::fs::read_to_string(path) {
        Ok(t) => serde_json::from_str::<GrantFile>(&t)
            .map(|f| f.grants)
            .map_err(|e| format!("{}: not a grants file ({e})", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Replace the grants of a file (written to a temporary file, then renamed).
///
/// # Errors
/// The I/O error, with the path.
pub(crate) fn write(path: &Path, grants: Vec<Grant>) -> Result<(), String> {
    let text = serde_json::to_string_pretty(&GrantFile { grants })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text + "\n").map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The SHA-256 (hex) of a normalized call's canonical JSON: how a grant, and the audit
/// record `allow` makes it from, name the exact call without holding its secrets.
pub(crate) fn call_digest(call: &Value) -> String {
    Sha256::digest(call.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A grant id: `g-` and the first 10 hex digits of a digest of the grant's content.
pub(crate) fn new_id(call: &Value, scope: GrantScope, session: Option<&str>, ms: u64) -> String {
    let mut h = Sha256::new();
    h.update(call.to_string().as_bytes());
    h.update(scope.name().as_bytes());
    h.update(session.unwrap_or("").as_bytes());
    h.update(ms.to_le_bytes());
    let hex: String = h
        .finalize()
        .iter()
        .take(5)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("g-{hex}")
}

/// A grant that lifted an ask: its id and scope.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Applied {
    /// The grant's id.
    pub(crate) id: String,
    /// Its scope.
    pub(crate) scope: GrantScope,
}

/// Whether a grant of `scope` may lift an ask of a rule declared in a file of `rule_scope`
/// (`None`: a rule without a source, such as a command hook).
fn may_lift(scope: GrantScope, rule_scope: Option<Scope>) -> bool {
    match scope {
        GrantScope::Project => rule_scope == Some(Scope::Project),
        GrantScope::Session | GrantScope::Always => rule_scope != Some(Scope::Managed),
    }
}

/// The grant among `grants` that lifts the ask of `outcome` for `call` in `session`.
fn find<'a>(
    grants: &'a [Grant],
    call: &Value,
    concerns: &[Concern],
    session: &str,
    asking: &[Option<Scope>],
) -> Option<&'a Grant> {
    let digest = call_digest(call);
    grants.iter().find(|g| {
        (g.call == *call
            || g.call_sha256.as_deref() == Some(digest.as_str())
            || (!g.concerns.is_empty() && covered_by(concerns, &g.concerns)))
            && (g.scope != GrantScope::Session || g.session_id.as_deref() == Some(session))
            && asking.iter().all(|s| may_lift(g.scope, *s))
    })
}

/// After evaluation: lift a pre-tool `ask` to `allow` when a grant matches the exact call or
/// covers every concern of the ask (`concerns`; user grants first, then the project's).
/// Never changes any other verdict. The call's normalized key is returned with the grant,
/// for the audit record.
pub(crate) fn apply(
    outcome: &mut Outcome,
    payload: &Value,
    seam: Seam,
    concerns: &[Concern],
) -> (Option<Value>, Option<Applied>) {
    if seam != Seam::PreTool || outcome.verdict() != Verdict::Ask {
        return (None, None);
    }
    let Some(call) = call_key(payload) else {
        return (None, None);
    };
    // Grants never lift what seamguard could not read.
    let asked: Vec<&str> = outcome
        .fired
        .iter()
        .filter(|c| !c.observe && c.verdict == Verdict::Ask)
        .map(|c| c.rule.as_str())
        .collect();
    if unreadable_unsure(&asked, full_subject(payload)) {
        return (Some(call), None);
    }
    let session = payload
        .get("session_id")
        .and_then(Value::as_str)
        .unwrap_or("");
    let asking: Vec<Option<Scope>> = outcome
        .fired
        .iter()
        .filter(|c| !c.observe && c.verdict == Verdict::Ask)
        .map(|c| c.source.as_ref().map(|s| s.scope))
        .collect();
    let mut files = vec![user_file()];
    files.extend(project_root(payload).map(|r| project_file(&r)));
    for f in files {
        let grants = match read(&f) {
            Ok(g) => g,
            Err(e) => {
                outcome
                    .warnings
                    .push(format!("seamguard: grants not applied: {e}"));
                continue;
            }
        };
        // A project grant counts only from the project's own file, a user grant only from
        // the user's: a project cannot plant an `always` grant.
        let own: Vec<Grant> = grants
            .into_iter()
            .filter(|g| (g.scope == GrantScope::Project) == (f != user_file()))
            .collect();
        if let Some(g) = find(&own, &call, concerns, session, &asking) {
            let applied = Applied {
                id: g.id.clone(),
                scope: g.scope,
            };
            let asked = outcome.reason_text();
            outcome.verdict = Some(Verdict::Allow);
            outcome.codex_ask.clear();
            outcome.reasons = vec![Attributed {
                text: format!(
                    "approved by a {} grant (asked: {})",
                    g.scope.name(),
                    asked.trim().replace('\n', "; ")
                ),
                rule: g.id.clone(),
                source: None,
            }];
            return (Some(call), Some(applied));
        }
    }
    (Some(call), None)
}

/// Most characters of a subject in the audit log.
const SUBJECT_CHARS: usize = 200;

/// What a call is about, whole: the tool input's `command`, `file_path`, `path`, `url` or
/// `pattern`, else the prompt (as [`seamguard_engine::audit::subject`], uncut).
pub(crate) fn full_subject(payload: &Value) -> Option<&str> {
    let ti = payload.get("tool_input");
    ["command", "file_path", "path", "url", "pattern"]
        .iter()
        .find_map(|k| ti.and_then(|t| t.get(*k)).and_then(Value::as_str))
        .or_else(|| payload.get("prompt").and_then(Value::as_str))
}

/// Whether an ask stands for a call seamguard could not read: it came from the
/// `seamguard:unsure` ask and the call has nothing to show (no command, path, URL). No grant
/// lifts such an ask, and `allow` records none for it.
pub(crate) fn unreadable_unsure(rules: &[&str], subject: Option<&str>) -> bool {
    rules.contains(&seamguard_engine::UNSURE_RULE) && subject.is_none_or(|s| s.trim().is_empty())
}

/// Add the grant fields to the evaluation's `hook/result` record (the last one): `call` (the
/// normalized call of an ask or a granted call, secrets masked) with `call_sha256` (the
/// digest of the exact call) and `project` (its project root, where a
/// `--project` grant goes); `tool_name` and `subject` of every decision (not of events no rule
/// decided, so `seamguard log` can show what was decided); `grant` / `grant_scope` when a
/// grant lifted the ask.
pub(crate) fn annotate(
    records: &mut [Value],
    payload: &Value,
    call: Option<Value>,
    applied: Option<&Applied>,
) {
    let Some(Value::Object(last)) = records.last_mut() else {
        return;
    };
    if let Some(call) = call {
        // Masked like the rest of the record; the digest of the exact call is what
        // `allow` turns into a grant that matches it.
        last.insert("call_sha256".into(), json!(call_digest(&call)));
        last.insert("call".into(), seamguard_engine::audit::redact(&call).0);
        if let Some(root) = project_root(payload) {
            last.insert("project".into(), json!(root.display().to_string()));
        }
    }
    // Every tool call (the calls let through too) and every other decided event: its tool
    // and subject, a long subject with its start and the part that decided.
    let decided = last.get("decision").and_then(Value::as_str) != Some("none");
    let tool_call = payload.get("tool_name").is_some_and(Value::is_string);
    if decided || tool_call {
        last.insert(
            "tool_name".into(),
            payload.get("tool_name").cloned().unwrap_or(Value::Null),
        );
        let reason = last.get("reason").and_then(Value::as_str).unwrap_or("");
        // Secrets masked as in the rest of the record (`audit::redact_text`).
        let subject = full_subject(payload).map(|s| {
            let (masked, _) = seamguard_engine::audit::redact_text(s);
            crate::report::log_subject(&masked, reason, SUBJECT_CHARS)
        });
        last.insert("subject".into(), subject.map_or(Value::Null, Value::String));
    }
    if let Some(a) = applied {
        last.insert("grant".into(), json!(a.id));
        last.insert("grant_scope".into(), json!(a.scope.name()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_grants_lift_only_project_asks_and_nothing_lifts_managed() {
        assert!(may_lift(GrantScope::Project, Some(Scope::Project)));
        assert!(!may_lift(GrantScope::Project, Some(Scope::User)));
        assert!(!may_lift(GrantScope::Project, None));
        assert!(may_lift(GrantScope::Session, Some(Scope::User)));
        assert!(may_lift(GrantScope::Always, Some(Scope::Embedded)));
        assert!(!may_lift(GrantScope::Always, Some(Scope::Managed)));
    }
}
