//! A [`ToolCall`] built by name: `ToolCall::builder("Bash").arg("command", "ls")
//! .session("s1").cwd("/w").build()`, instead of four positional strings.
//!
//! In: the tool's name, its input (whole, or one argument at a time), the session and the
//! working folder. Out: the sealed [`ToolCall`] ([`ToolCall::new`] with those values).

use serde_json::{Map, Value};

use super::ToolCall;

/// Builds a [`ToolCall`] ([`ToolCall::builder`]). Unset, the input is `{}` and the session
/// id and working folder are empty (a policy predicate on the project, such as
/// `path_inside = "project"`, then sees no project: set [`ToolCallBuilder::cwd`]).
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until `build`"]
pub struct ToolCallBuilder {
    name: String,
    input: Value,
    session_id: String,
    cwd: String,
}

impl ToolCall {
    /// Start building a call of tool `name`.
    ///
    /// # Example
    ///
    /// ```
    /// use seamguard_engine::harness::ToolCall;
    ///
    /// let call = ToolCall::builder("Bash")
    ///     .arg("command", "git status")
    ///     .session("s1")
    ///     .cwd("/work/app")
    ///     .build();
    /// assert_eq!(call.name(), "Bash");
    /// assert_eq!(call.command(), Some("git status"));
    /// assert_eq!(call.payload()["cwd"], "/work/app");
    /// assert_eq!(call.payload()["session_id"], "s1");
    /// ```
    pub fn builder(name: &str) -> ToolCallBuilder {
        ToolCallBuilder {
            name: name.to_string(),
            input: Value::Object(Map::new()),
            session_id: String::new(),
            cwd: String::new(),
        }
    }
}

impl ToolCallBuilder {
    /// The whole input (replaces what was set so far).
    pub fn input(mut self, input: Value) -> ToolCallBuilder {
        self.input = input;
        self
    }

    /// One argument of the input (`input[key] = value`); an input that is not a JSON object
    /// is replaced by one.
    pub fn arg(mut self, key: &str, value: impl Into<Value>) -> ToolCallBuilder {
        if !self.input.is_object() {
            self.input = Value::Object(Map::new());
        }
        if let Some(o) = self.input.as_object_mut() {
            o.insert(key.to_string(), value.into());
        }
        self
    }

    /// The session id (`session_id` of the payload tables see).
    pub fn session(mut self, session_id: &str) -> ToolCallBuilder {
        self.session_id = session_id.to_string();
        self
    }

    /// The working folder (`cwd`: the project root of project-relative predicates).
    pub fn cwd(mut self, cwd: &str) -> ToolCallBuilder {
        self.cwd = cwd.to_string();
        self
    }

    /// Seal the call (a fresh [`CallId`](super::CallId)).
    pub fn build(self) -> ToolCall {
        ToolCall::new(&self.name, self.input, &self.session_id, &self.cwd)
    }
}
