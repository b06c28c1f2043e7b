//! R and Julia code read by the token scanner: the files its calls delete (`unlink(PATH,
//! recursive = TRUE)`, `file.remove(PATH)`, Julia's `rm(PATH; recursive = true)`), and the
//! path functions whose value a reader resolves without running anything (`path.expand("~")`,
//! `normalizePath`, `file.path(a, b)`, Julia's `homedir()`, `expanduser`, `joinpath`,
//! `paste0`), from R's `base` documentation and Julia's `Base.Filesystem`.
//!
//! In: the argument tokens of a call. Out: into [`Collect`], a delete of each path a
//! constant names, judged by the file rules as the shell's `rm -r PATH` is; a path known only
//! at run time is `unsure` with the call named. R expands a leading `~` in the paths its file
//! functions take (`path.expand`), so `unlink("~", recursive = TRUE)` deletes the home folder.

use super::{Reader, Val, named, split_args};
use crate::effects::inline::collect::Collect;
use crate::effects::inline::scan::files;
use crate::effects::inline::scan::lex::Tok;
use crate::effects::language::Language;

/// Functions whose value is their first argument's (R's `path.expand`, `normalizePath`,
/// Julia's `abspath`, `realpath`, `normpath`; `expanduser` turns `~` into the home folder).
const SAME_PATH: &[&str] = &[
    "path.expand",
    "normalizePath",
    "expanduser",
    "abspath",
    "realpath",
    "normpath",
    "fs::path_expand",
];

/// Functions that join their arguments into one path with `/`.
const JOIN_PATH: &[&str] = &["file.path", "joinpath", "fs::path"];

/// Functions that paste their arguments together (R's `paste0`, Julia's `string`).
const PASTE: &[&str] = &["paste0", "string"];

/// Functions whose value is the home folder (Julia's `homedir()`, R's `fs::path_home()`).
const HOME: &[&str] = &["homedir", "fs::path_home"];

/// The names the value of R's `TRUE` goes by, and Julia's `true`.
const TRUE: &[&str] = &["TRUE", "T", "true"];

impl Reader<'_> {
    /// The string value of a call to one of the path functions above, when `toks` is one
    /// call whose arguments are constants.
    pub(super) fn path_call(&self, toks: &[Tok]) -> Option<String> {
        if !matches!(self.lang, Language::R | Language::Julia) {
            return None;
        }
        let open = toks.iter().position(|t| *t == Tok::Op("("))?;
        let (name, end) = self.qualified_in(toks, open)?;
        if end != toks.len() {
            return None;
        }
        let inner = toks.get(open + 1..toks.len() - 1)?;
        let args: Vec<&[Tok]> = split_args(self.lang, inner)
            .into_iter()
            .map(|a| named(a).1)
            .collect();
        let one = |a: &[Tok]| match self.value(a)? {
            Val::One(s) => Some(s),
            Val::Many(_) => None,
        };
        if HOME.contains(&name.as_str()) && args.is_empty() {
            return Some("${HOME}".into());
        }
        if SAME_PATH.contains(&name.as_str()) {
            let p = one(args.first()?)?;
            return Some(match p.strip_prefix('~') {
                Some(rest) if name == "expanduser" => format!("${{HOME}}{rest}"),
                _ => p,
            });
        }
        let parts: Option<Vec<String>> = args.iter().map(|a| one(a)).collect();
        if JOIN_PATH.contains(&name.as_str()) {
            return Some(parts?.join("/"));
        }
        PASTE
            .contains(&name.as_str())
            .then(|| parts.map(|p| p.concat()))?
    }

    /// The name of the call whose `(` is at `open` in `toks` (`path.expand`, `fs::path`),
    /// and the index after its closing bracket.
    fn qualified_in(&self, toks: &[Tok], open: usize) -> Option<(String, usize)> {
        let mut name = String::new();
        for t in toks.get(..open)? {
            match t {
                Tok::Name(n) => name.push_str(n),
                Tok::Op(sep @ ("." | "::")) => name.push_str(sep),
                _ => return None,
            }
        }
        Some((name, super::group_end(toks, open)))
    }

    /// `unlink(PATH, recursive = TRUE)`, `file.remove(A, B)`, `rm(PATH; recursive = true)`:
    /// each path deleted, with everything below it when `recursive` is true.
    pub(super) fn remove(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let mut positional: Vec<&[Tok]> = Vec::new();
        let mut recursive = false;
        for arg in args {
            // Julia's keywords after a `;` inside the call: `rm(p; recursive=true)`.
            let mut pieces = arg.split(|t| *t == Tok::Op(";"));
            let first = pieces.next().unwrap_or_default();
            for piece in std::iter::once(first).chain(pieces) {
                let (key, value) = named(piece);
                let truthy = matches!(value, [Tok::Name(v)] if TRUE.contains(&v.as_str()));
                // R matches a named argument by any prefix of its name (`rec = TRUE`).
                let r_prefix = |k: &str, of: &str| self.lang == Language::R && of.starts_with(k);
                match key {
                    Some(k) if k == "recursive" || r_prefix(k, "recursive") => recursive |= truthy,
                    // The path named: R's `unlink(x = PATH)`, Julia's `rm(path = …)` is
                    // positional only, but a keyword spelling is read the same.
                    Some("x" | "path") => positional.push(value),
                    Some(_) => {}
                    None if piece.is_empty() => {}
                    // R's `unlink(x, TRUE)`: the second argument is `recursive`.
                    None if !positional.is_empty() && name.ends_with("unlink") => {
                        recursive |= truthy
                    }
                    None => positional.push(value),
                }
            }
        }
        // `fs::dir_delete` deletes folders whole.
        recursive |= name.ends_with("dir_delete");
        for arg in positional {
            let paths = match self.value(arg) {
                Some(Val::One(p)) => vec![p],
                Some(Val::Many(list)) => list,
                None => {
                    cx.unknown(name, "a path");
                    continue;
                }
            };
            for p in paths {
                let p = match (self.lang, p.strip_prefix('~')) {
                    (Language::R, Some(rest)) => format!("${{HOME}}{rest}"),
                    _ => p,
                };
                files::delete(cx, &p, recursive);
            }
        }
    }
}
