//! The inline-code lens: Python and JavaScript / TypeScript given to an interpreter on the
//! command line (`python3 -c`, `python3 - <<EOF`, `node -e`, `deno eval`, `bun -e`).
//!
//! In: the code text, the [`Language`] it is in, the [`Route`] of the command that runs it
//! and its working directory. Out: the effects of the calls in it whose arguments are
//! literals: files opened, written, deleted or changed in mode (`open(p, 'a')`,
//! `Path(p).write_text(…)`, `shutil.rmtree`, `fs.writeFileSync`, `fs.rmSync(p, {recursive:
//! true})`), requests sent (`urllib.request.urlopen`, `requests.post`, `fetch`,
//! `http.request`, socket connects) with the bodies they carry from the environment or from
//! files, and commands run (`subprocess.run`, `os.system`, `child_process.execSync`), which go
//! through the shell lens with the call added to the route's `via`.
//!
//! Code reaches the lens from `-c` / `-e` / `--eval` / `-p` option values, `deno eval CODE`,
//! and the standard input of an interpreter given no script when the shell lens knows that
//! text (a heredoc, a here-string, a literal `echo … |`); the words after the code are the
//! code's `sys.argv` / `process.argv`. [`code_lens`] is the entry for a script file's text.
//!
//! "Literal" covers what a reader resolves without running anything: string literals,
//! concatenations, f-strings / template strings, `%` and `.format` of literals,
//! `os.path.expanduser` / `expandvars('$HOME…')`, `os.path.join`, `Path.home() / 'x'`,
//! `path.join(os.homedir(), …)`, `process.env.HOME`, names bound once to such a value in the
//! same code, `sys.argv[i]` / `process.argv[i]` given on the command line, and a loop over
//! `glob.glob(pattern)` / `Path(d).glob(p)` / `os.listdir(d)` (each item is the pattern). A
//! call to an effectful function whose path, URL or command is not literal is `unsure` with
//! that cause ("`shutil.rmtree` with a path known only at run time"); a read from a computed
//! path is a read of a path known only at run time (as `cat "$F"` is); `exec('…')` /
//! `eval('…')` of literal code is read like the rest, of other code is `unsure`. Pure code
//! (`print(1+1)`, `json.loads(…)`) has no effect. Code that does not parse, is longer than
//! [`MAX_CODE`], takes longer than [`PARSE_BUDGET`] to parse or more than [`MAX_STEPS`] to
//! resolve is `unsure` with that cause.
//!
//! `open('~/x')` does not expand `~`, so in a script file a literal `~` is a folder of that
//! name; in code on a command line a leading `~` is taken as the home folder, because the
//! shell lens has already turned `"$HOME"` inside the code into `~`.
//!
//! The parser is tree-sitter with its Python, JavaScript and TypeScript grammars: one API and
//! one walker design for the three languages, grammars maintained by the tree-sitter project,
//! error-tolerant trees (the position of the first error is reported and what parses is still
//! read), and a progress callback that bounds the parse in time. A Rust-native parser was
//! weighed: `rustpython-parser` reads Python only and stops at the first error; `oxc_parser`
//! reads JavaScript / TypeScript only; two parsers would mean two tree models for one lens.
//! The grammars are C and build with the system C compiler: a clean build of the four crates
//! takes about 16 s of CPU (30 s on two busy cores); they build at `opt-level = 2` in the
//! dev profile too (root `Cargo.toml`), and parse 256 KiB of Python in about 140 ms.
//!
//! Ruby, Perl, PHP and AppleScript code is not parsed here: for those the policy rules that
//! read the command text still apply.

mod javascript;
mod powershell;
mod python;
#[cfg(test)]
mod round_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use super::programs::{Parsed, Role, stdin_language};
use super::{Effects, PathRef, Route, What};
use crate::shell::{
    Arg, BrushAnalyzer, MAX_DEPTH, RedirectMode, ShellAnalysis, ShellAnalyzer, SimpleCommand,
    analyze_words,
};
use crate::shell_env::ShellEnv;

pub(crate) use super::language::Language;
pub(crate) use powershell::{is_powershell_call, powershell_analysis, powershell_tool};

/// Largest code parsed, in bytes (256 KiB); longer code is `unsure`.
pub(crate) const MAX_CODE: usize = 256 * 1024;

/// Longest time a parse may take; a slower parse is stopped and the code is `unsure`.
pub(crate) const PARSE_BUDGET: Duration = Duration::from_millis(500);

/// How deep a value is followed through names and calls (`a = b; b = c; …`).
const MAX_RESOLVE_DEPTH: usize = 24;

/// How many resolution steps one piece of code may take (names bound to names bound to
/// names can branch: `b = a + a; c = b + b; …`); past it the code is `unsure`.
const MAX_STEPS: usize = 200_000;

/// How many effects and commands one piece of code may yield.
const MAX_FOUND: usize = 2_000;

/// The steps a walker has taken, against [`MAX_STEPS`].
#[derive(Default)]
pub(super) struct Budget(std::cell::Cell<usize>);

impl Budget {
    /// Take one step; `false` once the budget is spent.
    pub(super) fn spend(&self) -> bool {
        let n = self.0.get().saturating_add(1);
        self.0.set(n);
        n <= MAX_STEPS
    }

    /// Whether the budget ran out.
    pub(super) fn exhausted(&self) -> bool {
        self.0.get() > MAX_STEPS
    }
}

/// Code an interpreter on a command line runs: who runs it, its language, the code, and the
/// argument vector the code sees.
#[derive(Debug, Clone)]
pub(crate) struct CodeRun {
    /// How it runs, for the route's `via` (`python3 -c`, `node <<stdin`, `deno eval`).
    pub(crate) who: String,
    /// Its language.
    pub(crate) lang: Language,
    /// The code as the shell passes it.
    pub(crate) code: Arg,
    /// `sys.argv` / `process.argv` as the code sees it; `None` for an argument known only at
    /// run time.
    pub(crate) argv: Vec<Option<String>>,
}

/// The code a command runs: `-c CODE` / `-e CODE` option values, `deno eval CODE`, and the
/// standard input of an interpreter given no script (`python3 - <<EOF`, `node <<< '…'`).
pub(crate) fn code_runs(c: &SimpleCommand, p: &Parsed) -> Vec<CodeRun> {
    let mut out = Vec::new();
    // `powershell -Command …`, `cmd /c …`: their own command-line syntax.
    if let Some(run) = powershell::code_run(c) {
        out.push(run);
        return out;
    }
    let base = c.basename();
    let known = |a: &Arg| (!a.dynamic).then(|| a.text.clone());
    // The words after the code.
    let rest: Vec<Option<String>> = p
        .operands
        .iter()
        .filter(|(r, _)| !matches!(r, Role::Code(_)))
        .map(|(_, a)| known(a))
        .collect();
    for (option, lang, code) in &p.codes {
        let first = match lang {
            Language::Python => "-c",
            _ => base,
        };
        let mut argv = vec![Some(first.to_string())];
        argv.extend(rest.iter().cloned());
        out.push(CodeRun {
            who: format!("{base} {option}"),
            lang: *lang,
            code: code.clone(),
            argv,
        });
    }
    for (role, code) in &p.operands {
        if let Role::Code(lang) = role {
            out.push(CodeRun {
                who: format!("{base} {}", p.sub.join(" ")),
                lang: *lang,
                code: code.clone(),
                argv: Vec::new(),
            });
        }
    }
    // An interpreter given no script reads its code from standard input.
    if let Some(lang) = stdin_language(base)
        && p.row.subs.is_empty()
        && !p.lead_given
        && p.operands
            .first()
            .is_none_or(|(_, a)| a.text == "-" && !a.dynamic)
        && let Some(text) = c
            .redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
    {
        let argv = match lang {
            // `python3 - a b`: `sys.argv` is `['-', 'a', 'b']`; with no `-`, `['']`.
            Language::Python if rest.is_empty() => vec![Some(String::new())],
            Language::Python => rest.clone(),
            _ => Vec::new(),
        };
        out.push(CodeRun {
            who: format!("{base} <<stdin"),
            lang,
            code: text.target.clone(),
            argv,
        });
    }
    out
}

/// The effects of code a command line runs, pushed with `route`, `depth` levels into the line.
pub(crate) fn run_code(
    run: &CodeRun,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    let code = Code {
        lang: run.lang,
        text: &run.code.text,
        dynamic: run.code.dynamic,
        argv: &run.argv,
        from_shell: true,
    };
    code_lens_at(&code, route, cwd, env, depth, fx);
}

/// A piece of code to read.
struct Code<'a> {
    lang: Language,
    text: &'a str,
    /// Part of the text comes from an expansion the shell lens could not resolve.
    dynamic: bool,
    /// `sys.argv` / `process.argv` as the code sees it.
    argv: &'a [Option<String>],
    /// The text is a word of a command line, expanded by the shell lens.
    from_shell: bool,
}

/// The effects of `code` in `lang`, run by the command `route` names, in `cwd`.
///
/// Each effect the code has directly is pushed with `route` as given (the caller puts how the
/// code runs in its `via`, e.g. `python3 -c`); each command the code runs is analysed by the
/// shell lens with the call that runs it added to `via` (`subprocess.run`). For scripts run by
/// path (`python3 x.py`) call it with the file's text and a `via` naming the file; `argv` is
/// the argument vector the code sees (`sys.argv`, `process.argv`: for `python3 x.py build`,
/// `["x.py", "build"]`), so `shutil.rmtree(sys.argv[1])` deletes `build`.
///
/// # Examples
///
/// ```ignore
/// let route = Route { tool: "Bash".into(), via: vec!["python3 -c".into()], ..Route::default() };
/// code_lens(Language::Python, "import shutil; shutil.rmtree('build')", &[], &route, Some("/p"), &env, &mut fx);
/// // fx: deletes build recursively (Bash via python3 -c)
/// ```
pub(crate) fn code_lens(
    lang: Language,
    code: &str,
    argv: &[String],
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    let argv: Vec<Option<String>> = argv.iter().cloned().map(Some).collect();
    let code = Code {
        lang,
        text: code,
        dynamic: false,
        argv: &argv,
        from_shell: false,
    };
    code_lens_at(&code, route, cwd, env, 0, fx);
}

/// [`code_lens`] for code found `depth` levels into a command line.
fn code_lens_at(
    code: &Code<'_>,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    let code_at = code;
    let (lang, dynamic, argv, from_shell) = (code.lang, code.dynamic, code.argv, code.from_shell);
    let code = code.text;
    let who = route
        .via
        .last()
        .cloned()
        .unwrap_or_else(|| lang.name().into());
    let mut cx = Collect {
        cwd: cwd.map(str::to_string),
        dynamic,
        argv,
        tilde_is_home: from_shell,
        found: Vec::new(),
        full: false,
        rereading: false,
    };
    if lang == Language::Cmd {
        powershell::cmd::effects(code, &mut cx);
        if dynamic {
            cx.unsure(format!(
                "`{who}` runs a cmd.exe line that is only known at run time"
            ));
        }
        dispatch(cx.found, code_at, route, cwd, env, depth, fx);
        return;
    }
    // JavaScript that does not parse may be TypeScript (`node --experimental-strip-types`,
    // `bun -e`): read it as TypeScript when that parses.
    let parsed = match parse(lang, code) {
        Ok(t) if lang == Language::JavaScript && t.root_node().has_error() => {
            match parse(Language::TypeScript, code) {
                Ok(ts) if !ts.root_node().has_error() => Ok(ts),
                _ => Ok(t),
            }
        }
        other => other,
    };
    match parsed {
        Err(why) => {
            let why = if dynamic {
                format!(
                    "`{who}` runs {} code that is only known at run time",
                    lang.name()
                )
            } else {
                format!("the {} code of `{who}` {why}", lang.name())
            };
            fx.push(What::Unsure(why), route.clone());
            return;
        }
        Ok(tree) => {
            let error = match lang {
                Language::PowerShell => powershell::first_error(tree.root_node(), code),
                _ => first_error(tree.root_node()),
            };
            if let Some(at) = error {
                let why = if dynamic {
                    format!(
                        "`{who}` runs {} code that is only known at run time",
                        lang.name()
                    )
                } else {
                    format!(
                        "the {} code of `{who}` does not parse (line {}, column {})",
                        lang.name(),
                        at.row + 1,
                        at.column + 1
                    )
                };
                cx.unsure(why);
            } else if dynamic
                && matches!(lang, Language::JavaScript | Language::TypeScript)
                && shell_variable_in_code(&tree, code)
            {
                // `node -e "$CODE"`: `$CODE` is a valid name in JavaScript, but it is the
                // shell's variable, known only at run time.
                cx.unsure(format!(
                    "`{who}` runs {} code that is only known at run time",
                    lang.name()
                ));
            }
            let exhausted = match lang {
                Language::Python => python::effects(&tree, code, &mut cx),
                Language::JavaScript | Language::TypeScript => {
                    javascript::effects(&tree, code, &mut cx)
                }
                Language::PowerShell => {
                    if dynamic {
                        cx.unsure(format!(
                            "`{who}` runs PowerShell code that is only known at run time"
                        ));
                    }
                    powershell::effects(&tree, code, &mut cx)
                }
                Language::Cmd => false,
            };
            if exhausted {
                cx.unsure(format!(
                    "the {} code of `{who}` is too involved to read within {MAX_STEPS} steps",
                    lang.name()
                ));
            }
        }
    }
    dispatch(cx.found, code_at, route, cwd, env, depth, fx);
}

/// What a walker found, to the effects: its effects, and the commands and code it runs
/// through their lenses one level deeper.
fn dispatch(
    found: Vec<Found>,
    code: &Code<'_>,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    let (lang, dynamic, argv, from_shell) = (code.lang, code.dynamic, code.argv, code.from_shell);
    for f in found {
        match f {
            Found::What(w) => fx.push(*w, route.clone()),
            Found::Words {
                who,
                words,
                stdin,
                dir,
            } => {
                let a = analyze_words(words, stdin, dir.as_deref());
                nested(&a, &who, route, env, depth, fx);
            }
            Found::Shell { who, text, dir } => {
                let a = BrushAnalyzer.analyze(&text, dir.as_deref());
                nested(&a, &who, route, env, depth, fx);
            }
            Found::Code { who, text } => {
                if depth >= MAX_DEPTH {
                    fx.push(
                        What::Unsure(format!(
                            "`{who}` runs code nested deeper than {MAX_DEPTH} levels"
                        )),
                        route.clone(),
                    );
                    continue;
                }
                let mut r = route.clone();
                r.via.push(who);
                let inner = Code {
                    lang,
                    text: &text,
                    dynamic,
                    argv,
                    from_shell,
                };
                code_lens_at(&inner, &r, cwd, env, depth + 1, fx);
            }
        }
    }
}

/// The effects of a command the code runs, through the shell lens one level deeper.
fn nested(
    a: &ShellAnalysis,
    who: &str,
    route: &Route,
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    if depth >= MAX_DEPTH {
        fx.push(
            What::Unsure(format!(
                "`{who}` runs a command nested deeper than {MAX_DEPTH} levels"
            )),
            route.clone(),
        );
        return;
    }
    let mut via = route.via.clone();
    if !who.is_empty() {
        via.push(who.to_string());
    }
    let mut inner = Effects::default();
    super::shell::lens_nested(
        &route.tool,
        &route.argument,
        a,
        &via,
        env,
        depth + 1,
        &mut inner,
    );
    for mut e in inner.list {
        if route.lens.is_some() {
            e.route.lens = route.lens;
        }
        fx.list.push(e);
    }
}

/// JavaScript parsed as this lens parses it (bounded in size and time), for readers of code
/// that is not on a command line (Codex code mode, `readers::code_mode`).
pub(crate) fn parse_javascript(code: &str) -> Result<Tree, String> {
    parse(Language::JavaScript, code)
}

/// Parse `code`, bounded in size and time.
fn parse(lang: Language, code: &str) -> Result<Tree, String> {
    if code.len() > MAX_CODE {
        return Err(format!(
            "is longer than {} KiB and is not read",
            MAX_CODE / 1024
        ));
    }
    let mut parser = Parser::new();
    let grammar = lang
        .grammar()
        .ok_or_else(|| "has no grammar here".to_string())?;
    parser
        .set_language(&grammar)
        .map_err(|e| format!("cannot be read: {e}"))?;
    let start = Instant::now();
    let bytes = code.as_bytes();
    let mut input = |at: usize, _| bytes.get(at..).unwrap_or_default();
    // Returning `true` stops the parse.
    let mut over_time = |_: &tree_sitter::ParseState| start.elapsed() > PARSE_BUDGET;
    let options = ParseOptions::new().progress_callback(&mut over_time);
    parser
        .parse_with_options(&mut input, None, Some(options))
        .ok_or_else(|| {
            format!(
                "took longer than {} ms to parse and was not read",
                PARSE_BUDGET.as_millis()
            )
        })
}

/// Whether a name in the code is a shell expansion left in it (`$CODE`, `$1`): in
/// JavaScript `$` starts a name, so it parses.
fn shell_variable_in_code(tree: &Tree, code: &str) -> bool {
    nodes(tree.root_node()).into_iter().any(|n| {
        matches!(
            n.kind(),
            "identifier" | "shorthand_property_identifier" | "property_identifier"
        ) && text(n, code).starts_with('$')
    })
}

/// Where the first syntax error of a tree is, if it has one.
pub(crate) fn first_error(root: Node<'_>) -> Option<tree_sitter::Point> {
    if !root.has_error() {
        return None;
    }
    first_error_outside(root, |_| false).or(Some(root.start_position()))
}

/// Where the first error or missing node of a tree is, in source order, not looking inside
/// the nodes `skip` holds for.
pub(super) fn first_error_outside(
    root: Node<'_>,
    skip: impl Fn(&Node<'_>) -> bool,
) -> Option<tree_sitter::Point> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if skip(&n) {
            continue;
        }
        if n.is_error() || n.is_missing() {
            return Some(n.start_position());
        }
        if n.has_error() {
            let mut c = n.walk();
            let kids: Vec<Node<'_>> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
    None
}

/// What a walker found: an effect of the code itself, or a command it runs.
#[derive(Debug, PartialEq)]
pub(super) enum Found {
    /// An effect.
    What(Box<What>),
    /// A shell command line (`os.system(…)`, `execSync(…)`, `shell=True`).
    Shell {
        /// The call that runs it (`os.system`).
        who: String,
        /// The command line.
        text: String,
        /// The folder it runs in.
        dir: Option<String>,
    },
    /// Code of the same language run by the code (`exec('…')`, `eval('…')`).
    Code {
        /// The call that runs it (`exec`).
        who: String,
        /// The code.
        text: String,
    },
    /// A program run with its words, without a shell: an argument vector
    /// (`subprocess.run([…])`), or a PowerShell or cmd.exe command whose words may be known
    /// only at run time, with a file as its standard input (`type x | prog`).
    Words {
        /// The call that runs it (empty: the code itself).
        who: String,
        /// The words.
        words: Vec<Arg>,
        /// The file piped into it.
        stdin: Option<Arg>,
        /// The folder it runs in.
        dir: Option<String>,
    },
}

/// The temporary folder code gets from its runtime (`tempfile.gettempdir()`, `os.tmpdir()`):
/// `/tmp`, or a per-user folder that the scratch list holds too (`$TMPDIR` on macOS).
pub(super) const TEMP_DIR: &str = "/tmp";

/// The name of a folder `tempfile.mkdtemp()` makes (random at run time; always new).
pub(super) const MADE_TEMP: &str = "tmpXXXXXXXX";

/// A value a walker resolved without running the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Res {
    /// The text (`~` stands for the home folder when `home`).
    pub(super) text: String,
    /// The text starts with the home folder, expanded by the code (`expanduser`,
    /// `Path.home()`, `os.homedir()`), not a literal `~` (which `open` does not expand).
    pub(super) home: bool,
}

impl Res {
    /// A literal.
    pub(super) fn lit(text: impl Into<String>) -> Res {
        Res {
            text: text.into(),
            home: false,
        }
    }

    /// The home folder.
    pub(super) fn home() -> Res {
        Res {
            text: "~".into(),
            home: true,
        }
    }

    /// `self` followed by `other` (string concatenation).
    pub(super) fn concat(mut self, other: &Res) -> Res {
        if self.text.is_empty() {
            return other.clone();
        }
        self.text.push_str(&other.text);
        self
    }

    /// `self` joined with `other` by a `/`; an absolute `other` replaces it when `resets`
    /// (`os.path.join`, `Path / '/x'`).
    pub(super) fn join(self, other: &Res, resets: bool) -> Res {
        if self.text.is_empty() || (resets && (other.text.starts_with('/') || other.home)) {
            return other.clone();
        }
        if other.text.is_empty() {
            return self;
        }
        // (`/` joined with `x` is `/x`.)
        let mut text = self.text.trim_end_matches('/').to_string();
        text.push('/');
        text.push_str(other.text.trim_start_matches('/'));
        Res {
            text,
            home: self.home,
        }
    }

    /// `os.path.expanduser`: a leading `~` is the home folder.
    pub(super) fn expand_user(mut self) -> Res {
        if self.text == "~" || self.text.starts_with("~/") {
            self.home = true;
        }
        self
    }
}

/// What the walkers collect, and how they make paths.
pub(super) struct Collect<'c> {
    /// The working directory of the code at the call being read (`os.chdir` moves it).
    pub(super) cwd: Option<String>,
    /// Part of the code text is only known at run time.
    pub(super) dynamic: bool,
    /// `sys.argv` / `process.argv` as the code sees it.
    pub(super) argv: &'c [Option<String>],
    /// A leading `~` in a string is the home folder: the code went through the shell, which
    /// turns `"$HOME"` inside it into `~` before the text is read here.
    pub(super) tilde_is_home: bool,
    /// What was found, in source order.
    pub(super) found: Vec<Found>,
    /// [`MAX_FOUND`] was reached.
    pub(super) full: bool,
    /// The code is being read again (once per element of a loop over a literal sequence):
    /// what was found before is not added twice.
    pub(super) rereading: bool,
}

impl Collect<'_> {
    /// A path from a resolved value: a literal `~` is a folder named `~` (the file
    /// functions do not expand it); text from a run-time expansion of the command line is
    /// dynamic.
    pub(super) fn path(&self, r: &Res) -> PathRef {
        let text = path_text(r, self.tilde_is_home);
        PathRef {
            dynamic: self.dynamic && text.contains('$'),
            text,
            cwd: self.cwd.clone(),
        }
    }

    /// `os.chdir(dir)`, `process.chdir(dir)`, a `cwd` option: later relative paths are
    /// relative to `dir`; a folder known only at run time leaves every later relative path
    /// unknown, so the code is unsure.
    pub(super) fn chdir(&mut self, dir: Option<Res>, call: &str) {
        let Some(d) = dir else {
            self.unsure(format!("`{call}` to a folder known only at run time"));
            return;
        };
        let d = path_text(&d, self.tilde_is_home);
        self.cwd = Some(match &self.cwd {
            _ if d.starts_with(['/', '~']) => d,
            Some(c) => format!("{}/{d}", c.trim_end_matches('/')),
            None => d,
        });
    }

    /// A path known only at run time, shown as the expression that computes it.
    pub(super) fn computed_path(&self, expr: &str) -> PathRef {
        let shown: String = expr.chars().take(80).collect();
        PathRef {
            text: shown,
            dynamic: true,
            cwd: self.cwd.clone(),
        }
    }

    /// Add an effect unless the same one is there already (every `send` is kept); its index
    /// in `found`.
    pub(super) fn push(&mut self, w: What) -> usize {
        if !matches!(w, What::Send(_))
            && let Some(k) = self
                .found
                .iter()
                .position(|f| matches!(f, Found::What(x) if **x == w))
        {
            return k;
        }
        self.add(Found::What(Box::new(w)))
    }

    /// Add what was found, up to [`MAX_FOUND`] items; then one `unsure` says the rest was not
    /// kept. The index of the item (of the last one kept when full).
    fn add(&mut self, f: Found) -> usize {
        if self.rereading
            && let Some(k) = self.found.iter().position(|x| *x == f)
        {
            return k;
        }
        if self.found.len() < MAX_FOUND {
            self.found.push(f);
        } else if !self.full {
            self.full = true;
            self.found.push(Found::What(Box::new(What::Unsure(format!(
                "the code has more than {MAX_FOUND} effects; the rest were not read"
            )))));
        }
        self.found.len() - 1
    }

    /// Add an `unsure` with its cause (once per cause).
    pub(super) fn unsure(&mut self, why: String) {
        let w = What::Unsure(why);
        if !self
            .found
            .iter()
            .any(|f| matches!(f, Found::What(x) if **x == w))
        {
            self.add(Found::What(Box::new(w)));
        }
    }

    /// `{call}` with a {what} known only at run time.
    pub(super) fn unknown(&mut self, call: &str, what: &str) {
        self.unsure(format!("`{call}` with {what} known only at run time"));
    }

    /// A command line the code runs.
    pub(super) fn shell(&mut self, who: &str, text: String) {
        let dir = self.cwd.clone();
        self.add(Found::Shell {
            who: who.to_string(),
            text,
            dir,
        });
    }

    /// Code of the same language the code runs.
    pub(super) fn code(&mut self, who: &str, text: String) {
        self.add(Found::Code {
            who: who.to_string(),
            text,
        });
    }

    /// An argument vector the code runs (`subprocess.run([…])`): words known as written.
    pub(super) fn argv(&mut self, who: &str, argv: Vec<String>) {
        let words = argv
            .into_iter()
            .map(|text| Arg {
                text,
                dynamic: false,
            })
            .collect();
        self.words(who, words, None);
    }

    /// A program the code runs with its words, some perhaps known only at run time
    /// (PowerShell and cmd.exe commands), and the file it reads as standard input.
    pub(super) fn words(&mut self, who: &str, words: Vec<Arg>, stdin: Option<Arg>) {
        if words.is_empty() {
            return;
        }
        let dir = self.cwd.clone();
        self.add(Found::Words {
            who: who.to_string(),
            words,
            stdin,
            dir,
        });
    }

    /// Set the content of the write at `idx` (found by [`Collect::push`]).
    pub(super) fn set_content(&mut self, idx: usize, content: Option<String>) {
        if let Some(Found::What(w)) = self.found.get_mut(idx)
            && let What::Write { content: c, .. } = w.as_mut()
        {
            *c = content;
        }
    }

    /// A `send` to a URL.
    pub(super) fn send_url(
        &mut self,
        url: &Res,
        method: Option<String>,
        body: Vec<super::BodySource>,
    ) {
        let dynamic = self.dynamic && url.text.contains('$');
        // Read already as a download whose response runs (`exec(urlopen(u).read())`).
        if body.is_empty()
            && method.as_deref().is_none_or(|m| m == "GET")
            && self.found.iter().any(|f| {
                matches!(f, Found::What(w) if matches!(&**w, What::Send(s)
                    if s.runs_response && s.url.as_deref() == Some(url.text.as_str())))
            })
        {
            return;
        }
        self.push(What::Send(super::Send {
            url: Some(url.text.clone()),
            endpoint: if dynamic {
                None
            } else {
                super::url::parse(&url.text)
            },
            method,
            body,
            dynamic,
            runs_response: false,
        }));
    }

    /// Code downloaded from `url` (`None`: a URL known only at run time) and run: a `send`
    /// whose response runs.
    pub(super) fn fetch_and_run(&mut self, url: Option<&Res>) {
        let dynamic = url.is_none_or(|u| self.dynamic && u.text.contains('$'));
        // The download itself, read already as a plain send, now runs; read again, it is the
        // same effect.
        let same = |s: &super::Send| s.url.as_deref() == url.map(|u| u.text.as_str());
        for f in &mut self.found {
            if let Found::What(w) = f
                && let What::Send(s) = &mut **w
                && same(s)
            {
                if s.runs_response {
                    return;
                }
                if s.body.is_empty() && s.method.as_deref().is_none_or(|m| m == "GET") {
                    s.runs_response = true;
                    return;
                }
            }
        }
        self.push(What::Send(super::Send {
            url: url.map(|u| u.text.clone()),
            endpoint: if dynamic {
                None
            } else {
                url.and_then(|u| super::url::parse(&u.text))
            },
            method: Some("GET".into()),
            body: Vec::new(),
            dynamic,
            runs_response: true,
        }));
    }

    /// A module loaded by its specifier (`import("https://…/x.js")`, `import x from
    /// "npm:pkg"`): a URL is fetched and run (a `send` whose response runs), a registry
    /// specifier (`npm:`, `jsr:`) installed and run; a path or a built-in module adds nothing.
    pub(super) fn module(&mut self, spec: &Res) {
        let lower = spec.text.to_ascii_lowercase();
        if lower.starts_with("https://") || lower.starts_with("http://") {
            let dynamic = self.dynamic && spec.text.contains('$');
            self.push(What::Send(super::Send {
                url: Some(spec.text.clone()),
                endpoint: if dynamic {
                    None
                } else {
                    super::url::parse(&spec.text)
                },
                method: Some("GET".into()),
                body: Vec::new(),
                dynamic,
                runs_response: true,
            }));
        } else if lower.starts_with("npm:") || lower.starts_with("jsr:") {
            self.push(What::Install {
                manager: "deno".into(),
                packages: vec![crate::shell::Arg {
                    text: spec.text.clone(),
                    dynamic: self.dynamic && spec.text.contains('$'),
                }],
                source: None,
            });
        }
    }

    /// A `send` to `host` (and `port`), no URL.
    pub(super) fn send_host(
        &mut self,
        host: &Res,
        port: Option<&str>,
        body: Vec<super::BodySource>,
    ) {
        let h = host.text.as_str();
        let target = match port {
            Some(p) if h.contains(':') && !h.starts_with('[') => format!("[{h}]:{p}"),
            Some(p) => format!("{h}:{p}"),
            None => h.to_string(),
        };
        let dynamic = self.dynamic && h.contains('$');
        self.push(What::Send(super::Send {
            url: None,
            endpoint: if dynamic {
                None
            } else {
                super::url::parse(&target)
            },
            method: None,
            body,
            dynamic,
            runs_response: false,
        }));
    }
}

/// The text of a path: a literal leading `~` is a folder named `~` (the file functions do
/// not expand it) unless `tilde_is_home`.
pub(super) fn path_text(r: &Res, tilde_is_home: bool) -> String {
    if r.text.starts_with('~') && !r.home && !tilde_is_home {
        format!("./{}", r.text)
    } else {
        r.text.clone()
    }
}

/// Item `i` (as written in the code) of an argument vector, when it is known.
pub(super) fn argv_item(argv: &[Option<String>], i: &str) -> Option<Res> {
    let i: usize = i.trim().parse().ok()?;
    // A word the shell passed with a leading `~` was expanded to the home folder.
    argv.get(i)
        .cloned()
        .flatten()
        .map(|a| Res::lit(a).expand_user())
}

/// Add `more` body sources to `body`, without repeats.
pub(super) fn add_body(body: &mut Vec<super::BodySource>, more: Vec<super::BodySource>) {
    for b in more {
        if !body.contains(&b) {
            body.push(b);
        }
    }
}

/// A numeric file mode as `chmod` spells it (`0o755`, `0755`, `493` → `755`).
pub(super) fn mode_text(t: &str) -> Option<String> {
    let t = t.trim().replace('_', "");
    let n = if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        u32::from_str_radix(o, 8).ok()?
    } else if let Some(x) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u32::from_str_radix(x, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        u32::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<u32>().ok()?
    };
    Some(format!("{n:o}"))
}

/// Names bound in the code, counted: a name bound exactly once to a value can be resolved to
/// that value.
pub(super) struct Bindings<'t> {
    /// Each name's bound values (a name bound by a parameter or a loop has a `None`).
    pub(super) map: HashMap<String, Vec<Option<Node<'t>>>>,
}

impl<'t> Bindings<'t> {
    /// No bindings.
    pub(super) fn new() -> Self {
        Bindings {
            map: HashMap::new(),
        }
    }

    /// Record a binding of `name` (to `value`, when it is one expression).
    pub(super) fn bind(&mut self, name: &str, value: Option<Node<'t>>) {
        self.map.entry(name.to_string()).or_default().push(value);
    }

    /// The one value `name` is bound to, if it is bound exactly once.
    pub(super) fn once(&self, name: &str) -> Option<Node<'t>> {
        match self.map.get(name).map(Vec::as_slice) {
            Some([Some(v)]) => Some(*v),
            _ => None,
        }
    }
}

/// The most rounds code is read in for its loops over literal sequences; with more
/// combinations the loop names stay unknown.
const MAX_ROUNDS: usize = 16;

/// The bindings of each round: one per combination of the elements of the loops over literal
/// sequences whose name no other statement binds. Empty when there is no such loop or the
/// combinations are more than [`MAX_ROUNDS`].
pub(super) fn choice_rounds<'t>(
    choices: &[(String, Vec<Node<'t>>)],
    bind: &Bindings<'t>,
) -> Vec<Vec<(String, Node<'t>)>> {
    let mut rounds: Vec<Vec<(String, Node<'t>)>> = vec![Vec::new()];
    for (name, values) in choices {
        if bind.map.get(name).map_or(0, Vec::len) != 1 || values.is_empty() {
            continue;
        }
        if rounds.len() * values.len() > MAX_ROUNDS {
            return Vec::new();
        }
        rounds = rounds
            .into_iter()
            .flat_map(|r| {
                values.iter().map(move |v| {
                    let mut r = r.clone();
                    r.push((name.clone(), *v));
                    r
                })
            })
            .collect();
    }
    if rounds.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    rounds
}

/// A walker that can read its code again with loop names bound ([`read_in_rounds`]).
pub(super) trait Rounds<'t> {
    /// The loops over literal sequences found, by loop name.
    fn choices(&self) -> &[(String, Vec<Node<'t>>)];
    /// The walker's bindings.
    fn bindings(&mut self) -> &mut Bindings<'t>;
    /// Read the calls of the code.
    fn read(&mut self, all: &[Node<'t>], cx: &mut Collect<'_>);
}

/// [`Rounds`] for a walker with `choices` and `bind` fields and a `calls` method.
macro_rules! rounds_from_fields {
    ($walker:ident) => {
        impl<'t> super::Rounds<'t> for $walker<'t, '_> {
            fn choices(&self) -> &[(String, Vec<Node<'t>>)] {
                &self.choices
            }

            fn bindings(&mut self) -> &mut super::Bindings<'t> {
                &mut self.bind
            }

            fn read(&mut self, all: &[Node<'t>], cx: &mut super::Collect<'_>) {
                self.calls(all, cx);
            }
        }
    };
}
pub(super) use rounds_from_fields;

/// Read code once per round of its loops over literal sequences ([`choice_rounds`]), each
/// loop name bound to that round's element and the working directory as it was; what an
/// earlier round found is not added again. Without such loops, read once.
pub(super) fn read_in_rounds<'t>(w: &mut impl Rounds<'t>, all: &[Node<'t>], cx: &mut Collect<'_>) {
    let choices = w.choices().to_vec();
    let rounds = choice_rounds(&choices, w.bindings());
    if rounds.is_empty() {
        w.read(all, cx);
        return;
    }
    let start_cwd = cx.cwd.clone();
    for (k, round) in rounds.into_iter().enumerate() {
        for (name, value) in round {
            w.bindings().map.insert(name, vec![Some(value)]);
        }
        cx.cwd = start_cwd.clone();
        cx.rereading = k > 0;
        w.read(all, cx);
    }
    cx.rereading = false;
}

/// Every node of a tree in source order (pre-order), without recursion.
pub(crate) fn nodes(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        out.push(n);
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The text of a node.
pub(crate) fn text<'s>(n: Node<'_>, src: &'s str) -> &'s str {
    src.get(n.byte_range()).unwrap_or("")
}

/// Decode the backslash escapes of a string literal's text (`\n`, `\t`, `\\`, `\'`, `\x41`,
/// `\u0041`); an escape that is not understood keeps its text.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            '`' => out.push('`'),
            '$' => out.push('$'),
            '\n' => {}
            'x' | 'u' => {
                let len = if e == 'x' { 2 } else { 4 };
                let mut hex = String::new();
                if e == 'u' && it.peek() == Some(&'{') {
                    it.next();
                    while let Some(&h) = it.peek() {
                        it.next();
                        if h == '}' {
                            break;
                        }
                        hex.push(h);
                    }
                } else {
                    for _ in 0..len {
                        if let Some(&h) = it.peek()
                            && h.is_ascii_hexdigit()
                        {
                            hex.push(h);
                            it.next();
                        }
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(e);
                        out.push_str(&hex);
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}
