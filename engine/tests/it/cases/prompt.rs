//! HK-11: blocking a prompt with `decision: block` on the `prompt` field.

use seamguard_engine::{Dialect, Scope, Seam, Verdict, encode, load_str};
use serde_json::{Value, json};

use crate::support::{PROJECT, claude, codex, engine};

const HK11_POLICY: &str = include_str!("../../data/policies/cases-hk11-policy.toml");

fn hk11_payload() -> Value {
    claude(
        PROJECT,
        "UserPromptSubmit",
        json!({"prompt": "deploy to prod, the key is sk-live-<REDACTED_40_CHARS>"}),
    )
}

#[test]
fn hk11_prompt_with_live_key_is_blocked_and_not_echoed() {
    let engine = engine(HK11_POLICY);
    let o = engine.evaluate(Seam::PromptSubmit, &hk11_payload(), Dialect::ClaudeCode);
    assert_eq!(o.verdict(), Verdict::Block);
    assert!(o.suppress_prompt);
    let enc = encode(&o, Dialect::ClaudeCode);
    assert_eq!(
        enc.stdout,
        "{\"decision\":\"block\",\"reason\":\"Prompt looks like it contains a live API key; remove it and resend [no-live-keys]\",\"suppressOriginalPrompt\":true}\n"
    );
    assert_eq!(enc.exit_code, 0);
    assert!(!enc.stdout.contains("sk-live"), "never repeat the secret");
    assert!(
        !enc.stdout.contains("systemMessage"),
        "a systemMessage alone does not block"
    );

    let payload = codex(
        PROJECT,
        "UserPromptSubmit",
        json!({"prompt": "deploy to prod, the key is sk-live-<REDACTED_40_CHARS>"}),
    );
    let enc = encode(
        &engine.evaluate(Seam::PromptSubmit, &payload, Dialect::Codex),
        Dialect::Codex,
    );
    assert_eq!(
        enc.stdout,
        "{\"decision\":\"block\",\"reason\":\"Prompt looks like it contains a live API key; remove it and resend [no-live-keys]\"}\n"
    );
}

#[test]
fn hk11_clean_prompt_passes() {
    let engine = engine(HK11_POLICY);
    let payload = claude(
        PROJECT,
        "UserPromptSubmit",
        json!({"prompt": "deploy to staging"}),
    );
    let o = engine.evaluate(Seam::PromptSubmit, &payload, Dialect::ClaudeCode);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(encode(&o, Dialect::ClaudeCode).stdout, "");
}

#[test]
fn hk11_user_prompt_field_is_a_load_error() {
    // The payload field is `prompt`; hookify's `user_prompt` never matched anything.
    let p = load_str(
        "[[rule]]\nid = \"x\"\nseam = \"prompt-submit\"\nwhen.user_prompt = { contains = \"sk-live-\" }\ndecision = \"block\"\n",
        "case.toml",
        Scope::User,
        0,
    );
    assert!(p.has_errors());
    assert!(p.rules.is_empty());
    assert!(
        p.diagnostics[0]
            .to_string()
            .starts_with("case.toml:4:6: error: unknown field `user_prompt` in `when`"),
        "{}",
        p.diagnostics[0]
    );
}
