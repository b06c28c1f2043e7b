use serde_json::json;

use super::Retry;
use crate::harness::wrap::mock::{Scripted, dispatch};
use crate::harness::{ExecError, ToolResult, Wrapper};

fn retry(attempts: u32) -> Vec<Box<dyn Wrapper>> {
    vec![Box::new(Retry { attempts })]
}

#[tokio::test]
async fn runs_again_until_a_success() {
    let tool = Scripted::new([Err("a".into()), Err("b".into()), Ok(json!(3))]);
    let wrappers = retry(3);
    let r = dispatch(&wrappers, &tool).await;
    assert_eq!(r, ToolResult::ok(json!(3)));
    assert_eq!(tool.calls(), 3);
}

#[tokio::test]
async fn a_success_is_not_repeated() {
    let tool = Scripted::new([Ok(json!(1))]);
    let wrappers = retry(5);
    let r = dispatch(&wrappers, &tool).await;
    assert!(!r.is_error);
    assert_eq!(tool.calls(), 1);
}

#[tokio::test]
async fn gives_up_after_the_attempts_with_the_last_failure() {
    let tool = Scripted::new([Err("a".into()), Err("b".into()), Err("c".into())]);
    let wrappers = retry(2);
    let r = dispatch(&wrappers, &tool).await;
    assert_eq!(
        r.error,
        Some(ExecError::Tool {
            message: "b".into()
        })
    );
    assert_eq!(tool.calls(), 2);
}

#[tokio::test]
async fn zero_attempts_still_dispatch_once() {
    let tool = Scripted::new([Err("a".into())]);
    let wrappers = retry(0);
    let r = dispatch(&wrappers, &tool).await;
    assert!(r.is_error);
    assert_eq!(tool.calls(), 1);
}
