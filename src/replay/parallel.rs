//! Replaying recordings side by side: files that share a session (its memory, its
//! stop-continuation count) form one group replayed in file order; groups run on rayon's
//! threads, the largest first.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use seamguard_engine::Seam;
use seamguard_engine::readers::{Item, ReadOptions, RecordedEvent};

use super::options::{Decoded, Items, Options, OutputFormat, items_of};

/// Most bytes of recordings replayed in parallel with `--format jsonl` (whose lines are kept
/// until the files before them are written); over it, one thread streams them.
const MAX_PARALLEL_JSONL_BYTES: u64 = 64 << 20;

/// Most bytes of recordings whose decoded items the session scan keeps for the replay (it
/// decodes every file to find its sessions); over it, each file is read a second time.
const MAX_KEPT_BYTES: u64 = 64 << 20;

/// Run `f` on every job on rayon's threads, the largest first (by `weight`, so the longest
/// ones do not start last), each thread taking the next job when it is done; the results
/// in the order of `jobs`.
pub(super) fn largest_first<J: Send, R: Send>(
    jobs: Vec<(u64, J)>,
    f: impl Fn(J) -> R + Sync,
) -> Vec<R> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs.get(i).map_or(0, |j| j.0)));
    let slots: Vec<std::sync::Mutex<Option<J>>> = jobs
        .into_iter()
        .map(|(_, j)| std::sync::Mutex::new(Some(j)))
        .collect();
    let results: Vec<std::sync::Mutex<Option<R>>> =
        slots.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = rayon::current_num_threads().min(order.len()).max(1);
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&i) = order.get(k) else { break };
                    let job = slots
                        .get(i)
                        .and_then(|m| m.lock().ok().and_then(|mut j| j.take()));
                    let Some(job) = job else { continue };
                    let r = f(job);
                    if let Some(Ok(mut slot)) = results.get(i).map(|m| m.lock()) {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .filter_map(|m| m.into_inner().ok().flatten())
        .collect()
}

/// The files in groups that can be replayed side by side: files that share a session (its
/// memory, its stop-continuation count) are in one group, replayed in file order. One group
/// (replay on one thread) with `--exec-hooks` (commands run in the recorded order), one
/// file, one core, or a large `--format jsonl` output. With the groups, the items the
/// session scan decoded, per file, when the recordings are small enough to keep them.
pub(super) fn parallel_groups(
    o: &Options,
    files: &[PathBuf],
    audit: &[bool],
    read: ReadOptions,
) -> (Vec<Vec<usize>>, Vec<Option<Decoded>>) {
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .collect();
    let bytes: u64 = sizes.iter().sum();
    if o.exec_hooks
        || files.len() < 2
        || rayon::current_num_threads() < 2
        || (o.format == OutputFormat::Jsonl && bytes > MAX_PARALLEL_JSONL_BYTES)
    {
        let one = vec![(0..files.len()).collect::<Vec<_>>()];
        return (one, Vec::new());
    }
    // What each file's events share with other files (and, when small, the events).
    let keep = bytes <= MAX_KEPT_BYTES;
    let jobs = files
        .iter()
        .zip(&sizes)
        .enumerate()
        .map(|(fi, (f, &n))| (n, (f.as_path(), audit.get(fi).copied().unwrap_or(false))))
        .collect();
    let (shared, kept): (Vec<Shared>, Vec<Option<Decoded>>) = largest_first(jobs, |(f, audit)| {
        Shared::of(items_of(f, audit, read), keep)
    })
    .into_iter()
    .unzip();
    let open: BTreeSet<&str> = shared
        .iter()
        .flat_map(|s| s.open_reads.iter().map(String::as_str))
        .collect();
    let sessions: Vec<Vec<&str>> = shared
        .iter()
        .map(|s| {
            s.sessions
                .iter()
                .map(String::as_str)
                .chain(
                    s.stop_keys
                        .iter()
                        .map(String::as_str)
                        .filter(|k| open.contains(k)),
                )
                .collect()
        })
        .collect();
    // Union of the files that share a session (each set joined to its first file).
    let mut group_of: Vec<usize> = (0..files.len()).collect();
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (fi, keys) in sessions.iter().enumerate() {
        for k in keys {
            let other = *first.entry(k).or_insert(fi);
            let (a, b) = (root(&group_of, fi), root(&group_of, other));
            if a != b
                && let Some(slot) = group_of.get_mut(a.max(b))
            {
                *slot = a.min(b);
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for fi in 0..files.len() {
        let g = root(&group_of, fi);
        groups.entry(g).or_default().push(fi);
    }
    (groups.into_values().collect(), kept)
}

/// The first file of the group of file `i` (every link points to an earlier file).
fn root(group_of: &[usize], mut i: usize) -> usize {
    while let Some(&g) = group_of.get(i) {
        if g == i {
            break;
        }
        i = g;
    }
    i
}

/// What the events of one recorded file share with other files in a replay.
#[derive(Default)]
struct Shared {
    /// Its session ids (the session memory is per session, across files).
    sessions: BTreeSet<String>,
    /// The stop-continuation counts its stop events write (by ledger key: session, seam,
    /// agent).
    stop_keys: BTreeSet<String>,
    /// The counts it reads before writing them itself: a stop event with
    /// `stop_hook_active` before any other stop event of its key in the file (which resets
    /// the count).
    open_reads: BTreeSet<String>,
}

impl Shared {
    /// What the items of one file share; the items themselves when `keep`.
    fn of(items: Items, keep: bool) -> (Shared, Option<Decoded>) {
        let mut out = Shared::default();
        let mut written = BTreeSet::new();
        let mut kept = Vec::new();
        for (item, recorded) in items {
            if let Item::Event(ev) = &item {
                out.note(ev, &mut written);
            }
            if keep {
                kept.push((item, recorded));
            }
        }
        (out, keep.then_some(kept))
    }

    /// Note the session and stop count of one event (`written`: the stop counts an earlier
    /// stop event of the file wrote).
    fn note(&mut self, ev: &RecordedEvent, written: &mut BTreeSet<String>) {
        let p = &ev.payload;
        let session = p.get("session_id").and_then(|v| v.as_str());
        if let Some(id) = session.filter(|id| !id.is_empty()) {
            self.sessions.insert(format!("id\u{0}{id}"));
        }
        if matches!(ev.seam, Seam::Stop | Seam::SubagentStop) {
            let key = format!(
                "stop\u{0}{}\u{0}{}\u{0}{}",
                session.unwrap_or("nosession"),
                ev.seam.name(),
                p.get("agent_id").and_then(|v| v.as_str()).unwrap_or("main")
            );
            let active = p
                .get("stop_hook_active")
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false);
            if active && !written.contains(&key) {
                self.open_reads.insert(key.clone());
            } else if !active {
                written.insert(key.clone());
            }
            self.stop_keys.insert(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use seamguard_engine::readers::EventReader;

    use super::*;

    #[test]
    fn jobs_run_largest_first_and_results_come_in_job_order() {
        let jobs: Vec<(u64, usize)> = vec![(5, 0), (90, 1), (0, 2), (40, 3), (90, 4)];
        let started = std::sync::Mutex::new(Vec::new());
        let out = largest_first(jobs, |j| {
            if let Ok(mut s) = started.lock() {
                s.push(j);
            }
            j * 10
        });
        assert_eq!(out, [0, 10, 20, 30, 40]);
        let mut started = started.into_inner().unwrap_or_default();
        // On one thread the order is exactly by size (ties in job order); on more, each
        // thread takes the next largest.
        if rayon::current_num_threads() == 1 {
            assert_eq!(started, [1, 4, 3, 0, 2]);
        }
        started.sort_unstable();
        assert_eq!(started, [0, 1, 2, 3, 4]);
        assert!(largest_first(Vec::<(u64, u8)>::new(), |j| j).is_empty());
    }

    #[test]
    fn the_session_scan_keeps_what_it_decoded_only_when_asked() {
        let log = concat!(
            r#"{"session_id":"s1","cwd":"/w","hook_event_name":"Stop","stop_hook_active":true}"#,
            "\n",
            r#"{"session_id":"s1","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}"#,
            "\n",
            "not json\n"
        );
        let items = || -> Items {
            Box::new(EventReader::from_reader("log.jsonl", log.as_bytes()).map(|i| (i, None)))
        };
        let (shared, kept) = Shared::of(items(), true);
        assert_eq!(
            shared.sessions.into_iter().collect::<Vec<_>>(),
            ["id\u{0}s1"]
        );
        assert_eq!(
            shared.open_reads.into_iter().collect::<Vec<_>>(),
            ["stop\u{0}s1\u{0}stop\u{0}main"]
        );
        let kept = kept.unwrap_or_default();
        assert_eq!(kept.len(), 3);
        let all: Vec<Item> = items().map(|(i, _)| i).collect();
        assert!(kept.iter().map(|(i, _)| i).eq(all.iter()));
        assert!(Shared::of(items(), false).1.is_none());
    }
}
