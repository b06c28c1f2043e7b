//! Windows administration cmdlets spelled as the command-line tools that do the same, so
//! the shell lens's program table judges both spellings alike (`New-LocalUser helper` is
//! `net user helper /add`; `Set-ItemProperty HKCU:\…\Run -Name x -Value C:\x.exe` is `reg
//! add HKCU\…\Run /v x /d C:\x.exe`; `Remove-Item HKLM:\…\Windows Defender` is `reg delete
//! …`; `Set-NetFirewallProfile -Enabled False` is `netsh advfirewall set allprofiles state
//! off`; `Clear-EventLog Security` is `wevtutil cl Security`), and Defender's preferences,
//! which no tool spells, read here.
//!
//! In: the cmdlet's [`Admin`] kind, its command and its bound values. Out, through
//! [`Collect`]: the words of the tool (`net`, `schtasks`, `sc`, `reg`, `netsh`) for the
//! program table, a security-control grant for a Defender preference that weakens the
//! protection, or, for what the model does not follow (a registry key that neither starts a
//! program nor holds a protection, a file's attribute, another preference), `unsure` as
//! before.

use super::binding::Bound;
use super::cmdlets::{Admin, P};
use super::model::{Command, Element, lit};
use super::words::provider;
use crate::effects::inline::Collect;
use crate::effects::model::{Grant, GrantKind, What};
use crate::effects::programs::{autostart_key, security_key, security_key_within};
use crate::shell::Arg;

/// The first value of `role`, or `fallback` as a literal.
fn first(b: &Bound, role: P, fallback: &str) -> Arg {
    b.of(role).next().cloned().unwrap_or_else(|| lit(fallback))
}

/// A registry path as reg.exe spells it: `HKCU:\Software\…` → `HKCU\Software\…`,
/// `Registry::HKEY_CURRENT_USER\…` → `HKEY_CURRENT_USER\…`.
fn reg_key(path: &str) -> String {
    let lower = path.to_ascii_lowercase();
    let skip = lower
        .find("registry::")
        .map_or(0, |k| k + "registry::".len());
    path[skip..].replacen(':', "", 1).replace('/', "\\")
}

/// The effects of one administration cmdlet `c`; `shown` is its text, `who` its name.
pub(super) fn admin(
    kind: Admin,
    c: &Command<'_>,
    b: &Bound,
    shown: &str,
    who: &str,
    cx: &mut Collect<'_>,
) {
    let words: Vec<Arg> = match kind {
        Admin::NewUser => vec![lit("net"), lit("user"), first(b, P::Name, ""), lit("/add")],
        Admin::EnableUser => vec![
            lit("net"),
            lit("user"),
            first(b, P::Name, ""),
            lit("/active:yes"),
        ],
        Admin::JoinGroup => {
            let mut w = vec![lit("net"), lit("localgroup"), first(b, P::Name, "")];
            w.extend(b.of(P::Member).cloned());
            w.push(lit("/add"));
            w
        }
        Admin::Task => vec![
            lit("schtasks"),
            lit("/create"),
            lit("/tn"),
            first(b, P::Name, ""),
        ],
        Admin::Service => vec![
            lit("sc"),
            lit("create"),
            first(b, P::Name, ""),
            lit("binPath="),
            first(b, P::Value, ""),
        ],
        Admin::Property | Admin::RemoveProperty => {
            let remove = kind == Admin::RemoveProperty;
            let name = b.of(P::Name).next().map(|a| a.text.as_str());
            let keys: Vec<&Arg> = b
                .of(P::Path)
                .filter(|a| {
                    provider(&a.text) == Some("registry")
                        && ((!remove && autostart_key(&a.text))
                            || security_key(&a.text, name).is_some())
                })
                .collect();
            if keys.is_empty() || b.of(P::Path).count() != keys.len() {
                cx.unsure(format!(
                    "`{shown}` changes the Windows registry or the machine's security settings"
                ));
            }
            for key in keys {
                let key = Arg {
                    text: reg_key(&key.text),
                    dynamic: key.dynamic,
                };
                let words = if remove {
                    let v = first(b, P::Name, "");
                    vec![lit("reg"), lit("delete"), key, lit("/v"), v, lit("/f")]
                } else {
                    let (v, d) = (first(b, P::Name, ""), first(b, P::Value, ""));
                    vec![lit("reg"), lit("add"), key, lit("/v"), v, lit("/d"), d]
                };
                cx.words(who, words, None);
            }
            return;
        }
        Admin::Defender => return defender(c, shown, cx),
        Admin::FirewallProfile => return firewall_profile(c, shown, who, cx),
        Admin::NetAdapter => vec![
            lit("netsh"),
            lit("interface"),
            lit("set"),
            lit("interface"),
            first(b, P::Name, "*"),
            lit("admin=disabled"),
        ],
        Admin::WmiCreate => {
            let named = |role: P, want: &str| {
                b.of(role)
                    .next()
                    .is_some_and(|a| a.dynamic || a.text.eq_ignore_ascii_case(want))
            };
            // Other classes and methods (`Win32_Service`, `Terminate`) start no program.
            if !named(P::ItemType, "win32_process") || !named(P::Name, "create") {
                return;
            }
            let mut words = vec![lit("wmic"), lit("process"), lit("call"), lit("create")];
            words.extend(b.of(P::Args).take(1).map(command_line));
            words
        }
        Admin::ClearLog => {
            // `-LogName Security,System`: each log of the list.
            for log in b.of(P::Name) {
                for name in log.text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    let log = Arg {
                        text: name.to_string(),
                        dynamic: log.dynamic,
                    };
                    cx.words(who, vec![lit("wevtutil"), lit("cl"), log], None);
                }
            }
            return;
        }
    };
    cx.words(who, words, None);
}

/// `Remove-Item` of registry key `key`: one that holds a protection of the machine, or lies
/// above one (`HKLM:\SOFTWARE\Policies`), is `reg delete KEY /f`; another stays something
/// seamguard cannot check, as before.
pub(super) fn remove_key(key: &Arg, shown: &str, who: &str, cx: &mut Collect<'_>) {
    if security_key(&key.text, None).is_none() && security_key_within(&key.text).is_none() {
        cx.unsure(format!("`{shown}` changes the Windows registry"));
        return;
    }
    let key = Arg {
        text: reg_key(&key.text),
        dynamic: key.dynamic,
    };
    cx.words(who, vec![lit("reg"), lit("delete"), key, lit("/f")], None);
}

/// A named parameter of a command: its name in lower case without its `-`, as written, and
/// the values given to it (none for a switch).
struct Named {
    name: String,
    written: String,
    vals: Vec<Arg>,
}

/// Each named parameter of `c`, in order.
fn named(c: &Command<'_>) -> Vec<Named> {
    let mut out: Vec<Named> = Vec::new();
    for e in &c.elements {
        match e {
            Element::Param(name, _, written) => out.push(Named {
                name: name.to_ascii_lowercase(),
                written: written.trim_end_matches(':').to_string(),
                vals: Vec::new(),
            }),
            Element::Value(_, vals) => {
                if let Some(Named { vals: v, .. }) = out.last_mut() {
                    v.extend(vals.iter().cloned());
                }
            }
            Element::Redirect(..) => {}
        }
    }
    out
}

/// Whether a parameter's values include one of `weak` (lower case, `$` dropped), or one only
/// known at run time; a parameter given no value is a switch turned on (`$true`).
fn weakened(vals: &[Arg], weak: &[&str]) -> bool {
    if vals.is_empty() {
        return weak.contains(&"true");
    }
    vals.iter().any(|v| {
        let value = v.text.trim_start_matches('$').to_ascii_lowercase();
        let boolean = matches!(value.as_str(), "true" | "false");
        (v.dynamic && !boolean) || weak.contains(&value.as_str())
    })
}

/// Defender's preferences that weaken the protection (Defender module reference,
/// Set-MpPreference), by parameter (lower case; a name ending in `*` is a prefix) and the
/// values that weaken it (empty: any value): a protection switched off, a path, process,
/// extension or address left unscanned, controlled folder access, network or PUA protection
/// off or only audited, cloud reporting or sample submission off, threats allowed.
const DEFENDER: &[(&str, &[&str])] = &[
    ("disable*", &["true", "1"]),
    ("exclusion*", &[]),
    ("controlledfolderaccessallowedapplications", &[]),
    ("attacksurfacereductiononlyexclusions", &[]),
    (
        "enablecontrolledfolderaccess",
        &[
            "0",
            "disabled",
            "2",
            "auditmode",
            "4",
            "auditdiskmodificationonly",
        ],
    ),
    (
        "enablenetworkprotection",
        &["0", "disabled", "2", "auditmode"],
    ),
    ("puaprotection", &["0", "disabled", "2", "auditmode"]),
    ("mapsreporting", &["0", "disabled"]),
    ("submitsamplesconsent", &["2", "neversend"]),
    ("*threatdefaultaction", &["6", "allow", "9", "noaction"]),
    (
        "threatiddefaultaction_actions",
        &["6", "allow", "9", "noaction"],
    ),
];

/// Whether parameter `name` (lower case, as written: a unique prefix of the full name is the
/// parameter too) is the preference `pattern` of [`DEFENDER`].
fn is_preference(name: &str, pattern: &str) -> bool {
    match (pattern.strip_suffix('*'), pattern.strip_prefix('*')) {
        (Some(prefix), _) => name.starts_with(prefix),
        (_, Some(suffix)) => name.ends_with(suffix),
        _ => name.len() >= 6 && pattern.starts_with(name),
    }
}

/// `Set-MpPreference` / `Add-MpPreference`: a security-control grant for each preference
/// that weakens Defender's protection; a command with none stays something seamguard cannot
/// check, as before.
fn defender(c: &Command<'_>, shown: &str, cx: &mut Collect<'_>) {
    let mut any = false;
    for Named {
        name,
        written,
        vals,
    } in named(c)
    {
        let weak = DEFENDER.iter().any(|(pattern, weak)| {
            is_preference(&name, pattern)
                && if weak.is_empty() {
                    !vals.is_empty()
                } else {
                    weakened(&vals, weak)
                }
        });
        if !weak {
            continue;
        }
        any = true;
        let given: Vec<&str> = vals.iter().map(|v| v.text.as_str()).collect();
        let shown = if given.is_empty() {
            written
        } else {
            format!("{written} {}", given.join(","))
        };
        cx.push(What::Grant(Grant {
            kind: GrantKind::SecurityControl,
            path: None,
            detail: format!("Microsoft Defender's protection weakened ({shown})"),
        }));
    }
    if !any {
        cx.unsure(format!(
            "`{shown}` changes the Windows registry or the machine's security settings"
        ));
    }
}

/// `Set-NetFirewallProfile [-Profile|-Name P,…|-All] -Enabled False`: `netsh advfirewall
/// set PPROFILE state off` for each profile (all of them when none is named);
/// `-DefaultInboundAction Allow`: `netsh advfirewall set … firewallpolicy
/// allowinbound,allowoutbound`. Other settings stay something seamguard cannot check.
fn firewall_profile(c: &Command<'_>, shown: &str, who: &str, cx: &mut Collect<'_>) {
    let params = named(c);
    let profiles: Vec<String> = params
        .iter()
        .filter(|p| p.name == "profile" || p.name == "name")
        .flat_map(|p| p.vals.iter())
        .map(|v| format!("{}profile", v.text.to_ascii_lowercase()))
        .collect();
    let profiles = if profiles.is_empty() {
        vec!["allprofiles".to_string()]
    } else {
        profiles
    };
    let off = params
        .iter()
        .any(|p| p.name == "enabled" && weakened(&p.vals, &["false", "0"]));
    let open = params.iter().any(|p| {
        p.name.len() >= 8
            && "defaultinboundaction".starts_with(p.name.as_str())
            && weakened(&p.vals, &["allow", "1"])
    });
    if !off && !open {
        cx.unsure(format!(
            "`{shown}` changes the Windows registry or the machine's security settings"
        ));
        return;
    }
    for profile in profiles {
        let setting = if off {
            vec![lit("state"), lit("off")]
        } else {
            vec![lit("firewallpolicy"), lit("allowinbound,allowoutbound")]
        };
        let mut words = vec![lit("netsh"), lit("advfirewall"), lit("set"), lit(&profile)];
        words.extend(setting);
        cx.words(who, words, None);
    }
}

/// The command line of a `Win32_Process` `Create` call's arguments: the value of its
/// `CommandLine` key when they are a hash table (`@{CommandLine='cmd /c …'; …}`, as
/// `Invoke-CimMethod -Arguments` takes them), expanded as a PowerShell value; else the
/// argument itself (`Invoke-WmiMethod -ArgumentList LINE`).
fn command_line(arg: &Arg) -> Arg {
    let text = arg.text.as_str();
    let Some(body) = text.strip_prefix("@{").and_then(|t| t.strip_suffix('}')) else {
        return arg.clone();
    };
    let lower = body.to_ascii_lowercase();
    let value = lower.find("commandline").and_then(|at| {
        let rest = body.get(at + "commandline".len()..)?.trim_start();
        let rest = rest.strip_prefix('=')?.trim_start();
        let end = match rest.chars().next()? {
            // A quoted value up to its closing quote (`''` in single quotes is a quote).
            q @ ('\'' | '"') => {
                let b = rest.as_bytes();
                let mut i = 1;
                loop {
                    match b.get(i) {
                        None => break rest.len(),
                        Some(&c) if c == q as u8 && b.get(i + 1) == Some(&(q as u8)) => i += 2,
                        Some(&c) if c == q as u8 => break i + 1,
                        Some(_) => i += 1,
                    }
                }
            }
            _ => rest.find([';', '\n']).unwrap_or(rest.len()),
        };
        rest.get(..end)
    });
    let Some(value) = value else {
        return arg.clone();
    };
    super::words::ps_values(value.trim(), &super::words::Vars::new())
        .into_iter()
        .next()
        .unwrap_or_else(|| arg.clone())
}
