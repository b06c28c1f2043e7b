//! Links made on the line: `ln -s ~ h && rm -rf h/` deletes the files of the home folder, and
//! `ln -s ~/.bashrc rc && echo … >> rc` appends to `~/.bashrc`. A link that exists when the
//! call is judged is resolved on disk ([`crate::paths::normalize`]); one an earlier command of
//! the same line creates does not exist yet, so the effects of the later commands are seen
//! through it here.
//!
//! In: a line's analysis, the index of a command, its effects. Out: each path effect of that
//! command that goes through a link an earlier command made (`ln` with or without `-s`, its
//! documented operand forms: `ln TARGET LINK`, `ln TARGET` into the working directory, `ln
//! T… DIR`, `ln -t DIR T…`) names the link's target instead. Deleting the link itself (`rm h`,
//! no trailing `/`) removes only the link and keeps its name.

use super::out::Out;
use crate::effects::model::{PathRef, What};
use crate::paths::lexical;
use crate::shell::{ShellAnalysis, SimpleCommand};
use crate::shell_env::ShellEnv;

/// A link an earlier command of the line made: where it is and what it points at (both
/// absolute).
struct Link {
    at: String,
    target: String,
}

/// The links `ln` command `m` makes (none for another program, or words only known at run
/// time).
fn links_made(m: &SimpleCommand, env: &ShellEnv) -> Vec<Link> {
    if m.basename() != "ln" || m.dynamic_program {
        return Vec::new();
    }
    let mut symbolic = false;
    let mut no_dereference = false;
    let mut into: Option<String> = None;
    let mut operands: Vec<&str> = Vec::new();
    let mut words = m.args.iter();
    let mut options_end = false;
    while let Some(a) = words.next() {
        if a.dynamic {
            return Vec::new();
        }
        let t = a.text.as_str();
        if options_end || !t.starts_with('-') || t == "-" {
            operands.push(t);
            continue;
        }
        match t {
            "--" => options_end = true,
            "--symbolic" => symbolic = true,
            "--no-dereference" | "--no-target-directory" => no_dereference = true,
            "-t" | "--target-directory" => match words.next() {
                Some(d) if !d.dynamic => into = Some(d.text.clone()),
                _ => return Vec::new(),
            },
            "-S" | "--suffix" => {
                words.next();
            }
            _ if t.starts_with("--target-directory=") => {
                into = t.split_once('=').map(|(_, d)| d.to_string());
            }
            _ if t.starts_with("--") => {}
            _ => {
                let flags = &t[1..];
                symbolic |= flags.contains('s');
                no_dereference |= flags.contains('n') || flags.contains('T');
                if flags.ends_with('t') {
                    match words.next() {
                        Some(d) if !d.dynamic => into = Some(d.text.clone()),
                        _ => return Vec::new(),
                    }
                }
            }
        }
    }
    let cwd = m.cwd.as_deref();
    let abs = |p: &str| lexical(p, cwd, &env.home);
    let base = |p: &str| {
        p.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(p)
            .to_string()
    };
    // Each (target as written, link as written).
    let pairs: Vec<(&str, String)> = match (into.as_deref(), operands.as_slice()) {
        (Some(dir), targets) => targets
            .iter()
            .map(|t| (*t, format!("{}/{}", dir.trim_end_matches('/'), base(t))))
            .collect(),
        (None, [target]) => vec![(*target, base(target))],
        (None, [target, link]) => {
            let is_dir = link.ends_with('/')
                || (!no_dereference
                    && abs(link).is_some_and(|l| std::path::Path::new(&l).is_dir()));
            if is_dir {
                vec![(
                    *target,
                    format!("{}/{}", link.trim_end_matches('/'), base(target)),
                )]
            } else {
                vec![(*target, (*link).to_string())]
            }
        }
        (None, [targets @ .., dir]) => targets
            .iter()
            .map(|t| (*t, format!("{}/{}", dir.trim_end_matches('/'), base(t))))
            .collect(),
        (None, []) => Vec::new(),
    };
    pairs
        .into_iter()
        .filter_map(|(target, link)| {
            let at = abs(&link)?;
            // A symbolic link's relative target is relative to the folder the link is in.
            let target = if symbolic && !target.starts_with(['/', '~']) {
                let folder = at.rsplit_once('/').map_or("/", |(d, _)| d);
                lexical(
                    target,
                    Some(if folder.is_empty() { "/" } else { folder }),
                    &env.home,
                )?
            } else {
                abs(target)?
            };
            Some(Link { at, target })
        })
        .collect()
}

/// `text` split before its first component that holds a glob character: the literal folder
/// and the pattern below it (`h/*` → (`h`, `*`), `h/src/*.rs` → (`h/src`, `*.rs`), `*` →
/// (``, `*`)); the whole text and `None` when no component holds one.
fn split_glob(text: &str) -> (&str, Option<&str>) {
    let mut start = 0;
    for component in text.split('/') {
        if component.contains(['*', '?', '[']) {
            let literal = &text[..start];
            let literal = match literal.trim_end_matches('/') {
                "" if text.starts_with('/') => "/",
                l => l,
            };
            return (literal, Some(&text[start..]));
        }
        start += component.len() + 1;
    }
    (text, None)
}

/// `path` seen through the first of `links` it goes through, if any. A pattern below a link
/// (`rm -rf h/*`) names the files the shell finds through it: the target's, with the pattern
/// kept (`~/*`).
fn through(path: &PathRef, links: &[Link], env: &ShellEnv, is_delete: bool) -> Option<String> {
    if path.dynamic {
        return None;
    }
    let (literal, pattern) = split_glob(&path.text);
    let literal = if literal.is_empty() { "." } else { literal };
    let abs = lexical(literal, path.cwd.as_deref(), &env.home)?;
    let seen = links.iter().rev().find_map(|l| {
        if abs == l.at {
            // `rm h` removes the link; `rm -rf h/`, `rm -rf h/*` and everything else go
            // through it.
            (pattern.is_some() || !is_delete || path.text.ends_with('/')).then(|| l.target.clone())
        } else {
            abs.strip_prefix(&l.at)
                .filter(|rest| rest.starts_with('/'))
                .map(|rest| format!("{}{rest}", l.target.trim_end_matches('/')))
        }
    })?;
    Some(match pattern {
        Some(p) => format!("{}/{p}", seen.trim_end_matches('/')),
        None => seen,
    })
}

/// The links the commands of one line make, collected once for the line: those made before
/// command `k` are what its effects are seen through.
pub(super) struct LineLinks {
    /// Every link made on the line, in the order of the commands making them.
    links: Vec<Link>,
    /// For each command, how many links the commands before it made.
    before: Vec<usize>,
}

impl LineLinks {
    /// The links every command of `a` makes.
    pub(super) fn new(a: &ShellAnalysis, env: &ShellEnv) -> Self {
        let mut links = Vec::new();
        let mut before = Vec::with_capacity(a.commands.len());
        for m in &a.commands {
            before.push(links.len());
            links.extend(links_made(m, env));
        }
        LineLinks { links, before }
    }

    /// Sees the path effects in `out` (those of command `k` of the line) through the links
    /// earlier commands of the line made.
    pub(super) fn see_through(&self, k: usize, env: &ShellEnv, out: &mut Out) {
        let made = self.before.get(k).copied().unwrap_or(self.links.len());
        let links = self.links.get(..made).unwrap_or(&[]);
        if links.is_empty() {
            return;
        }
        for w in &mut out.list {
            let (path, is_delete) = match w {
                What::Read(p) | What::Load(p) => (p, false),
                What::Write { path, .. } | What::ChangePermission { path, .. } => (path, false),
                What::Delete { path, .. } => (path, true),
                _ => continue,
            };
            if let Some(target) = through(path, links, env, is_delete) {
                path.text = target;
            }
        }
    }
}
