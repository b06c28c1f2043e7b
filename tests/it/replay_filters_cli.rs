//! `seamguard replay` for people and CI: `--verdict`, `--rule` and `--only-changed`, the
//! grouped summary of changes against a `--baseline`, and `--format jsonl` (one compact object
//! per line, in file order), through the binary with the exact output pinned.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{Run, output_with_stdin};

const BASE: &str = r#"[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git", subcommand = "push" }
decision = "ask"
reason = "Pushes need approval"

[[rule]]
id = "env-deny"
seam = "pre-tool"
when.reads = { path_inside = ["**/.env"] }
decision = "deny"
reason = "No env files"
"#;

const NEW: &str = r#"[[rule]]
id = "push-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git", subcommand = "push" }
decision = "deny"
reason = "No pushes"

[[rule]]
id = "env-deny"
seam = "pre-tool"
when.reads = { path_inside = ["**/.env"] }
decision = "deny"
reason = "No env files"

[[rule]]
id = "install-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "npm", subcommand = "install" }
decision = "ask"
reason = "Installs need approval"
"#;

/// A hook-payload log of pre-tool calls of session `s1`.
fn session(calls: &[(&str, Value)]) -> String {
    calls
        .iter()
        .map(|(tool, input)| {
            json!({"session_id": "s1", "cwd": "/w", "hook_event_name": "PreToolUse",
                "tool_name": tool, "tool_input": input})
            .to_string()
                + "\n"
        })
        .collect()
}

/// A folder with `base.toml`, `new.toml` and the recording `session.jsonl`.
fn workdir() -> PathBuf {
    let dir = crate::support::workdir("replay-filters");
    std::fs::write(dir.join("base.toml"), BASE).unwrap();
    std::fs::write(dir.join("new.toml"), NEW).unwrap();
    std::fs::write(
        dir.join("session.jsonl"),
        session(&[
            ("Bash", json!({"command": "git push origin main"})),
            ("Bash", json!({"command": "ls -la"})),
            ("Bash", json!({"command": "npm install left-pad"})),
            ("Read", json!({"file_path": "/w/.env"})),
            ("Bash", json!({"command": "rm -rf build"})),
            ("Bash", json!({"command": "git push --force origin main"})),
        ]),
    )
    .unwrap();
    dir
}

fn seamguard(dir: &Path, args: &str) -> Run {
    let mut cmd = crate::support::command_in(dir, dir);
    cmd.args(args.split(' ')).env_remove("NO_COLOR");
    Run::utf8(output_with_stdin(&mut cmd, b""))
}

const COMPARE: &str = "replay session.jsonl --policy new.toml --baseline base.toml";

#[test]
fn the_grouped_changes_come_first() {
    let dir = workdir();
    let r = seamguard(&dir, COMPARE);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        "changes against the baseline: 3 of 6 event(s)
  ask → deny: 2
  none → ask: 1
changes per rule:
  push-ask  -2  (ask → deny: 2)
  push-deny  +2  (ask → deny: 2)
  install-ask  +1  (none → ask: 1)
replayed 6 events from 1 file(s) with 3 rule(s)
  session.jsonl: 6 events (hook-log)
events by seam: pre-tool 6
verdicts: ask 1, deny 3, none 2
interruptions: 4 of 6 pre-tool events = 666.7 per 1,000 (1 ask, 3 denies); 1 distinct concern = 166.7 per 1,000
rule hits:
       2  push-deny
       1  env-deny
       1  install-ask
decisions other than allow (4):
  session.jsonl:1  pre-tool Bash  deny  [push-deny]  git push origin main
      No pushes: git push origin main [push-deny]
  session.jsonl:3  pre-tool Bash  ask  [install-ask]  npm install left-pad
      Installs need approval: npm install left-pad [install-ask]
      effects: installs left-pad with npm (Bash: `npm install left-pad`)
  session.jsonl:4  pre-tool Read  deny  [env-deny]  /w/.env
      No env files: reads /w/.env (Read, argument `/file_path`) [env-deny]
      effects: reads /w/.env (Read, argument `/file_path`)
  session.jsonl:6  pre-tool Bash  deny  [push-deny]  git push --force origin main
      No pushes: git push --force origin main [push-deny]
rules that never fired: none
changed against the baseline (3 event(s)):
  baseline verdicts: ask 2, deny 1, none 3
  session.jsonl:1  pre-tool Bash  git push origin main
      baseline ask [push-ask]  ->  policy deny [push-deny]
  session.jsonl:3  pre-tool Bash  npm install left-pad
      baseline none []  ->  policy ask [install-ask]
  session.jsonl:6  pre-tool Bash  git push --force origin main
      baseline ask [push-ask]  ->  policy deny [push-deny]
"
    );
}

#[test]
fn rule_and_only_changed_select_events_and_everything_is_about_them() {
    let dir = workdir();
    // A rule that fires only with the baseline still selects the events it fired on.
    let r = seamguard(&dir, &format!("{COMPARE} --rule push-ask --only-changed"));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        "changes against the baseline: 2 of 2 event(s)
  ask → deny: 2
changes per rule:
  push-ask  -2  (ask → deny: 2)
  push-deny  +2  (ask → deny: 2)
replayed 6 events from 1 file(s) with 3 rule(s)
  session.jsonl: 6 events (hook-log)
selected 2 of 6 events (--rule push-ask --only-changed); the counts and lists below are about them
events by seam: pre-tool 2
verdicts: deny 2
interruptions: 4 of 6 pre-tool events = 666.7 per 1,000 (1 ask, 3 denies); 1 distinct concern = 166.7 per 1,000
rule hits:
       2  push-deny
selected events (2):
  session.jsonl:1  pre-tool Bash  deny  [push-deny]  git push origin main
      No pushes: git push origin main [push-deny]
  session.jsonl:6  pre-tool Bash  deny  [push-deny]  git push --force origin main
      No pushes: git push --force origin main [push-deny]
rules that never fired: none
changed against the baseline (2 event(s)):
  baseline verdicts: ask 2
  session.jsonl:1  pre-tool Bash  git push origin main
      baseline ask [push-ask]  ->  policy deny [push-deny]
  session.jsonl:6  pre-tool Bash  git push --force origin main
      baseline ask [push-ask]  ->  policy deny [push-deny]
"
    );
    // `--fail-on` is about the selected events: the denies of the pushes are left out.
    let r = seamguard(
        &dir,
        "replay session.jsonl --policy new.toml --rule install-ask --fail-on deny",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    let r = seamguard(
        &dir,
        "replay session.jsonl --policy new.toml --rule install-ask --fail-on ask",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
}

#[test]
fn a_verdict_filter_lists_allowed_events_too() {
    let dir = workdir();
    let r = seamguard(
        &dir,
        "replay session.jsonl --policy new.toml --verdict none,ask",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        "replayed 6 events from 1 file(s) with 3 rule(s)
  session.jsonl: 6 events (hook-log)
selected 3 of 6 events (--verdict none,ask); the counts and lists below are about them
events by seam: pre-tool 3
verdicts: ask 1, none 2
interruptions: 4 of 6 pre-tool events = 666.7 per 1,000 (1 ask, 3 denies); 1 distinct concern = 166.7 per 1,000
rule hits:
       1  install-ask
selected events (3):
  session.jsonl:2  pre-tool Bash  none  []  ls -la
  session.jsonl:3  pre-tool Bash  ask  [install-ask]  npm install left-pad
      Installs need approval: npm install left-pad [install-ask]
      effects: installs left-pad with npm (Bash: `npm install left-pad`)
  session.jsonl:5  pre-tool Bash  none  []  rm -rf build
rules that never fired: none
"
    );
}

#[test]
fn jsonl_is_one_compact_object_per_line_in_file_order() {
    let dir = workdir();
    // A second recording (another session): files may be replayed side by side, their lines
    // still come in file order.
    std::fs::write(
        dir.join("z-other.jsonl"),
        session(&[("Bash", json!({"command": "git push"}))]).replace("\"s1\"", "\"s2\""),
    )
    .unwrap();
    let r = seamguard(
        &dir,
        "replay session.jsonl z-other.jsonl --policy new.toml --baseline base.toml --verdict deny --format jsonl",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let lines: Vec<&str> = r.stdout.lines().collect();
    for l in &lines {
        let v: Value = serde_json::from_str(l).unwrap();
        // Compact: the line is exactly what serde_json writes without indentation.
        assert_eq!(*l, v.to_string());
    }
    let brief: Vec<(String, Value, Value, Value)> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["type"].as_str().unwrap().to_string(),
                v["file"].clone(),
                v["line"].clone(),
                v["baseline"]["verdict"].clone(),
            )
        })
        .collect();
    let ev = |f: &str, l: u64, b: &str| ("event".to_string(), json!(f), json!(l), json!(b));
    assert_eq!(
        brief,
        [
            ev("session.jsonl", 1, "ask"),
            ev("session.jsonl", 4, "deny"),
            ev("session.jsonl", 6, "ask"),
            ev("z-other.jsonl", 1, "ask"),
            ("summary".to_string(), Value::Null, Value::Null, Value::Null),
        ]
    );
    let summary: Value = serde_json::from_str(lines[4]).unwrap();
    assert_eq!(
        summary,
        json!({
            "type": "summary", "events": 7, "events_by_seam": {"pre-tool": 4},
            "verdicts": {"deny": 4}, "rule_hits": {"env-deny": 1, "push-deny": 3},
            "changed": 3,
            "changes": {
                "transitions": [{"from": "ask", "to": "deny", "events": 3}],
                "rules": [
                    {"rule": "push-ask", "added": 0, "removed": 3,
                     "transitions": [{"from": "ask", "to": "deny", "events": 3}]},
                    {"rule": "push-deny", "added": 3, "removed": 0,
                     "transitions": [{"from": "ask", "to": "deny", "events": 3}]},
                ],
            },
            "selected": {"verdicts": ["deny"], "rules": [], "only_changed": false, "events": 4},
            "interruptions": {
                "approvals_modelled": true, "pre_tool_events": 7, "interruptions": 5, "asks": 1,
                "denies": 4, "approved": 0, "distinct_concerns": 1, "per_1000": 714.3,
                "distinct_concerns_per_1000": 142.9
            },
        })
    );
}

#[test]
fn the_json_report_carries_the_selection_and_the_grouped_changes() {
    let dir = workdir();
    let r = seamguard(&dir, &format!("{COMPARE} --only-changed --format json"));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (&v["events"], &v["selected"]),
        (
            &json!(6),
            &json!({"verdicts": [], "rules": [], "only_changed": true, "events": 3})
        )
    );
    assert_eq!(v["diff"]["against"], "baseline");
    assert_eq!(
        v["diff"]["changes"]["transitions"],
        json!([
            {"from": "ask", "to": "deny", "events": 2},
            {"from": "none", "to": "ask", "events": 1},
        ])
    );
    let decisions: Vec<(u64, &str)> = v["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(decisions, [(1, "deny"), (3, "ask"), (6, "deny")]);
}

#[test]
fn bad_filters_are_refused_before_anything_is_read() {
    let dir = workdir();
    for (args, err) in [
        (
            "replay session.jsonl --policy new.toml --verdict maybe",
            "seamguard: --verdict maybe: expected one of none, allow, ask, defer, deny, block, redact, continue\n",
        ),
        (
            "replay session.jsonl --policy new.toml --rule push-nope",
            "seamguard: --rule push-nope: no such rule in the policies or the baseline\n",
        ),
        (
            "replay session.jsonl --policy new.toml --only-changed",
            "seamguard: --only-changed compares with a baseline: give --baseline, or replay an audit log (its recorded decisions are the baseline)\n",
        ),
    ] {
        let r = seamguard(&dir, args);
        assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (2, "", err));
    }
}
