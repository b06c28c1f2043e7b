//! The compiled policy snapshot of `seamguard hook`, which starts a new process for every hook
//! event and would otherwise parse, lower and list-resolve every policy file each time.
//!
//! Two kinds of entry live in the cache folder (in seamguard's state folder, which the bundled
//! self-protection policy keeps the agent from writing):
//!
//! * **File entries** (`f-<key>.pc`): one policy file lowered, without its `[[test]]` examples
//!   and before named lists are resolved, named by a 64-bit hash of (seamguard version, entry
//!   format, path, scope, load options, content). When one file of a set is edited, building
//!   the set's next snapshot lowers that file only; the others come from their entries.
//! * **Snapshots** (`s-<content key>.snap`): the whole set of policy files, lists resolved, cut
//!   into **sections per seam and matcher bucket**: the rules whose matcher names a tool
//!   exactly (`tool = "Bash"`, `Edit|Write`) are stored under each name they list, every other
//!   rule (no matcher, a regex matcher) under the seam's catch-all bucket. A call reads the
//!   snapshot's header (every policy's settings and diagnostics, the section table) and then
//!   only the sections of its seam and of its tool, so a prompt event never decodes a `Bash`
//!   rule; within them, each rule is stored with its *gate* ([`gate`]: the payload fields and
//!   effect kinds its `when` cannot hold without), and a hook call decodes only the rules
//!   whose gate its payload and effects open. Each stored rule also holds the literals one of
//!   which every match of each of its regex tests needs (the prefilter that lets a regex stay
//!   uncompiled), so a call does not derive them from the regex syntax again ([`section`]).
//!
//! **Keys.** A call first `stat`s the policy files: path, size, modification and change times,
//! inode and device give the *metadata key*, and `m-<metadata key>.snap` (a hard link to, or
//! copy of, the snapshot) answers without reading a policy file. When the metadata changed
//! (an edit, a `touch`, a checkout), the files are read and hashed: the *content key* (the
//! file keys together) finds a snapshot of the same content (a `touch` costs one hash pass),
//! and only a content change builds a new one. The change time is part of the metadata key,
//! so a write that restores the old modification time still misses.
//!
//! **Never fails open.** The header, every section's table, and every rule and long list of a
//! section carry a hash of their bytes, checked before decoding ([`check`]): a call hashes
//! only what it decodes, and a truncated, damaged or foreign snapshot (or file entry) that
//! a call would decode is ignored and rebuilt from the policy files, so the cache can only
//! make loading faster, never change what is loaded. Entries are written atomically (temporary file, then rename).
//!
//! **Bounded.** After a write the folder keeps the newest [`MAX_SNAPSHOTS`] snapshot names and
//! [`MAX_FILE_ENTRIES`] file entries (by modification time); older ones, entries of the former
//! JSON format and stale temporary files are removed.
//!
//! **Format: postcard.** A compact binary serde format (varint integers, length-prefixed
//! strings, no field names) with a documented, stable wire format since 1.0, maintained and
//! widely used. Against the alternatives: JSON (the former cache) spends most of its decoding
//! time on field names and escapes (10 M of a 22.5 M-instruction `Bash` call); bincode 1's
//! fixed-width integers make larger files, and the project stopped its development in 2025;
//! MessagePack (`rmp-serde`) is self-describing, so it writes field names or positional
//! markers a snapshot read by the same build does not need. Postcard is not self-describing,
//! which is why a JSON value in a rule (`equals = [1, "x"]`) is stored as its JSON text (see
//! the model's `json_values`), and why every entry is hashed: a damaged byte would otherwise
//! decode into other, valid-looking rules.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::compile::literals::{Required, preset_literals};
use crate::load::{LoadOptions, load_str_with};
use crate::matcher::{Matcher, codex_aliases};
use crate::policy::{LoadedPolicy, PolicyError, PolicyMeta, Rule, Scope};
use crate::seam::Seam;

mod check;
mod gate;
mod interned;
mod section;
pub use check::build_id;
use check::{hash_bytes, new_hasher};
use gate::Probe;
use section::{LiteralMap, StoredLiterals, literals_of};
#[cfg(test)]
use {check::Item, interned::Interner, interned::ListTable, section::Section};

/// The first bytes of a snapshot.
const MAGIC: &[u8; 8] = b"SGSNAP10";

/// How many snapshot names (content and metadata keys together) the cache keeps.
pub(crate) const MAX_SNAPSHOTS: usize = 32;

/// How many file entries the cache keeps.
pub(crate) const MAX_FILE_ENTRIES: usize = 256;

/// A file entry: one policy file lowered, without tests, before list resolution, with the
/// required literals of its regex tests (a snapshot built after an edit of another file
/// derives none of them again).
#[derive(Serialize, Deserialize)]
struct FileEntry {
    meta: PolicyMeta,
    rules: Vec<Rule>,
    diagnostics: Vec<PolicyError>,
    literals: Vec<StoredLiterals>,
}

/// One policy of a snapshot, without its rules (they are in the sections).
#[derive(Serialize, Deserialize)]
struct PolicyHead {
    meta: PolicyMeta,
    diagnostics: Vec<PolicyError>,
}

/// Where one section's bytes are, after the header.
#[derive(Serialize, Deserialize, Clone)]
struct SectionRef {
    seam: Seam,
    /// The exact matcher name, or `""` for the seam's catch-all bucket.
    bucket: String,
    offset: u64,
    /// The length of the whole section: its table, then its rules, then its lists.
    len: u64,
    /// The length of the section's table.
    head: u64,
    /// The check hash of the section's table (each rule and list has its own, in the table).
    hash: u64,
}

/// A snapshot's header.
#[derive(Serialize, Deserialize)]
struct Header {
    content_key: u64,
    policies: Vec<PolicyHead>,
    sections: Vec<SectionRef>,
}

/// The part of a snapshot one call needs: its seam and the matcher subjects it can answer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The seam of the event.
    pub seam: Seam,
    /// The subject (tool name, source, …) and every name it is also matched as (Codex and
    /// other hosts' aliases, whatever the dialect: a superset only loads a few more rules).
    pub subjects: Vec<String>,
}

impl Part {
    /// The part a hook payload needs, from its `hook_event_name` and matcher subject field;
    /// `None` (load everything) for a payload without a known event name.
    pub fn of_payload(payload: &Value) -> Option<Part> {
        let seam = payload
            .get("hook_event_name")
            .and_then(Value::as_str)
            .and_then(Seam::from_event_name)?;
        let subject = seam
            .matcher_subject()
            .field()
            .and_then(|f| payload.get(f))
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut subjects = vec![subject.to_string()];
        subjects.extend(codex_aliases(subject).iter().map(|s| (*s).to_string()));
        if let Some(a) = crate::effects::host_tools::alias(subject) {
            subjects.push(a.to_string());
        }
        Some(Part { seam, subjects })
    }

    fn wants(&self, s: &SectionRef) -> bool {
        s.seam == self.seam && (s.bucket.is_empty() || self.subjects.contains(&s.bucket))
    }
}

/// How a [`load_set_cached`] call got its policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotUse {
    /// The snapshot named by the files' metadata.
    Metadata,
    /// The metadata changed, the content did not: the snapshot of the same content.
    Content,
    /// A new snapshot was built (file entries reused where the file did not change).
    Built,
    /// A policy file could not be read: loaded directly, no snapshot.
    Direct,
}

/// What [`load_set_cached`] returns.
#[derive(Debug)]
pub struct SnapshotLoad {
    /// The policies in order, named lists resolved, with the rules of the requested part.
    pub policies: Vec<LoadedPolicy>,
    /// The snapshot's content key (`None` when loaded directly): equal keys, equal policies.
    pub key: Option<u64>,
    /// Where the policies came from.
    pub how: SnapshotUse,
}

/// The entry name for one file: 64 bits of SipHash over version, path, scope, options and
/// content, plus the content length. Not a cryptographic hash: it only has to tell versions
/// of a file apart (SHA-256 of a 200 KB library cost more than the whole evaluation); writing
/// the cache folder is as good as writing the policies, and both are protected alike.
fn key(file: &str, scope: Scope, opts: LoadOptions, src: &[u8]) -> String {
    let mut h = new_hasher();
    file.hash(&mut h);
    format!("{scope:?}/{}/{}", opts.full_regex_check, opts.tests).hash(&mut h);
    src.hash(&mut h);
    format!("{:016x}-{}", h.finish(), src.len())
}

/// The metadata key of a set of files, or `None` when one cannot be `stat`ed.
fn metadata_key(paths: &[(PathBuf, Scope)], opts: LoadOptions) -> Option<u64> {
    let mut h = new_hasher();
    format!("{}/{}", opts.full_regex_check, opts.tests).hash(&mut h);
    for (p, s) in paths {
        let m = std::fs::metadata(p).ok()?;
        p.hash(&mut h);
        format!("{s:?}").hash(&mut h);
        (
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
        )
            .hash(&mut h);
        (m.ino(), m.dev()).hash(&mut h);
    }
    Some(h.finish())
}

fn decode_file_entry(bytes: &[u8]) -> Option<FileEntry> {
    let (sum, body) = bytes.split_first_chunk::<8>()?;
    if u64::from_le_bytes(*sum) != hash_bytes(body) {
        return None;
    }
    postcard::from_bytes(body).ok()
}

fn encode_file_entry(e: &FileEntry) -> Option<Vec<u8>> {
    let body = postcard::to_stdvec(e).ok()?;
    let mut out = hash_bytes(&body).to_le_bytes().to_vec();
    out.extend_from_slice(&body);
    Some(out)
}

/// Write `bytes` to `path` atomically (temporary file in the same folder, then rename).
fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> bool {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let _ = std::fs::create_dir_all(dir);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{n}.tmp", std::process::id()));
    let ok = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .is_ok()
        && std::fs::rename(&tmp, path).is_ok();
    if !ok {
        let _ = std::fs::remove_file(&tmp);
    }
    ok
}

/// [`crate::load_file_with`] through the file entries in `dir` (created when missing): one
/// file, lists not resolved.
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
    let Ok(bytes) = std::fs::read(path) else {
        return crate::load::load_file_with(path, scope, policy_index, opts);
    };
    load_bytes_cached(path, &bytes, scope, policy_index, opts, dir).0
}

/// [`load_file_cached`] of a file already read.
fn load_bytes_cached(
    path: &Path,
    bytes: &[u8],
    scope: Scope,
    policy_index: usize,
    opts: LoadOptions,
    dir: &Path,
) -> (LoadedPolicy, Vec<StoredLiterals>) {
    let file = path.display().to_string();
    let entry_path = dir.join(format!("f-{}.pc", key(&file, scope, opts, bytes)));
    if let Some(e) = std::fs::read(&entry_path)
        .ok()
        .and_then(|b| decode_file_entry(&b))
    {
        let mut rules = e.rules;
        for r in &mut rules {
            r.policy = policy_index;
        }
        let loaded = LoadedPolicy {
            meta: e.meta,
            rules,
            tests: Vec::new(),
            diagnostics: e.diagnostics,
        };
        return (loaded, e.literals);
    }
    // A hit needs no UTF-8 check of the source: only a file that loaded is cached.
    let Ok(src) = std::str::from_utf8(bytes) else {
        let loaded = crate::load::load_file_with(path, scope, policy_index, opts);
        return (loaded, Vec::new());
    };
    let loaded = load_str_with(src, &file, scope, policy_index, opts);
    let entry = FileEntry {
        meta: loaded.meta.clone(),
        rules: loaded.rules.clone(),
        diagnostics: loaded.diagnostics.clone(),
        literals: literals_of(loaded.rules.iter(), &LiteralMap::new()),
    };
    if let Some(b) = encode_file_entry(&entry) {
        write_atomic(dir, &entry_path, &b);
    }
    (loaded, entry.literals)
}

/// Load a set of policy files (in precedence order) through the snapshot cache in `dir`,
/// named lists resolved across the set, with the rules of `part` only (every rule when
/// `None`; policies, their settings and diagnostics always all). What it returns is what
/// [`crate::load_file_with`] of every file plus [`crate::lists::resolve`] returns, with the
/// rules outside `part` left out.
///
/// With `opts.tests` set, or when a file cannot be read, the files are loaded directly.
pub fn load_set_cached(
    paths: &[(PathBuf, Scope)],
    opts: LoadOptions,
    dir: &Path,
    part: Option<&Part>,
) -> SnapshotLoad {
    load_call_cached(paths, opts, dir, part, None)
}

/// One call a snapshot is read for: its payload, and its effects when they are known (in the
/// session memory the call is evaluated in: the same the evaluation then uses).
#[derive(Clone, Copy)]
pub struct Call<'a> {
    /// The payload the rules are evaluated against.
    pub payload: &'a Value,
    /// The call's effects.
    pub effects: Option<&'a crate::effects::Effects>,
    /// Where the gates keep the analyses of the call's command lines (hand the same to
    /// [`Request::with_known_lines`](crate::Request::with_known_lines): the evaluation then
    /// analyses no line twice); `None`: kept only while the snapshot is read.
    pub lines: Option<&'a crate::evaluate::lines::CommandLines>,
}

/// [`load_set_cached`] for one call: a snapshot read leaves out, besides the rules outside
/// `part`, the rules whose `when` needs a payload field the call lacks or an effect kind it
/// does not have (they cannot fire on it: see the gates of the sections). What the call's
/// evaluation finds is the same.
pub fn load_call_cached(
    paths: &[(PathBuf, Scope)],
    opts: LoadOptions,
    dir: &Path,
    part: Option<&Part>,
    call: Option<Call<'_>>,
) -> SnapshotLoad {
    let direct = || {
        let mut loaded: Vec<LoadedPolicy> = paths
            .iter()
            .enumerate()
            .map(|(i, (p, s))| crate::load::load_file_with(p, *s, i, opts))
            .collect();
        crate::lists::resolve(&mut loaded);
        SnapshotLoad {
            policies: keep_part(loaded, part),
            key: None,
            how: SnapshotUse::Direct,
        }
    };
    if opts.tests {
        return direct();
    }
    let meta_key = metadata_key(paths, opts);
    if let Some(mk) = meta_key
        && let Some((policies, key)) = read_snapshot(&meta_path(dir, mk), part, call)
    {
        keep_fresh(&meta_path(dir, mk));
        return SnapshotLoad {
            policies,
            key: Some(key),
            how: SnapshotUse::Metadata,
        };
    }
    let mut sources = Vec::with_capacity(paths.len());
    for (p, _) in paths {
        match std::fs::read(p) {
            Ok(b) => sources.push(b),
            Err(_) => return direct(),
        }
    }
    let mut h = new_hasher();
    let file_keys: Vec<String> = paths
        .iter()
        .zip(&sources)
        .map(|((p, s), b)| key(&p.display().to_string(), *s, opts, b))
        .collect();
    file_keys.hash(&mut h);
    let content_key = h.finish();
    // Link the metadata name only when the files did not change while they were read.
    let link_meta = meta_key.filter(|mk| metadata_key(paths, opts) == Some(*mk));
    let snap = content_path(dir, content_key);
    if let Some((policies, key)) = read_snapshot(&snap, part, call) {
        if let Some(mk) = link_meta {
            link(dir, &snap, &meta_path(dir, mk));
        }
        return SnapshotLoad {
            policies,
            key: Some(key),
            how: SnapshotUse::Content,
        };
    }
    let mut known = LiteralMap::new();
    let mut loaded: Vec<LoadedPolicy> = Vec::with_capacity(paths.len());
    for (i, ((p, s), b)) in paths.iter().zip(&sources).enumerate() {
        let (l, lits) = load_bytes_cached(p, b, *s, i, opts, dir);
        known.extend(lits.into_iter().map(|x| (x.patterns, x.required)));
        loaded.push(l);
    }
    crate::lists::resolve(&mut loaded);
    if let Some(bytes) = encode_snapshot(&loaded, content_key, &known)
        && write_atomic(dir, &snap, &bytes)
        && let Some(mk) = link_meta
    {
        link(dir, &snap, &meta_path(dir, mk));
    }
    evict(dir);
    SnapshotLoad {
        policies: keep_part(loaded, part),
        key: Some(content_key),
        how: SnapshotUse::Built,
    }
}

/// The metadata key of a set of policy files (path, scope, size, modification and change
/// times, inode and device of each, and the load options): one `stat` per file, nothing read.
/// Any write to a file, a replaced file or another set gives another key. What a resident
/// server compares per call, against the key of the files its table was built from (read
/// before and after building it); `None` when a file cannot be `stat`ed.
pub fn files_key(paths: &[(PathBuf, Scope)], opts: LoadOptions) -> Option<u64> {
    metadata_key(paths, opts)
}

/// The content key of the snapshot that the files' metadata names, without loading it (what a
/// resident server of the same policies was built from); `None` when there is no such
/// snapshot yet, or a file cannot be `stat`ed. Only its first bytes are read: a damaged
/// snapshot gives a key no server holds, and the call is then evaluated in its own process.
pub fn snapshot_key(paths: &[(PathBuf, Scope)], opts: LoadOptions, dir: &Path) -> Option<u64> {
    let f = std::fs::File::open(meta_path(dir, metadata_key(paths, opts)?)).ok()?;
    let mut head = [0u8; 30];
    let n = f.read_at(&mut head, 0).ok()?;
    let bytes = head.get(..n)?;
    if bytes.get(..8)? != MAGIC {
        return None;
    }
    postcard::take_from_bytes::<u64>(bytes.get(20..)?)
        .ok()
        .map(|(k, _)| k)
}

/// Mark a snapshot in use for eviction (newest kept): its modification time is moved to now
/// when it is over an hour old, so a snapshot in daily use is never the oldest, at one write
/// per hour at most.
fn keep_fresh(path: &Path) {
    let now = std::time::SystemTime::now();
    let Ok(m) = std::fs::metadata(path) else {
        return;
    };
    let old = m
        .modified()
        .ok()
        .and_then(|t| now.duration_since(t).ok())
        .is_some_and(|d| d.as_secs() > 3600);
    if old && let Ok(f) = std::fs::File::options().append(true).open(path) {
        let _ = f.set_modified(now);
    }
}

fn meta_path(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("m-{k:016x}.snap"))
}

fn content_path(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("s-{k:016x}.snap"))
}

/// Make `to` name the snapshot `from` (hard link, else a copy), atomically.
fn link(dir: &Path, from: &Path, to: &Path) {
    let tmp = dir.join(format!(".{}.link.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    if std::fs::hard_link(from, &tmp).is_ok() {
        if std::fs::rename(&tmp, to).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    } else if let Ok(b) = std::fs::read(from) {
        write_atomic(dir, to, &b);
    }
}

/// The matcher buckets of a rule: each exact name it lists, else the catch-all `""`.
fn buckets_of(m: &Matcher) -> Vec<&str> {
    match m {
        Matcher::Exact(parts) if !parts.is_empty() => {
            let mut v: Vec<&str> = parts.iter().map(String::as_str).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        _ => vec![""],
    }
}

/// Whether a rule belongs to `part` (the same test as a section's).
fn in_part(r: &Rule, part: &Part) -> bool {
    r.seam == part.seam
        && buckets_of(&r.matcher)
            .iter()
            .any(|b| b.is_empty() || part.subjects.iter().any(|s| s == b))
}

fn keep_part(mut loaded: Vec<LoadedPolicy>, part: Option<&Part>) -> Vec<LoadedPolicy> {
    if let Some(part) = part {
        for p in &mut loaded {
            p.rules.retain(|r| in_part(r, part));
        }
    }
    loaded
}

/// A section's seam and matcher bucket.
type BucketKey = (Seam, String);

/// A snapshot of resolved policies: magic, header length, header hash, header, sections.
fn encode_snapshot(
    loaded: &[LoadedPolicy],
    content_key: u64,
    known: &LiteralMap,
) -> Option<Vec<u8>> {
    let mut groups: Vec<(BucketKey, Vec<(u32, &Rule)>)> = Vec::new();
    let mut at: HashMap<BucketKey, usize> = HashMap::new();
    let mut ordinal = 0u32;
    for p in loaded {
        for r in &p.rules {
            for b in buckets_of(&r.matcher) {
                let k = (r.seam, b.to_string());
                let i = *at.entry(k.clone()).or_insert_with(|| {
                    groups.push((k, Vec::new()));
                    groups.len() - 1
                });
                if let Some((_, v)) = groups.get_mut(i) {
                    v.push((ordinal, r));
                }
            }
            ordinal += 1;
        }
    }
    let mut body = Vec::new();
    let mut sections = Vec::new();
    for ((seam, bucket), rules) in groups {
        let (bytes, head, hash) = section::encode(&rules, known)?;
        sections.push(SectionRef {
            seam,
            bucket,
            offset: body.len() as u64,
            len: bytes.len() as u64,
            head,
            hash,
        });
        body.extend_from_slice(&bytes);
    }
    let header = Header {
        content_key,
        policies: loaded
            .iter()
            .map(|p| PolicyHead {
                meta: p.meta.clone(),
                diagnostics: p.diagnostics.clone(),
            })
            .collect(),
        sections,
    };
    let head = postcard::to_stdvec(&header).ok()?;
    let mut out = Vec::with_capacity(20 + head.len() + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(head.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&hash_bytes(&head).to_le_bytes());
    out.extend_from_slice(&head);
    out.extend_from_slice(&body);
    Some(out)
}

/// Read the part of a snapshot: the header, then only the wanted sections (each section's
/// table checked against its hash), and of those the rules `call` opens the gate of (every
/// rule when `None`), each rule and list checked against its own hash when it is decoded.
/// `None` when the file is missing, not a snapshot, or damaged in what the call reads.
fn read_snapshot(
    path: &Path,
    part: Option<&Part>,
    call: Option<Call<'_>>,
) -> Option<(Vec<LoadedPolicy>, u64)> {
    let f = std::fs::File::open(path).ok()?;
    let mut fixed = [0u8; 20];
    f.read_exact_at(&mut fixed, 0).ok()?;
    let (magic, rest) = fixed.split_first_chunk::<8>()?;
    let (len, rest) = rest.split_first_chunk::<4>()?;
    let sum = rest.first_chunk::<8>()?;
    if magic != MAGIC {
        return None;
    }
    let head_len = u32::from_le_bytes(*len) as usize;
    let file_len = f.metadata().ok()?.len();
    if head_len as u64 + 20 > file_len {
        return None;
    }
    let mut head = vec![0u8; head_len];
    f.read_exact_at(&mut head, 20).ok()?;
    if hash_bytes(&head) != u64::from_le_bytes(*sum) {
        return None;
    }
    let header: Header = postcard::from_bytes(&head).ok()?;
    let body_at = 20 + head_len as u64;
    let mut rules: Vec<(u32, Rule)> = Vec::new();
    let mut literals: Vec<(Vec<String>, Option<Required>)> = Vec::new();
    let wanted: Vec<&SectionRef> = header
        .sections
        .iter()
        .filter(|s| part.is_none_or(|p| p.wants(s)))
        .collect();
    // Every wanted section read first, then its table checked and decoded (its gates borrow
    // its bytes): one rule that changes the payload turns the gates off for the whole call.
    let mut bufs: Vec<Vec<u8>> = Vec::with_capacity(wanted.len());
    for s in &wanted {
        let end = body_at.checked_add(s.offset)?.checked_add(s.len)?;
        if end > file_len {
            return None;
        }
        let mut buf = vec![0u8; usize::try_from(s.len).ok()?];
        f.read_exact_at(&mut buf, body_at + s.offset).ok()?;
        bufs.push(buf);
    }
    let mut sections = bufs
        .iter()
        .zip(&wanted)
        .map(|(buf, s)| section::open(buf, s.head, s.hash))
        .collect::<Option<Vec<_>>>()?;
    let gated = call.filter(|c| {
        gate::gates_apply(c.payload) && !sections.iter().any(section::Opened::changes_input)
    });
    let own = crate::evaluate::lines::CommandLines::new();
    let probe = gated.map(|c| {
        let p = Probe::new(c.payload, c.effects, c.lines.unwrap_or(&own));
        match part {
            Some(part) => p.with_subjects(&part.subjects),
            None => p,
        }
    });
    for s in &mut sections {
        s.decode(probe.as_ref(), &mut rules, &mut literals)?;
    }
    // A rule listed under several names of one call (`Edit|Write` for `apply_patch`) once,
    // every rule in declaration order.
    if wanted.len() > 1 {
        rules.sort_by_key(|(o, _)| *o);
        rules.dedup_by_key(|(o, _)| *o);
    }
    preset_literals(literals);
    let mut policies: Vec<LoadedPolicy> = header
        .policies
        .into_iter()
        .map(|h| LoadedPolicy {
            meta: h.meta,
            rules: Vec::new(),
            tests: Vec::new(),
            diagnostics: h.diagnostics,
        })
        .collect();
    for (_, r) in rules {
        policies.get_mut(r.policy)?.rules.push(r);
    }
    Some((policies, header.content_key))
}

/// Keep the cache folder bounded: the newest [`MAX_SNAPSHOTS`] snapshot names and
/// [`MAX_FILE_ENTRIES`] file entries; entries of the former JSON cache and temporary files
/// older than a minute go.
fn evict(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    let mut snaps = Vec::new();
    let mut files = Vec::new();
    for e in rd.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let Ok(m) = e.metadata() else { continue };
        let t = m.modified().unwrap_or(std::time::UNIX_EPOCH);
        if name.ends_with(".snap") {
            snaps.push((t, e.path()));
        } else if name.starts_with("f-") && name.ends_with(".pc") {
            files.push((t, e.path()));
        } else if name.ends_with(".json")
            || (name.ends_with(".tmp") && now.duration_since(t).is_ok_and(|d| d.as_secs() > 60))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    for (mut v, max) in [(snaps, MAX_SNAPSHOTS), (files, MAX_FILE_ENTRIES)] {
        if v.len() > max {
            v.sort_by_key(|e| std::cmp::Reverse(e.0));
            for (_, p) in v.drain(max..) {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

#[cfg(test)]
mod tests;
