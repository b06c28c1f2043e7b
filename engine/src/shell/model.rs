//! The shell analysis' output model: argument words, redirections, the simple commands a line
//! runs and the analysis of one line. In: nothing (plain data and small helpers over it). Out:
//! [`Arg`], [`Redirect`], [`SimpleCommand`], [`ShellAnalysis`].

use super::emulate;
use super::names;
use super::quote::push_escaped_invisible;

/// One argument word after quote removal and expansion of what is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The text as the program would receive it (`$NAME` kept as written when unknown).
    pub text: String,
    /// Whether part of it comes from an unresolved expansion (variable, `$(…)`, arithmetic).
    pub dynamic: bool,
}

#[cfg(test)]
impl Arg {
    /// Test words as literal arguments (`["ls", "-l"]` → two static [`Arg`]s).
    pub(crate) fn literal_words(words: &[&str]) -> Vec<Arg> {
        words
            .iter()
            .map(|w| Arg {
                text: w.to_string(),
                dynamic: false,
            })
            .collect()
    }
}

/// Which way a redirection moves data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RedirectMode {
    /// The file is read (`<`, `<&N` of a descriptor opened for reading).
    Read,
    /// The file is written from its start (`>`, `>|`, `&>`, `>& file`).
    Write,
    /// The file is appended to (`>>`, `&>>`).
    Append,
    /// The file is opened for reading and writing (`<>`).
    ReadWrite,
    /// Standard input is text written in the line (`<<EOF`, `<<<`): the target is that
    /// text, not a file.
    Text,
}

/// One redirection of a command to or from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The file descriptor redirected as written (`2` in `2> log`); `None` for the default
    /// (standard input for reads, standard output for writes, both outputs for `&>`).
    pub fd: Option<i32>,
    /// The direction.
    pub mode: RedirectMode,
    /// The file.
    pub target: Arg,
}

/// The files of some redirections (here-documents and here-strings are text, not files).
pub(crate) fn redirect_files(redirections: &[Redirect]) -> Vec<Arg> {
    redirections
        .iter()
        .filter(|r| r.mode != RedirectMode::Text)
        .map(|r| r.target.clone())
        .collect()
}

/// A simple command the shell will run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// Program as written after quote removal (`/bin/rm`, `rm`).
    pub program: String,
    /// Whether the program word is not a literal (unresolved variable or substitution).
    pub dynamic_program: bool,
    /// Arguments after the program.
    pub args: Vec<Arg>,
    /// Redirection targets (files written or read), in the order written: the file targets
    /// of [`SimpleCommand::redirections`].
    pub redirects: Vec<Arg>,
    /// The redirections with their direction and file descriptor (`2>> log`, `< .env`,
    /// `<&4` resolved to the file descriptor 4 was opened on).
    pub redirections: Vec<Redirect>,
    /// The wrappers it came through, outermost first (`sudo`, `bash -c`, `$(…)`).
    pub via: Vec<String>,
    /// Working directory in effect (after `cd` earlier on the line), if known.
    pub cwd: Option<String>,
    /// The program's name when it is not a slice of [`SimpleCommand::program`] (`NET.EXE`
    /// → `net`; see [`names::program_name`]), made once with the command; `None` otherwise.
    pub(crate) folded: Option<Box<str>>,
}

impl SimpleCommand {
    /// A command known as written: `program` (empty for a file tool's operands) with `args`,
    /// no redirection, not through a wrapper, run in `cwd`.
    pub(crate) fn plain(program: &str, args: Vec<Arg>, cwd: Option<&str>) -> SimpleCommand {
        SimpleCommand {
            program: program.to_string(),
            dynamic_program: false,
            args,
            redirects: Vec::new(),
            redirections: Vec::new(),
            via: Vec::new(),
            cwd: cwd.map(str::to_string),
            folded: names::folded_name(program),
        }
    }

    /// The program's name as the program table names it (`/usr/bin/git` → `git`,
    /// `curl.exe` → `curl`, `NET.EXE` → `net`; [`names::program_name`]).
    pub fn basename(&self) -> &str {
        let name = names::base(&self.program);
        match self.folded.as_deref() {
            // A command made from another with a new program keeps a name of the old one.
            Some(f) if f.eq_ignore_ascii_case(name) => f,
            _ => name,
        }
    }

    /// Whether `programs` (names as a policy rule lists them) names the program: by its name
    /// ([`SimpleCommand::basename`]), as written (`./build.sh`), or by the name of a listing
    /// (`curl.exe`; [`names::lists`]).
    pub(crate) fn is_named_in(&self, programs: &names::ProgramNames) -> bool {
        programs.name(self.basename(), &self.program)
    }

    /// What the command writes to standard output when it is a literal `echo` or `printf`
    /// (`None` for anything else, or when an argument is only known at run time).
    pub(crate) fn literal_output(&self) -> Option<String> {
        if self.dynamic_program || self.args.iter().any(|a| a.dynamic) {
            return None;
        }
        let args: Vec<String> = self.args.iter().map(|a| a.text.clone()).collect();
        match self.basename() {
            "echo" => Some(emulate::echo_output(&args)),
            "printf" => emulate::printf_output(&args).ok(),
            _ => None,
        }
    }

    /// The text a here-document or here-string feeds the command (`cat > f <<EOF`), when
    /// it has one known now.
    pub(crate) fn stdin_text(&self) -> Option<&str> {
        self.redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
            .filter(|r| !r.target.dynamic)
            .map(|r| r.target.text.as_str())
    }

    /// The part known now of the text fed to the command's standard input, even when the rest
    /// is only known at run time (`crontab - <<< "$X"`, `(crontab -l; echo …) | crontab -`),
    /// and whether that is all of it.
    pub(crate) fn stdin_known_text(&self) -> Option<(&str, bool)> {
        self.redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
            .map(|r| (r.target.text.as_str(), !r.target.dynamic))
    }

    /// `rm -rf / (via sudo)`: the command as run, and the wrapper path. A file tool's path
    /// (a command with no program) shows as a space and the path, as decision reasons have
    /// always quoted it.
    pub fn display(&self) -> String {
        self.render(true)
    }

    /// [`SimpleCommand::display`] without the space before a file tool's path: the form
    /// `explain` lists.
    pub fn display_words(&self) -> String {
        self.render(false)
    }

    fn render(&self, space_after_empty_program: bool) -> String {
        // Invisible and bidi characters are shown escaped, so the reason reads as what runs.
        // At most 120 characters are shown: past them nothing is built (a heredoc or an
        // inline script can be many kilobytes), only enough to know the line is longer.
        const SHOWN: usize = 120;
        let mut s = String::new();
        let mut count = 0;
        push_escaped_invisible(&mut s, &mut count, &self.program, SHOWN);
        for a in &self.args {
            if count > SHOWN {
                break;
            }
            if space_after_empty_program || !s.is_empty() {
                s.push(' ');
                count += 1;
            }
            push_escaped_invisible(&mut s, &mut count, &a.text, SHOWN);
        }
        if count > SHOWN {
            s = format!("{}…", s.chars().take(SHOWN - 1).collect::<String>());
        }
        if !self.via.is_empty() {
            s.push_str(&format!(" (via {})", self.via.join(", ")));
        }
        s
    }
}

/// The result of analysing one command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellAnalysis {
    /// Every simple command found, in source order (wrappers before what they wrap).
    pub commands: Vec<SimpleCommand>,
    /// Why part of the line could not be analysed (parse error, dynamic command word,
    /// depth limit), if so.
    pub unsure: Option<String>,
    /// The pipes between commands, as `(producer, consumer)` indices into
    /// [`ShellAnalysis::commands`]: `curl … | sh` is `(0, 1)`. Each names the first command
    /// recorded for a pipeline element (a wrapper before what it wraps).
    pub pipes: Vec<(usize, usize)>,
}

#[cfg(test)]
mod render_tests {
    use super::{Arg, SimpleCommand};
    use crate::shell::quote::escape_invisible;

    /// The whole line escaped, then cut to 120 characters: what `render` shows.
    fn whole_then_cut(c: &SimpleCommand, space_after_empty_program: bool) -> String {
        let mut s = escape_invisible(&c.program);
        for a in &c.args {
            if space_after_empty_program || !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&escape_invisible(&a.text));
        }
        if s.chars().count() > 120 {
            s = format!("{}…", s.chars().take(119).collect::<String>());
        }
        if !c.via.is_empty() {
            s.push_str(&format!(" (via {})", c.via.join(", ")));
        }
        s
    }

    #[test]
    fn a_long_line_shows_what_escaping_it_whole_showed() {
        let arg = |t: String| Arg {
            text: t,
            dynamic: false,
        };
        for program in ["", "rm", "ec\u{200B}ho"] {
            for n in [
                0usize, 1, 50, 110, 114, 115, 116, 117, 118, 119, 120, 121, 122, 300,
            ] {
                for tail in ["", "\u{200B}", "é\u{202E}x", "\u{FEFF}\u{FEFF}"] {
                    let text = format!("{}{tail}", "a".repeat(n));
                    let c = SimpleCommand {
                        program: program.to_string(),
                        dynamic_program: false,
                        args: vec![arg(text.clone()), arg(tail.to_string()), arg(text)],
                        redirects: Vec::new(),
                        redirections: Vec::new(),
                        via: vec!["sudo".into()],
                        cwd: None,
                        folded: None,
                    };
                    assert_eq!(
                        c.display(),
                        whole_then_cut(&c, true),
                        "{program} {n} {tail:?}"
                    );
                    assert_eq!(c.display_words(), whole_then_cut(&c, false));
                }
            }
        }
    }
}
