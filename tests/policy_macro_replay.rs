//! `policy!` (compiled at build time from generated IR constructors) and the same file loaded
//! at run time give identical outcomes on every event of the recorded sessions (issue 6).

use std::path::Path;

use seamguard::harness::PolicyTable;
use seamguard::readers::{EventReader, Item};
use seamguard::{Scope, load_str, policy};

#[test]
fn policy_macro_matches_runtime_load_on_recorded_sessions() {
    let compiled: &'static PolicyTable = policy!("policies/baseline.toml");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("policies/baseline.toml")).unwrap();
    let runtime = PolicyTable::from_policies(vec![load_str(
        &src,
        "policies/baseline.toml",
        Scope::Embedded,
        0,
    )]);
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
