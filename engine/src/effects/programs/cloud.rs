//! Object-store copies (`s3://…` / `gs://…` operands are remote) and containers, whose
//! bind mounts expose host paths and whose flags grant privileges.

use super::globals::{AWS, DOCKER, GCLOUD, GSUTIL, KUBECTL, S5CMD};
use super::row::{Action, Program, ROW, Role, Switch};

/// The options `gsutil` and `gcloud` take before `cp` / `storage cp` (one row serves both).
const GSUTIL_AND_GCLOUD: &[&str] = &{
    let mut all = [""; GSUTIL.len() + GCLOUD.len()];
    let mut i = 0;
    while i < GSUTIL.len() {
        all[i] = GSUTIL[i];
        i += 1;
    }
    while i < all.len() {
        all[i] = GCLOUD[i - GSUTIL.len()];
        i += 1;
    }
    all
};

/// The cloud rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // Object-store copies: `s3://…` / `gs://…` operands are remote.
    Program {
        names: &["aws"],
        subs: &[&["s3", "cp"], &["s3", "sync"], &["s3", "mv"]],
        global: AWS,
        action: Action::Copy { moves: false },
        valued: &[
            "--profile",
            "--region",
            "--endpoint-url",
            "--exclude",
            "--include",
            "--acl",
            "--storage-class",
            "--sse",
            "--content-type",
            "--expires",
            "--cache-control",
        ],
        switches: &[("--delete", Switch::Delete)],
        ..ROW
    },
    // `s5cmd cp ./site s3://b/`, `s5cmd sync ~/.ssh s3://b/keys/`, `s5cmd mv`: the same
    // copies as `aws s3 cp` (s5cmd's global options first, `--endpoint-url` among them).
    Program {
        names: &["s5cmd"],
        subs: &[&["cp"], &["sync"], &["mv"]],
        global: S5CMD,
        action: Action::Copy { moves: false },
        valued: &[
            "--storage-class",
            "--concurrency",
            "-c",
            "--part-size",
            "-p",
            "--exclude",
            "--include",
            "--content-type",
            "--content-encoding",
            "--content-disposition",
            "--cache-control",
            "--expires",
            "--sse",
            "--sse-kms-key-id",
            "--acl",
            "--metadata",
            "--metadata-directive",
            "--source-region",
            "--destination-region",
            "--version-id",
        ],
        switches: &[("--delete", Switch::Delete)],
        ..ROW
    },
    Program {
        names: &["gsutil", "gcloud"],
        subs: &[
            &["cp"],
            &["rsync"],
            &["mv"],
            &["storage", "cp"],
            &["storage", "rsync"],
            &["storage", "mv"],
        ],
        global: GSUTIL_AND_GCLOUD,
        action: Action::Copy { moves: false },
        valued: &["-x", "-z", "-j", "-a", "--project"],
        switches: &[
            ("-d", Switch::Delete),
            ("--delete-unmatched-destination-objects", Switch::Delete),
        ],
        ..ROW
    },
    // `vercel env pull [FILE]`: a deployment's environment variables written into FILE (the
    // CLI's default, `.env.local`, when none is named).
    Program {
        names: &["vercel"],
        subs: &[&["env", "pull"]],
        valued: &[
            "--environment",
            "--git-branch",
            "--cwd",
            "--scope",
            "-S",
            "--token",
            "-t",
            "-A",
            "--local-config",
            "-Q",
            "--global-config",
        ],
        rest: Role::Write,
        ..ROW
    },
    // Copies between a container or pod and the host (docker-cp(1), `kubectl cp`).
    Program {
        names: &["docker", "podman", "nerdctl"],
        subs: &[&["cp"], &["container", "cp"]],
        global: DOCKER,
        action: Action::ContainerCopy,
        ..ROW
    },
    // An image build (docker-build(1), `docker buildx build`, podman-build(1)) sends its
    // context, the folder operand and every file below it, to the builder, where the
    // Dockerfile can `COPY` any of it into the image: the context is read. `-` is no context
    // (the Dockerfile comes on standard input: `docker build - < Dockerfile`); a URL context
    // is fetched by the builder. `-f FILE` is read, `-f -` is standard input.
    Program {
        names: &["docker", "podman", "nerdctl"],
        subs: &[
            &["build"],
            &["buildx", "build"],
            &["buildx", "b"],
            &["image", "build"],
            &["builder", "build"],
        ],
        global: DOCKER,
        valued: &[
            "-t",
            "--tag",
            "--build-arg",
            "--build-context",
            "--label",
            "--target",
            "--platform",
            "--network",
            "--progress",
            "--secret",
            "--ssh",
            "--cache-from",
            "--cache-to",
            "-o",
            "--output",
            "--add-host",
            "--shm-size",
            "-m",
            "--memory",
            "--memory-swap",
            "--cpu-shares",
            "--cpu-period",
            "--cpu-quota",
            "--cpuset-cpus",
            "--cpuset-mems",
            "--ulimit",
            "--isolation",
            "--cgroup-parent",
            "--builder",
            "--attest",
            "--annotation",
            "--allow",
            "--call",
            "--format",
            "--jobs",
            "--os",
            "--arch",
            "--variant",
            "--security-opt",
        ],
        options: &[
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("--iidfile", Role::Write),
            ("--metadata-file", Role::Write),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["kubectl", "oc"],
        subs: &[&["cp"]],
        global: KUBECTL,
        action: Action::ContainerCopy,
        valued: &["-c", "--container", "-n", "--namespace", "--retries"],
        ..ROW
    },
    // Containers: bind mounts expose host paths; `--privileged`, host namespaces, added
    // capabilities, unconfined security options and host devices are grants (docker-run
    // reference; podman-run(1), nerdctl take the same flags).
    Program {
        names: &["docker", "podman", "nerdctl"],
        subs: &[
            &["run"],
            &["create"],
            &["container", "run"],
            &["container", "create"],
            &["exec"],
            &["container", "exec"],
            // `docker compose run -v /:/h SERVICE`: a one-off container of a service takes
            // the same mount and capability flags (docker-compose-run reference).
            &["compose", "run"],
        ],
        global: DOCKER,
        valued: &[
            "-e",
            "--env",
            "-p",
            "--publish",
            "--name",
            "-w",
            "--workdir",
            "--entrypoint",
            "-h",
            "--hostname",
            "--platform",
            "-l",
            "--label",
            "--memory",
            "-m",
            "--cpus",
            "--restart",
            "--add-host",
            "--pull",
            "--log-driver",
            "--log-opt",
            "--cap-drop",
            "--ulimit",
            "--tmpfs",
            "--shm-size",
            "--gpus",
        ],
        options: &[
            ("-v", Role::Mount),
            ("--volume", Role::Mount),
            ("--env-file", Role::Load),
            ("--cidfile", Role::Write),
            ("--mount", Role::MountSpec),
            ("--cap-add", Role::Capability),
            ("--security-opt", Role::SecurityOpt),
            ("--device", Role::Device),
            ("--pid", Role::Namespace),
            ("--ipc", Role::Namespace),
            ("--uts", Role::Namespace),
            ("--userns", Role::Namespace),
            ("--cgroupns", Role::Namespace),
            ("--network", Role::Network),
            ("--net", Role::Network),
            // `docker exec -u 0`: root in a running container.
            ("-u", Role::User),
            ("--user", Role::User),
        ],
        switches: &[("--privileged", Switch::Privileged)],
        ..ROW
    },
    // `docker-compose run` (the standalone v1 command): as `docker compose run`.
    Program {
        names: &["docker-compose", "podman-compose"],
        subs: &[&["run"]],
        global: &[
            "-f",
            "--file",
            "-p",
            "--project-name",
            "--project-directory",
            "--env-file",
            "--profile",
        ],
        valued: &[
            "-e",
            "--env",
            "-p",
            "--publish",
            "--name",
            "-w",
            "--workdir",
            "-u",
            "--user",
            "--entrypoint",
            "-l",
            "--label",
        ],
        options: &[
            ("-v", Role::Mount),
            ("--volume", Role::Mount),
            ("--cap-add", Role::Capability),
        ],
        ..ROW
    },
    // containerd's `ctr run --privileged --mount type=bind,src=/,dst=/host,options=rbind IMAGE
    // ID`.
    Program {
        names: &["ctr"],
        subs: &[&["run"], &["container", "create"], &["c", "create"]],
        global: &["-a", "--address", "-n", "--namespace", "--timeout"],
        valued: &[
            "--env",
            "--env-file",
            "--label",
            "--cwd",
            "--runtime",
            "--snapshotter",
            "--memory-limit",
            "--cpus",
            "--platform",
            "--user",
            "-u",
        ],
        options: &[
            ("--mount", Role::MountSpec),
            ("--cap-add", Role::Capability),
        ],
        switches: &[("--privileged", Switch::Privileged)],
        ..ROW
    },
];
