//! Hook-payload logs written by Gemini CLI, Cursor and Copilot CLI hooks (one host payload per
//! line, as a logging hook captures them): each line is detected as `hook` detects it,
//! rewritten into the common payload of its seam, and judged by the bundled library as `hook`
//! judges it. Fixtures in `engine/tests/data/hosts/` (sources in its `NOTICE.md`).

use std::path::PathBuf;

use seamguard_engine::readers::{EventReader, Item, ProblemKind, RecordedEvent};
use seamguard_engine::{Scope, load_dir};

use crate::support::{recorded_engine, root};

fn fixture(name: &str) -> PathBuf {
    root().join("engine/tests/data/hosts").join(name)
}

/// Every line of a fixture: `(line, dialect, seam, tool, verdict)` for an event judged by the
/// balanced library, `(line, "problem", kind, message, "")` for a line that is not replayed.
fn replay(name: &str) -> Vec<(usize, String, String, String, String)> {
    let loaded = load_dir(&root().join("policies"), Scope::Cli, 0);
    assert!(loaded.iter().all(|p| !p.has_errors()));
    let engine = recorded_engine(loaded);
    EventReader::open(&fixture(name))
        .map(|item| match item {
            Item::Event(RecordedEvent {
                line,
                dialect,
                seam,
                payload,
                ..
            }) => {
                let verdict = engine.evaluate(seam, &payload, dialect).verdict();
                (
                    line,
                    dialect.name().to_string(),
                    seam.name().to_string(),
                    payload["tool_name"].as_str().unwrap_or("").to_string(),
                    verdict.name().to_string(),
                )
            }
            Item::Problem(p) => (
                p.line,
                "problem".into(),
                match p.kind {
                    ProblemKind::Skipped => "skipped".into(),
                    ProblemKind::Unreadable => "unreadable".into(),
                },
                p.message,
                String::new(),
            ),
        })
        .collect()
}

fn row(
    line: usize,
    dialect: &str,
    seam: &str,
    tool: &str,
    verdict: &str,
) -> (usize, String, String, String, String) {
    (
        line,
        dialect.into(),
        seam.into(),
        tool.into(),
        verdict.into(),
    )
}

#[test]
fn gemini_cli_hook_log_is_judged_as_hook_judges_it() {
    assert_eq!(
        replay("gemini-hooklog.jsonl"),
        [
            row(1, "gemini-cli", "session-start", "", "none"),
            row(2, "gemini-cli", "prompt-submit", "", "none"),
            row(
                3,
                "problem",
                "skipped",
                "unknown hook event `BeforeModel`: seamguard has no seam for it, no decision taken",
                ""
            ),
            row(4, "gemini-cli", "pre-tool", "run_shell_command", "deny"),
            row(5, "gemini-cli", "pre-tool", "read_file", "none"),
            row(6, "gemini-cli", "post-tool", "read_file", "none"),
            row(7, "gemini-cli", "stop", "", "none"),
        ]
    );
}

#[test]
fn cursor_hook_log_is_judged_as_hook_judges_it() {
    assert_eq!(
        replay("cursor-hooklog.jsonl"),
        [
            row(1, "cursor", "prompt-submit", "", "none"),
            row(2, "cursor", "pre-tool", "Shell", "deny"),
            row(3, "cursor", "pre-tool", "Read", "deny"),
            row(4, "cursor", "pre-tool", "mcp__postgres__query", "none"),
            row(
                5,
                "problem",
                "skipped",
                "unknown hook event `afterFileEdit`: seamguard has no seam for it, no decision taken",
                ""
            ),
            row(6, "cursor", "pre-tool", "Delete", "none"),
            row(7, "cursor", "stop", "", "none"),
        ]
    );
}

#[test]
fn copilot_cli_hook_log_is_judged_as_hook_judges_it() {
    assert_eq!(
        replay("copilot-hooklog.jsonl"),
        [
            row(1, "copilot-cli", "session-start", "", "none"),
            row(2, "copilot-cli", "prompt-submit", "", "none"),
            row(3, "copilot-cli", "pre-tool", "bash", "deny"),
            row(4, "copilot-cli", "pre-tool", "view", "none"),
            row(5, "copilot-cli", "post-tool", "view", "none"),
            row(
                6,
                "problem",
                "unreadable",
                "copilot-cli payload: the toolArgs of preToolUse are not a JSON string (EOF while parsing a string at line 1 column 15)",
                ""
            ),
            row(7, "copilot-cli", "session-end", "", "none"),
        ]
    );
}

#[test]
fn host_payloads_are_read_bare_wrapped_and_in_arrays() {
    // The same Cursor and Copilot payloads wrapped by a capture hook, and as a JSON array.
    let cursor = r#"{"conversation_id":"c","hook_event_name":"beforeShellExecution","command":"rm -rf ~","cwd":"/home/user/project"}"#;
    let copilot = r#"{"timestamp":1,"cwd":"/home/user/project","toolName":"bash","toolArgs":"{\"command\":\"rm -rf ~\"}"}"#;
    let texts = [
        format!("{{\"payload\":{cursor}}}\n{{\"payload\":{copilot}}}\n"),
        format!("[{cursor},\n{copilot}]\n"),
    ];
    for text in texts {
        let items: Vec<Item> =
            EventReader::from_reader("mem.jsonl", std::io::Cursor::new(text.into_bytes()))
                .collect();
        let got: Vec<(String, String, String)> = items
            .iter()
            .map(|i| match i {
                Item::Event(e) => (
                    e.dialect.name().to_string(),
                    e.payload["tool_name"].as_str().unwrap_or("").to_string(),
                    e.payload["tool_input"]["command"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                ),
                Item::Problem(p) => ("problem".into(), p.message.clone(), String::new()),
            })
            .collect();
        assert_eq!(
            got,
            [
                ("cursor".into(), "Shell".into(), "rm -rf ~".into()),
                ("copilot-cli".into(), "bash".into(), "rm -rf ~".into()),
            ]
        );
    }
}
