//! The temporary world of the `init` tests: `home/`, `xdg/` (XDG_CONFIG_HOME), `bin/` (PATH)
//! and `project/` in a fresh folder, and the binary run there with nothing of the caller's
//! environment.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::support::BIN;

/// A temporary world, removed when dropped.
pub(crate) struct World {
    _tmp: tempfile::TempDir,
    /// Its folder.
    pub(crate) root: PathBuf,
}

impl World {
    /// `on_path`: put a `seamguard` symlink to the tested binary on PATH, so the hook
    /// command is plain `seamguard`.
    pub(crate) fn new(on_path: bool) -> World {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        for d in ["home", "xdg", "bin", "project"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        if on_path {
            #[cfg(unix)]
            std::os::unix::fs::symlink(BIN, root.join("bin/seamguard")).expect("symlink");
        }
        World { _tmp: tmp, root }
    }

    /// `rel` in the world.
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Write `text` to `rel`, making its folders.
    pub(crate) fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    /// The text of `rel`.
    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// The JSON document `rel`.
    pub(crate) fn json(&self, rel: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// `seamguard ARGS` in the project folder with HOME, XDG_CONFIG_HOME, XDG_STATE_HOME,
    /// SEAMGUARD_MANAGED_DIR and PATH inside the world, and nothing else of the environment.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = crate::support::command();
        cmd.args(args)
            .current_dir(self.path("project"))
            .env_clear()
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("xdg"))
            .env("XDG_STATE_HOME", self.path("state"))
            .env("SEAMGUARD_MANAGED_DIR", self.path("managed"))
            .env("PATH", self.path("bin"))
            .stdin(Stdio::null());
        cmd
    }

    /// Every file under the world (relative path → bytes; folders end in `/`, symlinks are
    /// empty), for "nothing changed" checks.
    pub(crate) fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
            for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
                let p = e.path();
                let rel = p.strip_prefix(base).expect("prefix").display().to_string();
                if p.is_symlink() {
                    out.insert(rel, Vec::new());
                } else if p.is_dir() {
                    out.insert(format!("{rel}/"), Vec::new());
                    walk(base, &p, out);
                } else {
                    out.insert(rel, std::fs::read(&p).expect("read"));
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.root, &self.root, &mut out);
        out
    }
}

/// The stdout of a run that must succeed (its output shown when it did not).
pub(crate) fn ok(o: &Output) -> String {
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}
