//! What an MCP tool's name says: its verb and the kind of tool it is.
//!
//! In: the tool name (`mcp__<server>__<tool>`, `MCP:<tool>`). Out: a [`ToolName`] (the
//! name's words, the [`Verb`] it does to the paths it is given, whether it is a shell, browser,
//! git, database, code-running or file tool, the remote repository service it speaks to), the
//! `(server, tool)` split of the name.

use super::keys::words;

/// What a tool's name says it does to the paths it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verb {
    Read,
    Write,
    Append,
    Delete,
    Move,
    Copy,
    Upload,
    Kill,
}

/// What a tool's name says about the arguments it is given.
pub(super) struct ToolName {
    /// The tool name's words (server name left out).
    pub(super) words: Vec<String>,
    pub(super) verb: Verb,
    /// Requests it sends are `POST`s (`post`, `submit`, `upload`, `send`).
    pub(super) posts: bool,
    /// A shell, terminal or process tool: `input` / `text` are typed into a shell.
    pub(super) shell_tool: bool,
    /// Script text runs in a page (`evaluate`, `browser_run_code`).
    pub(super) evaluates: bool,
    /// The tool runs code it is given (`run_code`, `executeCode`, `python_repl`).
    pub(super) runs_code: bool,
    /// The language the tool's name says it runs (`python`, `javascript`, `bash`).
    pub(super) code_lang: Option<&'static str>,
    /// A git tool: `target`, `source`, `branch` are revisions.
    pub(super) git_tool: bool,
    /// A database tool: `query` holds SQL even when short.
    pub(super) db_tool: bool,
    /// Paths name files in a remote repository (GitHub, GitLab, Bitbucket).
    pub(super) remote: Option<&'static str>,
    /// The tool touches files (`file`, `dir`, `path` in its name).
    pub(super) file_tool: bool,
}

impl ToolName {
    /// What `tool` says.
    pub(super) fn of(tool: &str) -> ToolName {
        let (server, short) = split_tool(tool);
        let server = server.to_ascii_lowercase();
        let name = words(short);
        let has = |w: &str| name.iter().any(|x| x == w);
        let verb = verb_of(&name);
        let server_words = words(&server);
        let sv = |w: &str| server_words.iter().any(|x| x == w) || server.contains(w);
        let short_l = short.to_ascii_lowercase();
        // `process` as a noun (`start_process`, `interact_with_process`), not the verb
        // (`process_text`).
        let process_noun = name.iter().skip(1).any(|w| w == "process");
        let shell_tool = ["shell", "terminal", "bash", "tmux", "powershell"]
            .iter()
            .any(|w| short_l.contains(w) || sv(w))
            || has("exec")
            || process_noun
            || has("cmd")
            || has("command");
        let browser_tool = ["browser", "playwright", "puppeteer", "chrome", "selenium"]
            .iter()
            .any(|w| short_l.contains(w) || sv(w));
        let evaluates = has("evaluate")
            || has("eval")
            || browser_tool && (has("run") || has("execute") || has("inject")) && !has("command");
        let git_tool = name.first().is_some_and(|w| w == "git")
            || (server == "git" || server.ends_with("-git") || server.starts_with("git-"));
        let remote = if server.contains("github") || name.first().is_some_and(|w| w == "github") {
            Some("api.github.com")
        } else if server.contains("gitlab") {
            Some("gitlab.com")
        } else if server.contains("bitbucket") {
            Some("api.bitbucket.org")
        } else {
            None
        };
        let db_tool = [
            "sql", "postgres", "mysql", "sqlite", "database", "supabase", "neon",
        ]
        .iter()
        .chain(
            [
                "bigquery",
                "snowflake",
                "clickhouse",
                "duckdb",
                "redshift",
                "mssql",
            ]
            .iter(),
        )
        .any(|w| short_l.contains(w) || server.contains(w))
            || server_words.iter().any(|w| w.ends_with("db"))
            || has("db")
            || has("query");
        let file_tool = name.iter().any(|w| {
            matches!(
                w.as_str(),
                "file" | "files" | "dir" | "directory" | "directories" | "folder" | "path"
            )
        });
        let posts = name.iter().any(|w| {
            matches!(
                w.as_str(),
                "post" | "submit" | "upload" | "send" | "publish" | "webhook"
            )
        });
        let runs_code = name.iter().any(|w| {
            matches!(
                w.as_str(),
                "run"
                    | "execute"
                    | "exec"
                    | "eval"
                    | "interpret"
                    | "interpreter"
                    | "repl"
                    | "sandbox"
                    | "jupyter"
                    | "notebook"
                    | "kernel"
            )
        });
        let code_lang = name.iter().find_map(|w| match w.as_str() {
            "python" | "python3" | "py" | "ipython" => Some("python"),
            "node" | "nodejs" | "javascript" | "js" | "deno" | "bun" | "typescript" | "ts" => {
                Some("javascript")
            }
            "ruby" => Some("ruby"),
            "php" => Some("php"),
            "perl" => Some("perl"),
            "bash" | "sh" | "shell" | "zsh" => Some("bash"),
            _ => None,
        });
        ToolName {
            words: name,
            verb,
            posts,
            shell_tool,
            evaluates,
            runs_code,
            code_lang,
            git_tool,
            db_tool,
            remote,
            file_tool,
        }
    }
}

/// The verb of a tool name: the strongest one its words name (a tool that searches and
/// replaces writes).
pub(super) fn verb_of(name: &[String]) -> Verb {
    let has = |ws: &[&str]| name.iter().any(|w| ws.contains(&w.as_str()));
    if has(&["kill", "terminate", "signal"]) {
        Verb::Kill
    } else if has(&["move", "mv", "rename"]) {
        Verb::Move
    } else if has(&[
        "delete", "remove", "rm", "unlink", "rmdir", "trash", "erase", "destroy", "purge",
    ]) {
        Verb::Delete
    } else if has(&["copy", "cp", "duplicate"]) {
        Verb::Copy
    } else if has(&["upload", "attach"])
        // `put_object {localPath}`, `push_blob`: a local file goes to a remote store.
        || has(&["put", "push"]) && !has(&["file", "files", "dir", "directory"])
    {
        Verb::Upload
    } else if has(&["append"]) {
        Verb::Append
    } else if has(&[
        "write",
        "create",
        "edit",
        "save",
        "put",
        "update",
        "modify",
        "patch",
        "replace",
        "insert",
        "mkdir",
        "touch",
        "make",
        "store",
        "export",
        "download",
        "screenshot",
        "dump",
        "overwrite",
        "new",
        "pdf",
    ]) {
        Verb::Write
    } else {
        Verb::Read
    }
}

/// `(server, tool)` of an MCP tool name: `mcp__fs__read_file` → `(fs, read_file)`,
/// `MCP:read_file` → `("", read_file)`, `mcp:server:tool` → `(server, tool)`.
pub(super) fn split_tool(tool: &str) -> (&str, &str) {
    if let Some(rest) = tool.strip_prefix("mcp__") {
        return rest.split_once("__").unwrap_or(("", rest));
    }
    if let Some(rest) = tool
        .strip_prefix("MCP:")
        .or_else(|| tool.strip_prefix("mcp:"))
    {
        let rest = rest.trim();
        return rest.rsplit_once(':').unwrap_or(("", rest));
    }
    ("", tool)
}
