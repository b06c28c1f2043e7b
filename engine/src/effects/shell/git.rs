//! `git` and scheduled jobs: the files `git` reads and writes, the configuration keys
//! that run shell text (`alias.x=!sh`, `core.pager`), `crontab` and `at`.

use super::out::{Out, delete, read, write};
use crate::effects::model::{BodySource, PathRef, What};
use crate::effects::programs::globals::GIT;
use crate::effects::programs::{Parsed, Role, Switch};
use crate::shell::{Arg, SimpleCommand};

/// `git update-ref -d REF`: the ref's file deleted. `git checkout`: the paths it overwrites. `git diff|log|show|blame|cat-file|archive …`:
/// the paths they print. A `REV:path`
/// operand names the blob at `path`; `show` and `cat-file` read only those and the paths
/// after `--`, the others every operand (a revision read as a path names nothing).
/// Returns whether the subcommand was one of these.
pub(super) fn git_files(c: &SimpleCommand, p: &Parsed, out: &mut Out) -> bool {
    let Some(sub) = p.sub.first().map(String::as_str) else {
        return false;
    };
    if sub == "reset" {
        // `git reset --hard` overwrites the working tree.
        if c.args
            .iter()
            .any(|a| matches!(a.text.as_str(), "--hard" | "--merge" | "--keep"))
        {
            write(
                &Arg {
                    text: ".".into(),
                    dynamic: false,
                },
                false,
                c,
                out,
            );
        }
        return true;
    }
    if sub == "update-ref" {
        // `git update-ref -d refs/heads/main`: the ref's file in `.git` is deleted (a packed
        // ref too, which the file stands for); `HEAD`: the branch it points to.
        if p.has(Switch::Delete)
            && let Some((_, r)) = p.operands.first()
        {
            let file = if r.text == "HEAD" {
                ".git/refs/heads".to_string()
            } else {
                format!(".git/{}", r.text)
            };
            delete(
                &Arg {
                    text: file,
                    dynamic: r.dynamic,
                },
                false,
                c,
                out,
            );
        }
        return true;
    }
    if sub == "checkout" {
        // `git checkout REV -- PATHS`, `git checkout REV PATHS`, `git checkout .`: the paths
        // are overwritten; a lone `git checkout main` switches branches.
        for (k, (_, a)) in p.operands.iter().enumerate() {
            let is_path = if p.before_dashes == usize::MAX {
                k > 0 || a.text == "."
            } else {
                k >= p.before_dashes
            };
            if is_path {
                write(a, false, c, out);
            }
        }
        return true;
    }
    let history = matches!(
        sub,
        "diff"
            | "log"
            | "show"
            | "blame"
            | "annotate"
            | "cat-file"
            | "whatchanged"
            | "archive"
            | "difftool"
    );
    if !history {
        return false;
    }
    // `show` and `cat-file` name revisions and blobs; `archive TREE PATHS…` names paths
    // after its tree.
    let blobs_only = matches!(sub, "show" | "cat-file");
    for (k, (role, a)) in p.operands.iter().enumerate() {
        if *role != Role::Read {
            continue;
        }
        if let Some((_, path_part)) = a.text.split_once(':') {
            if !path_part.is_empty() {
                read(
                    &Arg {
                        text: path_part.to_string(),
                        dynamic: a.dynamic,
                    },
                    c,
                    out,
                );
            }
        } else if (sub == "archive" && k > 0)
            || (sub != "archive" && !blobs_only)
            || k >= p.before_dashes
        {
            read(a, c, out);
        }
    }
    true
}

/// The subcommands that send the repository's content somewhere: a push (to a remote, which
/// may be a new one), a bundle or an archive of it (a file or standard output, often piped
/// on: `git archive HEAD | curl -T - …`).
const SENDS_REPOSITORY: &[&str] = &["push", "bundle", "archive"];

/// `git [-C DIR]… [--work-tree DIR] push|bundle|archive …` sends what the repository holds:
/// its work tree is read. The repository is the folder `-C` names (each `-C` relative to the
/// one before, git(1)), or `--work-tree`, or the working directory when the line changed it
/// (`moved`: `cd ~/.ssh && git push`): a repository made in a secret folder (`git -C ~/.ssh
/// push`) reads that folder, as `tar` or `scp -r` of it does. A push from the folder the
/// call starts in (the project) reads nothing here, nor do other subcommands (`git -C ../lib
/// status`).
pub(super) fn sent_repository(c: &SimpleCommand, moved: bool, out: &mut Out) {
    let mut dir: Option<Arg> = None;
    let mut work_tree: Option<Arg> = None;
    let mut sub: Option<&str> = None;
    let mut words = c.args.iter();
    while let Some(a) = words.next() {
        let t = a.text.as_str();
        if let Some(v) = t.strip_prefix("--work-tree=") {
            work_tree = Some(Arg {
                text: v.to_string(),
                dynamic: a.dynamic,
            });
        } else if t == "-C" || t == "--work-tree" {
            let Some(v) = words.next() else { break };
            if t == "--work-tree" {
                work_tree = Some(v.clone());
            } else if !v.text.is_empty() {
                dir = Some(match dir {
                    Some(d) if !v.text.starts_with(['/', '~']) => Arg {
                        text: format!("{}/{}", d.text.trim_end_matches('/'), v.text),
                        dynamic: d.dynamic || v.dynamic,
                    },
                    _ => v.clone(),
                });
            }
        } else if GIT.contains(&t) {
            words.next();
        } else if !t.starts_with('-') {
            sub = Some(t);
            break;
        }
    }
    if !sub.is_some_and(|s| SENDS_REPOSITORY.contains(&s)) {
        return;
    }
    let folder = match work_tree.or(dir) {
        Some(f) => f,
        None if moved => Arg {
            text: ".".into(),
            dynamic: false,
        },
        None => return,
    };
    read(&folder, c, out);
}

/// `git -c KEY=VALUE`: a config value that is shell text (`alias.x=!sh …`,
/// `core.sshCommand`, `core.pager`, `core.editor`, `core.fsmonitor`, a filter or diff
/// driver) runs when git uses it; it is analysed as a command line.
pub(super) fn git_config(c: &SimpleCommand, out: &mut Out) {
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        // `--config-env KEY=ENVVAR`: the value comes from the environment.
        let from_env = t == "--config-env" || t.starts_with("--config-env=");
        let kv = if t == "-c" || t == "--config-env" {
            i += 1;
            c.args.get(i).cloned()
        } else if let Some(v) = t.strip_prefix("--config-env=") {
            Some(Arg {
                text: v.to_string(),
                dynamic: a.dynamic,
            })
        } else if crate::effects::programs::globals::GIT.contains(&t) {
            // A global option's value, not the subcommand.
            i += 2;
            continue;
        } else if !t.starts_with('-') {
            // The subcommand: `-c` after it is the subcommand's own option.
            break;
        } else {
            None
        };
        i += 1;
        let Some(mut kv) = kv else { continue };
        kv.dynamic |= from_env;
        let kv = &kv;
        let Some((key, value)) = kv.text.split_once('=') else {
            continue;
        };
        if git_key_runs_shell(key, value) {
            out.scripts.push((
                format!("git -c {key}"),
                Arg {
                    text: value.trim_start_matches('!').to_string(),
                    dynamic: kv.dynamic,
                },
            ));
        } else if matches!(
            key.to_ascii_lowercase().as_str(),
            "core.hookspath" | "include.path"
        ) {
            // Hooks or config from a folder the call names.
            out.push(What::Read(PathRef::new(value, c.cwd.as_deref())));
        }
    }
    if c.args.get(i).is_some_and(|a| a.text == "config") {
        git_config_set(c.args.get(i + 1..).unwrap_or(&[]), out);
    }
}

/// `git config [--global] KEY VALUE`, `git config set KEY VALUE`: a value that is shell text
/// ([`git_key_runs_shell`]) runs whenever git later uses it (`alias.x '!curl … | sh'`), so it
/// is analysed as a command line the way `git -c` is.
fn git_config_set(rest: &[Arg], out: &mut Out) {
    let Some((key, value)) = config_key_value(rest) else {
        return;
    };
    if git_key_runs_shell(&key.text, &value.text) {
        out.scripts.push((
            format!("git config {}", key.text),
            Arg {
                text: value.text.trim_start_matches('!').to_string(),
                dynamic: key.dynamic || value.dynamic,
            },
        ));
    }
}

/// The key and value `git config` sets (`git [-C DIR] config [--global] KEY VALUE`, `git
/// config set KEY VALUE`), if it sets one: not when it reads, lists, removes or edits.
pub(crate) fn config_set(c: &SimpleCommand) -> Option<(&Arg, &Arg)> {
    if c.dynamic_program || c.basename() != "git" {
        return None;
    }
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        if t == "-c" || t == "--config-env" || crate::effects::programs::globals::GIT.contains(&t) {
            i += 2;
        } else if t.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    if c.args.get(i).is_none_or(|a| a.text != "config") {
        return None;
    }
    config_key_value(c.args.get(i + 1..).unwrap_or(&[]))
}

/// The key and value of `git config`'s words after `config`, if they set one.
fn config_key_value(rest: &[Arg]) -> Option<(&Arg, &Arg)> {
    // Options that take a value.
    const VALUED: &[&str] = &["-f", "--file", "--blob", "--type", "--default", "--comment"];
    // Modes that read or remove instead of setting.
    const NOT_SETTING: &[&str] = &[
        "get",
        "unset",
        "list",
        "rename-section",
        "remove-section",
        "edit",
        "-l",
        "--list",
        "-e",
        "--edit",
    ];
    let mut words: Vec<&Arg> = Vec::new();
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        let t = a.text.as_str();
        if NOT_SETTING.contains(&t)
            || t.starts_with("--get")
            || t.starts_with("--unset")
            || t.starts_with("--rename")
            || t.starts_with("--remove")
        {
            return None;
        }
        if VALUED.contains(&t) {
            k += 2;
            continue;
        }
        // `git config set KEY VALUE` (git 2.46): the mode word is not the key.
        let mode = words.is_empty() && t == "set";
        if !t.starts_with('-') && !mode {
            words.push(a);
        }
        k += 1;
    }
    Some((words.first()?, words.get(1)?))
}

/// `crontab -`, `at now + 1 minute`, `batch`: the jobs they install from standard input run
/// later without anyone asking, so text known now (`echo '* * * * * curl … | sh' | crontab
/// -`, a here-document) is analysed as command lines: the command of every cron line, or
/// the whole `at` script. (A cron table written to a file runs through the content lens.)
pub(super) fn scheduled_jobs(c: &SimpleCommand, out: &mut Out) {
    // Jobs known now are judged even when more come from a source only known at run time
    // (`(crontab -l; echo '* * * * * curl … | sh') | crontab -` keeps the existing table).
    let Some((text, _complete)) = c.stdin_known_text() else {
        return;
    };
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    // Listing, removing or editing; or a job file named instead of standard input: a short
    // option letter among `letters`, alone or in a cluster (`-lu`).
    let other = |letters: &str| {
        words.iter().any(|w| {
            w.strip_prefix('-')
                .filter(|o| !o.starts_with('-'))
                .is_some_and(|o| o.chars().any(|ch| letters.contains(ch)))
        })
    };
    if c.basename() == "crontab" {
        // `crontab [-u USER] [-]`: a named file is the table instead.
        let file = words.iter().enumerate().any(|(k, w)| {
            !w.starts_with('-') && k.checked_sub(1).and_then(|p| words.get(p)) != Some(&"-u")
        });
        if other("lrei") || file {
            return;
        }
        for line in crate::effects::executed::cron_commands(text, false) {
            out.scripts.push((
                "crontab -".to_string(),
                Arg {
                    text: line,
                    dynamic: false,
                },
            ));
        }
    } else if !other("lrdcf") {
        out.scripts.push((
            c.basename().to_string(),
            Arg {
                text: text.to_string(),
                dynamic: false,
            },
        ));
    }
}

/// Whether git runs the value of config `key` as shell text: an alias starting with `!`,
/// `core.sshCommand`, `core.pager`, `core.editor`, `core.fsmonitor`, a filter or diff driver,
/// …
fn git_key_runs_shell(key: &str, value: &str) -> bool {
    let k = key.to_ascii_lowercase();
    (k.starts_with("alias.") && value.starts_with('!'))
        || matches!(
            k.as_str(),
            "core.sshcommand"
                | "core.pager"
                | "core.editor"
                | "core.fsmonitor"
                | "core.askpass"
                | "core.gitproxy"
                | "sequence.editor"
                | "diff.external"
                | "credential.helper"
                | "gpg.program"
                | "uploadpack.packobjectshook"
        )
        || k.starts_with("pager.")
        || (k.starts_with("filter.")
            && (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process")))
        || (k.starts_with("diff.") && (k.ends_with(".textconv") || k.ends_with(".command")))
        || (k.starts_with("merge.") && k.ends_with(".driver"))
}

/// The folder a clone or checkout fills with what it fetched: `git clone URL [DIR]`, `gh repo
/// clone REPO [DIR]`, `hg clone URL [DIR]`, `svn checkout|co URL [DIR]`: DIR, or the last
/// component of the URL or repository without `.git` (`git clone https://h/u/tool.git` →
/// `tool`). `None` for any other command, or when the folder is only known at run time.
pub(super) fn fetched_folder(c: &SimpleCommand) -> Option<String> {
    let words: Vec<Arg> = match c.basename() {
        "git" | "hg" | "svn" => {
            let p = crate::effects::programs::parse(c)?;
            let sub = p.sub.first().map(String::as_str);
            let fills = matches!(
                (c.basename(), sub),
                ("git" | "hg", Some("clone")) | ("svn", Some("checkout" | "co"))
            );
            if !fills {
                return None;
            }
            p.operands.into_iter().map(|(_, a)| a).collect()
        }
        "gh" => {
            let at = c
                .args
                .windows(2)
                .position(|w| w[0].text == "repo" && w[1].text == "clone")?;
            c.args[at + 2..]
                .iter()
                .take_while(|a| a.text != "--")
                .filter(|a| !a.text.starts_with('-'))
                .cloned()
                .collect()
        }
        _ => return None,
    };
    let folder = match words.as_slice() {
        [_, dir, ..] => dir.clone(),
        [source] => {
            let name = source
                .text
                .trim_end_matches('/')
                .rsplit(['/', ':'])
                .next()
                .unwrap_or("");
            Arg {
                text: name.trim_end_matches(".git").to_string(),
                dynamic: source.dynamic,
            }
        }
        [] => return None,
    };
    (!folder.dynamic && !folder.text.is_empty()).then_some(folder.text)
}

/// git-send-email(1) options that take a value in the next word (or after `=`); `--to`,
/// `--cc` and `--bcc` give the addresses mailed.
const SEND_EMAIL_VALUED: &[&str] = &[
    "--to",
    "--cc",
    "--bcc",
    "--from",
    "--subject",
    "--in-reply-to",
    "--reply-to",
    "--sender",
    "--smtp-server",
    "--smtp-server-port",
    "--smtp-user",
    "--smtp-pass",
    "--smtp-encryption",
    "--smtp-domain",
    "--to-cmd",
    "--cc-cmd",
    "--header-cmd",
    "--identity",
    "--compose-encoding",
    "--transfer-encoding",
    "--8bit-encoding",
    "--batch-size",
    "--relogin-delay",
];

/// `git send-email [--to ADDR] FILE…|REVISIONS` (git-send-email(1)): each file operand is
/// mailed as it is, a revision range (`HEAD~3`, `origin/main..`) as patches of the project's
/// history (`.git`): a send to the host of each `--to` / `--cc` / `--bcc` address (one known
/// only at run time without one) whose body is those files. Returns whether the command was
/// one.
pub(super) fn git_send_email(c: &SimpleCommand, out: &mut Out) -> bool {
    let pos = crate::shell::operands::positionals(c);
    if pos.first().is_none_or(|s| s.text != "send-email") {
        return false;
    }
    let mut hosts: Vec<Arg> = Vec::new();
    let mut body: Vec<BodySource> = Vec::new();
    let mut started = false;
    let mut args = c.args.iter();
    while let Some(a) = args.next() {
        if !started {
            started = a.text == "send-email";
            continue;
        }
        let t = a.text.as_str();
        let (name, value) = match t.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (t, None),
        };
        if SEND_EMAIL_VALUED.contains(&name) {
            let v = value.or_else(|| args.next().map(|n| n.text.clone()));
            if matches!(name, "--to" | "--cc" | "--bcc")
                && let Some(v) = v
            {
                hosts.extend(v.split(',').map(|addr| Arg {
                    text: addr.trim().to_string(),
                    dynamic: a.dynamic,
                }));
            }
            continue;
        }
        if t.starts_with('-') {
            continue;
        }
        // A path (`~/.ssh/id_rsa`, `./0001-x.patch`, `/tmp/p`) is a file; `HEAD~3`,
        // `origin/main..`, `v1^` are revisions.
        let revision = !t.starts_with(['~', '/', '.'])
            && (t.contains("..") || t.starts_with("HEAD") || t.contains(['~', '^']));
        if revision {
            body.push(BodySource::File(PathRef::new(".git", c.cwd.as_deref())));
        } else {
            read(a, c, out);
            body.push(BodySource::File(PathRef::from_arg(a, c.cwd.as_deref())));
        }
    }
    if hosts.is_empty() {
        hosts.push(Arg {
            text: String::new(),
            dynamic: true,
        });
    }
    for h in &hosts {
        out.push(super::request::send_host(h, None, body.clone()));
    }
    true
}
