//! R and Julia code that reaches a call indirectly: an anonymous function applied to the
//! items of a list (`lapply(X, function(p) unlink(p))`, `purrr::walk(X, ~ unlink(.x))`,
//! `sapply(X, \(f) file.remove(f))`, Julia's `foreach(f -> rm(f), X)`), a pipe whose left side
//! is the first argument (R's `x |> unlink()` and magrittr's `x %>% unlink()`, Julia's
//! `x |> rm` and `x |> p -> rm(p)`), code parsed from a string at run time (R's
//! `eval(parse(text = S))`, `eval(str2lang(S))`, Julia's `eval(Meta.parse(S))`,
//! `include_string(Main, S)`), and code or packages fetched from the network (R's
//! `source(URL)`, `download.file(URL, F)` then `source(F)` or a command naming `F`,
//! `devtools::install_github`, `install.packages(…, repos = URL)`, Julia's
//! `include(download(URL))`, `Pkg.add(url = URL)`), from R's `base`, `utils`, `purrr`,
//! `magrittr` and `remotes` documentation and Julia's `Base`, `Downloads` and `Pkg`.
//!
//! In: the name of a call at a token and what follows it. Out: into [`Collect`], what the
//! call runs: the anonymous function's body read with its parameter bound to the value of the
//! list (`list.files("out", full.names = TRUE)` is `out/*`), so a delete in it is judged as
//! the plain call over those paths; parsed code read as code of the language; a download run
//! as a `send` whose response runs; an install from a source other than the default one.
//! What is known only at run time is `unsure` with its cause.

use std::collections::HashMap;

use super::remove::{APPLY_JULIA, APPLY_R};
use super::tables::table;
use super::{Reader, Val, group_end, named, split_args};
use crate::effects::inline::collect::{Collect, Found};
use crate::effects::inline::resolve::Res;
use crate::effects::inline::scan::lex::Tok;
use crate::effects::language::Language;
use crate::effects::model::What;
use crate::shell::Arg;

/// The calls that parse their text argument into code (R's `parse(text = S)`, `str2lang`,
/// `str2expression`; Julia's `Meta.parse`, `Meta.parseall`).
const PARSE: &[&str] = &[
    "parse",
    "base::parse",
    "str2lang",
    "str2expression",
    "Meta.parse",
    "Meta.parseall",
];

/// The calls that run code given as an expression (R's `eval`, Julia's `eval`, `Core.eval`).
const EVAL: &[&str] = &["eval", "base::eval", "evalq", "Core.eval", "Base.eval"];

/// Julia's calls that run code given as a string (`include_string(Main, S)`).
const RUN_STRING: &[&str] = &["include_string", "Base.include_string"];

/// The calls that run a file of code (R's `source`, `sys.source`; Julia's `include`).
const RUN_FILE: &[&str] = &[
    "source",
    "base::source",
    "sys.source",
    "include",
    "Base.include",
];

/// The calls that download a URL to a file (R's `download.file(url, destfile)`,
/// `curl::curl_download(url, destfile)`; Julia's `download(url, path)`): the URL first, the
/// file second (Julia's default is a temporary file, the call's value).
const DOWNLOAD: &[&str] = &[
    "download.file",
    "utils::download.file",
    "curl::curl_download",
    "curl_download",
    "download",
    "Downloads.download",
    "Base.download",
];

/// R's installers of a package from a code host (`remotes`, and `devtools` which re-exports
/// them), with the host a `user/repo` spec names.
const INSTALL_HOSTED: &[(&str, &str)] = &[
    ("install_github", "https://github.com/"),
    ("install_gitlab", "https://gitlab.com/"),
    ("install_bitbucket", "https://bitbucket.org/"),
    ("install_git", ""),
    ("install_url", ""),
];

/// The `Pkg` calls that add a package (Julia), whose `url = …` names its source.
const PKG_ADD: &[&str] = &["Pkg.add", "Pkg.develop"];

impl<'a> Reader<'a> {
    /// Read the call `name` at token `i` (its name ends before `end`) when it is one of the
    /// indirect forms above; the index to read on from, or `None` when it is none of them.
    pub(super) fn indirection(
        &self,
        name: &str,
        i: usize,
        end: usize,
        cx: &mut Collect<'_>,
    ) -> Option<usize> {
        if !matches!(self.lang, Language::R | Language::Julia) {
            return None;
        }
        if let Some(next) = self.piped(name, i, end, cx) {
            return Some(next);
        }
        if let Some(next) = self.lambda_applied(name, end, cx) {
            return Some(next);
        }
        let bare = name.rsplit("::").next().unwrap_or(name);
        let args = match self.toks.get(end) {
            Some(Tok::Op("(")) => self.args(end),
            _ => return None,
        };
        if EVAL.contains(&name) || RUN_STRING.contains(&name) {
            return self.parsed(name, &args, cx).then_some(end);
        }
        if RUN_FILE.contains(&name) {
            self.run_file(&args, cx);
            return Some(end);
        }
        if DOWNLOAD.contains(&name) {
            if let Some(Val::One(url)) = args.first().and_then(|a| self.value(a))
                && is_url(&url)
            {
                cx.send_url(&res(&url), Some("GET".into()), Vec::new());
            }
            return Some(end);
        }
        if let Some(&(_, host)) = INSTALL_HOSTED.iter().find(|(n, _)| *n == bare) {
            if let Some(Val::One(spec)) = args.first().and_then(|a| self.value(named(a).1)) {
                let source = if is_url(&spec) {
                    spec.clone()
                } else {
                    format!("{host}{spec}")
                };
                install(cx, "R", spec, source);
            } else {
                cx.unknown(name, "a package source");
            }
            return Some(end);
        }
        if matches!(name, "install.packages" | "utils::install.packages") {
            self.r_install(&args, cx);
            return Some(end);
        }
        if self.lang == Language::Julia && PKG_ADD.contains(&name) {
            self.pkg_add(name, &args, cx);
            return Some(end);
        }
        None
    }

    /// `LEFT |> f(…)`, `LEFT %>% f(…)`, Julia's `LEFT |> f` and `LEFT |> p -> BODY`: the call
    /// at `i` gets the pipe's left side as its first argument.
    fn piped(&self, name: &str, i: usize, end: usize, cx: &mut Collect<'_>) -> Option<usize> {
        let toks = self.toks;
        let is =
            |k: usize, o: &str| i >= k && matches!(toks.get(i - k), Some(Tok::Op(t)) if *t == o);
        let pipe_at = if is(2, "|") && is(1, ">") {
            i - 2
        } else if self.lang == Language::R && is(3, "%") && is(2, ">") && is(1, "%") {
            i - 3
        } else {
            return None;
        };
        let left = &toks[self.statement_start(pipe_at)..pipe_at];
        // Julia's `LEFT |> p -> BODY`.
        if self.lang == Language::Julia && toks.get(end) == Some(&Tok::Op("->")) {
            let body_end = self.expression_end(end + 1);
            let params = vec![(name.to_string(), 0)];
            self.read_lambda(&params, &[left], &toks[end + 1..body_end], cx);
            return Some(body_end);
        }
        let name = self.aliases.get(name).map_or(name, String::as_str);
        let &(_, runs) = table(self.lang).iter().find(|(n, _)| *n == name)?;
        let mut args: Vec<&[Tok]> = vec![left];
        if toks.get(end) == Some(&Tok::Op("(")) {
            args.extend(self.args(end));
        }
        self.call(name, runs, &args, cx);
        Some(end)
    }

    /// The first token of the expression that ends before `at`: after the statement's start
    /// or an assignment at the same depth.
    fn statement_start(&self, at: usize) -> usize {
        let mut depth = 0usize;
        let mut k = at;
        while k > 0 {
            match &self.toks[k - 1] {
                Tok::Op(")" | "]" | "}") => depth += 1,
                Tok::Op("(" | "[" | "{") if depth == 0 => return k,
                Tok::Op("(" | "[" | "{") => depth -= 1,
                Tok::Op(";" | "<-" | "=" | ",") | Tok::Newline if depth == 0 => return k,
                _ => {}
            }
            k -= 1;
        }
        0
    }

    /// The index of the end of the statement or argument that starts at `from`.
    fn expression_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        for (k, t) in self.toks.iter().enumerate().skip(from) {
            match t {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") if depth == 0 => return k,
                Tok::Op(")" | "]" | "}") => depth -= 1,
                Tok::Op(";" | ",") | Tok::Newline if depth == 0 => return k,
                _ => {}
            }
        }
        self.toks.len()
    }

    /// `lapply(X, function(p) BODY)`, `purrr::walk(X, ~ BODY)`, `Map(function(a, b) BODY, X,
    /// Y)`, Julia's `foreach(p -> BODY, X)`: the body read with each parameter bound to the
    /// value of its list.
    fn lambda_applied(&self, name: &str, end: usize, cx: &mut Collect<'_>) -> Option<usize> {
        let apply = match self.lang {
            Language::R => APPLY_R,
            _ => APPLY_JULIA,
        };
        let &(_, function_at) = apply.iter().find(|(n, _)| *n == name)?;
        if self.toks.get(end) != Some(&Tok::Op("(")) {
            return None;
        }
        let args = self.args(end);
        // R's `lapply(X, FUN = function(p) …)` names the function.
        let (params, body) = self.lambda(named(args.get(function_at)?).1)?;
        // The lists the function is applied to: the positional arguments but the function,
        // and R's `X = …` (its further named ones go to the function itself).
        let lists: Vec<&[Tok]> = args
            .iter()
            .enumerate()
            .filter(|(k, a)| *k != function_at && matches!(named(a).0, None | Some("X")))
            .map(|(_, a)| named(a).1)
            .collect();
        self.read_lambda(&params, &lists, body, cx);
        // The calls inside the lists themselves.
        for list in &lists {
            self.child(list, HashMap::new()).scan(cx);
        }
        Some(group_end(self.toks, end))
    }

    /// A reader of `toks` with this one's names, and `more` bound on top.
    fn child(&self, toks: &'a [Tok], more: HashMap<String, Option<Val>>) -> Reader<'a> {
        let mut bindings = self.bindings.clone();
        for (n, v) in more {
            match v {
                Some(v) => bindings.insert(n, v),
                None => bindings.remove(&n),
            };
        }
        Reader {
            lang: self.lang,
            toks,
            argv: self.argv,
            bindings,
            aliases: self.aliases.clone(),
            downloads: self.downloads.clone(),
        }
    }

    /// Read `body` with each parameter (its name, and the index of the list it takes its
    /// items from) bound to that list's value: each item is a value the parameter takes, so
    /// the list stands for them as it does for a function passed by name. A list whose value
    /// is known only at run time leaves the parameter unknown.
    fn read_lambda(
        &self,
        params: &[(String, usize)],
        lists: &[&[Tok]],
        body: &'a [Tok],
        cx: &mut Collect<'_>,
    ) {
        let more = params
            .iter()
            .map(|(p, k)| (p.clone(), lists.get(*k).and_then(|l| self.value(l))))
            .collect();
        self.child(body, more).scan(cx);
    }

    /// The parameters and body of an anonymous function: R's `function(p) BODY`, `\(p)
    /// BODY`, purrr's formula `~ BODY` (`.x`, `.` and `..1` the first list's item, `.y` and
    /// `..2` the second's); Julia's `p -> BODY`, `(a, b) -> BODY`.
    #[allow(clippy::type_complexity, reason = "a pair read once by its caller")]
    fn lambda(&self, arg: &'a [Tok]) -> Option<(Vec<(String, usize)>, &'a [Tok])> {
        let listed = |open: usize| {
            let close = group_end(arg, open);
            let inner = arg.get(open + 1..close.checked_sub(1)?)?;
            let params = split_args(self.lang, inner)
                .iter()
                .enumerate()
                .filter_map(|(k, p)| match p.first() {
                    Some(Tok::Name(n)) => Some((n.clone(), k)),
                    _ => None,
                })
                .collect::<Vec<_>>();
            Some((params, close))
        };
        match (self.lang, arg) {
            (Language::R, [Tok::Name(f), Tok::Op("("), ..]) if f == "function" => {
                let (params, close) = listed(1)?;
                Some((params, &arg[close..]))
            }
            (Language::R, [Tok::Op("\\"), Tok::Op("("), ..]) => {
                let (params, close) = listed(1)?;
                Some((params, &arg[close..]))
            }
            (Language::R, [Tok::Op("~"), body @ ..]) => {
                let first = [".x", ".", "..1"].map(|p| (p.to_string(), 0));
                let second = [".y", "..2"].map(|p| (p.to_string(), 1));
                Some((first.into_iter().chain(second).collect(), body))
            }
            (Language::Julia, [Tok::Name(p), Tok::Op("->"), body @ ..]) => {
                Some((vec![(p.clone(), 0)], body))
            }
            (Language::Julia, [Tok::Op("("), ..]) => {
                let (params, close) = listed(0)?;
                match arg.get(close) {
                    Some(Tok::Op("->")) => Some((params, &arg[close + 1..])),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `eval(parse(text = S))`, `eval(Meta.parse(S))`, `include_string(Main, S)`: S read as
    /// code of the language; whether the call was one of them.
    fn parsed(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) -> bool {
        // A module named first (`Core.eval(Main, …)`, `include_string(Main, …)`).
        let Some(arg) = args.iter().find(
            |a| !matches!(a, [Tok::Name(m)] if m.chars().next().is_some_and(char::is_uppercase)),
        ) else {
            return false;
        };
        let text = if RUN_STRING.contains(&name) {
            *arg
        } else {
            let open = match arg.iter().position(|t| *t == Tok::Op("(")) {
                Some(o) => o,
                None => return false,
            };
            let Some((call, close)) = self.qualified_in(arg, open) else {
                return false;
            };
            if !PARSE.contains(&call.as_str()) || close != arg.len() {
                return false;
            }
            let inner = split_args(self.lang, &arg[open + 1..close - 1]);
            // R's `parse(text = S)`; `parse(FILE)` reads a file, not read here.
            let found = inner.iter().find_map(|a| match named(a) {
                (Some("text"), v) => Some(v),
                (None, v) if call != "parse" && call != "base::parse" => Some(v),
                _ => None,
            });
            match found {
                Some(t) => t,
                None => return false,
            }
        };
        match self.value(text) {
            Some(Val::One(code)) => cx.code(name, code),
            Some(Val::Many(lines)) => cx.code(name, lines.join("\n")),
            None => cx.unsure(format!("`{name}` of code known only at run time")),
        }
        true
    }

    /// `source(URL)`, `include(download(URL))`, `source(F)` of a file downloaded earlier in
    /// the code: code from the network, run.
    fn run_file(&self, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let Some(arg) = args
            .iter()
            .rev()
            .find(|a| !matches!(a, [Tok::Name(m)] if m == "Main"))
        else {
            return;
        };
        let arg = named(arg).1;
        let url = match self.value(arg) {
            Some(Val::One(p)) if is_url(&p) => Some(p),
            Some(Val::One(p)) => self.downloads.get(&p).cloned(),
            Some(Val::Many(_)) => None,
            None => self.downloaded_by(arg),
        };
        if let Some(u) = url {
            cx.fetch_and_run(Some(&res(&u)));
        }
    }

    /// The URL of `download(URL)` written as the argument itself.
    fn downloaded_by(&self, arg: &[Tok]) -> Option<String> {
        let open = arg.iter().position(|t| *t == Tok::Op("("))?;
        let (call, close) = self.qualified_in(arg, open)?;
        if !DOWNLOAD.contains(&call.as_str()) || close != arg.len() {
            return None;
        }
        let inner = split_args(self.lang, &arg[open + 1..close - 1]);
        match self.value(inner.first()?)? {
            Val::One(u) if is_url(&u) => Some(u),
            _ => None,
        }
    }

    /// The files the code downloads (`download.file(URL, "i.sh")`), and from where.
    pub(super) fn find_downloads(&self) -> HashMap<String, String> {
        let mut out = HashMap::new();
        if !matches!(self.lang, Language::R | Language::Julia) {
            return out;
        }
        for (k, t) in self.toks.iter().enumerate() {
            if !matches!(t, Tok::Name(_)) {
                continue;
            }
            let (name, end) = self.qualified(k);
            if !DOWNLOAD.contains(&name.as_str()) || self.toks.get(end) != Some(&Tok::Op("(")) {
                continue;
            }
            let args = self.args(end);
            let dest = args
                .iter()
                .find(|a| matches!(named(a).0, Some("destfile" | "output")))
                .map(|a| named(a).1)
                .or_else(|| args.get(1).copied());
            if let (Some(Val::One(url)), Some(Some(Val::One(dest)))) = (
                args.first().and_then(|a| self.value(a)),
                dest.map(|d| self.value(d)),
            ) && is_url(&url)
            {
                out.insert(dest, url);
            }
        }
        out
    }

    /// `install.packages(PKGS, repos = URL)`: an install from that repository (none named:
    /// the default one, nothing to add).
    fn r_install(&self, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let Some(repos) = args
            .iter()
            .find(|a| matches!(named(a).0, Some("repos")))
            .map(|a| named(a).1)
        else {
            return;
        };
        let pkgs = args
            .first()
            .filter(|a| named(a).0.is_none())
            .and_then(|a| self.value(a));
        let spec = match pkgs {
            Some(Val::One(p)) => p,
            Some(Val::Many(p)) => p.join(" "),
            None => "?".into(),
        };
        match self.value(repos) {
            Some(Val::One(r)) if is_url(&r) => install(cx, "R", spec, r),
            Some(Val::Many(rs)) => {
                for r in rs.into_iter().filter(|r| is_url(r)) {
                    install(cx, "R", spec.clone(), r);
                }
            }
            // `repos = NULL`: a local archive; a name: known only at run time.
            Some(_) => {}
            None if matches!(repos, [Tok::Name(n)] if n == "NULL") => {}
            None => cx.unknown("install.packages", "a repository"),
        }
    }

    /// Julia's `Pkg.add(url = URL)`, `Pkg.add(PackageSpec(url = URL))`, `Pkg.add("URL")`: an
    /// install from that source (a registered name adds nothing).
    fn pkg_add(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let mut flat: Vec<&[Tok]> = Vec::new();
        for a in args {
            // `PackageSpec(url = …)`, `Pkg.PackageSpec(…)`.
            match a.iter().position(|t| *t == Tok::Op("(")) {
                Some(open)
                    if matches!(a.get(open - 1), Some(Tok::Name(n)) if n == "PackageSpec")
                        && group_end(a, open) == a.len() =>
                {
                    flat.extend(split_args(self.lang, &a[open + 1..a.len() - 1]));
                }
                _ => flat.extend(super::split_top(a, |op| op == ";")),
            }
        }
        for a in flat {
            let source = match named(a) {
                (Some("url"), v) => self.value(v),
                (None, v) => match self.value(v) {
                    Some(Val::One(s)) if is_url(&s) || s.ends_with(".git") => Some(Val::One(s)),
                    _ => continue,
                },
                _ => continue,
            };
            match source {
                Some(Val::One(u)) => install(cx, "julia", u.clone(), u),
                _ => cx.unknown(name, "a package source"),
            }
        }
    }
}

/// Whether `s` is a URL the network serves.
fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    ["https://", "http://", "ftp://", "git://", "git@"]
        .iter()
        .any(|p| l.starts_with(p))
}

/// A resolved value as the lens's paths and URLs are kept.
fn res(text: &str) -> Res {
    Res {
        text: text.to_string(),
        home: false,
    }
}

/// An install of `spec` by `manager` from `source`.
fn install(cx: &mut Collect<'_>, manager: &str, spec: String, source: String) {
    cx.push(What::Install {
        manager: manager.to_string(),
        packages: vec![Arg {
            text: spec,
            dynamic: false,
        }],
        source: Some(source),
    });
}

impl Reader<'_> {
    /// Whether a command the code runs names a file it downloaded (`system("bash i.sh")`,
    /// `run(`sh ./i.sh`)`): a download run.
    pub(super) fn runs_download(&self, cx: &mut Collect<'_>) {
        let downloads = &self.downloads;
        let mut run: Vec<String> = Vec::new();
        for f in &cx.found {
            let words: Vec<&str> = match f {
                Found::Shell { text, .. } => text.split_whitespace().collect(),
                Found::Words { words, .. } => words.iter().map(|w| w.text.as_str()).collect(),
                _ => continue,
            };
            for (dest, url) in downloads {
                let dot = format!("./{dest}");
                let named = words.iter().any(|w| {
                    let w = w.trim_matches(|c| c == '\'' || c == '"');
                    w == dest || w == dot
                });
                if named && !run.contains(url) {
                    run.push(url.clone());
                }
            }
        }
        for u in run {
            cx.fetch_and_run(Some(&res(&u)));
        }
    }
}
