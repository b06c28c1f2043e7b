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
use crate::effects::model::{Grant, GrantKind, PathRef, What};
use crate::effects::programs::{autostart_key, credential_hive, security_key, security_key_within};
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
/// value named by `/v`, or every value), or `reg delete KEY` of a key above one (its
/// subkeys go with it: `HKLM\SOFTWARE\Policies`): a security-control grant. `reg query`, `reg export`,
/// another key or a value that protects nothing grant nothing; `reg import FILE` names no key
/// and is not read. `reg save|export` of a credential hive (`HKLM\SAM`, `HKLM\SECURITY`,
/// `HKLM\SYSTEM`) reads the hive's file, as copying it would.
pub(super) fn registry(c: &SimpleCommand, out: &mut Out) {
    let ops = operands(c);
    let Some(verb) = ops.first().map(|a| a.text.to_ascii_lowercase()) else {
        return;
    };
    if matches!(verb.as_str(), "save" | "export")
        && let Some(key) = ops.get(1).filter(|k| !k.dynamic)
        && let Some(file) = credential_hive(&key.text)
    {
        out.push(What::Read(PathRef::new(file.to_string(), None)));
    }
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
    } else if verb == "delete" && whole_key(c) {
        // The key with its subkeys: a protection below it is deleted with it.
        if let Some(what) = security_key_within(&key.text) {
            push(
                GrantKind::SecurityControl,
                format!(
                    "{what} deleted with a key above it (reg delete {})",
                    key.text
                ),
                out,
            );
        }
    }
}

/// Whether a `reg delete` deletes the key itself with its subkeys: no value named (`/v`,
/// `/ve`) and not only its values (`/va`).
fn whole_key(c: &SimpleCommand) -> bool {
    !c.args
        .iter()
        .any(|a| matches!(switch(a).as_deref(), Some("v" | "ve" | "va")))
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

/// bcdedit(1) boot settings whose value switches a protection off: the recovery environment
/// (`recoveryenabled no`), the recovery started after a failed boot (`bootstatuspolicy
/// ignoreallfailures`), driver signing (`testsigning on`, `nointegritychecks on`), early-launch
/// anti-malware (`disableelamdrivers yes`) and virtualization-based security
/// (`hypervisorlaunchtype off`); `safeboot` starts Windows with its protections left out.
/// Each with the values that weaken it (lower case; empty: any value) and what it is.
const BOOT_SETTINGS: &[(&str, &[&str], &str)] = &[
    (
        "recoveryenabled",
        &["no", "off", "0", "false"],
        "Windows recovery at boot",
    ),
    (
        "bootstatuspolicy",
        &[
            "ignoreallfailures",
            "ignoreshutdownfailures",
            "ignorebootfailures",
        ],
        "the recovery started after a failed boot",
    ),
    (
        "testsigning",
        &["on", "yes", "1", "true"],
        "driver signature enforcement",
    ),
    (
        "nointegritychecks",
        &["on", "yes", "1", "true"],
        "driver signature enforcement",
    ),
    (
        "disableelamdrivers",
        &["on", "yes", "1", "true"],
        "early-launch anti-malware",
    ),
    (
        "hypervisorlaunchtype",
        &["off"],
        "virtualization-based security",
    ),
    ("safeboot", &[], "a boot without the machine's protections"),
];

/// `bcdedit [/store F] /set [{ID}] SETTING VALUE` of a [`BOOT_SETTINGS`] value;
/// `wevtutil cl|clear-log LOG` (the log's records gone), `wevtutil sl|set-log LOG
/// /e:false` (the log switched off): a security-control grant naming what was switched off.
/// `bcdedit /enum`, `bcdedit /set … recoveryenabled yes`, `wevtutil qe|el|gl` grant nothing.
pub(super) fn protection(c: &SimpleCommand, out: &mut Out) {
    let ops: Vec<String> = operands(c)
        .iter()
        .map(|a| a.text.to_ascii_lowercase())
        .collect();
    match c.basename() {
        "bcdedit" if has_switch(c, "set") => {
            // The entry (`{default}`, `{current}`, a GUID) is optional.
            let rest: Vec<&str> = ops
                .iter()
                .map(String::as_str)
                .skip_while(|o| o.starts_with('{'))
                .collect();
            let [setting, value, ..] = rest.as_slice() else {
                return;
            };
            if let Some((_, _, what)) = BOOT_SETTINGS.iter().find(|(s, values, _)| {
                s == setting && (values.is_empty() || values.contains(value))
            }) {
                push(
                    GrantKind::SecurityControl,
                    format!("{what} switched off (bcdedit /set {setting} {value})"),
                    out,
                );
            }
        }
        "wevtutil" => {
            let Some(verb) = ops.first() else {
                return;
            };
            let log = match operands(c).get(1) {
                Some(a) if !a.dynamic => format!("the Windows event log {}", a.text),
                Some(_) => "a Windows event log known only at run time".to_string(),
                None => "a Windows event log".to_string(),
            };
            let disabled = c
                .args
                .iter()
                .filter_map(switch)
                .any(|s| matches!(s.as_str(), "e:false" | "enabled:false"));
            match verb.as_str() {
                "cl" | "clear-log" => push(
                    GrantKind::SecurityControl,
                    format!("{log} cleared (wevtutil {verb})"),
                    out,
                ),
                "sl" | "set-log" if disabled => push(
                    GrantKind::SecurityControl,
                    format!("{log} switched off (wevtutil {verb})"),
                    out,
                ),
                _ => {}
            }
        }
        _ => {}
    }
}

/// The top folders of a Windows system drive whose files are the system's and its programs'.
const SYSTEM_FOLDERS: &[&str] = &["Windows", "Program Files (x86)", "Program Files"];

/// A Windows path in the effect model's spelling (`C:\Windows\System32` →
/// `/c/Windows/System32`), a system folder's name in its own case (`c:\WINDOWS` →
/// `/c/Windows`, and so `/c/windows`). A drive path whose separators a POSIX shell removed (`C:Windows`,
/// `C:WindowsSystem32`, typed unquoted in Git Bash) still names a system folder it starts
/// with. Other text is kept as it is.
pub(super) fn windows_path(text: &str) -> String {
    let b = text.as_bytes();
    // `C:…`, or `/c/…` as Git Bash (and the cmd.exe lens) spells a drive.
    let (drive, rest) = match b {
        [d, b':', ..] if d.is_ascii_alphabetic() => (d, &text[2..]),
        [b'/', d, b'/', ..] if d.is_ascii_alphabetic() => (d, &text[3..]),
        _ => return text.to_string(),
    };
    let drive = (*drive as char).to_ascii_lowercase();
    let rest = rest.replace('\\', "/");
    let rest = rest.trim_start_matches('/');
    for folder in SYSTEM_FOLDERS {
        let Some(head) = rest.get(..folder.len()) else {
            continue;
        };
        if head.eq_ignore_ascii_case(folder) {
            let below = rest[folder.len()..].trim_start_matches('/');
            return if below.is_empty() {
                format!("/{drive}/{folder}")
            } else {
                format!("/{drive}/{folder}/{below}")
            };
        }
    }
    crate::paths::windows_spelling(text).unwrap_or_else(|| text.to_string())
}

/// The verbs of icacls(1) that change what a path allows (the others list, save or check).
const ICACLS_CHANGES: &[&str] = &[
    "grant",
    "grant:r",
    "deny",
    "remove",
    "remove:g",
    "remove:d",
    "setowner",
    "reset",
    "restore",
    "setintegritylevel",
    "inheritance:e",
    "inheritance:d",
    "inheritance:r",
];

/// `icacls PATH /grant[:r] SID:PERM … [/t]`: a change of PATH's permissions, the mode the
/// switch and its values (`grant Everyone:F`), below PATH too with `/t`; `takeown /f PATH
/// [/r]`: PATH's owner changed, below it too with `/r`. `icacls PATH` (a listing), `icacls
/// PATH /save FILE` and `takeown` without `/f` change nothing. icacls's first word is its
/// path.
pub(super) fn permission(c: &SimpleCommand, out: &mut Out) {
    let mut paths: Vec<&Arg> = Vec::new();
    let mut modes: Vec<String> = Vec::new();
    let recursive;
    match c.basename() {
        "icacls" => {
            recursive = has_switch(c, "t");
            let mut change: Option<String> = None;
            for (i, a) in c.args.iter().enumerate() {
                // The first word is the path, whatever it looks like (`C:\`, which cmd.exe
                // and Git Bash spell `/c`, is no switch there).
                if i == 0 && a.text != "/?" {
                    paths.push(a);
                    continue;
                }
                match switch(a) {
                    Some(s) if ICACLS_CHANGES.contains(&s.as_str()) => {
                        modes.push(s.clone());
                        change = Some(s);
                    }
                    Some(_) => change = None,
                    // `/grant Everyone:F Users:R`: the values of the verb; the first word
                    // before any verb is the path.
                    None if change.is_some() => modes.push(a.text.clone()),
                    None if modes.is_empty() && paths.is_empty() => paths.push(a),
                    None => {}
                }
            }
            if modes.is_empty() {
                return;
            }
        }
        "takeown" => {
            recursive = has_switch(c, "r");
            let mut words = c.args.iter();
            while let Some(a) = words.next() {
                if switch(a).as_deref() == Some("f")
                    && let Some(p) = words.next()
                {
                    paths.push(p);
                }
            }
            modes.push("owner taken".to_string());
        }
        _ => return,
    }
    let mode = modes.join(" ");
    for a in paths {
        let path = if a.dynamic {
            PathRef::from_arg(a, c.cwd.as_deref())
        } else {
            PathRef::new(windows_path(&a.text), c.cwd.as_deref())
        };
        out.push(What::ChangePermission {
            path,
            mode: Some(mode.clone()),
            recursive,
        });
    }
}

/// Options of a shell that run nothing of their own (`cmd /k`, `powershell -NoExit`) are
/// any but these, which give it a command, a script or code to run.
const SHELL_RUNS: &[&str] = &[
    "c",
    "r",
    "s",
    "e",
    "ec",
    "enc",
    "encodedcommand",
    "command",
    "file",
    "f",
];

/// Whether a command line only starts a shell (`cmd`, `cmd /k`, `powershell -NoExit`,
/// `C:\Windows\System32\cmd.exe`): a shell's name, then options that give it nothing to run.
fn bare_shell_line(line: &Arg) -> bool {
    let mut words = line.text.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let name = crate::shell::program_name(first.trim_matches('"'));
    !line.dynamic
        && super::out::interactive_shell(&name)
        && words.all(|w| {
            let t = w.to_ascii_lowercase();
            t.strip_prefix(['/', '-'])
                .is_some_and(|o| !o.is_empty() && !SHELL_RUNS.contains(&o))
        })
}

/// `runas /user:NAME cmd`, `runas /savecred /user:admin powershell`: the command line only
/// starts a shell, a shell as NAME (an administrator when none is named). A command line that
/// runs something (`runas /user:admin "cmd /c …"`) is read as a cmd.exe line instead, its
/// commands judged as run by NAME. `runas /showtrustlevels` runs nothing.
pub(super) fn run_as(c: &SimpleCommand, out: &mut Out) {
    let user = c
        .args
        .iter()
        .find_map(|a| {
            let t = a.text.strip_prefix(['/', '-'])?;
            let (k, v) = t.split_once(':')?;
            k.eq_ignore_ascii_case("user").then(|| v.to_string())
        })
        .unwrap_or_else(|| "an administrator".to_string());
    let Some(line) = operands(c).into_iter().next() else {
        return;
    };
    if bare_shell_line(line) {
        out.push(What::Grant(Grant {
            kind: GrantKind::PrivilegedShell,
            path: None,
            detail: format!("a shell as {user} (`{}`)", c.display_words()),
        }));
    }
}

/// `mshta https://…/x.hta`: the application fetched and run; `mshta vbscript:Execute(…)`,
/// `mshta javascript:…`, `mshta about:<script>…`: inline script code, not read here;
/// `mshta app.hta`: a local file read and run.
pub(super) fn html_application(c: &SimpleCommand, out: &mut Out) {
    let Some(target) = operands(c).into_iter().next() else {
        return;
    };
    let lower = target.text.to_ascii_lowercase();
    if ["vbscript:", "javascript:", "jscript:", "about:"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        out.push(What::Unsure(format!(
            "mshta runs inline script code that seamguard does not read (`{}`)",
            c.display_words()
        )));
    } else {
        super::out::script(target, c, out);
    }
}
