//! `seamguard replay` and `seamguard explain` end to end on the bundled recorded sessions.

use std::process::Output;

use serde_json::Value;

use crate::support::root;

fn seamguard(args: &[&str]) -> Output {
    crate::support::command()
        .args(args)
        .current_dir(root())
        .env("HOME", "/home/user")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("run seamguard")
}

/// [`seamguard`] with the space-separated words of `args`.
fn seamguard_words(args: &str) -> Output {
    seamguard(&args.split(' ').collect::<Vec<_>>())
}

/// The last component of a path in a JSON report.
fn file_name(path: &Value) -> String {
    path.as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn replay_json_report_on_the_bundled_sessions() {
    let o = seamguard_words("replay data/recorded --policy policies --format json");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = json_of(&o);
    assert_eq!(r["schema"], "seamguard.replay/1");
    // `--policy DIR`: the balanced library, one file per concern, in name order.
    let policies: Vec<&str> = r["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(policies.len() > 1, "{policies:?}");
    assert!(policies.is_sorted(), "{policies:?}");
    assert!(
        policies
            .iter()
            .all(|p| p.starts_with("policies/") && p.ends_with(".toml") && !p.contains("strict")),
        "{policies:?}"
    );
    let files: Vec<(String, String, u64)> = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                file_name(&f["path"]),
                f["format"].as_str().unwrap().to_string(),
                f["events"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, String, u64)> = [
        ("claude-1.jsonl", "claude-transcript", 562),
        ("claude-2.jsonl", "claude-transcript", 260),
        ("claude-3.jsonl", "claude-transcript", 66),
        ("claude-4.jsonl", "claude-transcript", 275),
        ("claude-5.jsonl", "claude-transcript", 640),
        ("codex-1.jsonl", "codex-rollout", 206),
        ("codex-2.jsonl", "codex-rollout", 161),
        ("codex-3.jsonl", "codex-rollout", 323),
        ("codex-4.jsonl", "codex-rollout", 87),
        ("codex-6.jsonl", "codex-rollout", 31),
        ("codex-7.jsonl", "codex-rollout", 59),
        ("gemini-1.json", "gemini-chat", 450),
        ("gemini-2.json", "gemini-chat", 237),
        ("hooklog-1.jsonl", "hook-log", 831),
        ("hooklog-2.jsonl", "hook-log", 797),
        ("hooklog-3.jsonl", "hook-log", 725),
        ("hooklog-4.jsonl", "hook-log", 52),
        ("hooklog-5.jsonl", "hook-log", 107),
        ("hooklog-6.jsonl", "hook-log", 20),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), *c))
    .collect();
    assert_eq!(files, want);
    assert_eq!(r["events"], 5889);
    assert!(r["problems"].as_array().unwrap().is_empty());
    assert!(r["diff"].is_null());
    // Every decision carries its recorded location and the rule that made it.
    for d in r["decisions"].as_array().unwrap() {
        assert!(d["line"].as_u64().unwrap() >= 1);
        assert!(!d["rules"].as_array().unwrap().is_empty(), "{d}");
    }
    assert!(r["never_fired"].as_array().unwrap().iter().all(|n| {
        let s = n["source"].as_str().unwrap();
        policies.iter().any(|p| s.starts_with(&format!("{p}:")))
    }));
}

#[test]
fn replay_baseline_diff_and_would_run() {
    let o = seamguard_words(
        "replay data/recorded --policy policies --policy tests/data/replay/strict.toml --baseline policies --format json",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = json_of(&o);
    assert_eq!(
        r["baseline_policies"].as_array().unwrap().len() + 1,
        r["policies"].as_array().unwrap().len()
    );
    let diff = &r["diff"];
    // 72 (issue 14): hooklog-1.jsonl:360, whose backquoted `InitProject()` runs nothing, is
    // left alone by both policy sets now.
    assert_eq!(diff["changed"], 72);
    let ev = diff["events"].as_array().unwrap();
    let codex = ev
        .iter()
        .find(|e| e["file"].as_str().unwrap().ends_with("codex-4.jsonl") && e["line"] == 102)
        .expect("the apply_patch deletion changes");
    assert_eq!(codex["baseline"]["verdict"], "none");
    assert_eq!(codex["policy"]["verdict"], "deny");
    assert_eq!(codex["dialect"], "codex");
    assert_eq!(codex["subject"], "apply_patch");
    // `run` rules are listed, never executed.
    let runs = r["would_run"].as_array().unwrap();
    // 20: `audit-shell` no longer fires on hooklog-1.jsonl:360, which was undecidable.
    assert_eq!(runs.len(), 20);
    assert!(
        runs.iter()
            .all(|x| x["command"] == "logger -t seamguard-audit")
    );

    let t = seamguard_words(
        "replay data/recorded/claude-2.jsonl --policy policies --policy tests/data/replay/strict.toml --baseline policies",
    );
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(
        text.contains("would run: logger -t seamguard-audit"),
        "{text}"
    );
    assert!(
        text.contains("changed against the baseline (4 event(s))"),
        "{text}"
    );
    assert!(
        !text.contains("\x1b["),
        "no colours when stdout is not a terminal"
    );
}

#[test]
fn replay_jsonl_and_fail_on() {
    let o = seamguard_words(
        "replay data/recorded/codex-4.jsonl --policy tests/data/replay/strict.toml --format jsonl --fail-on deny",
    );
    assert_eq!(o.status.code(), Some(1), "a deny with --fail-on deny");
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 88);
    assert!(lines[..87].iter().all(|l| l["type"] == "event"));
    assert_eq!(lines[87]["type"], "summary");
    assert_eq!(lines[87]["events"], 87);
    let ok = seamguard_words(
        "replay data/recorded/codex-6.jsonl --policy tests/data/replay/strict.toml --fail-on ask",
    );
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn replay_reports_damaged_files_and_keeps_going() {
    let dir = std::env::temp_dir().join(format!("seamguard-replay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = r#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"}}"#;
    std::fs::write(
        dir.join("a.jsonl"),
        format!("{ok}\nnot json\n{ok}\n{{\"trunc"),
    )
    .unwrap();
    std::fs::write(dir.join("b.jsonl"), [0u8, 159, 146, 150, 0, 1]).unwrap();
    let o = seamguard(&[
        "replay",
        dir.to_str().unwrap(),
        "--policy",
        "policies",
        "--format",
        "json",
    ]);
    assert!(o.status.success());
    let r = json_of(&o);
    assert_eq!(r["events"], 2);
    let probs: Vec<(String, u64)> = r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (file_name(&p["file"]), p["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        probs,
        [
            ("a.jsonl".to_string(), 2),
            ("a.jsonl".to_string(), 4),
            ("b.jsonl".to_string(), 1)
        ]
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("a.jsonl:2: error: invalid JSON"),
        "{stderr}"
    );
    // Nothing readable at all (a missing path, a binary file): exit 2, not a clean replay.
    let missing = dir.join("missing.jsonl");
    for input in [missing.as_path(), dir.join("b.jsonl").as_path()] {
        let o = seamguard(&["replay", input.to_str().unwrap(), "--policy", "policies"]);
        assert_eq!(o.status.code(), Some(2), "{input:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.ends_with(
                "seamguard: no event could be read from the recordings given (1 unreadable record(s)); nothing was replayed\n"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("the rest was replayed"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_file_line_shows_rules_predicates_and_both_encodings() {
    let o = seamguard_words("explain data/recorded/hooklog-3.jsonl:495 --policy policies --all");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for want in [
        "rule remote-branch-delete-needs-approval",
        "FIRES",
        "matcher Bash: ✓ matches",
        "simple commands seen:",
        "merged verdict: ask",
        "claude-code stdout (ask; exit 0): {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\"",
        "codex stdout (ask; exit 0): {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\"",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }

    // A Codex rollout line, as JSON.
    let o = seamguard_words(
        "explain data/recorded/codex-4.jsonl:102 --policy tests/data/replay/strict.toml --format json",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json_of(&o);
    let e = &v[0];
    assert_eq!(e["seam"], "pre-tool");
    assert_eq!(e["dialect"], "codex");
    assert_eq!(e["verdict"], "deny");
    assert_eq!(e["payload"]["tool_name"], "apply_patch");
    let stdout = e["encoded"]["codex"]["stdout"].as_str().unwrap();
    assert!(
        stdout.contains("Deleting files through apply_patch is not allowed [no-patch-deletes]")
    );
    let rule = e["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "no-patch-deletes")
        .unwrap();
    assert_eq!(rule["matcher_matched"], true);
    assert_eq!(rule["when"]["held"], "yes");

    // --event FILE: one payload.
    let dir = std::env::temp_dir().join(format!("seamguard-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("event.json");
    std::fs::write(
        &f,
        "{\n \"session_id\": \"s\", \"cwd\": \"/w\", \"hook_event_name\": \"PreToolUse\",\n \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"git push -f origin main\"}\n}\n",
    )
    .unwrap();
    let o = seamguard(&[
        "explain",
        "--event",
        f.to_str().unwrap(),
        "--policy",
        "policies",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("merged verdict: deny"), "{text}");
    assert!(text.contains("claude-code stdout (deny; exit 0)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
