//! `seamguard try`: one call judged in one line, with the policies `hook` would use.
//!
//! In: a command (`seamguard try 'rm -rf ~'`), a file path (`--file-path P [--tool Write]`), a
//! URL (`--url U`), an MCP call (`--mcp TOOL --args JSON`) or a whole payload (`--event F`,
//! in any dialect `hook` reads: a Gemini CLI, Cursor or Copilot CLI payload is detected and
//! rewritten as `hook` rewrites it).
//! Out: the verdict, the rules that decided it, the reason, and the effects the lenses saw;
//! exit status 0 when the call would run (allow or no decision), 1 for ask (or defer), 2 for
//! deny, 3 when the call or the policies could not be read.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{
    DecisionTable, Dialect, Engine, LoadOptions, LoadedPolicy, MemoryLedger, Seam, ShellEnv,
    Verdict,
};

use super::args::{DocFormat, HookDialectArg};
use crate::{discover, library};

/// Judge one tool call (a Bash command by default) with the discovered policies.
///
/// Exit status: 0 the call would run (allow, or no rule decided), 1 ask (or defer), 2 deny,
/// 3 the call or a policy could not be read.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The shell command to judge (a `Bash` call).
    #[arg(conflicts_with_all = ["file_path", "url", "mcp", "event"])]
    command: Option<OsString>,
    /// Judge a file tool call on this path (`--tool` picks the tool; default `Read`).
    #[arg(long, value_name = "PATH")]
    file_path: Option<OsString>,
    /// The tool of the call (`Read`, `Write`, `Edit`, `Bash`, …).
    #[arg(long)]
    tool: Option<String>,
    /// Content of a `Write` (with `--file-path`).
    #[arg(long, requires = "file_path")]
    content: Option<OsString>,
    /// Judge a `WebFetch` of this URL.
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// Judge a call of this MCP tool (`mcp__server__tool`), with `--args`.
    #[arg(long, value_name = "TOOL")]
    mcp: Option<String>,
    /// The MCP tool's arguments as a JSON object.
    #[arg(long, value_name = "JSON", requires = "mcp")]
    args: Option<String>,
    /// Judge a whole hook payload read from a file (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    event: Option<PathBuf>,
    /// Working directory of the call (default: the current folder).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Policy file or folder (repeatable; default: the policies `hook` discovers).
    #[arg(long = "policy", value_name = "PATH")]
    policies: Vec<PathBuf>,
    /// Dialect the payload is read in: claude-code, codex, gemini-cli, cursor or copilot-cli
    /// (default: detected from the payload, as `hook` detects it).
    #[arg(long, value_enum)]
    dialect: Option<HookDialectArg>,
    /// Output format (`text` or `json`).
    #[arg(long, value_enum, default_value = "text")]
    format: DocFormat,
}

/// `arg` as text, or why not: a hook payload is JSON, so no host can send a call whose
/// command, path or content is not UTF-8, and judging a lossy copy would judge another call.
fn text<'a>(arg: &'a OsString, what: &str) -> Result<&'a str, String> {
    arg.to_str().ok_or_else(|| {
        format!(
            "{what} is not valid UTF-8 ({}): a hook payload is JSON text, so no host sends it",
            arg.to_string_lossy()
        )
    })
}

/// The payload of the call the arguments describe.
fn payload(a: &Args) -> Result<Value, String> {
    if let Some(path) = &a.event {
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
        };
        return serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a JSON hook payload ({e})", path.display()));
    }
    let cwd = match &a.cwd {
        Some(c) => c.clone(),
        None => std::env::current_dir().map_err(|e| format!("current folder: {e}"))?,
    };
    let (tool, input) = if let Some(c) = &a.command {
        (
            a.tool.clone().unwrap_or_else(|| "Bash".into()),
            json!({ "command": text(c, "the command")? }),
        )
    } else if let Some(p) = &a.file_path {
        let tool = a.tool.clone().unwrap_or_else(|| "Read".into());
        let mut input = json!({ "file_path": text(p, "--file-path")? });
        if let Some(c) = &a.content {
            input["content"] = json!(text(c, "--content")?);
        }
        (tool, input)
    } else if let Some(u) = &a.url {
        (
            a.tool.clone().unwrap_or_else(|| "WebFetch".into()),
            json!({ "url": u, "prompt": "Summarize the page" }),
        )
    } else if let Some(m) = &a.mcp {
        let args: Value = match &a.args {
            Some(j) => serde_json::from_str(j).map_err(|e| format!("--args: not JSON ({e})"))?,
            None => json!({}),
        };
        if !args.is_object() {
            return Err("--args: expected a JSON object".into());
        }
        (m.clone(), args)
    } else {
        return Err(
            "give a command, or --file-path, --url, --mcp or --event (see `seamguard try --help`)"
                .into(),
        );
    };
    Ok(json!({
        "session_id": "seamguard-try",
        "transcript_path": "",
        "cwd": cwd.display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "seamguard-try",
    }))
}

/// The policies `hook` would load for `payload`; the built-in balanced library when none is
/// configured anywhere (said on stderr).
fn policies(a: &Args, payload: &Value) -> Vec<LoadedPolicy> {
    let files = discover::policy_paths(&a.policies, Some(payload));
    if files.is_empty() {
        eprintln!("{}", library::JUDGING_NOTICE);
        return library::load_balanced(LoadOptions::default());
    }
    let mut loaded = discover::load_all(&files);
    // As `hook` loads them: a policy that failed to load denies unless it says otherwise.
    discover::apply_load_error_default(&mut loaded, None);
    loaded
}

/// Exit status of a verdict (see [`Args`]).
fn status(v: Verdict) -> u8 {
    match v {
        Verdict::Deny | Verdict::Block => 2,
        Verdict::Ask | Verdict::Defer => 1,
        _ => 0,
    }
}

/// Run `seamguard try`.
pub(super) fn run(a: &Args) -> ExitCode {
    let payload = match payload(a) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("seamguard: {e}");
            return ExitCode::from(3);
        }
    };
    let dialect = a
        .dialect
        .map(Dialect::from)
        .unwrap_or_else(|| Dialect::detect(&payload));
    // A Gemini CLI, Cursor or Copilot CLI payload: the common payload `hook` would judge.
    let payload = match seamguard_engine::codec::normalize(&payload, dialect) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("seamguard: the {dialect} payload cannot be read: {e}");
            return ExitCode::from(3);
        }
    };
    // A payload given whole must be one the hook could judge (as `hook` decodes it): a JSON
    // object that is no hook event is refused, not judged as an empty call.
    if a.event.is_some()
        && let Err(e) = seamguard_engine::event::HookEvent::from_value(&payload)
    {
        eprintln!("seamguard: not a hook payload the {dialect} hook could judge: {e}");
        return ExitCode::from(3);
    }
    let loaded = policies(a, &payload);
    let mut broken = false;
    for p in &loaded {
        for d in &p.diagnostics {
            eprintln!("{}", d.render());
        }
        broken |= p.has_errors();
    }
    let env = ShellEnv::from_process();
    let engine = Engine::new(DecisionTable::new(loaded).with_env(env.clone()))
        .with_ledger(Box::new(MemoryLedger::default()));
    let seam = payload
        .get("hook_event_name")
        .and_then(Value::as_str)
        .and_then(Seam::from_event_name)
        .unwrap_or(Seam::PreTool);
    // A call tried on its own: no session memory.
    let request = seamguard_engine::Request::new(seam, &payload, dialect);
    let outcome = engine.decide(&request).outcome;
    let effects: Vec<String> =
        seamguard_engine::effects::effects_in(&payload, &env, request.memory)
            .list
            .iter()
            .map(ToString::to_string)
            .collect();
    let rules: Vec<Value> = outcome
        .fired_ids()
        .iter()
        .map(|id| {
            let source = engine
                .table()
                .rules()
                .iter()
                .find(|r| r.id == *id)
                .map(|r| r.source.to_string());
            json!({ "id": id, "source": source })
        })
        .collect();
    let verdict = outcome.verdict();
    let mut out = std::io::stdout().lock();
    if a.format == DocFormat::Text {
        let subject = payload["tool_input"]
            .get("command")
            .or_else(|| payload["tool_input"].get("file_path"))
            .or_else(|| payload["tool_input"].get("path"))
            .or_else(|| payload["tool_input"].get("url"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| payload["tool_input"].to_string());
        let tool = payload["tool_name"].as_str().unwrap_or("");
        let _ = writeln!(out, "{}  {tool}: {subject}", verdict.name());
        for r in &rules {
            let id = r["id"].as_str().unwrap_or("");
            // The engine's own contributions: no policy file declares them.
            match r["source"].as_str() {
                Some(src) => {
                    let _ = writeln!(out, "  rule: {id} ({src})");
                }
                None if id == seamguard_engine::LOAD_ERROR_RULE => {
                    let _ = writeln!(
                        out,
                        "  rule: {id} (seamguard: a policy file failed to load)"
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "  rule: {id} (seamguard: part of the call cannot be checked)"
                    );
                }
            }
        }
        let reason = outcome.reason_text();
        if !reason.is_empty() {
            let _ = writeln!(out, "  reason: {}", reason.replace('\n', "\n          "));
        }
        if !effects.is_empty() {
            let _ = writeln!(out, "  effects:");
            for e in &effects {
                let _ = writeln!(out, "    {e}");
            }
        }
    } else {
        let v = json!({
            "verdict": verdict.name(),
            "rules": rules,
            "reason": outcome.reason_text(),
            "effects": effects,
            "tool_name": payload["tool_name"],
            "tool_input": payload["tool_input"],
            "exit_code": status(verdict),
        });
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    }
    if broken {
        return ExitCode::from(3);
    }
    ExitCode::from(status(verdict))
}
