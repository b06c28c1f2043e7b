//! Predicate evaluation: one compiled `when` / `unless` tree against one payload.
//!
//! In: a [`CPred`], the payload, the leaf bits the field scans set, and a [`Sink`]. Out:
//! whether it held, with the simple command that made a shell test hold and why a test
//! could not be decided (kept in the [`Evaluation`]).

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::effect_cond::{EffectContext, eval_effect, runs_analysis};
use super::lines::CommandLines;
use super::shell_cond::{Folders, GlobCache, Judgement, eval_shell};
use super::trace::{Held, Sink};
use crate::compile::globs::PathGlobs;
use crate::compile::literals::required_literals;
use crate::compile::pred::{CPred, EffectGlobs, LazyMatcher, lazy_compile};
use crate::effects::Effects;
use crate::memory::SessionMemory;
use crate::policy::{Field, Test};
use crate::shell::ShellAnalysis;
use crate::shell_env::ShellEnv;

/// The call one evaluation judges: its payload, the session memory it is judged in (`None`:
/// empty), its effects and command-line analyses when they were made before (`None`: made on
/// first use).
#[derive(Clone, Copy)]
pub(crate) struct CallInput<'a> {
    pub(crate) payload: &'a Value,
    pub(crate) memory: Option<&'a SessionMemory>,
    pub(crate) known: Option<&'a Rc<Effects>>,
    /// The analyses of its command lines made before (`None`: made on first use).
    pub(crate) lines: Option<&'a CommandLines>,
}

/// What was worked out about a payload before its evaluation: its effects and the analyses
/// of its command lines (`None`: worked out when a test needs them). Only for the payload
/// they were made from: a re-evaluation of a rewritten payload passes none.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Known<'a> {
    pub(crate) effects: Option<&'a Rc<Effects>>,
    pub(crate) lines: Option<&'a CommandLines>,
}

/// What one evaluation shares between rules: the payload, the leaf bits, the shell analysis
/// of each command-line field (analysed once), glob operands expanded on disk (once), and
/// the unsure / matched notes of the rule being evaluated.
pub(crate) struct Evaluation<'a> {
    pub(crate) payload: &'a Value,
    /// The payload's `cwd` and project folder, read once.
    pub(crate) folders: Folders<'a>,
    pub(crate) expanded: GlobCache,
    pub(crate) bits: &'a [u64],
    pub(crate) env: &'a ShellEnv,
    /// The session memory the call is judged in (`None`: empty).
    pub(crate) memory: Option<&'a SessionMemory>,
    shell: CommandLines,
    /// The analyses of the call's command lines made before the evaluation (the snapshot's
    /// gates), taken from when a test needs one.
    lines: Option<&'a CommandLines>,
    /// The call's effects found before the evaluation, used when a test needs effects.
    known: Option<&'a Rc<Effects>>,
    effects: OnceCell<Rc<Effects>>,
    /// Every program the call runs, as one analysis for `runs` tests (built on first use).
    runs: OnceCell<Rc<ShellAnalysis>>,
    /// Fields whose value is not a string (`tool_input`), serialized once per evaluation.
    texts: RefCell<Vec<(String, Rc<str>)>>,
    /// Field texts in lower case, for the case-insensitive regex prefilters (made once).
    lowered: RefCell<Vec<(String, Rc<str>)>>,
    pub(crate) unsure: RefCell<Option<String>>,
    pub(crate) matched: RefCell<Option<String>>,
}

impl<'a> Evaluation<'a> {
    pub(crate) fn new(call: CallInput<'a>, bits: &'a [u64], env: &'a ShellEnv) -> Evaluation<'a> {
        let CallInput {
            payload,
            memory,
            known,
            lines,
        } = call;
        Evaluation {
            payload,
            folders: Folders::of(payload),
            expanded: RefCell::new(HashMap::new()),
            bits,
            env,
            memory,
            shell: CommandLines::new(),
            lines,
            known,
            effects: OnceCell::new(),
            texts: RefCell::new(Vec::new()),
            lowered: RefCell::new(Vec::new()),
            runs: OnceCell::new(),
            unsure: RefCell::new(None),
            matched: RefCell::new(None),
        }
    }

    /// The shell analysis of a command-line field (the `paths` field: the paths the tool
    /// call touches), analysed on first use (or taken from the call's known analyses).
    pub(crate) fn analysis(&self, field: &Field) -> Option<Rc<ShellAnalysis>> {
        self.shell.analysis_from(self.payload, field, self.lines)
    }
}

/// The text of a field: borrowed from the payload, or serialized once and shared.
pub(crate) enum FieldText<'a> {
    Borrowed(&'a str),
    Shared(Rc<str>),
}

impl std::ops::Deref for FieldText<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            FieldText::Borrowed(s) => s,
            FieldText::Shared(s) => s,
        }
    }
}

impl<'a> Evaluation<'a> {
    /// The text of a field: a string as it is, other JSON serialized once per evaluation
    /// (every rule that tests `tool_input` reads the same text).
    pub(crate) fn text(&self, field: &Field) -> Option<FieldText<'a>> {
        let v: &'a Value = field.resolve(self.payload)?;
        if let Value::String(s) = v {
            return Some(FieldText::Borrowed(s.as_str()));
        }
        if let Some((_, t)) = self.texts.borrow().iter().find(|(n, _)| *n == field.name) {
            return Some(FieldText::Shared(t.clone()));
        }
        let t: Rc<str> = Rc::from(v.to_string());
        self.texts
            .borrow_mut()
            .push((field.name.clone(), t.clone()));
        Some(FieldText::Shared(t))
    }

    /// The lower-case form of a field's text (`text`), made once per evaluation.
    fn lowered(&self, field: &Field, text: &str) -> Rc<str> {
        if let Some((_, t)) = self.lowered.borrow().iter().find(|(n, _)| *n == field.name) {
            return t.clone();
        }
        let t: Rc<str> = Rc::from(text.to_lowercase());
        self.lowered
            .borrow_mut()
            .push((field.name.clone(), t.clone()));
        t
    }

    /// Whether the call has a part no lens could resolve: an unsure effect, or a command line
    /// a shell test analysed that does not parse or runs an unknown program. Rules are then
    /// undecidable through it, whatever their own test.
    pub(crate) fn call_unsure(&self) -> bool {
        self.shell.any_unsure()
            || self.effects.get().is_some_and(|fx| {
                fx.unsure().is_some()
                    || fx.list.iter().any(
                        |e| matches!(&e.what, crate::effects::What::Run(c) if c.dynamic_program),
                    )
            })
    }

    /// The effects of the tool call, found on first use.
    pub(crate) fn effects(&self) -> Rc<Effects> {
        self.effects
            .get_or_init(|| {
                // Known before the evaluation (`Request::known_effects`).
                if let Some(fx) = self.known {
                    return fx.clone();
                }
                // A shell test on `command` may have analysed the line already.
                let command = self.shell.made("command");
                Rc::new(crate::effects::effects_with(
                    self.payload,
                    self.env,
                    command.as_deref(),
                    self.memory,
                ))
            })
            .clone()
    }

    /// The effects of the tool call if a test needed them (found at most once).
    pub(crate) fn effects_found(&self) -> Option<Rc<Effects>> {
        self.effects.get().cloned()
    }
}

/// Record a leaf that held or not.
fn yes_no<S: Sink>(sink: &mut S, held: bool) -> bool {
    sink.leaf(if held { Held::Yes } else { Held::No }, held, None);
    held
}

impl CPred {
    /// Evaluate in polarity `positive` (true in `when`, false in `unless` and under `not`):
    /// an undecidable test holds in positive position and fails in negative position (fail
    /// closed either way).
    pub(crate) fn eval<S: Sink>(&self, cx: &Evaluation<'_>, positive: bool, sink: &mut S) -> bool {
        match self {
            // An undecidable branch counts as a match (fail closed), but a definite answer
            // elsewhere decides: `any` with a definite match, or `all` with a definite miss,
            // is no longer "unsure" (an unsure branch must not hide a certain deny).
            CPred::All(k) => {
                sink.open();
                let before = cx.unsure.borrow().clone();
                let mut held = true;
                for p in k {
                    if !p.eval(cx, positive, sink) {
                        held = false;
                        if !S::RECORDS {
                            break;
                        }
                    }
                }
                if !held {
                    *cx.unsure.borrow_mut() = before;
                }
                sink.close(held);
                held
            }
            CPred::Any(k) => {
                sink.open();
                let before = cx.unsure.borrow().clone();
                let mut maybe: Option<Option<String>> = None;
                let mut certain = false;
                for p in k {
                    if certain {
                        // Recording only: the result is decided.
                        p.eval(cx, positive, sink);
                        continue;
                    }
                    *cx.unsure.borrow_mut() = before.clone();
                    if p.eval(cx, positive, sink) {
                        let now = cx.unsure.borrow().clone();
                        if now == before {
                            certain = true;
                            if !S::RECORDS {
                                break;
                            }
                            continue;
                        }
                        maybe.get_or_insert(now);
                    }
                }
                let held = if certain {
                    *cx.unsure.borrow_mut() = before;
                    true
                } else {
                    match maybe {
                        Some(u) => {
                            *cx.unsure.borrow_mut() = u;
                            true
                        }
                        None => {
                            *cx.unsure.borrow_mut() = before;
                            false
                        }
                    }
                };
                sink.close(held);
                held
            }
            CPred::Not(p) => {
                sink.open();
                let held = !p.eval(cx, !positive, sink);
                sink.close(held);
                held
            }
            // Surely: the child judged with every undecidable test below it counting against
            // holding (the polarity of `not`, without the negation), so only what certainly
            // holds holds; what a `not` below recorded as unresolved is forgotten (a test
            // that did not count decides nothing).
            CPred::Sure(p) => {
                let before = cx.unsure.borrow().clone();
                sink.open();
                let held = p.eval(cx, false, sink);
                *cx.unsure.borrow_mut() = before;
                sink.close(held);
                held
            }
            CPred::Bit(b) => yes_no(sink, bit(cx.bits, *b as usize)),
            CPred::Direct { field, test } => yes_no(sink, direct(field, test, cx.payload)),
            CPred::Lazy {
                field,
                test,
                literals,
                conjunctions,
                compiled,
            } => {
                let Some(text) = cx.text(field) else {
                    return yes_no(sink, false);
                };
                if compiled.get().is_none()
                    && literals
                        .get_or_init(|| match test {
                            Test::Regex(p) => required_literals(p),
                            _ => None,
                        })
                        .as_ref()
                        .is_some_and(|ls| {
                            if ls.fold {
                                !ls.found_in_lower(&cx.lowered(field, &text))
                            } else {
                                !ls.found_in(&text)
                            }
                        })
                {
                    return yes_no(sink, false);
                }
                // The text holds a literal of each pattern's best set: before compiling, every
                // set of the patterns (`npm test` holds `npm` but no install verb).
                if compiled.get().is_none()
                    && conjunctions
                        .get_or_init(|| match test {
                            Test::Regex(p) => crate::compile::literals::Conjunctions::of(p),
                            _ => None,
                        })
                        .as_ref()
                        .is_some_and(|c| {
                            let lower = c.folds().then(|| cx.lowered(field, &text));
                            !c.may_match(&text, lower.as_deref())
                        })
                {
                    return yes_no(sink, false);
                }
                let m = compiled.get_or_init(|| lazy_compile(test));
                match m {
                    LazyMatcher::Regex(set) => yes_no(sink, set.is_match(&text)),
                    LazyMatcher::Glob(set) => yes_no(sink, set.is_match(&*text)),
                    LazyMatcher::Broken => {
                        // Fail closed: a test that cannot be compiled cannot clear anything.
                        if positive && cx.unsure.borrow().is_none() {
                            *cx.unsure.borrow_mut() = Some(format!(
                                "the {} test on `{}` does not compile (size limit)",
                                test.name(),
                                field.name
                            ));
                        }
                        sink.leaf(Held::Unsure, positive, None);
                        positive
                    }
                }
            }
            CPred::Effect { test, home, globs } => {
                let fx = cx.effects();
                // No effect of the kind and nothing unresolved: no match, and no glob to
                // build (most effect tests of most calls).
                if fx.of(test.kind).next().is_none() && fx.unsure().is_none() {
                    return yes_no(sink, false);
                }
                let globs = globs.get_or_init(|| EffectGlobs::build(test, home));
                let runs = (test.kind == crate::policy::EffectKind::Run).then(|| {
                    cx.runs
                        .get_or_init(|| Rc::new(runs_analysis(&fx, |_| true)))
                        .clone()
                });
                let ecx = EffectContext {
                    env: cx.env,
                    memory: cx.memory,
                    payload: cx.payload,
                    folders: &cx.folders,
                    cache: &cx.expanded,
                    runs: runs.as_deref(),
                };
                let tri = eval_effect(test, globs, &fx, &ecx);
                judged(cx, positive, sink, tri, None)
            }
            CPred::Shell {
                field,
                test,
                home,
                globs,
            } => {
                let globs = globs.get_or_init(|| PathGlobs::build(test, home));
                let Some(a) = cx.analysis(field) else {
                    return yes_no(sink, false);
                };
                let tri = eval_shell(test, globs, &a, cx.env, &cx.folders, &cx.expanded);
                judged(cx, positive, sink, tri, S::RECORDS.then_some(a))
            }
        }
    }
}

/// Record a three-valued leaf: a match remembers what matched (for the reason), an
/// undecidable test counts against the agent (fail closed) and remembers why.
fn judged<S: Sink>(
    cx: &Evaluation<'_>,
    positive: bool,
    sink: &mut S,
    tri: Judgement,
    analysis: Option<Rc<ShellAnalysis>>,
) -> bool {
    let (held, counted) = match tri {
        Judgement::Yes(m) => {
            if positive && cx.matched.borrow().is_none() {
                *cx.matched.borrow_mut() = Some(m);
            }
            (Held::Yes, true)
        }
        Judgement::No => (Held::No, false),
        Judgement::Unknown(why) => {
            if positive && cx.unsure.borrow().is_none() {
                *cx.unsure.borrow_mut() = Some(why);
            }
            (Held::Unsure, positive)
        }
    };
    sink.leaf(held, counted, analysis);
    counted
}

/// Whether leaf bit `i` is set.
pub(crate) fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64)
        .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
}

/// Set leaf bit `i`.
pub(crate) fn set_bit(bits: &mut [u64], i: usize) {
    if let Some(w) = bits.get_mut(i / 64) {
        *w |= 1u64 << (i % 64);
    }
}

/// A text test on a field's text, each regex and glob compiled on its own as written: the
/// plain reading `explain` and the reference evaluator judge a leaf by (the table's scans
/// and prefilters must agree with it).
pub(crate) fn text_as_written(test: &Test, text: &str) -> bool {
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

/// A test evaluated on the payload's value itself (non-string `equals`, and `contains` /
/// `prefix` on its text).
pub(crate) fn direct(field: &Field, test: &Test, payload: &Value) -> bool {
    let Some(v) = field.resolve(payload) else {
        return false;
    };
    let text = || match v {
        Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
        other => std::borrow::Cow::Owned(other.to_string()),
    };
    match test {
        Test::Equals(vals) => vals.iter().any(|x| match (x, v) {
            (Value::String(a), _) => a.as_str() == text().as_ref(),
            (a, b) => a == b,
        }),
        Test::Contains(cs) => {
            let t = text();
            cs.iter().any(|c| t.contains(c.as_str()))
        }
        Test::Prefix(ps) => {
            let t = text();
            ps.iter().any(|c| t.starts_with(c.as_str()))
        }
        // Regex and glob tests are indexed or lazy; shell tests are evaluated elsewhere.
        _ => false,
    }
}
