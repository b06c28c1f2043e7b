//! Unit tests of the lowering: diagnostics and their locations.

use super::action::parse_duration_ms;
use super::load::load_str;
use crate::model::*;

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

/// `src` loaded as `p.toml` on its own with its lists resolved, and its diagnostics as text.
fn resolved(src: &str) -> (Vec<LoadedPolicy>, Vec<String>) {
    let mut set = vec![load_str(src, "p.toml", Scope::User, 0)];
    crate::lists::resolve(&mut set);
    let msgs = set[0].diagnostics.iter().map(|d| d.to_string()).collect();
    (set, msgs)
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
fn run_async_is_a_detached_run() {
    let src = "[[rule]]\nid = \"bg\"\nseam = \"post-tool\"\nrun = { command = \"log\", async = true }\n\n[[rule]]\nid = \"fg\"\nseam = \"post-tool\"\nrun = { command = \"check\" }\n";
    let p = load_str(src, "p.toml", Scope::User, 0);
    assert!(p.diagnostics.is_empty(), "{:#?}", p.diagnostics);
    let detached: Vec<(&str, bool)> = p
        .rules
        .iter()
        .filter_map(|r| {
            r.action
                .run
                .as_ref()
                .map(|run| (r.id.as_str(), run.detached))
        })
        .collect();
    assert_eq!(detached, [("bg", true), ("fg", false)]);
    assert_eq!(
        errors(
            "[[rule]]\nid = \"bg\"\nseam = \"post-tool\"\nrun = { command = \"log\", async = \"yes\" }\n"
        ),
        ["p.toml:4:34: error: `run.async`: expected a boolean, found a string"]
    );
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

const LIBRARY: &str = r#"[lists]
secret_paths = ["**/.env", "**/.ssh/**"]
allowed_hosts = ["github.com"]

[[rule]]
id = "secrets"
seam = "pre-tool"
when.reads = { path_inside = "@secret_paths", path_outside = ["**/.env.example"] }
decision = "deny"

[[rule]]
id = "uploads"
seam = "pre-tool"
when.sends = { host_not_in = "@allowed_hosts", method = ["post", "PUT"] }
decision = "ask"
"#;

/// The effect test of rule `i` of the first policy.
fn effect_of(p: &LoadedPolicy, i: usize) -> EffectTest {
    match p.rules[i].when.as_ref() {
        Some(Pred::Leaf(Leaf {
            test: Test::Effect(t),
            ..
        })) => (**t).clone(),
        other => panic!("not an effect test: {other:?}"),
    }
}

#[test]
fn effect_tests_lower_with_their_kind_and_constraints() {
    let p = load_str(LIBRARY, "lib.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(t.kind, EffectKind::Read);
    assert_eq!(
        t.shell.path_inside,
        [PathSpec::Glob("@secret_paths".into())]
    );
    assert_eq!(
        t.shell.path_outside,
        [PathSpec::Glob("**/.env.example".into())]
    );
    let t = effect_of(&p, 1);
    assert_eq!(t.kind, EffectKind::Send);
    assert_eq!(t.method, ["POST", "PUT"]);
    assert_eq!(
        p.meta
            .list_refs
            .iter()
            .map(|r| (r.name.as_str(), r.source.line, r.source.column))
            .collect::<Vec<_>>(),
        [("secret_paths", 8, 30), ("allowed_hosts", 14, 30)]
    );
}

#[test]
fn the_lens_of_a_runs_test_is_a_lens_not_a_push_target() {
    let src = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.runs = { program = [\"rm\"], lens = [\"mcp\"] }\ndecision = \"deny\"\n";
    let p = load_str(src, "runs.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(t.kind, EffectKind::Run);
    assert_eq!(t.lenses, ["mcp"]);
    assert_eq!(t.shell.programs, ["rm"]);
    assert!(t.shell.push_to.is_empty());
}

#[test]
fn via_is_a_wrapper_list_on_every_effect_not_a_shell_key() {
    let src = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.installs = { manager = [\"npm\"], via = [\"sudo\", \"doas\"] }\ndecision = \"ask\"\n";
    let p = load_str(src, "via.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(t.kind, EffectKind::Install);
    assert_eq!(t.via, ["sudo", "doas"]);
    assert_eq!(t.managers, ["npm"]);
    assert!(t.shell.programs.is_empty());
    let runs = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.runs = { program = \"rm\", via = [\"xargs\"] }\ndecision = \"ask\"\n";
    let p = load_str(runs, "via.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(
        (t.via.as_slice(), t.shell.programs.as_slice()),
        (&["xargs".to_string()][..], &["rm".to_string()][..])
    );
}

#[test]
fn by_pattern_is_a_signal_key_only() {
    let src = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.signals = { target = [\"node\"], by_pattern = true }\ndecision = \"ask\"\n";
    let p = load_str(src, "sig.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!((t.kind, t.by_pattern), (EffectKind::Signal, Some(true)));
    assert_eq!(t.targets, ["node"]);
    assert_error(
        "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.deletes = { by_pattern = true }\ndecision = \"ask\"\n",
        |m| m.contains("unknown key `by_pattern` in `deletes`"),
    );
}

#[test]
fn moved_is_a_delete_key_only() {
    let src = "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.deletes = { recursive = true, moved = false }\ndecision = \"deny\"\n";
    let p = load_str(src, "del.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(
        (t.kind, t.recursive, t.moved),
        (EffectKind::Delete, Some(true), Some(false))
    );
    assert_error(
        "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.writes = { moved = true }\ndecision = \"ask\"\n",
        |m| m.contains("unknown key `moved` in `writes`"),
    );
}

#[test]
fn lists_resolve_across_files_and_layers_stay_monotone() {
    let lib = load_str(LIBRARY, "lib.toml", Scope::Cli, 0);
    let user = load_str(
        "[lists.allowed_hosts]\nextend = [\"docs.rs\"]\n",
        "user.toml",
        Scope::User,
        1,
    );
    let project = load_str(
        "[lists.allowed_hosts]\nextend = [\"evil.example\"]\n[[rule]]\nid = \"p\"\nseam = \"pre-tool\"\nwhen.sends = { host_not_in = \"@allowed_hosts\" }\ndecision = \"deny\"\n",
        ".seamguard/p.toml",
        Scope::Project,
        2,
    );
    let mut set = vec![lib, user, project];
    crate::lists::resolve(&mut set);
    for p in &set {
        assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    }
    // The library (command line) sees the user's extension, not the project's.
    assert_eq!(effect_of(&set[0], 1).host_not_in, ["github.com", "docs.rs"]);
    // The project's own rule sees all three.
    assert_eq!(
        effect_of(&set[2], 0).host_not_in,
        ["github.com", "docs.rs", "evil.example"]
    );
    assert_eq!(
        effect_of(&set[0], 0).shell.path_inside,
        [
            PathSpec::Glob("**/.env".into()),
            PathSpec::Glob("**/.ssh/**".into())
        ]
    );
    // Resolved once: a second pass changes nothing.
    let before = format!("{:?}", set[0].rules);
    crate::lists::resolve(&mut set);
    assert_eq!(format!("{:?}", set[0].rules), before);
}

#[test]
fn an_unknown_list_is_an_error_at_the_reference_and_drops_the_rule() {
    let (set, msgs) = resolved(
        "[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.reads = { path_inside = \"@secret_path\" }\ndecision = \"deny\"\n",
    );
    assert_eq!(
        msgs,
        [
            "p.toml:4:30: error: unknown list `@secret_path`; define it in a `[lists]` table (rule `r`)"
        ]
    );
    assert!(set[0].rules.is_empty());
}

#[test]
fn list_definitions_twice_and_orphan_extensions_are_errors() {
    let a = load_str("[lists]\nx = [\"a\"]\n", "a.toml", Scope::User, 0);
    let b = load_str(
        "[lists]\nx = [\"b\"]\n[lists.y]\nextend = [\"c\"]\n",
        "b.toml",
        Scope::User,
        1,
    );
    let mut set = vec![a, b];
    crate::lists::resolve(&mut set);
    let msgs: Vec<String> = set[1].diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        [
            "b.toml:2:1: error: list `x` is already defined at a.toml:2:1; add to it with `[lists.x] extend = [...]`",
            "b.toml:3:8: error: `[lists.y]` extends a list that no loaded policy defines",
        ]
    );
}

#[test]
fn effect_keys_are_checked_per_kind() {
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.reads = { host_in = \"x\" }\ndecision = \"deny\"\n",
        |m| m.starts_with("p.toml:4:16: error: unknown key `host_in` in `reads`"),
    );
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.sends = { ip_class = \"metdata\" }\ndecision = \"deny\"\n",
        |m| {
            m.starts_with("p.toml:4:27: error: `sends.ip_class`: unknown value `metdata`")
                && m.contains("did you mean `metadata`?")
        },
    );
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.sennds = { }\ndecision = \"deny\"\n",
        |m| m.contains("unknown field `sennds`") && m.contains("did you mean `sends`?"),
    );
}

#[test]
fn grants_take_a_grant_kind_and_the_path_keys() {
    let p = load_str(
        "[[rule]]\nid = \"g\"\nseam = \"pre-tool\"\nwhen.grants = { grant = [\"host-mount\", \"setuid\"], path_inside = [\"/\"] }\ndecision = \"ask\"\n",
        "p.toml",
        Scope::User,
        0,
    );
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let t = effect_of(&p, 0);
    assert_eq!(t.kind, EffectKind::Grant);
    assert_eq!(t.grants, ["host-mount", "setuid"]);
    assert_eq!(t.shell.path_inside, [PathSpec::Glob("/".into())]);
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.grants = { grant = \"root-shel\" }\ndecision = \"deny\"\n",
        |m| m.starts_with("p.toml:4:25: error: `grants.grant`: unknown value `root-shel`"),
    );
    assert_error(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.grants = { target = \"x\" }\ndecision = \"deny\"\n",
        |m| m.contains("unknown key `target` in `grants`"),
    );
}

#[test]
fn test_shorthands_build_pre_tool_events() {
    let p = load_str(
        "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n[[test]]\ncommand = \"ls\"\nexpect = \"ask\"\n[[test]]\nfile_path = \"/w/a\"\ntool = \"Write\"\ncontent = \"x\"\nexpect = \"ask\"\n[[test]]\nurl = \"https://docs.rs\"\nexpect = \"ask\"\n[[test]]\nmcp = { tool = \"mcp__fs__read_file\", arguments = { path = \"/w/a\" } }\nexpect = \"ask\"\n",
        "p.toml",
        Scope::User,
        0,
    );
    assert!(!p.has_errors(), "{:#?}", p.diagnostics);
    let calls: Vec<(String, String)> = p
        .tests
        .iter()
        .map(|t| {
            (
                t.payload["tool_name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                t.payload["tool_input"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("Bash".to_string(), r#"{"command":"ls"}"#.to_string()),
            (
                "Write".into(),
                r#"{"file_path":"/w/a","content":"x"}"#.into()
            ),
            (
                "WebFetch".into(),
                r#"{"url":"https://docs.rs","prompt":"Summarize the page"}"#.into()
            ),
            ("mcp__fs__read_file".into(), r#"{"path":"/w/a"}"#.into()),
        ]
    );
    assert!(
        p.tests
            .iter()
            .all(|t| t.payload["hook_event_name"] == "PreToolUse")
    );
}

#[test]
fn an_invalid_glob_in_a_list_used_as_paths_is_an_error_where_it_is_used() {
    let (set, msgs) = resolved(
        "[lists]\nbad = [\"src/[oops\"]\nhosts = [\"[oops\"]\n[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.reads = { path_inside = \"@bad\" }\ndecision = \"deny\"\n[[rule]]\nid = \"h\"\nseam = \"pre-tool\"\nwhen.sends = { host_in = \"@hosts\" }\ndecision = \"ask\"\n",
    );
    assert_eq!(msgs.len(), 1, "{msgs:#?}");
    assert!(
        msgs[0].starts_with("p.toml:7:30: error: invalid glob `src/[oops` in list `@bad`"),
        "{msgs:#?}"
    );
    // The rule that reads the list as paths is dropped; the host list is not a glob list.
    assert_eq!(
        set[0]
            .rules
            .iter()
            .map(|r| r.id.as_str())
            .collect::<Vec<_>>(),
        ["h"]
    );
}

#[test]
fn an_unknown_list_names_the_closest_defined_one() {
    let (_, msgs) = resolved(
        "[lists]\nsecret_paths = [\"**/.env\"]\n[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.reads = { path_inside = \"@secret_path\" }\ndecision = \"deny\"\n",
    );
    assert_eq!(
        msgs,
        [
            "p.toml:6:30: error: unknown list `@secret_path`; did you mean `secret_paths`?; define it in a `[lists]` table (rule `r`)"
        ]
    );
}
