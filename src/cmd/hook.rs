//! `seamguard hook`: one payload on stdin → the host's answer on stdout + exit code.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;

use seamguard_engine::import::{guess_dialect, import_config, plugin_root_of};
use seamguard_engine::policy::OnLoadError;
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::trust::content_hash;
use seamguard_engine::{
    DecisionTable, DecodeError, Dialect, Engine, FileLedger, HookEvent, LoadedPolicy, Scope, audit,
    encode,
};

use super::DialectArg;
use crate::discover;

/// Answer one hook payload on stdin (what goes into settings.json / hooks.json).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Host protocol; detected from the payload when omitted.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Policy file or folder (repeatable); default: .seamguard/ of the project plus the
    /// user folder ($XDG_CONFIG_HOME/seamguard/) and /etc/seamguard/.
    #[arg(long = "policy", value_name = "PATH")]
    policies: Vec<PathBuf>,
    /// Also run the command hooks of an existing Claude Code settings file, plugin or Codex
    /// hooks.json, or Codex config.toml (repeatable).
    #[arg(long = "hooks-config", value_name = "PATH")]
    hooks_configs: Vec<PathBuf>,
    /// Fail closed (deny tool calls) when any policy has errors, whatever the file says.
    #[arg(long, value_enum)]
    on_load_error: Option<LoadErrorArg>,
    /// Append hook/invoked + hook/result records to this JSON Lines file
    /// (default: $SEAMGUARD_AUDIT_LOG when set).
    #[arg(long, value_name = "PATH")]
    audit_log: Option<PathBuf>,
}

/// `--on-load-error`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum LoadErrorArg {
    Warn,
    Deny,
}

/// Whether `path` is inside the folder `dir` (both resolved when they exist).
fn is_under(path: &Path, dir: &str) -> bool {
    let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let d = std::fs::canonicalize(dir).unwrap_or_else(|_| PathBuf::from(dir));
    p.starts_with(d)
}

/// Load hook configuration files (Claude Code settings, plugin or Codex hooks.json, Codex
/// config.toml) as policies. An unreadable config is a warning; the rest still loads.
fn load_hooks_configs(
    paths: &[PathBuf],
    project: Option<&str>,
    first_index: usize,
    warnings: &mut Vec<String>,
) -> Vec<LoadedPolicy> {
    let mut out = Vec::new();
    for p in paths {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                warnings.push(format!(
                    "seamguard: cannot read hooks config {}: {e}; its hooks are not run",
                    p.display()
                ));
                continue;
            }
        };
        let file = p.display().to_string();
        let imp = match import_config(&file, &text, guess_dialect(p), plugin_root_of(p).as_deref())
        {
            Ok(i) => i,
            Err(e) => {
                warnings.push(format!("seamguard: {e}; its hooks are not run"));
                continue;
            }
        };
        // Import notes (skipped handler types, lints) go to stderr only (the host's debug
        // log): repeating them in every systemMessage would be noise. `seamguard import`
        // shows them too.
        for w in &imp.warnings {
            eprintln!("seamguard: {w}");
        }
        let scope = if project.is_some_and(|d| is_under(p, d)) {
            Scope::Project
        } else {
            Scope::User
        };
        let mut policy = imp.policy(
            &format!("{file} (imported)"),
            scope,
            first_index + out.len(),
        );
        policy.meta.content_hash = content_hash(text.as_bytes());
        if scope == Scope::Project {
            policy.meta.trusted = discover::trust_store().is_trusted(p, &policy.meta.content_hash);
        }
        out.push(policy);
    }
    dedup_claude_settings(&mut out, paths);
    out
}

/// Claude Code runs an identical handler defined in several settings files once (HOOKS.md
/// A2 "Deduplication"); plugin copies and Codex hooks are kept separate.
fn dedup_claude_settings(policies: &mut [LoadedPolicy], paths: &[PathBuf]) {
    let mut seen: std::collections::HashSet<(String, String, String)> =
        std::collections::HashSet::new();
    for (p, path) in policies.iter_mut().zip(paths) {
        if guess_dialect(path) != Dialect::ClaudeCode || plugin_root_of(path).is_some() {
            continue;
        }
        p.rules.retain(|r| {
            let Some(run) = &r.action.run else {
                return true;
            };
            seen.insert((
                r.seam.name().to_string(),
                r.matcher.to_string(),
                run.command.clone(),
            ))
        });
    }
}

/// Mark project-scope policy files trusted when the trust store holds their exact content.
fn apply_trust(policies: &mut [LoadedPolicy], paths: &[(PathBuf, Scope)]) {
    let store = discover::trust_store();
    for (p, (path, scope)) in policies.iter_mut().zip(paths) {
        if *scope == Scope::Project {
            p.meta.trusted = store.is_trusted(path, &p.meta.content_hash);
        }
    }
}

/// Read the payload, evaluate it and answer the host.
pub(super) fn run(o: Args) -> ExitCode {
    let started = Instant::now();
    let started_ms = audit::now_ms();
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("seamguard: cannot read the hook payload from stdin: {e}");
        return ExitCode::from(1);
    }
    let payload = match seamguard_engine::event::parse_json(&input) {
        Ok(v) => v,
        Err(e) => {
            eprintln!(
                "seamguard: malformed hook payload ({} bytes): {e}",
                input.len()
            );
            // A tool call whose payload cannot be read (too deeply nested, broken escapes)
            // is denied rather than let through unchecked; anything else is non-blocking:
            // the host proceeds with its normal flow and shows the line above.
            if let Some(out) = unreadable_tool_call_answer(&input, &e.to_string()) {
                print!("{out}");
                return ExitCode::SUCCESS;
            }
            return ExitCode::from(1);
        }
    };
    let event = match HookEvent::from_value(&payload) {
        Ok(ev) => ev,
        Err(e @ DecodeError::UnknownEvent(_)) => {
            eprintln!("seamguard: {e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("seamguard: {e}");
            return ExitCode::from(1);
        }
    };
    let dialect = o
        .dialect
        .map_or_else(|| Dialect::detect(&payload), Dialect::from);
    let seam = event.seam();
    let project_dir = std::env::var("CLAUDE_PROJECT_DIR")
        .ok()
        .filter(|p| !p.is_empty());
    let project_for_scope = project_dir.clone().or_else(|| {
        payload
            .get("cwd")
            .and_then(|c| c.as_str())
            .map(str::to_string)
    });
    let paths = discover::policy_paths(&o.policies, Some(&payload));
    if paths.is_empty() && o.hooks_configs.is_empty() {
        eprintln!(
            "seamguard: no policy files found (--policy, .seamguard/, $XDG_CONFIG_HOME/seamguard/, /etc/seamguard/); no rules are enforced"
        );
    }
    let mut loaded = discover::load_all_cached(&paths, seamguard_engine::LoadOptions::hook());
    apply_trust(&mut loaded, &paths);
    let mut warnings = Vec::new();
    let n = loaded.len();
    loaded.extend(load_hooks_configs(
        &o.hooks_configs,
        project_for_scope.as_deref(),
        n,
        &mut warnings,
    ));
    if o.on_load_error == Some(LoadErrorArg::Deny) {
        for p in &mut loaded {
            p.meta.on_load_error = OnLoadError::Deny;
        }
    }
    let t_loaded = started.elapsed();
    let table = DecisionTable::new(loaded);
    let engine = Engine::new(table)
        .with_ledger(Box::new(FileLedger::new(
            discover::state_dir().join("continuations"),
        )))
        .with_runner(Box::new(ProcessRunner))
        .with_project_dir(project_dir);
    let timing = std::env::var_os("SEAMGUARD_TIMING").is_some();
    if timing {
        engine.table().prepare(seam);
    }
    let t_compiled = started.elapsed();
    let mut session = crate::session_memory::Session::load(&payload, seam);
    warnings.extend(session.take_problems());
    let mut outcome = session.evaluate(|| engine.evaluate(seam, &payload, dialect));
    let env = engine.table().env().clone();
    if timing {
        eprintln!(
            "seamguard timing: read+load {:.3} ms, compile {:.3} ms, evaluate {:.3} ms",
            t_loaded.as_secs_f64() * 1000.0,
            (t_compiled - t_loaded).as_secs_f64() * 1000.0,
            (started.elapsed() - t_compiled).as_secs_f64() * 1000.0
        );
    }
    // The process ends right after the answer: tearing the compiled table down would only
    // cost time (its ledger writes are done during `evaluate`).
    std::mem::forget(engine);
    outcome.warnings.splice(0..0, warnings);
    let enc = encode(&outcome, dialect);
    // Observe-mode rules exist to be recorded: without a configured log they go to the
    // default one in the state folder.
    let audit_path = o
        .audit_log
        .clone()
        .or_else(|| discover::env_path("SEAMGUARD_AUDIT_LOG"))
        .or_else(|| {
            outcome
                .observed
                .is_some()
                .then(|| discover::state_dir().join("audit.jsonl"))
        });
    let mut out = std::io::stdout().lock();
    let write_ok = out
        .write_all(enc.stdout.as_bytes())
        .and_then(|_| out.flush())
        .is_ok();
    if !enc.stderr.is_empty() {
        eprintln!("{}", enc.stderr);
    }
    if let Some(path) = audit_path {
        let recs = audit::records(
            &audit::new_handler_id(),
            dialect,
            seam.event_name(),
            started_ms,
            started.elapsed().as_secs_f64() * 1000.0,
            &outcome,
            Some(&payload),
        );
        if let Err(e) = audit::append(&path, &recs) {
            eprintln!(
                "seamguard: cannot append to the audit log {}: {e}",
                path.display()
            );
        }
    }
    // Recorded once the answer is written: a failure here changes nothing in it.
    session.record(&payload, &outcome, &env);
    if !write_ok {
        return ExitCode::from(1);
    }
    ExitCode::from(enc.exit_code.clamp(0, 255) as u8)
}

/// The event name a payload's raw text declares, found without parsing it.
fn raw_event_name(input: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(input);
    let key = "\"hook_event_name\"";
    let at = text.find(key)? + key.len();
    let rest = text.get(at..)?.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest.split('"').next()?.to_string())
}

/// The deny answer for a `PreToolUse` / `PermissionRequest` payload that cannot be read (valid
/// in both dialects); `None` for other events.
fn unreadable_tool_call_answer(input: &[u8], why: &str) -> Option<String> {
    let reason =
        format!("seamguard could not read this tool call's payload ({why}); denied to be safe");
    let out = match raw_event_name(input)?.as_str() {
        "PreToolUse" => serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }}),
        "PermissionRequest" => serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": reason},
        }}),
        _ => return None,
    };
    Some(format!("{out}\n"))
}
