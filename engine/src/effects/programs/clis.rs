//! The command model's table: for each cloud and infrastructure CLI, data store client and
//! job scheduler, how its command path is spelled ([`Path`]) and which operations destroy,
//! change, expose or stop a live service ([`Cli`]). The reader of a command line by its row is
//! [`infra`](super::infra).
//!
//! In: nothing (static data). Out: [`CLIS`], one [`Cli`] row per CLI, and the kinds of value an
//! option or operand must hold for its operation to count ([`Given`]).

use crate::effects::policy_document;

/// How a CLI spells its command path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    /// `aws SERVICE OPERATION`: the operation is the second word.
    ServiceOperation,
    /// `gcloud [alpha|beta] GROUP… COMMAND`: up to `depth` group words, then the command.
    Groups {
        /// How many group words may come before the operation.
        depth: usize,
        /// The group words allowed before the operation; empty: any plain word.
        groups: &'static [&'static str],
    },
    /// `heroku TOPIC:COMMAND`, `firebase TOPIC:COMMAND`: the operation after the colon.
    Colon,
    /// `mix TOPIC.TASK` (`mix ecto.drop`): the operation after the first dot.
    Dot,
    /// The program itself destroys (`dropdb NAME`).
    Always,
    /// `redis-cli [OPTIONS] COMMAND`: the first operand after the options (these take a
    /// value), in any case (`FLUSHALL`, `flushall`), judged by the
    /// [`redis`](super::redis) model; with none, the command lines on standard input.
    Command {
        /// The options that take a value.
        valued: &'static [&'static str],
    },
}

/// One CLI's command model.
#[derive(Debug)]
pub(crate) struct Cli {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// How its command path is spelled.
    pub(crate) path: Path,
    /// Operation words that destroy.
    pub(crate) verbs: &'static [&'static str],
    /// Operation prefixes that destroy (`delete-`, `terminate-`).
    pub(crate) prefixes: &'static [&'static str],
    /// Operations that destroy only with one of these flags (`apply` with `-destroy`).
    pub(crate) flagged: &'static [(&'static str, &'static [&'static str])],
    /// Operations that destroy only when their last operand is remote (`aws s3 sync
    /// ./site s3://b --delete` deletes in the bucket; `aws s3 sync s3://b ./site --delete`
    /// deletes local files, a `delete` effect of its own).
    pub(crate) remote_last: &'static [&'static str],
    /// Operations that destroy when `xargs` feeds them their targets: every key a listing
    /// names (`redis-cli --scan | xargs redis-cli del`), where one named key is routine.
    pub(crate) fed: &'static [&'static str],
    /// Words skipped in the command path (`alpha`, `beta`).
    pub(crate) skip: &'static [&'static str],
    /// Resource types whose deletion is routine (`kubectl delete pod`): no destroy.
    pub(crate) routine: &'static [&'static str],
    /// The operation's first operand is the resource type (`kubectl delete TYPE NAME`).
    pub(crate) typed: bool,
    /// Operations that destroy, expose or stop a service only when one of the options named
    /// is given such a value (`kubectl scale --replicas=0`, `aws ec2
    /// authorize-security-group-ingress --cidr 0.0.0.0/0`).
    pub(crate) given: &'static [(&'static str, &'static [&'static str], Given)],
    /// Operations that expose a resource only when an operand after the operation (not one
    /// following a removing option, `gsutil iam ch -d allUsers`) holds such a value
    /// (`gsutil iam ch allUsers:objectViewer gs://b`), or names a policy file that does
    /// ([`Operand::File`]: `gcloud projects set-iam-policy p policy.json`).
    pub(crate) operands: &'static [(&'static str, Operand, Given)],
    /// What an operation acts on, for the reason to name, where the group words before it
    /// are part of the command and name nothing (`prisma migrate reset`: the database; `nomad
    /// operator raft remove-peer`: a server of the cluster). An empty operation: any.
    pub(crate) objects: &'static [(&'static str, &'static str)],
}

/// What an operand judged by [`Cli::operands`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operand {
    /// The value itself (`allUsers:objectViewer`, `public-read`).
    Value,
    /// A file whose document is judged: read relative to the call's folder.
    File,
}

/// What an option's value must be for its operation to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Given {
    /// Open to anyone: the whole address space (`0.0.0.0/0`, `::/0`, `*`, `Internet`,
    /// `Any`), a public principal (`"Principal":"*"`, `allUsers`), a public ACL
    /// (`public-read`), a public-access block switched off (`BlockPublicAcls=false`).
    Public,
    /// No replicas left: a count of 0 however written (`0`, `00`, `+0`), or a patch that
    /// sets `replicas` to 0.
    Zero,
    /// Switched on: any value but an off one (`off`, `false`, `none`, `private`,
    /// `disabled`, `no`).
    On,
    /// This word, in any case (`alembic downgrade base`: every migration undone).
    Word(&'static str),
}

impl Given {
    /// Whether `value` is such a value.
    pub(crate) fn holds(self, value: &str) -> bool {
        let squashed: String = value
            .chars()
            .filter(|ch| !ch.is_whitespace() && *ch != '\'')
            .collect::<String>()
            .to_ascii_lowercase();
        match self {
            Given::Public => {
                if let Some(public) = policy_document_public(value) {
                    return public;
                }
                matches!(squashed.as_str(), "*" | "\"*\"" | "internet" | "any")
                    || [
                        "0.0.0.0/0",
                        "::/0",
                        "\"principal\":\"*\"",
                        "\"aws\":\"*\"",
                        "\"aws\":[\"*\"]",
                        "public-read",
                        "allusers",
                        "allauthenticatedusers",
                        "=false",
                        "\":false",
                    ]
                    .iter()
                    .any(|p| squashed.contains(p))
            }
            Given::On => !matches!(
                squashed.trim_matches('"'),
                "off" | "false" | "none" | "private" | "disabled" | "no" | "0" | ""
            ),
            Given::Word(w) => squashed.trim_matches('"').eq_ignore_ascii_case(w),
            // A count is read as the number the CLI parses (`00`, `+0`, `-0`: Go's and
            // kubectl's integer readers take them as 0; `0.0` is refused by both).
            Given::Zero => {
                squashed.trim_matches('"').parse::<i64>() == Ok(0)
                    || ["replicas\":0", "replicas:0"].iter().any(|p| {
                        squashed.match_indices(p).any(|(i, _)| {
                            !squashed[i + p.len()..].starts_with(|ch: char| ch.is_ascii_digit())
                        })
                    })
            }
        }
    }
}

/// Whether a JSON policy document (`{"Statement": [...]}`, inline or from a file) grants to
/// everyone: a statement that allows (`"Effect": "Allow"`) whose `Principal` is `"*"` or names `"*"`
/// (`{"AWS": "*"}`, `{"AWS": ["arn:…", "*"]}`). `None`: not such a document (judged by its
/// text). A `Deny` for everyone (`aws:SecureTransport` false) opens nothing.
fn policy_document_public(value: &str) -> Option<bool> {
    let list = policy_document::allowing(value)?;
    Some(list.iter().any(|s| s.principals().contains(&"*")))
}

/// The defaults every row starts from.
const CLI: Cli = Cli {
    names: &[],
    path: Path::Groups {
        depth: 0,
        groups: &[],
    },
    verbs: &[],
    prefixes: &[],
    flagged: &[],
    remote_last: &[],
    fed: &[],
    skip: &[],
    routine: &[],
    typed: false,
    given: &[],
    operands: &[],
    objects: &[],
};

/// The options through which a cloud CLI opens a firewall or network rule to addresses.
const SOURCES: &[&str] = &[
    "--cidr",
    "--cidr-ip",
    "--ip-permissions",
    "--source-ranges",
    "--source-address-prefix",
    "--source-address-prefixes",
    "--authorized-networks",
    "--member",
    "--members",
];

/// `-r`, `-R`, `--recursive`.
const RECURSIVE: &[&str] = &["-r", "-R", "--recursive"];

/// Every CLI the command model knows.
pub(crate) static CLIS: &[Cli] = &[
    Cli {
        // `aws ec2 terminate-instances`, `aws rds delete-db-instance`, `aws s3 rb`,
        // `aws kms schedule-key-deletion`, `aws ecr batch-delete-image`.
        names: &["aws", "awslocal"],
        path: Path::ServiceOperation,
        verbs: &[
            "rb",
            "schedule-key-deletion",
            "empty-bucket",
            "change-resource-record-sets",
        ],
        prefixes: &[
            "delete-",
            "terminate-",
            "remove-",
            "deregister-",
            "purge-",
            "destroy-",
            "batch-delete-",
        ],
        flagged: &[("rm", &["--recursive"]), ("sync", &["--delete"])],
        remote_last: &["sync"],
        // `aws route53 change-resource-record-sets`: DNS records changed or deleted.
        // `put-bucket-policy` / `put-bucket-acl` / `put-object-acl` / `put-public-access-block`
        // and security-group ingress rules that open to everyone.
        given: &[
            ("put-bucket-policy", &["--policy"], Given::Public),
            (
                "put-bucket-acl",
                &[
                    "--acl",
                    "--grant-read",
                    "--grant-write",
                    "--grant-full-control",
                    "--access-control-policy",
                ],
                Given::Public,
            ),
            (
                "put-object-acl",
                &[
                    "--acl",
                    "--grant-read",
                    "--grant-full-control",
                    "--access-control-policy",
                ],
                Given::Public,
            ),
            // Resource policies of other services: a repository, a key, a secret, a role
            // anyone may assume, a function anyone may invoke.
            ("set-repository-policy", &["--policy-text"], Given::Public),
            ("put-key-policy", &["--policy"], Given::Public),
            (
                "put-resource-policy",
                &["--resource-policy", "--policy", "--policy-in-json"],
                Given::Public,
            ),
            (
                "update-assume-role-policy",
                &["--policy-document"],
                Given::Public,
            ),
            ("add-permission", &["--principal"], Given::Public),
            (
                "put-public-access-block",
                &["--public-access-block-configuration"],
                Given::Public,
            ),
            ("authorize-security-group-ingress", SOURCES, Given::Public),
        ],
        ..CLI
    },
    Cli {
        // `gcloud compute instances delete vm1`, `gcloud beta sql instances delete db`,
        // `gcloud projects delete p`, `gcloud storage rm -r gs://b`.
        names: &["gcloud"],
        path: Path::Groups {
            depth: 5,
            groups: &[],
        },
        verbs: &["delete", "destroy", "purge"],
        prefixes: &["delete-"],
        flagged: &[("rm", RECURSIVE)],
        skip: &["alpha", "beta", "preview"],
        // `gcloud compute firewall-rules create r --source-ranges=0.0.0.0/0`, `gcloud sql
        // instances patch db --authorized-networks=0.0.0.0/0`, `gcloud storage buckets
        // add-iam-policy-binding gs://b --member=allUsers`.
        given: &[
            ("create", SOURCES, Given::Public),
            ("update", SOURCES, Given::Public),
            ("patch", SOURCES, Given::Public),
            ("add-iam-policy-binding", SOURCES, Given::Public),
        ],
        // `gcloud projects set-iam-policy p policy.json`, `gcloud storage buckets
        // set-iam-policy gs://b policy.json`: the policy file's bindings.
        operands: &[("set-iam-policy", Operand::File, Given::Public)],
        ..CLI
    },
    Cli {
        // `gsutil rb gs://b`, `gsutil rm -r gs://b`, `gsutil rm -a` (every version).
        names: &["gsutil"],
        path: Path::Groups {
            depth: 1,
            groups: &["iam", "acl", "defacl"],
        },
        verbs: &["rb"],
        flagged: &[("rm", &["-r", "-R", "-a"])],
        // `gsutil iam ch allUsers:objectViewer gs://b`, `gsutil acl ch -u AllUsers:R gs://b`,
        // `gsutil acl set public-read gs://b`, `gsutil iam set policy.json gs://b`.
        given: &[("ch", &["-u", "-g", "-p"], Given::Public)],
        operands: &[
            ("ch", Operand::Value, Given::Public),
            ("set", Operand::Value, Given::Public),
            ("set", Operand::File, Given::Public),
        ],
        ..CLI
    },
    Cli {
        // `az group delete -n rg`, `az keyvault purge`, `az storage blob delete-batch`.
        names: &["az"],
        path: Path::Groups {
            depth: 5,
            groups: &[],
        },
        verbs: &["delete", "purge"],
        prefixes: &["delete-"],
        // `az network nsg rule create … --source-address-prefixes '*'`; `az storage
        // container set-permission -n c --public-access blob` (or `create`): anonymous reads of
        // the blobs, or of the container's listing too; `az storage account update
        // --allow-blob-public-access true` lets containers be made so.
        given: &[
            ("create", SOURCES, Given::Public),
            ("update", SOURCES, Given::Public),
            ("create", &["--public-access"], Given::On),
            ("set-permission", &["--public-access"], Given::On),
            ("update", &["--allow-blob-public-access"], Given::On),
            ("create", &["--allow-blob-public-access"], Given::On),
        ],
        ..CLI
    },
    Cli {
        // `kubectl delete TYPE NAME`, `kubectl delete -f app.yaml`, `kubectl drain node`,
        // `kubectl cordon node`, `kubectl replace --force -f x.yaml`, `kubectl apply --prune`
        // (deletes what the files no longer name), `kubectl rollout undo`, and a workload
        // scaled or patched to no replicas.
        names: &["kubectl", "oc", "kubecolor"],
        path: Path::Groups {
            depth: 1,
            groups: &["rollout"],
        },
        verbs: &["delete", "drain", "cordon", "undo"],
        flagged: &[("replace", &["--force"]), ("apply", &["--prune"])],
        given: &[
            ("scale", &["--replicas"], Given::Zero),
            ("patch", &["-p", "--patch"], Given::Zero),
        ],
        routine: &["pod", "pods", "po", "event", "events", "ev", "job", "jobs"],
        typed: true,
        ..CLI
    },
    Cli {
        // `helm uninstall web`, `helm delete web` (Helm 2 and an alias).
        names: &["helm"],
        verbs: &["uninstall", "delete", "del", "un", "rollback"],
        ..CLI
    },
    Cli {
        // `terraform destroy`, `terraform apply -destroy`, `terraform state rm`,
        // `terraform workspace delete`, `terragrunt run-all destroy`.
        names: &["terraform", "tofu", "terragrunt"],
        path: Path::Groups {
            depth: 1,
            groups: &["state", "workspace", "run-all"],
        },
        verbs: &["destroy", "rm", "delete"],
        flagged: &[("apply", &["-destroy", "--destroy"])],
        ..CLI
    },
    Cli {
        // `pulumi destroy` (`down`), `pulumi stack rm`, `pulumi state delete`.
        names: &["pulumi"],
        path: Path::Groups {
            depth: 1,
            groups: &["stack", "state"],
        },
        verbs: &["destroy", "down", "rm", "delete"],
        ..CLI
    },
    Cli {
        // `doctl compute droplet delete web`, `doctl databases delete db` (`rm`).
        names: &["doctl"],
        path: Path::Groups {
            depth: 4,
            groups: &[],
        },
        verbs: &["delete", "rm"],
        ..CLI
    },
    Cli {
        // `flyctl destroy app`, `fly apps destroy app`, `fly machine destroy id`,
        // `fly volumes delete vol`.
        names: &["flyctl", "fly"],
        path: Path::Groups {
            depth: 3,
            groups: &[],
        },
        verbs: &["destroy", "delete", "remove", "rm"],
        ..CLI
    },
    Cli {
        // `heroku apps:destroy`, `heroku addons:destroy`, `heroku pg:reset`.
        names: &["heroku"],
        path: Path::Colon,
        verbs: &["destroy", "delete", "reset", "wipe"],
        ..CLI
    },
    Cli {
        // `firebase firestore:delete --all-collections`, `firebase database:remove /`,
        // `firebase functions:delete fn`, `netlify sites:delete`.
        names: &["firebase", "netlify", "ntl"],
        path: Path::Colon,
        verbs: &["delete", "remove", "destroy"],
        ..CLI
    },
    Cli {
        // `vercel remove app`, `vercel rm app`, `vercel project rm app`.
        names: &["vercel"],
        path: Path::Groups {
            depth: 1,
            groups: &[],
        },
        verbs: &["remove", "rm"],
        ..CLI
    },
    Cli {
        // `gh repo delete o/r`, `gh release delete v1`, `gh api -X DELETE repos/o/r`.
        names: &["gh"],
        path: Path::Groups {
            depth: 1,
            groups: &[],
        },
        verbs: &["delete"],
        flagged: &[("api", &["-X=DELETE", "--method=DELETE"])],
        ..CLI
    },
    Cli {
        // `eksctl delete cluster --name c`, `eksctl drain nodegroup`.
        names: &["eksctl"],
        verbs: &["delete", "drain"],
        ..CLI
    },
    Cli {
        // Cloudflare: `wrangler delete`, `wrangler d1 delete db`, `wrangler r2 bucket delete b`,
        // `wrangler kv namespace delete`.
        names: &["wrangler"],
        path: Path::Groups {
            depth: 3,
            groups: &[],
        },
        verbs: &["delete"],
        ..CLI
    },
    Cli {
        // `rclone purge remote:bucket`, `rclone delete remote:path`.
        names: &["rclone"],
        verbs: &["purge", "delete", "deletefile", "rmdirs"],
        ..CLI
    },
    Cli {
        // `s3cmd rb s3://b`, `s3cmd del --recursive s3://b`.
        names: &["s3cmd"],
        verbs: &["rb"],
        flagged: &[("del", RECURSIVE), ("rm", RECURSIVE)],
        ..CLI
    },
    Cli {
        // `supabase db reset`, `supabase projects delete ref`.
        names: &["supabase"],
        path: Path::Groups {
            depth: 2,
            groups: &[],
        },
        verbs: &["delete", "reset"],
        ..CLI
    },
    Cli {
        // `dropdb app`, `dropuser app`.
        names: &["dropdb", "dropuser"],
        path: Path::Always,
        ..CLI
    },
    Cli {
        // `redis-cli -h cache FLUSHALL`, `valkey-cli FLUSHDB` (every key of the server or of
        // one database), `SHUTDOWN`, `CONFIG SET requirepass ""`: the commands the
        // [`redis`](super::redis) model judges, as operands, on standard input or in a script.
        names: &["redis-cli", "valkey-cli", "keydb-cli"],
        path: Path::Command {
            valued: super::database::REDIS_VALUED,
        },
        fed: &["del", "unlink"],
        ..CLI
    },
    Cli {
        // `etcdctl del KEY`, `etcdctl del "" --prefix` (every key of the cluster).
        names: &["etcdctl"],
        verbs: &["del"],
        ..CLI
    },
    Cli {
        // `mysqladmin drop app`.
        names: &["mysqladmin"],
        verbs: &["drop"],
        ..CLI
    },
    Cli {
        // `s5cmd rm 's3://b/*'`, `s5cmd rb s3://b`: s5cmd takes wildcards itself, so one
        // `rm` deletes every object it matches.
        names: &["s5cmd"],
        verbs: &["rm", "rb"],
        ..CLI
    },
    Cli {
        // `nomad job stop api` (a live job stopped, like `kubectl delete deployment`; with
        // `-purge` its history gone too), `nomad job scale api 0` (like `kubectl scale
        // --replicas=0`), `nomad namespace delete ns`, `nomad volume delete v`, `nomad var
        // purge path`, `nomad node drain`, `nomad operator raft remove-peer` and `nomad
        // server force-leave` (a server out of the cluster). `nomad alloc stop ID` is
        // routine: the scheduler places the allocation again.
        names: &["nomad"],
        path: Path::Groups {
            depth: 2,
            groups: &[],
        },
        verbs: &[
            "delete",
            "purge",
            "drain",
            "stop",
            "remove-peer",
            "force-leave",
        ],
        operands: &[("scale", Operand::Value, Given::Zero)],
        routine: &["alloc"],
        objects: &[
            ("stop", "job"),
            ("scale", "job"),
            ("remove-peer", "a server of the cluster"),
            ("force-leave", "a server of the cluster"),
        ],
        ..CLI
    },
    Cli {
        // InfluxDB 2: `influx bucket delete -n prod`, `influx delete --bucket b --predicate …`
        // (the points of a time range), `influx org delete`.
        names: &["influx"],
        path: Path::Groups {
            depth: 2,
            groups: &[],
        },
        verbs: &["delete"],
        ..CLI
    },
    // Migration tools: undoing every migration, resetting or dropping the database. One
    // step back (`knex migrate:rollback`, `rails db:rollback`, `alembic downgrade -1`),
    // `migrate` and `status` are everyday work.
    Cli {
        // `knex migrate:rollback --all`.
        names: &["knex"],
        path: Path::Colon,
        flagged: &[("rollback", &["--all"])],
        objects: &[("", "every migration of the database")],
        ..CLI
    },
    Cli {
        // `sequelize db:migrate:undo:all`, `sequelize db:drop`, `sequelize db:seed:undo:all`.
        names: &["sequelize", "sequelize-cli"],
        path: Path::Colon,
        verbs: &["drop", "migrate:undo:all", "seed:undo:all"],
        objects: &[("", "the database")],
        ..CLI
    },
    Cli {
        // `rails db:drop`, `rails db:reset`, `rake db:migrate:reset`, `rails db:purge`,
        // `rails db:truncate_all`, `rails db:seed:replant` (every table emptied first),
        // `rails db:schema:load` / `db:structure:load` (every table created anew from the
        // schema file, its rows gone); TypeORM's `typeorm schema:drop`.
        names: &["rails", "rake", "typeorm", "typeorm-ts-node-commonjs"],
        path: Path::Colon,
        verbs: &[
            "drop",
            "drop:all",
            "reset",
            "purge",
            "purge:all",
            "truncate_all",
            "migrate:reset",
            "seed:replant",
            "schema:load",
            "structure:load",
        ],
        objects: &[("", "the database")],
        ..CLI
    },
    Cli {
        // Laravel: `php artisan migrate:fresh` (every table dropped), `migrate:reset`,
        // `db:wipe`.
        names: &["artisan"],
        path: Path::Colon,
        verbs: &["fresh", "reset", "wipe"],
        objects: &[("", "the database")],
        ..CLI
    },
    Cli {
        // `prisma migrate reset`, `prisma db push --force-reset`.
        names: &["prisma"],
        path: Path::Groups {
            depth: 1,
            groups: &["migrate", "db"],
        },
        verbs: &["reset"],
        // `--accept-data-loss`: the columns and tables the schema no longer has are dropped.
        flagged: &[("push", &["--force-reset", "--accept-data-loss"])],
        objects: &[("", "the database")],
        ..CLI
    },
    Cli {
        // `python manage.py flush` (every row of every table), `django-admin reset_db`,
        // `manage.py migrate app zero` (every migration of the app undone: its tables
        // dropped); `migrate app 0003` is one step back, everyday work.
        names: &["manage.py", "django-admin"],
        verbs: &["flush", "reset_db"],
        operands: &[("migrate", Operand::Value, Given::Word("zero"))],
        objects: &[("migrate", "every migration of"), ("", "the database")],
        ..CLI
    },
    Cli {
        // `alembic downgrade base`, `flask db downgrade base`: every migration undone.
        names: &["alembic", "flask"],
        path: Path::Groups {
            depth: 1,
            groups: &["db"],
        },
        operands: &[("downgrade", Operand::Value, Given::Word("base"))],
        objects: &[("", "every migration of the database")],
        ..CLI
    },
    Cli {
        // `goose reset` (every migration rolled back), `goose down-to 0` (down to version
        // 0: the same); `goose DRIVER DSN reset` names the database first. `goose up`,
        // `goose down` (one step back) and `goose down-to 20240101` are everyday work.
        names: &["goose"],
        path: Path::Groups {
            depth: 2,
            groups: &[],
        },
        verbs: &["reset"],
        operands: &[("down-to", Operand::Value, Given::Zero)],
        objects: &[("", "every migration of the database")],
        ..CLI
    },
    Cli {
        // Elixir's Ecto through `mix`: `mix ecto.drop`, `mix ecto.reset` (dropped and
        // created anew), `mix ecto.rollback --all`; `mix ecto.migrate` is everyday work.
        names: &["mix"],
        path: Path::Dot,
        verbs: &["drop", "reset"],
        flagged: &[("rollback", &["--all"])],
        objects: &[("", "the database")],
        ..CLI
    },
    Cli {
        // `flyway clean`, `liquibase drop-all`, `dbmate drop`: every object of the schema.
        names: &["flyway", "liquibase", "dbmate"],
        verbs: &["clean", "drop-all", "drop"],
        objects: &[("", "the database")],
        ..CLI
    },
];
