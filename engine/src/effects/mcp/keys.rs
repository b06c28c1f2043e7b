//! String classes of the MCP lens: what an argument's key name and a value's shape say.
//!
//! In: a key name (`file_path`, `destinationPath`, `commands`) or a string value. Out: its
//! words, its [`KeyKind`] (a path and the part it plays, a URL, a host, data, not a path),
//! its [`CommandKey`] (a command line, a list of them), whether a value is shaped like a path
//! or a URL, and the JSON pointer of a key below its parent.

/// The part a path key plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
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
pub(super) enum KeyKind {
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
pub(super) fn words(s: &str) -> Vec<String> {
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
pub(super) fn key_kind(key: &str) -> KeyKind {
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
pub(super) fn path_shaped(s: &str) -> bool {
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
pub(super) fn weak_path_like(s: &str, file_tool: bool) -> bool {
    if path_shaped(s) {
        return true;
    }
    if s.is_empty() || s.contains(char::is_whitespace) || s.contains(['@', '\n']) || url_shaped(s) {
        return false;
    }
    file_tool || s.contains('/')
}

/// `scheme://…` or `file:…`.
pub(super) fn url_shaped(s: &str) -> bool {
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
pub(super) fn pointer(base: &str, key: &str) -> String {
    format!("{base}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// Arguments beside a URL that hold the data the request sends to it (joined words of the
/// key): a body, a form's fields, a message or report a webhook or callback delivers.
pub(super) const SENT_DATA_KEYS: &[&str] = &[
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

/// A key naming a process (`pid`, `processId`).
pub(super) fn is_pid_key(joined: &str) -> bool {
    matches!(
        joined,
        "pid" | "pids" | "processid" | "processids" | "id" | "sessionid"
    )
}

/// How a key holds a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CommandKey {
    No,
    /// A command line, or an argv array (`command`, `cmd`, `argv`).
    Argv,
    /// Each item a command line (`commands`).
    Lines,
}

pub(super) fn command_key(k: &str) -> CommandKey {
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
