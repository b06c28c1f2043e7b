//! `seamguard init --agent gemini-cli|cursor|copilot-cli` end to end: the built binary in
//! temporary project and home folders, on existing hooks files of each host (test data and
//! its sources in `tests/data/hosts-init/NOTICE`).
//!
//! Each host: the existing file keeps every byte (the result is pinned), a second run changes
//! nothing, `--undo` restores the original bytes, `--dry-run` writes nothing; the hook command
//! names the host's dialect; Cursor's gating entries fail closed; Copilot CLI gets its own file.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::init_world::{World, ok};

/// The test data folder.
fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hosts-init")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// How these tests run the binary in a [`World`].
trait Init {
    fn run_with(&self, args: &[&str], env: &[(&str, PathBuf)]) -> Output;
    fn run(&self, args: &[&str]) -> Output;
}

impl Init for World {
    /// [`World::command`] with `env` set too; `init` with `--no-server`.
    fn run_with(&self, args: &[&str], env: &[(&str, PathBuf)]) -> Output {
        let mut cmd = self.command(args);
        // These tests pin the `seamguard hook` command; init_cli.rs tests the default.
        cmd.args(if args.first() == Some(&"init") {
            &["--no-server"][..]
        } else {
            &[]
        });
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("run seamguard")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }
}

/// Init on an existing hooks file: pinned result, idempotent, undone byte for byte, and a dry
/// run that writes nothing. Returns the world after the install.
fn round_trip(agent: &str, rel: &str, original: &str, expected: &str) -> World {
    let w = World::new(true);
    w.write(rel, original);
    let before = w.snapshot();
    let dry = ok(&w.run(&["init", "--agent", agent, "--dry-run"]));
    assert_eq!(w.snapshot(), before, "--dry-run wrote something");
    let short = rel.trim_start_matches("project/");
    assert!(
        dry.contains(&format!("--- a/{short}\n+++ b/{short}\n")),
        "{dry}"
    );
    assert!(dry.contains("dry run: nothing was written"), "{dry}");

    let out = ok(&w.run(&["init", "--agent", agent]));
    assert!(
        out.contains(&format!(
            "{short}: added `seamguard hook --dialect {agent}` for "
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("(backup: {short}.seamguard-backup)")),
        "{out}"
    );
    assert_eq!(w.read(rel), expected);
    assert_eq!(
        std::fs::read(w.path(&format!("{rel}.seamguard-backup"))).expect("backup"),
        original.as_bytes()
    );

    let installed = w.snapshot();
    let again = ok(&w.run(&["init", "--agent", agent]));
    assert!(
        again.contains(&format!("{short}: already installed")),
        "{again}"
    );
    assert!(
        again.contains("already installed: nothing to do"),
        "{again}"
    );
    assert_eq!(w.snapshot(), installed, "the second run changed files");

    let undone = ok(&w.run(&["init", "--undo"]));
    assert!(
        undone.contains(&format!("restored {short} from {short}.seamguard-backup")),
        "{undone}"
    );
    assert_eq!(w.snapshot(), before, "--undo left something behind");
    ok(&w.run(&["init", "--agent", agent]));
    w
}

#[test]
fn cursor_hooks_file_keeps_every_byte_and_fails_closed() {
    let original = data("cursor-hooks.json");
    let w = round_trip(
        "cursor",
        "project/.cursor/hooks.json",
        &original,
        &data("cursor-hooks.expected.json"),
    );
    let doc = w.json("project/.cursor/hooks.json");
    assert_eq!(doc["version"], 1);
    let ours = |event: &str| -> Value {
        doc["hooks"][event]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .find(|e| e["command"] == "seamguard hook --dialect cursor")
            })
            .cloned()
            .unwrap_or_else(|| panic!("no seamguard entry for {event}"))
    };
    for gating in [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
    ] {
        assert_eq!(
            ours(gating),
            json!({"command": "seamguard hook --dialect cursor", "failClosed": true})
        );
    }
    for other in [
        "postToolUse",
        "beforeSubmitPrompt",
        "stop",
        "sessionStart",
        "sessionEnd",
    ] {
        assert_eq!(
            ours(other),
            json!({"command": "seamguard hook --dialect cursor"})
        );
    }
    // The user's own entries are where they were.
    assert_eq!(
        doc["hooks"]["beforeReadFile"][0],
        json!({"command": "node .cursor/hooks/guard-read.mjs", "failClosed": true})
    );
    assert_eq!(
        doc["hooks"]["afterFileEdit"],
        json!([{"command": "node .cursor/hooks/audit.mjs"}])
    );
}

#[test]
fn gemini_settings_with_comments_keep_every_byte() {
    let w = round_trip(
        "gemini-cli",
        "project/.gemini/settings.json",
        &data("gemini-settings.json"),
        &data("gemini-settings.expected.json"),
    );
    let text = w.read("project/.gemini/settings.json");
    assert!(text.starts_with(
        "{\n  // Gemini CLI reads its settings with comments allowed.\n  \"theme\": \"GitHub\",\n"
    ));
    assert_eq!(
        text.matches("seamguard hook --dialect gemini-cli").count(),
        8
    );
    // (status exits 1 here: the tested binary lives in a build folder.)
    let out = w.run(&["status", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("status json");
    let gemini = v["agents"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["agent"] == "gemini-cli"))
        .expect("gemini in status");
    assert_eq!(gemini["installed"], true);
    assert_eq!(gemini["missing_events"], json!([]));
}

#[test]
fn copilot_gets_its_own_file_and_leaves_the_others_alone() {
    let w = World::new(true);
    let other = data("copilot-other.json");
    w.write("project/.github/hooks/banner.json", &other);
    let before = w.snapshot();
    let out = ok(&w.run(&["init", "--agent", "copilot-cli"]));
    assert!(
        out.contains(".github/hooks/seamguard.json: added `seamguard hook --dialect copilot-cli` for 5 event(s): preToolUse, postToolUse, userPromptSubmitted, sessionStart, sessionEnd\n"),
        "{out}"
    );
    assert!(
        out.contains("warning: if the seamguard hook times out, Copilot CLI still runs the call"),
        "{out}"
    );
    assert_eq!(w.read("project/.github/hooks/banner.json"), other);
    let handler = json!([{"type": "command", "bash": "seamguard hook --dialect copilot-cli"}]);
    assert_eq!(
        w.json("project/.github/hooks/seamguard.json"),
        json!({"version": 1, "hooks": {
            "preToolUse": handler, "postToolUse": handler, "userPromptSubmitted": handler,
            "sessionStart": handler, "sessionEnd": handler,
        }})
    );
    let installed = w.snapshot();
    ok(&w.run(&["init", "--agent", "copilot-cli"]));
    assert_eq!(w.snapshot(), installed);
    let undone = ok(&w.run(&["init", "--undo"]));
    assert!(
        undone.contains("removed .github/hooks/seamguard.json"),
        "{undone}"
    );
    assert_eq!(w.snapshot(), before);
}

#[test]
fn copilot_events_hooked_in_another_file_are_left_out() {
    let w = World::new(true);
    w.write(
        "project/.github/hooks/guard.json",
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"seamguard hook --dialect copilot-cli"}]}}"#,
    );
    let out = ok(&w.run(&["init", "--agent", "copilot-cli"]));
    assert!(
        out.contains(
            "for 4 event(s): postToolUse, userPromptSubmitted, sessionStart, sessionEnd\n"
        ),
        "{out}"
    );
    let doc = w.json("project/.github/hooks/seamguard.json");
    assert!(doc["hooks"].get("preToolUse").is_none(), "{doc}");
}

#[test]
fn user_scope_goes_to_the_hosts_home_folders() {
    let w = World::new(true);
    let copilot_home = w.path("copilot-home");
    for agent in ["cursor", "gemini-cli", "copilot-cli"] {
        ok(&w.run_with(
            &["init", "--user", "--agent", agent],
            &[("COPILOT_HOME", copilot_home.clone())],
        ));
    }
    assert_eq!(
        w.json("home/.cursor/hooks.json")["hooks"]["beforeShellExecution"],
        json!([{"command": "seamguard hook --dialect cursor", "failClosed": true}])
    );
    assert_eq!(
        w.json("home/.gemini/settings.json")["hooks"]["BeforeTool"],
        json!([{"hooks": [{"type": "command", "command": "seamguard hook --dialect gemini-cli"}]}])
    );
    assert_eq!(
        w.json("copilot-home/hooks/seamguard.json")["hooks"]["preToolUse"],
        json!([{"type": "command", "bash": "seamguard hook --dialect copilot-cli"}])
    );
    assert!(!w.path("project/.cursor").exists());
    assert!(!w.path("project/.seamguard").exists());
}

#[test]
fn a_cursor_entry_without_fail_closed_is_reported() {
    let w = World::new(true);
    let hand = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      { \"command\": \"seamguard hook --dialect cursor\" }\n    ]\n  }\n}\n";
    w.write("project/.cursor/hooks.json", hand);
    let out = ok(&w.run(&["init", "--agent", "cursor"]));
    assert!(
        out.contains("warning: if the seamguard hook fails (crash, timeout, missing binary), Cursor still runs the call: a seamguard entry of .cursor/hooks.json has no \"failClosed\": true"),
        "{out}"
    );
    // The hand-written entry is kept as it was; the other events get theirs.
    let doc = w.json("project/.cursor/hooks.json");
    assert_eq!(
        doc["hooks"]["beforeShellExecution"],
        json!([{"command": "seamguard hook --dialect cursor"}])
    );
    assert_eq!(
        doc["hooks"]["preToolUse"],
        json!([{"command": "seamguard hook --dialect cursor", "failClosed": true}])
    );
}

#[test]
fn a_new_cursor_file_gets_the_version_and_invalid_json_is_refused() {
    let w = World::new(true);
    ok(&w.run(&["init", "--agent", "cursor"]));
    let doc = w.json("project/.cursor/hooks.json");
    assert_eq!(doc["version"], 1);
    assert_eq!(
        doc["hooks"]
            .as_object()
            .map(|h| h.keys().cloned().collect::<Vec<_>>()),
        Some(
            [
                "preToolUse",
                "beforeShellExecution",
                "beforeMCPExecution",
                "beforeReadFile",
                "postToolUse",
                "beforeSubmitPrompt",
                "stop",
                "sessionStart",
                "sessionEnd"
            ]
            .map(String::from)
            .to_vec()
        )
    );
    let w = World::new(true);
    // Cursor reads hooks.json as strict JSON: a comment is an error, and nothing is written.
    w.write(
        "project/.cursor/hooks.json",
        "{\n  // no\n  \"version\": 1\n}\n",
    );
    let before = w.snapshot();
    let out = w.run(&["init", "--agent", "cursor"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(".cursor/hooks.json:2:3: not valid JSON"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(w.snapshot(), before);
}
