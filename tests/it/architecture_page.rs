//! The architecture page (`docs/src/architecture.md`) matches the folders.
//!
//! In: the page's text and the workspace's folders. Out: a failure naming every path the page
//! writes that does not exist (a path starting at a workspace folder,
//! `engine/src/effects/dispatch.rs`, with any `::item` after it left off), and every folder or
//! module directly under `engine/src/`, `policy/src/` and `src/` the page does not name (as
//! `engine/src/x.rs` or `engine/src/x/`).

use std::collections::BTreeSet;

use regex::Regex;

use crate::support::root;

/// The page this test keeps true.
const PAGE: &str = "docs/src/architecture.md";

/// The source folders whose every entry the page names.
const ROOTS: [&str; 3] = ["engine/src", "policy/src", "src"];

/// The workspace folders a path on the page may start at.
const TOP: &str =
    "engine|policy|src|macros|lib|client|tests|docs|scripts|benches|fuzz|policies|data";

/// The paths the page writes: a workspace folder, a slash, then path characters, not inside a
/// longer path; `::item` and trailing punctuation left off.
fn paths_on(page: &str) -> BTreeSet<String> {
    let re = Regex::new(&format!(
        r"(^|[^A-Za-z0-9_./-])((?:{TOP})/[A-Za-z0-9_./-]*)"
    ))
    .unwrap();
    re.captures_iter(page)
        .map(|c| {
            let p = &c[2];
            let p = p.split("::").next().unwrap_or(p);
            p.trim_end_matches(['.', ',']).to_string()
        })
        .collect()
}

#[test]
fn book_architecture_page_matches_the_folders() {
    let root = root();
    let page = std::fs::read_to_string(root.join(PAGE)).unwrap();
    let mut failures = Vec::new();

    for p in paths_on(&page) {
        if !root.join(&p).exists() {
            failures.push(format!("{PAGE} names `{p}`, which does not exist"));
        }
    }

    for dir in ROOTS {
        let mut entries: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let named = if e.file_type().unwrap().is_dir() {
                format!("{dir}/{name}/")
            } else if name.ends_with(".rs") {
                format!("{dir}/{name}")
            } else {
                continue;
            };
            if !page.contains(&format!("`{named}")) {
                failures.push(format!("{PAGE} does not name `{named}`"));
            }
        }
    }

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn book_architecture_paths_are_read_as_written() {
    let found = paths_on(
        "see `src/cmd/hook.rs::respond`, engine/src/effects/ (a lens). and `policies/*.toml`",
    );
    let want = ["engine/src/effects/", "policies/", "src/cmd/hook.rs"];
    assert_eq!(found.into_iter().collect::<Vec<_>>(), want);
}
