//! The `seamguard` binary end to end: `hook` on real payloads (exact stdout and exit code),
//! malformed / unknown / mistyped payloads, `check` diagnostics for each kind of policy error,
//! fail-closed loading, and `test` with passing and failing examples.

use std::path::{Path, PathBuf};

use crate::support::{Run, root};

/// A fresh, empty working folder for one test (also used as HOME and XDG dirs, so no policy
/// or state outside the test is ever read).
fn workdir(name: &str) -> PathBuf {
    crate::support::workdir(&format!("cli-{name}"))
}

fn seamguard(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    crate::support::seamguard_in(dir, dir, args, stdin)
}

fn sample(name: &str) -> Vec<u8> {
    let p = root().join("engine/tests/data/samples").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

const POLICY: &str = include_str!("../data/policies/cli-policy.toml");

fn hook(dir: &Path, extra: &[&str], payload: &[u8]) -> Run {
    let mut args = vec!["hook", "--policy", "policy.toml"];
    args.extend_from_slice(extra);
    seamguard(dir, &args, payload)
}

fn policy_dir(name: &str) -> PathBuf {
    let dir = workdir(name);
    write(&dir, "policy.toml", POLICY);
    dir
}

// ---------------------------------------------------------------------------------------------
// hook: real payloads

#[test]
fn hook_denies_a_real_rm_rf_payload_in_both_dialects() {
    let dir = policy_dir("deny");
    let want = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Recursive delete is not allowed [no-rm-rf]\"}}\n";
    for extra in [
        &[][..],
        &["--dialect", "claude-code"],
        &["--dialect", "codex"],
    ] {
        let r = hook(&dir, extra, &sample("claude-example-input-2.json"));
        assert_eq!(r.stdout, want, "{extra:?}");
        assert_eq!(r.code, 0, "{extra:?}");
        assert_eq!(r.stderr, "", "{extra:?}");
    }
}

#[test]
fn hook_is_silent_when_nothing_matches() {
    let dir = policy_dir("silent");
    for file in [
        "claude-input-1.json",
        "claude-input-13.json",
        "claude-input-8.json",
    ] {
        let r = hook(&dir, &[], &sample(file));
        assert_eq!(r.stdout, "", "{file}");
        assert_eq!(r.code, 0, "{file}");
        assert_eq!(r.stderr, "", "{file}");
    }
}

#[test]
fn hook_ask_is_ask_for_claude_and_a_deny_for_codex() {
    let dir = policy_dir("ask");
    let r = hook(&dir, &[], &sample("claude-example-input-1.json"));
    assert_eq!(
        r.stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"Destructive MCP call needs approval [mcp-destructive-ask]\"}}\n"
    );
    assert_eq!(r.code, 0);
    let r = hook(
        &dir,
        &["--dialect", "codex"],
        &sample("claude-example-input-1.json"),
    );
    assert_eq!(
        r.stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Approval required: Destructive MCP call needs approval [mcp-destructive-ask] — Codex hooks cannot ask for confirmation, so seamguard denies; if the call is intended, the user can approve it with `seamguard allow --last` and retry.\"}}\n"
    );
    assert_eq!(r.code, 0);
}

#[test]
fn hook_permission_request_deny() {
    let dir = policy_dir("perm");
    let r = hook(&dir, &[], &sample("claude-input-6.json"));
    assert_eq!(
        r.stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"Web search is disabled in this project [no-web-search]\"}}}\n"
    );
    assert_eq!(r.code, 0);
}

#[test]
fn hook_stop_continues_once_then_lets_the_agent_stop() {
    let dir = policy_dir("stop");
    let first = sample("claude-input-12.json");
    let r = hook(&dir, &[], &first);
    assert_eq!(
        r.stdout,
        "{\"decision\":\"block\",\"reason\":\"Link the audit report in specs/README.md before stopping.\"}\n"
    );
    assert_eq!(r.code, 0);
    // The agent continued; its next stop has stop_hook_active = true (HK-09).
    let again = String::from_utf8(first)
        .unwrap()
        .replace("\"stop_hook_active\": false", "\"stop_hook_active\": true");
    assert!(again.contains("\"stop_hook_active\": true"));
    let r = hook(&dir, &[], again.as_bytes());
    assert_eq!(
        r.stdout,
        "{\"systemMessage\":\"seamguard: rule `stop-audit` would continue, but its budget of 1 continuation(s) per turn is used (stop_hook_active); letting the agent stop\"}\n"
    );
    assert_eq!(r.code, 0);
}

#[test]
fn hook_codex_session_end_sample_is_silent() {
    let dir = policy_dir("end");
    let r = hook(&dir, &[], &sample("codex-input-1.json"));
    assert_eq!(r.stdout, "");
    assert_eq!(r.code, 0);
}

// ---------------------------------------------------------------------------------------------
// hook: bad input

/// A payload whose event cannot be known is blocked with exit 2 and the reason on stderr:
/// every host reads that as a block of a tool call (HOOKS.md A5.2, B3).
#[test]
fn hook_malformed_json_of_an_unknown_event_blocks_with_exit_2() {
    let dir = policy_dir("malformed");
    for input in [&b"{\"session_id\":"[..], b"not json", b"", b"{\"a\":1}}"] {
        let r = hook(&dir, &[], input);
        assert_eq!(r.code, 2, "{input:?}");
        assert_eq!(r.stdout, "", "{input:?}");
        assert!(
            r.stderr
                .starts_with("seamguard could not read this hook payload (malformed hook payload"),
            "{input:?}: {}",
            r.stderr
        );
    }
    let r = hook(&dir, &[], b"{\"session_id\":");
    assert_eq!(
        r.stderr,
        "seamguard could not read this hook payload (malformed hook payload (14 bytes): payload is not valid JSON at line 1 column 14: EOF while parsing a value at line 1 column 14) and cannot tell which event it is; blocked to be safe\n"
    );
}

#[test]
fn hook_unknown_event_is_reported_and_ignored() {
    let dir = policy_dir("unknown");
    let r = hook(
        &dir,
        &[],
        br#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"Setup","trigger":"init"}"#,
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "seamguard: unknown hook event `Setup`: seamguard has no seam for it, no decision taken\n"
    );
}

/// A field of the wrong type whose meaning is not clear: a tool call is denied naming the
/// field, a Stop gets a message and is not blocked; never exit 1 (the host would run the call).
#[test]
fn hook_wrong_field_type_names_the_field() {
    let dir = policy_dir("fieldtype");
    let r = hook(
        &dir,
        &[],
        br#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":3,"tool_input":{}}"#,
    );
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"seamguard could not judge this tool call: PreToolUse payload: field `tool_name`: invalid type: integer `3`, expected a string; denied to be safe [seamguard:unreadable-payload]\"}}\n"
    );
    assert_eq!(
        r.stderr,
        "seamguard: PreToolUse payload: field `tool_name`: invalid type: integer `3`, expected a string\n"
    );
    let r = hook(
        &dir,
        &[],
        br#"{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":"yes"}"#,
    );
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "{\"systemMessage\":\"seamguard could not judge this Stop event: Stop payload: field `stop_hook_active`: invalid type: string \\\"yes\\\", expected a boolean; no rule was applied\"}\n"
    );
}

// ---------------------------------------------------------------------------------------------
// check

fn check_file(name: &str, text: &str) -> Run {
    let dir = workdir("check");
    write(&dir, name, text);
    seamguard(&dir, &["check", name], b"")
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[test]
fn check_unknown_key() {
    let r = check_file(
        "unknown-key.toml",
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"deny\"\nreasn = \"typo\"\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "unknown-key.toml:5:1: error: unknown key `reasn` in [[rule]]; did you mean `reason`?\n  |\n5 | reasn = \"typo\"\n  | ^^^^^\n  |\n  = note: expected one of: id, seam, tool, matcher, description, when, unless, reason, decision, context, rewrite, redact, feedback, continue_with, max_continuations, halt, run, suppress_prompt, observe\n",
        "one line with file:line:column, then the source line with the key underlined, then what was expected"
    );
    assert_eq!(
        r.stdout,
        "1 policy file(s), 0 rule(s) (none), 1 error(s), 0 warning(s)\n"
    );
}

#[test]
fn check_invalid_regex() {
    let r = check_file(
        "bad-regex.toml",
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.command = { regex = \"(unclosed\" }\ndecision = \"deny\"\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "bad-regex.toml:4:26: error: `regex` on `command`: invalid regex: unclosed group at character 1\n  |\n4 | when.command = { regex = \"(unclosed\" }\n  |                          ^^^^^^^^^^^\n  |\n  = note: Rust `regex` syntax; no look-around or back-references\n"
    );
}

#[test]
fn check_invalid_glob() {
    let r = check_file(
        "bad-glob.toml",
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.file_path = { glob = \"src/[a-\" }\ndecision = \"deny\"\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        first_line(&r.stderr),
        "bad-glob.toml:4:27: error: invalid glob `src/[a-`: unclosed character class; missing ']'"
    );
}

#[test]
fn check_action_the_seam_cannot_take() {
    let r = check_file(
        "bad-action.toml",
        "[[rule]]\nid = \"a\"\nseam = \"stop\"\ncontinue_with = \"keep going\"\ndecision = \"deny\"\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        first_line(&r.stderr),
        "bad-action.toml:5:1: error: seam `stop` cannot take `decision`; `decision` is valid on: prompt-submit, pre-tool, permission-request, post-tool, pre-compact"
    );
}

/// DESIGN.md §3: "wrong seams for an action … are load-time errors that point at
/// file:line:column". When the misplaced action is the rule's only action, the first
/// diagnostic must still be that error, not a claim that the rule "has no action".
#[test]
fn check_only_action_the_seam_cannot_take_is_the_first_diagnostic() {
    let r = check_file(
        "only-action.toml",
        "[[rule]]\nid = \"a\"\nseam = \"stop\"\ndecision = \"deny\"\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        first_line(&r.stderr),
        "only-action.toml:4:1: error: seam `stop` cannot take `decision`; `decision` is valid on: prompt-submit, pre-tool, permission-request, post-tool, pre-compact"
    );
    assert!(
        !r.stderr.contains("has no action"),
        "the rule has an action (`decision`); it is just not valid at this seam:\n{}",
        r.stderr
    );
}

#[test]
fn check_toml_syntax_error() {
    let r = check_file("syntax.toml", "[[rule]\nid = \"a\"\n");
    assert_eq!(r.code, 1);
    assert_eq!(
        first_line(&r.stderr),
        "syntax.toml:1:8: error: TOML syntax error: unclosed array table, expected `]`"
    );
}

#[test]
fn check_valid_policy_exits_0() {
    let dir = policy_dir("check-ok");
    let r = seamguard(&dir, &["check", "policy.toml"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        "1 policy file(s), 4 rule(s) (pre-tool: 2, permission-request: 1, stop: 1), 0 error(s), 0 warning(s)\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Fail-closed loading

const PAYLOAD_LS: &[u8] = br#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

#[test]
fn on_load_error_deny_in_a_broken_file_denies_pre_tool() {
    let dir = workdir("faildeny");
    write(
        &dir,
        "policy.toml",
        "[policy]\non_load_error = \"deny\"\n\n[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.file_path = { glob = \"src/[a-\" }\ndecision = \"deny\"\n",
    );
    let first =
        "policy.toml:7:27: error: invalid glob `src/[a-`: unclosed character class; missing ']'";
    let want = format!(
        "{{\"systemMessage\":\"seamguard: policy policy.toml has 1 error and some rules are not enforced (run `seamguard check`): {first}\",\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"seamguard policy policy.toml failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check policy.toml`), or set `on_load_error = \\\"warn\\\"` in its [policy] table to let calls through while it is broken [seamguard:load-error]\"}}}}\n"
    );
    for extra in [&[][..], &["--dialect", "codex"]] {
        let r = hook(&dir, extra, PAYLOAD_LS);
        assert_eq!(r.stdout, want, "{extra:?}");
        assert_eq!(r.code, 0);
        assert_eq!(
            r.stderr,
            format!(
                "seamguard: policy policy.toml has 1 error and some rules are not enforced (run `seamguard check`): {first}\n"
            )
        );
    }
}

#[test]
fn on_load_error_deny_survives_a_toml_syntax_error() {
    let dir = workdir("faildeny-syntax");
    write(
        &dir,
        "policy.toml",
        "[policy]\non_load_error = \"deny\"\n[[rule]\n",
    );
    let r = hook(&dir, &[], PAYLOAD_LS);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("policy.toml:3:8: error: TOML syntax error"),
        "{}",
        r.stdout
    );
}

/// A broken file fails closed unless it says `on_load_error = "warn"` itself, or the hook
/// is given `--on-load-error warn`.
#[test]
fn broken_file_fails_closed_unless_it_chooses_warn() {
    let dir = workdir("failwarn");
    let broken = "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.file_path = { glob = \"src/[a-\" }\ndecision = \"deny\"\n";
    write(&dir, "policy.toml", broken);
    let r = hook(&dir, &[], PAYLOAD_LS);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"seamguard policy policy.toml failed to load, so tool calls are denied until it is fixed: policy.toml:4:27: error: invalid glob"),
        "{}",
        r.stdout
    );
    let warned = "{\"systemMessage\":\"seamguard: policy policy.toml has 1 error and some rules are not enforced (run `seamguard check`): policy.toml:4:27: error: invalid glob `src/[a-`: unclosed character class; missing ']'\"}\n";
    let r = hook(&dir, &["--on-load-error", "warn"], PAYLOAD_LS);
    assert_eq!((r.code, r.stdout.as_str()), (0, warned));
    write(
        &dir,
        "policy.toml",
        &format!("[policy]\non_load_error = \"warn\"\n\n{broken}"),
    );
    let r = hook(&dir, &[], PAYLOAD_LS);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            warned
                .replace("policy.toml:4:27", "policy.toml:7:27")
                .as_str()
        )
    );
    // `--on-load-error deny` overrides the file's choice.
    let r = hook(&dir, &["--on-load-error", "deny"], PAYLOAD_LS);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// test

const TESTED_POLICY: &str = include_str!("../data/policies/cli-tested.toml");

#[test]
fn test_command_passes() {
    let dir = workdir("test-pass");
    write(&dir, "t.toml", TESTED_POLICY);
    let r = seamguard(&dir, &["test", "t.toml"], b"");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "ok   t.toml:9 rm is denied => deny\nok   t.toml:16 ls is fine => none\n2 passed, 0 failed, 0 policy error(s)\n"
    );
}

#[test]
fn test_command_quiet_and_name_filter() {
    let dir = workdir("test-quiet");
    let src = format!(
        "{TESTED_POLICY}\n[[test]]\nname = \"wrong expectation\"\nevent = {{ seam = \"pre-tool\", tool_name = \"Bash\", tool_input = {{ command = \"rm -rf build\" }} }}\nexpect = \"ask\"\n"
    );
    write(&dir, "t.toml", &src);
    // Only the failures and the summary.
    let r = seamguard(&dir, &["test", "--quiet", "t.toml"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "FAIL t.toml:21 wrong expectation: expected ask, got deny (fired: [no-rm]; reason: \"No recursive delete [no-rm]\")\n2 passed, 1 failed, 0 policy error(s)\n"
    );
    // The examples whose name contains the text, case-insensitively.
    let r = seamguard(&dir, &["test", "--name", "RM IS", "t.toml"], b"");
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "ok   t.toml:9 rm is denied => deny\n1 passed, 0 failed, 0 policy error(s)\n"
        )
    );
    // A filter that selects nothing checks nothing: exit 1.
    let r = seamguard(
        &dir,
        &["test", "-q", "--name", "no such example", "t.toml"],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "0 passed, 0 failed, 0 policy error(s)\n");
    assert!(
        r.stderr
            .contains("no example's name contains \"no such example\""),
        "{}",
        r.stderr
    );
}

/// An example is judged with its own home and project (`home`, `project`; defaults
/// `/home/user` and the event's `cwd`), whatever `HOME` and `CLAUDE_PROJECT_DIR` the caller
/// has.
#[test]
fn test_command_pins_home_and_project() {
    let dir = workdir("test-pinned");
    write(
        &dir,
        "t.toml",
        r#"[[rule]]
id = "home-delete"
seam = "pre-tool"
when.deletes = { path_inside = "home" }
decision = "deny"
reason = "Deleting in the home folder"

[[rule]]
id = "outside-project"
seam = "pre-tool"
when.deletes = { path_outside = ["project", "home"] }
decision = "ask"
reason = "Deleting outside the project"

[[test]]
name = "the default home"
command = "rm /home/user/notes.txt"
expect = "deny"

[[test]]
name = "a home of its own"
home = "/tmp/u"
command = "rm /tmp/u/notes.txt"
expect = "deny"

[[test]]
name = "the default cwd follows the home"
home = "/tmp/u"
command = "rm notes.txt"
expect = "deny"

[[test]]
name = "the project is the cwd"
event = { seam = "pre-tool", cwd = "/srv/app", tool_name = "Bash", tool_input = { command = "rm /srv/app/x" } }
expect = "none"

[[test]]
name = "a project of its own"
project = "/srv/app"
command = "rm /srv/app/x /srv/other/y"
expect = "ask"
reason_contains = "/srv/other/y"
"#,
    );
    let want = "ok   t.toml:15 the default home => deny\nok   t.toml:20 a home of its own => deny\nok   t.toml:26 the default cwd follows the home => deny\nok   t.toml:32 the project is the cwd => none\nok   t.toml:37 a project of its own => ask\n5 passed, 0 failed, 0 policy error(s)\n";
    let r = seamguard(&dir, &["test", "t.toml"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (0, want), "{}", r.stderr);
    // The caller's HOME and CLAUDE_PROJECT_DIR change nothing.
    let r = Run::utf8(
        crate::support::command()
            .args(["test", "t.toml"])
            .current_dir(&dir)
            .env("HOME", "/tmp/u")
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("CLAUDE_PROJECT_DIR", "/home/user")
            .output()
            .unwrap(),
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, want), "{}", r.stderr);
    // A folder must be absolute.
    write(
        &dir,
        "bad.toml",
        "[[test]]\nhome = \"me\"\ncommand = \"ls\"\nexpect = \"none\"\n",
    );
    let r = seamguard(&dir, &["check", "bad.toml"], b"");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "bad.toml:2:8: error: `home`: expected an absolute folder (`/home/me`), found `me`"
        ),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn test_command_reports_failures() {
    let dir = workdir("test-fail");
    let src = format!(
        "{TESTED_POLICY}\n[[test]]\nname = \"wrong expectation\"\nevent = {{ seam = \"pre-tool\", tool_name = \"Bash\", tool_input = {{ command = \"rm -rf build\" }} }}\nexpect = \"ask\"\n"
    );
    write(&dir, "t.toml", &src);
    let r = seamguard(&dir, &["test", "t.toml"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "ok   t.toml:9 rm is denied => deny\nok   t.toml:16 ls is fine => none\nFAIL t.toml:21 wrong expectation: expected ask, got deny (fired: [no-rm]; reason: \"No recursive delete [no-rm]\")\n2 passed, 1 failed, 0 policy error(s)\n"
    );
}
