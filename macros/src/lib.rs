//! # seamguard-macros
//!
//! Compile-time front end of the seamguard embedding API (DESIGN.md §4). Use it through the
//! `seamguard` facade crate, whose `harness` module the generated code names (override with
//! `crate = path` in any of the macros, e.g. `crate = ::seamguard_engine` when only the engine
//! is a dependency).
//!
//! * [`macro@hook`] / [`macro@guard`]: Rust handlers on plain fns (sync or `async`). The seam
//!   name and the matcher regex are checked at compile time (spanned errors, did-you-mean),
//!   the signature against the seam (a guard cannot return a type that allows), and the
//!   handler's provenance is recorded (`module_path!`, `file!`, `line!`). Register them with
//!   an explicit list: `harness.register_all(hooks![a, b])`.
//! * [`macro@Event`]: an application's own event with its decision type and reducer
//!   (agent-harness seed, `HookEvent<TType, TResult>` and the reducer table); an event that
//!   declares a decision but no reducer does not compile.
//! * [`policy!`]: a TOML policy file parsed and validated at compile time by the engine's
//!   own loader; errors are compile errors naming `file:line:column`. Yields a
//!   `&'static PolicyTable` built from generated constructors (no TOML parsing at run time).
//!
//! Layout follows STYLE.md §4: `lib.rs` holds entry points only; `hook.rs`, `event.rs` and
//! `policy.rs` parse, validate and expand; `ir.rs` turns the engine's policy IR into tokens.

mod event;
mod hook;
mod ir;
mod policy;

use proc_macro::TokenStream;

/// A Rust handler at a seam.
///
/// ```ignore
/// #[hook(seam = "pre-tool", tool = "Bash")]
/// fn no_curl(call: &ToolCall) -> Option<PreToolDecision> { /* … */ }
/// ```
///
/// Keys: `seam` (required; a seam name such as `pre-tool`, `post-tool`, `prompt-submit`,
/// `session-start`, `stop`, or `tool-result` for a result observer), `tool` / `matcher`
/// (Claude Code matcher rules: exact names, `A|B`, or an unanchored regex, validated here),
/// `name` (default: the fn name), `cleanup = path::to::fn` (a `fn()` or
/// `fn() -> Result<(), E: Display>` run once on unregister/dispose), `crate = path`.
///
/// The parameter and return type per seam:
///
/// | seam | parameter | returns (or the bare decision, or `Result<_, E>` of either) |
/// |---|---|---|
/// | `pre-tool` | `&ToolCall` | `Option<PreToolDecision>` |
/// | `permission-request` | `&ToolCall` | `Option<PermissionDecision>` |
/// | `post-tool` | `&ToolOutput` | `Option<PostToolDecision>` |
/// | `prompt-submit` | `&SeamEvent` | `Option<PromptDecision>` |
/// | `session-start`, `subagent-start` | `&SeamEvent` | `Option<String>` (a context) |
/// | `stop`, `subagent-stop` | `&SeamEvent` | `Option<ContinuationDecision>` |
/// | `notification`, `session-end`, `pre-compact`, `post-compact`, `post-tool-failure` | `&SeamEvent` | `()` |
/// | `tool-result` (sync only) | `&ToolExecution` | `()` |
///
/// Every seam but `tool-result` also accepts a second parameter, `cx: &HookContext`: the
/// run's context (cancellation signal, application context; agent-harness seed,
/// `handler(event, context, signal)`).
///
/// The fn is left as it is; next to it the macro emits a type of the same name implementing
/// `Registered`, whose `DESCRIPTOR` `hooks![…]` collects.
#[proc_macro_attribute]
pub fn hook(args: TokenStream, item: TokenStream) -> TokenStream {
    hook::expand(args.into(), item.into(), hook::Kind::Hook).into()
}

/// A deny-only guard at `pre-tool`, evaluated after every hook; nothing can override it.
///
/// ```ignore
/// #[guard(tool = "Bash")]
/// fn no_force_push(call: &ToolCall) -> Option<GuardDeny> { /* … */ }
/// ```
///
/// The return type must be `Option<GuardDeny>` (or `GuardDeny`, or a `Result` of either): a
/// type that can allow (`PreToolDecision`, `Verdict`, `bool`, …) is a compile error pointing
/// at it. Keys: `tool` / `matcher`, `name`, `cleanup`, `crate` as for [`macro@hook`].
#[proc_macro_attribute]
pub fn guard(args: TokenStream, item: TokenStream) -> TokenStream {
    hook::expand(args.into(), item.into(), hook::Kind::Guard).into()
}

/// An application event with its decision type and reducer.
///
/// ```ignore
/// #[derive(Event)]
/// #[event(decision = InputResult, reducer = reduce_input)]
/// struct InputEvent { text: String }
///
/// #[derive(Event)]            // observational: no decision, no reducer
/// struct MessageStart { id: u64 }
/// ```
///
/// Keys of `#[event(…)]`: `name = "…"` (default: the type name), `decision = Type`,
/// `reducer = path` (an `async fn(&Self, &[EventHandler<Self>]) -> Option<Decision>`), `crate`.
/// A `decision` without a `reducer` is a compile error.
#[proc_macro_derive(Event, attributes(event))]
pub fn derive_event(input: TokenStream) -> TokenStream {
    event::expand(input.into()).into()
}

/// Compile a policy file, or a folder of them, into a `&'static PolicyTable` at compile time.
///
/// `policy!("policies/secrets.toml")` or `policy!("policies")` (a folder: its `*.toml` files
/// in name order, as `--policy DIR` reads them; a file added later is seen at the next
/// rebuild of the invoking crate). Paths are relative to the crate's `CARGO_MANIFEST_DIR`, else
/// to the invoking source file as `include_str!` does;
/// optionally `, crate = path`). The file is parsed and validated with the engine's loader
/// while compiling; any error diagnostic (TOML syntax, unknown key, invalid regex or glob,
/// an action the seam cannot take, …) is a compile error that names `file:line:column`.
/// The expansion builds the loaded rules from constructors into a `static LazyLock`; each
/// file is tracked with `include_bytes!`, so editing it recompiles.
#[proc_macro]
pub fn policy(input: TokenStream) -> TokenStream {
    policy::expand(input.into()).into()
}
