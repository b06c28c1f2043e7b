//! One import for a harness: `use seamguard_engine::prelude::*;` (or `seamguard::prelude`,
//! which adds the macros) brings the [`Harness`], what its seam methods take and return,
//! the typed decisions with their constructors, registration, tools and wrappers.
//!
//! In: nothing. Out: re-exports only; every item keeps its own path too.
//!
//! ```
//! use seamguard_engine::prelude::*;
//!
//! let h = Harness::new();
//! h.on(
//!     at::PreTool,
//!     |call, _cx| (call.command()? == "rm -rf /").then(|| PreToolDecision::deny("no")),
//!     RegistrationOptions::named("no-rm"),
//! )?;
//! let call = ToolCall::builder("Bash").arg("command", "rm -rf /").build();
//! let rt = tokio::runtime::Builder::new_current_thread().build()?;
//! assert_eq!(rt.block_on(h.pre_tool(&call)).decision, Some(PreToolDecision::deny("no")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::harness::{
    Approval, Approver, Batch, BatchOutcome, BoxFuture, CancellationToken, Evaluated, Event,
    EventHandler, ExecError, Harness, HookContext, Metrics, Next, NoticeEvent, PolicyLoadError,
    PolicyTable, PromptEvent, Registration, RegistrationOptions, Retry, SeamEvent, StartEvent,
    StopEvent, Submitted, Timeout, Tool, ToolCall, ToolCallBuilder, ToolError, ToolExecution,
    ToolOutput, ToolResult, Wrapper, at, tool_fn,
};
pub use crate::{
    Attributed, ContinuationDecision, Dialect, GuardDeny, Outcome, PermissionDecision,
    PostToolDecision, PreToolDecision, PromptDecision, Scope, Seam, Verdict, hooks,
};
