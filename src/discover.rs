//! Policy discovery (DESIGN.md §5): `--policy` paths, else managed, user and project folders.

use std::path::{Path, PathBuf};

use serde_json::Value;

use seamguard_engine::trust::TrustStore;
use seamguard_engine::{LoadOptions, load_file_with};
use seamguard_engine::{LoadedPolicy, Scope};

/// `*.toml` files of a folder, sorted by name; a file is returned as is.
fn expand(path: &Path, scope: Scope, out: &mut Vec<(PathBuf, Scope)>) {
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, scope)));
    } else {
        out.push((path.to_path_buf(), scope));
    }
}

/// A path from an environment variable; `None` when it is unset or empty.
pub(crate) fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The user's config folder: `$XDG_CONFIG_HOME/seamguard`, else `~/.config/seamguard`.
pub(crate) fn user_dir() -> Option<PathBuf> {
    if let Some(x) = env_path("XDG_CONFIG_HOME") {
        return Some(x.join("seamguard"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config").join("seamguard"))
}

/// Where seamguard keeps state between hook calls (continuation counts):
/// `$XDG_STATE_HOME/seamguard`, else `~/.local/state/seamguard`, else the temp folder.
pub(crate) fn state_dir() -> PathBuf {
    if let Some(x) = env_path("XDG_STATE_HOME") {
        return x.join("seamguard");
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h)
            .join(".local")
            .join("state")
            .join("seamguard"),
        None => std::env::temp_dir().join("seamguard"),
    }
}

/// The trust store in the user's config folder.
pub(crate) fn trust_store() -> TrustStore {
    let dir = user_dir().unwrap_or_else(|| std::env::temp_dir().join("seamguard"));
    TrustStore::new(dir.join("trust.json"))
}

fn managed_dir() -> PathBuf {
    std::env::var_os("SEAMGUARD_MANAGED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/etc/seamguard"))
}

/// The project's `.seamguard/` folder: from `CLAUDE_PROJECT_DIR`, else the payload's `cwd`
/// (or the current directory) and its parents.
fn project_dir(payload: Option<&Value>) -> Option<PathBuf> {
    if let Some(p) = env_path("CLAUDE_PROJECT_DIR") {
        let d = p.join(".seamguard");
        return d.is_dir().then_some(d);
    }
    let start = payload
        .and_then(|p| p.get("cwd"))
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut cur: Option<&Path> = Some(start.as_path());
    while let Some(dir) = cur {
        let d = dir.join(".seamguard");
        if d.is_dir() && Some(dir.to_path_buf()) != home {
            return Some(d);
        }
        cur = dir.parent();
    }
    None
}

/// Policy files to load, in precedence order (managed, user, project; or the given paths).
pub(crate) fn policy_paths(args: &[PathBuf], payload: Option<&Value>) -> Vec<(PathBuf, Scope)> {
    crate::lint::dedupe(found_policy_paths(args, payload)).0
}

/// Every policy file [`policy_paths`] finds, before files found twice are dropped.
pub(crate) fn found_policy_paths(
    args: &[PathBuf],
    payload: Option<&Value>,
) -> Vec<(PathBuf, Scope)> {
    let mut out = Vec::new();
    if !args.is_empty() {
        for a in args {
            expand(a, Scope::Cli, &mut out);
        }
        return out;
    }
    let m = managed_dir();
    if m.is_dir() {
        expand(&m, Scope::Managed, &mut out);
    }
    if let Some(u) = user_dir().filter(|u| u.is_dir()) {
        expand(&u, Scope::User, &mut out);
    }
    if let Some(p) = project_dir(payload) {
        let dup = out.iter().any(|(f, _)| f.parent() == Some(p.as_path()));
        if !dup {
            expand(&p, Scope::Project, &mut out);
        }
    }
    out
}

/// Load every file (fail-partial: unreadable files become error diagnostics), named lists
/// resolved across the set.
pub(crate) fn load_all(paths: &[(PathBuf, Scope)]) -> Vec<LoadedPolicy> {
    load_all_with(paths, LoadOptions::default())
}

/// [`load_all`] with load options (the hook command uses the fast profile).
pub(crate) fn load_all_with(paths: &[(PathBuf, Scope)], opts: LoadOptions) -> Vec<LoadedPolicy> {
    let mut loaded: Vec<LoadedPolicy> = paths
        .iter()
        .enumerate()
        .map(|(i, (p, s))| load_file_with(p, *s, i, opts))
        .collect();
    seamguard_engine::lists::resolve(&mut loaded);
    loaded
}

/// [`load_all_with`] through the lowered-policy cache in `<state dir>/cache`
/// (`seamguard_engine::cache`); `SEAMGUARD_CACHE=0` turns it off.
pub(crate) fn load_all_cached(paths: &[(PathBuf, Scope)], opts: LoadOptions) -> Vec<LoadedPolicy> {
    if std::env::var_os("SEAMGUARD_CACHE").is_some_and(|v| v == "0") {
        return load_all_with(paths, opts);
    }
    let dir = state_dir().join("cache");
    let mut loaded: Vec<LoadedPolicy> = paths
        .iter()
        .enumerate()
        .map(|(i, (p, s))| seamguard_engine::load_file_cached(p, *s, i, opts, &dir))
        .collect();
    seamguard_engine::lists::resolve(&mut loaded);
    loaded
}
