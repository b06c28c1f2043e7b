//! Tools: what phase 3 dispatches.
//!
//! In: a sealed [`ToolCall`]. Out: the tool's JSON value or its error text (normalized into a
//! [`ToolResult`](super::ToolResult) by [`Next::run`](super::Next::run)), and optionally a
//! definition-owned final content (phase 5).

use std::fmt;

use serde_json::Value;

use super::{BoxFuture, ToolCall};

/// A tool the harness dispatches.
pub trait Tool: Send + Sync {
    /// Run the call. `Err` is a tool failure (normalized into an error result).
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, String>>;

    /// Definition-owned final content (seed: `ToolDefinition.finalizeContent`): runs exactly
    /// once on every outcome, failures included; may replace the content (`Some`) but not
    /// `is_error`. A panic here keeps the content.
    fn finalize_content(&self, _content: &Value, _is_error: bool) -> Option<Value> {
        None
    }

    /// The tool's output declaration: whether `value` is a canonical value this tool can
    /// return. Checked on the value a dispatch returns and on a value a post-tool
    /// [`ReplaceValue`](crate::PostToolDecision::ReplaceValue) puts in its place; `Err` says
    /// why not (the call ends in an error result). Accepts every value by default.
    fn validate(&self, _value: &Value) -> Result<(), String> {
        Ok(())
    }

    /// The presentation content of a (valid) canonical value: what the model sees.
    /// Recomputed after a value replacement. The value itself by default.
    fn present(&self, value: &Value) -> Result<Value, String> {
        Ok(value.clone())
    }
}

/// The presentation of `value` by `tool` after checking it against the tool's declaration
/// (the value itself when there is no tool); a panic in either is an `Err`.
pub(super) fn revalue(tool: Option<&dyn Tool>, value: &Value) -> Result<Value, String> {
    let Some(tool) = tool else {
        return Ok(value.clone());
    };
    let checked = super::contain::contained(|| {
        tool.validate(value)
            .map_err(|m| format!("invalid value: {m}"))?;
        tool.present(value)
            .map_err(|m| format!("cannot present the value: {m}"))
    });
    checked.unwrap_or_else(|p| Err(super::contain::panic_message(p)))
}

/// A [`Tool`] from a sync closure (see [`tool_fn`]).
pub struct FnTool<F>(F);

impl<F> fmt::Debug for FnTool<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnTool")
    }
}

/// A tool from a closure `Fn(&ToolCall) -> Result<Value, String>`.
pub fn tool_fn<F>(f: F) -> FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, String> + Send + Sync,
{
    FnTool(f)
}

impl<F> Tool for FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, String> + Send + Sync,
{
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, String>> {
        let r = (self.0)(call);
        Box::pin(std::future::ready(r))
    }
}
