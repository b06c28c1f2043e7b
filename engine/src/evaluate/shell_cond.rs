//! Shell-aware tests: one `program` / `flags_*` / `args_any` / `path_*` / `push_*` test
//! against the simple commands the shell analyser found in a command line.
//!
//! In: a [`ShellTest`], its path globs, the [`ShellAnalysis`] of the field. Out: [`Judgement`]:
//! held (with the simple command that made it hold), did not hold, or undecidable (why).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use crate::compile::globs::{GlobList, PathGlobs};
use crate::policy::{PathSpec, ShellTest};
use crate::shell::ShellAnalysis;
use crate::shell::operands::{
    GIT_PUSH_ALL_REFS_FLAGS, GIT_PUSH_DELETE_FLAGS, GIT_PUSH_FORCE_FLAGS, GIT_PUSH_UNLEASED_FLAGS,
    cmd_flags, operands, positionals,
};
use crate::shell_env::ShellEnv;

/// Three-valued result of a shell test.
pub(crate) enum Judgement {
    Yes(String),
    No,
    Unknown(String),
}

/// Glob operands expanded on disk during one evaluation, by (operand, working directory):
/// every rule with a path test sees the same expansion, read from the file system once.
pub(crate) type GlobCache = RefCell<HashMap<(String, Option<String>), Rc<Vec<String>>>>;

/// Whether `path` is in one of `specs` (`project`, `home`, or one of the globs).
fn path_in(
    specs: &[PathSpec],
    globs: &GlobList,
    path: &str,
    env: &ShellEnv,
    cwd: Option<&str>,
) -> bool {
    // The project folder and `path` relative to it (`""` for the folder itself), worked out
    // once for every project spec.
    let in_project = std::cell::OnceCell::new();
    let project = || {
        in_project.get_or_init(|| {
            let root = env
                .project
                .as_deref()
                .or(cwd)
                .and_then(|r| crate::paths::normalize(r, None, &env.home));
            let rel = root
                .as_deref()
                .and_then(|r| crate::paths::relative_to(path, r));
            (root, rel)
        })
    };
    let rel = || project().1.as_deref();
    specs.iter().any(|spec| match spec {
        PathSpec::Project => rel().is_some(),
        // The folder itself or one that holds it: deleting either loses the project.
        PathSpec::ProjectRoot => {
            rel() == Some("")
                || project()
                    .0
                    .as_deref()
                    .is_some_and(|root| crate::paths::is_inside(root, path))
        }
        PathSpec::InProject(g) => rel().is_some_and(|rel| {
            let g = crate::paths::fold(g);
            // `…` stands for any folders below, none included (`find . -name .git` finds
            // `./.git`): `…/.git` is also `.git`.
            !rel.is_empty()
                && (fast_glob::glob_match(&g, rel)
                    || (rel.contains('…') && fast_glob::glob_match(&g, rel.replace("…/", ""))))
        }),
        PathSpec::Home => crate::paths::normalize(&env.home, None, &env.home)
            .is_some_and(|h| crate::paths::is_inside(path, &h)),
        // One of seamguard's files, inside one of its folders, or the folder that holds one
        // (`rm -rf /srv/policies` removes the policies in it).
        PathSpec::Guard => env.guard.iter().any(|g| {
            crate::paths::normalize(g, None, &env.home).is_some_and(|g| {
                crate::paths::is_inside(path, &g)
                    || g.rsplit_once('/').is_some_and(|(folder, _)| {
                        !folder.is_empty() && crate::paths::fold(folder) == crate::paths::fold(path)
                    })
            })
        }),
        PathSpec::Glob(_) => false,
    }) || globs.is_match(path)
}

/// Where a path must (not) be: a test's `path_inside` / `path_outside` with their globs, and
/// what resolving a path needs.
pub(crate) struct Placement<'a> {
    pub(crate) inside: &'a [PathSpec],
    pub(crate) outside: &'a [PathSpec],
    pub(crate) globs: &'a PathGlobs,
    pub(crate) env: &'a ShellEnv,
    pub(crate) payload_cwd: Option<&'a str>,
    pub(crate) cache: &'a GlobCache,
}

impl Placement<'_> {
    /// Whether path `text` (relative to `cwd`) is inside `inside` and outside `outside`;
    /// `None` when that cannot be told (only known at run time, or relative with no
    /// working directory against `project` / `home`).
    pub(crate) fn holds(&self, text: &str, dynamic: bool, cwd: Option<&str>) -> Option<bool> {
        if dynamic && text == crate::shell::PROCSUB {
            // `source <(…)`, `diff <(a) <(b)`: the path is the pipe bash opens (what the
            // substitution itself reads or runs is judged on its own).
            return self.holds("/dev/fd/63", false, None);
        }
        if dynamic {
            // `strings $(command -v codex)`, `ls $(go env GOPATH)/bin`: a path whose computed
            // part is a locator is judged as a path of its kind.
            return crate::shell::locators::representative(text, self.payload_cwd)
                .and_then(|p| self.holds(&p, false, cwd));
        }
        // A last component that is only a wildcard (`dir/*`, `~/*`, `*`) names everything in
        // the folder: it is judged as the folder (`rm -rf /tmp/*` empties /tmp).
        let (parent, last) = text.rsplit_once('/').unwrap_or(("", text));
        if !last.is_empty() && last.chars().all(|c| matches!(c, '*' | '?')) {
            let folder = match (parent, text.contains('/')) {
                (_, false) => ".",
                ("", true) => "/",
                (p, true) => p,
            };
            return self.holds(folder, false, cwd);
        }
        let env = self.env;
        // Whether path `p` passes both `path_inside` and `path_outside` (`base`: the folder
        // that `project` falls back to).
        let placed = |p: &str, base: Option<&str>| {
            (self.inside.is_empty() || path_in(self.inside, &self.globs.inside, p, env, base))
                && (self.outside.is_empty()
                    || !path_in(self.outside, &self.globs.outside, p, env, base))
        };
        // `ROOT/…/NAME`, a file a name listing stands for (`find ~ -name credentials | xargs
        // cat`): inside when a file below ROOT with that name may match an inside glob
        // (`~/.aws/credentials`); outside is judged by the path as written. A root in the
        // project is left to the path as written (`find . -name '*.json'` lists the project's
        // files, not a home's settings folders). (The root is normalised alone: a name with a
        // wildcard is no folder to resolve.)
        if !self.inside.is_empty()
            && let Some((root, name)) = text.split_once("/…/")
            && let Some(root) =
                crate::paths::normalize(if root.is_empty() { "/" } else { root }, cwd, &env.home)
            && !self.in_project(&root)
            && let p = format!("{}/…/{name}", root.trim_end_matches('/'))
            && self.globs.inside.may_hold_found(&p)
            && (self.outside.is_empty()
                || !path_in(self.outside, &self.globs.outside, &p, env, self.payload_cwd))
        {
            return Some(true);
        }
        // A glob names what the shell will expand it to: `cat .en?` reads `.env`.
        let expanded: Option<Rc<Vec<String>>> = text.contains(['*', '?', '[']).then(|| {
            self.cache
                .borrow_mut()
                .entry((text.to_string(), cwd.map(str::to_string)))
                .or_insert_with(|| Rc::new(crate::paths::expand_glob(text, cwd, &env.home)))
                .clone()
        });
        if let Some(expanded) = expanded.filter(|e| !e.is_empty()) {
            // What the pattern names on this disk is what the shell will pass.
            return Some(expanded.iter().any(|p| placed(p, self.payload_cwd)));
        }
        if text.contains(['*', '?', '[']) {
            // A pattern that names nothing on this disk (a replay, a file the call creates)
            // is judged by what it could name: each of its instances built from the names
            // the test itself lists (`~/.ss?/id_*` with
            // `**/.ssh/**` and `**/id_rsa` listed: `~/.ssh/id_rsa`), and its shortest instance
            // (`.env*` → `.env`; `/tmp/*.log` → `/tmp/.log`, a file in /tmp, not /tmp itself).
            let mut any_unknown = false;
            for candidate in glob_instances(text, &self.globs.inside, &self.globs.outside) {
                match crate::paths::normalize(&candidate, cwd, &env.home) {
                    Some(p) if placed(&p, self.payload_cwd) => return Some(true),
                    Some(_) => {}
                    None => any_unknown = true,
                }
            }
            if !any_unknown {
                return Some(false);
            }
        }
        let Some(p) = crate::paths::normalize(text, cwd, &env.home) else {
            // Relative, no working directory: judged by its own components
            // (`paths::unknown_cwd_path`); `project` / `home` stay undecided.
            let p = crate::paths::unknown_cwd_path(text)?;
            // Excepted by a plain glob of `path_outside` (`**/.env.*.example`), it is not
            // placed, wherever the project is.
            if !self.outside.is_empty() && self.globs.outside.is_match(&p) {
                return Some(false);
            }
            if self
                .inside
                .iter()
                .chain(self.outside)
                .any(|s| undecided_without_project(s, &p))
            {
                return None;
            }
            return Some(placed(&p, None));
        };
        Some(placed(&p, self.payload_cwd))
    }
}

impl Placement<'_> {
    /// Whether folder `root` (normalised) is the project folder or inside it; a project that
    /// is the home itself holds no folder here (the home's settings folders are not the
    /// project's files).
    fn in_project(&self, root: &str) -> bool {
        let env = self.env;
        let home = crate::paths::normalize(&env.home, None, &env.home);
        env.project
            .as_deref()
            .or(self.payload_cwd)
            .and_then(|r| crate::paths::normalize(r, None, &env.home))
            .is_some_and(|project| {
                home.as_deref() != Some(project.as_str()) && crate::paths::is_inside(root, &project)
            })
    }
}

/// Whether spec `s` cannot be decided for `path` without the project folder (or the home
/// folder): `project`, `project_root` and `home` never can; a `project/<glob>` only when the
/// path could match the glob below some folder (`README.md` is in no `project/**/.env`).
fn undecided_without_project(s: &PathSpec, path: &str) -> bool {
    match s {
        PathSpec::InProject(g) => {
            let rel = path.trim_start_matches("./").trim_start_matches('/');
            let last = rel.rsplit('/').next().unwrap_or(rel);
            let glob_last = g.rsplit('/').next().unwrap_or(g);
            fast_glob::glob_match(glob_last, last) || glob_last.contains("**")
        }
        s => s.needs_project() || matches!(s, PathSpec::Home | PathSpec::Guard),
    }
}

/// Most instances of one glob pattern tried against a test.
const MAX_GLOB_INSTANCES: usize = 64;

/// Instances of glob pattern `text`: per component with glob characters, the literal names
/// of the test's globs it matches (`.ss?` → `.ssh`), or its shortest instance; the
/// shortest instance of the whole pattern first. At most [`MAX_GLOB_INSTANCES`].
fn glob_instances(text: &str, inside: &GlobList, outside: &GlobList) -> Vec<String> {
    let mut out = vec![shortest_instance(text)];
    let mut partial: Vec<String> = vec![String::new()];
    for (i, comp) in text.split('/').enumerate() {
        let options: Vec<String> = if comp.contains(['*', '?', '[']) {
            let pattern = if inside.folds() {
                comp.to_lowercase()
            } else {
                comp.to_string()
            };
            // Only a component with a literal part names something (`id_*`, `.ss?`); a bare
            // `*` could be anything and is judged by what is on disk. As in the shell, a
            // pattern matches a leading dot only when it starts with one.
            let literal = comp.chars().any(|c| !matches!(c, '*' | '?' | '[' | ']'));
            let mut o: Vec<String> = inside
                .literal_names()
                .chain(outside.literal_names())
                .filter(|name| literal && (!name.starts_with('.') || comp.starts_with('.')))
                .filter(|name| fast_glob::glob_match(&pattern, name))
                .map(str::to_string)
                .collect();
            o.sort();
            o.dedup();
            o.push(shortest_instance(comp));
            o
        } else {
            vec![comp.to_string()]
        };
        let mut next = Vec::new();
        'grow: for p in &partial {
            for o in &options {
                next.push(if i == 0 {
                    o.clone()
                } else {
                    format!("{p}/{o}")
                });
                if next.len() >= MAX_GLOB_INSTANCES {
                    break 'grow;
                }
            }
        }
        partial = next;
    }
    out.extend(partial);
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()));
    out
}

/// The shortest path a glob pattern matches: `*` and `**` match nothing, `?` one `x`, a
/// bracket its first member.
fn shortest_instance(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {}
            '?' => out.push('x'),
            '[' => {
                let mut first = None;
                for m in chars.by_ref() {
                    if m == ']' && first.is_some() {
                        break;
                    }
                    if first.is_none() && m != '!' && m != '^' {
                        first = Some(m);
                    }
                }
                out.extend(first);
            }
            _ => out.push(c),
        }
    }
    out.replace("//", "/")
}

pub(crate) fn eval_shell(
    t: &ShellTest,
    globs: &PathGlobs,
    a: &ShellAnalysis,
    env: &ShellEnv,
    folders: &Folders<'_>,
    cache: &GlobCache,
) -> Judgement {
    let payload_cwd = folders.cwd;
    let project = folders.project.as_deref();
    let mut unknown: Option<String> = None;
    for (k, c) in a.commands.iter().enumerate() {
        if c.program.is_empty() && t.programs.is_empty() && t.subcommands.is_empty() {
            // A bare redirection (`> file`): only path tests apply.
        } else if c.program.is_empty() {
            continue;
        }
        let mut maybe: Option<String> = None;
        if !t.programs.is_empty() {
            if c.dynamic_program {
                maybe = Some(format!("cannot tell which program `{}` runs", c.display()));
            } else if !c.is_named_in(
                globs
                    .programs
                    .get_or_init(|| crate::shell::ProgramNames::new(&t.programs)),
            ) {
                continue;
            }
        }
        let pos = positionals(c);
        if !t.subcommands.is_empty() {
            match pos.first() {
                Some(s) if s.dynamic => {
                    maybe = Some(format!("cannot tell the subcommand of `{}`", c.display()))
                }
                Some(s) if t.subcommands.contains(&s.text) => {}
                _ => continue,
            }
        }
        if t.is_push() {
            if c.basename() != "git" {
                continue;
            }
            match pos.first() {
                Some(s) if s.text == "push" => {}
                Some(s) if s.dynamic => {
                    maybe = Some(format!("cannot tell the subcommand of `{}`", c.display()));
                }
                _ => continue,
            }
            let fl = cmd_flags(c);
            let refspecs: Vec<&crate::shell::Arg> = pos.iter().skip(2).copied().collect();
            let force = fl
                .iter()
                .any(|f| GIT_PUSH_FORCE_FLAGS.contains(&f.as_str()))
                || refspecs.iter().any(|r| r.text.starts_with('+'));
            let delete = fl
                .iter()
                .any(|f| GIT_PUSH_DELETE_FLAGS.contains(&f.as_str()))
                || refspecs.iter().any(|r| r.text.starts_with(':'));
            if t.push_force && !force {
                continue;
            }
            // Forced without a lease: `--force`, `-f`, `--mirror` or a `+refspec`.
            let unleased = fl
                .iter()
                .any(|f| GIT_PUSH_UNLEASED_FLAGS.contains(&f.as_str()))
                || refspecs.iter().any(|r| r.text.starts_with('+'));
            if t.push_force_unleased && !unleased {
                continue;
            }
            if t.push_delete && !delete {
                continue;
            }
            if !t.push_to.is_empty() {
                let all_refs = fl
                    .iter()
                    .any(|f| GIT_PUSH_ALL_REFS_FLAGS.contains(&f.as_str()));
                let targets: Vec<Option<String>> = refspecs
                    .iter()
                    .map(|r| {
                        if r.dynamic {
                            return None;
                        }
                        let t = r.text.trim_start_matches('+');
                        let dst = t.rsplit_once(':').map_or(t, |(_, d)| d);
                        let dst = dst.strip_prefix("refs/heads/").unwrap_or(dst);
                        (!dst.is_empty() && dst != "HEAD").then(|| dst.to_string())
                    })
                    .collect();
                let hit = targets.iter().flatten().any(|d| t.push_to.contains(d));
                if !hit {
                    if all_refs || targets.is_empty() || targets.iter().any(Option::is_none) {
                        maybe = Some(format!(
                            "cannot tell which branch `{}` updates (no explicit destination)",
                            c.display()
                        ));
                    } else {
                        continue;
                    }
                }
            }
        }
        if !t.flags_any.is_empty() || !t.flags_all.is_empty() || !t.flags_none.is_empty() {
            let fl = cmd_flags(c);
            let has = |set: &Vec<String>| set.iter().all(|f| fl.contains(f));
            if !t.flags_any.is_empty() && !t.flags_any.iter().any(has) {
                continue;
            }
            if !t.flags_all.iter().all(has) {
                continue;
            }
            if t.flags_none.iter().any(has) {
                continue;
            }
        }
        let operands = operands(c, &pos, !t.subcommands.is_empty());
        if !t.args_any.is_empty() && !operands.iter().any(|o| t.args_any.contains(&o.text)) {
            if operands.iter().any(|o| o.dynamic) {
                maybe = Some(format!(
                    "an argument of `{}` is only known at run time",
                    c.display()
                ));
            } else {
                continue;
            }
        }
        if !t.path_inside.is_empty() || !t.path_outside.is_empty() {
            let cwd = c.cwd.as_deref().or(payload_cwd);
            let mut any_ok = false;
            let mut any_dynamic = false;
            // A redirection into a stream device (`2>/dev/null`, `>/dev/stderr`) names no file
            // the command acts on: `rm -rf build 2>/dev/null` deletes `build` only.
            let files = c
                .redirects
                .iter()
                .filter(|r| r.dynamic || !is_stream_device(&r.text));
            for o in operands.iter().copied().chain(files) {
                if crate::effects::shell::made_on_line(a, k, o, env) {
                    continue;
                }
                let place = Placement {
                    inside: &t.path_inside,
                    outside: &t.path_outside,
                    globs,
                    env,
                    payload_cwd: project,
                    cache,
                };
                match place.holds(&o.text, o.dynamic, cwd) {
                    Some(true) => {
                        any_ok = true;
                        break;
                    }
                    Some(false) => {}
                    None => any_dynamic = true,
                }
            }
            // Without a project directory (no CLAUDE_PROJECT_DIR, no cwd) "inside / outside
            // the project" cannot be decided.
            let project_unknown = env.project.is_none()
                && payload_cwd.is_none()
                && t.path_inside.iter().chain(&t.path_outside).any(|s| {
                    operands
                        .iter()
                        .any(|o| undecided_without_project(s, o.text.as_str()))
                });
            if project_unknown {
                maybe = Some(format!(
                    "no project directory is known for `{}`",
                    c.display()
                ));
            } else if !any_ok {
                if any_dynamic {
                    maybe = Some(format!(
                        "a path of `{}` is only known at run time",
                        c.display()
                    ));
                } else {
                    continue;
                }
            }
        }
        match maybe {
            None => return Judgement::Yes(c.display()),
            Some(m) => {
                if unknown.is_none() {
                    unknown = Some(m);
                }
            }
        }
    }
    if let Some(u) = unknown {
        return Judgement::Unknown(u);
    }
    if let Some(u) = &a.unsure {
        return Judgement::Unknown(u.clone());
    }
    Judgement::No
}

/// Whether a redirection target is a stream device rather than a file: `/dev/null`,
/// `/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/tty`, `/dev/fd/N`.
fn is_stream_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/stdin" | "/dev/tty" | "/dev/zero"
    ) || path
        .strip_prefix("/dev/fd/")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The folders a call's paths are placed against: the payload's `cwd` and the project folder
/// ([`project_base`]). Read from the payload once per evaluation and handed to every shell
/// and effect test, so a test's answer depends only on what it is given.
pub(crate) struct Folders<'a> {
    /// The payload's `cwd`.
    pub(crate) cwd: Option<&'a str>,
    /// The project folder when no project directory is configured ([`project_base`]).
    pub(crate) project: Option<String>,
}

impl<'a> Folders<'a> {
    /// The folders of `payload`.
    pub(crate) fn of(payload: &'a Value) -> Folders<'a> {
        Folders {
            cwd: payload.get("cwd").and_then(Value::as_str),
            project: project_base(payload),
        }
    }
}

/// The folder "the project" means for a payload when no project directory is configured:
/// the session's project folder, not the folder the agent `cd`-ed into since. Claude Code
/// keeps a session's transcript under `~/.claude/projects/<project folder, each character
/// that is not a letter or digit written as '-'>/`: the payload's `cwd`, or the closest of
/// its parent folders, whose name encodes to that folder name is the project. Otherwise
/// the `cwd`. Found once per evaluation ([`Folders::of`]).
pub(crate) fn project_base(payload: &Value) -> Option<String> {
    let cwd = payload.get("cwd").and_then(Value::as_str)?;
    let transcript = payload.get("transcript_path").and_then(Value::as_str);
    Some(find_project(cwd, transcript))
}

/// [`project_base`] of a `cwd` and a transcript path.
fn find_project(cwd: &str, transcript: Option<&str>) -> String {
    let encode = |c: char| if c.is_alphanumeric() { c } else { '-' };
    let folder = transcript.and_then(|t| {
        let mut parts = t.rsplit(['/', '\\']);
        let _file = parts.next()?;
        let dir = parts.next()?;
        (parts.next() == Some("projects")).then_some(dir)
    });
    if let Some(folder) = folder {
        let mut at = cwd.trim_end_matches('/');
        while !at.is_empty() {
            if at.chars().map(encode).eq(folder.chars().map(encode)) {
                return at.to_string();
            }
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => break,
            }
        }
    }
    cwd.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PathSpec;

    #[test]
    fn a_pattern_is_tried_with_the_names_the_test_lists() {
        let specs = [
            PathSpec::Glob("**/.ssh/**".into()),
            PathSpec::Glob("**/id_rsa".into()),
            PathSpec::Glob("**/.env".into()),
        ];
        let inside = GlobList::build(&specs, "/home/u", true);
        let none = GlobList::default();
        assert_eq!(
            glob_instances("~/.ss?/id_*", &inside, &none),
            ["~/.ssx/id_", "~/.ssh/id_rsa", "~/.ssh/id_", "~/.ssx/id_rsa"]
        );
        // A bare wildcard names nothing in particular, and does not match a leading dot.
        assert_eq!(glob_instances("src/*", &inside, &none), ["src/"]);
        assert_eq!(glob_instances("./.e*", &inside, &none), ["./.e", "./.env"]);
    }
}

#[cfg(test)]
mod project_tests {
    use super::project_base;
    use serde_json::json;

    #[test]
    fn the_project_is_the_session_folder_not_the_folder_cd_moved_to() {
        let p = |cwd: &str, t: &str| project_base(&json!({"cwd": cwd, "transcript_path": t}));
        let t = "/home/u/.claude/projects/-home-u-my-app/0b1.jsonl";
        assert_eq!(
            p("/home/u/my_app/build", t).as_deref(),
            Some("/home/u/my_app")
        );
        assert_eq!(
            p(
                "/home/u/my.app/a/b",
                "/h/.claude/projects/-home-u-my-app/s.jsonl"
            )
            .as_deref(),
            Some("/home/u/my.app")
        );
        assert_eq!(p("/home/u/my_app", t).as_deref(), Some("/home/u/my_app"));
        // A folder that is no parent of the cwd, or no transcript: the cwd.
        assert_eq!(p("/srv/other", t).as_deref(), Some("/srv/other"));
        assert_eq!(
            project_base(&json!({"cwd": "/w/x"})).as_deref(),
            Some("/w/x")
        );
        assert_eq!(p("/w/x", "/tmp/rollout.jsonl").as_deref(), Some("/w/x"));
        assert_eq!(project_base(&json!({})), None);
    }

    #[test]
    fn stream_devices_are_no_files() {
        use super::is_stream_device;
        for d in ["/dev/null", "/dev/stderr", "/dev/fd/2", "/dev/tty"] {
            assert!(is_stream_device(d), "{d}");
        }
        for f in ["/dev/sda", "/dev/fd/", "/dev/fd/x", "build", "/tmp/null"] {
            assert!(!is_stream_device(f), "{f}");
        }
    }
}
