//! The `seamguard` command: hook command for Claude Code / Codex, and policy tooling.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use seamguard_engine::policy::OnLoadError;
use seamguard_engine::{
    DecisionTable, DecodeError, Dialect, Engine, FileLedger, HookEvent, LoadedPolicy, MemoryLedger,
    Outcome, PolicyTest, Seam, Severity, Verdict, encode, load_file,
};

mod discover;
mod replay;

#[derive(Parser, Debug)]
#[command(
    name = "seamguard",
    version,
    about = "Policy engine for the lifecycle hooks of AI coding agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DialectArg {
    #[value(name = "claude-code", alias = "claude")]
    ClaudeCode,
    Codex,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::ClaudeCode => Dialect::ClaudeCode,
            DialectArg::Codex => Dialect::Codex,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum LoadErrorArg {
    Warn,
    Deny,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum Format {
    Text,
    Json,
    Jsonl,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Answer one hook payload on stdin (what goes into settings.json / hooks.json).
    Hook {
        /// Host protocol; detected from the payload when omitted.
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// Policy file or folder (repeatable); default: .seamguard/ of the project plus the
        /// user folder ($XDG_CONFIG_HOME/seamguard/) and /etc/seamguard/.
        #[arg(long = "policy", value_name = "PATH")]
        policies: Vec<PathBuf>,
        /// Fail closed (deny tool calls) when any policy has errors, whatever the file says.
        #[arg(long, value_enum)]
        on_load_error: Option<LoadErrorArg>,
    },
    /// Validate policy files: spanned diagnostics, non-zero exit on errors.
    Check {
        /// Policy files or folders (default: discovered policies).
        paths: Vec<PathBuf>,
    },
    /// Run the [[test]] examples of policy files.
    Test {
        /// Policy files or folders (default: discovered policies).
        paths: Vec<PathBuf>,
    },
    /// Dry-run recorded hook payloads (JSON Lines or a JSON array) against policies.
    Replay {
        /// Recorded files or folders.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Policy file or folder (repeatable; default: discovered policies).
        #[arg(long = "policy", value_name = "PATH")]
        policies: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Exit 1 if any event gets this verdict or a stricter one (`deny` or `ask`).
        #[arg(long, value_name = "VERDICT")]
        fail_on: Option<String>,
        /// Force the dialect of every event (default: detected per event).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Hook {
            dialect,
            policies,
            on_load_error,
        } => hook(dialect.map(Into::into), &policies, on_load_error),
        Command::Check { paths } => check(&paths),
        Command::Test { paths } => test(&paths),
        Command::Replay {
            files,
            policies,
            format,
            fail_on,
            dialect,
        } => replay::run(
            &files,
            &policies,
            format == Format::Json,
            format == Format::Jsonl,
            fail_on.as_deref(),
            dialect.map(Into::into),
        ),
    }
}

fn print_diagnostics(policies: &[LoadedPolicy]) -> (usize, usize) {
    let mut errors = 0;
    let mut warnings = 0;
    let mut err = std::io::stderr().lock();
    for p in policies {
        for d in &p.diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let _ = writeln!(err, "{}", d.render());
        }
    }
    (errors, warnings)
}

/// `seamguard hook`: one payload in, the host's answer out.
fn hook(
    dialect: Option<Dialect>,
    policy_args: &[PathBuf],
    on_load_error: Option<LoadErrorArg>,
) -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("seamguard: cannot read the hook payload from stdin: {e}");
        return ExitCode::from(1);
    }
    let payload = match seamguard_engine::event::parse_json(&input) {
        Ok(v) => v,
        Err(e) => {
            // Non-blocking: the host proceeds with its normal flow and shows this line.
            eprintln!(
                "seamguard: malformed hook payload ({} bytes): {e}",
                input.len()
            );
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
    let dialect = dialect.unwrap_or_else(|| Dialect::detect(&payload));
    let seam = event.seam();
    let paths = discover::policy_paths(policy_args, Some(&payload));
    let mut loaded = discover::load_all(&paths);
    if on_load_error == Some(LoadErrorArg::Deny) {
        for p in &mut loaded {
            p.meta.on_load_error = OnLoadError::Deny;
        }
    }
    let table = DecisionTable::new(loaded);
    let engine = Engine::new(table).with_ledger(Box::new(FileLedger::new(
        discover::state_dir().join("continuations"),
    )));
    let outcome = engine.evaluate(seam, &payload, dialect);
    let enc = encode(&outcome, dialect);
    let mut out = std::io::stdout().lock();
    if out
        .write_all(enc.stdout.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    if !enc.stderr.is_empty() {
        eprintln!("{}", enc.stderr);
    }
    ExitCode::from(enc.exit_code.clamp(0, 255) as u8)
}

fn check(paths: &[PathBuf]) -> ExitCode {
    let files = discover::policy_paths(paths, None);
    if files.is_empty() {
        eprintln!("seamguard: no policy files found (give a path, or create .seamguard/*.toml)");
        return ExitCode::from(1);
    }
    let loaded = discover::load_all(&files);
    let (mut errors, warnings) = print_diagnostics(&loaded);
    let n_policies = loaded.len();
    let table = DecisionTable::new(loaded);
    for e in table.compile_all() {
        eprintln!("error: {e}");
        errors += 1;
    }
    let mut per_seam = Vec::new();
    for s in Seam::ALL {
        let n = table.seam_len(s);
        if n > 0 {
            per_seam.push(format!("{s}: {n}"));
        }
    }
    println!(
        "{n_policies} policy file(s), {} rule(s) ({}), {errors} error(s), {warnings} warning(s)",
        table.rules().len(),
        if per_seam.is_empty() {
            "none".to_string()
        } else {
            per_seam.join(", ")
        }
    );
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
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
    let rules_ok = t.rules.iter().all(|r| o.fired_ids().contains(&r.as_str()));
    verdict_ok && reason_ok && rules_ok
}

fn test(paths: &[PathBuf]) -> ExitCode {
    let files = discover::policy_paths(paths, None);
    if files.is_empty() {
        eprintln!("seamguard: no policy files found");
        return ExitCode::from(1);
    }
    let mut failed = 0usize;
    let mut passed = 0usize;
    let mut load_errors = 0usize;
    for (path, scope) in &files {
        let policy = load_file(path, *scope, 0);
        let (errors, _) = print_diagnostics(std::slice::from_ref(&policy));
        load_errors += errors;
        let tests = policy.tests.clone();
        let engine = Engine::new(DecisionTable::new(vec![policy]))
            .with_ledger(Box::new(MemoryLedger::default()));
        for t in &tests {
            let dialect = t.dialect.unwrap_or_else(|| Dialect::detect(&t.payload));
            let event = HookEvent::from_value(&t.payload);
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
            let o = engine.evaluate(seam, &t.payload, dialect);
            if expectation_holds(t, seam, &o) {
                passed += 1;
                println!(
                    "ok   {}:{} {} => {}",
                    t.source.file,
                    t.source.line,
                    t.name,
                    o.verdict().name()
                );
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
                    },
                    o.verdict().name(),
                    o.reason_text(),
                );
            }
        }
    }
    println!("{passed} passed, {failed} failed, {load_errors} policy error(s)");
    if failed > 0 || load_errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Render an outcome as one JSON object for reports.
pub(crate) fn outcome_json(o: &Outcome) -> Value {
    json!({
        "verdict": o.verdict().name(),
        "reason": o.reason_text(),
        "rules": o.fired_ids(),
        "contexts": o.contexts.iter().map(|c| c.text.clone()).collect::<Vec<_>>(),
        "halt": o.halt.as_ref().map(|h| h.text.clone()),
    })
}

/// Count helper for reports.
pub(crate) fn bump(map: &mut BTreeMap<String, usize>, key: &str) {
    *map.entry(key.to_string()).or_insert(0) += 1;
}

/// Display a path relative to the current directory when possible.
pub(crate) fn show(p: &Path) -> String {
    p.display().to_string()
}
