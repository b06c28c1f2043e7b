//! What several test modules share: the tested binary, the repository root and running the
//! binary with a standard input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

#[path = "../../engine/tests/it/fixtures.rs"]
#[allow(dead_code, reason = "the engine tests use the other fixtures")]
mod fixtures;
pub(crate) use fixtures::{bash, codex_bash, fresh_dir, recorded_engine};

/// The `seamguard` binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_seamguard");

/// `seamguard` as a command, every hook call judged in its own process: no resident server
/// asked or started (`SEAMGUARD_SERVE=0`; tests/it/serve_cli.rs tests the servers).
pub(crate) fn seamguard() -> Command {
    command()
}

/// The repository root (the root crate's folder).
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The home folder every run of the binary gets unless its test gives its own: an empty
/// folder under the build's temp folder, one per test process. Its config and state folders
/// (`XDG_CONFIG_HOME`, `XDG_STATE_HOME`) are inside it, so a test never reads the policies
/// of whoever runs it, nor leaves audit records, caches, grants or session memory in their
/// home.
pub(crate) fn test_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let home =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("home-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).expect("make the test home");
        home
    })
}

/// The `seamguard` binary under test, with [`test_home`] as `HOME` (and its
/// `.config` / `.local/state` as `XDG_CONFIG_HOME` / `XDG_STATE_HOME`) and no
/// `CLAUDE_PROJECT_DIR`; a test that needs its own folders sets them again.
pub(crate) fn command() -> Command {
    let home = test_home();
    let mut cmd = Command::new(BIN);
    // No resident server is asked or started (tests/it/serve_cli.rs tests them).
    cmd.env("SEAMGUARD_SERVE", "0");
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local").join("state"))
        .env_remove("CLAUDE_PROJECT_DIR");
    cmd
}

/// A new, empty working folder for one test, `<name>-<pid>-<n>` in the build's temp folder.
pub(crate) fn workdir(name: &str) -> PathBuf {
    fixtures::new_dir_in(Path::new(env!("CARGO_TARGET_TMPDIR")), name)
}

/// [`workdir`] with `files` (name, text) written into it.
pub(crate) fn workdir_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = workdir(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write a test file");
    }
    dir
}

/// [`command`] kept to one test's folder: run in `dir`, with `home` as `HOME` and `dir`'s
/// `config`, `state` and `managed` folders as the configuration, state and managed-policy
/// folders; no audit-log path and no project directory taken from the caller's environment.
pub(crate) fn command_in(dir: &Path, home: &Path) -> Command {
    let mut cmd = command();
    cmd.current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
        .env_remove("SEAMGUARD_AUDIT_LOG")
        .env_remove("CLAUDE_PROJECT_DIR");
    cmd
}

/// Runs `seamguard ARGS` kept to `dir` as [`command_in`] does (with `home` as `HOME`), with
/// `stdin` on its standard input.
pub(crate) fn seamguard_in(dir: &Path, home: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut cmd = command_in(dir, home);
    cmd.args(args);
    Run::utf8(output_with_stdin(&mut cmd, stdin))
}

/// [`seamguard_in`] with `dir/home` as `HOME`.
pub(crate) fn seamguard_home_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    seamguard_in(dir, &dir.join("home"), args, stdin)
}

/// Writes `text` to `path`, making its parent folders; returns the path.
pub(crate) fn write_file(path: PathBuf, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().expect("a file path has a parent")).expect("mkdir");
    std::fs::write(&path, text).expect("write file");
    path
}

/// Runs `cmd` with `stdin` written to its standard input, and collects its output.
/// Start `cmd`, retrying while Linux refuses with "Text file busy" (ETXTBSY): a test that
/// copies the binary and runs the copy races the other test threads, whose children hold the
/// copy's write descriptor open between their `fork` and `exec`, for a few milliseconds.
pub(crate) fn spawn(cmd: &mut Command) -> std::process::Child {
    const ETXTBSY: i32 = 26;
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other.expect("spawn seamguard"),
        }
    }
}

pub(crate) fn output_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = spawn(
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("wait for seamguard")
}

/// A finished run of the binary: its text output and exit code.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: i32,
}

impl Run {
    /// A run whose stdout and stderr must both be UTF-8.
    pub(crate) fn utf8(out: Output) -> Run {
        Run {
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
            code: out.status.code().unwrap(),
        }
    }

    /// A run whose stdout must be UTF-8; stderr (which may carry a hook's raw bytes) is
    /// read lossily.
    pub(crate) fn lossy_stderr(out: Output) -> Run {
        Run {
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap(),
        }
    }
}
