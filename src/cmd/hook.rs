//! `seamguard hook`: one payload on stdin → the host's answer on stdout + exit code.
//!
//! In: the payload bytes (stdin, or a client of `seamguard serve`) and the hook arguments.
//! Out: the host's answer, the audit records and the session memory. [`respond`] reads
//! top-down: decode ([`hook_input::decode`]) → decide ([`decide`]: the session memory and
//! the policies loaded, [`Engine::decide`] on one [`Request`], grants and approvals) →
//! encode ([`encode`]: the answer, then the records); the helpers of each step follow it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use clap::ValueEnum;
use serde_json::Value;

use seamguard_engine::CommandLines;
use seamguard_engine::concern::Concern;
use seamguard_engine::effects::Effects;
use seamguard_engine::import::{guess_dialect, import_config, plugin_root_of};
use seamguard_engine::policy::OnLoadError;
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::trust::content_hash;
use seamguard_engine::{
    Decision, DecisionTable, Dialect, Encoded, Engine, FileLedger, LoadedPolicy, Outcome, Request,
    Scope, Seam, Verdict, audit, encode_for,
};

use super::args::HookDialectArg;
use super::hook_input::{self, Decoded, Undecoded};
use crate::discover;
use crate::session_memory::Session;

/// Answer one hook payload on stdin (what goes into settings.json / hooks.json).
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Args {
    /// Host protocol; detected from the payload when omitted.
    #[arg(long, value_enum)]
    dialect: Option<HookDialectArg>,
    /// Policy file or folder (repeatable); default: .seamguard/ of the project plus the
    /// user folder ($XDG_CONFIG_HOME/seamguard/) and /etc/seamguard/.
    #[arg(long = "policy", value_name = "PATH")]
    policies: Vec<PathBuf>,
    /// Also run the command hooks of an existing Claude Code settings file, plugin or Codex
    /// hooks.json, or Codex config.toml (repeatable).
    #[arg(long = "hooks-config", value_name = "PATH")]
    hooks_configs: Vec<PathBuf>,
    /// What a policy with errors does to tool calls, whatever its file says: `deny` (the
    /// default for a file that does not set `on_load_error = "warn"`) or `warn` (let calls
    /// through, report the errors).
    #[arg(long, value_enum)]
    on_load_error: Option<LoadErrorArg>,
    /// Append hook/invoked + hook/result records to this JSON Lines file (default:
    /// $SEAMGUARD_AUDIT_LOG when set, `off` for none, else <state dir>/audit.jsonl).
    #[arg(long, value_name = "PATH")]
    pub(super) audit_log: Option<PathBuf>,
}

impl Args {
    /// The `--policy` paths.
    pub(super) fn policy_args(&self) -> &[PathBuf] {
        &self.policies
    }

    /// Whether a resident server may answer for these arguments: not with `--hooks-config`
    /// (imported handlers are loaded per call, in the caller's process).
    pub(super) fn servable(&self) -> bool {
        self.hooks_configs.is_empty()
    }

    /// What a resident server must have been started with to answer for these arguments
    /// (`seamguard serve`): every option, in order.
    pub(super) fn identity(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}",
            self.dialect.map(Dialect::from),
            self.policies,
            self.hooks_configs,
            self.on_load_error,
            self.audit_log
        )
    }
}

/// `--on-load-error`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Hash)]
pub(super) enum LoadErrorArg {
    Warn,
    Deny,
}

/// Read the payload, evaluate it and answer the host. A payload that cannot be judged (too
/// large, not JSON, fields of the wrong type, an internal error) is refused per
/// [`hook_input::Refusals::refuse`] (and recorded in the audit log): never waved through, never exit 1.
pub(super) fn run(o: Args) -> ExitCode {
    let started = Instant::now();
    let started_ms = audit::now_ms();
    let fallback_dialect = o.dialect.map(Dialect::from);
    // Refusals are recorded in the audit log too (`seamguard log` shows them).
    let mut refusals = hook_input::Refusals {
        audit_log: super::log::audit_path(o.audit_log.as_deref()),
        started_ms,
        started,
        digest: hook_input::PayloadSha::Unread,
    };
    let raw = match hook_input::read_payload(&mut std::io::stdin().lock()) {
        Ok(r) => r,
        Err(e) => {
            let why = format!("cannot read the hook payload from stdin: {e}");
            return answer(&refusals.refuse(None, fallback_dialect, &why, None));
        }
    };
    refusals.digest = hook_input::PayloadSha::Known(raw.sha256.clone());
    if raw.too_large() {
        let why = format!(
            "the payload is {} bytes, over the {}-byte limit",
            raw.total,
            hook_input::MAX_PAYLOAD_BYTES
        );
        let seam = hook_input::raw_seam(&raw.bytes);
        return answer(&refusals.refuse(seam, fallback_dialect, &why, None));
    }
    // A resident server (`seamguard serve`) of the same policies answers, if one does.
    if let Some(code) = super::serve_client::ask(o.servable(), &raw.bytes) {
        return code;
    }
    let code = respond(&o, &raw.bytes, raw.total, &mut refusals, None, &mut answer);
    // No server ran for this call's route: start one for the next calls.
    super::serve_client::start_if_missing(o.servable());
    code
}

/// Answer a payload read within the size limit: `emit` writes the answer (to stdout, or to a
/// client of `seamguard serve`), then the audit log and the session memory are written. With
/// `resident`, the policies and compiled table of a server are used instead of loading them.
///
/// Three steps: decode (bytes → the call, or a refusal), decide (the call → the outcome in
/// its session, grants and approvals applied), encode (the outcome → the host's answer, the
/// audit record and the session memory).
pub(super) fn respond(
    o: &Args,
    bytes: &[u8],
    total: u64,
    refusals: &mut hook_input::Refusals,
    resident: Option<&Built>,
    emit: &mut dyn FnMut(&Encoded) -> ExitCode,
) -> ExitCode {
    let call = match hook_input::decode(bytes, total, o.dialect.map(Dialect::from)) {
        Ok(call) => call,
        Err(Undecoded::UnknownEvent(e)) => {
            eprintln!("seamguard: {e}");
            return ExitCode::SUCCESS;
        }
        Err(Undecoded::Refused {
            seam,
            dialect,
            why,
            payload,
        }) => return emit(&refusals.refuse(seam, dialect, &why, payload.as_ref())),
    };
    let decided = match decide(o, &call, refusals.started, resident) {
        Ok(d) => d,
        Err(Fault(why)) => {
            let (seam, dialect) = (Some(call.seam), Some(call.dialect));
            return emit(&refusals.refuse(seam, dialect, &why, Some(&call.payload)));
        }
    };
    encode(&call, decided, refusals, emit)
}

// ---- decide -------------------------------------------------------------------------------

/// A call decided: the outcome with grants and approvals applied, what it asked about, and
/// what recording it needs once the answer is written.
struct Decided {
    outcome: Outcome,
    /// The session memory it was judged in, to record it in.
    session: Session,
    /// The engine's environment (home, project).
    env: seamguard_engine::ShellEnv,
    /// The call's effects, when they were found (the session memory records them without
    /// finding them again).
    effects: Option<Rc<Effects>>,
    /// What the call asks about, per asking rule (empty unless the evaluation asked).
    concerns: Vec<Concern>,
    /// The grant that lifted the ask, and the call it was matched as.
    grant: (Option<Value>, Option<crate::grants::Applied>),
    /// The approval of this session that lifted the ask.
    approved: Option<crate::approvals::Applied>,
}

/// A panic while the call was judged (a bug in a lens or the parser): the call is refused.
struct Fault(String);

/// Judge the call in its session (a panic becomes a [`Fault`]), then let a grant
/// (`seamguard allow`) or an approval of the session lift an `ask`, never anything else.
fn decide(
    o: &Args,
    call: &Decoded,
    started: Instant,
    resident: Option<&Built>,
) -> Result<Decided, Fault> {
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        judge(o, call, started, resident)
    }))
    .map_err(|p| Fault(format!("internal error ({})", panic_text(p.as_ref()))))?;
    let Judged {
        mut outcome,
        session,
        env,
        effects,
        concerns,
    } = judged;
    let (payload, seam) = (&call.payload, call.seam);
    let grant = crate::grants::apply(&mut outcome, payload, seam, &concerns);
    let approved = match grant.1 {
        Some(_) => None,
        None => crate::approvals::apply(&mut outcome, payload, seam, &session, &concerns),
    };
    Ok(Decided {
        outcome,
        session,
        env,
        effects,
        concerns,
        grant,
        approved,
    })
}

/// The text of a caught panic.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// A judged call: the outcome, and the session memory to record it in once the answer is
/// written.
struct Judged {
    outcome: Outcome,
    session: Session,
    env: seamguard_engine::ShellEnv,
    /// The call's effects, when they were found before or by the evaluation.
    effects: Option<Rc<Effects>>,
    /// What the call asks about, per asking rule (empty unless it asks).
    concerns: Vec<Concern>,
}

/// Load the session memory and the policies of the call (a server's, when `resident`) and
/// judge it (the part of a hook call that a bug could make panic).
fn judge(o: &Args, call: &Decoded, started: Instant, resident: Option<&Built>) -> Judged {
    let Decoded {
        payload,
        seam,
        dialect,
        ..
    } = call;
    let (seam, dialect) = (*seam, *dialect);
    // The session memory the call is judged in (what earlier calls of this session wrote,
    // linked and read).
    let learn = crate::approvals::host_asks(dialect, payload);
    let session = Session::load(payload, seam, learn);
    if let Some(r) = resident {
        let warnings = with_notice(r.source, seam, r.warnings.clone());
        return judge_with(&r.engine, warnings, call, session, None, None);
    }
    // A tool call's effects, found once in that memory: loading leaves out the rules that
    // cannot fire on them, and the evaluation uses them.
    let effects = matches!(seam, Seam::PreTool | Seam::PermissionRequest).then(|| {
        Rc::new(seamguard_engine::effects::effects_in(
            payload,
            &seamguard_engine::ShellEnv::from_process(),
            session.memory(),
        ))
    });
    // The command lines the snapshot's gates analyse, read again by the evaluation.
    let lines = CommandLines::new();
    let Built {
        engine,
        source,
        warnings,
        loaded_at: t_loaded,
    } = build(o, Some(payload), effects.as_deref(), Some(&lines), started);
    let warnings = with_notice(source, seam, warnings);
    let timing = std::env::var_os("SEAMGUARD_TIMING").is_some();
    if timing {
        engine.table().prepare(seam);
    }
    let t_compiled = started.elapsed();
    let judged = judge_with(&engine, warnings, call, session, effects, Some(&lines));
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
    judged
}

/// Decide the call with a built engine in its session memory (with the call's effects and
/// the analyses of its command `lines` when they were `known` before), and the concerns of
/// an ask in the same memory.
fn judge_with(
    engine: &Engine,
    mut warnings: Vec<String>,
    call: &Decoded,
    mut session: Session,
    known: Option<Rc<Effects>>,
    lines: Option<&CommandLines>,
) -> Judged {
    injected_fault();
    let (payload, seam) = (&call.payload, call.seam);
    warnings.extend(session.take_problems());
    let req = Request::new(seam, payload, call.dialect)
        .in_memory(session.memory())
        .with_known_effects(known.as_ref())
        .with_known_lines(lines);
    let Decision {
        mut outcome,
        effects,
    } = engine.decide(&req);
    let effects = known.or(effects);
    let env = engine.table().env().clone();
    // The concerns of an ask, within the same memory (approvals and grants are per concern).
    let concerns = if seam == Seam::PreTool && outcome.verdict() == Verdict::Ask {
        let fx = effects.clone().unwrap_or_else(|| {
            Rc::new(seamguard_engine::effects::effects_in(
                payload,
                &env,
                session.memory(),
            ))
        });
        engine.concerns_in(seam, payload, &outcome, &fx, session.memory())
    } else {
        Vec::new()
    };
    outcome.warnings.splice(0..0, warnings);
    Judged {
        outcome,
        session,
        env,
        effects,
        concerns,
    }
}

/// A fault switch for the failure-matrix tests (debug builds only): `SEAMGUARD_FAULT=panic`
/// panics while the call is judged, as a bug in a lens or the parser would.
#[cfg(debug_assertions)]
#[allow(clippy::panic, reason = "fault injection, debug builds only")]
fn injected_fault() {
    if std::env::var_os("SEAMGUARD_FAULT").is_some_and(|v| v == "panic") {
        panic!("injected fault (SEAMGUARD_FAULT=panic)");
    }
}

#[cfg(not(debug_assertions))]
fn injected_fault() {}

/// The built-in library's notice on session start, before the load warnings.
fn with_notice(source: discover::PolicySource, seam: Seam, warnings: Vec<String>) -> Vec<String> {
    match source.notice() {
        Some(notice) if seam == Seam::SessionStart => std::iter::once(notice.to_string())
            .chain(warnings)
            .collect(),
        _ => warnings,
    }
}

// ---- load ---------------------------------------------------------------------------------

/// The policies of a hook call, loaded and built into an engine (seams compile on first use).
pub(super) struct Built {
    /// The engine.
    pub(super) engine: Engine,
    /// Where the policies came from.
    pub(super) source: discover::PolicySource,
    /// Warnings of loading (unreadable hooks configs).
    pub(super) warnings: Vec<String>,
    /// When loading ended (since `started`).
    loaded_at: std::time::Duration,
}

/// Load the policies of `payload` (every policy and rule when `None`, as `seamguard serve`
/// does; with its `effects`, only the rules that can fire on them) and build the engine.
pub(super) fn build(
    o: &Args,
    payload: Option<&Value>,
    effects: Option<&seamguard_engine::effects::Effects>,
    lines: Option<&CommandLines>,
    started: Instant,
) -> Built {
    let project_dir = std::env::var("CLAUDE_PROJECT_DIR")
        .ok()
        .filter(|p| !p.is_empty());
    let project_for_scope = project_dir.clone().or_else(|| {
        payload
            .and_then(|p| p.get("cwd"))
            .and_then(|c| c.as_str())
            .map(str::to_string)
    });
    let found = discover::hook_policies(
        &o.policies,
        payload,
        effects,
        lines,
        !o.hooks_configs.is_empty(),
    );
    let mut loaded = found.loaded;
    apply_trust(&mut loaded, &found.paths);
    discover::apply_load_error_default(
        &mut loaded,
        o.on_load_error.map(|a| match a {
            LoadErrorArg::Warn => OnLoadError::Warn,
            LoadErrorArg::Deny => OnLoadError::Deny,
        }),
    );
    let mut warnings = Vec::new();
    let n = loaded.len();
    loaded.extend(load_hooks_configs(
        &o.hooks_configs,
        project_for_scope.as_deref(),
        n,
        &mut warnings,
    ));
    let loaded_at = started.elapsed();
    let table = DecisionTable::new(loaded);
    let engine = Engine::new(table)
        .with_ledger(Box::new(FileLedger::new(
            discover::state_dir().join("continuations"),
        )))
        .with_runner(Box::new(ProcessRunner))
        .with_project_dir(project_dir);
    Built {
        engine,
        source: found.source,
        warnings,
        loaded_at,
    }
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

// ---- encode -------------------------------------------------------------------------------

/// Answer the host with the decided outcome (`emit`), then record the call: the audit records
/// (every decision: `allow --last`, `log` and `status` read the log; `SEAMGUARD_AUDIT_LOG=off`
/// turns it off) and the session memory. Nothing recorded after the answer changes it.
fn encode(
    call: &Decoded,
    decided: Decided,
    refusals: &mut hook_input::Refusals,
    emit: &mut dyn FnMut(&Encoded) -> ExitCode,
) -> ExitCode {
    let Decoded {
        payload,
        seam,
        dialect,
        notes,
    } = call;
    let (seam, dialect) = (*seam, *dialect);
    let Decided {
        outcome,
        session,
        env,
        effects,
        concerns,
        grant: (grant_call, granted),
        approved,
    } = decided;
    // Coercions are routine: the host's debug log, not the user's screen.
    for n in notes {
        eprintln!("{n}");
    }
    // What the answer asks about (nothing when it does not ask).
    let asked: &[Concern] = if outcome.verdict() == Verdict::Ask {
        &concerns
    } else {
        &[]
    };
    let enc = encode_for(&outcome, dialect, payload);
    let audit_path = refusals.audit_log.take();
    let code = emit(&enc);
    if let Some(path) = audit_path {
        let mut recs = audit::records(
            &audit::new_handler_id(),
            dialect,
            seam.event_name(),
            refusals.started_ms,
            refusals.started.elapsed().as_secs_f64() * 1000.0,
            &outcome,
            Some(payload),
        );
        rule_verdicts(&mut recs, &outcome);
        crate::grants::annotate(&mut recs, payload, grant_call, granted.as_ref());
        // The concerns asked about, or those an approval or a grant let through (what a
        // team report counts approvals by).
        let recorded = if granted.is_some() || approved.is_some() {
            &concerns[..]
        } else {
            asked
        };
        crate::approvals::annotate(
            &mut recs,
            payload.get("tool_use_id").and_then(Value::as_str),
            recorded,
            approved.as_ref(),
        );
        hook_input::keep_input(&mut recs, payload, refusals.digest.get().unwrap_or(""));
        // Written first: the local log is the source of truth; the export only copies it.
        if let Err(e) = audit::append(&path, &recs) {
            eprintln!(
                "seamguard: cannot append to the audit log {}: {e}",
                path.display()
            );
        }
        // The resident server's OpenTelemetry export (never waits; nothing when not running).
        #[cfg(feature = "otel")]
        crate::otel::export(&recs);
    }
    // Recorded once the answer is written: a failure here changes nothing in it.
    let learn = crate::approvals::host_asks(dialect, payload);
    session.record(
        payload,
        seam,
        &outcome,
        &env,
        effects.as_deref(),
        learn.then_some(asked),
    );
    code
}

/// Add `rule_verdicts` to the evaluation's `hook/result` record (the last one): the verdict of
/// each rule of `rules`, in the same order (`observed` for a rule that takes no part in the
/// decision), so `seamguard log --counts` counts an ask rule as an ask on a call a guard
/// denied (`decision` holds the merged verdict only).
fn rule_verdicts(records: &mut [Value], outcome: &seamguard_engine::Outcome) {
    if let Some(Value::Object(last)) = records.last_mut() {
        let verdicts: Vec<&str> = outcome
            .fired
            .iter()
            .map(|c| {
                if c.observe {
                    "observed"
                } else {
                    c.verdict.name()
                }
            })
            .collect();
        last.insert("rule_verdicts".into(), serde_json::json!(verdicts));
    }
}

/// Write an answer to the host and turn its exit code into the process's.
fn answer(enc: &Encoded) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let write_ok = out
        .write_all(enc.stdout.as_bytes())
        .and_then(|_| out.flush())
        .is_ok();
    if !enc.stderr.is_empty() {
        eprintln!("{}", enc.stderr);
    }
    if !write_ok {
        return ExitCode::from(2);
    }
    ExitCode::from(enc.exit_code.clamp(0, 255) as u8)
}
