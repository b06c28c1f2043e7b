//! Loading policy files: TOML (DESIGN.md §3) → [`LoadedPolicy`], with every error located at
//! `file:line:column` and all errors of a file collected in one pass.
//!
//! The document is parsed into `toml`'s spanned [`DeTable`] and lowered by hand, so unknown
//! keys, wrong types, invalid regexes and globs, and actions a seam cannot take each point at
//! their own span. Loading is fail-partial: a broken rule is skipped and reported, the other
//! rules of the file still load (DESIGN.md §2).

use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::matcher::{Matcher, MatcherMode};
use crate::model::*;
use crate::seam::{ActionKind, MatcherSubject, Seam};

/// Default command-hook timeout in ms (HOOKS.md A2/B1: 600 s).
pub const DEFAULT_RUN_TIMEOUT_MS: u64 = 600_000;
/// Default command-hook timeout on prompt-submit in ms (HOOKS.md A2: 30 s).
pub const PROMPT_RUN_TIMEOUT_MS: u64 = 30_000;

struct LineIndex<'s> {
    src: &'s str,
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    fn new(src: &'s str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { src, starts }
    }

    /// 1-based (line, column, line text) of a byte offset.
    fn locate(&self, offset: usize) -> (usize, usize, String) {
        let offset = offset.min(self.src.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let end = self
            .starts
            .get(line + 1)
            .map(|e| e.saturating_sub(1))
            .unwrap_or(self.src.len());
        let text = self
            .src
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r');
        let col = self
            .src
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        (line + 1, col, text.to_string())
    }
}

struct Ctx<'s> {
    file: Arc<str>,
    scope: Scope,
    lines: LineIndex<'s>,
    diags: Vec<PolicyError>,
    opts: LoadOptions,
}

/// How thoroughly to load (the hook command trades a little up-front checking for start-up
/// time; `check`, `test` and `replay` load fully).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadOptions {
    /// Translate every regex fully at load (catches e.g. unknown Unicode class names). When
    /// off, only the syntax is parsed; a pattern that still fails later is reported and its
    /// test fails closed.
    pub full_regex_check: bool,
    /// Lower the `[[test]]` examples.
    pub tests: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            full_regex_check: true,
            tests: true,
        }
    }
}

impl LoadOptions {
    /// The fast profile of `seamguard hook`: syntax-only regex check, no tests.
    pub fn hook() -> LoadOptions {
        LoadOptions {
            full_regex_check: false,
            tests: false,
        }
    }
}

impl Ctx<'_> {
    fn diag(&mut self, severity: Severity, span: Range<usize>, message: String) {
        let (line, column, text) = self.lines.locate(span.start);
        self.diags.push(PolicyError {
            severity,
            file: self.file.clone(),
            line,
            column,
            message,
            snippet: Some(text),
        });
    }

    fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.diag(Severity::Error, span, message.into());
    }

    fn warning(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.diag(Severity::Warning, span, message.into());
    }

    fn source(&self, span: &Range<usize>) -> Source {
        let (line, column, _) = self.lines.locate(span.start);
        Source {
            file: self.file.clone(),
            line,
            column,
            scope: self.scope,
        }
    }
}

type SV<'i> = Spanned<DeValue<'i>>;

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn suggest(word: &str, candidates: &[&str]) -> String {
    let best = candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(s, _)| *s > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, c)) => format!("; did you mean `{c}`?"),
        None => String::new(),
    }
}

fn check_keys(ctx: &mut Ctx<'_>, t: &DeTable<'_>, what: &str, allowed: &[&str]) -> bool {
    let mut ok = true;
    for (k, _) in t.iter() {
        let key: &str = k.get_ref();
        if !allowed.contains(&key) {
            ok = false;
            let hint = suggest(key, allowed);
            ctx.error(
                k.span(),
                format!(
                    "unknown key `{key}` in {what}; expected one of: {}{hint}",
                    allowed.join(", ")
                ),
            );
        }
    }
    ok
}

fn get<'a, 'i>(
    t: &'a DeTable<'i>,
    key: &str,
) -> Option<(&'a Spanned<std::borrow::Cow<'i, str>>, &'a SV<'i>)> {
    t.iter().find(|(k, _)| {
        let s: &str = k.get_ref();
        s == key
    })
}

fn want_str(ctx: &mut Ctx<'_>, v: &SV<'_>, what: &str) -> Option<String> {
    match v.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a string, found {}", type_name(other)),
            );
            None
        }
    }
}

fn want_bool(ctx: &mut Ctx<'_>, v: &SV<'_>, what: &str) -> Option<bool> {
    match v.get_ref() {
        DeValue::Boolean(b) => Some(*b),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a boolean, found {}", type_name(other)),
            );
            None
        }
    }
}

fn want_int(ctx: &mut Ctx<'_>, v: &SV<'_>, what: &str) -> Option<i64> {
    match v.get_ref() {
        DeValue::Integer(i) => {
            let parsed = i64::from_str_radix(i.as_str().replace('_', "").as_str(), i.radix());
            match parsed {
                Ok(n) => Some(n),
                Err(e) => {
                    ctx.error(v.span(), format!("{what}: {e}"));
                    None
                }
            }
        }
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected an integer, found {}", type_name(other)),
            );
            None
        }
    }
}

/// A string or an array of strings, each with its span.
fn want_str_list(ctx: &mut Ctx<'_>, v: &SV<'_>, what: &str) -> Option<Vec<(String, Range<usize>)>> {
    match v.get_ref() {
        DeValue::String(s) => Some(vec![(s.to_string(), v.span())]),
        DeValue::Array(a) => {
            let mut out = Vec::new();
            let mut ok = true;
            for item in a.iter() {
                match item.get_ref() {
                    DeValue::String(s) => out.push((s.to_string(), item.span())),
                    other => {
                        ok = false;
                        ctx.error(
                            item.span(),
                            format!("{what}: expected a string, found {}", type_name(other)),
                        );
                    }
                }
            }
            if out.is_empty() && ok {
                ctx.error(v.span(), format!("{what}: the list is empty"));
                return None;
            }
            ok.then_some(out)
        }
        other => {
            ctx.error(
                v.span(),
                format!(
                    "{what}: expected a string or an array of strings, found {}",
                    type_name(other)
                ),
            );
            None
        }
    }
}

fn want_table<'a, 'i>(ctx: &mut Ctx<'_>, v: &'a SV<'i>, what: &str) -> Option<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            ctx.error(
                v.span(),
                format!("{what}: expected a table, found {}", type_name(other)),
            );
            None
        }
    }
}

/// Convert a TOML value to JSON (for `equals` and `[[test]]` events).
pub(crate) fn to_json(v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str().replace('_', "").as_str(), i.radix())
            .map(Value::from)
            .unwrap_or(Value::Null),
        DeValue::Float(f) => f
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(a) => Value::Array(a.iter().map(|x| to_json(x.get_ref())).collect()),
        DeValue::Table(t) => {
            let mut m = Map::new();
            for (k, x) in t.iter() {
                m.insert(k.get_ref().to_string(), to_json(x.get_ref()));
            }
            Value::Object(m)
        }
    }
}

fn check_regex(ctx: &mut Ctx<'_>, pattern: &str, span: Range<usize>, what: &str) -> bool {
    let r = if ctx.opts.full_regex_check {
        regex_syntax::Parser::new()
            .parse(pattern)
            .map(|_| ())
            .map_err(|e| e.to_string())
    } else {
        regex_syntax::ast::parse::Parser::new()
            .parse(pattern)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    match r {
        Ok(()) => true,
        Err(e) => {
            let msg = e.to_string().replace('\n', "\n    ");
            ctx.error(
                span,
                format!("{what}: invalid regex (Rust `regex` syntax; no look-around or back-references):\n    {msg}"),
            );
            false
        }
    }
}

fn check_glob(ctx: &mut Ctx<'_>, pattern: &str, span: Range<usize>) -> bool {
    match globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
    {
        Ok(_) => true,
        Err(e) => {
            ctx.error(span, format!("invalid glob `{pattern}`: {}", e.kind()));
            false
        }
    }
}

const TEST_KEYS: &[&str] = &[
    "equals",
    "regex",
    "glob",
    "contains",
    "prefix",
    "program",
    "program_any",
    "subcommand",
    "flags_any",
    "flags_all",
    "flags_none",
    "args_any",
    "path_inside",
    "path_outside",
    "push_force",
    "push_delete",
    "push_to",
];

const SHELL_KEYS: &[&str] = &[
    "program",
    "program_any",
    "subcommand",
    "flags_any",
    "flags_all",
    "flags_none",
    "args_any",
    "path_inside",
    "path_outside",
    "push_force",
    "push_delete",
    "push_to",
];

fn split_flag(f: &str) -> Vec<String> {
    if f.starts_with("--") || !f.starts_with('-') || f.len() <= 2 {
        vec![f.split('=').next().unwrap_or(f).to_string()]
    } else {
        f.chars().skip(1).map(|c| format!("-{c}")).collect()
    }
}

fn field_names() -> Vec<&'static str> {
    FIELD_ALIASES.iter().map(|(n, _)| *n).collect()
}

/// Lower a condition table (`when` / `unless` / items of `any` / `all` / `not`).
fn lower_cond(ctx: &mut Ctx<'_>, v: &SV<'_>, what: &str) -> Option<Pred> {
    let t = want_table(ctx, v, what)?;
    if t.is_empty() {
        ctx.error(
            v.span(),
            format!("{what}: empty condition; remove it or add a field test"),
        );
        return None;
    }
    let mut parts = Vec::new();
    let mut ok = true;
    for (k, val) in t.iter() {
        let key: &str = k.get_ref();
        match key {
            "any" | "all" => {
                let DeValue::Array(items) = val.get_ref() else {
                    ctx.error(
                        val.span(),
                        format!(
                            "`{key}`: expected an array of condition tables, found {}",
                            type_name(val.get_ref())
                        ),
                    );
                    ok = false;
                    continue;
                };
                if items.is_empty() {
                    ctx.error(val.span(), format!("`{key}`: the list is empty"));
                    ok = false;
                    continue;
                }
                let mut kids = Vec::new();
                for item in items.iter() {
                    match lower_cond(ctx, item, &format!("item of `{key}`")) {
                        Some(p) => kids.push(p),
                        None => ok = false,
                    }
                }
                parts.push(if key == "any" {
                    Pred::Any(kids)
                } else {
                    Pred::All(kids)
                });
            }
            "not" => match lower_cond(ctx, val, "`not`") {
                Some(p) => parts.push(Pred::Not(Box::new(p))),
                None => ok = false,
            },
            field_name => {
                let Some(field) = Field::parse(field_name) else {
                    let names = field_names();
                    let hint = suggest(field_name, &names);
                    ctx.error(
                        k.span(),
                        format!(
                            "unknown field `{field_name}` in {what}; expected a JSON pointer (`/tool_input/...`), `any`, `all`, `not`, or one of: {}{hint}",
                            names.join(", ")
                        ),
                    );
                    ok = false;
                    continue;
                };
                match lower_tests(ctx, &field, val) {
                    Some(mut leaves) => parts.append(&mut leaves),
                    None => ok = false,
                }
            }
        }
    }
    if !ok {
        return None;
    }
    Some(if parts.len() == 1 {
        parts.pop().unwrap_or(Pred::All(Vec::new()))
    } else {
        Pred::All(parts)
    })
}

fn lower_tests(ctx: &mut Ctx<'_>, field: &Field, v: &SV<'_>) -> Option<Vec<Pred>> {
    let what = format!("test on `{}`", field.name);
    let t = want_table(ctx, v, &what)?;
    if t.is_empty() {
        ctx.error(
            v.span(),
            format!(
                "{what}: empty test table; expected one of: {}",
                TEST_KEYS.join(", ")
            ),
        );
        return None;
    }
    if !check_keys(ctx, t, &what, TEST_KEYS) {
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    let mut shell = ShellTest::default();
    let mut has_shell = false;
    for (k, val) in t.iter() {
        let key: &str = k.get_ref();
        if SHELL_KEYS.contains(&key) {
            has_shell = true;
            if field.name == "paths" && !matches!(key, "path_inside" | "path_outside") {
                ctx.error(
                    k.span(),
                    format!("`{key}` does not apply to `paths`; `paths` takes `path_inside` / `path_outside`"),
                );
                ok = false;
                continue;
            }
            if key == "push_force" || key == "push_delete" {
                match want_bool(ctx, val, &format!("`{key}`")) {
                    Some(true) => {
                        if key == "push_force" {
                            shell.push_force = true;
                        } else {
                            shell.push_delete = true;
                        }
                    }
                    Some(false) => {
                        ctx.error(
                            val.span(),
                            format!("`{key} = false` tests nothing; remove it or use `not`"),
                        );
                        ok = false;
                    }
                    None => ok = false,
                }
                continue;
            }
            let Some(items) = want_str_list(ctx, val, &format!("`{key}`")) else {
                ok = false;
                continue;
            };
            let items: Vec<String> = items.into_iter().map(|(s, _)| s).collect();
            match key {
                "program" | "program_any" => shell.programs.extend(items),
                "subcommand" => shell.subcommands.extend(items),
                "flags_any" => shell.flags_any.extend(items.iter().map(|f| split_flag(f))),
                "flags_all" => shell.flags_all.extend(items.iter().map(|f| split_flag(f))),
                "flags_none" => shell.flags_none.extend(items.iter().map(|f| split_flag(f))),
                "args_any" => shell.args_any.extend(items),
                "push_to" => shell.push_to.extend(items),
                _ => {
                    let mut specs = Vec::new();
                    for it in items {
                        specs.push(match it.as_str() {
                            "project" => PathSpec::Project,
                            "home" => PathSpec::Home,
                            g => {
                                if !check_glob(ctx, g, val.span()) {
                                    ok = false;
                                }
                                PathSpec::Glob(g.to_string())
                            }
                        });
                    }
                    if key == "path_inside" {
                        shell.path_inside.extend(specs);
                    } else {
                        shell.path_outside.extend(specs);
                    }
                }
            }
            continue;
        }
        let test = match key {
            "equals" => match val.get_ref() {
                DeValue::Array(a) if !a.is_empty() => {
                    Test::Equals(a.iter().map(|x| to_json(x.get_ref())).collect())
                }
                DeValue::Array(_) => {
                    ctx.error(val.span(), "`equals`: the list is empty");
                    ok = false;
                    continue;
                }
                DeValue::Table(_) => {
                    ctx.error(
                        val.span(),
                        "`equals`: expected a string, number, boolean or array, found a table",
                    );
                    ok = false;
                    continue;
                }
                other => Test::Equals(vec![to_json(other)]),
            },
            "regex" | "glob" | "contains" | "prefix" => {
                let Some(items) = want_str_list(ctx, val, &format!("`{key}`")) else {
                    ok = false;
                    continue;
                };
                let mut valid = true;
                for (p, span) in &items {
                    valid &= match key {
                        "regex" => check_regex(
                            ctx,
                            p,
                            span.clone(),
                            &format!("`regex` on `{}`", field.name),
                        ),
                        "glob" => check_glob(ctx, p, span.clone()),
                        _ => true,
                    };
                }
                if !valid {
                    ok = false;
                    continue;
                }
                let items: Vec<String> = items.into_iter().map(|(s, _)| s).collect();
                match key {
                    "regex" => Test::Regex(items),
                    "glob" => Test::Glob(items),
                    "contains" => Test::Contains(items),
                    _ => Test::Prefix(items),
                }
            }
            _ => continue,
        };
        out.push(Pred::Leaf(Leaf {
            field: field.clone(),
            test,
        }));
    }
    if has_shell {
        // The shell test goes first: it is the cheap, discriminating one (is this program
        // even running?), so the other tests of the table are rarely evaluated.
        out.insert(
            0,
            Pred::Leaf(Leaf {
                field: field.clone(),
                test: Test::Shell(Box::new(shell)),
            }),
        );
    }
    ok.then_some(out)
}

fn parse_duration_ms(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000)
    } else {
        (s, 1000)
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

const RULE_KEYS: &[&str] = &[
    "id",
    "seam",
    "tool",
    "matcher",
    "description",
    "when",
    "unless",
    "decision",
    "reason",
    "context",
    "rewrite",
    "redact",
    "feedback",
    "continue_with",
    "max_continuations",
    "halt",
    "run",
    "suppress_prompt",
    "observe",
];

const GUARD_KEYS: &[&str] = &[
    "id",
    "seam",
    "tool",
    "matcher",
    "description",
    "when",
    "unless",
    "reason",
];

fn action_of(key: &str) -> Option<ActionKind> {
    Some(match key {
        "decision" => ActionKind::Decision,
        "context" => ActionKind::Context,
        "rewrite" => ActionKind::Rewrite,
        "redact" => ActionKind::Redact,
        "feedback" => ActionKind::Feedback,
        "continue_with" | "max_continuations" => ActionKind::ContinueWith,
        "halt" => ActionKind::Halt,
        "run" => ActionKind::Run,
        "suppress_prompt" => ActionKind::Decision,
        _ => return None,
    })
}

fn seams_allowing(a: ActionKind) -> String {
    Seam::ALL
        .iter()
        .filter(|s| s.allows(a))
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

struct PolicyCtx {
    meta: PolicyMeta,
    index: usize,
}

fn lower_rule(
    ctx: &mut Ctx<'_>,
    pc: &PolicyCtx,
    v: &SV<'_>,
    kind: RuleKind,
    ordinal: usize,
) -> Option<Rule> {
    let what = match kind {
        RuleKind::Hook => "[[rule]]",
        RuleKind::Guard => "[[guard]]",
    };
    let t = want_table(ctx, v, what)?;
    let before = ctx
        .diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let allowed = match kind {
        RuleKind::Hook => RULE_KEYS,
        RuleKind::Guard => GUARD_KEYS,
    };
    for (k, _) in t.iter() {
        let key: &str = k.get_ref();
        if kind == RuleKind::Guard && RULE_KEYS.contains(&key) && !GUARD_KEYS.contains(&key) {
            ctx.error(
                k.span(),
                format!("`{key}` is not allowed in [[guard]]: guards can only deny (with `reason`) or abstain; use [[rule]] for other actions"),
            );
        }
    }
    if kind == RuleKind::Hook {
        check_keys(ctx, t, what, allowed);
    } else {
        let unknown: Vec<_> = t
            .iter()
            .filter(|(k, _)| !RULE_KEYS.contains(&k.get_ref().as_ref()))
            .map(|(k, _)| (k.get_ref().to_string(), k.span()))
            .collect();
        for (key, span) in unknown {
            let hint = suggest(&key, GUARD_KEYS);
            ctx.error(
                span,
                format!(
                    "unknown key `{key}` in [[guard]]; expected one of: {}{hint}",
                    GUARD_KEYS.join(", ")
                ),
            );
        }
    }

    let id = match get(t, "id") {
        Some((_, v)) => want_str(ctx, v, "`id`").filter(|s| {
            if s.trim().is_empty() {
                ctx.error(v.span(), "`id`: must not be empty");
                false
            } else {
                true
            }
        }),
        None => {
            ctx.error(
                v.span(),
                format!("{what} #{ordinal} has no `id`; every rule needs a unique id"),
            );
            None
        }
    };

    let seam = match (get(t, "seam"), kind) {
        (Some((_, sv)), _) => match want_str(ctx, sv, "`seam`") {
            Some(name) => match Seam::from_name(&name) {
                Some(Seam::PreTool) => Some(Seam::PreTool),
                Some(s) if kind == RuleKind::Guard => {
                    ctx.error(
                        sv.span(),
                        format!("guards run only at `pre-tool`, not `{s}`"),
                    );
                    None
                }
                Some(s) => Some(s),
                None => {
                    let names: Vec<&str> = Seam::ALL.iter().map(|s| s.name()).collect();
                    let hint = match Seam::from_event_name(&name) {
                        Some(s) => {
                            format!("; `{name}` is the host event name of seam `{}`", s.name())
                        }
                        None => suggest(&name, &names),
                    };
                    ctx.error(
                        sv.span(),
                        format!(
                            "unknown seam `{name}`; expected one of: {}{hint}",
                            names.join(", ")
                        ),
                    );
                    None
                }
            },
            None => None,
        },
        (None, RuleKind::Guard) => Some(Seam::PreTool),
        (None, RuleKind::Hook) => {
            ctx.error(
                v.span(),
                format!("{what} #{ordinal} has no `seam` (e.g. `seam = \"pre-tool\"`)"),
            );
            None
        }
    };

    // Matcher.
    let mut matcher = Matcher::All;
    let tool = get(t, "tool");
    let m = get(t, "matcher");
    if let (Some(_), Some((mk, _))) = (tool, m) {
        ctx.error(
            mk.span(),
            "`tool` and `matcher` are the same setting; give only one",
        );
    }
    if let Some((mk, mv)) = tool.or(m)
        && let Some(p) = want_str(ctx, mv, "`tool`")
    {
        if let Some(s) = seam {
            if s.matcher_subject() == MatcherSubject::None && !(p.is_empty() || p == "*") {
                ctx.error(
                        mk.span(),
                        format!("seam `{s}` has no matcher (the hosts ignore it); remove `{}` or test a field in `when`", mk.get_ref()),
                    );
            } else if s.matcher_subject() != MatcherSubject::ToolName && mk.get_ref() == "tool" {
                let subj = s.matcher_subject().field().unwrap_or("");
                ctx.warning(
                        mk.span(),
                        format!("on seam `{s}` the matcher is tested against `{subj}`, not a tool name; prefer `matcher = …`"),
                    );
            }
        }
        if let Some(lint) = Matcher::permission_rule_lint(&p) {
            ctx.warning(mv.span(), lint);
        }
        let cm = Matcher::classify(&p, pc.meta.matcher_mode);
        if let Err(e) = cm.validate() {
            let e = e.replace('\n', "\n    ");
            ctx.error(
                    mv.span(),
                    format!("matcher `{p}` is a regex (it has characters outside the exact-name set) and does not compile:\n    {e}"),
                );
        }
        matcher = cm;
    }

    let when = get(t, "when").and_then(|(_, v)| lower_cond(ctx, v, "`when`"));
    let unless = get(t, "unless").and_then(|(_, v)| lower_cond(ctx, v, "`unless`"));

    // Actions.
    let mut action = Action {
        max_continuations: 1,
        ..Action::default()
    };
    let mut n_actions = 0usize;
    if let Some(s) = seam {
        for (k, _) in t.iter() {
            let key: &str = k.get_ref();
            if let Some(a) = action_of(key)
                && kind == RuleKind::Hook
                && !s.allows(a)
            {
                ctx.error(
                    k.span(),
                    format!(
                        "seam `{s}` cannot take `{key}`; `{key}` is valid on: {}",
                        seams_allowing(a)
                    ),
                );
            }
        }
    }
    if let Some((_, dv)) = get(t, "decision")
        && let Some(d) = want_str(ctx, dv, "`decision`")
    {
        let valid = seam.map(|s| s.decision_values()).unwrap_or(&[]);
        match DecisionValue::from_name(&d) {
            Some(x) if valid.contains(&x.name()) => {
                action.decision = Some(x);
                n_actions += 1;
            }
            _ => {
                if let Some(s) = seam.filter(|s| !s.decision_values().is_empty()) {
                    let hint = suggest(&d, s.decision_values());
                    ctx.error(
                        dv.span(),
                        format!(
                            "decision `{d}` is not valid at seam `{s}`; expected one of: {}{hint}",
                            s.decision_values().join(", ")
                        ),
                    );
                }
            }
        }
    }
    if let Some((_, rv)) = get(t, "reason") {
        action.reason = want_str(ctx, rv, "`reason`");
        if action
            .reason
            .as_deref()
            .is_some_and(|r| r.trim().is_empty())
        {
            ctx.error(
                rv.span(),
                "`reason`: must not be empty (Codex rejects empty reasons)",
            );
        }
    }
    if let Some((_, cv)) = get(t, "context") {
        action.context = want_str(ctx, cv, "`context`");
        n_actions += 1;
    }
    if let Some((_, fv)) = get(t, "feedback") {
        action.feedback = want_str(ctx, fv, "`feedback`");
        n_actions += 1;
    }
    if let Some((_, hv)) = get(t, "halt") {
        action.halt = want_str(ctx, hv, "`halt`");
        n_actions += 1;
    }
    if let Some((_, cv)) = get(t, "continue_with") {
        action.continue_with = want_str(ctx, cv, "`continue_with`");
        if action
            .continue_with
            .as_deref()
            .is_some_and(|r| r.trim().is_empty())
        {
            ctx.error(
                cv.span(),
                "`continue_with`: must not be empty (the agent needs a reason to continue)",
            );
        }
        n_actions += 1;
    }
    if let Some((_, mv)) = get(t, "max_continuations") {
        if let Some(n) = want_int(ctx, mv, "`max_continuations`") {
            if !(1..=1000).contains(&n) {
                ctx.error(
                    mv.span(),
                    "`max_continuations`: expected 1..=1000 continuations per turn",
                );
            } else {
                action.max_continuations = n as u32;
            }
        }
        if get(t, "continue_with").is_none() {
            ctx.error(mv.span(), "`max_continuations` needs `continue_with`");
        }
    }
    if let Some((_, sv)) = get(t, "suppress_prompt") {
        action.suppress_prompt = want_bool(ctx, sv, "`suppress_prompt`").unwrap_or(false);
        if action.decision != Some(DecisionValue::Block) {
            ctx.error(
                sv.span(),
                "`suppress_prompt` only applies with `decision = \"block\"`",
            );
        }
    }
    if let Some((_, ov)) = get(t, "observe") {
        action.observe = want_bool(ctx, ov, "`observe`").unwrap_or(false);
        n_actions += 1;
    }
    if let Some((_, rv)) = get(t, "rewrite") {
        n_actions += 1;
        if let Some(rt) = want_table(ctx, rv, "`rewrite`")
            && check_keys(
                ctx,
                rt,
                "`rewrite`",
                &["regex", "replace", "prepend", "append"],
            )
        {
            let regex = get(rt, "regex");
            let replace = get(rt, "replace");
            let prepend = get(rt, "prepend");
            let append = get(rt, "append");
            match (regex, replace, prepend, append) {
                    (Some((_, r)), Some((_, p)), None, None) => {
                        if let (Some(r_s), Some(p_s)) =
                            (want_str(ctx, r, "`rewrite.regex`"), want_str(ctx, p, "`rewrite.replace`"))
                            && check_regex(ctx, &r_s, r.span(), "`rewrite.regex`") {
                                action.rewrite = Some(Rewrite::Replace { regex: r_s, replace: p_s });
                            }
                    }
                    (None, None, Some((_, p)), None) => {
                        action.rewrite = want_str(ctx, p, "`rewrite.prepend`").map(Rewrite::Prepend);
                    }
                    (None, None, None, Some((_, a))) => {
                        action.rewrite = want_str(ctx, a, "`rewrite.append`").map(Rewrite::Append);
                    }
                    _ => ctx.error(
                        rv.span(),
                        "`rewrite`: expected exactly one of `{ regex, replace }`, `{ prepend }` or `{ append }`",
                    ),
                }
        }
    }
    if let Some((_, rv)) = get(t, "redact") {
        n_actions += 1;
        let items: Vec<&SV<'_>> = match rv.get_ref() {
            DeValue::Array(a) => a.iter().collect(),
            _ => vec![rv],
        };
        for item in items {
            if let Some(rt) = want_table(ctx, item, "`redact`")
                && check_keys(ctx, rt, "`redact`", &["regex", "replace"])
            {
                let Some((_, r)) = get(rt, "regex") else {
                    ctx.error(item.span(), "`redact` needs `regex`");
                    continue;
                };
                let replace = match get(rt, "replace") {
                    Some((_, p)) => want_str(ctx, p, "`redact.replace`"),
                    None => Some("[REDACTED]".to_string()),
                };
                if let (Some(r_s), Some(p_s)) = (want_str(ctx, r, "`redact.regex`"), replace)
                    && check_regex(ctx, &r_s, r.span(), "`redact.regex`")
                {
                    action.redact.push(Redaction {
                        regex: r_s,
                        replace: p_s,
                    });
                }
            }
        }
    }
    if let Some((_, rv)) = get(t, "run") {
        n_actions += 1;
        if let Some(rt) = want_table(ctx, rv, "`run`")
            && check_keys(ctx, rt, "`run`", &["command", "timeout", "on_error", "env"])
        {
            let command = match get(rt, "command") {
                Some((_, c)) => want_str(ctx, c, "`run.command`"),
                None => {
                    ctx.error(rv.span(), "`run` needs `command`");
                    None
                }
            };
            let default_timeout = if seam == Some(Seam::PromptSubmit) {
                PROMPT_RUN_TIMEOUT_MS
            } else {
                DEFAULT_RUN_TIMEOUT_MS
            };
            let timeout_ms = match get(rt, "timeout") {
                    Some((_, tv)) => match tv.get_ref() {
                        DeValue::String(s) => parse_duration_ms(s).or_else(|| {
                            ctx.error(tv.span(), format!("`run.timeout`: cannot read `{s}`; expected e.g. \"30s\", \"500ms\", \"2m\" or an integer of seconds"));
                            None
                        }),
                        DeValue::Integer(_) => want_int(ctx, tv, "`run.timeout`")
                            .and_then(|n| u64::try_from(n).ok())
                            .map(|n| n.saturating_mul(1000)),
                        other => {
                            ctx.error(tv.span(), format!("`run.timeout`: expected a duration string or seconds, found {}", type_name(other)));
                            None
                        }
                    },
                    None => Some(default_timeout),
                };
            let on_error = match get(rt, "on_error") {
                Some((_, ov)) => match want_str(ctx, ov, "`run.on_error`").as_deref() {
                    Some("deny") => Some(OnError::Deny),
                    Some("ignore") => Some(OnError::Ignore),
                    Some(o) => {
                        ctx.error(
                            ov.span(),
                            format!("`run.on_error`: expected `ignore` or `deny`, found `{o}`"),
                        );
                        None
                    }
                    None => None,
                },
                None => Some(OnError::Ignore),
            };
            let mut env = Vec::new();
            if let Some((_, ev)) = get(rt, "env")
                && let Some(et) = want_table(ctx, ev, "`run.env`")
            {
                for (k, v) in et.iter() {
                    if let Some(val) = want_str(ctx, v, "`run.env` value") {
                        env.push((k.get_ref().to_string(), val));
                    }
                }
            }
            if let (Some(command), Some(timeout_ms), Some(on_error)) =
                (command, timeout_ms, on_error)
            {
                action.run = Some(RunSpec {
                    command,
                    timeout_ms,
                    on_error,
                    env,
                });
            }
        }
    }
    if let Some((_, dv)) = get(t, "description") {
        want_str(ctx, dv, "`description`");
    }

    let action_keys = t
        .iter()
        .filter(|(k, _)| {
            let key: &str = k.get_ref();
            action_of(key).is_some() || key == "observe"
        })
        .count();
    if kind == RuleKind::Hook && n_actions == 0 && action_keys == 0 && seam.is_some() {
        ctx.error(
            v.span(),
            format!(
                "{what} `{}` has no action; add one of `decision`, `context`, `rewrite`, `redact`, `feedback`, `continue_with`, `halt`, `run`, or `observe = true`",
                id.as_deref().unwrap_or("?")
            ),
        );
    }
    if action.decision.is_some()
        && matches!(
            action.decision,
            Some(DecisionValue::Deny | DecisionValue::Block)
        )
        && action.reason.is_none()
    {
        // Fine: a default reason naming the rule is generated.
    }
    if kind == RuleKind::Guard {
        action.decision = Some(DecisionValue::Deny);
    }
    if pc.meta.scope == Scope::Project
        && action.decision == Some(DecisionValue::Allow)
        && let Some((k, _)) = get(t, "decision")
    {
        ctx.warning(
                k.span(),
                "project-scope policies may only tighten: this `allow` is not honoured (move it to your user policy folder to auto-approve)",
            );
    }

    let after = ctx
        .diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if after > before {
        return None;
    }
    Some(Rule {
        id: id?,
        kind,
        seam: seam?,
        matcher,
        when,
        unless,
        action,
        source: ctx.source(&v.span()),
        policy: pc.index,
    })
}

fn lower_test(ctx: &mut Ctx<'_>, v: &SV<'_>, ordinal: usize) -> Option<PolicyTest> {
    let t = want_table(ctx, v, "[[test]]")?;
    if !check_keys(
        ctx,
        t,
        "[[test]]",
        &[
            "name",
            "event",
            "expect",
            "reason_contains",
            "rules",
            "not_rules",
            "dialect",
        ],
    ) {
        return None;
    }
    let name = get(t, "name")
        .and_then(|(_, v)| want_str(ctx, v, "`name`"))
        .unwrap_or_else(|| format!("test #{ordinal}"));
    let Some((_, ev)) = get(t, "event") else {
        ctx.error(v.span(), "[[test]] needs `event = { seam = \"…\", … }`");
        return None;
    };
    let et = want_table(ctx, ev, "`event`")?;
    let mut payload = match to_json(ev.get_ref()) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let seam = match (payload.remove("seam"), payload.get("hook_event_name")) {
        (Some(Value::String(s)), _) => match Seam::from_name(&s) {
            Some(seam) => seam,
            None => {
                let span = get(et, "seam").map(|(_, v)| v.span()).unwrap_or(ev.span());
                ctx.error(span, format!("unknown seam `{s}` in test event"));
                return None;
            }
        },
        (None, Some(Value::String(n))) => match Seam::from_event_name(n) {
            Some(s) => s,
            None => {
                ctx.error(
                    ev.span(),
                    format!("unknown hook_event_name `{n}` in test event"),
                );
                return None;
            }
        },
        _ => {
            ctx.error(
                ev.span(),
                "test `event` needs `seam = \"…\"` (or `hook_event_name`)",
            );
            return None;
        }
    };
    let mut full = Map::new();
    full.insert("session_id".into(), Value::String("seamguard-test".into()));
    full.insert(
        "transcript_path".into(),
        Value::String("/home/user/.claude/projects/-home-user-project/seamguard-test.jsonl".into()),
    );
    full.insert("cwd".into(), Value::String("/home/user/project".into()));
    full.insert(
        "hook_event_name".into(),
        Value::String(seam.event_name().into()),
    );
    match seam {
        Seam::PreTool | Seam::PermissionRequest | Seam::PostTool | Seam::PostToolFailure => {
            full.insert("tool_input".into(), Value::Object(Map::new()));
        }
        Seam::Stop | Seam::SubagentStop => {
            full.insert("stop_hook_active".into(), Value::Bool(false));
        }
        Seam::SessionStart => {
            full.insert("source".into(), Value::String("startup".into()));
        }
        Seam::PreCompact | Seam::PostCompact => {
            full.insert("trigger".into(), Value::String("manual".into()));
        }
        Seam::SessionEnd => {
            full.insert("reason".into(), Value::String("other".into()));
        }
        _ => {}
    }
    if seam == Seam::PostTool {
        full.insert("tool_response".into(), Value::Object(Map::new()));
    }
    if seam == Seam::PostToolFailure {
        full.insert("error".into(), Value::String(String::new()));
    }
    for (k, val) in payload {
        full.insert(k, val);
    }
    let expect = match get(t, "expect") {
        Some((_, x)) => {
            let e = want_str(ctx, x, "`expect`")?;
            const EXPECTS: &[&str] = &[
                "allow", "deny", "ask", "defer", "block", "continue", "stop", "redact", "halt",
                "none",
            ];
            if !EXPECTS.contains(&e.as_str()) {
                ctx.error(
                    x.span(),
                    format!(
                        "`expect`: unknown verdict `{e}`; expected one of: {}{}",
                        EXPECTS.join(", "),
                        suggest(&e, EXPECTS)
                    ),
                );
                return None;
            }
            e
        }
        None => {
            ctx.error(v.span(), "[[test]] needs `expect`");
            return None;
        }
    };
    let reason_contains =
        get(t, "reason_contains").and_then(|(_, v)| want_str(ctx, v, "`reason_contains`"));
    let rules = match get(t, "rules") {
        Some((_, v)) => want_str_list(ctx, v, "`rules`")?
            .into_iter()
            .map(|(s, _)| s)
            .collect(),
        None => Vec::new(),
    };
    let not_rules = match get(t, "not_rules") {
        Some((_, v)) => want_str_list(ctx, v, "`not_rules`")?
            .into_iter()
            .map(|(s, _)| s)
            .collect(),
        None => Vec::new(),
    };
    let dialect = match get(t, "dialect") {
        Some((_, dv)) => {
            let d = want_str(ctx, dv, "`dialect`")?;
            match crate::Dialect::from_name(&d) {
                Some(d) => Some(d),
                None => {
                    ctx.error(
                        dv.span(),
                        format!("`dialect`: expected `claude-code` or `codex`, found `{d}`"),
                    );
                    return None;
                }
            }
        }
        None => None,
    };
    Some(PolicyTest {
        name,
        payload: Value::Object(full),
        dialect,
        expect,
        reason_contains,
        rules,
        not_rules,
        source: ctx.source(&v.span()),
    })
}

fn lower_meta(ctx: &mut Ctx<'_>, root: &DeTable<'_>, file: &Arc<str>, scope: Scope) -> PolicyMeta {
    let stem = Path::new(file.as_ref())
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "policy".into());
    let mut meta = PolicyMeta {
        name: stem,
        description: None,
        file: file.clone(),
        scope,
        on_load_error: OnLoadError::Warn,
        matcher_mode: MatcherMode::ClaudeCode,
        codex_ask: CodexAsk::Deny,
        on_unsure: OnUnsure::Ask,
        mode: PolicyMode::Enforce,
        trusted: scope != Scope::Project,
        content_hash: String::new(),
    };
    let Some((_, pv)) = get(root, "policy") else {
        return meta;
    };
    let Some(t) = want_table(ctx, pv, "[policy]") else {
        return meta;
    };
    check_keys(
        ctx,
        t,
        "[policy]",
        &[
            "name",
            "description",
            "on_load_error",
            "matcher_mode",
            "codex_ask",
            "on_unsure",
            "mode",
        ],
    );
    if let Some((_, v)) = get(t, "mode") {
        match want_str(ctx, v, "`mode`").as_deref() {
            Some("enforce") => meta.mode = PolicyMode::Enforce,
            Some("observe") => meta.mode = PolicyMode::Observe,
            Some(o) => ctx.error(
                v.span(),
                format!("`mode`: expected `enforce` or `observe`, found `{o}`"),
            ),
            None => {}
        }
    }
    if let Some((_, v)) = get(t, "on_unsure") {
        match want_str(ctx, v, "`on_unsure`").as_deref() {
            Some("ask") => meta.on_unsure = OnUnsure::Ask,
            Some("deny") => meta.on_unsure = OnUnsure::Deny,
            Some("ignore") => meta.on_unsure = OnUnsure::Ignore,
            Some(o) => ctx.error(
                v.span(),
                format!("`on_unsure`: expected `ask`, `deny` or `ignore`, found `{o}`"),
            ),
            None => {}
        }
    }
    if let Some((_, v)) = get(t, "name")
        && let Some(n) = want_str(ctx, v, "`name`")
    {
        meta.name = n;
    }
    if let Some((_, v)) = get(t, "description") {
        meta.description = want_str(ctx, v, "`description`");
    }
    if let Some((_, v)) = get(t, "on_load_error") {
        match want_str(ctx, v, "`on_load_error`").as_deref() {
            Some("deny") => meta.on_load_error = OnLoadError::Deny,
            Some("warn") => meta.on_load_error = OnLoadError::Warn,
            Some(o) => ctx.error(
                v.span(),
                format!("`on_load_error`: expected `warn` or `deny`, found `{o}`"),
            ),
            None => {}
        }
    }
    if let Some((_, v)) = get(t, "matcher_mode") {
        match want_str(ctx, v, "`matcher_mode`").as_deref() {
            Some("claude-code") => meta.matcher_mode = MatcherMode::ClaudeCode,
            Some("codex") => meta.matcher_mode = MatcherMode::Codex,
            Some(o) => ctx.error(
                v.span(),
                format!("`matcher_mode`: expected `claude-code` or `codex`, found `{o}`"),
            ),
            None => {}
        }
    }
    if let Some((_, v)) = get(t, "codex_ask") {
        match want_str(ctx, v, "`codex_ask`").as_deref() {
            Some("deny") => meta.codex_ask = CodexAsk::Deny,
            Some("ignore") => meta.codex_ask = CodexAsk::Ignore,
            Some(o) => ctx.error(
                v.span(),
                format!("`codex_ask`: expected `deny` or `ignore`, found `{o}`"),
            ),
            None => {}
        }
    }
    meta
}

/// Whether raw text asks to fail closed, for files too broken to parse
/// (`on_load_error = "deny"` anywhere on its own line).
fn text_wants_deny(src: &str) -> bool {
    src.lines().any(|l| {
        let l = l.trim();
        l.strip_prefix("on_load_error")
            .map(|r| r.trim_start())
            .and_then(|r| r.strip_prefix('='))
            .map(|r| {
                let r = r.trim();
                r.starts_with("\"deny\"") || r.starts_with("'deny'")
            })
            .unwrap_or(false)
    })
}

/// Load one policy from source text.
///
/// `policy_index` is the index this policy will have in the decision table (rules refer to
/// it). Never fails: every problem is a diagnostic in the result, broken rules are skipped.
pub fn load_str(src: &str, file: &str, scope: Scope, policy_index: usize) -> LoadedPolicy {
    load_str_with(src, file, scope, policy_index, LoadOptions::default())
}

/// [`load_str`] with [`LoadOptions`].
pub fn load_str_with(
    src: &str,
    file: &str,
    scope: Scope,
    policy_index: usize,
    opts: LoadOptions,
) -> LoadedPolicy {
    let mut p = load_str_inner(src, file, scope, policy_index, opts);
    // Only project files need their content hash (trust of `run` actions).
    if scope == Scope::Project {
        p.meta.content_hash = crate::trust::content_hash(src.as_bytes());
    }
    p
}

fn load_str_inner(
    src: &str,
    file: &str,
    scope: Scope,
    policy_index: usize,
    opts: LoadOptions,
) -> LoadedPolicy {
    let file: Arc<str> = Arc::from(file);
    let mut ctx = Ctx {
        file: file.clone(),
        scope,
        lines: LineIndex::new(src),
        diags: Vec::new(),
        opts,
    };
    let root = match DeTable::parse(src) {
        Ok(r) => r,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = e.message().trim().to_string();
            ctx.error(span, format!("TOML syntax error: {msg}"));
            let mut meta = lower_meta(&mut ctx, &DeTable::new(), &file, scope);
            if text_wants_deny(src) {
                meta.on_load_error = OnLoadError::Deny;
            }
            return LoadedPolicy {
                meta,
                rules: Vec::new(),
                tests: Vec::new(),
                diagnostics: ctx.diags,
            };
        }
    };
    let root_t = root.get_ref();
    let meta = lower_meta(&mut ctx, root_t, &file, scope);
    check_keys(
        &mut ctx,
        root_t,
        "the policy file",
        &["policy", "rule", "guard", "test"],
    );
    let pc = PolicyCtx {
        meta,
        index: policy_index,
    };
    let mut rules = Vec::new();
    let mut tests = Vec::new();
    let mut ids: HashSet<String> = HashSet::new();
    for (key, kind) in [("rule", RuleKind::Hook), ("guard", RuleKind::Guard)] {
        let Some((_, v)) = get(root_t, key) else {
            continue;
        };
        let DeValue::Array(items) = v.get_ref() else {
            ctx.error(
                v.span(),
                format!("`{key}` must be an array of tables: write [[{key}]]"),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            if let Some(rule) = lower_rule(&mut ctx, &pc, item, kind, i + 1) {
                if !ids.insert(rule.id.clone()) {
                    ctx.error(
                        item.span(),
                        format!("duplicate rule id `{}` in this file", rule.id),
                    );
                    continue;
                }
                rules.push(rule);
            }
        }
    }
    // Declaration order across [[rule]] and [[guard]] follows the file.
    rules.sort_by_key(|r| (r.source.line, r.source.column));
    if let Some((_, v)) = get(root_t, "test").filter(|_| ctx.opts.tests) {
        if let DeValue::Array(items) = v.get_ref() {
            for (i, item) in items.iter().enumerate() {
                if let Some(t) = lower_test(&mut ctx, item, i + 1) {
                    tests.push(t);
                }
            }
        } else {
            ctx.error(
                v.span(),
                "`test` must be an array of tables: write [[test]]",
            );
        }
    }
    ctx.diags.sort_by_key(|d| (d.line, d.column));
    LoadedPolicy {
        meta: pc.meta,
        rules,
        tests,
        diagnostics: ctx.diags,
    }
}

/// Load the `*.toml` files of a folder (not its sub-folders), in name order, as
/// `seamguard --policy DIR` does; policy indexes start at `first_index`.
///
/// # Errors
/// An unreadable folder gives one policy with no rules and an error diagnostic naming it
/// (never a panic); unreadable files are reported as by [`load_file`].
pub fn load_dir(dir: &Path, scope: Scope, first_index: usize) -> Vec<LoadedPolicy> {
    let mut files: Vec<std::path::PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect(),
        Err(e) => {
            return vec![broken(
                &dir.display().to_string(),
                scope,
                format!("cannot read policy folder: {e}"),
            )];
        }
    };
    files.sort();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| load_file(f, scope, first_index + i))
        .collect()
}

/// Load one policy file from disk.
///
/// An unreadable or non-UTF-8 file gives a policy with no rules and one error diagnostic
/// at `file:1:1` (fail-partial, never a panic).
pub fn load_file(path: &Path, scope: Scope, policy_index: usize) -> LoadedPolicy {
    load_file_with(path, scope, policy_index, LoadOptions::default())
}

/// [`load_file`] with [`LoadOptions`].
pub fn load_file_with(
    path: &Path,
    scope: Scope,
    policy_index: usize,
    opts: LoadOptions,
) -> LoadedPolicy {
    let file = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(src) => load_str_with(&src, &file, scope, policy_index, opts),
            Err(e) => broken(
                &file,
                scope,
                format!(
                    "policy file is not UTF-8 (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            ),
        },
        Err(e) => broken(&file, scope, format!("cannot read policy file: {e}")),
    }
}

fn broken(file: &str, scope: Scope, message: String) -> LoadedPolicy {
    let f: Arc<str> = Arc::from(file);
    LoadedPolicy {
        meta: PolicyMeta {
            name: file.to_string(),
            description: None,
            file: f.clone(),
            scope,
            on_load_error: OnLoadError::Warn,
            matcher_mode: MatcherMode::ClaudeCode,
            codex_ask: CodexAsk::Deny,
            on_unsure: OnUnsure::Ask,
            mode: PolicyMode::Enforce,
            trusted: scope != Scope::Project,
            content_hash: String::new(),
        },
        rules: Vec::new(),
        tests: Vec::new(),
        diagnostics: vec![PolicyError {
            severity: Severity::Error,
            file: f,
            line: 1,
            column: 1,
            message,
            snippet: None,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(src: &str) -> Vec<String> {
        load_str(src, "p.toml", Scope::User, 0)
            .diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect()
    }

    #[test]
    fn design_contract_example_loads() {
        let src = include_str!("../../../engine/tests/data/design-example.toml");
        let p = load_str(src, "design.toml", Scope::User, 0);
        let errs: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errs.is_empty(), "{errs:#?}");
        assert_eq!(p.rules.len(), 6);
        assert_eq!(p.tests.len(), 1);
    }

    #[test]
    fn unknown_key_has_location_and_suggestion() {
        let e = errors("[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecison = \"deny\"\n");
        assert!(
            e.iter().any(
                |m| m.starts_with("p.toml:4:1: error: unknown key `decison` in [[rule]]")
                    && m.contains("did you mean `decision`?")
            ),
            "{e:#?}"
        );
    }

    #[test]
    fn invalid_regex_points_at_the_pattern() {
        let e = errors(
            "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\nwhen.command = { regex = \"(unclosed\" }\ndecision = \"deny\"\n",
        );
        assert!(
            e.iter()
                .any(|m| m.starts_with("p.toml:4:26: error: `regex` on `command`: invalid regex")),
            "{e:#?}"
        );
    }

    #[test]
    fn action_not_allowed_on_seam() {
        let e = errors("[[rule]]\nid = \"a\"\nseam = \"stop\"\ndecision = \"deny\"\n");
        assert!(
            e.iter()
                .any(|m| m.starts_with("p.toml:4:1: error: seam `stop` cannot take `decision`")),
            "{e:#?}"
        );
    }

    #[test]
    fn guard_cannot_allow() {
        let e = errors("[[guard]]\nid = \"g\"\ndecision = \"allow\"\n");
        assert!(e.iter().any(|m| m.contains("`decision` is not allowed in [[guard]]: guards can only deny")), "{e:#?}");
    }

    #[test]
    fn syntax_error_is_located_and_deny_is_read_from_text() {
        let p = load_str(
            "[policy]\non_load_error = \"deny\"\n[[rule]\n",
            "p.toml",
            Scope::User,
            0,
        );
        assert_eq!(p.meta.on_load_error, OnLoadError::Deny);
        assert!(
            p.diagnostics[0].to_string().starts_with("p.toml:3:"),
            "{:?}",
            p.diagnostics
        );
    }

    #[test]
    fn fail_partial_keeps_good_rules() {
        let p = load_str(
            "[[rule]]\nid = \"bad\"\nseam = \"pre-tool\"\nwhen.command = { regex = \"(\" }\ndecision = \"deny\"\n\n[[rule]]\nid = \"good\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n",
            "p.toml",
            Scope::User,
            0,
        );
        assert_eq!(p.rules.len(), 1);
        assert_eq!(p.rules[0].id, "good");
        assert!(p.has_errors());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("30s"), Some(30_000));
        assert_eq!(parse_duration_ms("500ms"), Some(500));
        assert_eq!(parse_duration_ms("2m"), Some(120_000));
        assert_eq!(parse_duration_ms("7"), Some(7_000));
        assert_eq!(parse_duration_ms("soon"), None);
    }
}
