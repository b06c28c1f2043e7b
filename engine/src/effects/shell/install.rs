//! Installs: the packages a manager installs and the sources they come from.

use super::out::{Out, read};
use crate::effects::model::What;
use crate::effects::programs::{Parsed, Role, Switch};
use crate::shell::{Arg, SimpleCommand};

/// The source a package spec names by itself, as a URL: `git+https://h/x` → `https://h/x`,
/// `https://h/x.tgz`, `git@h:u/r` → `ssh://git@h/u/r`, `github:u/r` → `https://github.com/u/r`
/// (also `gitlab:`, `bitbucket:`); `None` for a plain name (`left-pad`, `serde@1`,
/// `@scope/pkg`, `requests>=2`) or a local path.
pub(crate) fn package_source(spec: &str) -> Option<String> {
    // A URL anywhere in the spec (`git+https://…`, `name @ https://…`, `name@https://…`):
    // from its scheme on, without a `git+` prefix.
    if let Some(at) = spec.find("://") {
        let start = spec[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '+'))
            .map_or(0, |i| i + 1);
        let url = &spec[start..];
        return Some(url.strip_prefix("git+").unwrap_or(url).to_string());
    }
    for (prefix, host) in [
        ("github:", "github.com"),
        ("gitlab:", "gitlab.com"),
        ("bitbucket:", "bitbucket.org"),
    ] {
        if let Some(rest) = spec.strip_prefix(prefix) {
            return Some(format!("https://{host}/{rest}"));
        }
    }
    // scp-like `git@host:user/repo(.git)`, with or without `git+`.
    let s = spec.strip_prefix("git+").unwrap_or(spec);
    if let Some((user_host, path)) = s.split_once(':')
        && let Some((user, host)) = user_host.split_once('@')
        && !user.is_empty()
        && host.contains('.')
    {
        return Some(format!("ssh://{user}@{host}/{path}"));
    }
    None
}

/// `npm install PKGS --registry URL`, `pip install -i URL PKGS`, `apt install PKGS`, ….
pub(super) fn install(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let base = c.basename();
    // `pacman -S`, `dpkg -i`, `rpm -U`: rows with an install operation need it.
    if p.row.switches.iter().any(|(_, s)| *s == Switch::Operation) && !p.has(Switch::Operation) {
        return;
    }
    if matches!(base, "pacman" | "yay" | "paru") {
        // `-Ss`, `-Si`, `-Sl`, `-Sc`, `-Sw` only look.
        let looks = c.args.iter().any(|f| {
            f.text.starts_with("-S") && f.text.chars().skip(2).any(|ch| "silcwgp".contains(ch))
        });
        if looks {
            return;
        }
    }
    let mut packages: Vec<Arg> = p
        .values_of(Role::Package)
        .chain(p.operands_of(Role::Package))
        .cloned()
        .collect();
    let source = p
        .values_of(Role::Source)
        .chain(p.operands_of(Role::Source))
        .next()
        .map(|a| a.text.clone());
    // `apt-key add KEYFILE`: the key file is what gets trusted.
    if base == "apt-key" {
        packages = p.operands_of(Role::Read).cloned().collect();
        for a in &packages {
            read(a, c, out);
        }
    }
    // A package named by where it comes from (`git+https://…`, a tarball URL,
    // `github:user/repo`) is its own source.
    let source = source.or_else(|| packages.iter().find_map(|a| package_source(&a.text)));
    let manager = if base == "uv" && p.sub.first().is_some_and(|s| s == "pip") {
        "uv pip".to_string()
    } else {
        base.to_string()
    };
    out.push(What::Install {
        manager,
        packages,
        source,
    });
}
