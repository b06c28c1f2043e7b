//! seamguard's own audit log end to end: the hook records the digest of each raw payload and
//! its input with the secrets masked; `replay` re-judges those records against another policy
//! with the recorded decisions as the baseline (old records and refusals skipped, counted);
//! refused payloads are recorded and shown by `log`; the log rotates at its size bound and
//! `log` and `allow --last` read both files.

use std::path::{Path, PathBuf};

use seamguard_engine::audit::{ROTATE_BYTES, payload_digest};
use serde_json::{Value, json};

use crate::support::{Run, output_with_stdin};

/// The live policy: pushes ask.
const V1: &str = r#"[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git", subcommand = "push" }
decision = "ask"
reason = "Pushes need approval"
"#;

/// The new policy: pushes are denied, and so is a GitHub token on a command line (tested by
/// its shape, which masking keeps).
const V2: &str = r#"[[rule]]
id = "push-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git", subcommand = "push" }
decision = "deny"
reason = "No pushes"

[[rule]]
id = "token-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { regex = '\bghp_[A-Za-z0-9]{36}\b' }
decision = "deny"
reason = "No tokens on the command line"
"#;

const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

fn workdir() -> PathBuf {
    let dir = crate::support::workdir("audit-replay");
    std::fs::write(dir.join("v1.toml"), V1).unwrap();
    std::fs::write(dir.join("v2.toml"), V2).unwrap();
    dir
}

fn seamguard(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut cmd = crate::support::command_in(dir, &dir.join("home"));
    cmd.args(args)
        .env_remove("SEAMGUARD_AUDIT_INPUT")
        .env_remove("NO_COLOR");
    Run::lossy_stderr(output_with_stdin(&mut cmd, stdin))
}

fn bash(session: &str, command: &str) -> Vec<u8> {
    json!({
        "session_id": session, "transcript_path": "", "cwd": "/w",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command},
    })
    .to_string()
    .into_bytes()
}

const LOG: &str = "state/seamguard/audit.jsonl";

/// The `hook/result` records of the log at `path` (relative to `dir`).
fn results(dir: &Path, path: &str) -> Vec<Value> {
    std::fs::read_to_string(dir.join(path))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "hook/result")
        .collect()
}

#[test]
fn records_keep_a_digest_and_the_masked_input_and_replay_judges_them_again() {
    let dir = workdir();
    // Records written before the input was kept.
    std::fs::create_dir_all(dir.join("state/seamguard")).unwrap();
    std::fs::write(
        dir.join(LOG),
        "{\"type\":\"hook/invoked\",\"handler_id\":\"old\",\"dialect\":\"claude-code\",\"event\":\"PreToolUse\",\"session_id\":\"s0\"}\n\
         {\"type\":\"hook/result\",\"handler_id\":\"old\",\"dialect\":\"claude-code\",\"event\":\"PreToolUse\",\"session_id\":\"s0\",\"decision\":\"ask\",\"reason\":\"r\",\"rules\":[\"push-ask\"],\"duration_ms\":1.0}\n",
    )
    .unwrap();
    let token_cmd = format!("echo {TOKEN} | gh auth login --with-token");
    let calls = [
        bash("s1", "git push origin main"),
        bash("s1", &token_cmd),
        bash("s1", "ls -la"),
    ];
    for c in &calls {
        let r = seamguard(&dir, &["hook", "--policy", "v1.toml"], c);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let r = seamguard(
        &dir,
        &["hook", "--policy", "v1.toml"],
        b"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);

    let text = std::fs::read_to_string(dir.join(LOG)).unwrap();
    assert!(
        !text.contains(&TOKEN[4..]),
        "the token is in the log: {text}"
    );
    let recs = results(&dir, LOG);
    assert_eq!(recs.len(), 5);
    for (rec, call) in recs[1..4].iter().zip(&calls) {
        assert_eq!(rec["payload_sha256"], json!(payload_digest(call)));
    }
    assert_eq!(
        (&recs[2]["input"], &recs[2]["redacted"]),
        (
            &json!({"session_id": "s1", "transcript_path": "", "cwd": "/w",
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "echo ghp_000000000000000000000000000000000000 | gh auth login --with-token"}}),
            &json!(1)
        )
    );
    // Nothing was masked in an ordinary call.
    assert_eq!(recs[3].get("redacted"), None);
    assert_eq!(recs[3]["input"]["tool_input"], json!({"command": "ls -la"}));

    // Judged again with the new policy: the recorded decisions are the baseline.
    let r = seamguard(&dir, &["replay", LOG, "--policy", "v2.toml"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "changes against the recorded decisions: 2 of 3 event(s)
  ask → deny: 1
  none → deny: 1
changes per rule:
  push-ask  -1  (ask → deny: 1)
  push-deny  +1  (ask → deny: 1)
  token-deny  +1  (none → deny: 1)
replayed 3 events from 1 file(s) with 2 rule(s)
  state/seamguard/audit.jsonl: 3 events (audit-log, 2 problem(s))
events by seam: pre-tool 3
verdicts: deny 2, none 1
interruptions: 2 of 3 pre-tool events = 666.7 per 1,000 (0 asks, 2 denies); 0 distinct concerns = 0 per 1,000
rule hits:
       1  push-deny
       1  token-deny
decisions other than allow (2):
  state/seamguard/audit.jsonl:4  pre-tool Bash  deny  [push-deny]  git push origin main
      No pushes: git push origin main [push-deny]
  state/seamguard/audit.jsonl:6  pre-tool Bash  deny  [token-deny]  echo ghp_000000000000000000000000000000000000 | gh auth login --with-token
      No tokens on the command line [token-deny]
rules that never fired: none
changed against the recorded decisions (2 event(s)):
  recorded verdicts: ask 1, none 2
  state/seamguard/audit.jsonl:4  pre-tool Bash  git push origin main
      recorded ask [push-ask]  ->  policy deny [push-deny]
  state/seamguard/audit.jsonl:6  pre-tool Bash  echo ghp_000000000000000000000000000000000000 | gh auth login --with-token
      recorded none []  ->  policy deny [token-deny]
"
    );
    assert_eq!(
        r.stderr,
        "state/seamguard/audit.jsonl:2: skipped: 1 audit record(s) recorded without their input (written before audit records kept it); not re-judged (first at line 2)
state/seamguard/audit.jsonl:10: skipped: 1 audit record(s) of payloads refused unread (nothing to re-judge); not re-judged (first at line 10)
seamguard: 0 unreadable record(s), 2 skipped; the rest was replayed
"
    );

    // The JSON report says what the outcomes were compared with.
    let r = seamguard(
        &dir,
        &["replay", LOG, "--policy", "v2.toml", "--format", "json"],
        b"",
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (
            &v["files"][0]["format"],
            &v["baseline_policies"],
            &v["diff"]["against"],
            &v["diff"]["baseline_verdicts"],
            &v["diff"]["changes"]["transitions"],
        ),
        (
            &json!("audit-log"),
            &json!([]),
            &json!("recorded"),
            &json!({"ask": 1, "none": 2}),
            &json!([{"from": "ask", "to": "deny", "events": 1}, {"from": "none", "to": "deny", "events": 1}]),
        )
    );

    // The same policy finds nothing changed; `--only-changed` then selects nothing.
    let r = seamguard(
        &dir,
        &[
            "replay",
            LOG,
            "--policy",
            "v1.toml",
            "--only-changed",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.iter().map(|l| l["type"].clone()).collect::<Vec<_>>(),
        [json!("problem"), json!("problem"), json!("summary")]
    );
    assert_eq!(
        (
            &lines[2]["events"],
            &lines[2]["changed"],
            &lines[2]["selected"]["events"]
        ),
        (&json!(3), &json!(0), &json!(0))
    );

    // Only the digest with SEAMGUARD_AUDIT_INPUT=off.
    let mut cmd = crate::support::command();
    cmd.args(["hook", "--policy", "v1.toml"])
        .current_dir(&dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("HOME", dir.join("home"))
        .env("SEAMGUARD_AUDIT_INPUT", "off")
        .env_remove("SEAMGUARD_AUDIT_LOG")
        .env_remove("CLAUDE_PROJECT_DIR");
    let out = output_with_stdin(&mut cmd, &calls[2]);
    assert_eq!(out.status.code(), Some(0));
    let last = results(&dir, LOG).pop().unwrap();
    assert_eq!(
        (last.get("input"), &last["payload_sha256"]),
        (None, &json!(payload_digest(&calls[2])))
    );
}

#[test]
fn refused_payloads_are_recorded_and_log_shows_them() {
    let dir = workdir();
    let truncated: &[u8] = b"{\"hook_event_name\":\"PreToolUse\",\"tool_input\":{\"command\":\"ls";
    let wrong_type: &[u8] = b"{\"session_id\":\"s1\",\"cwd\":\"/w\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":5,\"tool_input\":{}}";
    let mut oversize =
        b"{\"hook_event_name\":\"PreToolUse\",\"tool_input\":{\"command\":\"".to_vec();
    oversize.resize(16 * 1024 * 1024 + 10, b'a');
    let garbage: &[u8] = b"garbage";
    let inputs: [&[u8]; 4] = [truncated, wrong_type, &oversize, garbage];
    let mut codes = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let mut args = vec!["hook", "--policy", "v1.toml"];
        if i == 1 {
            args.extend(["--dialect", "codex"]);
        }
        codes.push(seamguard(&dir, &args, input).code);
    }
    assert_eq!(codes, [0, 0, 0, 2]);
    let recs = results(&dir, LOG);
    let brief: Vec<Value> = recs
        .iter()
        .map(|r| {
            json!([
                r["dialect"],
                r["event"],
                r["decision"],
                r["rules"],
                r["refused"],
                r["payload_sha256"],
                r["tool_name"]
            ])
        })
        .collect();
    let unreadable = json!(["seamguard:unreadable-payload"]);
    assert_eq!(
        brief,
        [
            json!([
                null,
                "PreToolUse",
                "deny",
                unreadable,
                true,
                payload_digest(truncated),
                null
            ]),
            json!([
                "codex",
                "PreToolUse",
                "deny",
                unreadable,
                true,
                payload_digest(wrong_type),
                null
            ]),
            json!([
                null,
                "PreToolUse",
                "deny",
                unreadable,
                true,
                payload_digest(&oversize),
                null
            ]),
            json!([
                null,
                null,
                "deny",
                unreadable,
                true,
                payload_digest(garbage),
                null
            ]),
        ]
    );
    let r = seamguard(&dir, &["log"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Each line after its number and time stamp (`#1  2026-01-01 00:00:00 UTC  `).
    let lines: Vec<&str> = r
        .stdout
        .lines()
        .map(|l| l.split_once(" UTC  ").unwrap().1)
        .collect();
    assert_eq!(
        lines,
        [
            "             deny   PreToolUse  [seamguard:unreadable-payload]  (refused: malformed hook payload (59 bytes): payload is not valid JSON at line 1 column 59: EOF while parsing a string at line 1 column 59)",
            "codex        deny   PreToolUse  [seamguard:unreadable-payload]  (refused: PreToolUse payload: field `tool_name`: invalid type: integer `5`, expected a string)",
            "             deny   PreToolUse  [seamguard:unreadable-payload]  (refused: the payload is 16777226 bytes, over the 16777216-byte limit)",
            "             deny     [seamguard:unreadable-payload]  (refused: malformed hook payload (7 bytes): payload is not valid JSON at line 1 column 1: expected value at line 1 column 1)",
        ]
    );
}

#[test]
fn the_log_rotates_at_its_bound_and_log_and_allow_read_both_files() {
    let dir = workdir();
    let r = seamguard(
        &dir,
        &["hook", "--policy", "v1.toml"],
        &bash("s1", "git push origin main"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Fill the log up to its bound (a line `log` reads past).
    let log = dir.join(LOG);
    let size = std::fs::metadata(&log).unwrap().len();
    let pad = format!(
        "{{\"type\":\"note\",\"pad\":\"{}\"}}\n",
        "x".repeat((ROTATE_BYTES - size) as usize - 25)
    );
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str(&pad);
    std::fs::write(&log, &text).unwrap();
    assert_eq!(std::fs::metadata(&log).unwrap().len(), ROTATE_BYTES);

    let r = seamguard(
        &dir,
        &["hook", "--policy", "v1.toml"],
        &bash("s1", "ls -la"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rotated = dir.join("state/seamguard/audit.1.jsonl");
    assert_eq!(std::fs::read_to_string(&rotated).unwrap(), text);
    let current = results(&dir, LOG);
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["input"]["tool_input"]["command"], "ls -la");

    // `log` reads the previous file first, then the current one.
    let r = seamguard(&dir, &["log", "--format", "jsonl"], b"");
    let decisions: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            json!([v["decision"], v["input"]["tool_input"]["command"]])
        })
        .collect();
    assert_eq!(
        decisions,
        [
            json!(["ask", "git push origin main"]),
            json!(["none", "ls -la"])
        ]
    );
    // The last ask is in the previous file: `allow --last` finds it there.
    let r = seamguard(&dir, &["allow", "--last", "--session"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(") Bash: git push origin main\n  lifts later asks about:\n    push-ask on `git push` in "),
        "{}",
        r.stdout
    );
    let r = seamguard(
        &dir,
        &["hook", "--policy", "v1.toml"],
        &bash("s1", "git push origin main"),
    );
    assert!(
        r.stdout.contains("\"permissionDecision\":\"allow\""),
        "{}",
        r.stdout
    );
}
