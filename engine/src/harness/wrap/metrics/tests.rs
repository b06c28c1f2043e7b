use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::Metrics;
use crate::harness::wrap::mock::{Scripted, dispatch};
use crate::harness::{Retry, Wrapper};

#[tokio::test]
async fn counts_dispatches_and_error_results() {
    let metrics = Arc::new(Metrics::default());
    let tool = Scripted::new([Ok(json!(1)), Err("boom".into()), Ok(json!(3))]);
    let wrappers: Vec<Box<dyn Wrapper>> = vec![Box::new(metrics.clone())];
    for _ in 0..3 {
        dispatch(&wrappers, &tool).await;
    }
    assert_eq!((metrics.calls(), metrics.errors()), (3, 1));
}

#[tokio::test]
async fn measures_the_time_inside_the_chain() {
    let metrics = Arc::new(Metrics::default());
    let tool = Scripted::slow(Duration::from_millis(5));
    let wrappers: Vec<Box<dyn Wrapper>> = vec![Box::new(metrics.clone())];
    dispatch(&wrappers, &tool).await;
    assert!(metrics.total() >= Duration::from_millis(5));
}

#[tokio::test]
async fn outermost_it_sees_one_dispatch_of_a_retried_call() {
    let metrics = Arc::new(Metrics::default());
    let tool = Scripted::new([Err("a".into()), Ok(json!(2))]);
    let wrappers: Vec<Box<dyn Wrapper>> =
        vec![Box::new(metrics.clone()), Box::new(Retry { attempts: 2 })];
    let r = dispatch(&wrappers, &tool).await;
    assert!(!r.is_error);
    assert_eq!((metrics.calls(), metrics.errors()), (1, 0));
    assert_eq!(tool.calls(), 2);
}
