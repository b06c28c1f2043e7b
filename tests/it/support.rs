//! What several test modules share: the tested binary, the repository root and running the
//! binary with a standard input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

#[path = "../../engine/tests/it/fixtures.rs"]
#[allow(dead_code, reason = "the engine tests use the other fixtures")]
mod fixtures;
pub(crate) use fixtures::{bash, codex_bash, fresh_dir};

/// The `seamguard` binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_seamguard");

/// `seamguard` as a command, every hook call judged in its own process: no resident server
/// asked or started (`SEAMGUARD_SERVE=0`; tests/it/serve_cli.rs tests the servers).
pub(crate) fn seamguard() -> Command {
    let mut c = Command::new(BIN);
    c.env("SEAMGUARD_SERVE", "0");
    c
}

/// The repository root (the root crate's folder).
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd` with `stdin` written to its standard input, and collects its output.
pub(crate) fn output_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn seamguard");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("wait for seamguard")
}

/// A finished run of the binary: its text output and exit code.
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
