//! Named lists (`[lists]`), resolved across the files of one policy set.
//!
//! In: loaded policies whose string lists may hold `"@name"` references, and the lists their
//! files define (`name = [...]`) or extend (`[lists.name] extend = [...]`). Out: the same
//! policies with every reference replaced by the list's items, and an error at the reference's
//! `file:line:column` for a name no visible file defines (the rule that holds it is dropped,
//! so the policy fails the way a broken rule does, never open).
//!
//! **Visibility** keeps layering monotone: a rule sees the definition and the extensions
//! written in files at least as trusted as its own (by [`Scope`] order: managed, user,
//! command line, project, embedded). A user file that extends `allowed_hosts` changes the
//! library's rules loaded from the user folder or the command line; a project file's
//! extension only changes the project's own rules, so a cloned repository cannot widen an
//! allow-list of its user.

use std::collections::HashMap;

use crate::model::{
    EffectTest, List, ListRef, LoadedPolicy, NamedList, PathSpec, PolicyError, Pred, Rule, Scope,
    Severity, ShellTest, Source, Test,
};

/// Deepest chain of lists referencing lists (`a = ["@b"]`).
const MAX_LIST_DEPTH: usize = 8;

/// The list name of a `"@name"` reference (`@` and a valid name), or `None` for any other
/// string.
pub fn reference(item: &str) -> Option<&str> {
    item.strip_prefix('@').filter(|n| valid_name(n))
}

/// Whether `name` is a valid list name: ASCII letters, digits, `_` and `-`, not empty.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// One file's contribution to a list, with the file's scope.
struct Contribution<'a> {
    list: &'a NamedList,
    scope: Scope,
}

/// Resolve every `"@name"` reference of `policies` (one policy set, in precedence order).
///
/// Errors are pushed into the referencing file's diagnostics: a name defined twice, an
/// extension of a list nobody defines, a reference to a list no visible file defines, a
/// cycle. A rule with an unresolved reference is removed (it cannot be judged as written).
/// The lists and references are consumed: resolving the result again changes nothing.
///
/// # Examples
///
/// ```
/// use seamguard_policy::{Scope, lists, load_str};
///
/// let library = load_str(
///     "[lists]\nallowed_hosts = [\"github.com\"]\n[[rule]]\nid = \"r\"\nseam = \"pre-tool\"\nwhen.sends = { host_not_in = \"@allowed_hosts\" }\ndecision = \"ask\"\n",
///     "lib.toml", Scope::User, 0);
/// let mine = load_str("[lists.allowed_hosts]\nextend = [\"docs.rs\"]\n", "mine.toml", Scope::User, 1);
/// let mut set = vec![library, mine];
/// lists::resolve(&mut set);
/// assert!(!set[0].has_errors());
/// let text = format!("{:?}", set[0].rules[0].when);
/// assert!(text.contains("\"github.com\"") && text.contains("\"docs.rs\""));
/// ```
pub fn resolve(policies: &mut [LoadedPolicy]) {
    if policies
        .iter()
        .all(|p| p.meta.lists.is_empty() && p.meta.list_refs.is_empty())
    {
        return;
    }
    let mut errors: Vec<(usize, PolicyError)> = Vec::new();
    // The lists and references are taken out of the policies (resolution consumes them), so
    // the rules can be expanded in place.
    let taken: Vec<(Scope, Vec<NamedList>, Vec<ListRef>)> = policies
        .iter_mut()
        .map(|p| {
            (
                p.meta.scope,
                std::mem::take(&mut p.meta.lists),
                std::mem::take(&mut p.meta.list_refs),
            )
        })
        .collect();
    // name → (definition, extensions), each with the file's scope.
    let mut defs: HashMap<String, Contribution<'_>> = HashMap::new();
    let mut exts: HashMap<String, Vec<Contribution<'_>>> = HashMap::new();
    for (i, (scope, lists, _)) in taken.iter().enumerate() {
        for l in lists {
            let c = Contribution {
                list: l,
                scope: *scope,
            };
            if l.extend {
                exts.entry(l.name.clone()).or_default().push(c);
            } else if let Some(first) = defs.get(&l.name) {
                errors.push((
                    i,
                    error(
                        &l.source,
                        format!(
                            "list `{}` is already defined at {}; add to it with `[lists.{}] extend = [...]`",
                            l.name, first.list.source, l.name
                        ),
                    ),
                ));
            } else {
                defs.insert(l.name.clone(), c);
            }
        }
    }
    for (name, list) in &exts {
        if !defs.contains_key(name) {
            for c in list {
                let i = taken
                    .iter()
                    .position(|(_, lists, _)| lists.iter().any(|l| std::ptr::eq(l, c.list)))
                    .unwrap_or(0);
                errors.push((
                    i,
                    error(
                        &c.list.source,
                        format!("`[lists.{name}]` extends a list that no loaded policy defines"),
                    ),
                ));
            }
        }
    }
    // The items a rule of `scope` sees for `name`, references expanded.
    let lookup = |name: &str, scope: Scope| -> Result<Vec<String>, String> {
        fn go(
            name: &str,
            scope: Scope,
            depth: usize,
            defs: &HashMap<String, Contribution<'_>>,
            exts: &HashMap<String, Vec<Contribution<'_>>>,
        ) -> Result<Vec<String>, String> {
            if depth > MAX_LIST_DEPTH {
                return Err(format!(
                    "lists nest deeper than {MAX_LIST_DEPTH} levels at `@{name}` (a cycle?)"
                ));
            }
            let Some(def) = defs.get(name).filter(|d| d.scope <= scope) else {
                return Err(match defs.get(name) {
                    Some(d) => format!(
                        "list `@{name}` is defined only in a less trusted file ({}, {} scope)",
                        d.list.source,
                        d.scope.name()
                    ),
                    None => format!(
                        "unknown list `@{name}`{}; define it in a `[lists]` table",
                        crate::hint::suffix(name, defs.keys().map(String::as_str))
                    ),
                });
            };
            let mut out = Vec::new();
            let extra = exts
                .get(name)
                .into_iter()
                .flatten()
                .filter(|c| c.scope <= scope)
                .flat_map(|c| c.list.items.iter());
            for item in def.list.items.iter().chain(extra) {
                match reference(item) {
                    Some(inner) => out.extend(go(inner, scope, depth + 1, defs, exts)?),
                    None => out.push(item.clone()),
                }
            }
            Ok(out)
        }
        go(name, scope, 0, &defs, &exts)
    };
    // Resolve per policy, in place; a cache per (name, scope) and one glob check per item
    // keep it linear.
    let mut cache: HashMap<(String, Scope), Result<Vec<String>, String>> = HashMap::new();
    let globs: HashMap<String, String> = taken
        .iter()
        .flat_map(|(_, lists, _)| lists.iter().flat_map(|l| l.glob_errors.iter().cloned()))
        .collect();
    for (i, (p, (scope, _, refs))) in policies.iter_mut().zip(&taken).enumerate() {
        let mut failed_rules: Vec<usize> = Vec::new();
        for (k, rule) in p.rules.iter_mut().enumerate() {
            let mut x = Expander {
                lookup: &lookup,
                cache: &mut cache,
                globs: &globs,
                scope: *scope,
                failed: None,
            };
            visit_rule(rule, &mut x);
            if let Some(why) = x.failed {
                let at = refs
                    .iter()
                    .find(|lr| why.contains(&format!("`@{}`", lr.name)))
                    .map_or_else(|| rule.source.clone(), |lr| lr.source.clone());
                errors.push((i, error(&at, format!("{why} (rule `{}`)", rule.id))));
                failed_rules.push(k);
            }
        }
        for k in failed_rules.into_iter().rev() {
            p.rules.remove(k);
        }
    }
    for (i, e) in errors {
        if let Some(p) = policies.get_mut(i)
            && !p.diagnostics.contains(&e)
        {
            p.diagnostics.push(e);
        }
    }
}

type Lookup<'l> = dyn Fn(&str, Scope) -> Result<Vec<String>, String> + 'l;

/// Expands references for one rule, remembering the first failure.
struct Expander<'c, 'l> {
    lookup: &'c Lookup<'l>,
    cache: &'c mut HashMap<(String, Scope), Result<Vec<String>, String>>,
    /// List items that are not valid path globs, with why (checked at lowering).
    globs: &'c HashMap<String, String>,
    scope: Scope,
    failed: Option<String>,
}

impl Expander<'_, '_> {
    /// The items of list `name` (nothing after a failure).
    fn expand(&mut self, name: &str) -> Vec<String> {
        let got = self
            .cache
            .entry((name.to_string(), self.scope))
            .or_insert_with(|| (self.lookup)(name, self.scope))
            .clone();
        got.unwrap_or_else(|why| {
            self.fail(why);
            Vec::new()
        })
    }

    /// Record why the rule cannot be resolved.
    fn fail(&mut self, why: String) {
        self.failed.get_or_insert(why);
    }

    /// Why `item` is not a valid path glob, if it is not.
    fn glob_error(&mut self, item: &str) -> Option<String> {
        self.globs.get(item).cloned()
    }
}

fn error(at: &Source, message: String) -> PolicyError {
    PolicyError {
        severity: Severity::Error,
        file: at.file.clone(),
        line: at.line,
        column: at.column,
        message,
        snippet: None,
        width: 1,
        note: None,
    }
}

/// The string lists of a rule a `"@name"` reference may stand in (every list of its `when`
/// and `unless` tests): the slots [`visit_rule`] hands to a [`ListSlots`] one by one.
pub trait ListSlots {
    /// A list of strings (a glob, regex, `contains` or `prefix` test; hosts, programs, …).
    fn strings(&mut self, v: &mut List<String>);
    /// A list of path specs (`path_inside`, `body_from`, `earlier_read_inside`, …).
    fn specs(&mut self, v: &mut List<PathSpec>);
}

impl ListSlots for Expander<'_, '_> {
    fn strings(&mut self, v: &mut List<String>) {
        strings(v, self);
    }

    fn specs(&mut self, v: &mut List<PathSpec>) {
        specs(v, self);
    }
}

/// Hand every list slot of `rule`'s `when` and `unless` trees to `x`, in a fixed order.
pub fn visit_rule(rule: &mut Rule, x: &mut dyn ListSlots) {
    if let Some(w) = rule.when.as_mut() {
        visit_pred(w, x);
    }
    if let Some(u) = rule.unless.as_mut() {
        visit_pred(u, x);
    }
}

/// Hand every list slot of one predicate tree to `x`.
fn visit_pred(p: &mut Pred, x: &mut dyn ListSlots) {
    match p {
        Pred::All(k) | Pred::Any(k) => k.iter_mut().for_each(|c| visit_pred(c, x)),
        Pred::Not(c) | Pred::Sure(c) => visit_pred(c, x),
        Pred::Leaf(l) => match &mut l.test {
            Test::Regex(v) | Test::Glob(v) | Test::Contains(v) | Test::Prefix(v) => x.strings(v),
            Test::Equals(_) => {}
            Test::Shell(s) => shell(s, x),
            Test::Effect(e) => effect(std::sync::Arc::make_mut(e), x),
        },
    }
}

fn effect(e: &mut EffectTest, x: &mut dyn ListSlots) {
    shell(&mut e.shell, x);
    for v in [
        &mut e.host_in,
        &mut e.host_not_in,
        &mut e.ip_class,
        &mut e.scheme,
        &mut e.method,
        &mut e.body_from_env,
        &mut e.targets,
        &mut e.managers,
        &mut e.source_not_in,
        &mut e.near_names,
        &mut e.lenses,
        &mut e.via,
        &mut e.content_regex,
        &mut e.modes,
        &mut e.body_kinds,
    ] {
        x.strings(v);
    }
    x.specs(&mut e.body_from);
    x.specs(&mut e.earlier_read_inside);
    x.specs(&mut e.earlier_read_outside);
}

fn shell(s: &mut ShellTest, x: &mut dyn ListSlots) {
    for v in [
        &mut s.programs,
        &mut s.subcommands,
        &mut s.args_any,
        &mut s.push_to,
    ] {
        x.strings(v);
    }
    x.specs(&mut s.path_inside);
    x.specs(&mut s.path_outside);
}

fn strings(v: &mut List<String>, x: &mut Expander<'_, '_>) {
    if !v.iter().any(|s| reference(s).is_some()) {
        return;
    }
    let mut out = Vec::with_capacity(v.len());
    for s in v.drain(..) {
        match reference(&s) {
            Some(name) => out.extend(x.expand(name)),
            None => out.push(s),
        }
    }
    *v = out.into();
}

fn specs(v: &mut List<PathSpec>, x: &mut Expander<'_, '_>) {
    let refers = |s: &PathSpec| matches!(s, PathSpec::Glob(g) if reference(g).is_some());
    if !v.iter().any(refers) {
        return;
    }
    let mut out = Vec::with_capacity(v.len());
    for s in v.drain(..) {
        match &s {
            PathSpec::Glob(g) if reference(g).is_some() => {
                for item in x.expand(&g[1..]) {
                    out.push(match PathSpec::keyword(&item) {
                        Some(spec) => spec,
                        None => {
                            if let Some(e) = x.glob_error(&item) {
                                x.fail(format!(
                                    "invalid glob `{item}` in list `@{}`: {e}",
                                    &g[1..]
                                ));
                                continue;
                            }
                            PathSpec::Glob(item)
                        }
                    });
                }
            }
            _ => out.push(s),
        }
    }
    *v = out.into();
}
