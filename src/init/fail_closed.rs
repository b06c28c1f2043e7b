//! Whether `init` may ask Claude Code to block a tool call when the seamguard hook itself
//! fails (crashes, times out, is missing), and what to tell the user either way.
//!
//! HOOKS.md A2 notes that newer Claude Code builds accept `onFailure: "block"` on a hook
//! handler "so a failed check blocks instead of failing open", marked uncertain: seen in
//! third-party docs referencing v2.1.295, not in the 2.1.240 reference. A settings key an
//! older build does not know can make it reject the whole settings file, so the key is
//! written only when every Claude Code binary `init` can find reports a version at least
//! [`ON_FAILURE_SINCE`]; otherwise `init` writes the plain handler and says that a failed
//! hook lets the call run. Codex has no such setting (HOOKS.md B3: a failed or timed-out
//! hook fails open), so a Codex install always says so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The first Claude Code version known to accept `onFailure: "block"` (HOOKS.md A2).
pub(super) const ON_FAILURE_SINCE: Version = Version(2, 1, 295);

/// How long one `claude --version` may take before that binary counts as unknown.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// A `major.minor.patch` version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Version(pub(super) u32, pub(super) u32, pub(super) u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The first `x.y.z` in a `--version` output (`2.1.295 (Claude Code)`).
pub(super) fn parse_version(text: &str) -> Option<Version> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find_map(|word| {
            let mut parts = word.split('.').filter(|p| !p.is_empty());
            let v = Version(
                parts.next()?.parse().ok()?,
                parts.next()?.parse().ok()?,
                parts.next()?.parse().ok()?,
            );
            Some(v)
        })
}

/// One Claude Code binary found, and what its `--version` said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// Where it is.
    pub(super) path: PathBuf,
    /// Its version; `None` when it did not answer in time or printed none.
    pub(super) version: Option<Version>,
}

/// Whether `onFailure: "block"` may be written, and the line that tells the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Verdict {
    /// Every binary found is new enough (and at least one was found).
    pub(super) write_key: bool,
    /// What `init` prints about a failing hook.
    pub(super) note: String,
}

/// Decide from the binaries found (see the module documentation).
pub(super) fn decide(found: &[Found]) -> Verdict {
    let old: Vec<String> = found
        .iter()
        .filter(|f| f.version.is_none_or(|v| v < ON_FAILURE_SINCE))
        .map(|f| match f.version {
            Some(v) => format!("{} is {v}", f.path.display()),
            None => format!("{} reported no version", f.path.display()),
        })
        .collect();
    if !found.is_empty() && old.is_empty() {
        return Verdict {
            write_key: true,
            note: format!(
                "fail-closed: Claude Code blocks a tool call or permission request when the seamguard hook fails (onFailure = \"block\"; every Claude Code found is {ON_FAILURE_SINCE} or newer)"
            ),
        };
    }
    let why = if found.is_empty() {
        "no Claude Code binary was found to check".to_string()
    } else {
        old.join(", ")
    };
    Verdict {
        write_key: false,
        note: format!(
            "warning: if the seamguard hook fails (crash, timeout, missing binary), Claude Code still runs the call: onFailure = \"block\" needs Claude Code {ON_FAILURE_SINCE} or newer and {why}; run init again after updating"
        ),
    }
}

/// The seamguard handlers (a command containing `marker`) of `events` in a hooks text:
/// the handlers of matcher groups (`hooks.<event>[].hooks[]`, Claude Code and Gemini CLI)
/// and flat entries (`hooks.<event>[]`, Cursor and Copilot CLI). `None`: not JSON.
fn seamguard_handlers(text: &str, marker: &str, events: &[&str]) -> Option<Vec<Value>> {
    let doc = serde_json::from_str::<Value>(text).ok()?;
    let mut out = Vec::new();
    for e in events {
        let Some(items) = doc
            .get("hooks")
            .and_then(|h| h.get(*e))
            .and_then(Value::as_array)
        else {
            continue;
        };
        for item in items {
            let handlers = match item.get("hooks").and_then(Value::as_array) {
                Some(inner) => inner.iter().collect::<Vec<_>>(),
                None => vec![item],
            };
            for h in handlers {
                let mut cmds = Vec::new();
                super::json_edit::json_commands(h, &mut cmds);
                if cmds
                    .iter()
                    .any(|c| c.contains(marker) || c.contains(super::options::CLIENT_MARKER))
                {
                    out.push(h.clone());
                }
            }
        }
    }
    Some(out)
}

/// Whether every seamguard handler (a command containing `marker`) of the gating events
/// ([`super::json_edit::BLOCK_ON_FAILURE_EVENTS`]) in a Claude Code settings text carries
/// `onFailure: "block"`, and there is at least one.
pub(super) fn settings_block_on_failure(text: &str, marker: &str) -> bool {
    let Some(handlers) =
        seamguard_handlers(text, marker, super::json_edit::BLOCK_ON_FAILURE_EVENTS)
    else {
        return false;
    };
    !handlers.is_empty()
        && handlers
            .iter()
            .all(|h| h.get("onFailure").and_then(Value::as_str) == Some("block"))
}

/// Whether every seamguard entry of Cursor's gating events
/// ([`super::layout::gating_events`]) in a Cursor `hooks.json` text carries
/// `"failClosed": true`, and there is at least one.
pub(super) fn cursor_fails_closed(text: &str, marker: &str) -> bool {
    let gating = super::layout::gating_events(seamguard_engine::Dialect::Cursor);
    let Some(handlers) = seamguard_handlers(text, marker, gating) else {
        return false;
    };
    !handlers.is_empty()
        && handlers
            .iter()
            .all(|h| h.get("failClosed").and_then(Value::as_bool) == Some(true))
}

/// The note when every Claude Code is new enough but the installed handlers lack the key
/// (they were written by an earlier `init`, or by hand).
pub(super) fn missing_key_note(settings: &str) -> String {
    format!(
        "warning: if the seamguard hook fails (crash, timeout, missing binary), Claude Code still runs the call: the seamguard handlers of PreToolUse and PermissionRequest in {settings} have no onFailure = \"block\"; add it to them (every Claude Code found is {ON_FAILURE_SINCE} or newer)"
    )
}

/// The note of a Codex install: Codex has no way to block on a failed hook.
pub(super) const CODEX_NOTE: &str = "warning: if the seamguard hook fails (crash, timeout, missing binary), Codex still runs the call: Codex has no setting that blocks on a failed hook";

/// The note of a Gemini CLI install: a hook that fails with another exit code than 0 or 2
/// only warns (HOSTS.md §1), and Gemini CLI has no setting that changes it.
pub(super) const GEMINI_NOTE: &str = "warning: if the seamguard hook fails (crash, timeout, missing binary), Gemini CLI warns and still runs the call: Gemini CLI has no setting that blocks on a failed hook";

/// The note of a Cursor install: `failClosed: true` is written on the gating events.
pub(super) const CURSOR_NOTE: &str = "fail-closed: Cursor blocks a tool call when the seamguard hook fails (\"failClosed\": true on preToolUse, beforeShellExecution, beforeMCPExecution and beforeReadFile)";

/// The note of a Copilot CLI install: what a failed hook does changed during 2026 and the
/// sources disagree (HOSTS.md §1, marked uncertain); a timeout runs the call in every source.
pub(super) const COPILOT_NOTE: &str = "warning: if the seamguard hook times out, Copilot CLI still runs the call; whether a crash or a missing binary blocks it depends on the Copilot CLI version (older versions skip a failed hook)";

/// Every distinct `claude` executable on `PATH` and in the install locations under `home`
/// (`~/.claude/local/claude` of the local install, `~/.local/bin/claude` of the native one).
pub(super) fn claude_binaries(home: Option<&Path>) -> Vec<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("claude"))
                .collect()
        })
        .unwrap_or_default();
    if let Some(h) = home {
        candidates.push(h.join(".claude").join("local").join("claude"));
        candidates.push(h.join(".local").join("bin").join("claude"));
    }
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for c in candidates {
        if !c.is_file() {
            continue;
        }
        let real = std::fs::canonicalize(&c).unwrap_or_else(|_| c.clone());
        if !seen.contains(&real) {
            seen.push(real);
            out.push(c);
        }
    }
    out
}

/// `bin --version`, waited for at most [`VERSION_TIMEOUT`] (then killed: unknown).
pub(super) fn version_of(bin: &Path) -> Option<Version> {
    let mut child = Command::new(bin)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < VERSION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    parse_version(&String::from_utf8_lossy(&out.stdout))
}

/// Find every Claude Code binary and ask each for its version.
pub(super) fn probe(home: Option<&Path>) -> Verdict {
    let found: Vec<Found> = claude_binaries(home)
        .into_iter()
        .map(|path| Found {
            version: version_of(&path),
            path,
        })
        .collect();
    decide(&found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_version_lines() {
        assert_eq!(
            parse_version("2.1.295 (Claude Code)\n"),
            Some(Version(2, 1, 295))
        );
        assert_eq!(
            parse_version("claude v2.10.3-beta"),
            Some(Version(2, 10, 3))
        );
        assert_eq!(parse_version("Claude Code"), None);
        assert_eq!(parse_version("1.2"), None);
        assert!(Version(2, 1, 295) > Version(2, 1, 240));
        assert!(Version(2, 2, 0) > Version(2, 1, 295));
    }

    #[test]
    fn installed_handlers_are_checked_for_the_key() {
        let with = r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"seamguard hook","onFailure":"block"}]}],
            "PermissionRequest":[{"hooks":[{"type":"command","command":"seamguard hook","onFailure":"block"}]}],
            "Stop":[{"hooks":[{"type":"command","command":"seamguard hook"}]}]}}"#;
        assert!(settings_block_on_failure(with, "seamguard hook"));
        let without = with.replacen(r#","onFailure":"block""#, "", 1);
        assert!(!settings_block_on_failure(&without, "seamguard hook"));
        assert!(!settings_block_on_failure("{}", "seamguard hook"));
        assert!(!settings_block_on_failure("not json", "seamguard hook"));
    }

    #[test]
    fn cursor_entries_are_checked_for_fail_closed() {
        let with = r#"{"version":1,"hooks":{
            "preToolUse":[{"command":"other"},{"command":"seamguard hook --dialect cursor","failClosed":true}],
            "beforeShellExecution":[{"command":"seamguard hook --dialect cursor","failClosed":true}],
            "stop":[{"command":"seamguard hook --dialect cursor"}]}}"#;
        assert!(cursor_fails_closed(with, "seamguard hook"));
        let without = with.replacen(r#","failClosed":true"#, "", 1);
        assert!(!cursor_fails_closed(&without, "seamguard hook"));
        let other_only =
            r#"{"version":1,"hooks":{"preToolUse":[{"command":"x","failClosed":true}]}}"#;
        assert!(!cursor_fails_closed(other_only, "seamguard hook"));
        assert!(!cursor_fails_closed("[", "seamguard hook"));
    }

    #[test]
    fn the_key_needs_every_binary_new_enough() {
        let f = |p: &str, v: Option<Version>| Found {
            path: PathBuf::from(p),
            version: v,
        };
        let new = f("/a/claude", Some(Version(2, 1, 300)));
        assert!(decide(std::slice::from_ref(&new)).write_key);
        let v = decide(&[new.clone(), f("/b/claude", Some(Version(2, 1, 240)))]);
        assert!(!v.write_key);
        assert_eq!(
            v.note,
            "warning: if the seamguard hook fails (crash, timeout, missing binary), Claude Code still runs the call: onFailure = \"block\" needs Claude Code 2.1.295 or newer and /b/claude is 2.1.240; run init again after updating"
        );
        let v = decide(&[new, f("/c/claude", None)]);
        assert!(!v.write_key);
        assert!(
            v.note.contains("/c/claude reported no version"),
            "{}",
            v.note
        );
        let v = decide(&[]);
        assert!(!v.write_key);
        assert!(
            v.note.contains("no Claude Code binary was found to check"),
            "{}",
            v.note
        );
    }
}
