//! `[[test]]` examples of a policy file.
//!
//! In: one spanned `[[test]]` table. Out: a [`PolicyTest`]: the hook payload built from
//! `event` and what the outcome must be.

use super::*;

pub(super) fn lower_test(
    ctx: &mut Lowering<'_>,
    v: &TomlValue<'_>,
    ordinal: usize,
) -> Option<PolicyTest> {
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
                ctx.error_with_note(
                    x.span(),
                    format!("`expect`: unknown verdict `{e}`{}", suggest(&e, EXPECTS)),
                    format!("expected one of: {}", EXPECTS.join(", ")),
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
    let rules = rule_ids(ctx, t, "rules", "`rules`")?;
    let not_rules = rule_ids(ctx, t, "not_rules", "`not_rules`")?;
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
