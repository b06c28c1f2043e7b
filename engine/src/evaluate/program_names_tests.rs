//! A policy rule's program names and a command's program meet by the one program name
//! (issue 27, class 11): `curl.exe`, `CURL` and `curl` listed by a rule name the same
//! program as `CURL.EXE`, `C:/Windows/System32/curl.exe` and `curl` typed; a listing with a
//! folder names the program as written only.

use serde_json::json;

use crate::{DecisionTable, Dialect, Engine, Scope, Seam, ShellEnv, Verdict, load_str};

const RULES: &str = r#"
[[rule]]
id = "curl-exe-asks"
seam = "pre-tool"
when.runs = { program = "curl.exe" }
decision = "ask"
reason = "curl asks"

[[rule]]
id = "make-asks"
seam = "pre-tool"
when.command = { program_any = ["MAKE"] }
decision = "ask"
reason = "make asks"

[[rule]]
id = "build-script-asks"
seam = "pre-tool"
when.runs = { program = "./build.sh" }
decision = "ask"
reason = "the build script asks"
"#;

fn fired(command: &str) -> (Verdict, Vec<String>) {
    let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    let table = DecisionTable::new(vec![load_str(RULES, "t.toml", Scope::User, 0)]);
    let e = Engine::new(table.with_env(env));
    let payload = json!({
        "session_id": "s", "cwd": "/home/u/p", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    });
    let o = e.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
    let ids = o.fired_ids().iter().map(|s| s.to_string()).collect();
    (o.verdict(), ids)
}

#[test]
fn a_listed_windows_or_capitalised_name_names_the_program() {
    for command in [
        "curl https://example.com",
        "CURL.EXE https://example.com",
        "'C:/Windows/System32/Curl.exe' https://example.com",
    ] {
        assert_eq!(
            fired(command),
            (Verdict::Ask, vec!["curl-exe-asks".to_string()]),
            "{command}"
        );
    }
    for command in ["make build", "Make build", "/usr/bin/make -j4"] {
        assert_eq!(
            fired(command),
            (Verdict::Ask, vec!["make-asks".to_string()]),
            "{command}"
        );
    }
}

#[test]
fn a_listing_with_a_folder_names_the_program_as_written() {
    assert_eq!(
        fired("./build.sh --release"),
        (Verdict::Ask, vec!["build-script-asks".to_string()])
    );
    assert_eq!(fired("build.sh --release"), (Verdict::Abstain, vec![]));
    assert_eq!(
        fired("curlie https://example.com"),
        (Verdict::Abstain, vec![])
    );
}
