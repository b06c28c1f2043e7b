//! Lints: policies that load but cannot do what they say (`seamguard check`).
//!
//! In: the policy files found and the loaded policies. Out: warnings at `file:line:column`
//! (errors with `--deny-warnings`), one per finding:
//! - `unknown-tool`: a tool matcher names a tool no host seamguard speaks sends (`tool =
//!   "bash"`: Claude Code and Codex send `Bash`), so the rule never fires;
//! - `unknown-test-rule`: a `[[test]]` names a rule id (`rules`, `not_rules`) no loaded file
//!   defines, so the example checks nothing;
//! - `duplicate-file`: the same file (same path, or a copy with the same bytes) is found
//!   through two layers; it is loaded once, from the first (most trusted) layer;
//! - `duplicate-rule-id`: two files define the same rule id; both run, and reports cannot
//!   tell them apart;
//! - `shadowed`: a guard or a `deny` rule with the same or a wider matcher and a weaker
//!   condition fires whenever this rule does, so this rule's weaker decision never counts;
//! - `never-holds`: a `when` or `unless` tests a field the seam's events never carry (or a
//!   tool the matcher excludes), so the rule never fires (`when`) or its exception never
//!   applies (`unless`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use seamguard_engine::policy::{DecisionValue, Pred, Test};
use seamguard_engine::{LoadedPolicy, Matcher, PolicyError, Rule, RuleKind, Scope, Seam, Severity};

/// The tool names Claude Code and Codex send in `tool_name` (HOOKS.md A3, B2), besides
/// `mcp__<server>__<tool>`.
pub(crate) const KNOWN_TOOLS: &[&str] = &[
    // Claude Code.
    "Bash",
    "PowerShell",
    "Write",
    "Edit",
    "MultiEdit",
    "Read",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Agent",
    "Task",
    "AskUserQuestion",
    "ExitPlanMode",
    "TodoWrite",
    "TaskOutput",
    "Skill",
    "NotebookEdit",
    "NotebookRead",
    "BashOutput",
    "KillShell",
    "KillBash",
    "SlashCommand",
    // Codex (shell calls arrive as `Bash`; `apply_patch` also matches `Edit` / `Write`).
    "apply_patch",
    "update_plan",
    "spawn_agent",
    "view_image",
    "write_stdin",
    "exec_command",
    "shell",
    "local_shell",
];

/// A warning at a rule's or test's source position.
fn warning(src: &seamguard_engine::policy::Source, message: String) -> PolicyError {
    PolicyError {
        severity: Severity::Warning,
        file: src.file.clone(),
        line: src.line,
        column: src.column,
        message,
        snippet: None,
        width: 1,
        note: None,
    }
}

/// A warning about a whole file.
fn file_warning(file: &str, message: String) -> PolicyError {
    PolicyError {
        severity: Severity::Warning,
        file: Arc::from(file),
        line: 1,
        column: 1,
        message,
        snippet: None,
        width: 1,
        note: None,
    }
}

/// Drop files found twice (the same file — device and inode, so a symbolic or hard link to
/// a file already found — or the same bytes), keeping the first: the most trusted layer comes
/// first. Returns the kept files and a warning per dropped one. One `stat` per file; a file
/// is read only when an earlier one has its exact size (then the bytes decide), so a hook call
/// does not read every policy file to tell copies apart.
pub(crate) fn dedupe(paths: Vec<(PathBuf, Scope)>) -> (Vec<(PathBuf, Scope)>, Vec<PolicyError>) {
    use std::os::unix::fs::MetadataExt;
    /// A kept file: its (device, inode), its size, its bytes once read (`Some(None)`:
    /// unreadable), its index in `kept`.
    struct Seen {
        id: Option<(u64, u64)>,
        len: Option<u64>,
        bytes: Option<Option<Vec<u8>>>,
    }
    let mut kept: Vec<(PathBuf, Scope)> = Vec::new();
    let mut seen: Vec<Seen> = Vec::new();
    let mut warnings = Vec::new();
    for (p, scope) in paths {
        let meta = std::fs::metadata(&p).ok();
        let id = meta.as_ref().map(|m| (m.dev(), m.ino()));
        let len = meta.as_ref().map(MetadataExt::size);
        let mut mine: Option<Option<Vec<u8>>> = None;
        let mut first = None;
        for (i, s) in seen.iter_mut().enumerate() {
            if id.is_some() && s.id == id {
                first = Some(i);
                break;
            }
            if len.is_none() || s.len != len {
                continue;
            }
            let theirs = s
                .bytes
                .get_or_insert_with(|| std::fs::read(&kept[i].0).ok());
            let ours = mine.get_or_insert_with(|| std::fs::read(&p).ok());
            if ours.is_some() && theirs == ours {
                first = Some(i);
                break;
            }
        }
        if let Some(i) = first {
            let (q, qs) = &kept[i];
            warnings.push(file_warning(
                &p.display().to_string(),
                format!(
                    "[duplicate-file] this file is also loaded as {} ({} layer); it is loaded once, from there",
                    q.display(),
                    qs.name()
                ),
            ));
            continue;
        }
        seen.push(Seen {
            id,
            len,
            bytes: mine,
        });
        kept.push((p, scope));
    }
    (kept, warnings)
}

/// Every lint over the loaded policies.
pub(crate) fn lint(loaded: &[LoadedPolicy]) -> Vec<PolicyError> {
    let mut out = Vec::new();
    let rules: Vec<&Rule> = loaded.iter().flat_map(|p| &p.rules).collect();
    // Rule ids: the first definition of each.
    let mut first: HashMap<&str, &Rule> = HashMap::new();
    for r in &rules {
        match first.get(r.id.as_str()) {
            Some(f) if f.source.file != r.source.file => out.push(warning(
                &r.source,
                format!(
                    "[duplicate-rule-id] rule `{}` is also defined at {}; both run, and reports cannot tell them apart",
                    r.id, f.source
                ),
            )),
            Some(_) => {}
            None => {
                first.insert(&r.id, r);
            }
        }
    }
    for p in loaded {
        for t in &p.tests {
            for id in t.rules.iter().chain(&t.not_rules) {
                // The engine's own contributions (`seamguard:unsure`, the load-error rule).
                let engine_own = [
                    seamguard_engine::UNSURE_RULE,
                    seamguard_engine::LOAD_ERROR_RULE,
                ]
                .contains(&id.as_str());
                if !engine_own && !first.contains_key(id.as_str()) {
                    let hint = closest(id, first.keys().copied());
                    out.push(warning(
                        &t.source,
                        format!(
                            "[unknown-test-rule] test `{}` names rule `{id}`, which no loaded file defines{hint}",
                            t.name
                        ),
                    ));
                }
            }
        }
    }
    for r in &rules {
        if let Some(w) = unknown_tool(r) {
            out.push(warning(&r.source, w));
        }
        for (what, pred) in [("when", &r.when), ("unless", &r.unless)] {
            if let Some(why) = pred.as_ref().and_then(|p| never_holds(p, r)) {
                let effect = if what == "when" {
                    "the rule never fires"
                } else {
                    "its exception never applies"
                };
                out.push(warning(
                    &r.source,
                    format!(
                        "[never-holds] rule `{}`: `{what}` can never hold ({why}): {effect}",
                        r.id
                    ),
                ));
            }
        }
        if let Some(a) = rules.iter().find(|a| shadows(a, r)) {
            out.push(warning(
                &r.source,
                format!(
                    "[shadowed] rule `{}` never changes a decision: `{}` ({}, {}) fires whenever it does, with the same or a wider matcher and a weaker condition",
                    r.id,
                    a.id,
                    if a.kind == RuleKind::Guard { "a guard" } else { "deny" },
                    a.source
                ),
            ));
        }
    }
    out
}

/// `, did you mean `x`?` for the closest name, when one is close.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    candidates
        .map(|c| {
            (
                strsim::levenshtein(&name.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .filter(|(d, _)| *d <= 2.max(name.len() / 4))
        .min()
        .map(|(_, c)| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// Whether a tool name is one a host sends.
fn known_tool(name: &str) -> bool {
    KNOWN_TOOLS.contains(&name) || name.starts_with("mcp__")
}

/// The `unknown-tool` finding of a rule on a tool seam.
fn unknown_tool(r: &Rule) -> Option<String> {
    if r.seam.matcher_subject().field() != Some("tool_name") {
        return None;
    }
    match &r.matcher {
        Matcher::Exact(parts) => {
            let unknown: Vec<&String> = parts.iter().filter(|p| !known_tool(p)).collect();
            // Some alternatives known: the rule fires for those; a custom tool name among them
            // is the author's business, a near miss is not.
            let near: Vec<String> = unknown
                .iter()
                .filter_map(|u| {
                    let hint = closest(u, KNOWN_TOOLS.iter().copied());
                    (!hint.is_empty()).then(|| format!("`{u}`{hint}"))
                })
                .collect();
            if !near.is_empty() {
                return Some(format!(
                    "[unknown-tool] rule `{}`: no host seamguard speaks sends the tool {}",
                    r.id,
                    near.join(", ")
                ));
            }
            (!unknown.is_empty() && unknown.len() == parts.len()).then(|| {
                let names: Vec<String> = unknown.iter().map(|u| format!("`{u}`")).collect();
                format!(
                    "[unknown-tool] rule `{}`: {} is no tool Claude Code or Codex sends (MCP tools are `mcp__<server>__<tool>`); the rule fires only if some other host or tool sends that name",
                    r.id,
                    names.join(", ")
                )
            })
        }
        Matcher::Regex(p) => {
            let re = regex::Regex::new(p).ok()?;
            let mentions_mcp = p.contains("mcp");
            (!mentions_mcp && !KNOWN_TOOLS.iter().any(|t| re.is_match(t))).then(|| {
                format!(
                    "[unknown-tool] rule `{}`: the matcher `{p}` matches no tool Claude Code or Codex sends",
                    r.id
                )
            })
        }
        Matcher::All => None,
    }
}

/// The payload keys the events of a seam never carry.
fn absent_keys(seam: Seam) -> &'static [&'static str] {
    const TOOL: &[&str] = &["tool_name", "tool_input", "tool_use_id", "tool_response"];
    match seam {
        Seam::PreTool | Seam::PermissionRequest => &["tool_response", "prompt"],
        Seam::PostTool | Seam::PostToolFailure => &["prompt"],
        Seam::PromptSubmit => TOOL,
        Seam::SessionStart
        | Seam::Stop
        | Seam::SubagentStop
        | Seam::SubagentStart
        | Seam::Notification
        | Seam::PreCompact
        | Seam::PostCompact
        | Seam::SessionEnd => &[
            "tool_name",
            "tool_input",
            "tool_use_id",
            "tool_response",
            "prompt",
        ],
    }
}

/// Why `p` can never hold for rule `r`, if that is decidable here.
fn never_holds(p: &Pred, r: &Rule) -> Option<String> {
    match p {
        Pred::All(k) => k.iter().find_map(|c| never_holds(c, r)),
        Pred::Any(k) if !k.is_empty() => {
            let why: Vec<String> = k.iter().map(|c| never_holds(c, r)).collect::<Option<_>>()?;
            why.into_iter().next()
        }
        Pred::Sure(c) => never_holds(c, r),
        Pred::Any(_) | Pred::Not(_) => None,
        Pred::Leaf(l) => {
            if matches!(l.test, Test::Effect(_)) {
                return (!matches!(
                    r.seam,
                    Seam::PreTool
                        | Seam::PermissionRequest
                        | Seam::PostTool
                        | Seam::PostToolFailure
                ))
                .then(|| {
                    format!(
                        "`{}` tests a tool call's effects, and {} events carry no tool call",
                        l.field.name,
                        r.seam.name()
                    )
                });
            }
            let absent = absent_keys(r.seam);
            let keys: Vec<&str> = l
                .field
                .pointers
                .iter()
                .filter_map(|ptr| ptr.first().map(String::as_str))
                .collect();
            if !keys.is_empty() && keys.iter().all(|k| absent.contains(k)) {
                return Some(format!(
                    "`{}` is never present in {} events",
                    l.field.name,
                    r.seam.name()
                ));
            }
            // `tool_name = "Read"` on a rule whose matcher admits only other tools.
            if l.field.name == "tool_name"
                && let (Test::Equals(vals), Matcher::Exact(parts)) = (&l.test, &r.matcher)
                && !parts.is_empty()
                && vals
                    .iter()
                    .filter_map(|v| v.as_str())
                    .all(|v| !parts.iter().any(|p| p == v) && !codex_alias(v, parts))
            {
                return Some(format!(
                    "it tests `tool_name` for a tool the matcher `{}` excludes",
                    parts.join("|")
                ));
            }
            None
        }
    }
}

/// Codex sends `apply_patch` for a matcher that names `Edit` or `Write` (HOOKS.md B2).
fn codex_alias(v: &str, parts: &[String]) -> bool {
    v == "apply_patch" && parts.iter().any(|p| p == "Edit" || p == "Write")
}

/// Whether rule `a` (a guard or a `deny`) fires whenever `b` does, so that `b`'s weaker
/// decision never counts.
fn shadows(a: &Rule, b: &Rule) -> bool {
    let strong = a.kind == RuleKind::Guard || a.action.decision == Some(DecisionValue::Deny);
    let weak_only = b.kind != RuleKind::Guard
        && matches!(
            b.action.decision,
            Some(DecisionValue::Ask | DecisionValue::Allow | DecisionValue::Defer)
        )
        && b.action.context.is_none()
        && b.action.run.is_none()
        && b.action.rewrite.is_none()
        && b.action.redact.is_empty()
        && b.action.halt.is_none()
        && !b.action.observe;
    if !strong || !weak_only || a.seam != b.seam || a.unless.is_some() || a.action.observe {
        return false;
    }
    let wider = match (&a.matcher, &b.matcher) {
        (Matcher::All, _) => true,
        (Matcher::Exact(x), Matcher::Exact(y)) => !y.is_empty() && y.iter().all(|t| x.contains(t)),
        (x, y) => x == y,
    };
    if !wider {
        return false;
    }
    match (&a.when, &b.when) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(x), Some(y)) => {
            // Every conjunct of `a`'s condition is one of `b`'s.
            let cy = conjuncts(y);
            conjuncts(x).iter().all(|c| cy.contains(c))
        }
    }
}

/// The conjuncts of a predicate (an `all`'s children, else itself).
fn conjuncts(p: &Pred) -> Vec<&Pred> {
    match p {
        Pred::All(k) => k.iter().flat_map(conjuncts).collect(),
        other => vec![other],
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn load(text: &str) -> Vec<LoadedPolicy> {
        vec![seamguard_engine::load_str(text, "p.toml", Scope::User, 0)]
    }

    fn messages(text: &str) -> Vec<String> {
        lint(&load(text))
            .into_iter()
            .map(|d| d.to_string())
            .collect()
    }

    #[test]
    fn a_lowercase_tool_name_is_a_near_miss() {
        assert_eq!(
            messages(
                "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"bash\"\ndecision = \"deny\"\n"
            ),
            [
                "p.toml:1:1: warning: [unknown-tool] rule `a`: no host seamguard speaks sends the tool `bash`; did you mean `Bash`?"
            ]
        );
        assert_eq!(
            messages(
                "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"Bash|mcp__fs__read\"\ndecision = \"deny\"\n"
            ),
            Vec::<String>::new()
        );
    }

    #[test]
    fn tests_naming_no_rule_are_reported() {
        let m = messages(
            "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\ndecision = \"deny\"\n\n[[test]]\nname = \"t\"\nevent = { seam = \"pre-tool\", tool_name = \"Bash\", tool_input = { command = \"rm x\" } }\nexpect = \"deny\"\nrules = [\"no-rn\"]\n",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].contains("[unknown-test-rule] test `t` names rule `no-rn`, which no loaded file defines; did you mean `no-rm`?"),
            "{m:?}"
        );
    }

    #[test]
    fn a_deny_with_a_weaker_condition_shadows_an_ask() {
        let m = messages(
            "[[rule]]\nid = \"deny-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\ndecision = \"deny\"\n\n[[rule]]\nid = \"ask-rm-rf\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.all = [{ command = { program = \"rm\" } }, { command = { flags_any = [\"-r\"] } }]\ndecision = \"ask\"\n",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].contains("[shadowed] rule `ask-rm-rf` never changes a decision: `deny-rm`"),
            "{m:?}"
        );
        // The other way round is no shadow: the deny is narrower.
        let m = messages(
            "[[rule]]\nid = \"ask-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\ndecision = \"ask\"\n\n[[rule]]\nid = \"deny-rm-rf\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.all = [{ command = { program = \"rm\" } }, { command = { flags_any = [\"-r\"] } }]\ndecision = \"deny\"\n",
        );
        assert_eq!(m, Vec::<String>::new());
    }

    #[test]
    fn fields_a_seam_never_carries_never_hold() {
        let m = messages(
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\nunless.tool_response = { contains = \"ok\" }\ndecision = \"ask\"\n\n[[rule]]\nid = \"b\"\nseam = \"prompt-submit\"\nwhen.command = { contains = \"x\" }\ndecision = \"block\"\n\n[[rule]]\nid = \"c\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nunless.tool_name = { equals = \"Read\" }\ndecision = \"ask\"\n",
        );
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(m[0].contains("rule `a`: `unless` can never hold (`tool_response` is never present in pre-tool events): its exception never applies"), "{m:?}");
        assert!(m[1].contains("rule `b`: `when` can never hold (`command` is never present in prompt-submit events): the rule never fires"), "{m:?}");
        assert!(m[2].contains("rule `c`: `unless` can never hold (it tests `tool_name` for a tool the matcher `Bash` excludes)"), "{m:?}");
    }

    #[test]
    fn the_same_file_twice_is_loaded_once() {
        let d = std::env::temp_dir().join(format!("sg-lint-dup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("u")).unwrap();
        std::fs::create_dir_all(d.join("p")).unwrap();
        std::fs::write(d.join("u/a.toml"), "# a\n").unwrap();
        std::fs::write(d.join("p/a.toml"), "# a\n").unwrap();
        std::fs::write(d.join("p/b.toml"), "# b\n").unwrap();
        let (kept, w) = dedupe(vec![
            (d.join("u/a.toml"), Scope::User),
            (d.join("p/a.toml"), Scope::Project),
            (d.join("p/b.toml"), Scope::Project),
            (d.join("u/../u/a.toml"), Scope::Cli),
        ]);
        assert_eq!(
            kept,
            [
                (d.join("u/a.toml"), Scope::User),
                (d.join("p/b.toml"), Scope::Project)
            ]
        );
        assert_eq!(w.len(), 2);
        assert!(
            w[0].message
                .starts_with("[duplicate-file] this file is also loaded as "),
            "{w:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn links_are_the_same_file_and_only_equal_sizes_are_read() {
        let d = std::env::temp_dir().join(format!("sg-lint-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("a.toml"), "# a\n").unwrap();
        std::fs::write(d.join("longer.toml"), "# a, longer\n").unwrap();
        std::os::unix::fs::symlink(d.join("a.toml"), d.join("sym.toml")).unwrap();
        std::fs::hard_link(d.join("a.toml"), d.join("hard.toml")).unwrap();
        let (kept, w) = dedupe(vec![
            (d.join("a.toml"), Scope::User),
            (d.join("sym.toml"), Scope::Project),
            (d.join("hard.toml"), Scope::Project),
            (d.join("longer.toml"), Scope::Project),
            (d.join("missing.toml"), Scope::Cli),
            (d.join("missing-too.toml"), Scope::Cli),
        ]);
        assert_eq!(
            kept,
            [
                (d.join("a.toml"), Scope::User),
                (d.join("longer.toml"), Scope::Project),
                (d.join("missing.toml"), Scope::Cli),
                (d.join("missing-too.toml"), Scope::Cli),
            ]
        );
        assert_eq!(w.len(), 2, "{w:?}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
