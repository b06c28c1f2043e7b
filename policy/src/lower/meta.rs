//! The `[policy]` table: name, description and the file's settings.
//!
//! In: the document root. Out: [`PolicyMeta`], defaults where a key is absent.

use super::*;

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
    if let Some((_, v)) = get(t, "mode")
        && let Some(x) = want_keyword(
            ctx,
            v,
            "`mode`",
            &[
                ("enforce", PolicyMode::Enforce),
                ("observe", PolicyMode::Observe),
            ],
        )
    {
        meta.mode = x;
    }
    if let Some((_, v)) = get(t, "on_unsure")
        && let Some(x) = want_keyword(
            ctx,
            v,
            "`on_unsure`",
            &[
                ("ask", OnUnsure::Ask),
                ("deny", OnUnsure::Deny),
                ("ignore", OnUnsure::Ignore),
            ],
        )
    {
        meta.on_unsure = x;
    }
    if let Some((_, v)) = get(t, "name")
        && let Some(n) = want_str(ctx, v, "`name`")
    {
        meta.name = n;
    }
    if let Some((_, v)) = get(t, "description") {
        meta.description = want_str(ctx, v, "`description`");
    }
    if let Some((_, v)) = get(t, "on_load_error")
        && let Some(x) = want_keyword(
            ctx,
            v,
            "`on_load_error`",
            &[("warn", OnLoadError::Warn), ("deny", OnLoadError::Deny)],
        )
    {
        meta.on_load_error = x;
    }
    if let Some((_, v)) = get(t, "matcher_mode")
        && let Some(x) = want_keyword(
            ctx,
            v,
            "`matcher_mode`",
            &[
                ("claude-code", MatcherMode::ClaudeCode),
                ("codex", MatcherMode::Codex),
            ],
        )
    {
        meta.matcher_mode = x;
    }
    if let Some((_, v)) = get(t, "codex_ask")
        && let Some(x) = want_keyword(
            ctx,
            v,
            "`codex_ask`",
            &[("deny", CodexAsk::Deny), ("ignore", CodexAsk::Ignore)],
        )
    {
        meta.codex_ask = x;
    }
    meta
}
