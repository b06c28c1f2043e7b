//! Command hooks' results read as the host would read them.
//!
//! In: one command hook that ran and its [`RunResult`]. Out: the [`Contribution`] it makes
//! (or none), warnings, and its tool-input rewrite; `on_error = "deny"` turns a failure into
//! a deny.

use serde_json::Value;

use super::reasons::default_reason;
use super::runner::{CommandHook, RunResult};
use crate::codec::{HookResponse, decode_hook_output};
use crate::decision::{Contribution, Verdict};
use crate::dialect::Dialect;
use crate::policy::{OnError, Scope};
use crate::seam::Seam;

/// Why an `updatedInput` cannot replace a tool's input (HOOKS.md A5.4: it replaces the
/// whole input; B3: Bash and `apply_patch` need a string `command`), if it cannot.
fn invalid_rewrite(tool_name: &str, ui: &Value) -> Option<String> {
    let Value::Object(m) = ui else {
        return Some(
            "updatedInput must be a JSON object (it replaces the whole tool input)".into(),
        );
    };
    let needs: &[&str] = match tool_name {
        "Bash" | "PowerShell" | "apply_patch" => &["command"],
        "Write" => &["file_path", "content"],
        "Edit" => &["file_path", "old_string", "new_string"],
        "Read" => &["file_path"],
        _ => &[],
    };
    needs
        .iter()
        .find(|k| !m.get(**k).is_some_and(Value::is_string))
        .map(|k| {
            format!("updatedInput replaces the whole input and has no string `{k}` for {tool_name}")
        })
}

/// Turn one command-hook run into a contribution (or a warning), as the host would read
/// it; `on_error = "deny"` turns any failure into a deny.
pub(crate) fn hook_contribution(
    (seam, dialect, tool_name): (Seam, Dialect, &str),
    h: &CommandHook,
    res: &RunResult,
    warnings: &mut Vec<String>,
    updated_input: &mut Option<(String, Value)>,
) -> Option<Contribution> {
    let where_ = h
        .source
        .as_ref()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default();
    let resp = if res.timed_out || res.spawn_error.is_some() {
        HookResponse {
            error: res.failure(),
            ..HookResponse::default()
        }
    } else {
        decode_hook_output(dialect, seam, res.exit_code, &res.stdout, &res.stderr)
    };
    let truncated = (res.stdout_truncated || res.stderr_truncated).then(|| {
        format!(
            "wrote more than {} bytes (output truncated)",
            super::runner::OUTPUT_CAP_BYTES
        )
    });
    // A run that produced a decision (exit 2 with stderr, or schema-valid JSON on any exit
    // code in Claude Code) is applied; what was wrong with it is only reported.
    let decided = resp.verdict.is_some();
    let invalid_rewrite = resp
        .updated_input
        .as_ref()
        .and_then(|ui| invalid_rewrite(tool_name, ui));
    let problem = res
        .failure()
        .filter(|_| !decided)
        .or_else(|| resp.error.clone())
        .or(truncated)
        .or_else(|| invalid_rewrite.clone());
    if let Some(f) = &problem {
        if !decided && h.on_error == OnError::Deny {
            let v = match seam {
                Seam::PreTool | Seam::PermissionRequest => Some(Verdict::Deny),
                Seam::PromptSubmit | Seam::PostTool | Seam::PreCompact => Some(Verdict::Block),
                _ => None,
            };
            if let Some(v) = v {
                return Some(Contribution {
                    rule: h.id.clone(),
                    source: h.source.clone(),
                    guard: false,
                    verdict: v,
                    reason: Some(format!(
                        "command hook `{}` failed and is set to fail closed (on_error = \"deny\"): {f}",
                        h.id
                    )),
                    context: None,
                    halt: None,
                    observe: false,
                });
            }
        }
        if decided {
            warnings.push(format!(
                "seamguard: command hook `{}`{where_}: {f}; its decision ({}) still applies",
                h.id,
                resp.verdict().name()
            ));
        } else {
            warnings.push(format!(
                "seamguard: command hook `{}`{where_} failed, no decision taken: {f}",
                h.id
            ));
        }
    }
    if let Some(m) = &resp.system_message {
        warnings.push(m.clone());
    }
    let mut verdict = resp.verdict();
    if verdict == Verdict::Allow && h.source.as_ref().is_some_and(|s| s.scope == Scope::Project) {
        warnings.push(format!(
            "seamguard: command hook `{}`{where_} is project-scope; its `allow` is not honoured",
            h.id
        ));
        verdict = Verdict::Abstain;
    }
    if let Some(why) = &invalid_rewrite {
        // Case HK-14: never run something the hook did not mean; ask instead.
        if matches!(verdict, Verdict::Allow | Verdict::Abstain) && seam == Seam::PreTool {
            verdict = Verdict::Ask;
        }
        return Some(Contribution {
            rule: h.id.clone(),
            source: h.source.clone(),
            guard: false,
            verdict,
            reason: Some(format!(
                "invalid rewrite from command hook `{}`: {why}",
                h.id
            )),
            context: resp.context,
            halt: resp.halt,
            observe: false,
        });
    }
    if let Some(ui) = &resp.updated_input {
        if let Some((prev, old)) = updated_input.as_ref()
            && old != ui
        {
            warnings.push(format!(
                    "seamguard: command hooks `{prev}` and `{}` both rewrite the tool input; using `{}` (the later one in declared order)",
                    h.id, h.id
                ));
        }
        *updated_input = Some((h.id.clone(), ui.clone()));
    }
    if verdict == Verdict::Abstain && resp.context.is_none() && resp.halt.is_none() {
        return None;
    }
    let reason = resp
        .reason
        .filter(|r| !r.trim().is_empty())
        .or_else(|| default_reason(verdict, &h.id));
    Some(Contribution {
        rule: h.id.clone(),
        source: h.source.clone(),
        guard: false,
        verdict,
        reason,
        context: resp.context,
        halt: resp.halt,
        observe: false,
    })
}
