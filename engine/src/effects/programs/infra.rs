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
//! options with a value are skipped by the [`globals`](super::globals) table. A data-store
//! client's commands ([`Path::Command`]: `redis-cli`) are judged by the
//! [`redis`](super::redis) model, from its operands, its standard input or the files it reads.
//! A CLI run by another name is judged as itself: `python manage.py`, `python -m django`,
//! `pnpm prisma` ([`script_cli`]). Where a row names what an operation acts on
//! ([`Cli::objects`]), the reason names that and the whole command path.

use super::clis::{CLIS, Cli, Given, Operand, Path};
use crate::shell::operands::{cmd_flags, positionals};
use crate::shell::{Arg, RedirectMode, SimpleCommand};

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
        self.text(path).is_some_and(|text| given.holds(&text))
    }

    /// The text of the file at `path`; a file that cannot be read is a problem kept for the
    /// caller.
    fn text(&self, path: &str) -> Option<String> {
        (self.read)(path)
            .map_err(|why| self.problems.borrow_mut().push(why))
            .ok()
    }
}

/// `redis-cli --cluster SUBCOMMAND …`: the cluster manager; `--cluster call HOST:PORT
/// COMMAND…` sends the command to every node.
const CLUSTER: &str = "--cluster";

/// `redis-cli --eval FILE KEYS , ARGS`: the Lua script in FILE runs.
const EVAL_FILE: &str = "--eval";

/// The files whose text `c` (a CLI of [`Path::Command`]) sends its server as commands: the
/// script of `--eval FILE`, and the file on its standard input (`redis-cli < cmds.txt`).
/// Each with whether it is a script (else a command file, a command a line).
fn command_files(c: &SimpleCommand) -> Vec<(&Arg, bool)> {
    let words: Vec<&Arg> = c.args.iter().take_while(|a| a.text != "--").collect();
    let script = words
        .iter()
        .position(|a| a.text == EVAL_FILE)
        .and_then(|i| words.get(i + 1))
        .map(|a| (*a, true));
    let stdin = c
        .redirections
        .iter()
        .rev()
        .find(|r| r.fd.is_none_or(|fd| fd == 0) && r.mode == RedirectMode::Read)
        .map(|r| (&r.target, false));
    // `/dev/null` sends no command.
    script
        .into_iter()
        .chain(stdin)
        .filter(|(a, _)| !a.dynamic && a.text != "/dev/null")
        .collect()
}

/// The AWS CLI's prefixes for a parameter value read from a file when the command runs
/// (`--policy file://policy.json`, `fileb://` for binary): the value is the file's text.
const FILE_VALUE: &[&str] = &["file://", "fileb://"];

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

/// What the Redis command `r` sent by `c` destroys: what it acts on is the service, so the
/// reason reads `destroys every key of the server with `redis-cli flushall``.
fn redis_destroy(c: &SimpleCommand, r: super::redis::Command) -> Destroy {
    Destroy {
        cli: c.basename().to_string(),
        service: r.object,
        operation: r.operation,
        targets: r
            .targets
            .into_iter()
            .map(|text| Arg {
                text,
                dynamic: false,
            })
            .collect(),
    }
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
            || (self.fed.contains(&op) && fed_by_xargs(c))
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
                // The commands in files it reads (`--eval FILE`, `< cmds.txt`).
                let from_files = || {
                    command_files(c).into_iter().find_map(|(a, script)| {
                        let text = files.text(&a.text)?;
                        let judged = if script {
                            super::redis::script(&text, 1)
                        } else {
                            super::redis::lines(&text)
                        };
                        judged.map(|r| redis_destroy(c, r))
                    })
                };
                let mut words = c.args.iter().take_while(|a| a.text != "--");
                while let Some(a) = words.next() {
                    if a.text == EVAL_FILE {
                        return from_files();
                    }
                    if a.text == CLUSTER {
                        // `--cluster call HOST:PORT COMMAND…` runs the command on every
                        // node; the cluster's other subcommands (`info`, `check`, `create`)
                        // send no command of the model.
                        if words.next().is_none_or(|sub| sub.text != "call") {
                            return None;
                        }
                        words.next();
                    } else if valued.contains(&a.text.as_str()) {
                        words.next();
                    } else if !a.text.starts_with('-') {
                        let op = a.text.to_ascii_lowercase();
                        let rest: Vec<&Arg> = words.collect();
                        if a.dynamic {
                            return None;
                        }
                        if self.destroys(&op, c, files) {
                            return Some(make(Vec::new(), &op, &rest));
                        }
                        let command: Vec<&str> = std::iter::once(a)
                            .chain(rest)
                            .map(|w| w.text.as_str())
                            .collect();
                        return super::redis::judge(&command).map(|r| redis_destroy(c, r));
                    }
                }
                // No command word: the commands come on standard input, a line each.
                match c.stdin_known_text() {
                    Some((text, _)) => super::redis::lines(text).map(|r| redis_destroy(c, r)),
                    None => from_files(),
                }
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
            Path::Colon | Path::Dot => {
                let first = pos.first().filter(|a| !a.dynamic)?;
                let separator = if self.path == Path::Dot { '.' } else { ':' };
                let (topic, op) = first.text.split_once(separator)?;
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

    /// `d` with what its operation acts on named, when the row names it ([`Cli::objects`]):
    /// the group words then belong to the operation (`prisma migrate reset` destroys the
    /// database, not `migrate`).
    fn named(&self, mut d: Destroy) -> Destroy {
        let object = self
            .objects
            .iter()
            .find(|(op, _)| *op == d.operation || op.is_empty());
        if let Some((_, object)) = object {
            // The command path as written: `migrate reset`, `migrate:rollback`.
            let join = match self.path {
                Path::Colon => ":",
                Path::Dot => ".",
                _ => " ",
            };
            let path = [d.service.as_str(), d.operation.as_str()];
            d.operation = path
                .iter()
                .filter(|w| !w.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(join);
            d.service = (*object).to_string();
        }
        d
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
        // `nomad alloc stop ID`: a group whose operations are routine.
        if service.iter().any(|s| self.routine.contains(s)) {
            return None;
        }
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

/// Whether `xargs` runs `c` with the words it reads (`… | xargs redis-cli del`).
fn fed_by_xargs(c: &SimpleCommand) -> bool {
    c.via
        .iter()
        .any(|v| v.split_whitespace().next() == Some("xargs"))
}

/// Flags with which an operation only shows what it would do, or its help, or only records
/// that it ran (`manage.py migrate app zero --fake`: the migration table is updated, no
/// table is touched).
const NO_RUN: &[&str] = &["--help", "--dry-run", "--dryrun", "-dry-run", "--fake"];

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

/// Why the command a data-store client sends cannot be judged now: its command word is only
/// known at run time (`redis-cli $(echo FLUSHALL)`, `redis-cli "$CMD"`). `None` for any
/// other command, and for a client whose command is known or comes from a file or its
/// standard input.
pub(crate) fn unknown_command(c: &SimpleCommand) -> Option<String> {
    if c.dynamic_program {
        return None;
    }
    let base = c.basename();
    let row = CLIS.iter().find(|r| r.names.contains(&base))?;
    let Path::Command { valued } = row.path else {
        return None;
    };
    let mut words = c.args.iter().take_while(|a| a.text != "--");
    while let Some(a) = words.next() {
        let t = a.text.as_str();
        if t == EVAL_FILE {
            return None;
        }
        if t == CLUSTER || valued.contains(&t) {
            words.next();
            if t == CLUSTER {
                words.next();
            }
        } else if a.dynamic {
            return Some(format!(
                "the command `{base}` sends its server (`{}`) is only known at run time",
                c.display()
            ));
        } else if !t.starts_with('-') {
            return None;
        }
    }
    None
}

/// Whether `c` names a document its CLI reads from a file for an operation judged by value
/// (`file://` / `fileb://`, or an operand ending in `.json` / `.yaml` / `.yml`), or a file
/// of the commands a data-store client sends (`redis-cli --eval FILE`, `redis-cli <
/// cmds.txt`): only such a command is judged again with the files read.
pub(crate) fn names_files(c: &SimpleCommand) -> bool {
    let base = c.basename();
    let Some(row) = CLIS.iter().find(|r| r.names.contains(&base)) else {
        return false;
    };
    if matches!(row.path, Path::Command { .. }) {
        return !command_files(c).is_empty();
    }
    (!row.given.is_empty() || !row.operands.is_empty())
        && c.args.iter().any(|a| {
            let t = a.text.to_ascii_lowercase();
            FILE_VALUE.iter().any(|p| t.contains(p))
                || [".json", ".yaml", ".yml"].iter().any(|e| t.ends_with(e))
        })
}

/// What of `c`'s judgement depends on a file it reads (see [`names_files`]), for the reason
/// given when the file cannot be read.
pub(crate) fn depends_on_file(c: &SimpleCommand) -> String {
    let base = c.basename();
    let commands = CLIS
        .iter()
        .find(|r| r.names.contains(&base))
        .is_some_and(|r| matches!(r.path, Path::Command { .. }));
    if commands {
        format!(
            "which commands `{}` sends its server depends on a file it reads",
            c.display()
        )
    } else {
        format!(
            "whether `{}` makes what it changes public depends on a document it reads from a file",
            c.display()
        )
    }
}

/// Scripts that are CLIs of the command model when an interpreter runs them by path
/// (`python manage.py flush`, `python3 ./manage.py reset_db`, `php artisan db:wipe`).
const SCRIPT_CLIS: &[(&str, &str)] = &[("python", "manage.py"), ("php", "artisan")];

/// Modules that are CLIs of the command model when Python runs them (`python -m django
/// flush` is `django-admin flush`).
const MODULE_CLIS: &[(&str, &str)] = &[("django", "django-admin")];

/// Package managers whose first word, when it is none of their own commands, runs the
/// project's script or else its installed bin of that name (`pnpm prisma migrate reset`,
/// `yarn knex migrate:rollback`, `bun prisma db push`), and whether their `run` does the same
/// (`yarn run knex …`, `bun run prisma …`; `pnpm run` runs only scripts). No CLI of the
/// command model is named like a command of theirs (`install`, `test`, `run`), so a CLI's
/// name is its bin.
const BIN_RUNNERS: &[(&str, bool)] = &[("pnpm", false), ("yarn", true), ("bun", true)];

/// `c` as the command of the CLI it runs, when that is a CLI of the command model by
/// another name: the script its interpreter runs (`python manage.py flush` as `manage.py
/// flush`, [`SCRIPT_CLIS`]), the module Python runs ([`MODULE_CLIS`]), or the bin a package
/// manager runs ([`BIN_RUNNERS`]).
fn script_cli(c: &SimpleCommand) -> Option<SimpleCommand> {
    let base = c.basename();
    let (first, rest) = c.args.split_first()?;
    if first.dynamic {
        return None;
    }
    let script = first.text.rsplit('/').next().unwrap_or(&first.text);
    let inner = |program: &str, args: &[Arg]| {
        SimpleCommand::plain(program, args.to_vec(), c.cwd.as_deref())
    };
    if SCRIPT_CLIS
        .iter()
        .any(|(runner, s)| base.starts_with(runner) && *s == script)
    {
        return Some(inner(&first.text, rest));
    }
    if base.starts_with("python") && first.text == "-m" {
        let (module, args) = rest.split_first()?;
        let (_, cli) = MODULE_CLIS
            .iter()
            .find(|(m, _)| !module.dynamic && *m == module.text)?;
        return Some(inner(cli, args));
    }
    let (_, run) = BIN_RUNNERS.iter().find(|(m, _)| *m == base)?;
    let words = manager_command(base, &c.args)?;
    let (first, rest) = words.split_first()?;
    // `yarn run knex …`: the bin after the manager's `run`.
    let (bin, args) = match rest.split_first() {
        Some((bin, args)) if *run && first.text == "run" && !bin.dynamic => (bin, args),
        _ => (first, rest),
    };
    if bin.dynamic {
        return None;
    }
    CLIS.iter()
        .any(|r| r.names.contains(&bin.text.as_str()))
        .then(|| inner(&bin.text, args))
}

/// The words of a package manager's line from its command on: its options before the
/// command skipped by their arity (the program table's [`globals`](super::globals): `pnpm -C
/// api`, `pnpm --filter api`, `yarn --cwd api`; a flag such as `pnpm -w` takes none), and
/// `yarn workspace NAME` (the command runs in that workspace). `None` when an option's value
/// or the workspace is missing.
fn manager_command<'a>(manager: &str, args: &'a [Arg]) -> Option<&'a [Arg]> {
    let valued = super::globals::of(manager).map_or(&[][..], |g| g.valued);
    let mut at = 0;
    while let Some(a) = args.get(at) {
        let t = a.text.as_str();
        if t == "--" {
            at += 1;
            break;
        }
        if !t.starts_with('-') || t.len() < 2 {
            break;
        }
        at += if valued.contains(&t) { 2 } else { 1 };
    }
    let words = args.get(at..)?;
    match words {
        [w, _name, rest @ ..] if manager == "yarn" && w.text == "workspace" => Some(rest),
        _ => Some(words),
    }
}

/// The resources `c` destroys, the documents its values name read through `files`.
pub(crate) fn destroys_reading(c: &SimpleCommand, files: &Files) -> Option<Destroy> {
    if c.dynamic_program || c.program.is_empty() {
        return None;
    }
    // `python manage.py flush`: the script is the CLI.
    if let Some(script) = script_cli(c) {
        return destroys_reading(&script, files);
    }
    // The CLI's row first: most commands are no cloud CLI, and need no flag scan.
    let base = c.basename();
    let row = CLIS.iter().find(|r| r.names.contains(&base))?;
    // A development or test database on this machine (`dropdb app_test`) is everyday work.
    let local = matches!(row.path, Path::Always | Path::Command { .. });
    if no_run(c) || (local && super::database::local_dev(c)) {
        return None;
    }
    row.read(c, files).map(|d| row.named(d))
}

#[cfg(test)]
#[path = "infra_tests.rs"]
mod tests;
