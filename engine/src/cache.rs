//! A cache of lowered policy files for `seamguard hook`, which starts a new process for every
//! hook event and would otherwise parse and lower every policy file each time.
//!
//! An entry is the [`LoadedPolicy`] of one file without its `[[test]]` examples, as JSON, named
//! by a 64-bit hash of (seamguard version, file path, scope, load options, file content) and
//! the content length: an edited file, a new seamguard version or another scope is simply another entry, so an entry
//! is never stale. Entries are written atomically (temporary file, then rename); a missing,
//! unreadable or damaged entry is re-created from the file, so the cache can only make loading
//! faster, never change what is loaded. The folder sits in seamguard's state folder, which the
//! bundled self-protection policy keeps the agent from writing.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::load::{LoadOptions, load_str_with};
use crate::policy::{LoadedPolicy, PolicyError, PolicyMeta, Rule, Scope};

#[derive(Serialize, Deserialize)]
struct Entry {
    meta: PolicyMeta,
    rules: Vec<Rule>,
    diagnostics: Vec<PolicyError>,
}

/// Bumped whenever what the loader produces changes within one crate version (diagnostic
/// fields and texts, the rule model), so an entry of an older build is never reused.
/// 2: diagnostics carry `width` and `note`; one-line messages.
/// 4: effect tests carry `earlier_read_inside`.
const LOWERED_FORMAT: u32 = 4;

/// The entry name for one file: 64 bits of SipHash over version, path, scope, options and
/// content, plus the content length. Not a cryptographic hash: it only has to tell versions
/// of a file apart (SHA-256 of a 200 KB library cost more than the whole evaluation); writing
/// the cache folder is as good as writing the policies, and both are protected alike.
fn key(file: &str, scope: Scope, opts: LoadOptions, src: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    LOWERED_FORMAT.hash(&mut h);
    file.hash(&mut h);
    format!("{scope:?}/{}/{}", opts.full_regex_check, opts.tests).hash(&mut h);
    src.hash(&mut h);
    format!("{:016x}-{}", h.finish(), src.len())
}

/// [`crate::load_file_with`] through the cache in `dir` (created when missing).
///
/// With `opts.tests` set the cache is bypassed (entries hold no tests). Cache I/O errors are
/// ignored: the file is loaded directly.
pub fn load_file_cached(
    path: &Path,
    scope: Scope,
    policy_index: usize,
    opts: LoadOptions,
    dir: &Path,
) -> LoadedPolicy {
    if opts.tests {
        return crate::load::load_file_with(path, scope, policy_index, opts);
    }
    let file = path.display().to_string();
    let Ok(bytes) = std::fs::read(path) else {
        return crate::load::load_file_with(path, scope, policy_index, opts);
    };
    let entry_path: PathBuf = dir.join(format!("{}.json", key(&file, scope, opts, &bytes)));
    if let Ok(text) = std::fs::read(&entry_path)
        && let Ok(e) = serde_json::from_slice::<Entry>(&text)
    {
        let mut rules = e.rules;
        for r in &mut rules {
            r.policy = policy_index;
        }
        return LoadedPolicy {
            meta: e.meta,
            rules,
            tests: Vec::new(),
            diagnostics: e.diagnostics,
        };
    }
    // A hit needs no UTF-8 check of the source: only a file that loaded is cached.
    let Ok(src) = std::str::from_utf8(&bytes) else {
        return crate::load::load_file_with(path, scope, policy_index, opts);
    };
    let loaded = load_str_with(src, &file, scope, policy_index, opts);
    let entry = Entry {
        meta: loaded.meta.clone(),
        rules: loaded.rules.clone(),
        diagnostics: loaded.diagnostics.clone(),
    };
    if let Ok(json) = serde_json::to_vec(&entry) {
        let _ = std::fs::create_dir_all(dir);
        let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), policy_index));
        if std::fs::write(&tmp, json).is_ok() && std::fs::rename(&tmp, &entry_path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    loaded
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]
    use super::*;

    #[test]
    fn cached_load_equals_direct_load_and_edits_miss() {
        let dir = std::env::temp_dir().join(format!("sg-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pol = dir.join("p.toml");
        let text = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\", flags_any = [\"-r\"] }\ndecision = \"deny\"\n";
        std::fs::write(&pol, text).unwrap();
        let cache = dir.join("cache");
        let direct = crate::load::load_file_with(&pol, Scope::User, 3, LoadOptions::hook());
        let first = load_file_cached(&pol, Scope::User, 3, LoadOptions::hook(), &cache);
        let second = load_file_cached(&pol, Scope::User, 3, LoadOptions::hook(), &cache);
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
        for l in [&first, &second] {
            assert_eq!(l.rules, direct.rules);
            assert_eq!(l.meta, direct.meta);
            assert_eq!(l.diagnostics, direct.diagnostics);
        }
        // A damaged entry is replaced, not trusted.
        let entry = std::fs::read_dir(&cache)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        std::fs::write(&entry, b"{not json").unwrap();
        let third = load_file_cached(&pol, Scope::User, 3, LoadOptions::hook(), &cache);
        assert_eq!(third.rules, direct.rules);
        // An edit is a new entry.
        std::fs::write(&pol, text.replace("deny", "ask")).unwrap();
        let edited = load_file_cached(&pol, Scope::User, 3, LoadOptions::hook(), &cache);
        assert_eq!(
            edited.rules[0].action.decision,
            Some(crate::policy::DecisionValue::Ask)
        );
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
