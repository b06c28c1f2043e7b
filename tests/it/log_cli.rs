//! `seamguard log` over a written audit log: the last N decisions, each filter, counts per
//! rule, the observe-mode summary and the JSON forms; and over a log the hook wrote.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::Run;

fn workdir() -> PathBuf {
    crate::support::workdir("log")
}

fn seamguard(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    crate::support::seamguard_in(dir, dir, args, stdin)
}

/// `seamguard hook --policy p.toml` on a pre-tool call of session `s1` in `/w`; exit 0.
fn hook_pre_tool(dir: &Path, tool: &str, input: Value) {
    let payload = json!({
        "session_id": "s1", "transcript_path": "", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input,
    });
    let r = seamguard(
        dir,
        &["hook", "--policy", "p.toml"],
        payload.to_string().as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// 2025-12-01 19:53:04 UTC.
const T0: u64 = 1_764_618_784_000;

#[allow(clippy::too_many_arguments, reason = "one record's fields")]
fn result(
    ts: u64,
    dialect: &str,
    session: &str,
    decision: &str,
    rules: &[&str],
    tool: &str,
    subject: &str,
) -> Value {
    json!({
        "type": "hook/result", "handler_id": format!("h{ts}"), "ts_ms": ts, "dialect": dialect,
        "event": "PreToolUse", "session_id": session, "decision": decision, "reason": "",
        "rules": rules, "duration_ms": 1.0, "tool_name": tool, "subject": subject,
    })
}

fn write_log(dir: &Path, recs: &[Value]) -> PathBuf {
    let mut text = String::new();
    for r in recs {
        let invoked = json!({"type": "hook/invoked", "handler_id": r["handler_id"], "ts_ms": r["ts_ms"], "dialect": r["dialect"], "event": "PreToolUse", "session_id": r["session_id"]});
        text.push_str(&format!("{invoked}\n{r}\n"));
    }
    text.push_str("not json\n");
    let p = dir.join("audit.jsonl");
    std::fs::write(&p, text).unwrap();
    p
}

fn sample(dir: &Path) -> PathBuf {
    let mut granted = result(
        T0 + 3000,
        "claude-code",
        "s1",
        "allow",
        &["push-ask"],
        "Bash",
        "git push",
    );
    granted["grant"] = json!("g-0123456789");
    let mut observed = result(
        T0 + 4000,
        "claude-code",
        "s2",
        "none",
        &[],
        "Bash",
        "rm -rf build",
    );
    observed["observed"] = json!({"decision": "deny", "reason": "r", "rules": ["rm-deny"]});
    write_log(
        dir,
        &[
            result(
                T0,
                "claude-code",
                "s1",
                "ask",
                &["push-ask"],
                "Bash",
                "git push",
            ),
            result(
                T0 + 1000,
                "codex",
                "c1",
                "deny",
                &["secrets", "push-ask"],
                "Read",
                "/w/.env",
            ),
            result(T0 + 2000, "claude-code", "s1", "none", &[], "", ""),
            granted,
            observed,
        ],
    )
}

fn log(dir: &Path, log: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["log", "--audit-log", log.to_str().unwrap()];
    args.extend_from_slice(extra);
    seamguard(dir, &args, b"")
}

#[test]
fn lists_the_last_decisions_and_filters_them() {
    let dir = workdir();
    let p = sample(&dir);
    let r = log(&dir, &p, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "#1    2025-12-01 19:53:04 UTC  claude-code  ask    PreToolUse  Bash: git push  [push-ask]\n\
         #2    2025-12-01 19:53:05 UTC  codex        deny   PreToolUse  Read: /w/.env  [secrets, push-ask]\n\
         #3    2025-12-01 19:53:06 UTC  claude-code  none   PreToolUse\n\
         #4    2025-12-01 19:53:07 UTC  claude-code  allow  PreToolUse  Bash: git push  [push-ask]  (granted: g-0123456789)\n\
         #5    2025-12-01 19:53:08 UTC  claude-code  none   PreToolUse  Bash: rm -rf build\n"
    );
    let r = log(&dir, &p, &["-n", "1"]);
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stdout.contains("rm -rf build"), "{}", r.stdout);
    let r = log(&dir, &p, &["--verdict", "deny"]);
    assert_eq!(
        r.stdout,
        "#2    2025-12-01 19:53:05 UTC  codex        deny   PreToolUse  Read: /w/.env  [secrets, push-ask]\n"
    );
    let r = log(&dir, &p, &["--rule", "push-ask", "--agent", "claude-code"]);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    let r = log(&dir, &p, &["--session", "c1", "--format", "jsonl"]);
    let v: Value = serde_json::from_str(r.stdout.trim_end()).unwrap();
    assert_eq!(
        (v["decision"].as_str(), r.stdout.lines().count()),
        (Some("deny"), 1)
    );
    let r = log(&dir, &p, &["--agent", "codex", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["subject"], "/w/.env");
    // Everything in the sample is older than 2 h.
    let r = log(&dir, &p, &["--since", "2h"]);
    assert_eq!(
        r.stdout,
        format!("no decision in {} matches\n", p.display())
    );
    let r = log(&dir, &p, &["--since", "2 hours"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "seamguard: --since 2 hours: expected a number and s, m, h, d or w (`2h`)\n"
        )
    );
}

#[test]
fn a_bad_verdict_and_a_missing_log_are_errors() {
    let dir = workdir();
    let p = sample(&dir);
    let r = log(&dir, &p, &["--verdict", "blah"]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            2,
            "",
            "seamguard: --verdict blah: expected one of allow, ask, defer, deny, block, redact, continue, none\n"
        )
    );
    // Every verdict name is accepted (here: nothing matches, exit 0).
    let r = log(&dir, &p, &["--verdict", "redact"]);
    assert_eq!(
        (r.code, r.stdout),
        (0, format!("no decision in {} matches\n", p.display()))
    );
    let missing = dir.join("none.jsonl");
    let r = log(&dir, &missing, &[]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr),
        (
            3,
            "",
            format!(
                "seamguard: no audit log at {} (the hook writes it on its first call; `seamguard status` says whether the hook is installed and has run)\n",
                missing.display()
            )
        )
    );
    // Only the rotated predecessor left: it is read.
    std::fs::rename(&p, dir.join("audit.1.jsonl")).unwrap();
    let r = log(&dir, &dir.join("audit.jsonl"), &["--verdict", "deny"]);
    assert_eq!((r.code, r.stdout.lines().count()), (0, 1), "{}", r.stderr);
}

#[test]
fn since_keeps_recent_decisions() {
    let dir = workdir();
    let now = now_ms();
    let p = write_log(
        &dir,
        &[
            result(
                now - 3 * 3_600_000,
                "codex",
                "c1",
                "deny",
                &["old"],
                "Bash",
                "old",
            ),
            result(
                now - 3_600_000,
                "codex",
                "c1",
                "deny",
                &["new"],
                "Bash",
                "new",
            ),
        ],
    );
    let r = log(&dir, &p, &["--since", "2h", "--format", "jsonl"]);
    let subjects: Vec<String> = r
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["subject"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(subjects, ["new"]);
}

#[test]
fn counts_per_rule_and_the_observe_summary() {
    let dir = workdir();
    let p = sample(&dir);
    let r = log(&dir, &p, &["--counts"]);
    assert_eq!(
        r.stdout,
        "     3  push-ask  (allow 1, ask 1, deny 1)\n     1  secrets  (deny 1)\n"
    );
    let r = log(&dir, &p, &["--counts", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v,
        json!([
            {"rule": "push-ask", "allow": 1, "ask": 1, "deny": 1, "total": 3},
            {"rule": "secrets", "deny": 1, "total": 1}
        ])
    );
    let r = log(&dir, &p, &["--observed"]);
    assert_eq!(
        r.stdout,
        "observe mode: 1 of 5 recorded decisions would have been denied, 0 asked, 0 blocked\n\
         #5    2025-12-01 19:53:08 UTC  claude-code  deny   PreToolUse  Bash: rm -rf build  [rm-deny]  (enforced: none)\n"
    );
    let r = log(&dir, &p, &["--observed", "--counts"]);
    assert_eq!(r.stdout, "     1  rm-deny  (deny 1)\n");
}

/// With `rule_verdicts` (what the hook writes), each rule is counted under its own verdict:
/// an ask rule that fired on a call a guard denied is an ask; the rules with most decisions
/// come first.
#[test]
fn counts_each_rule_under_its_own_verdict() {
    let dir = workdir();
    let mut denied = result(
        T0,
        "codex",
        "c1",
        "deny",
        &["secrets", "push-ask"],
        "Bash",
        "git push && cat .env",
    );
    denied["rule_verdicts"] = json!(["deny", "ask"]);
    let mut asked = result(
        T0 + 1000,
        "codex",
        "c1",
        "ask",
        &["push-ask", "rm-watch"],
        "Bash",
        "git push",
    );
    asked["rule_verdicts"] = json!(["ask", "observed"]);
    let p = write_log(&dir, &[denied, asked]);
    let r = log(&dir, &p, &["--counts"]);
    assert_eq!(
        r.stdout,
        "     2  push-ask  (ask 2)\n     1  rm-watch  (observed 1)\n     1  secrets  (deny 1)\n"
    );
}

#[test]
fn the_hook_records_every_decision_for_log() {
    let dir = workdir();
    std::fs::write(
        dir.join("p.toml"),
        "[[rule]]\nid = \"env-deny\"\nseam = \"pre-tool\"\ntool = \"Read\"\nwhen.reads = { path_inside = [\"**/.env\"] }\ndecision = \"deny\"\nreason = \"no\"\n",
    )
    .unwrap();
    for (tool, path) in [("Read", "/w/.env"), ("Read", "/w/README.md")] {
        hook_pre_tool(&dir, tool, json!({"file_path": path}));
    }
    let r = seamguard(&dir, &["log", "--format", "jsonl"], b"");
    let recs: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2, "{}", r.stdout);
    assert_eq!(
        (
            recs[0]["decision"].as_str(),
            recs[0]["subject"].as_str(),
            recs[0]["tool_name"].as_str()
        ),
        (Some("deny"), Some("/w/.env"), Some("Read"))
    );
    // A call no rule decided (let through) is recorded with its tool and subject too.
    assert_eq!(
        (
            recs[1]["decision"].as_str(),
            recs[1]["subject"].as_str(),
            recs[1]["tool_name"].as_str(),
            recs[1]["n"].as_u64()
        ),
        (Some("none"), Some("/w/README.md"), Some("Read"), Some(2))
    );
    let r = seamguard(&dir, &["log"], b"");
    let lines: Vec<&str> = r.stdout.lines().map(|l| &l[29..]).collect();
    assert_eq!(
        lines,
        [
            "  claude-code  deny   PreToolUse  Read: /w/.env  [env-deny]",
            "  claude-code  none   PreToolUse  Read: /w/README.md"
        ],
        "{}",
        r.stdout
    );
}

/// A long command in the log keeps its start and the part that decided, not its start only.
#[test]
fn a_long_subject_keeps_its_start_and_the_part_that_decided() {
    let dir = workdir();
    std::fs::write(
        dir.join("p.toml"),
        "[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"git\", subcommand = \"push\" }\ndecision = \"ask\"\nreason = \"Pushing needs your approval\"\n",
    )
    .unwrap();
    let command = format!(
        "cd /w/project && {}git push --force origin main",
        "echo building the release notes && ".repeat(12)
    );
    hook_pre_tool(&dir, "Bash", json!({"command": command}));
    let r = seamguard(&dir, &["log"], b"");
    assert_eq!(
        &r.stdout[29..],
        "  claude-code  ask    PreToolUse  Bash: cd /w/project && echo building th…&& echo building the release notes && git push --force origin main  [push-ask]\n"
    );
}
