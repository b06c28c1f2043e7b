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

use super::out::{Out, command_route, read};
use crate::effects::programs::search::{
    DUMPERS, dump_pattern, home_root, home_settings_folder, may_hold_secrets, secret_pattern,
};
use std::ops::Range;

use crate::effects::model::{Effects, PathRef, What};
use crate::effects::programs::{Parsed, Role, Switch, parse};
use crate::shell::{Arg, ShellAnalysis, SimpleCommand};

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
    let prints_secrets = |settings: bool| prints_secret_lines(p, settings);
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
    // `git grep KEY HEAD~20`: the search reads the project's files as committed (hidden ones
    // and ones deleted or ignored since included), below its paths or the whole repository.
    if c.basename() == "git" && searches_history(p) {
        for root in history_roots(p) {
            roots.push((root, false, true));
        }
    }
    for a in p.operands_of(Role::Read) {
        if is_revision(a) || (c.basename() == "git" && searches_history(p)) {
            continue;
        }
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

/// Whether a search prints the lines its patterns match and one of them looks for secret
/// values (a secret-like name, a token prefix, a dump pattern; with `-v`, any pattern prints
/// what it does not match): in a home's settings folder (`settings`) a lower-case credential
/// key (`token`, `key`) counts as an upper-case one does elsewhere. A pattern known only at
/// run time cannot be judged.
pub(super) fn prints_secret_lines(p: &Parsed, settings: bool) -> bool {
    let patterns: Vec<&Arg> = p
        .values_of(Role::Pattern)
        .chain(p.operands_of(Role::Pattern))
        .collect();
    let ignore_case = p.has(Switch::IgnoreCase);
    !patterns.is_empty()
        && patterns.iter().all(|a| !a.dynamic)
        && (p.has(Switch::Invert)
            || patterns
                .iter()
                .any(|a| dump_pattern(&a.text) || secret_pattern(&a.text, ignore_case || settings)))
}

/// Whether a search looks for secret values in what it is given: a pattern known now that
/// names a secret or a token format (not `-v`: printing what does not match a word only
/// repeats its input).
fn seeks_secrets(p: &Parsed) -> bool {
    let ignore_case = p.has(Switch::IgnoreCase);
    let mut patterns = p
        .values_of(Role::Pattern)
        .chain(p.operands_of(Role::Pattern))
        .peekable();
    patterns.peek().is_some()
        && !p.has(Switch::Invert)
        && !p.has(Switch::NamesOnly)
        && patterns.all(|a| !a.dynamic)
        && p.values_of(Role::Pattern)
            .chain(p.operands_of(Role::Pattern))
            .any(|a| secret_pattern(&a.text, ignore_case))
}

/// Whether a `git grep` operand names a revision by its spelling (`HEAD~20`, `HEAD^`, `@{1}`,
/// `main..topic`, an abbreviated or full object name); a substitution's commits are read
/// from the line ([`history_searched`]).
fn is_revision(a: &Arg) -> bool {
    let t = a.text.as_str();
    if a.dynamic {
        return false;
    }
    let hex = t.len() >= 7
        && t.len() <= 40
        && t.chars().all(|ch| ch.is_ascii_hexdigit())
        && t.chars().any(|ch| ch.is_ascii_digit());
    hex || t.starts_with("HEAD~")
        || t.starts_with("HEAD^")
        || t.starts_with("@{")
        || (t.contains("..") && !t.starts_with(['.', '/', '~']))
}

/// Whether a `git grep` searches commits (its operands before `--` name revisions).
fn searches_history(p: &Parsed) -> bool {
    p.operands
        .iter()
        .take(p.before_dashes)
        .any(|(r, a)| *r == Role::Read && is_revision(a))
}

/// The folders a `git grep` of commits searches: its paths after `--` that may hold secret
/// files, else the whole repository.
fn history_roots(p: &Parsed) -> Vec<String> {
    let paths: Vec<&Arg> = p
        .operands
        .iter()
        .skip(p.before_dashes)
        .filter(|(r, _)| *r == Role::Read)
        .map(|(_, a)| a)
        .collect();
    if paths.is_empty() {
        return vec![".".into()];
    }
    paths
        .into_iter()
        .filter(|a| !a.dynamic && may_hold_secrets(&a.text))
        .map(|a| a.text.clone())
        .collect()
}

/// `git log -p -S password`, `git log -G 'API_KEY' --patch`: the patches of every commit
/// that added or removed text matching a secret pattern, printed with that text (git-log(1)
/// `-S`, `-G`, their pickaxe); without a patch only the commits are listed.
fn pickaxe_seeks_secrets(c: &SimpleCommand) -> bool {
    if c.basename() != "git" || c.dynamic_program {
        return false;
    }
    let pos = crate::shell::operands::positionals(c);
    if !matches!(
        pos.first().map(|w| w.text.as_str()),
        Some("log" | "whatchanged" | "show")
    ) {
        return false;
    }
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    let patch = words.first().is_some_and(|w| *w == "show")
        || words.iter().any(|w| matches!(*w, "-p" | "--patch" | "-u"));
    let ignore_case = words
        .iter()
        .any(|w| matches!(*w, "-i" | "--regexp-ignore-case"));
    let mut values = Vec::new();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "-S" | "-G" => values.extend(words.get(i + 1).copied()),
            _ if w.len() > 2 && (w.starts_with("-S") || w.starts_with("-G")) => {
                values.push(&w[2..]);
            }
            _ => {}
        }
    }
    patch && values.iter().any(|v| secret_pattern(v, ignore_case))
}

/// Whether command `k` of the line is given commits by a command that lists them: a
/// substitution in its words (`git grep KEY $(git rev-list --all)`: the substitution's
/// commands come just before it, one level deeper) or `xargs` fed by a pipe (`git rev-list
/// --all | xargs git grep KEY`).
fn given_commits(a: &ShellAnalysis, k: usize) -> bool {
    let lists_commits = |c: &SimpleCommand| {
        let pos = crate::shell::operands::positionals(c);
        c.basename() == "git"
            && match pos.first().map(|w| w.text.as_str()) {
                Some("rev-list") => !c.args.iter().any(|w| w.text == "--count"),
                Some("log") => c.args.iter().any(|w| w.text.contains("%H")),
                _ => false,
            }
    };
    let Some(c) = a.commands.get(k) else {
        return false;
    };
    let depth = c.via.len();
    let substituted = (0..k)
        .rev()
        .map_while(|j| {
            a.commands.get(j).filter(|s| {
                s.via.len() > depth && s.via.last().is_some_and(|v| v.starts_with("$("))
            })
        })
        .any(lists_commits);
    let piped = c.via.last().is_some_and(|w| w == "xargs")
        && a.pipes.iter().any(|&(from, to)| {
            to <= k && a.commands.get(from).is_some_and(lists_commits) && {
                let head = a.commands.get(to);
                head.is_some_and(|h| h.basename() == "xargs" || to == k)
            }
        });
    substituted || piped
}

/// `git log -p | grep -i password`, `git show HEAD~3 | rg API_KEY`: a search of what a git
/// command prints of the project's files and history (`commands`: those it is piped into) for
/// secret values reads the secret files as ever committed, as `git grep KEY $(git rev-list
/// --all)` and git's own pickaxe (`git log -p -S password`) do: a read of `**/.env` below
/// the repository, on the search's route. A search
/// for anything else (`| grep TODO`), one that prints only counts or names (`grep -c`), and
/// a listing of commits (`git log --oneline | grep fix`: no content) read no secret.
pub(super) fn history_searched(
    a: &ShellAnalysis,
    spans: &[Range<usize>],
    commands: &[usize],
    fx: &mut Effects,
) {
    let mut derived = Vec::new();
    for (k, c) in a.commands.iter().enumerate() {
        let roots = if pickaxe_seeks_secrets(c) {
            vec![".".to_string()]
        } else {
            let Some(p) = parse(c) else { continue };
            if p.row.search.is_none() || !seeks_secrets(&p) {
                continue;
            }
            if commands.contains(&k) && p.operands_of(Role::Read).next().is_none() {
                // It searches its standard input: the history piped into it.
                vec![".".to_string()]
            } else if c.basename() == "git" && given_commits(a, k) {
                history_roots(&p)
            } else {
                continue;
            }
        };
        let Some(route) = command_route(spans, k, fx) else {
            continue;
        };
        for root in roots {
            let base = root.trim_end_matches('/');
            derived.push((
                What::Read(PathRef::new(format!("{base}/**/.env"), c.cwd.as_deref())),
                route.clone(),
            ));
        }
    }
    for (w, r) in derived {
        fx.push(w, r);
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

/// Options of trufflehog and gitleaks that take a value as the next word (`--exclude-paths
/// FILE`, `-c CONFIG`); the value is no path scanned.
const SCANNER_VALUED: &[&str] = &[
    "--exclude-paths",
    "--include-paths",
    "--config",
    "-c",
    "--concurrency",
    "--results",
    "--log-level",
    "-l",
    "--branch",
    "--since-commit",
    "--max-depth",
    "--report-format",
    "-f",
    "--baseline-path",
    "-b",
    "--gitleaks-ignore-path",
    "-i",
    "--log-opts",
    "--max-target-megabytes",
    "--exit-code",
    "--enable-rule",
    "--max-decode-depth",
    "--max-archive-depth",
    "--timeout",
    "--report-template",
    "--source",
    "-s",
    "--report-path",
    "-r",
    "--directory",
];

/// `trufflehog filesystem PATH…`, `gitleaks dir [-v] [PATH]`, `gitleaks detect --no-git [-v]
/// [--source PATH]`: a scanner that prints the secret values it finds below a folder reads
/// the secret files there (hidden and ignored files included: neither tool skips them), as
/// `rg -uu TOKEN DIR` does; the project's own folder too (`gitleaks dir -v` prints the
/// project's `.env`). gitleaks prints values only with `-v` / `--verbose` or a
/// `--report-path` (a report a later call can print), and none with `--redact` (all of each
/// value hidden); trufflehog always prints them. Scans of git history (`trufflehog git
/// file://PATH`, `gitleaks git [PATH]`, `gitleaks detect [--source PATH]`, `gitleaks protect
/// --staged`) read committed content, where ignored secret files are not: the project's own
/// history stays quiet (its committed content is the agent's to read), while the history of
/// the home or of a settings folder in it (a dotfiles repository holding `~/.aws`, `~/.ssh`)
/// is read as that folder's secrets. A source folder (`src/`) or a file holds none.
pub(super) fn secret_scan(c: &SimpleCommand, out: &mut Out) {
    let mut words: Vec<&Arg> = Vec::new();
    // Each option with its value: `--source=DIR` and `--source DIR` alike.
    let mut options: Vec<(&str, Option<Arg>)> = Vec::new();
    let mut args = c.args.iter();
    while let Some(a) = args.next() {
        if !a.text.starts_with('-') || a.text.len() == 1 {
            words.push(a);
            continue;
        }
        let value = match a.text.split_once('=') {
            Some((name, v)) => (
                name,
                Some(Arg {
                    text: v.to_string(),
                    dynamic: a.dynamic,
                }),
            ),
            None if SCANNER_VALUED.contains(&a.text.as_str()) => {
                (a.text.as_str(), args.next().cloned())
            }
            None => (a.text.as_str(), None),
        };
        options.push(value);
    }
    let has = |names: &[&str]| options.iter().any(|(n, _)| names.contains(n));
    let value_of = |names: &[&str]| {
        options
            .iter()
            .filter(|(n, _)| names.contains(n))
            .find_map(|(_, v)| v.clone())
    };
    // The folders named after the subcommand and by `flags`, else the working directory.
    let named = |flags: &[&str]| {
        let mut r: Vec<Arg> = words[1..].iter().map(|a| (*a).clone()).collect();
        r.extend(value_of(flags));
        if r.is_empty() {
            r.push(Arg {
                text: ".".into(),
                dynamic: false,
            });
        }
        r
    };
    // `--redact` hides all of each value; `--redact=20` only a fifth of it.
    let gitleaks_prints = || {
        let redacted = options
            .iter()
            .any(|(n, v)| *n == "--redact" && v.as_ref().is_none_or(|v| v.text == "100"));
        has(&["-v", "--verbose", "--report-path", "-r"]) && !redacted
    };
    let sub = words.first().map(|w| w.text.as_str());
    let (roots, history): (Vec<Arg>, bool) = match (c.basename(), sub) {
        ("trufflehog", Some("filesystem")) => (named(&["--directory"]), false),
        ("trufflehog", Some("git")) => {
            // `file://PATH`: a local repository; a remote URL is not this machine's.
            let local = words[1..]
                .iter()
                .filter_map(|a| {
                    a.text.strip_prefix("file://").map(|p| Arg {
                        text: p.to_string(),
                        dynamic: a.dynamic,
                    })
                })
                .collect();
            (local, true)
        }
        ("gitleaks", Some(verb @ ("dir" | "directory" | "files" | "detect" | "git"))) => {
            if !gitleaks_prints() {
                return;
            }
            let history = verb == "git" || (verb == "detect" && !has(&["--no-git"]));
            (named(&["--source", "-s"]), history)
        }
        _ => return,
    };
    for root in roots {
        let reached = if history {
            home_root(&root.text) || home_settings_folder(&root.text)
        } else {
            may_hold_secrets(&root.text)
        };
        if reached {
            reach(&root.text, root.dynamic, ".env", c, out);
        }
    }
}

/// findstr(1) switch letters that may be given together (`/si`, `/SIM`).
const FINDSTR_LETTERS: &str = "belrsixvnmop";

/// `findstr [/s] [/i] [/v] [/m] [/c:STRING] [/g:FILE] [/d:DIRS] STRINGS [FILES]` (Windows
/// Commands reference) as the grep(1) command that searches the same files for the same
/// patterns, so its search is judged as grep's is: `/s` is `-r` (below the folder each file
/// name is in, the name a kind of file unless it is `*` or `*.*`), `/i` `-i`, `/v` `-v`, `/m`
/// (names only) `-l`, `/c:STRING` one pattern, `/g:FILE` patterns read from FILE, `/d:DIRS`
/// the folders searched; STRINGS, without `/c:`, is one pattern per word. `None` for another
/// program.
pub(super) fn findstr_as_grep(c: &SimpleCommand) -> Option<SimpleCommand> {
    if c.dynamic_program || c.basename() != "findstr" {
        return None;
    }
    let word = |text: &str, like: &Arg| Arg {
        text: text.to_string(),
        dynamic: like.dynamic,
    };
    let fixed = |text: &str| Arg {
        text: text.to_string(),
        dynamic: false,
    };
    let mut flags: Vec<Arg> = Vec::new();
    let mut patterns: Vec<Arg> = Vec::new();
    let mut folders: Vec<Arg> = Vec::new();
    let mut operands: Vec<&Arg> = Vec::new();
    let mut recursive = false;
    for a in &c.args {
        let lower = a.text.to_ascii_lowercase();
        let Some(sw) = lower.strip_prefix('/').filter(|s| !s.is_empty()) else {
            operands.push(a);
            continue;
        };
        if let Some((name, value)) = sw.split_once(':') {
            // The value as written (its case kept), after `/x:`.
            let value = &a.text[a.text.len() - value.len()..];
            match name {
                "c" => patterns.push(word(value.trim_matches('"'), a)),
                "g" => flags.extend([fixed("-f"), word(value, a)]),
                "d" => folders.extend(value.split(';').map(|d| word(d, a))),
                _ => {}
            }
        } else if sw.chars().all(|ch| FINDSTR_LETTERS.contains(ch)) {
            for ch in sw.chars() {
                match ch {
                    's' => recursive = true,
                    'i' => flags.push(fixed("-i")),
                    'v' => flags.push(fixed("-v")),
                    'm' => flags.push(fixed("-l")),
                    _ => {}
                }
            }
        } else {
            // A path from the root (`/c/src/x.c` in Git Bash): a file.
            operands.push(a);
        }
    }
    let given = !patterns.is_empty() || flags.iter().any(|f| f.text == "-f");
    let mut files = operands.into_iter();
    if !given {
        let strings = files.next()?;
        patterns.extend(strings.text.split_whitespace().map(|w| word(w, strings)));
    }
    let mut args: Vec<Arg> = Vec::new();
    if recursive {
        args.push(fixed("-r"));
    }
    args.extend(flags);
    for p in patterns {
        args.push(Arg {
            text: format!("--regexp={}", p.text),
            dynamic: p.dynamic,
        });
    }
    let mut roots: Vec<Arg> = Vec::new();
    for f in files {
        if !recursive {
            roots.push(f.clone());
            continue;
        }
        // `/s src\*.js`: every `*.js` below `src`.
        let (folder, name) = match f.text.rfind(['\\', '/']) {
            Some(k) => (&f.text[..k], &f.text[k + 1..]),
            None => ("", f.text.as_str()),
        };
        if !matches!(name, "*" | "*.*" | "") {
            args.push(word(&format!("--include={name}"), f));
        }
        if folders.is_empty() {
            roots.push(word(if folder.is_empty() { "." } else { folder }, f));
        }
    }
    if recursive {
        roots.extend(folders);
    }
    args.extend(roots);
    Some(SimpleCommand {
        program: "grep".into(),
        folded: None,
        args,
        ..c.clone()
    })
}
