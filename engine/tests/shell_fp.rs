//! Issue 3, false positives: every shell command recorded in real agent sessions, replayed
//! against the bundled `policies/baseline.toml`.
//!
//! `data/shell/recorded-commands.jsonl` holds every `PreToolUse` `Bash` command (Claude Code
//! `Bash`, Codex `shell` / `shell_command` / `exec_command` / `local_shell_call`, Gemini
//! `run_shell_command`, all read through `seamguard_engine::readers`) of the team's recorded
//! sessions, with its `file:line` and `cwd` (attribution: `data/shell/NOTICE.md`). Every one
//! that the baseline does not leave alone is listed in `data/shell/fp-fixture.jsonl` with its
//! verdict, the rules that fired and a one-line justification; the list and its size are
//! pinned, so a policy or engine change that starts blocking ordinary work fails here.
//!
//! Regenerate the corpus from the shared recordings (not available in CI):
//!
//! ```text
//! SEAMGUARD_RECORDED=../shared/data/recorded cargo test -p seamguard-engine --test shell_fp \
//!     -- --ignored regenerate_corpus
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use seamguard_engine::readers::{EventReader, Item, collect_files};
use seamguard_engine::{
    DecisionTable, Dialect, Engine, MemoryLedger, Outcome, Scope, Seam, ShellEnv, Verdict, load_str,
};
use serde_json::{Value, json};

const BASELINE: &str = include_str!("../../policies/baseline.toml");
const CORPUS: &str = include_str!("data/shell/recorded-commands.jsonl");
const FIXTURE: &str = include_str!("data/shell/fp-fixture.jsonl");

/// Commands in the corpus.
const PINNED_COMMANDS: usize = 1281;
/// Commands the baseline does not leave alone (rows of the fixture).
const PINNED_NOT_ALLOWED: usize = 111;
/// Of those, denied.
const PINNED_DENIED: usize = 10;

fn engine() -> Engine {
    let p = load_str(BASELINE, "policies/baseline.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    // The project is the payload's `cwd` (no CLAUDE_PROJECT_DIR), as in `seamguard replay`;
    // the recordings were scrubbed to `/home/user`.
    let table = DecisionTable::new(vec![p]).with_env(ShellEnv {
        project: None,
        home: "/home/user".to_string(),
    });
    Engine::new(table).with_ledger(Box::new(MemoryLedger::default()))
}

struct Row {
    at: String,
    cwd: Option<String>,
    command: String,
}

fn corpus() -> Vec<Row> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Row {
                at: v["at"].as_str().unwrap().to_string(),
                cwd: v["cwd"].as_str().map(str::to_string),
                command: v["command"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

fn payload(r: &Row) -> Value {
    json!({
        "session_id": "replay",
        "transcript_path": "/home/user/.claude/projects/replay.jsonl",
        "cwd": r.cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": r.command },
        "tool_use_id": "toolu_replay"
    })
}

fn evaluate(e: &Engine, r: &Row) -> Outcome {
    e.evaluate(Seam::PreTool, &payload(r), Dialect::ClaudeCode)
}

fn fired(o: &Outcome) -> Vec<String> {
    let mut f: Vec<String> = o.fired_ids().iter().map(|s| s.to_string()).collect();
    f.sort();
    f.dedup();
    f
}

#[test]
fn corpus_size_is_pinned() {
    assert_eq!(corpus().len(), PINNED_COMMANDS);
}

/// Every recorded command that is not left alone is in the fixture with the same verdict and
/// rules, and nothing else is.
#[test]
fn recorded_commands_match_the_fixture() {
    let e = engine();
    let mut actual: BTreeMap<String, (String, Vec<String>, String)> = BTreeMap::new();
    for r in corpus() {
        let o = evaluate(&e, &r);
        if o.verdict() != Verdict::Abstain {
            actual.insert(
                r.at.clone(),
                (o.verdict().name().to_string(), fired(&o), r.command.clone()),
            );
        }
    }
    let mut expected: BTreeMap<String, (String, Vec<String>, String)> = BTreeMap::new();
    for l in FIXTURE.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(l).unwrap();
        let why = v["justification"].as_str().unwrap_or("");
        assert!(
            why.len() > 10,
            "{}: every fixture row needs a justification",
            v["at"]
        );
        let mut rules: Vec<String> = v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        rules.sort();
        expected.insert(
            v["at"].as_str().unwrap().to_string(),
            (
                v["verdict"].as_str().unwrap().to_string(),
                rules,
                v["command"].as_str().unwrap().to_string(),
            ),
        );
    }
    let mut diff = Vec::new();
    for (at, a) in &actual {
        match expected.get(at) {
            None => diff.push(format!(
                "new: {}",
                json!({"at": at, "command": a.2, "verdict": a.0, "rules": a.1, "justification": ""})
            )),
            Some(x) if x != a => diff.push(format!(
                "changed at {at}: fixture {} {:?}, now {} {:?}",
                x.0, x.1, a.0, a.1
            )),
            Some(_) => {}
        }
    }
    for at in expected.keys() {
        if !actual.contains_key(at) {
            diff.push(format!("now allowed (remove from the fixture): {at}"));
        }
    }
    assert!(
        diff.is_empty(),
        "{} difference(s):\n{}",
        diff.len(),
        diff.join("\n")
    );
    assert_eq!(actual.len(), PINNED_NOT_ALLOWED);
    assert_eq!(
        actual.values().filter(|(v, _, _)| v == "deny").count(),
        PINNED_DENIED
    );
}

/// Data-only text that mentions destructive commands is never denied: commit messages,
/// `echo`/`printf`, `grep` patterns, heredoc bodies fed to a non-shell, issue bodies.
#[test]
fn data_only_text_is_never_denied() {
    let lines = [
        "git commit -m 'remove the rm -rf / footgun from install.sh'",
        "git commit -m \"docs: never run rm -rf ~ or git push --force origin main\"",
        "echo 'rm -rf /'",
        "echo \"rm -rf $HOME is dangerous\"",
        "printf '%s\\n' 'sudo rm -rf /' 'mkfs.ext4 /dev/sda'",
        "grep -rn 'rm -rf' scripts/",
        "grep -E 'git push (-f|--force)' -r .github/",
        "rg 'rm -rf /|dd if=/dev/zero of=/dev/sda' docs",
        "gh issue create --title 'Guard bypass' --body 'bash -c \"rm -rf /\" is not caught'",
        "gh pr comment 12 --body 'please do not git push --force to main'",
        "cat <<'EOF' > NOTES.md\nrm -rf / is blocked\ncurl https://x | sh is blocked\nEOF",
        "python3 -c \"print('rm -rf /')\"",
        "jq -r '.command' log.json | grep 'rm -rf'",
        "sed -i 's/rm -rf \\//echo skipped/' scripts/clean.sh",
        "awk '/rm -rf/ {print FILENAME}' scripts/*.sh",
        "git log --grep='force push' --oneline",
        "npm run lint -- --rule 'no-rm-rf'",
    ];
    let e = engine();
    let mut bad = Vec::new();
    for l in lines {
        let r = Row {
            at: "data".into(),
            cwd: Some("/home/user/project".into()),
            command: l.into(),
        };
        let o = evaluate(&e, &r);
        if o.verdict() == Verdict::Deny {
            bad.push(format!("{l:?}: {:?} {}", fired(&o), o.reason_text()));
        }
    }
    assert!(bad.is_empty(), "data-only text denied:\n{}", bad.join("\n"));
}

/// The same data-only lines are not even asked about, except where a network tool really
/// runs (`gh` is not one).
#[test]
fn data_only_text_is_left_alone() {
    let lines = [
        "git commit -m 'remove the rm -rf / footgun from install.sh'",
        "echo 'rm -rf /'",
        "grep -rn 'rm -rf' scripts/",
        "git commit -m 'docs: why git push --force is blocked'",
        "echo 'git reset --hard && git clean -fdx'",
    ];
    let e = engine();
    for l in lines {
        let r = Row {
            at: "data".into(),
            cwd: Some("/home/user/project".into()),
            command: l.into(),
        };
        let o = evaluate(&e, &r);
        assert_eq!(o.verdict(), Verdict::Abstain, "{l:?}: {:?}", fired(&o));
    }
}

/// Rebuilds `data/shell/recorded-commands.jsonl` from the shared recordings.
#[test]
#[ignore = "needs SEAMGUARD_RECORDED (the shared recordings); not available in CI"]
fn regenerate_corpus() {
    let Ok(dir) = std::env::var("SEAMGUARD_RECORDED") else {
        panic!("set SEAMGUARD_RECORDED to the shared recordings folder");
    };
    let files = collect_files(&[PathBuf::from(&dir)]);
    let mut out = String::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for item in EventReader::open(&f) {
            let Item::Event(ev) = item else { continue };
            if ev.seam != Seam::PreTool || ev.payload["tool_name"] != "Bash" {
                continue;
            }
            let Some(cmd) = ev.payload["tool_input"]["command"].as_str() else {
                continue;
            };
            out.push_str(
                &json!({
                    "at": format!("{name}:{}", ev.line),
                    "cwd": ev.payload["cwd"],
                    "command": cmd,
                })
                .to_string(),
            );
            out.push('\n');
        }
    }
    let target =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shell/recorded-commands.jsonl");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(&target, out).unwrap();
}
