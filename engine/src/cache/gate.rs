//! Which rules of a snapshot section a call can reach, told before the rules are decoded.
//!
//! In: a lowered rule (and the required literals of its regex tests) when a snapshot is
//! built; a payload and its effects when one is read. Out: the rule's [`Gate`], and whether a
//! call opens it.
//!
//! Each rule of a section is stored with its *gate*: the payload fields its `when` cannot hold
//! without. A test on a payload field (a regex, glob, list or shell test on `command`,
//! `file_path`, …) never holds when the field is absent — the evaluation finds no text to
//! test and no command line to analyse — so a rule whose `when` needs (through `all` and
//! `any`) a field the payload lacks cannot fire on it, and a call skips decoding it: a `Read`
//! call decodes none of the library's shell tests on `command`. A `contains`, `prefix` or
//! regex test needs more than its field: a text holding one of its literals (for a regex, the
//! literals one of which every match contains, the same the evaluation's prefilter reads), so
//! `git status` decodes no rule that only a regex on `\brm\b` could fire. An effect test
//! likewise never holds on a call without an effect of its kind, unless a part of the call
//! could not be read (then every effect test may hold): given the call's effects, a `Read`
//! call decodes no test of what a call runs, sends or deletes; a `runs` test naming programs
//! also needs a command running one of them (or a program only known at run time). `not` and
//! the virtual `paths` field open the gate (they can hold with the field absent), as does a
//! rule without `when`.
//!
//! The gate holds only for the payload the rules are evaluated against. A rule that can change
//! that payload (a prompt rewrite, a command hook that rewrites the tool input) stops gating for
//! the whole call, and so does a Codex code-mode call, whose inner calls are judged as payloads
//! of their own.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::effects::{Effects, What};
use crate::policy::{EffectKind, Field, Pred, Rule, Test};
use crate::shell::operands::base;

/// The payload fields a rule's `when` needs: it cannot hold unless the gate does.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) enum Gate {
    /// Nothing known: the rule may hold on any payload.
    Open,
    /// The field is present (resolves to a value that is not `null`).
    Field(Field),
    /// The call has an effect of this kind, or a part no lens could read.
    Effect(EffectKind),
    /// The field's text (a string as it is, other JSON as its text) contains one of the
    /// literals; compared in lower case when `fold` (the literals are stored lower-cased).
    Text {
        /// The field tested.
        field: Field,
        /// The literals, one of which the text holds.
        any: Vec<String>,
        /// Compare case-insensitively.
        fold: bool,
    },
    /// The call runs one of these programs (base name or path as written), or a program
    /// only known at run time, or has a part no lens could read.
    Runs(Vec<String>),
    /// Every gate holds.
    All(Vec<Gate>),
    /// At least one gate holds.
    Any(Vec<Gate>),
}

/// A rule of a section, stored before its bytes: its position in the whole set, its gate,
/// whether it can change the payload later rules see, and the length of its encoding.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) struct StoredRule {
    pub(super) ordinal: u32,
    pub(super) gate: Gate,
    pub(super) changes_input: bool,
    pub(super) len: u32,
}

impl Gate {
    /// The gate of a rule; `literals` gives the required literals of a regex list
    /// (`(literals, case-insensitive)`, or `None`: no literal is required).
    pub(super) fn of_rule(
        r: &Rule,
        literals: &dyn Fn(&[String]) -> Option<(Vec<String>, bool)>,
    ) -> Gate {
        r.when
            .as_ref()
            .map_or(Gate::Open, |p| Gate::of_pred(p, literals))
    }

    fn of_pred(p: &Pred, literals: &dyn Fn(&[String]) -> Option<(Vec<String>, bool)>) -> Gate {
        match p {
            Pred::Leaf(l) => {
                if let Test::Effect(t) = &l.test {
                    if t.kind == EffectKind::Run && !t.shell.programs.is_empty() {
                        return Gate::Runs(t.shell.programs.clone());
                    }
                    return Gate::Effect(t.kind);
                }
                let reads_payload = l.field.name != "paths" && !l.field.pointers.is_empty();
                if !reads_payload {
                    return Gate::Open;
                }
                let text = |any: Vec<String>, fold: bool| Gate::Text {
                    field: l.field.clone(),
                    any,
                    fold,
                };
                match &l.test {
                    Test::Contains(cs) | Test::Prefix(cs) => text(cs.clone(), false),
                    Test::Regex(ps) => match literals(ps) {
                        Some((any, fold)) => text(any, fold),
                        None => Gate::Field(l.field.clone()),
                    },
                    _ => Gate::Field(l.field.clone()),
                }
            }
            Pred::All(k) => {
                let mut gates: Vec<Gate> = k
                    .iter()
                    .map(|c| Gate::of_pred(c, literals))
                    .filter(|g| *g != Gate::Open)
                    .collect();
                match gates.len() {
                    0 => Gate::Open,
                    1 => gates.pop().unwrap_or(Gate::Open),
                    _ => Gate::All(gates),
                }
            }
            Pred::Any(k) => {
                let mut gates: Vec<Gate> = k.iter().map(|c| Gate::of_pred(c, literals)).collect();
                if gates.is_empty() || gates.contains(&Gate::Open) {
                    Gate::Open
                } else if gates.len() == 1 {
                    gates.pop().unwrap_or(Gate::Open)
                } else {
                    Gate::Any(gates)
                }
            }
            Pred::Not(_) => Gate::Open,
        }
    }

    /// Whether the rule may hold on `payload`, whose effects are `effects` (`None`: not
    /// known, every effect gate opens).
    pub(super) fn opens(&self, payload: &Value, effects: Option<&Effects>) -> bool {
        match self {
            Gate::Open => true,
            Gate::Field(f) => f.resolve(payload).is_some(),
            Gate::Effect(kind) => {
                effects.is_none_or(|fx| fx.of(*kind).next().is_some() || fx.unsure().is_some())
            }
            Gate::Text { field, any, fold } => field.resolve_text(payload).is_some_and(|t| {
                if *fold {
                    let lower = t.to_lowercase();
                    any.iter().any(|l| lower.contains(l.as_str()))
                } else {
                    any.iter().any(|l| t.contains(l.as_str()))
                }
            }),
            Gate::Runs(programs) => effects.is_none_or(|fx| {
                fx.unsure().is_some()
                    || fx.of(EffectKind::Run).any(|e| match &e.what {
                        What::Run(c) => {
                            c.dynamic_program
                                || programs
                                    .iter()
                                    .any(|p| p == base(&c.program) || p == &c.program)
                        }
                        _ => true,
                    })
            }),
            Gate::All(k) => k.iter().all(|g| g.opens(payload, effects)),
            Gate::Any(k) => k.iter().any(|g| g.opens(payload, effects)),
        }
    }
}

/// Whether a rule can change the payload the rules after it are evaluated against.
pub(super) fn changes_input(r: &Rule) -> bool {
    r.action.rewrite.is_some() || r.action.run.is_some()
}

/// Whether gates may be used for `payload`: not for a Codex code-mode call (its inner calls
/// are judged as payloads of their own, with fields the outer payload lacks).
pub(super) fn gates_apply(payload: &Value) -> bool {
    let tool = payload.get("tool_name").and_then(Value::as_str);
    let input = payload.get("tool_input");
    match (tool, input) {
        (Some(t), Some(i)) => crate::readers::code_mode::code_of(t, i).is_none(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]
    use super::*;
    use crate::policy::Scope;
    use serde_json::json;

    /// A rule's gate, its regexes' literals derived as a snapshot build derives them.
    fn gate(r: &Rule) -> Gate {
        Gate::of_rule(r, &|ps| {
            crate::compile::literals::derive_required_literals(ps).map(|r| (r.any, r.fold))
        })
    }

    fn rule(body: &str) -> Rule {
        let text =
            format!("[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\n{body}\ndecision = \"deny\"\n");
        let p = crate::load::load_str_with(
            &text,
            "g.toml",
            Scope::User,
            0,
            crate::load::LoadOptions::hook(),
        );
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        p.rules.into_iter().next().unwrap()
    }

    #[test]
    fn a_field_test_needs_its_field_and_not_or_effects_open_the_gate() {
        let read = json!({"tool_name": "Read", "tool_input": {"file_path": "/w/a.rs"}});
        let bash = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
        let shell = rule("when.command = { program = \"rm\" }");
        assert_eq!(gate(&shell), Gate::Field(Field::parse("command").unwrap()));
        assert!(!gate(&shell).opens(&read, None));
        assert!(gate(&shell).opens(&bash, None));
        // `any` of a field test and an effect test may hold without the field, when the call
        // reads something (or its effects are not known).
        let any = rule(
            "when.any = [{ command = { regex = 'rm' } }, { reads = { path_inside = [\"**/.env\"] } }]",
        );
        assert!(matches!(gate(&any), Gate::Any(ref g) if g.len() == 2));
        let env = crate::ShellEnv {
            project: None,
            home: "/home/u".into(),
        };
        let reads = crate::effects::effects_of(&read, &env);
        assert!(gate(&any).opens(&read, Some(&reads)));
        assert!(gate(&any).opens(&read, None));
        let sends = rule("when.sends = { host_in = [\"example.com\"] }");
        assert_eq!(gate(&sends), Gate::Effect(EffectKind::Send));
        assert!(!gate(&sends).opens(&read, Some(&reads)));
        // A call with a part no lens could read opens every effect gate.
        let hidden = json!({"tool_name": "Bash", "tool_input": {"command": "eval \"$(cat x)\""}});
        let unsure = crate::effects::effects_of(&hidden, &env);
        assert!(unsure.unsure().is_some(), "{:?}", unsure.list);
        assert!(gate(&sends).opens(&hidden, Some(&unsure)));
        // `all` needs each of its field tests.
        let all = rule("when.command = { contains = \"rm\" }\nwhen.file_path = { glob = \"**\" }");
        assert!(matches!(gate(&all), Gate::All(ref g) if g.len() == 2));
        assert!(!gate(&all).opens(&read, None));
        assert!(!gate(&all).opens(&bash, None));
        // A `null` value is absent; `paths` is read from every path the call touches.
        assert!(!gate(&shell).opens(&json!({"tool_input": {"command": null}}), None));
        let paths = rule("when.paths = { path_inside = [\"/etc/**\"] }");
        assert_eq!(gate(&paths), Gate::Open);
        let not = rule("when.not = { command = { contains = \"ls\" } }");
        assert_eq!(gate(&not), Gate::Open);
    }

    #[test]
    fn a_text_test_needs_a_literal_and_a_runs_test_one_of_its_programs() {
        let env = crate::ShellEnv {
            project: None,
            home: "/home/u".into(),
        };
        let bash = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let status = bash("git status");
        let fx = crate::effects::effects_of(&status, &env);
        // A regex needs one of its required literals (case-insensitively under `(?i)`).
        let re = rule("when.command = { regex = '\\b(rm|shred)\\s+-' }");
        assert!(matches!(gate(&re), Gate::Text { fold: false, .. }));
        assert!(!gate(&re).opens(&status, None));
        assert!(gate(&re).opens(&bash("shred -u x"), None));
        let folded = rule("when.command = { regex = '(?i)DROP\\s+TABLE' }");
        assert!(gate(&folded).opens(&bash("psql -c 'drop table x'"), None));
        assert!(!gate(&folded).opens(&status, None));
        // A regex without a required literal needs its field only.
        let bare = rule("when.command = { regex = '^.{400,}$' }");
        assert!(matches!(gate(&bare), Gate::Field(_)));
        // `contains` and `prefix` need one of their texts; a non-string value is its JSON text.
        let has = rule("when.tool_input = { contains = \"curl\" }");
        assert!(!gate(&has).opens(&status, None));
        assert!(gate(&has).opens(&bash("curl -d @x h"), None));
        // `runs` with programs: one of them runs (base name or path), a program only known
        // at run time, or a part of the call no lens read.
        let rm = rule("when.runs = { program_any = [\"rm\", \"rmdir\"], flags_any = [\"-r\"] }");
        assert_eq!(gate(&rm), Gate::Runs(vec!["rm".into(), "rmdir".into()]));
        assert!(!gate(&rm).opens(&status, Some(&fx)));
        assert!(gate(&rm).opens(&status, None));
        for c in [
            "/bin/rm -rf x",
            "sudo rmdir d",
            "$RM x",
            "eval \"$(cat x)\"",
        ] {
            let fx = crate::effects::effects_of(&bash(c), &env);
            assert!(gate(&rm).opens(&bash(c), Some(&fx)), "{c}");
        }
        // `any` of a closed text gate and a closed runs gate stays closed.
        let any = rule(
            "when.any = [{ runs = { program = \"rm\" } }, { command = { regex = '\\brm\\b' } }]",
        );
        assert!(!gate(&any).opens(&status, Some(&fx)));
    }

    #[test]
    fn a_code_mode_call_is_not_gated() {
        assert!(gates_apply(
            &json!({"tool_name": "Read", "tool_input": {"file_path": "a"}})
        ));
        assert!(gates_apply(&json!({"prompt": "hi"})));
        let exec = json!({"tool_name": "exec", "tool_input": "await tools.exec_command({cmd: 'rm -rf /'})"});
        assert!(!gates_apply(&exec));
    }
}
