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

mod label;
mod leaf;
#[cfg(test)]
mod tests;

use std::cell::OnceCell;

use serde_json::{Value, json};

use self::label::{leaf_label, shorten};
use self::leaf::Ctx;
use crate::codec::{Encoded, encode};
use crate::compile::table::DecisionTable;
use crate::decision::Outcome;
use crate::dialect::Dialect;
use crate::evaluate::engine::Engine;
use crate::evaluate::request::Request;
use crate::evaluate::shell_cond::{Folders, Judgement};
use crate::evaluate::trace::NodeTrace;
use crate::policy::{Pred, Rule, RuleKind};
use crate::seam::Seam;

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
        Pred::Sure(x) => node("sure", children(std::slice::from_ref(&**x), positive)),
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
    let decided = engine.decide(req);
    let outcome = decided.outcome;
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
        // The effects the decision found, when a rule needed them; else found here (the same
        // value: the same payload, environment and session memory).
        let fx = decided.effects.unwrap_or_else(|| {
            std::rc::Rc::new(crate::effects::effects_in(payload, table.env(), req.memory))
        });
        fx.list.iter().map(ToString::to_string).collect()
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
