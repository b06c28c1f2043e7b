//! What a simple command's program does to the analysis, by its base name.
//!
//! In: the expanded words of one simple command (program first), its redirection targets, the
//! wrapper path it came through, and what it may read a script from ([`Feed`]). Out: the
//! command recorded, then, by program: a wrapper's command peeled ([`super::wrappers`]), a
//! shell's or `eval`'s script analysed ([`super::reentry`]), `cd` moving the working
//! directory, builtins that set variables to values read at run time forgetting them.

use super::carriers::is_assignment;
use super::context::{Feed, Input, LineAnalysis};
use super::operands::SHELLS;
use super::wrappers::wrapper;
use super::{Arg, MAX_DEPTH, Redirect, RedirectMode};

/// Builtins that set the variables named by their arguments to values read at run time
/// (`printf` only with `-v`).
const SETS_VARIABLES: &[&str] = &["read", "mapfile", "readarray", "getopts", "unset", "printf"];

impl LineAnalysis {
    /// Record and unwrap a command that reads no script from its input (an argv run without
    /// a shell, a `find -exec` command).
    pub(super) fn peel(
        &mut self,
        words: Vec<Arg>,
        redirects: Vec<Redirect>,
        via: Vec<String>,
        depth: usize,
    ) {
        self.peel_with_input(words, redirects, via, depth, Feed::default());
    }

    /// Record the command `words` run through `via`, then follow what its program runs in
    /// turn.
    pub(super) fn peel_with_input(
        &mut self,
        words: Vec<Arg>,
        redirects: Vec<Redirect>,
        via: Vec<String>,
        depth: usize,
        input: Feed,
    ) {
        // A wrapper's argv may start with `NAME=value` words (`timeout 5 FOO=1 rm`): read
        // them as environment, never as the program (over-reading is the safe side).
        let skip = if depth > 0 {
            words
                .iter()
                .take_while(|w| !w.dynamic && is_assignment(&w.text))
                .count()
        } else {
            0
        };
        let words: Vec<Arg> = words.into_iter().skip(skip).collect();
        if depth > MAX_DEPTH {
            self.mark_unsure(format!(
                "nesting deeper than {MAX_DEPTH} levels of command wrappers"
            ));
            return;
        }
        let Some(first) = words.first() else { return };
        // The program's name (`NOHUP.EXE` is `nohup`). A name only known at run time, and the
        // builtins that change the shell's own state (`cd`, `alias`, `read`), are as written:
        // bash finds a builtin by its exact name, whatever the file system.
        let written = super::names::base(&first.text);
        let base = if first.dynamic {
            written.to_string()
        } else {
            super::program_name(&first.text).into_owned()
        };
        // Text known now on standard input (`echo x | tee f`, through wrappers too) is kept
        // with the command, as a here-document is.
        // Text partly known (`(crontab -l; echo …) | crontab -`) is kept as well, marked as
        // only partly known: readers that need all of it do not take it.
        let mut redirects = redirects;
        let fed = match &input.stdin {
            Some(Input::Text(t)) => Some((t, false)),
            Some(Input::Partial { known, .. }) => Some((known, true)),
            _ => None,
        };
        if let Some((t, partial)) = fed
            && !redirects.iter().any(|r| r.mode == RedirectMode::Text)
        {
            redirects.push(Redirect {
                fd: None,
                mode: RedirectMode::Text,
                target: Arg {
                    text: t.clone(),
                    dynamic: partial,
                },
            });
        }
        self.push(&words, redirects, &via);
        // The command word stays unknown (not a computed folder with a known name).
        let unknown_program = first.dynamic && self.out.last().is_some_and(|c| c.dynamic_program);
        let rest = &words[1..];
        if let Some(w) = wrapper(&base) {
            self.unwrap_command(w, &base, rest, &via, depth, input);
            return;
        }
        let handled = match written {
            "cd" | "pushd" => {
                self.cd(rest);
                true
            }
            // `popd` returns to a folder this analysis may not know.
            "popd" => {
                self.cwd = None;
                true
            }
            // An alias makes a later word run something else (where aliases expand).
            "alias" if rest.iter().any(|a| a.text.contains('=')) => {
                self.mark_unsure(
                    "the line defines an alias, so a later word may run something else".into(),
                );
                true
            }
            b if SETS_VARIABLES.contains(&b) => {
                self.sets_variables(b, rest);
                true
            }
            _ => false,
        };
        if handled {
            return;
        }
        match base.as_str() {
            "env" => self.env(rest, &via, depth, input),
            "find" => self.find_exec(rest, &via, depth),
            "fd" | "fdfind" => self.fd_exec(&base, rest, &via, depth),
            "parallel" => self.parallel(rest, &via, depth, input),
            "eval" => self.eval(rest, &via, depth),
            "ssh" => self.ssh(rest, &via, depth),
            "source" | "." => self.source(&base, rest, &via, depth, input),
            b if SHELLS.contains(&b) => self.shell(b, rest, &via, depth, input),
            // `$SHELL -c 'rm -rf ~'`: the program is unknown (the line is unsure), but if it
            // is a shell it runs the script, so the script is judged too.
            b if unknown_program => {
                let c_flag = rest.iter().any(|a| {
                    !a.dynamic
                        && a.text.starts_with('-')
                        && !a.text.starts_with("--")
                        && a.text.contains('c')
                });
                if c_flag {
                    let b = b.to_string();
                    self.shell(&b, rest, &via, depth, input);
                }
            }
            _ => {}
        }
    }

    /// `cd DIR`: later commands run in DIR; a dynamic or glob DIR makes it unknown.
    fn cd(&mut self, rest: &[Arg]) {
        let Some(dir) = rest
            .iter()
            .find(|a| !a.text.starts_with('-') || a.text == "-")
        else {
            // A bare `cd` goes home.
            self.cwd = Some("~".into());
            return;
        };
        if dir.text == "-" {
            // `cd -`: the previous folder, not followed.
            self.cwd = None;
            return;
        }
        {
            // A glob names the directory only once the shell expands it.
            if dir.dynamic || dir.text.contains(['*', '?', '[']) {
                self.cwd = None;
            } else {
                let next = crate::paths::join(self.cwd.as_deref(), &dir.text);
                // A pathological chain of `cd`s must not make every later command
                // carry a huge path: past 4 KiB the directory is "unknown".
                self.cwd = (next.len() <= 4096).then_some(next);
            }
        }
    }

    /// `read f`, `unset X`, `printf -v X …`: the named variables are no longer known.
    fn sets_variables(&mut self, base: &str, rest: &[Arg]) {
        if base != "printf" || rest.first().is_some_and(|a| a.text == "-v") {
            for a in rest {
                self.vars.remove(&a.text);
                self.located.remove(&a.text);
            }
            if base == "read" {
                self.vars.remove("REPLY");
            }
        }
    }
}
