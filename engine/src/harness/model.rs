//! The harness's types that refer to one another, without their behaviour: the context a
//! handler gets ([`HookContext`], which carries a snapshot of the [`Registry`]), the registry
//! and its entries, the stored handlers ([`Stored`], [`Dyn`]) whose signatures take that
//! context, and the type-erased application-event slots the registry keeps.
//!
//! In: the event types handlers see ([`ToolCall`], [`SeamEvent`], …) and the seams' decision
//! types. Out: the type definitions; their `impl` blocks live in `context`, `handler`,
//! `registry` and `app_event`, which import this module (and it none of them).

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{BoxFuture, CallId, Injected, SeamEvent, ToolCall, ToolExecution, ToolOutput};
use crate::decision::{
    ContinuationDecision, GuardDeny, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptDecision,
};
use crate::policy::Source;

// -- context ------------------------------------------------------------------------------

/// What a handler gets besides its event: the run's cancellation signal and the
/// application's context object.
#[derive(Clone)]
pub struct HookContext {
    pub(super) signal: CancellationToken,
    pub(super) app: Option<AppValue>,
    pub(super) parent: Option<CallId>,
    /// The deferred contexts of the call whose tool is running.
    pub(super) deferred: Option<Deferred>,
    /// The handlers of the run: the snapshot taken when it started (registrations made
    /// meanwhile do not change a run under way).
    pub(super) registry: Option<Arc<Registry>>,
}

/// Contexts deferred by a running tool and its nested calls.
pub(super) type Deferred = Arc<std::sync::Mutex<Vec<Injected>>>;

/// The application's context object and the name of its type.
#[derive(Clone)]
pub(super) struct AppValue {
    pub(super) value: Arc<dyn Any + Send + Sync>,
    pub(super) type_name: &'static str,
}

// -- handlers -----------------------------------------------------------------------------

/// A handler's error (its `Err` text or panic message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerError(pub String);

/// What a handler returned: at once (sync fn) or later (async fn).
pub enum Reply<'a, T> {
    /// A sync handler's value.
    Ready(Result<T, HandlerError>),
    /// An async handler's future.
    Pending(BoxFuture<'a, Result<T, HandlerError>>),
}

/// A stored handler: `#[hook]` fns and closures registered with
/// [`Harness::on`](super::Harness::on) alike, each called with the run's [`HookContext`].
pub(super) type Dyn<I, O> =
    std::sync::Arc<dyn for<'a> Fn(&'a I, &'a HookContext) -> Reply<'a, O> + Send + Sync>;

/// A registered handler of one kind (what [`HandlerFn`](super::HandlerFn) and `on` closures become).
#[derive(Clone)]
pub(super) enum Stored {
    PreTool(Dyn<ToolCall, Option<PreToolDecision>>),
    Guard(Dyn<ToolCall, Option<GuardDeny>>),
    Permission(Dyn<ToolCall, Option<PermissionDecision>>),
    PostTool(Dyn<ToolOutput, Option<PostToolDecision>>),
    Prompt(Dyn<SeamEvent, Option<PromptDecision>>),
    Context(Dyn<SeamEvent, Option<String>>),
    Continuation(Dyn<SeamEvent, Option<ContinuationDecision>>),
    Observe(Dyn<SeamEvent, ()>),
    ToolResult(Dyn<ToolExecution, ()>),
}

// -- registry -----------------------------------------------------------------------------

/// Identity of one registration (for [`Harness::unregister`](super::Harness::unregister)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegistrationId(pub(super) u64);

/// A cleanup given at registration time.
pub type Cleanup = Box<dyn FnOnce() -> Result<(), String> + Send>;

/// Every handler of a harness at one moment; immutable once published (a change builds the
/// next one, `Registrations::update`).
#[derive(Clone)]
pub(super) struct Registry {
    /// Hooks per seam (by [`Seam::index`](crate::seam::Seam::index)).
    pub(super) hooks: Vec<Vec<Arc<Entry>>>,
    pub(super) guards: Vec<Arc<Entry>>,
    pub(super) observers: Vec<Arc<Entry>>,
    /// Application-event handlers per event type.
    pub(super) events: HashMap<TypeId, EventSlot>,
    /// Names of every live registration (unique across all registration paths).
    pub(super) names: HashSet<String>,
}

/// One live handler registration.
pub(super) struct Entry {
    pub(super) id: RegistrationId,
    pub(super) rule: String,
    /// `module (file:line)`, or the `source` given to [`Harness::on`](super::Harness::on).
    pub(super) provenance: String,
    pub(super) source: Source,
    pub(super) matcher: SubjectMatcher,
    pub(super) handler: Stored,
}

/// A handler's matcher on the seam's subject (tool name, source, …).
pub(super) enum SubjectMatcher {
    All,
    Exact(Vec<String>),
    Regex(regex::Regex),
}

// -- application events -------------------------------------------------------------------

/// The handlers of one event type, type-erased (`Vec<EventHandler<E>>`, shared by the
/// snapshots that have it), with the fns that add and remove one (each builds a new list).
#[derive(Clone)]
pub(super) struct EventSlot {
    pub(super) list: Arc<dyn Any + Send + Sync>,
    pub(super) remove: fn(&(dyn Any + Send + Sync), RegistrationId) -> Option<(List, String)>,
}

pub(super) type List = Arc<dyn Any + Send + Sync>;
