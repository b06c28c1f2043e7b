//! Trust for command hooks from project files (a cloned repository must not run commands on
//! your machine just because you opened it). Like Codex's hook trust, trust is keyed on a hash
//! of the exact content: editing the file revokes it.
//!
//! The store is a JSON object `{ "<absolute path>": "<sha256 hex>" }` in the user's config
//! folder (`$XDG_CONFIG_HOME/seamguard/trust.json`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes`, lower-case hex (64 characters).
pub fn content_hash(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// The trust store file.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: PathBuf,
}

/// Why trusting failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// The file to trust cannot be read.
    #[error("cannot read {0}: {1}")]
    Read(String, std::io::Error),
    /// The store cannot be written.
    #[error("cannot write the trust store {0}: {1}")]
    Write(String, std::io::Error),
}

impl TrustStore {
    /// A store at `path`.
    pub fn new(path: PathBuf) -> TrustStore {
        TrustStore { path }
    }

    /// Where the store lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> BTreeMap<String, String> {
        std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn key(file: &Path) -> String {
        std::fs::canonicalize(file)
            .unwrap_or_else(|_| file.to_path_buf())
            .display()
            .to_string()
    }

    /// Whether `file` is trusted with exactly this content hash.
    pub fn is_trusted(&self, file: &Path, hash: &str) -> bool {
        self.entries()
            .get(&Self::key(file))
            .is_some_and(|h| h == hash)
    }

    /// Record trust in the current content of `file`; returns its hash.
    ///
    /// # Errors
    /// [`TrustError`] when the file cannot be read or the store cannot be written.
    pub fn trust(&self, file: &Path) -> Result<String, TrustError> {
        let bytes =
            std::fs::read(file).map_err(|e| TrustError::Read(file.display().to_string(), e))?;
        let hash = content_hash(&bytes);
        let mut m = self.entries();
        m.insert(Self::key(file), hash.clone());
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| TrustError::Write(self.path.display().to_string(), e))?;
        }
        let text = serde_json::to_string_pretty(&m).unwrap_or_else(|_| "{}".into());
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text)
            .map_err(|e| TrustError::Write(self.path.display().to_string(), e))?;
        std::fs::rename(&tmp, &self.path)
            .map_err(|e| TrustError::Write(self.path.display().to_string(), e))?;
        Ok(hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_revokes_trust() {
        let dir = std::env::temp_dir().join(format!("seamguard-trust-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let f = dir.join("p.toml");
        std::fs::write(&f, "a").unwrap();
        let store = TrustStore::new(dir.join("trust.json"));
        assert!(!store.is_trusted(&f, &content_hash(b"a")));
        let h = store.trust(&f).unwrap();
        assert!(store.is_trusted(&f, &h));
        std::fs::write(&f, "b").unwrap();
        assert!(!store.is_trusted(&f, &content_hash(b"b")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
