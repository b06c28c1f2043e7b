//! The other events per dialect: PermissionRequest, UserPromptSubmit, PostToolUse(Failure),
//! Stop / SubagentStop, SessionStart / SubagentStart, PreCompact, Notification and SessionEnd.

use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, encode, load_str};

use super::{Row, STOP_CONTINUE, check, check_rows, claude_payload, codex_payload, line, run};

// ---------------------------------------------------------------------------------------------
// PermissionRequest

#[test]
fn permission_request() {
    check_rows(&[
        Row::both(
            "allow",
            "[[rule]]\nid = \"pub\"\nseam = \"permission-request\"\ntool = \"Bash\"\ndecision = \"allow\"\n",
            Seam::PermissionRequest,
            Verdict::Allow,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#,
            ),
        ),
        Row::both(
            "deny",
            "[[rule]]\nid = \"no-publish\"\nseam = \"permission-request\"\ntool = \"Bash\"\nwhen.command = { prefix = \"npm publish\" }\ndecision = \"deny\"\nreason = \"network publishing is disabled in this repo\"\n",
            Seam::PermissionRequest,
            Verdict::Deny,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"network publishing is disabled in this repo [no-publish]"}}}"#,
            ),
        ),
    ]);
}

// ---------------------------------------------------------------------------------------------
// UserPromptSubmit

#[test]
fn prompt_submit() {
    check_rows(&[
        Row::both(
            "block",
            "[[rule]]\nid = \"no-prod\"\nseam = \"prompt-submit\"\nwhen.prompt = { contains = \"prod\" }\ndecision = \"block\"\nreason = \"Production deploys go through the release train\"\n",
            Seam::PromptSubmit,
            Verdict::Block,
            line(
                r#"{"decision":"block","reason":"Production deploys go through the release train [no-prod]"}"#,
            ),
        ),
        Row::each(
            "block with suppress_prompt",
            "[[rule]]\nid = \"no-prod\"\nseam = \"prompt-submit\"\nwhen.prompt = { contains = \"prod\" }\ndecision = \"block\"\nreason = \"Blocked\"\nsuppress_prompt = true\n",
            Seam::PromptSubmit,
            Verdict::Block,
            line(
                r#"{"decision":"block","reason":"Blocked [no-prod]","suppressOriginalPrompt":true}"#,
            ),
            // B3: `suppressOriginalPrompt` is not a Codex key (strict schema) → never sent.
            line(r#"{"decision":"block","reason":"Blocked [no-prod]"}"#),
        ),
        Row::both(
            "context",
            "[[rule]]\nid = \"ctx\"\nseam = \"prompt-submit\"\ncontext = \"Repository: example/app\"\n",
            Seam::PromptSubmit,
            Verdict::Abstain,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Repository: example/app"}}"#,
            ),
        ),
        Row::both(
            "halt",
            "[[rule]]\nid = \"h\"\nseam = \"prompt-submit\"\nhalt = \"Session closed by policy\"\n",
            Seam::PromptSubmit,
            Verdict::Abstain,
            line(r#"{"continue":false,"stopReason":"Session closed by policy"}"#),
        ),
    ]);
}

// ---------------------------------------------------------------------------------------------
// PostToolUse

#[test]
fn post_tool() {
    check_rows(&[
        Row::both(
            "block feedback",
            "[[rule]]\nid = \"env-read\"\nseam = \"post-tool\"\ntool = \"Bash\"\nwhen.command = { contains = \".env\" }\nfeedback = \"Do not print .env files; use the secrets manager.\"\n",
            Seam::PostTool,
            Verdict::Block,
            line(
                r#"{"decision":"block","reason":"Do not print .env files; use the secrets manager. [env-read]"}"#,
            ),
        ),
        Row::both(
            "block decision",
            "[[rule]]\nid = \"b\"\nseam = \"post-tool\"\ntool = \"Bash\"\ndecision = \"block\"\nreason = \"Output flagged after the fact\"\n",
            Seam::PostTool,
            Verdict::Block,
            line(r#"{"decision":"block","reason":"Output flagged after the fact [b]"}"#),
        ),
        Row::each(
            "redact",
            "[[rule]]\nid = \"tokens\"\nseam = \"post-tool\"\ntool = \"Bash\"\nredact = { regex = 'API_TOKEN=\\S+', replace = \"API_TOKEN=[REDACTED]\" }\n",
            Seam::PostTool,
            Verdict::Redact,
            // A5.4: `updatedToolOutput` must match the tool's output shape (the Bash object).
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"API_TOKEN=[REDACTED]\nDEBUG=1\n","stderr":"","interrupted":false,"isImage":false}}}"#,
            ),
            // B3: Codex replaces the tool result with the block reason.
            line(r#"{"decision":"block","reason":"API_TOKEN=[REDACTED]\nDEBUG=1\n"}"#),
        ),
        Row::both(
            "context",
            "[[rule]]\nid = \"c\"\nseam = \"post-tool\"\ntool = \"Bash\"\ncontext = \"Remember to rotate leaked keys.\"\n",
            Seam::PostTool,
            Verdict::Abstain,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember to rotate leaked keys."}}"#,
            ),
        ),
        // B3: Codex PostToolUse supports `continue:false` + `stopReason`.
        Row::both(
            "halt",
            "[[rule]]\nid = \"h\"\nseam = \"post-tool\"\ntool = \"Bash\"\nhalt = \"Secrets were printed; stopping\"\n",
            Seam::PostTool,
            Verdict::Abstain,
            line(r#"{"continue":false,"stopReason":"Secrets were printed; stopping"}"#),
        ),
    ]);
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

#[test]
fn stop_and_subagent_stop() {
    check_rows(&[
        Row::both(
            "stop: continue",
            STOP_CONTINUE,
            Seam::Stop,
            Verdict::Continue,
            line(
                r#"{"decision":"block","reason":"Run cargo test and fix failures before stopping."}"#,
            ),
        ),
        Row::both(
            "stop: lets the agent stop",
            "[[rule]]\nid = \"tests-first\"\nseam = \"stop\"\nwhen.last_assistant_message = { contains = \"FAILED\" }\ncontinue_with = \"Fix the failing tests.\"\n",
            Seam::Stop,
            Verdict::Abstain,
            String::new(),
        ),
        Row::both(
            "stop: halt",
            "[[rule]]\nid = \"h\"\nseam = \"stop\"\nhalt = \"Budget exhausted\"\n",
            Seam::Stop,
            Verdict::Abstain,
            line(r#"{"continue":false,"stopReason":"Budget exhausted"}"#),
        ),
        Row::both(
            "subagent stop: continue",
            "[[rule]]\nid = \"explore-more\"\nseam = \"subagent-stop\"\nmatcher = \"Explore\"\ncontinue_with = \"Also list the tests that cover each call site.\"\n",
            Seam::SubagentStop,
            Verdict::Continue,
            line(
                r#"{"decision":"block","reason":"Also list the tests that cover each call site."}"#,
            ),
        ),
        Row::both(
            "subagent stop: lets the agent stop",
            "[[rule]]\nid = \"plan-more\"\nseam = \"subagent-stop\"\nmatcher = \"Plan\"\ncontinue_with = \"Add a rollback step.\"\n",
            Seam::SubagentStop,
            Verdict::Abstain,
            String::new(),
        ),
    ]);
}

// ---------------------------------------------------------------------------------------------
// SessionStart / SubagentStart

#[test]
fn session_and_subagent_start_context() {
    check_rows(&[
        Row::both(
            "session start",
            "[[rule]]\nid = \"branch\"\nseam = \"session-start\"\nmatcher = \"startup|resume\"\ncontext = \"Never push to main; open a pull request instead.\"\n",
            Seam::SessionStart,
            Verdict::Abstain,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Never push to main; open a pull request instead."}}"#,
            ),
        ),
        Row::both(
            "subagent start",
            "[[rule]]\nid = \"explore\"\nseam = \"subagent-start\"\nmatcher = \"Explore\"\ncontext = \"Read-only: do not edit files.\"\n",
            Seam::SubagentStart,
            Verdict::Abstain,
            line(
                r#"{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Read-only: do not edit files."}}"#,
            ),
        ),
    ]);
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
            other => unreachable!("not in the loop: {other}"),
        };
        let enc = encode(
            &engine.evaluate(Seam::SessionEnd, &payload, dialect),
            dialect,
        );
        assert_eq!(enc.stdout, "", "{dialect}");
        assert_eq!(enc.exit_code, 0);
    }
}
