//! `systemd-run`: the interactive shell a transient unit gives as root or another user.
//!
//! In: one `systemd-run` command and its row's parse ([`Parsed`]). Out: a
//! [`GrantKind::PrivilegedShell`] grant when the unit runs now (no timer), as another user
//! than the caller (the system manager: root unless `--uid` / `-p User=` names a user), on the
//! caller's terminal or pipes (`--pty`, `--pipe`, `--shell`), and what it runs is a shell given
//! nothing to run (or, with `--shell` and no command, the user's shell): the grant of `sudo -i`.
//! The command itself is judged as a wrapped command (the shell analyser unwraps it); a timer
//! schedules it (the persistence rules judge that).

use super::out::Out;
use super::privilege::{bare_shell_words, stdin_fed};
use crate::effects::model::{Grant, GrantKind, What};
use crate::effects::programs::{Parsed, transient_unit};
use crate::shell::{Arg, SimpleCommand};

/// The grant of `systemd-run … SHELL` when it is an interactive shell as another user.
pub(super) fn grants(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let unit = transient_unit(&c.args);
    if unit.later || unit.as_caller || !unit.terminal || stdin_fed(c) {
        return;
    }
    let command: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let shell = if command.is_empty() {
        unit.shell
    } else {
        bare_shell_words(&command)
    };
    if !shell {
        return;
    }
    out.push(What::Grant(Grant {
        kind: GrantKind::PrivilegedShell,
        path: None,
        detail: format!(
            "a shell as {} in a transient unit (`{}`)",
            unit.user,
            SimpleCommand {
                via: Vec::new(),
                ..c.clone()
            }
            .display_words()
        ),
    }));
}
