//! The calls read out of code-mode JavaScript. The shapes come from the Codex source
//! (openai/codex): its tests write `exec` input as `text(await tools.update_plan({plan:[…]}))`
//! (`codex-rs/core/tests/suite/…` `code_mode_nested_tools_must_obtain_their_own_admission`),
//! `// @exec: {"yield_time_ms": 1000}\nawait tools.apply_patch("*** Begin Patch…")`
//! (`code_mode_nested_denial_completes_blocked_without_follow_up_or_error`) and
//! `Promise.all([tools.test_sync_tool(args), tools.test_sync_tool(args)])`
//! (`code_mode_nested_tool_calls_can_run_in_parallel`); models write unquoted and quoted keys
//! and either quote style (`{cmd:"npm test","workdir":"/repo/b","yield_time_ms":30000}`).

use super::*;
use serde_json::json;

fn call(tool_name: &str, nested: &str, tool_input: Value, workdir: Option<&str>) -> InnerCall {
    InnerCall {
        nested: nested.into(),
        tool_name: tool_name.into(),
        tool_input,
        workdir: workdir.map(str::to_string),
    }
}

fn causes(code: &str) -> Vec<String> {
    unwrap(code)
        .unresolved
        .into_iter()
        .map(|u| u.cause)
        .collect()
}

#[test]
fn exec_command_with_quoted_and_unquoted_keys() {
    let u = unwrap(
        r#"const r = await tools.exec_command({cmd:"npm test","workdir":"/repo/b","yield_time_ms":30000});
text(r.output);"#,
    );
    assert_eq!(
        u.calls,
        [call(
            "Bash",
            "exec_command",
            json!({"command": "npm test"}),
            Some("/repo/b")
        )]
    );
    assert!(u.unresolved.is_empty());
    let u = unwrap("await tools.exec_command({ cmd: 'ls -la', workdir: '/repo', tty: false })");
    assert_eq!(
        u.calls,
        [call(
            "Bash",
            "exec_command",
            json!({"command": "ls -la"}),
            Some("/repo")
        )]
    );
}

#[test]
fn apply_patch_after_the_pragma_line() {
    let code = "// @exec: {\"yield_time_ms\": 1000}\nawait tools.apply_patch(\"*** Begin Patch\\n*** Add File: code_mode_denied_patch.txt\\n+denied\\n*** End Patch\\n\");";
    let u = unwrap(code);
    assert_eq!(
        u.calls,
        [call(
            "apply_patch",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: code_mode_denied_patch.txt\n+denied\n*** End Patch\n"}),
            None
        )]
    );
    assert!(u.unresolved.is_empty());
}

#[test]
fn other_tools_keep_their_name_and_arguments() {
    let u = unwrap(
        r#"text(await tools.update_plan({plan:[{step:"step",status:"in_progress"}]}));
const f = await tools.mcp__fs__read_text_file({ path: "/etc/hosts", head: -1 });"#,
    );
    assert_eq!(
        u.calls,
        [
            call(
                "update_plan",
                "update_plan",
                json!({"plan": [{"step": "step", "status": "in_progress"}]}),
                None
            ),
            call(
                "mcp__fs__read_text_file",
                "mcp__fs__read_text_file",
                json!({"path": "/etc/hosts", "head": -1}),
                None
            ),
        ]
    );
}

#[test]
fn several_calls_in_promise_all_and_sequence() {
    let u = unwrap(
        r#"const [a, b] = await Promise.all([
  tools.exec_command({cmd: "cargo fmt --check", workdir: "/w"}),
  tools.exec_command({cmd: `cargo test -p engine`, workdir: "/w"}),
]);
if (a.exit_code === 0) { await tools["exec_command"]({cmd: "git status"}); }"#,
    );
    let cmds: Vec<&str> = u
        .calls
        .iter()
        .filter_map(|c| c.tool_input["command"].as_str())
        .collect();
    assert_eq!(
        cmds,
        ["cargo fmt --check", "cargo test -p engine", "git status"]
    );
    assert!(u.unresolved.is_empty());
}

#[test]
fn names_bound_once_resolve() {
    let u = unwrap(
        r#"const dir = "/repo";
const pkg = 'engine';
const cmd = "cargo test -p " + pkg;
await tools.exec_command({ cmd, workdir: dir });
await tools.exec_command({ cmd: `cd ${dir} && ls` });"#,
    );
    assert_eq!(
        u.calls,
        [
            call(
                "Bash",
                "exec_command",
                json!({"command": "cargo test -p engine"}),
                Some("/repo")
            ),
            call(
                "Bash",
                "exec_command",
                json!({"command": "cd /repo && ls"}),
                None
            ),
        ]
    );
}

#[test]
fn a_command_computed_at_run_time_is_unresolved_with_its_cause() {
    assert_eq!(
        causes("await tools.exec_command({cmd: x})"),
        ["code mode: the command of tools.exec_command is computed at run time: `cmd: x`"]
    );
    // A loop variable, a name bound twice, a parameter.
    assert_eq!(
        causes(r#"for (const f of ["a", "b"]) { await tools.exec_command({cmd: `cat ${f}`}); }"#),
        ["code mode: the command of tools.exec_command is computed at run time: `cmd: `cat ${f}``"]
    );
    assert_eq!(
        causes(r#"let cmd = "ls"; cmd = "rm -rf ~"; await tools.exec_command({cmd});"#),
        ["code mode: the command of tools.exec_command is computed at run time: `cmd`"]
    );
    assert_eq!(
        causes(
            r#"const cmd = "ls"; async function run(cmd) { return tools.exec_command({cmd}); } await run("rm -rf ~");"#
        ),
        ["code mode: the command of tools.exec_command is computed at run time: `cmd`"]
    );
    assert_eq!(
        causes(r#"await tools.exec_command({cmd: "ls", workdir: ws.root});"#),
        [
            "code mode: the working directory of tools.exec_command is computed at run time: `workdir: ws.root`"
        ]
    );
    assert_eq!(
        causes("await tools.apply_patch(patchText);"),
        ["code mode: the patch of tools.apply_patch is computed at run time: `patchText`"]
    );
    assert_eq!(
        causes(r#"await tools.exec_command({...opts, cmd: "ls"});"#),
        ["code mode: the input of tools.exec_command is computed at run time: `...opts`"]
    );
}

#[test]
fn output_settings_computed_at_run_time_leave_the_call_readable() {
    let u = unwrap(
        r#"await tools.exec_command({cmd: "make", yield_time_ms: wait * 2, max_output_tokens: budget});"#,
    );
    assert_eq!(
        u.calls,
        [call(
            "Bash",
            "exec_command",
            json!({"command": "make"}),
            None
        )]
    );
    assert!(u.unresolved.is_empty());
}

#[test]
fn tools_used_other_than_in_a_call_is_unresolved() {
    let u = unwrap(r#"const run = tools.exec_command; await run({cmd: "rm -rf ~"});"#);
    assert!(u.calls.is_empty());
    assert_eq!(
        u.unresolved,
        [Unresolved {
            cause:
                "code mode: `tools` is used other than in a direct tool call: `tools.exec_command`"
                    .into(),
            source: "const run = tools.exec_command;".into(),
        }]
    );
    assert_eq!(
        causes(r#"const name = pick(); await tools[name]({cmd: "ls"});"#),
        [
            "code mode: `tools` is used other than in a direct tool call: `await tools[name]({cmd: \"ls\"})`"
        ]
    );
    // Reading the source of an unresolved part again gives the same cause.
    assert_eq!(
        causes("const run = tools.exec_command;"),
        ["code mode: `tools` is used other than in a direct tool call: `tools.exec_command`"]
    );
}

#[test]
fn imported_and_destructured_tools_are_calls() {
    let u = unwrap(
        r#"import { exec_command, apply_patch as patch } from "tools.js";
await exec_command({cmd: "ls"});
const { exec_command: run } = tools;
await run({cmd: "pwd"});
await patch("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch");"#,
    );
    let got: Vec<(&str, &str)> = u
        .calls
        .iter()
        .map(|c| {
            (
                c.nested.as_str(),
                c.tool_input["command"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("exec_command", "ls"),
            ("exec_command", "pwd"),
            (
                "apply_patch",
                "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch"
            ),
        ]
    );
    assert!(u.unresolved.is_empty());
    assert_eq!(
        causes(r#"import { exec_command } from "tools.js"; const f = exec_command;"#),
        ["code mode: `exec_command` is used other than in a direct tool call: `exec_command`"]
    );
}

#[test]
fn code_that_does_not_parse_is_one_unresolved_part_and_no_calls() {
    let code = r#"await tools.exec_command({cmd: "ls"}"#;
    let u = unwrap(code);
    assert!(u.calls.is_empty());
    assert_eq!(u.unresolved.len(), 1);
    assert!(
        u.unresolved[0]
            .cause
            .starts_with("code mode: the JavaScript does not parse (line 1, column "),
        "{:?}",
        u.unresolved
    );
    assert_eq!(u.unresolved[0].source, code);
}

#[test]
fn pure_code_has_no_calls() {
    let u = unwrap("const x = [1, 2, 3].map(n => n * 2); text(JSON.stringify(x));");
    assert_eq!(u, Unwrapped::default());
}

#[test]
fn code_of_reads_the_raw_and_the_hook_shapes() {
    let js = "await tools.exec_command({cmd: 'ls'})";
    assert_eq!(code_of("exec", &json!(js)), Some(js));
    assert_eq!(code_of("exec", &json!({"command": js})), Some(js));
    assert_eq!(code_of("exec", &json!({"input": js})), Some(js));
    assert_eq!(code_of("exec", &json!({"command": js, "timeout": 5})), None);
    assert_eq!(code_of("exec_command", &json!(js)), None);
}

#[test]
fn inner_payload_runs_in_the_workdir() {
    let outer = json!({"session_id": "s", "cwd": "/home/u/app", "hook_event_name": "PreToolUse",
        "tool_name": "exec", "tool_use_id": "call_1", "tool_input": "…"});
    let c = call(
        "Bash",
        "exec_command",
        json!({"command": "ls"}),
        Some("sub"),
    );
    assert_eq!(
        inner_payload(&outer, &c, 2),
        json!({"session_id": "s", "cwd": "/home/u/app/sub", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_use_id": "call_1#2", "tool_input": {"command": "ls"}})
    );
    assert_eq!(c.label(), "tools.exec_command `ls`");
}
