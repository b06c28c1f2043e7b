//! Windows administration and secret scanners: account, start-up and security-control grants
//! on every route (net(1), reg(1), schtasks(1), sc(1), netsh(1) of the Windows Commands
//! reference; the LocalAccounts, ScheduledTasks, Management, Defender and NetSecurity
//! cmdlets), and what trufflehog(1) and gitleaks(1) print.

use crate::effects::{EffectKind, What, effects_of};
use crate::shell_env::ShellEnv;

/// The effects of kind `kind` of a Bash line run in `/p`, one `kind: detail` (grants) or
/// `read PATH` (reads) each.
fn of_kind(line: &str, kind: EffectKind) -> Vec<String> {
    let env = ShellEnv::new(None, "/home/u");
    let payload =
        serde_json::json!({"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": line}});
    effects_of(&payload, &env)
        .of(kind)
        .filter_map(|e| match &e.what {
            What::Grant(g) => Some(format!("{}: {}", g.kind.name(), g.detail)),
            What::Read(p) => Some(format!("read {}", p.text)),
            _ => None,
        })
        .collect()
}

fn grants(cases: &[(&str, &[&str])]) {
    for (line, want) in cases {
        assert_eq!(of_kind(line, EffectKind::Grant), *want, "{line}");
    }
}

#[test]
fn windows_accounts_on_every_route() {
    let made: &[&str] = &["local-account: the Windows account helper made"];
    let admin: &[&str] = &["local-account: helper added to the Windows group administrators"];
    grants(&[
        ("net user helper P4ss /add", made),
        ("cmd /c \"net user helper P4ss /add\"", made),
        ("cmd.exe /k net user helper P4ss /ADD", made),
        ("powershell -c \"net user helper P4ss /add\"", made),
        (
            "pwsh -Command \"Start-Process net -ArgumentList 'user helper P4ss /add'\"",
            made,
        ),
        (
            "powershell -c \"Invoke-Expression 'net user helper P4ss /add'\"",
            made,
        ),
        ("nohup net1 user helper P4ss /add", made),
        ("env timeout 5 net.exe user helper P4ss /add", made),
        ("bash -c 'net user helper P4ss /add'", made),
        ("net localgroup administrators helper /add", admin),
        ("cmd /c net localgroup administrators helper /add", admin),
        (
            "net user Guest /active:yes",
            &["local-account: the Windows account Guest enabled"],
        ),
        (
            "net localgroup builders /add",
            &["local-account: the Windows group builders made"],
        ),
        (
            "powershell -c \"New-LocalUser -Name helper -NoPassword\"",
            &["local-account: the Windows account helper made"],
        ),
        (
            "powershell -c \"Add-LocalGroupMember -Group Administrators -Member helper\"",
            &["local-account: helper added to the Windows group Administrators"],
        ),
        (
            "pwsh -c \"Enable-LocalUser Administrator\"",
            &["local-account: the Windows account Administrator enabled"],
        ),
        // Listings, a user shown, a member removed, other verbs: nothing.
        ("net user", &[]),
        ("net user helper", &[]),
        ("net localgroup administrators", &[]),
        ("net localgroup administrators old /delete", &[]),
        ("net use Z: //srv/share", &[]),
        ("cmd /c \"net user & dir\"", &[]),
        (
            "powershell -c \"Get-LocalUser; Get-LocalGroupMember Administrators\"",
            &[],
        ),
    ]);
}

#[test]
fn windows_start_up_on_every_route() {
    let run: &[&str] = &[
        "autostart: a program run at logon or boot from HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
    ];
    grants(&[
        (
            "reg add 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run' /v x /d C:\\x.exe",
            run,
        ),
        (
            "cmd /c \"reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d C:\\x.exe\"",
            &[
                "autostart: a program run at logon or boot from HKCU/Software/Microsoft/Windows/CurrentVersion/Run",
            ],
        ),
        (
            "powershell -c \"Set-ItemProperty -Path HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run -Name x -Value C:\\x.exe\"",
            run,
        ),
        (
            "reg add 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\upd' /v ImagePath /d C:\\x.exe /f",
            &[
                "autostart: a program run at logon or boot from HKLM\\SYSTEM\\CurrentControlSet\\Services\\upd",
            ],
        ),
        (
            "schtasks /Create /SC ONLOGON /TN upd /TR C:\\x.exe",
            &["autostart: the scheduled task upd"],
        ),
        (
            "nohup schtasks.exe /change /tn backup /tr C:\\x.exe",
            &["autostart: the scheduled task backup"],
        ),
        (
            "bash -c 'sc.exe config wuauserv binPath= C:\\x.exe'",
            &["autostart: the Windows service wuauserv set up"],
        ),
        (
            "powershell -c \"Register-ScheduledTask -TaskName upd -Action $a -Trigger $t\"",
            &["autostart: the scheduled task upd"],
        ),
        (
            "powershell -c \"New-Service -Name upd -BinaryPathName C:\\x.exe\"",
            &["autostart: the Windows service upd set up"],
        ),
        // Queries, another key, a task run now, a service started: nothing.
        (
            "reg query HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
            &[],
        ),
        (
            "reg add HKCU\\Software\\Microsoft\\Notepad /v fWrap /d 1 /f",
            &[],
        ),
        ("schtasks /query /fo LIST; schtasks /run /tn backup", &[]),
        ("sc query wuauserv; sc start wuauserv", &[]),
        (
            "powershell -c \"Get-ScheduledTask; Get-ItemProperty HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\"",
            &[],
        ),
    ]);
}

#[test]
fn windows_security_controls_on_every_route() {
    let defender_policy = "security-control: Microsoft Defender's policy changed (reg add HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender value DisableAntiSpyware)";
    grants(&[
        (
            "reg add 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' /v DisableAntiSpyware /t REG_DWORD /d 1 /f",
            &[defender_policy],
        ),
        (
            "REG.EXE add 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' /v DisableAntiSpyware /d 1 /f",
            &[defender_policy],
        ),
        (
            "powershell -c \"Set-ItemProperty -Path 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' -Name DisableAntiSpyware -Value 1\"",
            &[defender_policy],
        ),
        (
            "reg delete 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' /f",
            &[
                "security-control: Microsoft Defender's policy changed (reg delete HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender)",
            ],
        ),
        (
            "powershell -c \"Remove-Item 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' -Recurse\"",
            &[
                "security-control: Microsoft Defender's policy changed (reg delete HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender)",
            ],
        ),
        (
            "reg add 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System' /v EnableLUA /t REG_DWORD /d 0 /f",
            &[
                "security-control: User Account Control changed (reg add HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System value EnableLUA)",
            ],
        ),
        (
            "powershell -c \"Remove-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System ConsentPromptBehaviorAdmin\"",
            &[
                "security-control: User Account Control changed (reg delete HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System value ConsentPromptBehaviorAdmin)",
            ],
        ),
        (
            "reg add 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa' /v RunAsPPL /d 0 /f",
            &[
                "security-control: the LSA's protection of credentials changed (reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa value RunAsPPL)",
            ],
        ),
        (
            "powershell -c 'Set-MpPreference -DisableRealtimeMonitoring $true -ExclusionPath C:\\tools,C:\\tmp'",
            &[
                "security-control: Microsoft Defender's protection weakened (-DisableRealtimeMonitoring True)",
                "security-control: Microsoft Defender's protection weakened (-ExclusionPath /c/tools,/c/tmp)",
            ],
        ),
        (
            "netsh advfirewall set allprofiles state off",
            &["security-control: the Windows Firewall switched off (allprofiles)"],
        ),
        (
            "cmd /c \"NETSH firewall set opmode disable\"",
            &["security-control: the Windows Firewall switched off (opmode disable)"],
        ),
        (
            "pwsh -c 'Set-NetFirewallProfile -Profile Domain,Public -Enabled False'",
            &[
                "security-control: the Windows Firewall switched off (domainprofile)",
                "security-control: the Windows Firewall switched off (publicprofile)",
            ],
        ),
        // Reading, exporting, another key or value, the firewall turned on, a rule added,
        // Defender's protection turned on: nothing.
        (
            "reg query 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender'",
            &[],
        ),
        (
            "reg export 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender' def.reg",
            &[],
        ),
        (
            "reg add 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System' /v Wallpaper /d C:\\w.jpg /f",
            &[],
        ),
        ("netsh advfirewall set currentprofile state on", &[]),
        ("netsh advfirewall show allprofiles", &[]),
        (
            "netsh advfirewall firewall add rule name=dev dir=in action=allow localport=8080 protocol=TCP",
            &[],
        ),
        (
            "powershell -c 'Get-MpPreference; Get-NetFirewallProfile'",
            &[],
        ),
    ]);
}

#[test]
fn secret_scanners_that_print_values_read_the_secret_files_below_their_folder() {
    let cases: &[(&str, &[&str])] = &[
        ("trufflehog filesystem ~", &["read ~/**/.env"]),
        (
            "trufflehog filesystem --json --only-verified . /srv/app",
            &["read ./**/.env", "read /srv/app/**/.env"],
        ),
        ("gitleaks dir -v", &["read ./**/.env"]),
        (
            "gitleaks detect --no-git --source=/home/u --report-path /tmp/r.json",
            &["read /home/u/**/.env"],
        ),
        (
            "gitleaks detect --no-git -s ~/work --verbose",
            &["read ~/work/**/.env"],
        ),
        ("gitleaks dir -v --redact=20 .", &["read ./**/.env"]),
        // The history of the home or of a settings folder in it (a dotfiles repository).
        ("gitleaks detect --source ~ -v", &["read ~/**/.env"]),
        (
            "gitleaks git --verbose $HOME/.config",
            &["read ~/.config/**/.env"],
        ),
        (
            "trufflehog git file://$HOME --no-update",
            &["read ~/**/.env"],
        ),
        // The project's history, another folder's, a remote repository, counted or fully
        // redacted scans, a source folder, hashed baselines.
        ("gitleaks detect --source . -v", &[]),
        ("gitleaks detect --source ~ --redact -v", &[]),
        ("gitleaks detect --source ~/work/app -v", &[]),
        ("trufflehog git https://github.com/acme/app", &[]),
        ("trufflehog git file://.", &[]),
        ("gitleaks detect -v", &[]),
        ("gitleaks protect --staged -v", &[]),
        ("gitleaks detect --no-git", &[]),
        ("gitleaks dir -v --redact .", &[]),
        ("trufflehog filesystem src/", &[]),
        ("detect-secrets scan ~", &[]),
    ];
    for (line, want) in cases {
        let reads: Vec<String> = of_kind(line, EffectKind::Read)
            .into_iter()
            .filter(|r| r.contains("**"))
            .collect();
        assert_eq!(reads, *want, "{line}");
    }
}

/// An item property the model does not follow (another registry key, a file's attribute)
/// stays something seamguard cannot check, as before the start-up keys were read.
#[test]
fn other_item_properties_stay_unsure() {
    let env = ShellEnv::new(None, "/home/u");
    for line in [
        "powershell -c \"Set-ItemProperty HKCU:\\Software\\Foo -Name Theme -Value 1\"",
        "powershell -c 'Set-ItemProperty notes.txt -Name IsReadOnly -Value $true'",
    ] {
        let payload =
            serde_json::json!({"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": line}});
        let fx = effects_of(&payload, &env);
        let unsure: Vec<String> = fx
            .of(EffectKind::Unsure)
            .filter_map(|e| match &e.what {
                What::Unsure(why) => Some(why.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(unsure.len(), 1, "{line}: {unsure:?}");
        assert!(
            unsure[0].ends_with("changes the Windows registry or the machine's security settings"),
            "{line}: {unsure:?}"
        );
        assert_eq!(fx.of(EffectKind::Grant).count(), 0, "{line}");
    }
}
