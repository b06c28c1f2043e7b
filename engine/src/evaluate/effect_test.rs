//! Effect tests: one `when.reads` / `when.sends` / `when.runs` / … test against the effects
//! the lenses found in a tool call.
//!
//! In: an [`EffectTest`], its globs, the call's [`Effects`]. Out: [`Judgement`]: held (with
//! the effect and its route, for the reason), did not hold, or undecidable (why).
//!
//! An effect test holds when **one** effect of its kind satisfies every constraint. A
//! constraint on something only known at run time (a path from a variable, a URL built at
//! run time) is undecidable, and so is a call part of which no lens could see
//! ([`Effects::unsure`]): the rule then fails closed, as shell tests do.

use serde_json::Value;

use super::shell_test::{GlobCache, Judgement, Placement, eval_shell};
use crate::compile::pred::EffectGlobs;
use crate::effects::{BodySource, Effect, EffectKind, Effects, Endpoint, Lens, What};
use crate::policy::EffectTest;
use crate::shell::ShellAnalysis;
use crate::table::ShellEnv;

/// The name a `lens` constraint uses for a lens.
fn lens_name(l: Option<Lens>) -> &'static str {
    match l {
        Some(Lens::Shell) => "shell",
        Some(Lens::File) => "file",
        Some(Lens::Web) => "web",
        Some(Lens::Mcp) => "mcp",
        None => "",
    }
}

/// What an effect test needs besides the test and the effects.
pub(crate) struct EffectContext<'a> {
    pub(crate) env: &'a ShellEnv,
    pub(crate) payload: &'a Value,
    pub(crate) cache: &'a GlobCache,
    /// Every program the call runs (all lenses) as one analysis, built once per call by
    /// [`runs_analysis`]; `None`: build it here.
    pub(crate) runs: Option<&'a ShellAnalysis>,
}

/// Every program a call runs, through the lenses `lens_ok` admits, as one analysis (the
/// call's unresolved part as its `unsure`).
pub(crate) fn runs_analysis(fx: &Effects, lens_ok: impl Fn(&Effect) -> bool) -> ShellAnalysis {
    let mut a = ShellAnalysis::default();
    for e in fx.of(EffectKind::Run).filter(|e| lens_ok(e)) {
        if let What::Run(c) = &e.what {
            a.commands.push(c.clone());
        }
    }
    a.unsure = fx.unsure().map(str::to_string);
    a
}

pub(crate) fn eval_effect(
    t: &EffectTest,
    globs: &EffectGlobs,
    fx: &Effects,
    cx: &EffectContext<'_>,
) -> Judgement {
    // Taint is about the session, not this call: without an earlier read of the kind, no
    // request of the call matches, whatever it could not resolve.
    if !t.earlier_read_inside.is_empty() && !earlier_read(t, globs, cx) {
        return Judgement::No;
    }
    let project = super::shell_test::project_base(cx.payload);
    let payload_cwd = project.as_deref();
    let lens_ok =
        |e: &Effect| t.lenses.is_empty() || t.lenses.iter().any(|l| l == lens_name(e.route.lens));
    if t.kind == EffectKind::Run {
        // The shell-aware constraints, over every program the call runs (any route).
        let built;
        let a = match cx.runs.filter(|_| t.lenses.is_empty()) {
            Some(a) => a,
            None => {
                built = runs_analysis(fx, lens_ok);
                &built
            }
        };
        return match eval_shell(&t.shell, &globs.path, a, cx.env, cx.payload, cx.cache) {
            Judgement::Yes(shown) => {
                // Name the route: the tool (and argument) the command came through.
                let route = fx
                    .of(EffectKind::Run)
                    .find(|e| matches!(&e.what, What::Run(c) if c.display() == shown))
                    .map(|e| e.route.clone());
                Judgement::Yes(match route {
                    Some(r) if r.lens != Some(Lens::Shell) || !r.argument.is_empty() => {
                        format!("{shown} ({}{})", r.tool, arg_suffix(&r.argument))
                    }
                    _ => shown,
                })
            }
            other => other,
        };
    }
    let place = Placement {
        inside: &t.shell.path_inside,
        outside: &t.shell.path_outside,
        globs: &globs.path,
        env: cx.env,
        payload_cwd,
        cache: cx.cache,
    };
    let has_path_test = !t.shell.path_inside.is_empty() || !t.shell.path_outside.is_empty();
    let mut unknown: Option<String> = None;
    for e in fx.of(t.kind).filter(|e| lens_ok(e)) {
        let verdict = match &e.what {
            What::Read(p) => path_ok(
                has_path_test,
                &place,
                p.text.as_str(),
                p.dynamic,
                p.cwd.as_deref(),
            ),
            What::Write {
                path,
                append,
                content,
            } => {
                if t.append.is_some_and(|a| a != *append) {
                    Some(false)
                } else {
                    match path_ok(
                        has_path_test,
                        &place,
                        &path.text,
                        path.dynamic,
                        path.cwd.as_deref(),
                    ) {
                        Some(true) => content_ok(globs, content.as_deref()),
                        other => other,
                    }
                }
            }
            What::Delete { path, recursive }
            | What::ChangePermission {
                path, recursive, ..
            } => {
                let mode = match &e.what {
                    What::ChangePermission { mode, .. } => mode.as_deref(),
                    _ => None,
                };
                if t.recursive.is_some_and(|r| r != *recursive)
                    || (!t.modes.is_empty() && !mode.is_some_and(|m| name_matches(&t.modes, m)))
                {
                    Some(false)
                } else {
                    path_ok(
                        has_path_test,
                        &place,
                        &path.text,
                        path.dynamic,
                        path.cwd.as_deref(),
                    )
                }
            }
            What::Send(s) => send_ok(t, globs, s, e.route.command.as_deref(), &place, cx),
            What::Signal { targets, .. } => {
                let named = targets
                    .iter()
                    .any(|a| !a.dynamic && name_matches(&t.targets, &a.text));
                if t.targets.is_empty() || named {
                    Some(true)
                } else if targets.iter().any(|a| a.dynamic) {
                    None
                } else {
                    Some(false)
                }
            }
            What::Install {
                manager, source, ..
            } => {
                if !t.managers.is_empty() && !t.managers.iter().any(|m| m == manager) {
                    Some(false)
                } else if t.source_not_in.is_empty() {
                    Some(true)
                } else {
                    match source {
                        None => Some(false),
                        Some(src) => match crate::effects::url::parse(src) {
                            Some(ep) => Some(!t.source_not_in.iter().any(|h| ep.host_matches(h))),
                            None => Some(true),
                        },
                    }
                }
            }
            What::Configure(c) => {
                if (!t.changes.is_empty() && !t.changes.iter().any(|x| x == c.change.name()))
                    || (!t.agents.is_empty() && !t.agents.iter().any(|x| x == c.agent.name()))
                {
                    Some(false)
                } else {
                    path_ok(
                        has_path_test,
                        &place,
                        &c.file.text,
                        c.file.dynamic,
                        c.file.cwd.as_deref(),
                    )
                }
            }
            What::Run(_) | What::Unsure(_) => Some(false),
        };
        match verdict {
            Some(true) => return Judgement::Yes(e.to_string()),
            Some(false) => {}
            None => {
                unknown.get_or_insert_with(|| format!("cannot tell where it goes: {e}"));
            }
        }
    }
    if let Some(u) = unknown {
        return Judgement::Unknown(u);
    }
    if let Some(u) = fx.unsure() {
        return Judgement::Unknown(u.to_string());
    }
    Judgement::No
}

fn arg_suffix(argument: &str) -> String {
    if argument.is_empty() {
        String::new()
    } else {
        format!(", argument `{argument}`")
    }
}

/// The `content_regex` constraint on written data: holds when there is none; cannot be
/// told when the data is not visible (or the patterns do not compile).
fn content_ok(globs: &EffectGlobs, content: Option<&str>) -> Option<bool> {
    match (&globs.content, content) {
        (None, _) => Some(true),
        (Some(Ok(set)), Some(c)) => Some(set.is_match(c)),
        (Some(_), _) => None,
    }
}

/// A path constraint on one path: holds when there is none.
fn path_ok(
    has_test: bool,
    place: &Placement<'_>,
    text: &str,
    dynamic: bool,
    cwd: Option<&str>,
) -> Option<bool> {
    if !has_test {
        return Some(true);
    }
    place.holds(text, dynamic, cwd)
}

/// Whether `name` matches one of `patterns` (globs, case-insensitive).
fn name_matches(patterns: &[String], name: &str) -> bool {
    let name = name.to_lowercase();
    let base = name.rsplit('/').next().unwrap_or(&name);
    patterns.iter().any(|p| {
        let p = p.to_lowercase();
        fast_glob::glob_match(&p, base) || fast_glob::glob_match(&p, &name)
    })
}

/// `earlier_read_inside`: whether the session read, in an earlier call, a path inside one of
/// the specs and outside every `earlier_read_outside` spec (the session memory in effect;
/// none: nothing was read).
fn earlier_read(t: &EffectTest, globs: &EffectGlobs, cx: &EffectContext<'_>) -> bool {
    let Some(m) = crate::memory::current() else {
        return false;
    };
    let from_place = Placement {
        inside: &t.earlier_read_inside,
        outside: &t.earlier_read_outside,
        globs: &globs.earlier,
        env: cx.env,
        payload_cwd: cx.payload.get("cwd").and_then(Value::as_str),
        cache: cx.cache,
    };
    m.reads()
        .any(|p| from_place.holds(p, false, None) == Some(true))
}

/// The constraints of a `sends` test on one request.
fn send_ok(
    t: &EffectTest,
    globs: &EffectGlobs,
    s: &crate::effects::Send,
    command: Option<&str>,
    place: &Placement<'_>,
    cx: &EffectContext<'_>,
) -> Option<bool> {
    let needs_endpoint = !t.host_in.is_empty()
        || !t.host_not_in.is_empty()
        || !t.ip_class.is_empty()
        || !t.scheme.is_empty()
        || t.credential_in_url;
    if t.runs_response && !s.runs_response {
        return Some(false);
    }
    let swept = if s.endpoint.is_none() && s.dynamic {
        command.and_then(lan_sweep_endpoint)
    } else {
        None
    };
    let ep: Option<&Endpoint> = s.endpoint.as_ref().or(swept.as_ref());
    if needs_endpoint {
        let Some(ep) = ep else {
            // The destination is only known at run time (or does not parse).
            return None;
        };
        if !t.scheme.is_empty() && !t.scheme.contains(&ep.scheme) {
            return Some(false);
        }
        if !t.host_in.is_empty() && !t.host_in.iter().any(|h| ep.host_matches(h)) {
            return Some(false);
        }
        if !t.host_not_in.is_empty() && t.host_not_in.iter().any(|h| ep.host_matches(h)) {
            return Some(false);
        }
        if !t.ip_class.is_empty() && !t.ip_class.iter().any(|c| c == ep.class().name()) {
            return Some(false);
        }
        if t.credential_in_url && ep.credential_in_url().is_none() {
            return Some(false);
        }
    }
    if !t.method.is_empty() {
        match &s.method {
            Some(m) if t.method.contains(m) => {}
            Some(_) => return Some(false),
            None => return None,
        }
    }
    if !t.body_from.is_empty() {
        let from_place = Placement {
            inside: &t.body_from,
            outside: &[],
            globs: &globs.body,
            env: cx.env,
            payload_cwd: place.payload_cwd,
            cache: cx.cache,
        };
        let mut any_unknown = false;
        let mut hit = false;
        for b in &s.body {
            if let BodySource::File(p) = b {
                match from_place.holds(&p.text, p.dynamic, p.cwd.as_deref()) {
                    Some(true) => hit = true,
                    Some(false) => {}
                    None => any_unknown = true,
                }
            }
        }
        if !hit {
            return if any_unknown { None } else { Some(false) };
        }
    }
    if !t.body_kinds.is_empty() {
        let kind = |b: &BodySource| match b {
            BodySource::File(_) => "file",
            BodySource::Env(_) | BodySource::Environment => "env",
            BodySource::Stdin => "stdin",
            BodySource::Literal => "literal",
        };
        if !s
            .body
            .iter()
            .any(|b| t.body_kinds.iter().any(|k| k == kind(b)))
        {
            return Some(false);
        }
    }
    if !t.body_from_env.is_empty() {
        let hit = s.body.iter().any(|b| match b {
            BodySource::Env(n) => name_matches(&t.body_from_env, n),
            // Every variable, so every name the test lists.
            BodySource::Environment => true,
            _ => false,
        });
        if !hit {
            return Some(false);
        }
    }
    Some(true)
}

/// The destination of a sweep over a local network (`ping -c1 192.168.1.$i`): when the only
/// part of the command known at run time is the last numbers of an IPv4 address whose fixed
/// first numbers are in a private or loopback range (10/8, 172.16/12, 192.168/16, 127/8),
/// the address is in that range whatever the numbers are; it stands for the address with
/// them set to 0. A computed name (labels after the variable, a substitution) is none.
fn lan_sweep_endpoint(command: &str) -> Option<Endpoint> {
    if command.matches('$').count() != 1 || command.contains(['`', '(']) {
        return None;
    }
    let word = command.split_whitespace().find(|w| w.contains('$'))?;
    let word = word.trim_matches(|c| c == '"' || c == '\'');
    let (fixed, var) = word.split_once(".$")?;
    let var = var
        .strip_prefix('{')
        .and_then(|v| v.strip_suffix('}'))
        .unwrap_or(var);
    if var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let octets: Vec<u8> = fixed
        .split('.')
        .map(str::parse::<u8>)
        .collect::<Result<_, _>>()
        .ok()?;
    let private = match octets.as_slice() {
        [10, ..] | [127, ..] => true,
        [192, 168, ..] => true,
        [172, b, ..] => (16..=31).contains(b),
        _ => false,
    };
    if !private || octets.len() > 3 {
        return None;
    }
    let mut full = octets.iter().map(u8::to_string).collect::<Vec<_>>();
    while full.len() < 4 {
        full.push("0".into());
    }
    crate::effects::url::parse(&full.join("."))
}

#[cfg(test)]
mod tests {
    use super::lan_sweep_endpoint;

    #[test]
    fn a_sweep_of_a_private_subnet_has_a_private_destination() {
        let class = |c: &str| lan_sweep_endpoint(c).map(|e| e.class().name());
        assert_eq!(class("ping -c1 -W1 192.168.1.$i"), Some("private"));
        assert_eq!(class("ping -c 1 10.0.0.${h}"), Some("private"));
        assert_eq!(class("nc -z -w1 172.20.$n"), Some("private"));
        assert_eq!(class("ping 127.0.0.$i"), Some("loopback"));
        // Public prefixes, labels after the variable, other computed parts: unknown.
        assert_eq!(class("ping 8.8.8.$i"), None);
        assert_eq!(class("ping 172.32.0.$i"), None);
        assert_eq!(class("ping 192.168.1.$i.evil.io"), None);
        assert_eq!(class("ping $NET.$i"), None);
        assert_eq!(class("ping 192.168.1.$(cat x)"), None);
        assert_eq!(class("ping -c $N 192.168.1.$i"), None);
    }
}
