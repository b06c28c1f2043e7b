//! `seamguard test` and `seamguard try --event` on Gemini CLI, Cursor and Copilot CLI payloads:
//! an example's event or an event file in a host's own shape is detected (or named with
//! `dialect`) and rewritten into the common payload of its seam, as `hook` does.

use std::path::{Path, PathBuf};

use crate::support::{Run, output_with_stdin};

/// Two rules (a secret read denied, a push asked) and examples in each host's shape.
const POLICY: &str = r#"
[lists]
secret_paths = ["**/.env"]

[[rule]]
id = "secrets"
seam = "pre-tool"
when.reads = { path_inside = "@secret_paths" }
decision = "deny"
reason = "Secret files are off limits"

[[rule]]
id = "push"
seam = "pre-tool"
tool = "Bash"
when.command = { contains = "git push" }
decision = "ask"
reason = "Pushing needs approval"

[[test]]
name = "gemini: a push asks"
event = { hook_event_name = "BeforeTool", session_id = "g1", cwd = "/home/user/project", tool_name = "run_shell_command", tool_input = { command = "git push origin main" } }
expect = "ask"
rules = ["push"]

[[test]]
name = "gemini: ls is fine"
event = { hook_event_name = "BeforeTool", tool_name = "run_shell_command", tool_input = { command = "ls -la" } }
expect = "none"

[[test]]
name = "gemini: read_file of .env"
event = { hook_event_name = "BeforeTool", tool_name = "read_file", tool_input = { file_path = "/home/user/project/.env" } }
expect = "deny"
rules = ["secrets"]

[[test]]
name = "cursor: shell push"
event = { hook_event_name = "beforeShellExecution", conversation_id = "c1", command = "git push", cwd = "/home/user/project", workspace_roots = ["/home/user/project"] }
expect = "ask"
rules = ["push"]

[[test]]
name = "cursor: read .env"
event = { hook_event_name = "beforeReadFile", conversation_id = "c1", file_path = "/home/user/project/.env", content = "A=1", workspace_roots = ["/home/user/project"] }
expect = "deny"
rules = ["secrets"]

[[test]]
name = "cursor named by dialect: the verdict is the policy's (the host's answer is a deny)"
dialect = "cursor"
event = { hook_event_name = "preToolUse", tool_name = "Shell", tool_input = { command = "git push" } }
expect = "ask"
rules = ["push"]

[[test]]
name = "copilot: bash push"
event = { timestamp = 1704614600000, cwd = "/home/user/project", toolName = "bash", toolArgs = "{\"command\":\"git push\",\"description\":\"push\"}" }
expect = "ask"
rules = ["push"]

[[test]]
name = "copilot: view .env"
event = { timestamp = 1704614600000, cwd = "/home/user/project", toolName = "view", toolArgs = "{\"path\":\"/home/user/project/.env\"}" }
expect = "deny"
rules = ["secrets"]

[[test]]
name = "copilot: an earlier call shares the session"
event = { timestamp = 1704614600000, cwd = "/home/user/project", toolName = "bash", toolArgs = "{\"command\":\"ls\"}" }
earlier = [{ tool_name = "Bash", tool_input = { command = "ls" } }]
expect = "none"
"#;

/// A fresh folder with `p.toml`, used as the working folder, HOME and XDG dirs.
fn workdir(policy: &str) -> PathBuf {
    let dir = crate::support::workdir("hosts-norm");
    std::fs::write(dir.join("p.toml"), policy).unwrap();
    dir
}

fn seamguard(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = crate::support::command_in(dir, dir);
    cmd.args(args);
    Run::utf8(output_with_stdin(&mut cmd, b""))
}

#[test]
fn policy_examples_in_each_hosts_shape_are_judged_as_hook_judges_them() {
    let dir = workdir(POLICY);
    let r = seamguard(&dir, &["test", "p.toml"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "ok   p.toml:20 gemini: a push asks => ask\n\
         ok   p.toml:26 gemini: ls is fine => none\n\
         ok   p.toml:31 gemini: read_file of .env => deny\n\
         ok   p.toml:37 cursor: shell push => ask\n\
         ok   p.toml:43 cursor: read .env => deny\n\
         ok   p.toml:49 cursor named by dialect: the verdict is the policy's (the host's answer is a deny) => ask\n\
         ok   p.toml:56 copilot: bash push => ask\n\
         ok   p.toml:62 copilot: view .env => deny\n\
         ok   p.toml:68 copilot: an earlier call shares the session => none\n\
         9 passed, 0 failed, 0 policy error(s)\n"
    );
}

#[test]
fn a_host_event_that_cannot_be_read_fails_its_example_and_a_wrong_dialect_is_an_error() {
    let bad = format!(
        "{POLICY}\n[[test]]\nname = \"copilot: toolArgs that are not JSON\"\nevent = {{ timestamp = 1, cwd = \"/w\", toolName = \"bash\", toolArgs = \"{{not json\" }}\nexpect = \"deny\"\n"
    );
    let dir = workdir(&bad);
    let r = seamguard(&dir, &["test", "--quiet", "p.toml"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "FAIL p.toml:74 copilot: toolArgs that are not JSON: event does not decode: the toolArgs of preToolUse are not a JSON string (key must be a string at line 1 column 2)\n\
         9 passed, 1 failed, 0 policy error(s)\n"
    );
    let wrong = format!(
        "{POLICY}\n[[test]]\nname = \"x\"\ndialect = \"windsurf\"\ncommand = \"ls\"\nexpect = \"none\"\n"
    );
    let dir = workdir(&wrong);
    let r = seamguard(&dir, &["test", "p.toml"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "`dialect`: expected `claude-code`, `codex`, `gemini-cli`, `cursor` or `copilot-cli`, found `windsurf`"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn try_reads_an_event_file_in_each_hosts_shape() {
    let dir = workdir(POLICY);
    let cwd = dir.display().to_string();
    let files = [
        (
            "cursor.json",
            format!(
                r#"{{"hook_event_name":"beforeShellExecution","conversation_id":"c1","command":"git push origin main","cwd":"{cwd}","workspace_roots":["{cwd}"]}}"#
            ),
        ),
        (
            "copilot.json",
            format!(
                r#"{{"timestamp":1704614600000,"cwd":"{cwd}","toolName":"view","toolArgs":"{{\"path\":\"{cwd}/.env\"}}"}}"#
            ),
        ),
        (
            "gemini.json",
            format!(
                r#"{{"session_id":"g","cwd":"{cwd}","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{{"command":"ls"}}}}"#
            ),
        ),
        (
            "bad.json",
            format!(r#"{{"timestamp":1,"cwd":"{cwd}","toolName":"bash","toolArgs":"{{x"}}"#),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let r = seamguard(
        &dir,
        &["try", "--policy", "p.toml", "--event", "cursor.json"],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "ask  Shell: git push origin main\n  rule: push (p.toml:12:1)\n  reason: Pushing needs approval [push]\n  effects:\n    runs `git push origin main` (Bash: `git push origin main`)\n"
    );
    let r = seamguard(
        &dir,
        &["try", "--policy", "p.toml", "--event", "copilot.json"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "deny  view: {cwd}/.env\n  rule: secrets (p.toml:5:1)\n"
        )),
        "{}",
        r.stdout
    );
    let r = seamguard(
        &dir,
        &["try", "--policy", "p.toml", "--event", "gemini.json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("none  run_shell_command: ls\n"),
        "{}",
        r.stdout
    );
    let r = seamguard(&dir, &["try", "--policy", "p.toml", "--event", "bad.json"]);
    assert_eq!(r.code, 3);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "seamguard: the copilot-cli payload cannot be read: the toolArgs of preToolUse are not a JSON string (key must be a string at line 1 column 2)\n"
    );
}
