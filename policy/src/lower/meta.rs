//! The `[policy]` table: name, description and the file's settings.
//!
//! In: the document root. Out: [`PolicyMeta`], defaults where a key is absent.

use std::path::Path;
use std::sync::Arc;

use toml::de::DeTable;

use super::session::*;
use crate::matcher::MatcherMode;
use crate::model::*;

/// The keys of the `[policy]` table.
pub(super) const POLICY_KEYS: &[&str] = &[
    "name",
    "description",
    "on_load_error",
    "matcher_mode",
    "codex_ask",
    "on_unsure",
    "mode",
];

pub(super) fn lower_meta(
    ctx: &mut Lowering<'_>,
    root: &DeTable<'_>,
    file: &Arc<str>,
    scope: Scope,
) -> PolicyMeta {
    let stem = Path::new(file.as_ref())
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "policy".into());
    let mut meta = PolicyMeta::defaults(stem, file.clone(), scope);
    let Some((_, pv)) = get(root, "policy") else {
        return meta;
    };
    let Some(t) = want_table(ctx, pv, "[policy]") else {
        return meta;
    };
    check_keys(ctx, t, "[policy]", POLICY_KEYS);
    keyword(
        ctx,
        t,
        "mode",
        &[
            ("enforce", PolicyMode::Enforce),
            ("observe", PolicyMode::Observe),
        ],
        &mut meta.mode,
    );
    keyword(
        ctx,
        t,
        "on_unsure",
        &[
            ("ask", OnUnsure::Ask),
            ("deny", OnUnsure::Deny),
            ("ignore", OnUnsure::Ignore),
        ],
        &mut meta.on_unsure,
    );
    if let Some((_, v)) = get(t, "name")
        && let Some(n) = want_str(ctx, v, "`name`")
    {
        meta.name = n;
    }
    if let Some((_, v)) = get(t, "description") {
        meta.description = want_str(ctx, v, "`description`");
    }
    keyword(
        ctx,
        t,
        "on_load_error",
        &[("warn", OnLoadError::Warn), ("deny", OnLoadError::Deny)],
        &mut meta.on_load_error,
    );
    keyword(
        ctx,
        t,
        "matcher_mode",
        &[
            ("claude-code", MatcherMode::ClaudeCode),
            ("codex", MatcherMode::Codex),
        ],
        &mut meta.matcher_mode,
    );
    keyword(
        ctx,
        t,
        "codex_ask",
        &[("deny", CodexAsk::Deny), ("ignore", CodexAsk::Ignore)],
        &mut meta.codex_ask,
    );
    meta
}

/// A `[policy]` setting that is one of `choices`: stored in `slot` when present and valid.
fn keyword<T: Copy>(
    ctx: &mut Lowering<'_>,
    t: &DeTable<'_>,
    key: &str,
    choices: &[(&str, T)],
    slot: &mut T,
) {
    if let Some((_, v)) = get(t, key)
        && let Some(x) = want_keyword(ctx, v, &format!("`{key}`"), choices)
    {
        *slot = x;
    }
}
