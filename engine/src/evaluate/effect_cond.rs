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

use super::shell_cond::{Folders, GlobCache, Judgement, Placement, eval_shell};
use crate::compile::pred::EffectGlobs;
use crate::effects::{BodySource, Effect, EffectKind, Effects, Endpoint, Gone, Lens, What};
use crate::memory::SessionMemory;
use crate::policy::EffectTest;
use crate::shell::ShellAnalysis;
use crate::shell_env::ShellEnv;

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
    /// The session memory the call is judged in (`None`: empty).
    pub(crate) memory: Option<&'a SessionMemory>,
    pub(crate) payload: &'a Value,
    /// The payload's `cwd` and project folder.
    pub(crate) folders: &'a Folders<'a>,
    pub(crate) cache: &'a GlobCache,
    /// Every program the call runs (all lenses) as one analysis, built once per call by
    /// [`runs_analysis`]; `None`: build it here.
    pub(crate) runs: Option<&'a ShellAnalysis>,
}

/// Whether wrapper `w` of a route (`sudo`, `bash -c`, `xargs`) matches one of the `via`
/// globs, by its whole text or its program name (`bash` matches `bash -c`).
fn via_matches(globs: &[String], w: &str) -> bool {
    let program = w.split_whitespace().next().unwrap_or(w);
    name_matches(globs, w) || name_matches(globs, program)
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
    // The same for a page taken in from the network earlier (prompt injection).
    if t.earlier_fetch && !cx.memory.is_some_and(SessionMemory::has_fetched) {
        return Judgement::No;
    }
    let payload_cwd = cx.folders.project.as_deref();
    let lens_ok = |e: &Effect| {
        (t.lenses.is_empty() || t.lenses.iter().any(|l| l == lens_name(e.route.lens)))
            && (t.via.is_empty() || e.route.via.iter().any(|w| via_matches(&t.via, w)))
    };
    if t.kind == EffectKind::Run {
        // The shell-aware constraints, over every program the call runs (any route).
        let built;
        let a = match cx.runs.filter(|_| t.lenses.is_empty() && t.via.is_empty()) {
            Some(a) => a,
            None => {
                built = runs_analysis(fx, lens_ok);
                &built
            }
        };
        return match eval_shell(&t.shell, &globs.path, a, cx.env, cx.folders, cx.cache) {
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
        // What the reason adds to the effect: the listed name a package resembles.
        let mut note: Option<String> = None;
        let verdict = match &e.what {
            What::Read(p) | What::Load(p) => path_ok(
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
            What::Delete {
                path, recursive, ..
            }
            | What::ChangePermission {
                path, recursive, ..
            } => {
                let mode = match &e.what {
                    What::ChangePermission { mode, .. } => mode.as_deref(),
                    _ => None,
                };
                // Every file below a root (`ROOT/**/*`, a walk whose each file is deleted):
                // the root, recursively.
                let tree = matches!(e.what, What::Delete { .. })
                    .then(|| whole_tree(&path.text))
                    .flatten();
                let recursive = &(*recursive || tree.is_some());
                let text = tree.unwrap_or(&path.text);
                let gone = match &e.what {
                    What::Delete { gone, .. } => Some(*gone),
                    _ => None,
                };
                // A move keeps the files under a new name (`moved = false` leaves it out); a
                // delete of only what the same line made touches nothing that was there, so
                // no place holds it.
                let moved = gone == Some(Gone::Moved);
                if t.moved.is_some_and(|m| m != moved)
                    || (has_path_test && gone == Some(Gone::MadeOnLine))
                    || t.recursive.is_some_and(|r| r != *recursive)
                    || t.tightens.is_some_and(|want| {
                        want != mode.is_some_and(crate::effects::grants::tightens)
                    })
                    || (!t.modes.is_empty() && !mode.is_some_and(|m| name_matches(&t.modes, m)))
                {
                    Some(false)
                } else {
                    path_ok(
                        has_path_test,
                        &place,
                        text,
                        path.dynamic,
                        path.cwd.as_deref(),
                    )
                }
            }
            What::Send(s) => send_ok(t, globs, s, e.route.command.as_deref(), &place, cx),
            What::Signal {
                targets,
                by_pattern,
                ..
            } if t.by_pattern.is_none_or(|b| b == *by_pattern) => {
                let named = targets.iter().any(|a| {
                    !a.dynamic
                        && (name_matches(&t.targets, &a.text)
                            || (*by_pattern && pattern_selects(&a.text, &t.targets)))
                });
                // Asked about patterns only, the computed targets are what the line's
                // patterns look up (`kill $(pgrep -f vite)`): judged by those patterns.
                let looked_up = t.by_pattern == Some(true) && targets.iter().any(|a| !a.dynamic);
                if t.targets.is_empty() || named {
                    Some(true)
                } else if !looked_up && targets.iter().any(|a| a.dynamic) {
                    None
                } else {
                    Some(false)
                }
            }
            What::Install {
                manager,
                source,
                packages,
            } => {
                let other_manager =
                    !t.managers.is_empty() && !t.managers.iter().any(|m| m == manager);
                if !t.near_names.is_empty() {
                    note = packages.iter().filter(|p| !p.dynamic).find_map(|p| {
                        near_name(&t.near_names, &p.text)
                            .map(|n| format!("`{}` is one typo from `{n}`", p.text))
                    });
                }
                let no_near_name = !t.near_names.is_empty() && note.is_none();
                if other_manager || no_near_name {
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
            What::Destroy {
                cli,
                service,
                operation,
                ..
            } => Some(
                (t.clis.is_empty() || name_matches(&t.clis, cli))
                    && (t.services.is_empty() || name_matches(&t.services, service))
                    && (t.operations.is_empty() || name_matches(&t.operations, operation)),
            ),
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
            What::Grant(g) => {
                if !t.grants.is_empty() && !t.grants.iter().any(|k| k == g.kind.name()) {
                    Some(false)
                } else {
                    match &g.path {
                        Some(p) => {
                            path_ok(has_path_test, &place, &p.text, p.dynamic, p.cwd.as_deref())
                        }
                        None => Some(!has_path_test),
                    }
                }
            }
            What::Signal { .. } | What::Run(_) | What::Unsure(_) => Some(false),
        };
        match verdict {
            Some(true) => {
                return Judgement::Yes(match note {
                    Some(n) => format!("{e} ({n})"),
                    None => e.to_string(),
                });
            }
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

/// The one of `names` that package spec `spec` (`reqeusts==2.0`, `lodahs@4`, `Flask[async]`)
/// is one edit away from (insertion, deletion, substitution or a swap of two neighbours),
/// when it names none of them. Names are compared as the registries compare them: lower
/// case, `_` and `.` as `-`; a version, extras or a tag are not part of the name. Names of
/// four letters or fewer are not compared (too many real packages are one letter apart).
fn near_name<'n>(names: &'n [String], spec: &str) -> Option<&'n str> {
    let spec = spec.trim();
    // A scoped npm name keeps its `@scope/`; a version follows the last `@` after it.
    let (scope, rest) = match spec.strip_prefix('@') {
        Some(r) => match r.split_once('/') {
            Some((s, n)) => (format!("@{s}/"), n),
            None => (String::new(), spec),
        },
        None => (String::new(), spec),
    };
    let end = rest
        .find(['=', '<', '>', '~', '!', '[', '@', ';', ' ', ','])
        .unwrap_or(rest.len());
    let bare = &rest[..end];
    if bare.is_empty() || bare.contains(['/', ':']) {
        return None;
    }
    let norm = |s: &str| s.to_lowercase().replace(['_', '.'], "-");
    let name = format!("{scope}{}", norm(bare));
    if name.chars().count() <= 4 || names.iter().any(|n| norm(n) == name) {
        return None;
    }
    names
        .iter()
        .find(|n| strsim::osa_distance(&norm(n), &name) == 1)
        .map(String::as_str)
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

/// Whether regular expression `pattern` (pkill's, pgrep's, a grep's) selects a process named
/// by one of the glob `names`: tried against each glob's literal part (`*seamguard*` →
/// `seamguard`), without regard to case. A pattern that is no regular expression selects
/// nothing more than its text names.
fn pattern_selects(pattern: &str, names: &[String]) -> bool {
    let Ok(re) = regex::RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(1 << 20)
        .build()
    else {
        return false;
    };
    names.iter().any(|g| {
        let literal: String = g.chars().filter(|c| !matches!(c, '*' | '?')).collect();
        !literal.is_empty() && re.is_match(&literal)
    })
}

/// `earlier_read_inside`: whether the session read, in an earlier call, a path inside one of
/// the specs and outside every `earlier_read_outside` spec (the session memory in effect;
/// none: nothing was read).
fn earlier_read(t: &EffectTest, globs: &EffectGlobs, cx: &EffectContext<'_>) -> bool {
    let Some(m) = cx.memory else {
        return false;
    };
    let from_place = Placement {
        inside: &t.earlier_read_inside,
        outside: &t.earlier_read_outside,
        globs: &globs.earlier,
        env: cx.env,
        payload_cwd: cx.folders.cwd,
        cache: cx.cache,
    };
    m.reads()
        .any(|p| from_place.holds(p, false, None) == Some(true))
}

/// The root of a path that names every file below it (`./**/*`, `src/**`, `**/*`): what
/// `rm **/*` with globstar, `Path('.').rglob('*')` or `os.walk('.')` with each file
/// removed reach. A narrower last part (`build/**/*.pyc`) is not the whole tree.
fn whole_tree(path: &str) -> Option<&str> {
    let root = ["/**/*", "/**"]
        .iter()
        .find_map(|tail| path.strip_suffix(tail))
        .or_else(|| matches!(path, "**/*" | "**").then_some("."))?;
    Some(if root.is_empty() { "/" } else { root })
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
    // A request whose method is not one of the test's, or that has none (a copy to a
    // bucket, a socket), does not match, wherever it goes.
    if !t.method.is_empty() && !s.method.as_ref().is_some_and(|m| t.method.contains(m)) {
        return Some(false);
    }
    let swept = if s.endpoint.is_none() && s.dynamic {
        lan_sweep(s.url.as_deref(), command, cx.payload)
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

/// The destination of a sweep over a local network, for a request whose destination is only
/// known at run time: `curl http://192.168.1.$ip/status` or `ping -c1 10.0.0.$i` inside
/// `for ip in $(seq 1 254); do …; done`.
///
/// The destination is the request's URL (`url`) when it has one, else the one word of the
/// simple command (`command`) that holds a variable. It is a sweep when its host is fixed
/// first numbers of an IPv4 address in a private or loopback range followed by one variable
/// ([`sweep_host`]), and that variable is bound on the line (`payload`'s command) only by a
/// loop over numbers ([`numeric_loop_variable`]): the address is then in that range whatever
/// the numbers are, and no data is carried in it. Link-local `169.254/16` is never one (the
/// cloud metadata addresses are in it), nor is a variable set any other way (its value could
/// be `1.evil.io`, a name).
fn lan_sweep(url: Option<&str>, command: Option<&str>, payload: &Value) -> Option<Endpoint> {
    let (ep, var) = match url {
        Some(u) => sweep_host(url_host(u)?)?,
        None => lan_sweep_endpoint(command?)?,
    };
    let line = input_line(payload)?;
    numeric_loop_variable(line, &var).then_some(ep)
}

/// The command line of a call's input (`tool_input.command`, Codex `cmd`: a string, or the
/// last word of an argv array).
fn input_line(payload: &Value) -> Option<&str> {
    let input = payload.get("tool_input")?;
    let v = input.get("command").or_else(|| input.get("cmd"))?;
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.last().and_then(Value::as_str),
        _ => None,
    }
}

/// The host of a URL as written (`http://192.168.1.$ip:8080/x` → `192.168.1.$ip`): after the
/// scheme, before the path, query, fragment or a numeric port. `None` with user-info (`@`) or
/// a port that is not a number.
fn url_host(url: &str) -> Option<&str> {
    let url = url.trim_matches(|c| c == '"' || c == '\'');
    let rest = match url.split_once("://") {
        Some((scheme, rest))
            if !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')) =>
        {
            rest
        }
        Some(_) => return None,
        None => url,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.contains('@') {
        return None;
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => {
            Some(host)
        }
        Some(_) => None,
        None => Some(authority),
    }
}

/// The destination of a sweep in one simple command (`ping -c1 192.168.1.$i`): the command
/// holds one variable and no substitution, in the word of the address ([`sweep_host`]).
fn lan_sweep_endpoint(command: &str) -> Option<(Endpoint, String)> {
    if command.matches('$').count() != 1 || command.contains(['`', '(']) {
        return None;
    }
    let word = command.split_whitespace().find(|w| w.contains('$'))?;
    sweep_host(word.trim_matches(|c| c == '"' || c == '\''))
}

/// A host written as the first numbers of an IPv4 address in a private or loopback range
/// (10/8, 172.16/12, 192.168/16, 127/8) followed by one variable for the rest
/// (`192.168.1.$ip`, `10.0.${h}`): the address with the computed numbers set to 0 (it has the
/// class of every address it can be) and the variable's name. Anything else (a public
/// prefix, labels after the variable, a second variable) is none.
fn sweep_host(host: &str) -> Option<(Endpoint, String)> {
    let (fixed, var) = host.split_once(".$")?;
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
    Some((
        crate::effects::url::parse(&full.join("."))?,
        var.to_string(),
    ))
}

/// Whether `var` is bound on `line` only by a loop over numbers: `for var in $(seq 1 254)`,
/// `for var in {1..20}`, `for var in 1 2 3`, or `for ((var = 1; …; …))`; and nowhere
/// assigned (`var=…`, `read var`, a second `for var in` over anything else).
fn numeric_loop_variable(line: &str, var: &str) -> bool {
    let v = regex::escape(var);
    let numeric = format!(
        r"\bfor\s+{v}\s+in\s+(\$\(\s*seq(\s+-?\d+){{1,3}}\s*\)|\{{-?\d+\.\.-?\d+(\.\.-?\d+)?\}}|-?\d+(\s+-?\d+)*)\s*(;|\n)\s*do\b|\bfor\s*\(\(\s*{v}\s*=\s*-?\d+\s*;"
    );
    let any_for = format!(r"\bfor\s+{v}\s+in\b|\bfor\s*\(\(\s*{v}\s*=");
    let assigned = format!(r"(^|[\s;&|(]){v}\+?=|\bread\b[^;&|\n]*\s{v}\b|\blet\s+[\x22\x27]?{v}");
    let count = |p: &str| regex::Regex::new(p).map(|r| r.find_iter(line).count());
    match (count(&numeric), count(&any_for), count(&assigned)) {
        (Ok(n), Ok(all), Ok(0)) => n > 0 && n == all,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{
        lan_sweep, lan_sweep_endpoint, near_name, numeric_loop_variable, url_host, whole_tree,
    };
    use serde_json::json;

    #[test]
    fn every_file_below_a_root_is_the_root_deleted_recursively() {
        assert_eq!(whole_tree("./**/*"), Some("."));
        assert_eq!(whole_tree("**/*"), Some("."));
        assert_eq!(whole_tree("~/**"), Some("~"));
        assert_eq!(whole_tree("/**/*"), Some("/"));
        assert_eq!(whole_tree("build/**/*.pyc"), None);
        assert_eq!(whole_tree("src/*"), None);
        assert_eq!(whole_tree("a.txt"), None);
    }

    #[test]
    fn a_package_one_edit_from_a_listed_name_is_near_it() {
        let names: Vec<String> = [
            "requests",
            "lodash",
            "python-dateutil",
            "@babel/core",
            "@types/node",
        ]
        .map(String::from)
        .to_vec();
        // Each kind of edit, with a version, extras or a tag after the name: the listed name
        // it resembles.
        for (typo, listed) in [
            ("reqeusts", "requests"),
            ("requets==2.31", "requests"),
            ("lodahs@4", "lodash"),
            ("requestss[socks]", "requests"),
            ("rrequests", "requests"),
            ("@babel/coer@7", "@babel/core"),
        ] {
            assert_eq!(near_name(&names, typo), Some(listed), "{typo}");
        }
        assert_eq!(near_name(&names, "@babel/cor"), Some("@babel/core"));
        // A scoped name with the typo in its scope.
        assert_eq!(near_name(&names, "@tyeps/node"), Some("@types/node"));
        // The names themselves as the registries spell them, other names, short names,
        // paths and URLs.
        for other in [
            "requests",
            "Requests>=2",
            "python_dateutil",
            "Python.Dateutil",
            "lodash-es",
            "flask",
            "reqs",
            "./requests",
            "git+https://h/reqeusts",
        ] {
            assert_eq!(near_name(&names, other), None, "{other}");
        }
    }

    #[test]
    fn a_sweep_of_a_private_subnet_has_a_private_destination() {
        let class = |c: &str| lan_sweep_endpoint(c).map(|(e, _)| e.class().name());
        assert_eq!(class("ping -c1 -W1 192.168.1.$i"), Some("private"));
        assert_eq!(class("ping -c 1 10.0.0.${h}"), Some("private"));
        assert_eq!(class("nc -z -w1 172.20.$n"), Some("private"));
        assert_eq!(class("ping 127.0.0.$i"), Some("loopback"));
        // Public prefixes, labels after the variable, other computed parts: unknown.
        assert_eq!(class("ping 8.8.8.$i"), None);
        assert_eq!(class("ping 172.32.0.$i"), None);
        assert_eq!(class("ping 169.254.169.$i"), None);
        assert_eq!(class("ping 192.168.1.$i.evil.io"), None);
        assert_eq!(class("ping $NET.$i"), None);
        assert_eq!(class("ping 192.168.1.$(cat x)"), None);
        assert_eq!(class("ping -c $N 192.168.1.$i"), None);
    }

    #[test]
    fn the_host_of_a_url_as_written() {
        assert_eq!(
            url_host("http://192.168.1.$ip/sensor/temperature"),
            Some("192.168.1.$ip")
        );
        assert_eq!(
            url_host("\"http://10.0.0.$i:8080/x?y=1\""),
            Some("10.0.0.$i")
        );
        assert_eq!(url_host("192.168.7.$h/status"), Some("192.168.7.$h"));
        // User-info and computed ports hide where it goes.
        assert_eq!(url_host("http://192.168.1.$i@evil.io/"), None);
        assert_eq!(url_host("http://192.168.1.$i:$PORT/"), None);
    }

    #[test]
    fn only_a_loop_over_numbers_binds_a_sweep_variable() {
        assert!(numeric_loop_variable(
            "for ip in $(seq 1 254); do curl -s http://192.168.1.$ip/ & done",
            "ip"
        ));
        assert!(numeric_loop_variable(
            "for i in $(seq 2 254); do (ping -c1 10.0.0.$i) & done; wait",
            "i"
        ));
        assert!(numeric_loop_variable(
            "for h in {1..20}; do ping -c 1 10.0.0.$h; done",
            "h"
        ));
        assert!(numeric_loop_variable(
            "for n in 1 2 3\ndo nc -z 172.20.0.$n 22; done",
            "n"
        ));
        assert!(numeric_loop_variable(
            "for ((i = 1; i < 255; i++)); do ping -c1 192.168.1.$i; done",
            "i"
        ));
        // Bound from data, assigned, read, or bound twice: no sweep.
        assert!(!numeric_loop_variable(
            "for w in $(cat hosts.txt); do curl http://10.0.0.$w/; done",
            "w"
        ));
        assert!(!numeric_loop_variable(
            "for i in $(seq 1 3 | sed s/1/x/); do ping 10.0.0.$i; done",
            "i"
        ));
        assert!(!numeric_loop_variable(
            "for i in 1 2; do i=$(cat f); curl http://10.0.0.$i/; done",
            "i"
        ));
        assert!(!numeric_loop_variable(
            "read i; curl http://10.0.0.$i/",
            "i"
        ));
        assert!(!numeric_loop_variable(
            "for i in 1 2; do :; done; for i in $(cat f); do ping 10.0.0.$i; done",
            "i"
        ));
        assert!(!numeric_loop_variable(
            "curl http://192.168.1.$OCTET/",
            "OCTET"
        ));
    }

    #[test]
    fn a_request_is_a_lan_sweep_only_inside_a_loop_over_numbers() {
        let line = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}});
        let class =
            |url: &str, c: &str| lan_sweep(Some(url), None, &line(c)).map(|e| e.class().name());
        let sweep = "for ip in $(seq 1 254); do curl -s http://192.168.1.$ip/status & done";
        assert_eq!(class("http://192.168.1.$ip/status", sweep), Some("private"));
        assert_eq!(
            class(
                "http://10.1.$ip/x",
                "for ip in {1..9}; do curl http://10.1.$ip/x; done"
            ),
            Some("private")
        );
        // The metadata range, a public prefix, a variable from elsewhere: no sweep.
        assert_eq!(
            class(
                "http://169.254.169.$i/",
                "for i in $(seq 250 255); do curl http://169.254.169.$i/; done"
            ),
            None
        );
        assert_eq!(class("http://8.8.8.$ip/", sweep), None);
        assert_eq!(
            class(
                "http://192.168.1.$ip/",
                "ip=$(cat f); curl http://192.168.1.$ip/"
            ),
            None
        );
        // Codex's argv form.
        let codex = json!({"tool_input": {"cmd": ["bash", "-lc", sweep]}});
        assert_eq!(
            lan_sweep(Some("http://192.168.1.$ip/status"), None, &codex).map(|e| e.class().name()),
            Some("private")
        );
    }
}
