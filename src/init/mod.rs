//! `seamguard init`: write a policy profile and hook seamguard into Claude Code, Codex, Gemini
//! CLI, Cursor or GitHub Copilot CLI.
//!
//! What it writes (DESIGN.md §5, HOOKS.md A1/A2 and B1/B2):
//!
//! * **Policies** — the chosen profile from the embedded library ([`crate::library`]) into
//!   `<project>/.seamguard/` (or the user folder `$XDG_CONFIG_HOME/seamguard/` with `--user`).
//!   `balanced` is every `policies/*.toml`; `strict` adds `policies/strict/*.toml` as
//!   `strict-<name>.toml` (discovery is not recursive); `observe` is the balanced files with
//!   `mode = "observe"` in their `[policy]` table. Each file starts with a comment line naming
//!   the seamguard version and profile. A file that exists with other content is kept (the
//!   user edited it) unless `--force`; a file an earlier `init` wrote and nobody edited is
//!   replaced when the profile changes, and removed when the new profile no longer has it.
//! * **Claude Code** — one matcher-less group `{"hooks":[{"type":"command","command":
//!   "seamguard hook --dialect claude-code"}]}` for every event that has a seam
//!   ([`Seam::ALL`]) in `<project>/.claude/settings.json` (`~/.claude/settings.json` with
//!   `--user`). A project install uses the shared `settings.json`, not
//!   `settings.local.json`: the policies go to `.seamguard/`, which is meant to be committed
//!   with the project, and the hooks that enforce them belong in the file that is committed
//!   with them (HOOKS.md A1: "Project (shared) … meant to be committed"); the local file is
//!   personal and git-ignored, so a guard there would protect one checkout only, and the
//!   teammates who get `.seamguard/` would get policies that never run. Hook entries are
//!   concatenated across every settings level, so the user's own hooks keep running. (When
//!   `seamguard` is not on `PATH` the command is an absolute path, which only works on this
//!   machine; `init` says so.) An existing seamguard entry in `settings.local.json` counts as
//!   installed, so the hook never runs twice.
//! * **Codex** — the same groups (for the events Codex has: [`Seam::in_codex`]) in
//!   `<project>/.codex/hooks.json` (`$CODEX_HOME/hooks.json`, default `~/.codex/`, with
//!   `--user`), the hooks file HOOKS.md B1 names for each config layer. Hooks are on by default
//!   since Codex 0.124; when the same layer's `config.toml` turns them off
//!   (`[features] hooks = false`, or the deprecated `codex_hooks = false`), that value is set
//!   to `true` with a format-preserving edit. Codex does not deduplicate handlers, so an
//!   event that already has a seamguard handler in the layer's `config.toml` `[hooks]` tables
//!   is left alone.
//! * **Gemini CLI, Cursor, Copilot CLI** (HOSTS.md §1) — one handler running `seamguard hook
//!   --dialect <host>` for every host event seamguard judges
//!   ([`seamguard_engine::codec::judged_host_events`]). Gemini CLI: matcher-less groups
//!   (`{"hooks":[{"type":"command","command":…}]}`, Claude Code's shape) in
//!   `<project>/.gemini/settings.json` (`~/.gemini/settings.json` with `--user`); a failed
//!   hook only warns there, which `init` says. Cursor: flat entries `{"command":…}` in
//!   `<project>/.cursor/hooks.json` (`~/.cursor/hooks.json`), with `"version": 1` added when
//!   missing and `"failClosed": true` on the entries of the events that gate a call
//!   (`preToolUse`, `beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile`), since
//!   Cursor fails open without it. Copilot CLI: entries `{"type":"command","bash":…}` of the
//!   camelCase events in seamguard's own `seamguard.json` in `<project>/.github/hooks/`
//!   (`$COPILOT_HOME/hooks/`, default `~/.copilot/hooks/`, with `--user`): Copilot reads
//!   every `*.json` of that folder, so no file of the user's is edited, and an event another
//!   file of the folder already hooks with seamguard is left out.
//!
//! * **The command** — by default the small client by its absolute path
//!   (`/…/seamguard-hook --dialect <host>`: it starts a resident server on the first call and
//!   asks it from then on; docs/serve.md), so a host whose `PATH` lacks the binaries still runs
//!   it; with `--no-server`, `seamguard hook --dialect <host>` (`seamguard` when the first one
//!   on `PATH` is this binary). Either form counts as an installed seamguard handler.
//!
//! Settings files are edited through a concrete syntax tree: every byte outside the added
//! entries stays as it was. A second run finds the entries (any handler command containing
//! `seamguard hook`) and changes nothing. Before a file is first modified it is copied to
//! `<file>.seamguard-backup` (never overwritten later), and every write is recorded in
//! `.init-manifest.json` in the policy folder, which `--undo` reads to restore the backups
//! byte for byte and remove what `init` created. A settings file edited since keeps the edits
//! and loses exactly what `init` added ([`unhook`]); one that cannot be read keeps the policy
//! files with it (exit 1). Policy files edited since are kept (and named) unless `--force`. `--dry-run` prints the unified diff of every change and writes nothing.
//!
//! # In and out
//!
//! In: [`Options`] from `seamguard init` (agent, profile, scope, `--dry-run`, `--undo`,
//! `--force`). Out: the policy files, the edited settings files, their backups and the
//! manifest on disk; one report line per file on stdout, errors on stderr, exit 1 on failure.
//!
//! The steps, one module each: [`options`] holds what an install is asked to do, [`layout`]
//! says where every file goes, [`plan`] computes the changes (with [`json_edit`] and
//! [`toml_edit`] for the agent's settings), [`backup`] applies them or undoes them ([`unhook`] for a settings file edited since), [`manifest`] records
//! what was written.

use std::process::ExitCode;

use seamguard_engine::Dialect;

use crate::report::exit_code;

/// `println!` that ignores a closed stdout (`seamguard init --dry-run | head`) instead of
/// panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` counterpart of [`say!`].
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod backup;
mod fail_closed;
mod json_edit;
mod layout;
mod manifest;
mod options;
mod plan;
mod toml_edit;
mod unhook;

use layout::{Layout, disp, program};
use manifest::Manifest;
use options::{MARKER, is_handler};
pub(crate) use options::{Options, Profile};
use plan::{Kind, Plan, plan_agent, plan_policies, print_diff};

/// What `seamguard status` reads from an agent's hooks file, with `init`'s own readers.
pub(crate) mod inspect {
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The events of a Claude Code `settings.json`, a Codex `hooks.json` (JSON) or a Codex
    /// `config.toml` (`[hooks]` tables) that have a seamguard handler; `Ok(None)` when the
    /// file does not exist.
    ///
    /// # Errors
    /// The file cannot be read or parsed.
    pub(crate) fn seamguard_events(path: &Path) -> Result<Option<BTreeSet<String>>, String> {
        let Some(text) = super::layout::read_text(path)? else {
            return Ok(None);
        };
        if path.extension().is_some_and(|x| x == "toml") {
            let doc = super::toml_edit::parse_toml(path, &text)?;
            return Ok(Some(super::toml_edit::toml_installed(&doc)));
        }
        let doc: serde_json::Value = match serde_json::from_str(&text) {
            Ok(doc) => doc,
            // Gemini CLI reads its settings with comments allowed.
            Err(_) if is_gemini_settings(path) => super::json_edit::parse_jsonc(path, &text)?,
            Err(e) => return Err(format!("{}: not valid JSON: {e}", path.display())),
        };
        Ok(Some(super::json_edit::json_installed(&doc)))
    }

    /// Whether `path` is a Gemini CLI `settings.json` (in a `.gemini` folder).
    fn is_gemini_settings(path: &Path) -> bool {
        path.parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == ".gemini")
    }

    /// The seamguard handler commands (containing [`MARKER`]) of a hooks file, as
    /// [`seamguard_events`] reads it; empty when it is missing or unreadable.
    pub(crate) fn seamguard_commands(path: &Path) -> Vec<String> {
        let Ok(Some(text)) = super::layout::read_text(path) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if path.extension().is_some_and(|x| x == "toml") {
            if let Ok(doc) = text.parse::<toml_edit::DocumentMut>()
                && let Some(hooks) = doc.get("hooks")
            {
                super::toml_edit::toml_commands(hooks, &mut out);
            }
        } else if let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text).or_else(|_| {
            if is_gemini_settings(path) {
                super::json_edit::parse_jsonc(path, &text)
            } else {
                Err(String::new())
            }
        }) {
            super::json_edit::json_commands(&doc, &mut out);
        }
        out.retain(|c| super::is_handler(c));
        out.dedup();
        out
    }

    /// Whether every seamguard handler of the gating events of a Claude Code settings text
    /// carries `onFailure: "block"` (and there is one).
    pub(crate) fn blocks_on_failure(settings_text: &str) -> bool {
        super::fail_closed::settings_block_on_failure(settings_text, super::MARKER)
    }

    /// Whether every seamguard entry of Cursor's gating events in a `hooks.json` text
    /// carries `"failClosed": true` (and there is one).
    pub(crate) fn cursor_fails_closed(hooks_text: &str) -> bool {
        super::fail_closed::cursor_fails_closed(hooks_text, super::MARKER)
    }

    /// `hooksConfig.enabled` when a Gemini CLI `settings.json` sets it to false (no hook
    /// runs then); empty otherwise.
    pub(crate) fn gemini_hooks_disabled(path: &Path) -> Vec<String> {
        let Ok(Some(text)) = super::layout::read_text(path) else {
            return Vec::new();
        };
        match super::json_edit::parse_jsonc(path, &text) {
            Ok(doc)
                if doc.pointer("/hooksConfig/enabled") == Some(&serde_json::Value::Bool(false)) =>
            {
                vec!["hooksConfig.enabled".to_string()]
            }
            _ => Vec::new(),
        }
    }

    /// The events whose handler gates a tool call in a dialect.
    pub(crate) fn gating_events(dialect: seamguard_engine::Dialect) -> &'static [&'static str] {
        super::layout::gating_events(dialect)
    }

    /// Copilot CLI's user hooks folder (`$COPILOT_HOME/hooks`, else `~/.copilot/hooks`).
    pub(crate) fn user_copilot_hooks_dir(home: Option<&Path>) -> Option<std::path::PathBuf> {
        super::layout::user_copilot_hooks_dir(home)
    }

    /// The `*.json` files of a folder, sorted.
    pub(crate) fn json_files(dir: &Path) -> Vec<std::path::PathBuf> {
        super::plan::json_files(dir)
    }

    /// Keys of a Codex `config.toml` that turn hooks off.
    pub(crate) fn codex_hooks_disabled(path: &Path) -> Vec<String> {
        super::toml_edit::codex_hooks_disabled(path)
    }

    /// The events `init` registers for a dialect.
    pub(crate) fn events(dialect: seamguard_engine::Dialect) -> Vec<&'static str> {
        super::layout::events(dialect)
    }
}

/// Entry point of `seamguard init`.
pub(crate) fn run(opts: &Options) -> ExitCode {
    let result = if opts.undo {
        backup::undo(opts)
    } else {
        install(opts)
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("seamguard init: {e}");
            ExitCode::from(1)
        }
    }
}

/// Plan the install, then print it (`--dry-run`) or apply it and record it.
fn install(opts: &Options) -> Result<ExitCode, String> {
    let layout = Layout::new(opts)?;
    let dialect = layout.agent(opts.agent);
    let manifest_path = layout.manifest_path();
    let mut manifest = Manifest::read(&manifest_path)?.unwrap_or_default();
    let client = if opts.server {
        layout::client_program()
    } else {
        None
    };
    let command = match &client {
        Some(c) => format!("{c} --dialect {}", dialect.name()),
        None => format!("{} hook --dialect {}", program(), dialect.name()),
    };

    let mut plan = Plan::default();
    plan_policies(&layout, &manifest, opts.profile, opts.force, &mut plan)?;
    // Whether a failed hook blocks the call: only Claude Code can be told so, and only a
    // version that knows the key (an unknown key can cost the whole settings file).
    let on_failure = match dialect {
        Dialect::ClaudeCode => fail_closed::probe(layout.home().ok()),
        Dialect::Codex => fail_closed::Verdict {
            write_key: false,
            note: fail_closed::CODEX_NOTE.to_string(),
        },
        Dialect::GeminiCli => fail_closed::Verdict {
            write_key: false,
            note: fail_closed::GEMINI_NOTE.to_string(),
        },
        Dialect::Cursor => fail_closed::Verdict {
            write_key: false,
            note: fail_closed::CURSOR_NOTE.to_string(),
        },
        Dialect::CopilotCli => fail_closed::Verdict {
            write_key: false,
            note: fail_closed::COPILOT_NOTE.to_string(),
        },
    };
    plan_agent(&layout, dialect, &command, on_failure.write_key, &mut plan)?;
    let note = if dialect == Dialect::Cursor {
        // Entries written by hand (or by an older init) may lack `failClosed`.
        let hooks = layout.cursor_dir()?.join("hooks.json");
        let text = match plan.changes.iter().find(|c| c.path == hooks) {
            Some(c) => c.new.clone(),
            None => layout::read_text(&hooks)?,
        };
        if text.is_some_and(|t| fail_closed::cursor_fails_closed(&t, MARKER)) {
            on_failure.note
        } else {
            format!(
                "warning: if the seamguard hook fails (crash, timeout, missing binary), Cursor still runs the call: a seamguard entry of {} has no \"failClosed\": true; add it to the entries of preToolUse, beforeShellExecution, beforeMCPExecution and beforeReadFile",
                disp(&hooks)
            )
        }
    } else if on_failure.write_key {
        // Say what the settings file will hold: handlers written earlier lack the key.
        let settings = layout.claude_dir()?.join("settings.json");
        let text = match plan.changes.iter().find(|c| c.path == settings) {
            Some(c) => c.new.clone(),
            None => layout::read_text(&settings)?,
        };
        if text.is_some_and(|t| fail_closed::settings_block_on_failure(&t, MARKER)) {
            on_failure.note
        } else {
            fail_closed::missing_key_note(&disp(&settings))
        }
    } else {
        on_failure.note
    };
    plan.notes.push(note);

    let scope = match &layout.root {
        Some(r) => format!("project {}", disp(r)),
        None => "user folders".into(),
    };
    say!(
        "seamguard init: profile {}, agent {}, {scope}{}",
        opts.profile.name(),
        dialect.name(),
        if opts.dry_run { " (dry run)" } else { "" }
    );
    if opts.dry_run {
        for c in &plan.changes {
            print_diff(c);
        }
        for c in &plan.changes {
            say!("  would change {}: {}", disp(&c.path), c.what);
        }
        for n in &plan.notes {
            say!("  {n}");
        }
        say!("dry run: nothing was written");
        return Ok(ExitCode::SUCCESS);
    }

    let mut failed = false;
    for c in &plan.changes {
        match backup::apply_change(&layout, c, &mut manifest) {
            Ok(line) => say!("  {line}"),
            Err(e) => {
                eprintln!("seamguard init: {e}");
                failed = true;
                break;
            }
        }
    }
    for n in &plan.notes {
        say!("  {n}");
    }
    if !plan.changes.is_empty() {
        manifest.format = 1;
        manifest.seamguard = env!("CARGO_PKG_VERSION").into();
        manifest.profile = opts.profile.name().into();
        if let Err(e) = backup::create_dirs(&layout, &layout.policy_dir, &mut manifest)
            .and_then(|()| manifest.write(&layout))
        {
            eprintln!("seamguard init: {e}");
            failed = true;
        }
    }
    if plan.changes.is_empty() {
        say!("already installed: nothing to do");
    }
    if client.is_some() {
        say!(
            "note: the hook runs the small client seamguard-hook by its absolute path (a host \
             whose PATH lacks it still runs it); it starts a resident server on the first call \
             and asks it from then on (`--no-server` for `seamguard hook` alone)"
        );
    } else if opts.server {
        say!(
            "note: no seamguard-hook beside this binary, so the hook is `seamguard hook` \
             (every call judged in a new process)"
        );
    }
    if client.is_none() && !command.starts_with("seamguard ") && layout.root.is_some() {
        say!(
            "note: `seamguard` on PATH is not this binary, so the hook command is an absolute \
             path that only works on this machine; `cargo install --path .` and run init again \
             for a command your teammates can share"
        );
    }
    if dialect == Dialect::Codex && plan.changes.iter().any(|c| c.kind == Kind::Config) {
        say!(
            "note: Codex runs a new hook only after you trust it (`/hooks` in the Codex TUI){}",
            if layout.root.is_some() {
                ", and a project's .codex/ hooks only in a trusted project"
            } else {
                ""
            }
        );
    }
    Ok(exit_code(failed))
}
