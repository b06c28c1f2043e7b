//! The decision table: all loaded rules compiled per seam into an index that answers "which
//! rules fire for this event" in one pass per field (STYLE.md "Design answers (a)").
//!
//! In: loaded policies (in precedence order) and the [`ShellEnv`] path tests resolve
//! `project` / `home` against. Out: per event, the rules that fire ([`Fired`]).
//!
//! Each seam compiles lazily on first use (the `compile` stage: matcher buckets, field
//! indexes, anchors), so a `PreToolUse` call never pays for other seams; the `evaluate` stage
//! answers per event. Nothing on the evaluation path parses a policy, compiles a pattern
//! twice, or allocates per rule.

use std::rc::Rc;
use std::sync::OnceLock;

use serde_json::Value;

pub use crate::compile::CompileError;
use crate::compile::SeamTable;
use crate::compile::actions::ActionRegexes;
use crate::dialect::Dialect;
use crate::effects::Effects;
use crate::evaluate::pred::{CallInput, Known};
use crate::evaluate::request::Request;
use crate::evaluate::trace::{NoTrace, Recorder, RuleEval};
use crate::matcher::codex_aliases;
use crate::memory::SessionMemory;
use crate::policy::{LoadedPolicy, PolicyError, PolicyMeta, Rule, RuleKind, Severity};
use crate::seam::{MatcherSubject, Seam};
use crate::shell_env::ShellEnv;

#[cfg(feature = "oracle")]
#[doc(hidden)]
pub(crate) use crate::evaluate::oracle::naive_pred;

/// A rule that fired, with what its shell-aware test saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fired {
    /// Global rule index.
    pub rule: u32,
    /// The simple command that made a shell test hold (`rm -rf / (via sudo)`).
    pub matched: Option<String>,
    /// Why a shell test could not be decided (the rule fired as a precaution).
    pub unsure: Option<String>,
    /// With `unsure`: the call itself has a part no lens could resolve (a line that does not
    /// parse, an unknown program word), so any rule may be involved through it; the engine
    /// asks once for such rules instead of once per rule.
    pub call_unsure: bool,
}

/// The rules that fire for one payload, and the call's effects when a test worked them out.
#[derive(Debug, Default)]
pub(crate) struct TableFiring {
    /// The fired rules, in declaration order.
    pub(crate) fired: Vec<Fired>,
    /// The effects of the tool call, when a test needed them.
    pub(crate) effects: Option<Rc<Effects>>,
}

/// A policy file's load status as the table keeps it (for loud reporting and fail-closed).
#[derive(Debug, Clone)]
pub struct LoadFailure {
    /// The policy.
    pub policy: PolicyMeta,
    /// Its error diagnostics.
    pub errors: Vec<PolicyError>,
}

/// All loaded policies compiled into per-seam indexes. Immutable, `Send + Sync`.
#[derive(Debug)]
pub struct DecisionTable {
    policies: Vec<PolicyMeta>,
    rules: Vec<Rule>,
    by_seam: Vec<Vec<u32>>,
    compiled: Vec<OnceLock<SeamTable>>,
    /// Per rule: its action regexes, compiled on its first firing.
    actions: Vec<OnceLock<ActionRegexes>>,
    failures: Vec<LoadFailure>,
    env: ShellEnv,
    /// The policy files loaded, absolute: seamguard's own files (the path keyword
    /// `seamguard`), whatever environment is set.
    policy_files: Vec<String>,
}

/// The files of `metas` as absolute paths (built-in and in-memory policies have none).
fn policy_files(metas: &[PolicyMeta]) -> Vec<String> {
    metas
        .iter()
        .filter(|m| m.scope != crate::policy::Scope::Embedded && !m.file.starts_with('<'))
        .filter_map(|m| std::path::absolute(&*m.file).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

impl DecisionTable {
    /// Build a table from loaded policies (in precedence order: their rules are declared in
    /// this order), with path tests resolving `project` and `home` per the process
    /// environment (`CLAUDE_PROJECT_DIR`, `HOME`). Compilation of each seam happens on
    /// first use.
    ///
    /// # Errors
    /// Never fails. A policy with load errors keeps its loadable rules and is listed in
    /// [`DecisionTable::failures`] (the evaluator fails closed on it per its `on_load_error`);
    /// a rule whose patterns do not compile is reported by [`DecisionTable::compile_all`] /
    /// as an outcome warning, never by a panic.
    ///
    /// # Example
    ///
    /// ```
    /// use seamguard_engine::{DecisionTable, Scope, Seam, load_str};
    ///
    /// let policy = load_str(
    ///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
    ///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\nreason = \"no rm -rf\"\n",
    ///     "inline.toml",
    ///     Scope::User,
    ///     0,
    /// );
    /// let table = DecisionTable::new(vec![policy]);
    /// assert_eq!(table.seam_len(Seam::PreTool), 1);
    /// assert!(table.failures().is_empty());
    /// assert!(table.compile_all().is_empty());
    /// ```
    pub fn new(policies: Vec<LoadedPolicy>) -> DecisionTable {
        DecisionTable::with_shell_env(policies, ShellEnv::from_process())
    }

    /// Build a table from loaded policies (in precedence order) with an explicit path
    /// environment. Compilation of each seam happens on first use.
    pub fn with_shell_env(mut policies: Vec<LoadedPolicy>, env: ShellEnv) -> DecisionTable {
        // Named lists resolve across the whole set (a user file extends the library's).
        seamguard_policy::lists::resolve(&mut policies);
        let mut metas = Vec::new();
        let mut rules = Vec::new();
        let mut failures = Vec::new();
        for (i, p) in policies.into_iter().enumerate() {
            let errors: Vec<PolicyError> = p
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .cloned()
                .collect();
            if !errors.is_empty() {
                failures.push(LoadFailure {
                    policy: p.meta.clone(),
                    errors,
                });
            }
            // The table numbers the policies: a rule's `policy` indexes `policies()`.
            for mut r in p.rules {
                r.policy = i;
                rules.push(r);
            }
            metas.push(p.meta);
        }
        let mut by_seam = vec![Vec::new(); Seam::COUNT];
        for (i, r) in rules.iter().enumerate() {
            if let Some(v) = by_seam.get_mut(r.seam.index()) {
                v.push(i as u32);
            }
        }
        let policy_files = policy_files(&metas);
        DecisionTable {
            policies: metas,
            actions: rules.iter().map(|_| OnceLock::new()).collect(),
            rules,
            by_seam,
            compiled: (0..Seam::COUNT).map(|_| OnceLock::new()).collect(),
            failures,
            env: env.with_guard(policy_files.iter().cloned()),
            policy_files,
        }
    }

    /// Set where `project` and `home` are for path-aware tests (default: the process
    /// environment's `CLAUDE_PROJECT_DIR` and `HOME`). The policy files of the table stay
    /// seamguard's own files (`seamguard`) in it.
    pub fn with_env(mut self, env: ShellEnv) -> DecisionTable {
        self.env = env.with_guard(self.policy_files.iter().cloned());
        self.compiled = (0..Seam::COUNT).map(|_| OnceLock::new()).collect();
        self
    }

    /// The path environment in use.
    pub fn env(&self) -> &ShellEnv {
        &self.env
    }

    fn seam_table(&self, seam: Seam) -> Option<&SeamTable> {
        let cell = self.compiled.get(seam.index())?;
        let members = self.by_seam.get(seam.index())?;
        Some(cell.get_or_init(|| SeamTable::compile(&self.rules, members, &self.env.home)))
    }

    /// Compile one seam now (it is otherwise compiled on first use).
    pub fn prepare(&self, seam: Seam) {
        let _ = self.seam_table(seam);
    }

    /// Compile every seam now (for `check` and benchmarks); returns compile errors.
    pub fn compile_all(&self) -> Vec<CompileError> {
        let mut out = Vec::new();
        for s in Seam::ALL {
            let Some(t) = self.seam_table(s) else {
                continue;
            };
            out.extend(t.errors.iter().cloned());
            if let Some((srcs, _, _)) = &t.buckets.lazy_regex
                && let Err(e) = regex::RegexSet::new(srcs)
            {
                out.push(CompileError::Matchers {
                    message: e.to_string(),
                });
            }
            for f in &t.fields {
                out.extend(t.field_errors(f, f.compiled(), &self.rules));
            }
            for r in &t.rules {
                let Some(rule) = self.rules.get(r.global as usize) else {
                    continue;
                };
                for p in r.when.iter().chain(r.unless.iter()) {
                    p.force(&mut out, rule);
                }
            }
        }
        out
    }

    /// Compile errors of one seam so far (patterns that exceeded size limits).
    pub fn seam_errors(&self, seam: Seam) -> Vec<CompileError> {
        let Some(t) = self.seam_table(seam) else {
            return Vec::new();
        };
        let mut out = t.errors.clone();
        for f in &t.fields {
            if let Some(c) = f.compiled_yet() {
                out.extend(t.field_errors(f, c, &self.rules));
            }
        }
        out
    }

    /// All rules, in declaration order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// A rule by its index.
    pub fn rule(&self, i: u32) -> Option<&Rule> {
        self.rules.get(i as usize)
    }

    /// The action regexes of rule `i`, compiled on first use.
    pub(crate) fn action_regexes(&self, i: u32) -> Option<&ActionRegexes> {
        let rule = self.rules.get(i as usize)?;
        let cell = self.actions.get(i as usize)?;
        Some(cell.get_or_init(|| ActionRegexes::compile(rule)))
    }

    /// The loaded policies' settings.
    pub fn policies(&self) -> &[PolicyMeta] {
        &self.policies
    }

    /// Policies that had errors while loading.
    pub fn failures(&self) -> &[LoadFailure] {
        &self.failures
    }

    /// Number of rules at a seam.
    pub fn seam_len(&self, seam: Seam) -> usize {
        self.by_seam.get(seam.index()).map_or(0, Vec::len)
    }

    /// The matcher subjects of a payload at a seam in a dialect: the subject, plus the Codex
    /// aliases of a tool name.
    pub(crate) fn subjects(seam: Seam, payload: &Value, dialect: Dialect) -> Vec<&str> {
        let subject = seam
            .matcher_subject()
            .field()
            .and_then(|f| payload.get(f))
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut subjects: Vec<&str> = vec![subject];
        if dialect == Dialect::Codex && seam.matcher_subject() == MatcherSubject::ToolName {
            subjects.extend_from_slice(codex_aliases(subject));
        }
        // Another host's tool also answers to the Claude Code tool it is read as.
        if seam.matcher_subject() == MatcherSubject::ToolName
            && let Some(a) = crate::effects::host_tools::alias(subject)
        {
            subjects.push(a);
        }
        subjects
    }

    /// The rules that fire for a payload at `seam`, in declaration order, with the simple
    /// command a shell-aware test matched and whether a test was undecidable.
    ///
    /// `kind` restricts to hooks or guards. The matcher subject is read from the payload per
    /// the seam (HOOKS.md A4 "M"); in the Codex dialect `apply_patch` also answers to
    /// `Edit`/`Write` and `spawn_agent` to `Agent` (B2).
    pub fn fire_detailed(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<Fired> {
        self.fire_in(seam, payload, dialect, kind, None, Known::default())
            .fired
    }

    /// [`DecisionTable::fire_detailed`] in an explicit session memory (`None`: empty) and
    /// with the call's effects when they were `known` before, returning the call's effects
    /// when a test worked them out (or used the known ones).
    pub(crate) fn fire_in(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
        memory: Option<&SessionMemory>,
        known: Known<'_>,
    ) -> TableFiring {
        let Some(t) = self.seam_table(seam) else {
            return TableFiring::default();
        };
        if t.rules.is_empty() {
            return TableFiring::default();
        }
        let subjects = Self::subjects(seam, payload, dialect);
        let call = CallInput {
            payload,
            memory,
            known: known.effects,
            lines: known.lines,
        };
        let firing = t.fire(call, &subjects, kind, &self.env, &mut NoTrace);
        let fired = firing
            .fired
            .into_iter()
            .filter_map(|(l, matched, unsure, call_unsure)| {
                t.rules.get(l as usize).map(|r| Fired {
                    rule: r.global,
                    matched,
                    unsure,
                    call_unsure,
                })
            })
            .collect();
        TableFiring {
            fired,
            effects: firing.effects,
        }
    }

    /// Indices of the rules that fire for a payload at `seam`, in declaration order.
    pub fn fire(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<u32> {
        self.fire_detailed(seam, payload, dialect, kind)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    /// Every rule of `seam` as the evaluator judges it for a payload (hooks and guards, in
    /// declaration order): the same evaluation as [`DecisionTable::fire_detailed`], recorded.
    pub(crate) fn trace(&self, req: &Request<'_>) -> Vec<RuleEval> {
        let Some(t) = self.seam_table(req.seam) else {
            return Vec::new();
        };
        let subjects = Self::subjects(req.seam, req.payload, req.dialect);
        let mut rec = Recorder::default();
        let call = CallInput {
            payload: req.payload,
            memory: req.memory(),
            known: None,
            lines: None,
        };
        t.fire(call, &subjects, None, &self.env, &mut rec);
        rec.rules
    }

    /// The reference evaluator: every rule checked one by one with freshly compiled
    /// patterns. Slow by design; used as the baseline in benchmarks and as the oracle in
    /// property tests.
    #[cfg(feature = "oracle")]
    #[doc(hidden)]
    pub fn fire_naive(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<u32> {
        self.fire_naive_in(seam, payload, dialect, kind, &SessionMemory::default())
    }

    /// [`DecisionTable::fire_naive`] in an explicit session memory.
    #[cfg(feature = "oracle")]
    fn fire_naive_in(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
        memory: &SessionMemory,
    ) -> Vec<u32> {
        let subjects = Self::subjects(seam, payload, dialect);
        let mut out = Vec::new();
        for &g in self
            .by_seam
            .get(seam.index())
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let Some(r) = self.rules.get(g as usize) else {
                continue;
            };
            if kind.is_some_and(|k| k != r.kind) {
                continue;
            }
            if !subjects.iter().any(|s| r.matcher.matches(s)) {
                continue;
            }
            let when = r
                .when
                .as_ref()
                .is_none_or(|p| naive_pred(p, payload, &self.env, memory, true));
            let unless = r
                .unless
                .as_ref()
                .is_some_and(|p| naive_pred(p, payload, &self.env, memory, false));
            if when && !unless {
                out.push(g);
            }
        }
        out
    }
}
