//! The MCP lens: every argument of an MCP tool call, at any depth, classified.
//!
//! In: the tool name (`mcp__<server>__<tool>`, Cursor's `MCP:<tool>`) and its arguments
//! object. Out: effects whose route names the tool and the JSON pointer of the argument
//! (`/path`, `/options/target/0`).
//!
//! Every value is walked: objects, arrays, and strings that themselves hold a JSON object or
//! array (parsed and walked; the pointer goes on into them). A string is classified by its
//! key name first and its shape second:
//!
//! - a **command** (keys `command`, `cmd`, `script`, `commandLine`, …; `input` and `text` of a
//!   shell or process tool; an argv array under `command`, or `command` + `args`) goes
//!   through the shell lens;
//! - **SQL** (keys `sql`, `query`, `statement`, with a statement's shape) becomes a `run` of
//!   the program `sql` whose argv is the statement's verb (`select`, `drop`), the flag
//!   `--destructive` when it drops, truncates, or deletes or updates without `WHERE`, and the
//!   statement: policies test it like any program (`program = "sql"`, `subcommand = "drop"`,
//!   `flags_any = ["--destructive"]`);
//! - a **URL** (`scheme://…`) is a `send` (`POST` when the tool's verb posts, submits or
//!   uploads), a `file://` URL the path it names; a `host` key's value is a `send` to it;
//! - a **path** (a path key: `path`, `file_path`, `paths[]`, `destination`, `cwd`, …; or, under
//!   a key that says nothing, a value shaped like one: `/…`, `~/…`, `./…`, `../…`, `C:\…`) is
//!   read, written, deleted or moved as the tool's verb (`read_file`, `write_file`,
//!   `move_file`, `delete_*`, `create_directory`) and the key (`destination` is written)
//!   say; a write carries the `content` / `text` / `new_string` / `edits[].newText` beside it.
//!   Keys that clearly name something else (`…Id`, `name`, `query`, `pattern`, `branch`,
//!   `message`, `content`) are never paths, whatever their shape: a library ID
//!   `/vercel/next.js` is not a file.
//! - anything else is not an effect.
//!
//! Named lenses refine this for common servers: filesystem `search_files` reads the pattern
//! joined onto the path; git tools take `target` / `branch` as revisions and paths relative to
//! `repo_path`; GitHub, GitLab and Bitbucket tools name paths inside the remote repository
//! (not local files), and their writes (`create_or_update_file`, `push_files`,
//! `create_issue`, …) are a `send` to the service with a literal body; browser `evaluate`
//! runs page script (`unsure`); `*_upload` tools read their files and send them; `kill_*` /
//! `*_terminate` signal the process. A value too deep or too large to walk is `unsure`.

use serde_json::{Map, Value};

use super::model::{BodySource, Effects, Lens, PathRef, Route, Send, What};
use super::sql;
use crate::shell::Arg;
use crate::shell_env::ShellEnv;

/// Most keys of an object whose values are read with their siblings as context.
const MAX_SIBLINGS: usize = 256;

/// Deepest nesting walked (objects, arrays and JSON inside strings together).
const MAX_DEPTH: usize = 16;
/// Most values walked in one call.
const MAX_NODES: usize = 20_000;
/// Longest string parsed as JSON.
const MAX_JSON_STRING: usize = 256 * 1024;
/// Most bytes of JSON-in-string parsed in one call.
const MAX_JSON_TOTAL: usize = 1024 * 1024;

/// The effects of one MCP tool call.
pub(crate) fn lens(tool: &str, input: &Value, cwd: Option<&str>, env: &ShellEnv, fx: &mut Effects) {
    let start = fx.list.len();
    let mut w = Walk::new(tool, env);
    w.walk(input, "", None, None, cwd, 0, fx);
    w.finish(input, start, fx);
}

/// What a tool's name says it does to the paths it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Read,
    Write,
    Append,
    Delete,
    Move,
    Copy,
    Upload,
    Kill,
}

/// The part a path key plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Whatever the verb does (`path`, `file`, `paths`).
    Any,
    /// Read (copied or moved from): `source`, `src`, `from`.
    Source,
    /// Written: `destination`, `output`, `new_path`.
    Dest,
    /// Written by a move or copy, else whatever the verb does: `target`, `to`.
    Target,
    /// A working directory (`cwd`, `repo_path`): read, and relative paths beside it are
    /// relative to it.
    Context,
}

/// What a key name says its value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyKind {
    /// A path whatever its shape.
    Path(Role),
    /// A path when the value looks like one (`/`, `.`, an extension) or the tool handles
    /// files.
    WeakPath(Role),
    /// A URL.
    Url,
    /// A host name or address.
    Host,
    /// Data (content, messages, descriptions): neither a path nor a destination.
    Data,
    /// Names something else (an id, a name, a pattern, a revision): never a path.
    NotPath,
    /// Says nothing: the value's shape decides.
    Generic,
}

/// Split a name into lower-case words: `context7CompatibleLibraryID` →
/// `context7 compatible library id`, `file_path` → `file path`.
fn words(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The kind of a key.
fn key_kind(key: &str) -> KeyKind {
    let w = words(key);
    let joined = w.concat();
    let Some(last) = w.last().map(String::as_str) else {
        return KeyKind::Generic;
    };
    const CONTEXT: &[&str] = &[
        "cwd",
        "workdir",
        "workingdir",
        "workingdirectory",
        "repopath",
        "repodir",
        "repositorypath",
        "projectdir",
        "projectpath",
        "projectroot",
        "basedir",
        "basepath",
        "root",
        "rootdir",
        "rootpath",
    ];
    const DEST: &[&str] = &[
        "destinationpath",
        "destpath",
        "targetpath",
        "targetfile",
        "outfile",
        "outputfile",
        "outputpath",
        "outputdir",
        "outputdirectory",
        "outdir",
        "savepath",
        "saveto",
        "newpath",
        "newfile",
        "newfilepath",
        "topath",
    ];
    const WEAK_DEST: &[&str] = &["destination", "dest", "output", "out"];
    const SOURCE: &[&str] = &[
        "sourcepath",
        "srcpath",
        "sourcefile",
        "oldpath",
        "frompath",
        "inputpath",
        "inputfile",
        "infile",
    ];
    const WEAK_SOURCE: &[&str] = &["source", "src", "from", "input", "sources"];
    const PATH_WORDS: &[&str] = &[
        "path",
        "paths",
        "file",
        "files",
        "filename",
        "filenames",
        "filepath",
        "filepaths",
        "pathname",
        "dir",
        "dirs",
        "directory",
        "directories",
        "folder",
        "folders",
    ];
    const NOT_PATH_BEFORE: &[&str] = &["x", "json", "url", "api", "route", "key", "object"];
    const URL_WORDS: &[&str] = &[
        "url", "urls", "uri", "uris", "href", "link", "links", "webhook", "endpoint",
    ];
    const DATA_WORDS: &[&str] = &[
        "content",
        "contents",
        "text",
        "body",
        "message",
        "messages",
        "description",
        "comment",
        "comments",
        "note",
        "notes",
        "observation",
        "observations",
        "summary",
        "title",
        "prompt",
        "answer",
        "reason",
        "thought",
        "thoughts",
        "markdown",
        "html",
        "caption",
        "string",
        "data",
        "payload",
        "instructions",
        "context",
    ];
    const NOT_PATH_WORDS: &[&str] = &[
        "id",
        "ids",
        "uuid",
        "name",
        "names",
        "type",
        "kind",
        "label",
        "labels",
        "tag",
        "tags",
        "ref",
        "refs",
        "branch",
        "branches",
        "sha",
        "commit",
        "revision",
        "rev",
        "owner",
        "repo",
        "org",
        "organization",
        "slug",
        "topic",
        "channel",
        "library",
        "namespace",
        "route",
        "pattern",
        "patterns",
        "regex",
        "glob",
        "globs",
        "query",
        "q",
        "search",
        "selector",
        "jq",
        "filter",
        "filters",
        "sort",
        "order",
        "mode",
        "format",
        "language",
        "lang",
        "model",
        "version",
        "role",
        "status",
        "state",
        "method",
        "header",
        "headers",
        "key",
        "locale",
        "email",
        "user",
        "username",
        "password",
        "token",
        "secret",
        "entity",
        "relation",
        "field",
        "column",
        "table",
    ];
    if CONTEXT.contains(&joined.as_str()) {
        return KeyKind::Path(Role::Context);
    }
    if DEST.contains(&joined.as_str()) {
        return KeyKind::Path(Role::Dest);
    }
    if SOURCE.contains(&joined.as_str()) {
        return KeyKind::Path(Role::Source);
    }
    if WEAK_DEST.contains(&joined.as_str()) {
        return KeyKind::WeakPath(Role::Dest);
    }
    if matches!(joined.as_str(), "target" | "to") {
        return KeyKind::WeakPath(Role::Target);
    }
    if WEAK_SOURCE.contains(&joined.as_str()) {
        return KeyKind::WeakPath(Role::Source);
    }
    let before_last = w.len().checked_sub(2).map(|i| w[i].as_str());
    if PATH_WORDS.contains(&last) && !before_last.is_some_and(|b| NOT_PATH_BEFORE.contains(&b)) {
        return KeyKind::Path(Role::Any);
    }
    // `file_name`, `dirName`, `folder_names`.
    if matches!(last, "name" | "names")
        && before_last.is_some_and(|b| matches!(b, "file" | "dir" | "directory" | "folder"))
    {
        return KeyKind::Path(Role::Any);
    }
    if URL_WORDS.contains(&last) {
        return KeyKind::Url;
    }
    if matches!(last, "host" | "hostname") {
        return KeyKind::Host;
    }
    if DATA_WORDS.contains(&last) {
        return KeyKind::Data;
    }
    if NOT_PATH_WORDS.contains(&last) || w.iter().any(|x| x == "library") {
        return KeyKind::NotPath;
    }
    // `pathInProject`, `file_to_read`.
    if w.len() > 1 && PATH_WORDS.contains(&w[0].as_str()) {
        return KeyKind::Path(Role::Any);
    }
    KeyKind::Generic
}

/// A value shaped like a path whatever its key: absolute, home-relative, explicitly
/// relative, a Windows drive or UNC path.
fn path_shaped(s: &str) -> bool {
    if s.contains('\n') || s.len() > 4096 {
        return false;
    }
    let b = s.as_bytes();
    let drive = b.len() > 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b[2] == b'\\' || b[2] == b'/');
    (s.starts_with('/') && !s.starts_with("//"))
        || s == "~"
        || s.starts_with("~/")
        || s == "."
        || s == ".."
        || s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with("\\\\")
        || drive
}

/// A value under a weak path key (`source`, `target`, `to`) that still looks like a path:
/// path-shaped, or one word holding a `/` (not an address, not a URL); any one word when the
/// tool handles files.
fn weak_path_like(s: &str, file_tool: bool) -> bool {
    if path_shaped(s) {
        return true;
    }
    if s.is_empty() || s.contains(char::is_whitespace) || s.contains(['@', '\n']) || url_shaped(s) {
        return false;
    }
    file_tool || s.contains('/')
}

/// `scheme://…` or `file:…`.
fn url_shaped(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut c = scheme.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic())
        && c.all(|x| x.is_ascii_alphanumeric() || matches!(x, '+' | '-' | '.'))
        && (rest.starts_with("//") || scheme.eq_ignore_ascii_case("file"))
        && !s.contains(char::is_whitespace)
}

/// Escape a key for a JSON pointer.
fn pointer(base: &str, key: &str) -> String {
    format!("{base}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// The walk over one call's arguments.
struct Walk<'a> {
    tool: &'a str,
    env: &'a ShellEnv,
    /// The tool name's words (server name left out).
    name: Vec<String>,
    verb: Verb,
    /// Requests it sends are `POST`s (`post`, `submit`, `upload`, `send`).
    posts: bool,
    /// A shell, terminal or process tool: `input` / `text` are typed into a shell.
    shell_tool: bool,
    /// Script text runs in a page (`evaluate`, `browser_run_code`).
    evaluates: bool,
    /// The tool runs code it is given (`run_code`, `executeCode`, `python_repl`).
    runs_code: bool,
    /// The language the tool's name says it runs (`python`, `javascript`, `bash`).
    code_lang: Option<&'static str>,
    /// A git tool: `target`, `source`, `branch` are revisions.
    git_tool: bool,
    /// A database tool: `query` holds SQL even when short.
    db_tool: bool,
    /// Paths name files in a remote repository (GitHub, GitLab, Bitbucket).
    remote: Option<&'static str>,
    /// The tool touches files (`file`, `dir`, `path` in its name).
    file_tool: bool,
    nodes: usize,
    json_bytes: usize,
    too_large: bool,
    too_deep: bool,
    /// Files an upload reads (sent with the request).
    uploads: Vec<PathRef>,
    /// Where the first uploaded file was named.
    upload_arg: Option<String>,
}

impl<'a> Walk<'a> {
    fn new(tool: &'a str, env: &'a ShellEnv) -> Walk<'a> {
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
        Walk {
            tool,
            runs_code,
            code_lang,
            env,
            name,
            verb,
            posts,
            shell_tool,
            evaluates,
            git_tool,
            db_tool,
            remote,
            file_tool,
            nodes: 0,
            json_bytes: 0,
            too_large: false,
            too_deep: false,
            uploads: Vec::new(),
            upload_arg: None,
        }
    }

    fn route(&self, argument: &str) -> Route {
        Route {
            tool: self.tool.to_string(),
            lens: Some(Lens::Mcp),
            argument: argument.to_string(),
            command: None,
            via: Vec::new(),
        }
    }

    fn unsure(&self, why: String, argument: &str, fx: &mut Effects) {
        fx.push(What::Unsure(why), self.route(argument));
    }

    /// Walk one value. `key`: the nearest object key (array items keep their array's);
    /// `parent`: the object holding it; `base`: the directory relative paths are relative
    /// to.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        v: &Value,
        ptr: &str,
        key: Option<&str>,
        parent: Option<&Map<String, Value>>,
        base: Option<&str>,
        depth: usize,
        fx: &mut Effects,
    ) {
        if self.too_large {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.too_large = true;
            self.unsure(
                format!(
                    "arguments too large to walk: more than {MAX_NODES} values (stopped at `{ptr}`)"
                ),
                ptr,
                fx,
            );
            return;
        }
        if depth > MAX_DEPTH {
            // Once per call: a wide tree of deep branches says it once.
            if std::mem::replace(&mut self.too_deep, true) {
                return;
            }
            self.unsure(
                format!("argument `{ptr}` nested deeper than {MAX_DEPTH} levels: not walked"),
                ptr,
                fx,
            );
            return;
        }
        match v {
            Value::Object(m) => self.object(m, ptr, base, depth, fx),
            Value::Array(items) => {
                let kind = key.map(command_key).unwrap_or(CommandKey::No);
                if kind == CommandKey::Argv
                    && items.iter().all(Value::is_string)
                    && !items.is_empty()
                {
                    self.shell(v, ptr, base, fx);
                    return;
                }
                for (i, item) in items.iter().enumerate() {
                    if kind == CommandKey::Lines
                        && let Value::String(_) = item
                    {
                        self.shell(item, &pointer(ptr, &i.to_string()), base, fx);
                        continue;
                    }
                    self.walk(
                        item,
                        &pointer(ptr, &i.to_string()),
                        key,
                        parent,
                        base,
                        depth + 1,
                        fx,
                    );
                }
            }
            Value::String(s) => self.string(s, ptr, key, parent, base, depth, fx),
            Value::Number(n)
                if self.verb == Verb::Kill
                    && key.is_some_and(|k| is_pid_key(&words(k).concat())) =>
            {
                self.signal(&n.to_string(), ptr, parent, fx);
            }
            _ => {}
        }
    }

    fn object(
        &mut self,
        m: &Map<String, Value>,
        ptr: &str,
        base: Option<&str>,
        depth: usize,
        fx: &mut Effects,
    ) {
        // A working directory beside the other arguments: relative paths are relative to it.
        let own_base = m.iter().find_map(|(k, v)| {
            let s = v.as_str()?;
            (key_kind(k) == KeyKind::Path(Role::Context) && path_shaped(s)).then_some((k, s))
        });
        let outer = base;
        let base = own_base.map(|(_, s)| s).or(base);
        // `command` + `args`: one argv.
        let mut skip: Vec<&str> = Vec::new();
        if let Some((ck, Value::String(c))) = m
            .iter()
            .find(|(k, _)| command_key(k) != CommandKey::No && !self.evaluates)
            && let Some((ak, Value::Array(args))) = m
                .iter()
                .find(|(k, _)| matches!(words(k).concat().as_str(), "args" | "arguments" | "argv"))
            && args.iter().all(Value::is_string)
        {
            let mut argv = vec![Value::String(c.clone())];
            argv.extend(args.iter().cloned());
            self.shell(&Value::Array(argv), &pointer(ptr, ck), base, fx);
            skip.push(ck);
            skip.push(ak);
        }
        for (k, v) in m {
            if skip.contains(&k.as_str()) {
                continue;
            }
            // The working directory itself is relative to the one outside.
            let b = if own_base.is_some_and(|(bk, _)| bk == k) {
                outer
            } else {
                base
            };
            // Each value looks at its siblings (`dryRun`, `body`, `language`); past
            // `MAX_SIBLINGS` keys an object is walked without that context, so a wide object
            // costs linear time, not quadratic.
            let parent = (m.len() <= MAX_SIBLINGS).then_some(m);
            self.walk(v, &pointer(ptr, k), Some(k), parent, b, depth + 1, fx);
        }
        self.search_pattern(m, ptr, base, fx);
    }

    /// `search_files {path, pattern}`: the files searched are the pattern below the path.
    fn search_pattern(
        &mut self,
        m: &Map<String, Value>,
        ptr: &str,
        base: Option<&str>,
        fx: &mut Effects,
    ) {
        let searches = self
            .name
            .iter()
            .any(|w| matches!(w.as_str(), "search" | "find" | "glob"));
        if !searches || self.remote.is_some() {
            return;
        }
        // A content search (`search_code {path, pattern}`) matches text, not names: only its
        // file filter names files.
        let content_search = self.name.iter().any(|w| {
            matches!(
                w.as_str(),
                "code" | "content" | "contents" | "text" | "grep" | "regex"
            )
        });
        let pattern_keys: &[&str] = if content_search {
            &["filepattern", "glob", "include", "filefilter"]
        } else {
            &["pattern", "glob", "filepattern", "include"]
        };
        let path = m.iter().find_map(|(k, v)| {
            let s = v.as_str()?;
            matches!(
                key_kind(k),
                KeyKind::Path(Role::Any) | KeyKind::Path(Role::Context)
            )
            .then_some(s)
        });
        let pattern = m
            .iter()
            .find(|(k, v)| v.is_string() && pattern_keys.contains(&words(k).concat().as_str()));
        let (Some(path), Some((pk, Value::String(g)))) = (path, pattern) else {
            return;
        };
        if g.is_empty() || g.contains(char::is_whitespace) && !g.contains(['*', '.']) {
            return;
        }
        let b = path.trim_end_matches('/');
        let joined = if g.starts_with('/') || g.starts_with('~') {
            g.clone()
        } else if g.starts_with("**/") {
            format!("{b}/{g}")
        } else {
            format!("{b}/**/{g}")
        };
        fx.push(
            What::Read(PathRef::new(joined, base)),
            self.route(&pointer(ptr, pk)),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn string(
        &mut self,
        s: &str,
        ptr: &str,
        key: Option<&str>,
        parent: Option<&Map<String, Value>>,
        base: Option<&str>,
        depth: usize,
        fx: &mut Effects,
    ) {
        let t = s.trim();
        if t.is_empty() {
            return;
        }
        let kw = key.map(words).unwrap_or_default();
        let joined = kw.concat();
        // Script run in a page.
        if self.evaluates
            && matches!(
                joined.as_str(),
                "script" | "function" | "code" | "expression" | "js" | "javascript" | "source"
            )
        {
            self.unsure("runs page script".to_string(), ptr, fx);
            return;
        }
        // Code run by an interpreter the tool names (`run_code`, `executeCode`,
        // `python_repl`): a shell language goes through the shell lens, any other cannot
        // be seen into.
        let lang = parent
            .and_then(|m| {
                m.iter().find_map(|(k, v)| {
                    matches!(
                        words(k).concat().as_str(),
                        "language" | "lang" | "runtime" | "kernel" | "kernelname" | "interpreter"
                    )
                    .then_some(v.as_str()?)
                })
            })
            .map(str::to_ascii_lowercase)
            .or_else(|| self.code_lang.map(str::to_string));
        let code_key = matches!(
            joined.as_str(),
            "code" | "source" | "sourcecode" | "program" | "snippet" | "cell"
        ) || (joined == "script" && lang.is_some());
        if self.runs_code && code_key {
            match lang.as_deref() {
                Some("bash" | "sh" | "shell" | "zsh" | "sh-session") => {
                    self.shell(&Value::String(s.to_string()), ptr, base, fx);
                }
                None if self.shell_tool => {
                    self.shell(&Value::String(s.to_string()), ptr, base, fx);
                }
                Some(l) => self.unsure(format!("runs {l} code"), ptr, fx),
                None => self.unsure("runs code".to_string(), ptr, fx),
            }
            return;
        }
        // SQL.
        let sql_key = matches!(
            joined.as_str(),
            "sql" | "sqlquery" | "statement" | "statements" | "stmt" | "querytext" | "query"
        ) || (self.db_tool
            && matches!(joined.as_str(), "command" | "input" | "text"));
        if sql_key {
            let strict = joined == "query" && !self.db_tool;
            if let Some(stmts) = sql::statements(t, strict) {
                for st in stmts {
                    self.sql(st, ptr, base, fx);
                }
                return;
            }
        }
        // A command line.
        let ck = key.map(command_key).unwrap_or(CommandKey::No);
        let shell_input = self.shell_tool
            && matches!(
                joined.as_str(),
                "input" | "text" | "chars" | "keys" | "line" | "code"
            );
        if ck != CommandKey::No || shell_input {
            self.shell(&Value::String(s.to_string()), ptr, base, fx);
            return;
        }
        // A process signalled by id.
        if self.verb == Verb::Kill && is_pid_key(&joined) {
            self.signal(t, ptr, parent, fx);
            return;
        }
        let kind = key.map(key_kind).unwrap_or(KeyKind::Generic);
        // JSON inside a string (not the data a write puts in a file).
        let file_data = kind == KeyKind::Data && matches!(self.verb, Verb::Write | Verb::Append);
        if !file_data
            && ((t.starts_with('{') && t.ends_with('}'))
                || (t.starts_with('[') && t.ends_with(']')))
        {
            if t.len() > MAX_JSON_STRING || self.json_bytes + t.len() > MAX_JSON_TOTAL {
                self.unsure(
                    format!(
                        "argument `{ptr}` holds {} bytes of JSON: too large to walk",
                        t.len()
                    ),
                    ptr,
                    fx,
                );
                return;
            }
            if let Ok(inner) = serde_json::from_str::<Value>(t)
                && (inner.is_object() || inner.is_array())
            {
                self.json_bytes += t.len();
                self.walk(&inner, ptr, key, parent, base, depth + 1, fx);
                return;
            }
        }
        let kind = if self.git_tool && matches!(kind, KeyKind::WeakPath(_)) && !path_shaped(t) {
            // `git_diff {target: "origin/main"}`: a revision.
            KeyKind::NotPath
        } else {
            kind
        };
        // A URL (under a URL key, a bare host too; `view-source:` shows what it wraps).
        let t = t
            .strip_prefix("view-source:")
            .filter(|u| url_shaped(u))
            .unwrap_or(t);
        if url_shaped(t) || kind == KeyKind::Url && super::url::parse(t).is_some() {
            if let Some(e) = super::url::parse(t)
                && e.scheme == "file"
                && e.host.is_empty()
            {
                if self.remote.is_none() {
                    let role = match kind {
                        KeyKind::Path(r) | KeyKind::WeakPath(r) => r,
                        _ => Role::Any,
                    };
                    self.path(&e.path, role, ptr, parent, None, fx);
                }
                return;
            }
            let fetches = self.name.iter().any(|w| {
                matches!(
                    w.as_str(),
                    "fetch"
                        | "navigate"
                        | "goto"
                        | "open"
                        | "browse"
                        | "scrape"
                        | "crawl"
                        | "download"
                        | "request"
                        | "http"
                        | "get"
                        | "url"
                )
            });
            if kind != KeyKind::Data || fetches {
                // Data the request carries beside its URL: a body, a form's fields, the
                // message a webhook or callback delivers.
                let body = parent
                    .filter(|m| {
                        m.iter().any(|(k, v)| {
                            !v.is_null() && SENT_DATA_KEYS.contains(&words(k).concat().as_str())
                        })
                    })
                    .map(|_| vec![BodySource::Literal])
                    .unwrap_or_default();
                let method = if self.posts || !body.is_empty() {
                    "POST"
                } else {
                    "GET"
                };
                super::url::push_url(t, Some(method.to_string()), body, self.route(ptr), fx);
            }
            return;
        }
        match kind {
            KeyKind::Host => {
                if let Some(mut e) = super::url::parse(t).filter(|e| e.path == "/") {
                    // A bare host says nothing of the protocol: the port beside it, if any.
                    e.scheme = String::new();
                    e.path = String::new();
                    let port = parent.and_then(|m| {
                        m.iter().find_map(|(k, v)| {
                            (words(k).concat() == "port").then_some(())?;
                            match v {
                                Value::Number(n) => n.as_u64(),
                                Value::String(s) => s.parse().ok(),
                                _ => None,
                            }
                        })
                    });
                    if !t.contains(':') || t.starts_with('[') && !t.contains("]:") {
                        e.port = port.and_then(|p| u16::try_from(p).ok());
                    }
                    fx.push(
                        What::Send(Send {
                            url: None,
                            endpoint: Some(e),
                            method: None,
                            body: Vec::new(),
                            dynamic: false,
                            runs_response: false,
                        }),
                        self.route(ptr),
                    );
                }
            }
            _ if self.remote.is_some() => {}
            KeyKind::Path(role) => self.path(t, role, ptr, parent, base, fx),
            KeyKind::WeakPath(role) => {
                let file_tool = self.file_tool || matches!(self.verb, Verb::Move | Verb::Copy);
                if weak_path_like(t, file_tool) {
                    self.path(t, role, ptr, parent, base, fx);
                }
            }
            KeyKind::Generic => {
                if path_shaped(t) {
                    self.path(t, Role::Any, ptr, parent, base, fx);
                }
            }
            // A file tool's path-shaped `name` is still a path.
            KeyKind::NotPath if self.file_tool && path_shaped(t) => {
                self.path(t, Role::Any, ptr, parent, base, fx);
            }
            // A URI key's local path (`uri: "/repo/x.ts"`).
            KeyKind::Url if path_shaped(t) => {
                self.path(t, Role::Any, ptr, parent, base, fx);
            }
            KeyKind::Url | KeyKind::Data | KeyKind::NotPath => {}
        }
    }

    /// The effects of a path by the tool's verb and the key's role.
    fn path(
        &mut self,
        text: &str,
        role: Role,
        ptr: &str,
        parent: Option<&Map<String, Value>>,
        base: Option<&str>,
        fx: &mut Effects,
    ) {
        let p = PathRef::new(text, base);
        let r = self.route(ptr);
        let sib = |names: &[&str]| {
            parent.and_then(|m| {
                m.iter()
                    .find(|(k, _)| names.contains(&words(k).concat().as_str()))
                    .map(|(_, v)| v)
            })
        };
        let dry_run = sib(&["dryrun", "preview"]).and_then(Value::as_bool) == Some(true);
        let recursive = sib(&["recursive", "recurse"]).and_then(Value::as_bool) == Some(true);
        let append = self.verb == Verb::Append
            || sib(&["mode", "writemode"]).and_then(Value::as_str) == Some("append")
            || sib(&["append"]).and_then(Value::as_bool) == Some(true);
        let write = |fx: &mut Effects, p: PathRef, r: Route| {
            if dry_run {
                fx.push(What::Read(p), r);
            } else {
                fx.push(
                    What::Write {
                        path: p,
                        append,
                        content: content_of(parent),
                    },
                    r,
                );
            }
        };
        let role = match role {
            Role::Context => {
                fx.push(What::Read(p), r);
                return;
            }
            Role::Target if matches!(self.verb, Verb::Move | Verb::Copy) => Role::Dest,
            Role::Target => Role::Any,
            other => other,
        };
        match (self.verb, role) {
            (_, Role::Dest) => write(fx, p, r),
            (Verb::Move, _) => {
                fx.push(What::Read(p.clone()), r.clone());
                if dry_run {
                    return;
                }
                fx.push(
                    What::Delete {
                        path: p,
                        recursive: true,
                    },
                    r,
                );
            }
            (Verb::Write | Verb::Append, Role::Any) => write(fx, p, r),
            (Verb::Delete, Role::Any) => {
                if dry_run {
                    fx.push(What::Read(p), r);
                } else {
                    fx.push(What::Delete { path: p, recursive }, r);
                }
            }
            (Verb::Upload, _) => {
                if self.upload_arg.is_none() {
                    self.upload_arg = Some(ptr.to_string());
                }
                self.uploads.push(p.clone());
                fx.push(What::Read(p), r);
            }
            _ => fx.push(What::Read(p), r),
        }
    }

    /// A process signalled (`kill_process {pid}`).
    fn signal(
        &mut self,
        target: &str,
        ptr: &str,
        parent: Option<&Map<String, Value>>,
        fx: &mut Effects,
    ) {
        let signal = parent.and_then(|m| m.get("signal")).and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        fx.push(
            What::Signal {
                targets: vec![Arg {
                    text: target.to_string(),
                    dynamic: false,
                }],
                signal,
                by_pattern: false,
            },
            self.route(ptr),
        );
    }

    /// A command value through the shell lens; its effects keep the shell lens's command
    /// and wrapper path and take this call's route.
    fn shell(&mut self, v: &Value, ptr: &str, base: Option<&str>, fx: &mut Effects) {
        let mut inner = Effects::default();
        // A tool named after a command-line program takes that program's arguments
        // (`mcp__k8s__kubectl {"command": "delete namespace prod"}` runs
        // `kubectl delete namespace prod`).
        let prefixed = v.as_str().and_then(|line| {
            let program = program_of_tool(self.tool)?;
            let first = line.split_whitespace().next().unwrap_or("");
            (first != program && !first.ends_with(&format!("/{program}")))
                .then(|| Value::String(format!("{program} {line}")))
        });
        let v = prefixed.as_ref().unwrap_or(v);
        super::dispatch::shell_value(self.tool, ptr, v, base, self.env, &mut inner);
        for mut e in inner.list {
            e.route.tool = self.tool.to_string();
            e.route.lens = Some(Lens::Mcp);
            e.route.argument = ptr.to_string();
            fx.list.push(e);
        }
    }

    /// A SQL statement: a `run` of `sql`.
    fn sql(&mut self, st: sql::Statement, ptr: &str, base: Option<&str>, fx: &mut Effects) {
        if let Some(why) = st.unparsed(self.tool) {
            fx.push(What::Unsure(why), self.route(ptr));
        }
        fx.push(What::Run(st.run(base)), self.route(ptr));
    }

    /// What the whole call adds: the request an upload sends, a remote repository's write.
    fn finish(&mut self, input: &Value, start: usize, fx: &mut Effects) {
        if !self.uploads.is_empty() {
            let body: Vec<BodySource> = self.uploads.drain(..).map(BodySource::File).collect();
            // The files go with the request the call names, if it names one.
            let mut attached = false;
            for e in fx.list.iter_mut().skip(start) {
                if let What::Send(s) = &mut e.what
                    && e.route.command.is_none()
                {
                    s.body.extend(body.iter().cloned());
                    s.method = Some("POST".to_string());
                    attached = true;
                }
            }
            if !attached {
                let arg = self.upload_arg.take().unwrap_or_default();
                fx.push(
                    What::Send(Send {
                        url: None,
                        endpoint: None,
                        method: Some("POST".to_string()),
                        body,
                        dynamic: true,
                        runs_response: false,
                    }),
                    self.route(&arg),
                );
            }
        }
        if let Some(host) = self.remote {
            self.remote_write(host, input, fx);
        } else {
            self.posted_text(input, start, fx);
        }
    }

    /// A tool that posts text to a service (a chat message, an issue or ticket, a comment,
    /// a page, a paste: `slack_post_message`, `send_message`, `create_issue`,
    /// `create_paste`): a `send` to the service with the text as a literal body, so a
    /// secret in the text is judged as one leaving. Only when the walk found no request of its
    /// own and the tool is no file tool (a local `write_file` writes, it does not post).
    fn posted_text(&mut self, input: &Value, start: usize, fx: &mut Effects) {
        if self.file_tool
            || fx
                .list
                .iter()
                .skip(start)
                .any(|e| matches!(e.what, What::Send(_)))
        {
            return;
        }
        let has = |ws: &[&str]| self.name.iter().any(|x| ws.contains(&x.as_str()));
        let (server, _) = split_tool(self.tool);
        let server = server.to_ascii_lowercase();
        let host = POST_SERVICES
            .iter()
            .find(|(name, _)| server.contains(name))
            .map(|(_, h)| *h);
        if !has(POST_VERBS) || !(has(POSTED_THINGS) || host.is_some() && has(SERVICE_THINGS)) {
            return;
        }
        let Some(key) = POSTED_TEXT_KEYS
            .iter()
            .find(|k| input.get(**k).is_some_and(|v| !v.is_null()))
        else {
            return;
        };
        fx.push(
            What::Send(Send {
                url: None,
                endpoint: host.and_then(|h| super::url::parse(&format!("https://{h}/"))),
                method: Some("POST".to_string()),
                body: vec![BodySource::Literal],
                dynamic: host.is_none(),
                runs_response: false,
            }),
            self.route(&format!("/{key}")),
        );
    }

    /// A write to a remote repository service (`create_or_update_file`, `push_files`,
    /// `create_issue`, …): a `send` to the service, with a literal body when the call
    /// carries content.
    fn remote_write(&mut self, host: &str, input: &Value, fx: &mut Effects) {
        let writes = self.name.iter().any(|w| {
            matches!(
                w.as_str(),
                "create"
                    | "update"
                    | "push"
                    | "add"
                    | "delete"
                    | "remove"
                    | "merge"
                    | "fork"
                    | "edit"
                    | "upload"
                    | "comment"
                    | "submit"
                    | "close"
                    | "reopen"
                    | "assign"
                    | "publish"
                    | "release"
                    | "write"
                    | "put"
                    | "commit"
                    | "approve"
                    | "request"
                    | "rerun"
                    | "cancel"
                    | "dispatch"
                    | "trigger"
                    | "set"
            )
        });
        if !writes {
            return;
        }
        let has = |w: &str| self.name.iter().any(|x| x == w);
        let method = if has("delete") || has("remove") {
            "DELETE"
        } else if has("update") && has("file") || has("put") {
            "PUT"
        } else if has("update") || has("edit") {
            "PATCH"
        } else {
            "POST"
        };
        let s = |k: &str| input.get(k).and_then(Value::as_str);
        let mut url = format!("https://{host}/");
        if let (Some(o), Some(r)) = (s("owner"), s("repo")) {
            url = format!("https://{host}/repos/{o}/{r}");
            if let Some(p) = s("path")
                && has("file")
            {
                url = format!("{url}/contents/{}", p.trim_start_matches('/'));
            }
        } else if let Some(id) = s("project_id") {
            url = format!("https://{host}/api/v4/projects/{id}");
        }
        let content_arg = [
            "content",
            "files",
            "body",
            "message",
            "description",
            "title",
        ]
        .into_iter()
        .find(|k| input.get(k).is_some_and(|v| !v.is_null()));
        let body = content_arg
            .map(|_| vec![BodySource::Literal])
            .unwrap_or_default();
        fx.push(
            What::Send(Send {
                url: None,
                endpoint: super::url::parse(&url),
                method: Some(method.to_string()),
                body,
                dynamic: false,
                runs_response: false,
            }),
            self.route(&content_arg.map(|k| format!("/{k}")).unwrap_or_default()),
        );
    }
}

/// Arguments beside a URL that hold the data the request sends to it (joined words of the
/// key): a body, a form's fields, a message or report a webhook or callback delivers.
const SENT_DATA_KEYS: &[&str] = &[
    "body",
    "data",
    "json",
    "payload",
    "form",
    "formdata",
    "fields",
    "formfields",
    "formvalues",
    "values",
    "message",
    "text",
    "content",
    "report",
];

/// Verbs of a tool name that posts text (`slack_post_message`, `create_issue`).
const POST_VERBS: &[&str] = &[
    "post", "send", "create", "add", "reply", "comment", "publish", "share", "submit", "write",
    "update", "edit", "append", "new",
];

/// What a posted text becomes (`message`, `issue`, `comment`, `paste`), on any server.
const POSTED_THINGS: &[&str] = &[
    "message",
    "messages",
    "msg",
    "chat",
    "dm",
    "reply",
    "thread",
    "comment",
    "comments",
    "issue",
    "issues",
    "ticket",
    "gist",
    "paste",
    "snippet",
    "post",
    "tweet",
    "email",
    "mail",
    "discussion",
    "review",
    "pr",
    "pull",
    "incident",
];

/// What a posted text becomes on a known service ([`POST_SERVICES`]: a Notion page, a Trello
/// card, an Asana task); on another server these may be local (a notes or to-do server).
const SERVICE_THINGS: &[&str] = &[
    "page", "doc", "document", "block", "blocks", "card", "task", "story", "bug", "note", "status",
];

/// Arguments that carry the text a tool posts.
const POSTED_TEXT_KEYS: &[&str] = &[
    "text",
    "message",
    "content",
    "body",
    "description",
    "comment",
    "markdown",
    "blocks",
    "note",
    "summary",
    "html",
    "contents",
    "files",
    "title",
];

/// Services that take posted text, by a word of the MCP server's name, and their API host.
const POST_SERVICES: &[(&str, &str)] = &[
    ("slack", "slack.com"),
    ("discord", "discord.com"),
    ("telegram", "api.telegram.org"),
    ("teams", "graph.microsoft.com"),
    ("linear", "api.linear.app"),
    ("notion", "api.notion.com"),
    ("jira", "atlassian.net"),
    ("confluence", "atlassian.net"),
    ("atlassian", "atlassian.net"),
    ("asana", "app.asana.com"),
    ("trello", "api.trello.com"),
    ("pastebin", "pastebin.com"),
    ("gmail", "gmail.googleapis.com"),
    ("twitter", "api.twitter.com"),
    ("sentry", "sentry.io"),
];

/// The content a write carries: a `content` / `text` / `data` / `new_string` sibling, or the
/// new text of `edits[]`.
fn content_of(parent: Option<&Map<String, Value>>) -> Option<String> {
    let m = parent?;
    const CONTENT: &[&str] = &[
        "content",
        "contents",
        "text",
        "data",
        "body",
        "newtext",
        "newstring",
        "newcontent",
        "newcontents",
        "filetext",
        "newsource",
        "replacement",
        "code",
    ];
    for (k, v) in m {
        if let Some(s) = v.as_str()
            && CONTENT.contains(&words(k).concat().as_str())
        {
            return Some(s.to_string());
        }
    }
    let edits = m
        .iter()
        .find_map(|(k, v)| (words(k).concat() == "edits").then_some(v.as_array()?))?;
    let new: Vec<&str> = edits
        .iter()
        .filter_map(|e| {
            e.as_object()?.iter().find_map(|(k, v)| {
                matches!(
                    words(k).concat().as_str(),
                    "newtext" | "newstring" | "replacement" | "newcontent"
                )
                .then_some(v.as_str()?)
            })
        })
        .collect();
    (!new.is_empty()).then(|| new.join("\n"))
}

/// A key naming a process (`pid`, `processId`).
fn is_pid_key(joined: &str) -> bool {
    matches!(
        joined,
        "pid" | "pids" | "processid" | "processids" | "id" | "sessionid"
    )
}

/// How a key holds a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CommandKey {
    No,
    /// A command line, or an argv array (`command`, `cmd`, `argv`).
    Argv,
    /// Each item a command line (`commands`).
    Lines,
}

fn command_key(k: &str) -> CommandKey {
    let w = words(k);
    match w.concat().as_str() {
        "command" | "cmd" | "commandline" | "cmdline" | "shellcommand" | "bashcommand"
        | "script" | "shell" | "bash" | "sh" | "argv" | "shellscript" | "run" => {
            return CommandKey::Argv;
        }
        "commands" | "cmds" | "scripts" => return CommandKey::Lines,
        _ => {}
    }
    // `cli_command`, `shell_cmd`, `init_script`, `command_line`.
    let last = w.last().map(String::as_str).unwrap_or("");
    let before = w.len().checked_sub(2).map(|i| w[i].as_str()).unwrap_or("");
    match (before, last) {
        (_, "command" | "cmd" | "cmdline" | "script") | ("command" | "cmd", "line") => {
            CommandKey::Argv
        }
        (_, "commands" | "scripts") => CommandKey::Lines,
        _ => CommandKey::No,
    }
}

/// The verb of a tool name: the strongest one its words name (a tool that searches and
/// replaces writes).
fn verb_of(name: &[String]) -> Verb {
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
fn split_tool(tool: &str) -> (&str, &str) {
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

#[cfg(test)]
#[path = "mcp_tests.rs"]
mod tests;

/// The command-line program an MCP tool is named after (`mcp__k8s__kubectl` → `kubectl`),
/// for the programs whose subcommand line such tools take.
fn program_of_tool(tool: &str) -> Option<&'static str> {
    const PROGRAMS: &[&str] = &[
        "kubectl",
        "helm",
        "docker",
        "podman",
        "git",
        "gh",
        "glab",
        "aws",
        "gcloud",
        "az",
        "terraform",
        "redis-cli",
        "npm",
        "pnpm",
        "yarn",
        "cargo",
        "pip",
        "brew",
        "apt-get",
        "systemctl",
        "psql",
        "mysql",
    ];
    let last = tool.rsplit("__").next()?.rsplit(':').next()?;
    let name = last.to_ascii_lowercase().replace('_', "-");
    PROGRAMS
        .iter()
        .find(|p| name == **p || name == format!("run-{p}") || name == format!("{p}-command"))
        .copied()
}
