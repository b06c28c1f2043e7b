//! Protocol conformance of the dialect encoders: for each event × dialect × verdict, the exact
//! stdout bytes and exit code of `encode`, with outcomes built through real TOML policies and
//! `Engine::evaluate`.
//!
//! References: HOOKS.md A5 (Claude Code output), B3 (Codex output), Part C (differences) and
//! Part G (what a policy engine must emit). Every Codex answer is additionally checked by an
//! independent validator of the Codex output rules written from B3 (strict keys, no `ask` /
//! `defer`, no `allow` without `updatedInput`, no empty reasons), and every answer is read
//! back through `decode_hook_output` to check the host would see the verdict we meant.

use seamguard_engine::{Dialect, Encoded, Outcome, Seam, Verdict, decode_hook_output, encode};
use serde_json::{Map, Value, json};

use crate::support::engine;

mod decode;
mod events;
mod hosts;
mod load_errors;
mod pre_tool;
mod read_back;

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

/// The pre-tool deny policy shared by the PreToolUse and read-back tests.
const PRE_DENY: &str = include_str!("../../data/policies/conformance-pre-deny.toml");

/// A stop rule that asks the agent to continue.
const STOP_CONTINUE: &str = "[[rule]]\nid = \"tests-first\"\nseam = \"stop\"\ncontinue_with = \"Run cargo test and fix failures before stopping.\"\n";

fn run(policy: &str, seam: Seam, dialect: Dialect) -> (Outcome, Encoded) {
    let payload = match dialect {
        Dialect::ClaudeCode => claude_payload(seam),
        Dialect::Codex => codex_payload(seam),
        other => unreachable!("host payloads are built in hosts.rs: {other}"),
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
            "Approval required: {reason} — Codex hooks cannot ask for confirmation, so seamguard denies; if the call is intended, the user can approve it with `seamguard allow --last` and retry."
        ))
    )
}

fn line(json: &str) -> String {
    format!("{json}\n")
}

/// One conformance row: a policy evaluated at a seam, in both dialects.
fn check(policy: &str, seam: Seam, verdict: Verdict, claude: &str, codex: &str) {
    check_at(&seam.to_string(), policy, seam, verdict, claude, codex);
}

/// A named conformance row of a table test; [`check_rows`] runs it through `check`.
struct Row {
    case: &'static str,
    policy: &'static str,
    seam: Seam,
    verdict: Verdict,
    claude: String,
    codex: String,
}

impl Row {
    /// A row whose stdout is the same for both hosts.
    fn both(
        case: &'static str,
        policy: &'static str,
        seam: Seam,
        verdict: Verdict,
        stdout: String,
    ) -> Self {
        Self::each(case, policy, seam, verdict, stdout.clone(), stdout)
    }

    /// A row with one stdout for Claude Code and another for Codex.
    fn each(
        case: &'static str,
        policy: &'static str,
        seam: Seam,
        verdict: Verdict,
        claude: String,
        codex: String,
    ) -> Self {
        Self {
            case,
            policy,
            seam,
            verdict,
            claude,
            codex,
        }
    }
}

/// Every row through `check`, each failure message naming the row's case.
fn check_rows(rows: &[Row]) {
    for r in rows {
        let at = format!("{} (case `{}`)", r.seam, r.case);
        check_at(&at, r.policy, r.seam, r.verdict, &r.claude, &r.codex);
    }
}

/// `check` with `at` (the seam, or the seam and the case) in every failure message.
fn check_at(at: &str, policy: &str, seam: Seam, verdict: Verdict, claude: &str, codex: &str) {
    let (o, enc) = run(policy, seam, Dialect::ClaudeCode);
    assert_eq!(o.verdict(), verdict, "claude-code verdict at {at}");
    assert_eq!(enc.stdout, claude, "claude-code stdout at {at}");
    assert_eq!(enc.exit_code, 0, "claude-code exit code at {at}");
    claude_valid(at, seam, &enc.stdout);

    let (o, enc) = run(policy, seam, Dialect::Codex);
    assert_eq!(o.verdict(), verdict, "codex verdict at {at}");
    assert_eq!(enc.stdout, codex, "codex stdout at {at}");
    assert_eq!(enc.exit_code, 0, "codex exit code at {at}");
    let violations = codex_violations(seam, &enc.stdout);
    assert!(
        violations.is_empty(),
        "codex output at {at} breaks HOOKS.md B3: {violations:?}\n{}",
        enc.stdout
    );
    if seam.in_codex() && seam != Seam::SessionEnd {
        let back = decode_hook_output(Dialect::Codex, seam, Some(0), enc.stdout.as_bytes(), b"");
        assert_eq!(
            back.error, None,
            "codex would reject at {at}: {}",
            enc.stdout
        );
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
fn claude_valid(at: &str, seam: Seam, stdout: &str) {
    let Some(m) = parse_object(stdout) else {
        return;
    };
    if let Some(h) = m.get("hookSpecificOutput") {
        assert_eq!(
            h.get("hookEventName"),
            Some(&Value::String(seam.event_name().into())),
            "hookEventName must equal the running event (A5.1) at {at}"
        );
    }
    let back = decode_hook_output(Dialect::ClaudeCode, seam, Some(0), stdout.as_bytes(), b"");
    assert_eq!(
        back.error, None,
        "claude decoder rejects our own output at {at}"
    );
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
