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
//! `glob.glob(pattern)` / `Path(d).glob(p)` / `os.listdir(d)` (each item is the pattern),
//! string methods and indexing that compute a constant (`sep.join(parts)`, `s[::-1]`,
//! `.replace`, `.upper()`, `chr(n)`, `String.fromCharCode`, `.split('').reverse()`), the
//! working directory as `__dirname` of code on the command line and `Path(__file__).parent`
//! of code read from standard input, and for a name bound more than once the assignment that
//! reaches the use. A path whose folder is literal but whose rest is only known at run time (a
//! loop name over a listing, a file name a function computes, the folders of `os.walk`) is
//! resolved in part, the unknown parts as `*` (`path.join(dir, f)` → `dir/*`), and judged as
//! the shell's `dir/*` is; commands and URLs are never resolved in part. A
//! call to an effectful function whose path, URL or command is not literal is `unsure` with
//! that cause ("`shutil.rmtree` with a path known only at run time"); a read from a computed
//! path is a read of a path known only at run time (as `cat "$F"` is); `exec('…')` /
//! `eval('…')` of literal code is read like the rest, of other code is `unsure`. Pure code
//! (`print(1+1)`, `json.loads(…)`) has no effect. Code that does not parse, is longer than
//! [`MAX_CODE`](parse::MAX_CODE), takes longer than [`PARSE_BUDGET`](parse::PARSE_BUDGET) to
//! parse or more than [`MAX_STEPS`](resolve::MAX_STEPS) to resolve is `unsure` with that cause.
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
//! Perl, Ruby, PHP, Lua and awk code (`perl -e`, `ruby -e`, `php -r`, `lua -e`, an awk
//! program) is read by the token scanner ([`scan`]) for the commands it runs; AppleScript
//! (`osascript -e`, its standard input, an `.applescript` file) by its own reader
//! ([`applescript`]) for the lines `do shell script` runs, as root with administrator
//! privileges; JavaScript for Automation (`osascript -l JavaScript`) is JavaScript, its
//! `doShellScript(…)` a call that runs a line. R and Julia code (`Rscript -e`, `R -e`, `julia -e`)
//! is read by the token scanner too: the lines `system(…)`, `system2(…)` and Julia's command
//! literals run, and the files `unlink(…, recursive = TRUE)`, `file.remove(…)` and Julia's
//! `rm(…; recursive = true)` delete. Tcl code is not read here: for it the policy rules that
//! read the command text still apply.

mod applescript;
#[cfg(test)]
mod applescript_tests;
mod collect;
#[cfg(test)]
mod constant_tests;
mod exposure;
#[cfg(test)]
mod exposure_tests;
mod javascript;
mod parse;
#[cfg(test)]
mod partial_tests;
mod powershell;
mod privilege;
mod python;
mod resolve;
#[cfg(test)]
mod round_tests;
mod rounds;
mod scan;
mod sources;
#[cfg(test)]
mod streams_tests;
#[cfg(test)]
mod tests;
mod walker;

use super::code_runs::CodeRun;
use super::model::{Grant, GrantKind};
use super::nested::{Nest, Nested, Text};
use super::{Effects, Route, What};
use crate::shell::MAX_DEPTH;
use crate::shell_env::ShellEnv;

pub(crate) use super::language::Language;
pub(crate) use applescript::ADMIN_SHELL;
pub(crate) use exposure::ENVIRONMENT_PRINTED;
pub(crate) use parse::{first_error, parse_javascript};
use parse::{parse, shell_variable_in_code};
use powershell::posix_alike;
pub(crate) use powershell::{is_powershell_call, powershell_analysis, powershell_tool};
pub(crate) use resolve::{nodes, text, unescape};

// The walkers' shared parts, named here for the language readers below.
use collect::{Collect, Found};
use resolve::{Bindings, Budget, MAX_STEPS, Partial, Res};
use rounds::read_in_rounds;
use walker::{Walker, walker_from_fields};

/// The effects of code a command line runs, pushed with `route`, `depth` levels into the line.
pub(crate) fn run_code(
    run: &CodeRun,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    let code = Code {
        lang: run.lang,
        text: &run.code.text,
        dynamic: run.code.dynamic,
        argv: &run.argv,
        from_shell: true,
    };
    code_lens_at(&code, route, cwd, env, depth, nest, fx);
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
/// code_lens(Language::Python, "import shutil; shutil.rmtree('build')", &[], &route, Some("/p"), &env, &Dispatch, &mut fx);
/// // fx: deletes build recursively (Bash via python3 -c)
/// ```
#[allow(
    clippy::too_many_arguments,
    reason = "the code, its route and the nest"
)]
pub(crate) fn code_lens(
    lang: Language,
    code: &str,
    argv: &[String],
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    nest: &dyn Nest,
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
    code_lens_at(&code, route, cwd, env, 0, nest, fx);
}

/// [`code_lens`] for code found `depth` levels into a command line.
fn code_lens_at(
    code: &Code<'_>,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    nest: &dyn Nest,
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
    for call in privilege::raised(lang, code) {
        fx.push(
            What::Grant(Grant {
                kind: GrantKind::PrivilegedShell,
                path: None,
                detail: format!("root to the process of `{who}` (`{call}`)"),
            }),
            route.clone(),
        );
    }
    let mut cx = Collect::new(cwd, dynamic, argv, from_shell);
    if lang == Language::Cmd {
        powershell::cmd::effects(code, &mut cx);
        if dynamic {
            cx.unsure(format!(
                "`{who}` runs a cmd.exe line that is only known at run time"
            ));
        }
        let route = &cx.streams_route(route);
        found_effects(cx.found, code_at, route, cwd, env, depth, nest, fx);
        return;
    }
    if lang == Language::AppleScript {
        applescript::effects(code, &who, &mut cx);
        let runs = cx
            .found
            .iter()
            .any(|f| matches!(f, Found::Shell { .. } | Found::Code { .. }));
        if dynamic && runs {
            cx.unsure(format!(
                "`{who}` runs AppleScript code that is only known at run time"
            ));
        }
        let route = &cx.streams_route(route);
        found_effects(cx.found, code_at, route, cwd, env, depth, nest, fx);
        return;
    }
    if scan::reads(lang) {
        scan::effects(lang, code, &who, &mut cx);
        let runs = cx
            .found
            .iter()
            .any(|f| matches!(f, Found::Shell { .. } | Found::Words { .. }));
        if dynamic && runs {
            cx.unsure(format!(
                "`{who}` runs {} code that is only known at run time",
                lang.name()
            ));
        }
        let route = &cx.streams_route(route);
        found_effects(cx.found, code_at, route, cwd, env, depth, nest, fx);
        return;
    }
    // JavaScript that does not parse may be TypeScript (`node --experimental-strip-types`,
    // `bun -e`): read it as TypeScript when that parses.
    let parsed = match parse_in(lang, code) {
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
            if error.is_some() && lang == Language::PowerShell && !dynamic && posix_alike(code) {
                // A line the grammar does not take but both shells read alike
                // (`rg -n x -g"*.rs"`): the shell lens reads it.
                cx.found.push(Found::Shell {
                    who: String::new(),
                    text: code.to_string(),
                    dir: cwd.map(str::to_string),
                });
                let route = &cx.streams_route(route);
                found_effects(cx.found, code_at, route, cwd, env, depth, nest, fx);
                return;
            }
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
                Language::Cmd
                | Language::Perl
                | Language::Ruby
                | Language::Php
                | Language::Lua
                | Language::Awk
                | Language::R
                | Language::Julia
                | Language::AppleScript => false,
            };
            if exhausted {
                cx.unsure(format!(
                    "the {} code of `{who}` is too involved to read within {MAX_STEPS} steps",
                    lang.name()
                ));
            }
        }
    }
    let route = &cx.streams_route(route);
    found_effects(cx.found, code_at, route, cwd, env, depth, nest, fx);
}

/// Parse `code` in `lang` for its walker (PowerShell: [`powershell::parse_code`]).
fn parse_in(lang: Language, code: &str) -> Result<tree_sitter::Tree, String> {
    match lang {
        Language::PowerShell => powershell::parse_code(code),
        _ => parse(lang, code),
    }
}

/// What a walker found, to the effects: its effects, and the commands it runs pushed to
/// `nest` one level deeper; code it runs (`exec('…')`) is read here one level deeper.
#[allow(
    clippy::too_many_arguments,
    reason = "the code, its route, the budget and the nest"
)]
fn found_effects(
    found: Vec<Found>,
    code: &Code<'_>,
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    depth: usize,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    let (lang, dynamic, argv, from_shell) = (code.lang, code.dynamic, code.argv, code.from_shell);
    for f in found {
        match f {
            Found::What(w) => fx.push(*w, route.clone()),
            Found::Via(w, via) => {
                let mut r = route.clone();
                r.via.push(via);
                fx.push(*w, r);
            }
            Found::Words {
                who,
                words,
                stdin,
                dir,
            } => {
                let item = Nested {
                    text: Text::Words { words, stdin },
                    who: &who,
                    shown: &who,
                    route,
                    cwd: dir.as_deref(),
                    depth: depth + 1,
                };
                nest.nest(item, env, fx);
            }
            Found::Shell { who, text, dir } => {
                let item = Nested {
                    text: Text::Line(&text),
                    who: &who,
                    shown: &who,
                    route,
                    cwd: dir.as_deref(),
                    depth: depth + 1,
                };
                nest.nest(item, env, fx);
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
                code_lens_at(&inner, &r, cwd, env, depth + 1, nest, fx);
            }
        }
    }
}
