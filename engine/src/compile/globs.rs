//! Path globs of shell-aware tests (`path_inside` / `path_outside`).
//!
//! In: a [`ShellTest`] and the home folder. Out: its globs ready to match (`~/` expanded),
//! matched in place with `fast_glob` where it can read them, compiled with `globset`
//! otherwise.

use globset::GlobBuilder;

use crate::policy::{PathSpec, ShellTest};

/// The glob specs of a shell test's `path_inside` / `path_outside` (`~/` expanded).
///
/// Matched in place with `fast_glob` (no compile step: a hook process judges one command, and
/// building a `GlobSet` per rule cost more than the whole evaluation); a pattern `fast_glob`
/// cannot read falls back to a compiled `globset` matcher. Both read `*` as not crossing `/`.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathGlobs {
    pub(crate) inside: GlobList,
    pub(crate) outside: GlobList,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct GlobList {
    fast: Vec<String>,
    compiled: Vec<globset::GlobMatcher>,
    /// Match case-insensitively (patterns are stored folded; the path is folded to match).
    fold: bool,
    /// The literal path components of the globs (`.ssh`, `id_rsa`, `credentials`): the
    /// names a glob operand is tried with when it matches nothing on disk.
    names: Vec<String>,
}

impl GlobList {
    pub(crate) fn is_match(&self, path: &str) -> bool {
        if self.fold && path.chars().any(char::is_uppercase) {
            let folded = path.to_lowercase();
            return self.matches(&folded);
        }
        self.matches(path)
    }

    /// Whether patterns and paths are folded to lower case.
    pub(crate) fn folds(&self) -> bool {
        self.fold
    }

    /// The literal path components of the globs.
    pub(crate) fn literal_names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    fn matches(&self, path: &str) -> bool {
        self.fast.iter().any(|g| fast_glob::glob_match(g, path))
            || self.compiled.iter().any(|m| m.is_match(path))
    }

    /// The globs of `specs` (`~/` expanded against `home`); `fold`: match
    /// case-insensitively.
    pub(crate) fn build(specs: &[PathSpec], home: &str, fold: bool) -> GlobList {
        let mut out = GlobList {
            fold,
            ..GlobList::default()
        };
        for spec in specs {
            if let PathSpec::Glob(g) = spec {
                let g = match g.strip_prefix("~/") {
                    Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
                    None => g.clone(),
                };
                let g = if fold { g.to_lowercase() } else { g };
                for comp in g.split('/') {
                    if !comp.is_empty()
                        && !comp.contains(['*', '?', '[', '{'])
                        && !out.names.iter().any(|n| n == comp)
                    {
                        out.names.push(comp.to_string());
                    }
                }
                // A leading `!` negates in fast_glob; in a policy it is a literal.
                if !g.starts_with('!') && fast_glob::validate(&g).is_ok() {
                    out.fast.push(g);
                } else if let Ok(glob) = GlobBuilder::new(&g).literal_separator(true).build() {
                    out.compiled.push(glob.compile_matcher());
                }
            }
        }
        out
    }
}

impl PathGlobs {
    /// The globs of a shell test's `path_inside` / `path_outside`; `fold`: match
    /// case-insensitively (effect tests).
    pub(crate) fn build_folded(t: &ShellTest, home: &str, fold: bool) -> PathGlobs {
        PathGlobs {
            inside: GlobList::build(&t.path_inside, home, fold),
            outside: GlobList::build(&t.path_outside, home, fold),
        }
    }

    pub(crate) fn build(t: &ShellTest, home: &str) -> PathGlobs {
        Self::build_folded(t, home, false)
    }
}
