//! Cloud and infrastructure CLIs by their command model: which (service, operation) of a CLI
//! destroys resources (`aws ec2 terminate-instances`, `gcloud compute instances delete`,
//! `az group delete`, `kubectl delete ns`, `helm uninstall`, `terraform destroy`), or
//! changes, exposes or stops a live service under another verb (`aws route53
//! change-resource-record-sets`, a bucket policy with a public principal, ingress from
//! `0.0.0.0/0`, `kubectl scale --replicas=0`, `kubectl rollout undo`, `etcdctl del`).
//!
//! In: one analysed [`SimpleCommand`]. Out: the [`Destroy`] it asks of its provider, if its
//! operation destroys: the CLI, the service path (the group words before the operation, or
//! the resource type of `kubectl delete TYPE`), the operation and the targets named after
//! it. Read-only operations (`describe-*`, `list`, `get`, `plan`), creations and updates are
//! not destroys.
//!
//! Every CLI is one [`Cli`] row: how its command path is spelled ([`Path`]), which
//! operation words or prefixes destroy, which destroy only with a flag (`terraform apply
//! -destroy`, `aws s3 rm --recursive`, `kubectl replace --force`), and which resource types
//! are routine to delete (`kubectl delete pod`: its controller makes a new one), and which
//! count only with an option given a public or zero value ([`Given`]). Global
//! options with a value are skipped by the [`globals`](super::globals) table.

use crate::effects::policy_document;
use crate::shell::operands::{cmd_flags, positionals};
use crate::shell::{Arg, SimpleCommand};

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
    /// The program itself destroys (`dropdb NAME`).
    Always,
    /// `redis-cli [OPTIONS] COMMAND`: the first operand after the options (these take a
    /// value), in any case (`FLUSHALL`, `flushall`).
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
}

/// What an operand judged by [`Cli::operands`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operand {
    /// The value itself (`allUsers:objectViewer`, `public-read`).
    Value,
    /// A file whose document is judged: read relative to the call's folder.
    File,
}

/// Options that remove the grant their value names (`gsutil iam ch -d MEMBER`, `gsutil acl
/// ch -d ENTITY`): that value grants nothing.
const REMOVING: &[&str] = &["-d"];

/// How the documents a command reads from files are got: by path (as written, relative to
/// the call's folder) to their text, or why they cannot be read. The analysis of one command
/// reads none ([`destroys`]); the pass over a call's effects reads them from disk
/// ([`destroys_reading`]).
pub(crate) struct Files<'a> {
    /// The reader.
    pub(crate) read: &'a dyn Fn(&str) -> Result<String, String>,
    /// Why files the judgement needed could not be read.
    pub(crate) problems: std::cell::RefCell<Vec<String>>,
}

impl Files<'_> {
    /// Whether the document at `path` holds `given`; a file that cannot be read is a
    /// problem kept for the caller, and holds nothing.
    fn holds(&self, path: &str, given: Given) -> bool {
        match (self.read)(path) {
            Ok(text) => given.holds(&text),
            Err(why) => {
                self.problems.borrow_mut().push(why);
                false
            }
        }
    }
}

/// The AWS CLI's prefixes for a parameter value read from a file when the command runs
/// (`--policy file://policy.json`, `fileb://` for binary): the value is the file's text.
const FILE_VALUE: &[&str] = &["file://", "fileb://"];

/// What an option's value must be for its operation to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Given {
    /// Open to anyone: the whole address space (`0.0.0.0/0`, `::/0`, `*`, `Internet`,
    /// `Any`), a public principal (`"Principal":"*"`, `allUsers`), a public ACL
    /// (`public-read`), a public-access block switched off (`BlockPublicAcls=false`).
    Public,
    /// No replicas left: `0`, or a patch that sets `replicas` to 0.
    Zero,
    /// Switched on: any value but an off one (`off`, `false`, `none`, `private`,
    /// `disabled`, `no`).
    On,
}

impl Given {
    /// Whether `value` is such a value.
    fn holds(self, value: &str) -> bool {
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
            Given::Zero => {
                squashed == "0"
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
    skip: &[],
    routine: &[],
    typed: false,
    given: &[],
    operands: &[],
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
        // `redis-cli -h cache FLUSHALL`, `valkey-cli FLUSHDB`: every key of the server or
        // of one database.
        names: &["redis-cli", "valkey-cli", "keydb-cli"],
        path: Path::Command {
            valued: super::database::REDIS_VALUED,
        },
        verbs: &["flushall", "flushdb"],
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
];

/// Resources a command destroys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Destroy {
    /// The CLI's base name.
    pub(crate) cli: String,
    /// The service or group path (`ec2`, `compute instances`, `namespace`), maybe empty.
    pub(crate) service: String,
    /// The operation (`terminate-instances`, `delete`, `destroy`).
    pub(crate) operation: String,
    /// The targets named after it, as written.
    pub(crate) targets: Vec<Arg>,
}

/// Whether the command has `flag`: `--long` (also `--long=v`), a short letter in a bundle
/// (`-rf`), a one-dash word (`-destroy`, `-destroy=true`), or `NAME=VALUE`: the option given
/// that value (`-X=DELETE` matches `-X DELETE`, `-XDELETE`, `--method=DELETE` its own).
fn has_flag(c: &SimpleCommand, flag: &str) -> bool {
    // `NAME=VALUE`: the option with that value (`-X DELETE`, `--method=delete`, `-XDELETE`).
    if let Some((name, value)) = flag.split_once('=') {
        return option_values(c, name)
            .iter()
            .any(|v| v.eq_ignore_ascii_case(value));
    }
    let word = |a: &Arg| {
        let t = a.text.as_str();
        t == flag
            || t.strip_prefix(flag)
                .is_some_and(|rest| rest.starts_with('=') && !rest.ends_with("=false"))
    };
    if flag.starts_with("--") || flag.len() > 2 {
        let dashes = c.args.iter().take_while(|a| a.text != "--");
        let dashes: Vec<&Arg> = dashes.collect();
        return dashes.iter().any(|a| word(a));
    }
    cmd_flags(c).iter().any(|f| f == flag)
}

/// The values option `name` is given on `c`: `NAME VALUE`, `--name=VALUE`, and a short
/// option's glued value (`-XDELETE`). Values known only at run time are left out.
pub(crate) fn option_values<'a>(c: &'a SimpleCommand, name: &str) -> Vec<&'a str> {
    let words: Vec<&Arg> = c.args.iter().take_while(|a| a.text != "--").collect();
    words
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let t = a.text.as_str();
            let given = if t == name {
                words.get(i + 1).copied()
            } else if let Some(v) = t.strip_prefix(name) {
                let glued = v
                    .strip_prefix('=')
                    .or((!name.starts_with("--") && !v.is_empty()).then_some(v))?;
                return (!a.dynamic).then_some(glued);
            } else {
                None
            }?;
            (!given.dynamic).then_some(given.text.as_str())
        })
        .collect()
}

/// Whether `word` is a plain command-path word (`compute`, `sql`, `run-all`).
fn plain(a: &Arg) -> bool {
    !a.dynamic
        && !a.text.is_empty()
        && a.text
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_')
}

/// What `c` destroys: its service path, operation and targets.
fn make(c: &SimpleCommand, service: Vec<&str>, op: &str, targets: &[&Arg]) -> Destroy {
    Destroy {
        cli: c.basename().to_string(),
        service: service.join(" "),
        operation: op.to_string(),
        targets: targets.iter().map(|a| (*a).clone()).collect(),
    }
}

impl Cli {
    /// Whether `op` destroys as written on `c`, the documents its values name read
    /// through `files`.
    fn destroys(&self, op: &str, c: &SimpleCommand, files: &Files) -> bool {
        let value = |t: &str, given: Given| match FILE_VALUE.iter().find_map(|p| t.strip_prefix(p))
        {
            Some(path) => files.holds(path, given),
            None => given.holds(t),
        };
        self.verbs.contains(&op)
            || self.prefixes.iter().any(|p| op.starts_with(p))
            || self
                .flagged
                .iter()
                .any(|(v, flags)| *v == op && flags.iter().any(|f| has_flag(c, f)))
            || self.given.iter().any(|(v, options, given)| {
                *v == op
                    && options
                        .iter()
                        .any(|o| option_values(c, o).iter().any(|t| value(t, *given)))
            })
            || self
                .operands
                .iter()
                .any(|(v, kind, given)| *v == op && operand_holds(c, op, *kind, *given, files))
    }

    /// Read `c` by this row, the documents its values name read through `files`.
    fn read(&self, c: &SimpleCommand, files: &Files) -> Option<Destroy> {
        let pos = positionals(c);
        let make = |service: Vec<&str>, op: &str, targets: &[&Arg]| make(c, service, op, targets);
        match self.path {
            Path::Always => Some(make(Vec::new(), c.basename(), &pos)),
            Path::Command { valued } => {
                let mut words = c.args.iter().take_while(|a| a.text != "--");
                while let Some(a) = words.next() {
                    if valued.contains(&a.text.as_str()) {
                        words.next();
                    } else if !a.text.starts_with('-') {
                        let op = a.text.to_ascii_lowercase();
                        let rest: Vec<&Arg> = words.collect();
                        return (!a.dynamic && self.destroys(&op, c, files))
                            .then(|| make(Vec::new(), &op, &rest));
                    }
                }
                None
            }
            Path::ServiceOperation => {
                let [service, op, rest @ ..] = pos.as_slice() else {
                    return None;
                };
                let remote = !self.remote_last.contains(&op.text.as_str())
                    || rest.last().is_some_and(|a| a.text.contains("://"));
                (plain(service) && plain(op) && self.destroys(&op.text, c, files) && remote)
                    .then(|| make(vec![service.text.as_str()], &op.text, rest))
            }
            Path::Colon => {
                let first = pos.first().filter(|a| !a.dynamic)?;
                let (topic, op) = first.text.split_once(':')?;
                self.destroys(op, c, files)
                    .then(|| make(vec![topic], op, pos.get(1..).unwrap_or_default()))
            }
            Path::Groups { depth, groups } => {
                let mut service = Vec::new();
                for (i, a) in pos.iter().enumerate() {
                    if !plain(a) {
                        return None;
                    }
                    let t = a.text.as_str();
                    if self.skip.contains(&t) {
                        continue;
                    }
                    if self.destroys(t, c, files) {
                        let rest = pos.get(i + 1..).unwrap_or_default();
                        return self.typed_target(c, service, t, rest);
                    }
                    if service.len() == depth || !(groups.is_empty() || groups.contains(&t)) {
                        return None;
                    }
                    service.push(t);
                }
                None
            }
        }
    }

    /// `kubectl delete TYPE NAME`: the type is the service, and a routine type destroys
    /// nothing; `kubectl delete -f app.yaml` names its resources in the file.
    fn typed_target<'a>(
        &self,
        c: &SimpleCommand,
        mut service: Vec<&'a str>,
        op: &str,
        rest: &[&'a Arg],
    ) -> Option<Destroy> {
        let make = |service: Vec<&str>, op: &str, targets: &[&Arg]| make(c, service, op, targets);
        if !self.typed || op != "delete" {
            return Some(make(service, op, rest));
        }
        let from_file = ["-f", "--filename", "-k", "--kustomize"]
            .iter()
            .any(|f| has_flag(c, f));
        match rest.split_first() {
            Some((kind, names)) if !from_file => {
                // `pod/web-1`, `pods,services`, `deployment.apps`.
                let types: Vec<&str> = kind
                    .text
                    .split(',')
                    .map(|t| t.split('/').next().unwrap_or(t))
                    .map(|t| t.split('.').next().unwrap_or(t))
                    .collect();
                let every = ["--all", "-A", "--all-namespaces"]
                    .iter()
                    .any(|f| has_flag(c, f));
                if !kind.dynamic && !every && types.iter().all(|t| self.routine.contains(t)) {
                    return None;
                }
                service.push(kind.text.as_str());
                Some(make(service, op, names))
            }
            _ => Some(make(service, op, rest)),
        }
    }
}

/// Flags with which an operation only shows what it would do, or its help.
const NO_RUN: &[&str] = &["--help", "--dry-run", "--dryrun", "-dry-run"];

/// Whether `c` only shows its help or what it would do (`kubectl delete ns x
/// --dry-run=client`, `aws ec2 terminate-instances --dry-run`, `aws s3 rm … --dryrun`,
/// `aws ec2 terminate-instances help`).
fn no_run(c: &SimpleCommand) -> bool {
    c.args.iter().take_while(|a| a.text != "--").any(|a| {
        let t = a.text.as_str();
        NO_RUN.iter().any(|f| {
            t == *f
                || t.strip_prefix(f)
                    .and_then(|r| r.strip_prefix('='))
                    .is_some_and(|v| v != "none")
        })
    }) || (c.basename() == "aws" && c.args.last().is_some_and(|a| a.text == "help"))
}

/// Whether an operand of `c` after the operation `op` holds `given`: as a value, or as the
/// path of a policy file read through `files`. The value of a removing option ([`REMOVING`])
/// and words only known at run time count for nothing.
fn operand_holds(c: &SimpleCommand, op: &str, kind: Operand, given: Given, files: &Files) -> bool {
    let words: Vec<&Arg> = c.args.iter().collect();
    let Some(at) = words.iter().position(|a| a.text == op) else {
        return false;
    };
    words.iter().enumerate().skip(at + 1).any(|(i, a)| {
        let removed = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|w| REMOVING.contains(&w.text.as_str()));
        if a.dynamic || removed || a.text.starts_with('-') {
            return false;
        }
        match kind {
            Operand::Value => given.holds(&a.text),
            // A policy file: a local path with a document's extension.
            Operand::File => {
                let t = a.text.to_ascii_lowercase();
                !t.contains("://")
                    && [".json", ".yaml", ".yml"].iter().any(|e| t.ends_with(e))
                    && files.holds(&a.text, given)
            }
        }
    })
}

/// A reader that reads no file: the analysis of one command alone.
fn no_file(path: &str) -> Result<String, String> {
    Err(format!("`{path}` is read when the command runs"))
}

/// The resources `c` destroys, if its CLI's command model says its operation destroys.
/// Documents named by file (`--policy file://p.json`) are not read here: see
/// [`destroys_reading`].
pub(crate) fn destroys(c: &SimpleCommand) -> Option<Destroy> {
    destroys_reading(
        c,
        &Files {
            read: &no_file,
            problems: Default::default(),
        },
    )
}

/// Whether `c` names a document its CLI reads from a file for an operation judged by value
/// (`file://` / `fileb://`, or an operand ending in `.json` / `.yaml` / `.yml`): only such
/// a command is judged again with the files read.
pub(crate) fn names_files(c: &SimpleCommand) -> bool {
    let base = c.basename();
    CLIS.iter()
        .find(|r| r.names.contains(&base))
        .is_some_and(|r| !r.given.is_empty() || !r.operands.is_empty())
        && c.args.iter().any(|a| {
            let t = a.text.to_ascii_lowercase();
            FILE_VALUE.iter().any(|p| t.contains(p))
                || [".json", ".yaml", ".yml"].iter().any(|e| t.ends_with(e))
        })
}

/// The resources `c` destroys, the documents its values name read through `files`.
pub(crate) fn destroys_reading(c: &SimpleCommand, files: &Files) -> Option<Destroy> {
    if c.dynamic_program || c.program.is_empty() {
        return None;
    }
    // The CLI's row first: most commands are no cloud CLI, and need no flag scan.
    let base = c.basename();
    let row = CLIS.iter().find(|r| r.names.contains(&base))?;
    // A development or test database on this machine (`dropdb app_test`, a local
    // `redis-cli FLUSHDB`) is everyday work.
    let local = matches!(row.path, Path::Always | Path::Command { .. });
    if no_run(c) || (local && super::database::local_dev(c)) {
        return None;
    }
    row.read(c, files)
}

#[cfg(test)]
#[path = "infra_tests.rs"]
mod tests;
