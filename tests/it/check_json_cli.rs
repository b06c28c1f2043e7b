//! `seamguard check --format json`: every diagnostic with file, line, column, severity, code
//! (the lint name or `error`), message, suggestion and note; `--deny-warnings` turns lint
//! warnings into errors with their code kept.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{Run, output_with_stdin};

fn workdir(name: &str) -> PathBuf {
    crate::support::workdir(&format!("check-json-{name}"))
}

fn check(dir: &Path, args: &[&str]) -> (Run, Value) {
    let mut cmd = crate::support::command_in(dir, dir);
    cmd.arg("check").args(args);
    let r = Run::utf8(output_with_stdin(&mut cmd, b""));
    let v = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    (r, v)
}

#[test]
fn errors_and_lints_as_json() {
    let dir = workdir("errors");
    std::fs::write(
        dir.join("p.toml"),
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"bash\"\ndecision = \"deny\"\n\n[[rule]]\nid = \"b\"\nseam = \"pre-tool\"\ndecison = \"deny\"\n",
    )
    .unwrap();
    let (r, v) = check(&dir, &["p.toml", "--format", "json"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
    assert_eq!(
        v,
        json!({
            "diagnostics": [
                {
                    "file": "p.toml", "line": 7, "column": 1, "severity": "error", "code": "error",
                    "message": "[[rule]] `b` has no action; add one of `decision`, `context`, `rewrite`, `redact`, `feedback`, `continue_with`, `halt`, `run`, or `observe = true`",
                    "suggestion": null, "note": null
                },
                {
                    "file": "p.toml", "line": 10, "column": 1, "severity": "error", "code": "error",
                    "message": "unknown key `decison` in [[rule]]; did you mean `decision`?",
                    "suggestion": "decision",
                    "note": "expected one of: id, seam, tool, matcher, description, when, unless, reason, decision, context, rewrite, redact, feedback, continue_with, max_continuations, halt, run, suppress_prompt, observe"
                },
                {
                    "file": "p.toml", "line": 1, "column": 1, "severity": "warning", "code": "unknown-tool",
                    "message": "rule `a`: no host seamguard speaks sends the tool `bash`; did you mean `Bash`?",
                    "suggestion": "Bash", "note": null
                }
            ],
            "files": 1, "rules": 1, "errors": 2, "warnings": 1
        })
    );
}

#[test]
fn deny_warnings_keeps_the_lint_code() {
    let dir = workdir("deny");
    std::fs::write(
        dir.join("q.toml"),
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"bash\"\ndecision = \"deny\"\n",
    )
    .unwrap();
    let (r, v) = check(&dir, &["q.toml", "--format", "json"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        (v["errors"].as_u64(), v["warnings"].as_u64()),
        (Some(0), Some(1))
    );
    let (r, v) = check(&dir, &["q.toml", "--format", "json", "--deny-warnings"]);
    assert_eq!(r.code, 1);
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    assert_eq!(v["diagnostics"][0]["code"], "unknown-tool");
    assert_eq!(
        (v["errors"].as_u64(), v["warnings"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn the_bundled_library_is_lint_clean() {
    let dir = workdir("library");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = root.join("policies");
    let strict = root.join("policies/strict");
    let (lib, strict) = (lib.to_str().unwrap(), strict.to_str().unwrap());
    for args in [
        vec!["--deny-warnings", "--format", "json", lib],
        vec!["--deny-warnings", "--format", "json", lib, strict],
    ] {
        let (r, v) = check(&dir, &args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stdout);
        assert_eq!(v["diagnostics"], json!([]), "{args:?}");
    }
}
