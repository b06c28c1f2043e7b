//! Session memory: what the agent did earlier in the same session, for judging a later call.
//!
//! One payload does not show what happened before it: a script the agent wrote in one call
//! and runs in the next, a symlink to a credential file created earlier and read now, a
//! secret read before a request to an unknown host. The memory keeps, per session
//! (`session_id`):
//!
//! - files the agent **wrote** (absolute path; for files that can be run — scripts, shell
//!   start-up files, Makefiles, `package.json`, … — their content, up to [`MAX_CONTENT`]);
//! - **symlinks** it created (`ln -s TARGET LINK`);
//! - paths it **read**;
//! - pages it **fetched**: a reply from a host on the network handed to the agent by a web
//!   or MCP tool (its text may carry instructions: prompt injection).
//! - files and folders it **downloaded**: written by a call that fetched them from a host on
//!   the network (`curl -o`, `wget`, `git clone`'s folder, an MCP download tool), content
//!   unseen; running one in a later call is judged (`effects::scripts`), until the session
//!   writes the file again with visible content.
//!
//! In: the [`Effects`] of each call that was allowed or asked ([`entries_of`]). Out: a
//! [`SessionMemory`] the lenses consult while a later call of the same session is judged:
//! a script run by path is judged by its remembered content too (`effects::scripts`), a read
//! through a remembered symlink is a read of its target (`through_links`), and
//! `when.sends.earlier_read_inside` tests the remembered reads and `earlier_fetch` the
//! remembered pages (taint).
//!
//! The decision path takes the memory as an argument: a [`Request`] to [`Engine::decide`],
//! [`Engine::concerns_in`] and [`effects_in`]. The entry points without it
//! ([`Engine::evaluate`], [`effects_of`], …) judge a call on its own: an empty memory makes
//! every lookup find nothing and cost nothing. [`store::MemoryStore`] keeps it on disk for
//! the hook (one process per call); `replay` keeps it in memory per recorded session.
//!
//! [`Request`]: crate::Request
//! [`Engine::decide`]: crate::Engine::decide
//! [`Engine::concerns_in`]: crate::Engine::concerns_in
//! [`Engine::evaluate`]: crate::Engine::evaluate
//! [`effects_in`]: crate::effects::effects_in
//! [`effects_of`]: crate::effects::effects_of

pub(crate) mod copied;
pub mod store;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::concern::Concern;
use crate::effects::model::{BodySource, Effects, IpClass, Lens, PathRef, Route, What};
use crate::shell_env::ShellEnv;

/// Largest content kept for one written file, in bytes (256 KiB: the bound of a script read
/// from disk). A longer write is remembered by its path only.
pub const MAX_CONTENT: usize = 256 * 1024;

/// One thing the session did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A file was written.
    Wrote {
        /// The absolute path.
        path: String,
        /// What was written, for a file that can be run (bounded); `None` when it is not kept
        /// or was not visible.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// Only part of the file was written (an edit, an append): `content` is a fragment.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        partial: bool,
    },
    /// A file was written with data from another: a copy (`cp`, `mv`, `docker cp`, `cat a >
    /// b`), or data from the process environment (a dump of it, a secret-named variable
    /// expanded into the file). The file holds what its source held from now on, whatever its
    /// name: a copy of a secret is a secret.
    Copied {
        /// The written file, absolute.
        path: String,
        /// Where the data came from, absolute (`/proc/self/environ` for the environment).
        from: String,
    },
    /// A symlink was created.
    Linked {
        /// The link's absolute path.
        link: String,
        /// What it points to, absolute.
        target: String,
    },
    /// A path was read.
    Read {
        /// The absolute path.
        path: String,
    },
    /// A page or another reply from a host on the network was handed to the agent by a web
    /// tool (`WebFetch`, `WebSearch`) or an MCP tool that contacts a host: untrusted text in
    /// the agent's context from now on.
    Fetched {
        /// The URL as written; empty when the call names none (a web search).
        url: String,
    },
    /// A file or folder was written with what a host on the network sent (`curl -o x.sh
    /// URL`, `wget URL`, `git clone URL dir`, an MCP download tool): its content was not seen.
    Downloaded {
        /// The file or folder, absolute.
        path: String,
        /// Where it came from, as written.
        url: String,
    },
    /// A file that can be run was written by the shell with text the call did not show: a
    /// printer of text only known at run time (`printf "$P" > p.sh`) or a decoder's output
    /// (`base64 -d > run.sh`). Running it in a later call runs code nobody has seen.
    Unseen {
        /// The file, absolute.
        path: String,
        /// Why its content was not seen, with the command that wrote it.
        cause: String,
    },
    /// A pre-tool call asked the person (recorded by the hook that answered `ask`).
    Asked {
        /// The host's id of the call (`tool_use_id`).
        call: String,
        /// What it asked about.
        concerns: Vec<Concern>,
        /// When (Unix ms).
        ms: u64,
        /// The normalized call ([`crate::concern::call_key`], compact JSON): a later report
        /// that the call ran must be of the same call.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        key: String,
    },
    /// The person approved the concerns of an ask: the asked call ran (the host reported it
    /// with the same id after the ask), or `seamguard allow` was run for it.
    Approved {
        /// The host's id of the approved call, or the audit record it was approved from.
        call: String,
        /// What was approved.
        concerns: Vec<Concern>,
        /// When the approval was learned (Unix ms).
        ms: u64,
        /// How: `ran` (the host ran the call after the ask) or `allow` (`seamguard allow`).
        by: String,
    },
}

/// An approval the memory holds: the call approved, when, how, and its concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Approval<'m> {
    /// The approved call's id.
    pub call: &'m str,
    /// When it was approved (Unix ms).
    pub ms: u64,
    /// How it was approved (`ran`, `allow`).
    pub by: &'m str,
    /// What was approved.
    pub concerns: &'m [Concern],
}

/// What the session wrote to one file, as the memory holds it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written<'m> {
    /// The last whole content written, when it is known.
    pub whole: Option<&'m str>,
    /// What was written into it since (edits, appends, patch hunks), in order.
    pub fragments: Vec<&'m str>,
    /// Part of what was written is not known (a write whose content was not visible or not
    /// kept).
    pub unknown: bool,
}

/// What one session did, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionMemory {
    entries: Vec<Entry>,
    /// The entries, for "already known" checks.
    known: HashSet<Entry>,
}

impl SessionMemory {
    /// A memory holding `entries` (in the order they happened; repeats are kept once).
    pub fn from_entries(entries: Vec<Entry>) -> SessionMemory {
        let mut m = SessionMemory::default();
        m.remember(entries);
        m
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Add what a call did; returns the entries that were new (the ones to store). A read
    /// or a symlink already known is not added again; a write always is (content changes).
    pub fn remember(&mut self, new: Vec<Entry>) -> Vec<Entry> {
        let mut added = Vec::new();
        for e in new {
            let repeat = self.known.contains(&e);
            if repeat
                && !matches!(
                    e,
                    Entry::Wrote { .. }
                        | Entry::Copied { .. }
                        | Entry::Downloaded { .. }
                        | Entry::Unseen { .. }
                )
            {
                continue;
            }
            if repeat && self.entries.last() == Some(&e) {
                continue;
            }
            self.known.insert(e.clone());
            self.entries.push(e.clone());
            added.push(e);
        }
        added
    }

    /// What the session wrote to the absolute path `abs`, if anything.
    pub fn written(&self, abs: &str) -> Option<Written<'_>> {
        let mut out: Option<Written<'_>> = None;
        for e in &self.entries {
            let Entry::Wrote {
                path,
                content,
                partial,
            } = e
            else {
                continue;
            };
            if path != abs {
                continue;
            }
            let w = out.get_or_insert_with(Written::default);
            match (content, partial) {
                (Some(c), false) => {
                    w.whole = Some(c.as_str());
                    w.fragments.clear();
                    w.unknown = false;
                }
                (None, false) => {
                    w.whole = None;
                    w.fragments.clear();
                    w.unknown = true;
                }
                (Some(c), true) => w.fragments.push(c.as_str()),
                (None, true) => w.unknown = true,
            }
        }
        out
    }

    /// Why the file at `abs` holds text nobody saw, when the session wrote it so
    /// ([`Entry::Unseen`]) and has not written it since with visible content.
    pub fn unseen_cause(&self, abs: &str) -> Option<&str> {
        let mut cause: Option<&str> = None;
        for e in &self.entries {
            match e {
                Entry::Unseen { path, cause: c } if path == abs => cause = Some(c.as_str()),
                Entry::Wrote {
                    path,
                    content: Some(_),
                    partial: false,
                } if path == abs => cause = None,
                _ => {}
            }
        }
        cause
    }

    /// Where the file or folder at `abs` was downloaded from, when the session downloaded it
    /// (or a folder holding it) and has not written it since with visible content: what
    /// runs from it was not seen.
    pub fn downloaded_from(&self, abs: &str) -> Option<&str> {
        let mut from: Option<&str> = None;
        for e in &self.entries {
            match e {
                Entry::Downloaded { path, url }
                    if abs == path
                        || abs
                            .strip_prefix(path.as_str())
                            .is_some_and(|r| r.starts_with('/')) =>
                {
                    from = Some(url.as_str());
                }
                Entry::Wrote {
                    path,
                    content: Some(_),
                    partial: false,
                } if path == abs => from = None,
                _ => {}
            }
        }
        from
    }

    /// The target of the last symlink the session created at `abs`, if any.
    pub fn link_target(&self, abs: &str) -> Option<&str> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Linked { link, target } if link == abs => Some(target.as_str()),
            _ => None,
        })
    }

    /// Where the data of the file at `abs` came from, when the session wrote it as a copy
    /// ([`Entry::Copied`]) and has not replaced the whole file since.
    pub fn copied_from(&self, abs: &str) -> Option<&str> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Copied { path, from } if path == abs => Some(Some(from.as_str())),
            Entry::Wrote {
                path,
                partial: false,
                ..
            } if path == abs => Some(None),
            _ => None,
        })?
    }

    /// Whether the session wrote any file as a copy of another.
    pub fn has_copies(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e, Entry::Copied { .. }))
    }

    /// Whether the session created any symlink.
    pub fn has_links(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e, Entry::Linked { .. }))
    }

    /// The concerns and normalized call of the earlier call with id `call`, if it asked.
    pub fn asked(&self, call: &str) -> Option<(&[Concern], &str)> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Asked {
                call: c,
                concerns,
                key,
                ..
            } if c == call => Some((concerns.as_slice(), key.as_str())),
            _ => None,
        })
    }

    /// Whether the call with id `call` was approved already.
    pub fn approved(&self, call: &str) -> bool {
        self.approvals().any(|a| a.call == call)
    }

    /// The approvals of the session, oldest first.
    pub fn approvals(&self) -> impl Iterator<Item = Approval<'_>> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Approved {
                call,
                concerns,
                ms,
                by,
            } => Some(Approval {
                call,
                ms: *ms,
                by,
                concerns,
            }),
            _ => None,
        })
    }

    /// The approval that answers `asked`: the first one that covers every concern of it on
    /// its own, else, when the approvals together cover them, the latest one that covers
    /// part. `None` when a concern of `asked` is covered by no approval (an empty `asked` is
    /// never covered).
    pub fn approval_covering(&self, asked: &[Concern]) -> Option<Approval<'_>> {
        let all: Vec<Approval<'_>> = self.approvals().collect();
        if let Some(a) = all
            .iter()
            .find(|a| crate::concern::covered_by(asked, a.concerns))
        {
            return Some(*a);
        }
        let every: Vec<Concern> = all
            .iter()
            .flat_map(|a| a.concerns.iter().cloned())
            .collect();
        if crate::concern::covered_by(asked, &every) {
            // Named by the latest approval that covers one of them.
            return all
                .iter()
                .rev()
                .find(|a| {
                    asked
                        .iter()
                        .any(|c| a.concerns.iter().any(|x| c.covered_by(x)))
                })
                .copied();
        }
        None
    }

    /// Whether the session took in a page from the network ([`Entry::Fetched`]).
    pub fn has_fetched(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e, Entry::Fetched { .. }))
    }

    /// The paths the session read, in order.
    pub fn reads(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Read { path } => Some(path.as_str()),
            _ => None,
        })
    }
}

/// File names whose content is kept when written: they run when named (`make`, `npm`) or
/// are scripts by their extension.
const RUNNABLE_NAMES: &[&str] = &[
    "makefile",
    "gnumakefile",
    "package.json",
    "justfile",
    ".envrc",
];

/// Extensions of script files (`.sql`: run by a database client, `psql -f x.sql`; `.cql`:
/// by Cassandra's `cqlsh -f`).
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "dash", "fish", "command", "mk", "py", "js", "mjs", "cjs", "ts",
    "mts", "rb", "pl", "php", "lua", "ps1", "bat", "cmd", "sql", "cql",
];

/// Whether the file name at `path` says it is a script (`install.sh`, `setup.py`): a script
/// extension or a name like `Makefile`.
pub(crate) fn script_named(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    RUNNABLE_NAMES.contains(&name.as_str())
        || name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| SCRIPT_EXTENSIONS.contains(&ext))
}

/// Whether a file written at `abs` with `content` can be run (its content is worth keeping):
/// a `#!` line, a script extension, a Makefile or `package.json`, or a file that runs by
/// itself (start-up files, git hooks, cron tables, units).
pub(crate) fn runnable(abs: &str, content: &str) -> bool {
    if content.starts_with("#!") {
        return true;
    }
    let name = abs.rsplit('/').next().unwrap_or(abs).to_lowercase();
    if RUNNABLE_NAMES.contains(&name.as_str()) {
        return true;
    }
    if let Some((_, ext)) = name.rsplit_once('.')
        && SCRIPT_EXTENSIONS.contains(&ext)
    {
        return true;
    }
    crate::effects::executed::runs_by_itself(abs)
}

/// The absolute path of a path reference, when it is known.
fn absolute(p: &PathRef, env: &ShellEnv) -> Option<String> {
    if p.dynamic {
        return None;
    }
    key_of(&p.text, p.cwd.as_deref(), &env.home)
}

/// A path as the memory names it: absolute, with symlinks resolved as far as the path
/// exists (a file written before it exists and read after it does has one name, also when
/// a folder above it is a symlink).
pub(crate) fn key_of(text: &str, cwd: Option<&str>, home: &str) -> Option<String> {
    let n = crate::paths::normalize(text, cwd, home)?;
    let mut head = n.as_str();
    let mut tail: Vec<&str> = Vec::new();
    loop {
        if let Ok(c) = std::fs::canonicalize(if head.is_empty() { "/" } else { head }) {
            let mut out = c.to_string_lossy().into_owned();
            for part in tail.iter().rev() {
                if !out.ends_with('/') {
                    out.push('/');
                }
                out.push_str(part);
            }
            return Some(out);
        }
        match head.rsplit_once('/') {
            Some((parent, name)) => {
                tail.push(name);
                head = parent;
            }
            None => return Some(n.clone()),
        }
    }
}

/// What a call did that the memory keeps: its writes (with the content of files that can be
/// run), the symlinks it creates and the paths it reads, each once.
pub fn entries_of(fx: &Effects, env: &ShellEnv) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let push = |e: Entry, out: &mut Vec<Entry>| {
        if !out.contains(&e) {
            out.push(e);
        }
    };
    for e in &fx.list {
        match &e.what {
            What::Write {
                path,
                append,
                content,
            } => {
                let Some(abs) = absolute(path, env) else {
                    continue;
                };
                // An edit, an append or a patch's update hunks write part of the file.
                let partial = *append
                    || matches!(e.route.tool.as_str(), "Edit" | "MultiEdit" | "NotebookEdit")
                    || matches!(e.route.argument.as_str(), "*** Update File" | "*** Move to");
                let content = content
                    .as_ref()
                    .filter(|c| c.len() <= MAX_CONTENT && runnable(&abs, c))
                    .cloned();
                push(
                    Entry::Wrote {
                        path: abs,
                        content,
                        partial,
                    },
                    &mut out,
                );
            }
            What::Read(p) => {
                if let Some(abs) = absolute(p, env) {
                    push(Entry::Read { path: abs }, &mut out);
                }
            }
            What::Send(s) if fetches_page(s, &e.route) => push(
                Entry::Fetched {
                    url: s.url.clone().unwrap_or_default(),
                },
                &mut out,
            ),
            What::Run(c) if c.basename() == "ln" && !c.dynamic_program => {
                for (target, link) in symlinks(c) {
                    let cwd = c.cwd.as_deref();
                    let Some(link_abs) = key_of(&link, cwd, &env.home) else {
                        continue;
                    };
                    // A relative target is relative to the link's folder.
                    let dir = link_abs.rsplit_once('/').map_or("/", |(d, _)| d);
                    let dir = if dir.is_empty() { "/" } else { dir };
                    let Some(target_abs) = key_of(&target, Some(dir), &env.home) else {
                        continue;
                    };
                    push(
                        Entry::Linked {
                            link: link_abs,
                            target: target_abs,
                        },
                        &mut out,
                    );
                }
            }
            _ => {}
        }
    }
    // Files that can be run, written with text the call did not show.
    for (path, cause) in unseen_writes(fx, env) {
        push(Entry::Unseen { path, cause }, &mut out);
    }
    // What a call wrote with what it fetched from the network (content not visible).
    for (path, url) in downloads_of(fx, env) {
        push(Entry::Downloaded { path, url }, &mut out);
    }
    // A copying command's destination holds its source: `cp a b`, `mv a b`, `docker cp c:/a
    // b`, `cat a > b`.
    for (path, from) in copied::copy_pairs(fx, |p| absolute(p, env)) {
        push(Entry::Copied { path, from }, &mut out);
    }
    // The files a call writes while it reads the environment (a secret variable expanded
    // into them, a dump of it, a copy of one read back) hold what it read.
    if copied::reads_environment(fx) {
        let written: Vec<String> = out
            .iter()
            .filter_map(|e| match e {
                Entry::Wrote { path, .. } => Some(path.clone()),
                _ => None,
            })
            .collect();
        for path in written {
            push(
                Entry::Copied {
                    path,
                    from: copied::ENVIRON.to_string(),
                },
                &mut out,
            );
        }
    }
    out
}

/// The files and folders a call downloads ([`downloads`]), absolute, with the URL.
fn downloads_of(fx: &Effects, env: &ShellEnv) -> Vec<(String, String)> {
    downloads(fx)
        .into_iter()
        .filter_map(|(p, url)| Some((absolute(p, env)?, url.to_string())))
        .collect()
}

/// The files a call writes with what a host on the network sends, with the URL: a write
/// whose content is not visible by the command that makes the request (`curl -o f URL`,
/// `wget URL`, `git clone URL dir`, an MCP tool that sends and writes), or by its output
/// redirected (`curl URL > f`). Hosts on this machine or its local network are left out.
fn downloads(fx: &Effects) -> Vec<(&PathRef, &str)> {
    let mut out = Vec::new();
    for s_eff in &fx.list {
        let What::Send(s) = &s_eff.what else {
            continue;
        };
        let local = s
            .endpoint
            .as_ref()
            .is_some_and(|ep| matches!(ep.class(), IpClass::Loopback | IpClass::Private));
        let Some(url) = s.url.as_deref().filter(|_| !local) else {
            continue;
        };
        for w_eff in &fx.list {
            let What::Write {
                path,
                content: None,
                ..
            } = &w_eff.what
            else {
                continue;
            };
            let same = w_eff.route.tool == s_eff.route.tool
                && match (&w_eff.route.command, &s_eff.route.command) {
                    (Some(w), Some(c)) => {
                        w == c
                            || w.strip_prefix(c.as_str())
                                .is_some_and(|r| r.starts_with(' '))
                    }
                    (None, None) => w_eff.route.lens == s_eff.route.lens,
                    _ => false,
                };
            if same && !out.iter().any(|(p, _)| *p == path) {
                out.push((path, url));
            }
        }
    }
    out
}

/// Whether a request hands the agent a page from the network: one of a web tool
/// (`WebFetch`) or an MCP tool whose arguments name the URL (a browser, a fetch server), to a
/// host that is not on this machine or its local network (a destination known only at run
/// time counts). Left out: a shell request (its reply is mostly a file or a status) and a
/// call of a named MCP service whose arguments name no URL (`mcp__github__get_pull_request`,
/// `create_pull_request`: the project's own tracker, everyday work in issue-driven
/// sessions).
fn fetches_page(s: &crate::effects::Send, route: &Route) -> bool {
    let named_url = match route.lens {
        Some(Lens::Web) => true,
        Some(Lens::Mcp) => route.command.is_none() && s.url.is_some(),
        _ => false,
    };
    named_url
        && s.endpoint
            .as_ref()
            .is_none_or(|ep| !matches!(ep.class(), IpClass::Loopback | IpClass::Private))
}

/// The symlinks an `ln` command creates, as (target, link) words; none unless `-s`.
fn symlinks(c: &crate::shell::SimpleCommand) -> Vec<(String, String)> {
    let mut symbolic = false;
    let mut dir: Option<String> = None;
    let mut no_dir = false;
    let mut ops: Vec<&crate::shell::Arg> = Vec::new();
    let mut i = 0;
    let mut options = true;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        i += 1;
        if options && t == "--" {
            options = false;
            continue;
        }
        if options && t.starts_with("--") {
            match t {
                "--symbolic" => symbolic = true,
                "--no-target-directory" => no_dir = true,
                "--target-directory" => {
                    dir = c.args.get(i).map(|d| d.text.clone());
                    i += 1;
                }
                _ => {
                    if let Some(d) = t.strip_prefix("--target-directory=") {
                        dir = Some(d.to_string());
                    }
                }
            }
            continue;
        }
        if options && t.starts_with('-') && t.len() > 1 {
            let flags = &t[1..];
            symbolic |= flags.contains('s');
            no_dir |= flags.contains('T');
            if let Some(at) = flags.find('t') {
                let rest = &flags[at + 1..];
                if rest.is_empty() {
                    dir = c.args.get(i).map(|d| d.text.clone());
                    i += 1;
                } else {
                    dir = Some(rest.to_string());
                }
            } else if flags.contains('S') {
                // `-S SUFFIX`: the backup suffix.
                i += 1;
            }
            continue;
        }
        if a.dynamic {
            return Vec::new();
        }
        ops.push(a);
    }
    if !symbolic || ops.is_empty() {
        return Vec::new();
    }
    let base = |t: &str| {
        t.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(t)
            .to_string()
    };
    let into = |d: &str, t: &str| format!("{}/{}", d.trim_end_matches('/'), base(t));
    if let Some(d) = dir {
        return ops
            .iter()
            .map(|t| (t.text.clone(), into(&d, &t.text)))
            .collect();
    }
    match ops.as_slice() {
        [t] => vec![(t.text.clone(), base(&t.text))],
        [t, l] if no_dir || !l.text.ends_with('/') => vec![(t.text.clone(), l.text.clone())],
        [targets @ .., d] => targets
            .iter()
            .map(|t| (t.text.clone(), into(&d.text, &t.text)))
            .collect(),
        [] => Vec::new(),
    }
}

/// The path `p` names through a symlink the session created earlier (the link itself or a
/// path below a linked folder), if it goes through one.
fn through_link(m: &SessionMemory, p: &PathRef, env: &ShellEnv) -> Option<String> {
    let abs = absolute(p, env)?;
    let mut at = abs.as_str();
    let mut rest = String::new();
    loop {
        if let Some(t) = m.link_target(at) {
            return Some(format!("{t}{rest}"));
        }
        match at.rsplit_once('/') {
            Some((parent, name)) if !parent.is_empty() => {
                rest = format!("/{name}{rest}");
                at = parent;
            }
            _ => return None,
        }
    }
}

/// Reads and writes through a symlink the session created earlier: each is also an effect
/// on the link's target (`ln -s ~/.ssh/id_rsa notes.txt`, then `cat notes.txt` reads
/// `~/.ssh/id_rsa`), its route marked `via "through the symlink <link>"`; a request body
/// read from such a path is also read from the target.
pub(crate) fn through_links(fx: &mut Effects, env: &ShellEnv, memory: Option<&SessionMemory>) {
    let Some(m) = memory.filter(|m| m.has_links()) else {
        return;
    };
    let mut derived: Vec<(What, Route)> = Vec::new();
    for e in &mut fx.list {
        if let What::Send(s) = &mut e.what {
            let extra: Vec<BodySource> = s
                .body
                .iter()
                .filter_map(|b| match b {
                    BodySource::File(p) => through_link(m, p, env),
                    _ => None,
                })
                .map(|t| BodySource::File(PathRef::new(t, None)))
                .collect();
            s.body.extend(extra);
            continue;
        }
        if !matches!(e.what, What::Read(_) | What::Load(_) | What::Write { .. }) {
            continue;
        }
        let Some(p) = e.path() else {
            continue;
        };
        let Some(target) = through_link(m, p, env) else {
            continue;
        };
        let resolved = PathRef::new(target, None);
        let what = match &e.what {
            What::Write {
                append, content, ..
            } => What::Write {
                path: resolved,
                append: *append,
                content: content.clone(),
            },
            _ => What::Read(resolved),
        };
        let mut route = e.route.clone();
        route.via.push(format!("through the symlink {}", p.text));
        derived.push((what, route));
    }
    for (w, r) in derived {
        fx.push(w, r);
    }
}

/// Programs whose output is text decoded from what they read (base64(1), xxd(1) `-r`,
/// openssl-enc(1) `-d`/`base64 -d`, uudecode(1), gzip's decompressors).
const DECODERS: &[&str] = &[
    "base64", "base32", "basenc", "xxd", "openssl", "uudecode", "gunzip", "zcat", "gzip", "xz",
    "unxz", "bzip2", "bunzip2", "zstd", "unzstd",
];

/// The files a shell call writes with text it does not show, with the cause: the
/// output of a printer given words only known at run time (`printf "$P" > p.sh`, `echo $X >
/// x.py`) or of a decoder (`… | base64 -d > run.sh`). A write whose text the lens saw has
/// content; a download is kept as [`Entry::Downloaded`].
fn unseen_writes(fx: &Effects, env: &ShellEnv) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for w in &fx.list {
        let What::Write {
            path,
            append: false,
            content: None,
        } = &w.what
        else {
            continue;
        };
        if w.route.tool != "Bash" {
            continue;
        }
        let Some(abs) = absolute(path, env) else {
            continue;
        };
        let Some(cmd) = w.route.command.as_deref() else {
            continue;
        };
        let writer = fx.list.iter().find_map(|e| match &e.what {
            What::Run(c)
                if e.route.command.as_deref().is_some_and(|r| {
                    r == cmd || cmd.strip_prefix(r).is_some_and(|t| t.starts_with(' '))
                }) =>
            {
                Some(c)
            }
            _ => None,
        });
        let Some(c) = writer else {
            continue;
        };
        let name = c.basename();
        let cause = if DECODERS.contains(&name) {
            "decoded text"
        } else if matches!(name, "printf" | "echo") && c.args.iter().any(|a| a.dynamic) {
            "text only known at run time"
        } else {
            continue;
        };
        out.push((abs, format!("{cause}, `{cmd}`")));
    }
    out
}
