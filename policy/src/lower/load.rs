//! The entry points: a policy file, folder or text loaded into a [`LoadedPolicy`].
//!
//! In: TOML source text (or the path of a file or folder holding it), its scope and index.
//! Out: a [`LoadedPolicy`] with the file's `[policy]` header, `[lists]`, rules, guards and
//! examples, and every diagnostic sorted by location. The document is parsed once into
//! `toml`'s spanned [`DeTable`], then each table is lowered by its own module.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use toml::de::{DeTable, DeValue};

use super::example::lower_test;
use super::meta::lower_meta;
use super::options::LoadOptions;
use super::rule::{PolicyHeader, lower_rule};
use super::session::{
    LineIndex, Lowering, TomlValue, check_keys, get, want_list_items, want_table,
};
use crate::model::*;

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
/// `file` names the source in diagnostics and rule sources; `policy_index` is the index this
/// policy will have in the decision table (rules refer to it).
///
/// # Errors
/// Never fails and never panics: every problem is a located diagnostic in
/// [`LoadedPolicy::diagnostics`] (see [`LoadedPolicy::has_errors`]), and a broken rule is
/// skipped while the rest of the file still loads.
///
/// # Example
///
/// ```
/// use seamguard_policy::{Scope, Seam, load_str};
///
/// let policy = load_str(
///     "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\n\
///      when.command = { contains = \"rm -rf\" }\ndecision = \"deny\"\n",
///     "inline.toml",
///     Scope::User,
///     0,
/// );
/// assert!(!policy.has_errors());
/// assert_eq!(policy.rules[0].seam, Seam::PreTool);
///
/// let broken = load_str("[[rule]]\nid = \"x\"\nseam = \"nowhere\"\n", "bad.toml", Scope::User, 0);
/// assert!(broken.has_errors());
/// assert!(broken.rules.is_empty());
/// ```
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
    let ctx = Lowering {
        file: Arc::from(file),
        scope,
        lines: LineIndex::new(src),
        diags: Vec::new(),
        opts,
        list_refs: Vec::new(),
    };
    let mut p = lower_policy(src, ctx, policy_index);
    // Only project files need their content hash (trust of `run` actions).
    if scope == Scope::Project {
        p.meta.content_hash = crate::trust::content_hash(src.as_bytes());
    }
    p
}

/// The policy of `src`, lowered in `ctx` (its file, scope and options).
fn lower_policy<'s>(src: &'s str, mut ctx: Lowering<'s>, policy_index: usize) -> LoadedPolicy {
    let (file, scope) = (ctx.file.clone(), ctx.scope);
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
    let mut meta = lower_meta(&mut ctx, root_t, &file, scope);
    check_keys(
        &mut ctx,
        root_t,
        "the policy file",
        &["policy", "lists", "rule", "guard", "test"],
    );
    if let Some((_, v)) = get(root_t, "lists") {
        meta.lists = lower_lists(&mut ctx, v);
    }
    let pc = PolicyHeader {
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
    let mut meta = pc.meta;
    meta.list_refs = std::mem::take(&mut ctx.list_refs);
    LoadedPolicy {
        meta,
        rules,
        tests,
        diagnostics: ctx.diags,
    }
}

/// The `[lists]` table: `name = ["…", …]` defines a list, `[lists.name] extend = ["…"]`
/// adds to a list another file defines.
fn lower_lists(ctx: &mut Lowering<'_>, v: &TomlValue<'_>) -> Vec<NamedList> {
    let Some(t) = want_table(ctx, v, "`lists`") else {
        return Vec::new();
    };
    let mut out: Vec<NamedList> = Vec::new();
    for (k, val) in t.iter() {
        let name: &str = k.get_ref();
        if !crate::lists::valid_name(name) {
            ctx.error(
                k.span(),
                format!("`lists.{name}`: a list name has letters, digits and `_`"),
            );
            continue;
        }
        let source = ctx.source(&k.span());
        let what = format!("`lists.{name}`");
        let (items_v, extend) = match val.get_ref() {
            DeValue::Table(inner) => {
                if !check_keys(ctx, inner, &what, &["extend"]) {
                    continue;
                }
                match get(inner, "extend") {
                    Some((_, e)) => (e, true),
                    None => {
                        ctx.error(
                            val.span(),
                            format!("{what}: expected a list of strings or `{{ extend = [...] }}`"),
                        );
                        continue;
                    }
                }
            }
            _ => (val, false),
        };
        let Some(items) = want_list_items(ctx, items_v, &what) else {
            continue;
        };
        let glob_errors = items
            .iter()
            .filter(|(s, _)| crate::lists::reference(s).is_none())
            .filter_map(|(s, _)| {
                globset::GlobBuilder::new(s)
                    .literal_separator(true)
                    .build()
                    .err()
                    .map(|e| (s.clone(), e.kind().to_string()))
            })
            .collect();
        out.push(NamedList {
            name: name.to_string(),
            items: items.into_iter().map(|(s, _)| s).collect(),
            extend,
            source,
            glob_errors,
        });
    }
    out
}

/// Load the `*.toml` files of a folder (not its sub-folders), in name order, as
/// `seamguard --policy DIR` does; policy indexes start at `first_index`.
///
/// # Errors
/// Never returns an error: an unreadable folder gives one policy with no rules and an error
/// diagnostic naming it (never a panic); unreadable files are reported as by [`load_file`].
///
/// # Example
///
/// ```
/// use seamguard_policy::{Scope, load_dir};
///
/// let dir = std::env::temp_dir().join(format!("seamguard-load-dir-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("b.toml"), "[[rule]]\nid = \"b\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n")?;
/// std::fs::write(dir.join("a.toml"), "[[rule]]\nid = \"a\"\nseam = \"pre-tool\"\ndecision = \"ask\"\n")?;
/// let policies = load_dir(&dir, Scope::Project, 0);
/// let ids: Vec<&str> = policies.iter().map(|p| p.rules[0].id.as_str()).collect();
/// assert_eq!(ids, ["a", "b"]); // name order
///
/// let missing = load_dir(&dir.join("missing"), Scope::Project, 0);
/// assert!(missing[0].has_errors());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
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

/// Load one policy file from disk; the file's path names it in diagnostics.
///
/// # Errors
/// Never returns an error: an unreadable or non-UTF-8 file gives a policy with no rules and
/// one error diagnostic at `file:1:1` (fail-partial, never a panic); problems in the text
/// are diagnostics as for [`load_str`].
///
/// # Example
///
/// ```
/// use std::path::Path;
/// use seamguard_policy::{Scope, load_file};
///
/// let policy = load_file(Path::new("/nonexistent/policy.toml"), Scope::User, 0);
/// assert!(policy.has_errors());
/// assert!(policy.rules.is_empty());
/// assert!(policy.diagnostics[0].to_string().starts_with("/nonexistent/policy.toml:1:1"));
/// ```
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
        meta: PolicyMeta::defaults(file.to_string(), f.clone(), scope),
        rules: Vec::new(),
        tests: Vec::new(),
        diagnostics: vec![PolicyError {
            severity: Severity::Error,
            file: f,
            line: 1,
            column: 1,
            message,
            snippet: None,
            width: 1,
            note: None,
        }],
    }
}
