//! `when` / `unless` conditions and their field tests.
//!
//! In: the spanned value of a `when` or `unless` key. Out: a [`Pred`] tree of [`Leaf`] tests
//! (`regex`, `glob`, `contains`, `path`, `shell`, …) with every bad key, field or pattern
//! reported at its span.

use toml::de::DeValue;

use super::session::*;
use super::shell_test::*;
use crate::model::*;

pub(super) fn field_names() -> Vec<&'static str> {
    FIELD_ALIASES
        .iter()
        .map(|(n, _)| *n)
        .chain(EffectKind::KEYS.iter().map(|(k, _)| *k))
        .collect()
}

/// Lower a condition table (`when` / `unless` / items of `any` / `all` / `not`).
pub(super) fn lower_cond(ctx: &mut Lowering<'_>, v: &TomlValue<'_>, what: &str) -> Option<Pred> {
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
            "sure" => match lower_cond(ctx, val, "`sure`") {
                Some(p) => parts.push(Pred::Sure(Box::new(p))),
                None => ok = false,
            },
            effect_key if EffectKind::from_key(effect_key).is_some() => {
                match super::effect::lower_effect(ctx, effect_key, val) {
                    Some(p) => parts.push(p),
                    None => ok = false,
                }
            }
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

pub(super) fn lower_tests(
    ctx: &mut Lowering<'_>,
    field: &Field,
    v: &TomlValue<'_>,
) -> Option<Vec<Pred>> {
    let what = format!("test on `{}`", field.name);
    let t = want_table(ctx, v, &what)?;
    if t.is_empty() {
        ctx.error_with_note(
            v.span(),
            format!("{what}: empty test table"),
            format!("expected one of: {}", TEST_KEYS.join(", ")),
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
        if is_shell_key(key) {
            has_shell = true;
            if field.name == "paths" && !matches!(key, "path_inside" | "path_outside") {
                ctx.error(
                    k.span(),
                    format!("`{key}` does not apply to `paths`; `paths` takes `path_inside` / `path_outside`"),
                );
                ok = false;
                continue;
            }
            ok &= lower_shell_key(ctx, key, val, &mut shell);
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
                let Some(items) = want_list_items(ctx, val, &format!("`{key}`")) else {
                    ok = false;
                    continue;
                };
                let mut valid = true;
                for (p, span) in &items {
                    if crate::lists::reference(p).is_some() {
                        continue;
                    }
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
                let items: List<String> = items.into_iter().map(|(s, _)| s).collect();
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
