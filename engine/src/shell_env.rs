//! The shell environment path tests and lenses resolve against: the project root and the
//! home folder.
//!
//! In: the process environment (`CLAUDE_PROJECT_DIR`, `HOME`) or values a caller sets. Out:
//! a [`ShellEnv`], one input of every evaluation beside the payload and the session memory.

/// Where `project` and `home` are for path-aware tests.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellEnv {
    /// Project root (`CLAUDE_PROJECT_DIR`); `None` means "the payload's `cwd`".
    pub project: Option<String>,
    /// Home folder (`$HOME`).
    pub home: String,
}

impl ShellEnv {
    /// From the process environment: `CLAUDE_PROJECT_DIR` and `HOME`.
    pub fn from_process() -> ShellEnv {
        ShellEnv {
            project: std::env::var("CLAUDE_PROJECT_DIR")
                .ok()
                .filter(|p| !p.is_empty()),
            home: std::env::var("HOME").unwrap_or_else(|_| "/root".to_string()),
        }
    }
}
