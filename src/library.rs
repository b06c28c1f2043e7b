//! The policy library embedded in the binary for `seamguard init` (DESIGN.md §5).
//!
//! `policies/*.toml` is the **balanced** profile; `policies/strict/*.toml` are added on top of
//! it for the **strict** profile (written as `strict-<name>.toml`, because discovery does not
//! descend into sub-folders). A unit test compares these lists with the folders, so a new
//! policy file cannot be left out of the binary.

use seamguard_engine::{LoadOptions, LoadedPolicy, Scope, load_str_with};

/// What the hook says (once, on session start) when no policy is configured anywhere and the
/// built-in balanced library is enforced.
pub(crate) const BUILT_IN_NOTICE: &str = "seamguard: no policy is configured (no --policy, no .seamguard/, no user or managed folder); enforcing the built-in balanced library. Run `seamguard init` to choose and install a policy.";

/// What `try` and `explain` say on stderr when they judge with the built-in library (they
/// install nothing, so the notice names no next step).
pub(crate) const JUDGING_NOTICE: &str = "seamguard: no policy is configured (no --policy, no .seamguard/, no user or managed folder); judging with the built-in balanced library";

/// The balanced library as loaded policies, named `<built-in>/<file>` (the hook's default
/// when no policy is configured anywhere), named lists resolved.
pub(crate) fn load_balanced(opts: LoadOptions) -> Vec<LoadedPolicy> {
    let mut loaded: Vec<LoadedPolicy> = BALANCED
        .iter()
        .enumerate()
        .map(|(i, f)| {
            load_str_with(
                f.text,
                &format!("<built-in>/{}", f.name),
                Scope::Embedded,
                i,
                opts,
            )
        })
        .collect();
    seamguard_engine::lists::resolve(&mut loaded);
    loaded
}

/// One embedded policy file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PolicyFile {
    /// File name in the library folder (`destructive.toml`).
    pub(crate) name: &'static str,
    /// The file's text.
    pub(crate) text: &'static str,
}

macro_rules! library {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(PolicyFile {
            name: $name,
            text: include_str!(concat!("../policies/", $dir, $name)),
        }),*]
    };
}

/// `policies/*.toml`: the balanced profile.
pub(crate) const BALANCED: &[PolicyFile] = library!("":
    "destructive.toml",
    "exfiltration.toml",
    "infrastructure.toml",
    "lists.toml",
    "mcp.toml",
    "obfuscation.toml",
    "persistence.toml",
    "privilege.toml",
    "secrets.toml",
    "self-protection.toml",
    "supply-chain.toml",
);

/// `policies/strict/*.toml`: added to the balanced files by the strict profile.
pub(crate) const STRICT: &[PolicyFile] = library!("strict/":
    "destructive.toml",
    "exfiltration.toml",
    "mcp.toml",
    "network.toml",
    "obfuscation.toml",
    "persistence.toml",
    "privilege.toml",
    "secrets.toml",
    "self-protection.toml",
    "supply-chain.toml",
);

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &str) -> Vec<String> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        names.sort();
        names
    }

    fn names(files: &[PolicyFile]) -> Vec<String> {
        let mut v: Vec<String> = files.iter().map(|f| f.name.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn built_in_library_loads_without_errors() {
        let loaded = load_balanced(LoadOptions::hook());
        assert_eq!(loaded.len(), BALANCED.len());
        for p in &loaded {
            assert!(!p.has_errors(), "{}: {:?}", p.meta.file, p.diagnostics);
            assert!(p.meta.file.starts_with("<built-in>/"), "{}", p.meta.file);
        }
        assert!(loaded.iter().map(|p| p.rules.len()).sum::<usize>() > 20);
    }

    #[test]
    fn library_embeds_every_policy_file() {
        assert_eq!(
            names(BALANCED),
            listing("policies"),
            "src/library.rs BALANCED must list every policies/*.toml"
        );
        assert_eq!(
            names(STRICT),
            listing("policies/strict"),
            "src/library.rs STRICT must list every policies/strict/*.toml"
        );
    }
}
