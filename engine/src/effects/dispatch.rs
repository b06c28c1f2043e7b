//! The one dispatcher for text found inside text: it owns the depth budget and hands each
//! nested item to the lens of its kind.
//!
//! In: the entry reads of the routes (a command value, an analysed line, a script file's
//! code, the `PowerShell` tool's command) and, while they run, the [`Nested`] items the lenses
//! push. Out: the effects, in the order the lenses find them. The dependency goes one way:
//! the dispatcher knows the lenses; a lens knows only the [`Nest`] it is given, never another
//! lens.

use serde_json::Value;

use super::language::Language;
use super::model::{Effects, Route, What};
use super::nested::{Nest, Nested, Text};
use super::{inline, shell};
use crate::shell::{BrushAnalyzer, MAX_DEPTH, ShellAnalysis, ShellAnalyzer, analyze_words};
use crate::shell_env::ShellEnv;

/// The dispatcher the lenses push nested items to.
pub(crate) struct Dispatch;

impl Nest for Dispatch {
    fn nest(&self, item: Nested<'_>, env: &ShellEnv, fx: &mut Effects) {
        let Nested {
            text,
            who,
            shown,
            route,
            cwd,
            depth,
        } = item;
        if depth > MAX_DEPTH {
            let what = match text {
                Text::Script(_) => "shell text",
                Text::Line(_) | Text::Words { .. } => "a command",
                Text::Code(_) => "code",
            };
            fx.push(
                What::Unsure(format!(
                    "`{shown}` runs {what} nested deeper than {MAX_DEPTH} levels"
                )),
                route.clone(),
            );
            return;
        }
        let mut via = route.via.clone();
        if !who.is_empty() {
            via.push(who.to_string());
        }
        match text {
            Text::Script(line) => {
                let a = BrushAnalyzer.analyze(line, cwd);
                shell::lens_nested(&route.tool, &route.argument, &a, &via, env, depth, self, fx);
            }
            Text::Code(run) => {
                let r = Route {
                    via,
                    ..route.clone()
                };
                inline::run_code(run, &r, cwd, env, depth, self, fx);
            }
            Text::Line(line) => {
                let a = BrushAnalyzer.analyze(line, cwd);
                self.commands(&a, &via, route, env, depth, fx);
            }
            Text::Words { words, stdin } => {
                let a = analyze_words(words, stdin, cwd);
                self.commands(&a, &via, route, env, depth, fx);
            }
        }
    }
}

impl Dispatch {
    /// The effects of commands code or a file runs: each takes the finder's lens, if it has
    /// one.
    fn commands(
        &self,
        a: &ShellAnalysis,
        via: &[String],
        route: &Route,
        env: &ShellEnv,
        depth: usize,
        fx: &mut Effects,
    ) {
        let mut inner = Effects::default();
        shell::lens_nested(
            &route.tool,
            &route.argument,
            a,
            via,
            env,
            depth,
            self,
            &mut inner,
        );
        for mut e in inner.list {
            if route.lens.is_some() {
                e.route.lens = route.lens;
            }
            fx.list.push(e);
        }
    }
}

/// The effects of a command value found at `argument` of a `tool` call.
pub(crate) fn shell_value(
    tool: &str,
    argument: &str,
    v: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    shell::lens_value(tool, argument, v, cwd, env, &Dispatch, fx);
}

/// The effects of an analysed command line found at `argument` of a `tool` call.
pub(crate) fn shell_analysis(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    shell::lens_analysis(tool, argument, a, env, &Dispatch, fx);
}

/// The effects of a script file's `code` in `lang`, run by the command `route` names with
/// the argument vector `argv` ([`inline::code_lens`]).
pub(crate) fn code(
    lang: Language,
    code: &str,
    argv: &[String],
    route: &Route,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    inline::code_lens(lang, code, argv, route, cwd, env, &Dispatch, fx);
}

/// The `PowerShell` tool: its `command` is PowerShell code.
pub(crate) fn powershell_tool(
    tool: &str,
    input: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    inline::powershell_tool(tool, input, cwd, env, &Dispatch, fx);
}
