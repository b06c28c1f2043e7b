//! `find` and the `xargs` it feeds: which files a `find` lists (its start folders, whether its
//! expression selects everything, what `-name` narrows it to), what `{}` stands for in its
//! `-exec` actions, and what a command run by `xargs` over `find`'s names receives; the names
//! `locate` lists from its database.

use super::Arg;

/// `find`'s actions that run a command on each file found, up to `;` or `+`.
pub(super) const FIND_EXEC: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];

/// `find` words that neither narrow which files it lists nor act on them: with only these, it
/// lists its start folder itself and everything under it. Those taking a value list it next.
const FIND_ALL: &[&str] = &[
    "-depth",
    "-d",
    "-xdev",
    "-mount",
    "-follow",
    "-noleaf",
    "-ignore_readdir_race",
    "-noignore_readdir_race",
    "-daystart",
    "-warn",
    "-nowarn",
    "-print",
    "-print0",
    "-true",
];
/// [`FIND_ALL`] words that take a value.
const FIND_ALL_VALUED: &[&str] = &["-maxdepth", "-mindepth", "-regextype"];
/// `find` actions that write something other than the names, or act on the files.
const FIND_ACTS: &[&str] = &[
    "-exec", "-execdir", "-ok", "-okdir", "-delete", "-printf", "-fprint", "-fprint0", "-fprintf",
    "-ls", "-fls", "-quit",
];

/// The start folders of `find START… EXPR` (after `-H`/`-L`/`-P`).
fn find_starts(rest: &[Arg]) -> (Vec<&Arg>, &[Arg]) {
    let rest = match rest
        .iter()
        .position(|a| !matches!(a.text.as_str(), "-H" | "-L" | "-P"))
    {
        Some(k) => rest.get(k..).unwrap_or(&[]),
        None => &[],
    };
    let n = rest
        .iter()
        .take_while(|a| !a.text.starts_with('-') && a.text != "(" && a.text != "!")
        .count();
    (
        rest.get(..n).unwrap_or(&[]).iter().collect(),
        rest.get(n..).unwrap_or(&[]),
    )
}

/// Whether a `find` expression selects every file: only [`FIND_ALL`] words (with their
/// values), so its start folder itself is among what it lists.
fn find_selects_all(expr: &[Arg]) -> bool {
    let mut i = 0;
    while let Some(a) = expr.get(i) {
        let t = a.text.as_str();
        if FIND_ALL_VALUED.contains(&t) {
            i += 2;
        } else if FIND_ALL.contains(&t) || FIND_EXEC.contains(&t) {
            if FIND_EXEC.contains(&t) {
                // The command of an action is not part of the selection.
                while expr.get(i).is_some_and(|x| x.text != ";" && x.text != "+") {
                    i += 1;
                }
            }
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// What `{}` stands for in `find START… EXPR -exec CMD {} ;` (and what each name `find`
/// lists stands for): with one start folder and an expression that selects every file, the
/// folder itself (`find ~ -exec rm -rf {} +` removes `~`, which holds the rest); narrowed, a
/// file somewhere under it (`…` stands for the folders between), named by `-name` when given
/// (`find . -name .env` finds `./…/.env`); with several start folders, unknown.
pub(super) fn find_found(rest: &[Arg]) -> Arg {
    let (start, expr) = find_starts(rest);
    let name = expr
        .windows(2)
        .find(|w| matches!(w[0].text.as_str(), "-name" | "-iname"))
        .map(|w| w[1].clone());
    match (start.first(), start.len()) {
        (Some(s), 1) if find_selects_all(expr) => (*s).clone(),
        (Some(s), 1) => {
            let dir = s.text.trim_end_matches('/');
            Arg {
                text: match &name {
                    Some(n) => format!("{dir}/…/{}", n.text),
                    None => format!("{dir}/…"),
                },
                dynamic: s.dynamic || name.as_ref().is_some_and(|n| n.dynamic),
            }
        }
        (None, _) if find_selects_all(expr) => Arg {
            text: ".".to_string(),
            dynamic: false,
        },
        (None, _) => Arg {
            text: match &name {
                Some(n) => format!("./…/{}", n.text),
                None => "./…".to_string(),
            },
            dynamic: name.as_ref().is_some_and(|n| n.dynamic),
        },
        // Several start folders: which one a file comes from is unknown.
        _ => Arg {
            text: "{}".to_string(),
            dynamic: true,
        },
    }
}

/// `xargs [-I R] CMD` fed names that each stand for `found`: CMD with R replaced by it, or
/// with it appended.
pub(super) fn xargs_listed(rest: &[Arg], cmd: &[Arg], found: Arg) -> Vec<Arg> {
    match xargs_replace(rest, cmd) {
        // The placeholder stands for the name inside the word too (`-F f=@{}`, `-T {}`,
        // `{}.bak`), as xargs substitutes it.
        Some(r) if !r.is_empty() => cmd
            .iter()
            .map(|a| {
                if a.text.contains(&r) {
                    Arg {
                        text: a.text.replace(&r, &found.text),
                        dynamic: a.dynamic || found.dynamic,
                    }
                } else {
                    a.clone()
                }
            })
            .collect(),
        _ => cmd.iter().cloned().chain(std::iter::once(found)).collect(),
    }
}

/// The replacement string of `xargs -I R` / `-i` / `--replace[=R]`, among xargs's own options:
/// the words of `rest` before the command `cmd` it runs (`xargs grep -i token`: `-i` is
/// grep's).
pub(super) fn xargs_replace(rest: &[Arg], cmd: &[Arg]) -> Option<String> {
    let rest = rest
        .get(..rest.len().saturating_sub(cmd.len()))
        .unwrap_or(rest);
    rest.iter().enumerate().find_map(|(k, a)| {
        let t = a.text.as_str();
        match t {
            "-I" => rest.get(k + 1).map(|r| r.text.clone()),
            "-i" | "--replace" => Some("{}".to_string()),
            _ => t
                .strip_prefix("--replace=")
                .or_else(|| t.strip_prefix("-I").filter(|r| !r.is_empty()))
                .or_else(|| t.strip_prefix("-i").filter(|r| !r.is_empty()))
                .map(str::to_string),
        }
    })
}

/// Whether `find`'s output is the names it finds, one per line (no action of its own).
pub(super) fn find_lists_names(rest: &[Arg]) -> bool {
    !rest.iter().any(|a| FIND_ACTS.contains(&a.text.as_str()))
}

/// Whether `locate`'s output is the names it finds (not `-c`/`--count` or `-S`/`--statistics`,
/// which print numbers).
pub(super) fn locate_lists_names(rest: &[Arg]) -> bool {
    !rest.iter().any(|a| {
        matches!(
            a.text.as_str(),
            "--count" | "--statistics" | "--help" | "--version"
        ) || (a.text.starts_with('-')
            && !a.text.starts_with("--")
            && a.text[1..]
                .chars()
                .any(|c| matches!(c, 'c' | 'S' | 'h' | 'V')))
    })
}

/// What each name `locate PATTERN` (mlocate, plocate) lists stands for: a file anywhere whose
/// path holds PATTERN (`locate .env` → `/…/*.env*`; a pattern with a glob character matches
/// the whole path or, with `-b`, the last component: `/…/PATTERN`). Several patterns, a
/// regular expression (`-r`, `--regex`) or a pattern with a `/` stand for a name only known
/// at run time.
pub(super) fn locate_found(rest: &[Arg]) -> Arg {
    const VALUED: &[&str] = &["-d", "--database", "-l", "-n", "--limit", "--regextype"];
    let unknown = Arg {
        text: "$(locate)".into(),
        dynamic: true,
    };
    let mut patterns: Vec<&Arg> = Vec::new();
    let mut words = rest.iter();
    while let Some(a) = words.next() {
        let t = a.text.as_str();
        if VALUED.contains(&t) {
            words.next();
        } else if matches!(t, "-r" | "--regex" | "--regexp") || t.starts_with("--regex=") {
            return unknown;
        } else if !t.starts_with('-') {
            patterns.push(a);
        }
    }
    match patterns.as_slice() {
        [p] if !p.dynamic && !p.text.is_empty() && !p.text.contains('/') => Arg {
            text: if p.text.contains(['*', '?', '[']) {
                format!("/…/{}", p.text)
            } else {
                format!("/…/*{}*", p.text)
            },
            dynamic: false,
        },
        _ => unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::{Arg, locate_found, locate_lists_names};

    #[test]
    fn locate_lists_the_files_whose_path_holds_its_pattern() {
        let words = |s: &str| -> Vec<Arg> {
            s.split_whitespace()
                .map(|t| Arg {
                    text: t.to_string(),
                    dynamic: false,
                })
                .collect()
        };
        let found = |s: &str| {
            let a = locate_found(&words(s));
            (a.text, a.dynamic)
        };
        assert_eq!(found(".env"), ("/…/*.env*".to_string(), false));
        assert_eq!(
            found("-i -d /var/db id_rsa"),
            ("/…/*id_rsa*".to_string(), false)
        );
        assert_eq!(found("-b *.pem"), ("/…/*.pem".to_string(), false));
        // A regular expression, a path, several patterns: only known at run time.
        assert!(found("-r ^/etc/.*").1);
        assert!(found("src/main.rs").1);
        assert!(found(".env id_rsa").1);
        assert!(locate_lists_names(&words("-i .env")));
        assert!(!locate_lists_names(&words("-c .env")));
        assert!(!locate_lists_names(&words("--statistics")));
    }
}
