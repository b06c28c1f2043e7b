//! The tool names of the other hosts, mapped onto the lenses (HOSTS.md §1).
//!
//! One table: a host's tool name, the Claude Code tool whose lens reads it, and the argument
//! keys to rename (the host's key → the key the lens reads). A rename applies only when the
//! lens's key is absent. [`CWD`] as a target means the argument is the working folder of the
//! call (Gemini CLI `run_shell_command` `dir_path`). The same table gives tool matchers their
//! aliases (a rule on `Bash` also matches `run_shell_command`).
//!
//! Sources: Gemini CLI `docs/reference/tools.md`; Cursor hooks (`Shell`, `Read`, `Write`,
//! `StrReplace`, `Delete`, `Grep`, `Glob`); Copilot CLI hooks reference (`bash`, `view`,
//! `create`, `edit`, `glob`, `grep`, `web_fetch`); Factory Droid (`Execute`, `Create`); Kiro
//! CLI (`execute_bash`); Qwen Code (Gemini CLI's names); Kimi Code CLI (`ReadFile`,
//! `WriteFile`, `StrReplaceFile`, `FetchURL`); pi and OpenCode (`bash`, `read`, `write`, `edit`,
//! `filePath`).

use std::borrow::Cow;

use serde_json::{Map, Value};

/// Rename target meaning "the working folder of the call".
pub(crate) const CWD: &str = "@cwd";

/// One host tool: its name, the lens tool it is read as, the keys to rename.
pub(crate) struct HostTool {
    /// The host's tool name.
    pub(crate) name: &'static str,
    /// The Claude Code tool whose lens reads it.
    pub(crate) canonical: &'static str,
    /// `(host key, lens key)` renames.
    pub(crate) keys: &'static [(&'static str, &'static str)],
}

const fn t(
    name: &'static str,
    canonical: &'static str,
    keys: &'static [(&'static str, &'static str)],
) -> HostTool {
    HostTool {
        name,
        canonical,
        keys,
    }
}

/// The host tools (names no Claude Code or Codex tool uses).
pub(crate) const HOST_TOOLS: &[HostTool] = &[
    // Gemini CLI (also Qwen Code).
    t(
        "run_shell_command",
        "Bash",
        &[("dir_path", CWD), ("directory", CWD)],
    ),
    t("read_file", "Read", &[("absolute_path", "file_path")]),
    // Its paths or glob patterns (`include`, older `paths`) are read by [`read_patterns`].
    t("read_many_files", "Read", &[]),
    t("write_file", "Write", &[]),
    t("replace", "Edit", &[("absolute_path", "file_path")]),
    t("glob", "Glob", &[("dir_path", "path")]),
    t(
        "search_file_content",
        "Grep",
        &[("dir_path", "path"), ("include", "glob")],
    ),
    t(
        "grep_search",
        "Grep",
        &[("dir_path", "path"), ("include", "glob")],
    ),
    t("list_directory", "LS", &[("dir_path", "path")]),
    t("web_fetch", "WebFetch", &[]),
    t("google_web_search", "WebSearch", &[]),
    // Cursor (`Read`, `Write`, `Edit`, `Grep`, `Glob` are Claude Code's names).
    t("Shell", "Bash", &[("cwd", CWD), ("working_directory", CWD)]),
    t(
        "StrReplace",
        "Edit",
        &[("path", "file_path"), ("contents", "new_string")],
    ),
    t("Delete", "Delete", &[("path", "file_path")]),
    // GitHub Copilot CLI.
    t("bash", "Bash", &[]),
    t("powershell", "PowerShell", &[]),
    t("view", "Read", &[("path", "file_path")]),
    t(
        "create",
        "Write",
        &[
            ("path", "file_path"),
            ("file_text", "content"),
            ("filePath", "file_path"),
        ],
    ),
    t(
        "edit",
        "Edit",
        &[
            ("path", "file_path"),
            ("filePath", "file_path"),
            ("old_str", "old_string"),
            ("new_str", "new_string"),
            ("oldString", "old_string"),
            ("newString", "new_string"),
            ("newText", "new_string"),
        ],
    ),
    t("grep", "Grep", &[]),
    // Factory Droid.
    t("Execute", "Bash", &[]),
    t("Create", "Write", &[]),
    // Kiro CLI.
    t("execute_bash", "Bash", &[]),
    // Kimi Code CLI (`Shell`, `Glob`, `Grep` as above).
    t("ReadFile", "Read", &[("path", "file_path")]),
    t("WriteFile", "Write", &[("path", "file_path")]),
    t("StrReplaceFile", "Edit", &[("path", "file_path")]),
    t("FetchURL", "WebFetch", &[]),
    t("SearchWeb", "WebSearch", &[]),
    // pi, OpenCode.
    t(
        "read",
        "Read",
        &[("path", "file_path"), ("filePath", "file_path")],
    ),
    t(
        "write",
        "Write",
        &[("path", "file_path"), ("filePath", "file_path")],
    ),
];

/// The host tool named `tool`, if the table has it.
pub(crate) fn host_tool(tool: &str) -> Option<&'static HostTool> {
    HOST_TOOLS.iter().find(|h| h.name == tool)
}

/// The Claude Code tool a host tool answers to in tool matchers (`run_shell_command` →
/// `Bash`).
pub(crate) fn alias(tool: &str) -> Option<&'static str> {
    host_tool(tool).map(|h| h.canonical)
}

/// A payload whose host tool call is rewritten as the Claude Code call its lens reads:
/// `tool_name` the canonical tool, the arguments renamed, a working-folder argument as `cwd`
/// (relative to the payload's `cwd`). Every other payload is borrowed unchanged.
pub(crate) fn canonical_payload(payload: &Value) -> Cow<'_, Value> {
    let Some(h) = payload
        .get("tool_name")
        .and_then(Value::as_str)
        .and_then(host_tool)
    else {
        return Cow::Borrowed(payload);
    };
    let mut p = payload.clone();
    let Some(m) = p.as_object_mut() else {
        return Cow::Borrowed(payload);
    };
    m.insert("tool_name".into(), Value::String(h.canonical.to_string()));
    let mut cwd: Option<String> = None;
    if let Some(Value::Object(input)) = m.get_mut("tool_input") {
        rename(input, h.keys, &mut cwd);
        if h.canonical == "WebFetch" && !input.contains_key("url") {
            // Gemini CLI `web_fetch` names its URLs (up to 20) inside `prompt`: the first is
            // read as `url`, the others as `urls`.
            let mut urls = input
                .get("prompt")
                .and_then(Value::as_str)
                .map(urls_in)
                .unwrap_or_default()
                .into_iter();
            if let Some(first) = urls.next() {
                input.insert("url".into(), Value::String(first));
                let rest: Vec<Value> = urls.map(Value::String).collect();
                if !rest.is_empty() {
                    input.insert("urls".into(), Value::Array(rest));
                }
            }
        }
    }
    if let Some(dir) = cwd {
        let joined = match m.get("cwd").and_then(Value::as_str) {
            Some(base) if !dir.starts_with('/') && !dir.starts_with('~') => {
                format!("{}/{dir}", base.trim_end_matches('/'))
            }
            _ => dir,
        };
        m.insert("cwd".into(), Value::String(joined));
    }
    Cow::Owned(p)
}

/// Apply `keys` to a tool input.
fn rename(input: &mut Map<String, Value>, keys: &[(&str, &str)], cwd: &mut Option<String>) {
    for (from, to) in keys {
        if *to == CWD {
            if let Some(Value::String(d)) = input.get(*from)
                && !d.is_empty()
            {
                *cwd = Some(d.clone());
            }
            continue;
        }
        if !input.contains_key(*to)
            && let Some(v) = input.remove(*from)
        {
            input.insert((*to).to_string(), v);
        }
    }
}

/// The paths or glob patterns a many-file read names (Gemini CLI `read_many_files`:
/// `include`, or `paths` in older versions), when the call names no single `file_path`.
pub(crate) fn read_patterns<'v>(tool: &str, input: &'v Value) -> Option<Vec<&'v str>> {
    if tool != "Read" || input.get("file_path").is_some() {
        return None;
    }
    let list = input
        .get("include")
        .or_else(|| input.get("paths"))?
        .as_array()?;
    Some(list.iter().filter_map(Value::as_str).collect())
}

/// The `http(s)://` URLs in a text, in order.
pub(crate) fn urls_in(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| {
            w.trim_end_matches(['.', ',', ';', ':', ')', ']', '!', '?'])
                .to_string()
        })
        .collect()
}

/// The hosts' documented tools whose input acts on nothing (a prompt for a subagent, a plan,
/// a question, a to-do list, a search query, a background shell's id): no lens reads them.
const INERT_TOOLS: &[&str] = &[
    "Task",
    "Agent",
    "TaskOutput",
    "TaskCreate",
    "TaskUpdate",
    "TaskList",
    "TaskGet",
    "TodoWrite",
    "TodoRead",
    "WebSearch",
    "AskUserQuestion",
    "ExitPlanMode",
    "EnterPlanMode",
    "Skill",
    "SlashCommand",
    "ToolSearch",
    "BashOutput",
    "KillShell",
    "KillBash",
    "EndConversation",
    "update_plan",
];

/// The name of Codex code mode's tool (`codex_code_mode::PUBLIC_TOOL_NAME`): its input is
/// JavaScript whose tool calls `readers::code_mode` judges one by one.
pub(crate) const CODE_MODE_EXEC: &str = "exec";

/// Whether a call of `tool` with `input` acts on nothing a lens could read: one of the hosts'
/// inert tools, or the frame of a Codex code-mode call (`{"code": …}`, whose inner tool calls
/// are judged as themselves).
pub(crate) fn is_inert(tool: &str, input: &Value) -> bool {
    INERT_TOOLS.contains(&tool)
        || (tool == CODE_MODE_EXEC
            && input
                .as_object()
                .is_some_and(|m| m.len() == 1 && m.get("code").is_some_and(Value::is_string)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

    use serde_json::{Value, json};

    use super::is_inert;

    use crate::effects::effects_of;
    use crate::shell_env::ShellEnv;

    /// Every effect of a call, displayed.
    fn shown(tool: &str, input: Value) -> Vec<String> {
        let env = ShellEnv::new(None, "/home/u");
        let payload = json!({"cwd": "/w", "tool_name": tool, "tool_input": input});
        effects_of(&payload, &env)
            .list
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn host_tools_read_as_the_same_effects_as_claude_code_tools() {
        for (tool, input, cc_tool, cc_input) in [
            (
                "read_file",
                json!({"file_path": "/w/.env"}),
                "Read",
                json!({"file_path": "/w/.env"}),
            ),
            (
                "read_file",
                json!({"absolute_path": "/w/.env"}),
                "Read",
                json!({"file_path": "/w/.env"}),
            ),
            (
                "view",
                json!({"path": "/w/.env"}),
                "Read",
                json!({"file_path": "/w/.env"}),
            ),
            (
                "create",
                json!({"path": "/w/a.sh", "file_text": "echo hi"}),
                "Write",
                json!({"file_path": "/w/a.sh", "content": "echo hi"}),
            ),
            (
                "edit",
                json!({"path": "/w/a.sh", "old_str": "a", "new_str": "b"}),
                "Edit",
                json!({"file_path": "/w/a.sh", "old_string": "a", "new_string": "b"}),
            ),
            (
                "StrReplace",
                json!({"path": "/w/a.sh", "old_string": "a", "new_string": "b"}),
                "Edit",
                json!({"file_path": "/w/a.sh", "old_string": "a", "new_string": "b"}),
            ),
            (
                "Shell",
                json!({"command": "cat ~/.ssh/id_rsa"}),
                "Bash",
                json!({"command": "cat ~/.ssh/id_rsa"}),
            ),
            (
                "Execute",
                json!({"command": "rm -rf ~"}),
                "Bash",
                json!({"command": "rm -rf ~"}),
            ),
            (
                "ReadFile",
                json!({"path": "/w/.env"}),
                "Read",
                json!({"file_path": "/w/.env"}),
            ),
            (
                "FetchURL",
                json!({"url": "https://x.example/a"}),
                "WebFetch",
                json!({"url": "https://x.example/a"}),
            ),
        ] {
            assert_eq!(shown(tool, input), shown(cc_tool, cc_input), "{tool}");
        }
    }

    #[test]
    fn a_many_file_read_reads_every_pattern() {
        assert_eq!(
            shown(
                "read_many_files",
                json!({"include": ["**/.env", "/home/u/.ssh/id_rsa"]})
            ),
            [
                "reads /w (Glob, argument `/path`)",
                "reads /w/.env (Glob, argument `/pattern`)",
                "reads /w (Glob, argument `/path`)",
                "reads /home/u/.ssh/id_rsa (Glob, argument `/pattern`)"
            ]
        );
    }

    #[test]
    fn a_working_folder_argument_is_the_cwd_of_the_command() {
        assert_eq!(
            shown(
                "run_shell_command",
                json!({"command": "rm -rf build", "dir_path": "sub"})
            ),
            [
                "runs `rm -rf build` (Bash: `rm -rf build`)",
                "deletes build recursively (Bash: `rm -rf build`)"
            ]
        );
        let env = ShellEnv::new(None, "/home/u");
        let payload = json!({"cwd": "/w", "tool_name": "run_shell_command",
            "tool_input": {"command": "rm -rf build", "dir_path": "sub"}});
        let fx = effects_of(&payload, &env);
        let p = fx
            .list
            .iter()
            .find_map(|e| e.path())
            .expect("a deleted path");
        assert_eq!(p.cwd.as_deref(), Some("/w/sub"));
    }

    #[test]
    fn cursor_delete_deletes_and_gemini_web_fetch_sends_to_every_url() {
        assert_eq!(
            shown("Delete", json!({"path": "/w/.env"})),
            ["deletes /w/.env (Delete, argument `/file_path`)"]
        );
        let sends = shown(
            "web_fetch",
            json!({"prompt": "Summarise https://a.example/x and https://b.example/y."}),
        );
        assert_eq!(sends.len(), 2, "{sends:?}");
        assert!(sends[0].contains("a.example"), "{sends:?}");
        assert!(sends[1].contains("b.example"), "{sends:?}");
    }

    #[test]
    fn inert_tools_and_the_code_mode_frame() {
        assert!(is_inert("TodoWrite", &json!({"todos": []})));
        assert!(is_inert(
            "exec",
            &json!({"code": "await tools.exec_command({cmd: 'ls'})"})
        ));
        assert!(!is_inert("exec", &json!({"command": "ls", "timeout": 5})));
        assert!(!is_inert("FancyRead", &json!({"file_path": "/etc/passwd"})));
    }
}
