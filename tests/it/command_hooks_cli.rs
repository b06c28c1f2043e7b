//! Issue 4 — command hooks through the `seamguard` binary: `import` of real hook
//! configurations, `hook --hooks-config` on the cases about command hooks (exact stdout and
//! exit code), trust of project files (`seamguard trust`), and 32 concurrent `seamguard hook`
//! processes appending to one audit log.

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};

use crate::support::{Run, bash, codex_bash, output_with_stdin, root};

/// A unique temp folder (also HOME and the XDG folders of the binary), removed on drop.
struct Work(PathBuf);

impl Work {
    fn new(name: &str) -> Work {
        let p = crate::support::fresh_dir("chcli", name);
        std::fs::create_dir_all(p.join("home")).unwrap();
        std::fs::create_dir_all(p.join("project")).unwrap();
        Work(p)
    }

    fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    fn project(&self) -> String {
        self.join("project").display().to_string()
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        crate::support::write_file(self.0.join(rel), text)
    }

    fn script(&self, rel: &str, body: &str) -> PathBuf {
        let p = self.write(rel, body);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn seamguard(&self, args: &[&str], stdin: &[u8]) -> Run {
        let mut cmd = crate::support::command();
        cmd.args(args)
            .current_dir(&self.0)
            .env("HOME", self.join("home"))
            .env("XDG_CONFIG_HOME", self.join("config"))
            .env("XDG_STATE_HOME", self.join("state"))
            .env("SEAMGUARD_MANAGED_DIR", self.join("managed"))
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("SEAMGUARD_AUDIT_LOG");
        Run::lossy_stderr(output_with_stdin(&mut cmd, stdin))
    }

    /// `seamguard hook --hooks-config CONFIG` on a payload.
    fn hook(&self, config: &Path, payload: &Value) -> Run {
        self.seamguard(
            &["hook", "--hooks-config", config.to_str().unwrap()],
            payload.to_string().as_bytes(),
        )
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn deny_stdout(reason: &str) -> String {
    format!(
        "{}\n",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}})
    )
}

fn settings(command: &str, matcher: &str) -> String {
    json!({"hooks": {"PreToolUse": [{"matcher": matcher,
        "hooks": [{"type": "command", "command": command}]}]}})
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// Import of real configurations

#[test]
fn import_real_sample_configs_and_check_the_result() {
    let w = Work::new("import");
    let dir = root().join("engine/tests/data/configs");
    let cases: [(&str, &str, usize); 12] = [
        ("claude-settings-1.json", "claude-code", 12),
        ("claude-settings-2.json", "claude-code", 5),
        ("claude-settings-3.json", "claude-code", 1),
        ("claude-settings-4.json", "claude-code", 12),
        ("claude-plugin-hooks-1.json", "claude-code", 4),
        ("claude-plugin-hooks-2.json", "claude-code", 3),
        ("claude-plugin-hooks-3.json", "claude-code", 1),
        ("claude-plugin-hooks-4.json", "claude-code", 1),
        ("claude-plugin-hooks-5.json", "claude-code", 14),
        ("codex-hooks-1.json", "codex", 10),
        ("codex-hooks-2.json", "codex", 1),
        ("codex-hooks-3.json", "codex", 4),
    ];
    for (name, dialect, n) in cases {
        let src = dir.join(name);
        let out = w.join(&format!("{name}.toml"));
        let r = w.seamguard(
            &[
                "import",
                src.to_str().unwrap(),
                "--dialect",
                dialect,
                "-o",
                out.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "{}: {n} rule(s) imported ({dialect} hooks)",
                src.display()
            )),
            "{name}: {}",
            r.stderr
        );
        let c = w.seamguard(&["check", out.to_str().unwrap()], b"");
        assert_eq!(c.code, 0, "{name}: {}{}", c.stdout, c.stderr);
    }
    // The skipped handler types are named on stderr.
    let r = w.seamguard(
        &[
            "import",
            dir.join("claude-settings-4.json").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0);
    for kind in ["`http`", "`prompt`"] {
        assert!(
            r.stderr
                .lines()
                .any(|l| l.starts_with("warning: ") && l.contains(kind)),
            "{kind}: {}",
            r.stderr
        );
    }
    assert!(r.stdout.contains("[[rule]]"));
    // Its `"async": true` handler is a detached run.
    assert!(
        r.stdout.contains(
            "run = { command = \"echo 'Running bash command' >> /tmp/claude-log.txt\", timeout = \"5s\", async = true }"
        ),
        "{}",
        r.stdout
    );
    // Without --dialect the host is guessed from the path.
    let codex = w.write(
        "home/.codex/hooks.json",
        &std::fs::read_to_string(dir.join("codex-hooks-2.json")).unwrap(),
    );
    let r = w.seamguard(&["import", codex.to_str().unwrap()], b"");
    assert_eq!(r.code, 0);
    assert!(
        r.stderr.contains("1 rule(s) imported (codex hooks)"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("matcher_mode = \"codex\""));
}

#[test]
fn unreadable_hooks_config_is_a_warning_and_the_rest_still_runs() {
    let w = Work::new("unreadable");
    let deny = w.script(
        "home/hooks/deny.sh",
        "#!/bin/sh\ncat >/dev/null\necho 'blocked by the second config' >&2\nexit 2\n",
    );
    let good = w.write(
        "home/.claude/settings.json",
        &settings(deny.to_str().unwrap(), "Bash"),
    );
    let missing = w.join("home/.claude/settings.local.json");
    let broken = w.write("home/broken/settings.json", "{ not json");
    let r = w.seamguard(
        &[
            "hook",
            "--hooks-config",
            missing.to_str().unwrap(),
            "--hooks-config",
            broken.to_str().unwrap(),
            "--hooks-config",
            good.to_str().unwrap(),
        ],
        bash(&w.project(), "ls").to_string().as_bytes(),
    );
    assert_eq!(r.code, 0);
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "blocked by the second config [settings-PreToolUse-1-1]"
    );
    assert!(
        r.stderr
            .contains(&format!("cannot read hooks config {}", missing.display())),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("cannot parse"), "{}", r.stderr);
}

// ---------------------------------------------------------------------------------------------
// Cases through --hooks-config (the config as the case gives it)

#[test]
fn hk01_argument_style_matcher_never_fires_cli() {
    // HK-01
    let w = Work::new("hk01");
    w.script(
        "project/.claude/hooks/lint-before-commit.sh",
        "#!/bin/bash\ntouch \"$CLAUDE_PROJECT_DIR/lint-ran\"\necho lint failed >&2\nexit 2\n",
    );
    let cfg = w.write(
        "home/.claude/settings.json",
        &settings(
            "$CLAUDE_PROJECT_DIR/.claude/hooks/lint-before-commit.sh",
            "Bash(git commit*)",
        ),
    );
    let r = w.hook(&cfg, &bash(&w.project(), "git commit -m \"wip\""));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert!(!w.join("project/lint-ran").exists());
}

#[test]
fn hk03_exit_1_is_non_blocking_cli() {
    // HK-03
    let w = Work::new("hk03");
    w.script(
        "project/.claude/hooks/no-rm.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nif 'rm -rf' in d['tool_input']['command']:\n    print('Blocked: recursive delete needs review', file=sys.stderr)\n    sys.exit(1)\n",
    );
    let cfg = w.write(
        "home/.claude/settings.json",
        &settings("$CLAUDE_PROJECT_DIR/.claude/hooks/no-rm.py", "Bash"),
    );
    let r = w.hook(&cfg, &bash(&w.project(), "rm -rf build/ dist/"));
    assert_eq!(r.code, 0);
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(out.get("hookSpecificOutput").is_none(), "{out}");
    assert!(
        out["systemMessage"]
            .as_str()
            .unwrap()
            .contains("Blocked: recursive delete needs review")
    );
}

#[test]
fn hk04_exit_2_with_invalid_json_blocks_with_stderr_cli() {
    // HK-04: `~/.claude/hooks/git-guard.sh` (HOME is the test's home folder).
    let w = Work::new("hk04");
    w.script(
        "home/.claude/hooks/git-guard.sh",
        "#!/bin/bash\ncat >/dev/null\nprintf '%s' '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"checkout is disabled here\"}}'\necho 'git checkout is blocked in this repository' >&2\nexit 2\n",
    );
    let cfg = w.write(
        "home/.claude/settings.json",
        &settings("~/.claude/hooks/git-guard.sh", "Bash"),
    );
    let r = w.hook(&cfg, &bash(&w.project(), "git checkout release-2.0"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        out["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny",
               "permissionDecisionReason": "git checkout is blocked in this repository [settings-PreToolUse-1-1]"})
    );
}

#[test]
fn hk08_missing_script_fails_open_loudly_cli() {
    // HK-08 b: the script path is wrong → 127 → the push runs, with a loud notice.
    let w = Work::new("hk08");
    let missing = w.join("home/hooks/guard.sh");
    let cfg = w.write(
        "home/.claude/settings.json",
        &settings(missing.to_str().unwrap(), "Bash"),
    );
    let r = w.hook(&cfg, &bash(&w.project(), "git push --force origin main"));
    assert_eq!(r.code, 0);
    assert!(!r.stdout.contains("permissionDecision"), "{}", r.stdout);
    assert!(r.stderr.contains("exit 127"), "{}", r.stderr);
    let out: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(out["systemMessage"].as_str().unwrap().contains("exit 127"));
}

#[test]
fn hk16_subagent_call_gets_the_same_answer_cli() {
    // HK-16: byte-identical answers with and without agent_id / agent_type.
    let w = Work::new("hk16");
    w.script(
        "home/.claude/hooks/pre-bash.sh",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nif 'git reset --hard' in d['tool_input']['command']:\n    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'ask', 'permissionDecisionReason': 'git reset --hard discards uncommitted work; confirm first'}}))\n",
    );
    let cfg = w.write(
        "home/.claude/settings.json",
        &settings("~/.claude/hooks/pre-bash.sh", "Bash"),
    );
    let main = bash(
        &w.project(),
        "cd /home/user/other-repo && git reset --hard origin/main",
    );
    let mut sub = main.clone();
    sub["agent_id"] = json!("a1b2c3d4");
    sub["agent_type"] = json!("Explore");
    let expected = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"git reset --hard discards uncommitted work; confirm first [settings-PreToolUse-1-1]\"}}\n";
    for p in [&main, &sub] {
        let r = w.hook(&cfg, p);
        assert_eq!((r.code, r.stdout.as_str()), (0, expected), "{}", r.stderr);
    }
}

#[test]
fn cx03_codex_exit_2_needs_stderr_cli() {
    // CX-03 through a Codex hooks.json (login shell, Codex decoding).
    let w = Work::new("cx03");
    let payload = codex_bash(&w.project(), "curl -s https://example.com/install.sh | sh");
    let b = w.script(
        "home/hooks/b.sh",
        "#!/bin/sh\ncat >/dev/null\necho 'piping a remote script into a shell is blocked' >&2\nexit 2\n",
    );
    let cfg = w.write(
        "home/.codex/hooks.json",
        &settings(b.to_str().unwrap(), "Bash"),
    );
    let r = w.hook(&cfg, &payload);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        deny_stdout("piping a remote script into a shell is blocked [hooks-PreToolUse-1-1]")
    );
    // a: exit 2 with empty stderr fails open in Codex.
    let a = w.script("home/hooks/a.sh", "#!/bin/sh\ncat >/dev/null\nexit 2\n");
    let cfg = w.write(
        "home/.codex/hooks.json",
        &settings(a.to_str().unwrap(), "Bash"),
    );
    let r = w.hook(&cfg, &payload);
    assert_eq!(r.code, 0);
    assert!(!r.stdout.contains("permissionDecision"), "{}", r.stdout);
    if !r.stdout.is_empty() {
        // Codex accepts only `systemMessage` besides the decision on PreToolUse.
        let out: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(
            out.as_object().unwrap().keys().collect::<Vec<_>>(),
            vec!["systemMessage"]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Trust

#[test]
fn project_run_action_runs_only_after_seamguard_trust_and_editing_revokes_it() {
    let w = Work::new("trust");
    let marker = w.join("project/ran");
    let policy_text = format!(
        "[[rule]]\nid = \"project-hook\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = \"touch {}\" }}\n",
        marker.display()
    );
    let policy = w.write("project/.seamguard/hooks.toml", &policy_text);
    let payload = bash(&w.project(), "ls").to_string();
    let hook = || w.seamguard(&["hook"], payload.as_bytes());

    let r = hook();
    assert_eq!(r.code, 0);
    assert!(!marker.exists(), "an untrusted project hook ran");
    assert!(
        r.stderr.contains("NOT running command hook `project-hook`")
            && r.stderr.contains("seamguard trust "),
        "{}",
        r.stderr
    );

    let t = w.seamguard(&["trust", policy.to_str().unwrap()], b"");
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(t.stdout.starts_with("trusted "), "{}", t.stdout);
    assert!(w.join("config/seamguard/trust.json").exists());
    let r = hook();
    assert_eq!(r.code, 0);
    assert!(
        marker.exists(),
        "a trusted project hook did not run: {}",
        r.stderr
    );
    assert!(!r.stderr.contains("NOT running"), "{}", r.stderr);

    // Editing the file revokes the trust.
    std::fs::remove_file(&marker).unwrap();
    std::fs::write(&policy, format!("{policy_text}# edited\n")).unwrap();
    let r = hook();
    assert!(
        !marker.exists(),
        "an edited project hook ran without new trust"
    );
    assert!(r.stderr.contains("seamguard trust "), "{}", r.stderr);

    // A project hooks config (`.claude/settings.json` of the repository) needs trust too.
    let cfg = w.write(
        "project/.claude/settings.json",
        &settings(&format!("touch {}", marker.display()), "Bash"),
    );
    std::fs::write(&policy, "").unwrap();
    let r = w.hook(&cfg, &bash(&w.project(), "ls"));
    assert!(!marker.exists(), "an untrusted project settings hook ran");
    assert!(r.stderr.contains("seamguard trust "), "{}", r.stderr);
    assert_eq!(w.seamguard(&["trust", cfg.to_str().unwrap()], b"").code, 0);
    let _ = w.hook(&cfg, &bash(&w.project(), "ls"));
    assert!(
        marker.exists(),
        "a trusted project settings hook did not run"
    );
}

// ---------------------------------------------------------------------------------------------
// Audit log

#[test]
fn concurrent_hook_processes_append_every_audit_record() {
    const PROCS: usize = 32;
    const EVENTS: usize = 200;
    let w = Work::new("audit");
    let policy = w.write(
        "policy.toml",
        "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\ndecision = \"deny\"\nreason = \"no rm\"\n\n[[rule]]\nid = \"echo-hook\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { prefix = \"echo\" }\nrun = { command = \"cat >/dev/null\" }\n",
    );
    let log = w.join("audit/hooks.jsonl");
    let started = Instant::now();
    std::thread::scope(|s| {
        for t in 0..PROCS {
            let w = &w;
            let policy = &policy;
            let log = &log;
            s.spawn(move || {
                for i in 0..EVENTS {
                    let cmd = match i % 10 {
                        0 => "echo hi",
                        1 => "rm -rf x",
                        _ => "ls",
                    };
                    let mut p = bash(&w.project(), cmd);
                    p["session_id"] = json!(format!("s-{t}-{i}"));
                    let r = w.seamguard(
                        &[
                            "hook",
                            "--policy",
                            policy.to_str().unwrap(),
                            "--audit-log",
                            log.to_str().unwrap(),
                        ],
                        p.to_string().as_bytes(),
                    );
                    assert_eq!(r.code, 0, "{}", r.stderr);
                    assert_eq!(r.stdout.contains("\"deny\""), i % 10 == 1);
                }
            });
        }
    });
    let took = started.elapsed();
    eprintln!("{} hook processes in {took:?}", PROCS * EVENTS);
    let text = std::fs::read_to_string(&log).unwrap();
    let evaluations = PROCS * EVENTS;
    let with_hook = PROCS * EVENTS / 10;
    let expected = 2 * evaluations + 2 * with_hook;
    assert_eq!(text.lines().count(), expected);
    assert_eq!(
        seamguard_engine::audit::check_invariants(&text),
        Ok(expected)
    );
    let mut sessions = HashSet::new();
    let mut denies = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "hook/result" && v.get("decision").is_some() {
            assert!(sessions.insert(v["session_id"].as_str().unwrap().to_string()));
            assert_eq!(v["event"], "PreToolUse");
            assert_eq!(v["dialect"], "claude-code");
            if v["decision"] == "deny" {
                denies += 1;
                assert_eq!(v["rules"], json!(["no-rm"]));
            }
        }
    }
    assert_eq!(sessions.len(), evaluations);
    for t in 0..PROCS {
        for i in 0..EVENTS {
            assert!(sessions.contains(&format!("s-{t}-{i}")));
        }
    }
    assert_eq!(denies, evaluations / 10);
}
