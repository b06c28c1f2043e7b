//! The other events per dialect: PermissionRequest, UserPromptSubmit, PostToolUse(Failure),
//! Stop / SubagentStop, SessionStart / SubagentStart, PreCompact, Notification and SessionEnd.

use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, Verdict, encode, load_str};

use super::{STOP_CONTINUE, check, claude_payload, codex_payload, line, run};

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
