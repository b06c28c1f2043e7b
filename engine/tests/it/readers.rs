//! Recorded-session readers on payload logs and damaged inputs: hook-payload logs, their
//! wrappers and JSON arrays, bookkeeping records, unreadable lines, binary and missing files.

use seamguard_engine::Seam;
use seamguard_engine::readers::{EventReader, Format, Item, ProblemKind, ReadProblem};

use crate::replay::{CLAUDE, read_all, read_str};

#[test]
fn hook_logs_wrappers_and_arrays() {
    let pai = r#"{"source_app":"pai","session_id":"s","hook_event_type":"UserPromptSubmit","payload":{"session_id":"s","cwd":"/w","prompt":"hi"},"timestamp":1}"#;
    let (ev, pr) = read_str(pai);
    assert!(pr.is_empty(), "{pr:?}");
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].payload["hook_event_name"], "UserPromptSubmit");
    assert_eq!(ev[0].format, Format::HookLog);

    let arr = "[\n {\"session_id\":\"s\",\"hook_event_name\":\"Stop\"},\n {\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}\n]\n";
    let (ev, pr) = read_str(arr);
    assert!(pr.is_empty(), "{pr:?}");
    assert_eq!(
        ev.iter().map(|e| (e.line, e.seam)).collect::<Vec<_>>(),
        [(1, Seam::Stop), (2, Seam::PreTool)]
    );

    // A pretty-printed single payload (`explain --event FILE`).
    let one = "{\n  \"session_id\": \"s\",\n  \"hook_event_name\": \"PreToolUse\",\n  \"tool_name\": \"Bash\",\n  \"tool_input\": {\"command\": \"ls\"}\n}\n";
    let (ev, pr) = read_str(one);
    assert!(pr.is_empty(), "{pr:?}");
    assert_eq!(ev.len(), 1);
}

#[test]
fn claude_code_bookkeeping_records_are_read_quietly() {
    // `mode` and `file-history-delta` records (newer Claude Code versions) hold no tool call:
    // they are neither events nor problems.
    let text = concat!(
        r#"{"type":"mode","mode":"normal","sessionId":"s1"}"#,
        "\n",
        r#"{"type":"file-history-delta","messageId":"m1","snapshotMessageId":"m0","trackingPath":"src/a.rs","backup":null}"#,
        "\n",
        r#"{"type":"assistant","sessionId":"s1","cwd":"/p","uuid":"u1","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}"#,
        "\n",
    );
    let (ev, pr) = read_str(text);
    assert!(pr.is_empty(), "{pr:?}");
    assert_eq!(
        ev.iter().map(|e| (e.line, e.seam)).collect::<Vec<_>>(),
        [(3, Seam::SessionStart), (3, Seam::PreTool)]
    );
}

#[test]
fn damaged_input_is_reported_with_its_location_and_the_rest_is_read() {
    let ok = r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let text = format!(
        "{ok}\n{{\"session_id\": oops}}\n\n{{\"type\":\"mystery\",\"x\":1}}\n{{\"session_id\":\"s\",\"hook_event_name\":\"Setup\",\"trigger\":\"init\"}}\n{{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\"}}\n[1,2]\n{ok}\n{{\"session_id\":\"s\",\"hook_ev"
    );
    let (ev, pr) = read_str(&text);
    assert_eq!(ev.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 8]);
    let got: Vec<(usize, ProblemKind)> = pr.iter().map(|p| (p.line, p.kind)).collect();
    assert_eq!(
        got,
        [
            (2, ProblemKind::Unreadable),
            (4, ProblemKind::Skipped),
            (5, ProblemKind::Skipped),
            (6, ProblemKind::Unreadable),
            (7, ProblemKind::Skipped),
            (9, ProblemKind::Unreadable),
        ],
        "{pr:#?}"
    );
    assert!(pr[0].message.contains("invalid JSON"));
    assert!(pr[1].message.contains("unknown record type `mystery`"));
    assert!(pr[2].message.contains("Setup"));
    assert!(pr[3].message.contains("tool_name"));
    assert!(pr[5].message.contains("truncated"), "{}", pr[5].message);
    assert_eq!(
        pr[0].to_string().split(':').take(2).collect::<Vec<_>>(),
        ["mem.jsonl", "2"]
    );

    // Invalid UTF-8 on one line of a transcript.
    let mut bytes = CLAUDE.as_bytes().to_vec();
    bytes.extend_from_slice(b"{\"type\":\"user\",\"x\":\"\xff\xfe\"}\n");
    bytes.extend_from_slice(CLAUDE.lines().nth(1).unwrap_or_default().as_bytes());
    let items: Vec<Item> =
        EventReader::from_reader("bin.jsonl", std::io::Cursor::new(bytes)).collect();
    let problems: Vec<&ReadProblem> = items
        .iter()
        .filter_map(|i| match i {
            Item::Problem(p) => Some(p),
            Item::Event(_) => None,
        })
        .collect();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 11);
    assert!(problems[0].message.contains("UTF-8"));
    assert!(
        items
            .iter()
            .any(|i| matches!(i, Item::Event(e) if e.line == 12))
    );

    // Unknown Claude Code record types are skipped with a note, the rest is read.
    let (ev, pr) = read_str(
        "{\"type\":\"brand-new\",\"uuid\":\"x\",\"sessionId\":\"s\"}\n{\"type\":\"user\",\"sessionId\":\"s\",\"cwd\":\"/w\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n",
    );
    assert_eq!(pr.len(), 1);
    assert!(pr[0].line == 1 && pr[0].message.contains("brand-new"));
    assert_eq!(ev.len(), 2);

    // A truncated JSON array: the complete elements are read, the cut is reported.
    let (ev, pr) = read_str(&format!("[{ok},\n{ok},\n{{\"session_id\":\"s\",\"hook_"));
    assert_eq!(ev.len(), 2);
    assert_eq!(pr.len(), 1);
    assert_eq!(pr[0].line, 3);
    assert!(pr[0].message.contains("truncated"), "{}", pr[0].message);

    // A truncated Gemini chat (one JSON document).
    let (ev, pr) = read_str("{\n  \"sessionId\": \"g\",\n  \"messages\": [\n");
    assert!(ev.is_empty());
    assert_eq!(pr.len(), 1);
    assert!(pr[0].message.contains("truncated JSON document"));

    // Codex arguments that are not JSON: replayed with the raw text, noted.
    let (ev, pr) = read_str(
        "{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{oops\",\"call_id\":\"c\"}}\n",
    );
    assert_eq!(ev.len(), 1);
    assert_eq!(pr.len(), 1);
    assert_eq!(pr[0].kind, ProblemKind::Skipped);
}

#[test]
fn binary_and_missing_files_are_reported() {
    let dir = std::env::temp_dir().join(format!("seamguard-replay-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let bin = dir.join("image.jsonl");
    let mut bytes = vec![0x89u8, b'P', b'N', b'G', 0, 0, 0, 13];
    bytes.extend(std::iter::repeat_n(0u8, 64));
    let _ = std::fs::write(&bin, &bytes);
    let (ev, pr) = read_all(&bin);
    assert!(ev.is_empty());
    assert_eq!(pr.len(), 1);
    assert_eq!(pr[0].line, 1);
    assert!(pr[0].message.contains("binary"));
    let (ev, pr) = read_all(&dir.join("missing.jsonl"));
    assert!(ev.is_empty());
    assert_eq!(pr.len(), 1);
    assert!(pr[0].message.contains("cannot open"));
    let _ = std::fs::remove_dir_all(&dir);
}
