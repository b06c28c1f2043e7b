//! Path normalization for path-aware predicates (`path_inside` / `path_outside`).
//!
//! A path is made absolute against the working directory in effect (payload `cwd`, or a `cd`
//! earlier on the same line), `~` and `$HOME` are expanded, `.`, `..` and `//` are removed
//! lexically, a trailing glob (`/*`) is reduced to the directory it expands in, and symlinks
//! are resolved where the path exists. Comparison folds case where the platform's default
//! file system does (macOS, Windows).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

thread_local! {
    /// What this thread's current evaluation worked out about paths (`None` outside a
    /// [`ResolveScope`]: nothing is remembered). A pure memo, not an input: it holds what the
    /// file system answered within the scope, and what [`normalize`] made of those answers,
    /// so a decision is the same with it or without it (only faster).
    static RESOLVED: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// The memory of a [`ResolveScope`].
#[derive(Default)]
struct Memo {
    /// Symlink resolutions, by lexical path.
    resolved: HashMap<String, String>,
    /// Whole [`normalize`] answers, by the hash of its inputs (the inputs are kept and
    /// compared, so two inputs of one hash never share an answer).
    normalized: HashMap<u64, Vec<Normalized>>,
}

/// One remembered [`normalize`] call: its inputs and its answer.
struct Normalized {
    path: Box<str>,
    cwd: Option<Box<str>>,
    home: Box<str>,
    answer: Option<String>,
}

impl Normalized {
    fn is_for(&self, path: &str, cwd: Option<&str>, home: &str) -> bool {
        *self.path == *path && self.cwd.as_deref() == cwd && *self.home == *home
    }
}

/// The memo key of a [`normalize`] call.
fn normalize_key(path: &str, cwd: Option<&str>, home: &str) -> u64 {
    let mut h = DefaultHasher::new();
    (path, cwd, home).hash(&mut h);
    h.finish()
}

/// While alive, [`normalize`] on this thread resolves each lexical path on the file system
/// once: the lenses and every rule's path test resolve the same operands, and one command
/// line's paths are otherwise looked up several times (a failing `readlink` per component
/// each time). One scope per evaluation, so a later evaluation sees the file system as it
/// is then; nested scopes share the outermost one's memory.
pub(crate) struct ResolveScope {
    outermost: bool,
}

impl ResolveScope {
    /// Start remembering resolutions on this thread (until the outermost scope ends).
    pub(crate) fn enter() -> ResolveScope {
        let outermost = RESOLVED.with(|cell| match cell.try_borrow_mut() {
            Ok(mut memo) if memo.is_none() => {
                *memo = Some(Memo::default());
                true
            }
            _ => false,
        });
        ResolveScope { outermost }
    }
}

impl Drop for ResolveScope {
    fn drop(&mut self) {
        if self.outermost {
            RESOLVED.with(|cell| {
                if let Ok(mut memo) = cell.try_borrow_mut() {
                    *memo = None;
                }
            });
        }
    }
}

/// A resolution memory held across many evaluations on one thread, for a caller that knows
/// nothing changes the file system meanwhile (a dry-run replay that runs no command): while
/// it lives, each lexical path is resolved on disk once on this thread, not once per
/// evaluation (a failing `readlink` per missing component each time). Drop it to forget.
pub struct SharedResolutions {
    _scope: ResolveScope,
}

impl SharedResolutions {
    /// Start remembering resolutions on this thread across evaluations.
    pub fn enter() -> SharedResolutions {
        SharedResolutions {
            _scope: ResolveScope::enter(),
        }
    }
}

/// `lexical` with its symlinks resolved where it exists (as it is otherwise), remembered
/// within the current [`ResolveScope`].
fn resolve(lexical: String) -> String {
    let known = RESOLVED.with(|cell| {
        cell.try_borrow().ok().and_then(|memo| {
            memo.as_ref()
                .and_then(|m| m.resolved.get(&lexical).cloned())
        })
    });
    if let Some(r) = known {
        return r;
    }
    let resolved = match std::fs::canonicalize(Path::new(&lexical)) {
        Ok(r) => r.to_string_lossy().to_string(),
        Err(_) => through_existing_parent(&lexical).unwrap_or_else(|| lexical.clone()),
    };
    RESOLVED.with(|cell| {
        if let Ok(mut memo) = cell.try_borrow_mut()
            && let Some(m) = memo.as_mut()
        {
            m.resolved.insert(lexical, resolved.clone());
        }
    });
    resolved
}

/// A path that does not exist yet (a file about to be written, a key already deleted) seen
/// through the links of the part that does: `keys/authorized_keys` where `keys -> ~/.ssh`
/// is `~/.ssh/authorized_keys` (resolved), also when the link dangles. `None` when no link
/// is on the way.
fn through_existing_parent(lexical: &str) -> Option<String> {
    let path = Path::new(lexical);
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at = path;
    while let Some(parent) = at.parent() {
        rest.push(at.file_name()?);
        if let Ok(base) = std::fs::canonicalize(parent) {
            let mut out = base;
            let mut names = rest.iter().rev();
            // The first missing component may itself be a dangling link.
            if let Some(first) = names.next() {
                let candidate = out.join(first);
                match std::fs::read_link(&candidate) {
                    Ok(target) => out = out.join(target),
                    Err(_) => out = candidate,
                }
            }
            for n in names {
                out.push(n);
            }
            let out = out.to_string_lossy().to_string();
            return (out != lexical).then_some(out);
        }
        at = parent;
    }
    None
}

/// Whether `p` is an absolute Windows path: on a drive (`C:\x`, `g:/x`, `C:`) or verbatim
/// (`\\?\C:\x`).
pub(crate) fn is_windows_path(p: &str) -> bool {
    drive_path(p).is_some()
}

/// `p` with `/` separators and without a verbatim prefix, if it is on a drive (`c:/x`).
fn drive_path(p: &str) -> Option<String> {
    let t = p.trim().replace('\\', "/");
    let t = t.strip_prefix("//?/").map(str::to_string).unwrap_or(t);
    let b = t.as_bytes();
    let drive = b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b.len() == 2 || b[2] == b'/');
    drive.then_some(t)
}

/// The folders under `C:\Users` that are no one's home.
const NOT_PROFILES: &[&str] = &["public", "default", "default user", "all users"];

/// An absolute Windows path in the spelling of the effect model and the path tests, `None`
/// for any other text: `\` as `/`, the verbatim prefix `\\?\` dropped, a profile folder
/// (`C:\Users\<name>`) as `~`, another drive path as `/c/…` (as Git Bash names it). The
/// lenses and the path tests spell a session's `cwd` (`g:\Work\app`) and the paths of its
/// commands (`g:\Work\app\src`, `src`) alike, so a path inside the project is seen there.
pub(crate) fn windows_spelling(p: &str) -> Option<String> {
    let t = drive_path(p)?;
    let drive = t.get(..1)?.to_ascii_lowercase();
    let rest = t.get(2..)?.trim_start_matches('/');
    let mut parts = rest.splitn(3, '/');
    let first = parts.next().unwrap_or_default();
    if drive == "c" && first.eq_ignore_ascii_case("users") {
        let name = parts.next().unwrap_or_default();
        if !name.is_empty() && !NOT_PROFILES.contains(&name.to_ascii_lowercase().as_str()) {
            return Some(match parts.next() {
                Some(r) if !r.is_empty() => format!("~/{r}"),
                _ => "~".to_string(),
            });
        }
    }
    Some(if rest.is_empty() {
        format!("/{drive}")
    } else {
        format!("/{drive}/{rest}")
    })
}

/// Lexically join `p` onto `cwd` (absolute and `~` paths are returned as they are).
pub(crate) fn join(cwd: Option<&str>, p: &str) -> String {
    if p.starts_with('/') || p.starts_with('~') {
        return p.to_string();
    }
    match cwd {
        Some(c) => format!("{}/{}", c.trim_end_matches('/'), p),
        None => p.to_string(),
    }
}

fn has_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Normalize to an absolute path, or `None` when it stays relative (no cwd known).
/// Remembered within the current [`ResolveScope`]: a command's operands are normalized by
/// its lenses and again by every rule's path test, and a replay meets the same paths in
/// every event of a session.
pub(crate) fn normalize(p: &str, cwd: Option<&str>, home: &str) -> Option<String> {
    let key = normalize_key(p, cwd, home);
    let known = RESOLVED.with(|cell| {
        let memo = cell.try_borrow().ok()?;
        let m = memo.as_ref()?;
        let hit = m
            .normalized
            .get(&key)?
            .iter()
            .find(|n| n.is_for(p, cwd, home))?;
        Some(hit.answer.clone())
    });
    if let Some(answer) = known {
        return answer;
    }
    let answer = normalize_uncached(p, cwd, home);
    RESOLVED.with(|cell| {
        if let Ok(mut memo) = cell.try_borrow_mut()
            && let Some(m) = memo.as_mut()
        {
            m.normalized.entry(key).or_default().push(Normalized {
                path: p.into(),
                cwd: cwd.map(Into::into),
                home: home.into(),
                answer: answer.clone(),
            });
        }
    });
    answer
}

/// [`normalize`], worked out.
fn normalize_uncached(p: &str, cwd: Option<&str>, home: &str) -> Option<String> {
    lexical(p, cwd, home).map(resolve)
}

/// `p` made absolute the way [`normalize`] makes it, without looking at the file system: no
/// symlink is resolved (`None` when it stays relative). For paths a command line is about
/// to make (a link `ln -s` creates), which the disk cannot answer for yet.
pub(crate) fn lexical(p: &str, cwd: Option<&str>, home: &str) -> Option<String> {
    // Windows spellings (case PP-03), of the path and of the working directory (a Codex or
    // Claude Code session on Windows has `C:\…` as its `cwd`): see [`windows_spelling`].
    let p = p.trim();
    let p = windows_spelling(p).unwrap_or_else(|| p.replace('\\', "/"));
    let cwd = cwd.map(|c| windows_spelling(c).unwrap_or_else(|| c.to_string()));
    // Relative to the working directory first (which may itself start with `~`).
    let joined = join(cwd.as_deref(), &p);
    let expanded = if joined == "~" {
        home.to_string()
    } else if let Some(rest) = joined.strip_prefix("~/") {
        format!("{}/{}", home.trim_end_matches('/'), rest)
    } else if let Some(user) = joined.strip_prefix('~') {
        // `~user/...`: the conventional home folder.
        format!("/home/{user}")
    } else {
        joined
    };
    if !expanded.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in expanded.split('/') {
        if has_glob(c) {
            break;
        }
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// `s` as the file system compares names: lower case where it folds case (macOS, Windows).
pub(crate) fn fold(s: &str) -> String {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        s.to_lowercase()
    } else {
        s.to_string()
    }
}

/// `path` relative to `root` (both normalized; folded where the file system folds case):
/// `""` for the root itself, `None` when `path` is not below it.
pub(crate) fn relative_to(path: &str, root: &str) -> Option<String> {
    let (p, r) = (fold(path), fold(root));
    let r = r.trim_end_matches('/');
    if p == r || (r.is_empty() && p == "/") {
        return Some(String::new());
    }
    p.strip_prefix(&format!("{r}/")).map(str::to_string)
}

/// Whether `path` is `root` or below it (both normalized).
pub(crate) fn is_inside(path: &str, root: &str) -> bool {
    let (p, r) = (fold(path), fold(root));
    if r == "/" {
        return true;
    }
    let r = r.trim_end_matches('/');
    p == r || p.starts_with(&format!("{r}/"))
}

/// The files a shell glob operand expands to, as the shell would (bash defaults: `*` and `?`
/// do not match a leading `.`; `/` only literally), read from the file system: at most 256
/// paths, normalized. Empty when the operand has no glob or has `**`, the directory is
/// unknown, or nothing matches (then the shell passes the word as it is, and the caller judges it as a path).
/// Replaying a recorded session on another machine expands nothing.
pub(crate) fn expand_glob(p: &str, cwd: Option<&str>, home: &str) -> Vec<String> {
    // `**` would walk a whole tree (node_modules, target) inside a hook call: not expanded.
    if !has_glob(p) || p.contains("**") {
        return Vec::new();
    }
    let joined = join(cwd, p.trim());
    let abs = if let Some(rest) = joined.strip_prefix("~/") {
        format!("{}/{rest}", home.trim_end_matches('/'))
    } else {
        joined
    };
    if !abs.starts_with('/') {
        return Vec::new();
    }
    // (`require_literal_leading_dot` of the glob crate also rejects `.en?`; the leading-dot
    // rule of the last component is applied here instead.)
    let opts = glob::MatchOptions {
        case_sensitive: true,
        require_literal_separator: true,
        require_literal_leading_dot: false,
    };
    let Ok(paths) = glob::glob_with(&abs, opts) else {
        return Vec::new();
    };
    let dot_pattern = abs.rsplit('/').next().is_some_and(|c| c.starts_with('.'));
    paths
        .filter_map(Result::ok)
        .filter(|pb| {
            dot_pattern
                || !pb
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .take(256)
        .filter_map(|pb| normalize(&pb.to_string_lossy(), None, home))
        .collect()
}

/// The stand-in for a working directory nobody knows (a recording without `cwd`): a single
/// component that no policy glob names, so a relative path is judged by its own components.
pub(crate) const UNKNOWN_CWD: &str = "/\u{1}unknown-cwd";

/// Judge a relative path whose working directory is unknown, by its own components: the
/// directory is assumed to be an ordinary one, inside no protected location. `**/.env`
/// matches `a/.env`; `~/.ssh/**` does not match `config` (it would if the agent sat in
/// `~/.ssh`, which only a payload with a `cwd` can show). Live Claude Code and Codex payloads
/// always carry `cwd`; recordings without one (Gemini CLI chats) are read this way.
pub(crate) fn unknown_cwd_path(rel: &str) -> Option<String> {
    normalize(rel, Some(UNKNOWN_CWD), "/\u{1}unknown-home")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_working_directory_is_a_folder_too() {
        assert_eq!(
            normalize(".env.api", Some("C:\\Users\\Me\\App"), "/h").as_deref(),
            Some("/h/App/.env.api")
        );
        assert_eq!(
            normalize("src\\a.rs", Some("D:/Work"), "/h").as_deref(),
            Some("/d/Work/src/a.rs")
        );
    }

    #[test]
    fn normalizes() {
        assert_eq!(
            normalize("../other", Some("/nonexist/p"), "/h").as_deref(),
            Some("/nonexist/other")
        );
        assert_eq!(
            normalize("~", None, "/nonexist/h").as_deref(),
            Some("/nonexist/h")
        );
        assert_eq!(
            normalize("/nonexist//a/./b/../c", None, "/h").as_deref(),
            Some("/nonexist/a/c")
        );
        assert_eq!(normalize("/*", None, "/h").as_deref(), Some("/"));
        assert_eq!(normalize("build", None, "/h"), None);
        assert!(is_inside("/nonexist/p/build", "/nonexist/p"));
        assert!(!is_inside("/nonexist/pp", "/nonexist/p"));
    }

    #[test]
    fn windows_paths_and_working_folders_are_spelled_alike() {
        assert_eq!(
            windows_spelling("g:\\Work\\App").as_deref(),
            Some("/g/Work/App")
        );
        assert_eq!(
            windows_spelling("C:/Users/me/.ssh").as_deref(),
            Some("~/.ssh")
        );
        assert_eq!(
            windows_spelling("C:\\Users\\Public\\x").as_deref(),
            Some("/c/Users/Public/x")
        );
        assert_eq!(windows_spelling("\\\\?\\D:\\").as_deref(), Some("/d"));
        assert_eq!(windows_spelling("src\\a.rs"), None);
        assert!(is_windows_path("e:") && !is_windows_path("/e:/x"));
        // A relative path of a session on a drive is inside its working folder.
        assert_eq!(
            normalize("src\\a.rs", Some("g:\\Work\\App"), "/h").as_deref(),
            Some("/g/Work/App/src/a.rs")
        );
        assert_eq!(
            normalize("g:\\Work\\App\\src", Some("g:\\Work\\App"), "/h").as_deref(),
            Some("/g/Work/App/src")
        );
        assert_eq!(
            normalize(".ssh/id_rsa", Some("C:\\Users\\me"), "/home/me").as_deref(),
            Some("/home/me/.ssh/id_rsa")
        );
    }

    #[test]
    fn a_remembered_answer_is_the_answer_of_its_own_inputs() {
        let calls: [(&str, Option<&str>, &str); 8] = [
            ("src/a.rs", Some("/nonexist/p"), "/h"),
            ("src/a.rs", Some("/nonexist/q"), "/h"),
            ("src/a.rs", Some(""), "/h"),
            ("src/a.rs", None, "/h"),
            ("~/.ssh/id_rsa", None, "/h"),
            ("~/.ssh/id_rsa", None, "/nonexist/other"),
            ("src\\a.rs", Some("C:\\Users\\Me\\App"), "/h"),
            ("../x", Some("/nonexist/p/q"), "/h"),
        ];
        let alone: Vec<Option<String>> = calls
            .iter()
            .map(|(p, c, h)| normalize_uncached(p, *c, h))
            .collect();
        let _scope = ResolveScope::enter();
        for _ in 0..2 {
            for ((p, c, h), want) in calls.iter().zip(&alone) {
                assert_eq!(&normalize(p, *c, h), want, "{p} in {c:?}");
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_scope_remembers_resolutions_until_it_ends() {
        let dir = std::env::temp_dir().join(format!("sg-resolve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real")).unwrap_or_default();
        let base = std::fs::canonicalize(&dir)
            .map(|d| d.to_string_lossy().to_string())
            .unwrap_or_default();
        let link = format!("{base}/link");
        let real = format!("{base}/real");
        let scope = ResolveScope::enter();
        // Not a link yet: the lexical path, remembered for the rest of the scope.
        assert_eq!(normalize(&link, None, "/h").as_deref(), Some(link.as_str()));
        let made = std::os::unix::fs::symlink(&real, &link).is_ok();
        assert!(made);
        assert_eq!(normalize(&link, None, "/h").as_deref(), Some(link.as_str()));
        {
            // A nested scope shares the outer one's memory and does not end it.
            let _inner = ResolveScope::enter();
            assert_eq!(normalize(&link, None, "/h").as_deref(), Some(link.as_str()));
        }
        assert_eq!(normalize(&link, None, "/h").as_deref(), Some(link.as_str()));
        drop(scope);
        // The next evaluation sees the file system as it is now.
        assert_eq!(normalize(&link, None, "/h").as_deref(), Some(real.as_str()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_not_there_yet_is_seen_through_the_links_above_it() {
        let dir = std::env::temp_dir().join(format!("sg-through-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home/.ssh")).unwrap_or_default();
        std::fs::create_dir_all(dir.join("project")).unwrap_or_default();
        let base = std::fs::canonicalize(&dir)
            .map(|d| d.to_string_lossy().to_string())
            .unwrap_or_default();
        let made =
            std::os::unix::fs::symlink(format!("{base}/home/.ssh"), format!("{base}/project/keys"))
                .is_ok()
                && std::os::unix::fs::symlink(
                    format!("{base}/home/gone"),
                    format!("{base}/project/dangling"),
                )
                .is_ok();
        assert!(made);
        let project = format!("{base}/project");
        // A new file under a link to a folder that exists, and under a dangling link.
        assert_eq!(
            normalize("keys/authorized_keys", Some(&project), "/h").as_deref(),
            Some(format!("{base}/home/.ssh/authorized_keys").as_str())
        );
        assert_eq!(
            normalize("dangling/id_rsa", Some(&project), "/h").as_deref(),
            Some(format!("{base}/home/gone/id_rsa").as_str())
        );
        // No link on the way: the path as written.
        assert_eq!(
            normalize("notes/new.txt", Some(&project), "/h").as_deref(),
            Some(format!("{project}/notes/new.txt").as_str())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[cfg(test)]
mod glob_tests {
    #[test]
    fn globs_expand_against_the_file_system() {
        let dir = std::env::temp_dir().join(format!("sg-glob-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_default();
        std::fs::write(dir.join(".env"), "x").unwrap_or_default();
        std::fs::write(dir.join("a.md"), "x").unwrap_or_default();
        let cwd = dir.to_string_lossy().to_string();
        let env = format!("{cwd}/.env");
        assert_eq!(
            super::expand_glob(".en?", Some(&cwd), "/h"),
            vec![env.clone()]
        );
        assert_eq!(
            super::expand_glob(".[e]nv", Some(&cwd), "/h"),
            vec![env.clone()]
        );
        // `*` does not match a leading dot (bash's default).
        assert_eq!(
            super::expand_glob("*", Some(&cwd), "/h"),
            vec![format!("{cwd}/a.md")]
        );
        assert!(super::expand_glob(".env", Some(&cwd), "/h").is_empty());
        assert!(super::expand_glob("*.none", Some(&cwd), "/h").is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
