//! Ergonomics (issue 30, 10): one import (`seamguard::prelude`), decision constructors that
//! equal the spelled-out decisions, typed reasons without ` [rule]` (the host text keeps
//! it), and a `ToolCall` built by name.

use serde_json::json;

use seamguard::prelude::*;

#[test]
fn constructors_equal_the_spelled_out_decisions() {
    assert_eq!(
        PreToolDecision::allow_because("read-only"),
        PreToolDecision::Allow {
            reason: Some("read-only".into()),
            updated_input: None,
        }
    );
    assert_eq!(
        PreToolDecision::ask("network"),
        PreToolDecision::Ask {
            reason: "network".into()
        }
    );
    assert_eq!(
        PreToolDecision::defer("later"),
        PreToolDecision::Defer {
            reason: "later".into()
        }
    );
    assert_eq!(
        PermissionDecision::allow(),
        PermissionDecision::Allow {
            updated_input: None
        }
    );
    assert_eq!(
        PermissionDecision::deny("no"),
        PermissionDecision::Deny {
            message: "no".into()
        }
    );
    assert_eq!(
        PromptDecision::rewrite("tidy").with_context("ctx"),
        PromptDecision::Allow {
            rewritten_prompt: Some("tidy".into()),
            additional_contexts: vec!["ctx".into()],
        }
    );
    // A block carries no contexts: `with_context` leaves it as it is.
    assert_eq!(
        PromptDecision::block("no").with_context("ignored"),
        PromptDecision::Block {
            reason: "no".into(),
            suppress_prompt: false,
        }
    );
    assert_eq!(
        PostToolDecision::redact(json!("[hidden]")).with_context("a"),
        PostToolDecision::Redact {
            tool_response: json!("[hidden]"),
            additional_contexts: vec!["a".into()],
        }
    );
    assert_eq!(
        PostToolDecision::replace_value(json!({ "n": 1 })),
        PostToolDecision::ReplaceValue {
            value: json!({ "n": 1 }),
            additional_contexts: vec![],
        }
    );
    assert_eq!(
        ContinuationDecision::continue_with("run the tests"),
        ContinuationDecision::Continue {
            reason: "run the tests".into()
        }
    );
}

#[test]
fn a_tool_call_builds_by_name_with_empty_defaults() {
    let call = ToolCall::builder("Read").build();
    assert_eq!(call.input(), &json!({}));
    assert_eq!(call.payload()["session_id"], json!(""));
    assert_eq!(call.payload()["cwd"], json!(""));
    assert_eq!(call.payload()["tool_name"], json!("Read"));

    // `arg` on an input that is not an object starts a new object.
    let call = ToolCall::builder("Edit")
        .input(json!("not an object"))
        .arg("file_path", "/w/a.rs")
        .arg("replace_all", true)
        .build();
    assert_eq!(
        call.input(),
        &json!({ "file_path": "/w/a.rs", "replace_all": true })
    );
    // Each build seals a new call.
    let b = ToolCall::builder("Read");
    assert_ne!(b.clone().build().id(), b.build().id());
}

#[tokio::test]
async fn typed_reasons_are_the_text_and_the_host_text_names_the_rules() {
    let mut h = Harness::new();
    h.add_table(
        PolicyTable::load_str(
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"ask\"\nreason = \"Shell needs a look\"\n\n\
             [[rule]]\nid = \"b\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"ask\"\nreason = \"Shell needs a look.\"\n",
            "two.toml",
            Scope::User,
        )
        .unwrap(),
    );
    h.on(
        at::PreTool,
        |_c, _cx| Some(PreToolDecision::ask("and a second opinion")),
        RegistrationOptions::named("mine"),
    )
    .unwrap();
    let call = ToolCall::builder("Bash").arg("command", "ls").build();
    let pre = h.pre_tool(&call).await;
    assert_eq!(
        pre.decision,
        Some(PreToolDecision::ask(
            "Shell needs a look; and a second opinion"
        ))
    );
    assert_eq!(
        pre.outcome().reason_text(),
        "Shell needs a look [a, b]; and a second opinion [mine]"
    );
    let rules: Vec<&str> = pre.reasons().iter().map(|a| a.rule.as_str()).collect();
    assert_eq!(rules, ["a", "b", "mine"]);
}
