//! HK-01 and HK-02: matchers written with command arguments, exact lists vs unanchored regexes.

use seamguard_engine::{
    DecisionTable, Dialect, Engine, Scope, Seam, Severity, Verdict, encode, load_str,
};
use serde_json::json;

use crate::support::{PROJECT, bash, claude, engine};

// =============================================================================================
// HK-01: a matcher written with command arguments never fires.

#[test]
fn hk01_permission_rule_matcher_never_fires_and_is_linted() {
    let src = "[[rule]]\nid = \"lint-before-commit\"\nseam = \"pre-tool\"\ntool = \"Bash(git commit*)\"\nrun = { command = \"$CLAUDE_PROJECT_DIR/.claude/hooks/lint-before-commit.sh\" }\n";
    let p = load_str(src, "case.toml", Scope::User, 0);
    // Loads (the host would accept it too), but with a warning pointing at the matcher.
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].severity, Severity::Warning);
    assert_eq!(
        p.diagnostics[0].to_string(),
        "case.toml:4:8: warning: matcher `Bash(git commit*)` looks like a permission rule, but matchers only see the tool name: as a regex it never matches `Bash`; use `tool = \"Bash\"` and put the command test in `when`"
    );
    let engine = Engine::new(DecisionTable::new(vec![p]));
    let o = engine.evaluate(
        Seam::PreTool,
        &bash(PROJECT, "git commit -m \"wip\""),
        Dialect::ClaudeCode,
    );
    // Faithful non-match: no rule fires, no hook would run, no decision, nothing on stdout.
    assert!(o.fired_ids().is_empty());
    assert!(o.pending_runs.is_empty());
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(encode(&o, Dialect::ClaudeCode).stdout, "");
}

#[test]
fn hk01_corrected_policy_fires_for_every_commit_form() {
    let engine = engine(
        "[[rule]]\nid = \"lint-before-commit\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { regex = '(^|[;&|]\\s*|\\s)git\\s+commit(\\s|$)' }\nrun = { command = \"$CLAUDE_PROJECT_DIR/.claude/hooks/lint-before-commit.sh\" }\n",
    );
    for cmd in [
        "git commit -m x",
        "FOO=1 git commit",
        "npm test && git commit",
    ] {
        let o = engine.evaluate(Seam::PreTool, &bash(PROJECT, cmd), Dialect::ClaudeCode);
        // No runner attached: the command hook is selected and listed as "would run".
        assert_eq!(
            o.pending_runs,
            vec![(
                "lint-before-commit".to_string(),
                "$CLAUDE_PROJECT_DIR/.claude/hooks/lint-before-commit.sh".to_string()
            )],
            "{cmd}"
        );
    }
    for cmd in ["git status", "git commit-tree abc", "echo committed"] {
        let o = engine.evaluate(Seam::PreTool, &bash(PROJECT, cmd), Dialect::ClaudeCode);
        assert!(o.pending_runs.is_empty(), "{cmd}");
        assert!(o.fired_ids().is_empty(), "{cmd}");
    }
}

// =============================================================================================
// HK-02: matcher classification, exact list vs unanchored regex.

fn matcher_fires(mode: &str, matcher: &str, tool_name: &str) -> bool {
    let src = format!(
        "[policy]\nmatcher_mode = \"{mode}\"\n\n[[rule]]\nid = \"m\"\nseam = \"pre-tool\"\ntool = \"{matcher}\"\ndecision = \"deny\"\nreason = \"matched\"\n"
    );
    let p = load_str(&src, "case.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{matcher}: {:#?}", p.diagnostics);
    let table = DecisionTable::new(vec![p]);
    let payload = claude(
        PROJECT,
        "PreToolUse",
        json!({"tool_name": tool_name, "tool_input": {}, "tool_use_id": "toolu_1"}),
    );
    let fast = !table
        .fire(Seam::PreTool, &payload, Dialect::ClaudeCode, None)
        .is_empty();
    let slow = !table
        .fire_naive(Seam::PreTool, &payload, Dialect::ClaudeCode, None)
        .is_empty();
    assert_eq!(
        fast, slow,
        "{matcher} vs {tool_name}: index and reference disagree"
    );
    fast
}

#[test]
fn hk02_claude_code_matcher_table() {
    for &(m, tool, want) in crate::support::CLAUDE_MATCHER_CASES {
        assert_eq!(
            matcher_fires("claude-code", m, tool),
            want,
            "{m:?} vs {tool}"
        );
    }
}

#[test]
fn hk02_codex_matcher_mode_differs_on_hyphen_and_comma() {
    // HOOKS.md B4: Codex's exact set is [A-Za-z0-9_|] only.
    assert!(matcher_fires(
        "codex",
        "mcp__brave-search",
        "mcp__brave-search__web_search"
    ));
    assert!(!matcher_fires("codex", "Edit, Write", "Write"));
    assert!(!matcher_fires("codex", "Bash", "BashOutput"));
    assert!(!matcher_fires(
        "codex",
        "mcp__github",
        "mcp__github__create_issue"
    ));
}
