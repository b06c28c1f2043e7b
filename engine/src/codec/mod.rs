//! Dialect codecs: an [`Outcome`](crate::decision::Outcome) encoded as the host expects it on stdout + exit code, and a
//! command hook's stdout / stderr / exit code decoded as the host would read it (`decode`).
//!
//! In: an [`Outcome`](crate::decision::Outcome) and a dialect. Out: [`Encoded`] stdout, stderr and exit code. The
//! host-specific mappings live here, not in the evaluator (e.g. how Codex is answered for an
//! `ask` it cannot express, from the asking policies' `codex_ask`).
//!
//! **Encoding is the narrowest valid form** (DESIGN.md §2, HOOKS.md Part G): nothing on stdout
//! when seamguard has no opinion; exactly the fields the host accepts for the event; exit 0
//! with JSON (never exit 2, whose meaning differs per event and host). For Codex, whose
//! output schema rejects unknown keys and whose rejection fails open (HOOKS.md B3), seamguard
//! never emits `ask`, `defer`, `allow` without `updatedInput`, an empty reason, or a key the
//! event does not accept. Diagnostics go to stderr (Claude Code: debug log; Codex: ignored
//! on exit 0) and, where the host shows it, `systemMessage`.
//!
//! The stages, in the order a hook call meets them:
//! - `event`: the typed payloads of every Claude Code / Codex event ([`event::HookEvent`]),
//!   decoded from the host's JSON and re-encoded to the same value;
//! - `hosts`: a Gemini CLI, Cursor or Copilot CLI payload normalized to the common payload
//!   ([`normalize`]), and those hosts' answers;
//! - `encode`: an [`Outcome`](crate::decision::Outcome) answered as Claude Code or Codex expect ([`encode`]), every
//!   dialect routed from [`encode`] / [`encode_for`];
//! - `output`: the [`Encoded`] bytes and the cap on the texts in them;
//! - `decode`: a command hook's output read back as the host would read it.

pub(crate) mod decode;
mod encode;
pub mod event;
pub(crate) mod hosts;
mod output;

pub use decode::{HookResponse, decode_hook_output};
pub use encode::{encode, encode_for};
pub use hosts::{HOST_EVENT_KEY, judged_host_events, normalize};
pub use output::Encoded;
