//! `seamguard init --undo` after the settings files were edited: exactly what `init` added is
//! taken out and every edit kept (with and without `--force`); a settings file that can no
//! longer be read keeps the policy folder too (never hooks without their policies) and the
//! exit code says so; a Codex `config.toml` gets its `[features]` flag back; a Cursor file
//! `init` created keeps the user's own hook.

use std::path::Path;
use std::process::Output;

use crate::init_world::World;

/// What these tests ask of a [`World`] besides the shared part.
trait Init {
    fn edit(&self, rel: &str, edit: impl Fn(String) -> String);
    fn run(&self, args: &[&str]) -> Output;
    fn files(&self) -> Vec<String>;
}

impl Init for World {
    /// Rewrite `rel` with `edit` (the user's edit after `init`).
    fn edit(&self, rel: &str, edit: impl Fn(String) -> String) {
        let text = edit(self.read(rel));
        self.write(rel, &text);
    }

    /// `seamguard ARGS` in the world ([`World::command`]; `init` with `--no-server`).
    fn run(&self, args: &[&str]) -> Output {
        let mut args = args.to_vec();
        if args.first() == Some(&"init") && !args.contains(&"--undo") {
            args.push("--no-server");
        }
        self.command(&args).output().unwrap()
    }

    /// The files left under `project/`, sorted, folders with a trailing `/`.
    fn files(&self) -> Vec<String> {
        fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                if p.is_dir() {
                    out.push(format!("{rel}/"));
                    walk(base, &p, out);
                } else {
                    out.push(rel);
                }
            }
        }
        let mut out = Vec::new();
        let base = self.path("project");
        walk(&base, &base, &mut out);
        out.sort();
        out
    }
}

/// stdout, stderr and exit code of a run.
fn outcome(o: &Output) -> (String, String, i32) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap(),
    )
}

const SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(cargo test:*)"]
  },
  "hooks": {
    "Stop": [
      { "hooks": [{ "type": "command", "command": "notify-send done" }] }
    ]
  },
  "model": "opus"
}
"#;

/// The user's edits after `init`: another model, one more allowed command, and a hook of
/// their own on an event `init` hooked too.
fn users_edits(text: String) -> String {
    text.replace("\"opus\"", "\"sonnet\"")
        .replace(
            "\"Bash(cargo test:*)\"",
            "\"Bash(cargo test:*)\", \"Bash(make:*)\"",
        )
        .replacen(
            "\"PostToolUse\": [",
            "\"PostToolUse\": [\n      { \"hooks\": [{ \"type\": \"command\", \"command\": \"./fmt.sh\" }] },",
            1,
        )
}

/// [`SETTINGS`] with the user's edits and nothing of `init`'s.
fn edited_settings() -> String {
    SETTINGS
        .replace("\"opus\"", "\"sonnet\"")
        .replace(
            "\"Bash(cargo test:*)\"",
            "\"Bash(cargo test:*)\", \"Bash(make:*)\"",
        )
        .replace(
            "    ]\n  },\n  \"model\"",
            "    ],\n    \"PostToolUse\": [\n      { \"hooks\": [{ \"type\": \"command\", \"command\": \"./fmt.sh\" }] }\n    ]\n  },\n  \"model\"",
        )
}

fn undo_of_edited_settings(force: bool) {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    let (_, err, code) = outcome(&w.run(&["init", "--agent", "claude-code"]));
    assert_eq!(code, 0, "{err}");
    w.edit("project/.claude/settings.json", users_edits);
    let args: &[&str] = if force {
        &["init", "--undo", "--force"]
    } else {
        &["init", "--undo"]
    };
    let (out, err, code) = outcome(&w.run(args));
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.lines().take(2).collect::<Vec<_>>(),
        [
            "seamguard init --undo",
            "  edited .claude/settings.json: took out 13 seamguard handler(s); edits since init kept (.claude/settings.json.seamguard-backup removed)",
        ]
    );
    assert_eq!(w.read("project/.claude/settings.json"), edited_settings());
    // The policies, the manifest and the backup are gone: nothing of init's is left.
    assert_eq!(w.files(), [".claude/", ".claude/settings.json"]);
}

#[test]
fn undo_takes_out_exactly_what_init_added_from_an_edited_settings_file() {
    undo_of_edited_settings(false);
}

#[test]
fn undo_force_keeps_the_edits_of_a_settings_file_too() {
    undo_of_edited_settings(true);
}

#[test]
fn an_unreadable_settings_file_keeps_the_policies_and_fails() {
    let w = World::new(true);
    w.write("project/.claude/settings.json", SETTINGS);
    let (_, err, code) = outcome(&w.run(&["init", "--agent", "claude-code"]));
    assert_eq!(code, 0, "{err}");
    let installed = w.files();
    // A stray comma: the file no longer parses.
    w.edit("project/.claude/settings.json", |t| {
        t.replacen("\"model\"", ",\"model\"", 1)
    });
    let (out, err, code) = outcome(&w.run(&["init", "--undo"]));
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "seamguard init: could not take seamguard's hooks out of .claude/settings.json:"
        ),
        "{err}"
    );
    assert_eq!(
        out,
        "seamguard init --undo\n  kept the policy files: .claude/settings.json still run(s) seamguard; fix it and run `seamguard init --undo` again\n"
    );
    // Nothing was removed: the hooks still have their policies, and the manifest to undo.
    assert_eq!(w.files(), installed);
    // Fixed, the undo goes through.
    w.edit("project/.claude/settings.json", |t| {
        t.replacen(",\"model\"", "\"model\"", 1)
    });
    let (_, err, code) = outcome(&w.run(&["init", "--undo"]));
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(w.read("project/.claude/settings.json"), SETTINGS);
    assert_eq!(w.files(), [".claude/", ".claude/settings.json"]);
}

#[test]
fn codex_flag_goes_back_off_and_an_edited_hooks_file_keeps_the_users_hook() {
    let w = World::new(true);
    let config = "model = \"o3\"\n\n[features]\nhooks = false   # off\n";
    w.write("project/.codex/config.toml", config);
    let (_, err, code) = outcome(&w.run(&["init", "--agent", "codex"]));
    assert_eq!(code, 0, "{err}");
    w.edit("project/.codex/config.toml", |t| {
        t.replace("\"o3\"", "\"o4-mini\"")
    });
    // hooks.json was created by init; the user adds a Stop hook of their own to it.
    w.edit("project/.codex/hooks.json", |t| {
        t.replacen(
            "\"Stop\": [",
            "\"Stop\": [\n      { \"hooks\": [{ \"type\": \"command\", \"command\": \"./gate.sh\" }] },",
            1,
        )
    });
    let (out, err, code) = outcome(&w.run(&["init", "--undo"]));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        w.read("project/.codex/config.toml"),
        "model = \"o4-mini\"\n\n[features]\nhooks = false   # off\n"
    );
    let hooks: serde_json::Value =
        serde_json::from_str(&w.read("project/.codex/hooks.json")).unwrap();
    assert_eq!(
        hooks,
        serde_json::json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "./gate.sh"}]}
        ]}})
    );
    assert_eq!(
        w.files(),
        [".codex/", ".codex/config.toml", ".codex/hooks.json"]
    );
}

#[test]
fn a_cursor_file_init_created_and_nobody_else_touched_is_removed_after_an_edit_of_ours_only() {
    let w = World::new(true);
    let (_, err, code) = outcome(&w.run(&["init", "--agent", "cursor"]));
    assert_eq!(code, 0, "{err}");
    // Reformatted by an editor: the same entries, another layout.
    w.edit("project/.cursor/hooks.json", |t| {
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        serde_json::to_string(&v).unwrap()
    });
    let (out, err, code) = outcome(&w.run(&["init", "--undo"]));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.contains(
            "  removed .cursor/hooks.json (changed since init, nothing of the user's in it)\n"
        ),
        "{out}"
    );
    assert_eq!(w.files(), Vec::<String>::new());
}
