//! Set-uid and set-gid bits as grants, whatever route set them.
//!
//! In: the effects the lenses found. Out: a [`What::Grant`] of [`GrantKind::Setuid`] beside
//! each permission change whose mode sets the set-uid or set-gid bit — `chmod 4755`, `chmod
//! u+s`, `chmod g+s`, `chmod +s`, `install -m 4755`, `os.chmod(p, 0o4755)`, an MCP tool's
//! mode argument — with the route of the change. chmod(1): an octal mode's fourth digit from
//! the right holds the set-uid (4) and set-gid (2) bits; a symbolic mode sets them with `s`
//! after `+` or `=` for `u`, `g`, `a` or no one named.

use super::{Effects, Grant, GrantKind, What};

/// Whether a mode as given (`4755`, `04755`, `0o2755`, `u+s`, `ug+s,o-w`, `=rwxs`) sets the
/// set-uid or set-gid bit. Modes that clear them (`u-s`, `0755`) or only set the sticky bit
/// (`1777`, `+t`) do not; an owner (`root:root`) is no mode.
pub(crate) fn sets_setuid(mode: &str) -> bool {
    mode.split_whitespace().any(|m| {
        let m = m.trim_matches(|c| c == '"' || c == '\'');
        if m.contains("S_ISUID") || m.contains("S_ISGID") {
            return true;
        }
        let digits = m
            .strip_prefix("0o")
            .or_else(|| m.strip_prefix("0O"))
            .unwrap_or(m);
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            return u32::from_str_radix(digits, 8).is_ok_and(|v| v & 0o6000 != 0);
        }
        m.split(',').any(symbolic_sets_setuid)
    })
}

/// One clause of a symbolic mode (`ug+s`, `u=rwxs`, `+s`, `a+rx-w+s`).
fn symbolic_sets_setuid(clause: &str) -> bool {
    let who_end = clause
        .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
        .unwrap_or(clause.len());
    let who = &clause[..who_end];
    if !who.is_empty() && !who.contains(['u', 'g', 'a']) {
        return false;
    }
    let mut op = None;
    for ch in clause[who_end..].chars() {
        match ch {
            '+' | '-' | '=' => op = Some(ch),
            's' if matches!(op, Some('+' | '=')) => return true,
            'r' | 'w' | 'x' | 'X' | 's' | 't' | 'u' | 'g' | 'o' => {}
            _ => return false,
        }
    }
    false
}

/// Add a set-uid grant beside each permission change that sets the bit.
pub(crate) fn setuid_grants(fx: &mut Effects) {
    let mut found = Vec::new();
    for e in &fx.list {
        if let What::ChangePermission {
            path,
            mode: Some(mode),
            ..
        } = &e.what
            && sets_setuid(mode)
        {
            found.push((
                What::Grant(Grant {
                    kind: GrantKind::Setuid,
                    path: Some(path.clone()),
                    detail: format!("the set-uid/set-gid bit on {} (mode {mode})", path.text),
                }),
                e.route.clone(),
            ));
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}

#[cfg(test)]
mod tests {
    use super::sets_setuid;

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
}
