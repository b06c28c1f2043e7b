//! Issue 12: the same effect reached by different routes gets the same verdict.
//!
//! A policy written on effects (`when.reads`, `when.writes`, `when.deletes`, `when.sends`)
//! names no tool. For random paths (secret, system, project, home, with odd case and `..`)
//! and random hosts, the call is made through every route that can make it — a file tool, a
//! shell command, a Codex patch, an MCP filesystem / fetch tool, a shell command inside an MCP
//! argument — and every route must get the verdict the file-tool route gets.

use proptest::prelude::*;
use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, ShellEnv, Verdict, load_str};
use serde_json::{Value, json};

use crate::support::proptest_config;

const POLICY: &str = r#"
[lists]
secret_paths = ["**/.env", "**/.ssh/**", "**/.aws/**", "**/*.pem"]
system_paths = ["/etc", "/etc/**", "/usr/**", "/boot/**"]

[[rule]]
id = "secrets"
seam = "pre-tool"
when.reads = { path_inside = "@secret_paths" }
decision = "deny"

[[rule]]
id = "system-writes"
seam = "pre-tool"
when.writes = { path_inside = "@system_paths" }
decision = "deny"

[[rule]]
id = "deletes-outside"
seam = "pre-tool"
when.deletes = { path_outside = ["project", "/tmp/**"] }
decision = "ask"

[[rule]]
id = "metadata"
seam = "pre-tool"
when.sends = { ip_class = ["metadata"] }
decision = "deny"
"#;

fn engine() -> Engine {
    let env = ShellEnv::new(None, "/home/user");
    Engine::new(
        DecisionTable::new(vec![load_str(POLICY, "routes.toml", Scope::User, 0)]).with_env(env),
    )
}

fn call(engine: &Engine, tool: &str, input: Value) -> Verdict {
    let payload = json!({
        "session_id": "s", "cwd": "/home/user/project", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input,
    });
    engine
        .evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode)
        .verdict()
}

/// A path from a mix of secret, system, project, home and scratch places, written the ways
/// an agent writes them (absolute, `~`, relative, odd case, `..`).
fn path() -> impl Strategy<Value = String> {
    let dir = proptest::sample::select(vec![
        "/home/user/project",
        "/home/user/project/src",
        "/home/user/.ssh",
        "/home/user/.aws",
        "/home/user",
        "/etc",
        "/usr/local/bin",
        "/tmp",
        "~/.SSH",
        "~",
        "src/../..",
        ".",
    ]);
    let file = proptest::sample::select(vec![
        ".env",
        "id_rsa",
        "credentials",
        "main.rs",
        "hosts",
        "key.pem",
        "notes.txt",
        "config",
        "README.md",
        ".ENV",
    ]);
    (dir, file).prop_map(|(d, f)| format!("{d}/{f}"))
}

/// Single-quoted for the shell.
fn q(s: &str) -> String {
    if s.starts_with('~') {
        // Keep tilde expansion: quote only the rest.
        let (head, rest) = s.split_once('/').unwrap_or((s, ""));
        format!("{head}/'{}'", rest.replace('\'', r"'\''"))
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

proptest! {
    #![proptest_config(proptest_config(96))]

    #[test]
    fn a_read_gets_one_verdict_on_every_route(p in path()) {
        let e = engine();
        let want = call(&e, "Read", json!({"file_path": p}));
        let routes = [
            ("Bash cat", call(&e, "Bash", json!({"command": format!("cat {}", q(&p))}))),
            ("Bash redirect", call(&e, "Bash", json!({"command": format!("wc -l < {}", q(&p))}))),
            ("Bash head -n", call(&e, "Bash", json!({"command": format!("head -n 5 {}", q(&p))}))),
            ("MCP read_file", call(&e, "mcp__filesystem__read_text_file", json!({"path": p}))),
            ("MCP nested shell", call(&e, "mcp__desktop-commander__start_process",
                json!({"options": {"command": format!("cat {}", q(&p))}}))),
        ];
        for (name, got) in routes {
            prop_assert_eq!(got, want, "route {} for {}", name, p);
        }
    }

    #[test]
    fn a_write_gets_one_verdict_on_every_route(p in path()) {
        let e = engine();
        let want = call(&e, "Write", json!({"file_path": p, "content": "x"}));
        let routes = [
            ("Bash redirect", call(&e, "Bash", json!({"command": format!("echo x > {}", q(&p))}))),
            ("Bash tee", call(&e, "Bash", json!({"command": format!("echo x | tee {}", q(&p))}))),
            ("MCP write_file", call(&e, "mcp__filesystem__write_file", json!({"path": p, "content": "x"}))),
        ];
        for (name, got) in routes {
            prop_assert_eq!(got, want, "route {} for {}", name, p);
        }
    }

    #[test]
    fn a_delete_gets_one_verdict_on_every_route(p in path()) {
        let e = engine();
        let want = call(&e, "Bash", json!({"command": format!("rm {}", q(&p))}));
        let routes = [
            ("Bash unlink", call(&e, "Bash", json!({"command": format!("unlink {}", q(&p))}))),
            ("apply_patch", call(&e, "apply_patch",
                json!({"command": format!("*** Begin Patch\n*** Delete File: {p}\n*** End Patch\n")}))),
            ("MCP delete_file", call(&e, "mcp__fs__delete_file", json!({"path": p}))),
        ];
        for (name, got) in routes {
            prop_assert_eq!(got, want, "route {} for {}", name, p);
        }
    }

    #[test]
    fn a_request_gets_one_verdict_on_every_route(
        host in proptest::sample::select(vec![
            "169.254.169.254", "0xa9fea9fe", "metadata.google.internal", "[fd00:ec2::254]",
            "docs.rs", "localhost:3000", "github.com", "10.0.0.5",
        ]),
        path in proptest::sample::select(vec!["/", "/latest/meta-data/", "/x?y=1"]),
    ) {
        let e = engine();
        let url = format!("http://{host}{path}");
        let want = call(&e, "WebFetch", json!({"url": url, "prompt": "p"}));
        let routes = [
            ("curl", call(&e, "Bash", json!({"command": format!("curl -s '{url}'")}))),
            ("wget", call(&e, "Bash", json!({"command": format!("wget -qO- '{url}'")}))),
            ("MCP fetch", call(&e, "mcp__fetch__fetch", json!({"url": url}))),
            ("MCP browser", call(&e, "mcp__playwright__browser_navigate", json!({"url": url}))),
        ];
        for (name, got) in routes {
            prop_assert_eq!(got, want, "route {} for {}", name, url);
        }
    }
}

#[test]
fn the_routes_reach_the_verdicts_they_should() {
    let e = engine();
    assert_eq!(
        call(&e, "Read", json!({"file_path": "/home/user/.ssh/id_rsa"})),
        Verdict::Deny
    );
    assert_eq!(
        call(
            &e,
            "Read",
            json!({"file_path": "/home/user/project/src/main.rs"})
        ),
        Verdict::Abstain
    );
    assert_eq!(
        call(
            &e,
            "Write",
            json!({"file_path": "/etc/hosts", "content": "x"})
        ),
        Verdict::Deny
    );
    assert_eq!(
        call(&e, "Bash", json!({"command": "rm ~/notes.txt"})),
        Verdict::Ask
    );
    assert_eq!(
        call(&e, "Bash", json!({"command": "rm -rf build/"})),
        Verdict::Abstain
    );
    assert_eq!(
        call(
            &e,
            "WebFetch",
            json!({"url": "http://169.254.169.254/", "prompt": "p"})
        ),
        Verdict::Deny
    );
}
