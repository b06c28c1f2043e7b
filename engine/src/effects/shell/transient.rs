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

#[cfg(test)]
mod tests {
    use crate::effects::What;
    use crate::effects::programs::transient_unit;
    use crate::effects::test_support::{bash_effects, check_table};
    use crate::shell::Arg;

    /// The grants of a Bash line.
    fn grants(line: &str) -> Vec<String> {
        bash_effects(line)
            .list
            .iter()
            .filter_map(|e| match &e.what {
                What::Grant(g) => Some(g.detail.clone()),
                _ => None,
            })
            .collect()
    }

    /// systemd-run(1): the system manager runs the unit as root unless a user is named; the
    /// caller's own manager (`--user`) and a scope as the caller give nothing; without the
    /// caller's terminal or pipes a shell reads nothing; a timer schedules the command.
    #[test]
    fn a_transient_unit_shell_as_another_user_is_a_privileged_shell() {
        let cases: &[(&str, &[&str])] = &[
            (
                "systemd-run --uid=0 --pty bash",
                &["a shell as root in a transient unit (`systemd-run --uid=0 --pty bash`)"],
            ),
            (
                "systemd-run -t sh",
                &["a shell as root in a transient unit (`systemd-run -t sh`)"],
            ),
            (
                "systemd-run -p User=deploy --pipe bash -l",
                &[
                    "a shell as deploy in a transient unit (`systemd-run -p User=deploy --pipe bash -l`)",
                ],
            ),
            (
                "systemd-run --uid root -S",
                &["a shell as root in a transient unit (`systemd-run --uid root -S`)"],
            ),
            ("systemd-run --user --pty bash", &[]),
            ("systemd-run --scope -t bash", &[]),
            ("systemd-run --uid=0 bash", &[]),
            ("systemd-run --uid=0 --pty bash -c 'id'", &[]),
            ("systemd-run --on-active=30 --pty bash", &[]),
            ("systemd-run --user -t htop", &[]),
        ];
        check_table(cases, grants);
    }

    /// The options before the command, read as systemd-run(1) reads them.
    #[test]
    fn transient_unit_options_are_read_up_to_the_command() {
        let u = transient_unit(&Arg::literal_words(&[
            "-p",
            "User=bob",
            "--on-calendar",
            "hourly",
            "-dtq",
            "make",
            "--user",
        ]));
        assert!(u.later && u.terminal && !u.as_caller && !u.shell);
        assert_eq!(u.user, "bob");
        let u = transient_unit(&Arg::literal_words(&["--user", "--scope", "-S"]));
        assert!(u.as_caller && u.shell && u.terminal && !u.later);
        assert_eq!(u.user, "root");
        let u = transient_unit(&Arg::literal_words(&["--scope", "--uid=0", "true"]));
        assert!(!u.as_caller);
    }
}
