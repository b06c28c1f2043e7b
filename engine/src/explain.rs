//! Why an event got its outcome: every rule of the event's seam, whether its matcher matched
//! the subject, each predicate leaf of `when` and `unless` with whether it held, the guards,
//! the merged verdict, and the exact bytes each dialect would receive.
//!
//! In: an engine, a seam, a payload and a dialect. Out: an [`Explanation`].
//!
//! The trace is the evaluator the hook runs, recorded: the decision table evaluates every
//! rule of the seam with a recording sink (no short-cuts), and this module renders what it
//! saw next to the policy as written. The merged outcome comes from [`Engine::evaluate`];
//! [`RuleTrace::engine_fired`] tells whether the outcome lists the rule (a rule that fired can
//! still be left out, e.g. an undecidable test under `on_unsure = "ignore"`).
//!
//! A leaf that held is judged once more on its own to say what it matched (the effect with
//! its route, the simple command) and which entries of its lists match alone (the glob, the
//! program, the regex); [`RuleTrace::close`] marks a rule one leaf short of firing (or
//! excused by `unless`), [`RuleTrace::unsure`] one with an undecidable leaf.
//!
//! ```
//! use seamguard_engine::{load_str, DecisionTable, Dialect, Engine, Request, Scope, Seam};
//! use seamguard_engine::explain::explain;
//!
//! let p = load_str(r#"
//! [[rule]]
//! id = "no-rm"
//! seam = "pre-tool"
//! tool = "Bash"
//! when.command = { program = "rm" }
//! decision = "deny"
//! "#, "p.toml", Scope::Cli, 0);
//! let engine = Engine::new(DecisionTable::new(vec![p]));
//! let payload = serde_json::json!({"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
//!     "tool_name": "Bash", "tool_input": {"command": "sudo rm -rf /tmp/x"}});
//! let x = explain(&engine, &Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode));
//! assert!(x.rules[0].fired);
//! assert_eq!(x.outcome.verdict().name(), "deny");
//! assert!(x.rules[0].when.as_ref().unwrap().commands.iter().any(|c| c.starts_with("rm -rf /tmp/x")));
//! ```

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use serde_json::{Value, json};

use crate::codec::{Encoded, encode};
use crate::compile::globs::PathGlobs;
use crate::compile::pred::EffectGlobs;
use crate::decision::Outcome;
use crate::dialect::Dialect;
use crate::effects::Effects;
use crate::engine::Engine;
use crate::evaluate::effect_test::{EffectContext, eval_effect};
use crate::evaluate::request::Request;
use crate::evaluate::shell_test::{Folders, GlobCache, Judgement, eval_shell};
use crate::evaluate::trace::NodeTrace;
use crate::memory::SessionMemory;
use crate::policy::{EffectTest, Leaf, PathSpec, Pred, Rule, RuleKind, ShellTest, Test};
use crate::seam::Seam;
use crate::shell::ShellAnalysis;
use crate::shell_env::ShellEnv;
use crate::table::DecisionTable;

pub use crate::evaluate::trace::Held;

/// One node of a predicate tree with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct PredTrace {
    /// `all`, `any`, `not`, or the leaf as written (`command program = "rm"`).
    pub label: String,
    /// The field a leaf reads (`command`, `/tool_input/url`).
    pub field: Option<String>,
    /// The field's value (leaves only; shortened to 200 characters).
    pub value: Option<String>,
    /// Whether it held.
    pub held: Held,
    /// The result that counted (an unsure test counts per its polarity).
    pub counted: bool,
    /// Shell-aware leaves: every simple command the analyser saw (`rm -rf / (via sudo)`).
    pub commands: Vec<String>,
    /// Shell-aware leaves: why the line could not be fully analysed.
    pub unsure: Option<String>,
    /// Children of `all` / `any` / `not`.
    pub children: Vec<PredTrace>,
    /// The leaf as written with long lists cut to their first entries (`program = ["cat",
    /// "less", … 60 more]`); the same as `label` for `all` / `any` / `not`.
    pub brief: String,
    /// Leaves that held: what they matched (the effect with its route, `reads ~/.env (Bash:
    /// `cat ~/.env`)`, or the simple command a shell test matched).
    pub matched: Option<String>,
    /// Leaves that held: the entries of the test's lists that match on their own
    /// (`path_inside = "**/.env"`, `regex = "git\\s+push"`); empty when every list has one
    /// entry (the label says it) or the test has none.
    pub entries: Vec<String>,
}

/// One rule of the seam, considered for the event.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleTrace {
    /// Rule id.
    pub id: String,
    /// Hook rule or guard.
    pub kind: RuleKind,
    /// `file:line:column` of its declaration.
    pub source: String,
    /// The matcher as written back (`Bash`, `/mcp__.*/`, `*`).
    pub matcher: String,
    /// Whether the matcher matched one of the subjects.
    pub matcher_matched: bool,
    /// `when`, evaluated (absent: always holds). Evaluated even when the matcher did not match.
    pub when: Option<PredTrace>,
    /// `unless`, evaluated.
    pub unless: Option<PredTrace>,
    /// The table's evaluation: matcher matched, `when` held and `unless` did not.
    pub fired: bool,
    /// Whether the engine's outcome lists the rule among the fired contributions.
    pub engine_fired: bool,
    /// Its `decision` (or the action it takes: `context`, `continue_with`, …).
    pub action: String,
    /// The command a `run` action would execute.
    pub run: Option<String>,
    /// A leaf of `when` or `unless` could not be decided (the rule counted it fail-closed).
    pub unsure: bool,
    /// The rule did not fire, its matcher matched, and one leaf more (or one less, in
    /// `unless`) would have made it fire, with at least one of its own leaves holding: it
    /// came close.
    pub close: bool,
}

/// The full explanation of one event.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The seam.
    pub seam: Seam,
    /// The dialect the rules were evaluated in.
    pub dialect: Dialect,
    /// The matcher subjects (the subject, plus Codex aliases).
    pub subjects: Vec<String>,
    /// Every rule of the seam, in declaration order (hooks and guards).
    pub rules: Vec<RuleTrace>,
    /// The merged outcome in `dialect`.
    pub outcome: Outcome,
    /// The encoded answer per dialect (each dialect evaluated in its own right).
    pub encoded: Vec<(Dialect, Outcome, Encoded)>,
    /// What the tool call does, one line per effect with its route (`reads ~/.ssh/id_rsa
    /// (Bash: `cat ~/.ssh/id_rsa`)`); empty for events without a tool call.
    pub effects: Vec<String>,
}

fn shorten(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > n {
        format!("{}…", one.chars().take(n - 1).collect::<String>())
    } else {
        one
    }
}

fn path_spec(p: &PathSpec) -> String {
    p.text()
}

/// How many entries of a list a brief label shows.
const BRIEF_ENTRIES: usize = 3;

/// A list as written: one entry bare, more in brackets; `cut` keeps the first entries and
/// counts the rest (`["cat", "less", "more", … 60 more]`).
fn list(v: &[String], cut: bool) -> String {
    if v.len() == 1 {
        format!("{:?}", v[0])
    } else if cut && v.len() > BRIEF_ENTRIES + 1 {
        let shown: Vec<String> = v[..BRIEF_ENTRIES]
            .iter()
            .map(|x| format!("{x:?}"))
            .collect();
        format!("[{}, … {} more]", shown.join(", "), v.len() - BRIEF_ENTRIES)
    } else {
        format!("{v:?}")
    }
}

fn shell_label(t: &ShellTest, cut: bool) -> String {
    let mut parts = Vec::new();
    if !t.programs.is_empty() {
        parts.push(format!("program = {}", list(&t.programs, cut)));
    }
    if !t.subcommands.is_empty() {
        parts.push(format!("subcommand = {}", list(&t.subcommands, cut)));
    }
    let flags = |f: &[Vec<String>]| f.iter().map(|g| g.join("")).collect::<Vec<_>>().join(", ");
    if !t.flags_any.is_empty() {
        parts.push(format!("flags_any = [{}]", flags(&t.flags_any)));
    }
    if !t.flags_all.is_empty() {
        parts.push(format!("flags_all = [{}]", flags(&t.flags_all)));
    }
    if !t.args_any.is_empty() {
        parts.push(format!("args_any = {}", list(&t.args_any, cut)));
    }
    if !t.path_inside.is_empty() {
        let v: Vec<String> = t.path_inside.iter().map(path_spec).collect();
        parts.push(format!("path_inside = {}", list(&v, cut)));
    }
    if !t.path_outside.is_empty() {
        let v: Vec<String> = t.path_outside.iter().map(path_spec).collect();
        parts.push(format!("path_outside = {}", list(&v, cut)));
    }
    if t.push_force {
        parts.push("push_force = true".into());
    }
    if t.push_force_unleased {
        parts.push("push_force_unleased = true".into());
    }
    if t.push_delete {
        parts.push("push_delete = true".into());
    }
    if !t.push_to.is_empty() {
        parts.push(format!("push_to = {}", list(&t.push_to, cut)));
    }
    if parts.is_empty() {
        "(shell test)".into()
    } else {
        parts.join(", ")
    }
}

/// An effect test's constraints as written (`path_inside = [...], recursive = true`).
fn effect_label(t: &EffectTest, cut: bool) -> String {
    let shell = shell_label(&t.shell, cut);
    let mut parts = Vec::new();
    if shell != "(shell test)" {
        parts.push(shell);
    }
    if let Some(r) = t.recursive {
        parts.push(format!("recursive = {r}"));
    }
    if let Some(b) = t.by_pattern {
        parts.push(format!("by_pattern = {b}"));
    }
    if let Some(a) = t.append {
        parts.push(format!("append = {a}"));
    }
    for (k, v) in [
        ("host_in", &t.host_in),
        ("host_not_in", &t.host_not_in),
        ("ip_class", &t.ip_class),
        ("scheme", &t.scheme),
        ("method", &t.method),
        ("body_from_env", &t.body_from_env),
        ("target", &t.targets),
        ("manager", &t.managers),
        ("cli", &t.clis),
        ("service", &t.services),
        ("operation", &t.operations),
        ("source_not_in", &t.source_not_in),
        ("near_name", &t.near_names),
        ("lens", &t.lenses),
        ("via", &t.via),
        ("content_regex", &t.content_regex),
        ("mode", &t.modes),
        ("body", &t.body_kinds),
    ] {
        if !v.is_empty() {
            parts.push(format!("{k} = {}", list(v, cut)));
        }
    }
    if !t.body_from.is_empty() {
        let v: Vec<String> = t.body_from.iter().map(path_spec).collect();
        parts.push(format!("body_from = {}", list(&v, cut)));
    }
    if !t.earlier_read_inside.is_empty() {
        let v: Vec<String> = t.earlier_read_inside.iter().map(path_spec).collect();
        parts.push(format!("earlier_read_inside = {}", list(&v, cut)));
    }
    if t.credential_in_url {
        parts.push("credential_in_url = true".into());
    }
    if parts.is_empty() {
        "(any)".into()
    } else {
        parts.join(", ")
    }
}

/// The leaf as written: `command regex = "…"`.
/// `cut`: long lists show their first entries only.
pub(crate) fn leaf_label(l: &Leaf, cut: bool) -> String {
    let body = match &l.test {
        Test::Equals(v) => format!(
            "equals = {}",
            if v.len() == 1 {
                v[0].to_string()
            } else {
                Value::Array(v.clone()).to_string()
            }
        ),
        Test::Regex(v) => format!("regex = {}", list(v, cut)),
        Test::Glob(v) => format!("glob = {}", list(v, cut)),
        Test::Contains(v) => format!("contains = {}", list(v, cut)),
        Test::Prefix(v) => format!("prefix = {}", list(v, cut)),
        Test::Shell(t) => shell_label(t, cut),
        Test::Effect(t) => effect_label(t, cut),
    };
    format!("{} {body}", l.field.name)
}

/// What rendering a trace needs besides the trace: the payload, the shell environment, and
/// the call's effects (found once, when a held effect test asks what it matched).
struct Ctx<'a> {
    payload: &'a Value,
    env: &'a ShellEnv,
    /// The session memory the event is judged in (`None`: empty).
    memory: Option<&'a SessionMemory>,
    /// The payload's `cwd` and project folder.
    folders: Folders<'a>,
    effects: OnceCell<Effects>,
}

impl Ctx<'_> {
    fn effects(&self) -> &Effects {
        self.effects.get_or_init(|| {
            crate::effects::effects_in(
                self.payload,
                self.env,
                self.memory.unwrap_or(&SessionMemory::default()),
            )
        })
    }

    /// A leaf judged on its own, as the evaluator judges it (`analysis`: the shell analysis
    /// the evaluator made of the leaf's field, if any).
    fn judge(&self, l: &Leaf, analysis: Option<&ShellAnalysis>) -> Judgement {
        let cache: GlobCache = RefCell::new(HashMap::new());
        match &l.test {
            Test::Shell(t) => {
                let globs = PathGlobs::build(t, &self.env.home);
                let made;
                let a = match analysis {
                    Some(a) => a,
                    None if l.field.name == "paths" => {
                        made = crate::shell::tool_paths(self.payload);
                        &made
                    }
                    None => {
                        let cwd = self.payload.get("cwd").and_then(Value::as_str);
                        match l
                            .field
                            .resolve(self.payload)
                            .and_then(|v| crate::shell::analyze_command(v, cwd))
                        {
                            Some(a) => {
                                made = a;
                                &made
                            }
                            None => return Judgement::No,
                        }
                    }
                };
                eval_shell(t, &globs, a, self.env, &self.folders, &cache)
            }
            Test::Effect(t) => {
                let globs = EffectGlobs::build(t, &self.env.home);
                let cx = EffectContext {
                    env: self.env,
                    memory: self.memory,
                    payload: self.payload,
                    folders: &self.folders,
                    cache: &cache,
                    runs: None,
                };
                eval_effect(t, &globs, self.effects(), &cx)
            }
            other => {
                let holds = match other {
                    Test::Equals(v) if !v.iter().all(Value::is_string) => {
                        crate::evaluate::pred::direct(&l.field, other, self.payload)
                    }
                    _ => l
                        .field
                        .resolve_text(self.payload)
                        .is_some_and(|text| text_holds(other, &text)),
                };
                if holds {
                    Judgement::Yes(String::new())
                } else {
                    Judgement::No
                }
            }
        }
    }

    /// The entries of a held leaf's lists that match on their own: the leaf with one list cut
    /// to one entry still holds. Lists of one entry are left out (the label shows them), and
    /// so are exclusion lists (`path_outside`, `host_not_in`: what holds there is an absence).
    fn entries(&self, l: &Leaf, analysis: Option<&ShellAnalysis>) -> Vec<String> {
        let mut out = Vec::new();
        let mut try_each =
            |key: &str, n: usize, make: &dyn Fn(usize) -> Leaf, show: &dyn Fn(usize) -> String| {
                if n < 2 {
                    return;
                }
                for i in 0..n {
                    if matches!(self.judge(&make(i), analysis), Judgement::Yes(_)) {
                        out.push(format!("{key} = {}", show(i)));
                    }
                }
            };
        let with = |test: Test| Leaf {
            field: l.field.clone(),
            test,
        };
        match &l.test {
            Test::Equals(v) => try_each(
                "equals",
                v.len(),
                &|i| with(Test::Equals(vec![v[i].clone()])),
                &|i| v[i].to_string(),
            ),
            Test::Regex(v) => try_each(
                "regex",
                v.len(),
                &|i| with(Test::Regex(vec![v[i].clone()])),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Glob(v) => try_each(
                "glob",
                v.len(),
                &|i| with(Test::Glob(vec![v[i].clone()])),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Contains(v) => try_each(
                "contains",
                v.len(),
                &|i| with(Test::Contains(vec![v[i].clone()])),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Prefix(v) => try_each(
                "prefix",
                v.len(),
                &|i| with(Test::Prefix(vec![v[i].clone()])),
                &|i| format!("{:?}", v[i]),
            ),
            Test::Shell(t) => {
                for (key, get) in SHELL_LISTS {
                    let v = get(t);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_shell_list(&mut t, key, &v[i]);
                            with(Test::Shell(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
            }
            Test::Effect(t) => {
                for (key, get) in SHELL_LISTS {
                    let v = get(&t.shell);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_shell_list(&mut std::sync::Arc::make_mut(&mut t).shell, key, &v[i]);
                            with(Test::Effect(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
                for (key, get) in EFFECT_LISTS {
                    let v = get(t);
                    try_each(
                        key,
                        v.len(),
                        &|i| {
                            let mut t = t.clone();
                            set_effect_list(std::sync::Arc::make_mut(&mut t), key, &v[i]);
                            with(Test::Effect(t))
                        },
                        &|i| format!("{:?}", v[i]),
                    );
                }
            }
        }
        out
    }
}

/// A text test on a field's text (regex and glob compiled on their own, as written).
fn text_holds(test: &Test, text: &str) -> bool {
    match test {
        Test::Equals(v) => v.iter().any(|x| x.as_str() == Some(text)),
        Test::Regex(ps) => ps
            .iter()
            .any(|p| crate::compile::regex::single(p).is_ok_and(|r| r.is_match(text))),
        Test::Glob(gs) => gs.iter().any(|g| {
            globset::GlobBuilder::new(g)
                .literal_separator(true)
                .build()
                .is_ok_and(|g| g.compile_matcher().is_match(text))
        }),
        Test::Contains(cs) => cs.iter().any(|c| text.contains(c.as_str())),
        Test::Prefix(ps) => ps.iter().any(|c| text.starts_with(c.as_str())),
        Test::Shell(_) | Test::Effect(_) => false,
    }
}

/// A list of a shell test as text entries (paths as written).
type ShellList = fn(&ShellTest) -> Vec<String>;

/// The "any of" lists of a shell test whose entries explain a match.
const SHELL_LISTS: &[(&str, ShellList)] = &[
    ("program", |t| t.programs.clone()),
    ("subcommand", |t| t.subcommands.clone()),
    ("flags_any", |t| {
        t.flags_any.iter().map(|g| g.join("")).collect()
    }),
    ("args_any", |t| t.args_any.clone()),
    ("path_inside", |t| {
        t.path_inside.iter().map(path_spec).collect()
    }),
    ("push_to", |t| t.push_to.clone()),
];

/// Cut list `key` of `t` to the one entry `i` of its text form.
fn set_shell_list(t: &mut ShellTest, key: &str, entry: &str) {
    let pick = |v: &mut Vec<String>| v.retain(|x| x == entry);
    match key {
        "program" => pick(&mut t.programs),
        "subcommand" => pick(&mut t.subcommands),
        "flags_any" => t.flags_any.retain(|g| g.join("") == entry),
        "args_any" => pick(&mut t.args_any),
        "path_inside" => t.path_inside.retain(|p| path_spec(p) == entry),
        "push_to" => pick(&mut t.push_to),
        _ => {}
    }
}

/// A list of an effect test as text entries.
type EffectList = fn(&EffectTest) -> Vec<String>;

/// The "any of" lists of an effect test (besides its shell lists) whose entries explain a
/// match.
const EFFECT_LISTS: &[(&str, EffectList)] = &[
    ("host_in", |t| t.host_in.clone()),
    ("ip_class", |t| t.ip_class.clone()),
    ("scheme", |t| t.scheme.clone()),
    ("method", |t| t.method.clone()),
    ("body_from", |t| t.body_from.iter().map(path_spec).collect()),
    ("body_from_env", |t| t.body_from_env.clone()),
    ("target", |t| t.targets.clone()),
    ("manager", |t| t.managers.clone()),
    ("cli", |t| t.clis.clone()),
    ("service", |t| t.services.clone()),
    ("operation", |t| t.operations.clone()),
    ("near_name", |t| t.near_names.clone()),
    ("lens", |t| t.lenses.clone()),
    ("via", |t| t.via.clone()),
    ("content_regex", |t| t.content_regex.clone()),
    ("mode", |t| t.modes.clone()),
    ("body", |t| t.body_kinds.clone()),
    ("change", |t| t.changes.clone()),
    ("agent", |t| t.agents.clone()),
    ("grant", |t| t.grants.clone()),
];

/// Cut list `key` of `t` to the one entry of its text form.
fn set_effect_list(t: &mut EffectTest, key: &str, entry: &str) {
    let pick = |v: &mut Vec<String>| v.retain(|x| x == entry);
    match key {
        "host_in" => pick(&mut t.host_in),
        "ip_class" => pick(&mut t.ip_class),
        "scheme" => pick(&mut t.scheme),
        "method" => pick(&mut t.method),
        "body_from" => t.body_from.retain(|p| path_spec(p) == entry),
        "body_from_env" => pick(&mut t.body_from_env),
        "target" => pick(&mut t.targets),
        "manager" => pick(&mut t.managers),
        "cli" => pick(&mut t.clis),
        "service" => pick(&mut t.services),
        "operation" => pick(&mut t.operations),
        "near_name" => pick(&mut t.near_names),
        "lens" => pick(&mut t.lenses),
        "via" => pick(&mut t.via),
        "content_regex" => pick(&mut t.content_regex),
        "mode" => pick(&mut t.modes),
        "body" => pick(&mut t.body_kinds),
        "change" => pick(&mut t.changes),
        "agent" => pick(&mut t.agents),
        "grant" => pick(&mut t.grants),
        _ => {}
    }
}

/// Render an evaluated predicate next to the policy as written; `n` has the shape of `p`.
/// `positive`: the polarity (`when`: true; `unless` and under `not`: false): what a held
/// leaf matched is looked up in positive position only.
fn render(p: &Pred, n: &NodeTrace, cx: &Ctx<'_>, positive: bool) -> PredTrace {
    let children = |k: &[Pred], pos: bool| {
        k.iter()
            .zip(&n.children)
            .map(|(p, c)| render(p, c, cx, pos))
            .collect()
    };
    let node = |label: &str, children: Vec<PredTrace>| PredTrace {
        label: label.to_string(),
        field: None,
        value: None,
        held: n.held,
        counted: n.counted,
        commands: Vec::new(),
        unsure: None,
        children,
        brief: label.to_string(),
        matched: None,
        entries: Vec::new(),
    };
    match p {
        Pred::All(k) => node("all", children(k, positive)),
        Pred::Any(k) => node("any", children(k, positive)),
        Pred::Not(x) => node("not", children(std::slice::from_ref(&**x), !positive)),
        Pred::Leaf(l) => {
            let (matched, entries) = if n.held == Held::Yes {
                let a = n.analysis.as_deref();
                let m = match cx.judge(l, a) {
                    Judgement::Yes(m) if !m.is_empty() => Some(m),
                    _ => None,
                };
                (m, cx.entries(l, a))
            } else {
                (None, Vec::new())
            };
            PredTrace {
                label: leaf_label(l, false),
                field: Some(l.field.name.clone()),
                value: l
                    .field
                    .resolve_text(cx.payload)
                    .map(|t| shorten(t.as_ref(), 200)),
                held: n.held,
                counted: n.counted,
                commands: n
                    .analysis
                    .as_ref()
                    .map(|a| a.commands.iter().map(|c| c.display_words()).collect())
                    .unwrap_or_default(),
                unsure: n.analysis.as_ref().and_then(|a| a.unsure.clone()),
                children: Vec::new(),
                brief: leaf_label(l, true),
                matched,
                entries,
            }
        }
    }
}

/// The leaves of a predicate that went against the result a rule needs (`want`: true for
/// `when`, false for `unless`; flipped under `not`), and how many leaves held for it in
/// positive position.
fn against(t: &PredTrace, want: bool) -> (usize, usize) {
    if t.field.is_none() {
        let want = if t.label == "not" { !want } else { want };
        return t
            .children
            .iter()
            .map(|c| against(c, want))
            .fold((0, 0), |(f, s), (cf, cs)| (f + cf, s + cs));
    }
    if t.counted == want {
        // A leaf that holds for every call of its kind (`runs` with no key: any command)
        // does not bring a rule closer to firing.
        (0, usize::from(want && !holds_for_any(t)))
    } else {
        (1, 0)
    }
}

/// Whether a leaf is an effect test with no key, which holds for every call with such an
/// effect (`when.runs = {}` is written back as `runs (any)`).
fn holds_for_any(t: &PredTrace) -> bool {
    t.label.ends_with(" (any)")
}
/// Whether a predicate has an undecided leaf.
fn has_unsure(t: &PredTrace) -> bool {
    t.held == Held::Unsure || t.children.iter().any(has_unsure)
}

fn action_of(r: &Rule) -> String {
    let a = &r.action;
    let mut parts = Vec::new();
    if r.kind == RuleKind::Guard {
        parts.push("deny (guard)".to_string());
    } else if let Some(d) = a.decision {
        parts.push(d.name().to_string());
    }
    if a.context.is_some() {
        parts.push("context".into());
    }
    if a.rewrite.is_some() {
        parts.push("rewrite".into());
    }
    if !a.redact.is_empty() {
        parts.push("redact".into());
    }
    if a.feedback.is_some() {
        parts.push("feedback".into());
    }
    if a.continue_with.is_some() {
        parts.push(format!("continue_with (max {})", a.max_continuations));
    }
    if a.halt.is_some() {
        parts.push("halt".into());
    }
    if a.run.is_some() {
        parts.push("run".into());
    }
    if a.observe {
        parts.push("observe".into());
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(" + ")
    }
}

/// The matcher subjects of a payload at a seam in a dialect (the subject, plus Codex
/// aliases of a tool name).
pub(crate) fn subjects(seam: Seam, payload: &Value, dialect: Dialect) -> Vec<String> {
    DecisionTable::subjects(seam, payload, dialect)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Explain one event: trace every rule of the request's seam, evaluate the merge with
/// `engine` ([`Engine::decide`], in the request's session memory), and encode the outcome
/// for both dialects.
///
/// Never executes anything unless `engine` has a command-hook runner attached.
///
/// # Errors
/// Never fails, for the same reasons as [`Engine::evaluate`].
///
/// # Example
///
/// ```
/// use serde_json::json;
/// use seamguard_engine::explain::{Held, explain};
/// use seamguard_engine::{DecisionTable, Dialect, Engine, Request, Scope, Seam, Verdict, load_str};
///
/// let policy = load_str(
///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\nreason = \"no rm -rf\"\n",
///     "inline.toml",
///     Scope::User,
///     0,
/// );
/// let engine = Engine::new(DecisionTable::new(vec![policy]));
/// let payload = json!({
///     "session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse",
///     "tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"}
/// });
/// let x = explain(&engine, &Request::new(Seam::PreTool, &payload, Dialect::ClaudeCode));
/// assert_eq!(x.rules.len(), 1);
/// assert!(x.rules[0].fired);
/// assert_eq!(x.rules[0].when.as_ref().map(|w| w.held), Some(Held::Yes));
/// assert_eq!(x.outcome.verdict(), Verdict::Deny);
/// ```
pub fn explain(engine: &Engine, req: &Request<'_>) -> Explanation {
    let Request {
        seam,
        payload,
        dialect,
        ..
    } = *req;
    let table = engine.table();
    let subj = subjects(seam, payload, dialect);
    let outcome = engine.decide(req).outcome;
    let fired_ids = outcome.fired_ids();
    let mut rules = Vec::new();
    let cx = Ctx {
        payload,
        env: table.env(),
        memory: req.memory(),
        folders: Folders::of(payload),
        effects: OnceCell::new(),
    };
    for e in table.trace(req) {
        let Some(r) = table.rule(e.rule) else {
            continue;
        };
        let when = r
            .when
            .as_ref()
            .zip(e.when.as_ref())
            .map(|(p, n)| render(p, n, &cx, true));
        let unless = r
            .unless
            .as_ref()
            .zip(e.unless.as_ref())
            .map(|(p, n)| render(p, n, &cx, false));
        let unsure = when.iter().chain(unless.iter()).any(has_unsure);
        // Came close: every leaf of `when` held but one (and at least one held), or `when`
        // held and `unless` excused the rule.
        let (failed, held) = when.as_ref().map_or((0, 0), |w| against(w, true));
        let excused = unless.as_ref().is_some_and(|u| u.counted);
        let close = !e.fired
            && e.matcher_matched
            && ((failed == 1 && held > 0 && !excused) || (failed == 0 && excused));
        rules.push(RuleTrace {
            id: r.id.clone(),
            kind: r.kind,
            source: r.source.to_string(),
            matcher: r.matcher.to_string(),
            matcher_matched: e.matcher_matched,
            when,
            unless,
            fired: e.fired,
            // A rule the call's unresolved part fired is folded into the one
            // `seamguard:unsure` ask of the call.
            engine_fired: fired_ids.contains(&r.id.as_str())
                || outcome.pending_runs.iter().any(|(id, _)| id == &r.id)
                || (e.fired && unsure && fired_ids.contains(&crate::UNSURE_RULE)),
            action: action_of(r),
            run: r.action.run.as_ref().map(|x| x.command.clone()),
            unsure,
            close,
        });
    }
    let mut encoded = Vec::new();
    for d in [Dialect::ClaudeCode, Dialect::Codex] {
        let o = if d == dialect {
            outcome.clone()
        } else {
            engine.decide(&Request { dialect: d, ..*req }).outcome
        };
        let e = encode(&o, d);
        encoded.push((d, o, e));
    }
    let effects = if seam.matcher_subject() == crate::seam::MatcherSubject::ToolName {
        crate::effects::effects_in(payload, table.env(), req.memory)
            .list
            .iter()
            .map(ToString::to_string)
            .collect()
    } else {
        Vec::new()
    };
    Explanation {
        seam,
        dialect,
        subjects: subj,
        rules,
        outcome,
        encoded,
        effects,
    }
}

impl PredTrace {
    /// As JSON (for `--format json`).
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "label": self.label,
            "held": self.held.name(),
            "counted": self.counted,
        });
        if let Some(f) = &self.field {
            v["field"] = json!(f);
        }
        if let Some(x) = &self.value {
            v["value"] = json!(x);
        }
        if !self.commands.is_empty() {
            v["commands"] = json!(self.commands);
        }
        if let Some(u) = &self.unsure {
            v["unsure"] = json!(u);
        }
        if !self.children.is_empty() {
            v["children"] = Value::Array(self.children.iter().map(PredTrace::to_json).collect());
        }
        if let Some(m) = &self.matched {
            v["matched"] = json!(m);
        }
        if !self.entries.is_empty() {
            v["entries"] = json!(self.entries);
        }
        v
    }
}

impl RuleTrace {
    /// As JSON (for `--format json`).
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "kind": match self.kind { RuleKind::Hook => "rule", RuleKind::Guard => "guard" },
            "source": self.source,
            "matcher": self.matcher,
            "matcher_matched": self.matcher_matched,
            "when": self.when.as_ref().map(PredTrace::to_json),
            "unless": self.unless.as_ref().map(PredTrace::to_json),
            "fired": self.fired,
            "engine_fired": self.engine_fired,
            "action": self.action,
            "run": self.run,
            "unsure": self.unsure,
            "close": self.close,
        })
    }
}

impl Explanation {
    /// As JSON: `{seam, dialect, subjects, effects: ["reads …", …], rules: [...], verdict, reason, fired, would_run,
    /// warnings, encoded: {"claude-code": {stdout, stderr, exit_code}, "codex": {…}}}`.
    pub fn to_json(&self) -> Value {
        let mut enc = serde_json::Map::new();
        for (d, o, e) in &self.encoded {
            enc.insert(
                d.name().to_string(),
                json!({
                    "verdict": o.verdict().name(),
                    "stdout": e.stdout,
                    "stderr": e.stderr,
                    "exit_code": e.exit_code,
                }),
            );
        }
        json!({
            "seam": self.seam.name(),
            "dialect": self.dialect.name(),
            "subjects": self.subjects,
            "effects": self.effects,
            "rules": self.rules.iter().map(RuleTrace::to_json).collect::<Vec<_>>(),
            "verdict": self.outcome.verdict().name(),
            "reason": self.outcome.reason_text(),
            "fired": self.outcome.fired_ids(),
            "would_run": self.outcome.pending_runs.iter().map(|(id, c)| json!({"rule": id, "command": c})).collect::<Vec<_>>(),
            "warnings": self.outcome.warnings,
            "encoded": enc,
        })
    }
}

#[cfg(test)]
mod tests {
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
}
