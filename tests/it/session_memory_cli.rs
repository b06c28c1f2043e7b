//! Session memory end to end: a sequence of tool calls of one session, each judged by a hook
//! process of its own (and by `replay`), with what earlier calls did; 32 hook processes of
//! one session at once; a damaged or unwritable store.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use seamguard::memory::store::MemoryStore;

use crate::support::{fresh_dir, output_with_stdin, root};

/// A project folder, a home folder and a state folder for one test.
struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = fresh_dir("memory", name);
        for d in ["project", "home", "state"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        // Canonical, so paths in reasons are the paths of the payloads.
        Sandbox {
            dir: std::fs::canonicalize(&dir).unwrap(),
        }
    }

    fn project(&self) -> String {
        self.dir.join("project").to_string_lossy().into_owned()
    }

    fn store(&self) -> MemoryStore {
        MemoryStore::new(self.dir.join("state/seamguard/memory"))
    }

    fn payload(&self, session: &str, tool: &str, input: Value) -> Value {
        json!({
            "session_id": session, "cwd": self.project(), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": input,
        })
    }

    /// Run the hook on one payload with `policy`: (verdict, fired rule ids, stderr).
    fn hook(&self, policy: &[&Path], payload: &Value) -> (String, Vec<String>, String) {
        let mut cmd = crate::support::command();
        cmd.args(["hook", "--dialect", "claude-code"]);
        for p in policy {
            cmd.arg("--policy").arg(p);
        }
        cmd.env("HOME", self.dir.join("home"))
            .env("XDG_STATE_HOME", self.dir.join("state"))
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("SEAMGUARD_AUDIT_LOG")
            .current_dir(self.dir.join("project"));
        let out = output_with_stdin(&mut cmd, payload.to_string().as_bytes());
        assert_eq!(out.status.code(), Some(0), "{payload}");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if stdout.trim().is_empty() {
            return ("none".into(), Vec::new(), stderr);
        }
        let v: Value = serde_json::from_str(&stdout).unwrap();
        let hso = &v["hookSpecificOutput"];
        let verdict = hso["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_string();
        let reason = hso["permissionDecisionReason"].as_str().unwrap_or("");
        let mut rules: Vec<String> = reason
            .lines()
            .filter_map(|l| {
                let (_, tail) = l.rsplit_once('[')?;
                Some(tail.trim_end_matches(']').to_string())
            })
            .collect();
        rules.sort();
        let message = v["systemMessage"].as_str().unwrap_or("").to_string();
        (verdict, rules, format!("{stderr}{message}"))
    }

    /// Runs each step `(session, tool, input, verdict, rules fired)` through the hook with
    /// the policies of `lib`, in order, and checks its decision.
    fn play(&self, lib: &Path, steps: Vec<(&str, &str, Value, &str, Vec<&str>)>) {
        for (i, (session, tool, input, verdict, rules)) in steps.into_iter().enumerate() {
            let (got, fired, _) = self.hook(&[lib], &self.payload(session, tool, input));
            assert_eq!(
                (got.as_str(), fired),
                (verdict, rules.iter().map(|r| r.to_string()).collect()),
                "step {}",
                i + 1
            );
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn library() -> PathBuf {
    root().join("policies")
}

#[test]
fn a_session_is_judged_with_what_its_earlier_calls_did() {
    let b = Sandbox::new("sequence");
    let lib = library();
    let p = b.project();
    // (session, tool, input, verdict, rules), in order; nothing is executed, so a script
    // the agent wrote is never on disk: only the memory knows it.
    let steps: Vec<(&str, &str, Value, &str, Vec<&str>)> = vec![
        (
            "s1",
            "Write",
            json!({"file_path": format!("{p}/tools/wipe.sh"), "content": "#!/bin/bash\nrm -rf ~\n"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Bash",
            json!({"command": "bash tools/wipe.sh"}),
            "deny",
            vec!["no-recursive-delete-of-root-or-home"],
        ),
        // Another session did not write it.
        (
            "s2",
            "Bash",
            json!({"command": "bash tools/wipe.sh"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Write",
            json!({"file_path": format!("{p}/tools/build.sh"), "content": "#!/bin/sh\ncargo build --release\n"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Bash",
            json!({"command": "sh -c ./tools/build.sh"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Bash",
            json!({"command": "ln -s ~/.config cfg"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Bash",
            json!({"command": "cat cfg/gcloud/credentials.db"}),
            "deny",
            vec!["secret-files-are-off-limits"],
        ),
        (
            "s2",
            "Bash",
            json!({"command": "cat cfg/gcloud/credentials.db"}),
            "none",
            vec![],
        ),
        (
            "s1",
            "Write",
            json!({"file_path": format!("{p}/Makefile"), "content": "all:\n\tcargo build\nclean:\n\trm -rf $(HOME)/\n"}),
            "none",
            vec![],
        ),
        ("s1", "Bash", json!({"command": "make"}), "none", vec![]),
        (
            "s1",
            "Bash",
            json!({"command": "make clean"}),
            "deny",
            vec!["no-recursive-delete-of-root-or-home"],
        ),
    ];
    b.play(&lib, steps);
}

#[test]
fn code_downloaded_in_one_call_and_run_in_a_later_one_asks() {
    let b = Sandbox::new("downloaded");
    let lib = library();
    let p = b.project();
    let ask = vec!["downloaded-code-run-needs-approval"];
    let bash = |c: &str| json!({ "command": c });
    let steps: Vec<(&str, &str, Value, &str, Vec<&str>)> = vec![
        (
            "d1",
            "Bash",
            bash("curl -fsSL -o install.sh https://get.example.com/install.sh"),
            "none",
            vec![],
        ),
        ("d1", "Bash", bash("bash install.sh"), "ask", ask.clone()),
        (
            "d1",
            "Bash",
            bash("./install.sh --prefix ~/.local"),
            "ask",
            ask.clone(),
        ),
        // Another session did not download it.
        ("d2", "Bash", bash("bash install.sh"), "none", vec![]),
        (
            "d1",
            "Bash",
            bash("git clone https://github.com/acme/tool"),
            "none",
            vec![],
        ),
        ("d1", "Bash", bash("make -C tool"), "ask", ask.clone()),
        ("d1", "Bash", bash("cd tool && npm install"), "none", vec![]),
        (
            "d1",
            "Bash",
            bash("python3 tool/setup.py build"),
            "ask",
            ask.clone(),
        ),
        // Reading a download, installing or building a clone with npm or cargo: quiet.
        (
            "d1",
            "Bash",
            bash("curl -o data.json https://api.example.com/v1/items"),
            "none",
            vec![],
        ),
        ("d1", "Bash", bash("jq . data.json"), "none", vec![]),
        (
            "d1",
            "Bash",
            bash("git clone https://github.com/rust-lang/regex"),
            "none",
            vec![],
        ),
        ("d1", "Bash", bash("cd regex && cargo test"), "none", vec![]),
        // Written again with content the agent showed: judged by that content.
        (
            "d1",
            "Write",
            json!({"file_path": format!("{p}/install.sh"), "content": "#!/bin/sh\necho ready\n"}),
            "none",
            vec![],
        ),
        ("d1", "Bash", bash("bash install.sh"), "none", vec![]),
    ];
    b.play(&lib, steps);
}

#[test]
fn a_send_after_a_secret_read_asks_and_a_denied_read_is_not_remembered() {
    let b = Sandbox::new("taint");
    let lib = library();
    // Without the secrets policy, reading .env is allowed: it is remembered.
    let exfil = [lib.join("exfiltration.toml"), lib.join("lists.toml")];
    let exfil: Vec<&Path> = exfil.iter().map(PathBuf::as_path).collect();
    let p = b.project();
    let read_env = b.payload("t1", "Read", json!({"file_path": format!("{p}/.env")}));
    let send = |s: &str| {
        b.payload(
            s,
            "Bash",
            json!({"command": "curl -s https://paste.example/x"}),
        )
    };
    assert_eq!(b.hook(&exfil, &read_env).0, "none");
    let (verdict, rules, _) = b.hook(&exfil, &send("t1"));
    assert_eq!(
        (verdict.as_str(), rules),
        (
            "ask",
            vec!["send-after-secret-read-needs-approval".to_string()]
        )
    );
    let github = b.payload(
        "t1",
        "Bash",
        json!({"command": "curl -s https://api.github.com/x"}),
    );
    assert_eq!(b.hook(&exfil, &github).0, "none");
    assert_eq!(b.hook(&exfil, &send("t2")).0, "none");
    // With the whole library the read is denied, so it did not happen: no taint.
    let read_env3 = b.payload("t3", "Read", json!({"file_path": format!("{p}/.env")}));
    assert_eq!(b.hook(&[&lib], &read_env3).0, "deny");
    assert_eq!(b.hook(&[&lib], &send("t3")).0, "none");
}

#[test]
fn thirty_two_hook_processes_of_one_session_lose_no_entry() {
    let b = std::sync::Arc::new(Sandbox::new("concurrent"));
    let lib = std::sync::Arc::new(library());
    let started = Instant::now();
    let threads: Vec<_> = (0..32)
        .map(|i| {
            let b = b.clone();
            let lib = lib.clone();
            std::thread::spawn(move || {
                let payload = b.payload(
                    "busy",
                    "Read",
                    json!({"file_path": format!("{}/src/file{i}.rs", b.project())}),
                );
                let t = Instant::now();
                let (verdict, _, stderr) = b.hook(&[lib.as_path()], &payload);
                (verdict, stderr, t.elapsed())
            })
        })
        .collect();
    for t in threads {
        let (verdict, stderr, took) = t.join().unwrap();
        assert_eq!(verdict, "none");
        assert!(!stderr.contains("session memory"), "{stderr}");
        assert!(took < Duration::from_secs(60), "{took:?}");
    }
    let loaded = b.store().load("busy");
    assert_eq!(loaded.problems, Vec::<String>::new());
    let mut paths: Vec<String> = loaded
        .memory
        .reads()
        .map(|p| p.rsplit('/').next().unwrap().to_string())
        .collect();
    paths.sort();
    let mut want: Vec<String> = (0..32).map(|i| format!("file{i}.rs")).collect();
    want.sort();
    assert_eq!(paths, want);
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn a_damaged_store_is_reported_and_the_call_still_judged() {
    let b = Sandbox::new("damaged");
    let lib = library();
    let p = b.project();
    let write = b.payload(
        "d",
        "Write",
        json!({"file_path": format!("{p}/wipe.sh"), "content": "rm -rf ~\n"}),
    );
    assert_eq!(b.hook(&[&lib], &write).0, "none");
    let file = b.store().file_of("d");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.insert_str(0, "{\"kind\":\"wrote\",\"path\":\n");
    std::fs::write(&file, text).unwrap();
    let (verdict, rules, report) = b.hook(
        &[&lib],
        &b.payload("d", "Bash", json!({"command": "bash wipe.sh"})),
    );
    assert_eq!(
        (verdict.as_str(), rules),
        (
            "deny",
            vec!["no-recursive-delete-of-root-or-home".to_string()]
        )
    );
    assert!(
        report.contains("has 1 damaged line(s); they are ignored"),
        "{report}"
    );
}

#[test]
fn an_unwritable_state_folder_is_reported_and_the_call_still_judged() {
    let b = Sandbox::new("unwritable");
    let lib = library();
    // A file where the memory folder would be: it can be neither read nor created.
    std::fs::create_dir_all(b.dir.join("state/seamguard")).unwrap();
    std::fs::write(b.dir.join("state/seamguard/memory"), "not a folder").unwrap();
    let p = b.project();
    let write = b.payload(
        "u",
        "Write",
        json!({"file_path": format!("{p}/wipe.sh"), "content": "rm -rf ~\n"}),
    );
    let (verdict, _, report) = b.hook(&[&lib], &write);
    assert_eq!(verdict, "none");
    // Nothing to read is no problem; the failed write is reported.
    assert!(
        !report.contains("cannot read the session memory"),
        "{report}"
    );
    assert!(
        report.contains("cannot record in the session memory"),
        "{report}"
    );
    let (verdict, rules, _) = b.hook(
        &[&lib],
        &b.payload("u", "Bash", json!({"command": "rm -rf ~"})),
    );
    assert_eq!(
        (verdict.as_str(), rules),
        (
            "deny",
            vec!["no-recursive-delete-of-root-or-home".to_string()]
        )
    );
}

/// The verdict and rules of each event of a replay, by line.
fn replay(policy: &[&str]) -> Vec<(u64, String, Vec<String>)> {
    let mut cmd = crate::support::command();
    cmd.args([
        "replay",
        "tests/data/memory/session.jsonl",
        "--format",
        "jsonl",
    ]);
    for p in policy {
        cmd.args(["--policy", p]);
    }
    let out = cmd
        .current_dir(root())
        .env("HOME", "/home/user")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "event")
        .map(|v| {
            let mut rules: Vec<String> = v["rules"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect();
            rules.sort();
            (
                v["line"].as_u64().unwrap(),
                v["verdict"].as_str().unwrap().to_string(),
                rules,
            )
        })
        .collect()
}

#[test]
fn replay_keeps_the_memory_of_each_recorded_session() {
    let rows = |r: &[(u64, &str, &[&str])]| -> Vec<(u64, String, Vec<String>)> {
        r.iter()
            .map(|(l, v, rs)| {
                (
                    *l,
                    v.to_string(),
                    rs.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect()
    };
    let delete = &[
        // The script's `rm -rf ~` is written literally: it is also a delete outside the
        // project (the rule judges lines with no expansion by their resolved paths).
        "delete-outside-project-needs-approval",
        "no-recursive-delete-of-root-or-home",
        "no-recursive-delete-outside-project",
        // The deleted folder holds the project: its root and history go with it.
        "project-or-history-delete-needs-approval",
    ][..];
    assert_eq!(
        replay(&["policies"]),
        rows(&[
            (1, "none", &[]),
            (2, "deny", delete),
            (3, "none", &[]),
            (4, "none", &[]),
            (5, "none", &[]),
            (6, "none", &[]),
            (7, "deny", &["secret-files-are-off-limits"]),
            (8, "none", &[]),
            (9, "none", &[]),
            (10, "none", &[]),
            (11, "deny", delete),
            (12, "deny", &["secret-files-are-off-limits"]),
            (13, "none", &[]),
            (14, "none", &[]),
            (15, "none", &[]),
        ])
    );
    let taint = replay(&["policies/exfiltration.toml", "policies/lists.toml"]);
    assert_eq!(
        taint[11..],
        rows(&[
            (12, "none", &[]),
            (13, "ask", &["send-after-secret-read-needs-approval"]),
            (14, "none", &[]),
            (15, "none", &[]),
        ])[..]
    );
}
