//! Where things go: the folders of a project or user install, the agent's settings files, the
//! hook command and the events it is registered for.
//!
//! In: [`Options`] (scope, agent flag, profile). Out: absolute paths and manifest paths. Also
//! the helpers every step uses to read a file, write one in place ([`write_atomic`]) and name
//! a path or a position in a message.

use std::path::{Path, PathBuf};

use seamguard_engine::{Dialect, Seam};

use super::options::Options;
use crate::discover::{env_path, user_dir};

/// Name of the manifest in the policy folder.
pub(super) const MANIFEST: &str = ".init-manifest.json";

/// The folders of one install: project (or user) scope.
pub(super) struct Layout {
    /// Project root; `None` for `--user`.
    pub(super) root: Option<PathBuf>,
    /// Folder of the policy files and the manifest.
    pub(super) policy_dir: PathBuf,
    /// `$HOME`, for the user-level agent files.
    home: Option<PathBuf>,
}

/// `p`, joined to the current directory when relative.
fn absolute(p: &Path) -> Result<PathBuf, String> {
    if p.is_absolute() {
        return Ok(p.to_path_buf());
    }
    std::env::current_dir()
        .map(|c| c.join(p))
        .map_err(|e| format!("cannot read the current directory: {e}"))
}

impl Layout {
    /// The folders of the scope `opts` asks for.
    pub(super) fn new(opts: &Options) -> Result<Layout, String> {
        let home = env_path("HOME");
        if opts.user {
            let policy_dir =
                user_dir().ok_or("neither XDG_CONFIG_HOME nor HOME is set: no user folder")?;
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

    /// `$HOME`; an error when it is not set.
    pub(super) fn home(&self) -> Result<&Path, String> {
        self.home
            .as_deref()
            .ok_or_else(|| "HOME is not set: cannot find the agent's user settings".to_string())
    }

    /// Codex's folder of this scope: `<project>/.codex`, or the user's.
    pub(super) fn codex_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".codex")),
            None => self.user_codex_dir(),
        }
    }

    /// Codex's user folder: `$CODEX_HOME`, else `~/.codex`.
    pub(super) fn user_codex_dir(&self) -> Result<PathBuf, String> {
        match env_path("CODEX_HOME") {
            Some(c) => Ok(c),
            None => Ok(self.home()?.join(".codex")),
        }
    }

    /// Claude Code's folder of this scope: `<project>/.claude` or `~/.claude`.
    pub(super) fn claude_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".claude")),
            None => Ok(self.home()?.join(".claude")),
        }
    }

    /// Gemini CLI's folder of this scope: `<project>/.gemini` or `~/.gemini` (HOSTS.md §1:
    /// hooks live in `settings.json` there).
    pub(super) fn gemini_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".gemini")),
            None => Ok(self.home()?.join(".gemini")),
        }
    }

    /// Cursor's folder of this scope: `<project>/.cursor` or `~/.cursor` (HOSTS.md §1: hooks
    /// live in `hooks.json` there).
    pub(super) fn cursor_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".cursor")),
            None => Ok(self.home()?.join(".cursor")),
        }
    }

    /// Copilot CLI's hooks folder of this scope: `<project>/.github/hooks`, or the user's
    /// ([`user_copilot_hooks_dir`]). Every `*.json` file in it is a hooks file (HOSTS.md §1).
    pub(super) fn copilot_hooks_dir(&self) -> Result<PathBuf, String> {
        match &self.root {
            Some(r) => Ok(r.join(".github").join("hooks")),
            None => user_copilot_hooks_dir(self.home.as_deref()).ok_or_else(|| {
                "neither COPILOT_HOME nor HOME is set: cannot find Copilot CLI's hooks folder"
                    .to_string()
            }),
        }
    }

    /// The manifest of this install.
    pub(super) fn manifest_path(&self) -> PathBuf {
        self.policy_dir.join(MANIFEST)
    }

    /// The agent to hook into: the flag, else Codex when only `.codex/` exists.
    pub(super) fn agent(&self, flag: Option<Dialect>) -> Dialect {
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
    pub(super) fn store(&self, p: &Path) -> String {
        match self.root.as_deref().and_then(|r| p.strip_prefix(r).ok()) {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => p.to_string_lossy().into_owned(),
        }
    }

    /// A stored path back to an absolute path.
    pub(super) fn load(&self, s: &str) -> PathBuf {
        let p = PathBuf::from(s);
        match &self.root {
            Some(r) if p.is_relative() => r.join(p),
            _ => p,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The hook command

/// `seamguard` when the first `seamguard` on `PATH` is this binary, else its absolute path.
pub(super) fn program() -> String {
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

/// The absolute path of the small client `seamguard-hook` beside this binary (shell-quoted
/// when it needs it), `None` when there is none.
pub(super) fn client_program() -> Option<String> {
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    let client = exe.parent()?.join("seamguard-hook");
    is_executable(&client).then(|| shell_quote(&client.to_string_lossy()))
}

/// Whether `p` is a file this user may run.
#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `p` is a file this user may run.
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

/// Copilot CLI's user hooks folder: `$COPILOT_HOME/hooks`, else `~/.copilot/hooks`.
pub(crate) fn user_copilot_hooks_dir(home: Option<&Path>) -> Option<PathBuf> {
    env_path("COPILOT_HOME")
        .or_else(|| home.map(|h| h.join(".copilot")))
        .map(|d| d.join("hooks"))
}

/// The file seamguard's Copilot CLI hooks go in: its own file in the hooks folder (Copilot
/// CLI reads every `*.json` there), so no file of the user's is edited.
pub(super) const COPILOT_HOOKS_FILE: &str = "seamguard.json";

/// The events that get a handler: every event with a seam in the dialect (Claude Code,
/// Codex), or every host event seamguard judges (Gemini CLI, Cursor, Copilot CLI).
pub(super) fn events(dialect: Dialect) -> Vec<&'static str> {
    match dialect {
        Dialect::ClaudeCode | Dialect::Codex => Seam::ALL
            .into_iter()
            .filter(|s| dialect == Dialect::ClaudeCode || s.in_codex())
            .map(Seam::event_name)
            .collect(),
        Dialect::GeminiCli | Dialect::Cursor | Dialect::CopilotCli => {
            seamguard_engine::codec::judged_host_events(dialect)
                .iter()
                .map(|(host, _)| *host)
                .collect()
        }
    }
}

/// The events whose handler gates a tool call: a failing hook there decides whether the call
/// runs (Cursor's `failClosed` goes on these).
pub(crate) fn gating_events(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::ClaudeCode => &["PreToolUse", "PermissionRequest"],
        Dialect::Codex => &["PreToolUse"],
        Dialect::GeminiCli => &["BeforeTool"],
        Dialect::Cursor => &[
            "preToolUse",
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
        ],
        Dialect::CopilotCli => &["preToolUse"],
    }
}

// ---------------------------------------------------------------------------------------------
// Reading files, naming paths and positions

/// A path for messages: relative to the current directory when inside it.
pub(super) fn disp(p: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir()
        && let Ok(rel) = p.strip_prefix(&cwd)
        && !rel.as_os_str().is_empty()
    {
        return rel.display().to_string();
    }
    p.display().to_string()
}

/// An I/O error for messages: the path, then the error.
pub(super) fn io_err(path: &Path, e: &std::io::Error) -> String {
    format!("{}: {e}", disp(path))
}

/// A file's bytes; `None` when it does not exist.
pub(super) fn read_if_exists(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// A file's text; `None` when it does not exist.
pub(super) fn read_text(path: &Path) -> Result<Option<String>, String> {
    read_if_exists(path)
        .map_err(|e| io_err(path, &e))?
        .map(|bytes| {
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", disp(path)))
        })
        .transpose()
}

/// Byte offset → 1-based line and column.
pub(super) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The file a write goes to: the target of a symlink (dotfile managers link settings files).
pub(super) fn real_path(path: &Path) -> PathBuf {
    if path.is_symlink() {
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    }
}

/// Write through a temporary file and a rename, keeping the old file's permissions.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
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

    #[test]
    fn host_events_are_the_host_names_seamguard_judges() {
        assert_eq!(
            events(Dialect::GeminiCli),
            [
                "BeforeTool",
                "AfterTool",
                "BeforeAgent",
                "AfterAgent",
                "SessionStart",
                "SessionEnd",
                "Notification",
                "PreCompress"
            ]
        );
        assert_eq!(
            events(Dialect::Cursor),
            [
                "preToolUse",
                "beforeShellExecution",
                "beforeMCPExecution",
                "beforeReadFile",
                "postToolUse",
                "beforeSubmitPrompt",
                "stop",
                "sessionStart",
                "sessionEnd"
            ]
        );
        assert_eq!(
            events(Dialect::CopilotCli),
            [
                "preToolUse",
                "postToolUse",
                "userPromptSubmitted",
                "sessionStart",
                "sessionEnd"
            ]
        );
        for d in [Dialect::GeminiCli, Dialect::Cursor, Dialect::CopilotCli] {
            assert!(
                gating_events(d).iter().all(|g| events(d).contains(g)),
                "{d}"
            );
        }
    }
}
