//! What code that `seamguard-macros` generates uses (`harness::__private`); not a public API.
//!
//! In: a handler's return value, future or cleanup result. Out: the reply, cleanup result or
//! context the generated code hands the harness; and the decision types and crates it names.

pub use crate::decision::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};
pub use crate::dialect::Dialect;
pub use crate::matcher::{Matcher, MatcherMode};
pub use crate::policy;
pub use crate::seam::Seam;
pub use serde_json;

use super::event::ToolExecution;
use super::handler::IntoReply;
use super::model::HookContext;
use super::model::{HandlerError, Reply};
use super::types::BoxFuture;
use std::future::Future;

/// A sync handler's return value as a reply.
pub fn ready<'a, T, R: IntoReply<T>>(r: R) -> Reply<'a, T> {
    Reply::Ready(r.into_reply())
}

/// An async handler's future as a reply.
pub fn pending<'a, T, R, F>(f: F) -> Reply<'a, T>
where
    R: IntoReply<T>,
    F: Future<Output = R> + Send + 'a,
{
    let fut: BoxFuture<'a, Result<T, HandlerError>> = Box::pin(async move { f.await.into_reply() });
    Reply::Pending(fut)
}

/// A cleanup fn's return value (`()` or `Result<(), E: Display>`).
pub trait IntoCleanup {
    /// Convert.
    fn into_cleanup(self) -> Result<(), String>;
}
impl IntoCleanup for () {
    fn into_cleanup(self) -> Result<(), String> {
        Ok(())
    }
}
impl<E: std::fmt::Display> IntoCleanup for Result<(), E> {
    fn into_cleanup(self) -> Result<(), String> {
        self.map_err(|e| e.to_string())
    }
}

/// The run's context for a `#[hook]` fn that takes one (outside a run: a context whose
/// token is never cancelled and with no application context).
pub fn context() -> HookContext {
    HookContext::current()
        .unwrap_or_else(|| HookContext::new(tokio_util::sync::CancellationToken::new(), None))
}

/// Type check of a `tool-result` observer.
pub const fn observer(f: fn(&ToolExecution)) -> fn(&ToolExecution) {
    f
}
