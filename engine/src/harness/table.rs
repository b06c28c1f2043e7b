//! Policy tables in a harness: a compiled [`DecisionTable`] with its seam evaluator
//! ([`PolicyTable`], what `policy!` yields), how the harness holds one ([`TableRef`]), and
//! how it evaluates them all at one seam.
//!
//! In: the harness's tables, its dialect, a seam and a hook payload. Out: the tables'
//! hook and guard contributions and the outcome fields the seam methods fold in
//! (`TablePart`).

use serde_json::Value;

use crate::decision::{Contribution, HookRun, Outcome};
use crate::dialect::Dialect;
use crate::engine::Engine;
use crate::policy::{LoadedPolicy, Scope};
use crate::runner::CommandHook;
use crate::seam::Seam;
use crate::table::DecisionTable;

/// A compiled policy table ready to evaluate: a [`DecisionTable`] with its seam evaluator.
///
/// `policy!("file.toml")` yields a `&'static PolicyTable`; [`PolicyTable::load_file`] builds
/// the same from a file at run time. Dereferences to the [`DecisionTable`].
#[derive(Debug)]
pub struct PolicyTable {
    engine: Engine,
}

impl PolicyTable {
    /// A table from a compiled [`DecisionTable`].
    pub fn new(table: DecisionTable) -> PolicyTable {
        PolicyTable {
            engine: Engine::new(table),
        }
    }

    /// A table from loaded policies (in precedence order). This is what `policy!` runs on
    /// first use, with policies built from constructors instead of parsed.
    pub fn from_policies(policies: Vec<LoadedPolicy>) -> PolicyTable {
        PolicyTable::new(DecisionTable::new(policies))
    }

    /// Load one policy file at run time (fail-partial, as [`crate::load_file`]: broken rules
    /// are skipped and reported in every outcome's warnings).
    pub fn load_file(path: &std::path::Path, scope: Scope) -> PolicyTable {
        PolicyTable::from_policies(vec![crate::load::load_file(path, scope, 0)])
    }

    /// The compiled table.
    pub fn table(&self) -> &DecisionTable {
        self.engine.table()
    }

    /// Evaluate one hook payload at `seam` ([`Engine::evaluate`]).
    pub fn evaluate(&self, seam: Seam, payload: &Value, dialect: Dialect) -> Outcome {
        self.engine.evaluate(seam, payload, dialect)
    }
}

impl std::ops::Deref for PolicyTable {
    type Target = DecisionTable;
    fn deref(&self) -> &DecisionTable {
        self.table()
    }
}

/// A table held by a [`Harness`](super::Harness): a `&'static` one from `policy!` or an owned one.
#[derive(Debug)]
pub enum TableRef {
    /// From `policy!` (no copy).
    Static(&'static PolicyTable),
    /// Built at run time.
    Owned(Box<PolicyTable>),
}

impl std::ops::Deref for TableRef {
    type Target = PolicyTable;
    fn deref(&self) -> &PolicyTable {
        match self {
            TableRef::Static(t) => t,
            TableRef::Owned(t) => t,
        }
    }
}

impl From<&'static PolicyTable> for TableRef {
    fn from(t: &'static PolicyTable) -> TableRef {
        TableRef::Static(t)
    }
}

impl From<PolicyTable> for TableRef {
    fn from(t: PolicyTable) -> TableRef {
        TableRef::Owned(Box::new(t))
    }
}

impl From<DecisionTable> for TableRef {
    fn from(t: DecisionTable) -> TableRef {
        TableRef::Owned(Box::new(PolicyTable::new(t)))
    }
}

/// What every table of a harness contributed at one seam: hook and guard contributions,
/// warnings, and the last table's rewrite / redaction (each table overrides the previous).
#[derive(Default)]
pub(super) struct TablePart {
    pub(super) hooks: Vec<Contribution>,
    pub(super) guards: Vec<Contribution>,
    pub(super) warnings: Vec<String>,
    pub(super) rewritten_prompt: Option<String>,
    pub(super) redacted: Option<Value>,
    pub(super) suppress_prompt: bool,
    pub(super) hook_runs: Vec<HookRun>,
    /// Command hooks of fired `run` rules (trusted ones only), for the harness to run.
    pub(super) to_run: Vec<CommandHook>,
}

impl TablePart {
    /// Evaluate every table at `seam`, in the order added: (hook contributions, guard
    /// contributions, the tables' outcome fields folded in).
    pub(super) fn eval(
        tables: &[TableRef],
        dialect: Dialect,
        seam: Seam,
        payload: &Value,
    ) -> TablePart {
        let mut part = TablePart::default();
        for t in tables {
            let out = t.evaluate(seam, payload, dialect);
            for c in out.fired {
                if c.guard {
                    part.guards.push(c);
                } else {
                    part.hooks.push(c);
                }
            }
            part.warnings.extend(out.warnings);
            if out.rewritten_prompt.is_some() {
                part.rewritten_prompt = out.rewritten_prompt;
            }
            if out.redacted_response.is_some() {
                part.redacted = out.redacted_response;
            }
            part.suppress_prompt |= out.suppress_prompt;
            // The table's engine has no runner: its fired `run` rules come back as pending
            // (after the trust check), and the harness runs them (`commands`).
            for (id, command) in out.pending_runs {
                let spec = t
                    .table()
                    .rules()
                    .iter()
                    .filter(|r| r.id == id && r.seam == seam)
                    .find_map(|r| r.action.run.as_ref().map(|run| (r, run)));
                let mut hook = CommandHook::new(id, command, 600_000);
                if let Some((rule, run)) = spec {
                    hook.timeout_ms = run.timeout_ms;
                    hook.on_error = run.on_error;
                    hook.env = run.env.clone();
                    hook.detached = run.detached;
                    hook.source = Some(rule.source.clone());
                }
                part.to_run.push(hook);
            }
            part.hook_runs.extend(out.hook_runs);
        }
        part
    }
}
