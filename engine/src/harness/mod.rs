//! The embedding API: policy tables and Rust handlers in one [`Harness`], one async method
//! per seam, and the five-phase tool pipeline (interception-seams seed; DESIGN.md §4).
//!
//! ```text
//!  ToolCall (sealed: id, name, input frozen before any policy runs)
//!    │
//!    ├─ 1. pre-tool waterfall   tables' [[rule]]s, then #[hook(seam = "pre-tool")] handlers:
//!    │                          allow / deny / ask / defer (no argument rewrite: the call is sealed)
//!    ├─ 2. guards               tables' [[guard]]s, then #[guard] handlers: Option<GuardDeny>,
//!    │                          nothing can allow, so no later allow resurrects a deny
//!    │      (deny, defer, a rejected ask, a halt, or a failed handler skip dispatch)
//!    ├─ 3. around-dispatch      Wrapper layers (Timeout, Retry, Metrics, …) around the tool;
//!    │                          a tool error or panic is normalized before wrappers see it
//!    ├─ 4. post-tool transform  tables' post-tool rules, then handlers (waterfall: each sees the
//!    │                          current, possibly redacted, content); block / redact / contexts;
//!    │                          content a handler changed is judged by the tables again
//!    ├─ 5. final content        Tool::finalize_content: once, on every outcome (also failures)
//!    └─ observers               #[hook(seam = "tool-result")]: an immutable snapshot; their panics
//!                               are contained and cannot change the returned ToolExecution
//! ```
//!
//! Merging is [`merge`](crate::merge) (most-restrictive), so a TOML rule and a Rust
//! handler combine into one [`Outcome`](crate::Outcome). Contributions are ordered
//! tables' hooks, handler hooks, tables' guards, handler guards; the verdict does not depend
//! on that order.
//!
//! ## Order of evaluation: guards see the final value
//!
//! At every seam the tables run first, then the Rust handlers in registration order. Where
//! a handler can rewrite what the tables judged — the prompt at `prompt-submit`, the tool
//! result's presentation at `post-tool` (a `Redact`, or a `ReplaceValue` whose value is
//! presented again) — the tables judge the final value once more and only what restricts is
//! kept: their blocks join the merge (most-restrictive, so nothing a handler did lowers
//! them), and their replacements and redactions apply to the final value, so a handler
//! cannot undo a table's redaction. The re-check runs no command hooks and does not apply a
//! prompt prepend or append twice. At `pre-tool` nothing is re-checked: the call is sealed,
//! so no handler rewrites it, and guards (tables', then Rust `#[guard]`s) run after every
//! hook. `ReplaceValue` keeps its value as given: a redaction changes what the model sees,
//! not the canonical value a program reads.
//!
//! Every failure — a handler that panics or returns `Err`, a tool that fails or panics, a
//! wrapper that panics, a timeout — becomes an error [`ToolResult`] (`is_error: true`) with an
//! [`ExecError`] saying what failed; nothing escapes [`Harness::execute`].
//!
//! A halt (a policy's `halt`, Claude Code's `continue: false`) asks the agent to stop:
//! [`Evaluated::halt`] and [`ToolExecution::halt`] carry it with its rule; a pre-tool halt
//! stops dispatch whatever the decision ([`ExecError::Halted`]), and a [`Batch`] runs no
//! call after one that halted ([`BatchOutcome::halt`]).
//!
//! Cancellation has one rule ([`Harness::with_signal`]): what it cuts off — a Rust handler,
//! a command hook, the handlers not yet called — is not a failure, the seam's
//! [`Evaluated::is_cancelled`] says the evaluation is incomplete, `pre-tool` and
//! `permission-request` deny ([`CANCELLED_RULE`], fail closed), and a tool call ends with
//! [`ExecError::Cancelled`].
//!
//! Contexts from post-tool decisions and from [`Injector::inject`] enter the batch's FIFO and
//! are appended after every result of the batch ([`Batch::settle`]; seed: "three load-bearing
//! decisions", 2).
//!
//! Registrations carry provenance (module path, file, line) and an optional cleanup that runs
//! once on [`Harness::unregister`] / [`Registration::unregister`] or [`Harness::dispose`], in
//! reverse registration order, with errors collected (agent-harness seed, "Cleanup
//! semantics").
//!
//! Handlers are written with the `seamguard-macros` attributes (`#[hook]`, `#[guard]`) and
//! registered with [`hooks!`](crate::hooks), or registered as closures with
//! [`Harness::on`]`(at::…, closure, RegistrationOptions)` (sync, must not block) or
//! [`Harness::on_async`] (a closure returning a future, awaited, dropped on cancellation) —
//! one store, names unique on every path. Handlers receive a [`HookContext`]: the run's
//! [`CancellationToken`] ([`Harness::with_signal`]) and the application context
//! ([`Harness::set_context`]). Application events ([`Harness::emit`]) await their async
//! handlers too: reducers are `async fn`s.
//!
//! A harness is `Send + Sync`: share it as `Arc<Harness>` across tasks; a tool can dispatch
//! nested calls through it (they name their parent call, and their contexts are deferred to
//! it, [`HookContext::defer_context`]). Registering and unregistering take `&self`: the
//! handlers are an immutable snapshot swapped whole on every change, and each run (a seam
//! method, a tool call, an emission) keeps the snapshot it started with, so an extension
//! can be loaded or unloaded while calls are in flight. [`Harness::on`] returns a
//! [`Registration`] handle; unregistering is explicit ([`Registration::unregister`]),
//! dropping the handle keeps the handler.
//!
//! Policies loaded at run time ([`PolicyTable::load_file`], `load_str`, `load_dir`) are a
//! `Result` ([`PolicyLoadError`], every error with its `file:line:column`). A table with a
//! policy that failed to load — the `Err` given to [`Harness::add_table`] as it is, or a
//! table built from the fail-partial loaders — denies every `pre-tool` call and
//! `permission-request` with the first error as the reason (fail closed).
//!
//! [`Harness::new`] changes no global state; [`Harness::quiet_contained_panics`] opts in to
//! a panic hook that keeps contained panics from being printed.
//!
//! Turns ([`Harness::submit_prompt`], [`Harness::end_turn`]): the turn opens before prompt
//! policy; a blocked prompt is a rejected zero-step turn with a `prompt/blocked` record.
//! Command hooks of policy tables (`run` rules) run through the engine's command-hook runner;
//! inside an open turn each writes a `hook/invoked` + `hook/result` pair
//! ([`Harness::records`], checked by [`check_records`]).
//! A detached command hook (`run = { …, async = true }`) is started and not awaited: it takes
//! no part in the decision and writes no records; [`Harness::shutdown`] waits until none is
//! running (quiescence) and reports how each ended.
//!
//! ## What comes in, what goes out
//!
//! In: policy tables ([`PolicyTable`], `policy!`), Rust handlers ([`HookDescriptor`]s from
//! `#[hook]` / `#[guard]`, collected by [`hooks!`](crate::hooks)), application events
//! ([`Event`], `#[derive(Event)]`), tools ([`Tool`]), around-dispatch [`Wrapper`]s and an
//! [`Approver`]; then, per evaluation, a sealed [`ToolCall`], or the seam method's own event
//! type ([`PromptEvent`], [`StartEvent`], [`StopEvent`], [`NoticeEvent`]: an event of
//! another seam does not compile) or a raw [`SeamEvent`] (checked at run time).
//!
//! Out: typed decisions with the merged [`Outcome`](crate::Outcome) behind them
//! ([`Evaluated`]), the immutable record of a tool call ([`ToolExecution`]), a settled batch
//! ([`BatchOutcome`]), an application event's reduced result, and contained failures
//! ([`HandlerFailure`]).
//!
//! ## Layout
//!
//! * `model`: the types that refer to one another ([`HookContext`], the registry and its
//!   entries, stored handlers, [`Reply`], application-event slots), definitions only; their
//!   `impl`s live in `context`, `handler`, `registry` and `app_event`, which import `model`;
//! * `table`: policy tables and how the harness evaluates them; `recheck`: the tables
//!   judging a value handlers rewrote;
//! * `event`: what handlers see ([`ToolCall`], [`SeamEvent`], [`ToolOutput`],
//!   [`ToolExecution`]) and the normalized [`ToolResult`] / [`ExecError`]; `call_builder`:
//!   [`ToolCall::builder`];
//! * `handler`: typed handlers ([`HandlerFn`], [`Reply`], [`IntoReply`]) and their
//!   [`HookDescriptor`]s;
//! * `registry`: registration, unregistration and cleanups;
//! * `contain`: panic containment of handlers, tools, wrappers and cleanups;
//! * `tool`, `wrap` (one folder per wrapper: `timeout`, `retry`, `metrics`) and `approval`:
//!   phase 3, around-dispatch;
//! * `app_event`: application events and their reducers (the seed's base reducers);
//! * `on`: the one registration API and its targets ([`at`]); `context`: [`HookContext`];
//! * `seams`: the public seam methods and [`Signalled`] (the same under a token);
//! * `typed`: typed payloads of a [`SeamEvent`]; `seam_events`: one event type per seam
//!   method ([`PromptEvent`], [`StartEvent`], [`StopEvent`], [`NoticeEvent`]), so an event
//!   of another seam does not compile; `turn`: turns and [`check_records`];
//! * `commands`: command hooks of policy tables; `records`: the record log;
//! * `run`: the [`Harness`] and [`Evaluated`]; `evaluate`: one method per seam (phases 1–2
//!   and 4); `pipeline`: [`Harness::execute`] (the five phases); `batch`: [`Batch`] and its
//!   context FIFO.

mod app_event;
mod approval;
mod batch;
mod call_builder;
mod commands;
mod contain;
mod context;
mod emit;
mod evaluate;
mod event;
mod handler;
mod model;
mod on;
mod pipeline;
mod recheck;
mod records;
mod register;
mod registry;
mod run;
mod seam_events;
mod seams;
mod state;
mod table;
mod tool;
mod turn;
mod typed;
mod types;
mod wrap;

#[doc(hidden)]
#[path = "macro_support.rs"]
pub mod __private;

pub use app_event::{
    Blocking, Cancelling, Event, EventHandler, Reducer, RegistrationOptions, Transform, collect,
    first_block_stops, first_cancel_or_last, first_result, notify_all, sequential_transform,
};
pub use approval::{Approval, Approver};
pub use batch::{Batch, BatchOutcome, Injector, TranscriptEntry};
pub use call_builder::ToolCallBuilder;
pub use context::ContextError;
pub use event::{
    CallId, ExecError, HandlerFailure, Injected, SeamEvent, ToolCall, ToolExecution, ToolOutput,
    ToolResult,
};
pub use handler::{AsyncClosure, Closure, Handler};
pub use handler::{HandlerFn, HookDescriptor, IntoReply, Provenance, Registered};
pub use model::{Cleanup, HandlerError, HookContext, RegistrationId, Reply};
#[doc(hidden)]
pub use on::Reg;
pub use on::{Target, at};
pub use registry::{CleanupError, CleanupErrors, RegisterError, Registration};
pub use run::{Evaluated, Harness};
pub use seam_events::{NoticeEvent, PromptEvent, SeamInput, StartEvent, StopEvent, takes};
pub use seams::Signalled;
pub use state::TurnId;
pub use table::{PolicyLoadError, PolicyTable, TableRef};
/// The cancellation token of a run ([`Harness::with_signal`]), re-exported from `tokio-util`.
pub use tokio_util::sync::CancellationToken;
pub use tool::{FnTool, Tool, ToolError, tool_fn};
pub use turn::{Submitted, Turn, TurnEnd, check_records};
pub use typed::{EventError, SessionStartSource};
pub use types::{BoxFuture, CANCELLED_RULE};
pub use wrap::{Metrics, Next, Retry, Timeout, Wrapper};
