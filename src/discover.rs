//! Policy discovery (DESIGN.md §5): `--policy` paths, else managed, user and project folders.

use std::path::{Path, PathBuf};

use serde_json::Value;

use seamguard_engine::policy::OnLoadError;
use seamguard_engine::trust::TrustStore;
use seamguard_engine::{LoadOptions, load_file_with};
use seamguard_engine::{LoadedPolicy, PolicyError, Scope, Severity};

use crate::library;

/// `*.toml` files of a folder, sorted by name; a file is returned as is. The folder's own
/// listing says which entries are files (no `stat` per entry); a symbolic link, or an entry
/// whose type the listing does not give, is followed. A folder that cannot be listed is
/// returned as is, so loading it fails ("cannot read policy file: …", naming the folder)
/// and the hook fails closed, as for an unreadable file: its rules are not silently dropped.
fn expand(path: &Path, scope: Scope, out: &mut Vec<(PathBuf, Scope)>) {
    expand_with(path, scope, out, |p| std::fs::read_dir(p));
}

/// [`expand`] with the folder listing `list` (a test gives one that fails).
fn expand_with(
    path: &Path,
    scope: Scope,
    out: &mut Vec<(PathBuf, Scope)>,
    list: impl Fn(&Path) -> std::io::Result<std::fs::ReadDir>,
) {
    if !path.is_dir() {
        out.push((path.to_path_buf(), scope));
        return;
    }
    match list_with(path, list) {
        Some(l) => out.extend(l.files.into_iter().map(|f| (f, scope))),
        None => out.push((path.to_path_buf(), scope)),
    }
}

/// The `*.toml` files of one folder, as [`expand`] finds them.
pub(crate) struct Listing {
    /// The files, sorted by name.
    pub(crate) files: Vec<PathBuf>,
    /// Whether the folder's own listing told the kind of every `*.toml` entry (no symbolic
    /// link or entry of unknown type was followed): only then is the result a function of
    /// the folder alone, changed only with the folder's own metadata (a resident server
    /// keeps such a listing while that metadata stays).
    pub(crate) plain: bool,
}

/// The `*.toml` files of folder `path` (see [`expand`]); `None` when it cannot be listed.
pub(crate) fn list_folder(path: &Path) -> Option<Listing> {
    list_with(path, |p| std::fs::read_dir(p))
}

/// [`list_folder`] with the folder listing `list`.
fn list_with(
    path: &Path,
    list: impl Fn(&Path) -> std::io::Result<std::fs::ReadDir>,
) -> Option<Listing> {
    let mut plain = true;
    let mut is_file = |e: &std::fs::DirEntry| match e.file_type() {
        Ok(t) if t.is_file() => true,
        Ok(t) if t.is_dir() => false,
        _ => {
            plain = false;
            e.path().is_file()
        }
    };
    let rd = list(path).ok()?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .filter(|e| {
            Path::new(&e.file_name())
                .extension()
                .is_some_and(|x| x == "toml")
                && is_file(e)
        })
        .map(|e| e.path())
        .collect();
    files.sort();
    Some(Listing { files, plain })
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
    seamguard_client::state_dir()
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
    found_policy_paths_with(args, payload, &mut expand)
}

/// How a path found is expanded into policy files ([`expand`], or a resident server's,
/// which keeps the listings of folders that did not change).
pub(crate) type Expand<'a> = dyn FnMut(&Path, Scope, &mut Vec<(PathBuf, Scope)>) + 'a;

/// [`found_policy_paths`] with the expansion of each path `expand`.
pub(crate) fn found_policy_paths_with(
    args: &[PathBuf],
    payload: Option<&Value>,
    expand: &mut Expand<'_>,
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
/// resolved across the set. The files are lowered side by side on rayon's threads: the
/// commands that load fully (`check`, `test`, `replay`, …) pay the full regex check and the
/// `[[test]]` examples of the whole library before anything else can start.
pub(crate) fn load_all(paths: &[(PathBuf, Scope)]) -> Vec<LoadedPolicy> {
    load_set(paths, LoadOptions::default(), true)
}

/// [`load_all`] with load options (the hook command uses the fast profile), on this thread.
pub(crate) fn load_all_with(paths: &[(PathBuf, Scope)], opts: LoadOptions) -> Vec<LoadedPolicy> {
    load_set(paths, opts, false)
}

/// Load `paths` with `opts`, side by side when `parallel` (each file's lowering is
/// independent of the others'; the results keep the order of `paths`), then resolve the
/// named lists across the set.
fn load_set(paths: &[(PathBuf, Scope)], opts: LoadOptions, parallel: bool) -> Vec<LoadedPolicy> {
    use rayon::prelude::*;
    let one = |(i, (p, s)): (usize, &(PathBuf, Scope))| load_file_with(p, *s, i, opts);
    let mut loaded: Vec<LoadedPolicy> = if parallel && paths.len() > 1 {
        paths.par_iter().enumerate().map(one).collect()
    } else {
        paths.iter().enumerate().map(one).collect()
    };
    seamguard_engine::lists::resolve(&mut loaded);
    loaded
}

/// [`load_all_with`] through the compiled policy snapshot in `<state dir>/cache`
/// (`seamguard_engine::cache`), with only the rules of `part` (the seam and tool of the call;
/// all rules when `None`) that can fire on `call`; `SEAMGUARD_CACHE=0` turns it off.
pub(crate) fn load_all_cached(
    paths: &[(PathBuf, Scope)],
    opts: LoadOptions,
    part: Option<&seamguard_engine::Part>,
    call: Option<seamguard_engine::Call<'_>>,
) -> Vec<LoadedPolicy> {
    if std::env::var_os("SEAMGUARD_CACHE").is_some_and(|v| v == "0") {
        return load_all_with(paths, opts);
    }
    let dir = state_dir().join("cache");
    seamguard_engine::load_call_cached(paths, opts, &dir, part, call).policies
}

/// Where the policies of a hook call come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PolicySource {
    /// `--policy` paths, or the managed, user and project folders.
    Configured,
    /// Nothing is configured anywhere: the balanced library built into the binary.
    BuiltIn,
}

impl PolicySource {
    /// The one-line notice a user sees when the built-in library is in force (on session
    /// start, and in `status`); `None` when policies are configured.
    pub(crate) fn notice(self) -> Option<&'static str> {
        match self {
            PolicySource::Configured => None,
            PolicySource::BuiltIn => Some(library::BUILT_IN_NOTICE),
        }
    }
}

/// What `seamguard hook` enforces for one payload, and where it came from.
#[derive(Debug)]
pub(crate) struct HookPolicies {
    /// The policy files in precedence order (empty for the built-in library).
    pub(crate) paths: Vec<(PathBuf, Scope)>,
    /// The loaded policies (a broken or missing file is a policy with an error diagnostic).
    pub(crate) loaded: Vec<LoadedPolicy>,
    /// Configured or built in.
    pub(crate) source: PolicySource,
}

/// Which policies the hook of `payload` enforces: the `--policy` paths, else the managed,
/// user and project layers, else (with no hooks config either) the built-in balanced
/// library. An explicitly given path that yields no policy file is a load failure, not an
/// empty policy set. With the call's `effects`, the rules that cannot fire on it are left out.
pub(crate) fn hook_policies(
    args: &[PathBuf],
    payload: Option<&Value>,
    effects: Option<&seamguard_engine::effects::Effects>,
    lines: Option<&seamguard_engine::CommandLines>,
    have_hooks_configs: bool,
) -> HookPolicies {
    let opts = LoadOptions::hook();
    let paths = policy_paths(args, payload);
    if source_of(args, &paths, have_hooks_configs) == PolicySource::BuiltIn {
        return HookPolicies {
            paths,
            loaded: library::load_balanced(opts),
            source: PolicySource::BuiltIn,
        };
    }
    let part = payload.and_then(seamguard_engine::Part::of_payload);
    let call = payload.map(|payload| seamguard_engine::Call {
        payload,
        effects,
        lines,
    });
    let mut loaded = load_all_cached(&paths, opts, part.as_ref(), call);
    let mut with_paths = paths.clone();
    for a in args {
        if a.is_dir() && !paths.iter().any(|(f, _)| f.parent() == Some(a.as_path())) {
            loaded.push(empty_folder(a));
            with_paths.push((a.clone(), Scope::Cli));
        }
    }
    HookPolicies {
        paths: with_paths,
        loaded,
        source: PolicySource::Configured,
    }
}

/// Where the hook's policies come from, given its `--policy` arguments and the files they
/// and discovery found: the built-in library only when nothing at all is configured.
fn source_of(
    args: &[PathBuf],
    paths: &[(PathBuf, Scope)],
    have_hooks_configs: bool,
) -> PolicySource {
    if paths.is_empty() && args.is_empty() && !have_hooks_configs {
        PolicySource::BuiltIn
    } else {
        PolicySource::Configured
    }
}

/// Where the policies of a hook call in `cwd` (the current folder when `None`) come from,
/// without loading them: what `status` reports, with [`PolicySource::notice`].
#[allow(dead_code, reason = "the `status` command reads it")]
pub(crate) fn policy_source(args: &[PathBuf], cwd: Option<&Path>) -> PolicySource {
    let payload = cwd.map(|c| serde_json::json!({ "cwd": c.display().to_string() }));
    source_of(args, &policy_paths(args, payload.as_ref()), false)
}

/// The failed policy standing for a `--policy` folder that holds no `*.toml` file.
fn empty_folder(dir: &Path) -> LoadedPolicy {
    let file = dir.display().to_string();
    let f: std::sync::Arc<str> = std::sync::Arc::from(file.as_str());
    LoadedPolicy {
        meta: seamguard_engine::policy::PolicyMeta::defaults(file.clone(), f.clone(), Scope::Cli),
        rules: Vec::new(),
        tests: Vec::new(),
        diagnostics: vec![PolicyError {
            severity: Severity::Error,
            file: f,
            line: 1,
            column: 1,
            message: "the folder given with --policy holds no policy file (*.toml)".to_string(),
            snippet: None,
            width: 1,
            note: None,
        }],
    }
}

/// Whether a policy file's text chooses `on_load_error = "warn"` itself (on its own line, as
/// `[policy]` writes it; read from the raw text so a file too broken to parse still counts).
fn text_says_warn(src: &str) -> bool {
    src.lines().any(|l| {
        l.trim()
            .strip_prefix("on_load_error")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('='))
            .map(str::trim)
            .is_some_and(|r| r.starts_with("\"warn\"") || r.starts_with("'warn'"))
    })
}

/// The hook's load-error policy: a policy that failed to load fails closed (its pre-tool and
/// permission-request calls are denied) unless the file itself says `on_load_error = "warn"`;
/// `forced` (the `--on-load-error` flag) overrides every file.
pub(crate) fn apply_load_error_default(loaded: &mut [LoadedPolicy], forced: Option<OnLoadError>) {
    for p in loaded.iter_mut() {
        if let Some(f) = forced {
            p.meta.on_load_error = f;
            continue;
        }
        if !p.has_errors() || p.meta.on_load_error == OnLoadError::Deny {
            continue;
        }
        let explicit_warn = std::fs::read(&*p.meta.file)
            .ok()
            .is_some_and(|b| text_says_warn(&String::from_utf8_lossy(&b)));
        if !explicit_warn {
            p.meta.on_load_error = OnLoadError::Deny;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_only_when_nothing_is_configured() {
        let none: &[(PathBuf, Scope)] = &[];
        assert_eq!(source_of(&[], none, false), PolicySource::BuiltIn);
        assert_eq!(source_of(&[], none, true), PolicySource::Configured);
        // An explicit path that found nothing is a load failure, not "nothing configured".
        assert_eq!(
            source_of(&[PathBuf::from("typo.toml")], none, false),
            PolicySource::Configured
        );
        assert_eq!(
            policy_source(&[PathBuf::from("typo.toml")], None),
            PolicySource::Configured
        );
        assert!(PolicySource::BuiltIn.notice().is_some());
        assert_eq!(PolicySource::Configured.notice(), None);
    }

    #[test]
    fn a_folder_lists_its_toml_files_and_links_to_files_only() {
        let d = std::env::temp_dir().join(format!("sg-expand-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub.toml")).unwrap();
        std::fs::create_dir_all(d.join("elsewhere")).unwrap();
        std::fs::write(d.join("b.toml"), "").unwrap();
        std::fs::write(d.join("notes.txt"), "").unwrap();
        std::fs::write(d.join("elsewhere/real.toml"), "").unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere/real.toml"), d.join("a.toml")).unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere"), d.join("dir-link.toml")).unwrap();
        std::os::unix::fs::symlink(d.join("gone"), d.join("dangling.toml")).unwrap();
        let mut out = Vec::new();
        expand(&d, Scope::Cli, &mut out);
        assert_eq!(
            out,
            [
                (d.join("a.toml"), Scope::Cli),
                (d.join("b.toml"), Scope::Cli)
            ]
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A folder that cannot be listed stands for itself: loading it is an error (the hook
    /// fails closed), not an empty folder.
    #[test]
    fn a_folder_that_cannot_be_listed_is_a_load_failure() {
        let d = std::env::temp_dir().join(format!("sg-unlisted-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("a.toml"), "").unwrap();
        let mut out = Vec::new();
        expand_with(&d, Scope::Project, &mut out, |_| {
            Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied))
        });
        assert_eq!(out, [(d.clone(), Scope::Project)]);
        let mut loaded = load_all(&out);
        assert!(loaded[0].has_errors());
        assert!(
            loaded[0].diagnostics[0]
                .message
                .starts_with("cannot read policy file: "),
            "{:?}",
            loaded[0].diagnostics
        );
        apply_load_error_default(&mut loaded, None);
        assert_eq!(loaded[0].meta.on_load_error, OnLoadError::Deny);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn only_an_explicit_warn_line_keeps_a_broken_file_open() {
        assert!(text_says_warn("[policy]\non_load_error = \"warn\"\n"));
        assert!(text_says_warn("  on_load_error='warn'  # old behaviour\n"));
        assert!(!text_says_warn("[policy]\non_load_error = \"deny\"\n"));
        assert!(!text_says_warn("# on_load_error = \"warn\"\n"));
        assert!(!text_says_warn("reason = \"on_load_error = warn\"\n"));
    }
}
