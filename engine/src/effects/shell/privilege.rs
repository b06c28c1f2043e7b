//! Grants: what a command gives beyond running — a shell as root or another user, the host's
//! namespaces, a privileged container, a bind mount of a host path, a host device, added
//! capabilities, root in a new user namespace, file capabilities.
//!
//! In: one simple command and its words sorted by its row ([`Parsed`]): the escalation rows
//! (`sudo`, `doas`, `pkexec`, `run0`, `su`), `nsenter`, `unshare`, `setcap`, the pod rows
//! (`kubectl run|apply|debug`), and the grant roles of any row (`--privileged`, `--pid`,
//! `--cap-add`, `--security-opt`, `--device`, `-v`, `--mount` of the container rows). Out:
//! [`What::Grant`] effects. A shell started through an escalation (`sudo bash`, `doas sh`,
//! `su -c bash`) is seen on the shell's own command, whose wrapper path names the escalation.

use super::out::{Out, interactive_shell, read, write};
use super::serve::loopback;
use crate::effects::grants::{HOST_CAPABILITIES, capability_name, manifest_grants};
use crate::effects::model::{Grant, GrantKind, PathRef, What};
use crate::effects::programs::{
    ADMIN_GROUPS, ADMIN_SHELL, Action, DAEMON_GROUPS, Escape, Parsed, Role, ShellEscape, Switch,
    escalates, parse, shell_escape,
};
use crate::shell::{Arg, RedirectMode, SimpleCommand};

/// Capabilities over the network stack: the host's when the container is on the host's
/// network.
const NETWORK_CAPABILITIES: &[&str] = &["NET_ADMIN", "NET_RAW"];

/// Security options that switch a container's confinement off (docker-run `--security-opt`,
/// podman `--security-opt`), and `kubectl debug --profile` values that make a privileged
/// container.
const UNCONFINED: &[&str] = &[
    "seccomp=unconfined",
    "seccomp:unconfined",
    "apparmor=unconfined",
    "apparmor:unconfined",
    "label=disable",
    "label:disable",
    "label=type:spc_t",
    "systempaths=unconfined",
    "unmask=all",
];

/// `kubectl debug --profile` values that give the container every privilege.
const PRIVILEGED_PROFILES: &[&str] = &["sysadmin"];

fn grant(kind: GrantKind, path: Option<PathRef>, detail: String) -> What {
    What::Grant(Grant { kind, path, detail })
}

/// The grants of one command by its row: the grant roles of its option values and switches,
/// then its row's escalation, namespace, capability or pod action.
pub(super) fn grants(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    shell_through_escalation(c, p, out);
    for (role, v) in &p.values {
        container_value(*role, v, c, out);
    }
    // `docker exec -u 0 CTR sh`, `--user root`: root in a running container (`docker run`
    // starts the image's own user, judged by the image).
    if p.sub.last().is_some_and(|s| s == "exec")
        && let Some(u) = p
            .values_of(Role::User)
            .find(|u| !u.dynamic && is_root_user(&u.text))
    {
        out.push(grant(
            GrantKind::PrivilegedContainer,
            None,
            format!(
                "root in a running container (`{} exec --user {}`)",
                c.basename(),
                u.text
            ),
        ));
    }
    // `--privileged=false` is the default said aloud.
    if p.has(Switch::Privileged) && !c.args.iter().any(|a| a.text == "--privileged=false") {
        out.push(grant(
            GrantKind::PrivilegedContainer,
            None,
            format!("a privileged container (`{} --privileged`)", c.basename()),
        ));
    }
    match p.row.action {
        Action::Escalate { bare_shell } => escalate(c, p, bare_shell, out),
        Action::EnterNamespaces => {
            let target = p.values_of(Role::Target).next().map_or_else(
                || "another process".to_string(),
                |t| format!("process {}", t.text),
            );
            out.push(grant(
                GrantKind::HostNamespace,
                None,
                format!("the namespaces of {target} (`nsenter`)"),
            ));
        }
        Action::Unshare if p.has(Switch::MapRoot) => {
            out.push(grant(
                GrantKind::UserNamespace,
                None,
                "root in a new user namespace (`unshare -r`)".into(),
            ));
            // unshare(1): with no program it runs `${SHELL}`; a shell given nothing to run is
            // an interactive shell as (namespaced) root, judged as `sudo -i` is.
            let command: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
            if (command.is_empty() || bare_shell_words(&command)) && !stdin_fed(c) {
                out.push(grant(
                    GrantKind::PrivilegedShell,
                    None,
                    format!(
                        "a shell as root in a new user namespace (`{}`)",
                        c.display_words()
                    ),
                ));
            }
        }
        Action::Mount => mount(c, p, out),
        Action::SetCapability => set_capability(c, p, out),
        Action::Pod => pod(c, p, out),
        Action::JoinGroup => join_group(c, p, out),
        Action::Tunnel => tunnel(c, out),
        Action::WindowsAccount => super::windows::account(c, out),
        Action::Autostart => super::windows::autostart(c, out),
        Action::WindowsRegistry => super::windows::registry(c, out),
        Action::Firewall => {
            super::windows::firewall(c, out);
            super::network_down::grants(c, out);
        }
        Action::NetworkDown => super::network_down::grants(c, out),
        Action::WindowsProtection => super::windows::protection(c, out),
        Action::RunAs => super::windows::run_as(c, out),
        _ => {}
    }
}

/// `mount DEV DIR`, `mount --bind / /tmp/x`, `mount -o remount,rw /`, `mount -a` (mount(8)):
/// a file system over the mount point (the last operand, or `--target`). `mount` alone, `mount
/// -l`, `mount -t ext4` (listings) and `--help`/`--version` mount nothing.
fn mount(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    if words
        .iter()
        .any(|w| matches!(*w, "-h" | "--help" | "-V" | "--version"))
    {
        return;
    }
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let target = ops.last().copied();
    let all = words.iter().any(|w| {
        *w == "--all" || (w.starts_with('-') && !w.starts_with("--") && w[1..].contains('a'))
    });
    let detail = |what: &str| format!("{what} (`{}`)", c.display_words());
    match target {
        Some(t) => {
            let bind = words.iter().any(|w| {
                matches!(*w, "--bind" | "--rbind" | "-B" | "-R" | "--move" | "-M")
                    || w.contains("bind")
            });
            let remount = words.iter().any(|w| w.contains("remount"));
            let what = match (ops.as_slice(), bind, remount) {
                (_, _, true) => format!("{} re-mounted", t.text),
                ([src, _], true, _) => format!("a bind mount of {} on {}", src.text, t.text),
                ([src, _], false, _) => format!("{} mounted on {}", src.text, t.text),
                _ => format!("a file system mounted on {}", t.text),
            };
            out.push(grant(
                GrantKind::Mount,
                Some(PathRef::from_arg(t, c.cwd.as_deref())),
                detail(&what),
            ));
        }
        None if all => out.push(grant(
            GrantKind::Mount,
            None,
            detail("every file system of /etc/fstab mounted"),
        )),
        None => {}
    }
}

/// `usermod -aG docker me`, `gpasswd -a me wheel`, `adduser me sudo`, `useradd -G sudo x`:
/// the groups joined that hold root. `gpasswd -d` and `dseditgroup -d` remove a member and
/// grant nothing; `adduser USER` alone makes a user in its own group.
fn join_group(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let removes = c.args.iter().any(|a| {
        matches!(a.text.as_str(), "-d" | "--delete")
            && matches!(c.basename(), "gpasswd" | "dseditgroup")
    });
    if removes {
        return;
    }
    let mut groups: Vec<&Arg> = p
        .values_of(Role::Group)
        .chain(p.operands_of(Role::Group))
        .collect();
    // `adduser USER GROUP`, `addgroup USER GROUP`: the second operand is the group.
    if matches!(c.basename(), "adduser" | "addgroup") {
        let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
        if let [_, group] = ops.as_slice() {
            groups.push(group);
        }
    }
    for g in groups {
        for name in g.text.split(',').map(str::trim) {
            let kind = if g.dynamic || ADMIN_GROUPS.contains(&name) {
                GrantKind::AdminGroup
            } else if DAEMON_GROUPS.contains(&name) {
                GrantKind::DaemonGroup
            } else {
                continue;
            };
            out.push(grant(
                kind,
                None,
                format!("membership of the group {name} (`{}`)", c.basename()),
            ));
        }
    }
}

/// Reports, help and set-up verbs of the tunnel programs: no port is published.
const TUNNEL_REPORTS: &[&str] = &[
    "-h",
    "--help",
    "help",
    "-V",
    "--version",
    "version",
    "list",
    "login",
    "create",
    "delete",
    "route",
    "info",
    "cleanup",
    "token",
    "ingress",
    "status",
    "reset",
    "off",
    "config",
    "update",
    "server",
];

/// `ngrok http 3000`, `cloudflared tunnel --url http://localhost:8000` or `… tunnel run
/// NAME`, `lt --port 3000`, `bore local 3000 --to bore.pub`, `tailscale funnel 3000`: a
/// local port published beyond the machine.
fn tunnel(c: &SimpleCommand, out: &mut Out) {
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    if words.iter().any(|w| TUNNEL_REPORTS.contains(w)) {
        return;
    }
    let starts = match c.basename() {
        "cloudflared" => words
            .iter()
            .any(|w| *w == "run" || *w == "--url" || w.starts_with("--url=")),
        "bore" => words.first() == Some(&"local"),
        _ => true,
    };
    if starts {
        out.push(grant(
            GrantKind::PublishedPort,
            None,
            format!(
                "a local port published through a relay (`{}`)",
                c.display_words()
            ),
        ));
    }
}

/// `0`, `root`, `0:0`, `root:wheel`: the user part names root.
fn is_root_user(t: &str) -> bool {
    let user = t
        .trim_start_matches('=')
        .split(':')
        .next()
        .unwrap_or_default();
    matches!(user, "0" | "root")
}

/// Whether a mode as given (`666`, `0777`, `o+rw`, `a+w`, `+w`) lets every user write.
fn others_write(mode: &str) -> bool {
    let m = mode.trim();
    if !m.is_empty() && m.chars().all(|c| c.is_ascii_digit()) {
        return u32::from_str_radix(m, 8).is_ok_and(|v| v & 0o002 != 0);
    }
    m.split(',').any(|clause| {
        let who_end = clause
            .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
            .unwrap_or(clause.len());
        let who = &clause[..who_end];
        let rest = &clause[who_end..];
        (who.is_empty() || who.contains(['o', 'a']))
            && (rest.starts_with('+') || rest.starts_with('='))
            && rest.contains('w')
    })
}

/// `chmod 666 /var/run/docker.sock`, `chmod o+rw …/containerd.sock`: a container engine's
/// socket every user may write is root for every user, as membership of its group is.
pub(super) fn engine_socket_opened(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    if p.row.action != Action::Permission || c.basename() != "chmod" {
        return;
    }
    let Some(mode) = p.operands_of(Role::Mode).next() else {
        return;
    };
    if !others_write(&mode.text) {
        return;
    }
    for (_, path) in p.operands.iter().filter(|(r, _)| *r == Role::Permission) {
        let name = path.text.rsplit('/').next().unwrap_or_default();
        if ENGINE_SOCKETS.contains(&name) {
            out.push(grant(
                GrantKind::DaemonGroup,
                Some(PathRef::from_arg(path, c.cwd.as_deref())),
                format!(
                    "the container engine's socket {} to every user (`chmod {}`)",
                    path.text, mode.text
                ),
            ));
        }
    }
}

/// The sockets of container engines whose daemons run as root.
const ENGINE_SOCKETS: &[&str] = &[
    "docker.sock",
    "containerd.sock",
    "podman.sock",
    "crio.sock",
    "cri-dockerd.sock",
    "unix.socket",
];

/// `lxc config set C security.privileged true` (LXD, Incus): a privileged container;
/// `machinectl shell [root@]MACHINE` (systemd): a root shell in a machine or on the host
/// (`.host`).
pub(super) fn machine_grants(c: &SimpleCommand, out: &mut Out) {
    // Every command of a call comes here: the words are gathered only for these programs.
    if !matches!(c.basename(), "lxc" | "incus" | "machinectl") {
        return;
    }
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    match c.basename() {
        "lxc" | "incus" => {
            let privileged = words
                .windows(2)
                .any(|w| w[0] == "security.privileged" && w[1].eq_ignore_ascii_case("true"))
                || words
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case("security.privileged=true"));
            if privileged && words.contains(&"config") {
                out.push(grant(
                    GrantKind::PrivilegedContainer,
                    None,
                    format!(
                        "a privileged container (`{} config … security.privileged`)",
                        c.basename()
                    ),
                ));
            }
        }
        "machinectl" => {
            let ops: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !w.starts_with('-'))
                .collect();
            if let [verb, rest @ ..] = ops.as_slice()
                && matches!(*verb, "shell" | "login")
            {
                let user = rest
                    .first()
                    .and_then(|t| t.split_once('@'))
                    .map_or("root", |(u, _)| if u.is_empty() { "root" } else { u });
                let user = if words.contains(&"--uid") {
                    "another user"
                } else {
                    user
                };
                out.push(grant(
                    GrantKind::PrivilegedShell,
                    None,
                    format!("a shell as {user} in a machine (`machinectl {verb}`)"),
                ));
            }
        }
        _ => {}
    }
}

/// Whether the command's standard input is a file or text (`sudo sh < x.sh`, `<<EOF`).
pub(super) fn stdin_fed(c: &SimpleCommand) -> bool {
    c.redirections.iter().any(|r| {
        r.fd.is_none_or(|fd| fd == 0) && matches!(r.mode, RedirectMode::Read | RedirectMode::Text)
    })
}

/// A shell started by text an escalated program runs itself (`sudo vim -c ':!sh'`, `sudo
/// less +'!sh' f`): `outer` is the wrapper path of the program that ran the text, before the
/// command's own. (An escalation in the command's own path is its own analysis's to judge.)
pub(super) fn shell_from_escalated_text(c: &SimpleCommand, outer: &[String], out: &mut Out) {
    let escalated = |via: &[String]| via.iter().any(|v| escalates(v));
    if !escalated(outer) || escalated(&c.via) {
        return;
    }
    let full = SimpleCommand {
        via: outer.iter().chain(&c.via).cloned().collect(),
        ..c.clone()
    };
    if let Some(p) = parse(&full) {
        shell_through_escalation(&full, &p, out);
    }
}

/// `sudo env bash`, `doas nice sh`: a shell given no script, no `-c` text and no standard
/// input, started through an escalation with other wrappers between them. (The escalation's
/// own row judges the shell it runs directly, `sudo bash`, where its redirections are seen.)
fn shell_through_escalation(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    if !interactive_shell(c.basename()) {
        return;
    }
    // The innermost escalation: when it runs the shell directly, its row judges it.
    let Some(k) = c.via.iter().rposition(|v| escalates(v)) else {
        return;
    };
    // (A line code runs as root, `do shell script "bash" with administrator privileges`, has
    // no row to judge its shell.)
    if (k + 1 == c.via.len() && c.via[k] != ADMIN_SHELL)
        || p.lead_given
        || !p.operands.is_empty()
        || p.has(Switch::StdinScript)
        || stdin_fed(c)
    {
        return;
    }
    out.push(grant(
        GrantKind::PrivilegedShell,
        None,
        format!(
            "an interactive shell through {} (`{}`)",
            c.via.join(", "),
            c.basename()
        ),
    ));
}

/// The user an escalation on the wrapper path runs as (`sudo -u bob`, `su postgres`): root
/// unless named.
fn escalation_user(via: &str) -> String {
    let words: Vec<&str> = via.split_whitespace().collect();
    let su_style = matches!(words.first(), Some(&("su" | "runuser")));
    let mut it = words.iter().skip(1);
    while let Some(w) = it.next() {
        if let Some(u) = w.strip_prefix("--user=") {
            return u.to_string();
        }
        if matches!(*w, "-u" | "--user") {
            if let Some(u) = it.next() {
                return (*u).to_string();
            }
        } else if su_style && !w.starts_with('-') {
            return (*w).to_string();
        }
    }
    "root".into()
}

/// `sudo vim`, `sudo less FILE`, `sudo python3`, `doas env tmux`, `sudo chroot /`: a program
/// that hands out a shell of its own ([`Escape`]), run through an escalation: the grant of
/// `sudo -i`. The program's row, when it has one, says which words are inline code and which
/// operands a script.
pub(super) fn escaped_shell(c: &SimpleCommand, p: Option<&Parsed>, out: &mut Out) {
    let Some(escape) = shell_escape(c.basename()) else {
        return;
    };
    let Some(via) = c.via.iter().find(|v| escalates(v)) else {
        return;
    };
    // An escalation of its own (`sudo chroot /`) is judged by its row.
    if c.dynamic_program || escalates(c.basename()) || !escape_hands_shell(escape, c, p) {
        return;
    }
    out.push(grant(
        GrantKind::PrivilegedShell,
        None,
        format!(
            "a shell as {} from {} through {} (`{}`)",
            escalation_user(via),
            c.basename(),
            c.via.join(", "),
            c.display_words()
        ),
    ));
}

/// Whether the program's words hand out a shell by its [`ShellEscape`].
fn escape_hands_shell(escape: &Escape, c: &SimpleCommand, p: Option<&Parsed>) -> bool {
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    if words
        .iter()
        .any(|w| matches!(*w, "--help" | "--version" | "-h"))
    {
        return false;
    }
    let named = |list: &[&str], w: &str| {
        list.contains(&w)
            || w.split_once('=')
                .is_some_and(|(k, _)| k.starts_with("--") && list.contains(&k))
    };
    // The words that are not options nor their values; whether a command option is given.
    let mut operands = Vec::new();
    let mut commands = false;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if named(escape.commands, w) {
            commands = true;
            if !w.contains('=')
                && escape.kind != ShellEscape::Interpreter
                && escape.kind != ShellEscape::Paginated
            {
                it.next();
            }
        } else if escape.valued.contains(w) {
            it.next();
        } else if let Some(cmd) = w.strip_prefix('+') {
            // `vim +42 f` opens at a line; `vim +'!sh'` runs an editor command. A row that
            // reads `+CMD` itself (vim's) finds the shell escape in it; others count it.
            let row_reads_plus = p.is_some_and(|p| p.row.plus != Role::Ignore);
            commands |= escape.kind == ShellEscape::Editor
                && !row_reads_plus
                && !cmd.chars().all(|ch| ch.is_ascii_digit());
        } else if !w.starts_with('-') || *w == "-" {
            operands.push(*w);
        }
    }
    match escape.kind {
        ShellEscape::Always => !words.iter().any(|w| escape.words.contains(w)),
        ShellEscape::Editor => commands || operands.iter().all(|o| *o == "-"),
        ShellEscape::Interpreter => {
            let code = p.is_some_and(|p| !p.codes.is_empty());
            let script = p.map_or(!operands.is_empty(), |p| {
                !p.operands.is_empty() || p.lead_given || p.has(Switch::StdinScript)
            });
            code || commands || (!script && !stdin_fed(c))
        }
        ShellEscape::Report => {
            !words.contains(&"--no-pager") && words.iter().all(|w| escape.words.contains(w))
        }
        ShellEscape::Paginated => {
            !words.contains(&"--no-pager")
                && (commands || operands.first().is_some_and(|o| escape.words.contains(o)))
        }
        ShellEscape::Chroot => operands.len() <= 1,
    }
}

/// `sudo -i`, `sudo -u bob -s`, `doas -s`, `pkexec`, `run0`, `su -`, `su postgres`: the
/// target user's shell, when no command is given.
fn escalate(c: &SimpleCommand, p: &Parsed, bare_shell: bool, out: &mut Out) {
    let su_style = p.row.lead.contains(&Role::User);
    // `su --help`, `sudo -V`, `pkexec --version`: a report, no shell.
    if c.args.iter().any(|a| {
        matches!(a.text.as_str(), "--help" | "--version" | "-V") || (su_style && a.text == "-h")
    }) {
        return;
    }
    // `setpriv` changes no user unless told (`setpriv --no-new-privs sh`).
    if c.basename() == "setpriv" && p.values_of(Role::User).next().is_none() {
        return;
    }
    let user = p
        .values_of(Role::User)
        .chain(p.operands_of(Role::User))
        .find(|a| a.text != "-")
        .map_or_else(|| "root".to_string(), |a| a.text.clone());
    let user = user.trim_start_matches('=').to_string();
    let user = if user == "0" {
        "root".to_string()
    } else {
        user
    };
    // The command starts after the leading operands (`chroot DIR CMD…`).
    let command: Vec<&Arg> = p
        .operands
        .iter()
        .skip(if su_style { 0 } else { p.row.lead.len() })
        .map(|(_, a)| a)
        .collect();
    // `su -c bash`, `sudo bash -l`, `pkexec sh`: the command is a shell given nothing to run
    // (its standard input not fed by the escalation's redirections).
    let runs_shell = if su_style {
        p.scripts.iter().any(|(_, t)| starts_shell(t))
    } else {
        bare_shell_words(&command) && !stdin_fed(c)
    };
    let has_command = if su_style {
        !p.scripts.is_empty()
    } else {
        !command.is_empty()
    };
    if !runs_shell && (has_command || !(bare_shell || p.has(Switch::RunsShell))) {
        return;
    }
    out.push(grant(
        GrantKind::PrivilegedShell,
        None,
        format!(
            "a shell as {user} (`{}`)",
            SimpleCommand {
                via: Vec::new(),
                ..c.clone()
            }
            .display_words()
        ),
    ));
}

/// `-c` text of an escalation (`su -c '…'`) one of whose commands only starts a shell: the
/// whole text (`bash -l`), or a command of a list in it (`id && bash`). An element of a
/// pipeline is not one (`cat x | bash` feeds the shell its script), and a shell behind
/// another wrapper (`exec bash`) is the wrapped command's own (`shell_through_escalation`).
/// The text is
/// cut at `;`, `&`, `||` and line ends without regard to quoting, so the test can miss a
/// shell, never invent one (a quoted piece is not a shell's name alone).
fn starts_shell(t: &Arg) -> bool {
    !t.dynamic
        && t.text
            .split(['\n', ';', '&'])
            .flat_map(|piece| piece.split("||"))
            .filter(|cmd| !cmd.contains('|'))
            .map(str::trim)
            .any(|cmd| bare_shell_text(&part(t, cmd)))
}

/// Shell text that only starts a shell (`bash`, `bash -l`, `/bin/sh -i`).
fn bare_shell_text(t: &Arg) -> bool {
    let words: Vec<Arg> = t.text.split_whitespace().map(|w| part(t, w)).collect();
    let refs: Vec<&Arg> = words.iter().collect();
    !t.dynamic && bare_shell_words(&refs)
}

/// Words that only start a shell: a shell's name, then options that give it no script and
/// no `-c` text (`bash`, `bash -l`, `/bin/zsh --login`, `sh -i`).
pub(super) fn bare_shell_words(words: &[&Arg]) -> bool {
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let name = crate::shell::program_name(&first.text);
    !first.dynamic
        && interactive_shell(&name)
        && name != "busybox"
        && rest.iter().all(|w| {
            let t = w.text.as_str();
            !w.dynamic
                && (matches!(t, "--login" | "--norc" | "--noprofile" | "--posix")
                    || (t.starts_with('-')
                        && !t.starts_with("--")
                        && t.len() > 1
                        && t[1..]
                            .chars()
                            .all(|ch| matches!(ch, 'i' | 'l' | 'p' | 'e' | 'x' | 'v' | 'u'))))
        })
}

/// The grant of one option value with a grant role (`--cap-add`, `--security-opt`,
/// `--device`, `--pid`, `--net`, `-v`, `--mount`).
fn container_value(role: Role, v: &Arg, c: &SimpleCommand, out: &mut Out) {
    // `-v=/:/host`, `--device=/dev/sda`: a short option's value may start with `=`.
    let t = v.text.trim();
    let t = t.strip_prefix('=').unwrap_or(t);
    match role {
        Role::Capability => {
            for cap in t.split(',').map(capability_name) {
                let kind = if HOST_CAPABILITIES.contains(&cap.as_str()) {
                    GrantKind::Capability
                } else if NETWORK_CAPABILITIES.contains(&cap.as_str()) {
                    GrantKind::NetworkCapability
                } else {
                    continue;
                };
                out.push(grant(
                    kind,
                    None,
                    format!("the capability {cap} (`--cap-add`)"),
                ));
            }
        }
        Role::SecurityOpt if PRIVILEGED_PROFILES.contains(&t) => out.push(grant(
            GrantKind::PrivilegedContainer,
            None,
            format!("a privileged container (`--profile={t}`)"),
        )),
        Role::SecurityOpt if UNCONFINED.contains(&t.to_ascii_lowercase().as_str()) => {
            out.push(grant(
                GrantKind::Capability,
                None,
                format!("a container without confinement (`--security-opt {t}`)"),
            ));
        }
        Role::Namespace if t == "host" => out.push(grant(
            GrantKind::HostNamespace,
            None,
            "a container in the host's namespaces (`=host`)".into(),
        )),
        Role::Network if t == "host" => out.push(grant(
            GrantKind::HostNetwork,
            None,
            "a container on the host's network (`--net=host`)".into(),
        )),
        Role::Device => {
            let host = t.split(':').next().unwrap_or_default();
            if !host.is_empty() {
                out.push(grant(
                    GrantKind::Device,
                    Some(PathRef::from_arg(&part(v, host), c.cwd.as_deref())),
                    format!("the host device {host} to a container (`--device`)"),
                ));
            }
        }
        Role::MountSpec => mount_spec(v, c, out),
        Role::RemoteForward => out.push(grant(
            GrantKind::PublishedPort,
            None,
            format!(
                "a local port published on the remote host (`{} -R {t}`)",
                c.basename()
            ),
        )),
        // A value only known at run time may be any address, as a server's bind address is.
        Role::ListenAddress
            if v.dynamic
                || t.split(',')
                    .map(str::trim)
                    .any(|a| !a.is_empty() && !loopback(a)) =>
        {
            out.push(grant(
                GrantKind::PublishedPort,
                None,
                format!(
                    "a forwarded port listening on {t}, beyond the loopback address (`{}`)",
                    c.display_words()
                ),
            ));
        }
        _ => {}
    }
}

/// An argument word with new text, dynamic as its word.
fn part(a: &Arg, text: &str) -> Arg {
    Arg {
        text: text.to_string(),
        dynamic: a.dynamic,
    }
}

/// A host path mounted into a container or pod (`-v HOST:…`, `--mount source=HOST`).
pub(super) fn host_mount(host: &Arg, c: &SimpleCommand, out: &mut Out) {
    out.push(grant(
        GrantKind::HostMount,
        Some(PathRef::from_arg(host, c.cwd.as_deref())),
        format!("a bind mount of {} into a container", host.text),
    ));
}

/// `--mount type=bind,source=HOST,target=…[,readonly]`: a bind mount's host path is read,
/// written unless read-only, and granted.
fn mount_spec(v: &Arg, c: &SimpleCommand, out: &mut Out) {
    let mut bind = false;
    let mut source = None;
    let mut read_only = false;
    for kv in v.text.split(',') {
        let (k, val) = kv.split_once('=').unwrap_or((kv, ""));
        match k.trim() {
            "type" => bind = val == "bind",
            "source" | "src" => source = Some(val),
            "readonly" | "ro" => read_only = val.is_empty() || val == "true" || val == "1",
            _ => {}
        }
    }
    let Some(source) = source.filter(|s| bind && !s.is_empty()) else {
        return;
    };
    let host = part(v, source);
    read(&host, c, out);
    if !read_only {
        write(&host, false, c, out);
    }
    host_mount(&host, c, out);
}

/// `setcap CAPS FILE [CAPS FILE…]`; `-r` removes and `-v` verifies.
fn set_capability(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    if p.other_flags
        .iter()
        .any(|f| f.text.starts_with('-') && f.text[1..].contains(['r', 'v']))
    {
        return;
    }
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    for pair in ops.chunks(2) {
        if let [caps, file] = pair {
            out.push(grant(
                GrantKind::FileCapability,
                Some(PathRef::from_arg(file, c.cwd.as_deref())),
                format!("the file capabilities {} on {}", caps.text, file.text),
            ));
        }
    }
}

/// `kubectl run --overrides='{…}'`, `kubectl apply -f - <<EOF`, `kubectl debug node/NAME`.
fn pod(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    for v in p.values_of(Role::Manifest) {
        manifest(&v.text, c, out);
    }
    if p.values_of(Role::ManifestFile).any(|f| f.text == "-")
        && let Some(text) = c.stdin_text()
    {
        manifest(text, c, out);
    }
    if p.sub.first().is_some_and(|s| s == "debug")
        && p.operands
            .iter()
            .any(|(_, a)| a.text.starts_with("node/") || a.text.starts_with("nodes/"))
    {
        out.push(grant(
            GrantKind::HostNamespace,
            None,
            "a debugging container in a node's host namespaces (`kubectl debug node/…`)".into(),
        ));
        let root = Arg {
            text: "/".into(),
            dynamic: false,
        };
        host_mount(&root, c, out);
    }
}

fn manifest(text: &str, c: &SimpleCommand, out: &mut Out) {
    for (kind, path, detail) in manifest_grants(text) {
        let path = path.map(|p| PathRef {
            dynamic: p.is_empty(),
            text: if p.is_empty() { "hostPath".into() } else { p },
            cwd: c.cwd.clone(),
        });
        out.push(grant(kind, path, detail));
    }
}
