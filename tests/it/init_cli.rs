//! `seamguard init` end to end: the built binary in temporary project and home folders.
//!
//! Byte-exact merges into existing Claude Code settings, idempotence, `--undo`, `--dry-run`,
//! Codex (`hooks.json` plus the `[features]` flag in `config.toml`), `--user`, invalid JSON,
//! edited policy files, and `seamguard check` on the written folder.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::init_world::{World, ok};
use crate::support::BIN;

const CLAUDE_EVENTS: [&str; 13] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "SubagentStart",
    "Notification",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];

const CODEX_EVENTS: [&str; 11] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Stop",
    "SubagentStop",
    "SubagentStart",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];

/// What these tests ask of a [`World`] besides the shared part.
trait Init {
    fn project(&self) -> PathBuf;
    fn hooks_for_every_event(
        &self,
        rel: &str,
        events: &[&str],
    ) -> serde_json::Map<String, serde_json::Value>;
    fn run(&self, args: &[&str]) -> Output;
    fn run_default_or_not(&self, args: &[&str], no_server: bool) -> Output;
    fn refused(&self, rel: &str, text: &str, args: &[&str]) -> String;
}

impl Init for World {
    fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// The `hooks` object of the JSON file `rel`, whose keys must be `events` in order.
    fn hooks_for_every_event(
        &self,
        rel: &str,
        events: &[&str],
    ) -> serde_json::Map<String, serde_json::Value> {
        let mut doc = self.json(rel);
        let hooks = doc["hooks"]
            .as_object_mut()
            .map(std::mem::take)
            .expect("hooks");
        assert_eq!(
            hooks.keys().collect::<Vec<_>>(),
            events.iter().collect::<Vec<_>>()
        );
        hooks
    }

    /// Run `seamguard ARGS` in the world ([`World::command`]); `init` with `--no-server`
    /// (the hook command `seamguard hook`, which these tests pin;
    /// [`the_default_hook_is_the_small_client_by_absolute_path`] tests the default).
    fn run(&self, args: &[&str]) -> Output {
        self.run_default_or_not(args, true)
    }

    /// [`Init::run`] with `init`'s own default (the small client).
    fn run_default_or_not(&self, args: &[&str], no_server: bool) -> Output {
        let mut args = args.to_vec();
        if no_server && args.first() == Some(&"init") {
            args.push("--no-server");
        }
        self.command(&args).output().expect("run seamguard")
    }

    /// `seamguard ARGS` after writing `text` to `rel`: it must fail with exit code 1 and
    /// change no file. Returns its stderr.
    fn refused(&self, rel: &str, text: &str, args: &[&str]) -> String {
        self.write(rel, text);
        let before = self.snapshot();
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(self.snapshot(), before);
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// The group init appends to an existing event array, indented for a 2-space file whose
/// event arrays sit at depth 3 (`"hooks"` → event → array).
fn appended_group(command: &str) -> String {
    format!(
        ",\n      {{\n        \"hooks\": [\n          {{\n            \"type\": \"command\",\n            \
         \"command\": \"{command}\"\n          }}\n        ]\n      }}"
    )
}

/// A whole new event property as init writes it into an existing `hooks` object.
fn new_event(event: &str, command: &str) -> String {
    format!(
        ",\n    \"{event}\": [\n      {{\n        \"hooks\": [\n          {{\n            \
         \"type\": \"command\",\n            \"command\": \"{command}\"\n          }}\n        \
         ]\n      }}\n    ]"
    )
}

const SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(cargo test:*)", "Read(~/notes/**)"],
    "deny": ["Read(./.env)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "./scripts/check.sh", "timeout": 30 }
        ]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "notify-send done" }] }
    ]
  },
  "model": "opus",
  "env": {"FOO": "1"}
}
"#;

/// What init must make of [`SETTINGS`]: the added entries and nothing else.
fn expected_settings(command: &str) -> String {
    let pre_end = SETTINGS
        .find("      }\n    ],\n    \"Stop\"")
        .expect("anchor")
        + "      }".len();
    let stop_end = SETTINGS.find("done\" }] }").expect("anchor") + "done\" }] }".len();
    let hooks_end = SETTINGS.find("\n  },\n  \"model\"").expect("anchor");
    let mut out = String::new();
    out.push_str(&SETTINGS[..pre_end]);
    out.push_str(&appended_group(command));
    out.push_str(&SETTINGS[pre_end..stop_end]);
    out.push_str(&appended_group(command));
    out.push_str(&SETTINGS[stop_end..hooks_end]);
    for e in CLAUDE_EVENTS {
        if e != "PreToolUse" && e != "Stop" {
            out.push_str(&new_event(e, command));
        }
    }
    out.push_str(&SETTINGS[hooks_end..]);
    out
}

#[test]
fn claude_merge_keeps_every_other_byte() {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    let stdout = ok(&w.run(&["init"]));
    assert!(stdout.contains("agent claude-code"), "{stdout}");
    assert!(
        stdout.contains(
            ".claude/settings.json: added `seamguard hook --dialect claude-code` for 13 event(s)"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("absolute path"), "{stdout}");
    let got = w.read("project/.claude/settings.json");
    assert_eq!(
        got,
        expected_settings("seamguard hook --dialect claude-code")
    );
    // The backup is the original, byte for byte.
    assert_eq!(
        w.read("project/.claude/settings.json.seamguard-backup"),
        SETTINGS
    );
    // The policies of the balanced profile, each with its header line.
    let dir = w.path("project/.seamguard");
    let names = toml_names(&dir);
    assert_eq!(names, toml_names(&crate::support::root().join("policies")));
    for n in &names {
        let text = std::fs::read_to_string(dir.join(n)).expect("policy");
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!(
                "# Written by `seamguard init` {} (profile balanced)",
                env!("CARGO_PKG_VERSION")
            )),
            "{n}: {first}"
        );
    }
}

/// The names of the `.toml` files of `dir`, sorted.
fn toml_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    names
}

#[test]
fn second_run_changes_nothing() {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    ok(&w.run(&["init"]));
    let before = w.snapshot();
    let stdout = ok(&w.run(&["init"]));
    assert!(
        stdout.contains(".claude/settings.json: already installed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("already installed: nothing to do"),
        "{stdout}"
    );
    assert_eq!(w.snapshot(), before, "the second run changed files");
    let backups: Vec<_> = before
        .keys()
        .filter(|k| k.contains("seamguard-backup"))
        .collect();
    assert_eq!(
        backups,
        [&"project/.claude/settings.json.seamguard-backup".to_string()]
    );
}

#[test]
fn undo_restores_the_original_bytes() {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    let before = w.snapshot();
    ok(&w.run(&["init", "--profile", "strict"]));
    assert!(w.path("project/.seamguard/strict-network.toml").is_file());
    let stdout = ok(&w.run(&["init", "--undo"]));
    assert!(
        stdout.contains("restored .claude/settings.json"),
        "{stdout}"
    );
    assert_eq!(w.read("project/.claude/settings.json"), SETTINGS);
    // Policy files, manifest, backup and the created .seamguard/ folder are gone.
    assert_eq!(w.snapshot(), before);
    // Nothing left to undo.
    let again = w.run(&["init", "--undo"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to undo"));
}

#[test]
fn undo_keeps_files_edited_since() {
    let w = World::new(true);
    ok(&w.run(&["init"]));
    let edited = w.path("project/.seamguard/destructive.toml");
    let mut text = std::fs::read_to_string(&edited).expect("policy");
    text.push_str("# mine\n");
    std::fs::write(&edited, &text).expect("edit");
    let stdout = ok(&w.run(&["init", "--undo"]));
    assert!(
        stdout.contains("kept .seamguard/destructive.toml"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&edited).expect("kept"), text);
    assert!(!w.path("project/.seamguard/secrets.toml").exists());
    // settings.json did not exist: init created it, undo removes it and the .claude folder.
    assert!(!w.path("project/.claude").exists());
    // The manifest still names the kept file; --force removes it.
    let stdout = ok(&w.run(&["init", "--undo", "--force"]));
    assert!(
        stdout.contains("removed .seamguard/destructive.toml"),
        "{stdout}"
    );
    assert!(!w.path("project/.seamguard").exists());
}

#[test]
fn init_keeps_an_edited_policy_file_unless_forced() {
    let w = World::new(true);
    w.write("project/.seamguard/mcp.toml", "[policy]\nname = \"mine\"\n");
    let stdout = ok(&w.run(&["init"]));
    assert!(stdout.contains("kept .seamguard/mcp.toml"), "{stdout}");
    assert_eq!(
        w.read("project/.seamguard/mcp.toml"),
        "[policy]\nname = \"mine\"\n"
    );
    let stdout = ok(&w.run(&["init", "--force"]));
    assert!(
        stdout.contains(".seamguard/mcp.toml: overwritten (--force)"),
        "{stdout}"
    );
    assert!(
        w.read("project/.seamguard/mcp.toml")
            .starts_with("# Written by `seamguard init`")
    );
    assert_eq!(
        w.read("project/.seamguard/mcp.toml.seamguard-backup"),
        "[policy]\nname = \"mine\"\n"
    );
    ok(&w.run(&["init", "--undo"]));
    assert_eq!(
        w.read("project/.seamguard/mcp.toml"),
        "[policy]\nname = \"mine\"\n"
    );
    assert!(
        !w.path("project/.seamguard/mcp.toml.seamguard-backup")
            .exists()
    );
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    let before = w.snapshot();
    let stdout = ok(&w.run(&["init", "--dry-run"]));
    assert_eq!(w.snapshot(), before, "--dry-run wrote something");
    assert!(
        stdout.contains("--- a/.claude/settings.json\n+++ b/.claude/settings.json\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("+            \"command\": \"seamguard hook --dialect claude-code\"\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("@@ -10,10 +10,136 @@\n         \"hooks\": [\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\n   \"model\": \"opus\",\n"), "{stdout}");
    assert!(
        stdout.contains("--- /dev/null\n+++ b/.seamguard/destructive.toml\n"),
        "{stdout}"
    );
    assert!(stdout.contains("dry run: nothing was written"), "{stdout}");
}

#[test]
fn absolute_path_when_seamguard_is_not_on_path() {
    let w = World::new(false);
    let stdout = ok(&w.run(&["init"]));
    assert!(stdout.contains("absolute path"), "{stdout}");
    let exe = Path::new(BIN).canonicalize().expect("exe");
    let settings: serde_json::Value =
        serde_json::from_str(&w.read("project/.claude/settings.json")).expect("json");
    let cmd = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("command");
    assert_eq!(cmd, format!("{} hook --dialect claude-code", exe.display()));
}

#[test]
fn new_settings_file_has_every_event() {
    let w = World::new(true);
    ok(&w.run(&["init", "--agent", "claude-code"]));
    let hooks = w.hooks_for_every_event("project/.claude/settings.json", &CLAUDE_EVENTS);
    for (_, groups) in &hooks {
        assert_eq!(
            groups,
            &serde_json::json!([{"hooks": [{"type": "command", "command": "seamguard hook --dialect claude-code"}]}])
        );
    }
}

#[test]
fn an_entry_in_settings_local_counts_as_installed() {
    let w = World::new(true);
    let local =
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"seamguard hook"}]}]}}"#;
    w.write("project/.claude/settings.local.json", local);
    ok(&w.run(&["init"]));
    let settings: serde_json::Value =
        serde_json::from_str(&w.read("project/.claude/settings.json")).expect("json");
    assert!(settings["hooks"].get("PreToolUse").is_none());
    assert!(settings["hooks"].get("Stop").is_some());
    assert_eq!(w.read("project/.claude/settings.local.json"), local);
}

const CODEX_CONFIG: &str = r#"# my codex config
model = "gpt-5"

[features]
hooks = false   # off for now
web_search = true

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "seamguard hook --dialect codex"
"#;

#[test]
fn codex_hooks_json_and_features_flag() {
    let w = World::new(true);
    w.write("project/.codex/config.toml", CODEX_CONFIG);
    let existing = "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          \
                    {\"type\": \"command\", \"command\": \"./gate.sh\"}\n        ]\n      }\n    ]\n  }\n}\n";
    w.write("project/.codex/hooks.json", existing);
    let before = w.snapshot();
    // No --agent: only .codex/ exists, so Codex is chosen.
    let stdout = ok(&w.run(&["init"]));
    assert!(stdout.contains("agent codex"), "{stdout}");
    assert!(stdout.contains("/hooks"), "{stdout}");
    // The flag flips in place; every other byte (comment, spacing) stays.
    assert_eq!(
        w.read("project/.codex/config.toml"),
        CODEX_CONFIG.replace("hooks = false   # off", "hooks = true   # off")
    );
    let text = w.read("project/.codex/hooks.json");
    assert!(
        text.starts_with(
            "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          \
         {\"type\": \"command\", \"command\": \"./gate.sh\"}\n        ]\n      },\n"
        ),
        "{text}"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let hooks = doc["hooks"].as_object().expect("hooks");
    // PreToolUse is covered by config.toml's [hooks] (Codex does not deduplicate).
    let mut want: Vec<&str> = CODEX_EVENTS
        .iter()
        .copied()
        .filter(|e| *e != "PreToolUse")
        .collect();
    want.sort_unstable();
    let mut got: Vec<&str> = hooks.keys().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(
        hooks["Stop"][1],
        serde_json::json!({"hooks": [{"type": "command", "command": "seamguard hook --dialect codex"}]})
    );
    assert!(!hooks.contains_key("Notification") && !hooks.contains_key("PostToolUseFailure"));
    // Idempotent, then undone byte for byte.
    let snap = w.snapshot();
    let stdout = ok(&w.run(&["init", "--agent", "codex"]));
    assert!(stdout.contains("already installed"), "{stdout}");
    assert_eq!(w.snapshot(), snap);
    ok(&w.run(&["init", "--undo"]));
    assert_eq!(w.snapshot(), before);
}

#[test]
fn codex_new_hooks_file() {
    let w = World::new(true);
    ok(&w.run(&["init", "--agent", "codex"]));
    w.hooks_for_every_event("project/.codex/hooks.json", &CODEX_EVENTS);
    assert!(!w.path("project/.codex/config.toml").exists());
}

#[test]
fn user_install_goes_to_home_and_xdg() {
    let w = World::new(true);
    let before_project = std::fs::read_dir(w.project()).expect("project").count();
    let stdout = ok(&w.run(&["init", "--user"]));
    assert!(stdout.contains("user folders"), "{stdout}");
    assert!(w.path("xdg/seamguard/destructive.toml").is_file());
    assert!(w.path("xdg/seamguard/.init-manifest.json").is_file());
    let settings: serde_json::Value =
        serde_json::from_str(&w.read("home/.claude/settings.json")).expect("json");
    assert!(settings["hooks"]["PreToolUse"].is_array());
    assert_eq!(
        std::fs::read_dir(w.project()).expect("project").count(),
        before_project
    );
    // Codex user folder: ~/.codex/hooks.json.
    ok(&w.run(&["init", "--user", "--agent", "codex"]));
    assert!(w.path("home/.codex/hooks.json").is_file());
    // Discovery finds the user folder: `check` with no path validates it.
    ok(&w.run(&["check"]));
    ok(&w.run(&["init", "--user", "--undo"]));
    assert!(!w.path("home/.claude").exists());
    assert!(!w.path("home/.codex").exists());
    assert!(!w.path("xdg/seamguard").exists());
}

#[test]
fn invalid_json_is_an_error_and_nothing_is_written() {
    let w = World::new(true);
    let broken = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n";
    let stderr = w.refused("project/.claude/settings.json", broken, &["init"]);
    assert!(
        stderr.contains(".claude/settings.json:3:20: not valid JSON"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn wrong_shape_is_an_error() {
    let w = World::new(true);
    let not_arrays = "{\"hooks\": {\"Stop\": {}}}\n";
    let stderr = w.refused("project/.claude/settings.json", not_arrays, &["init"]);
    assert!(stderr.contains("`hooks.Stop` is not an array"));
}

#[test]
fn written_policies_pass_check() {
    for profile in ["balanced", "strict"] {
        let w = World::new(true);
        ok(&w.run(&["init", "--profile", profile]));
        let stdout = ok(&w.run(&["check", ".seamguard"]));
        assert!(stdout.contains(" 0 error(s)"), "{profile}: {stdout}");
    }
}

#[test]
fn observe_profile_marks_every_policy() {
    let w = World::new(true);
    ok(&w.run(&["init", "--profile", "observe"]));
    let dir = w.path("project/.seamguard");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("dir").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml") {
            n += 1;
            let text = std::fs::read_to_string(&p).expect("policy");
            let policy = text.split("\n[policy]\n").nth(1).expect("[policy] table");
            let table = policy.split("\n[").next().unwrap_or_default();
            assert!(
                table.contains("mode = \"observe\""),
                "{}: {table}",
                p.display()
            );
        }
    }
    assert!(n > 0);
    assert!(!dir.join("strict-network.toml").exists());
}

#[test]
fn profile_switch_replaces_unedited_files() {
    let w = World::new(true);
    ok(&w.run(&["init", "--profile", "strict"]));
    assert!(w.path("project/.seamguard/strict-network.toml").is_file());
    let stdout = ok(&w.run(&["init", "--profile", "balanced"]));
    assert!(
        stdout.contains("strict-network.toml: removed (not in the balanced profile)"),
        "{stdout}"
    );
    assert!(!w.path("project/.seamguard/strict-network.toml").exists());
    assert!(
        w.read("project/.seamguard/destructive.toml")
            .contains("(profile balanced)")
    );
}

#[test]
fn invalid_codex_config_is_an_error_and_nothing_is_written() {
    let w = World::new(true);
    let stderr = w.refused(
        "project/.codex/config.toml",
        "model = \"gpt-5\"\n[features\nhooks = false\n",
        &["init", "--agent", "codex"],
    );
    assert!(stderr.contains(".codex/config.toml:2:"), "{stderr}");
    assert!(stderr.contains("not valid TOML"), "{stderr}");
}

#[test]
fn project_flag_from_another_folder() {
    let w = World::new(true);
    let out = crate::support::command()
        .args(["init", "--project"])
        .arg(w.project())
        .current_dir(w.path("home"))
        .env_clear()
        .env("HOME", w.path("home"))
        .env("XDG_CONFIG_HOME", w.path("xdg"))
        .env("PATH", w.path("bin"))
        .output()
        .expect("run");
    ok(&out);
    assert!(w.path("project/.claude/settings.json").is_file());
    assert!(w.path("project/.seamguard/.init-manifest.json").is_file());
    assert!(!w.path("home/.claude").exists());
}

// ---------------------------------------------------------------------------------------------
// A failed hook: `onFailure: "block"` only where every Claude Code knows the key

/// Put an executable `claude` printing `version` at `rel` in the world.
#[cfg(unix)]
fn fake_claude(w: &World, rel: &str, version: &str) {
    use std::os::unix::fs::PermissionsExt;
    w.write(rel, &format!("#!/bin/sh\necho '{version} (Claude Code)'\n"));
    std::fs::set_permissions(w.path(rel), std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The `onFailure` of the seamguard handler of each event in the project's settings.
fn on_failure_by_event(w: &World) -> Vec<(String, Option<String>)> {
    let hooks = w.hooks_for_every_event("project/.claude/settings.json", &CLAUDE_EVENTS);
    hooks
        .iter()
        .map(|(e, groups)| {
            let h = &groups[0]["hooks"][0];
            (e.clone(), h["onFailure"].as_str().map(str::to_string))
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn claude_new_enough_everywhere_gets_on_failure_block_on_gating_events() {
    let w = World::new(true);
    fake_claude(&w, "bin/claude", "2.1.300");
    let stdout = ok(&w.run(&["init", "--agent", "claude-code"]));
    assert!(
        stdout.contains("  fail-closed: Claude Code blocks a tool call or permission request when the seamguard hook fails (onFailure = \"block\"; every Claude Code found is 2.1.295 or newer)\n"),
        "{stdout}"
    );
    for (event, on_failure) in on_failure_by_event(&w) {
        let want = matches!(event.as_str(), "PreToolUse" | "PermissionRequest");
        assert_eq!(on_failure.as_deref(), want.then_some("block"), "{event}");
    }
}

#[cfg(unix)]
#[test]
fn one_old_claude_keeps_the_key_out_and_says_the_call_still_runs() {
    let w = World::new(true);
    fake_claude(&w, "bin/claude", "2.1.300");
    fake_claude(&w, "home/.local/bin/claude", "2.1.240");
    let stdout = ok(&w.run(&["init", "--agent", "claude-code"]));
    assert!(
        stdout.contains(&format!(
            "  warning: if the seamguard hook fails (crash, timeout, missing binary), Claude Code still runs the call: onFailure = \"block\" needs Claude Code 2.1.295 or newer and {} is 2.1.240; run init again after updating\n",
            w.path("home/.local/bin/claude").display()
        )),
        "{stdout}"
    );
    assert!(on_failure_by_event(&w).iter().all(|(_, f)| f.is_none()));
}

#[test]
fn no_claude_found_and_codex_both_warn_that_a_failed_hook_lets_the_call_run() {
    let w = World::new(true);
    let stdout = ok(&w.run(&["init", "--agent", "claude-code"]));
    assert!(
        stdout.contains("  warning: if the seamguard hook fails (crash, timeout, missing binary), Claude Code still runs the call: onFailure = \"block\" needs Claude Code 2.1.295 or newer and no Claude Code binary was found to check; run init again after updating\n"),
        "{stdout}"
    );
    assert!(
        !w.read("project/.claude/settings.json")
            .contains("onFailure")
    );
    let stdout = ok(&w.run(&["init", "--agent", "codex"]));
    assert!(
        stdout.contains("  warning: if the seamguard hook fails (crash, timeout, missing binary), Codex still runs the call: Codex has no setting that blocks on a failed hook\n"),
        "{stdout}"
    );
    assert!(!w.read("project/.codex/hooks.json").contains("onFailure"));
}

#[test]
fn the_default_hook_is_the_small_client_by_absolute_path() {
    let w = World::new(true);
    let client = Path::new(env!("CARGO_BIN_EXE_seamguard-hook"))
        .canonicalize()
        .expect("client");
    let command = format!("{} --dialect claude-code", client.display());
    let stdout = ok(&w.run_default_or_not(&["init"], false));
    assert!(
        stdout.contains(&format!(
            ".claude/settings.json: added `{command}` for 13 event(s)"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("note: the hook runs the small client seamguard-hook by its absolute path"),
        "{stdout}"
    );
    // Every event, the post-tool ones included (approvals are learned from them).
    let hooks = w.hooks_for_every_event("project/.claude/settings.json", &CLAUDE_EVENTS);
    for (event, groups) in &hooks {
        assert_eq!(
            groups[0]["hooks"][0]["command"], command,
            "{event}: {groups}"
        );
    }
    // The client counts as installed: neither form adds a second handler.
    for no_server in [false, true] {
        let again = ok(&w.run_default_or_not(&["init"], no_server));
        assert!(
            again.contains("already installed: nothing to do"),
            "{again}"
        );
    }
    // `status` recognises it, and the full binary it hands calls to.
    let out = crate::support::command()
        .args(["status", "--format", "json"])
        .current_dir(w.project())
        .env_clear()
        .env("HOME", w.path("home"))
        .env("XDG_CONFIG_HOME", w.path("xdg"))
        .env("XDG_STATE_HOME", w.path("state"))
        .env("SEAMGUARD_MANAGED_DIR", w.path("managed"))
        .env("PATH", w.path("bin"))
        .output()
        .expect("status");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let claude = &v["agents"][0];
    assert_eq!(claude["installed"], true, "{v}");
    assert_eq!(claude["missing_events"], serde_json::json!([]));
    assert_eq!(claude["commands"][0]["command"], command);
    assert_eq!(claude["commands"][0]["client"], true);
    assert_eq!(
        claude["commands"][0]["resolved"],
        client.display().to_string()
    );
    let version = format!("seamguard-hook {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(claude["commands"][0]["version"], version);
    let problems = v["problems"].to_string();
    assert!(!problems.contains("finds no seamguard"), "{problems}");
}
