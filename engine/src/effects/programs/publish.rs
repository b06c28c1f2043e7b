//! Publishers: the commands that upload a package, a build or an image to a registry, where it
//! is out for anyone to fetch and cannot be taken back (npm(1) `npm publish`, cargo(1) `cargo
//! publish`, twine `twine upload`, `gem push`, `mvn deploy`, `docker push`, …). Each row names
//! the registry the program uploads to unless an option names another ([`Registry`]); a dry
//! run ([`Switch::DryRun`]) uploads nothing. Packing without uploading (`npm pack`, `cargo
//! package`, `poetry build`) has no row here.

use super::row::{Action, Program, ROW, Registry, Role, Switch};

/// `--dry-run`: shows what would be uploaded, uploads nothing.
const DRY_RUN: &[(&str, Switch)] = &[("--dry-run", Switch::DryRun)];

/// The Python upload tools' options that take a value the effect model ignores (twine(1)
/// `upload`, `uv publish`, `hatch publish`, `poetry publish`, `flit publish`): credentials,
/// certificates, comments, signing identities.
const PYTHON_UPLOAD_VALUED: &[&str] = &[
    "-u",
    "--username",
    "--user",
    "-p",
    "--password",
    "-t",
    "--token",
    "-a",
    "--auth",
    "-c",
    "--comment",
    "--config-file",
    "--pypirc",
    "--sign-with",
    "-i",
    "--identity",
    "--cert",
    "--ca-cert",
    "--client-cert",
    "--client-key",
    "--keyring-provider",
    "--trusted-publishing",
    "--check-url",
    "--dist-dir",
    "--format",
    "-o",
    "--option",
];

pub(super) static ROWS: &[Program] = &[
    // npm-publish(1), pnpm, yarn v1 `yarn publish`, yarn berry `yarn npm publish`, `bun
    // publish`: the package folder (or tarball) named, else the project's, to the npm
    // registry unless `--registry` names another.
    Program {
        names: &["npm", "pnpm", "yarn", "bun", "cnpm"],
        subs: &[&["publish"], &["npm", "publish"]],
        action: Action::Publish {
            registry: Registry::Host("registry.npmjs.org"),
            goals: &[],
            needs: &[],
        },
        valued: &[
            "--tag",
            "--access",
            "--otp",
            "-w",
            "--workspace",
            "--filter",
            "--new-version",
            "--publish-branch",
            "--provenance-file",
            "--report-summary",
            "--auth-type",
            "--cwd",
        ],
        options: &[("--registry", Role::Source)],
        switches: DRY_RUN,
        rest: Role::BodyFile,
        ..ROW
    },
    // `deno publish` (to JSR): the project.
    Program {
        names: &["deno"],
        subs: &[&["publish"]],
        action: Action::Publish {
            registry: Registry::Host("jsr.io"),
            goals: &[],
            needs: &[],
        },
        valued: &["--config", "-c", "--token"],
        switches: DRY_RUN,
        ..ROW
    },
    // cargo-publish(1): the crate of the working directory (or `--manifest-path`), to
    // crates.io unless `--index` (a URL) or `--registry` (a name from the configuration)
    // names another; `-n` is `--dry-run`.
    Program {
        names: &["cargo"],
        subs: &[&["publish"]],
        action: Action::Publish {
            registry: Registry::Host("crates.io"),
            goals: &[],
            needs: &[],
        },
        valued: &[
            "--manifest-path",
            "-p",
            "--package",
            "--token",
            "-F",
            "--features",
            "--target",
            "--target-dir",
            "-j",
            "--jobs",
            "-Z",
            "--config",
            "--exclude",
        ],
        options: &[("--index", Role::Source), ("--registry", Role::Source)],
        switches: &[("-n", Switch::DryRun), ("--dry-run", Switch::DryRun)],
        ..ROW
    },
    // twine `upload DIST…` (`-r NAME` a repository of `.pypirc`, `--repository-url URL`),
    // `uv publish [FILES]` (`--publish-url`, `--index NAME`), `hatch publish [ARTIFACTS]`
    // (`-r`/`--repo`), `poetry publish` (`-r NAME`), `flit publish` (`--repository NAME`):
    // the files named, else the project's distributions, to PyPI.
    Program {
        names: &["twine", "uv", "hatch", "poetry", "flit"],
        subs: &[&["upload"], &["publish"]],
        action: Action::Publish {
            registry: Registry::Host("upload.pypi.org"),
            goals: &[],
            needs: &[],
        },
        valued: PYTHON_UPLOAD_VALUED,
        options: &[
            ("-r", Role::Source),
            ("--repository", Role::Source),
            ("--repository-url", Role::Source),
            ("--repo", Role::Source),
            ("--publish-url", Role::Source),
            ("--index", Role::Source),
        ],
        switches: DRY_RUN,
        rest: Role::BodyFile,
        ..ROW
    },
    // `gem push GEM` (`--host URL`), to RubyGems.
    Program {
        names: &["gem"],
        subs: &[&["push"]],
        action: Action::Publish {
            registry: Registry::Host("rubygems.org"),
            goals: &[],
            needs: &[],
        },
        valued: &["-k", "--key", "--otp", "-p", "--http-proxy"],
        options: &[("--host", Role::Source)],
        rest: Role::BodyFile,
        ..ROW
    },
    // `dotnet nuget push PKG` and nuget.exe `nuget push PKG` (`-s`/`--source`), to nuget.org.
    Program {
        names: &["dotnet", "nuget"],
        subs: &[&["nuget", "push"], &["push"]],
        action: Action::Publish {
            registry: Registry::Host("www.nuget.org"),
            goals: &[],
            needs: &[],
        },
        valued: &[
            "-k",
            "--api-key",
            "-ApiKey",
            "-sk",
            "--symbol-api-key",
            "-ss",
            "--symbol-source",
            "-t",
            "--timeout",
            "-ConfigFile",
            "--configfile",
        ],
        options: &[
            ("-s", Role::Source),
            ("--source", Role::Source),
            ("-Source", Role::Source),
        ],
        rest: Role::BodyFile,
        ..ROW
    },
    // Maven's `deploy` phase (`mvn clean deploy`, `mvn deploy:deploy-file`): the build's
    // artifacts, to the repository of the project's `distributionManagement`.
    Program {
        names: &["mvn", "mvnw", "mvnd"],
        action: Action::Publish {
            registry: Registry::Build,
            goals: &["deploy", "deploy:deploy", "deploy:deploy-file"],
            needs: &[],
        },
        valued: &[
            "-f",
            "--file",
            "-s",
            "--settings",
            "-gs",
            "-P",
            "--activate-profiles",
            "-pl",
            "--projects",
            "-rf",
            "--resume-from",
            "-T",
            "--threads",
            "-t",
            "-l",
            "--log-file",
            "-b",
            "--builder",
        ],
        rest: Role::Ignore,
        ..ROW
    },
    // Gradle's publishing tasks (`gradle publish`, `./gradlew publishPlugins`,
    // `publishAllPublicationsToSonatypeRepository`): to the repositories the build script
    // names (`publishToMavenLocal` stays on this machine).
    Program {
        names: &["gradle", "gradlew"],
        action: Action::Publish {
            registry: Registry::Build,
            goals: &["publish", "publishPlugins", "publish*Repository"],
            needs: &[],
        },
        valued: &[
            "-p",
            "--project-dir",
            "-b",
            "--build-file",
            "-c",
            "--settings-file",
            "-x",
            "--exclude-task",
            "-g",
            "--gradle-user-home",
            "--init-script",
            "-I",
        ],
        switches: &[("-m", Switch::DryRun), ("--dry-run", Switch::DryRun)],
        rest: Role::Ignore,
        ..ROW
    },
    // gh-repo-create(1) `gh repo create [NAME] --public --source DIR --push`: the folder's
    // repository, its whole history, pushed to a new public repository on GitHub. Without
    // `--public` (`--private`, `--internal`) or without `--push` nothing is published here (a
    // later `git push` is judged as a push).
    Program {
        names: &["gh"],
        subs: &[&["repo", "create"], &["repo", "new"]],
        action: Action::Publish {
            registry: Registry::Host("github.com"),
            goals: &[],
            needs: &[Switch::Public, Switch::Push],
        },
        valued: &[
            "-r",
            "--remote",
            "-d",
            "--description",
            "-h",
            "--homepage",
            "-t",
            "--team",
            "-p",
            "--template",
            "-g",
            "--gitignore",
            "-l",
            "--license",
        ],
        options: &[("-s", Role::BodyFile), ("--source", Role::BodyFile)],
        switches: &[("--public", Switch::Public), ("--push", Switch::Push)],
        rest: Role::Ignore,
        ..ROW
    },
    // docker-push(1), `docker image push`, podman and nerdctl: the image, to the registry its
    // reference names (Docker Hub without one).
    Program {
        names: &["docker", "podman", "nerdctl"],
        subs: &[&["push"], &["image", "push"]],
        action: Action::Publish {
            registry: Registry::Image,
            goals: &[],
            needs: &[],
        },
        valued: &[
            "--platform",
            "--creds",
            "--authfile",
            "--digestfile",
            "--format",
            "-f",
        ],
        rest: Role::Ignore,
        ..ROW
    },
];
