//! Documents a command reads from files it names, and what they make it do: a cloud CLI's
//! policy given by file (`aws s3api put-bucket-policy --policy file://policy.json`, `gcloud
//! projects set-iam-policy p policy.json`) is judged as the same document given inline.
//!
//! In: the call's effects and the shell environment. Out: a [`What::Destroy`] beside the
//! command when the document exposes what the operation changes (a public principal, an
//! `allUsers` binding), judged by the cloud command model
//! ([`destroys_reading`](super::programs::infra::destroys_reading)), and so are the commands a
//! data-store client reads from a file (`redis-cli --eval FILE`, `redis-cli < cmds.txt`); a
//! [`What::Unsure`] naming
//! the file and why when a document it needs cannot be read. A document comes from what the
//! same line wrote to the file (`cat > p.json <<EOF … EOF && aws …`), else from the file on
//! disk, relative to the command's folder: a regular file of at most
//! [`MAX_SCRIPT`](super::scripts::disk::MAX_SCRIPT) bytes, read the way scripts run by path
//! are ([`read_script`]).

use super::model::{Effect, Effects, What};
use super::programs::infra::{Files, depends_on_file, destroys, destroys_reading, names_files};
use super::scripts::{Disk, read_script};
use crate::shell::SimpleCommand;
use crate::shell_env::ShellEnv;

/// A path without a leading `./`.
fn plain(t: &str) -> &str {
    t.strip_prefix("./").unwrap_or(t)
}

/// The text of the file `path` (as `c` names it) when `c` runs: what an effect in `before`
/// wrote to it, else the file on disk. `Disk::Missing` when it is neither.
pub(crate) fn text_of(before: &[Effect], path: &str, c: &SimpleCommand, env: &ShellEnv) -> Disk {
    let written = before.iter().rev().find_map(|w| match &w.what {
        What::Write {
            path: p,
            content: Some(text),
            ..
        } if !p.dynamic && plain(&p.text) == plain(path) => Some(text.clone()),
        _ => None,
    });
    if let Some(text) = written {
        return Disk::Text(text);
    }
    match crate::paths::normalize(path, c.cwd.as_deref(), &env.home) {
        Some(abs) => read_script(&abs, path),
        None => Disk::Problem(format!("the folder `{path}` is relative to is not known")),
    }
}

/// Judge again, with the documents they name read, the cloud commands whose operation a
/// document given by file decides.
pub(crate) fn cloud_documents(fx: &mut Effects, env: &ShellEnv) {
    // Only the commands that name a document and are not judged already.
    let judged = fx
        .list
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.what {
            What::Run(c) if names_files(c) && destroys(c).is_none() => Some((i, c, e)),
            _ => None,
        });
    let mut found = Vec::new();
    for (i, c, e) in judged {
        let before = fx.list.get(..i).unwrap_or_default();
        let read = |path: &str| match text_of(before, path, c, env) {
            Disk::Text(t) => Ok(t),
            Disk::Missing => Err(format!("`{path}` is not there")),
            Disk::Binary => Err(format!("`{path}` is not a text document")),
            Disk::Problem(why) => Err(why),
        };
        let files = Files {
            read: &read,
            problems: Default::default(),
        };
        if let Some(d) = destroys_reading(c, &files) {
            found.push((
                What::Destroy {
                    cli: d.cli,
                    service: d.service,
                    operation: d.operation,
                    targets: d.targets,
                },
                e.route.clone(),
            ));
        } else if let Some(why) = files.problems.into_inner().first() {
            found.push((
                What::Unsure(format!("{}, and {why}", depends_on_file(c))),
                e.route.clone(),
            ));
        }
    }
    for (w, r) in found {
        fx.push(w, r);
    }
}
