//! Text found inside text: the nested item a lens pushes when what it reads runs more text
//! (shell text a program runs, code an interpreter runs, a command that code runs, a line of a
//! file that runs by itself), and the [`Nest`] it is pushed to.
//!
//! In: what a lens found — the text and its kind, who runs it, the finder's route and folder,
//! the depth it is read at. Out: nothing here; [`super::dispatch`] reads each item with the
//! lens of its kind, under one depth budget ([`MAX_DEPTH`](crate::shell::MAX_DEPTH)). A lens
//! depends on this model, never on another lens (the way tree-sitter's injections hand a
//! nested range to the layer loop instead of to another grammar).

use super::code_runs::CodeRun;
use super::model::{Effects, Route};
use crate::shell::Arg;
use crate::shell_env::ShellEnv;

/// The text of a nested item, by the lens that reads it.
pub(crate) enum Text<'a> {
    /// Shell text a program on a command line runs (`sh -c '…'`, `git -c alias.x='!…'`,
    /// `find -exec`, a `crontab -` line): the shell lens, effects kept as they come.
    Script(&'a str),
    /// A command line run by code or by a file that runs by itself (`os.system('…')`, a
    /// `.zshrc` line): the shell lens, each effect taking the finder's lens.
    Line(&'a str),
    /// One command as words, with its standard input (`subprocess.run([...], input=…)`): the
    /// shell lens, as [`Text::Line`].
    Words {
        /// The words, program first.
        words: Vec<Arg>,
        /// The text fed to its standard input.
        stdin: Option<Arg>,
    },
    /// Code an interpreter on a command line runs (`python3 -c`, `node -e`): the inline-code
    /// lens, at the depth of the command.
    Code(&'a CodeRun),
}

/// One nested item: what was found, who runs it and where it was found.
pub(crate) struct Nested<'a> {
    /// The text and its kind.
    pub(crate) text: Text<'a>,
    /// Who runs it, added to the `via` of the finder's route (`sh -c`, `subprocess.run`);
    /// empty: nothing added.
    pub(crate) who: &'a str,
    /// How an `unsure` names what runs it when the depth budget is spent (the command, or
    /// the call in the code).
    pub(crate) shown: &'a str,
    /// The route of what found it: tool, argument, `via` and lens.
    pub(crate) route: &'a Route,
    /// The folder it runs in.
    pub(crate) cwd: Option<&'a str>,
    /// The depth it is read at: the finder's, one more for text a command or code runs.
    pub(crate) depth: usize,
}

/// Where a lens pushes what it found inside what it reads; the dispatcher reads it with the
/// right lens and adds the effects to `fx`.
pub(crate) trait Nest {
    /// Read `item` and add its effects to `fx`.
    fn nest(&self, item: Nested<'_>, env: &ShellEnv, fx: &mut Effects);
}
