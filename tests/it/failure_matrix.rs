//! The failure matrix of `seamguard hook`: for each seam × failure (unreadable payload, wrong
//! field types, missing or broken policy, unwritable state and cache folders, hung or
//! crashing command hook, oversized input, a panic while judging) the exit code and stdout
//! bytes, in both dialects. No pre-tool or permission-request case lets the call through
//! silently; no failure blocks a Stop. Then every example of the "fails open" list of the
//! issue that introduced the matrix, as a CLI test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Run, output_with_stdin, root};

/// A fresh folder (HOME, XDG folders and managed folder inside it: nothing outside is read).
fn workdir(name: &str) -> PathBuf {
    let dir = crate::support::workdir(&format!("matrix-{name}"));
    std::fs::write(dir.join("matrix.toml"), MATRIX_POLICY).unwrap();
    dir
}

/// Run `seamguard ARGS` in `dir` with `env` added.
fn run_env(dir: &Path, args: &[&str], env: &[(&str, &Path)], stdin: &[u8]) -> Run {
    let mut cmd = crate::support::command_in(dir, dir);
    cmd.args(args)
        .env_remove("SEAMGUARD_FAULT")
        .env_remove("SEAMGUARD_CACHE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run::lossy_stderr(output_with_stdin(&mut cmd, stdin))
}

fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    run_env(dir, args, &[], stdin)
}

/// One pre-tool rule, one permission-request rule and one continuation rule.
const MATRIX_POLICY: &str = r#"[[rule]]
id = "no-rm-rf"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "rm", flags_any = ["-r"] }
decision = "deny"
reason = "no recursive delete"

[[rule]]
id = "no-rm-prompt"
seam = "permission-request"
tool = "Bash"
when.command = { program = "rm" }
decision = "deny"
reason = "no rm"

[[rule]]
id = "keep-going"
seam = "stop"
continue_with = "run the tests first"
max_continuations = 1
"#;

const DIALECTS: [&str; 2] = ["claude-code", "codex"];

/// The seams of the matrix and a payload of each (a recursive delete where there is a tool).
const SEAMS: [(&str, &str); 6] = [
    (
        "PreToolUse",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#,
    ),
    (
        "PermissionRequest",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#,
    ),
    (
        "PostToolUse",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a"}}"#,
    ),
    (
        "Stop",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":true}"#,
    ),
    (
        "SessionStart",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}"#,
    ),
    (
        "UserPromptSubmit",
        r#"{"session_id":"s","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi"}"#,
    ),
];

fn is_tool_seam(event: &str) -> bool {
    matches!(event, "PreToolUse" | "PermissionRequest")
}

/// The deny answer of a tool seam, as both dialects read it.
fn deny(event: &str, reason: &str) -> String {
    let hso = match event {
        "PreToolUse" => json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }),
        _ => json!({
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": reason},
        }),
    };
    format!("{}\n", json!({ "hookSpecificOutput": hso }))
}

/// A non-blocking message.
fn message(text: &str) -> String {
    format!("{}\n", json!({ "systemMessage": text }))
}

/// `deny` for a tool seam, else `message` with the same cause.
fn refused(event: &str, why: &str) -> String {
    if is_tool_seam(event) {
        deny(
            event,
            &format!(
                "seamguard could not judge this tool call: {why}; denied to be safe [seamguard:unreadable-payload]"
            ),
        )
    } else {
        message(&format!(
            "seamguard could not judge this {event} event: {why}; no rule was applied"
        ))
    }
}

/// The invariant of the matrix: a tool seam is denied, asked, or blocked by exit 2 with a
/// reason; any other seam exits 0 and a Stop is never kept going by a failure.
fn assert_not_silent(case: &str, event: &str, r: &Run) {
    if is_tool_seam(event) {
        let stopped = (r.code == 2 && !r.stderr.trim().is_empty())
            || (r.code == 0
                && serde_json::from_str::<Value>(&r.stdout).is_ok_and(|v| {
                    let h = &v["hookSpecificOutput"];
                    matches!(h["permissionDecision"].as_str(), Some("deny" | "ask"))
                        || h["decision"]["behavior"] == "deny"
                }));
        assert!(
            stopped,
            "{case}: {event} let through: {} {}",
            r.code, r.stdout
        );
    } else {
        assert_eq!(r.code, 0, "{case}: {event}: {}", r.stderr);
        assert!(
            !r.stdout.contains("\"block\""),
            "{case}: {event}: {}",
            r.stdout
        );
    }
}

/// Run one payload of every seam in both dialects, and check each answer against `want`.
fn each_seam(
    case: &str,
    dir: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
    payload: impl Fn(&str) -> Vec<u8>,
    want: impl Fn(&str) -> (i32, String),
) {
    for (event, p) in SEAMS {
        for d in DIALECTS {
            let mut a = vec!["hook", "--dialect", d];
            a.extend_from_slice(args);
            let r = run_env(dir, &a, env, &payload(p));
            let (code, stdout) = want(event);
            assert_eq!(
                (r.code, r.stdout.as_str()),
                (code, stdout.as_str()),
                "{case}: {event} {d}"
            );
            assert_not_silent(case, event, &r);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Unreadable payloads

#[test]
fn truncated_payload_is_refused_per_seam() {
    let dir = workdir("truncated");
    each_seam(
        "truncated",
        &dir,
        &["--policy", "matrix.toml"],
        &[],
        |p| p.as_bytes()[..p.len() - 1].to_vec(),
        |event| {
            let (_, p) = SEAMS.iter().find(|(e, _)| *e == event).unwrap();
            let n = p.len() - 1;
            (
                0,
                refused(
                    event,
                    &format!(
                        "malformed hook payload ({n} bytes): payload is not valid JSON at line 1 column {n}: EOF while parsing an object at line 1 column {n}"
                    ),
                ),
            )
        },
    );
}

/// When the event cannot be known, exit 2 with the reason on stderr: Claude Code blocks a
/// `PreToolUse` on it, Codex blocks a `PreToolUse` and denies a `PermissionRequest`.
#[test]
fn payload_of_an_unknowable_event_blocks_with_exit_2() {
    let dir = workdir("unknowable");
    for (input, why) in [
        (&b"not json"[..], "malformed hook payload (8 bytes): payload is not valid JSON at line 1 column 2: expected ident at line 1 column 2"),
        (b"", "malformed hook payload (0 bytes): payload is not valid JSON at line 1 column 0: EOF while parsing a value at line 1 column 0"),
        (b"\"rm -rf ~\"", "payload must be a JSON object, found a string"),
        (b"[1, 2]", "payload must be a JSON object, found an array"),
        (br#"{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#, "payload has no string field `hook_event_name`"),
        // Two different event names: which one the host meant cannot be told.
        (br#"{"hook_event_name":"Stop","hook_event_name":"PreToolUse","tool_input":{"command":"rm -rf ~"}"#, "malformed hook payload (92 bytes): payload is not valid JSON at line 1 column 92: EOF while parsing an object at line 1 column 92"),
    ] {
        for d in DIALECTS {
            let r = run(&dir, &["hook", "--dialect", d, "--policy", "matrix.toml"], input);
            assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{input:?}");
            assert_eq!(
                r.stderr,
                format!("seamguard could not read this hook payload ({why}) and cannot tell which event it is; blocked to be safe\n"),
                "{input:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Wrong field types

#[test]
fn field_of_an_unclear_type_is_refused_per_seam() {
    let dir = workdir("cwd7");
    each_seam(
        "cwd 7",
        &dir,
        &["--policy", "matrix.toml"],
        &[],
        |p| p.replace(r#""cwd":"/w""#, r#""cwd":7"#).into_bytes(),
        |event| {
            (
                0,
                refused(
                    event,
                    &format!(
                        "{event} payload: field `cwd`: invalid type: integer `7`, expected a string"
                    ),
                ),
            )
        },
    );
}

#[test]
fn numeric_session_id_is_read_as_its_digits_and_judged() {
    let dir = workdir("sid5");
    for d in DIALECTS {
        let r = run(
            &dir,
            &["hook", "--dialect", d, "--policy", "matrix.toml"],
            SEAMS[0]
                .1
                .replace(r#""session_id":"s""#, r#""session_id":5"#)
                .as_bytes(),
        );
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (
                0,
                deny("PreToolUse", "no recursive delete: rm -rf ~ [no-rm-rf]").as_str()
            )
        );
        assert_eq!(
            r.stderr,
            "seamguard: `session_id` is a number (5); read as the string \"5\"\n"
        );
    }
    // The continuation budget is keyed by the coerced id: one continuation, then a stop.
    let stop = |active: bool| {
        format!(
            r#"{{"session_id":5,"cwd":"/w","hook_event_name":"Stop","stop_hook_active":{active}}}"#
        )
    };
    let r = run(
        &dir,
        &["hook", "--policy", "matrix.toml"],
        stop(false).as_bytes(),
    );
    assert_eq!(
        r.stdout,
        "{\"decision\":\"block\",\"reason\":\"run the tests first\"}\n"
    );
    let r = run(
        &dir,
        &["hook", "--policy", "matrix.toml"],
        stop(true).as_bytes(),
    );
    assert_eq!(
        r.stdout,
        message(
            "seamguard: rule `keep-going` would continue, but its budget of 1 continuation(s) per turn is used (stop_hook_active); letting the agent stop"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Missing or broken policy

/// The answer of every seam when `file` fails to load with `first` (its first error).
fn load_failure(event: &str, file: &str, first: &str) -> (i32, String) {
    let warning = format!(
        "seamguard: policy {file} has 1 error and some rules are not enforced (run `seamguard check`): {first}"
    );
    if !is_tool_seam(event) {
        return (0, message(&warning));
    }
    let reason = format!(
        "seamguard policy {file} failed to load, so tool calls are denied until it is fixed: {first}. Fix it (`seamguard check {file}`), or set `on_load_error = \"warn\"` in its [policy] table to let calls through while it is broken [seamguard:load-error]"
    );
    let mut v: Value = serde_json::from_str(&deny(event, &reason)).unwrap();
    let hso = v["hookSpecificOutput"].take();
    (
        0,
        format!(
            "{}\n",
            json!({"systemMessage": warning, "hookSpecificOutput": hso})
        ),
    )
}

#[test]
fn missing_policy_file_or_folder_fails_closed_per_seam() {
    let dir = workdir("missing");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    for (arg, first) in [
        (
            "matrx.toml",
            "matrx.toml:1:1: error: cannot read policy file: No such file or directory (os error 2)",
        ),
        (
            "policiez",
            "policiez:1:1: error: cannot read policy file: No such file or directory (os error 2)",
        ),
        (
            "empty",
            "empty:1:1: error: the folder given with --policy holds no policy file (*.toml)",
        ),
    ] {
        each_seam(
            arg,
            &dir,
            &["--policy", arg],
            &[],
            |p| p.as_bytes().to_vec(),
            |event| load_failure(event, arg, first),
        );
    }
}

#[test]
fn broken_policy_fails_closed_per_seam() {
    let dir = workdir("broken");
    std::fs::write(dir.join("broken.toml"), "[[rule]\nid = \"a\"\n").unwrap();
    each_seam(
        "broken",
        &dir,
        &["--policy", "broken.toml"],
        &[],
        |p| p.as_bytes().to_vec(),
        |event| {
            load_failure(
                event,
                "broken.toml",
                "broken.toml:1:8: error: TOML syntax error: unclosed array table, expected `]`",
            )
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Unwritable state and cache folders

#[test]
fn unwritable_state_and_cache_still_judge_and_let_a_stop_end() {
    let dir = workdir("state");
    // A file where the state folder should be: neither the policy cache nor the continuation
    // ledger can be written (whoever runs the test).
    std::fs::write(dir.join("state-file"), "").unwrap();
    let state = dir.join("state-file");
    let env: &[(&str, &Path)] = &[("XDG_STATE_HOME", &state)];
    let ledger = state.join("seamguard/continuations/s-stop-main");
    each_seam(
        "state",
        &dir,
        &["--policy", "matrix.toml"],
        env,
        |p| p.as_bytes().to_vec(),
        |event| match event {
            "PreToolUse" => (0, deny(event, "no recursive delete: rm -rf ~ [no-rm-rf]")),
            "PermissionRequest" => (0, deny(event, "no rm: rm -rf ~ [no-rm-prompt]")),
            "Stop" => (
                0,
                message(&format!(
                    "seamguard: rule `keep-going` would continue, but its continuation budget counts as spent because the continuation ledger {} cannot be read (Not a directory (os error 20)); letting the agent stop",
                    ledger.display()
                )),
            ),
            _ => (0, String::new()),
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Hung or crashing command hooks

const HOOKS_POLICY: &str = r#"[[rule]]
id = "hung"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "hang" }
run = { command = "sleep 30", timeout = "300ms" }

[[rule]]
id = "crash"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "crash" }
run = { command = "echo boom >&2; exit 1" }

[[rule]]
id = "hung-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "strict-hang" }
run = { command = "sleep 30", timeout = "300ms", on_error = "deny" }

[[rule]]
id = "crash-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { prefix = "strict-crash" }
run = { command = "kill -9 $$", on_error = "deny" }
"#;

/// The milliseconds of a timeout message vary from run to run.
fn without_timing(s: &str) -> String {
    let key = "timed out after ";
    match s.find(key) {
        Some(at) => {
            let rest = &s[at + key.len()..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            format!("{}{key}N{}", &s[..at], &rest[digits..])
        }
        None => s.to_string(),
    }
}

/// A failed command hook is not silent: by default (the hosts' protocol) the call goes on
/// with a message naming the hook; with `on_error = "deny"` it is denied. A hung hook is
/// killed at its timeout.
#[test]
fn hung_or_crashing_command_hooks_are_reported_or_deny() {
    let dir = workdir("hooks");
    std::fs::write(dir.join("hooks.toml"), HOOKS_POLICY).unwrap();
    let cases = [
        (
            "hang now",
            message(
                "seamguard: command hook `hung` (hooks.toml:1:1) failed, no decision taken: timed out after N ms (process group killed)",
            ),
        ),
        (
            "crash now",
            message(
                "seamguard: command hook `crash` (hooks.toml:8:1) failed, no decision taken: exit 1: boom",
            ),
        ),
        (
            "strict-hang now",
            deny(
                "PreToolUse",
                "command hook `hung-deny` failed and is set to fail closed (on_error = \"deny\"): timed out after N ms (process group killed) [hung-deny]",
            ),
        ),
        (
            "strict-crash now",
            deny(
                "PreToolUse",
                "command hook `crash-deny` failed and is set to fail closed (on_error = \"deny\"): killed by a signal [crash-deny]",
            ),
        ),
    ];
    for (command, want) in cases {
        for d in DIALECTS {
            let payload = json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command}});
            let started = Instant::now();
            let r = run(
                &dir,
                &["hook", "--dialect", d, "--policy", "hooks.toml"],
                payload.to_string().as_bytes(),
            );
            assert!(started.elapsed() < Duration::from_secs(20), "{command}");
            assert_eq!(
                (r.code, without_timing(&r.stdout)),
                (0, want.clone()),
                "{command} {d}"
            );
            let silent = r.stdout.is_empty();
            assert!(!silent, "{command} {d}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Oversized input

#[test]
fn oversized_payload_is_refused_in_milliseconds() {
    let dir = workdir("oversized");
    let pad = "a".repeat(17 << 20);
    each_seam(
        "17 MiB",
        &dir,
        &["--policy", "matrix.toml"],
        &[],
        |p| {
            // The padding goes last, as hosts write the tool input after the event name.
            let mut v: Value = serde_json::from_str(p).unwrap();
            v["padding"] = json!(pad);
            v.to_string().into_bytes()
        },
        |event| {
            let (_, p) = SEAMS.iter().find(|(e, _)| *e == event).unwrap();
            let n = p.len() + pad.len() + ",\"padding\":\"\"".len();
            (
                0,
                refused(
                    event,
                    &format!("the payload is {n} bytes, over the 16777216-byte limit"),
                ),
            )
        },
    );
    // A 50 MB command line: refused before any rule reads it.
    let big = json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": format!("echo {}", "a".repeat(50_000_000))}})
    .to_string();
    let started = Instant::now();
    let r = run(&dir, &["hook", "--policy", "matrix.toml"], big.as_bytes());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        r.stdout,
        refused(
            "PreToolUse",
            &format!(
                "the payload is {} bytes, over the 16777216-byte limit",
                big.len()
            )
        )
    );
}

#[test]
fn command_line_over_the_analysis_limit_is_refused_before_the_rules() {
    let dir = workdir("longline");
    let line = format!("rm -rf ~ {}", "x".repeat(1 << 20));
    for (event, _) in &SEAMS[..2] {
        for d in DIALECTS {
            let payload = json!({"session_id": "s", "cwd": "/w", "hook_event_name": event,
                "tool_name": "Bash", "tool_input": {"command": line}});
            let r = run(
                &dir,
                &["hook", "--dialect", d, "--policy", "matrix.toml"],
                payload.to_string().as_bytes(),
            );
            assert_eq!(
                (r.code, r.stdout),
                (
                    0,
                    refused(
                        event,
                        "the command line is 1048585 bytes, over the 1048576-byte analysis limit"
                    )
                )
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A panic while judging

/// A bug that panics in a lens or the parser refuses the call instead of exiting 101 (which
/// the hosts read as a non-blocking error: the call would run). Debug builds only: the fault
/// switch is compiled out of release builds.
#[cfg(debug_assertions)]
#[test]
fn panic_while_judging_is_refused_per_seam() {
    let dir = workdir("panic");
    let fault = PathBuf::from("panic");
    each_seam(
        "panic",
        &dir,
        &["--policy", "matrix.toml"],
        &[("SEAMGUARD_FAULT", &fault)],
        |p| p.as_bytes().to_vec(),
        |event| {
            (
                0,
                refused(
                    event,
                    "internal error (injected fault (SEAMGUARD_FAULT=panic))",
                ),
            )
        },
    );
}

// ---------------------------------------------------------------------------------------------
// The "fails open" list, example by example

fn pre_tool(tool: &str, input: Value) -> Vec<u8> {
    json!({"session_id": "s", "cwd": "/home/user/project", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input})
    .to_string()
    .into_bytes()
}

/// The permission decision of a pre-tool answer.
/// `r` is the library's deny of `rm -rf ~` (exit 0, the rule named in the reason).
fn assert_root_delete_denied(r: &Run) {
    assert_eq!((r.code, decision(r)), (0, "deny".to_string()));
    assert!(
        r.stdout.contains("[no-recursive-delete-of-root-or-home]"),
        "{}",
        r.stdout
    );
}

fn decision(r: &Run) -> String {
    serde_json::from_str::<Value>(&r.stdout)
        .ok()
        .and_then(|v| {
            v["hookSpecificOutput"]["permissionDecision"]
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_default()
}

#[test]
fn policy_path_with_a_typo_or_missing_folder_denies() {
    let dir = workdir("typo");
    for path in ["matrix.tom", "no/such/folder/"] {
        let r = run(
            &dir,
            &["hook", "--policy", path],
            &pre_tool("Bash", json!({"command": "rm -rf ~"})),
        );
        assert_eq!((r.code, decision(&r)), (0, "deny".to_string()), "{path}");
        assert!(
            r.stdout.contains(&format!(
                "seamguard policy {path} failed to load, so tool calls are denied until it is fixed"
            )),
            "{}",
            r.stdout
        );
    }
}

#[test]
fn no_policy_anywhere_enforces_the_built_in_library_and_says_so_on_session_start() {
    let dir = workdir("nopolicy");
    let r = run(
        &dir,
        &["hook"],
        &pre_tool("Bash", json!({"command": "rm -rf ~"})),
    );
    assert_root_delete_denied(&r);
    let r = run(&dir, &["hook"], SEAMS[4].1.as_bytes());
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, message("seamguard: no policy is configured (no --policy, no .seamguard/, no user or managed folder); enforcing the built-in balanced library. Run `seamguard init` to choose and install a policy.").as_str())
    );
    // Said once: not on the other events.
    let r = run(&dir, &["hook"], &pre_tool("Bash", json!({"command": "ls"})));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[test]
fn wrong_field_types_are_never_exit_1() {
    let dir = workdir("types");
    let lib = root().join("policies");
    let lib = lib.to_str().unwrap();
    let base = |k: &str, v: Value| {
        let mut p: Value =
            serde_json::from_slice(&pre_tool("Bash", json!({"command": "rm -rf ~"}))).unwrap();
        p[k] = v;
        p.to_string().into_bytes()
    };
    let r = run(
        &dir,
        &["hook", "--policy", lib],
        &base("session_id", json!(5)),
    );
    assert_root_delete_denied(&r);
    let r = run(&dir, &["hook", "--policy", lib], &base("cwd", json!(7)));
    assert_eq!(
        (r.code, r.stdout),
        (
            0,
            refused(
                "PreToolUse",
                "PreToolUse payload: field `cwd`: invalid type: integer `7`, expected a string"
            )
        )
    );
}

/// Tool inputs of another shape are judged (as the line they hold) or at least asked about,
/// with the cause; never an empty answer.
#[test]
fn tool_inputs_of_another_shape_are_judged_not_waved_through() {
    let dir = workdir("shapes");
    let lib = root().join("policies");
    let lib = lib.to_str().unwrap();
    for (tool, input, want) in [
        ("Bash", json!("rm -rf ~"), "deny"),
        ("Bash", json!({"command": ["rm -rf ~"]}), "deny"),
        ("Bash", Value::Null, "ask"),
        ("Read", json!({"file_path": [".env"]}), "ask"),
    ] {
        let r = run(
            &dir,
            &["hook", "--policy", lib],
            &pre_tool(tool, input.clone()),
        );
        assert_eq!(
            (r.code, decision(&r)),
            (0, want.to_string()),
            "{tool} {input}: {}",
            r.stdout
        );
    }
}

#[test]
fn continuation_budget_runs_out_without_a_writable_ledger() {
    let dir = workdir("ledger");
    std::fs::write(dir.join("state-file"), "").unwrap();
    let state = dir.join("state-file");
    let env: &[(&str, &Path)] = &[("XDG_STATE_HOME", &state)];
    let stop = |active: bool| {
        format!(
            r#"{{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":{active}}}"#
        )
    };
    let r = run_env(
        &dir,
        &["hook", "--policy", "matrix.toml"],
        env,
        stop(false).as_bytes(),
    );
    assert_eq!(
        r.stdout,
        "{\"decision\":\"block\",\"reason\":\"run the tests first\"}\n"
    );
    for _ in 0..3 {
        let r = run_env(
            &dir,
            &["hook", "--policy", "matrix.toml"],
            env,
            stop(true).as_bytes(),
        );
        assert_eq!(r.code, 0);
        assert!(!r.stdout.contains("block"), "{}", r.stdout);
        assert!(
            r.stdout.contains(
                "its continuation budget counts as spent because the continuation ledger"
            ),
            "{}",
            r.stdout
        );
    }
}

#[test]
fn replay_with_nothing_loaded_or_read_fails() {
    let dir = workdir("replay");
    let rec = root().join("data/recorded");
    let rec = rec.to_str().unwrap();
    // A name inside the test's own folder: a path such as `/nonexistent` can exist on a
    // shared machine (it is the home of `nobody` on Debian and tools may create it).
    let r = run(&dir, &["replay", rec, "--policy", "absent"], b"");
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            2,
            "",
            "seamguard: --policy absent: no such file or folder; give a policy file or a folder of *.toml files\n"
        )
    );
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let r = run(
        &dir,
        &["replay", rec, "--policy", "empty", "--fail-on", "deny"],
        b"",
    );
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "seamguard: --policy empty: the folder holds no policy file (*.toml)\n"
        )
    );
    let r = run(&dir, &["replay", rec, "--fail-on", "ask"], b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "seamguard: no policy given and none found (.seamguard/, $XDG_CONFIG_HOME/seamguard/, /etc/seamguard/); pass --policy\n"
        )
    );
    std::fs::write(dir.join("norules.toml"), "[policy]\nname = \"nothing\"\n").unwrap();
    let r = run(&dir, &["replay", rec, "--policy", "norules.toml"], b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "seamguard: no rule loaded from norules.toml (run `seamguard check` on it)\n"
        )
    );
    std::fs::write(dir.join("nothing.jsonl"), "{\"x\":1}\n").unwrap();
    let r = run(
        &dir,
        &[
            "replay",
            "nothing.jsonl",
            "--policy",
            "matrix.toml",
            "--fail-on",
            "deny",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .ends_with("seamguard: --fail-on: no event was read from the recordings; failing\n"),
        "{}",
        r.stderr
    );
}
