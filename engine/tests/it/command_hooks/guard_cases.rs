//! Cases HK-01 – HK-08 with real scripts: matchers, exit codes 1 and 2, wrong JSON shapes,
//! timeouts and guards that cannot start.

use std::path::Path;
use std::time::{Duration, Instant};

use seamguard_engine::{Dialect, Verdict, encode};
use serde_json::json;

use crate::support::{bash, claude, codex_bash};

use super::{DENY_JSON, Tmp, engine, engine_from_config, pre, pre_codex, q, stdout_json, warned};

#[test]
fn hk01_argument_style_matcher_never_fires_and_the_if_form_does() {
    // HK-01: matcher "Bash(git commit*)" is an unanchored regex tested against the tool name
    // only; it never matches "Bash", so the lint script never runs.
    let tmp = Tmp::new("hk01");
    let marker = tmp.join("lint-ran");
    tmp.script(
        ".claude/hooks/lint-before-commit.sh",
        "#!/bin/bash\ntouch \"$CLAUDE_PROJECT_DIR/lint-ran\"\necho 'lint failed: 3 errors' >&2\nexit 2\n",
    );
    let cmd = "$CLAUDE_PROJECT_DIR/.claude/hooks/lint-before-commit.sh";
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash(git commit*)",
        "hooks": [{"type": "command", "command": cmd}]}]}});
    let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
    let o = pre(&e, &bash(&tmp.s(), "git commit -m \"wip\""));
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(o.hook_runs.is_empty());
    assert_eq!(encode(&o, Dialect::ClaudeCode).stdout, "");
    assert!(!marker.exists(), "the hook must not run");

    // The corrected config: matcher "Bash" + if "Bash(git commit *)" runs for every form.
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": cmd, "if": "Bash(git commit *)"}]}]}});
    let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
    for c in [
        "git commit -m x",
        "FOO=1 git commit",
        "npm test && git commit",
    ] {
        let o = pre(&e, &bash(&tmp.s(), c));
        assert_eq!(o.verdict(), Verdict::Deny, "{c}");
        assert_eq!(
            o.reason_text(),
            "lint failed: 3 errors [settings-PreToolUse-1-1]",
            "{c}"
        );
        assert!(marker.exists());
        std::fs::remove_file(&marker).unwrap();
    }
    let o = pre(&e, &bash(&tmp.s(), "git status"));
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(!marker.exists());
}

#[test]
fn hk02_matcher_classification_exact_list_vs_unanchored_regex() {
    // HK-02: exact set = letters, digits, `_`, `-`, space, `,`, `|`; anything else is an
    // unanchored JavaScript regex. Each matcher guards a real hook that denies.
    let tmp = Tmp::new("hk02");
    let deny = tmp.script(
        "deny.sh",
        &format!("#!/bin/sh\nprintf '%s' '{DENY_JSON}'\n"),
    );
    for &(matcher, tool, fires) in crate::support::CLAUDE_MATCHER_CASES {
        let cfg = json!({"hooks": {"PreToolUse": [{"matcher": matcher,
            "hooks": [{"type": "command", "command": deny.display().to_string()}]}]}});
        let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
        let payload = claude(
            &tmp.s(),
            "PreToolUse",
            json!({"tool_name": tool, "tool_input": {"owner": "o", "repo": "r", "title": "bug"}, "tool_use_id": "toolu_1"}),
        );
        let o = pre(&e, &payload);
        let want = if fires {
            Verdict::Deny
        } else {
            Verdict::Abstain
        };
        assert_eq!(o.verdict(), want, "matcher {matcher:?} vs {tool}");
        assert_eq!(o.hook_runs.len(), usize::from(fires), "{matcher:?}");
    }
}

const NO_RM_PY: &str = r#"#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
if "rm -rf" in data["tool_input"]["command"]:
    print("Blocked: recursive delete needs review", file=sys.stderr)
    sys.exit(1)
"#;

#[test]
fn hk03_guard_exiting_1_is_a_non_blocking_error() {
    // HK-03: exit 1 never blocks; the user sees a notice with the first stderr line.
    let tmp = Tmp::new("hk03");
    tmp.script(".claude/hooks/no-rm.py", NO_RM_PY);
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/no-rm.py"}]}]}});
    let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
    let o = pre(&e, &bash(&tmp.s(), "rm -rf build/ dist/"));
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs.len(), 1);
    assert_eq!(o.hook_runs[0].exit_code, Some(1));
    assert!(
        warned(&o, "Blocked: recursive delete needs review"),
        "{:?}",
        o.warnings
    );
    // The tool runs: no hookSpecificOutput, only the notice for the user.
    let out = stdout_json(&o, Dialect::ClaudeCode);
    assert!(out.get("hookSpecificOutput").is_none(), "{out}");
    assert!(
        out["systemMessage"]
            .as_str()
            .unwrap()
            .contains("Blocked: recursive delete needs review")
    );

    // Variant: exit 1 with a schema-valid JSON deny. Claude Code: the JSON decides (deny).
    // Codex: stdout is only parsed on exit 0, so the hook failed and the command runs.
    let body = format!(
        "#!/usr/bin/env python3\nimport sys\nsys.stdin.read()\nprint('{}')\nsys.exit(1)\n",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"recursive delete needs review"}}"#
    );
    tmp.script(".claude/hooks/no-rm-json.py", &body);
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/no-rm-json.py"}]}]}});
    let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
    let o = pre(&e, &bash(&tmp.s(), "rm -rf build/ dist/"));
    crate::support::assert_verdict(
        &o,
        Verdict::Deny,
        "recursive delete needs review [settings-PreToolUse-1-1]",
    );
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("{}/.claude/hooks/no-rm-json.py", tmp.s())}]}]}});
    let e = engine_from_config(".codex/hooks.json", &cfg, Dialect::Codex);
    let o = pre_codex(&e, &codex_bash(&tmp.s(), "rm -rf build/ dist/"));
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs[0].exit_code, Some(1));
    assert!(warned(&o, "failed"), "{:?}", o.warnings);
}

const GIT_GUARD: &str = "#!/bin/bash\ncat >/dev/null\nprintf '%s' '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"checkout is disabled here\"}}'\necho 'git checkout is blocked in this repository' >&2\nexit 2\n";

#[test]
fn hk04_exit_2_with_schema_invalid_json_blocks_with_stderr() {
    // HK-04: exit 2 blocks whatever the JSON says; the JSON lacks hookEventName, so the
    // blocking message is stderr.
    let tmp = Tmp::new("hk04");
    tmp.script(".claude/hooks/git-guard.sh", GIT_GUARD);
    let e = engine(&format!(
        "[[rule]]\nid = \"git-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = \"~/.claude/hooks/git-guard.sh\", env = {{ HOME = {} }} }}\n",
        q(&tmp.s())
    ));
    let o = pre(&e, &bash(&tmp.s(), "git checkout release-2.0"));
    crate::support::assert_verdict(
        &o,
        Verdict::Deny,
        "git checkout is blocked in this repository [git-guard]",
    );
    assert_eq!(
        stdout_json(&o, Dialect::ClaudeCode)["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny",
               "permissionDecisionReason": "git checkout is blocked in this repository [git-guard]"})
    );
    // The hook did decide: no diagnostic may claim otherwise.
    assert!(
        !warned(&o, "no decision taken"),
        "a blocking hook is reported as `no decision taken`: {:?}",
        o.warnings
    );
}

#[test]
fn hk05_deny_in_the_wrong_json_shape_is_discarded() {
    // HK-05: only the legacy `block` and the correct shape deny; every other shape lets the
    // commit run.
    let tmp = Tmp::new("hk05");
    let guard = tmp.script(
        "branch-guard.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '%s' \"$VARIANT\"\nexit 0\n",
    );
    let variants = [
        (
            "a_missing_event_name",
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
            false,
        ),
        (
            "b_root_decision_deny",
            r#"{"decision":"deny","reason":"no commits on main"}"#,
            false,
        ),
        (
            "c_flat_permission_decision",
            r#"{"permissionDecision":"deny","permissionDecisionReason":"no commits on main"}"#,
            false,
        ),
        (
            "d_legacy_block",
            r#"{"decision":"block","reason":"no commits on main"}"#,
            true,
        ),
        (
            "e_wrong_event_name",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
            false,
        ),
        (
            "f_correct",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no commits on main"}}"#,
            true,
        ),
    ];
    for (name, out, blocks) in variants {
        let e = engine(&format!(
            "[[rule]]\nid = \"branch-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = {{ program = \"git\", subcommand = \"commit\" }}\nrun = {{ command = {}, env = {{ VARIANT = {} }} }}\n",
            q(&guard.display().to_string()),
            q(out)
        ));
        let o = pre(&e, &bash(&tmp.s(), "git commit -am 'hotfix'"));
        if blocks {
            assert_eq!(o.verdict(), Verdict::Deny, "{name}");
            assert_eq!(
                o.reason_text(),
                "no commits on main [branch-guard]",
                "{name}"
            );
        } else {
            assert_eq!(o.verdict(), Verdict::Abstain, "{name}: {o:?}");
            assert!(
                o.pre_tool().is_none(),
                "{name}: never read as a decision for another event"
            );
        }
        // A discarded deny is reported (loudly, naming the hook), not silently dropped.
        if matches!(
            name,
            "a_missing_event_name" | "b_root_decision_deny" | "e_wrong_event_name"
        ) {
            assert!(warned(&o, "branch-guard"), "{name}: {:?}", o.warnings);
        }
    }
}

#[test]
fn hk06_hook_past_its_timeout_is_killed_and_fails_open() {
    // HK-06: the config's timeout is 5 s; the guard needs ~8 s. The run is cancelled at the
    // timeout and its output discarded: no decision.
    let tmp = Tmp::new("hk06");
    tmp.script(
        ".claude/hooks/infra-guard.sh",
        &format!(
            "#!/bin/bash\ncat >/dev/null\nsleep 8\nprintf '%s' '{}'\n",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"destroy is not allowed"}}"#
        ),
    );
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/infra-guard.sh", "timeout": 5}]}]}});
    let e = engine_from_config("settings.json", &cfg, Dialect::ClaudeCode);
    let t = Instant::now();
    let o = pre(&e, &bash(&tmp.s(), "terraform destroy -auto-approve"));
    let took = t.elapsed();
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(o.hook_runs[0].timed_out);
    assert_eq!(o.hook_runs[0].exit_code, None);
    assert!(
        (5000..7000).contains(&o.hook_runs[0].duration_ms),
        "{}",
        o.hook_runs[0].duration_ms
    );
    assert!(took < Duration::from_secs(7), "{took:?}");
    assert!(warned(&o, "timed out"), "{:?}", o.warnings);
    assert!(
        encode(&o, Dialect::ClaudeCode)
            .stdout
            .find("permissionDecision")
            .is_none()
    );

    // With on_error = "deny" the same failure fails closed (short timeout for the test).
    let e = engine(&format!(
        "[[rule]]\nid = \"infra-guard\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {}, timeout = \"300ms\", on_error = \"deny\" }}\n",
        q(&format!("{}/.claude/hooks/infra-guard.sh", tmp.s()))
    ));
    let o = pre(&e, &bash(&tmp.s(), "terraform destroy -auto-approve"));
    assert_eq!(o.verdict(), Verdict::Deny);
    assert!(
        o.reason_text()
            .starts_with("command hook `infra-guard` failed and is set to fail closed (on_error = \"deny\"): timed out after"),
        "{}",
        o.reason_text()
    );
}

const JQ_GUARD: &str = r#"#!/bin/bash
# Deny force pushes to main; parses stdin with jq.
cmd=$(jq -r '.tool_input.command') || exit $?
case "$cmd" in
  *"push --force"*main*) printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"force push to main"}}' ;;
esac
"#;

#[test]
fn hk08_guard_that_cannot_start() {
    // HK-08: 127 fails open (reported loudly), an interpreter's exit 2 blocks.
    let tmp = Tmp::new("hk08");
    let empty_bin = tmp.join("empty-bin");
    std::fs::create_dir_all(&empty_bin).unwrap();
    let guard = tmp.script("hooks/jq-guard.sh", JQ_GUARD);
    let rule = |id: &str, cmd: &str, extra: &str| {
        format!(
            "[[rule]]\nid = {}\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {}{extra} }}\n",
            q(id),
            q(cmd)
        )
    };
    let no_jq = format!(
        ", env = {{ PATH = {} }}",
        q(&empty_bin.display().to_string())
    );
    let payload = bash(&tmp.s(), "git push --force origin main");

    // Control: with jq on PATH the guard works.
    if Path::new("/usr/bin/jq").exists() || Path::new("/bin/jq").exists() {
        let e = engine(&rule("guard", &guard.display().to_string(), ""));
        let o = pre(&e, &payload);
        crate::support::assert_verdict(&o, Verdict::Deny, "force push to main [guard]");
    }

    // a: jq missing → exit 127 → non-blocking, reported.
    let e = engine(&rule("guard", &guard.display().to_string(), &no_jq));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs[0].exit_code, Some(127));
    assert!(warned(&o, "exit 127"), "{:?}", o.warnings);
    assert!(warned(&o, "jq: command not found"), "{:?}", o.warnings);

    // b: wrong script path → exit 127 → non-blocking, reported.
    let missing = tmp.join("hooks/guard-typo.sh").display().to_string();
    let e = engine(&rule("guard", &missing, ""));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs[0].exit_code, Some(127));
    assert!(warned(&o, "exit 127"), "{:?}", o.warnings);
    assert!(warned(&o, &missing), "{:?}", o.warnings);

    // c: python3 cannot open the script → exit 2 → blocked with python's error.
    let direct = std::process::Command::new("/bin/sh")
        .args(["-c", "python3 /missing/guard.py"])
        .output()
        .unwrap();
    assert_eq!(direct.status.code(), Some(2));
    let python_err = String::from_utf8_lossy(&direct.stderr).trim().to_string();
    assert!(python_err.contains("can't open file '/missing/guard.py'"));
    let e = engine(&rule("guard", "python3 /missing/guard.py", ""));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Deny);
    assert_eq!(o.reason_text(), format!("{python_err} [guard]"));

    // d: the guard stands down quietly (`command -v jq || exit 0`) → no decision.
    let quiet = tmp.script(
        "hooks/quiet-guard.sh",
        "#!/bin/bash\ncommand -v jq >/dev/null || exit 0\necho '{}'\n",
    );
    let e = engine(&rule("guard", &quiet.display().to_string(), &no_jq));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs[0].exit_code, Some(0));
    assert_eq!(encode(&o, Dialect::ClaudeCode).stdout, "");

    // on_error = "deny": a guard that cannot start fails closed.
    let e = engine(&rule(
        "guard",
        &guard.display().to_string(),
        &format!("{no_jq}, on_error = \"deny\""),
    ));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Deny);
    assert!(o.reason_text().contains("exit 127"), "{}", o.reason_text());
}
