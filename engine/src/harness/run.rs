//! The [`Harness`] itself: what it holds, how it is built, and what each seam method
//! returns ([`Evaluated`]).
//!
//! In: tables ([`Harness::add_table`]), handlers ([`Harness::register`] and friends),
//! wrappers ([`Harness::wrap`]) and an approver ([`Harness::set_approver`]). Out: a harness
//! evaluated through `&self` from any number of tasks (the seam methods, and
//! [`Harness::execute`] for the tool pipeline).

use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use tokio_util::sync::CancellationToken;

use super::context::AppContext;
use super::model::{Entry, HookContext, Registry};
use super::registry::Registrations;
use super::state::{Detached, Records, Turns};
use super::{Approver, HandlerFailure, TableRef, Wrapper};
use crate::decision::{Attributed, Contribution, HookRun, Outcome, Verdict, merge};
use crate::dialect::Dialect;
use crate::seam::Seam;

/// The result of one seam method: the typed decision and the merged outcome behind it.
#[derive(Debug, Clone)]
pub struct Evaluated<D> {
    /// The typed decision.
    pub decision: D,
    /// Handlers that failed (contained; see each seam method for what a failure means).
    pub failures: Vec<HandlerFailure>,
    seam: Seam,
    contributions: Vec<Contribution>,
    warnings: Vec<String>,
    pub(super) hook_runs: Vec<HookRun>,
    outcome: OnceLock<Outcome>,
    cancelled: bool,
}

impl<D> Evaluated<D> {
    pub(super) fn ready(
        decision: D,
        outcome: Outcome,
        failures: Vec<HandlerFailure>,
    ) -> Evaluated<D> {
        Evaluated {
            decision,
            failures,
            seam: outcome.seam.unwrap_or(Seam::PreTool),
            contributions: Vec::new(),
            warnings: Vec::new(),
            hook_runs: Vec::new(),
            outcome: OnceLock::from(outcome),
            cancelled: false,
        }
    }

    /// A decision taken from `contributions` whose outcome is merged (with [`merge`]) on
    /// first use.
    pub(super) fn merged_on_use(
        decision: D,
        seam: Seam,
        contributions: Vec<Contribution>,
        warnings: Vec<String>,
        failures: Vec<HandlerFailure>,
    ) -> Evaluated<D> {
        Evaluated {
            decision,
            failures,
            seam,
            contributions,
            warnings,
            hook_runs: Vec::new(),
            outcome: OnceLock::new(),
            cancelled: false,
        }
    }

    /// Whether the run's token ([`Harness::with_signal`]) was cancelled before every policy
    /// of the seam answered: the handlers after the cancel were not called (and are not
    /// failures), command hooks still running were killed.
    ///
    /// One rule for every seam: at `pre-tool` and `permission-request` a cancelled
    /// evaluation denies (fail closed) with the [`CANCELLED_RULE`](super::CANCELLED_RULE)
    /// contribution; at every other seam the decision is what answered before the cancel,
    /// and this flag is what says it is incomplete — check it before acting on the decision.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }

    /// Mark the evaluation cancelled when the run's token is.
    pub(super) fn cancelled_if(mut self, cancelled: bool) -> Evaluated<D> {
        self.cancelled = cancelled;
        self
    }

    /// The merged outcome (reasons and contexts with provenance, every fired rule/handler,
    /// warnings). On `pre-tool` it is merged on first use, so a caller that only needs the
    /// decision does not pay for it.
    pub fn outcome(&self) -> &Outcome {
        self.outcome.get_or_init(|| {
            let mut o = merge(self.seam, self.contributions.clone());
            o.warnings = self.warnings.clone();
            o.hook_runs = self.hook_runs.clone();
            o
        })
    }

    /// The reasons behind the decision, each with the rule or handler that gave it and
    /// where it is declared, apart (the typed decision's reason is their own text, without
    /// the rules: [`Outcome::plain_reason`]).
    pub fn reasons(&self) -> &[Attributed] {
        &self.outcome().reasons
    }

    /// The first reason's own text, without provenance (`None`: no reason given).
    pub fn reason(&self) -> Option<&str> {
        self.reasons().first().map(|a| a.text.as_str())
    }

    /// A policy's request that the agent stop (a `halt`: Claude Code's `continue: false`),
    /// with the rule that asked; whatever the decision, the agent loop must stop.
    /// [`Harness::execute`] does not dispatch a call whose pre-tool evaluation halts.
    pub fn halt(&self) -> Option<&Attributed> {
        self.outcome().halt.as_ref()
    }

    /// The merged outcome, by value.
    pub fn into_outcome(mut self) -> Outcome {
        match self.outcome.take() {
            Some(o) => o,
            None => {
                let mut o = merge(self.seam, std::mem::take(&mut self.contributions));
                o.warnings = std::mem::take(&mut self.warnings);
                o.hook_runs = std::mem::take(&mut self.hook_runs);
                o
            }
        }
    }
}

/// Policy tables and Rust handlers evaluated together (see the module docs).
///
/// Build with [`Harness::new`] and the `add_table` / `wrap` / `set_approver` methods (they
/// take `&mut self`), then evaluate through `&self` from any number of tasks. Handlers are
/// registered and unregistered through `&self` ([`Harness::on`], [`Harness::register`]),
/// also while the harness is shared and calls are in flight.
pub struct Harness {
    pub(super) tables: Vec<TableRef>,
    pub(super) dialect: Dialect,
    pub(super) wrappers: Vec<Box<dyn Wrapper>>,
    pub(super) approver: Option<Box<dyn Approver>>,
    /// The handlers (a snapshot swapped on every change) and their cleanups.
    pub(super) registrations: Arc<Registrations>,
    pub(super) failures: Arc<Mutex<Vec<HandlerFailure>>>,
    pub(super) records: Records,
    pub(super) app_context: AppContext,
    pub(super) turns: Turns,
    /// Detached command hooks (`run = { …, async = true }`) still running or not yet
    /// reported ([`Harness::shutdown`]).
    pub(super) detached: Detached,
}

// A harness is shared across tasks (`Arc<Harness>`) and reached from inside tools for nested
// calls: it must stay `Send + Sync`.
const _: () = {
    const fn shareable<T: Send + Sync>() {}
    shareable::<Harness>();
};

impl fmt::Debug for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Harness")
            .field("tables", &self.tables.len())
            .field("handlers", &{
                let r = self.snapshot();
                r.hooks.iter().map(Vec::len).sum::<usize>() + r.guards.len() + r.observers.len()
            })
            .field("wrappers", &self.wrappers.len())
            .finish_non_exhaustive()
    }
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}

impl Harness {
    /// An empty harness (Claude Code dialect for table matchers).
    ///
    /// Never fails; registration problems are reported by the `register*` methods, and
    /// failures of handlers and tools are contained in what each seam method returns.
    ///
    /// Leaves the process's panic hook alone: a panic the harness contains (a handler,
    /// tool, wrapper, observer or cleanup) is reported through the harness (failures, error
    /// results) and also reaches the panic hook, which prints it by default. To keep such
    /// panics quiet, opt in with [`Harness::quiet_contained_panics`].
    ///
    /// # Example
    ///
    /// A policy table and one pre-tool evaluation (Rust handlers are added with
    /// [`Harness::register`] and the `seamguard` crate's `#[hook]` / `hooks!`):
    ///
    /// ```
    /// use seamguard_engine::harness::{Harness, ToolCall};
    /// use seamguard_engine::{DecisionTable, PreToolDecision, Scope, load_str};
    ///
    /// let policy = load_str(
    ///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
    ///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\nreason = \"no rm -rf\"\n",
    ///     "inline.toml",
    ///     Scope::User,
    ///     0,
    /// );
    /// let mut harness = Harness::new();
    /// harness.add_table(DecisionTable::new(vec![policy]));
    ///
    /// let call = ToolCall::new("Bash", serde_json::json!({"command": "rm -rf /"}), "s1", "/w");
    /// let rt = tokio::runtime::Builder::new_current_thread().build()?;
    /// let pre = rt.block_on(harness.pre_tool(&call));
    /// assert!(matches!(pre.decision, Some(PreToolDecision::Deny { .. })));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new() -> Harness {
        Harness {
            tables: Vec::new(),
            dialect: Dialect::ClaudeCode,
            wrappers: Vec::new(),
            approver: None,
            registrations: Arc::default(),
            failures: Arc::new(Mutex::new(Vec::new())),
            records: Records::default(),
            app_context: AppContext::default(),
            turns: Turns::default(),
            detached: Detached::default(),
        }
    }

    /// Opt in to quiet contained panics: wraps the process's panic hook (once per process;
    /// later calls do nothing) so that a panic the harness contains and reports itself —
    /// a handler, tool, wrapper, observer or cleanup of any harness — is not printed, and
    /// every other panic reaches the hook that was installed before. This changes global
    /// state, hence opt-in: a hook installed afterwards replaces this one.
    pub fn quiet_contained_panics(self) -> Harness {
        super::contain::install_quiet_hook();
        self
    }

    /// The dialect tables evaluate in (tool-name aliases, matcher mode), and the matcher
    /// mode of handlers registered from now on: in Codex a matcher of only letters, digits,
    /// `_` and `|` is exact alternatives and anything else an unanchored regex (HOOKS.md B4,
    /// from Codex's source; the older "always a regex" reading is out of date), so set the
    /// dialect before registering.
    pub fn with_dialect(mut self, dialect: Dialect) -> Harness {
        self.dialect = dialect;
        self
    }

    /// Add a policy table (`policy!(…)`, a [`PolicyTable`](super::PolicyTable), or a
    /// [`DecisionTable`](crate::DecisionTable)). Tables evaluate in the order added,
    /// before handlers, and judge again a prompt or a tool result a handler rewrote (see
    /// "Order of evaluation" in the [module docs](super)).
    pub fn add_table(&mut self, table: impl Into<TableRef>) -> &mut Harness {
        self.tables.push(table.into());
        self
    }

    /// Add an around-dispatch wrapper (the first added is outermost).
    pub fn wrap(&mut self, wrapper: impl Wrapper + 'static) -> &mut Harness {
        self.wrappers.push(Box::new(wrapper));
        self
    }

    /// Set the approver that resolves `ask` in [`Harness::execute`].
    pub fn set_approver(&mut self, approver: impl Approver + 'static) -> &mut Harness {
        self.approver = Some(Box::new(approver));
        self
    }

    /// Failures of observers and application-event handlers since the last call (contained:
    /// they never change an outcome).
    pub fn take_failures(&self) -> Vec<HandlerFailure> {
        self.failures
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// A handler's additional contexts as context-only contributions, in order.
pub(super) fn push_contexts(
    contributions: &mut Vec<Contribution>,
    e: &Entry,
    contexts: Vec<String>,
) {
    for text in contexts {
        let mut c = e.contribution(Verdict::Abstain, None);
        c.context = Some(text);
        contributions.push(c);
    }
}

impl Harness {
    /// Set the context object every handler receives from now on (agent-harness seed:
    /// `setContext`); read it with [`HookContext::app`]. Takes `&self`: a shared harness can
    /// change it between runs; a run keeps the context it started with.
    pub fn set_context<T: Any + Send + Sync>(&self, context: T) {
        self.app_context.set(context);
    }

    /// The context of a run under `signal`; `None` for the signal: the enclosing run's
    /// (a nested call inherits it), else a token that is never cancelled.
    pub(super) fn context(&self, signal: Option<&CancellationToken>) -> HookContext {
        HookContext::for_run(signal, self.app_context.get(), || self.snapshot())
    }

    /// The handlers a run under `cx` uses: its snapshot, else the current one.
    pub(super) fn registry_for(&self, cx: &HookContext) -> Arc<Registry> {
        cx.registry().cloned().unwrap_or_else(|| self.snapshot())
    }
}
