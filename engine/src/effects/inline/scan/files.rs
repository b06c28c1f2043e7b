//! The files Perl, Ruby, PHP and Lua code opens, reads and writes by name: `open(F, "<",
//! PATH)`, `File.read(PATH)`, `file_get_contents(PATH)`, `fopen(PATH, "w")`,
//! `io.open(PATH, "a")`, and the files whose permissions they change (`chmod 04755, PATH`).
//!
//! In: the path as [`calls`](super::calls) resolved it (`None`: not a constant, shown as the
//! expression) and how the file is opened. Out: a read, write or append effect in
//! [`Collect`], judged by the file rules as the shell's `cat PATH` / `> PATH` are. The home
//! folder from the environment (`$ENV{HOME}`, `ENV['HOME']`, `getenv('HOME')`) is `~`; a path
//! with another variable, or computed at run time, is a path known only at run time.

use super::super::collect::Collect;
use super::super::resolve::Res;
use crate::effects::What;
use crate::effects::model::{Gone, PathRef};

/// How a file is opened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Access {
    /// Read.
    Read,
    /// Written (created or emptied first, or changed in place).
    Write,
    /// Appended to.
    Append,
}

/// The access a mode gives: C's `fopen` modes (Ruby, PHP, Lua: `"r"`, `"w+"`, `"ab"`), Perl's
/// `<`, `>`, `>>`, `+<` (with an I/O layer: `<:encoding(UTF-8)`); `None` for a mode that is
/// not one of them.
pub(super) fn access(mode: &str) -> Option<Access> {
    let m = mode.trim();
    let m = m.split(':').next().unwrap_or(m).trim();
    match m {
        "<" => Some(Access::Read),
        ">" | "+<" | "+>" => Some(Access::Write),
        ">>" | "+>>" => Some(Access::Append),
        _ => {
            let flags: String = m.chars().filter(|c| !matches!(c, 'b' | 't')).collect();
            match flags.as_str() {
                "r" => Some(Access::Read),
                "r+" | "w" | "w+" | "x" | "x+" | "c" | "c+" => Some(Access::Write),
                "a" | "a+" => Some(Access::Append),
                _ => None,
            }
        }
    }
}

/// Perl's two-argument `open(F, "<x")`, `open(F, ">>x")`, `open(F, "x")`: the access and the
/// path of its text (a pipe open is not one: see [`calls`](super::calls)).
pub(super) fn perl_spec(spec: &str) -> (Access, &str) {
    let t = spec.trim();
    for (prefix, a) in [
        (">>", Access::Append),
        ("+<", Access::Write),
        ("+>", Access::Write),
        (">", Access::Write),
        ("<", Access::Read),
    ] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return (a, rest.trim());
        }
    }
    (Access::Read, t)
}

/// A file opened with `access`, named by `path` (`None`: computed at run time, shown as
/// `shown`).
pub(super) fn file(cx: &mut Collect<'_>, path: Option<&str>, shown: &str, access: Access) {
    let p = path_ref(cx, path, shown);
    cx.push(match access {
        Access::Read => What::Read(p),
        Access::Write => What::Write {
            path: p,
            append: false,
            content: None,
        },
        Access::Append => What::Write {
            path: p,
            append: true,
            content: None,
        },
    });
}

/// A file whose permissions change to `mode` (Perl `chmod MODE, LIST`, Ruby
/// `File.chmod(MODE, PATH)`, PHP `chmod(PATH, MODE)`), named as in [`file`].
pub(super) fn permission(
    cx: &mut Collect<'_>,
    path: Option<&str>,
    shown: &str,
    mode: Option<String>,
) {
    let path = path_ref(cx, path, shown);
    cx.push(What::ChangePermission {
        path,
        mode,
        recursive: false,
    });
}

/// A file deleted (R's `unlink`, Julia's `rm`), with everything below it when `recursive`;
/// named by a constant (a path with a variable other than the home folder's is one known only
/// at run time).
pub(super) fn delete(cx: &mut Collect<'_>, path: &str, recursive: bool) {
    let path = path_ref(cx, Some(path), path);
    cx.push(What::Delete {
        path,
        recursive,
        gone: Gone::Removed,
    });
}

/// The path a constant names (`None`: computed at run time, shown as `shown`).
fn path_ref(cx: &mut Collect<'_>, path: Option<&str>, shown: &str) -> PathRef {
    match path {
        Some(t) if !t.is_empty() => {
            let res = match t.strip_prefix("${HOME}") {
                Some(rest) => Res {
                    text: format!("~{rest}"),
                    home: true,
                },
                None => Res::lit(t),
            };
            if res.text.contains("${") {
                cx.computed_path(shown)
            } else {
                cx.path(&res)
            }
        }
        _ => cx.computed_path(shown),
    }
}
