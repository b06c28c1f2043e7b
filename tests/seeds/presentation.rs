//! Canonical value and presentation content (interception-seams seed, `tools/post-execute`:
//! "replaces either presentation content or canonical value … Value replacement revalidates
//! and recomputes presentation; content replacement preserves programmatic value").

use serde_json::{Value, json};

use seamguard::PostToolDecision;
use seamguard::harness::ToolError;
use seamguard::harness::{
    BoxFuture, ExecError, Harness, RegistrationOptions, Tool, ToolCall, ToolOutput, ToolResult, at,
};

/// A query tool: its value is `{"rows": [...]}`, presented as `"<n> rows: a, b"`.
struct Query;

impl Tool for Query {
    fn call<'a>(&'a self, _call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async { Ok(json!({ "rows": ["alice", "bob", "sk-123"] })) })
    }

    fn validate(&self, value: &Value) -> Result<(), String> {
        match value["rows"].as_array() {
            Some(rows) if rows.iter().all(Value::is_string) => Ok(()),
            _ => Err("rows must be a list of strings".into()),
        }
    }

    fn present(&self, value: &Value) -> Result<Value, String> {
        let rows: Vec<&str> = value["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        Ok(json!(format!("{} rows: {}", rows.len(), rows.join(", "))))
    }
}

fn query() -> ToolCall {
    ToolCall::new("Query", json!({ "sql": "select name" }), "s1", "/w")
}

/// A harness whose one post-tool handler answers with `decide(content)`.
fn with_post(decide: fn(&ToolOutput) -> Option<PostToolDecision>) -> Harness {
    let h = Harness::new();
    h.on(
        at::PostTool,
        move |out, _| decide(out),
        RegistrationOptions::named("post").matcher("Query"),
    )
    .unwrap();
    h
}

#[tokio::test]
async fn the_presentation_is_computed_from_the_canonical_value() {
    let exec = Harness::new().execute(query(), &Query).await;
    assert_eq!(
        exec.result,
        ToolResult {
            content: json!("3 rows: alice, bob, sk-123"),
            value: json!({ "rows": ["alice", "bob", "sk-123"] }),
            is_error: false,
            error: None,
        }
    );
}

#[tokio::test]
async fn value_replacement_revalidates_and_recomputes_presentation() {
    let h = with_post(|out| {
        let rows: Vec<Value> = out.result.value["rows"]
            .as_array()?
            .iter()
            .filter(|r| !r.as_str().is_some_and(|s| s.starts_with("sk-")))
            .cloned()
            .collect();
        Some(PostToolDecision::ReplaceValue {
            value: json!({ "rows": rows }),
            additional_contexts: vec!["one row withheld".into()],
        })
    });
    let exec = h.execute(query(), &Query).await;
    assert_eq!(exec.result.value, json!({ "rows": ["alice", "bob"] }));
    assert_eq!(exec.result.content, json!("2 rows: alice, bob"));
    assert!(!exec.result.is_error);
    let post = exec.post.as_ref().unwrap();
    assert_eq!(
        post.post_tool(),
        Some(PostToolDecision::ReplaceValue {
            value: json!({ "rows": ["alice", "bob"] }),
            additional_contexts: vec!["one row withheld".into()],
        })
    );
    assert_eq!(post.redacted_response, Some(json!("2 rows: alice, bob")));
    assert_eq!(exec.contexts.len(), 1);
    assert_eq!(exec.contexts[0].text, "one row withheld");
}

#[tokio::test]
async fn an_invalid_replacement_value_is_an_error_result() {
    let h = with_post(|_| {
        Some(PostToolDecision::ReplaceValue {
            value: json!({ "rows": [1, 2] }),
            additional_contexts: vec![],
        })
    });
    let exec = h.execute(query(), &Query).await;
    assert!(exec.result.is_error);
    assert_eq!(exec.result.value, Value::Null);
    let Some(ExecError::Handler { name, message, .. }) = &exec.result.error else {
        panic!("expected a handler failure, got {:?}", exec.result.error);
    };
    assert_eq!(name, "post");
    assert_eq!(
        message,
        "replaced the value: invalid value: rows must be a list of strings"
    );
}

#[tokio::test]
async fn content_replacement_preserves_the_canonical_value() {
    let h = with_post(|out| {
        let shown = out.result.content.as_str()?;
        Some(PostToolDecision::Redact {
            tool_response: json!(shown.replace("sk-123", "[REDACTED]")),
            additional_contexts: vec![],
        })
    });
    let exec = h.execute(query(), &Query).await;
    assert_eq!(exec.result.content, json!("3 rows: alice, bob, [REDACTED]"));
    // Not a confidentiality boundary: the value still holds what the model does not see.
    assert_eq!(
        exec.result.value,
        json!({ "rows": ["alice", "bob", "sk-123"] })
    );
    assert_eq!(
        exec.post.as_ref().unwrap().post_tool(),
        Some(PostToolDecision::Redact {
            tool_response: json!("3 rows: alice, bob, [REDACTED]"),
            additional_contexts: vec![],
        })
    );
}

#[tokio::test]
async fn a_value_the_tool_does_not_declare_is_an_error_result() {
    struct Wrong;
    impl Tool for Wrong {
        fn call<'a>(&'a self, _call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
            Box::pin(async { Ok(json!({ "rows": "nope" })) })
        }
        fn validate(&self, value: &Value) -> Result<(), String> {
            Query.validate(value)
        }
    }
    let exec = Harness::new().execute(query(), &Wrong).await;
    assert_eq!(
        exec.result,
        ToolResult::error(ExecError::Tool {
            message: "invalid value: rows must be a list of strings".into()
        })
    );
}
