// The approver below panics on purpose: containment is what is tested.
#![allow(clippy::panic)]

use serde_json::json;

use super::{Approval, Approver, resolve};
use crate::harness::{BoxFuture, ExecError, ToolCall};

struct Answers(Approval);

impl Approver for Answers {
    fn approve<'a>(&'a self, _call: &'a ToolCall, _reason: &'a str) -> BoxFuture<'a, Approval> {
        Box::pin(std::future::ready(self.0))
    }
}

struct Panics;

impl Approver for Panics {
    fn approve<'a>(&'a self, _call: &'a ToolCall, _reason: &'a str) -> BoxFuture<'a, Approval> {
        Box::pin(async { panic!("approval dialog crashed") })
    }
}

fn call() -> ToolCall {
    ToolCall::new(
        "Bash",
        json!({ "command": "kubectl delete ns prod" }),
        "s",
        "/w",
    )
}

fn not_approved(reason: &str) -> Result<(), ExecError> {
    Err(ExecError::NotApproved {
        reason: reason.into(),
    })
}

#[tokio::test]
async fn allowed_once_dispatches() {
    let a = Answers(Approval::AllowedOnce);
    assert_eq!(resolve(Some(&a), &call(), "prod").await, Ok(()));
}

#[tokio::test]
async fn rejected_and_cancelled_are_denials() {
    let a = Answers(Approval::Rejected);
    assert_eq!(
        resolve(Some(&a), &call(), "prod").await,
        not_approved("prod (rejected)")
    );
    let a = Answers(Approval::Cancelled);
    assert_eq!(
        resolve(Some(&a), &call(), "prod").await,
        not_approved("prod (cancelled)")
    );
}

#[tokio::test]
async fn without_an_approver_every_ask_is_a_denial() {
    assert_eq!(
        resolve(None, &call(), "prod").await,
        not_approved("prod (no approver)")
    );
}

#[tokio::test]
async fn a_panicking_approver_counts_as_cancelled() {
    assert_eq!(
        resolve(Some(&Panics), &call(), "prod").await,
        not_approved("prod (cancelled)")
    );
}
