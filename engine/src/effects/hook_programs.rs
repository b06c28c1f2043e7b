//! The programs the agents' guard hooks run: whichever guard the settings on disk register
//! before a tool runs (seamguard or any other), its program is part of the guard.
//!
//! In: the call's writes and deletes, and the hook settings on disk (Claude Code user, project
//! and local settings; Codex, Cursor and Gemini CLI hook files of the home and the project).
//! Out: a [`What::Configure`] `guard-removed` effect, on the write's or delete's route, when
//! the call replaces whole (`cp … DEST`, `ln -sf`, `mv`, a `Write` over a compiled program; new
//! text over a hook script is the settings lens's to read) or deletes the program
//! that a hook on a deciding event runs (`PreToolUse`, `PermissionRequest`, Cursor's
//! `before…` events, Gemini CLI's `BeforeTool`): the first word of its command (the second
//! after an interpreter, `bash ~/.claude/hooks/guard.sh`), a bare name looked up in `PATH`
//! (`moat guard` → `~/.local/bin/moat`). Hooks on other events (a formatter after an edit) and
//! edits or appends to a hook script are left to the other rules.

use serde_json::Value;

use super::model::{Agent, Change, Effect, Effects, SettingsChange, What};
use super::settings_hooks::hook_commands;
use crate::shell_env::ShellEnv;

/// The largest settings file read, in bytes (1 MiB).
const MAX_FILE: u64 = 1024 * 1024;

/// Hook events that decide whether a tool call runs (lower case).
const GUARD_EVENTS: &[&str] = &[
    "pretooluse",
    "permissionrequest",
    "beforeshellexecution",
    "beforemcpexecution",
    "beforereadfile",
    "beforetool",
];

/// Interpreters whose first operand is the program a hook runs.
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "python", "python3", "node", "deno", "bun", "ruby", "perl",
    "exec", "env",
];

/// Read a settings file of at most [`MAX_FILE`] bytes as JSON (TOML is not read: Codex hooks
/// live in `hooks.json`).
fn read_json(abs: &str) -> Option<Value> {
    let meta = std::fs::metadata(abs).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        return None;
    }
    serde_json::from_str(&std::fs::read_to_string(abs).ok()?).ok()
}

/// Whether the file at `abs` is a compiled program (a NUL byte in its first 8 KiB), not a
/// script.
fn is_binary(abs: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8192];
    std::fs::File::open(abs)
        .and_then(|mut f| f.read(&mut head))
        .is_ok_and(|n| head[..n].contains(&0))
}

/// A bare program name looked up in `PATH`, as the host's shell would find it.
fn in_path(name: &str) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|f| f.is_file())
        .map(|f| f.to_string_lossy().into_owned())
}

/// The program file a hook command runs, absolute.
fn program_of(cmd: &str, project: Option<&str>, env: &ShellEnv) -> Option<String> {
    let words: Vec<String> = cmd
        .split_whitespace()
        .map(|w| w.replace(['"', '\''], ""))
        .collect();
    let first = words.first()?;
    let base = first.rsplit('/').next().unwrap_or(first);
    let word = if INTERPRETERS.contains(&base) {
        words.iter().skip(1).find(|w| !w.starts_with('-'))?
    } else {
        first
    };
    let word = match project {
        Some(p) => word
            .replace("${CLAUDE_PROJECT_DIR}", p)
            .replace("$CLAUDE_PROJECT_DIR", p),
        None => word.clone(),
    };
    if !word.contains('/') {
        return in_path(&word);
    }
    crate::paths::normalize(&word, project, &env.home)
}

/// The programs the guard hooks of the settings on disk run, with their agent and event.
fn guard_programs(project: Option<&str>, env: &ShellEnv) -> Vec<(String, Agent, String)> {
    let home = env.home.trim_end_matches('/');
    let mut files: Vec<(String, Agent)> = vec![
        (format!("{home}/.claude/settings.json"), Agent::ClaudeCode),
        (format!("{home}/.codex/hooks.json"), Agent::Codex),
        (format!("{home}/.cursor/hooks.json"), Agent::Cursor),
        (format!("{home}/.gemini/settings.json"), Agent::GeminiCli),
    ];
    if let Some(p) = project {
        let p = p.trim_end_matches('/');
        files.push((format!("{p}/.claude/settings.json"), Agent::ClaudeCode));
        files.push((
            format!("{p}/.claude/settings.local.json"),
            Agent::ClaudeCode,
        ));
        files.push((format!("{p}/.codex/hooks.json"), Agent::Codex));
        files.push((format!("{p}/.cursor/hooks.json"), Agent::Cursor));
        files.push((format!("{p}/.gemini/settings.json"), Agent::GeminiCli));
    }
    let mut out = Vec::new();
    for (f, agent) in files {
        let Some(doc) = read_json(&f) else {
            continue;
        };
        for (event, _, cmd) in hook_commands(&doc) {
            if !GUARD_EVENTS.contains(&event.to_ascii_lowercase().as_str()) {
                continue;
            }
            if let Some(p) = program_of(cmd, project, env) {
                out.push((p, agent, event.to_string()));
            }
        }
    }
    out
}

/// Add a `guard-removed` change for every write that replaces, and every delete of, a program
/// a guard hook runs.
pub(crate) fn guard_programs_replaced(payload: &Value, fx: &mut Effects, env: &ShellEnv) {
    let touched: Vec<(usize, String)> = fx
        .list
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (p, visible) = match &e.what {
                What::Write {
                    path,
                    append: false,
                    content,
                } => (path, content.is_some()),
                What::Delete { path, .. } => (path, false),
                _ => return None,
            };
            if p.dynamic {
                return None;
            }
            let abs = crate::paths::normalize(&p.text, p.cwd.as_deref(), &env.home)?;
            // New text over a hook script is the settings lens's to read (does it still run
            // the guard?); over a compiled program, it replaces the guard.
            (!visible || is_binary(&abs)).then_some((i, abs))
        })
        .collect();
    if touched.is_empty() {
        return;
    }
    let project = env.project.clone().or_else(|| {
        payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let programs = guard_programs(project.as_deref(), env);
    if programs.is_empty() {
        return;
    }
    // A hook script the settings lens found rewritten without seamguard is named once.
    let named: Vec<String> = fx
        .list
        .iter()
        .filter_map(|e| match &e.what {
            What::Configure(c) if c.change == Change::GuardRemoved => {
                crate::paths::normalize(&c.file.text, c.file.cwd.as_deref(), &env.home)
            }
            _ => None,
        })
        .collect();
    let mut derived = Vec::new();
    for (i, abs) in touched.into_iter().filter(|(_, a)| !named.contains(a)) {
        let Some((_, agent, event)) = programs.iter().find(|(p, ..)| *p == abs) else {
            continue;
        };
        let Some(e) = fx.list.get(i) else {
            continue;
        };
        let (file, verb) = match &e.what {
            What::Delete { path, .. } => (path.clone(), "deleted"),
            What::Write { path, .. } => (path.clone(), "replaced"),
            _ => continue,
        };
        derived.push(Effect {
            what: What::Configure(SettingsChange {
                file,
                agent: *agent,
                change: Change::GuardRemoved,
                detail: format!("the program a {event} hook runs is {verb}"),
            }),
            route: e.route.clone(),
        });
    }
    fx.list.extend(derived);
}

#[cfg(test)]
#[path = "hook_programs_tests.rs"]
mod tests;
