//! The inputs of an install: the options of `seamguard init`, its policy profiles, and how a
//! seamguard handler is recognized in a hooks configuration.
//!
//! In: the parsed command line (from `cmd/init`) or a hooks file's handler commands. Out:
//! [`Options`], [`Profile`], and whether a handler runs seamguard ([`is_handler`],
//! [`seamguard_events`]). A leaf: every other step of `init` reads it, it reads none of them.

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::ValueEnum;
use seamguard_engine::Dialect;

/// The marker that identifies a seamguard handler in a hooks configuration.
pub(super) const MARKER: &str = "seamguard hook";

/// The marker of a handler running the small client (`…/seamguard-hook --dialect …`).
pub(super) const CLIENT_MARKER: &str = "seamguard-hook";

/// Whether a handler command runs seamguard: `seamguard hook` or the small client.
pub(super) fn is_handler(command: &str) -> bool {
    command.contains(MARKER) || command.contains(CLIENT_MARKER)
}

/// A policy profile of the embedded library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Profile {
    /// Every `policies/*.toml`.
    Balanced,
    /// Balanced plus `policies/strict/*.toml`.
    Strict,
    /// The balanced files in observe mode: evaluated and audited, deciding nothing.
    Observe,
}

impl Profile {
    /// The profile's name in messages and the manifest.
    pub(super) fn name(self) -> &'static str {
        match self {
            Profile::Balanced => "balanced",
            Profile::Strict => "strict",
            Profile::Observe => "observe",
        }
    }
}

/// Options of `seamguard init`.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// Host to hook into; guessed from the `.claude/` / `.codex/` folders when `None`.
    pub(crate) agent: Option<Dialect>,
    /// Policy profile.
    pub(crate) profile: Profile,
    /// Install into the user's folders instead of a project.
    pub(crate) user: bool,
    /// Print the diff of every change, write nothing.
    pub(crate) dry_run: bool,
    /// Undo what earlier runs recorded in the manifest.
    pub(crate) undo: bool,
    /// Overwrite edited policy files (init) / restore edited files (undo).
    pub(crate) force: bool,
    /// Project folder (default: the current directory).
    pub(crate) project: Option<PathBuf>,
    /// Hook with the small client `seamguard-hook` (a resident server started on first use),
    /// not `seamguard hook` (`--no-server`).
    pub(crate) server: bool,
}

/// The events whose handler commands include a seamguard one (see [`MARKER`]).
pub(super) fn seamguard_events<'a>(
    commands: impl IntoIterator<Item = (&'a str, Vec<String>)>,
) -> BTreeSet<String> {
    commands
        .into_iter()
        .filter(|(_, cmds)| cmds.iter().any(|c| is_handler(c)))
        .map(|(event, _)| event.to_string())
        .collect()
}
