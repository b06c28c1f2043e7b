//! Path globs of shell-aware tests (`path_inside` / `path_outside`).
//!
//! In: a [`ShellTest`] and the home folder. Out: its globs ready to match (`~/` expanded),
//! matched in place with `fast_glob` where it can read them, compiled with `globset`
//! otherwise.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use aho_corasick::AhoCorasick;
use globset::GlobBuilder;

use crate::policy::{PathSpec, ShellTest};

/// The glob specs of a shell test's `path_inside` / `path_outside` (`~/` expanded).
///
/// Matched in place with `fast_glob` (no compile step: a hook process judges one command, and
/// building a `GlobSet` per rule cost more than the whole evaluation); a pattern `fast_glob`
/// cannot read falls back to a compiled `globset` matcher. Both read `*` as not crossing `/`.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathGlobs {
    pub(crate) inside: Arc<GlobList>,
    pub(crate) outside: Arc<GlobList>,
    /// The names of the shell test's `program` listings, made on the first command tested.
    pub(crate) programs: OnceLock<crate::shell::ProgramNames>,
}

/// How many distinct glob lists a process keeps built (see [`GlobList::build`]).
const MAX_SHARED_LISTS: usize = 4096;

#[derive(Debug, Default)]
pub(crate) struct GlobList {
    /// The `fast_glob` patterns, each with a text every path it matches contains.
    fast: Vec<FastGlob>,
    compiled: Vec<globset::GlobMatcher>,
    /// Match case-insensitively (patterns are stored folded; the path is folded to match).
    fold: bool,
    /// The literal path components of the globs (`.ssh`, `id_rsa`, `credentials`): the
    /// names a glob operand is tried with when it matches nothing on disk.
    names: Vec<String>,
    /// Every glob as written (`~/` expanded, folded with `fold`), `fast` and `compiled` alike:
    /// what [`GlobList::may_hold_found`] reads component by component.
    patterns: Vec<String>,
    /// The home folder the globs were built against (folded with `fold`).
    home: String,
    /// How many paths the list was matched against, up to [`PREFILTER_AFTER`].
    used: AtomicU32,
    /// The literals of the `fast` globs in one automaton, built once the list has been
    /// matched [`PREFILTER_AFTER`] times (a hook call matches a list a few times).
    prefilter: OnceLock<Option<Prefilter>>,
}

impl Clone for GlobList {
    fn clone(&self) -> GlobList {
        GlobList {
            fast: self.fast.clone(),
            compiled: self.compiled.clone(),
            fold: self.fold,
            names: self.names.clone(),
            patterns: self.patterns.clone(),
            home: self.home.clone(),
            used: AtomicU32::new(0),
            prefilter: OnceLock::new(),
        }
    }
}

/// After how many matches a list builds its [`Prefilter`].
const PREFILTER_AFTER: u32 = 64;

/// Which `fast` globs of a list a path can match: those whose literal it contains, found in
/// one pass over the path for all of them, and those without a literal. The same globs a
/// substring test per glob lets through, so it never changes a result.
#[derive(Debug)]
struct Prefilter {
    /// The distinct literals.
    literals: AhoCorasick,
    /// Per literal (pattern id of `literals`): the `fast` globs that need it.
    globs_of: Vec<Vec<usize>>,
    /// The `fast` globs without a literal: tried on every path.
    unfiltered: Vec<usize>,
}

impl Prefilter {
    fn build(fast: &[FastGlob]) -> Option<Prefilter> {
        let mut literals: Vec<&str> = Vec::new();
        let mut globs_of: Vec<Vec<usize>> = Vec::new();
        let mut unfiltered = Vec::new();
        for (i, g) in fast.iter().enumerate() {
            let needs = g.needs();
            if needs.is_empty() {
                unfiltered.push(i);
                continue;
            }
            match literals.iter().position(|l| *l == needs) {
                Some(at) => {
                    if let Some(v) = globs_of.get_mut(at) {
                        v.push(i);
                    }
                }
                None => {
                    literals.push(needs);
                    globs_of.push(vec![i]);
                }
            }
        }
        Some(Prefilter {
            literals: AhoCorasick::new(&literals).ok()?,
            globs_of,
            unfiltered,
        })
    }

    /// Whether a glob of `fast` matches `path`.
    fn any_match(&self, fast: &[FastGlob], path: &str) -> bool {
        let glob_matches = |i: &usize| {
            fast.get(*i)
                .is_some_and(|g| fast_glob::glob_match(&g.pattern, path))
        };
        if self.unfiltered.iter().any(glob_matches) {
            return true;
        }
        // A literal found more than once is tried once.
        let mut tried: Vec<bool> = Vec::new();
        for m in self.literals.find_overlapping_iter(path) {
            let id = m.pattern().as_usize();
            if tried.is_empty() {
                tried = vec![false; self.globs_of.len()];
            }
            match tried.get_mut(id) {
                Some(t) if !*t => *t = true,
                _ => continue,
            }
            if self
                .globs_of
                .get(id)
                .is_some_and(|v| v.iter().any(glob_matches))
            {
                return true;
            }
        }
        false
    }
}

impl GlobList {
    pub(crate) fn is_match(&self, path: &str) -> bool {
        if self.fold && path.chars().any(char::is_uppercase) {
            let folded = path.to_lowercase();
            return self.matches(&folded);
        }
        self.matches(path)
    }

    /// Whether a file a name listing stands for may match one of the globs: `ROOT/…/NAME`, a
    /// file whose name matches NAME at any depth below ROOT (what `find ROOT -name NAME`,
    /// `fd NAME ROOT` or `locate NAME` list; `…` is the folders between, none included).
    /// It may when a glob's last component and NAME can name the same file (either matches
    /// the other: `credentials` and `~/.aws/credentials`, `id_*` and `**/id_rsa`) and the
    /// folders of the glob can lie at or below ROOT (`~/.aws` below `~`, `**/.ssh` below
    /// anything). A name that fits no glob's last component (`*.rs`) narrows the listing to
    /// files none of the globs names; a glob of a folder's every file (`~/.ssh/**`) names
    /// none by its name and is left to the path as written.
    pub(crate) fn may_hold_found(&self, path: &str) -> bool {
        let folded;
        let path = if self.fold && path.chars().any(char::is_uppercase) {
            folded = path.to_lowercase();
            folded.as_str()
        } else {
            path
        };
        let Some((root, name)) = path.split_once("/…/") else {
            return false;
        };
        if name.is_empty() || name.contains('/') || name.contains('…') {
            return false;
        }
        self.patterns.iter().any(|g| {
            let (folder, last) = g.rsplit_once('/').unwrap_or(("", g.as_str()));
            // A folder's every file (`~/.ssh/**`) names no file by its name: a listing
            // reaches it only from inside the folder, which the path as written tells.
            if last.chars().all(|c| matches!(c, '*' | '?')) {
                return false;
            }
            // Two patterns (`*.json` and `*service-account*.json`) are compared as written by
            // the path test; here a pattern meets a name.
            let wild = |t: &str| t.contains(['*', '?', '[']);
            if wild(name) && wild(last) {
                return false;
            }
            let names_fit = fast_glob::glob_match(name, last) || fast_glob::glob_match(last, name);
            names_fit && folder_below(folder, root) && self.settings_reachable(folder, root)
        })
    }

    /// Whether a glob folder of a home's settings (`**/.docker`, `**/.config/gh`: a hidden
    /// first folder after `**`) can lie below `root`: only from a home, or a folder that holds
    /// homes (`/`, `/home`), or from inside the settings folder itself (`~/.config`). Below
    /// any other folder (`~/.claude/plugins`, a project) a settings folder is not looked for.
    fn settings_reachable(&self, folder: &str, root: &str) -> bool {
        let Some(first) = folder
            .strip_prefix("**/")
            .and_then(|rest| rest.split('/').next())
        else {
            return true;
        };
        if !first.starts_with('.') || root.split('/').any(|part| part == first) {
            return true;
        }
        let root = root.trim_end_matches('/');
        let home = self.home.trim_end_matches('/');
        let other_home = root
            .strip_prefix("/home/")
            .or_else(|| root.strip_prefix("/users/"))
            .or_else(|| root.strip_prefix("/Users/"))
            .is_some_and(|user| !user.is_empty() && !user.contains('/'));
        root.is_empty()
            || root == home
            || home.starts_with(&format!("{root}/"))
            || other_home
            || root == "/root"
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
        self.fast_match(path) || self.compiled.iter().any(|m| m.is_match(path))
    }

    /// Whether one of the `fast` globs matches `path`: glob by glob behind its literal at
    /// first, through the [`Prefilter`] once the list is matched often (a replay).
    fn fast_match(&self, path: &str) -> bool {
        if self.fast.len() > 1 {
            if let Some(Some(pre)) = self.prefilter.get() {
                return pre.any_match(&self.fast, path);
            }
            if self.used.load(Ordering::Relaxed) >= PREFILTER_AFTER {
                if let Some(pre) = self.prefilter.get_or_init(|| Prefilter::build(&self.fast)) {
                    return pre.any_match(&self.fast, path);
                }
            } else {
                self.used.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.fast.iter().any(|g| g.is_match(path))
    }

    /// The globs of `specs` (`~/` expanded against `home`); `fold`: match
    /// case-insensitively. Shared: the library tests the same lists (`@secret_paths`, …)
    /// in many rules, and a list is built once per process (a bounded table: at most
    /// [`MAX_SHARED_LISTS`] lists, then it starts over).
    pub(crate) fn build(specs: &[PathSpec], home: &str, fold: bool) -> Arc<GlobList> {
        type Shared = HashMap<u64, Vec<(Vec<PathSpec>, String, bool, Arc<GlobList>)>>;
        static SHARED: OnceLock<Mutex<Shared>> = OnceLock::new();
        if !specs.iter().any(|s| matches!(s, PathSpec::Glob(_))) {
            return Arc::default();
        }
        let mut h = std::hash::DefaultHasher::new();
        (specs.len(), home, fold).hash(&mut h);
        for s in specs {
            if let PathSpec::Glob(g) = s {
                g.hash(&mut h);
            }
        }
        let key = h.finish();
        let shared = SHARED.get_or_init(Mutex::default);
        if let Ok(map) = shared.lock()
            && let Some(found) = map.get(&key).and_then(|v| {
                v.iter()
                    .find(|(s, hm, f, _)| s == specs && hm == home && *f == fold)
            })
        {
            return Arc::clone(&found.3);
        }
        let built = Arc::new(GlobList::build_one(specs, home, fold));
        if let Ok(mut map) = shared.lock() {
            if map.len() >= MAX_SHARED_LISTS {
                map.clear();
            }
            map.entry(key).or_default().push((
                specs.to_vec(),
                home.to_string(),
                fold,
                Arc::clone(&built),
            ));
        }
        built
    }

    fn build_one(specs: &[PathSpec], home: &str, fold: bool) -> GlobList {
        let mut out = GlobList {
            fold,
            home: if fold {
                home.to_lowercase()
            } else {
                home.to_string()
            },
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
                out.patterns.push(g.clone());
                // A leading `!` negates in fast_glob; in a policy it is a literal.
                if !g.starts_with('!') && fast_glob::validate(&g).is_ok() {
                    out.fast.push(FastGlob::new(g));
                } else if let Ok(glob) = GlobBuilder::new(&g).literal_separator(true).build() {
                    out.compiled.push(glob.compile_matcher());
                }
            }
        }
        out
    }
}

/// Whether a folder matching glob `folder` can be `root` or lie below it: component by
/// component, each of `root`'s matched by the glob's, until a `**` (any depth) or the end of
/// `root`; a glob folder above `root` (`/etc` for root `/etc/app`, `**/.claude` for root
/// `~/.claude/plugins`) is not below it.
fn folder_below(folder: &str, root: &str) -> bool {
    let root = root.trim_end_matches('/');
    // `**/.claude` with root `~/.claude/plugins`: the glob's folder is the one root is
    // already in, above it, so it is matched there (`~/.claude`) rather than at any depth.
    if let Some(rest) = folder.strip_prefix("**/")
        && let Some(first) = rest.split('/').next()
        && !first.contains(['*', '?', '[', '{'])
        && let Some(at) = root.split('/').position(|part| part == first)
    {
        let above: Vec<&str> = root.split('/').take(at).collect();
        return folder_below(&format!("{}/{rest}", above.join("/")), root);
    }
    let mut globs = folder.split('/');
    for part in root.split('/') {
        match globs.next() {
            Some("**") => return true,
            Some(g) if fast_glob::glob_match(g, part) => {}
            _ => return false,
        }
    }
    true
}

/// A glob matched in place by `fast_glob`, behind a literal it needs.
///
/// A path command or operand is tested against every path glob of the library (a replay
/// makes hundreds of thousands of such tests); most paths share no name with most globs
/// (`**/.ssh/**`, `**/.env*`), and a substring test rules them out before the matcher
/// walks the pattern. It never changes a result: every path the pattern matches contains
/// the literal.
#[derive(Debug, Clone, Default)]
struct FastGlob {
    pattern: String,
    /// Where in `pattern` the longest run of literal characters inside one component is
    /// (empty when the pattern has none, or has escapes, classes or alternatives: no
    /// filter). Found on first use: a hook call builds every list and matches few of them.
    needs: OnceLock<(usize, usize)>,
}

impl FastGlob {
    fn new(pattern: String) -> FastGlob {
        FastGlob {
            pattern,
            needs: OnceLock::new(),
        }
    }

    /// The text every path this glob matches contains.
    fn needs(&self) -> &str {
        let &(start, end) = self.needs.get_or_init(|| {
            let p = self.pattern.as_bytes();
            if p.iter().any(|b| matches!(b, b'\\' | b'[' | b'{')) {
                return (0, 0);
            }
            let (mut best, mut from) = ((0, 0), 0);
            for (i, b) in p.iter().chain(std::iter::once(&b'/')).enumerate() {
                if matches!(b, b'*' | b'?' | b'/') {
                    if i - from > best.1 - best.0 {
                        best = (from, i);
                    }
                    from = i + 1;
                }
            }
            best
        });
        self.pattern.get(start..end).unwrap_or_default()
    }

    fn is_match(&self, path: &str) -> bool {
        path.contains(self.needs()) && fast_glob::glob_match(&self.pattern, path)
    }
}

impl PathGlobs {
    /// The globs of a shell test's `path_inside` / `path_outside`; `fold`: match
    /// case-insensitively (effect tests).
    pub(crate) fn build_folded(t: &ShellTest, home: &str, fold: bool) -> PathGlobs {
        PathGlobs {
            inside: GlobList::build(&t.path_inside, home, fold),
            outside: GlobList::build(&t.path_outside, home, fold),
            programs: OnceLock::new(),
        }
    }

    pub(crate) fn build(t: &ShellTest, home: &str) -> PathGlobs {
        Self::build_folded(t, home, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefilter_never_changes_a_match() {
        let lists: [&[&str]; 4] = [
            &["**/.ssh/**", "**/.env*", "**/id_*", "/etc/**", "**/*.pem"],
            &[
                "**/.aws/credentials",
                "**/credentials",
                "**/{.git,.hg}/hooks/**",
                "**/a?c/*.key",
            ],
            &[
                "**/.env",
                "**/.env.*",
                "**/secrets/**",
                "**/secret[s]/*",
                "**",
            ],
            &["/tmp/**", "/tmp/*", "**/tmp/**/tmp/x", "**/ä*/**"],
        ];
        let paths = [
            "/home/u/.ssh/id_rsa",
            "/home/u/.ssh",
            "/home/u/p/.env",
            "/home/u/p/.env.local",
            "/home/u/p/.env/.env.x",
            "/home/u/p/src/env.rs",
            "/etc/passwd",
            "/etc",
            "/home/u/p/key.pem",
            "/home/u/.aws/credentials",
            "/home/u/credentials/credentials",
            "/home/u/p/.git/hooks/pre-commit",
            "/srv/secrets/x",
            "/srv/abc/k.key",
            "/tmp/tmp/tmp/x",
            "/tmp",
            "/home/ä/ää/x",
            "/",
            "",
        ];
        for globs in lists {
            let specs: Vec<PathSpec> = globs
                .iter()
                .map(|g| PathSpec::Glob(g.to_string()))
                .collect();
            let list = GlobList::build_one(&specs, "/home/u", false);
            let pre = Prefilter::build(&list.fast).unwrap();
            for p in paths {
                let each = list.fast.iter().any(|g| g.is_match(p));
                assert_eq!(pre.any_match(&list.fast, p), each, "{globs:?} on {p}");
            }
            // Past the threshold the list matches through the prefilter, with the same answers.
            for _ in 0..PREFILTER_AFTER + 1 {
                for p in paths {
                    let each = list.fast.iter().any(|g| g.is_match(p));
                    assert_eq!(list.fast_match(p), each, "{globs:?} on {p}");
                }
            }
            assert!(list.fast.len() < 2 || list.prefilter.get().is_some());
        }
    }

    #[test]
    fn the_literal_filter_never_changes_a_match() {
        let globs = [
            "**/.ssh/**",
            "**/.env*",
            "**/id_*",
            "/etc/**",
            "**/*.pem",
            "**",
            "**/.aws/credentials",
            "**/{.git,.hg}/hooks/**",
            "**/secret[s]/*",
            "**/a?c/*.key",
        ];
        let paths = [
            "/home/u/.ssh/id_rsa",
            "/home/u/.ssh",
            "/home/u/p/.env",
            "/home/u/p/.env.local",
            "/home/u/p/src/env.rs",
            "/etc/passwd",
            "/etc",
            "/home/u/p/key.pem",
            "/home/u/.aws/credentials",
            "/home/u/p/.git/hooks/pre-commit",
            "/srv/secrets/x",
            "/srv/abc/k.key",
            "/srv/ac/k.key",
            "/",
        ];
        let mut held = Vec::new();
        for g in globs {
            let fast = FastGlob::new(g.to_string());
            for p in paths {
                assert_eq!(fast.is_match(p), fast_glob::glob_match(g, p), "{g} on {p}");
                if fast.is_match(p) {
                    held.push(format!("{g} {p}"));
                }
            }
        }
        assert_eq!(
            FastGlob::new("**/.aws/credentials".into()).needs(),
            "credentials"
        );
        assert_eq!(FastGlob::new("**/id_*".into()).needs(), "id_");
        assert_eq!(FastGlob::new("/etc/**".into()).needs(), "etc");
        // `dir/**` names what is inside the folder, not the folder.
        assert_eq!(FastGlob::new("**/{.git,.hg}/hooks/**".into()).needs(), "");
        assert_eq!(
            held,
            [
                "**/.ssh/** /home/u/.ssh/id_rsa",
                "**/.env* /home/u/p/.env",
                "**/.env* /home/u/p/.env.local",
                "**/id_* /home/u/.ssh/id_rsa",
                "/etc/** /etc/passwd",
                "**/*.pem /home/u/p/key.pem",
                "** /home/u/.ssh/id_rsa",
                "** /home/u/.ssh",
                "** /home/u/p/.env",
                "** /home/u/p/.env.local",
                "** /home/u/p/src/env.rs",
                "** /etc/passwd",
                "** /etc",
                "** /home/u/p/key.pem",
                "** /home/u/.aws/credentials",
                "** /home/u/p/.git/hooks/pre-commit",
                "** /srv/secrets/x",
                "** /srv/abc/k.key",
                "** /srv/ac/k.key",
                "** /",
                "**/.aws/credentials /home/u/.aws/credentials",
                "**/{.git,.hg}/hooks/** /home/u/p/.git/hooks/pre-commit",
                "**/secret[s]/* /srv/secrets/x",
                "**/a?c/*.key /srv/abc/k.key",
            ]
        );
    }

    /// A name listing below a folder may reach a glob by the name it filters on, in the
    /// direction a filter can only narrow: a name that fits no glob's last component does not.
    #[test]
    fn a_name_listing_may_hold_the_files_a_glob_names() {
        let specs: Vec<PathSpec> = [
            "**/.cargo/credentials",
            "~/.config/gh/hosts.yml",
            "**/.ssh/**",
            "/etc/shadow",
        ]
        .iter()
        .map(|g| PathSpec::Glob((*g).to_string()))
        .collect();
        let list = GlobList::build_one(&specs, "/home/u", true);
        for (path, want) in [
            ("/home/u/…/credentials", true),
            ("/home/u/…/Credentials", true),
            ("/home/u/…/cred*", true),
            ("/home/u/…/*.yml", true),
            ("/home/u/.config/…/hosts.yml", true),
            ("/…/shadow", true),
            ("/etc/…/shadow", true),
            // Another name, a root beside the glob's folder, a folder's every file by name.
            ("/home/u/…/*.rs", false),
            ("/home/u/…/*.txt", false),
            ("/home/u/projects/…/hosts.yml", false),
            ("/var/…/shadow", false),
            ("/home/u/…/README.md", false),
            ("/home/u/.cargo/registry/…/credentials", false),
            ("/home/u/.claude/plugins/…/credentials", false),
            ("/…/credentials", true),
            ("/home/…/credentials", true),
            ("/home/u/credentials", false),
        ] {
            assert_eq!(list.may_hold_found(path), want, "{path}");
        }
    }
}
