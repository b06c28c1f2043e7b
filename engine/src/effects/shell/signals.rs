//! Signals: processes and services signalled (`kill`, `pkill`, `systemctl stop`).

use super::out::Out;
use crate::effects::model::{Effects, What};
use crate::effects::programs::{Parsed, Role, parse};
use crate::shell::{Arg, SimpleCommand};

/// Programs that print the PIDs of the processes they look up by name.
const LOOKUPS: &[&str] = &["pgrep", "pidof"];

/// A signal whose targets are only known at run time, on a line that looks processes up by
/// name (`kill $(pgrep seamguard)`, `pidof x | xargs kill -9`), signals the processes looked
/// up: their names join its targets (the computed target stays), and a `kill` run by `xargs`
/// with no target of its own gets them as its targets.
pub(super) fn looked_up_targets(fx: &mut Effects, from: usize) {
    let Some(list) = fx.list.get(from..) else {
        return;
    };
    let mut names: Vec<Arg> = Vec::new();
    let mut fed: Vec<(usize, Option<String>)> = Vec::new();
    // `ps aux | grep NAME`: a listing filtered by name is a lookup of that name.
    let lists = list
        .iter()
        .any(|e| matches!(&e.what, What::Run(c) if c.basename() == "ps"));
    // A lookup that selects every process (of a user): `pgrep -u "$USER"` with no name, a
    // `ps -e` / `ps aux` listing that nothing filters by name.
    let mut every = false;
    for (i, e) in list.iter().enumerate() {
        let What::Run(c) = &e.what else {
            continue;
        };
        if LOOKUPS.contains(&c.basename())
            && let Some(p) = parse(c)
        {
            let before = names.len();
            names.extend(p.operands_of(Role::Target).cloned());
            every |=
                names.len() == before && c.args.iter().any(|a| BY_USER.contains(&a.text.as_str()));
        }
        every |= c.basename() == "ps" && lists_every_process(c);
        if lists
            && matches!(c.basename(), "grep" | "egrep" | "fgrep")
            // `grep -v grep` keeps what does not match: no name looked up.
            && !c.args.iter().any(|a| {
                a.text == "--invert-match"
                    || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('v'))
            })
            && let Some(pattern) = c.args.iter().find(|a| !a.text.starts_with('-'))
        {
            names.push(Arg {
                text: one_char_classes(&pattern.text),
                dynamic: pattern.dynamic,
            });
        }
        // `… | xargs kill -9`: the targets are the words read from standard input.
        if c.basename() == "kill"
            && c.via.last().is_some_and(|v| v == "xargs")
            && let Some(p) = parse(c)
            && p.operands_of(Role::Target).next().is_none()
        {
            let given = p.values_of(Role::Signal).next().map(|a| a.text.clone());
            fed.push((from + i, given.or_else(|| signal_flag(&p))));
        }
    }
    if names.is_empty() && every {
        // Every process: the name that matches any (`.*`).
        names.push(Arg {
            text: ".*".to_string(),
            dynamic: false,
        });
    }
    if names.is_empty() {
        return;
    }
    for e in fx.list.iter_mut().skip(from) {
        if let What::Signal {
            targets,
            by_pattern,
            ..
        } = &mut e.what
            && targets.iter().any(|t| t.dynamic)
        {
            // pgrep and grep look names up by regular expression.
            *by_pattern = true;
            for n in &names {
                if !targets.contains(n) {
                    targets.push(n.clone());
                }
            }
        }
    }
    for (i, signal) in fed {
        if let Some(route) = fx.list.get(i).map(|e| e.route.clone()) {
            fx.push(
                What::Signal {
                    targets: names.clone(),
                    signal,
                    by_pattern: true,
                },
                route,
            );
        }
    }
}

/// `pgrep`'s options that select processes by their user (`pgrep -u "$USER"`): with no name,
/// every process of that user.
const BY_USER: &[&str] = &["-u", "-U", "--euid", "--uid"];

/// Whether a `ps` line lists every process: `-e`, `-A`, `--everyone`, or the BSD `ax`
/// letters (`ps aux`, `ps ax -o pid=`); `ps -u me` and a bare `ps` (this terminal) do not.
fn lists_every_process(c: &SimpleCommand) -> bool {
    c.args.iter().any(|a| {
        let t = a.text.as_str();
        matches!(t, "-e" | "-A" | "--everyone" | "-ef" | "-eo" | "-Af")
            || (!t.starts_with('-')
                && t.contains('a')
                && t.contains('x')
                && t.chars().all(|ch| ch.is_ascii_alphabetic()))
            || (t.starts_with('-')
                && !t.starts_with("--")
                && t.len() <= 4
                && (t.contains('e') || t.contains('A'))
                && t[1..].chars().all(|ch| "eAfFlyjo".contains(ch)))
    })
}

/// A grep pattern with its one-character classes written as the character (`[s]eamguard`,
/// the usual way to keep `grep` out of its own `ps` listing, is `seamguard`).
fn one_char_classes(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    while let Some(&ch) = chars.get(i) {
        if ch == '['
            && let (Some(&c), Some(']')) = (chars.get(i + 1), chars.get(i + 2))
            && !matches!(c, '^' | ']' | '\\')
        {
            out.push(c);
            i += 3;
            continue;
        }
        out.push(ch);
        i += 1;
    }
    out
}

/// A cluster of short flags (`-r`, `-vr`), not a long one.
fn is_short(flag: &str) -> bool {
    flag.starts_with('-') && !flag.starts_with("--")
}

/// The signal of a `-9` / `-KILL` / `-SIGTERM` flag word.
fn signal_flag(p: &Parsed) -> Option<String> {
    p.other_flags
        .iter()
        .map(|f| f.text.trim_start_matches('-'))
        .find(|t| {
            !t.is_empty()
                && (t.chars().all(|ch| ch.is_ascii_digit())
                    || (t.len() > 1
                        && t.chars().all(|ch| {
                            ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '+' || ch == '-'
                        })))
        })
        .map(str::to_string)
}

/// `kill`, `pkill`, `killall`, `systemctl stop|kill|…`, `launchctl unload|…`, `reboot`.
/// `kill -9 -1`: after the signal, a negative number is a process group target.
pub(super) fn signal(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut targets: Vec<Arg> = p.operands_of(Role::Target).cloned().collect();
    let given = p.values_of(Role::Signal).next().map(|a| a.text.clone());
    let mut signal = given.clone().or_else(|| signal_flag(p));
    // `kill -l 9` names a signal; it sends none.
    if c.basename() == "kill"
        && p.other_flags
            .iter()
            .any(|f| matches!(f.text.as_str(), "-l" | "-L" | "--list" | "--table"))
    {
        return;
    }
    if c.basename() == "kill" {
        let numeric: Vec<&Arg> = p
            .other_flags
            .iter()
            .filter(|f| f.text.len() > 1 && f.text[1..].chars().all(|ch| ch.is_ascii_digit()))
            .collect();
        let skip = usize::from(
            given.is_none()
                && signal
                    .as_deref()
                    .is_some_and(|s| s.chars().all(|ch| ch.is_ascii_digit())),
        );
        let groups: Vec<Arg> = numeric.into_iter().skip(skip).cloned().collect();
        targets.splice(0..0, groups);
    }
    let base = c.basename();
    let whole_system = matches!(base, "reboot" | "poweroff" | "halt" | "shutdown")
        || p.sub
            .first()
            .is_some_and(|s| matches!(s.as_str(), "poweroff" | "reboot" | "halt" | "suspend"));
    if whole_system && signal.is_none() {
        signal = Some(p.sub.first().cloned().unwrap_or_else(|| base.to_string()));
    }
    if signal.is_none() {
        signal = p.sub.first().cloned();
    }
    if targets.is_empty() && !whole_system {
        return;
    }
    // pkill and `killall -r` select processes by regular expression.
    let by_pattern = base == "pkill"
        || (base == "killall"
            && p.other_flags
                .iter()
                .any(|f| f.text == "--regexp" || (is_short(&f.text) && f.text.contains('r'))));
    out.push(What::Signal {
        targets,
        signal,
        by_pattern,
    });
}

/// `service NAME stop|restart|…`.
pub(super) fn service(p: &Parsed, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    if let [name, action, ..] = ops.as_slice()
        && matches!(
            action.text.as_str(),
            "stop"
                | "restart"
                | "force-reload"
                | "force-stop"
                | "kill"
                | "try-restart"
                | "condrestart"
                | "zap"
        )
    {
        out.push(What::Signal {
            targets: vec![(*name).clone()],
            signal: Some(action.text.clone()),
            by_pattern: false,
        });
    }
}
