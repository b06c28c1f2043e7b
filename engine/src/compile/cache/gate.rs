//! Which rules of a snapshot section a call can reach, told before the rules are decoded.
//!
//! In: a lowered rule (and the required literals of its regex tests) when a snapshot is
//! built; a payload, its effects and the list of its command-line analyses when one is read.
//! Out: the rule's [`Gate`], and whether a call opens it.
//!
//! Each rule of a section is stored with its *gate*: the payload fields its `when` cannot hold
//! without. A test on a payload field (a regex, glob, list or shell test on `command`,
//! `file_path`, …) never holds when the field is absent — the evaluation finds no text to
//! test and no command line to analyse — so a rule whose `when` needs (through `all` and
//! `any`) a field the payload lacks cannot fire on it, and a call skips decoding it: a `Read`
//! call decodes none of the library's shell tests on `command`. A `contains`, `prefix` or
//! regex test needs more than its field: a text holding one of its literals (for a regex, the
//! literals one of which every match contains, the same the evaluation's prefilter reads), so
//! `git status` decodes no rule that only a regex on `\brm\b` could fire. A shell test naming
//! programs (`command = { program = "rm" }`) needs a simple command of its field's line to run
//! one of them, a program only known at run time, or a line no lens can read: the probe
//! analyses the line as the evaluation does (once, kept in the call's [`CommandLines`] for the
//! evaluation), so `git status` decodes no shell test on `rm`, `curl` or `sudo`; a test that
//! also names subcommands needs one of them as the command's first positional argument (read
//! as the test reads it, after the CLI's global options) or one only known at run time, so
//! `git status` decodes no test on `git credential` or `git push` either. An effect test
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

use std::borrow::Cow;
use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::effects::{Effects, What};
use crate::evaluate::lines::CommandLines;
use crate::matcher::Matcher;
use crate::policy::{EffectKind, Field, Pred, Rule, ShellTest, Test};

/// The payload fields a rule's `when` needs: it cannot hold unless the gate does. Fields are
/// positions in the section's field table; a gate's texts are one [`Joined`] string borrowed
/// from the section's bytes, so reading the gates of a section allocates little.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) enum Gate<'a> {
    /// Nothing known: the rule may hold on any payload.
    Open,
    /// The field is present (resolves to a value that is not `null`).
    Field(u32),
    /// The call has an effect of this kind, or a part no lens could read.
    Effect(EffectKind),
    /// The field's text (a string as it is, other JSON as its text) contains one of the
    /// literals; compared in lower case when `fold` (the literals are stored lower-cased).
    Text {
        /// The field tested.
        field: u32,
        /// The literals, one of which the text holds.
        #[serde(borrow)]
        any: Joined<'a>,
        /// Compare case-insensitively.
        fold: bool,
    },
    /// The call runs one of these programs (base name or path as written), or a program
    /// only known at run time, with one of the subcommands when some are named, or has a part
    /// no lens could read.
    Runs(#[serde(borrow)] Programs<'a>),
    /// The field's command line (analysed as a shell test analyses it) has a simple command
    /// running one of these programs (base name or path as written) or a program only known
    /// at run time, with one of the subcommands when some are named, or does not parse.
    Shell {
        /// The field tested.
        field: u32,
        /// The programs (and subcommands), one of which a command of the line runs.
        #[serde(borrow)]
        programs: Programs<'a>,
    },
    /// One of the call's matcher subjects (its tool name and every name it also answers
    /// to) contains one of the literals, or the subjects are not known: the gate of a regex
    /// matcher (`tool = '^mcp__.+__delete'`), whose rules the seam's catch-all section holds
    /// for every tool. Compared in lower case when `fold`.
    Subject {
        /// The literals, one of which a subject holds.
        #[serde(borrow)]
        any: Joined<'a>,
        /// Compare case-insensitively.
        fold: bool,
    },
    /// Every gate holds.
    All(#[serde(borrow)] Vec<Gate<'a>>),
    /// At least one gate holds.
    Any(#[serde(borrow)] Vec<Gate<'a>>),
}

/// A list of texts stored as one string, each text followed by a NUL: read borrowed, in one
/// piece, without a vector per gate. A list with a text holding a NUL cannot be joined, and
/// its test gets a looser gate instead (one that opens on more calls, never on fewer).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) struct Joined<'a>(#[serde(borrow)] Cow<'a, str>);

impl<'a> Joined<'a> {
    /// The texts joined; `None` when one holds a NUL.
    fn of<S: AsRef<str>>(texts: &[S]) -> Option<Joined<'a>> {
        let mut out = String::new();
        for t in texts {
            let t = t.as_ref();
            if t.contains('\0') {
                return None;
            }
            out.push_str(t);
            out.push('\0');
        }
        Some(Joined(Cow::Owned(out)))
    }

    /// The texts, in order.
    fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.split_terminator('\0')
    }
}

/// The programs a shell or `runs` test names and the subcommands it names (`None`: any):
/// a simple command runs one of them when its program is one of `programs` (or only known at
/// run time) and its first positional argument (after the CLI's global options, as the test
/// reads it) is one of `subcommands` or only known at run time.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) struct Programs<'a> {
    #[serde(borrow)]
    programs: Joined<'a>,
    #[serde(borrow)]
    subcommands: Option<Joined<'a>>,
}

impl<'a> Programs<'a> {
    /// The gate's view of a test naming `programs` and `subcommands` (empty: any); `None`
    /// when a program cannot be joined. A subcommand list that cannot be joined is left out
    /// (a looser gate).
    fn of(programs: &[String], subcommands: &[String]) -> Option<Programs<'a>> {
        Some(Programs {
            programs: Joined::of(programs)?,
            subcommands: if subcommands.is_empty() {
                None
            } else {
                Joined::of(subcommands)
            },
        })
    }

    /// The gate's view of a shell test's programs and subcommands; `None` when it names no
    /// program (or one that cannot be joined). A git-push refspec test (`push_force`,
    /// `push_to`, …) names `git push` even when it names no program: it only holds on one.
    fn of_test(t: &ShellTest) -> Option<Programs<'a>> {
        if !t.programs.is_empty() {
            Programs::of(&t.programs, &t.subcommands)
        } else if t.is_push() {
            Programs::of(&["git".to_string()], &["push".to_string()])
        } else {
            None
        }
    }

    /// Whether simple command `c` may run one of the programs with one of the subcommands
    /// (the cases in which the test's program and subcommand constraints do not answer "no").
    fn may_run(&self, c: &crate::shell::SimpleCommand) -> bool {
        let named = c.dynamic_program
            || self
                .programs
                .iter()
                .any(|p| crate::shell::lists(p, c.basename(), &c.program));
        named
            && self.subcommands.as_ref().is_none_or(|subs| {
                crate::shell::operands::positionals(c)
                    .first()
                    .is_some_and(|s| s.dynamic || subs.iter().any(|w| w == s.text))
            })
    }
}

/// A rule of a section, stored before its bytes: its position in the whole set, its gate,
/// whether it can change the payload later rules see, and the length and check hash of its
/// encoding.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) struct StoredRule<'a> {
    pub(super) ordinal: u32,
    #[serde(borrow)]
    pub(super) gate: Gate<'a>,
    pub(super) changes_input: bool,
    pub(super) item: super::check::Item,
}

/// The required literals of a regex list, `(literals, case-insensitive)`, or `None`: no
/// literal is required.
pub(super) type Literals<'a> = dyn Fn(&[String]) -> Option<(&'a [String], bool)> + 'a;

impl<'a> Gate<'a> {
    /// The gate of a rule; the fields it tests are added to `fields` (the section's table).
    pub(super) fn of_rule(
        r: &'a Rule,
        literals: &Literals<'a>,
        fields: &mut Vec<Field>,
    ) -> Gate<'a> {
        let when = r
            .when
            .as_ref()
            .map_or(Gate::Open, |p| Gate::of_pred(p, literals, fields));
        let matcher = match &r.matcher {
            Matcher::Regex(src) => literals(std::slice::from_ref(src))
                .and_then(|(any, fold)| {
                    Some(Gate::Subject {
                        any: Joined::of(any)?,
                        fold,
                    })
                })
                .unwrap_or(Gate::Open),
            _ => Gate::Open,
        };
        match (matcher, when) {
            (Gate::Open, g) | (g, Gate::Open) => g,
            (m, Gate::All(mut k)) => {
                k.insert(0, m);
                Gate::All(k)
            }
            (m, w) => Gate::All(vec![m, w]),
        }
    }

    fn of_pred(p: &'a Pred, literals: &Literals<'a>, fields: &mut Vec<Field>) -> Gate<'a> {
        match p {
            Pred::Leaf(l) => {
                if let Test::Effect(t) = &l.test {
                    if t.kind == EffectKind::Run
                        && let Some(programs) = Programs::of_test(&t.shell)
                    {
                        return Gate::Runs(programs);
                    }
                    return Gate::Effect(t.kind);
                }
                let reads_payload = l.field.name != "paths" && !l.field.pointers.is_empty();
                if !reads_payload {
                    return Gate::Open;
                }
                let field = match fields.iter().position(|f| *f == l.field) {
                    Some(i) => i,
                    None => {
                        fields.push(l.field.clone());
                        fields.len() - 1
                    }
                } as u32;
                let text = |any: &'a [String], fold: bool| match Joined::of(any) {
                    Some(any) => Gate::Text { field, any, fold },
                    None => Gate::Field(field),
                };
                match &l.test {
                    Test::Shell(t) if !t.programs.is_empty() || t.is_push() => {
                        match Programs::of_test(t) {
                            Some(programs) => Gate::Shell { field, programs },
                            None => Gate::Field(field),
                        }
                    }
                    Test::Contains(cs) | Test::Prefix(cs) => text(cs, false),
                    Test::Regex(ps) => match literals(ps) {
                        Some((any, fold)) => text(any, fold),
                        None => Gate::Field(field),
                    },
                    _ => Gate::Field(field),
                }
            }
            Pred::All(k) => {
                let mut gates: Vec<Gate<'a>> = k
                    .iter()
                    .map(|c| Gate::of_pred(c, literals, fields))
                    .filter(|g| *g != Gate::Open)
                    .collect();
                match gates.len() {
                    0 => Gate::Open,
                    1 => gates.pop().unwrap_or(Gate::Open),
                    _ => Gate::All(gates),
                }
            }
            Pred::Any(k) => {
                let mut gates: Vec<Gate<'a>> = k
                    .iter()
                    .map(|c| Gate::of_pred(c, literals, fields))
                    .collect();
                if gates.is_empty() || gates.contains(&Gate::Open) {
                    Gate::Open
                } else if gates.len() == 1 {
                    gates.pop().unwrap_or(Gate::Open)
                } else {
                    Gate::Any(gates)
                }
            }
            Pred::Not(_) => Gate::Open,
            // What surely holds holds: the child's gate.
            Pred::Sure(x) => Gate::of_pred(x, literals, fields),
        }
    }

    /// Whether the rule may hold on the probe's call; `fields` is the section's field table
    /// (a field outside it opens the gate).
    pub(super) fn opens(&self, fields: &[Field], probe: &Probe<'_>) -> bool {
        match self {
            Gate::Open => true,
            Gate::Field(i) => fields
                .get(*i as usize)
                .is_none_or(|f| f.resolve(probe.payload).is_some()),
            Gate::Effect(kind) => probe
                .effects
                .is_none_or(|fx| fx.of(*kind).next().is_some() || fx.unsure().is_some()),
            Gate::Text { field, any, fold } => fields
                .get(*field as usize)
                .is_none_or(|f| probe.text_holds(f, any, *fold)),
            Gate::Runs(programs) => probe.effects.is_none_or(|fx| {
                fx.unsure().is_some()
                    || fx.of(EffectKind::Run).any(|e| match &e.what {
                        What::Run(c) => programs.may_run(c),
                        _ => true,
                    })
            }),
            Gate::Shell { field, programs } => fields
                .get(*field as usize)
                .is_none_or(|f| probe.line_may_run(f, programs)),
            Gate::Subject { any, fold } => probe.subjects.is_none_or(|subjects| {
                subjects.iter().any(|s| {
                    if *fold {
                        let s = s.to_lowercase();
                        any.iter().any(|l| s.contains(l))
                    } else {
                        any.iter().any(|l| s.contains(l))
                    }
                })
            }),
            Gate::All(k) => k.iter().all(|g| g.opens(fields, probe)),
            Gate::Any(k) => k.iter().any(|g| g.opens(fields, probe)),
        }
    }
}

/// The texts a call's field gates test, each made once per call: a field's JSON text when
/// it is not a string, its lower-case form for case-insensitive literals.
#[derive(Default)]
struct Texts {
    name: String,
    json: Option<String>,
    lower: Option<String>,
}

/// One call as its gates see it: the payload, its effects when known (`None`: every effect
/// gate opens), the analyses of its command lines and the field texts made so far.
pub(super) struct Probe<'p> {
    payload: &'p Value,
    effects: Option<&'p Effects>,
    lines: &'p CommandLines,
    /// The call's matcher subjects (`None`: not known, every matcher gate opens).
    subjects: Option<&'p [String]>,
    texts: RefCell<Vec<Texts>>,
}

impl<'p> Probe<'p> {
    /// A probe of `payload` with `effects`, keeping the command lines it analyses in `lines`
    /// (which the evaluation of the same payload then reads).
    pub(super) fn new(
        payload: &'p Value,
        effects: Option<&'p Effects>,
        lines: &'p CommandLines,
    ) -> Probe<'p> {
        Probe {
            payload,
            effects,
            lines,
            subjects: None,
            texts: RefCell::new(Vec::new()),
        }
    }

    /// The probe told the call's matcher subjects: its tool name and every name it also
    /// answers to (a superset of those the evaluation matches, as [`super::Part`] holds them).
    pub(super) fn with_subjects(mut self, subjects: &'p [String]) -> Probe<'p> {
        self.subjects = Some(subjects);
        self
    }

    /// Whether a shell test naming `programs` on field `f` can hold or be undecidable: the
    /// field is a command line, and one of its simple commands runs one of them or a program
    /// only known at run time, or the line does not parse (the cases in which the
    /// evaluation's shell test does not answer "no").
    fn line_may_run(&self, f: &Field, programs: &Programs<'_>) -> bool {
        let Some(a) = self.lines.analysis(self.payload, f) else {
            return false;
        };
        a.unsure.is_some()
            || a.commands
                .iter()
                .any(|c| !c.program.is_empty() && programs.may_run(c))
    }

    /// Whether field `f` is present and its text holds one of `any` (lower-cased first when
    /// `fold`).
    fn text_holds(&self, f: &Field, any: &Joined<'_>, fold: bool) -> bool {
        let Some(v) = f.resolve(self.payload) else {
            return false;
        };
        if let (Value::String(s), false) = (v, fold) {
            return any.iter().any(|l| s.contains(l));
        }
        let mut texts = self.texts.borrow_mut();
        let at = match texts.iter().position(|t| t.name == f.name) {
            Some(i) => i,
            None => {
                texts.push(Texts {
                    name: f.name.clone(),
                    ..Texts::default()
                });
                texts.len() - 1
            }
        };
        let Some(Texts { json, lower, .. }) = texts.get_mut(at) else {
            return true;
        };
        let text: &str = match v {
            Value::String(s) => s,
            other => json.get_or_insert_with(|| other.to_string()),
        };
        if fold {
            let lower = lower.get_or_insert_with(|| text.to_lowercase());
            any.iter().any(|l| lower.contains(l))
        } else {
            any.iter().any(|l| text.contains(l))
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

    /// A rule's gate and the fields it tests.
    struct G {
        gate: Gate<'static>,
        fields: Vec<Field>,
    }

    impl G {
        fn opens(&self, payload: &Value, effects: Option<&Effects>) -> bool {
            let lines = CommandLines::new();
            self.gate
                .opens(&self.fields, &Probe::new(payload, effects, &lines))
        }
    }

    /// A rule's gate, its regexes' literals derived as a snapshot build derives them (the
    /// rule and the literals leaked: the gate borrows them).
    fn gate(r: &Rule) -> G {
        let r: &'static Rule = Box::leak(Box::new(r.clone()));
        let literals = |ps: &[String]| {
            crate::compile::literals::derive_required_literals(ps).map(|r| {
                let any: &'static [String] = Box::leak(r.any.into_boxed_slice());
                (any, r.fold)
            })
        };
        let mut fields = Vec::new();
        let gate = Gate::of_rule(r, &literals, &mut fields);
        G { gate, fields }
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
        let shell = rule("when.command = { args_any = [\"/\"] }");
        assert_eq!(gate(&shell).gate, Gate::Field(0));
        assert!(!gate(&shell).opens(&read, None));
        assert!(gate(&shell).opens(&bash, None));
        // `any` of a field test and an effect test may hold without the field, when the call
        // reads something (or its effects are not known).
        let any = rule(
            "when.any = [{ command = { regex = 'rm' } }, { reads = { path_inside = [\"**/.env\"] } }]",
        );
        assert!(matches!(gate(&any).gate, Gate::Any(ref g) if g.len() == 2));
        let env = crate::ShellEnv::new(None, "/home/u");
        let reads = crate::effects::effects_of(&read, &env);
        assert!(gate(&any).opens(&read, Some(&reads)));
        assert!(gate(&any).opens(&read, None));
        let sends = rule("when.sends = { host_in = [\"example.com\"] }");
        assert_eq!(gate(&sends).gate, Gate::Effect(EffectKind::Send));
        assert!(!gate(&sends).opens(&read, Some(&reads)));
        // A call with a part no lens could read opens every effect gate.
        let hidden = json!({"tool_name": "Bash", "tool_input": {"command": "eval \"$(cat x)\""}});
        let unsure = crate::effects::effects_of(&hidden, &env);
        assert!(unsure.unsure().is_some(), "{:?}", unsure.list);
        assert!(gate(&sends).opens(&hidden, Some(&unsure)));
        // `all` needs each of its field tests.
        let all = rule("when.command = { contains = \"rm\" }\nwhen.file_path = { glob = \"**\" }");
        assert!(matches!(gate(&all).gate, Gate::All(ref g) if g.len() == 2));
        assert!(!gate(&all).opens(&read, None));
        assert!(!gate(&all).opens(&bash, None));
        // A `null` value is absent; `paths` is read from every path the call touches.
        assert!(!gate(&shell).opens(&json!({"tool_input": {"command": null}}), None));
        let paths = rule("when.paths = { path_inside = [\"/etc/**\"] }");
        assert_eq!(gate(&paths).gate, Gate::Open);
        let not = rule("when.not = { command = { contains = \"ls\" } }");
        assert_eq!(gate(&not).gate, Gate::Open);
    }

    #[test]
    fn a_text_test_needs_a_literal_and_a_runs_test_one_of_its_programs() {
        let env = crate::ShellEnv::new(None, "/home/u");
        let bash = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let status = bash("git status");
        let fx = crate::effects::effects_of(&status, &env);
        // A regex needs one of its required literals (case-insensitively under `(?i)`).
        let re = rule("when.command = { regex = '\\b(rm|shred)\\s+-' }");
        assert!(matches!(gate(&re).gate, Gate::Text { fold: false, .. }));
        assert!(!gate(&re).opens(&status, None));
        assert!(gate(&re).opens(&bash("shred -u x"), None));
        let folded = rule("when.command = { regex = '(?i)DROP\\s+TABLE' }");
        assert!(gate(&folded).opens(&bash("psql -c 'drop table x'"), None));
        assert!(!gate(&folded).opens(&status, None));
        // A regex without a required literal needs its field only.
        let bare = rule("when.command = { regex = '^.{400,}$' }");
        assert!(matches!(gate(&bare).gate, Gate::Field(_)));
        // `contains` and `prefix` need one of their texts; a non-string value is its JSON text.
        let has = rule("when.tool_input = { contains = \"curl\" }");
        assert!(!gate(&has).opens(&status, None));
        assert!(gate(&has).opens(&bash("curl -d @x h"), None));
        // `runs` with programs: one of them runs (base name or path), a program only known
        // at run time, or a part of the call no lens read.
        let rm = rule("when.runs = { program_any = [\"rm\", \"rmdir\"], flags_any = [\"-r\"] }");
        assert_eq!(
            gate(&rm).gate,
            Gate::Runs(Programs::of(&["rm".into(), "rmdir".into()], &[]).unwrap())
        );
        assert_eq!(
            Joined::of(&["rm", "", "rmdir"])
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            ["rm", "", "rmdir"]
        );
        assert_eq!(Joined::of::<&str>(&[]).unwrap().iter().count(), 0);
        // A program holding a NUL cannot be joined: the looser effect gate.
        let nul = rule("when.runs = { program_any = [\"rm\", \"r\\u0000m\"] }");
        assert_eq!(gate(&nul).gate, Gate::Effect(EffectKind::Run));
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
    fn a_test_naming_subcommands_needs_one_of_them_or_one_only_known_at_run_time() {
        let env = crate::ShellEnv::new(None, "/home/u");
        let bash = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let runs =
            rule("when.runs = { program = \"git\", subcommand = [\"credential\", \"config\"] }");
        let line =
            rule("when.command = { program = \"git\", subcommand = [\"credential\", \"config\"] }");
        assert_eq!(
            gate(&runs).gate,
            Gate::Runs(
                Programs::of(&["git".into()], &["credential".into(), "config".into()]).unwrap()
            )
        );
        // Another subcommand, none, or the word only after the CLI's global options: shut.
        for c in [
            "git status",
            "git",
            "git -C config log",
            "echo config && git diff",
        ] {
            let fx = crate::effects::effects_of(&bash(c), &env);
            assert!(!gate(&runs).opens(&bash(c), Some(&fx)), "{c}");
            assert!(!gate(&line).opens(&bash(c), None), "{c}");
        }
        // One of them (after global options, through a wrapper), a subcommand or a program
        // only known at run time: open.
        for c in [
            "git credential fill",
            "git -C repo config --get http.extraheader",
            "sudo git config x",
            "git $SUB fill",
            "$GIT credential fill",
        ] {
            let fx = crate::effects::effects_of(&bash(c), &env);
            assert!(gate(&runs).opens(&bash(c), Some(&fx)), "{c}");
            assert!(gate(&line).opens(&bash(c), None), "{c}");
        }
    }

    #[test]
    fn a_regex_matcher_needs_a_subject_holding_its_literals_and_a_push_test_a_git_push() {
        let env = crate::ShellEnv::new(None, "/home/u");
        let bash = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let mcp = rule("tool = '^mcp__.+__(delete|drop)_(repo|database)$'");
        let g = gate(&mcp);
        let subjects = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let lines = CommandLines::new();
        let empty = json!({});
        let opens = |names: &[String]| {
            let probe = Probe::new(&empty, None, &lines).with_subjects(names);
            g.gate.opens(&g.fields, &probe)
        };
        assert!(!opens(&subjects(&["Bash"])));
        assert!(!opens(&subjects(&["apply_patch", "Edit", "Write"])));
        assert!(opens(&subjects(&["mcp__github__delete_repo"])));
        // A name the call also answers to counts; subjects not known open the gate.
        assert!(opens(&subjects(&["shell", "mcp__x__drop_database"])));
        assert!(
            g.gate
                .opens(&g.fields, &Probe::new(&json!({}), None, &lines))
        );
        // Case-insensitive matchers compare in lower case.
        let fold = rule("tool = '(?i)^MCP__.+__SHELL$'");
        let g = gate(&fold);
        let probe = Probe::new(&empty, None, &lines);
        let names = subjects(&["mcp__box__shell"]);
        assert!(g.gate.opens(&g.fields, &probe.with_subjects(&names)));
        // The matcher's gate and the `when`'s both hold.
        let both = rule("tool = '^mcp__'\nwhen.tool_input = { contains = \"rm -rf\" }");
        let g = gate(&both);
        let names = subjects(&["mcp__box__run"]);
        let call = json!({"tool_name": "mcp__box__run", "tool_input": {"cmd": "ls"}});
        assert!(!g.gate.opens(
            &g.fields,
            &Probe::new(&call, None, &lines).with_subjects(&names)
        ));
        let call = json!({"tool_name": "mcp__box__run", "tool_input": {"cmd": "rm -rf /"}});
        assert!(g.gate.opens(
            &g.fields,
            &Probe::new(&call, None, &lines).with_subjects(&names)
        ));
        // A git-push refspec test names `git push`, on `runs` and on a command line alike.
        for body in [
            "when.runs = { push_force = true, push_to = [\"main\"] }",
            "when.command = { push_delete = true }",
        ] {
            let push = gate(&rule(body));
            for c in ["ls -la", "git status", "git pull --force"] {
                let fx = crate::effects::effects_of(&bash(c), &env);
                assert!(!push.opens(&bash(c), Some(&fx)), "{body}: {c}");
            }
            for c in [
                "git push -f origin main",
                "git -C x push --delete origin main",
                "git $VERB origin +main",
            ] {
                let fx = crate::effects::effects_of(&bash(c), &env);
                assert!(push.opens(&bash(c), Some(&fx)), "{body}: {c}");
            }
        }
    }

    #[test]
    fn a_shell_test_naming_programs_needs_its_line_to_run_one() {
        let bash = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let rm = rule("when.command = { program_any = [\"rm\", \"shred\"], flags_any = [\"-r\"] }");
        assert_eq!(
            gate(&rm).gate,
            Gate::Shell {
                field: 0,
                programs: Programs::of(&["rm".into(), "shred".into()], &[]).unwrap()
            }
        );
        // No command runs a listed program: the test answers "no", the gate stays shut.
        for c in ["git status", "ls -la && echo rm", "cat rm.txt | grep -r x"] {
            assert!(!gate(&rm).opens(&bash(c), None), "{c}");
        }
        // A listed program by base name or path, inside a list or a pipeline, a program only
        // known at run time, a line no lens can read: the test may hold or be undecidable.
        for c in [
            "rm -rf build",
            "/bin/rm x",
            "cd d && shred -u k",
            "ls | xargs rm",
            "$RM -rf ~",
            "eval \"$(cat x)\"",
        ] {
            assert!(gate(&rm).opens(&bash(c), None), "{c}");
        }
        // The field absent: the test does not hold.
        let read = json!({"tool_name": "Read", "tool_input": {"file_path": "/w/a.rs"}});
        assert!(!gate(&rm).opens(&read, None));
        // The analysis is kept for the evaluation of the same payload.
        let lines = CommandLines::new();
        let g = gate(&rm);
        let status = bash("git status");
        assert!(!g.gate.opens(&g.fields, &Probe::new(&status, None, &lines)));
        assert!(lines.made("command").is_some());
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
