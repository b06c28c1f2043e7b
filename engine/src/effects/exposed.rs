//! The environment a command exposes through a program that is not the shell's own: a
//! container's environment printed by its engine (`docker inspect --format
//! '{{.Config.Env}}' api`, `kubectl set env deploy/api --list`), and a secret-named variable
//! stored into git's configuration (`git config --global http.extraheader "AUTHORIZATION:
//! bearer $GH_TOKEN"`), where it persists and git sends it with every request.
//!
//! In: the call's effects (its commands). Out: reads of the environment
//! ([`ENVIRON`]) on the command's route, marked as the shell lens marks the same act:
//! `via "the whole environment printed"` (as `env`: `env-dump-needs-approval`) or `via "a
//! secret variable written into a file ($NAME)"` (as `echo $TOKEN >> x`:
//! `secret-copied-into-file-needs-approval`). A template that prints other fields
//! (`{{.State.Status}}`), `docker inspect` without one, and a configuration value that
//! expands no secret-named variable (`git config user.email "$EMAIL"`) expose nothing.

use super::copies::{ENVIRON, SECRET_WRITTEN};
use super::inline::ENVIRONMENT_PRINTED;
use super::model::{Effects, PathRef, What};
use super::programs::infra::option_values;
use crate::shell::SimpleCommand;
use crate::shell::operands::positionals;

/// Container engines whose `inspect` prints a container's configuration.
const ENGINES: &[&str] = &["docker", "podman", "nerdctl"];

/// Whether a Go template given to `inspect --format` prints the environment: it names
/// `.Config.Env`, or prints the whole configuration or object (`{{json .Config}}`, `{{.}}`,
/// `{{json .}}`), or is `json` (the whole object, docker 23 and later).
fn template_prints_environment(format: &str) -> bool {
    let squashed: String = format.chars().filter(|ch| !ch.is_whitespace()).collect();
    squashed.contains(".Config.Env")
        || squashed == "json"
        || [".Config}}", "{{.}}", "{{json.}}"]
            .iter()
            .any(|t| squashed.contains(t))
}

/// Whether `c` prints the environment of a container or a workload: `docker|podman|nerdctl
/// [container] inspect` with a template that prints it, `kubectl|oc set env … --list`.
pub(crate) fn prints_container_environment(c: &SimpleCommand) -> bool {
    if c.dynamic_program {
        return false;
    }
    let base = c.basename();
    let pos: Vec<&str> = positionals(c).iter().map(|a| a.text.as_str()).collect();
    if ENGINES.contains(&base) {
        let inspect = matches!(
            pos.as_slice(),
            ["inspect", ..] | ["container", "inspect", ..]
        );
        return inspect
            && ["--format", "-f"]
                .iter()
                .flat_map(|o| option_values(c, o))
                .any(template_prints_environment);
    }
    matches!(base, "kubectl" | "oc")
        && matches!(pos.as_slice(), ["set", "env", ..])
        && c.args
            .iter()
            .any(|a| a.text == "--list" || a.text == "--list=true")
}

/// The secret-named variables `c` stores into git's configuration: those the key or the value
/// of `git config KEY VALUE` expands (`url."https://$GH_TOKEN@github.com/".insteadOf`).
fn secrets_configured(c: &SimpleCommand) -> Vec<String> {
    let Some((key, value)) = super::shell::config_set(c) else {
        return Vec::new();
    };
    [key, value]
        .iter()
        .filter(|a| a.dynamic)
        .flat_map(|a| super::shell::variables(&a.text))
        .filter(|v| crate::audit::secret_variable(v))
        .collect()
}

/// Add the reads of the environment the call's commands expose through other programs.
pub(crate) fn environment_exposed(fx: &mut Effects) {
    let mut found = Vec::new();
    for e in &fx.list {
        let What::Run(c) = &e.what else {
            continue;
        };
        if prints_container_environment(c) {
            let mut route = e.route.clone();
            route.via.push(ENVIRONMENT_PRINTED.to_string());
            found.push((What::Read(PathRef::new(ENVIRON, None)), route));
        }
        let vars = secrets_configured(c);
        if !vars.is_empty() {
            let mut route = e.route.clone();
            route
                .via
                .push(format!("{SECRET_WRITTEN} (${})", vars.join(", $")));
            found.push((What::Read(PathRef::new(ENVIRON, None)), route));
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}

#[cfg(test)]
mod tests {
    use super::{prints_container_environment, secrets_configured};
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    fn first(line: &str) -> crate::shell::SimpleCommand {
        let a = BrushAnalyzer.analyze(line, None);
        a.commands.first().cloned().expect("a command")
    }

    #[test]
    fn container_environments_printed_by_their_engine() {
        // docker-inspect(1): `--format` takes a Go template; `.Config.Env` is the list of
        // `NAME=value`; kubectl-set-env(1): `--list` prints the variables.
        for line in [
            "docker inspect --format '{{.Config.Env}}' api",
            "docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' api",
            "docker container inspect api --format='{{json .Config}}'",
            "podman inspect api -f '{{json .}}'",
            "docker inspect --format json api",
            "nerdctl inspect -f '{{ .Config.Env }}' web",
            "kubectl set env deploy/api --list",
            "oc set env dc/api --list",
        ] {
            assert!(prints_container_environment(&first(line)), "{line}");
        }
        for line in [
            "docker inspect api --format '{{.State.Status}}'",
            "docker inspect -f '{{.NetworkSettings.IPAddress}}' api",
            "docker inspect api",
            "docker exec api ls /app",
            "kubectl set env deploy/api LOG_LEVEL=debug",
            "kubectl get pods",
        ] {
            assert!(!prints_container_environment(&first(line)), "{line}");
        }
    }

    #[test]
    fn secret_variables_stored_into_git_configuration() {
        // git-config(1): `git config [--global] KEY VALUE` and `git config set KEY VALUE`
        // store VALUE; `--get`, `get`, `--unset` do not.
        for (line, want) in [
            (
                "git config --global http.extraheader \"AUTHORIZATION: bearer $GH_TOKEN\"",
                vec!["GH_TOKEN"],
            ),
            (
                "git -C repo config set http.https://github.com/.extraHeader \"Authorization: Basic ${GIT_AUTH}\"",
                vec!["GIT_AUTH"],
            ),
            (
                "git config remote.origin.url https://x:$GITHUB_TOKEN@github.com/o/r",
                vec!["GITHUB_TOKEN"],
            ),
            (
                "git config --global url.\"https://$GH_TOKEN@github.com/\".insteadOf https://github.com/",
                vec!["GH_TOKEN"],
            ),
        ] {
            assert_eq!(secrets_configured(&first(line)), want, "{line}");
        }
        for line in [
            "git config --global user.email x@y.z",
            "git config user.name \"$USER_NAME\"",
            "git config --get-all http.https://github.com/.extraheader",
            "git config --global http.extraheader 'AUTHORIZATION: bearer $GH_TOKEN'",
            "git commit -m \"$GH_TOKEN\"",
        ] {
            assert!(secrets_configured(&first(line)).is_empty(), "{line}");
        }
    }
}
