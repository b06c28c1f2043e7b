//! Unit tests of the lowering: diagnostics and their locations.

use super::*;

fn errors(src: &str) -> Vec<String> {
    load_str(src, "p.toml", Scope::User, 0)
        .diagnostics
        .iter()
        .map(|d| d.to_string())
        .collect()
}

/// Asserts that some error of `src` (loaded as `p.toml`) satisfies `pred`.
fn assert_error(src: &str, pred: impl Fn(&String) -> bool) {
    let e = errors(src);
    assert!(e.iter().any(pred), "{e:#?}");
}

#[test]
fn design_contract_example_loads() {
    let src = include_str!("../../../engine/tests/data/design-example.toml");
    let p = load_str(src, "design.toml", Scope::User, 0);
    let errs: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errs.is_empty(), "{errs:#?}");
    assert_eq!(p.rules.len(), 6);
    assert_eq!(p.tests.len(), 1);
}

#[test]
fn unknown_key_has_location_and_suggestion() {
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecison = \"deny\"\n",
        |m| {
            m.starts_with("p.toml:4:1: error: unknown key `decison` in [[rule]]")
                && m.contains("did you mean `decision`?")
        },
    );
}

#[test]
fn invalid_regex_points_at_the_pattern() {
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.command = { regex = \"(unclosed\" }\ndecision = \"deny\"\n",
        |m| m.starts_with("p.toml:4:26: error: `regex` on `command`: invalid regex"),
    );
}

#[test]
fn action_not_allowed_on_seam() {
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"stop\"\ndecision = \"deny\"\n",
        |m| m.starts_with("p.toml:4:1: error: seam `stop` cannot take `decision`"),
    );
}

#[test]
fn guard_cannot_allow() {
    assert_error("[[guard]]\nid = \"g\"\ndecision = \"allow\"\n", |m| {
        m.contains("`decision` is not allowed in [[guard]]: guards can only deny")
    });
}

#[test]
fn syntax_error_is_located_and_deny_is_read_from_text() {
    let p = load_str(
        "[policy]\non_load_error = \"deny\"\n[[rule]\n",
        "p.toml",
        Scope::User,
        0,
    );
    assert_eq!(p.meta.on_load_error, OnLoadError::Deny);
    assert!(
        p.diagnostics[0].to_string().starts_with("p.toml:3:"),
        "{:?}",
        p.diagnostics
    );
}

#[test]
fn fail_partial_keeps_good_rules() {
    let p = load_str(
        "[[rule]]\nid = \"bad\"\nseam = \"pre-tool\"\nwhen.command = { regex = \"(\" }\ndecision = \"deny\"\n\n[[rule]]\nid = \"good\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
        "p.toml",
        Scope::User,
        0,
    );
    assert_eq!(p.rules.len(), 1);
    assert_eq!(p.rules[0].id, "good");
    assert!(p.has_errors());
}

#[test]
fn durations() {
    assert_eq!(parse_duration_ms("30s"), Some(30_000));
    assert_eq!(parse_duration_ms("500ms"), Some(500));
    assert_eq!(parse_duration_ms("2m"), Some(120_000));
    assert_eq!(parse_duration_ms("7"), Some(7_000));
    assert_eq!(parse_duration_ms("soon"), None);
}

#[test]
fn messages_stay_on_one_line_whatever_the_file_holds() {
    let e = errors("[[rule]]\nid = \"r\\n1\"\nseam = \"pre-tool\"\n\"bad\\nkey\" = 1\n");
    assert_eq!(
        e,
        [
            "p.toml:1:1: error: [[rule]] `r\\n1` has no action; add one of `decision`, `context`, `rewrite`, `redact`, `feedback`, `continue_with`, `halt`, `run`, or `observe = true`",
            "p.toml:4:1: error: unknown key `bad\\nkey` in [[rule]]",
        ]
    );
}
