//! The effects of one command as the lens collects them, and the path effects of its
//! operands (`read`, `write`, `delete`, a script run), pseudo-files left out.

use super::request::{add_body, send_url};
use std::ops::Range;

use crate::effects::model::{BodySource, Effects, Gone, PathRef, Route, What};
use crate::shell::{Arg, PROCSUB, SimpleCommand};

/// A path without a leading `./`.
pub(super) fn plain(t: &str) -> &str {
    t.strip_prefix("./").unwrap_or(t)
}

/// The effects of one command, without repeats, and the shell text it runs.
#[derive(Default)]
pub(super) struct Out {
    /// The effects, in order.
    pub(super) list: Vec<What>,
    /// Shell text the program runs (who runs it, the text).
    pub(super) scripts: Vec<(String, Arg)>,
    /// Code an interpreter runs (who runs it, its language, the text).
    pub(super) codes: Vec<crate::effects::code_runs::CodeRun>,
}

impl Out {
    /// Add an effect unless the same one is there already (every `send` is kept: two
    /// destinations only known by host can look alike before they are resolved).
    pub(super) fn push(&mut self, w: What) {
        if matches!(w, What::Send(_)) || !self.list.contains(&w) {
            self.list.push(w);
        }
    }
}

/// Paths that are not files: reading or writing them touches nothing.
const PSEUDO_FILES: &[&str] = &[
    "/dev/null",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
    "-",
];

/// A path operand of `c`, or `None` for a pseudo-file (`/dev/null`, `-`) or a process
/// substitution (`diff <(sort a) b`: what it reads is the substitution's own commands').
pub(super) fn path(a: &Arg, c: &SimpleCommand) -> Option<PathRef> {
    let pseudo = if a.dynamic {
        a.text == PROCSUB
    } else {
        PSEUDO_FILES.contains(&a.text.as_str())
    };
    (!pseudo).then(|| PathRef::from_arg(a, c.cwd.as_deref()))
}

pub(super) fn read(a: &Arg, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Read(p));
    }
}

/// A file loaded as environment values ([`Role::Load`]): not shown, so no read.
pub(super) fn load(a: &Arg, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Load(p));
    }
}

/// Registry specifiers a runtime installs a package from and runs (`npm:cowsay`,
/// `jsr:@std/http/file-server`).
const SCRIPT_SPECIFIERS: &[&str] = &["npm:", "jsr:"];

/// The script a runtime runs ([`Role::Script`]): fetched and run when it is an `http(s)`
/// URL (`deno run https://…/x.ts`, `bun https://…/x.js`), installed from its registry and
/// run when it is a specifier (`deno run npm:cowsay`), read otherwise.
pub(super) fn script(a: &Arg, c: &SimpleCommand, out: &mut Out) {
    let lower = a.text.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        let mut w = send_url(a, Some("GET".into()), Vec::new());
        if let What::Send(s) = &mut w {
            s.runs_response = true;
        }
        out.push(w);
    } else if SCRIPT_SPECIFIERS.iter().any(|p| lower.starts_with(p)) {
        out.push(What::Install {
            manager: c.basename().to_string(),
            packages: vec![a.clone()],
            source: None,
        });
    } else {
        read(a, c, out);
    }
}

pub(super) fn write(a: &Arg, append: bool, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Write {
            path: p,
            append,
            content: None,
        });
    }
}

/// A path removed ([`Gone::Removed`]): `rm -r`, `find -delete`, an archiver that deletes
/// what it stores.
pub(super) fn delete(a: &Arg, recursive: bool, c: &SimpleCommand, out: &mut Out) {
    delete_as(a, recursive, Gone::Removed, c, out);
}

/// A path that goes away as `gone` says (a move keeps its files under a new name).
pub(super) fn delete_as(a: &Arg, recursive: bool, gone: Gone, c: &SimpleCommand, out: &mut Out) {
    if let Some(path) = path(a, c) {
        out.push(What::Delete {
            path,
            recursive,
            gone,
        });
    }
}

/// The route of command `k` of a line: that of the first effect its span in `fx` holds
/// (`spans`: each command's range of `fx.list`), `None` when it has none.
pub(super) fn command_route(spans: &[Range<usize>], k: usize, fx: &Effects) -> Option<Route> {
    spans
        .get(k)
        .and_then(|s| fx.list.get(s.start))
        .map(|e| e.route.clone())
}

/// Shells that start interactively when given no script (`sudo bash`, `pkexec sh`,
/// `gsudo powershell`, `gsudo cmd`): the POSIX shells the shell analyser runs `-c` texts of
/// ([`crate::shell::operands::SHELLS`]) and those it does not read.
pub(super) fn interactive_shell(name: &str) -> bool {
    crate::shell::operands::SHELLS.contains(&name)
        || matches!(
            name,
            "fish" | "tcsh" | "csh" | "pwsh" | "powershell" | "cmd"
        )
}

/// Each file of `files` read and added to `body` (a file an upload or a publish sends).
pub(super) fn read_into_body<'a>(
    files: impl Iterator<Item = &'a Arg>,
    c: &SimpleCommand,
    body: &mut Vec<BodySource>,
    out: &mut Out,
) {
    for a in files {
        let file = PathRef::from_arg(a, c.cwd.as_deref());
        out.push(What::Read(file.clone()));
        add_body(body, vec![BodySource::File(file)]);
    }
}
