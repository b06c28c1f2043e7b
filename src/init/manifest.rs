//! `.init-manifest.json` in the policy folder: every file and folder an `init` wrote, so that a
//! later run recognizes its own files and `--undo` can put everything back.
//!
//! In: the manifest file (or none), and the changes [`super::backup`] applies. Out: the same
//! file, rewritten after each run (removed when it records nothing).

use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::layout::{Layout, disp, io_err, read_if_exists, write_atomic};

/// What earlier runs of `init` wrote.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Manifest {
    /// Manifest format.
    pub(super) format: u32,
    /// seamguard version of the last run.
    pub(super) seamguard: String,
    /// Profile of the last run.
    pub(super) profile: String,
    /// Every file an `init` wrote.
    pub(super) files: Vec<Entry>,
    /// Folders an `init` created (removed by `--undo` when empty).
    #[serde(default)]
    pub(super) dirs: Vec<String>,
}

/// One file an `init` wrote.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Entry {
    /// The file (relative to the project root, or absolute).
    pub(super) path: String,
    /// `policy` or `config`.
    pub(super) kind: String,
    /// The file did not exist before `init` (undo removes it instead of restoring).
    pub(super) created: bool,
    /// The copy of the file as it was before the first modification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) backup: Option<String>,
    /// SHA-256 of what `init` last wrote (an edit since then is detected).
    pub(super) sha256: String,
}

/// Hex SHA-256 of a file's bytes.
pub(super) fn sha256(text: &[u8]) -> String {
    Sha256::digest(text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Manifest {
    /// The manifest at `path`; `None` when there is none.
    pub(super) fn read(path: &Path) -> Result<Option<Manifest>, String> {
        let Some(bytes) = read_if_exists(path).map_err(|e| format!("{}: {e}", path.display()))?
        else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}: unreadable manifest: {e}", path.display()))
    }

    /// Write the manifest of `layout`; remove it when it records nothing.
    pub(super) fn write(&self, layout: &Layout) -> Result<(), String> {
        let path = layout.manifest_path();
        if self.files.is_empty() && self.dirs.is_empty() {
            return match std::fs::remove_file(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(io_err(&path, &e)),
            };
        }
        let text =
            serde_json::to_string_pretty(self).map_err(|e| format!("{}: {e}", disp(&path)))? + "\n";
        write_atomic(&path, text.as_bytes())
    }

    /// The index of the entry of `path`.
    pub(super) fn position(&self, layout: &Layout, path: &Path) -> Option<usize> {
        self.files.iter().position(|e| layout.load(&e.path) == path)
    }

    /// The entry of `path`.
    pub(super) fn entry(&self, layout: &Layout, path: &Path) -> Option<&Entry> {
        self.position(layout, path).and_then(|i| self.files.get(i))
    }
}
