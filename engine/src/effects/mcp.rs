//! The MCP lens: every argument of an MCP tool call, at any depth, classified.
//!
//! In: the tool name (`mcp__<server>__<tool>`) and its arguments object. Out: effects.

use serde_json::Value;

use super::Effects;
use crate::table::ShellEnv;

/// The effects of one MCP tool call.
pub(crate) fn lens(tool: &str, input: &Value, cwd: Option<&str>, env: &ShellEnv, fx: &mut Effects) {
    let _ = (tool, input, cwd, env, fx);
}
