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
use crate::evaluate::engine::Engine;
use std::path::Path;

use crate::compile::table::DecisionTable;
use crate::policy::{LoadedPolicy, PolicyError, PolicyMeta, Scope, Severity};
use crate::runner::CommandHook;
use crate::seam::Seam;

/// A compiled policy table ready to evaluate: a [`DecisionTable`] with its seam evaluator.
///
/// `policy!("file.toml")` yields a `&'static PolicyTable` (a broken file is a compile
/// error); [`PolicyTable::load_file`], [`PolicyTable::load_str`] and
/// [`PolicyTable::load_dir`] build the same at run time and return a [`PolicyLoadError`]
/// when any policy does not load cleanly. Dereferences to the [`DecisionTable`].
///
/// # Fails closed
///
/// A table evaluates with load errors denied: if any of its policies had an error while
/// loading (a table built with [`PolicyTable::new`] or [`PolicyTable::from_policies`]
/// from the fail-partial loaders, or with [`PolicyTable::failed`]), every `pre-tool` call
/// and `permission-request` is denied, with the first error (`file:line:column`) in the
/// reason, whatever the file's own `on_load_error` says. Other seams run the rules that
/// did load and carry the error as a warning.
#[derive(Debug)]
pub struct PolicyTable {
    engine: Engine,
}

/// A policy that could not be loaded (unreadable file, not UTF-8, TOML syntax, a broken
/// rule): every error diagnostic, each with its `file:line:column`.
///
/// Its `Display` is the first diagnostic's one-line form (`file:line:column: error:
/// message`), followed by how many more there are.
///
/// Not handling it still fails closed: a `Result<PolicyTable, PolicyLoadError>` can be
/// given to [`Harness::add_table`](super::Harness::add_table) as it is, and an `Err` there
/// becomes [`PolicyTable::failed`], a table that denies every `pre-tool` call and
/// `permission-request` with this error as the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{}", first_line(.errors), more(.errors.len()))]
pub struct PolicyLoadError {
    file: String,
    errors: Vec<PolicyError>,
}

fn first_line(errors: &[PolicyError]) -> String {
    errors.first().map(ToString::to_string).unwrap_or_default()
}

fn more(n: usize) -> String {
    match n {
        0 | 1 => String::new(),
        2 => " (and 1 more error)".to_string(),
        n => format!(" (and {} more errors)", n - 1),
    }
}

impl PolicyLoadError {
    /// The file (or folder) that was loaded, as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Every error diagnostic, in file order (never empty); render one for a terminal with
    /// [`PolicyError::render`].
    pub fn errors(&self) -> &[PolicyError] {
        &self.errors
    }

    /// The errors of `policies`, or `None` when every one loaded cleanly.
    fn of(file: String, policies: &[LoadedPolicy]) -> Option<PolicyLoadError> {
        let errors: Vec<PolicyError> = policies
            .iter()
            .flat_map(|p| &p.diagnostics)
            .filter(|d| d.severity == Severity::Error)
            .cloned()
            .collect();
        (!errors.is_empty()).then_some(PolicyLoadError { file, errors })
    }
}

impl PolicyTable {
    /// A table from a compiled [`DecisionTable`] (load errors denied: see the type's docs).
    pub fn new(table: DecisionTable) -> PolicyTable {
        PolicyTable {
            engine: Engine::new(table).with_load_errors_denied(true),
        }
    }

    /// A table from loaded policies (in precedence order). This is what `policy!` runs on
    /// first use, with policies built from constructors instead of parsed. A policy with
    /// errors makes the table deny `pre-tool` and `permission-request` (see the type's
    /// docs); use [`PolicyTable::load_file`] and friends to get the errors as a `Result`.
    pub fn from_policies(policies: Vec<LoadedPolicy>) -> PolicyTable {
        PolicyTable::new(DecisionTable::new(policies))
    }

    /// The table a policy that could not be loaded stands for: no rules, and every
    /// `pre-tool` call and `permission-request` denied with `error`'s first diagnostic in
    /// the reason (the `seamguard:load-error` rule).
    pub fn failed(error: &PolicyLoadError) -> PolicyTable {
        let f: std::sync::Arc<str> = std::sync::Arc::from(error.file.as_str());
        // The table denies load errors itself (`PolicyTable::new`).
        let meta = PolicyMeta::defaults(error.file.clone(), f, Scope::Embedded);
        PolicyTable::from_policies(vec![LoadedPolicy {
            meta,
            rules: Vec::new(),
            tests: Vec::new(),
            diagnostics: error.errors.clone(),
        }])
    }

    /// Load one policy file at run time.
    ///
    /// # Errors
    /// A [`PolicyLoadError`] with every error diagnostic when the file cannot be read, is
    /// not UTF-8, or has any error (TOML syntax, an unknown key, a rule that does not
    /// compile); warnings alone do not fail.
    ///
    /// # Example
    ///
    /// ```
    /// use std::path::Path;
    /// use seamguard_engine::Scope;
    /// use seamguard_engine::harness::PolicyTable;
    ///
    /// let err = PolicyTable::load_file(Path::new("/nonexistent/team.toml"), Scope::User)
    ///     .unwrap_err();
    /// assert!(err.to_string().starts_with("/nonexistent/team.toml:1:1: error: cannot read policy file"));
    /// ```
    pub fn load_file(path: &Path, scope: Scope) -> Result<PolicyTable, PolicyLoadError> {
        PolicyTable::checked(
            path.display().to_string(),
            vec![crate::load::load_file(path, scope, 0)],
        )
    }

    /// Load one policy from TOML text; `file` names it in diagnostics and rule sources.
    ///
    /// # Errors
    /// As [`PolicyTable::load_file`].
    ///
    /// # Example
    ///
    /// ```
    /// use seamguard_engine::Scope;
    /// use seamguard_engine::harness::PolicyTable;
    ///
    /// let err = PolicyTable::load_str("[[rule]]\nid = \"x\"\nseam = \"nowhere\"\n", "p.toml", Scope::User)
    ///     .unwrap_err();
    /// assert_eq!(err.errors()[0].line, 3);
    /// assert!(err.to_string().starts_with("p.toml:3:8: error:"));
    /// ```
    pub fn load_str(src: &str, file: &str, scope: Scope) -> Result<PolicyTable, PolicyLoadError> {
        PolicyTable::checked(
            file.to_string(),
            vec![crate::load::load_str(src, file, scope, 0)],
        )
    }

    /// Load every `*.toml` file of a folder, in file-name order (precedence order).
    ///
    /// # Errors
    /// A [`PolicyLoadError`] with the error diagnostics of every file when the folder
    /// cannot be read or any file has an error.
    pub fn load_dir(dir: &Path, scope: Scope) -> Result<PolicyTable, PolicyLoadError> {
        PolicyTable::checked(
            dir.display().to_string(),
            crate::load::load_dir(dir, scope, 0),
        )
    }

    fn checked(file: String, policies: Vec<LoadedPolicy>) -> Result<PolicyTable, PolicyLoadError> {
        match PolicyLoadError::of(file, &policies) {
            Some(e) => Err(e),
            None => Ok(PolicyTable::from_policies(policies)),
        }
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

/// A load not handled by the caller: `Ok` is the table, `Err` is [`PolicyTable::failed`]
/// (fail closed).
impl From<Result<PolicyTable, PolicyLoadError>> for TableRef {
    fn from(r: Result<PolicyTable, PolicyLoadError>) -> TableRef {
        match r {
            Ok(t) => TableRef::from(t),
            Err(e) => TableRef::from(PolicyTable::failed(&e)),
        }
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
    /// contributions, the tables' outcome fields folded in). `recheck`: the payload is a
    /// value handlers rewrote after a first evaluation (prompt prepends and appends are not
    /// applied again).
    pub(super) fn eval(
        tables: &[TableRef],
        dialect: Dialect,
        (seam, payload): (Seam, &Value),
        recheck: bool,
    ) -> TablePart {
        let mut part = TablePart::default();
        for t in tables {
            let out = if recheck {
                t.engine
                    .recheck(&crate::Request::new(seam, payload, dialect))
            } else {
                t.evaluate(seam, payload, dialect)
            };
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
