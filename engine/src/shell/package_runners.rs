//! Package runners: `npx`, `bunx`, `pnpm dlx`, `npm exec`, `uvx`, `uv tool run`, `pipx run`
//! fetch a package and run its command with the arguments that follow.
//!
//! In: the words a runner's [`Wrapper`](super::wrappers::Wrapper) row leaves as its command
//! (`rimraf@5 dist`, `@scope/cli@latest build`, `ruff==0.6.0 check .`). Out: the same words with
//! the package spec replaced by the command it installs, by npm's and pip's conventions: the
//! package name without its scope, version or extras (`rimraf dist`, `cli build`, `ruff check
//! .`), so the command is judged as what it runs. A spec that is a URL, a path or a git
//! source keeps its text (its command cannot be named).

use super::Arg;

/// The options of `npx`-style runners that take a value (npm's documentation of `npx` and
/// `npm exec`, bun's `bunx`).
pub(super) const NPX_VALUED: &[&str] = &[
    "-p",
    "--package",
    "-c",
    "--call",
    "--node-options",
    "--cache",
    "--userconfig",
    "--registry",
    "-w",
    "--workspace",
];

/// The options of `uvx`, `uv run`, `uv tool run` and `pipx run` that take a value.
pub(super) const UVX_VALUED: &[&str] = &[
    "--from",
    "--with",
    "--with-requirements",
    "--python",
    "-p",
    "--index",
    "--index-url",
    "-i",
    "--extra-index-url",
    "--spec",
    "--pip-args",
    "--project",
    "--directory",
    "--package",
    "--group",
    "--extra",
    "--env-file",
];

/// The command a runner runs for its words `cmd`: the first word, a package spec, becomes
/// its command name ([`bin_name`]).
///
/// ```text
/// ["rimraf@5", "~"]            → ["rimraf", "~"]
/// ["@biomejs/biome", "check"]  → ["biome", "check"]
/// ["httpie[socks]==3.2", "…"]  → ["httpie", "…"]
/// ```
pub(super) fn package_command(cmd: &[Arg]) -> Vec<Arg> {
    let mut out = cmd.to_vec();
    if let Some(first) = out.first_mut()
        && !first.dynamic
    {
        first.text = bin_name(&first.text).to_string();
    }
    out
}

/// The command name of a package spec: `name@version` → `name`, `@scope/name@tag` → `name`,
/// `name==1.0` / `name>=1` / `name[extra]` → `name`; a URL, path or git spec unchanged.
fn bin_name(spec: &str) -> &str {
    if spec.contains("://") || spec.starts_with(['.', '/', '~']) || spec.contains(':') {
        return spec;
    }
    let unscoped = match spec.strip_prefix('@') {
        Some(scoped) => match scoped.split_once('/') {
            Some((_, name)) => name,
            None => return spec,
        },
        None => spec,
    };
    let end = unscoped
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(unscoped.len());
    match &unscoped[..end] {
        "" => spec,
        name => name,
    }
}

#[cfg(test)]
mod tests {
    use super::bin_name;

    #[test]
    fn a_package_spec_names_its_command() {
        for (spec, name) in [
            ("rimraf", "rimraf"),
            ("rimraf@5", "rimraf"),
            ("rimraf@latest", "rimraf"),
            ("@biomejs/biome", "biome"),
            ("@scope/cli@1.2.3", "cli"),
            ("http-server@14.1.1", "http-server"),
            ("ruff==0.6.0", "ruff"),
            ("httpie[socks]>=3", "httpie"),
            ("black~=24.1", "black"),
            ("create-react-app", "create-react-app"),
            ("./tools/gen.js", "./tools/gen.js"),
            ("https://example.com/pkg.tgz", "https://example.com/pkg.tgz"),
            ("github:user/repo", "github:user/repo"),
            ("git+https://github.com/u/r", "git+https://github.com/u/r"),
            ("@", "@"),
        ] {
            assert_eq!(bin_name(spec), name, "{spec}");
        }
    }
}
