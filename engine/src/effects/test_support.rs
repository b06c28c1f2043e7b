//! Helpers the lens tests share: one assertion per line of an expectation table, a `delete`
//! and the body of a `send` in the compact form the tests' effect lines use, and the check of
//! a request to the cloud metadata service.
//!
//! In: a function from a command line to its effects, one compact line each, and a table of
//! lines with the effects wanted; or an effect. Out: assertions; text.

use super::{BodySource, Effects, Endpoint, IpClass, PathRef, Send};
use crate::shell_env::ShellEnv;

/// The effects of a Bash call's command `line`, run in the project `/home/u/p` of the home
/// `/home/u`.
pub(crate) fn bash_effects(line: &str) -> Effects {
    let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    let mut fx = Effects::default();
    let line = serde_json::Value::String(line.to_string());
    super::dispatch::shell_value("Bash", "", &line, Some("/home/u/p"), &env, &mut fx);
    fx
}

/// Each line's effects (`fx`) against the wanted ones, one assertion per line, naming it.
pub(crate) fn check_table(cases: &[(&str, &[&str])], fx: impl Fn(&str) -> Vec<String>) {
    for (line, want) in cases {
        let want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
        assert_eq!(fx(line), want, "{line}");
    }
}

/// A `delete` in the compact form of the tests' effect lines: `delete ~ recursively`,
/// `delete *.o (dynamic)`.
pub(crate) fn show_delete(path: &PathRef, recursive: bool) -> String {
    format!(
        "delete {}{}{}",
        path.text,
        if recursive { " recursively" } else { "" },
        if path.dynamic { " (dynamic)" } else { "" }
    )
}

/// The body sources of a `send`, compact: `file .env, env TOKEN, environment, literal, stdin`.
pub(crate) fn body_text(body: &[BodySource]) -> String {
    let parts: Vec<String> = body
        .iter()
        .map(|b| match b {
            BodySource::File(p) => format!("file {}", p.text),
            BodySource::Env(n) => format!("env {n}"),
            BodySource::Environment => "environment".to_string(),
            BodySource::Literal => "literal".into(),
            BodySource::Stdin => "stdin".into(),
        })
        .collect();
    parts.join(", ")
}

/// A `send` that is a `GET` of the cloud metadata service
/// (`http://169.254.169.254/latest/meta-data/`), its endpoint classed as such.
pub(crate) fn assert_metadata_get(s: &Send) {
    assert_eq!(
        s.url.as_deref(),
        Some("http://169.254.169.254/latest/meta-data/")
    );
    assert_eq!(s.method.as_deref(), Some("GET"));
    assert_eq!(
        s.endpoint.as_ref().map(Endpoint::class),
        Some(IpClass::Metadata)
    );
}
