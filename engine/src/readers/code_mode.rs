//! Codex code mode: the tool calls inside an `exec` call's JavaScript.
//!
//! With code mode on (Codex 0.1xx, `[features] code_mode`), the model calls one freeform tool,
//! `exec`, whose input is JavaScript run in a V8 isolate with no file system, network or
//! console of its own; everything it does goes through the nested tools on the global `tools`
//! object (`await tools.exec_command({cmd: "cargo test", workdir: "/repo"})`,
//! `tools.apply_patch("*** Begin Patch…")`, MCP tools as `tools.mcp__server__tool(…)`), in
//! any order, in loops or under `Promise.all`. What the source says (openai/codex):
//!
//! - the `exec` tool and its description: `codex-rs/code-mode/src/description.rs`
//!   (`EXEC_DESCRIPTION_TEMPLATE`, `parse_exec_source` with the optional first-line pragma
//!   `// @exec: {"yield_time_ms": …}`) at `01e102ef`; nested tool methods "take either a
//!   string or an object as their input argument"; names are normalized JavaScript
//!   identifiers (`normalize_code_mode_identifier`);
//! - a nested call is dispatched as an ordinary tool call (`call_nested_tool` in
//!   `codex-rs/core/src/tools/code_mode/mod.rs` at `066f172c`: call id `exec-<uuid>`,
//!   `ToolCallSource::CodeMode`), so it runs the PreToolUse hook of the tool it is (`Bash`
//!   for `exec_command`, `apply_patch`, the MCP tool). The `exec` handler itself defines no
//!   `pre_tool_use_payload` (`execute_handler.rs` at `066f172c` and `c9d21ff2`; later
//!   `CoreToolRuntime` versions likewise), so the live hook is not asked about `exec`;
//! - the rollout records only the outer call: `response_item` `{type: "custom_tool_call",
//!   status, call_id, name: "exec", input: "<JavaScript>"}`, answered by a
//!   `custom_tool_call_output` with the same `call_id` (its `output` a string or a list of
//!   `{type: "input_text", text}` items). The nested calls are not in the rollout.
//!
//! So a replayed rollout must read the calls out of the code, and so must a hook that is
//! given an `exec` call (a Codex build that hooks it, a test payload). [`unwrap`] reads them
//! with the JavaScript parser of the inline-code lens: a call `tools.NAME(ARG)` (also
//! `tools["NAME"](…)`, names imported from `"tools.js"` as older builds wrote, and names
//! destructured from `tools`) whose argument is a literal (strings, template strings whose
//! substitutions resolve, numbers, booleans, `null`, objects and arrays of literals, `+` of
//! strings, names bound once to such a value) becomes an [`InnerCall`]: the tool name and
//! input its own hook receives ([`InnerCall::tool_name`], [`InnerCall::tool_input`]) and the
//! working directory it names. A call whose argument is computed at run time, a use of
//! `tools` other than a direct call, and code that does not parse become [`Unresolved`]
//! parts with their cause. [`judge`] evaluates each inner call as the tool it is and merges
//! the outcomes (the most restrictive wins, each reason naming its inner call); what could
//! not be read asks once, with its causes.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};
use tree_sitter::Node;

use crate::effects::inline::{first_error, nodes, parse_javascript, text, unescape};

/// The name of the code-mode tool (`codex_code_mode::PUBLIC_TOOL_NAME`).
pub const EXEC_TOOL: &str = crate::effects::host_tools::CODE_MODE_EXEC;

/// The rule id of the ask raised for what could not be read (the unsure rule's id: a code
/// whose tool calls cannot be read is a call seamguard cannot check).
const UNREAD_RULE: &str = crate::UNSURE_RULE;

/// The most inner calls one piece of code is read for; past it the rest is unresolved.
const MAX_CALLS: usize = 256;

/// How deep a value is followed through names (`const a = b; const b = "x"`).
const MAX_DEPTH: usize = 16;

/// Longest piece of source quoted in a cause or a reason, in characters.
const MAX_QUOTE: usize = 80;

/// Keys of the shell tools that change how output is collected, not what runs: a computed
/// value there leaves the call judgeable.
const OUTPUT_KEYS: &[&str] = &[
    "yield_time_ms",
    "max_output_tokens",
    "timeout_ms",
    "tty",
    "login",
];

/// The nested tools that run a command line (their hook tool name is `Bash`).
const SHELL_TOOLS: &[&str] = &["exec_command", "shell", "shell_command", "container.exec"];

/// One tool call the code makes, with a literal input.
#[derive(Debug, Clone, PartialEq)]
pub struct InnerCall {
    /// The nested tool as the code names it (`exec_command`, `apply_patch`).
    pub nested: String,
    /// The tool name its PreToolUse hook receives (`Bash` for the shell tools).
    pub tool_name: String,
    /// The `tool_input` its hook receives (`{"command": "cargo test"}`).
    pub tool_input: Value,
    /// The working directory the call names (`workdir`), as written.
    pub workdir: Option<String>,
}

impl InnerCall {
    /// The call in a few words for a reason: `tools.exec_command \`cargo test\``, or
    /// `tools.apply_patch`.
    pub fn label(&self) -> String {
        match self.tool_input.get("command").and_then(Value::as_str) {
            Some(c) if self.tool_name == "Bash" => {
                format!("tools.{} `{}`", self.nested, quote(c))
            }
            _ => format!("tools.{}", self.nested),
        }
    }
}

/// A part of the code whose tool calls cannot be read without running it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// Why, starting with `code mode:` (`code mode: the command of tools.exec_command is
    /// computed at run time: \`cmd: x\``).
    pub cause: String,
    /// The source of that part (the call, the statement using `tools`, or the whole code
    /// when it does not parse): reading it again gives the same cause.
    pub source: String,
}

/// The tool calls of a piece of code-mode JavaScript.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unwrapped {
    /// The calls with literal inputs, in source order.
    pub calls: Vec<InnerCall>,
    /// What could not be read, in source order.
    pub unresolved: Vec<Unresolved>,
}

/// The JavaScript of a code-mode call: `tool` is `exec` and `input` is the source text (as a
/// rollout records it) or an object holding it under `command` (the shape Codex gives its
/// freeform tools' hooks, as for `apply_patch`) or `input`.
///
/// ```
/// use seamguard_engine::readers::code_mode::code_of;
///
/// let js = serde_json::json!("await tools.exec_command({cmd: 'ls'})");
/// assert_eq!(code_of("exec", &js), Some("await tools.exec_command({cmd: 'ls'})"));
/// assert_eq!(code_of("Bash", &js), None);
/// ```
pub fn code_of<'v>(tool: &str, input: &'v Value) -> Option<&'v str> {
    if tool != EXEC_TOOL {
        return None;
    }
    match input {
        Value::String(s) => Some(s),
        Value::Object(m) if m.len() == 1 => m
            .get("command")
            .or_else(|| m.get("input"))
            .and_then(Value::as_str),
        _ => None,
    }
}

/// The tool calls in code-mode JavaScript.
///
/// Code that does not parse is one unresolved part and no calls: V8 runs none of it (and a
/// part the parser misreads is not guessed at).
///
/// # Examples
///
/// ```
/// use seamguard_engine::readers::code_mode::unwrap;
///
/// let u = unwrap(r#"const r = await tools.exec_command({"cmd": "cargo test", "workdir": "/repo"});
/// text(r.output);"#);
/// assert_eq!(u.calls[0].tool_name, "Bash");
/// assert_eq!(u.calls[0].tool_input, serde_json::json!({"command": "cargo test"}));
/// assert_eq!(u.calls[0].workdir.as_deref(), Some("/repo"));
/// assert!(u.unresolved.is_empty());
///
/// let u = unwrap("for (const f of files) await tools.exec_command({cmd: `cat ${f}`});");
/// assert!(u.calls.is_empty());
/// assert_eq!(
///     u.unresolved[0].cause,
///     "code mode: the command of tools.exec_command is computed at run time: `cmd: `cat ${f}``"
/// );
/// ```
pub fn unwrap(code: &str) -> Unwrapped {
    let mut out = Unwrapped::default();
    let tree = match parse_javascript(code) {
        Ok(t) => t,
        Err(why) => {
            out.unresolved.push(Unresolved {
                cause: format!("code mode: the JavaScript {why}"),
                source: code.to_string(),
            });
            return out;
        }
    };
    if let Some(at) = first_error(tree.root_node()) {
        out.unresolved.push(Unresolved {
            cause: format!(
                "code mode: the JavaScript does not parse (line {}, column {})",
                at.row + 1,
                at.column + 1
            ),
            source: code.to_string(),
        });
        return out;
    }
    let all = nodes(tree.root_node());
    let reader = Reader::new(code, &all);
    for n in &all {
        if out.calls.len() + out.unresolved.len() >= MAX_CALLS {
            out.unresolved.push(Unresolved {
                cause: format!("code mode: the code makes more than {MAX_CALLS} tool calls"),
                source: code.to_string(),
            });
            break;
        }
        reader.visit(*n, &mut out);
    }
    out
}

/// A call's hook payload: `outer` (the `exec` call's payload) with the inner call's tool
/// name and input, `cwd` the call's working directory (a relative `workdir` taken from the
/// outer `cwd`) and `tool_use_id` `<outer id>#<n>` (`n` from 1).
pub fn inner_payload(outer: &Value, call: &InnerCall, n: usize) -> Value {
    let mut p = outer.as_object().cloned().unwrap_or_default();
    p.insert("tool_name".into(), Value::String(call.tool_name.clone()));
    p.insert("tool_input".into(), call.tool_input.clone());
    let cwd = p.get("cwd").and_then(Value::as_str).map(str::to_string);
    if let Some(dir) = resolve_dir(cwd.as_deref(), call.workdir.as_deref()) {
        p.insert("cwd".into(), Value::String(dir));
    }
    let id = p
        .get("tool_use_id")
        .and_then(Value::as_str)
        .unwrap_or(EXEC_TOOL)
        .to_string();
    p.insert("tool_use_id".into(), Value::String(format!("{id}#{n}")));
    Value::Object(p)
}

/// The folder a call runs in: `workdir` against `cwd`.
pub(crate) fn resolve_dir(cwd: Option<&str>, workdir: Option<&str>) -> Option<String> {
    match (cwd, workdir) {
        (Some(c), Some(w)) if !Path::new(w).is_absolute() => {
            Some(Path::new(c).join(w).to_string_lossy().into_owned())
        }
        (_, Some(w)) => Some(w.to_string()),
        (c, None) => c.map(str::to_string),
    }
}

/// `s` on one line, cut to [`MAX_QUOTE`] characters.
fn quote(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= MAX_QUOTE {
        return one;
    }
    let mut cut: String = one.chars().take(MAX_QUOTE).collect();
    cut.push('…');
    cut
}

/// Where a name is bound: the value of its one `const` / `let` / `var` declaration, or
/// somewhere else (a parameter, a loop, an assignment, an import, a pattern).
#[derive(Clone, Copy)]
enum Binding<'t> {
    Declared(Option<Node<'t>>),
    Other,
}

/// What a call's argument is: a value, or the source of the part computed at run time.
enum Arg<'t> {
    Known(Value),
    Computed(Node<'t>),
}

/// The code and what is known about its names.
struct Reader<'s, 't> {
    src: &'s str,
    /// Each name's bindings.
    bindings: HashMap<&'s str, Vec<Binding<'t>>>,
    /// Names standing for the `tools` object (`tools`, `import * as t from "tools.js"`).
    namespaces: Vec<&'s str>,
    /// Names standing for one tool (`import { exec_command } from "tools.js"`,
    /// `const { apply_patch: patch } = tools`): local name → tool name.
    direct: HashMap<&'s str, String>,
}

impl<'s, 't> Reader<'s, 't> {
    fn new(src: &'s str, all: &[Node<'t>]) -> Self {
        let mut r = Reader {
            src,
            bindings: HashMap::new(),
            namespaces: vec!["tools"],
            direct: HashMap::new(),
        };
        for n in all {
            r.bind(*n);
        }
        r
    }

    fn t(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    /// Record what `n` binds, and the names that stand for tools.
    fn bind(&mut self, n: Node<'t>) {
        let Some(parent) = n.parent() else {
            return;
        };
        let is = |field: &str| parent.child_by_field_name(field) == Some(n);
        match n.kind() {
            "identifier" => {
                let name = self.t(n);
                let b = match parent.kind() {
                    "variable_declarator" if is("name") => {
                        Binding::Declared(parent.child_by_field_name("value"))
                    }
                    "formal_parameters" | "array_pattern" | "rest_pattern" => Binding::Other,
                    "arrow_function" | "catch_clause" if is("parameter") => Binding::Other,
                    "assignment_pattern" | "object_assignment_pattern" if is("left") => {
                        Binding::Other
                    }
                    "pair_pattern" if is("value") => Binding::Other,
                    "for_in_statement"
                    | "assignment_expression"
                    | "augmented_assignment_expression"
                        if is("left") =>
                    {
                        Binding::Other
                    }
                    "update_expression" => Binding::Other,
                    "function_declaration"
                    | "generator_function_declaration"
                    | "function_expression"
                    | "class_declaration"
                        if is("name") =>
                    {
                        Binding::Other
                    }
                    "import_clause" | "namespace_import" => Binding::Other,
                    "import_specifier" => {
                        // `import { exec_command as run } from "tools.js"` binds `run`.
                        let local = parent
                            .child_by_field_name("alias")
                            .or_else(|| parent.child_by_field_name("name"));
                        if local != Some(n) {
                            return;
                        }
                        Binding::Other
                    }
                    _ => return,
                };
                self.bindings.entry(name).or_default().push(b);
            }
            "shorthand_property_identifier_pattern" => {
                self.bindings
                    .entry(self.t(n))
                    .or_default()
                    .push(Binding::Other);
            }
            "import_statement" => self.imports(n),
            "variable_declarator" => self.picked(n),
            _ => {}
        }
    }

    /// Names an import from `"tools.js"` binds to tools.
    fn imports(&mut self, n: Node<'t>) {
        let from_tools = n
            .child_by_field_name("source")
            .and_then(|s| self.literal(s))
            .is_some_and(|v| v.as_str() == Some("tools.js"));
        if !from_tools {
            return;
        }
        for k in nodes(n) {
            match k.kind() {
                "namespace_import" => {
                    if let Some(id) = k.named_child(0) {
                        self.namespaces.push(self.t(id));
                    }
                }
                "import_specifier" => {
                    let Some(name) = k.child_by_field_name("name") else {
                        continue;
                    };
                    let local = k.child_by_field_name("alias").unwrap_or(name);
                    let tool = self.t(name).trim_matches(['"', '\'']).to_string();
                    self.direct.insert(self.t(local), tool);
                }
                _ => {}
            }
        }
    }

    /// Names destructured from `tools` (`const { exec_command, apply_patch: p } = tools`).
    fn picked(&mut self, n: Node<'t>) {
        let (Some(pattern), Some(value)) = (
            n.child_by_field_name("name"),
            n.child_by_field_name("value"),
        ) else {
            return;
        };
        if pattern.kind() != "object_pattern"
            || value.kind() != "identifier"
            || !self.namespaces.contains(&self.t(value))
        {
            return;
        }
        let mut c = pattern.walk();
        for p in pattern.named_children(&mut c) {
            match p.kind() {
                "shorthand_property_identifier_pattern" => {
                    self.direct.insert(self.t(p), self.t(p).to_string());
                }
                "pair_pattern" => {
                    if let (Some(k), Some(v)) =
                        (p.child_by_field_name("key"), p.child_by_field_name("value"))
                        && v.kind() == "identifier"
                    {
                        let tool = self.t(k).trim_matches(['"', '\'']).to_string();
                        self.direct.insert(self.t(v), tool);
                    }
                }
                _ => {}
            }
        }
    }

    /// Read one node: a reference to `tools` or to a tool name.
    fn visit(&self, n: Node<'t>, out: &mut Unwrapped) {
        if !matches!(n.kind(), "identifier" | "shorthand_property_identifier") {
            return;
        }
        let name = self.t(n);
        let Some(parent) = n.parent() else {
            return;
        };
        if self.namespaces.contains(&name) {
            if self.declares(parent, n) {
                return;
            }
            // `tools.NAME(…)` / `tools["NAME"](…)`.
            let tool = match parent.kind() {
                "member_expression" if parent.child_by_field_name("object") == Some(n) => parent
                    .child_by_field_name("property")
                    .map(|p| self.t(p).to_string()),
                "subscript_expression" if parent.child_by_field_name("object") == Some(n) => parent
                    .child_by_field_name("index")
                    .and_then(|i| self.literal(i))
                    .and_then(|v| v.as_str().map(str::to_string)),
                _ => None,
            };
            match (tool, self.called(parent)) {
                (Some(tool), Some(call)) => self.call(&tool, call, out),
                _ if self.picked_from(parent, n) => {}
                _ => out.unresolved.push(self.escape(n)),
            }
        } else if let Some(tool) = self.direct.get(name) {
            if self.declares(parent, n) {
                return;
            }
            match self.called(n) {
                Some(call) => self.call(tool, call, out),
                None => out.unresolved.push(self.escape(n)),
            }
        }
    }

    /// Whether `n` (a child of `parent`) is the name being bound, not a use.
    fn declares(&self, parent: Node<'t>, n: Node<'t>) -> bool {
        let is = |field: &str| parent.child_by_field_name(field) == Some(n);
        match parent.kind() {
            "variable_declarator" => is("name"),
            "import_specifier" | "namespace_import" | "import_clause" => true,
            "pair_pattern" => is("value"),
            _ => false,
        }
    }

    /// Whether `tools` here is only destructured into names read as tools.
    fn picked_from(&self, parent: Node<'t>, n: Node<'t>) -> bool {
        parent.kind() == "variable_declarator"
            && parent.child_by_field_name("value") == Some(n)
            && parent
                .child_by_field_name("name")
                .is_some_and(|p| p.kind() == "object_pattern" && !self.rests(p))
    }

    /// Whether a pattern keeps the rest of the object (`...others`).
    fn rests(&self, pattern: Node<'t>) -> bool {
        let mut c = pattern.walk();
        pattern
            .named_children(&mut c)
            .any(|k| k.kind() == "rest_pattern")
    }

    /// The call `f` is the function of, if it is called.
    fn called(&self, f: Node<'t>) -> Option<Node<'t>> {
        let p = f.parent()?;
        (p.kind() == "call_expression" && p.child_by_field_name("function") == Some(f)).then_some(p)
    }

    /// A use of `tools` (or of a tool) other than a direct call.
    fn escape(&self, n: Node<'t>) -> Unresolved {
        // Quote the expression it is part of, up to its statement.
        let mut at = n;
        while let Some(p) = at.parent() {
            if p.kind().ends_with("statement") || p.kind() == "variable_declarator" {
                break;
            }
            at = p;
        }
        let mut stmt = Some(at);
        while let Some(s) = stmt
            && !(s.kind().ends_with("statement") || s.kind().ends_with("declaration"))
        {
            stmt = s.parent();
        }
        Unresolved {
            cause: format!(
                "code mode: `{}` is used other than in a direct tool call: `{}`",
                self.t(n),
                quote(self.t(at))
            ),
            source: self.t(stmt.unwrap_or(at)).to_string(),
        }
    }

    /// Read one tool call.
    fn call(&self, tool: &str, call: Node<'t>, out: &mut Unwrapped) {
        let arg = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0));
        let source = self.t(call).to_string();
        let computed = |what: String, part: Node<'t>| Unresolved {
            cause: format!(
                "code mode: {what} of tools.{tool} is computed at run time: `{}`",
                quote(self.t(part))
            ),
            source: source.clone(),
        };
        let input = match arg {
            None => Value::Object(Map::new()),
            Some(a) if a.kind() == "object" => {
                let mut m = Map::new();
                let mut c = a.walk();
                for p in a.named_children(&mut c) {
                    let (key, value) = match p.kind() {
                        "pair" => {
                            let Some(k) = p.child_by_field_name("key").and_then(|k| self.key(k))
                            else {
                                out.unresolved.push(computed("a property name".into(), p));
                                return;
                            };
                            (k, p.child_by_field_name("value"))
                        }
                        "shorthand_property_identifier" => (self.t(p).to_string(), Some(p)),
                        "comment" => continue,
                        _ => {
                            out.unresolved.push(computed("the input".into(), p));
                            return;
                        }
                    };
                    match value.map(|v| self.arg(v)) {
                        Some(Arg::Known(Value::Null))
                            if value.is_some_and(|v| v.kind() == "undefined") => {}
                        Some(Arg::Known(v)) => {
                            m.insert(key, v);
                        }
                        Some(Arg::Computed(_)) if OUTPUT_KEYS.contains(&key.as_str()) => {}
                        _ => {
                            out.unresolved.push(computed(what_of(tool, &key), p));
                            return;
                        }
                    }
                }
                Value::Object(m)
            }
            Some(a) => match self.arg(a) {
                Arg::Known(v) => v,
                Arg::Computed(part) => {
                    let what = if tool == "apply_patch" {
                        "the patch".to_string()
                    } else {
                        "the input".to_string()
                    };
                    out.unresolved.push(computed(what, part));
                    return;
                }
            },
        };
        let workdir = input
            .get("workdir")
            .and_then(Value::as_str)
            .map(str::to_string);
        let (tool_name, tool_input) = hook_view(tool, &input);
        out.calls.push(InnerCall {
            nested: tool.to_string(),
            tool_name,
            tool_input,
            workdir,
        });
    }

    /// A property name: an identifier, a string or a number.
    fn key(&self, k: Node<'t>) -> Option<String> {
        match k.kind() {
            "property_identifier" | "number" => Some(self.t(k).to_string()),
            "string" => self.literal(k).and_then(|v| v.as_str().map(str::to_string)),
            _ => None,
        }
    }

    /// A literal string or number (no names followed).
    fn literal(&self, n: Node<'t>) -> Option<Value> {
        match n.kind() {
            "string" | "template_string" | "number" => match self.value(n, MAX_DEPTH) {
                Arg::Known(v) => Some(v),
                Arg::Computed(_) => None,
            },
            _ => None,
        }
    }

    fn arg(&self, n: Node<'t>) -> Arg<'t> {
        self.value(n, 0)
    }

    /// The value of an expression, when it is literal or resolves to one.
    fn value(&self, n: Node<'t>, depth: usize) -> Arg<'t> {
        let computed = Arg::Computed(n);
        if depth > MAX_DEPTH {
            return computed;
        }
        let d = depth + 1;
        let strings = |n: Node<'t>| -> Option<String> {
            let mut s = String::new();
            let mut c = n.walk();
            for k in n.named_children(&mut c) {
                match k.kind() {
                    "string_fragment" => s.push_str(self.t(k)),
                    "escape_sequence" => s.push_str(&unescape(self.t(k))),
                    "template_substitution" => {
                        let Arg::Known(v) = self.value(k.named_child(0)?, d) else {
                            return None;
                        };
                        s.push_str(&scalar_text(&v)?);
                    }
                    _ => return None,
                }
            }
            Some(s)
        };
        match n.kind() {
            "string" | "template_string" => strings(n).map_or(computed, |s| Arg::Known(s.into())),
            "number" => number(self.t(n)).map_or(computed, Arg::Known),
            "true" => Arg::Known(Value::Bool(true)),
            "false" => Arg::Known(Value::Bool(false)),
            "null" | "undefined" => Arg::Known(Value::Null),
            "unary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| self.t(o));
                match (op, n.child_by_field_name("argument")) {
                    (Some("-"), Some(a)) if a.kind() == "number" => {
                        number(&format!("-{}", self.t(a))).map_or(computed, Arg::Known)
                    }
                    _ => computed,
                }
            }
            "parenthesized_expression" => match n.named_child(0) {
                Some(k) => self.value(k, d),
                None => computed,
            },
            "binary_expression" => {
                let op = n.child_by_field_name("operator").map(|o| self.t(o));
                let (Some("+"), Some(l), Some(r)) = (
                    op,
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return computed;
                };
                match (self.value(l, d), self.value(r, d)) {
                    (Arg::Known(a), Arg::Known(b)) if a.is_string() || b.is_string() => {
                        match (scalar_text(&a), scalar_text(&b)) {
                            (Some(a), Some(b)) => Arg::Known(Value::String(a + &b)),
                            _ => computed,
                        }
                    }
                    _ => computed,
                }
            }
            "identifier" | "shorthand_property_identifier" => {
                match self.bindings.get(self.t(n)).map(Vec::as_slice) {
                    Some([Binding::Declared(Some(v))]) => match self.value(*v, d) {
                        Arg::Known(x) => Arg::Known(x),
                        Arg::Computed(_) => computed,
                    },
                    _ => computed,
                }
            }
            "object" => {
                let mut m = Map::new();
                let mut c = n.walk();
                for p in n.named_children(&mut c) {
                    let (k, v) = match p.kind() {
                        "pair" => (
                            p.child_by_field_name("key").and_then(|k| self.key(k)),
                            p.child_by_field_name("value"),
                        ),
                        "shorthand_property_identifier" => (Some(self.t(p).to_string()), Some(p)),
                        "comment" => continue,
                        _ => return computed,
                    };
                    let (Some(k), Some(v)) = (k, v) else {
                        return computed;
                    };
                    match self.value(v, d) {
                        Arg::Known(x) => {
                            m.insert(k, x);
                        }
                        Arg::Computed(_) => return computed,
                    }
                }
                Arg::Known(Value::Object(m))
            }
            "array" => {
                let mut items = Vec::new();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.kind() == "comment" {
                        continue;
                    }
                    match self.value(k, d) {
                        Arg::Known(x) => items.push(x),
                        Arg::Computed(_) => return computed,
                    }
                }
                Arg::Known(Value::Array(items))
            }
            _ => computed,
        }
    }
}

/// What a key of a tool's input is, in a cause.
fn what_of(tool: &str, key: &str) -> String {
    match key {
        "cmd" | "command" if SHELL_TOOLS.contains(&tool) => "the command".into(),
        "workdir" => "the working directory".into(),
        "input" | "patch" if tool == "apply_patch" => "the patch".into(),
        _ => format!("the `{key}` argument"),
    }
}

/// The text a string, number or boolean has in a string.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A JavaScript number literal as JSON (`1_000`, `2.5`, `0x10`).
fn number(t: &str) -> Option<Value> {
    let t = t.replace('_', "");
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, t),
    };
    let sign = if neg { -1 } else { 1 };
    let radix = match digits.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0o" | "0O") => Some(8),
        Some("0b" | "0B") => Some(2),
        _ => None,
    };
    if let Some(r) = radix {
        return i64::from_str_radix(digits.get(2..)?, r)
            .ok()
            .map(|v| Value::from(sign * v));
    }
    if let Ok(i) = digits.parse::<i64>() {
        return Some(Value::from(sign * i));
    }
    let f: f64 = digits.parse().ok()?;
    serde_json::Number::from_f64(if neg { -f } else { f }).map(Value::Number)
}

/// The tool name and input the hook of a nested tool receives (HOOKS.md B2): the shell tools
/// as `Bash` with `{command}`, `apply_patch` with `{command: <patch>}`, any other tool as
/// itself. A shell tool or `apply_patch` given a string takes it as its command or patch.
fn hook_view(tool: &str, input: &Value) -> (String, Value) {
    let input = match input {
        Value::String(s) if SHELL_TOOLS.contains(&tool) || tool == "apply_patch" => {
            let mut m = Map::new();
            m.insert("command".into(), Value::String(s.clone()));
            Value::Object(m)
        }
        other => other.clone(),
    };
    super::codex_tools::codex_tool(tool, &input)
}

mod judge;
#[cfg(test)]
mod tests;

pub use judge::judge;
