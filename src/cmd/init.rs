//! `seamguard init`: the flags of [`crate::init`].

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::HookDialectArg;
use crate::init::{self, Profile};

/// Write a policy profile into .seamguard/ and hook seamguard into an agent.
///
/// Adds `seamguard-hook` entries (the small client: a resident server started on first use;
/// `seamguard hook` with --no-server) to .claude/settings.json (Codex: .codex/hooks.json; Gemini
/// CLI: .gemini/settings.json; Cursor: .cursor/hooks.json; Copilot CLI:
/// .github/hooks/seamguard.json), keeping every other byte; backs up each modified file;
/// `--undo` puts everything back.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Agent to hook into: claude-code, codex, gemini-cli, cursor or copilot-cli (default:
    /// codex when only a .codex/ folder exists, else claude-code).
    #[arg(long, value_enum)]
    agent: Option<HookDialectArg>,
    /// Policy profile: balanced, strict (balanced + stricter rules) or observe (balanced,
    /// recorded in the audit log but deciding nothing).
    #[arg(long, value_enum, default_value = "balanced")]
    profile: Profile,
    /// Install for the user ($XDG_CONFIG_HOME/seamguard/, ~/.claude, ~/.codex, ~/.gemini,
    /// ~/.cursor, ~/.copilot/hooks) instead of the project.
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// Print the unified diff of every change and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Take back what init did: settings files restored, or only init's hooks taken out of one
    /// edited since; the policy files removed (unless edited since).
    #[arg(long)]
    undo: bool,
    /// Overwrite policy files that differ from the profile's (init), or remove policy files
    /// edited since init wrote them (--undo; edits of settings files are always kept).
    #[arg(long)]
    force: bool,
    /// Project folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Hook with `seamguard hook` (every call judged in a new process) instead of the small
    /// client `seamguard-hook`, which starts a resident server on first use.
    #[arg(long)]
    no_server: bool,
}

/// Install (or undo) with [`crate::init::run`].
pub(super) fn run(a: Args) -> ExitCode {
    init::run(&init::Options {
        agent: a.agent.map(Into::into),
        profile: a.profile,
        user: a.user,
        dry_run: a.dry_run,
        undo: a.undo,
        force: a.force,
        project: a.project,
        server: !a.no_server,
    })
}
