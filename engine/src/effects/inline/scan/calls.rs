//! The calls and operators of Perl, Ruby, PHP, Lua and awk code that run commands, found in
//! its tokens, with their arguments resolved where they are constants.
//!
//! In: the tokens of the code ([`Tok`]), its [`Language`] and argument vector. Out: into
//! [`Collect`], each command line run (`system("make test")`, backticks, `qx{}`, `%x()`,
//! `open(F, "cmd |")`, `io.popen`, awk's `print | "cmd"` and `"cmd" | getline`), each argument
//! list run without a shell (`system("rm", "-rf", $d)`, `IO.popen([…])`), and an `unsure` for
//! each of them whose command is not a constant, with the call named.
//!
//! A constant is a string literal (escapes resolved), a concatenation of constants (Perl and
//! PHP `.`, Ruby `+`, Lua `..`, awk juxtaposition), an interpolation or a lookup of an
//! environment variable (`$ENV{HOME}`, `ENV['HOME']`, `getenv('HOME')`, `os.getenv("HOME")`,
//! `ENVIRON["HOME"]`, passed on as `${HOME}` for the shell lens to resolve), an item of the
//! argument vector given on the command line (`$ARGV[0]`, `ARGV[0]`, `$argv[1]`, `arg[1]`),
//! and a name assigned once in the code to a constant (`my $c = "ls"; system($c)`).

use std::collections::HashMap;

mod awk;
mod bind;
mod indirect;
mod load;
mod remove;
mod sockets;
mod tables;

use super::super::resolve::mode_text;
use super::files::{self, Access};
use super::lex::{Part, Tok};
use crate::effects::inline::collect::Collect;
use crate::effects::language::Language;
use crate::shell::Arg;
use tables::{Runs, table};

/// A constant value: a string, or a list of words.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    /// One string.
    One(String),
    /// A list (`qw(a b)`, `["a", "b"]`, `array('a')`, `("a", "b")`).
    Many(Vec<String>),
}

/// The reader of one piece of code's tokens.
struct Reader<'a> {
    /// The language.
    lang: Language,
    /// The tokens.
    toks: &'a [Tok],
    /// The argument vector the code sees (program first).
    argv: &'a [Option<String>],
    /// Names assigned once to a constant.
    bindings: HashMap<String, Val>,
    /// Names assigned once to one of the language's calls (R's `f <- unlink`, Julia's
    /// `g = rm`), and the call.
    aliases: HashMap<String, String>,
    /// The files R or Julia code downloads, and the URL each one comes from.
    downloads: HashMap<String, String>,
}

/// Add what the calls in `toks` run to `cx`.
pub(super) fn read(lang: Language, toks: &[Tok], cx: &mut Collect<'_>) {
    let argv = cx.argv;
    let mut r = Reader {
        lang,
        toks,
        argv,
        bindings: HashMap::new(),
        aliases: HashMap::new(),
        downloads: HashMap::new(),
    };
    r.bind();
    r.downloads = r.find_downloads();
    r.scan(cx);
    r.runs_download(cx);
}

/// Whether `t` ends a statement in `lang`.
fn ends_statement(lang: Language, t: &Tok) -> bool {
    match t {
        Tok::Op(";") => true,
        Tok::Newline => lang != Language::Perl && lang != Language::Php,
        _ => false,
    }
}

/// The arguments of a list split at its top-level commas (and Perl's `=>`).
fn split_args(lang: Language, toks: &[Tok]) -> Vec<&[Tok]> {
    split_top(toks, |op| {
        op == "," || (op == "=>" && lang == Language::Perl)
    })
    .into_iter()
    .map(trim_lines)
    .filter(|a| !a.is_empty())
    .collect()
}

/// `toks` split at each operator outside brackets for which `at` holds (every piece, the
/// last one too, even when empty).
fn split_top(toks: &[Tok], at: impl Fn(&str) -> bool) -> Vec<&[Tok]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Op("(" | "[" | "{") => depth += 1,
            Tok::Op(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Op(op) if depth == 0 && at(op) => {
                out.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out
}

/// The tokens of an R or Julia named argument's value (`recursive = TRUE` → `TRUE`) and its
/// name.
fn named(arg: &[Tok]) -> (Option<&str>, &[Tok]) {
    match arg {
        [Tok::Name(n), Tok::Op("="), rest @ ..] => (Some(n.as_str()), rest),
        _ => (None, arg),
    }
}

/// `toks` without leading and trailing line ends.
fn trim_lines(toks: &[Tok]) -> &[Tok] {
    let start = toks
        .iter()
        .position(|t| *t != Tok::Newline)
        .unwrap_or(toks.len());
    let end = toks
        .iter()
        .rposition(|t| *t != Tok::Newline)
        .map_or(start, |k| k + 1);
    &toks[start..end.max(start)]
}

/// The index one past the bracket that closes the one at `open`.
fn group_end(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Op("(" | "[" | "{") => depth += 1,
            Tok::Op(")" | "]" | "}") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The name of the environment variable `text` looks up, as `${NAME}` for the shell lens
/// (`$ENV{HOME}`, `ENV['HOME']`, `ENV.fetch('HOME')`, `getenv('HOME')`, `$_SERVER['HOME']`,
/// `os.getenv("HOME")`, `ENVIRON["HOME"]`).
fn env_var(text: &str) -> Option<String> {
    const FORMS: &[(&str, &str)] = &[
        ("$ENV{", "}"),
        ("ENV[", "]"),
        ("ENV.fetch(", ")"),
        ("$_SERVER[", "]"),
        ("$_ENV[", "]"),
        ("getenv(", ")"),
        ("os.getenv(", ")"),
        ("ENVIRON[", "]"),
        ("Sys.getenv(", ")"),
    ];
    let t: String = text.split_whitespace().collect();
    FORMS.iter().find_map(|(open, close)| {
        let inner = t.strip_prefix(open)?.strip_suffix(close)?;
        let name = inner.trim_matches(|c| c == '\'' || c == '"');
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        valid.then(|| format!("${{{name}}}"))
    })
}

/// The text of tokens as written (strings single-quoted), for [`env_var`] and lookups.
fn render(toks: &[Tok]) -> String {
    let mut s = String::new();
    for t in toks {
        match t {
            Tok::Str { parts, .. } => {
                s.push('\'');
                for p in parts {
                    match p {
                        Part::Lit(l) | Part::Expr(l) => s.push_str(l),
                    }
                }
                s.push('\'');
            }
            Tok::Name(n) | Tok::Var(n) | Tok::Num(n) => s.push_str(n),
            Tok::Op(o) => s.push_str(o),
            Tok::Words(_) | Tok::Regex => s.push('?'),
            Tok::Newline => {}
        }
    }
    s
}

impl<'a> Reader<'a> {
    /// Add what the calls in the reader's tokens run to `cx`.
    fn scan(&self, cx: &mut Collect<'_>) {
        let toks = self.toks;
        let lang = self.lang;
        let mut i = 0;
        while let Some(t) = toks.get(i) {
            match t {
                Tok::Str {
                    parts,
                    command: true,
                } => match self.string(parts) {
                    Some(s) => cx.shell("`…`", s),
                    None => cx.unknown("`…`", "a command"),
                },
                // Perl's `STDIN->fdopen($c, "r")` (IO::Handle).
                Tok::Name(h)
                    if lang == Language::Perl
                        && matches!(h.as_str(), "STDIN" | "STDOUT" | "STDERR")
                        && toks.get(i + 1) == Some(&Tok::Op("->"))
                        && toks.get(i + 2) == Some(&Tok::Name("fdopen".into())) =>
                {
                    cx.streams_on_socket = true;
                }
                Tok::Name(_) => {
                    let (written, end) = self.qualified(i);
                    // R's and Julia's lambdas, pipes and code parsed at run time.
                    if let Some(next) = self.indirection(&written, i, end, cx) {
                        i = next;
                        continue;
                    }
                    // `f <- unlink; f(…)`: the function a name was given.
                    let name = self.aliases.get(&written).cloned().unwrap_or(written);
                    if let Some(runs) = self.runs_of(&name, i, end) {
                        // `IO::Socket::INET->new(…)`: the arguments of its constructor; Julia's
                        // `rm.(paths)`: the call broadcast over each item of its arguments.
                        let at = match (runs, toks.get(end), toks.get(end + 1)) {
                            (Runs::PerlSocket, Some(Tok::Op("->")), Some(Tok::Name(n)))
                                if n == "new" =>
                            {
                                end + 2
                            }
                            (_, Some(Tok::Op(".")), Some(Tok::Op("(")))
                                if lang == Language::Julia =>
                            {
                                end + 1
                            }
                            _ => end,
                        };
                        let args = self.args(at);
                        self.call(&name, runs, &args, cx);
                    } else if let Some((f, args)) = self.indirect(&name, end) {
                        // `do.call(unlink, list(…))`, `lapply(paths, unlink, …)`,
                        // `foreach(rm, paths)`: the function passed, called with those arguments.
                        if let Some(&(_, runs)) = table(lang).iter().find(|(n, _)| *n == f) {
                            self.call(&f, runs, &args, cx);
                        }
                    }
                    i = end;
                    continue;
                }
                // Ruby's `$stdin.reopen(c)`, `$stdout.reopen(c)`.
                Tok::Var(v)
                    if lang == Language::Ruby
                        && matches!(v.as_str(), "$stdin" | "$stdout" | "$stderr")
                        && toks.get(i + 1) == Some(&Tok::Op("."))
                        && toks.get(i + 2) == Some(&Tok::Name("reopen".into())) =>
                {
                    cx.streams_on_socket = true;
                }
                Tok::Op(op @ ("|" | "|&" | ">" | ">>" | "<")) if lang == Language::Awk => {
                    self.awk_operator(i, op, cx)
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The operator that concatenates strings (`None`: juxtaposition, awk).
    fn concat_op(&self) -> Option<&'static str> {
        match self.lang {
            Language::Perl | Language::Php => Some("."),
            Language::Ruby => Some("+"),
            Language::Lua => Some(".."),
            Language::Julia => Some("*"),
            _ => None,
        }
    }

    /// The name starting at token `i`, with its qualifiers (`Kernel.system`, `os.execute`,
    /// `CORE::system`, PHP's `\shell_exec`), and the index after it.
    fn qualified(&self, i: usize) -> (String, usize) {
        let mut name = String::new();
        let mut k = i;
        while let Some(Tok::Name(n)) = self.toks.get(k) {
            name.push_str(n);
            k += 1;
            match (self.toks.get(k), self.toks.get(k + 1)) {
                (Some(Tok::Op(sep @ ("." | "::"))), Some(Tok::Name(_)))
                    if self.lang != Language::Php && self.lang != Language::Awk =>
                {
                    name.push_str(sep);
                    k += 1;
                }
                _ => break,
            }
        }
        if self.lang == Language::Php {
            name = name.to_ascii_lowercase();
        }
        (name, k.max(i + 1))
    }

    /// What the call named `name` at token `i` runs, when it is one of the language's calls
    /// and not a method of another object, a definition or a hash key.
    fn runs_of(&self, name: &str, i: usize, end: usize) -> Option<Runs> {
        let runs = table(self.lang)
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| *r)?;
        let before = i.checked_sub(1).and_then(|k| self.toks.get(k));
        let not_call = match before {
            // Julia's `p -> rm(p)` is a function of `p`, not a method.
            Some(Tok::Op("->")) => self.lang != Language::Julia,
            Some(Tok::Op("." | "::" | "&")) => true,
            Some(Tok::Op(":")) => self.lang == Language::Ruby,
            Some(Tok::Name(n)) => matches!(n.as_str(), "sub" | "def" | "function" | "alias"),
            _ => false,
        };
        let hash_key = matches!(
            self.toks.get(end),
            Some(Tok::Op("=>" | "=" | "," | ")" | ";" | ":"))
        );
        (!not_call && !hash_key).then_some(runs)
    }

    /// The argument tokens of the call whose name ends before token `end`: inside its
    /// parentheses, or (Perl, Ruby, and Lua's one string) up to the end of its statement.
    fn args(&self, end: usize) -> Vec<&[Tok]> {
        match self.toks.get(end) {
            Some(Tok::Op("(")) => {
                let close = group_end(self.toks, end);
                let inner = &self.toks[end + 1..close.saturating_sub(1).max(end + 1)];
                split_args(self.lang, inner)
            }
            Some(Tok::Str { .. }) if self.lang == Language::Lua => {
                vec![&self.toks[end..end + 1]]
            }
            _ if matches!(self.lang, Language::Perl | Language::Ruby) => {
                let mut depth = 0usize;
                let mut k = end;
                while let Some(t) = self.toks.get(k) {
                    match t {
                        Tok::Op("(" | "[" | "{") => depth += 1,
                        Tok::Op(")" | "]" | "}") if depth == 0 => break,
                        Tok::Op(")" | "]" | "}") => depth -= 1,
                        Tok::Op("||" | "&&" | "?") if depth == 0 => break,
                        Tok::Name(n)
                            if depth == 0
                                && matches!(
                                    n.as_str(),
                                    "or" | "and"
                                        | "if"
                                        | "unless"
                                        | "while"
                                        | "until"
                                        | "do"
                                        | "then"
                                ) =>
                        {
                            break;
                        }
                        t if depth == 0 && ends_statement(self.lang, t) => break,
                        _ => {}
                    }
                    k += 1;
                }
                split_args(self.lang, &self.toks[end..k])
            }
            _ => Vec::new(),
        }
    }

    /// Add what the call `name` runs with `args`.
    fn call(&self, name: &str, runs: Runs, args: &[&[Tok]], cx: &mut Collect<'_>) {
        if runs == Runs::Streams {
            cx.streams_on_socket = true;
            return;
        }
        // PHP's `proc_open(CMD, [0 => $sock, …])`: a descriptor of the code as a stream.
        if name == "proc_open"
            && args
                .get(1)
                .is_some_and(|spec| spec.iter().any(|t| matches!(t, Tok::Var(_))))
        {
            cx.streams_on_socket = true;
        }
        // R's and Julia's named arguments (`system2("rm", args = c(…))`): their values;
        // Julia's keywords after a `;` (`cp(a, b; force = true)`) are no positional ones.
        let values: Vec<&[Tok]>;
        let args = if matches!(self.lang, Language::R | Language::Julia) && runs != Runs::Remove {
            values = args
                .iter()
                .map(|a| match self.lang {
                    Language::Julia => split_top(a, |op| op == ";").swap_remove(0),
                    _ => a,
                })
                .map(|a| named(a).1)
                .collect();
            &values[..]
        } else {
            args
        };
        let Some(first) = args.first() else {
            return;
        };
        match runs {
            Runs::List(skip) => {
                let mut args: Vec<&[Tok]> = args.iter().skip(skip).copied().collect();
                if self.lang == Language::Ruby {
                    // The environment hash before the command, the options after it.
                    if args
                        .first()
                        .is_some_and(|a| a.first() == Some(&Tok::Op("{")))
                    {
                        args.remove(0);
                    }
                    args.retain(|a| !is_option(a));
                }
                self.list(name, &args, cx);
            }
            Runs::First => match self.value(first) {
                Some(Val::One(s)) => cx.shell(name, s),
                Some(Val::Many(words)) => {
                    cx.words(name, words.iter().map(|w| word(w)).collect(), None)
                }
                None => cx.unknown(name, "a command"),
            },
            Runs::PathArgs => {
                let program = self.value(first);
                let rest = args.get(1).map(|a| self.value(a));
                match (program, rest) {
                    (Some(Val::One(p)), None) => cx.words(name, vec![word(&p)], None),
                    (Some(Val::One(p)), Some(Some(Val::Many(mut w)))) => {
                        w.insert(0, p);
                        cx.words(name, w.iter().map(|x| word(x)).collect(), None);
                    }
                    // R's `system2("sh", "i.sh -x")`: one string of arguments, which R
                    // pastes after the command for the shell.
                    (Some(Val::One(p)), Some(Some(Val::One(a)))) if self.lang == Language::R => {
                        cx.shell(name, format!("{p} {a}"))
                    }
                    _ => cx.unknown(name, "a command"),
                }
            }
            Runs::PipeOpen => match self.value(first) {
                Some(Val::One(s)) if s.starts_with('|') => {
                    if s != "|-" {
                        cx.shell(name, s[1..].to_string());
                    }
                }
                _ => self.open(args, cx),
            },
            Runs::Read => self.file(first, Access::Read, cx),
            Runs::Write => self.file(first, Access::Write, cx),
            Runs::Open => self.open(args, cx),
            Runs::PerlOpen => self.perl_open(name, args, cx),
            Runs::Chmod { mode_first } => self.chmod(mode_first, args, cx),
            Runs::Connect { host } => self.connect(name, args.get(host), args.get(host + 1), cx),
            Runs::PerlSocket => self.perl_socket(name, args, cx),
            Runs::Streams => {}
            Runs::Load => self.load(name, first, cx),
            Runs::Remove => self.remove(name, args, cx),
            Runs::Copy => {
                self.file(first, Access::Read, cx);
                if let Some(to) = args.get(1) {
                    self.file(to, Access::Write, cx);
                }
            }
            Runs::ReadIfPath => {
                let stream = matches!(first, [Tok::Name(_)] | [Tok::Str { command: true, .. }])
                    && self.value(first).is_none();
                if !stream {
                    self.file(first, Access::Read, cx);
                }
            }
            Runs::DoFile => match self.value(first) {
                Some(Val::One(p)) => cx.words(name, vec![word("lua"), word(&p)], None),
                _ => cx.unknown(name, "a file"),
            },
        }
    }

    /// `chmod 04755, PATH…`, `File.chmod(0o4755, PATH)`, `chmod(PATH, 04755)`: each file's mode,
    /// as `chmod` spells it (`4755`; a symbolic one, `FileUtils.chmod("u+s", f)`, as given).
    fn chmod(&self, mode_first: bool, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let (mode, paths) = if mode_first {
            (args.first(), args.get(1..).unwrap_or_default())
        } else {
            (args.get(1), args.get(..1).unwrap_or_default())
        };
        let mode = mode.and_then(|m| match self.value(m) {
            // R's `Sys.chmod(p, "777")`: a mode given as text is octal already.
            Some(Val::One(t)) if self.lang == Language::R && matches!(m, [Tok::Str { .. }]) => {
                Some(t)
            }
            Some(Val::One(t)) => Some(mode_text(&t).unwrap_or(t)),
            _ => None,
        });
        for arg in paths {
            let shown = render(arg);
            let named = match self.value(arg) {
                Some(Val::One(p)) => vec![Some(p)],
                Some(Val::Many(list)) => list.into_iter().map(Some).collect(),
                None => vec![None],
            };
            for p in named {
                files::permission(cx, p.as_deref(), &shown, mode.clone());
            }
        }
    }

    /// A file named by `arg`, opened with `access`.
    fn file(&self, arg: &[Tok], access: Access, cx: &mut Collect<'_>) {
        // Perl's in-memory file (`\$text`) is no file.
        if arg.first() == Some(&Tok::Op("\\")) {
            return;
        }
        let shown = render(arg);
        // A URL (`file_get_contents('https://…')`) is a request, not a file: not read here.
        if shown.contains("://") {
            return;
        }
        match self.value(arg) {
            Some(Val::One(p)) => files::file(cx, Some(&p), &shown, access),
            Some(Val::Many(_)) => {}
            None => files::file(cx, None, &shown, access),
        }
    }

    /// `File.open(PATH, MODE)`, `fopen(PATH, MODE)`, `io.open(PATH, MODE)`: read without a
    /// mode; a mode that is not a constant is a write.
    fn open(&self, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let Some(path) = args.first() else {
            return;
        };
        let access = match args.get(1).map(|m| self.value(m)) {
            None => Access::Read,
            Some(Some(Val::One(m))) => files::access(&m).unwrap_or(Access::Write),
            Some(_) => Access::Write,
        };
        self.file(path, access, cx);
    }

    /// `system LIST` and its kind: one string is a shell line, several are the words.
    fn list(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let mut words = Vec::new();
        for a in args {
            match self.value(a) {
                Some(Val::One(s)) if args.len() == 1 => {
                    cx.shell(name, s);
                    return;
                }
                Some(Val::One(s)) => words.push(s),
                Some(Val::Many(w)) => words.extend(w),
                None => {
                    cx.unknown(name, "a command");
                    return;
                }
            }
        }
        cx.words(name, words.iter().map(|w| word(w)).collect(), None);
    }

    /// Perl's `open(FH, "cmd |")`, `open(FH, "| cmd")`, `open(FH, "-|", CMD…)`: the
    /// command a pipe open runs. A file open adds nothing here; a two-argument open whose
    /// text is not a constant may be a pipe, so it is `unsure`.
    fn perl_open(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        let Some(spec) = args.get(1) else {
            return;
        };
        // `open(STDIN, ">&S")`, `open(STDOUT, ">&", $s)`, `open STDERR, ">&=3"`: a standard
        // stream duplicated from another handle (perlfunc `open`, "dup").
        let standard = args.first().is_some_and(|h| {
            matches!(
                render(h).trim_start_matches(['\\', '*']),
                "STDIN" | "STDOUT" | "STDERR"
            )
        });
        // The mode is the start of the first string (`">&=" . fileno($c)` is one too).
        let mode = match spec.first() {
            Some(Tok::Str { parts, .. }) => match parts.first() {
                Some(Part::Lit(l)) => l.trim_start(),
                _ => "",
            },
            _ => "",
        };
        let dup = ["<&", ">&", "+<&", "+>&", ">>&"]
            .iter()
            .any(|p| mode.starts_with(p));
        if standard && dup {
            cx.streams_on_socket = true;
            return;
        }
        if args.len() == 2 {
            match self.value(spec) {
                Some(Val::One(s)) => {
                    let t = s.trim();
                    if let Some(line) = t.strip_prefix('|') {
                        cx.shell(name, line.trim().to_string());
                    } else if let Some(line) = t.strip_suffix('|') {
                        cx.shell(name, line.trim().to_string());
                    } else {
                        let (access, path) = files::perl_spec(t);
                        if path != "-" {
                            files::file(cx, Some(path), path, access);
                        }
                    }
                }
                _ => cx.unknown(name, "a file or command"),
            }
            return;
        }
        match self.value(spec) {
            Some(Val::One(m)) if matches!(m.trim(), "-|" | "|-") => {
                self.list(name, &args[2..], cx);
            }
            Some(Val::One(m)) => {
                if let (Some(access), Some(path)) = (files::access(&m), args.get(2)) {
                    self.file(path, access, cx);
                }
            }
            Some(_) => {}
            None => cx.unknown(name, "a mode"),
        }
    }

    /// The constant value of an argument's tokens, if it is one.
    fn value(&self, toks: &[Tok]) -> Option<Val> {
        let toks = trim_lines(toks);
        match toks {
            [] => None,
            [Tok::Words(w)] => Some(Val::Many(w.clone())),
            [Tok::Var(v) | Tok::Name(v)] => self.bindings.get(v).cloned(),
            [Tok::Op(open @ ("[" | "(")), .., Tok::Op(")" | "]")]
                if group_end(toks, 0) == toks.len() =>
            {
                let inner = &toks[1..toks.len() - 1];
                let items = split_args(self.lang, inner);
                if *open == "(" && items.len() == 1 {
                    return self.value(inner);
                }
                self.many(&items)
            }
            // PHP's `array(…)`, R's `c(…)`.
            [Tok::Name(a), Tok::Op("("), ..]
                if (a.eq_ignore_ascii_case("array") || (a == "c" && self.lang == Language::R))
                    && group_end(toks, 1) == toks.len() =>
            {
                self.many(&split_args(self.lang, &toks[2..toks.len() - 1]))
            }
            _ => self.concat(toks).map(Val::One),
        }
    }

    /// The words of a list's items.
    fn many(&self, items: &[&[Tok]]) -> Option<Val> {
        let mut words = Vec::new();
        for it in items {
            match self.value(it)? {
                Val::One(s) => words.push(s),
                Val::Many(w) => words.extend(w),
            }
        }
        Some(Val::Many(words))
    }

    /// The string a concatenation of constants makes.
    fn concat(&self, toks: &[Tok]) -> Option<String> {
        let mut out = String::new();
        match self.concat_op() {
            Some(op) => {
                let mut depth = 0usize;
                let mut start = 0;
                for (k, t) in toks.iter().enumerate() {
                    match t {
                        Tok::Op("(" | "[" | "{") => depth += 1,
                        Tok::Op(")" | "]" | "}") => depth = depth.saturating_sub(1),
                        Tok::Op(o) if depth == 0 && *o == op => {
                            out.push_str(&self.primary(&toks[start..k])?);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                out.push_str(&self.primary(&toks[start..])?);
            }
            None if self.lang != Language::Awk => out.push_str(&self.primary(toks)?),
            None => {
                // awk: each primary in turn (a string, a number, a name, `NAME[…]`,
                // `NAME(…)`, `(…)`).
                let mut k = 0;
                while k < toks.len() {
                    let end = match (&toks[k], toks.get(k + 1)) {
                        (Tok::Op("("), _) => group_end(toks, k),
                        (Tok::Name(_), Some(Tok::Op("[" | "("))) => group_end(toks, k + 1),
                        _ => k + 1,
                    };
                    out.push_str(&self.primary(&toks[k..end])?);
                    k = end;
                }
            }
        }
        Some(out)
    }

    /// The string one operand of a concatenation makes.
    fn primary(&self, toks: &[Tok]) -> Option<String> {
        let toks = trim_lines(toks);
        match toks {
            [
                Tok::Str {
                    parts,
                    command: false,
                },
            ] => self.string(parts),
            [Tok::Num(n)] => Some(n.clone()),
            [Tok::Op("("), .., Tok::Op(")")] if group_end(toks, 0) == toks.len() => {
                self.concat(&toks[1..toks.len() - 1])
            }
            _ if self.path_call(toks).is_some() => self.path_call(toks),
            _ => match self.lookup(&render(toks))? {
                Val::One(s) => Some(s),
                Val::Many(_) => None,
            },
        }
    }

    /// The text of a string's parts, when every interpolation is a constant.
    fn string(&self, parts: &[Part]) -> Option<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                Part::Lit(l) => out.push_str(l),
                Part::Expr(e) => {
                    // `#{…}`, `{$…}`, `${…}`: the expression inside.
                    let inner = e
                        .strip_prefix("#{")
                        .or_else(|| e.strip_prefix("${"))
                        .and_then(|x| x.strip_suffix('}'))
                        .map(|x| {
                            if matches!(self.lang, Language::Perl | Language::Php) {
                                format!("${x}")
                            } else {
                                x.to_string()
                            }
                        })
                        .or_else(|| {
                            e.strip_prefix('{')
                                .and_then(|x| x.strip_suffix('}'))
                                .map(str::to_string)
                        })
                        .or_else(|| e.strip_prefix('#').map(str::to_string))
                        .unwrap_or_else(|| e.clone());
                    // Julia's `$(expr)` and `$name`.
                    if self.lang == Language::Julia {
                        let code = e.strip_prefix('$').unwrap_or(e);
                        match self.value(&super::lex::lex(self.lang, code))? {
                            Val::One(s) => out.push_str(&s),
                            Val::Many(w) => out.push_str(&w.join(" ")),
                        }
                        continue;
                    }
                    match self.lookup(&inner)? {
                        Val::One(s) => out.push_str(&s),
                        // Perl joins an interpolated list with blanks.
                        Val::Many(w) => out.push_str(&w.join(" ")),
                    }
                }
            }
        }
        Some(out)
    }

    /// The value of an expression written as `text`: an environment variable, an item of
    /// the argument vector, or a name bound to a constant.
    fn lookup(&self, text: &str) -> Option<Val> {
        let t: String = text.split_whitespace().collect();
        if let Some(v) = env_var(&t) {
            return Some(Val::One(v));
        }
        // `$ARGV[0]` and `ARGV[0]` are the first word after the code; `$argv[1]` and
        // `arg[1]` are too.
        const ARGV: &[(&str, usize)] = &[("$ARGV[", 1), ("ARGV[", 1), ("$argv[", 0), ("arg[", 0)];
        for (open, shift) in ARGV {
            if let Some(n) = t.strip_prefix(open).and_then(|x| x.strip_suffix(']'))
                && let Ok(n) = n.parse::<usize>()
                && self.lang != Language::Awk
            {
                let word = self.argv.get(n + shift).cloned().flatten()?;
                return Some(Val::One(word));
            }
        }
        self.bindings.get(&t).cloned()
    }
}

/// Whether a Ruby argument is an option (`chdir: "x"`, `:err => …`, `{…}`), not a word.
fn is_option(arg: &[Tok]) -> bool {
    matches!(arg, [Tok::Op("{"), ..] | [Tok::Name(_), Tok::Op(":"), ..])
        || arg.contains(&Tok::Op("=>"))
}

/// A word of an argument list run without a shell: an environment variable in it
/// (`${NAME}`, from [`env_var`]) is not expanded by a shell, so the home folder at its start
/// is `~` and any other is known only at run time.
fn word(w: &str) -> Arg {
    if let Some(rest) = w.strip_prefix("${HOME}")
        && !rest.contains("${")
    {
        return Arg {
            text: format!("~{rest}"),
            dynamic: false,
        };
    }
    Arg {
        text: w.to_string(),
        dynamic: w.contains("${"),
    }
}
