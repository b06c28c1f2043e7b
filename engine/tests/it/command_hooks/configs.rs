//! Real hook configurations (`tests/data/configs/`) import and load: rule counts, warnings,
//! timeouts, matchers and dialects.

use std::path::{Path, PathBuf};

use seamguard_engine::import::{guess_dialect, import_config};
use seamguard_engine::{DecisionTable, Dialect, LoadedPolicy, Scope, Seam, load_str};
use serde_json::json;

use crate::support::{data_dir, policy};

fn config_dir() -> PathBuf {
    data_dir().join("configs")
}

#[test]
fn real_sample_configs_import_and_load_with_pinned_rule_counts_and_warnings() {
    let cc = Dialect::ClaudeCode;
    let cx = Dialect::Codex;
    let no_seam = |f: &str, e: &str, kinds: &str| {
        format!("{f}: event `{e}` has no seamguard seam; its 1 handler(s) ({kinds}) are skipped")
    };
    let expected: Vec<(&str, Dialect, usize, Vec<String>)> = vec![
        ("claude-plugin-hooks-1.json", cc, 4, vec![]),
        (
            "claude-plugin-hooks-2.json",
            cc,
            3,
            vec![
                "claude-plugin-hooks-2.json: hooks.PostToolUse[1].hooks[0]: `asyncRewake` handlers (a background run that wakes the agent) are not run by seamguard; skipped".into(),
                "claude-plugin-hooks-2.json: hooks.PostToolUse[1].hooks[1]: `asyncRewake` handlers (a background run that wakes the agent) are not run by seamguard; skipped".into(),
                "claude-plugin-hooks-2.json: hooks.Stop[0].hooks[0]: `asyncRewake` handlers (a background run that wakes the agent) are not run by seamguard; skipped".into(),
            ],
        ),
        ("claude-plugin-hooks-3.json", cc, 1, vec![]),
        ("claude-plugin-hooks-4.json", cc, 1, vec![]),
        (
            "claude-plugin-hooks-5.json",
            cc,
            14,
            vec![
                "claude-plugin-hooks-5.json: hooks.Stop[0].hooks[0]: matcher `Stop` on Stop is ignored by the host; dropped".into(),
                "claude-plugin-hooks-5.json: hooks.Stop[1].hooks[0]: matcher `Stop` on Stop is ignored by the host; dropped".into(),
            ],
        ),
        (
            "claude-settings-1.json",
            cc,
            12,
            vec![no_seam("claude-settings-1.json", "Setup", "command")],
        ),
        ("claude-settings-2.json", cc, 5, vec![]),
        ("claude-settings-3.json", cc, 1, vec![]),
        (
            "claude-settings-4.json",
            cc,
            12,
            vec![
                no_seam("claude-settings-4.json", "ConfigChange", "command"),
                no_seam("claude-settings-4.json", "InstructionsLoaded", "command"),
                "claude-settings-4.json: hooks.Notification[0].hooks[1]: handler type `http` is not run by seamguard (only `command`); skipped".into(),
                no_seam("claude-settings-4.json", "Setup", "command"),
                "claude-settings-4.json: hooks.Stop[0].hooks[0]: handler type `prompt` is not run by seamguard (only `command`); skipped".into(),
                no_seam("claude-settings-4.json", "TaskCompleted", "agent"),
                no_seam("claude-settings-4.json", "TeammateIdle", "command"),
                no_seam("claude-settings-4.json", "WorktreeCreate", "command"),
                no_seam("claude-settings-4.json", "WorktreeRemove", "command"),
            ],
        ),
        ("codex-hooks-1.json", cx, 10, vec![]),
        ("codex-hooks-2.json", cx, 1, vec![]),
        ("codex-hooks-3.json", cx, 4, vec![]),
    ];
    let mut all = Vec::new();
    for (i, (name, dialect, rules, warnings)) in expected.iter().enumerate() {
        let text = std::fs::read_to_string(config_dir().join(name)).unwrap();
        let imp = import_config(name, &text, *dialect, None).unwrap();
        assert_eq!(imp.rules, *rules, "{name}\n{}", imp.toml);
        assert_eq!(&imp.warnings, warnings, "{name}");
        assert_eq!(imp.dialect, *dialect);
        let p = load_str(&imp.toml, &format!("{name}.toml"), Scope::User, i);
        assert!(
            !p.has_errors(),
            "{name}: {:#?}\n{}",
            p.diagnostics,
            imp.toml
        );
        assert_eq!(p.rules.len(), *rules, "{name}");
        assert!(p.rules.iter().all(|r| r.action.run.is_some()), "{name}");
        all.push(p);
    }
    let table = DecisionTable::new(all);
    assert!(table.failures().is_empty());
    assert_eq!(table.rules().len(), 68);
    assert!(table.compile_all().is_empty(), "{:?}", table.compile_all());
}

#[test]
fn imported_timeouts_matchers_and_dialects_follow_the_source_host() {
    let load = |name: &str, d: Dialect| {
        let text = std::fs::read_to_string(config_dir().join(name)).unwrap();
        let imp = import_config(name, &text, d, None).unwrap();
        policy(&imp.toml)
    };
    let t = |p: &LoadedPolicy, i: usize| p.rules[i].action.run.as_ref().unwrap().timeout_ms;
    // Explicit timeouts are seconds (HOOKS.md A2/B1); the defaults are 600 s, 30 s on
    // UserPromptSubmit.
    let s1 = load("claude-settings-1.json", Dialect::ClaudeCode);
    let ups = s1
        .rules
        .iter()
        .position(|r| r.seam == Seam::PromptSubmit)
        .unwrap();
    assert_eq!(t(&s1, ups), 30_000);
    let pre = s1
        .rules
        .iter()
        .position(|r| r.seam == Seam::PreTool)
        .unwrap();
    assert_eq!(t(&s1, pre), 600_000);
    let p2 = load("claude-plugin-hooks-2.json", Dialect::ClaudeCode);
    assert_eq!(t(&p2, 0), 180_000);
    let c1 = load("codex-hooks-1.json", Dialect::Codex);
    let stop = c1.rules.iter().position(|r| r.seam == Seam::Stop).unwrap();
    assert_eq!(t(&c1, stop), 10_000);
    assert_eq!(
        c1.meta.matcher_mode,
        seamguard_engine::MatcherMode::Codex,
        "codex hooks.json keeps Codex matcher rules (HOOKS.md B4)"
    );
    assert_eq!(
        guess_dialect(Path::new("/repo/.codex/hooks.json")),
        Dialect::Codex
    );
    assert_eq!(
        guess_dialect(Path::new("/home/u/.codex/config.toml")),
        Dialect::Codex
    );
    assert_eq!(
        guess_dialect(Path::new("/repo/.claude/settings.json")),
        Dialect::ClaudeCode
    );
}

#[test]
fn every_non_command_handler_type_is_skipped_with_a_warning_naming_it() {
    let cfg = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "agent", "prompt": "check the tests"},
        {"type": "prompt", "prompt": "is it done?"},
        {"type": "http", "url": "http://127.0.0.1:1/hook"},
        {"type": "mcp_tool", "server": "s", "tool": "t"},
        {"type": "command", "command": "true"}
    ]}]}});
    let imp = import_config("settings.json", &cfg.to_string(), Dialect::ClaudeCode, None).unwrap();
    assert_eq!(imp.rules, 1);
    for kind in ["agent", "prompt", "http", "mcp_tool"] {
        assert!(
            imp.warnings
                .iter()
                .any(|w| w.contains(&format!("handler type `{kind}`")) && w.contains("skipped")),
            "{kind}: {:?}",
            imp.warnings
        );
    }
    // Codex `config.toml` form.
    let toml_src = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"prompt\"\nprompt = \"x\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 15\n";
    let imp = import_config("config.toml", toml_src, Dialect::Codex, None).unwrap();
    assert_eq!(imp.rules, 1);
    assert!(imp.warnings.iter().any(|w| w.contains("`prompt`")));
    assert!(!policy(&imp.toml).has_errors());
}

/// A Claude Code `"async": true` handler imports as a detached run; Codex skips `async`
/// handlers (HOOKS.md), so its import does too.
#[test]
fn async_handlers_import_as_detached_runs_except_in_codex() {
    let text = std::fs::read_to_string(config_dir().join("claude-settings-4.json")).unwrap();
    let imp = import_config("claude-settings-4.json", &text, Dialect::ClaudeCode, None).unwrap();
    let detached: Vec<(&str, &str)> = imp
        .hooks
        .iter()
        .filter(|h| h.detached)
        .map(|h| (h.id.as_str(), h.command.as_str()))
        .collect();
    assert_eq!(
        detached,
        vec![(
            "claude-settings-4-PreToolUse-2-1",
            "echo 'Running bash command' >> /tmp/claude-log.txt"
        )]
    );
    let p = policy(&imp.toml);
    let runs: Vec<(&str, bool)> = p
        .rules
        .iter()
        .filter_map(|r| r.action.run.as_ref().map(|x| (r.id.as_str(), x.detached)))
        .filter(|(_, d)| *d)
        .collect();
    assert_eq!(runs, vec![("claude-settings-4-PreToolUse-2-1", true)]);

    let codex = json!({ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [
        { "type": "command", "command": "log-it", "async": true },
        { "type": "command", "command": "check-it" }
    ] } ] } })
    .to_string();
    let imp = import_config("hooks.json", &codex, Dialect::Codex, None).unwrap();
    assert_eq!(imp.rules, 1);
    assert_eq!(
        imp.warnings,
        vec!["hooks.json: hooks.PreToolUse[0].hooks[0]: `async` handlers are skipped by Codex; skipped".to_string()]
    );
    assert_eq!(imp.hooks[0].command, "check-it");
}
