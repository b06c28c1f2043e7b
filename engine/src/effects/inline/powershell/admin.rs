//! Windows administration cmdlets spelled as the command-line tools that do the same, so
//! the shell lens's program table judges both spellings alike (`New-LocalUser helper` is
//! `net user helper /add`; `Set-ItemProperty HKCU:\…\Run -Name x -Value C:\x.exe` is `reg
//! add HKCU\…\Run /v x /d C:\x.exe`).
//!
//! In: the cmdlet's [`Admin`] kind and its bound values. Out, through [`Collect`]: the words
//! of the tool (`net`, `schtasks`, `sc`, `reg`) for the program table, or, for an item
//! property the model does not follow (a registry key that starts nothing, a file's
//! attribute), `unsure` as before.

use super::binding::Bound;
use super::cmdlets::{Admin, P};
use super::model::lit;
use super::words::provider;
use crate::effects::inline::Collect;
use crate::effects::programs::autostart_key;
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

/// The effects of one administration cmdlet; `shown` is its text, `who` its name.
pub(super) fn admin(kind: Admin, b: &Bound, shown: &str, who: &str, cx: &mut Collect<'_>) {
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
        Admin::Property => {
            let keys: Vec<&Arg> = b
                .of(P::Path)
                .filter(|a| provider(&a.text) == Some("registry") && autostart_key(&a.text))
                .collect();
            if keys.is_empty() || b.of(P::Path).count() != keys.len() {
                cx.unsure(format!(
                    "`{shown}` changes the Windows registry or the machine's security settings"
                ));
            }
            for key in keys {
                let words = vec![
                    lit("reg"),
                    lit("add"),
                    Arg {
                        text: reg_key(&key.text),
                        dynamic: key.dynamic,
                    },
                    lit("/v"),
                    first(b, P::Name, ""),
                    lit("/d"),
                    first(b, P::Value, ""),
                ];
                cx.words(who, words, None);
            }
            return;
        }
    };
    cx.words(who, words, None);
}
