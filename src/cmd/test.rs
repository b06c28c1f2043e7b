//! `seamguard test`: run the `[[test]]` examples of policy files, one line per example.
//!
//! Hermetic: an example is judged with the home folder, project and session it states, never
//! the caller's. Its home is its `home` (default `/home/user`, the folder of the default
//! `cwd` `/home/user/project`), its project its `project` (default: the event's `cwd`; the
//! caller's `CLAUDE_PROJECT_DIR` is not read), its session memory only its `earlier` calls,
//! and nothing is written (no audit record, no continuation count, no memory file).
//!
//! An example's `event` may be written in a host's own shape (a Gemini CLI `BeforeTool`, a
//! Cursor `beforeShellExecution`, a Copilot CLI `toolName` / `toolArgs` payload): it is read
//! in its `dialect`, or the dialect `hook` detects, and rewritten as `hook` rewrites it.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{
    DecisionTable, Dialect, Engine, HookEvent, MemoryLedger, Outcome, PolicyTest, Request, Seam,
    ShellEnv, Verdict,
};

use crate::discover;
use crate::report::{exit_code, print_diagnostics};

/// Run the [[test]] examples of policy files.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Policy files or folders (default: discovered policies).
    paths: Vec<PathBuf>,
    /// Print only the failures and the summary line.
    #[arg(long, short)]
    quiet: bool,
    /// Run only the examples whose name contains this text (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    name: Option<String>,
}

/// The payload `hook` would judge for an example's event read in `dialect`: a host's own
/// payload rewritten by [`seamguard_engine::codec::normalize`] (the same detection and
/// rewrite as `hook`), with the example's defaults (`session_id`, `cwd`: the `project`
/// folder of `home`) where the host's payload carries none.
///
/// # Errors
/// The event cannot be read in its dialect (a Copilot CLI `toolArgs` that is not JSON, …).
pub(super) fn common_payload(raw: &Value, dialect: Dialect, home: &str) -> Result<Value, String> {
    let mut p = seamguard_engine::codec::normalize(raw, dialect)?;
    if let Value::Object(m) = &mut p
        && matches!(
            dialect,
            Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli
        )
    {
        let empty = |v: &Value| v.as_str().is_none_or(str::is_empty);
        if m.get("session_id").is_none_or(empty) {
            m.insert("session_id".into(), json!("seamguard-test"));
        }
        if m.get("cwd").is_none_or(empty) {
            m.insert(
                "cwd".into(),
                json!(format!("{}/project", home.trim_end_matches('/'))),
            );
        }
    }
    Ok(p)
}

/// Where an example's paths resolve: its `home` (default `/home/user`) and its `project`
/// (default: the event's `cwd`), whatever `HOME` and `CLAUDE_PROJECT_DIR` the caller has.
fn example_env(t: &PolicyTest) -> ShellEnv {
    ShellEnv::new(t.project.clone(), t.home())
}

/// Whether an outcome satisfies a test's `expect`.
fn expectation_holds(t: &PolicyTest, seam: Seam, o: &Outcome) -> bool {
    let v = o.verdict();
    let verdict_ok = match t.expect.as_str() {
        "halt" => o.halt.is_some(),
        "stop" => matches!(seam, Seam::Stop | Seam::SubagentStop) && v != Verdict::Continue,
        "none" => v == Verdict::Abstain && o.halt.is_none(),
        e => v.name() == e,
    };
    let reason_ok = t.reason_contains.as_ref().is_none_or(|s| {
        o.reason_text().contains(s.as_str())
            || o.halt.as_ref().is_some_and(|h| h.text.contains(s.as_str()))
    });
    let fired = o.fired_ids();
    let rules_ok = t.rules.iter().all(|r| fired.contains(&r.as_str()))
        && !t.not_rules.iter().any(|r| fired.contains(&r.as_str()));
    verdict_ok && reason_ok && rules_ok
}

/// The session memory the test's `earlier` calls leave (none: an empty memory).
fn earlier_memory(engine: &Engine, t: &PolicyTest) -> seamguard_engine::memory::SessionMemory {
    use seamguard_engine::memory::{SessionMemory, entries_of};
    let env = engine.table().env();
    let mut m = SessionMemory::default();
    for p in &t.earlier {
        let fx = seamguard_engine::effects::effects_in(p, env, &m);
        m.remember(entries_of(&fx, env));
    }
    m
}

/// Exit 1 when a test fails, a file has errors or no file is found.
pub(super) fn run(a: &Args) -> ExitCode {
    let files = discover::policy_paths(&a.paths, None);
    if files.is_empty() {
        eprintln!("seamguard: no policy files found");
        return ExitCode::from(1);
    }
    let mut failed = 0usize;
    let mut passed = 0usize;
    let mut load_errors = 0usize;
    // Each file's examples run against that file alone, its named lists resolved with the
    // lists of every file given (the library keeps its lists in `lists.toml`).
    let loaded = discover::load_all(&files);
    for mut policy in loaded {
        policy.rules.iter_mut().for_each(|r| r.policy = 0);
        let (errors, _) = print_diagnostics(std::slice::from_ref(&policy));
        load_errors += errors;
        let tests = std::mem::take(&mut policy.tests);
        // One engine per distinct home and project among the file's examples (path tests
        // compile against the home).
        let mut engines: Vec<(ShellEnv, Engine)> = Vec::new();
        let wanted = a.name.as_ref().map(|n| n.to_lowercase());
        for t in tests.iter().filter(|t| {
            wanted
                .as_ref()
                .is_none_or(|n| t.name.to_lowercase().contains(n))
        }) {
            let dialect = t.dialect.unwrap_or_else(|| Dialect::detect(&t.payload));
            // A Gemini CLI, Cursor or Copilot CLI event becomes the common payload of its
            // seam, as `hook` rewrites it.
            let payload = match common_payload(&t.payload, dialect, t.home()) {
                Ok(p) => p,
                Err(e) => {
                    failed += 1;
                    println!(
                        "FAIL {}:{} {}: event does not decode: {e}",
                        t.source.file, t.source.line, t.name
                    );
                    continue;
                }
            };
            let event = HookEvent::from_value(&payload);
            let seam = match event {
                Ok(e) => e.seam(),
                Err(e) => {
                    failed += 1;
                    println!(
                        "FAIL {}:{} {}: event does not decode: {e}",
                        t.source.file, t.source.line, t.name
                    );
                    continue;
                }
            };
            let env = example_env(t);
            let at = match engines.iter().position(|(e, _)| *e == env) {
                Some(i) => i,
                None => {
                    let table = DecisionTable::with_shell_env(vec![policy.clone()], env.clone());
                    let engine = Engine::new(table).with_ledger(Box::new(MemoryLedger::default()));
                    engines.push((env, engine));
                    engines.len() - 1
                }
            };
            let Some((_, engine)) = engines.get(at) else {
                continue;
            };
            let memory = earlier_memory(engine, t);
            let request = Request::new(seam, &payload, dialect).in_memory(&memory);
            let o = engine.decide(&request).outcome;
            if expectation_holds(t, seam, &o) {
                passed += 1;
                if !a.quiet {
                    println!(
                        "ok   {}:{} {} => {}",
                        t.source.file,
                        t.source.line,
                        t.name,
                        o.verdict().name()
                    );
                }
            } else {
                failed += 1;
                let fired = o.fired_ids().join(", ");
                println!(
                    "FAIL {}:{} {}: expected {}{}{}, got {} (fired: [{fired}]; reason: {:?})",
                    t.source.file,
                    t.source.line,
                    t.name,
                    t.expect,
                    t.reason_contains
                        .as_ref()
                        .map(|r| format!(" with reason containing {r:?}"))
                        .unwrap_or_default(),
                    if t.rules.is_empty() {
                        String::new()
                    } else {
                        format!(" by [{}]", t.rules.join(", "))
                    } + &if t.not_rules.is_empty() {
                        String::new()
                    } else {
                        format!(" and not by [{}]", t.not_rules.join(", "))
                    },
                    o.verdict().name(),
                    o.reason_text(),
                );
            }
        }
    }
    println!("{passed} passed, {failed} failed, {load_errors} policy error(s)");
    // A filter that selects nothing checks nothing: not a pass.
    if let Some(n) = &a.name
        && passed + failed == 0
    {
        eprintln!("seamguard: no example's name contains {n:?}");
        return ExitCode::from(1);
    }
    exit_code(failed > 0 || load_errors > 0)
}
