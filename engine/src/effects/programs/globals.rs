//! Command-line programs with subcommands and the global options that take a separate value
//! (`kubectl --context prod delete ns x`, `git -C dir push`, `helm -n prod uninstall web`):
//! that value is not the subcommand.
//!
//! In: a program's base name. Out: its [`Globals`] row: which options take the next word,
//! and whether they may stand anywhere on the line (CLIs built on cobra, click or argparse
//! subparsers take their global flags after the subcommand too) or only before the
//! subcommand (`git -c` after the subcommand is the subcommand's own option). Options written
//! `--name=value` or `-chdir=DIR` are one word and need no row. `cargo +nightly build` puts a
//! toolchain word before the subcommand ([`Globals::toolchain`]).

/// One CLI's global options that take a separate value.
#[derive(Debug)]
pub(crate) struct Globals {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// Its global options that take the next word as their value.
    pub(crate) valued: &'static [&'static str],
    /// They may stand anywhere on the line, also after the subcommand.
    pub(crate) anywhere: bool,
    /// A `+word` before the subcommand picks a toolchain (`cargo +nightly build`).
    pub(crate) toolchain: bool,
}

/// `git`'s options before the subcommand that take a value (`git --exec-path[=DIR]` takes
/// its value only after `=`).
pub(crate) const GIT: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--list-cmds",
];

/// `kubectl`'s (and `oc`'s) global flags that take a value (`kubectl options`).
pub(crate) const KUBECTL: &[&str] = &[
    "-n",
    "--namespace",
    "--context",
    "--cluster",
    "--user",
    "--kubeconfig",
    "-s",
    "--server",
    "--as",
    "--as-group",
    "--as-uid",
    "--token",
    "--username",
    "--password",
    "--certificate-authority",
    "--client-certificate",
    "--client-key",
    "--cache-dir",
    "--request-timeout",
    "--tls-server-name",
    "--profile",
    "--profile-output",
    "-v",
    "--v",
    "--vmodule",
    "--log-file",
    "--log-dir",
];

/// `helm`'s global flags that take a value (`helm --help`).
pub(crate) const HELM: &[&str] = &[
    "-n",
    "--namespace",
    "--kube-context",
    "--kubeconfig",
    "--kube-apiserver",
    "--kube-as-user",
    "--kube-as-group",
    "--kube-ca-file",
    "--kube-token",
    "--kube-tls-server-name",
    "--registry-config",
    "--repository-cache",
    "--repository-config",
    "--burst-limit",
    "--qps",
];

/// `docker`'s (and `podman`'s, `nerdctl`'s) options before the subcommand that take a value.
pub(crate) const DOCKER: &[&str] = &[
    "-H",
    "--host",
    "-c",
    "--context",
    "--config",
    "-l",
    "--log-level",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    "--connection",
    "--url",
    "--identity",
    "--root",
    "--runroot",
    "--storage-driver",
    "--cgroup-manager",
    "--namespace",
    "-n",
    "--address",
    "-a",
];

/// The AWS CLI's global options that take a value (`aws help`, "Global Options").
pub(crate) const AWS: &[&str] = &[
    "--profile",
    "--region",
    "--endpoint-url",
    "--output",
    "--query",
    "--color",
    "--ca-bundle",
    "--cli-read-timeout",
    "--cli-connect-timeout",
    "--cli-binary-format",
    "--cli-input-json",
    "--cli-input-yaml",
];

/// `gcloud`'s (and `gsutil`'s) global flags that take a value (`gcloud topic flags`).
pub(crate) const GCLOUD: &[&str] = &[
    "--project",
    "--account",
    "--configuration",
    "--billing-project",
    "--impersonate-service-account",
    "--verbosity",
    "--format",
    "--flatten",
    "--flags-file",
    "--access-token-file",
    "--trace-token",
];

/// `gsutil`'s top-level options that take a value (`gsutil -o Section:k=v`, `-h Header:v`).
pub(crate) const GSUTIL: &[&str] = &["-o", "-h", "-u"];

/// The Azure CLI's global arguments that take a value (`az --help`).
pub(crate) const AZ: &[&str] = &["--subscription", "-o", "--output", "--query"];

/// `npm`'s configuration options that take a value and often come before the subcommand
/// (`npm --prefix api exec …`, `npm -w api run build`).
pub(crate) const NPM: &[&str] = &[
    "--prefix",
    "--registry",
    "--cache",
    "--userconfig",
    "--globalconfig",
    "-w",
    "--workspace",
    "--loglevel",
];

/// `pnpm`'s options before the command that take a value (`pnpm -C api …`, `pnpm --filter
/// api …`). Its `-w` is `--workspace-root` and takes none (`pnpm -w prisma db push`).
pub(crate) const PNPM: &[&str] = &[
    "-C",
    "--dir",
    "-F",
    "--filter",
    "--filter-prod",
    "--workspace-concurrency",
    "--reporter",
    "--loglevel",
    "--registry",
];

/// `yarn`'s (and `bun`'s) options before the command that take a value (`yarn --cwd api …`,
/// `bun --filter api …`).
pub(crate) const YARN: &[&str] = &["--cwd", "--filter", "--registry", "--cache-folder"];

/// `cargo`'s options before the subcommand that take a value (`cargo --help`).
pub(crate) const CARGO: &[&str] = &["-C", "--config", "-Z", "--color"];

/// `pulumi`'s global flags that take a value.
pub(crate) const PULUMI: &[&str] = &["-C", "--cwd", "-s", "--stack", "--color", "-v", "--verbose"];

/// DigitalOcean's `doctl` global flags that take a value.
pub(crate) const DOCTL: &[&str] = &[
    "-t",
    "--access-token",
    "--context",
    "-c",
    "--config",
    "-o",
    "--output",
    "-u",
    "--api-url",
];

/// Fly.io's `flyctl` global flags that take a value.
pub(crate) const FLYCTL: &[&str] = &["-t", "--access-token", "-a", "--app", "-c", "--config"];

/// `mysqladmin`'s connection options that take a value (`mysqladmin -u root drop app`).
pub(crate) const MYSQLADMIN: &[&str] = &[
    "-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket",
];

/// `s5cmd`'s global options that take a value (`s5cmd --endpoint-url URL rm …`).
pub(crate) const S5CMD: &[&str] = &[
    "--endpoint-url",
    "--profile",
    "--credentials-file",
    "--numworkers",
    "--retry-count",
    "-r",
    "--log",
    "--request-payer",
];

/// `nomad`'s API options, taken by every subcommand (`nomad job stop -address URL …`).
const NOMAD: &[&str] = &[
    "-address",
    "-region",
    "-namespace",
    "-token",
    "-ca-cert",
    "-ca-path",
    "-client-cert",
    "-client-key",
    "-tls-server-name",
];

/// `knex`'s options that take a value (`knex --knexfile k.js --env production …`).
const KNEX: &[&str] = &[
    "--knexfile",
    "--env",
    "--cwd",
    "--client",
    "--connection",
    "--migrations-directory",
    "--migrations-table-name",
    "--specific",
];

/// `alembic`'s options before the command that take a value (`alembic -c alembic.ini …`).
const ALEMBIC: &[&str] = &["-c", "--config", "-n", "--name", "-x"];

/// `goose`'s options before the command that take a value (`goose -dir db/migrations
/// reset`); Go's flag reader stops at the first operand.
const GOOSE: &[&str] = &[
    "-dir",
    "--dir",
    "-table",
    "--table",
    "-env",
    "--env",
    "-certfile",
    "-ssl-cert",
    "-ssl-key",
    "-timeout",
];

/// Every CLI with global options, by name.
pub(crate) static GLOBALS: &[Globals] = &[
    Globals {
        names: &["git"],
        valued: GIT,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["kubectl", "oc", "kubecolor"],
        valued: KUBECTL,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["helm"],
        valued: HELM,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["docker", "podman", "nerdctl"],
        valued: DOCKER,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["aws"],
        valued: AWS,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["gcloud"],
        valued: GCLOUD,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["gsutil"],
        valued: GSUTIL,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["az"],
        valued: AZ,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["npm"],
        valued: NPM,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["pnpm"],
        valued: PNPM,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["yarn", "bun"],
        valued: YARN,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["cargo"],
        valued: CARGO,
        anywhere: false,
        toolchain: true,
    },
    Globals {
        names: &["pulumi"],
        valued: PULUMI,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["doctl"],
        valued: DOCTL,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["mysqladmin"],
        valued: MYSQLADMIN,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["flyctl", "fly"],
        valued: FLYCTL,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["s5cmd"],
        valued: S5CMD,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["nomad"],
        valued: NOMAD,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["knex"],
        valued: KNEX,
        anywhere: true,
        toolchain: false,
    },
    Globals {
        names: &["goose"],
        valued: GOOSE,
        anywhere: false,
        toolchain: false,
    },
    Globals {
        names: &["alembic"],
        valued: ALEMBIC,
        anywhere: false,
        toolchain: false,
    },
];

/// The global options of the CLI called `base`, if the table knows it.
pub(crate) fn of(base: &str) -> Option<&'static Globals> {
    GLOBALS.iter().find(|g| g.names.contains(&base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cli_is_listed_once() {
        let mut seen = std::collections::HashSet::new();
        for g in GLOBALS {
            for n in g.names {
                assert!(seen.insert(*n), "{n} listed twice");
            }
            assert!(
                g.valued
                    .iter()
                    .all(|o| o.starts_with('-') && !o.contains('='))
            );
        }
        assert!(of("kubectl").is_some_and(|g| g.valued.contains(&"--context")));
        assert!(of("rm").is_none());
    }
}
