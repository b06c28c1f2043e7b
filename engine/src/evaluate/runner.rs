//! Command hooks: run external hook commands exactly as the host would (HOOKS.md A2, B1).
//!
//! * **Shell**: Claude Code runs `sh -c <command>`; Codex runs `$SHELL -lc <command>` (a login
//!   shell; `/bin/sh` when `SHELL` is unset).
//! * **Input**: the payload JSON on stdin, then stdin is closed.
//! * **Environment**: the caller's, plus `CLAUDE_PROJECT_DIR` for Claude Code, plus the hook's
//!   own variables (plugin roots of imported plugin hooks).
//! * **Working directory**: the payload's `cwd` when it exists.
//! * **Concurrency**: every matching hook of an event runs at once on one tokio
//!   current-thread runtime; results come back in declared order, whatever finishes first.
//! * **Containment**: each hook runs in its own process group; a timeout kills the whole group
//!   (grandchildren too). stdout and stderr are each capped at [`OUTPUT_CAP_BYTES`]; the rest
//!   is drained and dropped, and the truncation is reported. A command that cannot be started
//!   is reported as a failed hook, never ignored.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use crate::decision::HookRun;
use crate::dialect::Dialect;
use crate::policy::{OnError, Source};

/// Cap on each of stdout and stderr of one command hook: 1 MiB (1,048,576 bytes).
pub const OUTPUT_CAP_BYTES: usize = 1 << 20;

/// A command hook to run.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandHook {
    /// Rule id (or imported handler id).
    pub id: String,
    /// The shell command line.
    pub command: String,
    /// Timeout in milliseconds.
    pub timeout_ms: u64,
    /// What a failure means.
    pub on_error: OnError,
    /// Where the hook is declared.
    pub source: Option<Source>,
    /// Extra environment variables (`CLAUDE_PLUGIN_ROOT`, …).
    pub env: Vec<(String, String)>,
    /// A detached run (`run = { …, async = true }`): its result takes no part in the decision.
    pub detached: bool,
}

impl CommandHook {
    /// A hook `id` running `command` with a timeout of `timeout_ms`, whose failure is
    /// ignored, declared nowhere and with no extra environment.
    pub fn new(id: impl Into<String>, command: impl Into<String>, timeout_ms: u64) -> CommandHook {
        CommandHook {
            id: id.into(),
            command: command.into(),
            timeout_ms,
            on_error: OnError::Ignore,
            source: None,
            env: Vec::new(),
            detached: false,
        }
    }
}

/// What one command hook did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunResult {
    /// Exit code; `None` when killed (timeout, signal) or never started.
    pub exit_code: Option<i32>,
    /// stdout, at most [`OUTPUT_CAP_BYTES`].
    pub stdout: Vec<u8>,
    /// stderr, at most [`OUTPUT_CAP_BYTES`].
    pub stderr: Vec<u8>,
    /// stdout was longer than the cap.
    pub stdout_truncated: bool,
    /// stderr was longer than the cap.
    pub stderr_truncated: bool,
    /// Killed at the timeout (with its process group).
    pub timed_out: bool,
    /// The command could not be started at all.
    pub spawn_error: Option<String>,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
}

impl RunResult {
    /// What is reported of this run of `hook` (audit, `hook/result` records).
    pub fn hook_run(&self, hook: &CommandHook) -> HookRun {
        HookRun {
            id: hook.id.clone(),
            command: hook.command.clone(),
            exit_code: self.exit_code,
            timed_out: self.timed_out,
            duration_ms: self.duration_ms,
            failure: self.failure(),
        }
    }

    /// A short description of a failure, if the run failed in a way the host would report
    /// (`None` for exit 0 and exit 2).
    pub fn failure(&self) -> Option<String> {
        if let Some(e) = &self.spawn_error {
            return Some(format!("could not start: {e}"));
        }
        if self.timed_out {
            return Some(format!(
                "timed out after {} ms (process group killed)",
                self.duration_ms
            ));
        }
        match self.exit_code {
            Some(0) | Some(2) => None,
            Some(127) => Some(format!(
                "exit 127: command not found ({})",
                first_line(&self.stderr)
            )),
            Some(126) => Some(format!(
                "exit 126: not executable ({})",
                first_line(&self.stderr)
            )),
            Some(c) => Some(format!("exit {c}: {}", first_line(&self.stderr))),
            None => Some("killed by a signal".to_string()),
        }
    }
}

fn first_line(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let l = s.trim().lines().next().unwrap_or("").to_string();
    if l.chars().count() > 200 {
        format!("{}…", l.chars().take(199).collect::<String>())
    } else {
        l
    }
}

/// Where and how a batch of hooks runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunContext {
    /// Host convention for the shell and environment.
    pub dialect: Dialect,
    /// Working directory (the payload's `cwd`).
    pub cwd: Option<String>,
    /// `CLAUDE_PROJECT_DIR` to give Claude Code hooks.
    pub project_dir: Option<String>,
}

async fn read_capped<R: AsyncRead + Unpin>(r: Option<R>) -> (Vec<u8>, bool) {
    let Some(mut r) = r else {
        return (Vec::new(), false);
    };
    let mut out = Vec::new();
    let mut truncated = false;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = OUTPUT_CAP_BYTES.saturating_sub(out.len());
                let take = n.min(room);
                out.extend_from_slice(buf.get(..take).unwrap_or(&[]));
                if take < n {
                    truncated = true;
                }
            }
        }
    }
    (out, truncated)
}

fn kill_group(pid: Option<u32>) {
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

/// Run one command hook to completion or timeout.
pub async fn run_one(hook: &CommandHook, input: Arc<Vec<u8>>, cx: &RunContext) -> RunResult {
    let started = Instant::now();
    let (shell, flag) = match cx.dialect {
        Dialect::ClaudeCode | Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli => {
            ("/bin/sh".to_string(), "-c")
        }
        Dialect::Codex => (
            std::env::var("SHELL")
                .ok()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "/bin/sh".to_string()),
            "-lc",
        ),
    };
    let mut cmd = tokio::process::Command::new(&shell);
    cmd.arg(flag)
        .arg(&hook.command)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(d) = cx.cwd.as_deref().filter(|d| Path::new(d).is_dir()) {
        cmd.current_dir(d);
    }
    if cx.dialect == Dialect::ClaudeCode
        && let Some(p) = cx.project_dir.as_deref().or(cx.cwd.as_deref())
    {
        cmd.env("CLAUDE_PROJECT_DIR", p);
    }
    for (k, v) in &hook.env {
        cmd.env(k, v);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RunResult {
                spawn_error: Some(format!("{shell}: {e}")),
                duration_ms: started.elapsed().as_millis() as u64,
                ..RunResult::default()
            };
        }
    };
    let pid = child.id();
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let write = async move {
        if let Some(mut s) = stdin {
            // A hook that does not read its input closes the pipe early: not an error.
            let _ = s.write_all(&input).await;
            let _ = s.shutdown().await;
        }
    };
    let work = async {
        let ((), (out, out_t), (err, err_t), status) = tokio::join!(
            write,
            read_capped(stdout),
            read_capped(stderr),
            child.wait()
        );
        (out, out_t, err, err_t, status)
    };
    let limit = Duration::from_millis(hook.timeout_ms.max(1));
    match tokio::time::timeout(limit, work).await {
        Ok((stdout, stdout_truncated, stderr, stderr_truncated, status)) => {
            // Grandchildren that outlive the hook are its own business; the group is only
            // killed on timeout.
            let exit_code = status.ok().and_then(|s| s.code());
            RunResult {
                exit_code,
                stdout,
                stderr,
                stdout_truncated,
                stderr_truncated,
                timed_out: false,
                spawn_error: None,
                duration_ms: started.elapsed().as_millis() as u64,
            }
        }
        Err(_) => {
            kill_group(pid);
            let _ = child.kill().await;
            RunResult {
                timed_out: true,
                duration_ms: started.elapsed().as_millis() as u64,
                ..RunResult::default()
            }
        }
    }
}

/// Run hooks concurrently; results are returned in the order of `hooks`.
///
/// Builds a current-thread tokio runtime for the batch (only when there is something to run).
pub fn run_all(hooks: &[CommandHook], input: &[u8], cx: &RunContext) -> Vec<RunResult> {
    if hooks.is_empty() {
        return Vec::new();
    }
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            return hooks
                .iter()
                .map(|_| RunResult {
                    spawn_error: Some(format!("cannot start the async runtime: {e}")),
                    ..RunResult::default()
                })
                .collect();
        }
    };
    let input = Arc::new(input.to_vec());
    rt.block_on(async {
        let mut set = tokio::task::JoinSet::new();
        for (i, h) in hooks.iter().enumerate() {
            let h = h.clone();
            let cx = cx.clone();
            let input = input.clone();
            set.spawn(async move { (i, run_one(&h, input, &cx).await) });
        }
        let mut out: Vec<Option<RunResult>> = vec![None; hooks.len()];
        while let Some(r) = set.join_next().await {
            if let Ok((i, res)) = r
                && let Some(slot) = out.get_mut(i)
            {
                *slot = Some(res);
            }
        }
        out.into_iter()
            .map(|r| {
                r.unwrap_or(RunResult {
                    spawn_error: Some("the hook task panicked".into()),
                    ..RunResult::default()
                })
            })
            .collect()
    })
}

/// Something that runs command hooks for the engine (a process runner in the CLI; a fake in
/// tests).
pub trait HookRunner: Send + Sync {
    /// Run the hooks (concurrently) and return one result per hook, in order.
    fn run(&self, hooks: &[CommandHook], input: &[u8], cx: &RunContext) -> Vec<RunResult>;
}

/// The real runner: processes, as described in the module docs.
#[derive(Debug, Default, Clone, Copy)]
pub struct ProcessRunner;

impl HookRunner for ProcessRunner {
    fn run(&self, hooks: &[CommandHook], input: &[u8], cx: &RunContext) -> Vec<RunResult> {
        run_all(hooks, input, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(cmd: &str, timeout_ms: u64) -> CommandHook {
        CommandHook::new("t", cmd, timeout_ms)
    }

    fn cx() -> RunContext {
        RunContext {
            dialect: Dialect::ClaudeCode,
            cwd: None,
            project_dir: Some("/proj".into()),
        }
    }

    #[test]
    fn stdin_stdout_stderr_exit() {
        let r = run_all(
            &[hook("cat; echo err >&2; exit 2", 5000)],
            b"{\"a\":1}",
            &cx(),
        );
        assert_eq!(r[0].exit_code, Some(2));
        assert_eq!(r[0].stdout, b"{\"a\":1}");
        assert_eq!(r[0].stderr, b"err\n");
        let r = run_all(
            &[hook("printf %s \"$CLAUDE_PROJECT_DIR\"", 5000)],
            b"",
            &cx(),
        );
        assert_eq!(r[0].stdout, b"/proj");
    }

    #[test]
    fn timeout_kills_the_group_and_hooks_run_concurrently() {
        let t = Instant::now();
        let r = run_all(
            &[
                hook("sleep 30 & sleep 30; echo never", 300),
                hook("sleep 0.2; echo ok", 5000),
            ],
            b"",
            &cx(),
        );
        assert!(r[0].timed_out);
        assert_eq!(r[0].exit_code, None);
        assert_eq!(r[1].stdout, b"ok\n");
        assert!(t.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn output_is_capped() {
        let r = run_all(&[hook("head -c 3000000 /dev/zero", 20000)], b"", &cx());
        assert_eq!(r[0].stdout.len(), OUTPUT_CAP_BYTES);
        assert!(r[0].stdout_truncated);
        assert_eq!(r[0].exit_code, Some(0));
    }

    #[test]
    fn missing_command_is_a_failure() {
        let r = run_all(&[hook("/nonexistent/guard.sh", 5000)], b"", &cx());
        assert_eq!(r[0].exit_code, Some(127));
        assert!(r[0].failure().is_some_and(|f| f.starts_with("exit 127")));
    }
}
