//! Approval: how [`Harness::execute`](super::Harness::execute) resolves a pre-tool `ask`.
//!
//! In: the sealed call, the merged ask reason, and the harness's [`Approver`] (if any).
//! Out: dispatch (only on [`Approval::AllowedOnce`]), or a normalized denial
//! ([`ExecError::NotApproved`]) saying how the ask ended: `rejected`, `cancelled` (also when
//! the approver's future panics), or `no approver`.

use super::contain::CatchUnwind;
use super::{BoxFuture, ExecError, ToolCall};

/// How an `ask` was resolved (seed: approval seam).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    /// Run this call once.
    AllowedOnce,
    /// The user said no.
    Rejected,
    /// Nobody answered.
    Cancelled,
}

/// Resolves `ask` decisions in [`Harness::execute`](crate::harness::Harness::execute);
/// without one, every ask is a denial.
pub trait Approver: Send + Sync {
    /// Ask about `call`, showing `reason`.
    fn approve<'a>(&'a self, call: &'a ToolCall, reason: &'a str) -> BoxFuture<'a, Approval>;
}

/// Ask `approver` about `call`: `Ok(())` when it allowed this call once, else the
/// normalized denial, `"<reason> (<how it ended>)"`.
pub(super) async fn resolve(
    approver: Option<&dyn Approver>,
    call: &ToolCall,
    reason: &str,
) -> Result<(), ExecError> {
    let approval = match approver {
        None => None,
        Some(a) => {
            let fut = a.approve(call, reason);
            Some(CatchUnwind(fut).await.unwrap_or(Approval::Cancelled))
        }
    };
    if approval == Some(Approval::AllowedOnce) {
        return Ok(());
    }
    let how = match approval {
        None => "no approver",
        Some(Approval::Rejected) => "rejected",
        _ => "cancelled",
    };
    Err(ExecError::NotApproved {
        reason: format!("{reason} ({how})"),
    })
}

#[cfg(test)]
mod tests;
