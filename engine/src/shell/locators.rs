//! Locator substitutions: `$(…)` whose output is a path of a known kind (`$(command -v
//! codex)` is a program on `PATH`, `$(go env GOPATH)` the Go workspace, `$(mktemp -d)` a
//! scratch folder, `$(git rev-parse --show-toplevel)` the project).
//!
//! In: the words of a command substitution. Out: a path standing for what it prints — not
//! its value on this machine, but one of the same kind, so that path tests judge
//! `strings $(command -v codex)` as a read of a program file (not a secret) and `rm -rf
//! $(go env GOPATH)` as a delete outside the project. The analyser keeps such a substitution
//! written out (`$(command -v codex)`, still only known at run time) so path tests can find it
//! ([`representative`]).

/// What `$(git rev-parse --show-toplevel)` stands for: the project folder, filled in by the
/// path test that knows it.
pub(crate) const PROJECT: &str = "\u{0}project";

/// The path a locator command prints, by kind (`None`: not a locator).
pub(crate) fn locator_path(words: &[&str]) -> Option<String> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && !n.starts_with('-')
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
    };
    Some(match words {
        ["command", "-v" | "-V", n] | ["which", n] | ["type", "-P" | "-p", n] if name_ok(n) => {
            format!("/usr/bin/{n}")
        }
        ["go", "env", "GOPATH"] => "~/go".into(),
        ["go", "env", "GOROOT"] => "/usr/local/go".into(),
        ["go", "env", "GOMODCACHE"] => "~/go/pkg/mod".into(),
        ["go", "env", "GOCACHE"] => "~/.cache/go-build".into(),
        ["go", "env", "GOBIN"] => "~/go/bin".into(),
        ["npm", "root", "-g"] | ["npm", "root", "--global"] => "/usr/local/lib/node_modules".into(),
        ["npm", "prefix", "-g"] | ["npm", "prefix", "--global"] => "/usr/local".into(),
        ["npm", "bin"] | ["yarn", "bin"] | ["pnpm", "bin"] => "node_modules/.bin".into(),
        ["npm", "root"] | ["pnpm", "root"] => "node_modules".into(),
        ["brew", "--prefix"] => "/opt/homebrew".into(),
        ["brew", "--prefix", n] if name_ok(n) => format!("/opt/homebrew/opt/{n}"),
        ["brew", "--cellar"] => "/opt/homebrew/Cellar".into(),
        ["rustc", "--print", "sysroot"] => "~/.rustup/toolchains/stable".into(),
        ["mktemp"] | ["mktemp", "-d"] | ["mktemp", "-t", _] | ["mktemp", "-d", "-t", _] => {
            "/tmp/tmp.XXXXXXXXXX".into()
        }
        ["git", "rev-parse", "--show-toplevel"] => PROJECT.into(),
        _ => return None,
    })
}

/// `text` with every locator substitution written out (`$(command -v codex)`) replaced by the
/// path it stands for, `project` for the project folder; `None` when it has another part
/// only known at run time (or no locator at all).
pub(crate) fn representative(text: &str, project: Option<&str>) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut found = false;
    while let Some(at) = rest.find("$(") {
        out.push_str(rest.get(..at)?);
        let after = rest.get(at + 2..)?;
        let end = after.find(')')?;
        let words: Vec<&str> = after.get(..end)?.split_whitespace().collect();
        let path = locator_path(&words)?;
        if path == PROJECT {
            out.push_str(project?);
        } else {
            out.push_str(&path);
        }
        found = true;
        rest = after.get(end + 1..)?;
    }
    out.push_str(rest);
    (found && !out.contains(['$', '`', '…'])).then_some(out)
}
