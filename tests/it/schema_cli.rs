//! The published JSON Schemas (`schema/*.json`) against real output: every record the hook
//! writes to the audit log (asks with their concerns, a granted call, a deny with a masked
//! secret, a command hook's pair, an observe-mode result, a refused payload), and `seamguard
//! replay` as `--format json` and `--format jsonl` (on the bundled recordings, and on that audit
//! log with its recorded decisions as the baseline). The schemas reject a field they do not
//! name, so a new field without a new schema version fails here.

use std::path::{Path, PathBuf};

use jsonschema::{Registry, Validator};
use serde_json::{Value, json};

use crate::support::{Run, fresh_dir, output_with_stdin, root};

/// A schema file of `schema/`, parsed.
fn schema(name: &str) -> Value {
    let path = root().join("schema").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A validator of `name`, with the other schema files registered under their `$id` (the line
/// schema refers to the report schema's `$defs`).
fn validator(name: &str) -> Validator {
    let mut registry = Registry::new();
    for file in [
        "audit-record.v1.schema.json",
        "replay.v1.schema.json",
        "replay-line.v1.schema.json",
    ] {
        let s = schema(file);
        let id = s["$id"].as_str().unwrap().to_string();
        registry = registry.add(id, s).unwrap();
    }
    let registry = registry.prepare().unwrap();
    jsonschema::options()
        .with_registry(&registry)
        .build(&schema(name))
        .unwrap()
}

/// Every validation error of `v`, as `instance path: message`.
fn errors(validator: &Validator, v: &Value) -> Vec<String> {
    validator
        .iter_errors(v)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Assert that every value validates; name the first that does not.
fn assert_valid(validator: &Validator, what: &str, values: &[Value]) {
    for (i, v) in values.iter().enumerate() {
        let errs = errors(validator, v);
        assert!(
            errs.is_empty(),
            "{what} #{i} does not validate: {errs:?}\n{v}"
        );
    }
}

/// A work folder: HOME, config and state folders of the binary inside it.
struct Work(PathBuf);

impl Work {
    fn new(name: &str) -> Work {
        let p = fresh_dir("schema", name);
        std::fs::create_dir_all(p.join("project/.git")).unwrap();
        Work(p)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        crate::support::write_file(self.0.join(rel), text)
    }

    fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        let mut cmd = crate::support::command();
        cmd.args(args)
            .current_dir(self.0.join("project"))
            .env("HOME", self.0.join("home"))
            .env("XDG_CONFIG_HOME", self.0.join("config"))
            .env("XDG_STATE_HOME", self.0.join("state"))
            .env("SEAMGUARD_MANAGED_DIR", self.0.join("managed"))
            .env_remove("SEAMGUARD_AUDIT_LOG")
            .env_remove("SEAMGUARD_AUDIT_INPUT")
            .env_remove("CLAUDE_PROJECT_DIR");
        Run::lossy_stderr(output_with_stdin(&mut cmd, stdin))
    }

    fn log(&self) -> PathBuf {
        self.0.join("state/seamguard/audit.jsonl")
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The policy of the audit test: pushes ask, tokens on a command line are denied, every
/// `touch` runs a command hook, and an observe-mode rule would deny `rm`.
const POLICY: &str = r#"[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "git", subcommand = "push" }
decision = "ask"
reason = "Pushes need approval"

[[rule]]
id = "token-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { regex = '\bghp_[A-Za-z0-9]{36}\b' }
decision = "deny"
reason = "No tokens on the command line"

[[rule]]
id = "touch-hook"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "touch" }
run = { command = "true" }
"#;

const OBSERVE: &str = r#"[policy]
mode = "observe"

[[rule]]
id = "rm-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "rm" }
decision = "deny"
reason = "No rm"
"#;

fn bash(w: &Work, session: &str, id: &str, command: &str) -> Vec<u8> {
    json!({
        "session_id": session, "transcript_path": "",
        "cwd": w.0.join("project").display().to_string(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": id,
        "tool_input": {"command": command},
    })
    .to_string()
    .into_bytes()
}

/// The records of the log, parsed.
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The JSON lines of a text.
fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A hook session of every kind of record, then the log checked against the schema.
fn audit_session(w: &Work) -> Vec<Value> {
    let policy = w.write("policy.toml", POLICY);
    let observe = w.write("observe.toml", OBSERVE);
    let (p, o) = (policy.to_str().unwrap(), observe.to_str().unwrap());
    let hook = |stdin: &[u8]| {
        let r = w.run(&["hook", "--policy", p, "--policy", o], stdin);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r
    };
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    hook(&bash(w, "s1", "t1", "git push origin main"));
    hook(&bash(
        w,
        "s1",
        "t2",
        &format!("echo {token} | gh auth login"),
    ));
    hook(&bash(w, "s1", "t3", "touch notes.txt"));
    hook(&bash(w, "s1", "t4", "rm -r build"));
    hook(&bash(w, "s1", "t5", "ls -la"));
    // A truncated payload is refused unread, and recorded.
    hook(b"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"comm");
    // The ask approved for every session: the same push in another session is granted.
    let r = w.run(&["allow", "--last", "--always"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    hook(&bash(w, "s2", "t6", "git push origin main"));
    records(&w.log())
}

#[test]
fn every_kind_of_audit_record_validates_and_the_schema_rejects_what_it_does_not_name() {
    let w = Work::new("audit");
    let recs = audit_session(&w);
    let v = validator("audit-record.v1.schema.json");
    assert_valid(&v, "audit record", &recs);
    // The session wrote every optional part the schema describes.
    let has = |key: &str| recs.iter().filter(|r| r.get(key).is_some()).count();
    let kinds: Vec<(&str, usize)> = [
        "command",
        "exit_code",
        "rule_verdicts",
        "concerns",
        "call",
        "call_sha256",
        "call_id",
        "grant",
        "observed",
        "refused",
        "redacted",
        "input",
        "payload_sha256",
    ]
    .iter()
    .map(|k| (*k, has(k)))
    .collect();
    assert_eq!(
        kinds,
        [
            ("command", 1),
            ("exit_code", 1),
            ("rule_verdicts", 6),
            ("concerns", 2),
            ("call", 2),
            ("call_sha256", 2),
            ("call_id", 2),
            ("grant", 1),
            ("observed", 1),
            ("refused", 2),
            ("redacted", 1),
            ("input", 6),
            ("payload_sha256", 7),
        ]
    );
    // The granted call carries the concerns the grant let through (what a team report counts
    // approvals by).
    let granted = recs.iter().find(|r| r.get("grant").is_some()).unwrap();
    assert_eq!(
        (
            &granted["decision"],
            &granted["concerns"][0]["rule"],
            &granted["call_id"]
        ),
        (&json!("allow"), &json!("push-ask"), &json!("t6"))
    );
    // A field the schema does not name, a verdict seamguard never writes, a result without its
    // decision: each is an error.
    let result = recs
        .iter()
        .find(|r| r["decision"] == "ask")
        .unwrap()
        .clone();
    let mut extra = result.clone();
    extra["severity"] = json!("high");
    let mut verdict = result.clone();
    verdict["decision"] = json!("maybe");
    let mut missing = result.clone();
    missing.as_object_mut().unwrap().remove("decision");
    let found: Vec<usize> = [extra, verdict, missing]
        .iter()
        .map(|r| errors(&v, r).len())
        .collect();
    assert!(found.iter().all(|n| *n > 0), "{found:?}");
    let invoked_with_decision = json!({"type": "hook/invoked", "handler_id": "h",
        "ts_ms": 1, "dialect": "claude-code", "event": "PreToolUse", "session_id": "s",
        "decision": "deny"});
    assert_eq!(
        errors(&v, &invoked_with_decision),
        [format!(
            ": {{\"anyOf\":[{{\"required\":[\"decision\"]}},{{\"required\":[\"exit_code\"]}},{{\"required\":[\"input\"]}}]}} is not allowed for {invoked_with_decision}"
        )]
    );
}

/// `seamguard replay` with `args`, its stdout (exit 0 or 1: 1 when something was denied).
fn replay(w: &Work, args: &[&str]) -> String {
    let r = w.run(&[&["replay"], args].concat(), b"");
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    r.stdout
}

#[test]
fn replay_json_and_jsonl_of_the_bundled_recordings_validate() {
    let w = Work::new("replay");
    let recorded = root().join("data/recorded");
    let policies = root().join("policies");
    let strict = root().join("tests/data/replay/strict.toml");
    let (recorded, policies, strict) = (
        recorded.to_str().unwrap(),
        policies.to_str().unwrap(),
        strict.to_str().unwrap(),
    );
    let with_baseline = [
        recorded,
        "--policy",
        policies,
        "--policy",
        strict,
        "--baseline",
        policies,
    ];
    let json = replay(&w, &[&with_baseline[..], &["--format", "json"]].concat());
    let report: Value = serde_json::from_str(&json).unwrap();
    let v = validator("replay.v1.schema.json");
    assert_valid(&v, "replay report", std::slice::from_ref(&report));
    assert!(
        report["decisions"].as_array().unwrap().len() > 50,
        "{}",
        report["decisions"].as_array().unwrap().len()
    );
    assert!(
        report["diff"]["changed"].as_u64().unwrap() > 10,
        "{}",
        report["diff"]["changed"]
    );
    let line = validator("replay-line.v1.schema.json");
    let plain = lines(&replay(
        &w,
        &[recorded, "--policy", policies, "--format", "jsonl"],
    ));
    assert_valid(&line, "replay line", &plain);
    let out = lines(&replay(
        &w,
        &[&with_baseline[..], &["--format", "jsonl"]].concat(),
    ));
    assert_valid(&line, "replay line (baseline)", &out);
    let types = |ls: &[Value]| -> Vec<String> {
        let mut t: Vec<String> = ls
            .iter()
            .map(|l| l["type"].as_str().unwrap().to_string())
            .collect();
        t.dedup();
        t
    };
    assert_eq!(types(&out).last().map(String::as_str), Some("summary"));
    // A report is not a line, nor a line a report.
    assert!(!errors(&line, &report).is_empty());
    assert!(!errors(&v, &out[0]).is_empty());
}

#[test]
fn replay_of_an_audit_log_against_its_recorded_decisions_validates() {
    let w = Work::new("replay-audit");
    audit_session(&w);
    let strict = w.write("strict.toml", &POLICY.replace("\"ask\"", "\"deny\""));
    let (log, strict) = (w.log(), strict.to_str().unwrap().to_string());
    let log = log.to_str().unwrap();
    let report: Value =
        serde_json::from_str(&replay(&w, &[log, "--policy", &strict, "--format", "json"])).unwrap();
    assert_valid(
        &validator("replay.v1.schema.json"),
        "replay report",
        std::slice::from_ref(&report),
    );
    assert_eq!(report["diff"]["against"], "recorded");
    // Both pushes (the granted one too) are denied now; the observe-mode rule is not in the
    // strict policy.
    assert_eq!(
        report["diff"]["changes"]["transitions"],
        json!([{"from": "ask", "to": "deny", "events": 2}, {"from": "deny", "to": "none", "events": 1}]),
        "{}",
        report["diff"]
    );
    let out = lines(&replay(
        &w,
        &[log, "--policy", &strict, "--format", "jsonl"],
    ));
    assert_valid(
        &validator("replay-line.v1.schema.json"),
        "replay line",
        &out,
    );
    let problems = out.iter().filter(|l| l["type"] == "problem").count();
    assert_eq!(problems, 1);
}

#[test]
fn the_schemas_are_valid_draft_2020_12_and_versioned() {
    for (file, id) in [
        (
            "audit-record.v1.schema.json",
            "https://seamguard.dev/schema/audit-record.v1.schema.json",
        ),
        (
            "replay.v1.schema.json",
            "https://seamguard.dev/schema/replay.v1.schema.json",
        ),
        (
            "replay-line.v1.schema.json",
            "https://seamguard.dev/schema/replay-line.v1.schema.json",
        ),
    ] {
        let s = schema(file);
        assert_eq!(s["$id"], id);
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let meta: Vec<String> = jsonschema::meta::validate(&s)
            .err()
            .map(|e| e.to_string())
            .into_iter()
            .collect();
        assert_eq!(meta, Vec::<String>::new(), "{file}");
    }
}
