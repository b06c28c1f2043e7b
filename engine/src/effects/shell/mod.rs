//! The shell lens: a command line through the shell analyser, each simple command through
//! the program knowledge table.
//!
//! In: a command value (a command line string, or an argv array) and its working directory.
//! Out: a `run` effect per simple command, the effects the program knowledge table gives for
//! its operands and redirections, and `unsure` for what the analyser could not see.
//!
//! A program the table does not know only runs: its operands are not guessed at. Shell text
//! a program runs itself (`git -c alias.x='!sh …'`, `rg --pre CMD`, `rsync -e CMD`,
//! `socat … EXEC:CMD`) is analysed as a command line of its own.

//!
//! The lens is [`lens_commands`] here; each simple command goes through [`actions`], which
//! hands it to the file, `git`, network, signal and install actions by its row. [`out`]
//! holds the effects of one command, [`request`] the bodies and destinations of requests,
//! [`redirects`] and [`pipes`] what flows in and out of a command.

mod actions;
mod files;
mod git;
mod install;
mod links;
mod made;
mod network_down;
mod out;
mod pipes;
mod printed;
mod privilege;
mod publish;
mod redirects;
mod request;
mod search;
mod send;
mod serve;
mod signals;
mod transient;
mod windows;

pub(crate) use git::config_set;
#[cfg(test)]
pub(crate) use install::package_source;
pub(crate) use made::made_on_line;
pub(crate) use request::variables;

use serde_json::Value;

use self::actions::program_effects;
use self::out::{Out, plain};
use self::pipes::through_pipes;
use self::redirects::{redirect_effects, redirect_shown, redirections_text};
use super::nested::{Nest, Nested, Text};
use super::{BodySource, Effects, Lens, Route, What};
use crate::shell::{RedirectMode, ShellAnalysis, SimpleCommand, analyze_command};
use crate::shell_env::ShellEnv;

/// The command value of a shell tool call (`Bash`, Codex `shell` / `exec_command` /
/// `local_shell` / `write_stdin`).
pub(crate) fn command_of<'v>(tool: &str, input: &'v Value) -> Option<&'v Value> {
    match tool {
        "write_stdin" => input.get("chars"),
        _ => input.get("command").or_else(|| input.get("cmd")),
    }
}

/// The effects of a command value found at `argument` of a `tool` call.
pub(crate) fn lens_value(
    tool: &str,
    argument: &str,
    v: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    if let Some(a) = analyze_command(v, cwd) {
        lens_analysis(tool, argument, &a, env, nest, fx);
    }
}

/// The effects of an analysed command line.
pub(crate) fn lens_analysis(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    env: &ShellEnv,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    lens_commands(tool, argument, a, &[], env, 0, nest, fx);
}

/// The effects of a command line run by something else at `depth` (a command inline code
/// runs, `subprocess.run([...])`), each route's `via` starting with `via`.
#[allow(
    clippy::too_many_arguments,
    reason = "the route's parts, the budget and the nest"
)]
pub(crate) fn lens_nested(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    via: &[String],
    env: &ShellEnv,
    depth: usize,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    lens_commands(tool, argument, a, via, env, depth, nest, fx);
}

/// The effects of every command of an analysis; `via` is prefixed to each command's wrapper
/// path (shell text run by a program, analysed on its own, `depth` levels down). Shell text
/// and code a command runs go to `nest` as nested items.
#[allow(
    clippy::too_many_arguments,
    reason = "the route's parts, the budget and the nest"
)]
fn lens_commands(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    via: &[String],
    env: &ShellEnv,
    depth: usize,
    nest: &dyn Nest,
    fx: &mut Effects,
) {
    // Files programs wrote earlier on the line (`curl -o i.sh`, `cp x i.sh`): running one
    // runs content that is not visible. (Redirections are the analyser's to follow.)
    let mut downloaded: Vec<String> = Vec::new();
    // A command seen before on the line (same words, redirections, folder and wrappers) has
    // the same effects: a long generated line repeats a few commands thousands of times.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    // The effects each command added (`fx.list` index range), for the pipes between them.
    let mut spans: Vec<std::ops::Range<usize>> = vec![0..0; a.commands.len()];
    // Links commands of the line make (`ln -s ~ h`), which later commands act through.
    let line_links = links::LineLinks::new(a, env);
    for (ci, c) in a.commands.iter().enumerate() {
        // (A file downloaded since makes the same words run something new.)
        let key = format!(
            "{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{}",
            c.program,
            c.args,
            c.redirections,
            c.cwd,
            c.via,
            downloaded.len()
        );
        if !seen.insert(key) {
            continue;
        }
        let mut full_via = via.to_vec();
        full_via.extend(c.via.iter().cloned());
        // The words as run; the wrapper path is the route's `via`.
        let mut command = SimpleCommand {
            via: Vec::new(),
            ..c.clone()
        }
        .display_words();
        if command.is_empty() {
            command = redirections_text(c);
        }
        let route = Route {
            tool: tool.to_string(),
            lens: Some(Lens::Shell),
            argument: argument.to_string(),
            command: Some(command.clone()),
            via: full_via,
        };
        let mut out = Out::default();
        if !c.program.is_empty() {
            out.push(What::Run(c.clone()));
        }
        if let Some(why) = disguised_name(&c.program) {
            out.push(What::Unsure(format!(
                "`{command}` runs a program whose name {why}: a shell splits words on ASCII blanks only, so it is one word naming a program seamguard does not know"
            )));
        }
        if let Some(pattern) = glob_name(&c.program) {
            out.push(What::Unsure(format!(
                "`{command}` runs a program named by the glob pattern `{pattern}`: which program runs depends on the files the pattern matches"
            )));
        }
        program_effects(c, &mut out);
        // A `cd` earlier on the line moved it out of the folder the call starts in.
        let moved = c.cwd != a.commands.first().and_then(|f| f.cwd.clone());
        if c.basename() == "git" && !c.dynamic_program {
            self::git::sent_repository(c, moved, &mut out);
        }
        made::mark_made(a, ci, env, &mut out);
        self::privilege::shell_from_escalated_text(c, via, &mut out);
        // `tee f <<EOF`: the text is what `tee` writes.
        if c.basename() == "tee"
            && let Some(text) = c.stdin_text()
        {
            for w in &mut out.list {
                if let What::Write { content, .. } = w {
                    *content = Some(text.to_string());
                }
            }
        }
        if let Some(file) = runs_downloaded(c, &out, &downloaded) {
            out.push(What::Unsure(format!(
                "`{command}` runs `{file}`, written earlier on the same line by a program whose output is not visible"
            )));
        }
        for w in &out.list {
            if let What::Write { path, .. } = w
                && !path.dynamic
            {
                downloaded.push(plain(&path.text).to_string());
            }
        }
        // A clone fills a folder with fetched files: running one of them runs fetched code.
        if let Some(folder) = self::git::fetched_folder(c) {
            downloaded.push(format!("{}/", in_cwd(c.cwd.as_deref(), &folder)));
        }
        let redirected = out.list.len();
        redirect_effects(c, &mut out);
        // `nc host 80 <<< "$TOKEN"`: a request whose body is standard input sends the
        // variables of the text fed to it.
        if let Some(r) = c
            .redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
        {
            let vars = variables(&r.target.text);
            for w in &mut out.list {
                if let What::Send(s) = w
                    && s.body.contains(&BodySource::Stdin)
                {
                    for v in &vars {
                        let src = BodySource::Env(v.clone());
                        if !s.body.contains(&src) {
                            s.body.push(src);
                        }
                    }
                }
            }
        }
        line_links.see_through(ci, env, &mut out);
        let start = fx.list.len();
        for (i, w) in out.list.into_iter().enumerate() {
            // What a redirection does names it: `writes ~/.bashrc (Bash: `echo x >> ~/.bashrc`)`.
            let r = match (i >= redirected).then(|| redirect_shown(c, &w)).flatten() {
                Some(shown) if command != shown && !c.program.is_empty() => Route {
                    command: Some(format!("{command} {shown}")),
                    ..route.clone()
                },
                _ => route.clone(),
            };
            fx.push(w, r);
        }
        if let Some(span) = spans.get_mut(ci) {
            *span = start..fx.list.len();
        }
        // Shell text the program runs itself, read as a line of its own one level down.
        for (who, text) in &out.scripts {
            if text.dynamic {
                fx.push(
                    What::Unsure(format!(
                        "`{command}` runs shell text that is only known at run time"
                    )),
                    route.clone(),
                );
                continue;
            }
            let item = Nested {
                text: Text::Script(&text.text),
                who,
                shown: &command,
                route: &route,
                cwd: c.cwd.as_deref(),
                depth: depth + 1,
            };
            nest.nest(item, env, fx);
        }
        // Code an interpreter runs (`python3 -c`, `node -e`, `python3 - <<EOF`), read by the
        // inline-code lens.
        for run in &out.codes {
            let item = Nested {
                text: Text::Code(run),
                who: &run.who,
                shown: &command,
                route: &route,
                cwd: c.cwd.as_deref(),
                depth,
            };
            nest.nest(item, env, fx);
        }
    }
    through_pipes(a, &spans, fx);
    printed::secrets_printed(a, &spans, fx);
    signals::looked_up_targets(fx, spans.first().map_or(fx.list.len(), |s| s.start));
    if let Some(u) = &a.unsure {
        fx.push(
            What::Unsure(u.clone()),
            Route {
                tool: tool.to_string(),
                lens: Some(Lens::Shell),
                argument: argument.to_string(),
                command: None,
                via: via.to_vec(),
            },
        );
    }
}

/// What disguises a program name, if anything: a blank that is not an ASCII blank
/// (`rm\u{a0}-rf`, `|\u{a0}sh`), an invisible or direction-changing character, or Latin
/// letters mixed with Cyrillic or Greek ones in one name (`сurl` with a Cyrillic `с`). Each
/// makes a name that reads as a known program but is another one (a file an attacker may
/// have put on `PATH` under that name). Names in one script (`générer.sh`, `сборка`) are
/// not flagged.
/// The last part of a program's path when it is a glob pattern (`/bin/r?`, `/usr/bin/c*t`,
/// `/bin/[r]m`): bash expands it to the first file that matches, so the program is not known
/// from the line. A glob in the folders only (`/???/rm`) still names the program.
fn glob_name(program: &str) -> Option<&str> {
    let name = program.rsplit('/').next().unwrap_or(program);
    // `[`/`[[` are the test commands; a `$` is an expansion the parser could not resolve
    // (bash fails on `${.*}` as a bad substitution), not a pattern.
    if matches!(name, "[" | "[[") || name.contains('$') {
        return None;
    }
    let class = name
        .find('[')
        .is_some_and(|open| name[open + 1..].contains(']'));
    (name.contains(['*', '?']) || class).then_some(name)
}

fn disguised_name(program: &str) -> Option<String> {
    let name = program.rsplit('/').next().unwrap_or(program);
    for ch in program.chars() {
        let invisible = matches!(ch,
            '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
        if (ch.is_whitespace() && !ch.is_ascii()) || invisible {
            return Some(format!(
                "holds the invisible character U+{:04X}",
                u32::from(ch)
            ));
        }
    }
    let latin = name.chars().any(|c| c.is_ascii_alphabetic());
    let other = name
        .chars()
        .find(|c| matches!(u32::from(*c), 0x0370..=0x03FF | 0x0400..=0x052F | 0x1F00..=0x1FFF));
    match (latin, other) {
        (true, Some(ch)) => Some(format!(
            "mixes Latin letters with `{ch}` (U+{:04X}), a Cyrillic or Greek letter that looks like a Latin one",
            u32::from(ch)
        )),
        _ => None,
    }
}

/// `path` as seen from the line's start: joined to the folder an earlier `cd` entered
/// (`cd y && ./install.sh` runs `y/install.sh`); absolute and home paths stay as they are.
fn in_cwd(cwd: Option<&str>, path: &str) -> String {
    let joined = match cwd {
        Some(dir) if !path.starts_with(['/', '~']) && !dir.is_empty() => format!("{dir}/{path}"),
        _ => path.to_string(),
    };
    // Lexically: `t/../ci.sh` is `ci.sh`, `./t/./x` is `t/x`.
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != ".." && !p.is_empty()) => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    let lead = if joined.starts_with('/') { "/" } else { "" };
    format!("{lead}{}", parts.join("/"))
}

/// Programs that run a script file named by their first operand.
const SCRIPT_RUNNERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "source", ".", "python", "python2",
    "python3", "node", "deno", "bun", "ruby", "perl", "php", "Rscript", "lua",
];

/// Build tools that run the build file of the folder they work in (the current folder, or
/// the one `-C DIR` / `--directory=DIR` names), with that file's name.
const BUILD_RUNNERS: &[(&str, &str)] = &[
    ("make", "Makefile"),
    ("gmake", "Makefile"),
    ("bmake", "Makefile"),
    ("ninja", "build.ninja"),
];

/// The build file a build tool runs from a folder fetched earlier on the line (`git clone URL
/// && cd tool && make install`): the clone's `Makefile`, whose recipes are fetched code.
fn runs_fetched_build_file(c: &SimpleCommand, downloaded: &[String]) -> Option<String> {
    let (_, file) = BUILD_RUNNERS.iter().find(|(p, _)| *p == c.basename())?;
    let mut dir = ".".to_string();
    let mut args = c.args.iter();
    while let Some(a) = args.next() {
        if a.text == "-C" || a.text == "--directory" {
            dir = args.next()?.text.clone();
        } else if let Some(d) = a
            .text
            .strip_prefix("--directory=")
            .or_else(|| a.text.strip_prefix("-C").filter(|d| !d.is_empty()))
        {
            dir = d.to_string();
        }
        if a.dynamic {
            return None;
        }
    }
    let at = in_cwd(c.cwd.as_deref(), &dir);
    downloaded
        .iter()
        .filter_map(|d| d.strip_suffix('/'))
        .any(|d| at == d || at.starts_with(&format!("{d}/")))
        .then(|| format!("{at}/{file}"))
}

/// The file a command runs that a program wrote earlier on the line: its program
/// (`./i.sh`) or the script an interpreter reads (`bash i.sh`).
fn runs_downloaded(c: &SimpleCommand, out: &Out, downloaded: &[String]) -> Option<String> {
    if downloaded.is_empty() || c.dynamic_program {
        return None;
    }
    let fetched = |text: &str| {
        let text = plain(text);
        let at = in_cwd(c.cwd.as_deref(), text);
        downloaded.iter().any(|d| {
            d == text
                || d.strip_suffix('/')
                    .is_some_and(|dir| at.starts_with(&format!("{dir}/")))
        })
    };
    // A program without a slash is looked up in PATH, not in the folder.
    if (c.program.contains('/') && fetched(&c.program))
        || downloaded.iter().any(|d| d == plain(&c.program))
    {
        return Some(c.program.clone());
    }
    if let Some(build_file) = runs_fetched_build_file(c, downloaded) {
        return Some(build_file);
    }
    if !SCRIPT_RUNNERS.contains(&c.basename()) {
        return None;
    }
    out.list.iter().find_map(|w| match w {
        What::Read(p) if !p.dynamic && fetched(&p.text) => Some(p.text.clone()),
        _ => None,
    })
}

#[cfg(test)]
mod disguised_name_tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::disguised_name;

    #[test]
    fn blanks_invisible_characters_and_mixed_scripts_disguise_a_name() {
        assert_eq!(
            disguised_name("\u{a0}sh").unwrap(),
            "holds the invisible character U+00A0"
        );
        assert_eq!(
            disguised_name("/usr/bin/s\u{200b}h").unwrap(),
            "holds the invisible character U+200B"
        );
        assert!(
            disguised_name("\u{441}url")
                .unwrap()
                .starts_with("mixes Latin letters with `\u{441}` (U+0441)")
        );
        for plain in ["curl", "./outils/générer.sh", "сборка", "/opt/x/λ", "npm"] {
            assert_eq!(disguised_name(plain), None, "{plain}");
        }
    }
}
