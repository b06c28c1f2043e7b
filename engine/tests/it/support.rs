//! What several test modules share: folders, policies and engines built from TOML, hook
//! payloads of both hosts, and the proptest configuration.

use std::path::{Path, PathBuf};

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};
use seamguard_engine::{
    DecisionTable, Engine, LoadedPolicy, MemoryLedger, Scope, Seam, ShellEnv, Verdict, load_dir,
    load_str,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use toml::de::{DeTable, DeValue};

#[path = "fixtures.rs"]
mod fixtures;
pub(crate) use fixtures::{
    bash, claude, claude_pre_tool, codex, codex_bash, codex_pre_tool, fresh_dir, recorded_engine,
};

/// The project folder of the payloads (`cwd`) and of the library's path environment.
pub(crate) const PROJECT: &str = "/home/user/project";
/// `$HOME` of the payloads and of the library's path environment.
pub(crate) const HOME: &str = "/home/user";

/// What seamguard appends to the reason when it answers a Codex `ask` with a deny.
pub(crate) const CODEX_ASK_TAIL: &str = " — Codex hooks cannot ask for confirmation, so seamguard denies; if the call is intended, the user can approve it with `seamguard allow --last` and retry.";

/// HK-02: Claude Code matchers and the tool names they must or must not fire on (`(matcher,
/// tool name, fires)`). An exact set is letters, digits, `_`, `-`, space, `,` and `|`;
/// anything else is an unanchored regex.
pub(crate) const CLAUDE_MATCHER_CASES: &[(&str, &str, bool)] = &[
    ("mcp__github", "mcp__github__create_issue", false),
    ("mcp__github__.*", "mcp__github__create_issue", true),
    ("mcp__brave-search", "mcp__brave-search__web_search", false),
    ("Edit|Write", "NotebookEdit", false),
    ("Edit, Write", "Write", true),
    ("Edit.*", "NotebookEdit", true),
    ("^Edit$", "NotebookEdit", false),
    ("mcp__db__.*", "mcp__plugin_acme_db__query", false),
    (
        "mcp__plugin_acme_db__.*",
        "mcp__plugin_acme_db__query",
        true,
    ),
    ("", "Read", true),
    ("*", "Read", true),
];

/// Asserts that the host discards a decoded hook output (no verdict) with `error`.
pub(crate) fn assert_discarded(r: &seamguard_engine::HookResponse, error: &str) {
    assert_eq!(r.verdict, None);
    assert_eq!(r.error.as_deref(), Some(error));
}

/// Asserts an outcome's merged verdict and its reason text.
pub(crate) fn assert_verdict(o: &seamguard_engine::Outcome, verdict: Verdict, reason: &str) {
    assert_eq!(o.verdict(), verdict);
    assert_eq!(o.reason_text(), reason);
}

/// The workspace root (the repository).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// `engine/tests/data`, the fixtures of these tests.
pub(crate) fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A policy loaded from TOML as `file`, which must load without an error.
pub(crate) fn load(src: &str, file: &str, scope: Scope) -> LoadedPolicy {
    let p = load_str(src, file, scope, 0);
    assert!(!p.has_errors(), "{:#?}\n{src}", p.diagnostics);
    p
}

/// A policy loaded as the user's `case.toml` (diagnostics name that file).
pub(crate) fn policy(src: &str) -> LoadedPolicy {
    load(src, "case.toml", Scope::User)
}

/// An engine of one policy: [`policy`] of `src`.
pub(crate) fn engine(src: &str) -> Engine {
    Engine::new(DecisionTable::new(vec![policy(src)]))
}

/// The bundled balanced library (`policies/*.toml`), exactly as shipped, with the path
/// environment [`PROJECT`] / [`HOME`] and a ledger.
pub(crate) fn library() -> Engine {
    let dir = root().join("policies");
    let policies = load_dir(&dir, Scope::User, 0);
    assert!(!policies.is_empty(), "no policy in {}", dir.display());
    for p in &policies {
        assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    }
    let table =
        DecisionTable::new(policies).with_env(ShellEnv::new(Some(PROJECT.to_string()), HOME));
    Engine::new(table).with_ledger(Box::new(MemoryLedger::default()))
}

/// A proptest configuration of `cases` cases whose failures are persisted beside the test
/// module's source file (`<module>.proptest-regressions`), where they are read back from.
/// (The default would look for a `lib.rs`/`main.rs` folder, find `it/main.rs`, and use a
/// `proptest-regressions/` folder next to it instead.)
pub(crate) fn proptest_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// Every verdict (in this order: proptest strategies select from it).
pub(crate) const VERDICTS: [Verdict; 8] = [
    Verdict::Abstain,
    Verdict::Allow,
    Verdict::Ask,
    Verdict::Defer,
    Verdict::Deny,
    Verdict::Block,
    Verdict::Redact,
    Verdict::Continue,
];

/// The verdict whose [`Verdict::name`] is `name` (`none` is abstain).
pub(crate) fn verdict_named(name: &str) -> Verdict {
    VERDICTS
        .into_iter()
        .find(|v| v.name() == name)
        .unwrap_or_else(|| panic!("unknown verdict `{name}`"))
}

/// The seam whose policy-file name is `name` (`pre-tool`).
pub(crate) fn seam_named(name: &str) -> Seam {
    Seam::from_name(name).unwrap_or_else(|| panic!("unknown seam `{name}`"))
}

/// A table of cases, `data/<name>` (TOML), read into `T`.
pub(crate) fn read_cases<T: DeserializeOwned>(name: &str) -> T {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table =
        DeTable::parse(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message()));
    let json = toml_to_json(&DeValue::Table(table.into_inner()));
    serde_json::from_value(json).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The data of a TOML value as JSON (strings, booleans, integers, arrays and tables).
fn toml_to_json(v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Integer(i) => i64::from_str_radix(&i.as_str().replace('_', ""), i.radix())
            .map(Value::from)
            .unwrap_or_else(|e| panic!("integer {}: {e}", i.as_str())),
        DeValue::Array(a) => a.iter().map(|x| toml_to_json(x.get_ref())).collect(),
        DeValue::Table(t) => Value::Object(
            t.iter()
                .map(|(k, x)| (k.get_ref().to_string(), toml_to_json(x.get_ref())))
                .collect(),
        ),
        other => panic!("no floats or datetimes in case tables: {other:?}"),
    }
}
