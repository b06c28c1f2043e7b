//! The session memory on disk, for `seamguard hook` (one process per hook event).
//!
//! One JSON Lines file per session in a folder of seamguard's state folder, named by a hash
//! of the `session_id` (a session id never becomes a path). Hook processes of the same
//! session may run at once (parallel tool calls): each appends its new entries as whole
//! lines in one write, holding the file's advisory lock (`std::fs::File::try_lock`, `flock` /
//! `LockFileEx`: no extra crate) while it appends; a reader takes no lock and ignores a last
//! line that is not finished yet. Appending never waits long: a lock that cannot be had
//! within [`LOCK_WAIT`] skips the append and says so. Append-only lines (rather than one
//! rewritten file) mean a crash mid-write damages at most the line being written.
//!
//! Bounds: a session file stops growing at [`MAX_FILE_BYTES`] (later entries are reported
//! and dropped; what was kept still counts), at most [`MAX_ENTRIES`] entries are read, and
//! session files not written for [`MAX_AGE`] are deleted when a new session starts.
//!
//! Nothing here is a reason to fail open: an unreadable or damaged file, an unwritable
//! folder or a busy lock is a problem to report, and the call is judged with what could be
//! read (possibly nothing).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use sha2::{Digest, Sha256};

use super::{Entry, SessionMemory};

/// Largest session file appended to, in bytes (4 MiB: it is read on every pre-tool call of
/// the session).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Most entries read from one session file.
pub const MAX_ENTRIES: usize = 20_000;

/// Session files not written for this long are deleted (14 days).
pub const MAX_AGE: Duration = Duration::from_secs(14 * 24 * 60 * 60);

/// Longest wait for another process's append to finish.
pub const LOCK_WAIT: Duration = Duration::from_millis(500);

/// A folder of session memory files.
#[derive(Debug, Clone)]
pub struct MemoryStore {
    dir: PathBuf,
}

/// A session's memory as read from disk, with what went wrong reading it.
#[derive(Debug, Default)]
pub struct Loaded {
    /// What could be read.
    pub memory: SessionMemory,
    /// Problems to report (unreadable file, damaged lines); the memory is still usable.
    pub problems: Vec<String>,
}

impl MemoryStore {
    /// The store in `dir` (created on the first append).
    pub fn new(dir: impl Into<PathBuf>) -> MemoryStore {
        MemoryStore { dir: dir.into() }
    }

    /// The file of session `session`.
    pub fn file_of(&self, session: &str) -> PathBuf {
        let hash = Sha256::digest(session.as_bytes());
        let name: String = hash.iter().take(16).map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{name}.jsonl"))
    }

    /// Read the memory of `session`. A missing file (or folder) is an empty memory; what
    /// cannot be read is reported in [`Loaded::problems`] and skipped.
    pub fn load(&self, session: &str) -> Loaded {
        let path = self.file_of(session);
        let file = match File::open(&path) {
            Ok(f) => f,
            // No file, or no folder for it (the state path is not a folder): nothing was
            // remembered. A state folder that cannot be written is reported when recording.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Loaded::default();
            }
            Err(e) => {
                return Loaded {
                    memory: SessionMemory::default(),
                    problems: vec![format!(
                        "cannot read the session memory {}: {e}; judged without it",
                        path.display()
                    )],
                };
            }
        };
        let mut problems = Vec::new();
        let mut entries = Vec::new();
        let mut damaged = 0usize;
        let mut reader = BufReader::new(file.take(MAX_FILE_BYTES + (1 << 20)));
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    problems.push(format!(
                        "cannot read the session memory {}: {e}; judged with what was read",
                        path.display()
                    ));
                    break;
                }
            }
            if line.last() != Some(&b'\n') {
                // Another process is writing it (or one died writing it): not finished.
                break;
            }
            let text = &line[..line.len() - 1];
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Entry>(text) {
                Ok(e) => entries.push(e),
                Err(_) => damaged += 1,
            }
            if entries.len() >= MAX_ENTRIES {
                problems.push(format!(
                    "the session memory {} holds more than {MAX_ENTRIES} entries; the rest is ignored",
                    path.display()
                ));
                break;
            }
        }
        if damaged > 0 {
            problems.push(format!(
                "the session memory {} has {damaged} damaged line(s); they are ignored",
                path.display()
            ));
        }
        Loaded {
            memory: SessionMemory::from_entries(entries),
            problems,
        }
    }

    /// Append `entries` to the memory of `session`, as one write under the file's lock.
    ///
    /// # Errors
    /// The reason, when the folder or file cannot be written, the lock was busy for longer
    /// than [`LOCK_WAIT`], or the file is full ([`MAX_FILE_BYTES`]); nothing was written then.
    pub fn append(&self, session: &str, entries: &[Entry]) -> Result<(), String> {
        if entries.is_empty() {
            return Ok(());
        }
        let path = self.file_of(session);
        let mut buf = Vec::new();
        for e in entries {
            serde_json::to_writer(&mut buf, e).map_err(|e| e.to_string())?;
            buf.push(b'\n');
        }
        let show = |e: &dyn std::fmt::Display| {
            format!(
                "cannot record in the session memory {}: {e}",
                path.display()
            )
        };
        let new_session = !path.exists();
        create_private_dir(&self.dir).map_err(|e| show(&e))?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| show(&e))?;
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(show(&format_args!(
                        "another process held it for more than {} ms",
                        LOCK_WAIT.as_millis()
                    )));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(show(&e)),
            }
        }
        let len = file.metadata().map_err(|e| show(&e))?.len();
        if len + buf.len() as u64 > MAX_FILE_BYTES {
            return Err(show(&format_args!(
                "it is full ({MAX_FILE_BYTES} bytes); this call is not remembered"
            )));
        }
        let written = file.write_all(&buf).map_err(|e| show(&e));
        // Unlocked when closed, too.
        let _ = file.unlock();
        written?;
        if new_session {
            self.prune();
        }
        Ok(())
    }

    /// Delete session files not written for [`MAX_AGE`]; returns how many went.
    pub fn prune(&self) -> usize {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let now = SystemTime::now();
        let mut gone = 0;
        for d in rd.flatten() {
            let p = d.path();
            if p.extension().is_none_or(|x| x != "jsonl") {
                continue;
            }
            let old = d
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > MAX_AGE);
            if old && std::fs::remove_file(&p).is_ok() {
                gone += 1;
            }
        }
        gone
    }
}

/// Create `dir` (and its parents), readable by its owner only where that can be set.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}
