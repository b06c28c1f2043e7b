//! Command hooks of policy tables (`run = { command, … }` rules), run by the harness through
//! the engine's command-hook runner ([`crate::runner::run_one`]) and read as the host would
//! read them (exit 2 blocks with stderr as the reason, JSON output decides, any other failure
//! is non-blocking unless `on_error = "deny"`).
//!
//! In: the tables' fired `run` rules at one seam (trusted ones only: an untrusted project
//! file's command hook is never run, with a warning) and the hook payload. Out: one
//! [`Contribution`] per hook that decided something, warnings, and a `hook/invoked` +
//! `hook/result` record pair per hook ([`Harness::records`]). Hooks of one evaluation run
//! concurrently; a cancelled run stops waiting, and the hooks still running are killed (they
//! decide nothing; the seam method reports the cancellation,
//! [`Evaluated::is_cancelled`](super::Evaluated::is_cancelled)).
//!
//! A detached hook (`run = { …, async = true }`, Claude Code's `"async": true`) is started
//! and not awaited: it takes no part in the decision, writes no records (it may end after its
//! turn), is not cancelled with the run, and is tracked until [`Harness::shutdown`] waits for
//! it.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::table::TablePart;
use super::{Harness, HookContext};
use crate::decision::{HookRun, Verdict};
use crate::evaluate::command_hooks::hook_contribution;
use crate::runner::{CommandHook, RunContext, RunResult, run_one};
use crate::seam::Seam;

impl Harness {
    /// Wait until no detached command hook (`run = { …, async = true }`) is running
    /// (quiescence), and return the reports of the detached runs that ended since the last
    /// call, in the order they ended. Call it before dropping or
    /// [`dispose`](Harness::dispose)-ing a harness whose tables have detached hooks: a
    /// harness dropped without it leaves them running on the runtime, and a runtime that
    /// shuts down kills them.
    pub async fn shutdown(&self) -> Vec<HookRun> {
        loop {
            let running = match self.detached.running.lock() {
                Ok(mut v) => std::mem::take(&mut *v),
                Err(_) => Vec::new(),
            };
            if running.is_empty() {
                break;
            }
            for t in running {
                // A panicked task has nothing to report; the others have pushed theirs.
                let _ = t.await;
            }
        }
        self.detached
            .ended
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// Evaluate every table at `seam`, then run the command hooks their fired `run` rules
    /// name; their decisions join the tables' hook contributions.
    pub(super) async fn eval_tables(
        &self,
        seam: Seam,
        payload: &Value,
        cx: &HookContext,
    ) -> TablePart {
        let mut part = TablePart::eval(&self.tables, self.dialect, (seam, payload), false);
        if !part.to_run.is_empty() {
            self.run_commands(seam, payload, &mut part, cx.signal())
                .await;
        }
        part
    }

    async fn run_commands(
        &self,
        seam: Seam,
        payload: &Value,
        part: &mut TablePart,
        cancel: &CancellationToken,
    ) {
        let (detached, hooks): (Vec<CommandHook>, Vec<CommandHook>) =
            std::mem::take(&mut part.to_run)
                .into_iter()
                .partition(|h| h.detached);
        let input = Arc::new(serde_json::to_vec(payload).unwrap_or_default());
        let cwd = payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_string);
        let cx = RunContext {
            dialect: self.dialect,
            cwd,
            project_dir: None,
        };
        for h in detached {
            self.detached.spawn(h, input.clone(), cx.clone());
        }
        if hooks.is_empty() {
            return;
        }
        let session = payload
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let tool_name = payload
            .get("tool_name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let base = crate::audit::new_handler_id();
        let started_ms = crate::audit::now_ms();
        let ids: Vec<String> = hooks.iter().map(|h| format!("{base}/{}", h.id)).collect();
        for (h, id) in hooks.iter().zip(&ids) {
            self.record_hook(
                &session,
                json!({
                    "type": "hook/invoked",
                    "handler_id": id,
                    "ts_ms": started_ms,
                    "dialect": self.dialect.name(),
                    "event": seam.event_name(),
                    "session_id": session,
                    "rule": h.id,
                    "command": h.command,
                }),
            );
        }
        let start = Instant::now();
        let mut set = tokio::task::JoinSet::new();
        for (i, h) in hooks.iter().enumerate() {
            let (h, input, cx) = (h.clone(), input.clone(), cx.clone());
            set.spawn(async move { (i, run_one(&h, input, &cx).await) });
        }
        let mut results: Vec<Option<RunResult>> = vec![None; hooks.len()];
        loop {
            tokio::select! {
                biased;
                () = cancel.cancelled() => {
                    // Dropping the runs kills their processes (`kill_on_drop`).
                    set.abort_all();
                    break;
                }
                next = set.join_next() => match next {
                    None => break,
                    Some(Ok((i, r))) => {
                        if let Some(slot) = results.get_mut(i) {
                            *slot = Some(r);
                        }
                    }
                    Some(Err(_)) => {}
                },
            }
        }
        let mut updated_input = None;
        for ((h, id), res) in hooks.iter().zip(&ids).zip(results) {
            let cancelled = res.is_none() && cancel.is_cancelled();
            let res = res.unwrap_or_else(|| RunResult {
                spawn_error: Some(if cancelled {
                    "cancelled".to_string()
                } else {
                    "the hook task panicked".to_string()
                }),
                duration_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
                ..RunResult::default()
            });
            let c = if cancelled {
                part.warnings.push(format!(
                    "seamguard: command hook `{}` cancelled before it finished; no decision taken",
                    h.id
                ));
                None
            } else {
                hook_contribution(
                    (seam, self.dialect, &tool_name),
                    h,
                    &res,
                    &mut part.warnings,
                    &mut updated_input,
                )
            };
            let decision = c.as_ref().map_or(Verdict::Abstain, |c| c.verdict);
            let reason = c.as_ref().and_then(|c| c.reason.clone());
            self.record_hook(
                &session,
                json!({
                    "type": "hook/result",
                    "handler_id": id,
                    "ts_ms": started_ms + res.duration_ms,
                    "dialect": self.dialect.name(),
                    "event": seam.event_name(),
                    "session_id": session,
                    "rule": h.id,
                    "exit_code": res.exit_code,
                    "timed_out": res.timed_out,
                    "failure": res.failure(),
                    "decision": decision.name(),
                    "reason": reason,
                    "duration_ms": res.duration_ms as f64,
                }),
            );
            part.hook_runs.push(res.hook_run(h));
            if let Some(c) = c {
                part.hooks.push(c);
            }
        }
        if let Some((rule, _)) = updated_input {
            part.warnings.push(format!(
                "seamguard: command hook `{rule}` returned updatedInput; ignored: a tool call's arguments are sealed before policy runs"
            ));
        }
    }
}
