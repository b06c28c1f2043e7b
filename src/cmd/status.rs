//! `seamguard status`: is the guard on, for which agent, with which policies, and is it firing.
//!
//! In: the agents' hooks files (user and project, read with `init`'s readers), the policies
//! `hook` would load for the project, and the audit log. Out: per agent (Claude Code, Codex,
//! Gemini CLI, Cursor, Copilot CLI) whether seamguard's hook is installed and for which
//! events, whether its command resolves to a stable binary and which version, what the agent
//! does when the hook fails (Cursor: whether the entries set `failClosed`), and when the hook
//! last ran (the audit log records the dialect of each call); then the policies (files,
//! rules, errors, duplicates, built-in default). Gemini CLI, Cursor and Copilot CLI are listed
//! in the text report when hooked or when their folder exists.
//! Then the resident servers of this user (`seamguard serve`, started by the hook on first
//! use): pid, uptime, calls answered and left to the hook, the key of the loaded policies,
//! and the calls the clients judged without a server (`r-<route>.fallbacks`). Warns when the
//! audit log or the state folder cannot be written (records, snapshots and session memory
//! would be lost).
//! Exit 1 when something is off (listed under `problems`), 0 otherwise.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{Dialect, LoadOptions, LoadedPolicy, Severity};

use super::args::DocFormat;
use crate::discover::{self, PolicySource};
use crate::init::inspect;
use crate::report::utc;
use crate::{library, lint};

/// Show whether seamguard's hook is installed and firing, and which policies it enforces.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The project folder (default: the current folder).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Output format (`text` or `json`).
    #[arg(long, value_enum, default_value = "text")]
    format: DocFormat,
}

/// One hooks file of an agent.
struct HooksFile {
    path: PathBuf,
    scope: &'static str,
    events: Option<BTreeSet<String>>,
    error: Option<String>,
}

/// The hooks files of `dialect`: the user's, then the project's.
fn hooks_files(dialect: Dialect, home: Option<&Path>, root: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut out = Vec::new();
    match dialect {
        Dialect::ClaudeCode => {
            if let Some(h) = home {
                out.push((h.join(".claude/settings.json"), "user"));
            }
            out.push((root.join(".claude/settings.json"), "project"));
            out.push((root.join(".claude/settings.local.json"), "project"));
        }
        Dialect::Codex => {
            let user = discover::env_path("CODEX_HOME").or_else(|| home.map(|h| h.join(".codex")));
            if let Some(u) = user {
                out.push((u.join("hooks.json"), "user"));
                out.push((u.join("config.toml"), "user"));
            }
            out.push((root.join(".codex/hooks.json"), "project"));
            out.push((root.join(".codex/config.toml"), "project"));
        }
        Dialect::GeminiCli => {
            if let Some(h) = home {
                out.push((h.join(".gemini/settings.json"), "user"));
            }
            out.push((root.join(".gemini/settings.json"), "project"));
        }
        Dialect::Cursor => {
            if let Some(h) = home {
                out.push((h.join(".cursor/hooks.json"), "user"));
            }
            out.push((root.join(".cursor/hooks.json"), "project"));
        }
        Dialect::CopilotCli => {
            // Copilot CLI reads every `*.json` of its hooks folders; seamguard's own file
            // stands for a folder that has none.
            let folders = inspect::user_copilot_hooks_dir(home)
                .map(|d| (d, "user"))
                .into_iter()
                .chain([(root.join(".github/hooks"), "project")]);
            for (dir, scope) in folders {
                let files = inspect::json_files(&dir);
                if files.is_empty() {
                    out.push((dir.join("seamguard.json"), scope));
                }
                out.extend(files.into_iter().map(|f| (f, scope)));
            }
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|(p, _)| seen.insert(p.clone()));
    out
}

/// The program of a hook command: its first word after quote removal.
fn program_of(command: &str) -> String {
    seamguard_engine::concern::simple_argv(command)
        .and_then(|w| w.into_iter().next())
        .or_else(|| command.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// Where `program` resolves: itself when it names a path, else the first executable on `PATH`.
fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join(program))
            .find(|c| c.is_file())
    })
}

/// Why a resolved binary is not a stable place to run from: a build folder or a temp folder.
fn unstable(path: &Path) -> Option<&'static str> {
    // A cargo profile folder: `debug` / `release` in a folder named `target`, or holding
    // cargo's `deps/` and `build/` folders (a custom CARGO_TARGET_DIR).
    let build = path.ancestors().skip(1).any(|d| {
        d.file_name()
            .is_some_and(|n| n == "debug" || n == "release")
            && (d
                .ancestors()
                .skip(1)
                .take(2)
                .any(|t| t.file_name().is_some_and(|n| n == "target"))
                || (d.join("deps").is_dir() && d.join("build").is_dir()))
    });
    if build {
        return Some("a build folder: rebuilding or `cargo clean` replaces or removes it");
    }
    // The temp folder the system names (`$TMPDIR`, else `/tmp` on Unix).
    let tmp = std::fs::canonicalize(std::env::temp_dir()).unwrap_or_else(|_| std::env::temp_dir());
    if path.starts_with(&tmp) {
        return Some("a temp folder: it can be cleaned away");
    }
    None
}

/// The full `seamguard` a small client at `client` hands its calls to (as it finds it:
/// `$SEAMGUARD_BIN`, the file beside it, `seamguard` on `PATH`).
fn full_binary_of(client: &Path) -> Option<PathBuf> {
    discover::env_path("SEAMGUARD_BIN")
        .filter(|p| p.is_file())
        .or_else(|| {
            client
                .parent()
                .map(|d| d.join("seamguard"))
                .filter(|p| p.is_file())
        })
        .or_else(|| resolve("seamguard"))
}

/// Why `path` cannot be written (a file appended to, or created in its folder), `None` when
/// it can. A folder that does not exist yet is judged by the nearest one that does (the hook
/// creates the rest). Nothing is left behind: a probe file is removed at once.
fn not_writable(path: &Path, is_dir: bool) -> Option<String> {
    if !is_dir && path.exists() {
        return std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .err()
            .map(|e| e.to_string());
    }
    let start = if is_dir { Some(path) } else { path.parent() };
    let dir = start?.ancestors().find(|d| d.exists())?;
    let probe = dir.join(format!(".seamguard-status-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            None
        }
        Err(e) => Some(format!("{} ({e})", dir.display())),
    }
}

/// The resident servers of this user, asked over their sockets, and the fallbacks their
/// clients recorded (also of routes whose server is gone).
fn servers_status(warnings: &mut Vec<String>) -> Value {
    let dir = seamguard_client::socket_dir();
    let mut routes: BTreeSet<String> = BTreeSet::new();
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(r) = name.strip_prefix("r-").and_then(|n| {
            n.strip_suffix(".sock")
                .or_else(|| n.strip_suffix(".fallbacks"))
        }) {
            routes.insert(r.to_string());
        }
    }
    let trusted = seamguard_client::trusted_dir(&dir);
    if dir.exists() && !trusted {
        warnings.push(format!(
            "{} is not this user's or is open to others: no server there is asked",
            dir.display()
        ));
    }
    let mut out = Vec::new();
    for r in routes {
        let server = seamguard_client::server_status(&dir.join(format!("r-{r}.sock")))
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
        let fallbacks =
            std::fs::read_to_string(dir.join(format!("r-{r}.fallbacks"))).unwrap_or_default();
        let mut reasons: std::collections::BTreeMap<String, u64> = Default::default();
        let mut last: Option<u64> = None;
        let since = server
            .as_ref()
            .and_then(|s| s["started_ms"].as_u64())
            .unwrap_or(0);
        let mut since_start = 0u64;
        for line in fallbacks.lines() {
            let mut w = line.split(' ');
            let (Some(ts), Some(why)) = (w.next().and_then(|t| t.parse::<u64>().ok()), w.next())
            else {
                continue;
            };
            *reasons.entry(why.to_string()).or_default() += 1;
            last = last.max(Some(ts));
            if ts >= since && why != "no-server" {
                since_start += 1;
            }
        }
        if server.is_some() && since_start > 0 {
            warnings.push(format!(
                "{since_start} call(s) fell back to a process of their own since the server of route {r} started ({}); `seamguard status --format json` lists the reasons",
                reasons
                    .iter()
                    .filter(|(k, _)| *k != "no-server")
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(n) = reasons.get("not-trusted") {
            warnings.push(format!(
                "{n} call(s) of route {r} found a socket or folder that is not this user's and judged themselves"
            ));
        }
        out.push(json!({
            "route": r,
            "server": server,
            "fallbacks": reasons.values().sum::<u64>(),
            "fallback_reasons": reasons,
            "last_fallback_ms": last,
        }));
    }
    Value::Array(out)
}

/// The first line of `<bin> --version`.
fn version_of(bin: &Path) -> Option<String> {
    let out = std::process::Command::new(bin)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next()?.trim().to_string();
    (out.status.success() && !line.is_empty()).then_some(line)
}

/// How long ago `ms` was, roughly.
fn ago(ms: u64, now: u64) -> String {
    let s = now.saturating_sub(ms) / 1000;
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// Whether the host's own folder exists for the user or the project (`.claude`, `.codex`,
/// `.gemini`, `.cursor`, Copilot CLI's home or `.github/hooks`): the text report names a host
/// without a seamguard hook only when it seems to be in use.
fn in_use(dialect: Dialect, home: Option<&Path>, root: &Path) -> bool {
    let (dir, project): (Option<PathBuf>, PathBuf) = match dialect {
        Dialect::ClaudeCode => (home.map(|h| h.join(".claude")), root.join(".claude")),
        Dialect::Codex => (
            discover::env_path("CODEX_HOME").or_else(|| home.map(|h| h.join(".codex"))),
            root.join(".codex"),
        ),
        Dialect::GeminiCli => (home.map(|h| h.join(".gemini")), root.join(".gemini")),
        Dialect::Cursor => (home.map(|h| h.join(".cursor")), root.join(".cursor")),
        Dialect::CopilotCli => (
            inspect::user_copilot_hooks_dir(home).and_then(|d| d.parent().map(Path::to_path_buf)),
            root.join(".github/hooks"),
        ),
    };
    dir.is_some_and(|d| d.is_dir()) || project.is_dir()
}

/// The status of one agent, and its problems and warnings.
fn agent_status(
    dialect: Dialect,
    home: Option<&Path>,
    root: &Path,
    last_run: Option<u64>,
    problems: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Value {
    let label = match dialect {
        Dialect::ClaudeCode => "Claude Code",
        Dialect::Codex => "Codex",
        Dialect::GeminiCli => "Gemini CLI",
        Dialect::Cursor => "Cursor",
        Dialect::CopilotCli => "Copilot CLI",
    };
    let files: Vec<HooksFile> = hooks_files(dialect, home, root)
        .into_iter()
        .map(|(path, scope)| match inspect::seamguard_events(&path) {
            Ok(events) => HooksFile {
                path,
                scope,
                events,
                error: None,
            },
            Err(e) => HooksFile {
                path,
                scope,
                events: None,
                error: Some(e),
            },
        })
        .collect();
    let mut events = BTreeSet::new();
    let mut commands: Vec<String> = Vec::new();
    for f in &files {
        if let Some(e) = &f.error {
            problems.push(format!("{label}: {e}"));
        }
        events.extend(f.events.iter().flatten().cloned());
        for c in inspect::seamguard_commands(&f.path) {
            if !commands.contains(&c) {
                commands.push(c);
            }
        }
    }
    let installed = !events.is_empty();
    let gating = inspect::gating_events(dialect);
    let missing: Vec<&str> = inspect::events(dialect)
        .into_iter()
        .filter(|e| !events.contains(*e))
        .collect();
    if installed {
        for g in gating {
            if !events.contains(*g) {
                problems.push(format!(
                    "{label}: seamguard has no {g} hook, so tool calls are not checked there"
                ));
            }
        }
    }
    let binaries: Vec<Value> = commands
        .iter()
        .map(|c| {
            let program = program_of(c);
            let resolved = resolve(&program).map(|p| std::fs::canonicalize(&p).unwrap_or(p));
            let client = Path::new(&program)
                .file_name()
                .is_some_and(|n| n == "seamguard-hook");
            if client
                && let Some(p) = &resolved
                && full_binary_of(p).is_none()
            {
                problems.push(format!(
                    "{label}: {} finds no seamguard beside it or on PATH: every call is blocked",
                    p.display()
                ));
            }
            let (stable, version, problem) = match &resolved {
                None => (
                    false,
                    None,
                    Some(format!("`{program}` is not found: the hook cannot run")),
                ),
                Some(p) => match unstable(p) {
                    Some(why) => (
                        false,
                        version_of(p),
                        Some(format!("{} is in {why}", p.display())),
                    ),
                    None => (true, version_of(p), None),
                },
            };
            if let Some(why) = &problem {
                problems.push(format!("{label}: {why}"));
            }
            json!({
                "command": c,
                "client": client,
                "resolved": resolved.map(|p| p.display().to_string()),
                "stable": stable,
                "version": version,
            })
        })
        .collect();
    let disabled: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let keys = if f.path.extension().is_some_and(|x| x == "toml") {
                inspect::codex_hooks_disabled(&f.path)
            } else if dialect == Dialect::GeminiCli {
                inspect::gemini_hooks_disabled(&f.path)
            } else {
                Vec::new()
            };
            keys.into_iter()
                .map(|k| format!("{} = false in {}", k, f.path.display()))
                .collect::<Vec<_>>()
        })
        .collect();
    if installed {
        for d in &disabled {
            problems.push(format!("{label}: hooks are turned off ({d})"));
        }
    }
    let on_failure = match dialect {
        Dialect::ClaudeCode => {
            // Every file with a seamguard handler must block: one handler that fails open
            // is enough for the call to run.
            if every_hooked_file(&files, inspect::blocks_on_failure) {
                "blocks the call (onFailure = \"block\" on the seamguard handlers)"
            } else {
                "runs the call (no onFailure = \"block\" on the seamguard handlers; `seamguard init` adds it for Claude Code 2.1.295 or newer)"
            }
        }
        Dialect::Codex => "runs the call (Codex has no setting that blocks on a failed hook)",
        Dialect::GeminiCli => {
            "runs the call (Gemini CLI only warns when a hook fails with another exit code than 0 or 2; it has no setting that blocks)"
        }
        Dialect::Cursor => {
            // Cursor fails open unless the entry sets `failClosed`: every file with a
            // seamguard entry must set it on the gating events.
            if every_hooked_file(&files, inspect::cursor_fails_closed) {
                "blocks the call (\"failClosed\": true on the seamguard entries of the tool events)"
            } else {
                "runs the call (a seamguard entry of a tool event has no \"failClosed\": true; `seamguard init --agent cursor` writes it)"
            }
        }
        Dialect::CopilotCli => {
            "runs the call on a timeout; on a crash or a missing binary it depends on the Copilot CLI version (older versions skip a failed hook, later ones deny)"
        }
    };
    let hooked_files = files
        .iter()
        .filter(|f| f.events.as_ref().is_some_and(|e| !e.is_empty()))
        .count();
    if hooked_files > 1 && commands.len() > 1 {
        warnings.push(format!(
            "{label}: seamguard is hooked in {hooked_files} files with {} different commands, so each call is judged more than once",
            commands.len()
        ));
    }
    if installed && last_run.is_none() {
        warnings.push(format!(
            "{label}: the hook is installed but has never run (no record in the audit log)"
        ));
    }
    json!({
        "agent": dialect.name(),
        "name": label,
        "installed": installed,
        "in_use": in_use(dialect, home, root),
        "files": files.iter().map(|f| json!({
            "path": f.path.display().to_string(),
            "scope": f.scope,
            "exists": f.events.is_some(),
            "events": f.events.as_ref().map(|e| e.iter().collect::<Vec<_>>()),
            "error": f.error,
        })).collect::<Vec<_>>(),
        "events": events.iter().collect::<Vec<_>>(),
        "missing_events": missing,
        "commands": binaries,
        "hooks_disabled": disabled,
        "on_hook_failure": on_failure,
        "last_run_ms": last_run,
    })
}

/// The policies `hook` would load in `root`.
fn policies_status(root: &Path, problems: &mut Vec<String>) -> Value {
    let payload = json!({ "cwd": root.display().to_string() });
    let source = discover::policy_source(&[], Some(root));
    let found = discover::found_policy_paths(&[], Some(&payload));
    let (paths, dups) = lint::dedupe(found);
    let loaded: Vec<LoadedPolicy> = match source {
        PolicySource::BuiltIn => library::load_balanced(LoadOptions::default()),
        PolicySource::Configured => discover::load_all(&paths),
    };
    let mut errors = Vec::new();
    for p in &loaded {
        for d in p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
        {
            errors.push(format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message));
        }
    }
    for e in &errors {
        problems.push(format!("policy error: {e}"));
    }
    let mut duplicates: Vec<String> = dups
        .iter()
        .map(|d| format!("{}: {}", d.file, d.message))
        .collect();
    let mut seen: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for p in &loaded {
        for r in &p.rules {
            if let Some(first) = seen.insert(&r.id, &p.meta.file)
                && first != &*p.meta.file
            {
                duplicates.push(format!(
                    "rule id `{}` is defined in {first} and {}",
                    r.id, p.meta.file
                ));
            }
        }
    }
    json!({
        "source": match source { PolicySource::BuiltIn => "built-in", PolicySource::Configured => "configured" },
        "notice": source.notice(),
        "files": loaded.iter().map(|p| json!({
            "file": p.meta.file.to_string(),
            "scope": p.meta.scope.name(),
            "rules": p.rules.len(),
            "errors": p.has_errors(),
        })).collect::<Vec<_>>(),
        "rules": loaded.iter().map(|p| p.rules.len()).sum::<usize>(),
        "errors": errors,
        "duplicates": duplicates,
    })
}

/// The newest `ts_ms` of the evaluations in the audit log, per dialect name.
fn last_runs(log: Option<&Path>) -> std::collections::HashMap<String, u64> {
    let mut out = std::collections::HashMap::new();
    let recs = log
        .and_then(|l| super::log::read_results(l).ok())
        .unwrap_or_default();
    for r in recs {
        if let (Some(d), Some(ts)) = (
            r.get("dialect").and_then(Value::as_str),
            r.get("ts_ms").and_then(Value::as_u64),
        ) {
            let e = out.entry(d.to_string()).or_insert(0);
            *e = (*e).max(ts);
        }
    }
    out
}

/// The text form of a status.
fn text(v: &Value, now: u64) -> String {
    let mut out = String::new();
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    for a in v["agents"].as_array().into_iter().flatten() {
        // Claude Code and Codex are always listed; another host when it is hooked or in use.
        let always = a["agent"] == "claude-code" || a["agent"] == "codex";
        if !always && a["installed"] != json!(true) && a["in_use"] != json!(true) {
            continue;
        }
        out.push_str(&format!("{}\n", s(&a["name"])));
        if a["installed"] == json!(true) {
            for f in a["files"].as_array().into_iter().flatten() {
                let ev: Vec<String> = f["events"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(s)
                    .collect();
                if !ev.is_empty() {
                    out.push_str(&format!(
                        "  hook: {} ({}): {}\n",
                        s(&f["path"]),
                        s(&f["scope"]),
                        ev.join(", ")
                    ));
                }
            }
            let missing: Vec<String> = a["missing_events"]
                .as_array()
                .into_iter()
                .flatten()
                .map(s)
                .collect();
            if !missing.is_empty() {
                out.push_str(&format!("  not hooked: {}\n", missing.join(", ")));
            }
            for c in a["commands"].as_array().into_iter().flatten() {
                let at = c["resolved"].as_str().unwrap_or("not found");
                let version = c["version"].as_str().unwrap_or("no version");
                let stable = if c["stable"] == json!(true) {
                    "stable"
                } else {
                    "NOT STABLE"
                };
                out.push_str(&format!(
                    "  command: {} -> {at} ({version}, {stable})\n",
                    s(&c["command"])
                ));
            }
            out.push_str(&format!(
                "  when the hook fails: {}\n",
                s(&a["on_hook_failure"])
            ));
            match a["last_run_ms"].as_u64() {
                Some(ms) => out.push_str(&format!("  last ran: {} ({})\n", utc(ms), ago(ms, now))),
                None => out.push_str("  last ran: never\n"),
            }
        } else {
            // `init` alone hooks Claude Code; every other agent is named.
            let flag = if a["agent"] == "claude-code" {
                String::new()
            } else {
                format!(" --agent {}", s(&a["agent"]))
            };
            out.push_str(&format!(
                "  hook: not installed (run `seamguard init{flag}`)\n"
            ));
        }
    }
    let p = &v["policies"];
    out.push_str("Policies\n");
    if p["source"] == "built-in" {
        out.push_str("  none configured: the built-in balanced library is enforced\n");
    }
    let files = p["files"].as_array().map_or(0, Vec::len);
    let n = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    out.push_str(&format!(
        "  {}, {}, {}, {}\n",
        n(files, "file"),
        n(p["rules"].as_u64().unwrap_or(0) as usize, "rule"),
        n(p["errors"].as_array().map_or(0, Vec::len), "error"),
        n(p["duplicates"].as_array().map_or(0, Vec::len), "duplicate")
    ));
    for e in p["errors"].as_array().into_iter().flatten() {
        out.push_str(&format!("  error: {}\n", s(e)));
    }
    for d in p["duplicates"].as_array().into_iter().flatten() {
        out.push_str(&format!("  duplicate: {}\n", s(d)));
    }
    let servers = v["servers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if !servers.is_empty() {
        out.push_str("Servers\n");
    }
    for r in servers {
        let sv = &r["server"];
        if sv.is_object() {
            let up = sv["started_ms"]
                .as_u64()
                .map_or(String::new(), |ms| ago(ms, now).replace(" ago", ""));
            out.push_str(&format!(
                "  pid {}, up {up}, {} answered, {} left to the hook, {} reloads, policy key {}\n    in {}: {}\n",
                sv["pid"],
                sv["answered"],
                sv["refused"],
                sv["reloads"],
                s(&sv["key"]),
                s(&sv["cwd"]),
                sv["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(s)
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            // A server built with the `otel` feature and exporting.
            if let Some(o) = sv["otel"].as_object() {
                out.push_str(&format!(
                    "    OpenTelemetry export: {} record(s) handed over, {} sent, {} dropped, {} failed\n",
                    o["handed"], o["sent"], o["dropped"], o["failed"]
                ));
            }
        } else {
            out.push_str(&format!("  route {}: no server running\n", s(&r["route"])));
        }
        if let Some(n) = r["fallbacks"].as_u64().filter(|n| *n > 0) {
            let reasons = r["fallback_reasons"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            let last = r["last_fallback_ms"]
                .as_u64()
                .map_or(String::new(), |ms| format!(", last {}", ago(ms, now)));
            out.push_str(&format!(
                "    judged without a server: {n} ({reasons}){last}\n"
            ));
        }
    }
    out.push_str(&format!("Audit log: {}\n", s(&v["audit_log"])));
    for w in v["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("warning: {}\n", s(w)));
    }
    for w in v["problems"].as_array().into_iter().flatten() {
        out.push_str(&format!("problem: {}\n", s(w)));
    }
    out
}

/// Run `seamguard status`.
pub(super) fn run(a: &Args) -> ExitCode {
    let root = match a.project.clone().map_or_else(std::env::current_dir, Ok) {
        Ok(r) => std::fs::canonicalize(&r).unwrap_or(r),
        Err(e) => {
            eprintln!("seamguard: cannot read the current folder: {e}");
            return ExitCode::from(3);
        }
    };
    let home = discover::env_path("HOME");
    let log = super::log::audit_path(None);
    let runs = last_runs(log.as_deref());
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let agents: Vec<Value> = [
        Dialect::ClaudeCode,
        Dialect::Codex,
        Dialect::GeminiCli,
        Dialect::Cursor,
        Dialect::CopilotCli,
    ]
    .into_iter()
    .map(|d| {
        agent_status(
            d,
            home.as_deref(),
            &root,
            runs.get(d.name()).copied(),
            &mut problems,
            &mut warnings,
        )
    })
    .collect();
    if !agents.iter().any(|a| a["installed"] == json!(true)) {
        problems
            .push("seamguard's hook is not installed for any agent: run `seamguard init`".into());
    }
    let policies = policies_status(&root, &mut problems);
    let now = seamguard_engine::audit::now_ms();
    let servers = servers_status(&mut warnings);
    if let Some(l) = &log
        && let Some(why) = not_writable(l, false)
    {
        warnings.push(format!(
            "the audit log {} cannot be written ({why}): decisions are not recorded, and `seamguard allow --last` finds nothing",
            l.display()
        ));
    }
    let state = discover::state_dir();
    if let Some(why) = not_writable(&state, true) {
        warnings.push(format!(
            "the state folder {} cannot be written ({why}): no policy snapshots, session memory or resident server",
            state.display()
        ));
    }
    let v = json!({
        "agents": agents,
        "policies": policies,
        "servers": servers,
        "state_dir": state.display().to_string(),
        "audit_log": log.map(|l| l.display().to_string()),
        "warnings": warnings,
        "problems": problems,
    });
    let out = if a.format == DocFormat::Text {
        text(&v, now)
    } else {
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    };
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
    if v["problems"].as_array().is_some_and(|p| !p.is_empty()) {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Whether there is a file with a seamguard handler and the text of every such file passes
/// `check` (a file that cannot be read does not).
fn every_hooked_file(files: &[HooksFile], check: fn(&str) -> bool) -> bool {
    let mut hooked = files
        .iter()
        .filter(|f| f.events.as_ref().is_some_and(|e| !e.is_empty()))
        .peekable();
    hooked.peek().is_some()
        && hooked.all(|f| std::fs::read_to_string(&f.path).is_ok_and(|t| check(&t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_and_build_folders() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(1_764_618_784_000), "2025-12-01 19:53:04 UTC");
        assert_eq!(utc(951_782_400_000), "2000-02-29 00:00:00 UTC");
        assert!(unstable(Path::new("/w/proj/target/debug/seamguard")).is_some());
        assert!(unstable(&std::env::temp_dir().join("x/seamguard")).is_some());
        assert_eq!(unstable(Path::new("/usr/local/bin/seamguard")), None);
        assert_eq!(
            program_of("'/opt/my tools/seamguard' hook"),
            "/opt/my tools/seamguard"
        );
        assert_eq!(ago(0, 125_000), "2 min ago");
    }
}
