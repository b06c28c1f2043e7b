//! Protocol conformance of the dialect encoders: for each event × dialect × verdict, the exact
//! stdout bytes and exit code of `encode`, with outcomes built through real TOML policies and
//! `Engine::evaluate`.
//!
//! References: HOOKS.md A5 (Claude Code output), B3 (Codex output), Part C (differences) and
//! Part G (what a policy engine must emit). Every Codex answer is additionally checked by an
//! independent validator of the Codex output rules written from B3 (strict keys, no `ask` /
//! `defer`, no `allow` without `updatedInput`, no empty reasons), and every answer is read
//! back through `decode_hook_output` to check the host would see the verdict we meant.

use seamguard_engine::{
    DecisionTable, Dialect, Encoded, Engine, Outcome, Scope, Seam, Verdict, decode_hook_output,
    encode, load_str,
};
use serde_json::{Map, Value, json};

use crate::support::engine;

// ---------------------------------------------------------------------------------------------
// Payloads

fn claude_payload(seam: Seam) -> Value {
    let mut m = json!({
        "session_id": "5c1d2e3f-0000-4000-8000-000000000001",
        "transcript_path": "/home/user/.claude/projects/-home-user-app/5c1d2e3f-0000-4000-8000-000000000001.jsonl",
        "cwd": "/home/user/app",
        "permission_mode": "default",
        "hook_event_name": seam.event_name(),
    });
    let extra = event_fields(seam, false);
    merge_into(&mut m, extra);
    m
}

fn codex_payload(seam: Seam) -> Value {
    let mut m = json!({
        "session_id": "019d0a00-0000-7000-8000-000000000001",
        "turn_id": "019d0b00-0000-7000-8000-000000000002",
        "transcript_path": "/home/user/.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-019d0a00.jsonl",
        "cwd": "/home/user/app",
        "hook_event_name": seam.event_name(),
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
    });
    let extra = event_fields(seam, true);
    merge_into(&mut m, extra);
    m
}

fn event_fields(seam: Seam, codex: bool) -> Value {
    let call_id = if codex { "call_abc123" } else { "toolu_01XYZ" };
    match seam {
        Seam::PreTool => json!({
            "tool_name": "Bash",
            "tool_input": {"command": "git push --force origin main"},
            "tool_use_id": call_id,
        }),
        Seam::PermissionRequest => json!({
            "tool_name": "Bash",
            "tool_input": {"command": "npm publish"},
        }),
        Seam::PromptSubmit => json!({"prompt": "deploy to prod now"}),
        Seam::PostTool => {
            if codex {
                json!({
                    "tool_name": "Bash",
                    "tool_input": {"command": "cat .env"},
                    "tool_response": "API_TOKEN=abc123\nDEBUG=1\n",
                    "tool_use_id": call_id,
                })
            } else {
                json!({
                    "tool_name": "Bash",
                    "tool_input": {"command": "cat .env"},
                    "tool_response": {"stdout": "API_TOKEN=abc123\nDEBUG=1\n", "stderr": "", "interrupted": false, "isImage": false},
                    "tool_use_id": call_id,
                })
            }
        }
        Seam::PostToolFailure => json!({
            "tool_name": "Bash",
            "tool_input": {"command": "make lint"},
            "tool_use_id": call_id,
            "error": "Exit code 2\nmake: *** [lint] Error 1",
            "is_interrupt": false,
        }),
        Seam::Stop => json!({"stop_hook_active": false, "last_assistant_message": "All done."}),
        Seam::SubagentStop => json!({
            "stop_hook_active": false,
            "agent_id": "a1b2c3",
            "agent_type": "Explore",
            "agent_transcript_path": "/home/user/.claude/projects/-home-user-app/subagents/agent-a1b2c3.jsonl",
            "last_assistant_message": "Found 4 call sites.",
        }),
        Seam::SessionStart => json!({"source": "startup"}),
        Seam::SubagentStart => json!({"agent_id": "a1b2c3", "agent_type": "Explore"}),
        Seam::PreCompact => json!({"trigger": "manual", "custom_instructions": ""}),
        Seam::PostCompact => json!({"trigger": "auto"}),
        Seam::Notification => json!({
            "message": "Claude needs your permission to use Bash",
            "notification_type": "permission_prompt",
        }),
        Seam::SessionEnd => json!({"reason": "other"}),
    }
}

fn merge_into(base: &mut Value, extra: Value) {
    if let (Value::Object(b), Value::Object(e)) = (base, extra) {
        for (k, v) in e {
            b.insert(k, v);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Running a policy

fn run(policy: &str, seam: Seam, dialect: Dialect) -> (Outcome, Encoded) {
    let payload = match dialect {
        Dialect::ClaudeCode => claude_payload(seam),
        Dialect::Codex => codex_payload(seam),
    };
    let outcome = engine(policy).evaluate(seam, &payload, dialect);
    let enc = encode(&outcome, dialect);
    (outcome, enc)
}

/// The Codex deny that replaces an `ask` (HOOKS.md Part G.4; case CX-01).
fn codex_ask(reason: &str) -> String {
    format!(
        "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":{}}}}}\n",
        Value::String(format!(
            "Approval required: {reason}. Codex hooks cannot ask for confirmation, so seamguard denies; run the command yourself or add an allow rule if it is intended."
        ))
    )
}

fn line(json: &str) -> String {
    format!("{json}\n")
}

/// One conformance row: a policy evaluated at a seam, in both dialects.
fn check(policy: &str, seam: Seam, verdict: Verdict, claude: &str, codex: &str) {
    let (o, enc) = run(policy, seam, Dialect::ClaudeCode);
    assert_eq!(o.verdict(), verdict, "claude-code verdict at {seam}");
    assert_eq!(enc.stdout, claude, "claude-code stdout at {seam}");
    assert_eq!(enc.exit_code, 0, "claude-code exit code at {seam}");
    claude_valid(seam, &enc.stdout);

    let (o, enc) = run(policy, seam, Dialect::Codex);
    assert_eq!(o.verdict(), verdict, "codex verdict at {seam}");
    assert_eq!(enc.stdout, codex, "codex stdout at {seam}");
    assert_eq!(enc.exit_code, 0, "codex exit code at {seam}");
    let violations = codex_violations(seam, &enc.stdout);
    assert!(
        violations.is_empty(),
        "codex output at {seam} breaks HOOKS.md B3: {violations:?}\n{}",
        enc.stdout
    );
    if seam.in_codex() && seam != Seam::SessionEnd {
        let back = decode_hook_output(Dialect::Codex, seam, Some(0), enc.stdout.as_bytes(), b"");
        assert_eq!(back.error, None, "codex would reject: {}", enc.stdout);
    }
}

// ---------------------------------------------------------------------------------------------
// Independent validators

fn parse_object(stdout: &str) -> Option<Map<String, Value>> {
    if stdout.is_empty() {
        return None;
    }
    assert!(stdout.ends_with('\n'), "stdout must end with one newline");
    let body = &stdout[..stdout.len() - 1];
    assert!(!body.contains('\n'), "stdout must be one JSON line");
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(m)) => Some(m),
        other => panic!("stdout is not a JSON object: {other:?}"),
    }
}

/// Claude Code: a JSON object whose `hookSpecificOutput.hookEventName` equals the running
/// event (HOOKS.md A5.1) and that the engine's Claude decoder accepts without error.
fn claude_valid(seam: Seam, stdout: &str) {
    let Some(m) = parse_object(stdout) else {
        return;
    };
    if let Some(h) = m.get("hookSpecificOutput") {
        assert_eq!(
            h.get("hookEventName"),
            Some(&Value::String(seam.event_name().into())),
            "hookEventName must equal the running event (A5.1)"
        );
    }
    let back = decode_hook_output(Dialect::ClaudeCode, seam, Some(0), stdout.as_bytes(), b"");
    assert_eq!(back.error, None, "claude decoder rejects our own output");
}

const UNIVERSAL: &[&str] = &["continue", "stopReason", "systemMessage", "suppressOutput"];

/// Codex output rules of HOOKS.md B3, written independently of the engine's decoder.
fn codex_violations(seam: Seam, stdout: &str) -> Vec<String> {
    let mut v = Vec::new();
    if !seam.in_codex() || seam == Seam::SessionEnd {
        if !stdout.is_empty() {
            v.push(format!(
                "{} output must be empty for Codex",
                seam.event_name()
            ));
        }
        return v;
    }
    let Some(m) = parse_object(stdout) else {
        return v;
    };
    if stdout.contains("\"ask\"") || stdout.contains("\"defer\"") {
        v.push("contains ask/defer".into());
    }
    let (top, hso): (Vec<&str>, &[&str]) = match seam {
        Seam::PreTool => (
            vec!["systemMessage", "decision", "reason", "hookSpecificOutput"],
            &[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ],
        ),
        Seam::PermissionRequest => (
            vec!["systemMessage", "hookSpecificOutput"],
            &["hookEventName", "decision"],
        ),
        Seam::PostTool | Seam::PromptSubmit => (
            [UNIVERSAL, &["decision", "reason", "hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext"],
        ),
        Seam::Stop | Seam::SubagentStop => ([UNIVERSAL, &["decision", "reason"]].concat(), &[]),
        Seam::SessionStart | Seam::SubagentStart => (
            [UNIVERSAL, &["hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext"],
        ),
        _ => (UNIVERSAL.to_vec(), &[]),
    };
    for k in m.keys() {
        if !top.contains(&k.as_str()) {
            v.push(format!("unknown top-level key `{k}`"));
        }
    }
    for (k, val) in &m {
        let ok = match k.as_str() {
            "continue" => val.is_boolean(),
            "hookSpecificOutput" => val.is_object(),
            _ => val.is_string(),
        };
        if !ok {
            v.push(format!("`{k}` has the wrong type"));
        }
    }
    if let Some(d) = m.get("decision") {
        if d != "block" {
            v.push(format!("top-level decision {d} is not \"block\""));
        }
        if m.get("reason")
            .and_then(Value::as_str)
            .is_none_or(|r| r.trim().is_empty())
        {
            v.push("decision:block needs a non-empty reason".into());
        }
    } else if m.contains_key("reason") && m.get("continue") != Some(&Value::Bool(false)) {
        v.push("reason without decision".into());
    }
    if let Some(Value::Object(h)) = m.get("hookSpecificOutput") {
        for k in h.keys() {
            if !hso.contains(&k.as_str()) {
                v.push(format!("unknown hookSpecificOutput key `{k}`"));
            }
        }
        if h.get("hookEventName") != Some(&Value::String(seam.event_name().into())) {
            v.push("hookEventName does not equal the event".into());
        }
        match h.get("permissionDecision").and_then(Value::as_str) {
            Some("deny") => {
                if h.get("permissionDecisionReason")
                    .and_then(Value::as_str)
                    .is_none_or(|r| r.trim().is_empty())
                {
                    v.push("deny without a non-empty permissionDecisionReason".into());
                }
            }
            Some("allow") => {
                if !h.contains_key("updatedInput") {
                    v.push("allow without updatedInput".into());
                }
            }
            Some(o) => v.push(format!("permissionDecision `{o}`")),
            None => {
                if h.contains_key("updatedInput") || h.contains_key("permissionDecisionReason") {
                    v.push("updatedInput/permissionDecisionReason without a decision".into());
                }
            }
        }
        if let Some(d) = h.get("decision") {
            match d {
                Value::Object(d) => {
                    for k in d.keys() {
                        if !["behavior", "message"].contains(&k.as_str()) {
                            v.push(format!("decision.{k} is not supported by Codex"));
                        }
                    }
                    match d.get("behavior").and_then(Value::as_str) {
                        Some("allow" | "deny") => {}
                        other => v.push(format!("decision.behavior {other:?}")),
                    }
                }
                _ => v.push("decision must be an object".into()),
            }
        }
        if let Some(c) = h.get("additionalContext")
            && !c.is_string()
        {
            v.push("additionalContext must be a string".into());
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// PreToolUse (HOOKS.md A5.4 / B3 "PreToolUse")

const PRE_DENY: &str = include_str!("../data/policies/conformance-pre-deny.toml");

#[test]
fn pre_tool_deny() {
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are not allowed [no-force-push]"}}"#,
    );
    // Part G.3: the same deny form is valid for both hosts.
    check(PRE_DENY, Seam::PreTool, Verdict::Deny, &out, &out);
}

#[test]
fn pre_tool_deny_without_reason_gets_a_non_empty_default() {
    let policy =
        "[[rule]]\nid = \"d\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"deny\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Denied by seamguard rule `d` [d]"}}"#,
    );
    check(policy, Seam::PreTool, Verdict::Deny, &out, &out);
}

#[test]
fn pre_tool_allow() {
    let policy =
        "[[rule]]\nid = \"ok\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Allow,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        ),
        // B3 / G.2: Codex rejects `allow` without `updatedInput`; silence is the allow.
        "",
    );
}

#[test]
fn pre_tool_allow_with_reason() {
    let policy = "[[rule]]\nid = \"ok\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"allow\"\nreason = \"git is trusted here\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Allow,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"git is trusted here [ok]"}}"#,
        ),
        "",
    );
}

#[test]
fn pre_tool_ask() {
    let policy = "[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { prefix = \"git push\" }\ndecision = \"ask\"\nreason = \"Pushing needs a human\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Ask,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Pushing needs a human [push-ask]"}}"#,
        ),
        &codex_ask("Pushing needs a human [push-ask]"),
    );
}

#[test]
fn pre_tool_ask_with_codex_ask_ignore_is_silent_for_codex() {
    let policy = "[policy]\ncodex_ask = \"ignore\"\n\n[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"ask\"\nreason = \"Pushing needs a human\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Ask,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Pushing needs a human [push-ask]"}}"#,
        ),
        "",
    );
    let (_, enc) = run(policy, Seam::PreTool, Dialect::Codex);
    assert_eq!(
        enc.stderr,
        "seamguard: `ask` is not a Codex verdict; left to Codex's approval mode (codex_ask = \"ignore\"): Pushing needs a human [push-ask]"
    );
}

#[test]
fn pre_tool_defer() {
    let policy = "[[rule]]\nid = \"later\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"defer\"\nreason = \"Decided by the CI runner\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Defer,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"Decided by the CI runner [later]"}}"#,
        ),
        // Part C: `defer` is an unknown value to Codex (fails open); mapped like `ask`.
        &codex_ask("Decided by the CI runner [later]"),
    );
}

#[test]
fn pre_tool_contexts_accumulate_in_rule_order() {
    let policy = include_str!("../data/policies/conformance-contexts.toml");
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"Remote is github.com/example/app.\n\nMain is protected."}}"#,
    );
    check(policy, Seam::PreTool, Verdict::Abstain, &out, &out);
}

#[test]
fn pre_tool_deny_with_context() {
    let policy = format!(
        "{PRE_DENY}\n[[rule]]\nid = \"ctx\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ncontext = \"Open a pull request instead.\"\n"
    );
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are not allowed [no-force-push]","additionalContext":"Open a pull request instead."}}"#,
    );
    check(&policy, Seam::PreTool, Verdict::Deny, &out, &out);
}

#[test]
fn pre_tool_halt() {
    let policy = "[[rule]]\nid = \"stop-all\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nhalt = \"Production freeze in effect\"\n";
    check(
        policy,
        Seam::PreTool,
        Verdict::Abstain,
        &line(r#"{"continue":false,"stopReason":"Production freeze in effect"}"#),
        // B3: Codex PreToolUse rejects `continue:false`; the closest valid effect is a deny.
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Production freeze in effect"}}"#,
        ),
    );
}

#[test]
fn pre_tool_guard_beats_allow() {
    let policy = include_str!("../data/policies/conformance-guard-beats-allow.toml");
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Force pushes are never allowed [no-force]"}}"#,
    );
    check(policy, Seam::PreTool, Verdict::Deny, &out, &out);
}

#[test]
fn pre_tool_nothing_matches_is_empty_stdout() {
    let policy =
        "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\ntool = \"Read\"\ndecision = \"deny\"\n";
    // Part G.2: no opinion = exit 0 with empty stdout, valid for both hosts.
    check(policy, Seam::PreTool, Verdict::Abstain, "", "");
}

// ---------------------------------------------------------------------------------------------
// PermissionRequest

#[test]
fn permission_request_allow() {
    let policy = "[[rule]]\nid = \"pub\"\nseam = \"permission-request\"\ntool = \"Bash\"\ndecision = \"allow\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#,
    );
    check(policy, Seam::PermissionRequest, Verdict::Allow, &out, &out);
}

#[test]
fn permission_request_deny() {
    let policy = "[[rule]]\nid = \"no-publish\"\nseam = \"permission-request\"\ntool = \"Bash\"\nwhen.command = { prefix = \"npm publish\" }\ndecision = \"deny\"\nreason = \"network publishing is disabled in this repo\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"network publishing is disabled in this repo [no-publish]"}}}"#,
    );
    check(policy, Seam::PermissionRequest, Verdict::Deny, &out, &out);
}

// ---------------------------------------------------------------------------------------------
// UserPromptSubmit

#[test]
fn prompt_block() {
    let policy = "[[rule]]\nid = \"no-prod\"\nseam = \"prompt-submit\"\nwhen.prompt = { contains = \"prod\" }\ndecision = \"block\"\nreason = \"Production deploys go through the release train\"\n";
    let out = line(
        r#"{"decision":"block","reason":"Production deploys go through the release train [no-prod]"}"#,
    );
    check(policy, Seam::PromptSubmit, Verdict::Block, &out, &out);
}

#[test]
fn prompt_block_with_suppress_prompt() {
    let policy = "[[rule]]\nid = \"no-prod\"\nseam = \"prompt-submit\"\nwhen.prompt = { contains = \"prod\" }\ndecision = \"block\"\nreason = \"Blocked\"\nsuppress_prompt = true\n";
    check(
        policy,
        Seam::PromptSubmit,
        Verdict::Block,
        &line(r#"{"decision":"block","reason":"Blocked [no-prod]","suppressOriginalPrompt":true}"#),
        // B3: `suppressOriginalPrompt` is not a Codex key (strict schema) → never sent.
        &line(r#"{"decision":"block","reason":"Blocked [no-prod]"}"#),
    );
}

#[test]
fn prompt_context() {
    let policy =
        "[[rule]]\nid = \"ctx\"\nseam = \"prompt-submit\"\ncontext = \"Repository: example/app\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Repository: example/app"}}"#,
    );
    check(policy, Seam::PromptSubmit, Verdict::Abstain, &out, &out);
}

#[test]
fn prompt_halt() {
    let policy =
        "[[rule]]\nid = \"h\"\nseam = \"prompt-submit\"\nhalt = \"Session closed by policy\"\n";
    let out = line(r#"{"continue":false,"stopReason":"Session closed by policy"}"#);
    check(policy, Seam::PromptSubmit, Verdict::Abstain, &out, &out);
}

// ---------------------------------------------------------------------------------------------
// PostToolUse

#[test]
fn post_tool_block_feedback() {
    let policy = "[[rule]]\nid = \"env-read\"\nseam = \"post-tool\"\ntool = \"Bash\"\nwhen.command = { contains = \".env\" }\nfeedback = \"Do not print .env files; use the secrets manager.\"\n";
    let out = line(
        r#"{"decision":"block","reason":"Do not print .env files; use the secrets manager. [env-read]"}"#,
    );
    check(policy, Seam::PostTool, Verdict::Block, &out, &out);
}

#[test]
fn post_tool_block_decision() {
    let policy = "[[rule]]\nid = \"b\"\nseam = \"post-tool\"\ntool = \"Bash\"\ndecision = \"block\"\nreason = \"Output flagged after the fact\"\n";
    let out = line(r#"{"decision":"block","reason":"Output flagged after the fact [b]"}"#);
    check(policy, Seam::PostTool, Verdict::Block, &out, &out);
}

#[test]
fn post_tool_redact() {
    let policy = "[[rule]]\nid = \"tokens\"\nseam = \"post-tool\"\ntool = \"Bash\"\nredact = { regex = 'API_TOKEN=\\S+', replace = \"API_TOKEN=[REDACTED]\" }\n";
    check(
        policy,
        Seam::PostTool,
        Verdict::Redact,
        // A5.4: `updatedToolOutput` must match the tool's output shape (the Bash object).
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"API_TOKEN=[REDACTED]\nDEBUG=1\n","stderr":"","interrupted":false,"isImage":false}}}"#,
        ),
        // B3: Codex replaces the tool result with the block reason.
        &line(r#"{"decision":"block","reason":"API_TOKEN=[REDACTED]\nDEBUG=1\n"}"#),
    );
}

#[test]
fn post_tool_context() {
    let policy = "[[rule]]\nid = \"c\"\nseam = \"post-tool\"\ntool = \"Bash\"\ncontext = \"Remember to rotate leaked keys.\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember to rotate leaked keys."}}"#,
    );
    check(policy, Seam::PostTool, Verdict::Abstain, &out, &out);
}

#[test]
fn post_tool_halt() {
    let policy = "[[rule]]\nid = \"h\"\nseam = \"post-tool\"\ntool = \"Bash\"\nhalt = \"Secrets were printed; stopping\"\n";
    // B3: Codex PostToolUse supports `continue:false` + `stopReason`.
    let out = line(r#"{"continue":false,"stopReason":"Secrets were printed; stopping"}"#);
    check(policy, Seam::PostTool, Verdict::Abstain, &out, &out);
}

// ---------------------------------------------------------------------------------------------
// PostToolUseFailure (Claude Code only)

#[test]
fn post_tool_failure_context() {
    let policy = "[[rule]]\nid = \"lint-hint\"\nseam = \"post-tool-failure\"\ntool = \"Bash\"\nwhen.error = { contains = \"lint\" }\ncontext = \"Run `make fmt` first.\"\n";
    check(
        policy,
        Seam::PostToolFailure,
        Verdict::Abstain,
        &line(
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"Run `make fmt` first."}}"#,
        ),
        // B2: Codex has no PostToolUseFailure.
        "",
    );
}

// ---------------------------------------------------------------------------------------------
// Stop / SubagentStop

const STOP_CONTINUE: &str = "[[rule]]\nid = \"tests-first\"\nseam = \"stop\"\ncontinue_with = \"Run cargo test and fix failures before stopping.\"\n";

#[test]
fn stop_continue() {
    let out =
        line(r#"{"decision":"block","reason":"Run cargo test and fix failures before stopping."}"#);
    check(STOP_CONTINUE, Seam::Stop, Verdict::Continue, &out, &out);
}

#[test]
fn stop_lets_the_agent_stop() {
    let policy = "[[rule]]\nid = \"tests-first\"\nseam = \"stop\"\nwhen.last_assistant_message = { contains = \"FAILED\" }\ncontinue_with = \"Fix the failing tests.\"\n";
    check(policy, Seam::Stop, Verdict::Abstain, "", "");
}

#[test]
fn stop_halt() {
    let policy = "[[rule]]\nid = \"h\"\nseam = \"stop\"\nhalt = \"Budget exhausted\"\n";
    let out = line(r#"{"continue":false,"stopReason":"Budget exhausted"}"#);
    check(policy, Seam::Stop, Verdict::Abstain, &out, &out);
}

#[test]
fn subagent_stop_continue() {
    let policy = "[[rule]]\nid = \"explore-more\"\nseam = \"subagent-stop\"\nmatcher = \"Explore\"\ncontinue_with = \"Also list the tests that cover each call site.\"\n";
    let out =
        line(r#"{"decision":"block","reason":"Also list the tests that cover each call site."}"#);
    check(policy, Seam::SubagentStop, Verdict::Continue, &out, &out);
}

#[test]
fn subagent_stop_lets_the_agent_stop() {
    let policy = "[[rule]]\nid = \"plan-more\"\nseam = \"subagent-stop\"\nmatcher = \"Plan\"\ncontinue_with = \"Add a rollback step.\"\n";
    check(policy, Seam::SubagentStop, Verdict::Abstain, "", "");
}

// ---------------------------------------------------------------------------------------------
// SessionStart / SubagentStart

#[test]
fn session_start_context() {
    let policy = "[[rule]]\nid = \"branch\"\nseam = \"session-start\"\nmatcher = \"startup|resume\"\ncontext = \"Never push to main; open a pull request instead.\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Never push to main; open a pull request instead."}}"#,
    );
    check(policy, Seam::SessionStart, Verdict::Abstain, &out, &out);
}

#[test]
fn subagent_start_context() {
    let policy = "[[rule]]\nid = \"explore\"\nseam = \"subagent-start\"\nmatcher = \"Explore\"\ncontext = \"Read-only: do not edit files.\"\n";
    let out = line(
        r#"{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Read-only: do not edit files."}}"#,
    );
    check(policy, Seam::SubagentStart, Verdict::Abstain, &out, &out);
}

// ---------------------------------------------------------------------------------------------
// PreCompact

#[test]
fn pre_compact_block() {
    let policy = "[[rule]]\nid = \"no-compact\"\nseam = \"pre-compact\"\nmatcher = \"manual\"\ndecision = \"block\"\nreason = \"Save notes before compacting\"\n";
    check(
        policy,
        Seam::PreCompact,
        Verdict::Block,
        &line(r#"{"decision":"block","reason":"Save notes before compacting [no-compact]"}"#),
        // B3: Codex PreCompact takes universal fields only; `continue:false` stops before compacting.
        &line(r#"{"continue":false,"stopReason":"Save notes before compacting [no-compact]"}"#),
    );
}

// ---------------------------------------------------------------------------------------------
// Notification / SessionEnd: nothing

#[test]
fn notification_nothing() {
    let policy = "[[rule]]\nid = \"audit\"\nseam = \"notification\"\nmatcher = \"permission_prompt\"\nobserve = true\n";
    check(policy, Seam::Notification, Verdict::Abstain, "", "");
    let (o, _) = run(policy, Seam::Notification, Dialect::ClaudeCode);
    assert_eq!(o.fired_ids(), vec!["audit"]);
}

#[test]
fn session_end_nothing() {
    let policy = "[[rule]]\nid = \"audit\"\nseam = \"session-end\"\nobserve = true\n";
    check(policy, Seam::SessionEnd, Verdict::Abstain, "", "");
}

#[test]
fn session_end_stays_silent_even_with_load_warnings() {
    // HOOKS.md A5.3 / B3: SessionEnd output is ignored; nothing is printed.
    let policy = "[[rule]]\nid = \"audit\"\nseam = \"session-end\"\nobserve = true\n\n[[rule]]\nid = \"bad\"\nseam = \"pre-tool\"\ndecison = \"deny\"\n";
    let p = load_str(policy, "w.toml", Scope::User, 0);
    assert!(p.has_errors());
    let engine = Engine::new(DecisionTable::new(vec![p]));
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let payload = match dialect {
            Dialect::ClaudeCode => claude_payload(Seam::SessionEnd),
            Dialect::Codex => codex_payload(Seam::SessionEnd),
        };
        let enc = encode(
            &engine.evaluate(Seam::SessionEnd, &payload, dialect),
            dialect,
        );
        assert_eq!(enc.stdout, "", "{dialect}");
        assert_eq!(enc.exit_code, 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Load errors: warnings as systemMessage, fail-closed deny

const BROKEN: &str = "[[rule]]\nid = \"bad\"\nseam = \"pre-tool\"\ndecision = \"deny\"\nreasn = \"typo\"\n\n[[rule]]\nid = \"ctx\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ncontext = \"Be careful.\"\n";

const BROKEN_FIRST: &str =
    "w.toml:5:1: error: unknown key `reasn` in [[rule]]; did you mean `reason`?";

fn broken_engine(src: &str) -> Engine {
    let p = load_str(src, "w.toml", Scope::User, 0);
    assert_eq!(p.diagnostics.len(), 1, "{:#?}", p.diagnostics);
    assert_eq!(p.diagnostics[0].to_string(), BROKEN_FIRST);
    assert_eq!(p.rules.len(), 1, "the good rule still loads (fail-partial)");
    Engine::new(DecisionTable::new(vec![p]))
}

#[test]
fn load_errors_become_a_system_message() {
    let engine = broken_engine(BROKEN);
    let warning = format!(
        "seamguard: policy w.toml has 1 error and some rules are not enforced (run `seamguard check`): {BROKEN_FIRST}"
    );
    let expected = line(
        &json!({
            "systemMessage": warning,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Be careful."}
        })
        .to_string(),
    );
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let payload = match dialect {
            Dialect::ClaudeCode => claude_payload(Seam::PreTool),
            Dialect::Codex => codex_payload(Seam::PreTool),
        };
        let enc = encode(&engine.evaluate(Seam::PreTool, &payload, dialect), dialect);
        assert_eq!(enc.stdout, expected, "{dialect}");
        assert_eq!(enc.stderr, warning, "{dialect}");
        assert_eq!(enc.exit_code, 0);
        if dialect == Dialect::Codex {
            assert_eq!(
                codex_violations(Seam::PreTool, &enc.stdout),
                Vec::<String>::new()
            );
        }
    }
}

#[test]
fn on_load_error_deny_fails_closed_on_pre_tool_and_permission_request() {
    let src = format!("[policy]\non_load_error = \"deny\"\n\n{BROKEN}");
    let p = load_str(&src, "w.toml", Scope::User, 0);
    let first = p.diagnostics[0].to_string();
    assert_eq!(first, BROKEN_FIRST.replace("w.toml:5:1", "w.toml:8:1"));
    let engine = Engine::new(DecisionTable::new(vec![p]));
    let reason = format!(
        "seamguard policy w.toml failed to load and is set to fail closed (on_load_error = \"deny\"): {first} [seamguard:load-error]"
    );
    let warning = format!(
        "seamguard: policy w.toml has 1 error and some rules are not enforced (run `seamguard check`): {first}"
    );
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let payload = match dialect {
            Dialect::ClaudeCode => claude_payload(Seam::PreTool),
            Dialect::Codex => codex_payload(Seam::PreTool),
        };
        let o = engine.evaluate(Seam::PreTool, &payload, dialect);
        assert_eq!(o.verdict(), Verdict::Deny);
        let enc = encode(&o, dialect);
        let expected = json!({
            "systemMessage": warning,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
                "additionalContext": "Be careful."
            }
        });
        assert_eq!(enc.stdout, line(&expected.to_string()), "{dialect}");
        let payload = match dialect {
            Dialect::ClaudeCode => claude_payload(Seam::PermissionRequest),
            Dialect::Codex => codex_payload(Seam::PermissionRequest),
        };
        let o = engine.evaluate(Seam::PermissionRequest, &payload, dialect);
        assert_eq!(o.verdict(), Verdict::Deny);
        let expected = json!({
            "systemMessage": warning,
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason}
            }
        });
        assert_eq!(
            encode(&o, dialect).stdout,
            line(&expected.to_string()),
            "{dialect}"
        );
    }
    // Other seams only warn.
    let o = engine.evaluate(
        Seam::PromptSubmit,
        &claude_payload(Seam::PromptSubmit),
        Dialect::ClaudeCode,
    );
    assert_eq!(o.verdict(), Verdict::Abstain);
}

// ---------------------------------------------------------------------------------------------
// Read-back: what we emit is what the host decodes

#[test]
fn encoded_verdicts_read_back_through_the_host_decoders() {
    let rows: Vec<(&str, Seam, Verdict, Verdict)> = vec![
        (PRE_DENY, Seam::PreTool, Verdict::Deny, Verdict::Deny),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
            Seam::PreTool,
            Verdict::Ask,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"defer\"\n",
            Seam::PreTool,
            Verdict::Defer,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"allow\"\n",
            Seam::PreTool,
            Verdict::Allow,
            Verdict::Abstain,
        ),
        (
            "[[rule]]\nid = \"p\"\nseam = \"permission-request\"\ndecision = \"deny\"\n",
            Seam::PermissionRequest,
            Verdict::Deny,
            Verdict::Deny,
        ),
        (
            "[[rule]]\nid = \"p\"\nseam = \"permission-request\"\ndecision = \"allow\"\n",
            Seam::PermissionRequest,
            Verdict::Allow,
            Verdict::Allow,
        ),
        (
            "[[rule]]\nid = \"b\"\nseam = \"prompt-submit\"\ndecision = \"block\"\n",
            Seam::PromptSubmit,
            Verdict::Block,
            Verdict::Block,
        ),
        (
            "[[rule]]\nid = \"b\"\nseam = \"post-tool\"\nfeedback = \"look again\"\n",
            Seam::PostTool,
            Verdict::Block,
            Verdict::Block,
        ),
        (
            STOP_CONTINUE,
            Seam::Stop,
            Verdict::Continue,
            Verdict::Continue,
        ),
    ];
    for (policy, seam, claude_verdict, codex_verdict) in rows {
        let (_, enc) = run(policy, seam, Dialect::ClaudeCode);
        let back = decode_hook_output(
            Dialect::ClaudeCode,
            seam,
            Some(0),
            enc.stdout.as_bytes(),
            b"",
        );
        assert_eq!(back.error, None, "{seam}: {}", enc.stdout);
        assert_eq!(
            back.verdict(),
            claude_verdict,
            "claude {seam}: {}",
            enc.stdout
        );
        let (_, enc) = run(policy, seam, Dialect::Codex);
        let back = decode_hook_output(Dialect::Codex, seam, Some(0), enc.stdout.as_bytes(), b"");
        assert_eq!(back.error, None, "{seam}: {}", enc.stdout);
        assert_eq!(
            back.verdict(),
            codex_verdict,
            "codex {seam}: {}",
            enc.stdout
        );
        if matches!(
            codex_verdict,
            Verdict::Deny | Verdict::Block | Verdict::Continue
        ) {
            assert!(
                back.reason.as_deref().is_some_and(|r| !r.trim().is_empty()),
                "codex {seam}: reason must be non-empty"
            );
        }
    }
}

#[test]
fn codex_never_receives_forbidden_output_for_any_pre_tool_verdict_mix() {
    // Every subset of {allow, ask, defer, deny, context, halt} rules at pre-tool.
    let parts = [
        "[[rule]]\nid = \"r-allow\"\nseam = \"pre-tool\"\ndecision = \"allow\"\n",
        "[[rule]]\nid = \"r-ask\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
        "[[rule]]\nid = \"r-defer\"\nseam = \"pre-tool\"\ndecision = \"defer\"\n",
        "[[rule]]\nid = \"r-deny\"\nseam = \"pre-tool\"\ndecision = \"deny\"\n",
        "[[rule]]\nid = \"r-ctx\"\nseam = \"pre-tool\"\ncontext = \"note\"\n",
        "[[rule]]\nid = \"r-halt\"\nseam = \"pre-tool\"\nhalt = \"stop\"\n",
    ];
    let mut checked = 0;
    for mask in 0u32..(1 << parts.len()) {
        let policy: String = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, p)| *p)
            .collect::<Vec<_>>()
            .join("\n");
        let (o, enc) = run(&policy, Seam::PreTool, Dialect::Codex);
        let violations = codex_violations(Seam::PreTool, &enc.stdout);
        assert!(
            violations.is_empty(),
            "mask {mask:06b}: {violations:?} in {}",
            enc.stdout
        );
        let back = decode_hook_output(
            Dialect::Codex,
            Seam::PreTool,
            Some(0),
            enc.stdout.as_bytes(),
            b"",
        );
        assert_eq!(back.error, None, "mask {mask:06b}: {}", enc.stdout);
        // Anything stricter than allow (or a halt) must reach Codex as a deny.
        let strict = matches!(o.verdict(), Verdict::Ask | Verdict::Defer | Verdict::Deny)
            || o.halt.is_some();
        assert_eq!(
            back.verdict() == Verdict::Deny,
            strict,
            "mask {mask:06b}: {}",
            enc.stdout
        );
        checked += 1;
    }
    assert_eq!(checked, 64);
}

// ---------------------------------------------------------------------------------------------
// Decoding command-hook output as the hosts read it (HOOKS.md A5.1/A5.2, B3)

#[test]
fn vendor_keys_are_tolerated_by_claude_and_fail_open_in_codex() {
    // A guard's deny with extra vendor keys inside hookSpecificOutput (as real guards emit).
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf outside the project","ruleId":"fs.rm-rf","severity":"high"}}"#;
    let cc = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PreTool,
        Some(0),
        out.as_bytes(),
        b"",
    );
    assert_eq!(cc.verdict, Some(Verdict::Deny));
    assert_eq!(cc.reason.as_deref(), Some("rm -rf outside the project"));
    assert_eq!(cc.error, None);
    let cx = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
    assert_eq!(
        cx.verdict, None,
        "B3: an unknown key makes the output invalid → fail open"
    );
    assert_eq!(
        cx.error.as_deref(),
        Some(
            "invalid PreToolUse JSON output: unknown field `ruleId` in hookSpecificOutput (Codex rejects unknown keys)"
        )
    );
    // An extra top-level key (e.g. terminalSequence) as well.
    let out = r#"{"terminalSequence":"\u0007","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let cx = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
    assert_eq!(cx.verdict, None);
    assert!(cx.error.is_some());
}

#[test]
fn codex_invalid_pre_tool_outputs_fail_open() {
    // HOOKS.md B3 "PreToolUse" column "invalid" and the universal-field rule.
    let invalid = [
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"why"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":""}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
        r#"{"decision":"approve"}"#,
        r#"{"reason":"no decision"}"#,
        r#"{"decision":"block","reason":"  "}"#,
        r#"{"continue":false,"stopReason":"halt"}"#,
        r#"{"stopReason":"why"}"#,
        r#"{"suppressOutput":true}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}"#,
        r#"["not","an","object"]"#,
        r#"{"truncated":"#,
    ];
    for out in invalid {
        let r = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
        assert_eq!(r.verdict, None, "{out}");
        assert!(r.error.is_some(), "{out} must be rejected");
    }
    let valid = [
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            Verdict::Deny,
        ),
        (r#"{"decision":"block","reason":"no"}"#, Verdict::Deny),
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}"#,
            Verdict::Allow,
        ),
        (r#"{"systemMessage":"note"}"#, Verdict::Abstain),
        ("plain text is ignored on PreToolUse", Verdict::Abstain),
        ("", Verdict::Abstain),
    ];
    for (out, v) in valid {
        let r = decode_hook_output(Dialect::Codex, Seam::PreTool, Some(0), out.as_bytes(), b"");
        assert_eq!(r.error, None, "{out}");
        assert_eq!(r.verdict(), v, "{out}");
    }
}

#[test]
fn codex_permission_request_outputs() {
    let dec = |out: &str| {
        decode_hook_output(
            Dialect::Codex,
            Seam::PermissionRequest,
            Some(0),
            out.as_bytes(),
            b"",
        )
    };
    let r = dec(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#,
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(
        r.reason.as_deref(),
        Some("Denied by hook"),
        "deny without message gets a default"
    );
    let r = dec(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#,
    );
    assert_eq!(r.verdict, Some(Verdict::Allow));
    // updatedInput / updatedPermissions / interrupt:true → failed, no decision (never auto-allows).
    for d in [
        r#"{"behavior":"allow","updatedInput":{"command":"ls"}}"#,
        r#"{"behavior":"allow","updatedPermissions":[]}"#,
        r#"{"behavior":"deny","message":"no","interrupt":true}"#,
    ] {
        let r = dec(&format!(
            "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PermissionRequest\",\"decision\":{d}}}}}"
        ));
        assert_eq!(r.verdict, None, "{d}");
        assert!(r.error.is_some(), "{d}");
    }
    // Exit 2 on PermissionRequest: Codex denies with stderr (Claude Code ignores it; Part C).
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::PermissionRequest,
        Some(2),
        b"",
        b"no publishing",
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("no publishing"));
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PermissionRequest,
        Some(2),
        b"",
        b"no publishing",
    );
    assert_eq!(r.verdict, None);
}

#[test]
fn codex_stop_requires_json_and_plain_text_is_context_where_documented() {
    let r = decode_hook_output(Dialect::Codex, Seam::Stop, Some(0), b"keep going", b"");
    crate::support::assert_discarded(
        &r,
        "plain text output is invalid for Stop/SubagentStop: JSON required",
    );
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::Stop,
        Some(0),
        br#"{"decision":"block","reason":"run the tests"}"#,
        b"",
    );
    assert_eq!(r.verdict, Some(Verdict::Continue));
    assert_eq!(r.reason.as_deref(), Some("run the tests"));
    for seam in [Seam::SessionStart, Seam::PromptSubmit, Seam::SubagentStart] {
        let r = decode_hook_output(Dialect::Codex, seam, Some(0), b"branch: main\n", b"");
        assert_eq!(r.context.as_deref(), Some("branch: main"), "{seam}");
        assert_eq!(r.error, None);
    }
    // PostToolUse: `reason` without `decision` is invalid.
    let r = decode_hook_output(
        Dialect::Codex,
        Seam::PostTool,
        Some(0),
        br#"{"reason":"x"}"#,
        b"",
    );
    assert!(r.error.is_some());
}

#[test]
fn claude_reads_json_on_every_exit_code_and_exit_2_wins() {
    // A5.1 (current behaviour): a schema-valid JSON object decides whatever the exit code.
    let out = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json deny"}}"#;
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, Some(1), out, b"oops");
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("json deny"));
    // A5.2: even permissionDecision:"allow" cannot override exit 2.
    let allow =
        br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PreTool,
        Some(2),
        allow,
        b"blocked by exit 2",
    );
    assert_eq!(r.verdict, Some(Verdict::Deny));
    assert_eq!(r.reason.as_deref(), Some("blocked by exit 2"));
    // Plain text on exit 0 is context only for UserPromptSubmit and SessionStart.
    let r = decode_hook_output(
        Dialect::ClaudeCode,
        Seam::PromptSubmit,
        Some(0),
        b"[1,2]",
        b"",
    );
    assert_eq!(
        r.context.as_deref(),
        Some("[1,2]"),
        "a JSON array is plain text (A5.1)"
    );
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, Some(0), b"hello", b"");
    assert_eq!(r.context, None);
    assert_eq!(r.verdict, None);
    // Timeout: output discarded, no decision.
    let r = decode_hook_output(Dialect::ClaudeCode, Seam::PreTool, None, out, b"");
    assert_eq!(r.verdict, None);
    assert!(r.error.is_some());
}
