//! Signals (`kill`, `systemctl stop`, a power change) and permission changes (`chmod`,
//! `setfacl`, `chattr`).

use super::row::{Action, Program, RECURSIVE, ROW, Role};

/// The system rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // Debuggers and terminal recorders that run commands they are given.
    Program {
        // gdb(1): `-ex CMD` / `--eval-command CMD` (and `-iex`, before the program loads) are
        // gdb commands; `shell CMD` and `!CMD` run CMD through the shell.
        names: &["gdb", "gdb-multiarch"],
        valued: &[
            "-x",
            "-command",
            "--command",
            "-ix",
            "-init-command",
            "--init-command",
            "-p",
            "-pid",
            "--pid",
            "-c",
            "-core",
            "--core",
            "-cd",
            "--cd",
            "-d",
            "-directory",
            "--directory",
            "-s",
            "-symbols",
            "--symbols",
            "-e",
            "-exec",
            "--exec",
            "-se",
            "-tty",
            "--tty",
            "-data-directory",
            "--data-directory",
            "-i",
            "-interpreter",
            "--interpreter",
            "-b",
            "-l",
        ],
        options: &[
            ("-ex", Role::Escape),
            ("-eval-command", Role::Escape),
            ("--eval-command", Role::Escape),
            ("-iex", Role::Escape),
            ("-init-eval-command", Role::Escape),
            ("--init-eval-command", Role::Escape),
        ],
        word_options: true,
        ..ROW
    },
    Program {
        // script(1): `-c CMD` / `--command CMD` runs CMD through the shell instead of an
        // interactive one; the operand is the typescript file.
        names: &["script"],
        valued: &["-E", "--echo", "-m", "--logging-format"],
        options: &[("-c", Role::Shell), ("--command", Role::Shell)],
        ..ROW
    },
    // Signals.
    Program {
        names: &["kill"],
        action: Action::Signal,
        options: &[
            ("-s", Role::Signal),
            ("-n", Role::Signal),
            ("--signal", Role::Signal),
        ],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["pkill", "killall", "skill", "slay"],
        action: Action::Signal,
        valued: &[
            "-u",
            "-U",
            "-g",
            "-G",
            "-P",
            "-t",
            "--euid",
            "--uid",
            "--pgroup",
            "--group",
            "--parent",
            "--terminal",
            "--session",
            "-o",
            "--older-than",
            "-y",
            "--younger-than",
            "-c",
            "--context",
            "-F",
            "--pidfile",
        ],
        options: &[("--signal", Role::Signal), ("-s", Role::Signal)],
        rest: Role::Target,
        ..ROW
    },
    // Process lookups: the names whose PIDs they print (`kill $(pgrep NAME)`, `pidof NAME |
    // xargs kill`). pgrep(1), pidof(8).
    Program {
        names: &["pgrep", "pidof"],
        valued: &[
            "-u",
            "-U",
            "-g",
            "-G",
            "-P",
            "-t",
            "-s",
            "-d",
            "--delimiter",
            "--euid",
            "--uid",
            "--pgroup",
            "--group",
            "--parent",
            "--terminal",
            "--session",
            "-F",
            "--pidfile",
            "-o",
            "--omit-pid",
            "--ns",
            "--nslist",
        ],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["systemctl"],
        subs: &[
            &["stop"],
            &["kill"],
            &["restart"],
            &["try-restart"],
            &["reload-or-restart"],
            &["disable"],
            &["mask"],
            &["isolate"],
            &["poweroff"],
            &["reboot"],
            &["halt"],
            &["suspend"],
        ],
        global: &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "--state",
            "-p",
            "--property",
        ],
        action: Action::Signal,
        options: &[
            ("-s", Role::Signal),
            ("--signal", Role::Signal),
            ("--kill-whom", Role::Ignore),
        ],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["service", "rc-service"],
        action: Action::Service,
        ..ROW
    },
    Program {
        names: &["launchctl"],
        subs: &[
            &["unload"],
            &["bootout"],
            &["stop"],
            &["remove"],
            &["disable"],
            &["kill"],
        ],
        action: Action::Signal,
        rest: Role::Target,
        ..ROW
    },
    // Permissions.
    Program {
        names: &["chmod", "chown", "chgrp", "lchown", "chflags"],
        action: Action::Permission,
        valued: &["--from"],
        options: &[("--reference", Role::Read)],
        switches: RECURSIVE,
        lead: &[Role::Mode],
        lead_options: &["--reference"],
        rest: Role::Permission,
        ..ROW
    },
    Program {
        names: &["setfacl"],
        action: Action::Permission,
        options: &[
            ("-m", Role::Mode),
            ("--modify", Role::Mode),
            ("-x", Role::Mode),
            ("--remove", Role::Mode),
            ("--set", Role::Mode),
            ("-M", Role::Read),
            ("--modify-file", Role::Read),
            ("-X", Role::Read),
            ("--remove-file", Role::Read),
            ("--set-file", Role::Read),
        ],
        switches: RECURSIVE,
        rest: Role::Permission,
        ..ROW
    },
    Program {
        names: &["chattr"],
        action: Action::Chattr,
        ..ROW
    },
    // Windows start-up: schtasks(1) `/create`, sc(1) `create|config NAME binPath= …`
    // (Windows Commands reference). Switches are `/` words in any case; what the verbs are is
    // read by the action.
    Program {
        names: &["schtasks", "sc"],
        action: Action::Autostart,
        ..ROW
    },
    // reg(1) `add|delete|copy|restore|load KEY …`: a start-up key written, or a key that
    // holds a protection of the machine written or deleted.
    Program {
        names: &["reg"],
        action: Action::WindowsRegistry,
        ..ROW
    },
    // netsh(1) `advfirewall set PROFILE state off`, `firewall set opmode disable`.
    Program {
        names: &["netsh"],
        action: Action::Firewall,
        ..ROW
    },
    // The machine's network taken down: ip(8) `link set DEV down|delete`, `addr flush`,
    // `route del default|flush`; ifconfig(8) `DEV down`; ifdown(8); nmcli(1) `networking
    // off`, `device disconnect`, `connection down|delete`; networksetup(8)
    // `-setairportpower DEV off`; rfkill(8) `block`; ufw(8) `default deny outgoing`;
    // iptables(8) `-P OUTPUT DROP`; route(8) `del default`; dhclient(8) `-r`, dhcpcd(8)
    // `-k`, Windows ipconfig `/release` (the address given back); iw(8) and wpa_cli(8)
    // `disconnect`. What the words mean is read by the action.
    Program {
        names: &[
            "ip",
            "ifconfig",
            "ifdown",
            "nmcli",
            "networksetup",
            "rfkill",
            "ufw",
            "iptables",
            "ip6tables",
            "iptables-nft",
            "ip6tables-nft",
            "iptables-legacy",
            "ip6tables-legacy",
            "route",
            "dhclient",
            "dhcpcd",
            "ipconfig",
            "iw",
            "wpa_cli",
        ],
        action: Action::NetworkDown,
        ..ROW
    },
    // bcdedit(1) `/set … recoveryenabled no`, wevtutil(1) `cl LOG` (Windows Commands
    // reference): a protection of the machine switched off.
    Program {
        names: &["bcdedit", "wevtutil"],
        action: Action::WindowsProtection,
        ..ROW
    },
    // icacls(1) `PATH /grant …`, takeown(1) `/f PATH`: what the switches name is read by the
    // action.
    Program {
        names: &["icacls", "takeown"],
        action: Action::WindowsPermission,
        ..ROW
    },
    // runas(1) `/user:NAME "PROGRAM ARGS"`: the command line runs as NAME.
    Program {
        names: &["runas"],
        action: Action::RunAs,
        ..ROW
    },
    // wmic(1) `[/node:HOST] process call create "LINE"`: LINE runs (read by the code-run
    // reader); its other verbs are queries or the shadow-copy rule's.
    Program {
        names: &["wmic"],
        ..ROW
    },
    // mshta(1) `URL`, `vbscript:…`, `javascript:…`, `FILE.hta`.
    Program {
        names: &["mshta"],
        action: Action::HtmlApplication,
        ..ROW
    },
    Program {
        // A power change signals every process.
        names: &["reboot", "poweroff", "halt", "shutdown"],
        action: Action::Signal,
        valued: &["-t"],
        ..ROW
    },
];

/// Registry keys whose values run a program by themselves, as their text reads with the
/// separators, spaces and case dropped (`HKCU\Software\Microsoft\Windows\CurrentVersion\Run`,
/// and the same after a shell removed the backslashes): `Run`, `RunOnce`, `RunOnceEx`,
/// `RunServices` (and under `Policies\Explorer`), `Winlogon` (`Shell`, `Userinit`), `Image
/// File Execution Options` (a debugger run instead of a program), the user's shell folders
/// (where `Startup` points) and the `Services` of a control set.
const AUTOSTART_KEYS: &[&str] = &[
    "currentversionrun",
    "policiesexplorerrun",
    "winlogon",
    "imagefileexecutionoptions",
    "explorershellfolders",
    "explorerusershellfolders",
    "services",
    "controlset001services",
    "controlset002services",
];

/// Whether registry key text names a key whose values start a program by themselves.
pub(crate) fn autostart_key(key: &str) -> bool {
    let folded = fold_key(key);
    AUTOSTART_KEYS.iter().any(|k| folded.contains(k))
}

/// Registry key text with the separators, spaces, quotes and case dropped (the same after a
/// shell removed the backslashes).
fn fold_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '\\' | '/' | ' ' | '"' | '\'' | ':'))
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Registry keys that hold a protection of the machine: each as folded as [`AUTOSTART_KEYS`]
/// (the tail that names it under any control set or hive spelling), its full path below
/// `HKLM` (a key deleted with its subkeys deletes every protection below it), the values of it
/// that weaken the protection (lower case; empty: every value) and what it is. Microsoft
/// Defender's policy and settings, User Account Control (the `Policies\System` values that
/// turn it off or let an administrator's token through unprompted), the firewall's policy,
/// the LSA (`RunAsPPL`, `DisableRestrictedAdmin`, the packages it loads) and WDigest's
/// caching of clear-text credentials.
const SECURITY_KEYS: &[(&str, &str, &[&str], &str)] = &[
    (
        "policiesmicrosoftwindowsdefender",
        r"SOFTWARE\Policies\Microsoft\Windows Defender",
        &[],
        "Microsoft Defender's policy",
    ),
    (
        "microsoftwindowsdefender",
        r"SOFTWARE\Microsoft\Windows Defender",
        &[],
        "Microsoft Defender's settings",
    ),
    (
        "currentversionpoliciessystem",
        r"SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System",
        &[
            "enablelua",
            "consentpromptbehavioradmin",
            "consentpromptbehavioruser",
            "promptonsecuredesktop",
            "localaccounttokenfilterpolicy",
            "filteradministratortoken",
            "enableinstallerdetection",
            "validateadmincodesignatures",
        ],
        "User Account Control",
    ),
    (
        "policiesmicrosoftwindowsfirewall",
        r"SOFTWARE\Policies\Microsoft\WindowsFirewall",
        &[],
        "the Windows Firewall policy",
    ),
    (
        "sharedaccessparametersfirewallpolicy",
        r"SYSTEM\CurrentControlSet\Services\SharedAccess\Parameters\FirewallPolicy",
        &[],
        "the Windows Firewall's settings",
    ),
    (
        "controllsa",
        r"SYSTEM\CurrentControlSet\Control\Lsa",
        &[],
        "the LSA's protection of credentials",
    ),
    (
        "securityproviderswdigest",
        r"SYSTEM\CurrentControlSet\Control\SecurityProviders\WDigest",
        &[],
        "WDigest's caching of credentials",
    ),
    // Microsoft Defender's services and drivers (`Start` 4: never started), and the
    // firewall's service.
    (
        "serviceswindefend",
        r"SYSTEM\CurrentControlSet\Services\WinDefend",
        &["start"],
        "Microsoft Defender's service",
    ),
    (
        "serviceswdfilter",
        r"SYSTEM\CurrentControlSet\Services\WdFilter",
        &["start"],
        "Microsoft Defender's file system filter",
    ),
    (
        "serviceswdboot",
        r"SYSTEM\CurrentControlSet\Services\WdBoot",
        &["start"],
        "Microsoft Defender's boot driver",
    ),
    (
        "serviceswdnissvc",
        r"SYSTEM\CurrentControlSet\Services\WdNisSvc",
        &["start"],
        "Microsoft Defender's network inspection service",
    ),
    (
        "servicessense",
        r"SYSTEM\CurrentControlSet\Services\Sense",
        &["start"],
        "Microsoft Defender for Endpoint's service",
    ),
    (
        "servicesmpssvc",
        r"SYSTEM\CurrentControlSet\Services\mpssvc",
        &["start"],
        "the Windows Firewall's service",
    ),
];

/// The keys of the per-user policy tree whose values restrict what the user may run, each
/// below the user's hive (`HKCU`, or a user's hive under `HKU`) with the values that lift a
/// restriction when written or deleted (lower case; empty: every value) and what it is.
const USER_POLICY_KEYS: &[(&str, &[&str], &str)] = &[
    (
        r"Software\Policies\Microsoft\Windows\System",
        &["disablecmd"],
        "the per-user policy that keeps the command prompt off",
    ),
    (
        r"Software\Microsoft\Windows\CurrentVersion\Policies\System",
        &["disabletaskmgr", "disableregistrytools"],
        "the per-user policy that keeps the Task Manager or the registry editor off",
    ),
    (
        r"Software\Policies\Microsoft\Windows\Safer",
        &[],
        "the per-user software restriction policy",
    ),
];

/// Registry key text as folded by [`fold_key`] with what does not change which key it is
/// left out: a remote machine's name (`\\server\HKLM\…`), PowerShell's provider prefix
/// (`Registry::`, `Microsoft.PowerShell.Core\Registry::`), the 32-bit view
/// (`WOW6432Node`), and the hive spelled short (`HKLM`, `HKCU`, long names and `HKLM:` alike).
fn canonical_key(key: &str) -> String {
    let trimmed = key.trim_matches(|c| c == '"' || c == '\'');
    let mut folded = fold_key(trimmed);
    // `\\HOST\HKLM\…`: the key on another machine, the same key there; its hive is found
    // after the host's name (also once a shell removed the backslashes: `\HOSTHKLMSOFTWARE`).
    if trimmed.starts_with('\\')
        && let Some(at) = [
            "hklm",
            "hkey_local_machine",
            "hkcu",
            "hkey_current_user",
            "hku",
        ]
        .iter()
        .filter_map(|hive| folded.find(hive))
        .min()
    {
        folded = folded.split_off(at);
    }
    let bare = folded
        .strip_prefix("microsoft.powershell.core")
        .unwrap_or(&folded);
    let bare = bare.strip_prefix("registry").unwrap_or(bare);
    let bare = bare.replace("wow6432node", "");
    for (long, short) in [
        ("hkey_local_machine", "hklm"),
        ("hkeylocalmachine", "hklm"),
        ("hkey_current_user", "hkcu"),
        ("hkeycurrentuser", "hkcu"),
        ("hkey_users", "hku"),
        ("hkeyusers", "hku"),
    ] {
        if let Some(rest) = bare.strip_prefix(long) {
            return format!("{short}{rest}");
        }
    }
    bare
}

/// The registry hives whose saved copy holds credentials: the local accounts' password
/// hashes (`SAM`), the LSA's secrets and cached domain logons (`SECURITY`), and the boot key
/// that decrypts both (`SYSTEM`). Each with the file Windows keeps it in.
const CREDENTIAL_HIVES: &[(&str, &str)] = &[
    ("hklmsam", "/c/Windows/System32/config/SAM"),
    ("hklmsecurity", "/c/Windows/System32/config/SECURITY"),
    ("hklmsystem", "/c/Windows/System32/config/SYSTEM"),
];

/// The file of a credential hive (`/c/Windows/System32/config/SAM`) when registry key text
/// names one whole (`HKLM\SAM`, `HKEY_LOCAL_MACHINE\SECURITY`, `\\dc\HKLM\SYSTEM`), so
/// saving or exporting it is a read of that file; `None` for a key below or beside one
/// (`HKLM\SYSTEM\CurrentControlSet\Control`, `HKLM\SOFTWARE`).
pub(crate) fn credential_hive(key: &str) -> Option<&'static str> {
    let key = canonical_key(key);
    CREDENTIAL_HIVES
        .iter()
        .find(|(hive, _)| *hive == key)
        .map(|(_, file)| *file)
}

/// What protection of the machine registry key text `key` holds when writing or deleting its
/// value `value` (`None`: the key itself, every value) can weaken it: `Some("User Account
/// Control")` for `HKLM\…\Policies\System` and `EnableLUA`; `None` for another key or a
/// value that protects nothing (`Policies\System` `DisableTaskMgr`).
pub(crate) fn security_key(key: &str, value: Option<&str>) -> Option<&'static str> {
    let folded = canonical_key(key);
    let value = value.map(str::to_ascii_lowercase);
    let weakens = |values: &[&str]| {
        values.is_empty() || value.as_ref().is_none_or(|v| values.contains(&v.as_str()))
    };
    SECURITY_KEYS
        .iter()
        .find(|(k, _, values, _)| folded.contains(k) && weakens(values))
        .map(|(_, _, _, what)| *what)
        .or_else(|| {
            // The per-user policy tree, of the current user or any user's hive.
            let user = folded.starts_with("hkcu") || folded.starts_with("hku");
            USER_POLICY_KEYS
                .iter()
                .find(|(k, values, _)| user && folded.ends_with(&fold_key(k)) && weakens(values))
                .map(|(_, _, what)| *what)
        })
}

/// What protection of the machine lies in registry key text `key` or below it, so deleting
/// the key with its subkeys (`reg delete HKLM\SOFTWARE\Policies /f`, `Remove-Item -Recurse
/// HKLM:\SOFTWARE\Policies`) removes it: `Some("Microsoft Defender's policy")` for
/// `HKLM\SOFTWARE\Policies` or `HKEY_LOCAL_MACHINE\SOFTWARE`; `None` for another hive
/// (`HKCU\Software\Policies`), a sibling (`HKLM\SOFTWARE\Policies\Google`) or the hive
/// itself. Keys compare by whole components, folded as [`fold_key`] (so the same after a shell
/// removed the backslashes), any numbered control set as the current one.
pub(crate) fn security_key_within(key: &str) -> Option<&'static str> {
    let canonical = canonical_key(key);
    // The per-user policy tree deleted whole (`reg delete HKCU\Software\Policies /f`).
    if let Some(rest) = canonical.strip_prefix("hkcu")
        && !rest.is_empty()
        && USER_POLICY_KEYS
            .iter()
            .any(|(path, _, _)| leads_to(path, rest))
    {
        return Some("the per-user policies");
    }
    let rest = canonical.strip_prefix("hklm")?;
    // `ControlSet001\…`: the numbered control set (one digit after `controlset00`).
    const NUMBERED: &str = "controlset00";
    let rest = match rest
        .find(NUMBERED)
        .and_then(|at| Some((rest.get(..at)?, rest.get(at + NUMBERED.len() + 1..)?)))
    {
        Some((head, tail)) => format!("{head}currentcontrolset{tail}"),
        None => rest.to_string(),
    };
    if rest.is_empty() {
        return None;
    }
    SECURITY_KEYS
        .iter()
        .find(|(_, path, _, _)| leads_to(path, &rest))
        .map(|(_, _, _, what)| *what)
}

/// Whether folded key text `rest` is `path` or a key above it, by whole components: each
/// leading part of the path, folded (`software`, `softwarepolicies`, …).
fn leads_to(path: &str, rest: &str) -> bool {
    let mut lead = String::new();
    path.split('\\').any(|part| {
        lead.push_str(&fold_key(part));
        lead == rest
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key at or above a protected one, by whole components and any hive spelling.
    #[test]
    fn the_protection_within_a_key_is_found_by_whole_components() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                r"HKLM\SOFTWARE\Policies",
                Some("Microsoft Defender's policy"),
            ),
            (
                r"HKLM:\Software\Policies\Microsoft\WindowsFirewall",
                Some("the Windows Firewall policy"),
            ),
            (
                r"Registry::HKEY_LOCAL_MACHINE\SOFTWARE",
                Some("Microsoft Defender's policy"),
            ),
            (
                "HKLMSYSTEMControlSet002Control",
                Some("the LSA's protection of credentials"),
            ),
            (
                r"HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion",
                Some("User Account Control"),
            ),
            // A part of a component, a sibling, another hive, the hive itself.
            (r"HKLM\SOFTWARE\Pol", None),
            (r"HKLM\SOFTWARE\Policies\Google", None),
            (r"HKCU\Software\Policies", Some("the per-user policies")),
            (r"HKCU\Software\Pol", None),
            (
                r"\\server\HKLM\SOFTWARE\WOW6432Node\Policies",
                Some("Microsoft Defender's policy"),
            ),
            (r"HKLM", None),
            (r"HKLM\SOFTWARE\ControlSet00é", None),
        ];
        for (key, want) in cases {
            assert_eq!(security_key_within(key), *want, "{key}");
        }
    }

    /// A key and value that weaken a protection, by any hive spelling, the 32-bit view, a
    /// remote machine's prefix or the per-user tree; a value that protects nothing does not.
    #[test]
    fn a_protected_key_is_read_alike_in_every_spelling() {
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            (
                r"HKLM\SYSTEM\CurrentControlSet\Services\WinDefend",
                Some("Start"),
                Some("Microsoft Defender's service"),
            ),
            (
                r"HKEY_LOCAL_MACHINE\SYSTEM\ControlSet001\Services\WinDefend",
                Some("Start"),
                Some("Microsoft Defender's service"),
            ),
            (
                r"HKLM\SYSTEM\CurrentControlSet\Services\WinDefend",
                Some("DisplayName"),
                None,
            ),
            (
                r"\\server\HKLM\SOFTWARE\WOW6432Node\Policies\Microsoft\Windows Defender",
                Some("DisableAntiSpyware"),
                Some("Microsoft Defender's policy"),
            ),
            (
                r"HKCU\Software\Policies\Microsoft\Windows\System",
                Some("DisableCMD"),
                Some("the per-user policy that keeps the command prompt off"),
            ),
            (
                r"HKCU\Software\Microsoft\Windows\CurrentVersion\Policies\System",
                Some("Wallpaper"),
                None,
            ),
            (r"HKCU\Software\MyApp", Some("X"), None),
            // A machine-wide key of the same name is not the per-user tree.
            (
                r"HKLM\Software\Policies\Microsoft\Windows\System",
                Some("DisableCMD"),
                None,
            ),
        ];
        for (key, value, want) in cases {
            assert_eq!(security_key(key, *value), *want, "{key} {value:?}");
        }
    }

    /// A whole credential hive saved is a read of its file; a key below one is not.
    #[test]
    fn a_credential_hive_is_named_by_any_spelling() {
        let cases: &[(&str, Option<&str>)] = &[
            (r"HKLM\SAM", Some("/c/Windows/System32/config/SAM")),
            (
                r"HKEY_LOCAL_MACHINE\SECURITY",
                Some("/c/Windows/System32/config/SECURITY"),
            ),
            (r"HKLM:\SYSTEM", Some("/c/Windows/System32/config/SYSTEM")),
            (r"\\dc01\HKLM\SAM", Some("/c/Windows/System32/config/SAM")),
            (r"\dc01HKLMSAM", Some("/c/Windows/System32/config/SAM")),
            ("HKLMSAM", Some("/c/Windows/System32/config/SAM")),
            (r"HKLM\SYSTEM\CurrentControlSet\Control", None),
            (r"HKLM\SOFTWARE", None),
            (r"HKCU\SAM", None),
        ];
        for (key, want) in cases {
            assert_eq!(credential_hive(key), *want, "{key}");
        }
    }
}
