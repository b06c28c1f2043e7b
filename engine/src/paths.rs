//! Path normalization for path-aware predicates (`path_inside` / `path_outside`).
//!
//! A path is made absolute against the working directory in effect (payload `cwd`, or a `cd`
//! earlier on the same line), `~` and `$HOME` are expanded, `.`, `..` and `//` are removed
//! lexically, a trailing glob (`/*`) is reduced to the directory it expands in, and symlinks
//! are resolved where the path exists. Comparison folds case where the platform's default
//! file system does (macOS, Windows).

use std::path::Path;

/// Lexically join `p` onto `cwd` (absolute and `~` paths are returned as they are).
pub fn join(cwd: Option<&str>, p: &str) -> String {
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
pub fn normalize(p: &str, cwd: Option<&str>, home: &str) -> Option<String> {
    let mut p = p.trim().replace('\\', "/");
    // Windows spellings (case PP-03): `\\?\C:\x`, `C:\x`, `C:/x` → `/x`, folded to lower
    // case like the file systems that use them.
    if let Some(rest) = p.strip_prefix("//?/") {
        p = rest.to_string();
    }
    let bytes = p.as_bytes();
    if bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && bytes[2] == b'/' {
        p = p[2..].to_lowercase();
    }
    // Relative to the working directory first (which may itself start with `~`).
    let joined = join(cwd, &p);
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
    let lexical = format!("/{}", parts.join("/"));
    let resolved = match std::fs::canonicalize(Path::new(&lexical)) {
        Ok(r) => r.to_string_lossy().to_string(),
        Err(_) => lexical,
    };
    Some(resolved)
}

fn fold(s: &str) -> String {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        s.to_lowercase()
    } else {
        s.to_string()
    }
}

/// Whether `path` is `root` or below it (both normalized).
pub fn is_inside(path: &str, root: &str) -> bool {
    let (p, r) = (fold(path), fold(root));
    if r == "/" {
        return true;
    }
    let r = r.trim_end_matches('/');
    p == r || p.starts_with(&format!("{r}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

/// Whether a relative path, under a working directory nobody knows, is matched by a glob
/// (`~/` already expanded): `Some(true)` / `Some(false)` when every possible working
/// directory gives the same answer, `None` when it depends on the directory.
///
/// Sound, not complete: `**/.env` against `a/b/.env` is `Some(true)` (whatever the directory,
/// the path ends in `/.env`); `**/.ssh/*` against `src/main.rs` is `Some(false)` (its last two
/// components are `src/main.rs`); `~/.ssh/**` against `config` is `None` (the directory could
/// be `~/.ssh`). Recordings without a `cwd` (Gemini CLI chats) need this; live Claude Code and
/// Codex payloads always carry one.
pub fn relative_glob_match(pattern: &str, rel: &str) -> Option<bool> {
    let rel = rel.trim().replace('\\', "/");
    let mut comps: Vec<&str> = Vec::new();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            // `..` climbs into the unknown directory.
            ".." => return None,
            c if has_glob(c) => return None,
            c => comps.push(c),
        }
    }
    if comps.is_empty() || pattern.contains('{') {
        // The directory itself, or alternations that may span components: undecided.
        return None;
    }
    let pcomps: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    let last_dstar = pcomps.iter().rposition(|c| c.contains("**"));
    let tail: &[&str] = match last_dstar {
        Some(i) => pcomps.get(i + 1..).unwrap_or(&[]),
        None => &pcomps,
    };
    if tail.is_empty() {
        // `dir/**`: anything under a directory the path may be in.
        return None;
    }
    let comp_match = |pat: &str, text: &str| {
        globset::GlobBuilder::new(pat)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher().is_match(text))
            .unwrap_or(false)
    };
    // Compare the path's last components with the pattern's last components.
    let n = comps.len().min(tail.len());
    let suffix_ok = comps[comps.len() - n..]
        .iter()
        .zip(&tail[tail.len() - n..])
        .all(|(c, p)| comp_match(p, c));
    if !suffix_ok {
        return Some(false);
    }
    match last_dstar {
        // No `**`: the absolute path has at least as many components as the relative one,
        // and must have exactly as many as the pattern.
        None if comps.len() > tail.len() => Some(false),
        // `**/tail` matched by the path's own last components: true whatever the directory.
        Some(0) if comps.len() >= tail.len() && pcomps[0] == "**" => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod relative_tests {
    use super::relative_glob_match as m;

    #[test]
    fn suffix_patterns_decide_relative_paths() {
        assert_eq!(m("**/.env", "a/b/.env"), Some(true));
        assert_eq!(m("**/.env", ".env"), Some(true));
        assert_eq!(m("**/.env", "src/main.rs"), Some(false));
        assert_eq!(m("**/.ssh/*", "src/main.rs"), Some(false));
        assert_eq!(m("**/.ssh/*", "config"), None);
        assert_eq!(m("**/.ssh/*", ".ssh/config"), Some(true));
        assert_eq!(m("/home/u/.ssh/**", "config"), None);
        assert_eq!(m("/home/u/.bashrc", "x/y"), Some(false));
        assert_eq!(m("/home/u/.bashrc", ".bashrc"), None);
        assert_eq!(
            m("/home/u/.config/gcloud/**/*.json", "src/app.rs"),
            Some(false)
        );
        assert_eq!(m("**/.env", "../.env"), None);
        assert_eq!(m("**/*.{pem,key}", "a.pem"), None);
    }
}
