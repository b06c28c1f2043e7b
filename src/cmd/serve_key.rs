//! The key of a served call (issue 29): which policy files, in which state, a call of the
//! resident server reads, computed with what the server can prove unchanged since its last
//! call left out.
//!
//! In: the hook arguments, the payload (its `cwd` finds the project's folder), the disk.
//! Out: [`KeyMemo::key`], the hash the server compares with the key of its loaded table.
//!
//! Per call, as before: one `stat` per policy file found (size, modification and change times,
//! inode, device: an edited, replaced, added or removed file is another key on the very next
//! call), one `stat` per folder, one of the trust store. What the memo keeps:
//!
//! - **Folder listings.** A folder is listed again only when its own metadata (modification
//!   and change times, inode, device) moved: adding, removing or renaming an entry changes
//!   them. Kept only when every `*.toml` entry's kind came from the listing itself (a
//!   symbolic link is followed each time), and only when the folder's last change is over
//!   [`SETTLED`] older than the listing: a change in the same clock tick as the listing leaves
//!   the times equal, so such a listing is not trusted (git's "racily clean" rule).
//! - **The files' part of the key.** When the files found and the metadata of each are those
//!   of the last call (and every file settled, as above), the deduplicated list and the hash
//!   of its paths and metadata are the last call's: two files of equal size are not read
//!   again to tell whether one repeats the other, and no path is hashed again.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use seamguard_engine::{LoadOptions, Scope};

use super::hook;
use crate::discover;

/// How much older than a listing (or key) a folder's or file's last change must be for its
/// metadata to stand for its content: more than the coarsest clock tick of a file system's
/// times.
const SETTLED: Duration = Duration::from_secs(1);

/// The metadata of a folder or file that changes with its content: size, modification and
/// change times, inode, device.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Stamp {
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    id: (u64, u64),
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        Stamp {
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
            id: (m.ino(), m.dev()),
        }
    }

    /// Whether the last change (the change time: a write, a rename, a new entry, new
    /// permissions; no program sets it) is over [`SETTLED`] before `at`.
    fn settled(&self, at: SystemTime) -> bool {
        let (s, ns) = self.ctime;
        let Ok(s) = u64::try_from(s) else {
            return false;
        };
        let changed = SystemTime::UNIX_EPOCH
            + Duration::from_secs(s)
            + Duration::from_nanos(u64::try_from(ns).unwrap_or(0));
        changed
            .checked_add(SETTLED)
            .is_some_and(|settled_at| settled_at < at)
    }
}

/// The files' part of the last key: what it was computed from, and the result.
struct Files {
    /// The files found (before files found twice are dropped), with their scopes.
    found: Vec<(PathBuf, Scope)>,
    /// The metadata of each file of `found`, taken before the key was computed.
    stamps: Vec<Stamp>,
    /// The hash of the deduplicated files' paths and metadata.
    hash: u64,
}

/// What a resident server keeps between calls to compute a call's key (see the module).
#[derive(Default)]
pub(super) struct KeyMemo {
    /// Listings of folders by path: the folder's metadata when listed, and its files.
    folders: HashMap<PathBuf, (Stamp, Vec<PathBuf>)>,
    /// The files' part of the last key computed.
    files: Option<Files>,
}

impl KeyMemo {
    /// The key of a hook call with arguments `o` and `payload` (`None`: the server's own,
    /// from its environment), or `None` when no server may answer (a policy file that
    /// cannot be `stat`ed, `--hooks-config`). Computed by the server only, in its own
    /// environment: the environment a call reads is in the route
    /// (`seamguard_client::ROUTE_ENV`), so a call made in another one never reaches it.
    pub(super) fn key(
        &mut self,
        o: &hook::Args,
        payload: Option<&serde_json::Value>,
    ) -> Option<u64> {
        if !o.servable() {
            return None;
        }
        let args = o.policy_args();
        let found = discover::found_policy_paths_with(args, payload, &mut |p, s, out| {
            self.expand(p, s, out);
        });
        let mut h = std::hash::DefaultHasher::new();
        self.files_hash(found)?.hash(&mut h);
        o.identity().hash(&mut h);
        seamguard_engine::build_id().hash(&mut h);
        for a in args {
            a.is_dir().hash(&mut h);
        }
        if args.iter().any(|a| a.is_relative()) {
            std::env::current_dir().ok().hash(&mut h);
        }
        if let Ok(m) = std::fs::metadata(discover::trust_store().path()) {
            Stamp::of(&m).hash(&mut h);
        }
        Some(h.finish())
    }

    /// The files' part of the key: the paths of the files `found` names once each (files
    /// found twice dropped) and the metadata of each (one `stat` per file: an edit, a
    /// replaced file or another set of files is another key). The table was built from files
    /// with this metadata (the key is read before and after building it), so equal keys mean
    /// the table's content.
    fn files_hash(&mut self, found: Vec<(PathBuf, Scope)>) -> Option<u64> {
        let now = SystemTime::now();
        let stamps = found
            .iter()
            .map(|(p, _)| std::fs::metadata(p).ok().map(|m| Stamp::of(&m)))
            .collect::<Option<Vec<Stamp>>>()?;
        if let Some(last) = &self.files
            && last.stamps == stamps
            && last.found == found
        {
            return Some(last.hash);
        }
        let paths = crate::lint::dedupe(found.clone()).0;
        let files = seamguard_engine::files_key(&paths, LoadOptions::hook())?;
        let mut h = std::hash::DefaultHasher::new();
        files.hash(&mut h);
        paths.hash(&mut h);
        let hash = h.finish();
        // Kept for the next call only when no file changed within the last tick: its
        // metadata then stands for its content.
        self.files = stamps.iter().all(|s| s.settled(now)).then_some(Files {
            found,
            stamps,
            hash,
        });
        Some(hash)
    }

    /// `path`'s policy files into `out`, as `discover` expands a path: a folder's listing
    /// is the one kept while the folder's metadata stays.
    fn expand(&mut self, path: &Path, scope: Scope, out: &mut Vec<(PathBuf, Scope)>) {
        let stamp = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Stamp::of(&m),
            _ => {
                out.push((path.to_path_buf(), scope));
                return;
            }
        };
        if let Some((kept, files)) = self.folders.get(path)
            && *kept == stamp
        {
            out.extend(files.iter().map(|f| (f.clone(), scope)));
            return;
        }
        let now = SystemTime::now();
        let Some(listing) = discover::list_folder(path) else {
            self.folders.remove(path);
            out.push((path.to_path_buf(), scope));
            return;
        };
        out.extend(listing.files.iter().map(|f| (f.clone(), scope)));
        if listing.plain && stamp.settled(now) {
            self.folders
                .insert(path.to_path_buf(), (stamp, listing.files));
        } else {
            self.folders.remove(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own under the temp folder, emptied.
    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sg-key-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn expanded(memo: &mut KeyMemo, d: &Path) -> Vec<(PathBuf, Scope)> {
        let mut out = Vec::new();
        memo.expand(d, Scope::Cli, &mut out);
        out
    }

    /// A kept listing is dropped as soon as the folder's metadata moves: an added and a
    /// removed file are seen on the next call; a listing taken right after a change is not
    /// kept at all.
    #[test]
    fn a_folder_listing_is_kept_only_while_the_folder_is_unchanged() {
        let d = folder("listing");
        std::fs::write(d.join("a.toml"), "").unwrap();
        std::fs::write(d.join("notes.txt"), "").unwrap();
        let mut memo = KeyMemo::default();
        // Changed just now: listed, not kept.
        assert_eq!(expanded(&mut memo, &d), [(d.join("a.toml"), Scope::Cli)]);
        assert!(memo.folders.is_empty());
        std::thread::sleep(SETTLED + Duration::from_millis(200));
        assert_eq!(expanded(&mut memo, &d), [(d.join("a.toml"), Scope::Cli)]);
        assert_eq!(memo.folders[&d].1, [d.join("a.toml")]);
        // Kept: the same files without listing again.
        assert_eq!(expanded(&mut memo, &d), [(d.join("a.toml"), Scope::Cli)]);
        std::fs::write(d.join("b.toml"), "").unwrap();
        assert_eq!(
            expanded(&mut memo, &d),
            [
                (d.join("a.toml"), Scope::Cli),
                (d.join("b.toml"), Scope::Cli)
            ]
        );
        assert!(memo.folders.is_empty());
        std::fs::remove_file(d.join("a.toml")).unwrap();
        assert_eq!(expanded(&mut memo, &d), [(d.join("b.toml"), Scope::Cli)]);
        // A path that is no folder stands for itself, as in discovery.
        let f = d.join("b.toml");
        assert_eq!(expanded(&mut memo, &f), [(f.clone(), Scope::Cli)]);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A folder with a symbolic link to a policy file is listed on every call: the link's
    /// target may change without the folder's metadata.
    #[test]
    fn a_folder_with_a_link_is_never_kept() {
        let d = folder("link");
        let target = folder("link-target").join("x.toml");
        std::fs::write(&target, "").unwrap();
        std::os::unix::fs::symlink(&target, d.join("x.toml")).unwrap();
        std::thread::sleep(SETTLED + Duration::from_millis(200));
        let mut memo = KeyMemo::default();
        assert_eq!(expanded(&mut memo, &d), [(d.join("x.toml"), Scope::Cli)]);
        assert!(memo.folders.is_empty());
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_dir_all(target.parent().unwrap());
    }

    /// The files' part of the key: the same while nothing changes (and then taken from the
    /// memo), another after an edit, and a file that repeats another is dropped as
    /// discovery drops it.
    #[test]
    fn the_files_part_moves_with_every_edit() {
        let d = folder("files");
        let (a, b) = (d.join("a.toml"), d.join("b.toml"));
        std::fs::write(&a, "# one\n").unwrap();
        std::fs::write(&b, "# one\n").unwrap();
        std::thread::sleep(SETTLED + Duration::from_millis(200));
        let found = vec![(a.clone(), Scope::Cli), (b.clone(), Scope::Cli)];
        let mut memo = KeyMemo::default();
        let first = memo.files_hash(found.clone()).unwrap();
        assert_eq!(memo.files.as_ref().map(|f| f.found.len()), Some(2));
        assert_eq!(memo.files_hash(found.clone()), Some(first));
        // `b` repeats `a`: the key is that of `a` alone.
        let alone = KeyMemo::default().files_hash(vec![(a.clone(), Scope::Cli)]);
        assert_eq!(alone, Some(first));
        std::fs::write(&b, "# two\n").unwrap();
        let edited = memo.files_hash(found.clone()).unwrap();
        assert_ne!(edited, first);
        // Changed just now: not kept for the next call.
        assert!(memo.files.is_none());
        std::fs::remove_file(&b).unwrap();
        assert_eq!(memo.files_hash(found), None);
        let _ = std::fs::remove_dir_all(&d);
    }
}
