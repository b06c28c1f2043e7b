//! The state of one analysis, shared by the walk, the expansion and the program knowledge.
//!
//! In: the working directory the line starts in. Out: a [`ShellAnalysis`] — the simple
//! commands recorded in source order and the first reason part of the line could not be seen.
//! In between it carries what the shell itself would know at each point of the line: variables
//! assigned so far, the directory after `cd`, files written by redirections.

use std::collections::HashMap;

use brush_parser::ParserOptions;

use super::limits::MAX_LOOP_UNROLL_BYTES;
use super::model::{Arg, Redirect, ShellAnalysis, SimpleCommand};

/// What a shell would read as its script from standard input or a process substitution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Input {
    /// Text known now: a heredoc, a here-string, a literal `echo` / `printf`.
    Text(String),
    /// Text only known at run time; completes "runs text from …".
    Unknown(String),
    /// Text partly known now: what a group's literal commands write, with the output of
    /// others only known at run time (`(crontab -l; echo '* * * * * job') | crontab -`).
    /// `from` completes "runs text from …" for the unknown part.
    Partial {
        /// The text known now, in order.
        known: String,
        /// The rest's producer, for "runs text from …".
        from: String,
    },
    /// File names only known at run time, one per line, each standing for what `found` shows
    /// (the way `find -exec` shows `{}`): `find ~ | xargs rm -rf` removes `~`. `from`
    /// completes "runs text from …" for a reader that takes the names as a script.
    Listing {
        /// What each name stands for (`~`, `./…/.env`).
        found: Arg,
        /// The producer, for "runs text from …".
        from: String,
    },
}

/// The inputs a command may read a script from.
#[derive(Debug, Clone, Default)]
pub(super) struct Feed {
    /// Standard input: a heredoc, a here-string, a redirection, or the previous pipeline
    /// element.
    pub(super) stdin: Option<Input>,
    /// The command's only `<(…)` argument (`None` when it has none or several).
    pub(super) procsub: Option<Input>,
}

/// The text an argument word has when it is a process substitution.
pub(crate) const PROCSUB: &str = "<(…)";

/// The analysis of one line in progress.
pub(super) struct LineAnalysis {
    /// The simple commands recorded so far, in source order.
    pub(super) out: Vec<SimpleCommand>,
    /// Files written by redirections earlier on the line, with their content when it is a
    /// literal `echo`/`printf` (`printf 'rm -rf ~' > x.sh && bash x.sh`).
    pub(super) written: HashMap<String, Option<String>>,
    /// The first reason part of the line could not be analysed.
    pub(super) unsure: Option<String>,
    /// Variables with a value known now (`R=rm`, a `for` loop's variable).
    pub(super) vars: HashMap<String, String>,
    /// Variables set to one locator substitution (`TMP=$(mktemp -d)`), written out as the
    /// substitution is (`$(mktemp -d)`): still only known at run time, but of a known kind
    /// ([`super::locators`]).
    pub(super) located: HashMap<String, String>,
    /// The working directory in effect, if known.
    pub(super) cwd: Option<String>,
    /// The parser's options (bash defaults).
    pub(super) options: ParserOptions,
    /// What is left of [`MAX_LOOP_UNROLL_BYTES`] on this line.
    pub(super) loop_budget: usize,
    /// File descriptors opened on files by a bare `exec` earlier on the line
    /// (`exec 4< key`), so that `cat <&4` reads `key`.
    pub(super) fds: HashMap<i32, Redirect>,
    /// The pipes recorded so far (see [`ShellAnalysis::pipes`]).
    pub(super) pipes: Vec<(usize, usize)>,
    /// While a word is expanded: no defaulted variable (`${X:-d}`) in it had a default that
    /// is itself unknown or splits into several words.
    pub(super) resolved_by_default: bool,
    /// While a word is expanded: how many variables not set on the line took their default.
    pub(super) defaults_used: usize,
    /// The texts of command substitutions that print environment definitions
    /// (`$(pyenv init -)`), which `eval` may run without the line becoming unsure.
    pub(super) generated: std::collections::HashSet<String>,
}

impl LineAnalysis {
    /// A fresh analysis of a line that starts in `cwd`.
    pub(super) fn new(cwd: Option<&str>) -> Self {
        LineAnalysis {
            out: Vec::new(),
            written: HashMap::new(),
            unsure: None,
            vars: HashMap::new(),
            located: HashMap::new(),
            cwd: cwd.map(str::to_string),
            options: ParserOptions::default(),
            loop_budget: MAX_LOOP_UNROLL_BYTES,
            fds: HashMap::new(),
            pipes: Vec::new(),
            resolved_by_default: true,
            defaults_used: 0,
            generated: std::collections::HashSet::new(),
        }
    }

    /// The result: every command recorded and why the line is undecidable, if it is.
    pub(super) fn finish(self) -> ShellAnalysis {
        ShellAnalysis {
            commands: self.out,
            unsure: self.unsure,
            pipes: self.pipes,
        }
    }

    /// Whether the commands recorded from `from` on with wrapper path `via` are one
    /// shell-environment generator (`pyenv init -`) and nothing else.
    pub(super) fn only_generator(&self, from: usize, via: &[String]) -> bool {
        let mut mine = self.out.get(from..).unwrap_or_default().iter();
        match (mine.next(), mine.next()) {
            (Some(c), None) => c.via == via && super::generators::env_generator(c),
            _ => false,
        }
    }

    /// Record why part of the line cannot be seen (the first reason is kept).
    pub(super) fn mark_unsure(&mut self, why: String) {
        if self.unsure.is_none() {
            self.unsure = Some(why);
        }
    }

    /// Record `words` as a simple command run through `via`; an unresolved command word makes
    /// the line unsure.
    pub(super) fn push(&mut self, words: &[Arg], redirections: Vec<Redirect>, via: &[String]) {
        let Some((first, rest)) = words.split_first() else {
            return;
        };
        // Only the folder computed (`$(npm bin)/eslint`, `"$VENV/bin/python"`): the program is
        // known by its name, which is what policies match.
        // (A word split at IFS runs its first piece, not the last: never read that way.)
        let ifs = self.vars.get("IFS").map_or(" \t\n", String::as_str);
        let named = first.dynamic
            && !without_substitutions(&first.text).contains(|c: char| ifs.contains(c))
            && known_basename(&first.text);
        if first.dynamic && !named {
            self.mark_unsure(format!(
                "the command word `{}` comes from an expansion that cannot be resolved before it runs",
                first.text
            ));
        }
        self.out.push(SimpleCommand {
            program: first.text.clone(),
            dynamic_program: first.dynamic && !named,
            args: rest.to_vec(),
            redirects: super::model::redirect_files(&redirections),
            redirections,
            via: via.to_vec(),
            cwd: self.cwd.clone(),
            folded: (!first.dynamic)
                .then(|| super::names::folded_name(&first.text))
                .flatten(),
        });
    }
}

/// `word` without the text of the substitutions written out in it (`$(npm bin)/eslint` →
/// `$()/eslint`): blanks inside them are no word splitting.
fn without_substitutions(word: &str) -> String {
    let mut out = String::new();
    let mut rest = word;
    while let Some(at) = rest.find("$(") {
        out.push_str(&rest[..at + 2]);
        match rest[at + 2..].find(')') {
            Some(end) => rest = &rest[at + 2 + end..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a command word whose folder is only known at run time still names its program:
/// the part after the last `/` is a plain name (`$(npm bin)/eslint` → `eslint`).
fn known_basename(word: &str) -> bool {
    let Some((dir, name)) = word.rsplit_once('/') else {
        return false;
    };
    // The folder is what was computed: it holds the expansion.
    dir.contains(['$', '…', '`'])
        && !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}
