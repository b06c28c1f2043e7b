//! Property tests (DESIGN.md §2 "Merging is most-restrictive and order-independent"):
//!
//! * the merged verdict does not depend on contribution order;
//! * adding a contribution never lowers the verdict rank (monotonicity), and a halt stays;
//! * a guard can never turn a deny into an allow — any guard deny makes the outcome deny;
//! * differential: random small policies evaluated by the indexed `DecisionTable::fire` select
//!   exactly the rules the reference evaluator `fire_naive` selects, on random payloads.

use proptest::prelude::*;
use seamguard_engine::{
    Contribution, DecisionTable, Dialect, Engine, GuardDeny, RuleKind, Scope, Seam, Verdict,
    encode, load_str, merge,
};
use serde_json::{Map, Value, json};

use crate::support::{VERDICTS, proptest_config};

// ---------------------------------------------------------------------------------------------
// Merge properties

fn verdict() -> impl Strategy<Value = Verdict> {
    proptest::sample::select(VERDICTS.to_vec())
}

fn seam() -> impl Strategy<Value = Seam> {
    proptest::sample::select(Seam::ALL.to_vec())
}

fn contribution() -> impl Strategy<Value = Contribution> {
    (
        "[a-z]{1,6}",
        verdict(),
        proptest::option::of("[a-z ]{0,12}"),
        proptest::option::of("[a-z ]{1,8}"),
        proptest::option::weighted(0.15, "[a-z ]{1,8}"),
        proptest::bool::weighted(0.1),
    )
        .prop_map(|(rule, verdict, reason, context, halt, observe)| {
            let mut c = Contribution::verdict(&rule, verdict, reason);
            c.context = context;
            c.halt = halt;
            c.observe = observe;
            c
        })
}

fn contributions() -> impl Strategy<Value = Vec<Contribution>> {
    proptest::collection::vec(contribution(), 0..8)
}

fn sorted_reasons(o: &seamguard_engine::Outcome) -> Vec<(String, String)> {
    let mut r: Vec<(String, String)> = o
        .reasons
        .iter()
        .map(|a| (a.rule.clone(), a.text.clone()))
        .collect();
    r.sort();
    r
}

proptest! {
    #![proptest_config(proptest_config(512))]

    #[test]
    fn merged_verdict_is_independent_of_order(
        seam in seam(),
        (cs, shuffled) in contributions().prop_flat_map(|cs| {
            let s = Just(cs.clone()).prop_shuffle();
            (Just(cs), s)
        }),
    ) {
        let a = merge(seam, cs);
        let b = merge(seam, shuffled);
        prop_assert_eq!(a.verdict(), b.verdict());
        prop_assert_eq!(sorted_reasons(&a), sorted_reasons(&b));
        prop_assert_eq!(a.halt.is_some(), b.halt.is_some());
    }

    #[test]
    fn adding_a_contribution_never_lowers_the_verdict(
        seam in seam(),
        cs in contributions(),
        extra in contribution(),
        at in any::<prop::sample::Index>(),
    ) {
        let before = merge(seam, cs.clone());
        let mut more = cs;
        let i = at.index(more.len() + 1);
        more.insert(i, extra);
        let after = merge(seam, more);
        prop_assert!(
            after.verdict().rank(seam) >= before.verdict().rank(seam),
            "{:?} -> {:?} at {}", before.verdict(), after.verdict(), seam
        );
        // A verdict the seam can produce never disappears once reached.
        if before.verdict() != Verdict::Abstain {
            prop_assert!(after.verdict() != Verdict::Abstain);
        }
        // Halt is sticky.
        if before.halt.is_some() {
            prop_assert!(after.halt.is_some());
        }
    }

    #[test]
    fn a_guard_deny_always_wins_at_pre_tool(
        cs in contributions(),
        reason in "[a-z ]{1,20}",
        at in any::<prop::sample::Index>(),
    ) {
        let mut all = cs.clone();
        let guard = Contribution::from_guard("guard", None, GuardDeny { reason: reason.clone() });
        prop_assert!(guard.guard);
        prop_assert_eq!(guard.verdict, Verdict::Deny);
        let i = at.index(all.len() + 1);
        all.insert(i, guard);
        let o = merge(Seam::PreTool, all);
        prop_assert_eq!(o.verdict(), Verdict::Deny);
        prop_assert!(o.reasons.iter().any(|r| r.rule == "guard" && r.text == reason));
        // Whatever the hooks said, the host gets a deny.
        let enc = encode(&o, Dialect::Codex);
        prop_assert!(enc.stdout.contains("\"permissionDecision\":\"deny\""), "{}", enc.stdout);
        let enc = encode(&o, Dialect::ClaudeCode);
        prop_assert!(enc.stdout.contains("\"permissionDecision\":\"deny\""), "{}", enc.stdout);
    }

    #[test]
    fn a_deny_is_never_turned_into_allow_by_more_contributions(
        cs in contributions(),
        extra in proptest::collection::vec(contribution(), 0..6),
    ) {
        let mut all = cs;
        all.push(Contribution::verdict("d", Verdict::Deny, Some("no".into())));
        let before = merge(Seam::PreTool, all.clone());
        prop_assert_eq!(before.verdict(), Verdict::Deny);
        all.extend(extra);
        prop_assert_eq!(merge(Seam::PreTool, all).verdict(), Verdict::Deny);
    }
}

// ---------------------------------------------------------------------------------------------
// Random policies in TOML

#[derive(Debug, Clone)]
enum Cond {
    Leaf {
        field: &'static str,
        test: &'static str,
        values: Vec<String>,
    },
    Any(Vec<Cond>),
    All(Vec<Cond>),
    Not(Box<Cond>),
}

const FIELDS: &[&str] = &[
    "command",
    "file_path",
    "tool_name",
    "description",
    "prompt",
    "/tool_input/command",
    "/tool_input/timeout",
    "/tool_input/flags/0",
    "/tool_input/run_in_background",
];

const REGEXES: &[&str] = &[
    r"rm\s+-rf",
    r"^git",
    r"push",
    r"(?i)secret",
    r"\.env$",
    r"[0-9]+",
    r"^$",
    r"a|b",
    r"foo.*bar",
    r"\bcat\b",
    r"é",
    r"^(Bash|Edit)$",
    r"--force",
    r"\s",
];

const WORDS: &[&str] = &[
    "rm", "-rf", "git", "push", "--force", "cat", ".env", "src", "SECRET", "é", "foo", "bar", "",
    " ", "Bash", "/home", "5", "true",
];

const GLOBS: &[&str] = &[
    "**/.env",
    "*.rs",
    "/home/**",
    "**/*.pem",
    "src/*",
    "**",
    "*",
    "**/src/**/*.rs",
    "Bash",
    "{*.rs,*.toml}",
    "[a-c]*",
];

/// `equals` values as TOML literals (strings, numbers, booleans).
const EQUALS: &[&str] = &[
    "\"rm -rf /\"",
    "\"Bash\"",
    "\"\"",
    "\"git push --force\"",
    "5",
    "120000",
    "true",
    "false",
    "\"5\"",
    "\"true\"",
    "\"/home/u/app/.env\"",
];

fn toml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn leaf() -> impl Strategy<Value = Cond> {
    let field = proptest::sample::select(FIELDS.to_vec());
    let test = prop_oneof![
        proptest::collection::vec(proptest::sample::select(REGEXES.to_vec()), 1..3).prop_map(|v| (
            "regex",
            v.iter().map(|r| format!("'{r}'")).collect::<Vec<_>>()
        )),
        proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 1..3)
            .prop_map(|v| ("contains", v.iter().map(|w| toml_str(w)).collect())),
        proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 1..3)
            .prop_map(|v| ("prefix", v.iter().map(|w| toml_str(w)).collect())),
        proptest::collection::vec(proptest::sample::select(EQUALS.to_vec()), 1..3)
            .prop_map(|v| ("equals", v.iter().map(|w| w.to_string()).collect())),
        proptest::collection::vec(proptest::sample::select(GLOBS.to_vec()), 1..3)
            .prop_map(|v| ("glob", v.iter().map(|g| format!("'{g}'")).collect())),
    ];
    (field, test).prop_map(|(field, (test, values))| Cond::Leaf {
        field,
        test,
        values,
    })
}

fn cond() -> impl Strategy<Value = Cond> {
    leaf().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 1..4).prop_map(Cond::Any),
            proptest::collection::vec(inner.clone(), 1..4).prop_map(Cond::All),
            inner.prop_map(|c| Cond::Not(Box::new(c))),
        ]
    })
}

fn cond_toml(c: &Cond) -> String {
    match c {
        Cond::Leaf {
            field,
            test,
            values,
        } => {
            let key = if field.starts_with('/') {
                toml_str(field)
            } else {
                field.to_string()
            };
            let val = if values.len() == 1 {
                values[0].clone()
            } else {
                format!("[{}]", values.join(", "))
            };
            format!("{{ {key} = {{ {test} = {val} }} }}")
        }
        Cond::Any(k) | Cond::All(k) => {
            let name = if matches!(c, Cond::Any(_)) {
                "any"
            } else {
                "all"
            };
            let items: Vec<String> = k.iter().map(cond_toml).collect();
            format!("{{ {name} = [{}] }}", items.join(", "))
        }
        Cond::Not(x) => format!("{{ not = {} }}", cond_toml(x)),
    }
}

#[derive(Debug, Clone)]
struct GenRule {
    guard: bool,
    matcher: Option<&'static str>,
    when: Option<Cond>,
    unless: Option<Cond>,
    decision: &'static str,
}

const MATCHERS: &[&str] = &[
    "",
    "*",
    "Bash",
    "Bash|Edit",
    "Edit, Write",
    "Ed.*",
    "^Read$",
    "mcp__.*",
    "apply_patch",
    "Edit",
    "Write|Read",
    "mcp__github__.*",
    "Agent",
    "code-reviewer",
];

fn gen_rule() -> impl Strategy<Value = GenRule> {
    (
        proptest::bool::weighted(0.25),
        proptest::option::of(proptest::sample::select(MATCHERS.to_vec())),
        proptest::option::weighted(0.85, cond()),
        proptest::option::weighted(0.3, cond()),
        proptest::sample::select(vec!["allow", "deny", "ask", "defer"]),
    )
        .prop_map(|(guard, matcher, when, unless, decision)| GenRule {
            guard,
            matcher,
            when,
            unless,
            decision,
        })
}

fn policy_toml(rules: &[GenRule], codex_matchers: bool) -> String {
    let mut s = String::new();
    if codex_matchers {
        s.push_str("[policy]\nmatcher_mode = \"codex\"\n\n");
    }
    for (i, r) in rules.iter().enumerate() {
        if r.guard {
            s.push_str(&format!("[[guard]]\nid = \"r{i}\"\n"));
        } else {
            s.push_str(&format!(
                "[[rule]]\nid = \"r{i}\"\nseam = \"pre-tool\"\ndecision = \"{}\"\n",
                r.decision
            ));
        }
        if let Some(m) = r.matcher {
            s.push_str(&format!("tool = {}\n", toml_str(m)));
        }
        if let Some(w) = &r.when {
            s.push_str(&format!("when = {}\n", cond_toml(w)));
        }
        if let Some(u) = &r.unless {
            s.push_str(&format!("unless = {}\n", cond_toml(u)));
        }
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Random payloads

const TOOLS: &[&str] = &[
    "Bash",
    "Edit",
    "Write",
    "Read",
    "NotebookEdit",
    "mcp__github__create_issue",
    "apply_patch",
    "BashOutput",
    "Agent",
    "spawn_agent",
    "my-code-reviewer-2",
];

const PATHS: &[&str] = &[
    "/home/u/app/.env",
    "src/lib.rs",
    "/home/u/app/src/main.rs",
    "a.pem",
    "",
    "/tmp/x",
    "src/a/b.rs",
    "Cargo.toml",
    "b.toml",
];

fn payload() -> impl Strategy<Value = Value> {
    (
        proptest::sample::select(TOOLS.to_vec()),
        proptest::option::weighted(
            0.85,
            proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 0..5),
        ),
        proptest::option::of(proptest::sample::select(PATHS.to_vec())),
        proptest::option::of(prop_oneof![
            Just(json!(5)),
            Just(json!(120000)),
            Just(json!("5")),
            Just(json!(null)),
        ]),
        proptest::option::of(proptest::collection::vec(
            proptest::sample::select(WORDS.to_vec()),
            0..3,
        )),
        proptest::option::of(any::<bool>()),
        proptest::option::of(proptest::sample::select(WORDS.to_vec())),
        proptest::option::weighted(0.2, proptest::sample::select(WORDS.to_vec())),
    )
        .prop_map(
            |(tool, command, file_path, timeout, flags, bg, description, prompt)| {
                let mut input = Map::new();
                if let Some(words) = command {
                    input.insert("command".into(), json!(words.join(" ")));
                }
                if let Some(p) = file_path {
                    input.insert("file_path".into(), json!(p));
                }
                if let Some(t) = timeout {
                    input.insert("timeout".into(), t);
                }
                if let Some(f) = flags {
                    input.insert("flags".into(), json!(f));
                }
                if let Some(b) = bg {
                    input.insert("run_in_background".into(), json!(b));
                }
                if let Some(d) = description {
                    input.insert("description".into(), json!(d));
                }
                let mut p = json!({
                    "session_id": "s",
                    "cwd": "/home/u/app",
                    "hook_event_name": "PreToolUse",
                    "tool_name": tool,
                    "tool_input": Value::Object(input),
                });
                if let Some(pr) = prompt {
                    p["prompt"] = json!(pr);
                }
                p
            },
        )
}

proptest! {
    #![proptest_config(proptest_config(192))]

    #[test]
    fn indexed_fire_equals_reference_fire_naive(
        rules in proptest::collection::vec(gen_rule(), 1..7),
        codex_matchers in proptest::bool::weighted(0.3),
        payloads in proptest::collection::vec(payload(), 1..6),
    ) {
        let src = policy_toml(&rules, codex_matchers);
        let p = load_str(&src, "random.toml", Scope::User, 0);
        prop_assert!(!p.has_errors(), "generated policy must load:\n{}\n{:#?}", src, p.diagnostics);
        prop_assert_eq!(p.rules.len(), rules.len());
        let table = DecisionTable::new(vec![p]);
        for payload in &payloads {
            for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
                for kind in [None, Some(RuleKind::Hook), Some(RuleKind::Guard)] {
                    let fast = table.fire(Seam::PreTool, payload, dialect, kind);
                    let slow = table.fire_naive(Seam::PreTool, payload, dialect, kind);
                    prop_assert_eq!(
                        &fast, &slow,
                        "{} {:?}\npolicy:\n{}\npayload: {}", dialect, kind, src, payload
                    );
                }
            }
        }
    }

    #[test]
    fn a_firing_guard_makes_any_policy_deny(
        rules in proptest::collection::vec(gen_rule(), 0..6),
        payload in payload(),
    ) {
        let mut src = policy_toml(&rules, false);
        src.push_str("[[guard]]\nid = \"always\"\nreason = \"guarded\"\n");
        let p = load_str(&src, "random.toml", Scope::User, 0);
        prop_assert!(!p.has_errors(), "{:#?}", p.diagnostics);
        let engine = Engine::new(DecisionTable::new(vec![p]));
        for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
            let o = engine.evaluate(Seam::PreTool, &payload, dialect);
            prop_assert_eq!(o.verdict(), Verdict::Deny);
            prop_assert!(o.reason_text().contains("guarded [always]"));
        }
    }

    #[test]
    fn engine_verdict_is_the_max_of_the_fired_rules(
        rules in proptest::collection::vec(gen_rule(), 1..7),
        payload in payload(),
    ) {
        let src = policy_toml(&rules, false);
        let p = load_str(&src, "random.toml", Scope::User, 0);
        prop_assert!(!p.has_errors(), "{:#?}", p.diagnostics);
        let table = DecisionTable::new(vec![p]);
        let fired = table.fire_naive(Seam::PreTool, &payload, Dialect::ClaudeCode, None);
        let rank = |d: &str| match d {
            "allow" => 1,
            "ask" => 2,
            "defer" => 3,
            _ => 4,
        };
        let want = fired
            .iter()
            .map(|&g| {
                let r = &rules[g as usize];
                if r.guard { 4 } else { rank(r.decision) }
            })
            .max()
            .unwrap_or(0);
        let engine = Engine::new(table);
        let o = engine.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
        prop_assert_eq!(o.verdict().rank(Seam::PreTool), want, "policy:\n{}\npayload: {}", src, payload);
    }
}

/// The generators are not vacuous: over a fixed seed, some rules fire and some do not, for
/// hooks and guards alike.
#[test]
fn generators_exercise_both_firing_and_not_firing() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut fired, mut silent, mut guards_fired) = (0, 0, 0);
    for _ in 0..150 {
        let rules = proptest::collection::vec(gen_rule(), 1..4)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let payload = payload().new_tree(&mut runner).unwrap().current();
        let p = load_str(&policy_toml(&rules, false), "g.toml", Scope::User, 0);
        assert!(!p.has_errors(), "{:#?}", p.diagnostics);
        let table = DecisionTable::new(vec![p]);
        for (i, r) in rules.iter().enumerate() {
            let hit = table
                .fire_naive(Seam::PreTool, &payload, Dialect::ClaudeCode, None)
                .contains(&(i as u32));
            if hit {
                fired += 1;
                guards_fired += usize::from(r.guard);
            } else {
                silent += 1;
            }
        }
    }
    assert!(fired >= 30, "only {fired} rules fired");
    assert!(silent >= 30, "only {silent} rules stayed silent");
    assert!(guards_fired >= 5, "only {guards_fired} guards fired");
}

#[test]
fn generated_policy_toml_is_what_the_loader_expects() {
    // A fixed sample of the generator's output format, loaded and evaluated.
    let src = policy_toml(
        &[GenRule {
            guard: false,
            matcher: Some("Bash|Edit"),
            when: Some(Cond::Any(vec![
                Cond::Leaf {
                    field: "/tool_input/timeout",
                    test: "equals",
                    values: vec!["120000".into()],
                },
                Cond::Not(Box::new(Cond::Leaf {
                    field: "command",
                    test: "regex",
                    values: vec![r"'^git'".into()],
                })),
            ])),
            unless: None,
            decision: "ask",
        }],
        false,
    );
    assert_eq!(
        src,
        "[[rule]]\nid = \"r0\"\nseam = \"pre-tool\"\ndecision = \"ask\"\ntool = \"Bash|Edit\"\nwhen = { any = [{ \"/tool_input/timeout\" = { equals = 120000 } }, { not = { command = { regex = '^git' } } }] }\n\n"
    );
    let p = load_str(&src, "x.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let engine = Engine::new(DecisionTable::new(vec![p]));
    for (timeout, want) in [(120000, Verdict::Ask), (5, Verdict::Abstain)] {
        let o = engine.evaluate(
            Seam::PreTool,
            &json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "git push", "timeout": timeout}}),
            Dialect::ClaudeCode,
        );
        assert_eq!(o.verdict(), want, "timeout {timeout}");
    }
}
