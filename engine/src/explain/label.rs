//! How `explain` writes a predicate leaf back: as in the policy (`command program = "rm"`),
//! or brief, with long lists cut to their first entries.
//!
//! In: a [`Leaf`] (or one of its tests). Out: its label.

use serde_json::Value;

use crate::policy::{EffectTest, Leaf, PathSpec, ShellTest, Test};

/// `s` on one line, cut to `n` characters (`…` marks the cut).
pub(super) fn shorten(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > n {
        format!("{}…", one.chars().take(n - 1).collect::<String>())
    } else {
        one
    }
}

/// A path spec as written.
pub(super) fn path_spec(p: &PathSpec) -> String {
    p.text()
}

/// How many entries of a list a brief label shows.
const BRIEF_ENTRIES: usize = 3;

/// A list as written: one entry bare, more in brackets; `cut` keeps the first entries and
/// counts the rest (`["cat", "less", "more", … 60 more]`).
fn list(v: &[String], cut: bool) -> String {
    if v.len() == 1 {
        format!("{:?}", v[0])
    } else if cut && v.len() > BRIEF_ENTRIES + 1 {
        let shown: Vec<String> = v[..BRIEF_ENTRIES]
            .iter()
            .map(|x| format!("{x:?}"))
            .collect();
        format!("[{}, … {} more]", shown.join(", "), v.len() - BRIEF_ENTRIES)
    } else {
        format!("{v:?}")
    }
}

/// A shell test's constraints as written (`program = "rm", flags_any = [-r]`).
fn shell_label(t: &ShellTest, cut: bool) -> String {
    let mut parts = Vec::new();
    if !t.programs.is_empty() {
        parts.push(format!("program = {}", list(&t.programs, cut)));
    }
    if !t.subcommands.is_empty() {
        parts.push(format!("subcommand = {}", list(&t.subcommands, cut)));
    }
    let flags = |f: &[Vec<String>]| f.iter().map(|g| g.join("")).collect::<Vec<_>>().join(", ");
    if !t.flags_any.is_empty() {
        parts.push(format!("flags_any = [{}]", flags(&t.flags_any)));
    }
    if !t.flags_all.is_empty() {
        parts.push(format!("flags_all = [{}]", flags(&t.flags_all)));
    }
    if !t.args_any.is_empty() {
        parts.push(format!("args_any = {}", list(&t.args_any, cut)));
    }
    if !t.path_inside.is_empty() {
        let v: Vec<String> = t.path_inside.iter().map(path_spec).collect();
        parts.push(format!("path_inside = {}", list(&v, cut)));
    }
    if !t.path_outside.is_empty() {
        let v: Vec<String> = t.path_outside.iter().map(path_spec).collect();
        parts.push(format!("path_outside = {}", list(&v, cut)));
    }
    if t.push_force {
        parts.push("push_force = true".into());
    }
    if t.push_force_unleased {
        parts.push("push_force_unleased = true".into());
    }
    if t.push_delete {
        parts.push("push_delete = true".into());
    }
    if !t.push_to.is_empty() {
        parts.push(format!("push_to = {}", list(&t.push_to, cut)));
    }
    if parts.is_empty() {
        "(shell test)".into()
    } else {
        parts.join(", ")
    }
}

/// An effect test's constraints as written (`path_inside = [...], recursive = true`).
fn effect_label(t: &EffectTest, cut: bool) -> String {
    let shell = shell_label(&t.shell, cut);
    let mut parts = Vec::new();
    if shell != "(shell test)" {
        parts.push(shell);
    }
    if let Some(r) = t.recursive {
        parts.push(format!("recursive = {r}"));
    }
    if let Some(b) = t.by_pattern {
        parts.push(format!("by_pattern = {b}"));
    }
    if let Some(a) = t.append {
        parts.push(format!("append = {a}"));
    }
    for (k, v) in [
        ("host_in", &t.host_in[..]),
        ("host_not_in", &t.host_not_in),
        ("ip_class", &t.ip_class),
        ("scheme", &t.scheme),
        ("method", &t.method),
        ("body_from_env", &t.body_from_env),
        ("target", &t.targets),
        ("manager", &t.managers),
        ("cli", &t.clis),
        ("service", &t.services),
        ("operation", &t.operations),
        ("source_not_in", &t.source_not_in),
        ("near_name", &t.near_names),
        ("lens", &t.lenses),
        ("via", &t.via),
        ("content_regex", &t.content_regex),
        ("mode", &t.modes),
        ("body", &t.body_kinds),
    ] {
        if !v.is_empty() {
            parts.push(format!("{k} = {}", list(v, cut)));
        }
    }
    if !t.body_from.is_empty() {
        let v: Vec<String> = t.body_from.iter().map(path_spec).collect();
        parts.push(format!("body_from = {}", list(&v, cut)));
    }
    if !t.earlier_read_inside.is_empty() {
        let v: Vec<String> = t.earlier_read_inside.iter().map(path_spec).collect();
        parts.push(format!("earlier_read_inside = {}", list(&v, cut)));
    }
    if t.credential_in_url {
        parts.push("credential_in_url = true".into());
    }
    if t.earlier_fetch {
        parts.push("earlier_fetch = true".into());
    }
    if parts.is_empty() {
        "(any)".into()
    } else {
        parts.join(", ")
    }
}

/// The leaf as written: `command regex = "…"`.
/// `cut`: long lists show their first entries only.
pub(crate) fn leaf_label(l: &Leaf, cut: bool) -> String {
    let body = match &l.test {
        Test::Equals(v) => format!(
            "equals = {}",
            if v.len() == 1 {
                v[0].to_string()
            } else {
                Value::Array(v.clone()).to_string()
            }
        ),
        Test::Regex(v) => format!("regex = {}", list(v, cut)),
        Test::Glob(v) => format!("glob = {}", list(v, cut)),
        Test::Contains(v) => format!("contains = {}", list(v, cut)),
        Test::Prefix(v) => format!("prefix = {}", list(v, cut)),
        Test::Shell(t) => shell_label(t, cut),
        Test::Effect(t) => effect_label(t, cut),
    };
    format!("{} {body}", l.field.name)
}
