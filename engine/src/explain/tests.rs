//! `explain` against small policies: every rule traced, what a held leaf matched, the
//! entries that match alone, rules that came close.

use super::*;
use crate::policy::Scope;

const POLICY: &str = r#"
[[rule]]
id = "rm"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "rm", flags_any = ["-r"] }
unless.command = { args_any = ["/tmp/scratch"] }
decision = "deny"

[[rule]]
id = "push"
seam = "pre-tool"
tool = "Bash"
when.all = [{ command = { regex = 'git\s+push' } }, { not = { command = { contains = "--dry-run" } } }]
decision = "ask"

[[rule]]
id = "env"
seam = "pre-tool"
tool = "Read|Bash"
when.any = [{ file_path = { glob = "**/.env" } }, { command = { contains = ".env" } }]
decision = "deny"

[[guard]]
id = "mkfs"
seam = "pre-tool"
tool = "Bash"
when.command = { program = "mkfs" }
"#;

/// An engine with [`POLICY`].
fn policy_engine() -> Engine {
    let p = crate::load::load_str(POLICY, "p.toml", Scope::Cli, 0);
    Engine::new(DecisionTable::new(vec![p]))
}

/// The explanation of a `Bash` call of `cmd` at the pre-tool seam.
fn explain_bash(engine: &Engine, cmd: &str) -> Explanation {
    let payload = bash(cmd);
    explain(
        engine,
        &Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode),
    )
}

fn bash(cmd: &str) -> Value {
    json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": cmd}})
}

/// `explain` is the table's own evaluation: a rule is traced as fired exactly when the
/// table fires it.
#[test]
fn the_trace_agrees_with_the_table() {
    let p = crate::load::load_str(POLICY, "p.toml", Scope::Cli, 0);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let engine = Engine::new(DecisionTable::new(vec![p]));
    let read = json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Read", "tool_input": {"file_path": "/w/.env"}});
    let payloads = [
        bash("sudo rm -rf /w/build"),
        bash("rm -r /tmp/scratch"),
        bash("git push origin main"),
        bash("git push --dry-run"),
        bash("cat .env && mkfs /dev/sda"),
        bash("echo $(eval \"$X\")"),
        read,
    ];
    for payload in &payloads {
        let fired = engine
            .table()
            .fire(Seam::PreTool, payload, Dialect::ClaudeCode, None);
        let x = explain(
            &engine,
            &Request::new(Seam::PreTool, payload, Dialect::ClaudeCode),
        );
        assert_eq!(x.rules.len(), 4);
        for (i, r) in x.rules.iter().enumerate() {
            assert_eq!(
                r.fired,
                fired.contains(&(i as u32)),
                "{} on {payload}",
                r.id
            );
        }
    }
}

#[test]
fn every_leaf_is_traced_with_the_commands_the_analyser_saw() {
    let engine = policy_engine();
    let x = explain_bash(&engine, "rm -r /tmp/scratch");
    let rm = &x.rules[0];
    assert!(rm.matcher_matched && !rm.fired);
    let when = rm.when.as_ref().map(|w| (w.held, w.counted));
    assert_eq!(when, Some((Held::Yes, true)));
    let unless = rm.unless.as_ref().map(|u| (u.held, u.counted));
    assert_eq!(unless, Some((Held::Yes, true)));
    assert_eq!(
        rm.when.as_ref().map(|w| w.commands.clone()),
        Some(vec!["rm -r /tmp/scratch".to_string()])
    );
    // Short-cuts are off when tracing: the `not` under `all` is evaluated too.
    let push = x.rules[1].when.as_ref().map(|w| w.children.len());
    assert_eq!(push, Some(2));
    assert_eq!(x.rules[1].when.as_ref().map(|w| w.held), Some(Held::No));
}

/// A rule came close when one leaf more would have fired it, or `unless` excused it; a
/// held leaf names what it matched and the list entries that match on their own.
#[test]
fn close_rules_and_matched_entries() {
    let engine = policy_engine();
    let x = explain_bash(&engine, "rm -r /tmp/scratch");
    let close: Vec<(&str, bool, bool)> = x
        .rules
        .iter()
        .map(|r| (r.id.as_str(), r.fired, r.close))
        .collect();
    assert_eq!(
        close,
        [
            ("rm", false, true),
            ("push", false, false),
            ("env", false, false),
            ("mkfs", false, false)
        ]
    );
    let when = x.rules[0].when.as_ref();
    assert_eq!(
        when.and_then(|w| w.matched.clone()).as_deref(),
        Some("rm -r /tmp/scratch")
    );
    // One entry per list: the label says it all.
    assert_eq!(when.map(|w| w.entries.len()), Some(0));
    assert_eq!(
        when.map(|w| w.brief.as_str()),
        Some("command program = \"rm\", flags_any = [-r]")
    );

    let x = explain_bash(&engine, "git push --dry-run");
    assert!(!x.rules[1].fired && x.rules[1].close && !x.rules[1].unsure);
    let x = explain_bash(&engine, "echo $(eval \"$X\")");
    assert!(x.rules[0].unsure && x.rules[0].fired);
}
