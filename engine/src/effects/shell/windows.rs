//! Windows administration: the account, start-up, registry and firewall tools whose change
//! outlives the call — a local account made or added to a group, a program set to start by
//! itself, a protection of the machine switched off.
//!
//! In: one simple command of a [`Action::WindowsAccount`](crate::effects::programs::Action),
//! [`Action::Autostart`](crate::effects::programs::Action),
//! [`Action::WindowsRegistry`](crate::effects::programs::Action) or
//! [`Action::Firewall`](crate::effects::programs::Action) row, reached by any route (typed
//! in Git Bash, a `cmd /c` line, a PowerShell command, a wrapper, a nested shell, a cmdlet the
//! PowerShell lens spells as the command). Out: [`What::Grant`] effects of
//! [`GrantKind::LocalAccount`], [`GrantKind::Autostart`] and [`GrantKind::SecurityControl`].
//! Switches are words after `/` (or `-`), in any case (Windows Commands reference: net user,
//! net localgroup, reg add, reg delete, schtasks create, sc create, netsh advfirewall).

use super::out::Out;
use crate::effects::model::{Grant, GrantKind, What};
use crate::effects::programs::{autostart_key, security_key};
use crate::shell::{Arg, SimpleCommand};

/// A switch word (`/add`, `/ADD`, `/active:yes`, `-create`), lower case without its leading
/// `/` or `-`; `None` for an operand (`helper`, `HKCU\…`, `C:\x.exe`: a path with a drive is
/// no switch, nor is a path from the root with more than one component).
fn switch(a: &Arg) -> Option<String> {
    let t = a.text.to_ascii_lowercase();
    let rest = t.strip_prefix(['/', '-'])?;
    (!rest.is_empty() && !rest.contains(['/', '\\'])).then(|| rest.to_string())
}

/// The operands of a command: its words that are no switch.
fn operands(c: &SimpleCommand) -> Vec<&Arg> {
    c.args.iter().filter(|a| switch(a).is_none()).collect()
}

/// Whether `c` has switch `name` (`add` for `/add`, `active:yes` for `/active:yes`).
fn has_switch(c: &SimpleCommand, name: &str) -> bool {
    c.args.iter().filter_map(switch).any(|s| s == name)
}

fn push(kind: GrantKind, detail: String, out: &mut Out) {
    out.push(What::Grant(Grant {
        kind,
        path: None,
        detail,
    }));
}

/// `net user NAME [PASS] /add`, `net user NAME /active:yes`, `net localgroup GROUP NAME /add`,
/// `net group GROUP NAME /add /domain`: a local-account grant naming the account and group.
/// `net user`, `net user NAME` (shown), `net localgroup administrators` (listed), `/delete`
/// and other verbs (`net use`, `net share`, `net start`) grant nothing.
pub(super) fn account(c: &SimpleCommand, out: &mut Out) {
    let ops = operands(c);
    let Some(verb) = ops.first() else {
        return;
    };
    let verb_text = verb.text.to_ascii_lowercase();
    let names = |i: usize| ops.get(i).map_or("an account", |a| a.text.as_str());
    match verb_text.as_str() {
        "user" | "users" if has_switch(c, "add") => push(
            GrantKind::LocalAccount,
            format!("the Windows account {} made", names(1)),
            out,
        ),
        "user" | "users" if has_switch(c, "active:yes") => push(
            GrantKind::LocalAccount,
            format!("the Windows account {} enabled", names(1)),
            out,
        ),
        "localgroup" | "group" if has_switch(c, "add") => {
            let group = ops.get(1).map_or("a group", |a| a.text.as_str());
            let detail = if ops.len() > 2 {
                let members: Vec<&str> = ops[2..].iter().map(|a| a.text.as_str()).collect();
                format!("{} added to the Windows group {group}", members.join(", "))
            } else {
                format!("the Windows group {group} made")
            };
            push(GrantKind::LocalAccount, detail, out);
        }
        _ if verb.dynamic && (has_switch(c, "add") || has_switch(c, "active:yes")) => push(
            GrantKind::LocalAccount,
            "a Windows account change only known at run time".to_string(),
            out,
        ),
        _ => {}
    }
}

/// `schtasks /create` (and `/change /tr`, a new program for a task), `sc [\\\\HOST]
/// create|config NAME …`: an autostart grant. `schtasks /query|/run`, `sc query|start` grant
/// nothing.
pub(super) fn autostart(c: &SimpleCommand, out: &mut Out) {
    let ops = operands(c);
    match c.basename() {
        "schtasks" => {
            let changes_program = has_switch(c, "change") && has_switch(c, "tr");
            if has_switch(c, "create") || changes_program {
                // `/tn NAME`: the task's name.
                let name = c
                    .args
                    .iter()
                    .skip_while(|a| switch(a).as_deref() != Some("tn"))
                    .nth(1)
                    .map_or_else(String::new, |a| format!(" {}", a.text));
                push(
                    GrantKind::Autostart,
                    format!("the scheduled task{name}"),
                    out,
                );
            }
        }
        "sc" => {
            // `sc \\HOST create NAME binPath= …`: the verb after the machine name.
            let mut rest = ops.iter().skip_while(|a| a.text.starts_with('\\'));
            let verb = rest.next().map(|a| a.text.to_ascii_lowercase());
            if matches!(verb.as_deref(), Some("create" | "config")) {
                let name = rest.next().map_or("a service", |a| a.text.as_str());
                push(
                    GrantKind::Autostart,
                    format!("the Windows service {name} set up"),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// The value a `reg` command names: `Some(NAME)` for `/v NAME`, `Some("")` for the key's
/// default value (`/ve`), `None` for every value of the key (`/va`, or none named).
fn reg_value(c: &SimpleCommand) -> Option<&str> {
    let mut words = c.args.iter();
    while let Some(a) = words.next() {
        match switch(a).as_deref() {
            Some("v") => return words.next().map(|v| v.text.as_str()),
            Some("ve") => return Some(""),
            _ => {}
        }
    }
    None
}

/// `reg add|copy|restore|load KEY …` of a start-up key: an autostart grant; `reg
/// add|delete|copy|restore|load KEY` of a key that holds a protection of the machine (the
/// value named by `/v`, or every value): a security-control grant. `reg query`, `reg export`,
/// another key or a value that protects nothing grant nothing; `reg import FILE` names no key
/// and is not read.
pub(super) fn registry(c: &SimpleCommand, out: &mut Out) {
    let ops = operands(c);
    let Some(verb) = ops.first().map(|a| a.text.to_ascii_lowercase()) else {
        return;
    };
    // `reg copy FROM TO`: the key written is the second.
    let key = match verb.as_str() {
        "add" | "delete" | "restore" | "load" => ops.get(1),
        "copy" => ops.get(2),
        _ => None,
    };
    let Some(key) = key.filter(|k| !k.dynamic) else {
        return;
    };
    if verb != "delete" && autostart_key(&key.text) {
        push(
            GrantKind::Autostart,
            format!("a program run at logon or boot from {}", key.text),
            out,
        );
    }
    let value = reg_value(c);
    if let Some(what) = security_key(&key.text, value) {
        let named = match value {
            Some("") => " default value".to_string(),
            Some(v) => format!(" value {v}"),
            None => String::new(),
        };
        push(
            GrantKind::SecurityControl,
            format!("{what} changed (reg {verb} {}{named})", key.text),
            out,
        );
    }
}

/// `netsh advfirewall set PROFILE state off`, `netsh advfirewall set PROFILE firewallpolicy
/// allowinbound,…`, `netsh firewall set opmode disable` (or `mode=disable`): a
/// security-control grant naming the profile. `netsh advfirewall show`, rules added and
/// other contexts (`netsh interface`, `netsh wlan`) grant nothing.
pub(super) fn firewall(c: &SimpleCommand, out: &mut Out) {
    let words: Vec<String> = c.args.iter().map(|a| a.text.to_ascii_lowercase()).collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let detail = match w.as_slice() {
        ["advfirewall", "set", profile, "state", "off", ..] => {
            Some(format!("the Windows Firewall switched off ({profile})"))
        }
        ["advfirewall", "set", profile, "firewallpolicy", policy, ..]
            if policy.starts_with("allowinbound") =>
        {
            Some(format!(
                "the Windows Firewall set to let every connection in ({profile})"
            ))
        }
        ["firewall", "set", "opmode", mode, ..] if matches!(*mode, "disable" | "mode=disable") => {
            Some("the Windows Firewall switched off (opmode disable)".to_string())
        }
        _ => None,
    };
    if let Some(detail) = detail {
        push(GrantKind::SecurityControl, detail, out);
    }
}
