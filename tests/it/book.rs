//! The README and the book (`docs/src/`): every code block is tested, every internal link
//! resolves, and the generated reference pages are current.
//!
//! A block's info string says how it is tested (`docs/src/introduction.md`, "How to read the
//! examples"): `toml` policies through `seamguard check --deny-warnings` and `seamguard test`;
//! `toml,with-library` the same, loaded beside the library's `policies/lists.toml` (a snippet
//! that extends its lists); `toml,host-config` parsed as TOML; `json` parsed as JSON; `sh` lines starting with
//! `seamguard` parsed by the real command line (`seamguard docs args`); `console` sessions
//! of `$ seamguard try …` run against the binary and compared byte for byte; `rust` blocks
//! run as doc tests (the file must be included in `lib/src/lib.rs`); `text` is not run. Any other
//! info string, or none, fails: nothing is skipped silently.
//!
//! `SEAMGUARD_DOCS_REWRITE=1 cargo test --test it book_` rewrites the outputs of the console
//! sessions and the generated reference pages instead of comparing them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::{BIN, root};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Rewrite instead of compare.
fn rewrite() -> bool {
    std::env::var_os("SEAMGUARD_DOCS_REWRITE").is_some_and(|v| v == "1")
}

/// A fenced code block: its info string, its body lines, and where they are.
struct Block {
    file: PathBuf,
    /// 1-based line of the opening fence.
    line: usize,
    info: String,
    /// Index (0-based) of the first body line and one past the last, in the file's lines.
    body: std::ops::Range<usize>,
    text: String,
}

/// The fenced blocks of a Markdown file (fences of three or more backticks, indented or not).
fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            let indent = lines[i].len() - trimmed.len();
            let info = rest.trim_start_matches('`').trim().to_string();
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            assert!(
                end < lines.len(),
                "{}:{}: a code block is not closed",
                file.display(),
                i + 1
            );
            let body: Vec<&str> = lines[start..end]
                .iter()
                .map(|l| {
                    l.get(indent.min(l.len() - l.trim_start().len())..)
                        .unwrap_or("")
                })
                .collect();
            out.push(Block {
                file: file.to_path_buf(),
                line: i + 1,
                info,
                body: start..end,
                text: body.join("\n") + "\n",
            });
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// README.md and every page of the book.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs/src"), &mut out);
    // Pages kept outside `docs/src/` and included into the book (`{{#include ../x.md}}`),
    // except the design document, which is the contract the code cites and is shown as is.
    let included: Vec<PathBuf> = out
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines()
                .filter_map(|l| {
                    let path = l.trim().strip_prefix("{{#include ")?.strip_suffix("}}")?;
                    let target = p.parent()?.join(path.trim());
                    Some(target.canonicalize().unwrap_or(target))
                })
                .collect::<Vec<_>>()
        })
        .filter(|t| t.extension().is_some_and(|e| e == "md") && !t.ends_with("docs/DESIGN.md"))
        .collect();
    out.extend(included);
    out
}

/// A fresh folder under the test's temporary folder (not under /tmp, whose folders the
/// library treats as scratch).
fn scratch(name: &str) -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("book-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The words of a shell line, quotes removed; `None` at an unquoted `#` that starts a word
/// (a comment). Enough for the command lines the book shows.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' if !in_word => break,
            // The end of the simple command (`&`, `|`, `;`, a redirection).
            '&' | '|' | ';' | '<' | '>' => break,
            ' ' | '\t' => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        _ => cur.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            _ => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// `seamguard` with an empty home, no user, managed or project policy, no server.
fn isolated(dir: &Path) -> Command {
    // As on a person's machine: the project is a folder of the home, so `~` is outside it.
    let home = dir.join("home");
    let project = home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("SEAMGUARD_MANAGED_DIR", dir.join("managed"))
        .env("SEAMGUARD_AUDIT_LOG", "off")
        .env("SEAMGUARD_SERVE", "0")
        .current_dir(project);
    cmd
}

const BUILT_IN_NOTICE: &str = "seamguard: no policy is configured (no --policy, no .seamguard/, no user or managed folder); judging with the built-in balanced library\n";

/// A `toml,manifest` block: a Cargo manifest snippet whose `[dependencies]` name packages of
/// this workspace (the `Cargo.toml` of the folder its `path` or the name points at).
fn check_manifest(b: &Block, failures: &mut Vec<String>) {
    let doc = match b.text.parse::<toml_edit::DocumentMut>() {
        Ok(d) => d,
        Err(e) => {
            failures.push(format!("{}:{}: not TOML: {e}", b.file.display(), b.line));
            return;
        }
    };
    let ours: Vec<String> = ["lib", "engine", "macros", "policy", "client", "."]
        .iter()
        .filter_map(|d| std::fs::read_to_string(root().join(d).join("Cargo.toml")).ok())
        .filter_map(|m| m.parse::<toml_edit::DocumentMut>().ok())
        .filter_map(|m| m["package"]["name"].as_str().map(str::to_string))
        .collect();
    let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table_like()) else {
        failures.push(format!(
            "{}:{}: no [dependencies]",
            b.file.display(),
            b.line
        ));
        return;
    };
    for (name, _) in deps.iter() {
        if !ours.iter().any(|o| o == name) {
            failures.push(format!(
                "{}:{}: `{name}` is no package of this workspace ({ours:?})",
                b.file.display(),
                b.line
            ));
        }
    }
}

/// A `toml` block: a whole policy that loads clean and whose examples pass (`with_library`:
/// loaded beside the library's named lists, `policies/lists.toml`, which it extends).
fn check_policy(b: &Block, with_library: bool, failures: &mut Vec<String>) {
    let dir = scratch("policy");
    let file = dir.join("block.toml");
    std::fs::write(&file, &b.text).unwrap();
    for sub in ["check", "test"] {
        let mut cmd = isolated(&dir);
        cmd.arg(sub);
        if sub == "check" {
            cmd.arg("--deny-warnings");
        }
        if with_library {
            cmd.arg(root().join("policies/lists.toml"));
        }
        let out = cmd.arg(&file).output().unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{}:{}: `seamguard {sub}` of the policy failed ({}):\n{}{}",
                b.file.display(),
                b.line,
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    // A policy block with examples must run them (an example-free block checks only loading).
    let out = isolated(&dir).arg("test").arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if b.text.contains("[[test]]") && stdout.contains("\n0 passed") {
        failures.push(format!(
            "{}:{}: the policy's examples did not run: {stdout}",
            b.file.display(),
            b.line
        ));
    }
}

/// An `sh` block: every `seamguard …` line parses.
fn check_sh(b: &Block, failures: &mut Vec<String>) {
    for (k, line) in b.text.lines().enumerate() {
        let mut w = words(line);
        // Leading environment assignments (`FOO=1 seamguard …`).
        while w.first().is_some_and(|x| {
            x.split_once('=').is_some_and(|(n, _)| {
                !n.is_empty() && n.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
            })
        }) {
            w.remove(0);
        }
        if w.first().map(String::as_str) != Some("seamguard") {
            continue;
        }
        let out = Command::new(BIN)
            .args(["docs", "args", "--"])
            .args(&w[1..])
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{}:{}: `{}` does not parse:\n{}",
                b.file.display(),
                b.line + 1 + k,
                line.trim(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
}

/// A `console` block: `$ seamguard try …` sessions, each followed by its exact stdout.
/// Returns the block's text as the binary prints it (for a rewrite).
fn check_console(b: &Block, failures: &mut Vec<String>) -> String {
    let mut actual = String::new();
    let mut sessions: Vec<(String, String)> = Vec::new();
    for line in b.text.lines() {
        if let Some(cmd) = line.strip_prefix("$ ") {
            sessions.push((cmd.to_string(), String::new()));
        } else if let Some((_, out)) = sessions.last_mut() {
            out.push_str(line);
            out.push('\n');
        } else {
            failures.push(format!(
                "{}:{}: a console block starts with `$ seamguard try …`",
                b.file.display(),
                b.line
            ));
            return b.text.clone();
        }
    }
    for (cmd, expected) in &sessions {
        let w = words(cmd);
        if w.len() < 2 || w[0] != "seamguard" || w[1] != "try" {
            failures.push(format!(
                "{}:{}: a console block runs `seamguard try` only, not `{cmd}` (use `sh` or `text`)",
                b.file.display(),
                b.line
            ));
            return b.text.clone();
        }
        let dir = scratch("try");
        let out = isolated(&dir).args(&w[1..]).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr != BUILT_IN_NOTICE && !stderr.is_empty() {
            failures.push(format!(
                "{}:{}: `{cmd}` wrote to stderr: {stderr}",
                b.file.display(),
                b.line
            ));
        }
        if &stdout != expected {
            failures.push(format!(
                "{}:{}: `{cmd}` prints\n{stdout}the book shows\n{expected}(if the new output is right: SEAMGUARD_DOCS_REWRITE=1 cargo test --test it book_)",
                b.file.display(),
                b.line
            ));
        }
        actual.push_str(&format!("$ {cmd}\n{stdout}"));
    }
    actual
}

/// Every code block of the README and the book, tested as its info string says.
#[test]
fn book_code_blocks_are_tested() {
    let mut failures = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let lib_rs = std::fs::read_to_string(root().join("lib/src/lib.rs")).unwrap();
    for doc in documents() {
        let mut rewrites: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for b in blocks(&doc) {
            *counts.entry(b.info.clone()).or_default() += 1;
            match b.info.as_str() {
                "toml" => check_policy(&b, false, &mut failures),
                "toml,with-library" => check_policy(&b, true, &mut failures),
                "toml,host-config" => {
                    if let Err(e) = b.text.parse::<toml_edit::DocumentMut>() {
                        failures.push(format!("{}:{}: not TOML: {e}", doc.display(), b.line));
                    }
                }
                "toml,manifest" => check_manifest(&b, &mut failures),
                "json" => {
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(&b.text) {
                        failures.push(format!("{}:{}: not JSON: {e}", doc.display(), b.line));
                    }
                }
                "sh" => check_sh(&b, &mut failures),
                "console" => {
                    let actual = check_console(&b, &mut failures);
                    if actual != b.text {
                        rewrites.push((b.body.clone(), actual));
                    }
                }
                "rust" => {
                    let rel = doc.strip_prefix(root()).unwrap().display().to_string();
                    if !lib_rs.contains(&format!("include_str!(\"../../{rel}\")")) {
                        failures.push(format!(
                            "{}:{}: a rust block of a file lib/src/lib.rs does not include as a doc test",
                            doc.display(),
                            b.line
                        ));
                    }
                }
                "text" => {}
                other => failures.push(format!(
                    "{}:{}: code block with info string {other:?}: say how it is tested (toml, toml,with-library, toml,host-config, toml,manifest, json, sh, console, rust) or mark it `text`",
                    doc.display(),
                    b.line
                )),
            }
        }
        if rewrite() && !rewrites.is_empty() {
            let text = std::fs::read_to_string(&doc).unwrap();
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for (range, new) in rewrites.into_iter().rev() {
                lines.splice(range, new.lines().map(str::to_string));
            }
            std::fs::write(&doc, lines.join("\n") + "\n").unwrap();
        }
    }
    if rewrite() {
        failures.retain(|f| !f.contains("` prints\n"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The README and the book hold runnable blocks of every kind the test knows.
    for kind in ["toml", "sh", "console", "json"] {
        assert!(
            counts.get(kind).is_some_and(|n| *n > 0),
            "no {kind} block: {counts:?}"
        );
    }
}

/// The generated reference pages (`docs/src/reference/`: the command line, the policy keys,
/// the program table, the bundled rules) and the man pages (`docs/man/`) are what
/// `seamguard docs gen` makes now.
#[test]
fn book_reference_pages_are_current() {
    let dir = root().join("docs/src/reference");
    let mut cmd = Command::new(BIN);
    cmd.args(["docs", "gen"])
        .arg(&dir)
        .arg("--man")
        .arg(root().join("docs/man"));
    if !rewrite() {
        cmd.arg("--check");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The targets of a Markdown file's inline links `[text](target)` that are not URLs.
fn local_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Inline code is not a link.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            if !target.contains("://") && !target.starts_with("mailto:") && !target.is_empty() {
                out.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// SUMMARY.md names every page of the book and only pages that exist; every relative link of
/// the README and the book points at a file that exists.
#[test]
fn book_links_resolve() {
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: Vec<PathBuf> = local_links(&summary)
        .into_iter()
        .map(|l| src.join(l))
        .collect();
    let mut problems = Vec::new();
    for p in &listed {
        if !p.is_file() {
            problems.push(format!(
                "SUMMARY.md names {} which does not exist",
                p.display()
            ));
        }
    }
    for doc in documents() {
        if doc.starts_with(&src)
            && doc.file_name().is_some_and(|n| n != "SUMMARY.md")
            && !listed.contains(&doc)
        {
            problems.push(format!("{} is not in SUMMARY.md", doc.display()));
        }
        let text = std::fs::read_to_string(&doc).unwrap();
        // mdBook's `{{#include PATH}}`: the file it includes.
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("{{#include ")
                && let Some(path) = rest.strip_suffix("}}")
                && !doc.parent().unwrap().join(path.trim()).is_file()
            {
                problems.push(format!("{}: includes {path}: no such file", doc.display()));
            }
        }
        for link in local_links(&text) {
            let path = link.split('#').next().unwrap_or("");
            if path.is_empty() {
                continue;
            }
            let target = doc.parent().unwrap().join(path);
            if !target.exists() {
                problems.push(format!("{}: link to {link}: no such file", doc.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn words_split_like_the_shell() {
    assert_eq!(
        words(r#"seamguard try 'rm -rf ~' --cwd "a b"  # comment"#),
        ["seamguard", "try", "rm -rf ~", "--cwd", "a b"]
    );
    assert_eq!(words(r"a\ b c#d"), ["a b", "c#d"]);
    assert_eq!(words("# only a comment"), Vec::<String>::new());
}
