//! Grants the lenses share: set-uid and set-gid bits whatever route set them, and what a pod
//! manifest grants, whatever feeds it (an override, a here-document, a file).
//!
//! In: the effects the lenses found. Out: a [`What::Grant`] of [`GrantKind::Setuid`] beside
//! each permission change whose mode sets the set-uid or set-gid bit — `chmod 4755`, `chmod
//! u+s`, `chmod g+s`, `chmod +s`, `install -m 4755`, `os.chmod(p, 0o4755)`, an MCP tool's
//! mode argument — with the route of the change. chmod(1): an octal mode's fourth digit from
//! the right holds the set-uid (4) and set-gid (2) bits; a symbolic mode sets them with `s`
//! after `+` or `=` for `u`, `g`, `a` or no one named. Beside each change that opens a file
//! to every user's writes, a grant of [`GrantKind::OpenAccess`]: an octal mode with the
//! others' write bit (`777`, `0666`), a symbolic one adding `w` for `o` or `a` (`o+w`,
//! `a+rwx`; with no one named the umask decides, so `+w` is not), and icacls(1) granting
//! full (`F`), modify (`M`) or write (`W`, `WD`, `AD`, `GA`, `GW`) access to Everyone,
//! Users or Authenticated Users, by name or SID. Pod manifests ([`manifest_grants`])
//! grant by `privileged`, `hostPID`, `hostIPC`, `hostNetwork`, `hostPath` and added
//! capabilities; a manifest file given to `kubectl apply -f` is read ([`manifest_files`]).

use std::sync::LazyLock;

use regex::Regex;

use super::documents::text_of;
use super::model::{Effects, Grant, GrantKind, PathRef, What};
use super::programs::{Action, Role, parse};
use super::scripts::Disk;
use crate::shell_env::ShellEnv;

/// Capabilities that reach the host from a container (capabilities(7)): `ALL`, mounting and
/// namespace control (`SYS_ADMIN`), tracing other processes, loading kernel modules, raw I/O,
/// reading any file, BPF, the MAC policy, the kernel log, rebooting.
pub(crate) const HOST_CAPABILITIES: &[&str] = &[
    "ALL",
    "SYS_ADMIN",
    "SYS_PTRACE",
    "SYS_MODULE",
    "SYS_RAWIO",
    "SYS_BOOT",
    "DAC_READ_SEARCH",
    "DAC_OVERRIDE",
    "BPF",
    "PERFMON",
    "MAC_ADMIN",
    "MAC_OVERRIDE",
    "SYSLOG",
];

/// A capability name without its `CAP_` prefix, upper case.
pub(crate) fn capability_name(t: &str) -> String {
    let u = t.trim().to_ascii_uppercase();
    u.strip_prefix("CAP_").map_or(u.clone(), str::to_string)
}

/// Whether a mode as given (`4755`, `04755`, `0o2755`, `u+s`, `ug+s,o-w`, `=rwxs`) sets the
/// set-uid or set-gid bit (also `=4755`, `+4000`). Modes that clear them (`u-s`, `0755`) or only set the sticky bit
/// (`1777`, `+t`) do not; an owner (`root:root`) is no mode.
pub(crate) fn sets_setuid(mode: &str) -> bool {
    !names_owner(mode)
        && mode.split_whitespace().any(|m| {
            let m = m.trim_matches(|c| c == '"' || c == '\'');
            if m.contains("S_ISUID") || m.contains("S_ISGID") {
                return true;
            }
            match octal(m) {
                Some(v) => v.is_some_and(|v| v & 0o6000 != 0),
                None => m.split(',').any(symbolic_sets_setuid),
            }
        })
}

/// Whether a mode that [`sets_setuid`] sets the set-uid bit itself, not only the set-gid bit
/// (`4755`, `6755`, `u+s`, `+s`, `a+s`, `S_ISUID`; not `2775`, `g+s`).
fn sets_user_bit(mode: &str) -> bool {
    mode.split_whitespace().any(|m| {
        let m = m.trim_matches(|c| c == '"' || c == '\'');
        if m.contains("S_ISUID") {
            return true;
        }
        match octal(m) {
            Some(v) => v.is_some_and(|v| v & 0o4000 != 0),
            None => m.split(',').any(|clause| {
                symbolic_adds(clause, 's', |who| {
                    who.is_empty() || who.contains(['u', 'a'])
                })
            }),
        }
    })
}

/// Whether a permission change only sets the set-gid bit on a folder (`chmod g+s shared/`,
/// `chmod 2775 team`): new files below it take the folder's group, the usual way a group
/// shares a folder; a folder is never run, so no one gains a privilege. The folder is known
/// by a trailing `/` or as a folder on disk; a recursive change reaches files too.
fn group_shared_folder(path: &PathRef, mode: &str, recursive: bool, env: &ShellEnv) -> bool {
    if recursive || path.dynamic || sets_user_bit(mode) {
        return false;
    }
    let text = path.text.as_str();
    text.ends_with('/')
        || matches!(text, "." | "..")
        || crate::paths::normalize(text, path.cwd.as_deref(), &env.home)
            .is_some_and(|abs| std::path::Path::new(&abs).is_dir())
}

/// Whether a mode as given only takes rights away, or sets an owner-only mode: an octal mode
/// with no group, other or special bit (`700`, `0600`), or symbolic clauses each of which
/// removes (`go-rwx`, `a-w`, `-x`), sets the owner's rights to `rwxX` letters (`u=rw`) or
/// sets nothing for the group and others (`go=`). An owner (`root:root`), a set-uid or sticky
/// bit, any right given to the group or others (`g+r`, `o=r`, `+x`, `755`) and any right
/// added (`u+rwx`: nothing is taken away) do not.
pub(crate) fn tightens(mode: &str) -> bool {
    let mut words = mode.split_whitespace();
    let (Some(m), None) = (words.next(), words.next()) else {
        return false;
    };
    let m = m.trim_matches(|c| c == '"' || c == '\'');
    if names_owner(mode) || m.is_empty() {
        return false;
    }
    match octal(m) {
        Some(v) => v.is_some_and(|v| v & 0o7077 == 0),
        None => m.split(',').all(clause_tightens),
    }
}

/// One clause of a symbolic mode for [`tightens`]: `WHO` then one or more `OP PERMS`.
fn clause_tightens(clause: &str) -> bool {
    let who_end = clause
        .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
        .unwrap_or(clause.len());
    let who = &clause[..who_end];
    let owner_only = !who.is_empty() && who.chars().all(|c| c == 'u');
    let others_only = !who.is_empty() && who.chars().all(|c| c == 'g' || c == 'o');
    let mut actions = clause[who_end..].chars().peekable();
    if actions.peek().is_none() {
        return false;
    }
    while let Some(op) = actions.next() {
        if !matches!(op, '+' | '-' | '=') {
            return false;
        }
        let mut perms = String::new();
        while let Some(p) = actions.next_if(|c| !matches!(c, '+' | '-' | '=')) {
            perms.push(p);
        }
        if !perms.chars().all(|p| "rwxXst".contains(p)) {
            return false;
        }
        let owner_rights = perms.chars().all(|p| "rwxX".contains(p));
        let ok = match op {
            '-' => true,
            '=' => (owner_only && owner_rights) || (others_only && perms.is_empty()),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Whether a permission change's mode names an owner or a group instead (`owner 666`:
/// chown(1) to user ID 666; `group staff`; takeown's `owner taken`).
fn names_owner(mode: &str) -> bool {
    matches!(mode.split_whitespace().next(), Some("owner" | "group"))
}

/// The value of an octal mode word (`Some(None)`: digits that are no octal number; `None`:
/// not a numeric mode). chmod(1): an octal mode may follow `=` or `+` (`=4755`, `+4000`);
/// after `-` it clears bits, so it is no numeric mode here.
fn octal(m: &str) -> Option<Option<u32>> {
    let numeric = m.strip_prefix(['=', '+']).unwrap_or(m);
    let digits = numeric
        .strip_prefix("0o")
        .or_else(|| numeric.strip_prefix("0O"))
        .unwrap_or(numeric);
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| u32::from_str_radix(digits, 8).ok())
}

/// One clause of a symbolic mode (`ug+s`, `u=rwxs`, `+s`, `a+rx-w+s`).
fn symbolic_sets_setuid(clause: &str) -> bool {
    // No one named counts: `+s` sets both bits.
    symbolic_adds(clause, 's', |who| {
        who.is_empty() || who.contains(['u', 'g', 'a'])
    })
}

/// Whether one clause of a symbolic mode adds the permission `bit` (`+` or `=` before it) for
/// a `who` part (`u`, `g`, `o`, `a` letters, possibly none) that `for_whom` accepts.
fn symbolic_adds(clause: &str, bit: char, for_whom: impl Fn(&str) -> bool) -> bool {
    let who_end = clause
        .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
        .unwrap_or(clause.len());
    if !for_whom(&clause[..who_end]) {
        return false;
    }
    let mut op = None;
    for ch in clause[who_end..].chars() {
        match ch {
            '+' | '-' | '=' => op = Some(ch),
            c if c == bit && matches!(op, Some('+' | '=')) => return true,
            'r' | 'w' | 'x' | 'X' | 's' | 't' | 'u' | 'g' | 'o' => {}
            _ => return false,
        }
    }
    false
}

/// Whether a mode as given opens the file to every user's writes: an octal mode with the
/// others' write bit (`777`, `0o666`, `=0777`), a symbolic clause adding `w` for `o` or `a`
/// (`o+w`, `a+rwx`, `ugo=rwx`), or icacls(1)'s `grant[:r]` of `F`, `M` or a write right to
/// everyone or every user (`grant Everyone:F`, `grant:r *S-1-1-0:(OI)(CI)F`, `grant
/// Users:(M)`). `755`, `u+w`, `+w` (the umask decides) and `grant Users:(RX)` do not.
pub(crate) fn opens_to_everyone(mode: &str) -> bool {
    if names_owner(mode) {
        return false;
    }
    let mut granting = false;
    for m in mode.split_whitespace() {
        let m = m.trim_matches(|c| c == '"' || c == '\'');
        let lower = m.to_ascii_lowercase();
        // icacls(1)'s verbs: the words after `/grant` are `PRINCIPAL:RIGHTS` until the next.
        if matches!(lower.as_str(), "grant" | "grant:r") {
            granting = true;
            continue;
        }
        if matches!(
            lower.as_str(),
            "deny" | "remove" | "remove:g" | "remove:d" | "setowner" | "reset" | "restore"
        ) || lower.starts_with("inheritance:")
            || lower == "setintegritylevel"
        {
            granting = false;
            continue;
        }
        if granting {
            if let Some((who, rights)) = lower.rsplit_once(':')
                && EVERYONE.contains(&who.trim_start_matches('*'))
                && writes(rights)
            {
                return true;
            }
            continue;
        }
        let opens = match octal(m) {
            Some(v) => v.is_some_and(|v| v & 0o002 != 0),
            None => m.split(',').any(symbolic_opens),
        };
        if opens {
            return true;
        }
    }
    false
}

/// The principals of every user on Windows, lower case: Everyone (`S-1-1-0`), the local
/// Users group (`S-1-5-32-545`), Authenticated Users (`S-1-5-11`; a mode's words are split
/// at spaces, so its name is read by its second word, `Users`).
const EVERYONE: &[&str] = &["everyone", "users", "s-1-1-0", "s-1-5-32-545", "s-1-5-11"];

/// Whether icacls(1) rights (`F`, `(M)`, `(OI)(CI)F`, `(R,W)`, `(GA)`) allow writing:
/// full, modify, or a write right (`W`, `WD`, `AD`, `GA`, `GW`, `WDAC`, `WO`).
fn writes(rights: &str) -> bool {
    rights
        .split(['(', ')', ','])
        .filter(|r| !r.is_empty())
        .any(|r| {
            matches!(
                r,
                "f" | "m" | "w" | "wd" | "ad" | "ga" | "gw" | "wdac" | "wo"
            )
        })
}

/// One clause of a symbolic mode that adds `w` for the others (`o+w`, `a+rwx`, `ugo=rw`).
fn symbolic_opens(clause: &str) -> bool {
    // No one named leaves it to the umask (`+w`): not counted.
    symbolic_adds(clause, 'w', |who| who.contains(['o', 'a']))
}

/// Add a set-uid grant beside each permission change that sets the bit, and an open-access
/// grant beside each that opens the file to every user's writes.
/// A set-gid bit on a folder is no grant ([`group_shared_folder`]).
pub(crate) fn permission_grants(fx: &mut Effects, env: &ShellEnv) {
    let mut found = Vec::new();
    for e in &fx.list {
        let What::ChangePermission {
            path,
            mode: Some(mode),
            recursive,
        } = &e.what
        else {
            continue;
        };
        if sets_setuid(mode) && !group_shared_folder(path, mode, *recursive, env) {
            found.push((
                What::Grant(Grant {
                    kind: GrantKind::Setuid,
                    path: Some(path.clone()),
                    detail: format!("the set-uid/set-gid bit on {} (mode {mode})", path.text),
                }),
                e.route.clone(),
            ));
        }
        if opens_to_everyone(mode) {
            found.push((
                What::Grant(Grant {
                    kind: GrantKind::OpenAccess,
                    path: Some(path.clone()),
                    detail: format!("write access to {} for every user (mode {mode})", path.text),
                }),
                e.route.clone(),
            ));
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}

/// What a pod manifest or override (YAML or JSON) grants: `privileged: true`, `hostPID`,
/// `hostIPC`, `hostNetwork`, `hostPath` volumes (with their paths; an empty path when it is
/// not found), added capabilities.
pub(crate) fn manifest_grants(text: &str) -> Vec<(GrantKind, Option<String>, String)> {
    static FLAG: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r#"["']?\b(privileged|hostPID|hostIPC|hostNetwork|hostUsers)["']?\s*:\s*["']?(true|false)\b"#).ok()
    });
    static HOST_PATH: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r#"["']?\bhostPath["']?\s*:\s*\{?\s*(?:["']?type["']?\s*:\s*["']?\w*["']?\s*,?\s*)?["']?path["']?\s*:\s*["']?([^"'\s,}]+)"#).ok()
    });
    static CAPS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r#"(?s)["']?\badd["']?\s*:\s*\[?\s*(?:-\s*)?["']?((?:CAP_)?[A-Z_]+)"#).ok()
    });
    let mut found = Vec::new();
    if let Some(re) = FLAG.as_ref() {
        for m in re.captures_iter(text) {
            let (Some(k), Some(v)) = (m.get(1), m.get(2)) else {
                continue;
            };
            let k = k.as_str();
            // `hostUsers: false` is a pod in the host's user namespace; the others grant when
            // true.
            let on = (v.as_str() == "true") != (k == "hostUsers");
            if !on {
                continue;
            }
            let kind = match k {
                "privileged" => GrantKind::PrivilegedContainer,
                "hostNetwork" => GrantKind::HostNetwork,
                "hostUsers" => continue,
                _ => GrantKind::HostNamespace,
            };
            found.push((kind, None, format!("a pod with `{k}: {}`", v.as_str())));
        }
    }
    let mut paths = 0;
    if let Some(re) = HOST_PATH.as_ref() {
        for m in re.captures_iter(text) {
            if let Some(path) = m.get(1) {
                paths += 1;
                found.push((
                    GrantKind::HostMount,
                    Some(path.as_str().to_string()),
                    format!("a pod mounting the host path {}", path.as_str()),
                ));
            }
        }
    }
    // A `hostPath` whose path is not read here: a host path only known when it runs.
    if paths == 0 && text.contains("hostPath") {
        found.push((
            GrantKind::HostMount,
            Some(String::new()),
            "a pod mounting a host path (`hostPath`)".into(),
        ));
    }
    if let Some(re) = CAPS.as_ref() {
        for m in re.captures_iter(text) {
            let Some(cap) = m.get(1).map(|c| capability_name(c.as_str())) else {
                continue;
            };
            if HOST_CAPABILITIES.contains(&cap.as_str()) {
                found.push((
                    GrantKind::Capability,
                    None,
                    format!("a pod with the capability {cap}"),
                ));
            }
        }
    }
    found
}

/// `kubectl apply|create|replace -f FILE`: what the manifest grants, read from what the same
/// line wrote to FILE (`cat > pod.yaml <<EOF … EOF && kubectl apply -f pod.yaml`), else from
/// the file on disk (a regular file, at most [`MAX_SCRIPT`](super::scripts::disk::MAX_SCRIPT)
/// bytes). A folder, a URL or a file that is not there adds nothing.
pub(crate) fn manifest_files(fx: &mut Effects, env: &ShellEnv) {
    let mut found = Vec::new();
    for (i, e) in fx.list.iter().enumerate() {
        let What::Run(c) = &e.what else {
            continue;
        };
        // Only a command that names a file option is parsed again.
        if !c.args.iter().any(|a| {
            a.text.starts_with("-f")
                || a.text.starts_with("--filename")
                || a.text.starts_with("--patch-file")
        }) {
            continue;
        }
        let Some(p) = parse(c).filter(|p| p.row.action == Action::Pod) else {
            continue;
        };
        if !p
            .sub
            .first()
            .is_some_and(|s| matches!(s.as_str(), "apply" | "create" | "replace" | "patch"))
        {
            continue;
        }
        for f in p.values_of(Role::ManifestFile) {
            if f.dynamic || f.text == "-" || f.text.contains("://") {
                continue;
            }
            let before = fx.list.get(..i).unwrap_or_default();
            let Disk::Text(text) = text_of(before, &f.text, c, env) else {
                continue;
            };
            for (kind, path, detail) in manifest_grants(&text) {
                let path = path.map(|t| PathRef {
                    dynamic: t.is_empty(),
                    text: if t.is_empty() { "hostPath".into() } else { t },
                    cwd: c.cwd.clone(),
                });
                found.push((
                    What::Grant(Grant {
                        kind,
                        path,
                        detail: format!("{detail} (manifest {})", f.text),
                    }),
                    e.route.clone(),
                ));
            }
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}

#[cfg(test)]
mod tests {
    use super::{group_shared_folder, opens_to_everyone, sets_setuid, tightens};
    use crate::effects::model::GrantKind;
    use crate::effects::model::PathRef;
    use crate::shell_env::ShellEnv;

    #[test]
    fn the_policy_language_names_every_grant_kind() {
        let names: Vec<&str> = GrantKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names, seamguard_policy::lower::GRANTS);
    }

    #[test]
    fn modes_and_icacls_grants_that_open_a_file_to_every_user_s_writes() {
        for m in [
            "777",
            "0666",
            "0o777",
            "=0777",
            "4777",
            "o+w",
            "a+w",
            "a+rwx",
            "ugo=rw",
            "u+x,o+w",
            "grant Everyone:F",
            "grant:r *S-1-1-0:(OI)(CI)F",
            "grant Users:(M)",
            "grant Authenticated Users:(OI)(CI)M",
            "grant 'everyone:(W)'",
            "grant Admins:F Users:(R,W)",
            "grant *S-1-5-32-545:(GA)",
        ] {
            assert!(opens_to_everyone(m), "{m}");
        }
        for m in [
            "755",
            "0644",
            "4755",
            "1775",
            "+w",
            "u+w",
            "g+w",
            "o-w",
            "a-w",
            "o+rx",
            "grant Users:(RX)",
            "grant Administrators:F",
            "grant alice:F",
            "deny Everyone:W",
            "remove Everyone",
            "grant Admins:F deny Users:W",
            "owner taken",
            "owner 666",
            "group 777",
        ] {
            assert!(!opens_to_everyone(m), "{m}");
        }
    }

    #[test]
    fn octal_and_symbolic_modes_that_set_the_setuid_or_setgid_bit() {
        for m in [
            "4755",
            "2755",
            "6755",
            "04755",
            "4711",
            "0o4755",
            "u+s",
            "g+s",
            "+s",
            "a+s",
            "ug+s",
            "u=rwxs",
            "=4755",
            "+4000",
            "u+rwxs,go-w",
            "o-w,u+s",
            "stat.S_ISUID|0o755",
        ] {
            assert!(sets_setuid(m), "{m}");
        }
    }

    #[test]
    fn everyday_modes_set_no_setuid_bit() {
        for m in [
            "755",
            "0755",
            "644",
            "+x",
            "u+x",
            "u+rwx",
            "a+rX",
            "go-w",
            "1777",
            "+t",
            "owner 4755",
            "group 2755",
            "o+t",
            "u-s",
            "g-s",
            "-s",
            "o+s",
            "root:root",
            "root",
            "www-data:www-data",
            "",
        ] {
            assert!(!sets_setuid(m), "{m}");
        }
    }

    #[test]
    fn modes_that_only_tighten() {
        for mode in [
            "700",
            "0700",
            "600",
            "400",
            "0o600",
            "go-rwx",
            "og-rwx",
            "a-w",
            "-x",
            "g-w,o-r",
            "u=rwx",
            "u=rw,go=",
            "go=",
            "u=rwX,go-rwx",
        ] {
            assert!(tightens(mode), "{mode}");
        }
        for mode in [
            "755",
            "644",
            "750",
            "701",
            "4700",
            "1700",
            "2700",
            "g+r",
            "o=r",
            "+x",
            "a+r",
            "=",
            "u+s",
            "go=r",
            "g+s",
            "u=rwx,g=rx",
            "root:root",
            "me",
            "owner 666",
            "",
            "7o0",
            "u+rwx",
            "u+x,go-rwx",
        ] {
            assert!(!tightens(mode), "{mode}");
        }
    }

    #[test]
    fn a_setgid_bit_on_a_folder_shares_it_with_a_group() {
        let env = ShellEnv::new(None, "/home/u");
        let path = |p: &str| PathRef::new(p, Some("/nonexistent-project"));
        assert!(group_shared_folder(&path("shared/"), "g+s", false, &env));
        assert!(group_shared_folder(&path("."), "2775", false, &env));
        // A file, a recursive change (files below get it too), or the set-uid bit.
        assert!(!group_shared_folder(&path("tool.sh"), "g+s", false, &env));
        assert!(!group_shared_folder(&path("shared/"), "g+s", true, &env));
        assert!(!group_shared_folder(&path("shared/"), "u+s", false, &env));
        assert!(!group_shared_folder(&path("shared/"), "6775", false, &env));
        assert!(!group_shared_folder(&path("shared/"), "+s", false, &env));
    }
}
