//! One `[[rule]]` or `[[guard]]` table → a [`Rule`].
//!
//! In: the spanned table. Out: a [`Rule`] with its id, seam, matcher, conditions, action and
//! [`Source`]; or `None` with every problem reported (a broken rule is skipped, the other
//! rules of the file still load).

use toml::de::DeTable;

use super::action::*;
use super::cond::*;
use super::session::*;
use crate::matcher::{Matcher, MatcherMode};
use crate::model::*;
use crate::seam::{MatcherSubject, Seam};

/// The keys of a `[[rule]]`: the keys a `[[guard]]` shares first ([`GUARD_KEYS`]), then the
/// actions only a hook rule can take.
pub(super) const RULE_KEYS: &[&str] = &[
    "id",
    "seam",
    "tool",
    "matcher",
    "description",
    "when",
    "unless",
    "reason",
    "decision",
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

/// The keys of a `[[guard]]`: a guard can only deny (with `reason`) or abstain.
pub(super) const GUARD_KEYS: &[&str] = RULE_KEYS.split_at(8).0;

pub(super) struct PolicyHeader {
    pub(super) meta: PolicyMeta,
    pub(super) index: usize,
}

pub(super) fn lower_rule(
    ctx: &mut Lowering<'_>,
    pc: &PolicyHeader,
    v: &TomlValue<'_>,
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
    check_rule_keys(ctx, t, kind, what);
    let at = RuleAt { v, what, ordinal };
    let id = lower_id(ctx, t, &at);
    let seam = lower_seam(ctx, t, kind, &at);
    let matcher = lower_matcher(ctx, t, seam, pc.meta.matcher_mode);
    let when = get(t, "when").and_then(|(_, v)| lower_cond(ctx, v, "`when`"));
    let unless = get(t, "unless").and_then(|(_, v)| lower_cond(ctx, v, "`unless`"));
    let (mut action, n_actions) = lower_action(ctx, t, seam, kind);
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

/// Unknown keys, and keys of `[[rule]]` that a `[[guard]]` may not have.
fn check_rule_keys(ctx: &mut Lowering<'_>, t: &DeTable<'_>, kind: RuleKind, what: &str) {
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
            ctx.error_with_note(
                span,
                format!("unknown key `{key}` in [[guard]]{hint}"),
                format!("expected one of: {}", GUARD_KEYS.join(", ")),
            );
        }
    }
}

/// Which rule of the file is being lowered: its value, `[[rule]]` or `[[guard]]`, and its
/// 1-based position among them.
struct RuleAt<'a, 'de> {
    v: &'a TomlValue<'de>,
    what: &'a str,
    ordinal: usize,
}

impl RuleAt<'_, '_> {
    /// Reports that the rule has no `key` (`rest`: the key and a hint) at the rule.
    fn missing<T>(&self, ctx: &mut Lowering<'_>, rest: &str) -> Option<T> {
        let (what, ordinal) = (self.what, self.ordinal);
        ctx.error(self.v.span(), format!("{what} #{ordinal} has no {rest}"));
        None
    }
}

/// `id`: present, a string, not blank.
fn lower_id(ctx: &mut Lowering<'_>, t: &DeTable<'_>, at: &RuleAt<'_, '_>) -> Option<String> {
    match get(t, "id") {
        Some((_, v)) => want_str(ctx, v, "`id`").filter(|s| {
            if s.trim().is_empty() {
                ctx.error(v.span(), "`id`: must not be empty");
                false
            } else {
                true
            }
        }),
        None => at.missing(ctx, "`id`; every rule needs a unique id"),
    }
}

/// `seam`: a known seam name (guards: only `pre-tool`, the default).
fn lower_seam(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    kind: RuleKind,
    at: &RuleAt<'_, '_>,
) -> Option<Seam> {
    match (get(t, "seam"), kind) {
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
                    ctx.error_with_note(
                        sv.span(),
                        format!("unknown seam `{name}`{hint}"),
                        format!("expected one of: {}", names.join(", ")),
                    );
                    None
                }
            },
            None => None,
        },
        (None, RuleKind::Guard) => Some(Seam::PreTool),
        (None, RuleKind::Hook) => at.missing(ctx, "`seam` (e.g. `seam = \"pre-tool\"`)"),
    }
}

/// `tool` / `matcher`: classified in the policy's matcher mode, checked against the seam.
fn lower_matcher(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    seam: Option<Seam>,
    mode: MatcherMode,
) -> Matcher {
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
        let cm = Matcher::classify(&p, mode);
        if let Err(e) = cm.validate() {
            ctx.error_with_note(
                mv.span(),
                format!("matcher `{p}` is a regex and does not compile: {e}"),
                "a matcher with characters outside the exact-name set is a regex (Rust `regex` syntax; no look-around or back-references)",
            );
        }
        matcher = cm;
    }

    matcher
}
