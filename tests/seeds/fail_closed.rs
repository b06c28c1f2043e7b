//! Loading a policy fails closed (issue 30, 1): a policy loaded at run time is a `Result`
//! with `file:line:column` diagnostics, and a harness given a table that could not be
//! loaded — the error not handled, or a fail-partial load — denies every pre-tool call and
//! permission request with the cause.

use std::path::Path;

use serde_json::json;

use seamguard::harness::{Harness, PolicyLoadError, PolicyTable, SeamEvent, ToolCall};
use seamguard::{
    DecisionTable, Engine, PermissionDecision, PreToolDecision, PromptDecision, Scope, Seam,
    Verdict, load_str,
};

fn ls() -> ToolCall {
    ToolCall::new("Bash", json!({ "command": "ls" }), "s1", "/tmp")
}

/// What the harness denies with, for a load error whose first diagnostic is `first`.
fn denied(file: &str, first: &str) -> String {
    format!(
        "seamguard policy {file} failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check {file}`)"
    )
}

const BROKEN: &str = "[[rule]]\nid = \"a\"\nseam = \"nowhere\"\ndecision = \"deny\"\n";

#[tokio::test]
async fn a_missing_file_is_an_error_and_unhandled_it_denies() {
    let path = Path::new("/nonexistent/seamguard/team.toml");
    let err = PolicyTable::load_file(path, Scope::User).unwrap_err();
    let first = "/nonexistent/seamguard/team.toml:1:1: error: cannot read policy file: No such file or directory (os error 2)";
    assert_eq!(err.to_string(), first);
    assert_eq!(err.file(), "/nonexistent/seamguard/team.toml");
    assert_eq!(
        (
            err.errors().len(),
            err.errors()[0].line,
            err.errors()[0].column
        ),
        (1, 1, 1)
    );

    // Not handled: the `Result` goes to the harness as it is.
    let mut h = Harness::new();
    h.add_table(PolicyTable::load_file(path, Scope::User));
    let pre = h.pre_tool(&ls()).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::Deny {
            reason: denied("/nonexistent/seamguard/team.toml", first)
        })
    );
    assert_eq!(pre.outcome().fired_ids(), ["seamguard:load-error"]);
    let perm = h.permission_request(&ls()).await;
    assert_eq!(
        perm.decision,
        Some(PermissionDecision::Deny {
            message: denied("/nonexistent/seamguard/team.toml", first)
        })
    );
}

#[tokio::test]
async fn a_broken_file_is_an_error_with_its_line_and_column_and_unhandled_it_denies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("team.toml");
    std::fs::write(&path, BROKEN).unwrap();
    let file = path.display().to_string();

    let err: PolicyLoadError = PolicyTable::load_file(&path, Scope::User).unwrap_err();
    let d = &err.errors()[0];
    assert_eq!((d.line, d.column), (3, 8));
    let first = d.to_string();
    assert!(
        first.starts_with(&format!("{file}:3:8: error: ")),
        "{first}"
    );
    assert_eq!(err.to_string(), first);

    let mut h = Harness::new();
    h.add_table(PolicyTable::load_file(&path, Scope::User));
    let pre = h.pre_tool(&ls()).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::Deny {
            reason: denied(&file, &first)
        })
    );

    // Other seams are not blocked: the error is a warning there.
    let prompt = h
        .prompt_submit(&SeamEvent::new(
            Seam::PromptSubmit,
            json!({ "session_id": "s1", "cwd": "/tmp", "hook_event_name": "UserPromptSubmit", "prompt": "hi" }),
        ))
        .await;
    assert!(matches!(prompt.decision, PromptDecision::Allow { .. }));
    assert_eq!(prompt.outcome().warnings.len(), 1);
}

#[test]
fn every_error_is_kept_and_counted_in_the_message() {
    let src =
        "[[rule]]\nid = \"a\"\nseam = \"nowhere\"\n\n[[rule]]\nid = \"b\"\nseam = \"elsewhere\"\n";
    let err = PolicyTable::load_str(src, "two.toml", Scope::User).unwrap_err();
    let lines: Vec<(usize, usize)> = err.errors().iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(lines, [(3, 8), (7, 8)]);
    assert!(err.to_string().ends_with(" (and 1 more error)"), "{err}");
}

#[test]
fn a_clean_file_and_a_clean_folder_load() {
    let t = PolicyTable::load_str(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"ask\"\n",
        "ok.toml",
        Scope::User,
    )
    .unwrap();
    assert_eq!(t.rules().len(), 1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = PolicyTable::load_dir(&root.join("policies"), Scope::Embedded).unwrap();
    assert!(!dir.rules().is_empty());
    let missing = PolicyTable::load_dir(&root.join("no-such-folder"), Scope::Embedded);
    assert!(missing.is_err());
}

/// A table built from the fail-partial loaders with a policy that says
/// `on_load_error = "warn"`: the engine on its own (the CLI's path) lets calls through with
/// a warning; the harness denies.
#[tokio::test]
async fn a_fail_partial_table_denies_in_the_harness_whatever_the_file_says() {
    let src = format!("[policy]\non_load_error = \"warn\"\n\n{BROKEN}");
    let policy = load_str(&src, "warn.toml", Scope::User, 0);
    assert!(policy.has_errors());
    let first = policy.diagnostics[0].to_string();

    let engine = Engine::new(DecisionTable::new(vec![policy.clone()]));
    let payload = ls().payload().clone();
    let direct = engine.evaluate(Seam::PreTool, &payload, seamguard::Dialect::ClaudeCode);
    assert_eq!(direct.verdict(), Verdict::Abstain);

    let mut h = Harness::new();
    h.add_table(PolicyTable::from_policies(vec![policy]));
    let pre = h.pre_tool(&ls()).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::Deny {
            reason: denied("warn.toml", &first)
        })
    );
}
