//! The agent-settings lens: what a write to an agent's own settings does to the guard.
//!
//! In: the effects the other lenses found (a `write` with its content, from any route), the
//! payload (an `Edit`'s old and new text, a patch's hunks) and the files on disk. Out: one
//! [`What::Configure`] effect per change that matters to the guard, on the write's route:
//! - **blanket allow**: a Claude Code `permissions.allow` entry that admits every command of a
//!   shell tool (`Bash`, `Bash(*)`, `Bash(:*)`, `PowerShell`) or every tool (`*`);
//! - **bypass approval**: Claude Code `permissions.defaultMode = "bypassPermissions"`; Codex
//!   `approval_policy = "never"` or `sandbox_mode = "danger-full-access"` (at the top or in a
//!   profile);
//! - **guard removed**: a hook entry that runs seamguard is removed or changed (its event,
//!   matcher or command), hooks are switched off (`disableAllHooks`, `allowManagedHooksOnly`,
//!   Codex `[features] hooks = false` / `codex_hooks = false`, `allow_managed_hooks_only`), the
//!   file would no longer parse (the agent drops a settings file it cannot read, hooks and
//!   all), or a hook script that runs seamguard is rewritten without it.
//!
//! The file's new text is built the way the tool builds it: a `Write` replaces it, an append
//! adds to what is on disk, an `Edit` / `MultiEdit` replaces text in the file on disk, a patch
//! applies its hunks to it. When the file is not on disk (a recorded session replayed on
//! another machine) only the written text is seen: its key/value pairs and the strings of its
//! arrays are read from the fragment, and only what the fragment shows is reported.
//!
//! Settings files (HOOKS.md, A1 and B1): Claude Code `.claude/settings.json`,
//! `.claude/settings.local.json`, `managed-settings.json` and its `managed-settings.d/`
//! drop-ins; Codex `config.toml`, `hooks.json` and `requirements.toml` in `.codex/` folders and
//! `/etc/codex/`.

use std::collections::BTreeSet;

use serde_json::Value;

pub use super::model::{Agent, Change, SettingsChange};
use super::model::{Effect, Effects, What};
use super::settings_hooks::{
    HOOK_COMMAND_KEYS, NO_OPS, entries, has_hooks, hooks_emptied, mentions_seamguard,
    no_op_commands,
};
use crate::shell_env::ShellEnv;

/// The largest settings file or hook script read from disk, in bytes (1 MiB).
const MAX_FILE: u64 = 1024 * 1024;

/// How a settings file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Toml,
}

/// Settings files, as case-insensitive globs over the absolute path.
const FILES: &[(&str, Agent, Format)] = &[
    ("**/.claude/settings.json", Agent::ClaudeCode, Format::Json),
    (
        "**/.claude/settings.local.json",
        Agent::ClaudeCode,
        Format::Json,
    ),
    ("**/managed-settings.json", Agent::ClaudeCode, Format::Json),
    (
        "**/managed-settings.d/*.json",
        Agent::ClaudeCode,
        Format::Json,
    ),
    ("**/.codex/config.toml", Agent::Codex, Format::Toml),
    ("**/.codex/hooks.json", Agent::Codex, Format::Json),
    ("**/.codex/requirements.toml", Agent::Codex, Format::Toml),
    ("/etc/codex/*.toml", Agent::Codex, Format::Toml),
    ("/etc/codex/hooks.json", Agent::Codex, Format::Json),
    ("**/.cursor/hooks.json", Agent::Cursor, Format::Json),
    ("**/.gemini/settings.json", Agent::GeminiCli, Format::Json),
    (
        "/etc/gemini-cli/settings.json",
        Agent::GeminiCli,
        Format::Json,
    ),
    ("**/.github/hooks/*.json", Agent::CopilotCli, Format::Json),
    ("**/.copilot/hooks/*.json", Agent::CopilotCli, Format::Json),
];

/// The settings file `abs` is, if any.
fn settings_file(abs: &str) -> Option<(Agent, Format)> {
    let folded = abs.to_lowercase();
    FILES
        .iter()
        .find(|(g, ..)| fast_glob::glob_match(g, &folded))
        .map(|(_, a, f)| (*a, *f))
}

/// Read a regular file of at most [`MAX_FILE`] bytes as text.
fn read_bounded(abs: &str) -> Option<String> {
    let meta = std::fs::metadata(abs).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        return None;
    }
    std::fs::read_to_string(abs).ok()
}

/// Add a [`What::Configure`] effect for every change to an agent's settings that the call's
/// writes make.
pub(crate) fn settings_changes(payload: &Value, fx: &mut Effects, env: &ShellEnv) {
    let mut derived: Vec<Effect> = Vec::new();
    let mut scripts: Option<Vec<(String, Agent)>> = None;
    for e in &fx.list {
        let Some((path, abs, append, content)) = e.static_write(&env.home) else {
            continue;
        };
        let found = match settings_file(&abs) {
            Some((agent, format)) => {
                let old = read_bounded(&abs);
                let how = written(payload, e, &path.text);
                changes_of(agent, format, old.as_deref(), append, content, &how)
            }
            None => {
                // A hook script that runs seamguard, rewritten without it.
                let Some(new) = content.filter(|_| !append) else {
                    continue;
                };
                if mentions_seamguard(new) {
                    continue;
                }
                // Only a script a hook command names (the small settings files, read once per
                // call) is read; an ordinary file written is not read from disk here.
                let hooks = scripts.get_or_insert_with(|| hook_scripts(payload, env));
                let Some(agent) = hook_agent(&abs, hooks) else {
                    continue;
                };
                if !read_bounded(&abs).is_some_and(|o| mentions_seamguard(&o)) {
                    continue;
                }
                vec![(
                    agent,
                    Change::GuardRemoved,
                    "a hook script that runs seamguard is rewritten without it".to_string(),
                )]
            }
        };
        for (agent, change, detail) in found {
            derived.push(Effect {
                what: What::Configure(SettingsChange {
                    file: path.clone(),
                    agent,
                    change,
                    detail,
                }),
                route: e.route.clone(),
            });
        }
    }
    fx.list.extend(derived);
}

/// The text replacements a file-tool edit or a patch makes to one file: `(old, new,
/// replace_all)`.
type Edit = Vec<(String, String, bool)>;

/// How the written content relates to the file.
#[derive(Debug)]
enum Written {
    /// The content is the whole file (a `Write`, a shell redirection or `tee`), or is added to
    /// its end (`append`).
    Whole,
    /// Text replaced in the file (`Edit`, `MultiEdit`, a patch's hunks).
    Edits(Edit),
    /// Some of the file's new text, where it goes unknown (an MCP edit, a notebook cell).
    Part,
}

/// How the call through the route of `e` writes the file named `path`.
fn written(payload: &Value, e: &Effect, path: &str) -> Written {
    let input = payload.get("tool_input").unwrap_or(&Value::Null);
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let file_tool = e.route.lens == Some(super::model::Lens::File);
    match e.route.tool.as_str() {
        _ if e.route.lens == Some(super::model::Lens::Shell) => Written::Whole,
        "Write" if file_tool => Written::Whole,
        "Edit" if file_tool => match (s(input, "old_string"), s(input, "new_string")) {
            (Some(o), Some(n)) => Written::Edits(vec![(
                o,
                n,
                input
                    .get("replace_all")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            )]),
            _ => Written::Part,
        },
        "MultiEdit" if file_tool => Written::Edits(
            input
                .get("edits")
                .and_then(Value::as_array)
                .map(|edits| {
                    edits
                        .iter()
                        .filter_map(|x| {
                            Some((
                                s(x, "old_string")?,
                                s(x, "new_string")?,
                                x.get("replace_all").and_then(Value::as_bool) == Some(true),
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ if file_tool && e.route.argument.starts_with("*** ") => {
            let text = input
                .get("command")
                .or_else(|| input.get("input"))
                .or_else(|| input.get("patch"))
                .and_then(|v| match v {
                    Value::String(t) => Some(t.clone()),
                    Value::Array(items) => items
                        .iter()
                        .filter_map(Value::as_str)
                        .find(|t| t.contains("*** Begin Patch"))
                        .map(str::to_string),
                    _ => None,
                })
                .unwrap_or_default();
            if e.route.argument == "*** Update File" {
                Written::Edits(patch_hunks(&text, path))
            } else {
                Written::Whole
            }
        }
        _ => Written::Part,
    }
}

/// The hunks of an `apply_patch` patch that update `path`, each as `(old lines, new lines)`
/// (context lines in both).
fn patch_hunks(text: &str, path: &str) -> Edit {
    let mut out = Vec::new();
    let mut inside = false;
    let (mut old, mut new): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let flush = |old: &mut Vec<&str>, new: &mut Vec<&str>, out: &mut Edit| {
        if !old.is_empty() || !new.is_empty() {
            out.push((old.join("\n"), new.join("\n"), false));
        }
        old.clear();
        new.clear();
    };
    for line in text.lines() {
        if let Some((header, p)) = super::files::patch_header(line) {
            flush(&mut old, &mut new, &mut out);
            inside = header == "*** Update File" && p == path;
            continue;
        }
        if line.starts_with("*** ") {
            flush(&mut old, &mut new, &mut out);
            inside = false;
            continue;
        }
        if !inside {
            continue;
        }
        if line.starts_with("@@") {
            flush(&mut old, &mut new, &mut out);
        } else if let Some(l) = line.strip_prefix('-') {
            old.push(l);
        } else if let Some(l) = line.strip_prefix('+') {
            new.push(l);
        } else {
            let l = line.strip_prefix(' ').unwrap_or(line);
            old.push(l);
            new.push(l);
        }
    }
    flush(&mut old, &mut new, &mut out);
    out
}

/// The file's text after the call, when it can be built: `None` when an edit's old text is
/// not in the file (the tool would fail, nothing changes), when nothing is visible, or when
/// only part of the new text is.
fn new_text(
    old: Option<&str>,
    append: bool,
    content: Option<&str>,
    how: &Written,
) -> Option<String> {
    match how {
        Written::Whole => {
            let content = content?;
            Some(match (append, old) {
                (true, Some(o)) => format!("{o}{content}"),
                _ => content.to_string(),
            })
        }
        Written::Edits(edit) => {
            let mut text = old?.to_string();
            for (o, n, all) in edit {
                if o.is_empty() || !text.contains(o.as_str()) {
                    return None;
                }
                text = if *all {
                    text.replace(o.as_str(), n)
                } else {
                    text.replacen(o.as_str(), n, 1)
                };
            }
            Some(text)
        }
        Written::Part => None,
    }
}

/// The changes that matter to the guard, as `(agent, change, detail)`.
fn changes_of(
    agent: Agent,
    format: Format,
    old: Option<&str>,
    append: bool,
    content: Option<&str>,
    how: &Written,
) -> Vec<(Agent, Change, String)> {
    if let Some(new) = new_text(old, append, content, how) {
        let old_doc = old.and_then(|o| parse(format, o).ok());
        return match parse(format, &new) {
            Ok(doc) => whole(agent, old_doc.as_ref(), &doc),
            Err(why) => match old_doc {
                Some(o) if !entries(&o).is_empty() => vec![(
                    agent,
                    Change::GuardRemoved,
                    format!("the file would no longer parse ({why}), and its hooks go with it"),
                )],
                _ if append => fragment(agent, format, "", content.unwrap_or_default()),
                // A file that parsed, or none, replaced by text that does not: the host cannot
                // read it and drops it, with every hook it registers (Claude Code stops at an
                // invalid settings file), whatever ran there before.
                None if old.is_none() => vec![(
                    agent,
                    Change::GuardRemoved,
                    format!("the file would not parse ({why}): the host drops it, hooks and all"),
                )],
                Some(_) => vec![(
                    agent,
                    Change::GuardRemoved,
                    format!(
                        "the file would no longer parse ({why}): the host drops it, hooks and all"
                    ),
                )],
                None => Vec::new(),
            },
        };
    }
    match how {
        // On disk, and the edit's old text is not in it: the tool fails.
        Written::Edits(_) if old.is_some() => Vec::new(),
        // Not on disk: read what the written text shows.
        Written::Edits(edit) => fragment(
            agent,
            format,
            &edit
                .iter()
                .map(|(o, ..)| o.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            &edit
                .iter()
                .map(|(_, n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Written::Whole | Written::Part => fragment(agent, format, "", content.unwrap_or_default()),
    }
}

/// Parse a settings file into one JSON value (TOML converted).
fn parse(format: Format, text: &str) -> Result<Value, String> {
    match format {
        Format::Json => serde_json::from_str(text).map_err(|e| e.to_string()),
        Format::Toml => toml::from_str::<toml::Table>(text)
            .map_err(|e| e.message().to_string())
            .and_then(|t| serde_json::to_value(t).map_err(|e| e.to_string())),
    }
}

/// A value at a dotted path (`permissions.defaultMode`).
fn at<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(doc, |v, k| v.get(k))
}

/// Whether a Claude Code permission rule admits every command of a shell tool, or every tool.
fn blanket(rule: &str) -> bool {
    let rule = rule.trim();
    if rule == "*" {
        return true;
    }
    let (tool, spec) = match rule.split_once('(') {
        Some((t, rest)) => (t.trim(), Some(rest.trim_end().trim_end_matches(')'))),
        None => (rule, None),
    };
    let shell = matches!(tool, "Bash" | "PowerShell" | "Shell");
    shell && spec.is_none_or(|s| s.chars().all(|c| matches!(c, '*' | ':' | ' ')))
}

/// The switches that turn approval off: `(dotted key, value, detail)`, per agent.
const BYPASS: &[(Agent, &str, &str)] = &[
    (
        Agent::ClaudeCode,
        "permissions.defaultMode",
        "bypassPermissions",
    ),
    (Agent::Codex, "approval_policy", "never"),
    (Agent::Codex, "sandbox_mode", "danger-full-access"),
];

/// The switches that skip the confirmation of the bypass mode: `(dotted key, value)`.
const BYPASS_SWITCHES: &[(Agent, &str, bool)] =
    &[(Agent::ClaudeCode, "skipDangerousModePermissionPrompt", true)];

/// The switches that turn hooks off: `(dotted key, value)`, per agent.
const HOOKS_OFF: &[(Agent, &str, bool)] = &[
    (Agent::ClaudeCode, "disableAllHooks", true),
    (Agent::ClaudeCode, "allowManagedHooksOnly", true),
    (Agent::Codex, "features.hooks", false),
    (Agent::Codex, "features.codex_hooks", false),
    (Agent::Codex, "hooks.allow_managed_hooks_only", true),
    (Agent::Codex, "allow_managed_hooks_only", true),
    (Agent::GeminiCli, "hooks.enabled", false),
    (Agent::GeminiCli, "tools.enableHooks", false),
    (Agent::GeminiCli, "hooksConfig.enabled", false),
    (Agent::CopilotCli, "disableAllHooks", true),
];

/// The tables a Codex key may sit in: the top and every `[profiles.NAME]`.
fn scopes(agent: Agent, doc: &Value) -> Vec<(String, &Value)> {
    let mut out = vec![(String::new(), doc)];
    if agent == Agent::Codex
        && let Some(Value::Object(p)) = doc.get("profiles")
    {
        out.extend(p.iter().map(|(k, v)| (format!("profiles.{k}."), v)));
    }
    out
}

/// The changes between two parsed documents.
fn whole(agent: Agent, old: Option<&Value>, new: &Value) -> Vec<(Agent, Change, String)> {
    let mut out = Vec::new();
    let null = Value::Null;
    let old_doc = old.unwrap_or(&null);
    // Blanket permission rules added.
    if agent == Agent::ClaudeCode {
        let was: BTreeSet<&str> = at(old_doc, "permissions.allow")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for r in at(new, "permissions.allow")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if blanket(r) && !was.contains(r) {
                out.push((
                    agent,
                    Change::BlanketAllow,
                    format!("`{r}` added to permissions.allow"),
                ));
            }
        }
    }
    // Approval switched off.
    for (scope, table) in scopes(agent, new) {
        for (a, key, value) in BYPASS {
            if *a != agent || at(table, key).and_then(Value::as_str) != Some(value) {
                continue;
            }
            let before = at(old_doc, &format!("{scope}{key}")).and_then(Value::as_str);
            if before != Some(value) {
                out.push((
                    agent,
                    Change::BypassApproval,
                    format!("`{scope}{key} = \"{value}\"`"),
                ));
            }
        }
    }
    // Switches turned.
    for (switches, change) in [
        (BYPASS_SWITCHES, Change::BypassApproval),
        (HOOKS_OFF, Change::GuardRemoved),
    ] {
        for (a, key, value) in switches {
            if *a == agent
                && at(new, key).and_then(Value::as_bool) == Some(*value)
                && at(old_doc, key).and_then(Value::as_bool) != Some(*value)
            {
                out.push((agent, change, format!("`{key} = {value}`")));
            }
        }
    }
    // seamguard's entries removed or changed.
    let now = entries(new);
    for (event, matcher, cmd) in entries(old_doc).difference(&now) {
        let m = if matcher.is_empty() {
            String::new()
        } else {
            format!(" (matcher `{matcher}`)")
        };
        out.push((
            agent,
            Change::GuardRemoved,
            format!("the {event} hook `{cmd}`{m} is removed or changed"),
        ));
    }
    // Every hook removed (`"hooks": {}`): whatever ran there, seamguard included, no longer
    // runs. Judged when the file had hooks, or when what it had is not known (a new file or
    // one not on this machine) and the new text empties them explicitly.
    // (Only when no entry of seamguard's is named as removed: that says it already.)
    let named = out.iter().any(|(_, c, _)| *c == Change::GuardRemoved);
    let had = old.map(has_hooks);
    if !named && hooks_emptied(new) && had != Some(false) {
        out.push((
            agent,
            Change::GuardRemoved,
            "every hook is removed (`\"hooks\"` emptied)".to_string(),
        ));
    }
    // A hook command replaced by one that does nothing (`"command": "true"`).
    if !named && !hooks_emptied(new) && no_op_commands(new) > no_op_commands(old_doc) {
        out.push((
            agent,
            Change::GuardRemoved,
            "a hook command is replaced by one that does nothing".to_string(),
        ));
    }
    out
}

/// One token of a JSON or TOML fragment.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Str(String),
    Word(String),
    Colon,
    Open,
    Close,
}

/// The strings, bare words and structure of a fragment of JSON or TOML text (which need not
/// parse on its own).
fn tokens(t: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                let mut s = String::new();
                while let Some(d) = chars.next() {
                    match d {
                        '\\' if c == '"' => {
                            if let Some(e) = chars.next() {
                                s.push(match e {
                                    'n' => '\n',
                                    't' => '\t',
                                    other => other,
                                });
                            }
                        }
                        d if d == c => break,
                        d => s.push(d),
                    }
                }
                out.push(Token::Str(s));
            }
            ':' | '=' => out.push(Token::Colon),
            '[' | '{' => out.push(Token::Open),
            ']' | '}' => out.push(Token::Close),
            '#' => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            c if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' => {
                let mut w = c.to_string();
                while let Some(&d) = chars.peek() {
                    if d.is_alphanumeric() || d == '_' || d == '-' || d == '.' {
                        w.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Token::Word(w));
            }
            _ => {}
        }
    }
    out
}

/// What a fragment shows: `key = value` pairs (the last key segment) and the strings of the
/// arrays it opens, under their key.
#[derive(Debug, Default)]
struct Shown {
    pairs: BTreeSet<(String, String)>,
    listed: BTreeSet<(String, String)>,
    strings: BTreeSet<String>,
}

fn shown(t: &str) -> Shown {
    let toks = tokens(t);
    let mut s = Shown::default();
    // The key each open bracket was opened under (`None`: an array element or a table).
    let mut stack: Vec<Option<String>> = Vec::new();
    let key_text = |tok: &Token| match tok {
        Token::Str(k) | Token::Word(k) => Some(k.rsplit('.').next().unwrap_or(k).to_string()),
        _ => None,
    };
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Token::Str(v) => {
                s.strings.insert(v.clone());
                if let Some(Some(k)) = stack.last() {
                    s.listed.insert((k.clone(), v.clone()));
                }
            }
            Token::Colon => {
                if let (Some(k), Some(v)) =
                    (i.checked_sub(1).and_then(|j| toks.get(j)), toks.get(i + 1))
                    && let Some(k) = key_text(k)
                {
                    match v {
                        Token::Str(v) | Token::Word(v) => {
                            s.pairs.insert((k, v.clone()));
                        }
                        Token::Open => {
                            stack.push(Some(k));
                            i += 2;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Token::Open => stack.push(None),
            Token::Close => {
                stack.pop();
            }
            Token::Word(_) => {}
        }
        i += 1;
    }
    s
}

/// The changes a fragment shows, `was` being the text it replaces (empty for new text).
fn fragment(agent: Agent, format: Format, was: &str, now: &str) -> Vec<(Agent, Change, String)> {
    let (before, after) = (shown(was), shown(now));
    let mut out = Vec::new();
    if agent == Agent::ClaudeCode {
        for (k, v) in after.listed.difference(&before.listed) {
            if k == "allow" && blanket(v) {
                out.push((
                    agent,
                    Change::BlanketAllow,
                    format!("`{v}` added to permissions.allow"),
                ));
            }
        }
    }
    let last = |k: &str| k.rsplit('.').next().unwrap_or(k).to_string();
    for (a, key, value) in BYPASS {
        let pair = (last(key), (*value).to_string());
        // A value no other setting takes (`bypassPermissions`) tells its key even alone.
        let alone =
            *value != "never" && after.strings.contains(*value) && !before.strings.contains(*value);
        if *a == agent && (alone || after.pairs.contains(&pair) && !before.pairs.contains(&pair)) {
            out.push((
                agent,
                Change::BypassApproval,
                format!("`{key} = \"{value}\"`"),
            ));
        }
    }
    for (a, key, value) in BYPASS_SWITCHES {
        let pair = (last(key), value.to_string());
        if *a == agent && after.pairs.contains(&pair) && !before.pairs.contains(&pair) {
            out.push((agent, Change::BypassApproval, format!("`{key} = {value}`")));
        }
    }
    for (a, key, value) in HOOKS_OFF {
        let pair = (last(key), value.to_string());
        // A bare `hooks = false` in TOML is the features switch only under `[features]`;
        // a fragment cannot show its table, so the key must be unambiguous or dotted.
        let ambiguous =
            *key == "features.hooks" && format == Format::Toml && !now.contains("features");
        if *a == agent && !ambiguous && after.pairs.contains(&pair) && !before.pairs.contains(&pair)
        {
            out.push((agent, Change::GuardRemoved, format!("`{key} = {value}`")));
        }
    }
    for cmd in before.strings.iter().filter(|s| mentions_seamguard(s)) {
        if !after.strings.contains(cmd) {
            out.push((
                agent,
                Change::GuardRemoved,
                format!("the hook `{cmd}` is removed or changed"),
            ));
        }
    }
    // `"hooks": {}` (JSON), `hooks = {}` (TOML) in the new text: every hook removed.
    static EMPTIED: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?m)("hooks"\s*:\s*(\{\s*\}|\[\s*\]|null)|^\s*hooks\s*=\s*(\{\s*\}|\[\s*\]))"#,
        )
        .ok()
    });
    let named = out.iter().any(|(_, c, _)| *c == Change::GuardRemoved);
    let emptied = |t: &str| EMPTIED.as_ref().is_some_and(|r| r.is_match(t));
    if !named && emptied(now) && !emptied(was) {
        out.push((
            agent,
            Change::GuardRemoved,
            "every hook is removed (`\"hooks\"` emptied)".to_string(),
        ));
    }
    // A hook command that does nothing in the new text (`"command": "true"`).
    let no_op = |sh: &Shown| {
        sh.pairs
            .iter()
            .filter(|(k, v)| HOOK_COMMAND_KEYS.contains(&k.as_str()) && NO_OPS.contains(&v.trim()))
            .count()
    };
    if !named && !emptied(now) && no_op(&after) > no_op(&before) {
        out.push((
            agent,
            Change::GuardRemoved,
            "a hook command is replaced by one that does nothing".to_string(),
        ));
    }
    out
}

/// The script files the hook commands of the settings on disk run (first word of each
/// command, `$CLAUDE_PROJECT_DIR` and `~` expanded), with their agent.
fn hook_scripts(payload: &Value, env: &ShellEnv) -> Vec<(String, Agent)> {
    let project = env.project.clone().or_else(|| {
        payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let home = env.home.trim_end_matches('/');
    let mut files: Vec<(String, Agent, Format)> = vec![
        (
            format!("{home}/.claude/settings.json"),
            Agent::ClaudeCode,
            Format::Json,
        ),
        (
            format!("{home}/.codex/hooks.json"),
            Agent::Codex,
            Format::Json,
        ),
        (
            format!("{home}/.codex/config.toml"),
            Agent::Codex,
            Format::Toml,
        ),
    ];
    if let Some(p) = &project {
        let p = p.trim_end_matches('/');
        files.push((
            format!("{p}/.claude/settings.json"),
            Agent::ClaudeCode,
            Format::Json,
        ));
        files.push((
            format!("{p}/.claude/settings.local.json"),
            Agent::ClaudeCode,
            Format::Json,
        ));
        files.push((format!("{p}/.codex/hooks.json"), Agent::Codex, Format::Json));
    }
    let mut out = Vec::new();
    for (f, agent, format) in files {
        let Some(doc) = read_bounded(&f).and_then(|t| parse(format, &t).ok()) else {
            continue;
        };
        let Some(Value::Object(events)) = doc.get("hooks") else {
            continue;
        };
        for h in events
            .values()
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(|g| g.get("hooks").and_then(Value::as_array))
            .flatten()
        {
            let Some(cmd) = h.get("command").and_then(Value::as_str) else {
                continue;
            };
            for word in cmd.split_whitespace().take(2) {
                let w = word.replace(['"', '\''], "");
                let w = match &project {
                    Some(p) => w
                        .replace("${CLAUDE_PROJECT_DIR}", p)
                        .replace("$CLAUDE_PROJECT_DIR", p),
                    None => w.to_string(),
                };
                if let Some(abs) = crate::paths::normalize(&w, project.as_deref(), &env.home) {
                    out.push((abs, agent));
                }
            }
        }
    }
    out
}

/// The agent whose hook runs the script at `abs`, if one does.
fn hook_agent(abs: &str, hooks: &[(String, Agent)]) -> Option<Agent> {
    hooks.iter().find(|(p, _)| p == abs).map(|(_, a)| *a)
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
