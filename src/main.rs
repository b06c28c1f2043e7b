//! The `seamguard` command: hook command for Claude Code / Codex, and policy tooling.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use seamguard_engine::{
    DecisionTable, Dialect, Engine, HookEvent, LoadedPolicy, MemoryLedger, Outcome, PolicyTest,
    Seam, Severity, Verdict, load_file,
};

mod discover;
mod explain;
mod hook;
mod init;
mod library;
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

impl From<Format> for replay::OutputFormat {
    fn from(f: Format) -> replay::OutputFormat {
        match f {
            Format::Text => replay::OutputFormat::Text,
            Format::Json => replay::OutputFormat::Json,
            Format::Jsonl => replay::OutputFormat::Jsonl,
        }
    }
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
    },
    /// Trust the exact content of project files whose command hooks may run.
    Trust {
        /// Policy or hooks-config files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Write a policy profile into .seamguard/ and hook seamguard into Claude Code or Codex.
    ///
    /// Adds `seamguard hook` entries to .claude/settings.json (Codex: .codex/hooks.json),
    /// keeping every other byte; backs up each modified file; `--undo` puts everything back.
    Init {
        /// Agent to hook into (default: codex when only a .codex/ folder exists).
        #[arg(long, value_enum)]
        agent: Option<DialectArg>,
        /// Policy profile: balanced, strict (balanced + stricter rules) or observe (balanced,
        /// recorded in the audit log but deciding nothing).
        #[arg(long, value_enum, default_value = "balanced")]
        profile: init::Profile,
        /// Install for the user ($XDG_CONFIG_HOME/seamguard/, ~/.claude, ~/.codex) instead of
        /// the project.
        #[arg(long, conflicts_with = "project")]
        user: bool,
        /// Print the unified diff of every change and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Restore the backed-up files and remove what init created (unless edited since).
        #[arg(long)]
        undo: bool,
        /// Overwrite policy files that differ from the profile's (init), or undo files edited
        /// since init wrote them (--undo).
        #[arg(long)]
        force: bool,
        /// Project folder (default: the current directory).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
    },
    /// Turn Claude Code / Codex hook configurations into a seamguard policy file.
    Import {
        /// settings.json, hooks.json or config.toml files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write the policy here instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Host of the configuration (default: guessed from the path).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
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
    /// Dry-run recorded sessions (Claude Code transcripts, Codex rollouts, hook-payload logs,
    /// Gemini CLI chats) against policies, never acting on them.
    Replay {
        /// Recorded files or folders.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Policy file or folder (repeatable; default: discovered policies).
        #[arg(long = "policy", value_name = "PATH")]
        policies: Vec<PathBuf>,
        /// Policy file or folder to compare against (repeatable): list the events whose
        /// verdict or firing rules differ between the two policy sets.
        #[arg(long = "baseline", value_name = "PATH")]
        baseline: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Exit 1 if any event gets this verdict or a stricter one (`deny` or `ask`).
        #[arg(long, value_name = "VERDICT")]
        fail_on: Option<String>,
        /// Force the dialect of every event (default: the dialect of the recording).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// Execute the `run` command hooks of fired rules (default: list them as "would run").
        #[arg(long)]
        exec_hooks: bool,
    },
    /// Explain one event: every rule of its seam, each predicate, the merge, the encoded output.
    Explain {
        /// `FILE:LINE` of a recorded session (every event recorded at that line).
        #[arg(required_unless_present = "event", conflicts_with = "event")]
        target: Option<String>,
        /// A file holding one hook payload (JSON), or `-` for stdin.
        #[arg(long, value_name = "FILE")]
        event: Option<PathBuf>,
        /// Policy file or folder (repeatable; default: discovered policies).
        #[arg(long = "policy", value_name = "PATH")]
        policies: Vec<PathBuf>,
        /// Dialect to evaluate in (default: the dialect of the event).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// Output format (`text` or `json`).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Hook {
            dialect,
            policies,
            hooks_configs,
            on_load_error,
            audit_log,
        } => hook::run(&hook::Options {
            dialect: dialect.map(Into::into),
            policies,
            hooks_configs,
            fail_closed: on_load_error == Some(LoadErrorArg::Deny),
            audit_log,
        }),
        Command::Trust { paths } => hook::trust(&paths),
        Command::Init {
            agent,
            profile,
            user,
            dry_run,
            undo,
            force,
            project,
        } => init::run(&init::Options {
            agent: agent.map(Into::into),
            profile,
            user,
            dry_run,
            undo,
            force,
            project,
        }),
        Command::Import {
            paths,
            output,
            dialect,
        } => hook::import(&paths, output.as_deref(), dialect.map(Into::into)),
        Command::Check { paths } => check(&paths),
        Command::Test { paths } => test(&paths),
        Command::Replay {
            files,
            policies,
            baseline,
            format,
            fail_on,
            dialect,
            exec_hooks,
        } => replay::run(&replay::Options {
            inputs: files,
            policies,
            baseline,
            format: format.into(),
            fail_on,
            dialect: dialect.map(Into::into),
            exec_hooks,
        }),
        Command::Explain {
            target,
            event,
            policies,
            dialect,
            format,
        } => explain::run(&explain::Options {
            target,
            event,
            policies,
            dialect: dialect.map(Into::into),
            json: format != Format::Text,
        }),
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
    let fired = o.fired_ids();
    let rules_ok = t.rules.iter().all(|r| fired.contains(&r.as_str()))
        && !t.not_rules.iter().any(|r| fired.contains(&r.as_str()));
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
