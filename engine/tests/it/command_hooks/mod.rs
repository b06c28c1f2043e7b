//! Issue 4 — command hooks through the engine with the real process runner (`ProcessRunner`).
//!
//! * Real hook configurations (`tests/data/configs/`, see its `NOTICE.md`) import and load.
//! * The cases about command hooks (`shared/cases/cases.jsonl`: HK-01 – HK-06, HK-08, HK-14,
//!   HK-16, HK-18, CX-03) run against real bash and python3 scripts written into a temp dir;
//!   each test names its case and asserts the exact outcome.
//! * Fault injection: a hook that never ends (killed with its child at the timeout), one that
//!   floods stdout, one with invalid UTF-8, one that cannot start (127), one that crashes.
//! * Trust: a project-scope `run` action does not execute until its file is trusted.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use seamguard_engine::import::import_config;
use seamguard_engine::runner::ProcessRunner;
use seamguard_engine::{DecisionTable, Dialect, Engine, LoadedPolicy, Outcome, Seam, encode};
use serde_json::Value;

use crate::support::policy;

mod configs;
mod faults;
mod guard_cases;
mod output_cases;
mod trust;

// ---------------------------------------------------------------------------------------------
// Fixtures

/// A unique temp folder, removed on drop.
struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        Tmp(crate::support::fresh_dir("ch", name))
    }

    fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    fn s(&self) -> String {
        self.0.display().to_string()
    }

    /// Write an executable script (folders created).
    fn script(&self, rel: &str, body: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, body).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A TOML basic string (a JSON string literal is one).
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn engine_of(p: LoadedPolicy) -> Engine {
    Engine::new(DecisionTable::new(vec![p])).with_runner(Box::new(ProcessRunner))
}

/// An engine of one policy that runs command hooks as real processes.
fn engine(src: &str) -> Engine {
    engine_of(policy(src))
}

/// Import a hook configuration (as `file`) and build an engine running it.
fn engine_from_config(file: &str, config: &Value, dialect: Dialect) -> Engine {
    let imp = import_config(file, &config.to_string(), dialect, None).unwrap();
    engine(&imp.toml)
}

fn pre(e: &Engine, payload: &Value) -> Outcome {
    e.evaluate(Seam::PreTool, payload, Dialect::ClaudeCode)
}

fn pre_codex(e: &Engine, payload: &Value) -> Outcome {
    e.evaluate(Seam::PreTool, payload, Dialect::Codex)
}

fn warned(o: &Outcome, needle: &str) -> bool {
    o.warnings.iter().any(|w| w.contains(needle))
}

fn stdout_json(o: &Outcome, d: Dialect) -> Value {
    let s = encode(o, d).stdout;
    if s.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&s).unwrap()
    }
}

const DENY_JSON: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"matched"}}"#;
