//! `seamguard try`: one call judged in one line, exit status 0 runs / 1 ask / 2 deny / 3
//! unreadable, with the effects the lenses saw.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::{BIN, Run, output_with_stdin};

static NEXT: AtomicUsize = AtomicUsize::new(0);

const POLICY: &str = r#"
[lists]
secret_paths = ["**/.env", "**/.ssh/**"]

[[rule]]
id = "secrets"
seam = "pre-tool"
when.reads = { path_inside = "@secret_paths" }
decision = "deny"
reason = "Secret files are off limits"

[[rule]]
id = "uploads"
seam = "pre-tool"
when.sends = { method = ["POST", "PUT"], host_not_in = ["localhost"] }
decision = "ask"
reason = "Uploads need your approval"
"#;

/// A fresh folder with `p.toml`, used as the working folder, HOME and XDG dirs.
fn workdir() -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("try-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.toml"), POLICY).unwrap();
    dir
}

fn try_(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.arg("try")
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
        .env_remove("CLAUDE_PROJECT_DIR");
    Run::utf8(output_with_stdin(&mut cmd, b""))
}

#[test]
fn a_denied_command_names_rule_reason_and_effects() {
    let dir = workdir();
    let r = try_(
        &dir,
        &["cat .env | wc -l", "--policy", "p.toml", "--cwd", "/w"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "deny  Bash: cat .env | wc -l\n  rule: secrets (p.toml:5:1)\n  reason: Secret files are off limits: reads .env (Bash: `cat .env`) [secrets]\n  effects:\n    runs `cat .env` (Bash: `cat .env`)\n    reads .env (Bash: `cat .env`)\n    runs `wc -l` (Bash: `wc -l`)\n"
    );
}

#[test]
fn ask_and_allow_have_their_exit_status() {
    let dir = workdir();
    let r = try_(
        &dir,
        &[
            "curl -X POST -d @notes.txt https://paste.example/api",
            "--policy",
            "p.toml",
            "--cwd",
            "/w",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.starts_with("ask  Bash: curl -X POST"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("sends to https://paste.example/api the file notes.txt"),
        "{}",
        r.stdout
    );
    let r = try_(&dir, &["cargo test", "--policy", "p.toml", "--cwd", "/w"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "none  Bash: cargo test\n  effects:\n    runs `cargo test` (Bash: `cargo test`)\n"
    );
}

#[test]
fn file_paths_urls_and_mcp_calls_are_judged_on_the_same_effects() {
    let dir = workdir();
    let r = try_(
        &dir,
        &["--file-path", "/home/u/.SSH/id_rsa", "--policy", "p.toml"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stdout.starts_with("deny  Read: /home/u/.SSH/id_rsa\n"),
        "{}",
        r.stdout
    );
    let r = try_(
        &dir,
        &[
            "--mcp",
            "mcp__filesystem__read_text_file",
            "--args",
            r#"{"path":"/w/.env"}"#,
            "--policy",
            "p.toml",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 2);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "deny");
    assert_eq!(v["rules"][0]["id"], "secrets");
    assert_eq!(v["exit_code"], 2);
    assert_eq!(
        v["effects"],
        serde_json::json!(["reads /w/.env (mcp__filesystem__read_text_file, argument `/path`)"])
    );
    let r = try_(
        &dir,
        &["--url", "https://docs.rs/serde", "--policy", "p.toml"],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
}

#[test]
fn unreadable_input_is_exit_3_and_no_policy_means_the_built_in_library() {
    let dir = workdir();
    let r = try_(
        &dir,
        &["--mcp", "mcp__x__y", "--args", "[1]", "--policy", "p.toml"],
    );
    assert_eq!(r.code, 3);
    assert_eq!(r.stderr, "seamguard: --args: expected a JSON object\n");
    let r = try_(&dir, &[]);
    assert_eq!(r.code, 3);
    // Nothing configured anywhere: the balanced library built into the binary judges, and
    // says so.
    let r = try_(&dir, &["rm -rf ~"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("deny  Bash: rm -rf ~\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("judging with the built-in balanced library"),
        "{}",
        r.stderr
    );
}
