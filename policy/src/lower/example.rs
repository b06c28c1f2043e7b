//! `[[test]]` examples of a policy file.
//!
//! In: one spanned `[[test]]` table. Out: a [`PolicyTest`]: the hook payload built from
//! `event` and what the outcome must be.

use serde_json::{Map, Value};
use toml::de::{DeTable, DeValue};

use super::session::*;
use crate::model::*;
use crate::seam::Seam;

/// The keys of a `[[test]]` example.
pub(super) const EXAMPLE_KEYS: &[&str] = &[
    "name",
    "event",
    "expect",
    "reason_contains",
    "rules",
    "not_rules",
    "earlier",
    "dialect",
    "home",
    "project",
    "command",
    "file_path",
    "tool",
    "content",
    "url",
    "mcp",
];

pub(super) fn lower_test(
    ctx: &mut Lowering<'_>,
    v: &TomlValue<'_>,
    ordinal: usize,
) -> Option<PolicyTest> {
    let t = want_table(ctx, v, "[[test]]")?;
    if !check_keys(ctx, t, "[[test]]", EXAMPLE_KEYS) {
        return None;
    }
    let name = get(t, "name")
        .and_then(|(_, v)| want_str(ctx, v, "`name`"))
        .unwrap_or_else(|| format!("test #{ordinal}"));
    let home = folder(ctx, t, "home")?;
    let project = folder(ctx, t, "project")?;
    // The event's defaults are in the example's home: `<home>/project`, and its transcript
    // under `<home>/.claude/projects/`.
    let default_cwd = format!(
        "{}/project",
        home.as_deref()
            .unwrap_or(PolicyTest::DEFAULT_HOME)
            .trim_end_matches('/')
    );
    let shorthand = shorthand_event(ctx, t, v)?;
    let (mut payload, ev_span, et) = match (shorthand, get(t, "event")) {
        (Some(p), None) => (p, v.span(), None),
        (None, Some((_, ev))) => {
            let et = want_table(ctx, ev, "`event`")?;
            let payload = match to_json(ev.get_ref()) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            (payload, ev.span(), Some(et))
        }
        (Some(_), Some((k, _))) => {
            ctx.error(
                k.span(),
                "[[test]]: give either `event` or one of `command`, `file_path`, `url`, `mcp`, not both",
            );
            return None;
        }
        (None, None) => {
            ctx.error_with_note(
                v.span(),
                "[[test]] needs an event",
                "write `event = { seam = \"…\", … }`, or for a pre-tool call `command = \"…\"`, `file_path = \"…\"` (with `tool`), `url = \"…\"` or `mcp = { tool = \"…\", arguments = { … } }`",
            );
            return None;
        }
    };
    let dialect = match get(t, "dialect") {
        Some((_, dv)) => {
            let d = want_str(ctx, dv, "`dialect`")?;
            match crate::Dialect::from_name(&d) {
                Some(d) => Some(d),
                None => {
                    ctx.error(
                        dv.span(),
                        format!(
                            "`dialect`: expected `claude-code`, `codex`, `gemini-cli`, `cursor` or `copilot-cli`, found `{d}`"
                        ),
                    );
                    return None;
                }
            }
        }
        None => None,
    };
    // An event in a host's own shape (Gemini CLI, Cursor, Copilot CLI: named by `dialect`, or
    // detected as `hook` detects it) is kept as the host sends it; `seamguard test` rewrites
    // it into the common payload of its seam, as `hook` does.
    let host_dialect =
        dialect.unwrap_or_else(|| crate::Dialect::detect(&Value::Object(payload.clone())));
    if et.is_some()
        && !payload.contains_key("seam")
        && matches!(
            host_dialect,
            crate::Dialect::GeminiCli | crate::Dialect::Cursor | crate::Dialect::CopilotCli
        )
    {
        // The session and folder the earlier calls share with the event.
        let mut context = Map::new();
        let session = ["session_id", "conversation_id", "sessionId"]
            .iter()
            .find_map(|k| payload.get(*k).filter(|v| v.is_string()));
        let cwd = payload.get("cwd").filter(|v| v.is_string()).or_else(|| {
            payload
                .get("workspace_roots")
                .and_then(Value::as_array)
                .and_then(|r| r.first())
        });
        context.insert(
            "session_id".into(),
            session.cloned().unwrap_or_else(|| "seamguard-test".into()),
        );
        context.insert(
            "cwd".into(),
            cwd.cloned().unwrap_or_else(|| default_cwd.clone().into()),
        );
        let earlier = lower_earlier(ctx, t, &context)?;
        return Some(PolicyTest {
            name,
            payload: Value::Object(payload),
            dialect: Some(host_dialect),
            expect: test_expect(ctx, t, v)?,
            reason_contains: get(t, "reason_contains")
                .and_then(|(_, v)| want_str(ctx, v, "`reason_contains`")),
            rules: rule_ids(ctx, t, "rules", "`rules`")?,
            not_rules: rule_ids(ctx, t, "not_rules", "`not_rules`")?,
            earlier,
            home,
            project,
            source: ctx.source(&v.span()),
        });
    }
    let seam = match (payload.remove("seam"), payload.get("hook_event_name")) {
        (Some(Value::String(s)), _) => match Seam::from_name(&s) {
            Some(seam) => seam,
            None => {
                let span = et
                    .and_then(|et| get(et, "seam"))
                    .map(|(_, v)| v.span())
                    .unwrap_or(ev_span);
                ctx.error(span, format!("unknown seam `{s}` in test event"));
                return None;
            }
        },
        (None, Some(Value::String(n))) => match Seam::from_event_name(n) {
            Some(s) => s,
            None => {
                ctx.error(
                    ev_span,
                    format!("unknown hook_event_name `{n}` in test event"),
                );
                return None;
            }
        },
        _ => {
            ctx.error(
                ev_span,
                "test `event` needs `seam = \"…\"` (or `hook_event_name`)",
            );
            return None;
        }
    };
    let mut full = Map::new();
    full.insert("session_id".into(), Value::String("seamguard-test".into()));
    full.insert(
        "transcript_path".into(),
        Value::String(format!(
            "{}/.claude/projects/{}/seamguard-test.jsonl",
            home.as_deref()
                .unwrap_or(PolicyTest::DEFAULT_HOME)
                .trim_end_matches('/'),
            default_cwd.replace('/', "-")
        )),
    );
    full.insert("cwd".into(), Value::String(default_cwd));
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
    let expect = test_expect(ctx, t, v)?;
    let reason_contains =
        get(t, "reason_contains").and_then(|(_, v)| want_str(ctx, v, "`reason_contains`"));
    let rules = rule_ids(ctx, t, "rules", "`rules`")?;
    let not_rules = rule_ids(ctx, t, "not_rules", "`not_rules`")?;

    let earlier = lower_earlier(ctx, t, &full)?;
    Some(PolicyTest {
        name,
        payload: Value::Object(full),
        dialect,
        expect,
        reason_contains,
        rules,
        not_rules,
        earlier,
        home,
        project,
        source: ctx.source(&v.span()),
    })
}

/// The folder under `key` (`home`, `project`): `Some(None)` when absent, `None` when it is
/// not an absolute path (reported).
fn folder(ctx: &mut Lowering<'_>, t: &DeTable<'_>, key: &str) -> Option<Option<String>> {
    let Some((_, fv)) = get(t, key) else {
        return Some(None);
    };
    let f = want_str(ctx, fv, &format!("`{key}`"))?;
    if !f.starts_with('/') {
        ctx.error(
            fv.span(),
            format!("`{key}`: expected an absolute folder (`/home/me`), found `{f}`"),
        );
        return None;
    }
    Some(Some(f))
}

/// `earlier`: pre-tool calls made earlier in the same session, each given the test event's
/// `session_id` and `cwd` (from `event`) unless it names its own; `None` when malformed
/// (reported).
fn lower_earlier(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    full: &Map<String, Value>,
) -> Option<Vec<Value>> {
    let mut earlier = Vec::new();
    if let Some((_, ev)) = get(t, "earlier") {
        let DeValue::Array(items) = ev.get_ref() else {
            ctx.error(
                ev.span(),
                "`earlier`: expected an array of tool call tables",
            );
            return None;
        };
        for it in items.iter() {
            let span = it.span();
            let Value::Object(mut m) = to_json(it.get_ref()) else {
                ctx.error(span, "`earlier`: each item is a tool call table (`{ tool_name = \"…\", tool_input = { … } }`)");
                return None;
            };
            for k in ["session_id", "cwd"] {
                if let Some(x) = full.get(k) {
                    m.entry(k).or_insert_with(|| x.clone());
                }
            }
            m.entry("hook_event_name")
                .or_insert_with(|| Value::String("PreToolUse".into()));
            earlier.push(Value::Object(m));
        }
    }
    Some(earlier)
}

/// The `expect` of a `[[test]]`; `None` when it is missing or unknown (reported).
fn test_expect(ctx: &mut Lowering<'_>, t: &DeTable<'_>, v: &TomlValue<'_>) -> Option<String> {
    match get(t, "expect") {
        Some((_, x)) => {
            let e = want_str(ctx, x, "`expect`")?;
            const EXPECTS: &[&str] = &[
                "allow", "deny", "ask", "defer", "block", "continue", "stop", "redact", "halt",
                "none",
            ];
            if !EXPECTS.contains(&e.as_str()) {
                ctx.error_with_note(
                    x.span(),
                    format!("`expect`: unknown verdict `{e}`{}", suggest(&e, EXPECTS)),
                    format!("expected one of: {}", EXPECTS.join(", ")),
                );
                return None;
            }
            Some(e)
        }
        None => {
            ctx.error(v.span(), "[[test]] needs `expect`");
            None
        }
    }
}

/// The pre-tool event of a shorthand test: `command = "…"` (a `Bash` call, or `tool`),
/// `file_path = "…"` (a `Read`, or `tool`; `content` for a `Write`), `url = "…"` (a
/// `WebFetch`), `mcp = { tool = "…", arguments = { … } }`. `Some(None)`: no shorthand;
/// `None`: an error was reported.
fn shorthand_event(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    v: &TomlValue<'_>,
) -> Option<Option<Map<String, Value>>> {
    let given: Vec<&str> = ["command", "file_path", "url", "mcp"]
        .into_iter()
        .filter(|k| get(t, k).is_some())
        .collect();
    let tool = match get(t, "tool") {
        Some((_, tv)) => Some(want_str(ctx, tv, "`tool`")?),
        None => None,
    };
    let content = match get(t, "content") {
        Some((_, cv)) => Some(want_str(ctx, cv, "`content`")?),
        None => None,
    };
    let key = match given.as_slice() {
        [] => {
            if tool.is_some() || content.is_some() {
                ctx.error(
                    v.span(),
                    "[[test]]: `tool` and `content` go with `command` or `file_path`",
                );
                return None;
            }
            return Some(None);
        }
        [one] => *one,
        more => {
            ctx.error(
                v.span(),
                format!("[[test]]: give one of {}, not several", more.join(", ")),
            );
            return None;
        }
    };
    let (_, val) = get(t, key)?;
    let mut input = Map::new();
    let tool_name = match key {
        "command" => {
            input.insert(
                "command".into(),
                Value::String(want_str(ctx, val, "`command`")?),
            );
            tool.unwrap_or_else(|| "Bash".into())
        }
        "file_path" => {
            input.insert(
                "file_path".into(),
                Value::String(want_str(ctx, val, "`file_path`")?),
            );
            if let Some(c) = content {
                input.insert("content".into(), Value::String(c));
            }
            tool.unwrap_or_else(|| "Read".into())
        }
        "url" => {
            input.insert("url".into(), Value::String(want_str(ctx, val, "`url`")?));
            input.insert("prompt".into(), Value::String("Summarize the page".into()));
            tool.unwrap_or_else(|| "WebFetch".into())
        }
        _ => {
            let mt = want_table(ctx, val, "`mcp`")?;
            if !check_keys(ctx, mt, "`mcp`", &["tool", "arguments"]) {
                return None;
            }
            let Some((_, tv)) = get(mt, "tool") else {
                ctx.error(val.span(), "`mcp` needs `tool = \"mcp__<server>__<tool>\"`");
                return None;
            };
            let name = want_str(ctx, tv, "`mcp.tool`")?;
            if let Some((_, av)) = get(mt, "arguments") {
                match to_json(av.get_ref()) {
                    Value::Object(m) => input = m,
                    _ => {
                        ctx.error(av.span(), "`mcp.arguments`: expected a table");
                        return None;
                    }
                }
            }
            name
        }
    };
    let mut payload = Map::new();
    payload.insert("seam".into(), Value::String("pre-tool".into()));
    payload.insert("tool_name".into(), Value::String(tool_name));
    payload.insert("tool_input".into(), Value::Object(input));
    Some(Some(payload))
}

/// The rule ids listed under `key` (none when absent); `None` when it is not a list of
/// strings (reported as `what`).
fn rule_ids(ctx: &mut Lowering<'_>, t: &DeTable<'_>, key: &str, what: &str) -> Option<Vec<String>> {
    match get(t, key) {
        Some((_, v)) => Some(
            want_str_list(ctx, v, what)?
                .into_iter()
                .map(|(s, _)| s)
                .collect(),
        ),
        None => Some(Vec::new()),
    }
}
