//! `seamguard init`: write a policy profile and hook seamguard into Claude Code or Codex.
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
//!
//! Settings files are edited through a concrete syntax tree: every byte outside the added
//! entries stays as it was. A second run finds the entries (any handler command containing
//! `seamguard hook`) and changes nothing. Before a file is first modified it is copied to
//! `<file>.seamguard-backup` (never overwritten later), and every write is recorded in
//! `.init-manifest.json` in the policy folder, which `--undo` reads to restore the backups
//! byte for byte and remove what `init` created — files edited since are kept (and named)
//! unless `--force`. `--dry-run` prints the unified diff of every change and writes nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use seamguard_engine::{Dialect, Seam};

use crate::library::{self, PolicyFile};

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

/// The marker that identifies a seamguard handler in a hooks configuration.
const MARKER: &str = "seamguard hook";
/// Suffix of the backup copy of a modified file.
const BACKUP_SUFFIX: &str = ".seamguard-backup";
/// Name of the manifest in the policy folder.
const MANIFEST: &str = ".init-manifest.json";

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
    fn name(self) -> &'static str {
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
}

/// Entry point of `seamguard init`.
pub(crate) fn run(opts: &Options) -> ExitCode {
    let result = if opts.undo { undo(opts) } else { install(opts) };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("seamguard init: {e}");
            ExitCode::from(1)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Where things go

/// The folders of one install: project (or user) scope.
struct Layout {
    /// Project root; `None` for `--user`.
    root: Option<PathBuf>,
    /// Folder of the policy files and the manifest.
    policy_dir: PathBuf,
    /// `$HOME`, for the user-level agent files.
    home: Option<PathBuf>,
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn absolute(p: &Path) -> Result<PathBuf, String> {
    if p.is_absolute() {
        return Ok(p.to_path_buf());
    }
    std::env::current_dir()
        .map(|c| c.join(p))
        .map_err(|e| format!("cannot read the current directory: {e}"))
}

impl Layout {
    fn new(opts: &Options) -> Result<Layout, String> {
        let home = env_path("HOME");
        if opts.user {
            let policy_dir = crate::discover::user_dir()
                .ok_or("neither XDG_CONFIG_HOME nor HOME is set: no user folder")?;
            return Ok(Layout {
                root: None,
                policy_dir,
                home,
            });
        }
        let root = absolute(opts.project.as_deref().unwrap_or(Path::new(".")))?;
        if !root.is_dir() {
            return Err(format!("{}: not a folder", root.display()));
        }
        Ok(Layout {
            policy_dir: root.join(".seamguard"),
            root: Some(root),
            home,
        })
    }

    fn home(&self) -> Result<&Path, String> {
        self.home
            .as_deref()
            .ok_or_else(|| "HOME is not set: cannot find the agent's user settings".to_string())
    }

    /// Codex's folder of this scope: `<project>/.codex`, or `$CODEX_HOME` / `~/.codex`.
    fn codex_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".codex")),
            None => match env_path("CODEX_HOME") {
                Some(c) => Ok(c),
                None => Ok(self.home()?.join(".codex")),
            },
        }
    }

    /// Claude Code's folder of this scope: `<project>/.claude` or `~/.claude`.
    fn claude_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".claude")),
            None => Ok(self.home()?.join(".claude")),
        }
    }

    fn manifest_path(&self) -> PathBuf {
        self.policy_dir.join(MANIFEST)
    }

    /// The agent to hook into: the flag, else Codex when only `.codex/` exists.
    fn agent(&self, flag: Option<Dialect>) -> Dialect {
        if let Some(d) = flag {
            return d;
        }
        let codex = self.codex_dir().is_ok_and(|d| d.is_dir());
        let claude = self.claude_dir().is_ok_and(|d| d.is_dir());
        if codex && !claude {
            Dialect::Codex
        } else {
            Dialect::ClaudeCode
        }
    }

    /// A path as stored in the manifest: relative to the project root when inside it.
    fn store(&self, p: &Path) -> String {
        match self.root.as_deref().and_then(|r| p.strip_prefix(r).ok()) {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => p.to_string_lossy().into_owned(),
        }
    }

    /// A stored path back to an absolute path.
    fn load(&self, s: &str) -> PathBuf {
        let p = PathBuf::from(s);
        match &self.root {
            Some(r) if p.is_relative() => r.join(p),
            _ => p,
        }
    }
}

/// A path for messages: relative to the current directory when inside it.
fn disp(p: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir()
        && let Ok(rel) = p.strip_prefix(&cwd)
        && !rel.as_os_str().is_empty()
    {
        return rel.display().to_string();
    }
    p.display().to_string()
}

// ---------------------------------------------------------------------------------------------
// The hook command

/// `seamguard` when the first `seamguard` on `PATH` is this binary, else its absolute path.
fn program() -> String {
    let Some(exe) = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
    else {
        return "seamguard".into();
    };
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("seamguard"))
            .find(|c| is_executable(c))
    });
    if on_path
        .and_then(|p| p.canonicalize().ok())
        .is_some_and(|p| p == exe)
    {
        "seamguard".into()
    } else {
        shell_quote(&exe.to_string_lossy())
    }
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// Quote a word for `sh -c` / `$SHELL -lc` when it needs it.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The events that get a handler: every event with a seam in the dialect.
fn events(dialect: Dialect) -> Vec<&'static str> {
    Seam::ALL
        .into_iter()
        .filter(|s| dialect == Dialect::ClaudeCode || s.in_codex())
        .map(Seam::event_name)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Manifest

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    /// Manifest format.
    format: u32,
    /// seamguard version of the last run.
    seamguard: String,
    /// Profile of the last run.
    profile: String,
    /// Every file an `init` wrote.
    files: Vec<Entry>,
    /// Folders an `init` created (removed by `--undo` when empty).
    #[serde(default)]
    dirs: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    /// The file (relative to the project root, or absolute).
    path: String,
    /// `policy` or `config`.
    kind: String,
    /// The file did not exist before `init` (undo removes it instead of restoring).
    created: bool,
    /// The copy of the file as it was before the first modification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    backup: Option<String>,
    /// SHA-256 of what `init` last wrote (an edit since then is detected).
    sha256: String,
}

fn sha256(text: &[u8]) -> String {
    Sha256::digest(text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read_manifest(path: &Path) -> Result<Option<Manifest>, String> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}: unreadable manifest: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

impl Manifest {
    fn entry(&self, layout: &Layout, path: &Path) -> Option<&Entry> {
        self.files.iter().find(|e| layout.load(&e.path) == path)
    }
}

// ---------------------------------------------------------------------------------------------
// Planning

/// What kind of file a change touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Policy,
    Config,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Policy => "policy",
            Kind::Config => "config",
        }
    }
}

/// One planned file change.
struct Change {
    /// The file.
    path: PathBuf,
    /// Its current text; `None` when it does not exist.
    old: Option<String>,
    /// Its new text; `None` to remove it.
    new: Option<String>,
    kind: Kind,
    /// What the change does, for the report.
    what: String,
}

#[derive(Default)]
struct Plan {
    changes: Vec<Change>,
    /// Lines for the report about files left alone.
    notes: Vec<String>,
}

fn read_text(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| format!("{}: not UTF-8 text", disp(path))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", disp(path))),
    }
}

/// The profile's files: destination name and content.
fn profile_files(profile: Profile) -> Result<Vec<(String, String)>, String> {
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
            observe(f)?
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

/// A library file with `mode = "observe"` in its `[policy]` table (format-preserving).
fn observe(f: &PolicyFile) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = f
        .text
        .parse()
        .map_err(|e| format!("embedded policy {}: {e}", f.name))?;
    let policy = doc
        .entry("policy")
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let Some(table) = policy.as_table_like_mut() else {
        return Err(format!(
            "embedded policy {}: `policy` is not a table",
            f.name
        ));
    };
    table.insert("mode", toml_edit::value("observe"));
    Ok(doc.to_string())
}

fn plan_policies(
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
    for e in manifest.files.iter().filter(|e| e.kind == "policy") {
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

/// Byte offset → 1-based line and column.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parse a settings / hooks JSON file strictly (what the hosts accept), with `file:line:col`.
fn parse_json(path: &Path, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg
            .rsplit_once(" at line ")
            .map_or(msg.as_str(), |(m, _)| m)
            .to_string();
        format!(
            "{}:{}:{}: not valid JSON: {msg}; nothing was written",
            disp(path),
            e.line(),
            e.column()
        )
    })
}

/// Every `command` string under a JSON value.
fn json_commands(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == "command" => out.push(s.clone()),
                    _ => json_commands(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| json_commands(x, out)),
        _ => {}
    }
}

/// Events of a parsed hooks document that already have a seamguard handler.
fn json_installed(doc: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(hooks) = doc.get("hooks").and_then(Value::as_object) {
        for (event, groups) in hooks {
            let mut cmds = Vec::new();
            json_commands(groups, &mut cmds);
            if cmds.iter().any(|c| c.contains(MARKER)) {
                out.insert(event.clone());
            }
        }
    }
    out
}

/// Check the shape the edit relies on; a clear error instead of a silent rewrite.
fn check_shape(path: &Path, doc: &Value) -> Result<(), String> {
    let Some(root) = doc.as_object() else {
        return Err(format!(
            "{}: the top level is not a JSON object; nothing was written",
            disp(path)
        ));
    };
    let Some(hooks) = root.get("hooks") else {
        return Ok(());
    };
    let Some(hooks) = hooks.as_object() else {
        return Err(format!(
            "{}: `hooks` is not an object; nothing was written",
            disp(path)
        ));
    };
    for (event, groups) in hooks {
        if !groups.is_array() {
            return Err(format!(
                "{}: `hooks.{event}` is not an array; nothing was written",
                disp(path)
            ));
        }
    }
    Ok(())
}

/// The matcher-less group with one command handler.
fn group(command: &str) -> CstInputValue {
    CstInputValue::Object(vec![(
        "hooks".into(),
        CstInputValue::Array(vec![CstInputValue::Object(vec![
            ("type".into(), CstInputValue::String("command".into())),
            ("command".into(), CstInputValue::String(command.into())),
        ])]),
    )])
}

/// Add a seamguard group for each missing event to a settings / hooks JSON text.
///
/// Returns the new text and the events added; `None` when every event is covered.
fn add_json_hooks(
    path: &Path,
    old: Option<&str>,
    events: &[&str],
    covered: &BTreeSet<String>,
    command: &str,
) -> Result<Option<(String, Vec<String>)>, String> {
    let base = match old {
        Some(t) if !t.trim().is_empty() => t.to_string(),
        _ => "{}\n".to_string(),
    };
    let doc = parse_json(path, &base)?;
    check_shape(path, &doc)?;
    let mut have = json_installed(&doc);
    have.extend(covered.iter().cloned());
    let missing: Vec<String> = events
        .iter()
        .filter(|e| !have.contains(**e))
        .map(|e| e.to_string())
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let root = CstRootNode::parse(&base, &ParseOptions::default()).map_err(|e| {
        let (l, c) = line_col(&base, e.range().start);
        format!("{}:{l}:{c}: {}; nothing was written", disp(path), e.kind())
    })?;
    let obj = root.object_value().ok_or_else(|| {
        format!(
            "{}: the top level is not a JSON object; nothing was written",
            disp(path)
        )
    })?;
    let hooks = obj
        .object_value_or_create("hooks")
        .ok_or_else(|| format!("{}: `hooks` is not an object", disp(path)))?;
    for event in &missing {
        let arr = hooks
            .array_value_or_create(event)
            .ok_or_else(|| format!("{}: `hooks.{event}` is not an array", disp(path)))?;
        arr.append(group(command));
    }
    let mut text = root.to_string();
    if old.is_none_or(|t| t.trim().is_empty()) && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(Some((text, missing)))
}

/// Parse a Codex `config.toml` with `file:line:col` errors.
fn parse_toml(path: &Path, text: &str) -> Result<toml_edit::DocumentMut, String> {
    text.parse::<toml_edit::DocumentMut>().map_err(|e| {
        let (l, c) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        format!(
            "{}:{l}:{c}: not valid TOML: {}; nothing was written",
            disp(path),
            e.message()
        )
    })
}

/// Every `command` string under a TOML item.
fn toml_commands(item: &toml_edit::Item, out: &mut Vec<String>) {
    fn value(v: &toml_edit::Value, out: &mut Vec<String>) {
        match v {
            toml_edit::Value::Array(a) => a.iter().for_each(|x| value(x, out)),
            toml_edit::Value::InlineTable(t) => {
                for (k, x) in t.iter() {
                    match x.as_str() {
                        Some(s) if k == "command" => out.push(s.to_string()),
                        _ => value(x, out),
                    }
                }
            }
            _ => {}
        }
    }
    match item {
        toml_edit::Item::Table(t) => {
            for (k, x) in t.iter() {
                match x.as_str() {
                    Some(s) if k == "command" => out.push(s.to_string()),
                    _ => toml_commands(x, out),
                }
            }
        }
        toml_edit::Item::ArrayOfTables(a) => {
            for t in a.iter() {
                for (k, x) in t.iter() {
                    match x.as_str() {
                        Some(s) if k == "command" => out.push(s.to_string()),
                        _ => toml_commands(x, out),
                    }
                }
            }
        }
        toml_edit::Item::Value(v) => value(v, out),
        toml_edit::Item::None => {}
    }
}

/// Events with a seamguard handler in the `[hooks]` tables of a Codex `config.toml`.
fn toml_installed(doc: &toml_edit::DocumentMut) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(hooks) = doc.get("hooks").and_then(toml_edit::Item::as_table_like) {
        for (event, item) in hooks.iter() {
            let mut cmds = Vec::new();
            toml_commands(item, &mut cmds);
            if cmds.iter().any(|c| c.contains(MARKER)) {
                out.insert(event.to_string());
            }
        }
    }
    out
}

/// Turn `[features] hooks = false` / `codex_hooks = false` into `true`; the keys changed.
fn enable_codex_hooks(doc: &mut toml_edit::DocumentMut) -> Vec<String> {
    let mut changed = Vec::new();
    let Some(features) = doc
        .get_mut("features")
        .and_then(toml_edit::Item::as_table_like_mut)
    else {
        return changed;
    };
    for key in ["hooks", "codex_hooks"] {
        if let Some(v) = features
            .get_mut(key)
            .and_then(toml_edit::Item::as_value_mut)
            && v.as_bool() == Some(false)
        {
            let decor = v.decor().clone();
            *v = toml_edit::Value::from(true);
            *v.decor_mut() = decor;
            changed.push(format!("features.{key}"));
        }
    }
    changed
}

/// Keys of a Codex `config.toml` that turn hooks off (for a warning).
fn codex_hooks_disabled(path: &Path) -> Vec<String> {
    let Ok(Some(text)) = read_text(path) else {
        return Vec::new();
    };
    let Ok(mut doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    enable_codex_hooks(&mut doc)
}

fn plan_agent(
    layout: &Layout,
    dialect: Dialect,
    command: &str,
    plan: &mut Plan,
) -> Result<(), String> {
    let events = events(dialect);
    match dialect {
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
            plan_json_file(&settings, &events, &covered, command, plan)?;
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
            plan_json_file(&dir.join("hooks.json"), &events, &covered, command, plan)?;
            if layout.root.is_some()
                && let Ok(home) = layout.home()
            {
                let user_config = env_path("CODEX_HOME")
                    .unwrap_or_else(|| home.join(".codex"))
                    .join("config.toml");
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

fn plan_json_file(
    path: &Path,
    events: &[&str],
    covered: &BTreeSet<String>,
    command: &str,
    plan: &mut Plan,
) -> Result<(), String> {
    let old = read_text(path)?;
    match add_json_hooks(path, old.as_deref(), events, covered, command)? {
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

// ---------------------------------------------------------------------------------------------
// Applying

fn io_err(path: &Path, e: &std::io::Error) -> String {
    format!("{}: {e}", disp(path))
}

/// The file a write goes to: the target of a symlink (dotfile managers link settings files).
fn real_path(path: &Path) -> PathBuf {
    if path.is_symlink() {
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    }
}

/// Write through a temporary file and a rename, keeping the old file's permissions.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let path = real_path(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.seamguard-tmp"));
    std::fs::write(&tmp, bytes).map_err(|e| io_err(&tmp, &e))?;
    if let Ok(meta) = std::fs::metadata(&path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(&path, &e)
    })
}

/// A backup name not taken yet: `<file>.seamguard-backup`, else `…-backup.2`, ….
fn free_backup(path: &Path) -> PathBuf {
    let base = format!("{}{BACKUP_SUFFIX}", path.display());
    let mut candidate = PathBuf::from(&base);
    let mut n = 2;
    while candidate.exists() || candidate.is_symlink() {
        candidate = PathBuf::from(format!("{base}.{n}"));
        n += 1;
    }
    candidate
}

/// Create `dir` and its missing parents, recording the ones created.
fn create_dirs(layout: &Layout, dir: &Path, manifest: &mut Manifest) -> Result<(), String> {
    let mut missing = Vec::new();
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.exists() {
            break;
        }
        missing.push(d.to_path_buf());
        cur = d.parent();
    }
    for d in missing.iter().rev() {
        std::fs::create_dir(d).map_err(|e| io_err(d, &e))?;
        let s = layout.store(d);
        if !manifest.dirs.contains(&s) {
            manifest.dirs.push(s);
        }
    }
    Ok(())
}

fn apply_change(layout: &Layout, c: &Change, manifest: &mut Manifest) -> Result<String, String> {
    let stored = layout.store(&c.path);
    let idx = manifest
        .files
        .iter()
        .position(|e| layout.load(&e.path) == c.path);
    let Some(new) = &c.new else {
        std::fs::remove_file(&c.path).map_err(|e| io_err(&c.path, &e))?;
        if let Some(i) = idx {
            manifest.files.remove(i);
        }
        return Ok(format!("{}: {}", disp(&c.path), c.what));
    };
    let mut backup_note = String::new();
    match idx {
        Some(i) => {
            // Known file: its backup (or its creation) is recorded already.
            if let Some(e) = manifest.files.get_mut(i) {
                e.sha256 = sha256(new.as_bytes());
            }
        }
        None => {
            let mut entry = Entry {
                path: stored,
                kind: c.kind.name().into(),
                created: c.old.is_none(),
                backup: None,
                sha256: sha256(new.as_bytes()),
            };
            if c.old.is_some() {
                let backup = free_backup(&c.path);
                std::fs::copy(real_path(&c.path), &backup).map_err(|e| io_err(&backup, &e))?;
                backup_note = format!(" (backup: {})", disp(&backup));
                entry.backup = Some(layout.store(&backup));
            }
            manifest.files.push(entry);
        }
    }
    if let Some(parent) = c.path.parent() {
        create_dirs(layout, parent, manifest)?;
    }
    write_atomic(&c.path, new.as_bytes())?;
    Ok(format!("{}: {}{backup_note}", disp(&c.path), c.what))
}

fn write_manifest(layout: &Layout, manifest: &Manifest) -> Result<(), String> {
    let path = layout.manifest_path();
    if manifest.files.is_empty() && manifest.dirs.is_empty() {
        return match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err(&path, &e)),
        };
    }
    let text =
        serde_json::to_string_pretty(manifest).map_err(|e| format!("{}: {e}", disp(&path)))? + "\n";
    write_atomic(&path, text.as_bytes())
}

fn print_diff(c: &Change) {
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

fn install(opts: &Options) -> Result<ExitCode, String> {
    let layout = Layout::new(opts)?;
    let dialect = layout.agent(opts.agent);
    let manifest_path = layout.manifest_path();
    let mut manifest = read_manifest(&manifest_path)?.unwrap_or_default();
    let command = format!("{} hook --dialect {}", program(), dialect.name());

    let mut plan = Plan::default();
    plan_policies(&layout, &manifest, opts.profile, opts.force, &mut plan)?;
    plan_agent(&layout, dialect, &command, &mut plan)?;

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
        match apply_change(&layout, c, &mut manifest) {
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
        if let Err(e) = create_dirs(&layout, &layout.policy_dir, &mut manifest)
            .and_then(|()| write_manifest(&layout, &manifest))
        {
            eprintln!("seamguard init: {e}");
            failed = true;
        }
    }
    if plan.changes.is_empty() {
        say!("already installed: nothing to do");
    }
    if !command.starts_with("seamguard ") && layout.root.is_some() {
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
    if failed {
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

// ---------------------------------------------------------------------------------------------
// Undo

fn undo(opts: &Options) -> Result<ExitCode, String> {
    let layout = Layout::new(opts)?;
    let path = layout.manifest_path();
    let Some(mut manifest) = read_manifest(&path)? else {
        return Err(format!(
            "nothing to undo: no {} (it records what `seamguard init` did)",
            disp(&path)
        ));
    };
    say!(
        "seamguard init --undo{}",
        if opts.dry_run { " (dry run)" } else { "" }
    );
    let mut kept = Vec::new();
    let mut failed = false;
    for e in std::mem::take(&mut manifest.files) {
        let file = layout.load(&e.path);
        let cur = std::fs::read(&file).ok();
        let unchanged = cur.as_deref().is_some_and(|c| sha256(c) == e.sha256);
        let result = match (&e.backup, unchanged || opts.force) {
            (backup, false) if cur.is_none() => {
                say!(
                    "  {} is gone already{}",
                    disp(&file),
                    backup
                        .as_ref()
                        .map(|b| format!("; its original is in {}", disp(&layout.load(b))))
                        .unwrap_or_default()
                );
                Ok(())
            }
            (_, false) => {
                say!(
                    "  kept {}: changed since init wrote it{}; --force to undo anyway",
                    disp(&file),
                    e.backup
                        .as_ref()
                        .map(|b| format!(" (the original is in {})", disp(&layout.load(b))))
                        .unwrap_or_default()
                );
                kept.push(e);
                continue;
            }
            (Some(b), true) => {
                let backup = layout.load(b);
                restore(&backup, &file, opts.dry_run)
            }
            (None, true) => {
                if opts.dry_run {
                    say!("  would remove {}", disp(&file));
                    Ok(())
                } else {
                    std::fs::remove_file(&file)
                        .map(|()| say!("  removed {}", disp(&file)))
                        .map_err(|err| io_err(&file, &err))
                }
            }
        };
        if let Err(err) = result {
            eprintln!("seamguard init: {err}");
            failed = true;
            kept.push(e);
        }
    }
    manifest.files = kept;
    if opts.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    // Created folders, deepest first, when empty (the manifest itself goes first).
    let dirs = std::mem::take(&mut manifest.dirs);
    if manifest.files.is_empty() {
        let _ = std::fs::remove_file(&path);
    }
    let mut left = Vec::new();
    for d in dirs.iter().rev() {
        let dir = layout.load(d);
        let empty = std::fs::read_dir(&dir).is_ok_and(|mut r| r.next().is_none());
        if empty && std::fs::remove_dir(&dir).is_ok() {
            continue;
        }
        if dir.exists() {
            left.push(d.clone());
        }
    }
    left.reverse();
    manifest.dirs = left;
    if !manifest.files.is_empty() {
        write_manifest(&layout, &manifest)?;
    }
    if failed {
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

/// Put a backup back byte for byte and drop the backup.
fn restore(backup: &Path, file: &Path, dry_run: bool) -> Result<(), String> {
    let bytes = std::fs::read(backup).map_err(|e| io_err(backup, &e))?;
    if dry_run {
        say!("  would restore {} from {}", disp(file), disp(backup));
        return Ok(());
    }
    write_atomic(file, &bytes)?;
    std::fs::remove_file(backup).map_err(|e| io_err(backup, &e))?;
    say!("  restored {} from {}", disp(file), disp(backup));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("/usr/bin/seamguard"), "/usr/bin/seamguard");
        assert_eq!(shell_quote("/a b/seamguard"), "'/a b/seamguard'");
        assert_eq!(shell_quote("/it's/x"), r"'/it'\''s/x'");
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("x", 0), (1, 1));
    }

    #[test]
    fn codex_events_leave_out_claude_only_ones() {
        let c = events(Dialect::Codex);
        assert!(!c.contains(&"Notification") && !c.contains(&"PostToolUseFailure"));
        assert_eq!(events(Dialect::ClaudeCode).len(), Seam::ALL.len());
    }
}
