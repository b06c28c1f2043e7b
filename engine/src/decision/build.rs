//! Constructors of the typed decisions, so a handler says what it decides without spelling
//! every field: `PreToolDecision::deny("no force pushes")`,
//! `PostToolDecision::accept().with_context("read the failing test first")`.
//!
//! In: a reason, a message, a value. Out: the decision. Nothing here can fail.

use serde_json::Value;

use super::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};

impl PreToolDecision {
    /// Allow without a reason (no argument rewrite: the harness seals a call).
    ///
    /// ```
    /// use seamguard_engine::PreToolDecision;
    ///
    /// assert_eq!(
    ///     PreToolDecision::allow(),
    ///     PreToolDecision::Allow { reason: None, updated_input: None }
    /// );
    /// ```
    pub fn allow() -> PreToolDecision {
        PreToolDecision::Allow {
            reason: None,
            updated_input: None,
        }
    }

    /// Allow, with a reason shown to the user.
    pub fn allow_because(reason: impl Into<String>) -> PreToolDecision {
        PreToolDecision::Allow {
            reason: Some(reason.into()),
            updated_input: None,
        }
    }

    /// Deny; the reason is shown to the model.
    ///
    /// ```
    /// use seamguard_engine::PreToolDecision;
    ///
    /// assert_eq!(
    ///     PreToolDecision::deny("no force pushes"),
    ///     PreToolDecision::Deny { reason: "no force pushes".into() }
    /// );
    /// ```
    pub fn deny(reason: impl Into<String>) -> PreToolDecision {
        PreToolDecision::Deny {
            reason: reason.into(),
        }
    }

    /// Ask the user; the reason is shown in the prompt.
    pub fn ask(reason: impl Into<String>) -> PreToolDecision {
        PreToolDecision::Ask {
            reason: reason.into(),
        }
    }

    /// Defer the call (Claude Code `-p` only).
    pub fn defer(reason: impl Into<String>) -> PreToolDecision {
        PreToolDecision::Defer {
            reason: reason.into(),
        }
    }
}

impl GuardDeny {
    /// A guard's deny with its reason (shown to the model).
    ///
    /// ```
    /// use seamguard_engine::GuardDeny;
    ///
    /// assert_eq!(GuardDeny::new("no secrets").reason, "no secrets");
    /// ```
    pub fn new(reason: impl Into<String>) -> GuardDeny {
        GuardDeny {
            reason: reason.into(),
        }
    }
}

impl PermissionDecision {
    /// Grant, with the call's input as it is.
    pub fn allow() -> PermissionDecision {
        PermissionDecision::Allow {
            updated_input: None,
        }
    }

    /// Refuse with a message.
    pub fn deny(message: impl Into<String>) -> PermissionDecision {
        PermissionDecision::Deny {
            message: message.into(),
        }
    }
}

impl PromptDecision {
    /// Let the prompt through unchanged, with no context (add some with
    /// [`PromptDecision::with_context`]).
    pub fn allow() -> PromptDecision {
        PromptDecision::Allow {
            rewritten_prompt: None,
            additional_contexts: Vec::new(),
        }
    }

    /// Let the prompt through as `prompt` (later handlers, and the tables' second look, see
    /// the rewritten prompt).
    pub fn rewrite(prompt: impl Into<String>) -> PromptDecision {
        PromptDecision::Allow {
            rewritten_prompt: Some(prompt.into()),
            additional_contexts: Vec::new(),
        }
    }

    /// Reject the prompt; the reason is shown to the user, who sees the prompt echoed.
    pub fn block(reason: impl Into<String>) -> PromptDecision {
        PromptDecision::Block {
            reason: reason.into(),
            suppress_prompt: false,
        }
    }

    /// Add an additional context (an allow's; a block has none and is returned as it is).
    ///
    /// ```
    /// use seamguard_engine::PromptDecision;
    ///
    /// assert_eq!(
    ///     PromptDecision::allow().with_context("the repo uses pnpm"),
    ///     PromptDecision::Allow {
    ///         rewritten_prompt: None,
    ///         additional_contexts: vec!["the repo uses pnpm".into()],
    ///     }
    /// );
    /// ```
    pub fn with_context(mut self, text: impl Into<String>) -> PromptDecision {
        if let PromptDecision::Allow {
            additional_contexts,
            ..
        } = &mut self
        {
            additional_contexts.push(text.into());
        }
        self
    }
}

impl PostToolDecision {
    /// Keep the result, with no context (add some with [`PostToolDecision::with_context`]).
    pub fn accept() -> PostToolDecision {
        PostToolDecision::Accept {
            additional_contexts: Vec::new(),
        }
    }

    /// Block with feedback for the model (the tool already ran).
    pub fn block(feedback: impl Into<String>) -> PostToolDecision {
        PostToolDecision::Block {
            feedback: feedback.into(),
            additional_contexts: Vec::new(),
        }
    }

    /// Replace the presentation content the model sees (the canonical value is kept).
    pub fn redact(tool_response: Value) -> PostToolDecision {
        PostToolDecision::Redact {
            tool_response,
            additional_contexts: Vec::new(),
        }
    }

    /// Replace the canonical value (revalidated and presented again by the harness).
    pub fn replace_value(value: Value) -> PostToolDecision {
        PostToolDecision::ReplaceValue {
            value,
            additional_contexts: Vec::new(),
        }
    }

    /// Add an additional context, in order.
    ///
    /// ```
    /// use seamguard_engine::PostToolDecision;
    ///
    /// let d = PostToolDecision::block("tests failed").with_context("fix the first failure");
    /// assert_eq!(
    ///     d,
    ///     PostToolDecision::Block {
    ///         feedback: "tests failed".into(),
    ///         additional_contexts: vec!["fix the first failure".into()],
    ///     }
    /// );
    /// ```
    pub fn with_context(mut self, text: impl Into<String>) -> PostToolDecision {
        let (PostToolDecision::Accept {
            additional_contexts,
        }
        | PostToolDecision::Block {
            additional_contexts,
            ..
        }
        | PostToolDecision::Redact {
            additional_contexts,
            ..
        }
        | PostToolDecision::ReplaceValue {
            additional_contexts,
            ..
        }) = &mut self;
        additional_contexts.push(text.into());
        self
    }
}

impl ContinuationDecision {
    /// Keep the agent working; the reason is its next instruction.
    pub fn continue_with(reason: impl Into<String>) -> ContinuationDecision {
        ContinuationDecision::Continue {
            reason: reason.into(),
        }
    }
}
