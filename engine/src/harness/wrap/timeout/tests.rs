use std::time::Duration;

use serde_json::json;

use super::Timeout;
use crate::harness::wrap::mock::{Scripted, dispatch};
use crate::harness::{ExecError, ToolResult, Wrapper};

#[tokio::test]
async fn a_dispatch_within_the_limit_passes_through() {
    let tool = Scripted::new([Ok(json!({ "stdout": "ok" }))]);
    let wrappers: Vec<Box<dyn Wrapper>> = vec![Box::new(Timeout(Duration::from_secs(5)))];
    let r = dispatch(&wrappers, &tool).await;
    assert_eq!(r, ToolResult::ok(json!({ "stdout": "ok" })));
}

#[tokio::test]
async fn a_slow_dispatch_is_a_timeout_error() {
    let tool = Scripted::slow(Duration::from_secs(30));
    let wrappers: Vec<Box<dyn Wrapper>> = vec![Box::new(Timeout(Duration::from_millis(10)))];
    let r = dispatch(&wrappers, &tool).await;
    assert!(r.is_error);
    assert_eq!(r.error, Some(ExecError::Timeout { after_ms: 10 }));
    assert_eq!(r.content, json!("timed out after 10 ms"));
    assert_eq!(tool.calls(), 1);
}

#[tokio::test]
async fn a_tool_error_inside_the_limit_is_kept() {
    let tool = Scripted::new([Err("exit 2".to_string())]);
    let wrappers: Vec<Box<dyn Wrapper>> = vec![Box::new(Timeout(Duration::from_secs(5)))];
    let r = dispatch(&wrappers, &tool).await;
    assert_eq!(
        r.error,
        Some(ExecError::Tool {
            message: "exit 2".into()
        })
    );
}
