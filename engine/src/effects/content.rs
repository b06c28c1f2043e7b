//! What a written file will do when it runs: the content of files that are executed without
//! anyone asking (shell start-up files, git hooks, `.envrc`, cron tables, systemd units, npm
//! lifecycle scripts, editor tasks that run on folder open, launchd agents and daemons) is
//! pushed, line by line, as nested items for the shell lens; the code of Python start-up
//! files (`.pth` import lines, `sitecustomize.py`, IPython and Jupyter start-up) as a nested
//! item for the inline-code lens.
//!
//! In: the effects the lenses found (a `write` with its content, from any route). Out: the
//! effects of that content added to the call, each route marked `via "runs from <path>"`, so
//! the rules that judge a command judge it in a start-up file too: a `.zshrc` line that
//! downloads code sends, a git hook that deletes the home folder deletes. Content that is
//! written but not visible (`cp x ~/.bashrc`) adds nothing here; the rules on the write itself
//! still apply.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::code_runs::CodeRun;
use super::executed::{Runs, cron_commands, runs_of};
use super::language::Language;
use super::model::{Effects, Route, What};
use super::nested::{Nest, Nested, Text};
use crate::shell::Arg;
use crate::shell_env::ShellEnv;

/// The npm lifecycle scripts that run on `npm install` / `npm ci` / publish without being
/// named.
const NPM_LIFECYCLE: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepublish",
    "prepack",
    "postpack",
    "dependencies",
];

/// Largest content analysed, in bytes (256 KiB); a longer write is judged by its path only.
const MAX_CONTENT: usize = 256 * 1024;

/// The command lines a file of kind `runs` holds.
fn commands(runs: Runs, content: &str) -> Vec<String> {
    match runs {
        Runs::Shell => vec![content.to_string()],
        Runs::Crontab { user_field } => cron_commands(content, user_field),
        Runs::SystemdUnit => content
            .lines()
            .filter_map(|l| {
                let (k, v) = l.trim().split_once('=')?;
                k.trim().starts_with("Exec").then(|| {
                    // `-`, `@`, `:`, `+`, `!` prefixes change how it runs, not what.
                    v.trim()
                        .trim_start_matches(['-', '@', ':', '+', '!'])
                        .to_string()
                })
            })
            .collect(),
        Runs::PackageJson => match serde_json::from_str::<Value>(content) {
            Ok(v) => v
                .get("scripts")
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .filter(|(k, _)| NPM_LIFECYCLE.contains(&k.as_str()))
                        .filter_map(|(_, v)| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            // An edit's new text is a fragment of the file: its lifecycle members.
            Err(_) => members(content)
                .filter(|(k, _)| NPM_LIFECYCLE.contains(&k.as_str()))
                .map(|(_, v)| v)
                .collect(),
        },
        Runs::EditorTasks => match serde_json::from_str::<Value>(content) {
            Ok(v) => v
                .get("tasks")
                .and_then(Value::as_array)
                .map(|tasks| tasks.iter().filter_map(folder_open_task).collect())
                .unwrap_or_default(),
            // A fragment (an edit's new text) or a file with comments: its `command` members,
            // when it runs a task on folder open.
            Err(_) if content.contains("folderOpen") => members(content)
                .filter(|(k, _)| k == "command")
                .map(|(_, v)| v)
                .collect(),
            Err(_) => Vec::new(),
        },
        Runs::LaunchdPlist => launchd_command(content).into_iter().collect(),
        // Code, not command lines: read by [`start_up_code`].
        Runs::Python | Runs::Pth => Vec::new(),
    }
}

/// The command line of a VS Code task that runs when the folder opens (`runOptions.runOn:
/// "folderOpen"`): its `command` and `args`.
fn folder_open_task(t: &Value) -> Option<String> {
    if t.pointer("/runOptions/runOn").and_then(Value::as_str) != Some("folderOpen") {
        return None;
    }
    let cmd = t.get("command").and_then(Value::as_str)?;
    let args: Vec<&str> = t
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Some(if args.is_empty() {
        cmd.to_string()
    } else {
        format!("{cmd} {}", args.join(" "))
    })
}

/// The `"key": "string"` members of JSON text that need not parse as a whole (a fragment an
/// edit inserts, a file with comments), both decoded.
fn members(text: &str) -> impl Iterator<Item = (String, String)> + '_ {
    static MEMBER: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r#""((?:[^"\\\n]|\\.)*)"\s*:\s*"((?:[^"\\\n]|\\.)*)""#).ok());
    MEMBER
        .as_ref()
        .into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter_map(|c| {
            let decode = |i: usize| serde_json::from_str::<String>(&format!("\"{}\"", &c[i])).ok();
            Some((decode(1)?, decode(2)?))
        })
}

/// The Python code a start-up file of kind `runs` holds: the whole file, or the `import`
/// lines of a `.pth` file (the others name folders added to the path).
fn start_up_code(runs: Runs, content: &str) -> Option<String> {
    let code = match runs {
        Runs::Python => content.to_string(),
        Runs::Pth => content
            .lines()
            .filter(|l| l.starts_with("import ") || l.starts_with("import\t"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    (!code.trim().is_empty()).then_some(code)
}

/// The command line a launchd property list runs: its `ProgramArguments` quoted for the
/// shell, else its `Program`. XML, binary or JSON-like property lists are read by the `plist`
/// crate; one that does not parse runs nothing launchd could load.
fn launchd_command(content: &str) -> Option<String> {
    let v = plist::Value::from_reader(std::io::Cursor::new(content.as_bytes())).ok()?;
    let d = v.as_dictionary()?;
    if let Some(args) = d.get("ProgramArguments").and_then(plist::Value::as_array) {
        let words: Vec<&str> = args.iter().filter_map(plist::Value::as_string).collect();
        if !words.is_empty() {
            return shlex::try_join(words).ok();
        }
    }
    d.get("Program")
        .and_then(plist::Value::as_string)
        .and_then(|p| shlex::try_quote(p).ok())
        .map(|p| p.into_owned())
}

/// Add the effects of the content of every written file that runs by itself: each command
/// line of it goes to `nest` as a nested item.
pub(crate) fn executed_content(fx: &mut Effects, env: &ShellEnv, nest: &dyn Nest) {
    let mut derived = Effects::default();
    for e in &fx.list {
        let Some((path, abs, _, Some(content))) = e.static_write(&env.home) else {
            continue;
        };
        let Some(runs) = runs_of(&abs) else {
            continue;
        };
        if content.len() > MAX_CONTENT {
            // Judged by its path only: whoever approves must know the content was not read.
            derived.push(
                What::Unsure(format!(
                    "the content written to {} ({} KiB) is over the {} KiB analysis limit, so what it runs is not checked",
                    path.text,
                    content.len().div_ceil(1024),
                    MAX_CONTENT / 1024
                )),
                e.route.clone(),
            );
            continue;
        }
        // The file runs in its own folder's context; `cd` in it is tracked from there.
        let dir = abs
            .rsplit_once('/')
            .map(|(d, _)| d)
            .filter(|d| !d.is_empty());
        let route = Route {
            tool: e.route.tool.clone(),
            lens: e.route.lens,
            argument: e.route.argument.clone(),
            command: None,
            via: vec![format!("runs from {}", path.text)],
        };
        if let Some(code) = start_up_code(runs, content) {
            let run = CodeRun {
                who: "python (start-up)".to_string(),
                lang: Language::Python,
                code: Arg {
                    text: code,
                    dynamic: false,
                },
                argv: vec![Some(String::new())],
            };
            let item = Nested {
                text: Text::Code(&run),
                who: "",
                shown: "",
                route: &route,
                cwd: dir,
                depth: 0,
            };
            nest.nest(item, env, &mut derived);
        }
        for line in commands(runs, content) {
            let item = Nested {
                text: Text::Line(&line),
                who: "",
                shown: "",
                route: &route,
                cwd: dir,
                depth: 0,
            };
            nest.nest(item, env, &mut derived);
        }
    }
    fx.list.extend(derived.list);
}
