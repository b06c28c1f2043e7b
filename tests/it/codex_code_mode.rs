//! Issue 26: Codex code mode. A code-mode `exec` call's JavaScript is read for the tool calls
//! it makes, each judged by the bundled library as the tool it is: in the engine (as a hook
//! given an `exec` call judges it), in replay (one event per inner call, at the line of the
//! `custom_tool_call`), and by `seamguard hook --dialect codex` end to end. `rm -rf ~` inside
//! code mode is still denied; `cargo test`, `ls` and `apply_patch` inside it pass; what cannot
//! be read asks once, with its cause.

use std::path::Path;

use crate::support::{Run, output_with_stdin, root};
use seamguard_engine::readers::{EventReader, Item};
use seamguard_engine::{
    DecisionTable, Dialect, Engine, MemoryLedger, Scope, Seam, ShellEnv, Verdict, load_dir,
};
use serde_json::{Value, json};

fn library() -> Engine {
    let loaded = load_dir(&root().join("policies"), Scope::User, 0);
    let env = ShellEnv::new(Some("/home/user/app".into()), "/home/user");
    Engine::new(DecisionTable::new(loaded).with_env(env))
        .with_ledger(Box::new(MemoryLedger::default()))
}

/// A Codex PreToolUse payload (HOOKS.md B2) for an `exec` call with `code`.
fn exec(code: &str) -> Value {
    json!({"session_id": "s1", "turn_id": "t1", "transcript_path": null,
        "cwd": "/home/user/app", "hook_event_name": "PreToolUse", "model": "gpt-5.5-codex",
        "permission_mode": "default", "tool_name": "exec", "tool_use_id": "call_1",
        "tool_input": code})
}

const RM_HOME: &str = "Recursive delete outside the project directory [no-recursive-delete-outside-project]; Recursive delete of /, a top-level system folder or a home folder [no-recursive-delete-of-root-or-home]: rm -rf ~";

#[test]
fn rm_rf_home_inside_code_mode_is_denied_naming_the_inner_call() {
    let e = library();
    let o = e.evaluate(
        Seam::PreTool,
        &exec(
            r#"const r = await tools.exec_command({cmd: "ls"});
await tools.exec_command({cmd: "rm -rf ~", workdir: "/home/user/app"});"#,
        ),
        Dialect::Codex,
    );
    assert_eq!(o.verdict(), Verdict::Deny);
    assert_eq!(
        o.reason_text(),
        format!("code mode, tools.exec_command `rm -rf ~`: {RM_HOME}")
    );
    // The same command as a plain Codex shell call gives the same reasons, without the prefix.
    let plain = crate::support::codex_bash("/home/user/app", "rm -rf ~");
    let p = e.evaluate(Seam::PreTool, &plain, Dialect::Codex);
    assert_eq!(p.reason_text(), RM_HOME);
}

#[test]
fn ordinary_work_inside_code_mode_passes() {
    let e = library();
    let o = e.evaluate(
        Seam::PreTool,
        &exec(
            "// @exec: {\"yield_time_ms\": 10000}\nconst [t, l] = await Promise.all([\n  tools.exec_command({cmd: \"cargo test\", workdir: \"/home/user/app\"}),\n  tools.exec_command({cmd: 'ls -la src'}),\n]);\nawait tools.apply_patch(\"*** Begin Patch\\n*** Update File: src/cli.rs\\n@@\\n-a\\n+b\\n*** End Patch\\n\");\ntext(t.output);",
        ),
        Dialect::Codex,
    );
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.reason_text(), "");
    assert!(o.fired.is_empty(), "{:?}", o.fired_ids());
}

#[test]
fn a_command_computed_at_run_time_asks_once_with_its_cause() {
    let e = library();
    let o = e.evaluate(
        Seam::PreTool,
        &exec(
            r#"await tools.exec_command({cmd: x});
for (const f of files) { await tools.exec_command({cmd: x}); }
await tools.exec_command({cmd: "cargo build"});"#,
        ),
        Dialect::Codex,
    );
    assert_eq!(o.verdict(), Verdict::Ask);
    assert_eq!(
        o.reason_text(),
        "code mode: the command of tools.exec_command is computed at run time: `cmd: x`: seamguard cannot check this part of the call, so it asks [seamguard:unsure]"
    );
    assert_eq!(o.fired_ids(), ["seamguard:unsure"]);
}

#[test]
fn only_the_codex_dialect_reads_exec_as_code_mode() {
    let e = library();
    let code = r#"await tools.exec_command({cmd: "rm -rf ~"});"#;
    let o = e.evaluate(Seam::PreTool, &exec(code), Dialect::ClaudeCode);
    // Another host's `exec` tool is not Codex code mode: its string input stays unreadable.
    assert_eq!(o.verdict(), Verdict::Ask);
    assert!(
        o.reason_text().starts_with(
            "the input of exec is a string, not an object: seamguard cannot check this part of the call, so it asks ("
        ),
        "{}",
        o.reason_text()
    );
}

/// One event of the replayed fixture: line, seam, tool name, tool use id, cwd, input, and the
/// library's verdict.
type Row = (usize, Seam, String, String, String, Value, Verdict);

#[test]
fn replay_reads_one_event_per_inner_call_at_the_line_of_the_exec_call() {
    let e = library();
    let file = root().join("tests/data/codex-code-mode/rollout.jsonl");
    let mut rows: Vec<Row> = Vec::new();
    let mut reasons = Vec::new();
    for item in EventReader::open(&file) {
        let Item::Event(ev) = item else {
            panic!("{item:?}");
        };
        if !matches!(ev.seam, Seam::PreTool | Seam::PostTool) {
            continue;
        }
        assert_eq!(ev.dialect, Dialect::Codex);
        let o = e.evaluate(ev.seam, &ev.payload, ev.dialect);
        let s = |k: &str| ev.payload[k].as_str().unwrap_or("").to_string();
        if !o.reason_text().is_empty() {
            reasons.push((ev.line, o.reason_text()));
        }
        rows.push((
            ev.line,
            ev.seam,
            s("tool_name"),
            s("tool_use_id"),
            s("cwd"),
            ev.payload["tool_input"].clone(),
            o.verdict(),
        ));
    }
    let app = "/home/user/app";
    let patch = "*** Begin Patch\n*** Update File: src/cli.rs\n@@\n     verbose: bool,\n+    json: bool,\n*** End Patch\n";
    let row = |line, seam, tool: &str, id: &str, input: Value, v| -> Row {
        (line, seam, tool.into(), id.into(), app.into(), input, v)
    };
    let (pre, post) = (Seam::PreTool, Seam::PostTool);
    let none = Verdict::Abstain;
    assert_eq!(
        rows,
        vec![
            row(
                4,
                pre,
                "Bash",
                "call_A1#1",
                json!({"command": "ls -la src"}),
                none
            ),
            row(
                5,
                post,
                "Bash",
                "call_A1#1",
                json!({"command": "ls -la src"}),
                none
            ),
            row(
                6,
                pre,
                "apply_patch",
                "call_A2#1",
                json!({"command": patch}),
                none
            ),
            row(
                6,
                pre,
                "Bash",
                "call_A2#2",
                json!({"command": "cargo fmt --check"}),
                none
            ),
            row(
                6,
                pre,
                "Bash",
                "call_A2#3",
                json!({"command": "cargo test --all"}),
                none
            ),
            row(
                7,
                post,
                "apply_patch",
                "call_A2#1",
                json!({"command": patch}),
                none
            ),
            row(
                7,
                post,
                "Bash",
                "call_A2#2",
                json!({"command": "cargo fmt --check"}),
                none
            ),
            row(
                7,
                post,
                "Bash",
                "call_A2#3",
                json!({"command": "cargo test --all"}),
                none
            ),
            row(
                8,
                pre,
                "exec",
                "call_A3",
                json!({"input": "tools.exec_command({cmd: `rm ${f}`})"}),
                Verdict::Ask
            ),
            row(
                9,
                post,
                "exec",
                "call_A3",
                json!({"input": "tools.exec_command({cmd: `rm ${f}`})"}),
                none
            ),
            row(
                10,
                pre,
                "Bash",
                "call_A4#1",
                json!({"command": "rm -rf ~"}),
                Verdict::Deny
            ),
            row(
                11,
                post,
                "Bash",
                "call_A4#1",
                json!({"command": "rm -rf ~"}),
                none
            ),
        ]
    );
    assert_eq!(
        reasons,
        [
            (
                8,
                "code mode: the command of tools.exec_command is computed at run time: `cmd: `rm ${f}``: seamguard cannot check this part of the call, so it asks [seamguard:unsure]".to_string()
            ),
            (10, RM_HOME.to_string()),
        ]
    );
}

#[test]
fn hook_denies_rm_rf_home_inside_code_mode_end_to_end() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("codex-code-mode-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let policy = root().join("policies/destructive.toml");
    let run = |code: &str| {
        let mut cmd = crate::support::command_in(&dir, Path::new("/home/user"));
        cmd.args(["hook", "--dialect", "codex", "--policy"])
            .arg(&policy);
        let payload = serde_json::to_vec(&exec(code)).unwrap();
        Run::utf8(output_with_stdin(&mut cmd, &payload))
    };
    let r = run(r#"await tools.exec_command({cmd: "rm -rf ~"});"#);
    assert_eq!(
        r.stdout,
        format!(
            "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"code mode, tools.exec_command `rm -rf ~`: {RM_HOME}\"}}}}\n"
        )
    );
    assert_eq!(r.code, 0);
    let r = run(r#"await tools.exec_command({cmd: "cargo test", workdir: "/home/user/app"});"#);
    assert_eq!((r.stdout.as_str(), r.code), ("", 0));
    let _ = std::fs::remove_dir_all(&dir);
}
