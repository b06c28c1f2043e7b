//! Installs: language and system package managers; the manager is the program's name,
//! its registry or index a source.

use super::row::{Action, Program, ROW, Role, Switch};

/// `pip install`'s options.
const PIP_OPTIONS: &[(&str, Role)] = &[
    ("-i", Role::Source),
    ("--index-url", Role::Source),
    ("--extra-index-url", Role::Source),
    ("-f", Role::Source),
    ("--find-links", Role::Source),
    ("-r", Role::Read),
    ("--requirement", Role::Read),
    ("-c", Role::Read),
    ("--constraint", Role::Read),
    ("-e", Role::Package),
    ("--editable", Role::Package),
    ("-t", Role::Write),
    ("--target", Role::Write),
];

/// `pip install`'s options that take a value the effect model ignores.
const PIP_VALUED: &[&str] = &[
    "--trusted-host",
    "--python-version",
    "--platform",
    "--prefix",
    "--root",
    "--src",
    "--upgrade-strategy",
    "--progress-bar",
    "--timeout",
    "--proxy",
    "--retries",
    "--cache-dir",
    "--python",
    "-p",
    "--only-binary",
    "--no-binary",
    "--config-settings",
    "-C",
];

/// The node package managers' install options.
const NODE_INSTALL_OPTIONS: &[(&str, Role)] = &[
    ("--registry", Role::Source),
    ("--prefix", Role::Write),
    ("--script-shell", Role::Shell),
];

/// The packages rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // Installs.
    Program {
        names: &["npm", "pnpm", "yarn", "bun", "cnpm"],
        subs: &[
            &["install"],
            &["i"],
            &["add"],
            &["ci"],
            &["isntall"],
            &["global", "add"],
        ],
        global: &["--prefix", "-C", "--cwd", "--dir"],
        action: Action::Install,
        valued: &[
            "--tag",
            "--omit",
            "--include",
            "--workspace",
            "-w",
            "--filter",
            "--network-timeout",
        ],
        options: NODE_INSTALL_OPTIONS,
        rest: Role::Package,
        ..ROW
    },
    Program {
        // npm-run(1) and the scripts it runs by name: `--script-shell SHELL` is the program
        // that runs them (npm-config(7) `script-shell`).
        names: &["npm", "pnpm"],
        subs: &[
            &["run"],
            &["run-script"],
            &["test"],
            &["start"],
            &["stop"],
            &["restart"],
            &["rebuild"],
        ],
        options: &[("--script-shell", Role::Shell)],
        ..ROW
    },
    Program {
        // `npx pkg`, `pnpm dlx pkg`, `uvx pkg`, `pipx run pkg`: fetch a package and run it.
        names: &["npx", "bunx", "pnpx"],
        valued: &[
            "--node-options",
            "--cache",
            "--userconfig",
            "-w",
            "--workspace",
        ],
        ..FETCH_AND_RUN
    },
    Program {
        // `npm exec` fetches a package that is not installed (as `npx` does); `pnpm exec` and
        // `yarn exec` only run what the project has installed (a wrapper: `shell/wrappers.rs`),
        // and `pnpm dlx`, `yarn dlx`, `bun x` fetch.
        names: &["npm"],
        subs: &[&["exec"], &["x"]],
        ..FETCH_AND_RUN
    },
    Program {
        names: &["pnpm", "yarn", "bun"],
        subs: &[&["dlx"], &["x"]],
        ..FETCH_AND_RUN
    },
    Program {
        names: &["uvx", "pipx", "uv"],
        subs: &[&["run"], &["tool", "run"]],
        valued: &["--python", "-p", "--spec"],
        ..UV_RUN
    },
    Program {
        names: &["uvx"],
        valued: &["--python", "-p"],
        ..UV_RUN
    },
    Program {
        names: &[
            "pip", "pip3", "pip2", "pipx", "uv", "poetry", "pdm", "pipenv", "conda", "mamba",
        ],
        subs: &[
            &["install"],
            &["pip", "install"],
            &["add"],
            &["tool", "install"],
            &["inject"],
        ],
        global: &["--python", "-p", "--directory", "-n", "--name", "--prefix"],
        action: Action::Install,
        valued: PIP_VALUED,
        options: PIP_OPTIONS,
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["cargo"],
        subs: &[&["install"], &["add"], &["binstall"]],
        action: Action::Install,
        valued: &[
            "--version",
            "--vers",
            "--bin",
            "--features",
            "-F",
            "--target",
            "--root",
            "--branch",
            "--tag",
            "--rev",
            "-j",
            "--jobs",
            "--profile",
            "--rename",
            "--package",
            "-p",
        ],
        options: &[
            ("--git", Role::Source),
            ("--index", Role::Source),
            ("--registry", Role::Source),
            ("--path", Role::Package),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["gem"],
        subs: &[&["install"], &["i"]],
        action: Action::Install,
        valued: &[
            "-v",
            "--version",
            "-i",
            "--install-dir",
            "-n",
            "--bindir",
            "--platform",
        ],
        options: &[
            ("-s", Role::Source),
            ("--source", Role::Source),
            ("--clear-sources", Role::Ignore),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["go"],
        subs: &[&["install"], &["get"]],
        action: Action::Install,
        valued: &[
            "-tags", "-ldflags", "-gcflags", "-o", "-mod", "-modfile", "-p",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["brew"],
        subs: &[&["install"], &["reinstall"], &["upgrade"], &["tap"]],
        action: Action::Install,
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &[
            "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap",
            "flatpak", "port", "nix-env", "choco", "winget", "scoop",
        ],
        subs: &[
            &["install"],
            &["add"],
            &["reinstall"],
            &["localinstall"],
            &["in"],
        ],
        global: &[
            "-o",
            "-c",
            "-t",
            "--target-release",
            "--repo",
            "--setopt",
            "-X",
            "--repository",
        ],
        action: Action::Install,
        valued: &[
            "-o",
            "-t",
            "--target-release",
            "--setopt",
            "--releasever",
            "--installroot",
        ],
        options: &[
            ("--repofrompath", Role::Source),
            ("--enablerepo", Role::Source),
            ("-X", Role::Source),
            ("--repository", Role::Source),
            ("--from-repo", Role::Source),
            ("--source", Role::Source),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["pacman", "yay", "paru"],
        action: Action::Install,
        switches: &[
            ("-S", Switch::Operation),
            ("-U", Switch::Operation),
            ("--sync", Switch::Operation),
            ("--upgrade", Switch::Operation),
        ],
        valued: &[
            "--root",
            "-r",
            "--dbpath",
            "-b",
            "--cachedir",
            "--config",
            "--arch",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `dpkg -i x.deb`, `rpm -ivh x.rpm`: only the install operation installs.
        names: &["dpkg", "rpm", "installer", "pkg"],
        action: Action::Install,
        switches: &[
            ("-i", Switch::Operation),
            ("-U", Switch::Operation),
            ("--install", Switch::Operation),
            ("--upgrade", Switch::Operation),
        ],
        valued: &[
            "--root",
            "--admindir",
            "--instdir",
            "--dbpath",
            "-target",
            "-pkg",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `apt-key add KEYFILE` trusts a signing key.
        names: &["apt-key"],
        subs: &[&["add"]],
        action: Action::Install,
        valued: &["--keyring"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["add-apt-repository", "apt-add-repository"],
        action: Action::Install,
        valued: &["-k", "--keyserver", "-c", "--component", "--pocket"],
        rest: Role::Source,
        ..ROW
    },
];

/// What `npx`-style runners share (`npx pkg`, `npm exec`, `pnpm dlx`): a package is fetched
/// (`-p`, `--package` or the first operand) and run, or a command line run with it (`-c`).
const FETCH_AND_RUN: Program = Program {
    options: &[
        ("-p", Role::Package),
        ("--package", Role::Package),
        ("-c", Role::Shell),
        ("--call", Role::Shell),
        ("--registry", Role::Source),
    ],
    action: Action::Install,
    lead: &[Role::Package],
    lead_options: &["-p", "--package", "-c", "--call"],
    ..ROW
};

/// What `uvx` and `uv tool run` / `pipx run` share: the package (`--from` or the first
/// operand) is fetched from the index and run.
const UV_RUN: Program = Program {
    options: &[
        ("--from", Role::Package),
        ("--with", Role::Package),
        ("--index-url", Role::Source),
        ("-i", Role::Source),
        ("--index", Role::Source),
    ],
    action: Action::Install,
    lead: &[Role::Package],
    lead_options: &["--from"],
    ..ROW
};
