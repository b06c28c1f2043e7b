//! Detached runs (agent-harness seed: `async` command hooks are tracked, and disposing the
//! harness waits for quiescence; HOOKS.md: an `async` command hook runs in the background
//! and cannot influence anything).

use std::time::{Duration, Instant};

use serde_json::json;

use seamguard::harness::{Harness, ToolCall, tool_fn};
use seamguard::{PreToolDecision, policy};

fn bash_in(cwd: &std::path::Path, command: &str) -> ToolCall {
    ToolCall::new(
        "Bash",
        json!({ "command": command }),
        "s1",
        cwd.to_str().unwrap(),
    )
}

#[tokio::test]
async fn a_detached_run_does_not_decide_and_shutdown_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new();
    h.add_table(policy!("tests/seeds/detached_rule.toml"));

    let start = Instant::now();
    let pre = h.pre_tool(&bash_in(dir.path(), "ls")).await;
    // Not awaited: the decision comes before the hook's pause is over, and its exit 2 does
    // not block.
    assert!(start.elapsed() < Duration::from_millis(400));
    assert_eq!(pre.decision, None::<PreToolDecision>);
    assert_eq!(pre.outcome().fired_ids(), Vec::<&str>::new());
    assert_eq!(pre.outcome().hook_runs, vec![]);
    assert!(!dir.path().join("audit.log").exists());

    // The tool call goes through too.
    let tool = tool_fn(|_c: &ToolCall| Ok(json!("listed")));
    let exec = h.execute(bash_in(dir.path(), "ls -l"), &tool).await;
    assert!(!exec.result.is_error);
    assert_eq!(exec.result.content, json!("listed"));

    // Quiescence: both detached runs (one per call) have ended when `shutdown` returns.
    let runs = h.shutdown().await;
    assert_eq!(
        std::fs::read_to_string(dir.path().join("audit.log")).unwrap(),
        "audited\n"
    );
    assert_eq!(runs.len(), 2);
    for r in &runs {
        assert_eq!(r.id, "audit-in-background");
        assert_eq!(r.exit_code, Some(2));
        assert!(!r.timed_out);
        assert_eq!(r.failure, None);
        assert!(r.command.ends_with("exit 2"), "{}", r.command);
        assert!(r.duration_ms >= 400, "{r:?}");
    }
    // Nothing is left to wait for or report.
    assert_eq!(h.shutdown().await, vec![]);
    assert!(h.dispose().is_ok());
}
