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

use super::{Reader, Val, ends_statement, group_end, split_args, split_top};
use crate::effects::inline::collect::Collect;
use crate::effects::inline::resolve::{MADE_TEMP, TEMP_DIR};
use crate::effects::inline::scan::files;
use crate::effects::inline::scan::lex::Tok;
use crate::effects::language::Language;

/// Functions whose value is their first argument's (R's `path.expand`, `normalizePath`, the
/// connections `file`, `gzfile`, `bzfile`,
/// Julia's `abspath`, `realpath`, `normpath`; `expanduser` turns `~` into the home folder).
const SAME_PATH: &[&str] = &[
    "path.expand",
    "normalizePath",
    "expanduser",
    "abspath",
    "realpath",
    "normpath",
    "fs::path_expand",
    // R's connections to a file (`con <- file("x.csv"); readLines(con)`).
    "file",
    "gzfile",
    "bzfile",
];

/// Functions that join their arguments into one path with `/`.
const JOIN_PATH: &[&str] = &["file.path", "joinpath", "fs::path"];

/// Functions that paste their arguments together (R's `paste0`, Julia's `string`).
const PASTE: &[&str] = &["paste0", "string"];

/// Functions whose value is the home folder (Julia's `homedir()`, R's `fs::path_home()`).
const HOME: &[&str] = &["homedir", "fs::path_home"];

/// Functions whose value is a pattern of paths, kept as the pattern (R's `Sys.glob`).
const GLOB: &[&str] = &["Sys.glob"];

/// Functions that list a folder (its path first, default the working folder), and whether
/// they give full paths by default: R's `list.files`/`dir` (`full.names = FALSE`),
/// `list.dirs` (`full.names = TRUE`), `fs::dir_ls` (full paths), Julia's `readdir`
/// (`join = false`). Their value is every name in the folder (`FOLDER/*`).
const LIST: &[(&str, bool)] = &[
    ("list.files", false),
    ("dir", false),
    ("list.dirs", true),
    ("fs::dir_ls", true),
    ("readdir", false),
];

/// Functions whose value is a temporary path, from R's `base` and Julia's
/// `Base.Filesystem`: the name, and where its folder argument is (position, keyword; `None`:
/// `tempdir()` itself). The others make a new name (random at run time) in that folder,
/// by default `tempdir()`: R's is the session's own folder in the temporary one
/// (`RtmpXXXXXX`), Julia's the temporary folder.
const TEMP: &[(&str, Option<(usize, &str)>)] = &[
    ("tempdir", None),
    ("tempfile", Some((1, "tmpdir"))),
    ("tempname", Some((0, "parent"))),
    ("mktempdir", Some((0, "parent"))),
];

/// R's per-session temporary folder (`tempdir()`), random at run time.
const R_SESSION_TEMP: &str = "RtmpXXXXXX";

/// R's higher-order calls that apply a function given as an argument, and that argument's
/// position (`base`, and `purrr` with or without its namespace).
pub(super) const APPLY_R: &[(&str, usize)] = &[
    ("do.call", 0),
    ("lapply", 1),
    ("sapply", 1),
    ("vapply", 1),
    ("Map", 0),
    ("mapply", 0),
    ("purrr::walk", 1),
    ("purrr::map", 1),
    ("walk", 1),
    ("map", 1),
];

/// Julia's higher-order calls (`Base`; `asyncmap` runs it in tasks): the function first.
pub(super) const APPLY_JULIA: &[(&str, usize)] = &[
    ("foreach", 0),
    ("map", 0),
    ("broadcast", 0),
    ("asyncmap", 0),
];

/// The names the value of R's `TRUE` goes by, and Julia's `true`.
const TRUE: &[&str] = &["TRUE", "T", "true"];

impl<'a> Reader<'a> {
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
        let keyed = keyed_args(self.lang, inner);
        let args: Vec<&[Tok]> = keyed
            .iter()
            .filter(|(k, _)| k.is_none())
            .map(|a| a.1)
            .collect();
        let key = |k: &str| {
            keyed
                .iter()
                .find(|(n, _)| n.as_deref() == Some(k))
                .map(|a| a.1)
        };
        let one = |a: &[Tok]| match self.value(a)? {
            Val::One(s) => Some(s),
            Val::Many(_) => None,
        };
        let truthy = |k: &str| {
            key(k).is_some_and(|v| matches!(v, [Tok::Name(t)] if TRUE.contains(&t.as_str())))
        };
        if HOME.contains(&name.as_str()) && args.is_empty() {
            return Some("${HOME}".into());
        }
        if let Some(made) = self.temp_call(&name, &args, &key, &one) {
            return made;
        }
        if let Some(&(_, full_by_default)) = LIST.iter().find(|(n, _)| *n == name) {
            // The folder (first argument, R's `path =`; default the working folder).
            let folder = match args.first().copied().or_else(|| key("path")) {
                Some(a) => one(a)?,
                None => ".".into(),
            };
            // The names only (R's `full.names = FALSE`, Julia's `join = false`) are used
            // against the working folder, as Python's `os.listdir`.
            let full = full_by_default || truthy("full.names") || truthy("join");
            return Some(if full {
                format!("{}/*", folder.trim_end_matches('/'))
            } else {
                "*".into()
            });
        }
        if SAME_PATH.contains(&name.as_str()) || GLOB.contains(&name.as_str()) {
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

    /// A call of a temporary-path function (`TEMP` below): `Some(path)` when `name` is one,
    /// the path `None` when its folder argument is not a constant.
    fn temp_call<'t>(
        &self,
        name: &str,
        args: &[&'t [Tok]],
        key: &dyn Fn(&str) -> Option<&'t [Tok]>,
        one: &dyn Fn(&[Tok]) -> Option<String>,
    ) -> Option<Option<String>> {
        let &(_, folder_arg) = TEMP.iter().find(|(n, _)| *n == name)?;
        // `tempdir()`: Julia's is the temporary folder, R's the session's own folder in it.
        let default = match self.lang {
            Language::Julia => TEMP_DIR.to_string(),
            _ => format!("{TEMP_DIR}/{R_SESSION_TEMP}"),
        };
        let Some((position, keyword)) = folder_arg else {
            return Some(Some(default));
        };
        let folder = match args.get(position).copied().or_else(|| key(keyword)) {
            Some(a) => match one(a) {
                Some(f) => f,
                None => return Some(None),
            },
            None => default,
        };
        Some(Some(format!(
            "{}/{MADE_TEMP}",
            folder.trim_end_matches('/')
        )))
    }

    /// The function a higher-order call at token `end` applies, and the arguments it gets:
    /// R's `do.call(F, list(A…))` (F by name or as a string), `lapply|sapply|vapply|
    /// purrr::walk|purrr::map(X, F, MORE…)` (F on each item of X), `Map|mapply(F, X…)`,
    /// Julia's `foreach|map|broadcast(F, X…)`. Each item of a list X is a value the call
    /// gets, so the list itself stands for them (a delete of each path it names).
    pub(super) fn indirect(&self, name: &str, end: usize) -> Option<(String, Vec<&[Tok]>)> {
        let apply = match self.lang {
            Language::R => APPLY_R,
            Language::Julia => APPLY_JULIA,
            _ => return None,
        };
        let &(_, function_at) = apply.iter().find(|(n, _)| *n == name)?;
        let args = match self.toks.get(end) {
            Some(Tok::Op("(")) => self.args(end),
            _ => return None,
        };
        let function = self.function_name(super::named(args.get(function_at)?).1)?;
        let rest = args
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != function_at)
            .map(|(_, a)| *a);
        if name == "do.call" {
            // The second argument is the list of arguments: `list(…)` or `c(…)`.
            let list = args.get(1)?;
            let inner = match list {
                [Tok::Name(l), Tok::Op("("), .., Tok::Op(")")]
                    if matches!(l.as_str(), "list" | "c") && group_end(list, 1) == list.len() =>
                {
                    &list[2..list.len() - 1]
                }
                _ => return None,
            };
            return Some((function, split_args(self.lang, inner)));
        }
        Some((function, rest.collect()))
    }

    /// The name of a function passed as a value: a name (`unlink`, `base::unlink`) or, in
    /// R, a string naming it (`"unlink"`).
    pub(super) fn function_name(&self, toks: &[Tok]) -> Option<String> {
        let mut name = String::new();
        for t in toks {
            match t {
                Tok::Name(n) => name.push_str(n),
                Tok::Op(sep @ ("." | "::")) => name.push_str(sep),
                Tok::Str { .. } if toks.len() == 1 && self.lang == Language::R => {
                    return match self.value(toks)? {
                        Val::One(s) => Some(s),
                        Val::Many(_) => None,
                    };
                }
                _ => return None,
            }
        }
        (!name.is_empty()).then_some(name)
    }

    /// The tokens a loop variable at `k` takes its values from: R's `for (NAME in X)` (up to
    /// the closing bracket), Julia's `for NAME in X` / `for NAME = X` (up to the line's end).
    pub(super) fn loop_items(&self, k: usize) -> Option<&'a [Tok]> {
        let toks = self.toks;
        let is_for = |i: usize| matches!(toks.get(i), Some(Tok::Name(f)) if f == "for");
        let is_in = matches!(toks.get(k + 1), Some(Tok::Name(w)) if w == "in");
        match self.lang {
            Language::R
                if k >= 2 && is_for(k - 2) && toks.get(k - 1) == Some(&Tok::Op("(")) && is_in =>
            {
                let close = group_end(toks, k - 1);
                toks.get(k + 2..close.checked_sub(1)?)
            }
            Language::Julia
                if k >= 1 && is_for(k - 1) && (is_in || toks.get(k + 1) == Some(&Tok::Op("="))) =>
            {
                // The line's end outside brackets (`readdir(d; join = true)` holds a `;`).
                let mut depth = 0usize;
                let mut end = toks.len();
                for (i, t) in toks.iter().enumerate().skip(k + 2) {
                    match t {
                        Tok::Op("(" | "[" | "{") => depth += 1,
                        Tok::Op(")" | "]" | "}") => depth = depth.saturating_sub(1),
                        t if depth == 0 && ends_statement(self.lang, t) => {
                            end = i;
                            break;
                        }
                        _ => {}
                    }
                }
                toks.get(k + 2..end)
            }
            _ => None,
        }
    }

    /// The name of the call whose `(` is at `open` in `toks` (`path.expand`, `fs::path`),
    /// and the index after its closing bracket.
    pub(super) fn qualified_in(&self, toks: &[Tok], open: usize) -> Option<(String, usize)> {
        let mut name = String::new();
        for t in toks.get(..open)? {
            match t {
                Tok::Name(n) => name.push_str(n),
                Tok::Op(sep @ ("." | "::")) => name.push_str(sep),
                _ => return None,
            }
        }
        Some((name, group_end(toks, open)))
    }

    /// `unlink(PATH, recursive = TRUE)`, `file.remove(A, B)`, `rm(PATH; recursive = true)`:
    /// each path deleted, with everything below it when `recursive` is true.
    pub(super) fn remove(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let mut positional: Vec<&[Tok]> = Vec::new();
        let mut recursive = false;
        for arg in args {
            // Julia's keywords after a `;` inside the call: `rm(p; recursive=true)`.
            for piece in top_level_pieces(arg) {
                let (key, value) = keyed(piece);
                let key = key.as_deref();
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
                    // Julia does not expand `~` (`rm("~")` names a folder `~` in the working
                    // one); `expanduser` and `homedir()` give the home folder.
                    (Language::Julia, Some(_)) => format!("./{p}"),
                    _ => p,
                };
                files::delete(cx, &p, recursive);
            }
        }
    }
}

/// The arguments of a call with their names: R's `name = value` (a name may hold dots:
/// `full.names = TRUE`), and Julia's keywords after a `;` inside the call
/// (`readdir(d; join = true)`).
fn keyed_args(lang: Language, inner: &[Tok]) -> Vec<(Option<String>, &[Tok])> {
    split_args(lang, inner)
        .into_iter()
        .flat_map(top_level_pieces)
        .filter(|piece| !piece.is_empty())
        .map(keyed)
        .collect()
}

/// `arg` split at the `;` outside brackets (Julia's keywords: `rm(p; recursive = true)`).
fn top_level_pieces(arg: &[Tok]) -> Vec<&[Tok]> {
    split_top(arg, |op| op == ";")
}

/// The name of a named argument (`recursive = TRUE`, `full.names = TRUE`) and its value.
fn keyed(piece: &[Tok]) -> (Option<String>, &[Tok]) {
    let mut name = String::new();
    for (k, t) in piece.iter().enumerate() {
        match (t, k % 2) {
            (Tok::Name(n), 0) => name.push_str(n),
            (Tok::Op("."), 1) => name.push('.'),
            (Tok::Op("="), 1) => return (Some(name), &piece[k + 1..]),
            _ => break,
        }
    }
    (None, piece)
}
