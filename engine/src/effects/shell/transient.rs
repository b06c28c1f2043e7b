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
use crate::effects::programs::{Parsed, SYSTEMD_RUN_VALUED, transient_timer};
use crate::shell::{Arg, SimpleCommand};

/// How systemd-run(1) runs its command, from the options before it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct TransientUnit {
    /// A timer, path or socket option starts it later ([`transient_timer`]).
    pub(crate) later: bool,
    /// It runs as the caller: in the caller's own manager (`--user`) or in a scope
    /// systemd-run forks itself (`--scope`) with no `--uid`.
    pub(crate) as_caller: bool,
    /// The user `--uid` or `-p User=` names (root when neither does).
    pub(crate) user: String,
    /// Its standard streams are the caller's terminal or pipes (`--pty`, `-t`, `--pipe`,
    /// `-P`, `--shell`, `-S`).
    pub(crate) terminal: bool,
    /// `--shell` / `-S`: the user's shell when given no command.
    pub(crate) shell: bool,
}

/// How `systemd-run ARGS` runs its command (systemd-run(1)): its options up to the first
/// operand.
pub(crate) fn transient_unit(args: &[Arg]) -> TransientUnit {
    let mut u = TransientUnit::default();
    let (mut user_manager, mut scope) = (false, false);
    let mut user: Option<String> = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let t = a.text.as_str();
        let (name, attached) = match t.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (t, None),
        };
        let mut value = || {
            attached.clone().or_else(|| {
                i += 1;
                args.get(i - 1).map(|v| v.text.clone())
            })
        };
        match name {
            "--" => break,
            "--user" => user_manager = true,
            "--system" => user_manager = false,
            "--scope" => scope = true,
            "--pty" | "-t" | "--pipe" | "-P" => u.terminal = true,
            "--shell" | "-S" => {
                u.terminal = true;
                u.shell = true;
            }
            "--uid" => user = value(),
            "-p" | "--property" => {
                if let Some(v) = value()
                    && let Some(named) = v.strip_prefix("User=")
                {
                    user = Some(named.to_string());
                }
            }
            _ if transient_timer(name) => {
                u.later = true;
                if SYSTEMD_RUN_VALUED.contains(&name) {
                    value();
                }
            }
            _ if SYSTEMD_RUN_VALUED.contains(&name) => {
                value();
            }
            _ if t.starts_with("--") => {}
            // A bundle of short switches (`-tq`, `-dGP`).
            _ if t.starts_with('-') && t.len() > 1 => {
                let letters = &t[1..];
                u.terminal |= letters.contains(['t', 'P', 'S']);
                u.shell |= letters.contains('S');
            }
            _ => break,
        }
    }
    u.as_caller = user_manager || (scope && user.is_none());
    u.user = match user.as_deref() {
        None | Some("0") => "root".into(),
        Some(named) => named.to_string(),
    };
    u
}

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
    use super::transient_unit;
    use crate::effects::What;
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
