//! The action of a `[[rule]]`: `decision`, `reason`, `context`, `feedback`, `halt`,
//! `continue_with`, `rewrite`, `redact`, `run`, `observe`, each checked against what the
//! rule's seam may take.
//!
//! In: the rule's spanned table and its seam. Out: an [`Action`] and the number of action
//! keys that were given.

use toml::de::{DeTable, DeValue};

use super::options::*;
use super::session::*;
use crate::model::*;
use crate::seam::{ActionKind, Seam};

/// The action a rule key sets, if it is an action key.
pub(super) fn action_of(key: &str) -> Option<ActionKind> {
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

/// The seams that can take action `a`, as a comma-separated list for a diagnostic.
pub(super) fn seams_allowing(a: ActionKind) -> String {
    Seam::ALL
        .iter()
        .filter(|s| s.allows(a))
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys of a `rewrite` table.
pub(super) const REWRITE_KEYS: &[&str] = &["regex", "replace", "prepend", "append"];
/// The keys of a `redact` table.
pub(super) const REDACT_KEYS: &[&str] = &["regex", "replace"];
/// The keys of a `run` table.
pub(super) const RUN_ACTION_KEYS: &[&str] = &["command", "timeout", "on_error", "env", "async"];

pub(super) fn parse_duration_ms(s: &str) -> Option<u64> {
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

/// The action keys of one rule table and how many were given.
/// The error of a blank `reason`.
const BLANK_REASON: &str = "`reason`: must not be empty (Codex rejects empty reasons)";
/// The error of a blank `continue_with`.
const BLANK_CONTINUE_WITH: &str =
    "`continue_with`: must not be empty (the agent needs a reason to continue)";

/// A string (reported as `what` otherwise) that must not be blank (`blank`: the error when
/// it is; the text is kept).
fn want_text(ctx: &mut Lowering<'_>, v: &TomlValue<'_>, what: &str, blank: &str) -> Option<String> {
    let s = want_str(ctx, v, what);
    if s.as_deref().is_some_and(|r| r.trim().is_empty()) {
        ctx.error(v.span(), blank);
    }
    s
}

pub(super) fn lower_action(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    seam: Option<Seam>,
    kind: RuleKind,
) -> (Action, usize) {
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
                    ctx.error_with_note(
                        dv.span(),
                        format!("decision `{d}` is not valid at seam `{s}`{hint}"),
                        format!("expected one of: {}", s.decision_values().join(", ")),
                    );
                }
            }
        }
    }
    if let Some((_, rv)) = get(t, "reason") {
        action.reason = want_text(ctx, rv, "`reason`", BLANK_REASON);
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
        action.continue_with = want_text(ctx, cv, "`continue_with`", BLANK_CONTINUE_WITH);
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
            && check_keys(ctx, rt, "`rewrite`", REWRITE_KEYS)
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
        let items: Vec<&TomlValue<'_>> = match rv.get_ref() {
            DeValue::Array(a) => a.iter().collect(),
            _ => vec![rv],
        };
        for item in items {
            if let Some(rt) = want_table(ctx, item, "`redact`")
                && check_keys(ctx, rt, "`redact`", REDACT_KEYS)
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
            && check_keys(ctx, rt, "`run`", RUN_ACTION_KEYS)
        {
            let command = match get(rt, "command") {
                Some((_, c)) => want_str(ctx, c, "`run.command`"),
                None => {
                    ctx.error(rv.span(), "`run` needs `command`");
                    None
                }
            };
            let default_timeout = default_run_timeout_ms(seam.unwrap_or(Seam::PreTool));
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
                Some((_, ov)) => want_keyword(
                    ctx,
                    ov,
                    "`run.on_error`",
                    &[("ignore", OnError::Ignore), ("deny", OnError::Deny)],
                ),
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
            let detached = match get(rt, "async") {
                Some((_, av)) => want_bool(ctx, av, "`run.async`").unwrap_or(false),
                None => false,
            };
            if let (Some(command), Some(timeout_ms), Some(on_error)) =
                (command, timeout_ms, on_error)
            {
                action.run = Some(RunSpec {
                    command,
                    timeout_ms,
                    on_error,
                    env,
                    detached,
                });
            }
        }
    }
    (action, n_actions)
}
