//! Computing the changes of an install: the profile's policy files against what is on disk
//! and in the manifest, and the seamguard hook entries the agent's settings files lack.
//!
//! In: the [`Layout`], the [`Manifest`] of earlier runs, the profile and the hook command.
//! Out: a [`Plan`] (each file's old and new text, and notes on files left alone; the
//! profile's files from the embedded library, [`profile_files`]), which
//! [`super::backup::apply_change`] writes or [`print_diff`] shows as a unified diff.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use seamguard_engine::Dialect;

use super::json_edit::{Shape, add_json_hooks, json_installed, parse_jsonc};
use super::layout::{COPILOT_HOOKS_FILE, Layout, disp, events, read_text};
use super::manifest::{Manifest, sha256};
use super::options::Profile;
use super::toml_edit::{
    self, codex_hooks_disabled, enable_codex_hooks, parse_toml, toml_installed,
};
use crate::library;

/// What kind of file a change touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A policy file of the profile.
    Policy,
    /// An agent's settings or config file.
    Config,
}

impl Kind {
    /// The name stored in the manifest.
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Policy => "policy",
            Kind::Config => "config",
        }
    }
}

/// One planned file change.
pub(super) struct Change {
    /// The file.
    pub(super) path: PathBuf,
    /// Its current text; `None` when it does not exist.
    pub(super) old: Option<String>,
    /// Its new text; `None` to remove it.
    pub(super) new: Option<String>,
    /// What kind of file it is.
    pub(super) kind: Kind,
    /// What the change does, for the report.
    pub(super) what: String,
}

/// Every change of an install, and notes on the files left alone.
#[derive(Default)]
pub(super) struct Plan {
    /// The changes, in the order they are applied.
    pub(super) changes: Vec<Change>,
    /// Lines for the report about files left alone.
    pub(super) notes: Vec<String>,
}

/// Plan the profile's policy files: write new ones, replace unedited ones of an earlier
/// profile, keep edited ones (unless `force`), remove the ones the profile no longer has.
pub(super) fn plan_policies(
    layout: &Layout,
    manifest: &Manifest,
    profile: Profile,
    force: bool,
    plan: &mut Plan,
) -> Result<(), String> {
    let files = profile_files(profile)?;
    let mut wanted = BTreeSet::new();
    for (name, text) in files {
        let path = layout.policy_dir.join(&name);
        wanted.insert(path.clone());
        let old = read_text(&path)?;
        match &old {
            None => plan.changes.push(Change {
                path,
                old: None,
                new: Some(text),
                kind: Kind::Policy,
                what: "written".into(),
            }),
            Some(cur) if *cur == text => plan.notes.push(format!("unchanged {}", disp(&path))),
            Some(cur) => {
                let ours = manifest
                    .entry(layout, &path)
                    .is_some_and(|e| e.sha256 == sha256(cur.as_bytes()));
                if ours || force {
                    plan.changes.push(Change {
                        path,
                        old,
                        new: Some(text),
                        kind: Kind::Policy,
                        what: if ours {
                            format!("replaced (profile {})", profile.name())
                        } else {
                            "overwritten (--force)".into()
                        },
                    });
                } else {
                    plan.notes.push(format!(
                        "kept {}: it differs from the {} profile's file (edited?); \
                         --force overwrites it",
                        disp(&path),
                        profile.name()
                    ));
                }
            }
        }
    }
    // Files an earlier run wrote for another profile (e.g. strict-*.toml when going back to
    // balanced or observe): removed when nobody edited them.
    for e in manifest
        .files
        .iter()
        .filter(|e| e.kind == Kind::Policy.name())
    {
        let path = layout.load(&e.path);
        if wanted.contains(&path) {
            continue;
        }
        let Some(cur) = read_text(&path)? else {
            continue;
        };
        if e.created && sha256(cur.as_bytes()) == e.sha256 {
            plan.changes.push(Change {
                path,
                old: Some(cur),
                new: None,
                kind: Kind::Policy,
                what: format!("removed (not in the {} profile)", profile.name()),
            });
        } else {
            plan.notes.push(format!(
                "kept {}: not in the {} profile, but edited or not written by init",
                disp(&path),
                profile.name()
            ));
        }
    }
    Ok(())
}

/// Plan the hook entries of the agent's settings (and turn Codex hooks back on).
/// `block_on_failure`: write Claude Code's `onFailure: "block"` on the events that gate a
/// call (see [`super::fail_closed`]); ignored for the other hosts (Cursor always gets
/// `failClosed: true` on its gating events; Codex, Gemini CLI and Copilot CLI have no such
/// setting).
///
/// Where each host's hooks go (HOSTS.md §1): Gemini CLI `.gemini/settings.json` (user:
/// `~/.gemini/settings.json`), Cursor `.cursor/hooks.json` (`~/.cursor/hooks.json`), Copilot
/// CLI its own `seamguard.json` in `.github/hooks/` (`$COPILOT_HOME/hooks/`, default
/// `~/.copilot/hooks/`).
pub(super) fn plan_agent(
    layout: &Layout,
    dialect: Dialect,
    command: &str,
    block_on_failure: bool,
    plan: &mut Plan,
) -> Result<(), String> {
    let events = events(dialect);
    let none = BTreeSet::new();
    match dialect {
        Dialect::GeminiCli => {
            let settings = layout.gemini_dir()?.join("settings.json");
            let shape = Shape::Grouped {
                block_on_failure: false,
                jsonc: true,
            };
            plan_json_file(&settings, &events, &none, command, shape, plan)?;
            if let Some(text) = read_text(&settings)?
                && let Ok(doc) = parse_jsonc(&settings, &text)
                && doc.pointer("/hooksConfig/enabled") == Some(&Value::Bool(false))
            {
                plan.notes.push(format!(
                    "warning: {} sets hooksConfig.enabled = false: Gemini CLI runs no hooks until that is removed",
                    disp(&settings)
                ));
            }
        }
        Dialect::Cursor => {
            let hooks = layout.cursor_dir()?.join("hooks.json");
            plan_json_file(&hooks, &events, &none, command, Shape::Cursor, plan)?;
        }
        Dialect::CopilotCli => {
            let dir = layout.copilot_hooks_dir()?;
            let own = dir.join(COPILOT_HOOKS_FILE);
            // Copilot CLI reads every `*.json` of the folder: a seamguard handler in another
            // file already covers its events (a second one would judge each call twice).
            let mut covered = BTreeSet::new();
            for other in json_files(&dir).into_iter().filter(|f| *f != own) {
                if let Some(text) = read_text(&other)?
                    && let Ok(doc) = serde_json::from_str::<Value>(&text)
                {
                    covered.extend(json_installed(&doc));
                }
            }
            plan_json_file(&own, &events, &covered, command, Shape::Copilot, plan)?;
        }
        Dialect::ClaudeCode => {
            let dir = layout.claude_dir()?;
            let settings = dir.join("settings.json");
            let mut covered = BTreeSet::new();
            let local = dir.join("settings.local.json");
            if layout.root.is_some()
                && let Some(text) = read_text(&local)?
                && let Ok(doc) = serde_json::from_str::<Value>(&text)
            {
                covered = json_installed(&doc);
            }
            let shape = Shape::Grouped {
                block_on_failure,
                jsonc: false,
            };
            plan_json_file(&settings, &events, &covered, command, shape, plan)?;
        }
        Dialect::Codex => {
            let dir = layout.codex_dir()?;
            let config = dir.join("config.toml");
            let config_text = read_text(&config)?;
            let mut covered = BTreeSet::new();
            if let Some(text) = &config_text {
                let mut doc = parse_toml(&config, text)?;
                covered = toml_installed(&doc);
                let changed = enable_codex_hooks(&mut doc);
                if !changed.is_empty() {
                    plan.changes.push(Change {
                        path: config.clone(),
                        old: Some(text.clone()),
                        new: Some(doc.to_string()),
                        kind: Kind::Config,
                        what: format!("hooks turned on ({} = true)", changed.join(", ")),
                    });
                }
            }
            let shape = Shape::Grouped {
                block_on_failure: false,
                jsonc: false,
            };
            plan_json_file(
                &dir.join("hooks.json"),
                &events,
                &covered,
                command,
                shape,
                plan,
            )?;
            if layout.root.is_some()
                && layout.home().is_ok()
                && let Ok(user_dir) = layout.user_codex_dir()
            {
                let user_config = user_dir.join("config.toml");
                let off = codex_hooks_disabled(&user_config);
                if !off.is_empty() {
                    plan.notes.push(format!(
                        "warning: {} sets {} = false: Codex runs no hooks until that is removed",
                        disp(&user_config),
                        off.join(", ")
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The `*.json` files of a folder, sorted; none when it cannot be read.
pub(crate) fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    out.sort();
    out
}

/// Plan the seamguard handlers a hooks JSON file of `shape` lacks.
fn plan_json_file(
    path: &Path,
    events: &[&str],
    covered: &BTreeSet<String>,
    command: &str,
    shape: Shape,
    plan: &mut Plan,
) -> Result<(), String> {
    let old = read_text(path)?;
    match add_json_hooks(path, old.as_deref(), events, covered, command, shape)? {
        None => plan
            .notes
            .push(format!("{}: already installed", disp(path))),
        Some((new, added)) => plan.changes.push(Change {
            path: path.to_path_buf(),
            old,
            new: Some(new),
            kind: Kind::Config,
            what: format!(
                "added `{command}` for {} event(s): {}",
                added.len(),
                added.join(", ")
            ),
        }),
    }
    Ok(())
}

/// Print the unified diff of a change.
pub(super) fn print_diff(c: &Change) {
    let old = c.old.as_deref().unwrap_or("");
    let new = c.new.as_deref().unwrap_or("");
    let a = if c.old.is_some() {
        format!("a/{}", disp(&c.path))
    } else {
        "/dev/null".into()
    };
    let b = if c.new.is_some() {
        format!("b/{}", disp(&c.path))
    } else {
        "/dev/null".into()
    };
    let diff = similar::TextDiff::from_lines(old, new);
    say_raw!(
        "{}",
        diff.unified_diff()
            .context_radius(3)
            .header(&a, &b)
            .missing_newline_hint(true)
    );
}

// ---------------------------------------------------------------------------------------------
// The profile

/// The profile's files: destination name and content.
pub(super) fn profile_files(profile: Profile) -> Result<Vec<(String, String)>, String> {
    let header = |source: &str| {
        format!(
            "# Written by `seamguard init` {} (profile {}) from policies/{source}; \
             edit freely: later runs keep an edited file.\n",
            env!("CARGO_PKG_VERSION"),
            profile.name(),
        )
    };
    let mut out = Vec::new();
    for f in library::BALANCED {
        let body = if profile == Profile::Observe {
            toml_edit::observe(f)?
        } else {
            f.text.to_string()
        };
        out.push((f.name.to_string(), header(f.name) + &body));
    }
    if profile == Profile::Strict {
        for f in library::STRICT {
            out.push((
                format!("strict-{}", f.name),
                header(&format!("strict/{}", f.name)) + f.text,
            ));
        }
    }
    Ok(out)
}
