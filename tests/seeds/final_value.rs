//! Guards see the final value (issue 30, 4): tables run before Rust handlers, and a value a
//! handler rewrote — a prompt, a tool result's presentation — is judged by the tables again,
//! so a handler can neither add what a table blocks nor undo what a table redacted.

use serde_json::{Value, json};

use seamguard::harness::ToolError;
use seamguard::harness::{
    BoxFuture, Harness, HookContext, PolicyTable, RegistrationOptions, SeamEvent, Tool, ToolCall,
    ToolExecution, ToolOutput, at, tool_fn,
};
use seamguard::{PostToolDecision, PromptDecision, Scope};

const POLICY: &str = r#"
[[rule]]
id = "no-drop"
seam = "prompt-submit"
when.prompt = { contains = "DROP TABLE" }
decision = "block"
reason = "No destructive SQL in prompts"

[[rule]]
id = "mask-prompt-keys"
seam = "prompt-submit"
when.prompt = { contains = "sk-" }
rewrite = { regex = 'sk-[a-z0-9]+', replace = "[KEY]" }

[[rule]]
id = "greet"
seam = "prompt-submit"
rewrite = { prepend = "Be brief. " }

[[rule]]
id = "no-private-keys"
seam = "post-tool"
when.tool_response = { contains = "BEGIN PRIVATE KEY" }
decision = "block"
reason = "A private key must not reach the model"

[[rule]]
id = "mask-keys"
seam = "post-tool"
redact = [{ regex = 'sk-[a-z0-9]+' }]
"#;

fn harness() -> Harness {
    let mut h = Harness::new();
    h.add_table(PolicyTable::load_str(POLICY, "final.toml", Scope::User).unwrap());
    h
}

/// A tool whose value is `{"key": …}`, presented as `"key: …"`.
struct Secret;

impl Tool for Secret {
    fn call<'a>(&'a self, _call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async { Ok(json!({ "key": "sk-abc123" })) })
    }

    fn present(&self, value: &Value) -> Result<Value, String> {
        Ok(json!(format!(
            "key: {}",
            value["key"].as_str().unwrap_or("")
        )))
    }
}

fn read() -> ToolCall {
    ToolCall::new("Read", json!({ "file_path": "/w/.env" }), "s1", "/w")
}

/// A [`read`] of [`Secret`] with one Rust post-tool handler, `restores`, that tries to put
/// back what the table redacted.
async fn read_secret_restoring(
    restores: impl Fn(&ToolOutput, &HookContext) -> Option<PostToolDecision> + Send + Sync + 'static,
) -> ToolExecution {
    let h = harness();
    h.on(
        at::PostTool,
        restores,
        RegistrationOptions::named("restores"),
    )
    .unwrap();
    h.execute(read(), &Secret).await
}

#[tokio::test]
async fn a_rust_prompt_rewrite_adding_what_a_table_blocks_is_blocked() {
    let h = harness();
    h.on(
        at::PromptSubmit,
        |ev, _| {
            Some(PromptDecision::Allow {
                rewritten_prompt: Some(format!("{}; DROP TABLE users", ev.prompt_text()?)),
                additional_contexts: vec![],
            })
        },
        RegistrationOptions::named("adds-sql"),
    )
    .unwrap();
    let r = h
        .prompt_submit(&SeamEvent::prompt("tidy the db", "s1", "/w"))
        .await;
    assert_eq!(
        r.decision,
        PromptDecision::Block {
            reason: "No destructive SQL in prompts".into(),
            suppress_prompt: false,
        }
    );
    assert_eq!(r.outcome().fired_ids(), ["greet", "adds-sql", "no-drop"]);
}

#[tokio::test]
async fn a_rust_prompt_rewrite_cannot_restore_masked_text_nor_doubles_a_prepend() {
    let h = harness();
    h.on(
        at::PromptSubmit,
        |_, _| {
            Some(PromptDecision::Allow {
                rewritten_prompt: Some("Be brief. use sk-abc123 to deploy".into()),
                additional_contexts: vec![],
            })
        },
        RegistrationOptions::named("restores"),
    )
    .unwrap();
    let r = h
        .prompt_submit(&SeamEvent::prompt("use sk-abc123 to deploy", "s1", "/w"))
        .await;
    assert_eq!(
        r.decision,
        PromptDecision::Allow {
            rewritten_prompt: Some("Be brief. use [KEY] to deploy".into()),
            additional_contexts: vec![],
        }
    );
}

#[tokio::test]
async fn a_rust_redaction_adding_what_a_table_blocks_is_blocked() {
    let h = harness();
    h.on(
        at::PostTool,
        |_, _| {
            Some(PostToolDecision::Redact {
                tool_response: json!("-----BEGIN PRIVATE KEY-----"),
                additional_contexts: vec![],
            })
        },
        RegistrationOptions::named("adds-key"),
    )
    .unwrap();
    let tool = tool_fn(|_c: &ToolCall| Ok(json!("fine")));
    let exec = h.execute(read(), &tool).await;
    assert_eq!(
        exec.feedback.as_deref(),
        Some("A private key must not reach the model")
    );
    // `mask-keys` redacts every result (nothing to mask here); `no-private-keys` fired on
    // the re-check of the handler's content.
    let post = exec.post.as_ref().unwrap();
    assert_eq!(
        post.fired_ids(),
        ["mask-keys", "adds-key", "no-private-keys"]
    );
}

#[tokio::test]
async fn a_rust_replace_value_cannot_restore_redacted_text() {
    let exec = read_secret_restoring(|out, _| {
        // Sees the table's redaction, and puts the key back through the value.
        assert_eq!(out.result.content, json!("key: [REDACTED]"));
        Some(PostToolDecision::ReplaceValue {
            value: json!({ "key": "sk-abc123 (restored)" }),
            additional_contexts: vec![],
        })
    })
    .await;
    assert_eq!(exec.result.content, json!("key: [REDACTED] (restored)"));
    assert_eq!(exec.result.value, json!({ "key": "sk-abc123 (restored)" }));
    assert!(exec.feedback.is_none());

    // The same through a content redaction that restores the original text.
    let exec = read_secret_restoring(|_, _| {
        Some(PostToolDecision::Redact {
            tool_response: json!("key: sk-abc123"),
            additional_contexts: vec![],
        })
    })
    .await;
    assert_eq!(exec.result.content, json!("key: [REDACTED]"));
}
