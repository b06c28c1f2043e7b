//! Issue 7: the bundled library's `balanced` profile (`policies/*.toml`) replayed over every
//! real recorded session in `data/recorded/` (19 sessions, attribution in its `NOTICE.md`).
//!
//! Every event the library does not leave alone is listed in
//! `tests/data/library-replay.jsonl` with its verdict, the rules that fired and a one-line
//! justification (`why`). The list and its size are pinned: a policy or engine change that
//! starts flagging ordinary work fails here, and so does one that stops flagging something
//! that was flagged for a reason. An unjustified row is fixed in the policy, not here.
//!
//! After a deliberate change, regenerate the rows (existing justifications are kept; new rows
//! get `why = "TODO"`, which this test rejects until someone writes one):
//!
//! ```text
//! SEAMGUARD_REGENERATE=1 cargo test --test it -- library_replay::
//! ```
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use seamguard_engine::readers::{EventReader, Item, collect_files};
use seamguard_engine::{Engine, Scope, Verdict, load_dir};
use serde_json::{Value, json};

use crate::support::{output_with_stdin, recorded_engine, root};

const FIXTURE: &str = "tests/data/library-replay.jsonl";

/// Events read from `data/recorded/`.
const PINNED_EVENTS: usize = 5889;
/// Events the balanced library does not leave alone (rows of the fixture). Issue 14: a line
/// with a part seamguard cannot resolve asks once with its cause (`seamguard:unsure`)
/// instead of being denied by every guard: gemini-1.json:93, 99, 106 became asks, and
/// hooklog-1.jsonl:360 (a note whose Markdown backquotes `InitProject()`, which bash runs as
/// nothing) is left alone. Issue 26: the PowerShell lens reads codex-7.jsonl:159 (it asks;
/// :177 and :183 hand PowerShell a bash heredoc, which it refuses); codex-3.jsonl:1078 writes the app's `.env.local` (no longer denied).
const PINNED_FLAGGED: usize = 20;
/// Of those, denied.
const PINNED_DENIED: usize = 3;

/// The balanced library with a fixed path environment: the recordings were scrubbed to
/// `/home/user`, and the project is each payload's `cwd` (as `seamguard replay` does).
fn engine() -> Engine {
    let loaded = load_dir(&root().join("policies"), Scope::User, 0);
    for p in &loaded {
        assert!(!p.has_errors(), "{}: {:#?}", p.meta.file, p.diagnostics);
    }
    recorded_engine(loaded)
}

/// One flagged event: location, verdict, fired rule ids, subject.
type Flagged = (String, String, Vec<String>, String);

/// Every event not left alone, and the event count.
fn flagged() -> (Vec<Flagged>, usize) {
    let engine = engine();
    let mut out = Vec::new();
    let mut n = 0;
    for file in collect_files(&[root().join("data/recorded")]) {
        let name = file
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap();
        for item in EventReader::open(&file) {
            let Item::Event(ev) = item else { continue };
            n += 1;
            let o = engine.evaluate(ev.seam, &ev.payload, ev.dialect);
            if o.verdict() == Verdict::Abstain && o.halt.is_none() {
                continue;
            }
            let mut rules: Vec<String> = o.fired_ids().iter().map(|s| s.to_string()).collect();
            rules.sort();
            rules.dedup();
            let subject = ev
                .payload
                .pointer("/tool_input/command")
                .or_else(|| ev.payload.pointer("/tool_input/file_path"))
                .or_else(|| ev.payload.get("tool_name"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .chars()
                .take(120)
                .collect::<String>();
            out.push((
                format!("{name}:{}", ev.line),
                o.verdict().name().to_string(),
                rules,
                subject,
            ));
        }
    }
    (out, n)
}

fn fixture() -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(root().join(FIXTURE)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["at"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

#[test]
fn balanced_library_on_recorded_sessions_is_pinned_and_justified() {
    let (rows, events) = flagged();
    let fix = fixture();
    if std::env::var_os("SEAMGUARD_REGENERATE").is_some() {
        let mut text = String::new();
        for (at, verdict, rules, subject) in &rows {
            let why = fix
                .get(at)
                .and_then(|v| v["why"].as_str())
                .unwrap_or("TODO")
                .to_string();
            let line = json!({"at": at, "verdict": verdict, "rules": rules, "subject": subject, "why": why});
            text.push_str(&line.to_string());
            text.push('\n');
        }
        std::fs::write(root().join(FIXTURE), text).unwrap();
        return;
    }
    assert_eq!(events, PINNED_EVENTS, "events read from data/recorded");
    let mut problems = Vec::new();
    for (at, verdict, rules, _) in &rows {
        match fix.get(at) {
            None => problems.push(format!("{at}: {verdict} by {rules:?} is not in {FIXTURE}")),
            Some(v) => {
                if v["verdict"] != json!(verdict) || v["rules"] != json!(rules) {
                    problems.push(format!(
                        "{at}: now {verdict} by {rules:?}, fixture says {} by {}",
                        v["verdict"], v["rules"]
                    ));
                }
                let why = v["why"].as_str().unwrap_or("");
                if why.trim().is_empty() || why == "TODO" {
                    problems.push(format!("{at}: no justification"));
                }
            }
        }
    }
    for at in fix.keys() {
        if !rows.iter().any(|r| &r.0 == at) {
            problems.push(format!("{at}: in {FIXTURE} but now left alone"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(rows.len(), PINNED_FLAGGED, "flagged events");
    assert_eq!(
        rows.iter().filter(|r| r.1 == "deny").count(),
        PINNED_DENIED,
        "denied events"
    );
}

/// The fixture itself stays readable: one JSON object per line, sorted as the replay reads.
#[test]
fn fixture_rows_are_well_formed() {
    let text = std::fs::read_to_string(root().join(FIXTURE)).expect("fixture");
    for (i, l) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        for k in ["at", "verdict", "rules", "why"] {
            assert!(v.get(k).is_some(), "line {}: missing `{k}`", i + 1);
        }
    }
}

/// Issue 7: every rule of the library (balanced and strict) has at least one catching example
/// (`rules = [id]`) and one benign look-alike (`not_rules = [id]`), and every example passes.
#[test]
fn every_library_rule_has_a_catching_and_a_benign_example_and_all_pass() {
    let mut missing = Vec::new();
    for dir in ["policies", "policies/strict"] {
        for p in load_dir(&root().join(dir), Scope::User, 0) {
            assert!(!p.has_errors(), "{}: {:#?}", p.meta.file, p.diagnostics);
            for r in &p.rules {
                if !p.tests.iter().any(|t| t.rules.contains(&r.id)) {
                    missing.push(format!(
                        "{}: `{}` has no catching example",
                        p.meta.file, r.id
                    ));
                }
                if !p.tests.iter().any(|t| t.not_rules.contains(&r.id)) {
                    missing.push(format!("{}: `{}` has no benign example", p.meta.file, r.id));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // That every example passes: `library_examples_pass_whatever_the_callers_home_and_project`.
}

/// Every example of the library passes, and (issue 26) `seamguard test` is hermetic: the
/// examples give the same lines, whatever home, project and environment the caller has: a home under `/tmp` (a
/// CI container's), a `CLAUDE_PROJECT_DIR` elsewhere, no environment at all.
#[test]
fn library_examples_pass_whatever_the_callers_home_and_project() {
    let home = crate::support::fresh_dir("test-home", "tmp-home");
    let run = |cmd: &mut Command| {
        let out = cmd
            .args(["test", "policies", "policies/strict"])
            .current_dir(root())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let usual = run(crate::support::command()
        .env("HOME", "/home/user")
        .env_remove("CLAUDE_PROJECT_DIR"));
    assert_eq!(usual.0, Some(0), "{}", usual.1);
    assert!(
        usual.1.ends_with(" 0 failed, 0 policy error(s)\n"),
        "{}",
        usual.1
    );
    let elsewhere = run(crate::support::command()
        .env("HOME", &home)
        .env("CLAUDE_PROJECT_DIR", "/somewhere/else"));
    assert_eq!(elsewhere, usual);
    let bare = run(crate::support::command().env_clear());
    assert_eq!(bare, usual);
    // Nothing was written into the home.
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0);
    let _ = std::fs::remove_dir(&home);
}

/// The observe profile (`[policy] mode = "observe"`): the hook answers nothing, and the audit
/// log records what the library would have decided.
#[test]
fn observe_mode_decides_nothing_and_records_the_would_be_decision() {
    let dir = std::env::temp_dir().join(format!("sg-observe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string(root().join("policies/destructive.toml")).unwrap();
    let observed = src.replacen("[policy]\n", "[policy]\nmode = \"observe\"\n", 1);
    std::fs::write(dir.join("destructive.toml"), observed).unwrap();
    let audit = dir.join("audit.jsonl");
    let payload = json!({
        "session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "/home/user/project",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "sudo rm -rf /"}, "tool_use_id": "t1"
    });
    let out = output_with_stdin(
        crate::support::command()
            .args(["hook", "--dialect", "claude-code", "--policy"])
            .arg(&dir)
            .env("SEAMGUARD_AUDIT_LOG", &audit)
            .env("XDG_STATE_HOME", dir.join("state")),
        payload.to_string().as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"", "observe mode must not answer the host");
    let log = std::fs::read_to_string(&audit).unwrap();
    let result: Value = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "hook/result")
        .unwrap();
    assert_eq!(result["decision"], "none");
    assert_eq!(result["observed"]["decision"], "deny");
    assert_eq!(
        result["observed"]["rules"],
        json!([
            "no-recursive-delete-outside-project",
            "no-recursive-delete-of-root-or-home",
            "delete-outside-project-needs-approval",
            // `/` holds the project: its root and history go with it.
            "project-or-history-delete-needs-approval"
        ])
    );
    assert_eq!(result["tool_name"], "Bash");
    assert_eq!(result["subject"], "sudo rm -rf /");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 26: home protection holds wherever the home is. With `HOME` under `/tmp` (a CI
/// container, a sandbox) the scratch-folder exception for `/tmp` does not excuse deleting the
/// user's keys, start-up files or documents: the library answers as for a home in `/home`.
/// The rest of `/tmp` stays scratch space.
#[test]
fn home_protection_holds_for_a_home_under_tmp() {
    let state = crate::support::fresh_dir("home-tmp", "state");
    let tmp_home = PathBuf::from(format!("/tmp/seamguard-home-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp_home);
    std::fs::create_dir_all(&tmp_home).unwrap();
    let hook = |home: &Path, command: &str| {
        let payload = json!({
            "session_id": "s", "transcript_path": "/tmp/t.jsonl",
            "cwd": home.join("project"), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}
        });
        let out = output_with_stdin(
            crate::support::command()
                .args(["hook", "--policy", "policies"])
                .current_dir(root())
                .env("HOME", home)
                .env("XDG_STATE_HOME", &state)
                .env("XDG_CONFIG_HOME", state.join("config")),
            payload.to_string().as_bytes(),
        );
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let answer = |decision: &str, reason: &str| {
        (
            Some(0),
            format!(
                "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"{decision}\",\"permissionDecisionReason\":\"{reason}\"}}}}\n"
            ),
        )
    };
    for home in [Path::new("/home/user"), tmp_home.as_path()] {
        assert_eq!(
            hook(home, "rm -rf ~/.ssh"),
            answer(
                "deny",
                "Recursive delete outside the project directory: rm -rf ~/.ssh [no-recursive-delete-outside-project]"
            ),
            "{}",
            home.display()
        );
        assert_eq!(
            hook(home, "rm ~/.bashrc"),
            answer(
                "ask",
                "Deleting or moving away a file outside the project: rm ~/.bashrc [delete-outside-project-needs-approval]"
            ),
            "{}",
            home.display()
        );
        assert_eq!(
            hook(home, "rm -rf ~/Documents"),
            answer(
                "deny",
                "Recursive delete outside the project directory: rm -rf ~/Documents [no-recursive-delete-outside-project]"
            ),
            "{}",
            home.display()
        );
    }
    // Scratch space outside the home is still scratch space.
    for home in [Path::new("/home/user"), tmp_home.as_path()] {
        assert_eq!(
            hook(home, "rm -rf /tmp/build"),
            (Some(0), String::new()),
            "{}",
            home.display()
        );
    }
    // Nothing was written into the home.
    assert_eq!(std::fs::read_dir(&tmp_home).unwrap().count(), 0);
    let _ = std::fs::remove_dir(&tmp_home);
    let _ = std::fs::remove_dir_all(&state);
}
