//! `policy!("policies")` (the balanced library, compiled at build time from generated IR
//! constructors) and the same folder loaded at run time give identical outcomes on every event
//! of the recorded sessions (issue 6).

use std::path::{Path, PathBuf};

use seamguard::harness::PolicyTable;
use seamguard::readers::{EventReader, Item};
use seamguard::{LoadedPolicy, Scope, load_str, policy};

use crate::support::root;

/// The folder's `*.toml` in name order, each named as `policy!` names it (`policies/<file>`)
/// and numbered in that order.
fn load_library(root: &Path) -> Vec<LoadedPolicy> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("policies"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let src = std::fs::read_to_string(f).unwrap();
            let name = f.file_name().unwrap().to_string_lossy();
            load_str(&src, &format!("policies/{name}"), Scope::Embedded, i)
        })
        .collect()
}

#[test]
fn policy_macro_matches_runtime_load_on_recorded_sessions() {
    let compiled: &'static PolicyTable = policy!("policies");
    let root = root();
    let loaded = load_library(&root);
    assert!(loaded.len() > 1, "the library is one file per concern");
    assert!(loaded.iter().all(|p| !p.has_errors()));
    let runtime = PolicyTable::from_policies(loaded);
    // The IR itself round-trips.
    assert_eq!(compiled.table().rules(), runtime.table().rules());
    assert_eq!(compiled.table().policies(), runtime.table().policies());
    assert!(!compiled.table().rules().is_empty());

    for (file, min_events) in [("hooklog-3.jsonl", 700), ("hooklog-4.jsonl", 50)] {
        let mut n = 0;
        let mut decided = 0;
        for item in EventReader::open(&root.join("data/recorded").join(file)) {
            let Item::Event(ev) = item else { continue };
            let a = compiled.evaluate(ev.seam, &ev.payload, ev.dialect);
            let b = runtime.evaluate(ev.seam, &ev.payload, ev.dialect);
            assert_eq!(a, b, "{}", ev.location());
            n += 1;
            decided += usize::from(a.verdict.is_some() || !a.fired.is_empty());
        }
        assert!(n >= min_events, "{file}: only {n} events");
        eprintln!("{file}: {n} events, {decided} with a decision, identical");
    }
}
