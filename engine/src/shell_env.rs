//! The shell environment path tests and lenses resolve against: the project root, the home
//! folder and seamguard's own files.
//!
//! In: the process environment (`CLAUDE_PROJECT_DIR`, `HOME`) or values a caller sets. Out:
//! a [`ShellEnv`], one input of every evaluation beside the payload and the session memory.

/// Where `project`, `home` and `seamguard` are for path-aware tests.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellEnv {
    /// Project root (`CLAUDE_PROJECT_DIR`); `None` means "the payload's `cwd`".
    pub project: Option<String>,
    /// Home folder (`$HOME`).
    pub home: String,
    /// seamguard's own files and folders, absolute (the running binary, the policies it
    /// loaded, its state folder): what the path keyword `seamguard` names. Empty: only the
    /// usual places the policies name.
    pub guard: Vec<String>,
}

impl ShellEnv {
    /// An environment with `project` (`None`: the payload's `cwd`) and `home`, and none of
    /// seamguard's own files beyond what the policies name.
    ///
    /// ```
    /// use seamguard_engine::ShellEnv;
    /// let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    /// assert_eq!((env.project.as_deref(), env.home.as_str()), (Some("/home/u/p"), "/home/u"));
    /// assert!(env.guard.is_empty());
    /// ```
    pub fn new(project: Option<String>, home: impl Into<String>) -> ShellEnv {
        ShellEnv {
            project,
            home: home.into(),
            guard: Vec::new(),
        }
    }

    /// From the process environment: `CLAUDE_PROJECT_DIR`, `HOME`, and the running seamguard
    /// binary with the binaries installed beside it (`seamguard`, `seamguard-hook`) as its own
    /// files, wherever they are installed.
    pub fn from_process() -> ShellEnv {
        ShellEnv {
            project: std::env::var("CLAUDE_PROJECT_DIR")
                .ok()
                .filter(|p| !p.is_empty()),
            home: std::env::var("HOME").unwrap_or_else(|_| "/root".to_string()),
            guard: running_binaries(),
        }
    }

    /// The same environment with seamguard's own files and folders (`guard`, absolute paths)
    /// added: the running binary, the policy files and folders it loaded, its state folder.
    /// Path tests name them with the keyword `seamguard`, wherever they are installed.
    ///
    /// ```
    /// use seamguard_engine::ShellEnv;
    /// let env = ShellEnv::new(None, "/home/u")
    ///     .with_guard(["/opt/tools/sg", "/srv/policies"]);
    /// assert_eq!(env.guard, ["/opt/tools/sg", "/srv/policies"]);
    /// ```
    pub fn with_guard<I, S>(mut self, paths: I) -> ShellEnv
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for p in paths {
            let p: String = p.into();
            if !p.is_empty() && !self.guard.contains(&p) {
                self.guard.push(p);
            }
        }
        self
    }
}

/// The running binary, when it is seamguard's (`seamguard`, `seamguard-hook`), and
/// seamguard's binaries beside it: what stops the guard if it is replaced or removed. Found
/// once per process (the running binary does not change while it runs; a hook call reads the
/// environment for the decision table and again for the effects).
fn running_binaries() -> Vec<String> {
    static RUNNING: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    RUNNING
        .get_or_init(|| {
            std::env::current_exe()
                .ok()
                .map_or_else(Vec::new, |exe| binaries_beside(&exe))
        })
        .clone()
}

/// `exe` and seamguard's binaries in its folder, when `exe` is seamguard's (its name starts
/// with `seamguard`); nothing for another program (a test runner, a host embedding the
/// engine).
fn binaries_beside(exe: &std::path::Path) -> Vec<String> {
    let is_ours = |name: &str| name.starts_with("seamguard");
    if !exe
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(is_ours)
    {
        return Vec::new();
    }
    let mut out = vec![exe.to_string_lossy().into_owned()];
    if let Some(dir) = exe.parent() {
        for name in [
            "seamguard",
            "seamguard-hook",
            "seamguard.exe",
            "seamguard-hook.exe",
        ] {
            let p = dir.join(name).to_string_lossy().into_owned();
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::binaries_beside;
    use std::path::Path;

    #[test]
    fn seamguard_s_binaries_are_the_running_one_and_those_beside_it() {
        assert_eq!(
            binaries_beside(Path::new("/opt/sg/seamguard-hook")),
            [
                "/opt/sg/seamguard-hook",
                "/opt/sg/seamguard",
                "/opt/sg/seamguard.exe",
                "/opt/sg/seamguard-hook.exe",
            ]
        );
        // Another program embedding the engine owns no files of the guard.
        assert!(binaries_beside(Path::new("/usr/bin/cargo")).is_empty());
    }
}
