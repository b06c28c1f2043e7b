//! Searches that print secrets: a search below folders that may hold secret files (`grep -r
//! API_KEY .`, `rg -uu TOKEN`, `git grep --no-index SECRET`, `find . -type f | xargs cat`)
//! prints the lines of the `.env` files it reaches when its pattern looks for secret values
//! or narrows nothing. Such a search is a read of `ROOT/**/.env` (or, for a search that only
//! reads ignored files, `ROOT/**/*.key`), judged as any read of a secret. A search for
//! anything else (`grep -r TODO .`), one that prints only names or counts (`grep -rl`), one
//! narrowed to kinds of files (`--include='*.py'`, `rg -t py`) or one below a source folder
//! (`src/`) reads no secret. Below a home's settings folder (`~/.config`, `~/.local/share`,
//! `~/.docker`), where tools keep credential files of any name, a lower-case credential key
//! (`grep -r token ~/.config`) is a secret pattern and hidden files need no switch; so is it
//! below a home itself for a search that walks its hidden folders (`grep -r token ~`).

use super::out::{Out, read};
use crate::effects::programs::search::{
    DUMPERS, dump_pattern, home_root, home_settings_folder, may_hold_secrets, secret_pattern,
};
use crate::effects::programs::{Parsed, Role, Switch};
use crate::shell::{Arg, SimpleCommand};

/// What `find` lists in place of each name it finds below a folder (`./…`).
const FOUND: &str = "/…";

/// Whether the command runs once per name another program lists (`xargs`, `find -exec`).
fn fed_names(c: &SimpleCommand) -> bool {
    c.via
        .last()
        .is_some_and(|w| w == "xargs" || w.starts_with("find -exec") || w.starts_with("find -ok"))
}

/// The folder every file below which an operand stands for: `./…` (a name `find` lists
/// below `.`), or, fed by `xargs` / `find -exec`, a folder `find` lists with all below it.
/// (The start folder and names `find` lists are only known in this form.)
fn every_file_below(a: &Arg, fed: bool) -> Option<String> {
    if let Some(base) = a.text.strip_suffix(FOUND) {
        return Some(if base.is_empty() {
            ".".into()
        } else {
            base.into()
        });
    }
    // `find . | xargs cat`: `find` lists the folder itself, then all below it. (Only a
    // folder by its spelling: `echo notes | xargs cat` names a file.)
    let folder =
        matches!(a.text.as_str(), "." | ".." | "~" | "/" | "$HOME") || a.text.ends_with('/');
    (fed && folder && !a.dynamic).then(|| a.text.clone())
}

/// Add the secret files a search or a dump reaches as reads.
pub(super) fn secret_reach(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let fed = fed_names(c);
    // `find . -type f | xargs cat`: every file below the folder is printed.
    if DUMPERS.contains(&c.basename()) {
        for (_, a) in p.operands.iter().filter(|(r, _)| *r == Role::Read) {
            if let Some(base) = every_file_below(a, fed)
                && may_hold_secrets(&base)
            {
                reach(&base, a.dynamic, ".env", c, out);
            }
        }
        return;
    }
    let Some(search) = p.row.search else {
        return;
    };
    if p.has(Switch::NamesOnly)
        || p.values_of(Role::Filter).next().is_some()
        || p.values_of(Role::Glob).any(|g| !g.text.starts_with('!'))
    {
        return;
    }
    let patterns: Vec<&Arg> = p
        .values_of(Role::Pattern)
        .chain(p.operands_of(Role::Pattern))
        .collect();
    let ignore_case = p.has(Switch::IgnoreCase);
    // Whether the search prints secret values below a root: in a home's settings folder a
    // lower-case credential key (`token`, `key`) counts as an upper-case one does elsewhere.
    let prints_secrets = |settings: bool| {
        !patterns.is_empty()
            && patterns.iter().all(|a| !a.dynamic)
            && (p.has(Switch::Invert)
                || patterns.iter().any(|a| {
                    dump_pattern(&a.text) || secret_pattern(&a.text, ignore_case || settings)
                }))
    };
    if !prints_secrets(false) && !prints_secrets(true) {
        return;
    }
    let unrestricted = p
        .switches
        .iter()
        .filter(|s| **s == Switch::Unrestricted)
        .count();
    let hidden = search.hidden || p.has(Switch::Hidden) || unrestricted >= 2;
    let ignored = p.has(Switch::NoIgnore) || unrestricted >= 1;
    let walks = !search.needs_recursive || p.has(Switch::Recursive);
    let mut roots: Vec<(String, bool, bool)> = Vec::new();
    for a in p.operands_of(Role::Read) {
        if let Some(base) = every_file_below(a, fed) {
            // `find . -type f | xargs grep TOKEN`: `find` lists hidden files too.
            roots.push((base, a.dynamic, true));
        } else if walks {
            roots.push((a.text.clone(), a.dynamic, hidden));
        }
    }
    if p.operands_of(Role::Read).next().is_none() && search.cwd && walks {
        roots.push((".".into(), false, hidden));
    }
    for (root, dynamic, hidden) in roots {
        // A home's settings folder (`~/.config`, `~/.docker`) holds credential files of any
        // name, none of them hidden below it: every walk reaches them.
        let settings = home_settings_folder(&root);
        let keys = settings || (hidden && home_root(&root));
        if !may_hold_secrets(&root) || !prints_secrets(keys) {
            continue;
        }
        if hidden || settings {
            reach(&root, dynamic, ".env", c, out);
        } else if ignored {
            reach(&root, dynamic, "*.key", c, out);
        }
    }
}

/// A read of the secret files named `name` anywhere below `root`.
fn reach(root: &str, dynamic: bool, name: &str, c: &SimpleCommand, out: &mut Out) {
    let base = root.trim_end_matches('/');
    let base = if base.is_empty() { "/" } else { base };
    let sep = if base.ends_with('/') { "" } else { "/" };
    read(
        &Arg {
            text: format!("{base}{sep}**/{name}"),
            dynamic,
        },
        c,
        out,
    );
}
