//! The argument walk of the MCP lens: every value of one call's arguments, at any depth,
//! classified and sent to the job that reads it.
//!
//! In: the tool name, the arguments object, the working folder and the shell environment.
//! Out: the call's effects, pushed onto `fx`. Objects and arrays are walked (JSON inside a
//! string too); a string goes by its key and shape to the shell lens or SQL ([`super::nested`]),
//! a URL or host send, or a path under the tool's verb ([`super::verbs`]); the whole call ends
//! with what the named servers add ([`super::services`]). Bounded: a value too deep or too
//! large to walk is `unsure`.

use serde_json::{Map, Value};

use super::keys::{
    CommandKey, KeyKind, Role, SENT_DATA_KEYS, command_key, is_pid_key, key_kind, path_shaped,
    pointer, url_shaped, weak_path_like, words,
};
use super::tool::{ToolName, Verb};
use crate::effects::model::{BodySource, Effects, Lens, PathRef, Route, Send, What};
use crate::effects::sql;
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

/// The walk over one call's arguments.
pub(super) struct Walk<'a> {
    pub(super) tool: &'a str,
    pub(super) env: &'a ShellEnv,
    /// What the tool's name says.
    pub(super) by_name: ToolName,
    nodes: usize,
    json_bytes: usize,
    too_large: bool,
    too_deep: bool,
    /// Files an upload reads (sent with the request).
    pub(super) uploads: Vec<PathRef>,
    /// Where the first uploaded file was named.
    pub(super) upload_arg: Option<String>,
}

impl<'a> Walk<'a> {
    fn new(tool: &'a str, env: &'a ShellEnv) -> Walk<'a> {
        Walk {
            tool,
            env,
            by_name: ToolName::of(tool),
            nodes: 0,
            json_bytes: 0,
            too_large: false,
            too_deep: false,
            uploads: Vec::new(),
            upload_arg: None,
        }
    }

    pub(super) fn route(&self, argument: &str) -> Route {
        Route {
            tool: self.tool.to_string(),
            lens: Some(Lens::Mcp),
            argument: argument.to_string(),
            command: None,
            via: Vec::new(),
        }
    }

    pub(super) fn unsure(&self, why: String, argument: &str, fx: &mut Effects) {
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
                if self.by_name.verb == Verb::Kill
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
            .find(|(k, _)| command_key(k) != CommandKey::No && !self.by_name.evaluates)
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
        if self.by_name.evaluates
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
            .or_else(|| self.by_name.code_lang.map(str::to_string));
        let code_key = matches!(
            joined.as_str(),
            "code" | "source" | "sourcecode" | "program" | "snippet" | "cell"
        ) || (joined == "script" && lang.is_some());
        if self.by_name.runs_code && code_key {
            match lang.as_deref() {
                Some("bash" | "sh" | "shell" | "zsh" | "sh-session") => {
                    self.shell(&Value::String(s.to_string()), ptr, base, fx);
                }
                None if self.by_name.shell_tool => {
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
        ) || (self.by_name.db_tool
            && matches!(joined.as_str(), "command" | "input" | "text"));
        if sql_key {
            let strict = joined == "query" && !self.by_name.db_tool;
            if let Some(stmts) = sql::statements(t, strict) {
                for st in stmts {
                    self.sql(st, ptr, base, fx);
                }
                return;
            }
        }
        // A command line.
        let ck = key.map(command_key).unwrap_or(CommandKey::No);
        let shell_input = self.by_name.shell_tool
            && matches!(
                joined.as_str(),
                "input" | "text" | "chars" | "keys" | "line" | "code"
            );
        if ck != CommandKey::No || shell_input {
            self.shell(&Value::String(s.to_string()), ptr, base, fx);
            return;
        }
        // A process signalled by id.
        if self.by_name.verb == Verb::Kill && is_pid_key(&joined) {
            self.signal(t, ptr, parent, fx);
            return;
        }
        let kind = key.map(key_kind).unwrap_or(KeyKind::Generic);
        // JSON inside a string (not the data a write puts in a file).
        let file_data =
            kind == KeyKind::Data && matches!(self.by_name.verb, Verb::Write | Verb::Append);
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
        let kind =
            if self.by_name.git_tool && matches!(kind, KeyKind::WeakPath(_)) && !path_shaped(t) {
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
        if url_shaped(t) || kind == KeyKind::Url && crate::effects::url::parse(t).is_some() {
            if let Some(e) = crate::effects::url::parse(t)
                && e.scheme == "file"
                && e.host.is_empty()
            {
                if self.by_name.remote.is_none() {
                    let role = match kind {
                        KeyKind::Path(r) | KeyKind::WeakPath(r) => r,
                        _ => Role::Any,
                    };
                    self.path(&e.path, role, ptr, parent, None, fx);
                }
                return;
            }
            let fetches = self.by_name.words.iter().any(|w| {
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
                let method = if self.by_name.posts || !body.is_empty() {
                    "POST"
                } else {
                    "GET"
                };
                crate::effects::url::push_url(
                    t,
                    Some(method.to_string()),
                    body,
                    self.route(ptr),
                    fx,
                );
            }
            return;
        }
        match kind {
            KeyKind::Host => {
                if let Some(mut e) = crate::effects::url::parse(t).filter(|e| e.path == "/") {
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
            _ if self.by_name.remote.is_some() => {}
            KeyKind::Path(role) => self.path(t, role, ptr, parent, base, fx),
            KeyKind::WeakPath(role) => {
                let file_tool =
                    self.by_name.file_tool || matches!(self.by_name.verb, Verb::Move | Verb::Copy);
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
            KeyKind::NotPath if self.by_name.file_tool && path_shaped(t) => {
                self.path(t, Role::Any, ptr, parent, base, fx);
            }
            // A URI key's local path (`uri: "/repo/x.ts"`).
            KeyKind::Url if path_shaped(t) => {
                self.path(t, Role::Any, ptr, parent, base, fx);
            }
            KeyKind::Url | KeyKind::Data | KeyKind::NotPath => {}
        }
    }
}
