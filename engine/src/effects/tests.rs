//! Tests of the lens dispatch and of the file-tool, web and typed-input lenses.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use serde_json::{Value, json};

use super::*;

fn env() -> ShellEnv {
    ShellEnv {
        project: None,
        home: "/home/u".into(),
    }
}

/// Every effect of a call, displayed.
fn shown(tool: &str, input: Value) -> Vec<String> {
    let payload = json!({"cwd": "/w", "tool_name": tool, "tool_input": input});
    effects_of(&payload, &env())
        .list
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn file_tools_name_their_argument() {
    assert_eq!(
        shown("Read", json!({"file_path": "/w/.env"})),
        ["reads /w/.env (Read, argument `/file_path`)"]
    );
    assert_eq!(
        shown("Write", json!({"file_path": "/etc/hosts", "content": "x"})),
        ["writes /etc/hosts (Write, argument `/file_path`)"]
    );
    assert_eq!(
        shown(
            "NotebookEdit",
            json!({"notebook_path": "a.ipynb", "new_source": "x"})
        ),
        ["writes a.ipynb (NotebookEdit, argument `/notebook_path`)"]
    );
}

#[test]
fn a_search_filter_reads_what_it_selects() {
    assert_eq!(
        shown(
            "Grep",
            json!({"pattern": "KEY", "path": "/w", "glob": "**/.env*"})
        ),
        [
            "reads /w (Grep, argument `/path`)",
            "reads /w/.env* (Grep, argument `/glob`)"
        ]
    );
    assert_eq!(
        shown("Grep", json!({"pattern": "KEY"})),
        ["reads /w (Grep)"]
    );
    assert_eq!(
        shown(
            "Glob",
            json!({"pattern": "**/id_*", "path": "/home/u/.ssh"})
        ),
        [
            "reads /home/u/.ssh (Glob, argument `/path`)",
            "reads /home/u/.ssh/id_* (Glob, argument `/pattern`)"
        ]
    );
}

#[test]
fn a_patch_writes_adds_and_updates_and_deletes_moves() {
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+hello\n+world\n*** Update File: b.rs\n@@\n-x\n+y\n*** Move to: c.rs\n*** Delete File: d.txt\n*** End Patch\n";
    let payload =
        json!({"cwd": "/w", "tool_name": "apply_patch", "tool_input": {"command": patch}});
    let fx = effects_of(&payload, &env());
    let got: Vec<(EffectKind, String, Option<String>)> = fx
        .list
        .iter()
        .map(|e| {
            let content = match &e.what {
                What::Write { content, .. } => content.clone(),
                _ => None,
            };
            (
                e.kind(),
                e.path().map(|p| p.text.clone()).unwrap_or_default(),
                content,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                EffectKind::Write,
                "a.txt".into(),
                Some("hello\nworld".into())
            ),
            (EffectKind::Delete, "b.rs".into(), None),
            (EffectKind::Write, "c.rs".into(), Some("y".into())),
            (EffectKind::Delete, "d.txt".into(), None),
        ]
    );
    assert!(
        fx.list
            .iter()
            .all(|e| e.path().is_some_and(|p| p.cwd.as_deref() == Some("/w")))
    );
}

#[test]
fn web_fetch_sends_and_a_file_url_reads() {
    assert_eq!(
        shown(
            "WebFetch",
            json!({"url": "https://docs.rs/serde", "prompt": "p"})
        ),
        ["sends to https://docs.rs/serde (WebFetch, argument `/url`)"]
    );
    assert_eq!(
        shown(
            "WebFetch",
            json!({"url": "file:///home/u/.aws/credentials", "prompt": "p"})
        ),
        ["reads /home/u/.aws/credentials (WebFetch, argument `/url`)"]
    );
}

#[test]
fn typed_input_is_a_command_line_when_it_reads_as_one() {
    assert_eq!(
        shown(
            "write_stdin",
            json!({"session_id": 1, "chars": "cat ~/.ssh/id_rsa\n"})
        ),
        [
            "runs `cat ~/.ssh/id_rsa` (write_stdin: `cat ~/.ssh/id_rsa`)",
            "reads ~/.ssh/id_rsa (write_stdin: `cat ~/.ssh/id_rsa`)"
        ]
    );
    // Keystrokes and text for a REPL are not command lines nobody could see.
    assert!(shown("write_stdin", json!({"session_id": 1, "chars": "\u{3}"})).is_empty());
    assert!(
        shown(
            "write_stdin",
            json!({"session_id": 1, "chars": "print(len(xs))\n"})
        )
        .is_empty()
    );
    assert_eq!(
        shown("write_stdin", json!({"session_id": 1, "chars": "y\n"})),
        ["runs `y` (write_stdin: `y`)"]
    );
}

#[test]
fn events_without_a_tool_call_have_no_effects() {
    let payload = json!({"cwd": "/w", "hook_event_name": "UserPromptSubmit", "prompt": "rm -rf ~"});
    assert!(effects_of(&payload, &env()).list.is_empty());
}
