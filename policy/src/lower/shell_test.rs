//! The keys of a test on a field, and the shell-aware ones among them lowered into a
//! [`ShellTest`]; shared by field tests (`cond`) and the `runs` effect test (`effect`).
//!
//! In: the spanned value of one shell-aware key (`program`, `flags_any`, `path_inside`,
//! `push_force`, …). Out: the [`ShellTest`] filled in, or an error at the value's span.

use std::ops::Range;

use super::session::{Lowering, TomlValue, check_glob, want_bool, want_list_items};
use crate::model::*;

/// The keys of a test on a field: the plain tests, then the shell-aware ones.
pub(super) const TEST_KEYS: &[&str] = &[
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
    "push_force_unleased",
    "push_delete",
    "push_to",
];

/// The shell-aware keys (tests on the simple commands of a command line): the tail of
/// [`TEST_KEYS`] from `program` on.
pub(super) fn is_shell_key(key: &str) -> bool {
    TEST_KEYS
        .iter()
        .skip_while(|k| **k != "program")
        .any(|k| *k == key)
}

pub(super) fn split_flag(f: &str) -> Vec<String> {
    if f.starts_with("--") || !f.starts_with('-') || f.len() <= 2 {
        vec![f.split('=').next().unwrap_or(f).to_string()]
    } else {
        f.chars().skip(1).map(|c| format!("-{c}")).collect()
    }
}

/// Lower one shell-aware key (`program`, `flags_any`, `path_inside`, `push_force`, …) into
/// `shell`; false when it reported an error.
pub(super) fn lower_shell_key(
    ctx: &mut Lowering<'_>,
    key: &str,
    val: &TomlValue<'_>,
    shell: &mut ShellTest,
) -> bool {
    if key == "push_force" || key == "push_force_unleased" || key == "push_delete" {
        return match want_bool(ctx, val, &format!("`{key}`")) {
            Some(true) => {
                match key {
                    "push_force" => shell.push_force = true,
                    "push_force_unleased" => shell.push_force_unleased = true,
                    _ => shell.push_delete = true,
                }
                true
            }
            Some(false) => {
                ctx.error(
                    val.span(),
                    format!("`{key} = false` tests nothing; remove it or use `not`"),
                );
                false
            }
            None => false,
        };
    }
    let Some(items) = want_list_items(ctx, val, &format!("`{key}`")) else {
        return false;
    };
    match key {
        "path_inside" | "path_outside" => {
            let Some(specs) = path_specs(ctx, val, items) else {
                return false;
            };
            if key == "path_inside" {
                shell.path_inside.extend(specs);
            } else {
                shell.path_outside.extend(specs);
            }
        }
        _ => {
            let items: Vec<String> = items.into_iter().map(|(s, _)| s).collect();
            match key {
                "program" | "program_any" => shell.programs.extend(items),
                "subcommand" => shell.subcommands.extend(items),
                "flags_any" => shell.flags_any.extend(items.iter().map(|f| split_flag(f))),
                "flags_all" => shell.flags_all.extend(items.iter().map(|f| split_flag(f))),
                "flags_none" => shell.flags_none.extend(items.iter().map(|f| split_flag(f))),
                "args_any" => shell.args_any.extend(items),
                _ => shell.push_to.extend(items),
            }
        }
    }
    true
}

/// Path specs of a `path_inside` / `path_outside` / `body_from` list: `project`, `home`,
/// a glob, or a `"@name"` list reference (kept for [`crate::lists::resolve`]).
pub(super) fn path_specs(
    ctx: &mut Lowering<'_>,
    val: &TomlValue<'_>,
    items: Vec<(String, Range<usize>)>,
) -> Option<Vec<PathSpec>> {
    let mut ok = true;
    let mut specs = Vec::new();
    for (it, span) in items {
        if let Some(spec) = PathSpec::keyword(&it) {
            if let PathSpec::InProject(g) = &spec
                && !check_glob(ctx, g, span.clone())
            {
                ok = false;
            }
            specs.push(spec);
            continue;
        }
        specs.push(match it.as_str() {
            g if crate::lists::reference(g).is_some() => PathSpec::Glob(g.to_string()),
            g => {
                if !check_glob(ctx, g, span) {
                    ok = false;
                }
                PathSpec::Glob(g.to_string())
            }
        });
    }
    let _ = val;
    ok.then_some(specs)
}
