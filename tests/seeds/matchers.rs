//! Matcher modes (hook-protocol seed: "claude-code interprets a pattern as literal
//! alternatives or a regex, codex always as an unanchored regex"). The protocol notes
//! (docs/protocols/HOOKS.md B4, read from Codex's source) say the "always a regex" reading
//! is out of date: Codex uses Claude Code's three-way rule except that `-`, space and `,` are
//! not literal characters. The harness follows the protocol: handler matchers are read in
//! the harness's dialect.

use serde_json::json;

use seamguard::harness::{Harness, RegistrationOptions, ToolCall, at};
use seamguard::{Dialect, PreToolDecision};

fn deny_matching(dialect: Dialect, matcher: &str) -> Harness {
    let h = Harness::new().with_dialect(dialect);
    h.on(
        at::PreTool,
        |_, _| {
            Some(PreToolDecision::Deny {
                reason: "matched".into(),
            })
        },
        RegistrationOptions::named("m").matcher(matcher),
    )
    .unwrap();
    h
}

async fn matches(h: &Harness, tool: &str) -> bool {
    let call = ToolCall::new(tool, json!({}), "s1", "/w");
    h.pre_tool(&call).await.decision.is_some()
}

#[tokio::test]
async fn a_codex_matcher_of_plain_names_is_exact() {
    let h = deny_matching(Dialect::Codex, "Bash|apply_patch");
    assert!(matches(&h, "Bash").await);
    assert!(matches(&h, "apply_patch").await);
    assert!(
        !matches(&h, "BashOutput").await,
        "exact, not a substring regex"
    );
}

#[tokio::test]
async fn a_codex_matcher_with_other_characters_is_an_unanchored_regex() {
    // A comma list is a regex in Codex (it matches nothing useful), a list in Claude Code.
    let codex = deny_matching(Dialect::Codex, "Edit, Write");
    let claude = deny_matching(Dialect::ClaudeCode, "Edit, Write");
    assert!(!matches(&codex, "Write").await);
    assert!(matches(&claude, "Write").await);
    // A hyphenated name is a substring regex in Codex, exact in Claude Code.
    let codex = deny_matching(Dialect::Codex, "code-review");
    let claude = deny_matching(Dialect::ClaudeCode, "code-review");
    assert!(matches(&codex, "mcp__code-review__run").await);
    assert!(!matches(&claude, "mcp__code-review__run").await);
    assert!(matches(&claude, "code-review").await);
}
