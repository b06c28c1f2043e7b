//! Tools: what phase 3 dispatches.
//!
//! In: a sealed [`ToolCall`]. Out: the tool's JSON value or a [`ToolError`] (normalized into a
//! [`ToolResult`](super::ToolResult) by [`Next::run`](super::Next::run)), and optionally a
//! definition-owned final content (phase 5).

use std::fmt;

use serde_json::Value;

use super::{BoxFuture, ToolCall};

/// A tool the harness dispatches.
pub trait Tool: Send + Sync {
    /// Run the call.
    ///
    /// # Errors
    /// A [`ToolError`] is a tool failure: the call ends in an error result whose message is
    /// the error's text (with its source, if any).
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>>;

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

/// A tool's failure: a message and, optionally, the error that caused it.
///
/// Built from a message (`"exit 1".into()`, `ToolError::new(…)`), from any error
/// (`ToolError::from_error(e)`, or `?` on an [`std::io::Error`] or a [`serde_json::Error`]),
/// or from both ([`ToolError::with_source`]). Its text is what the call's error result says.
///
/// ```
/// use seamguard_engine::harness::ToolError;
///
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// let e = ToolError::with_source("cannot read config.toml", io);
/// assert_eq!(e.to_string(), "cannot read config.toml: no such file");
/// assert!(std::error::Error::source(&e).is_some());
/// assert_eq!(ToolError::from("exit 1").to_string(), "exit 1");
/// ```
#[derive(Debug)]
pub struct ToolError {
    message: Option<String>,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl ToolError {
    /// A failure with this message and no source.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: Some(message.into()),
            source: None,
        }
    }

    /// A failure that is `source` (its text is the source's).
    pub fn from_error(source: impl std::error::Error + Send + Sync + 'static) -> ToolError {
        ToolError {
            message: None,
            source: Some(Box::new(source)),
        }
    }

    /// A failure with a message of its own, caused by `source` (text: `message: source`).
    pub fn with_source(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> ToolError {
        ToolError {
            message: Some(message.into()),
            source: Some(Box::new(source)),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.message, &self.source) {
            (Some(m), Some(s)) => write!(f, "{m}: {s}"),
            (Some(m), None) => f.write_str(m),
            (None, Some(s)) => write!(f, "{s}"),
            (None, None) => f.write_str("the tool failed"),
        }
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::new(message)
    }
}

impl From<std::io::Error> for ToolError {
    fn from(e: std::io::Error) -> ToolError {
        ToolError::from_error(e)
    }
}

impl From<serde_json::Error> for ToolError {
    fn from(e: serde_json::Error) -> ToolError {
        ToolError::from_error(e)
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

/// A tool from a closure `Fn(&ToolCall) -> Result<Value, ToolError>` (`Err("exit 1".into())`).
pub fn tool_fn<F>(f: F) -> FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, ToolError> + Send + Sync,
{
    FnTool(f)
}

impl<F> Tool for FnTool<F>
where
    F: Fn(&ToolCall) -> Result<Value, ToolError> + Send + Sync,
{
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        let r = (self.0)(call);
        Box::pin(std::future::ready(r))
    }
}
