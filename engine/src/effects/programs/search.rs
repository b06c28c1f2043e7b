//! Search tools: the first operand is the pattern unless an option gives it (`grep -e
//! PAT`, `sed -f FILE`); `awk`, `sed`, `jq` and `yq` read their files the same way.

use std::sync::LazyLock;

use regex::Regex;

use super::row::{Action, Fallback, Program, ROW, Role, Search, Switch};
use crate::effects::language::Language;

/// Options of the `grep` family that take a value the effect model ignores.
pub(super) const GREP_VALUED: &[&str] = &[
    "-m",
    "--max-count",
    "-A",
    "-B",
    "-C",
    "--after-context",
    "--before-context",
    "--context",
    "-d",
    "-D",
    "--directories",
    "--devices",
    "--exclude",
    "--exclude-dir",
    "--label",
    "--binary-files",
    "--color",
    "--colour",
];

/// The switches of the `grep` family: recursion, and what changes what a search prints
/// (names or counts only, the lines that do not match, case ignored).
pub(super) const GREP_SWITCHES: &[(&str, Switch)] = &[
    ("-r", Switch::Recursive),
    ("-R", Switch::Recursive),
    ("--recursive", Switch::Recursive),
    ("--dereference-recursive", Switch::Recursive),
    ("-l", Switch::NamesOnly),
    ("--files-with-matches", Switch::NamesOnly),
    ("-L", Switch::NamesOnly),
    ("--files-without-match", Switch::NamesOnly),
    ("-c", Switch::NamesOnly),
    ("--count", Switch::NamesOnly),
    ("-q", Switch::NamesOnly),
    ("--quiet", Switch::NamesOnly),
    ("--silent", Switch::NamesOnly),
    ("-v", Switch::Invert),
    ("--invert-match", Switch::Invert),
    ("-i", Switch::IgnoreCase),
    ("-y", Switch::IgnoreCase),
    ("--ignore-case", Switch::IgnoreCase),
];

/// The switches of `rg` (ripgrep's guide: hidden files and the files named by ignore files
/// are skipped unless `--hidden` / `-.` / `--no-ignore`, or `-u` once and `-uu` twice).
const RG_SWITCHES: &[(&str, Switch)] = &[
    ("--hidden", Switch::Hidden),
    ("-.", Switch::Hidden),
    ("--no-ignore", Switch::NoIgnore),
    ("--no-ignore-vcs", Switch::NoIgnore),
    ("--no-ignore-dot", Switch::NoIgnore),
    ("--no-ignore-files", Switch::NoIgnore),
    ("-u", Switch::Unrestricted),
    ("--unrestricted", Switch::Unrestricted),
    ("-l", Switch::NamesOnly),
    ("--files-with-matches", Switch::NamesOnly),
    ("--files-without-match", Switch::NamesOnly),
    ("-c", Switch::NamesOnly),
    ("--count", Switch::NamesOnly),
    ("--count-matches", Switch::NamesOnly),
    ("-q", Switch::NamesOnly),
    ("--quiet", Switch::NamesOnly),
    ("--files", Switch::NamesOnly),
    ("-v", Switch::Invert),
    ("--invert-match", Switch::Invert),
    ("-i", Switch::IgnoreCase),
    ("--ignore-case", Switch::IgnoreCase),
];

/// The switches of `ag` (it skips hidden files unless `--hidden` or `-u`).
const AG_SWITCHES: &[(&str, Switch)] = &[
    ("--hidden", Switch::Hidden),
    ("-u", Switch::Hidden),
    ("--unrestricted", Switch::Hidden),
    ("-U", Switch::NoIgnore),
    ("--skip-vcs-ignores", Switch::NoIgnore),
    ("-l", Switch::NamesOnly),
    ("--files-with-matches", Switch::NamesOnly),
    ("-L", Switch::NamesOnly),
    ("--files-without-matches", Switch::NamesOnly),
    ("-c", Switch::NamesOnly),
    ("--count", Switch::NamesOnly),
    ("-v", Switch::Invert),
    ("--invert-match", Switch::Invert),
    ("-i", Switch::IgnoreCase),
    ("--ignore-case", Switch::IgnoreCase),
];

/// Options of ag(1) that take a value the effect model ignores.
const AG_VALUED: &[&str] = &[
    "-A",
    "-B",
    "-C",
    "-m",
    "-G",
    "-W",
    "--after",
    "--before",
    "--context",
    "--max-count",
    "--file-search-regex",
    "--ignore",
    "--ignore-dir",
    "--depth",
    "--pager",
    "--width",
];

/// Options of `rg` that take a value the effect model ignores.
const SEARCH_VALUED: &[&str] = &[
    "-m",
    "--max-count",
    "-A",
    "-B",
    "-C",
    "--after-context",
    "--before-context",
    "--context",
    "-T",
    "--type-not",
    "--type-add",
    "--type-clear",
    "-j",
    "--threads",
    "-M",
    "--max-columns",
    "--max-depth",
    "-d",
    "--max-filesize",
    "-r",
    "--replace",
    "-E",
    "--encoding",
    "--color",
    "--colors",
    "--sort",
    "--sortr",
    "--path-separator",
    "--ignore",
    "--ignore-dir",
    "-G",
    "--file-search-regex",
    "--context-separator",
    "--field-match-separator",
    "--engine",
];

/// The search rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // Search tools: the first operand is the pattern unless an option gives it.
    Program {
        names: &[
            "grep", "egrep", "fgrep", "zgrep", "bzgrep", "xzgrep", "ugrep", "ug",
        ],
        valued: GREP_VALUED,
        options: &[
            ("-e", Role::Pattern),
            ("--regexp", Role::Pattern),
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("--include", Role::Glob),
        ],
        switches: GREP_SWITCHES,
        lead: &[Role::Pattern],
        lead_options: &["-e", "--regexp", "-f", "--file"],
        rest: Role::Read,
        fallback: Fallback::CwdIfRecursive,
        search: Some(Search {
            hidden: true,
            needs_recursive: true,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        names: &["rg"],
        valued: SEARCH_VALUED,
        options: &[
            ("-e", Role::Pattern),
            ("--regexp", Role::Pattern),
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("-g", Role::Glob),
            ("--glob", Role::Glob),
            ("--iglob", Role::Glob),
            ("--pre", Role::Shell),
            ("--ignore-file", Role::Read),
            ("-t", Role::Filter),
            ("--type", Role::Filter),
        ],
        switches: RG_SWITCHES,
        lead: &[Role::Pattern],
        lead_options: &["-e", "--regexp", "-f", "--file"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        search: Some(Search {
            hidden: false,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // ag(1), the silver searcher: hidden files and the files its ignore files name are
        // skipped unless `--hidden`, `-u` (both) or `-U` (ignore files).
        names: &["ag"],
        valued: AG_VALUED,
        options: &[("-p", Role::Read), ("--path-to-ignore", Role::Read)],
        switches: AG_SWITCHES,
        lead: &[Role::Pattern],
        lead_options: &["--match"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        search: Some(Search {
            hidden: false,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // pt, the platinum searcher (its `SearchOption`): hidden files are skipped unless
        // `--hidden`, the VCS ignore files followed unless `-U`; `-e` is a switch (the
        // pattern is a regular expression), not the pattern's option.
        names: &["pt"],
        valued: &[
            "-A",
            "-B",
            "-C",
            "--after",
            "--before",
            "--context",
            "-G",
            "--file-search-regexp",
            "-g",
            "--ignore",
            "--vcs-ignore",
            "--depth",
            "-o",
            "--output-encode",
            "--color-line-number",
            "--color-path",
            "--color-match",
        ],
        switches: &[
            ("--hidden", Switch::Hidden),
            ("-U", Switch::NoIgnore),
            ("--skip-vcs-ignores", Switch::NoIgnore),
            ("-l", Switch::NamesOnly),
            ("--files-with-matches", Switch::NamesOnly),
            ("-c", Switch::NamesOnly),
            ("--count", Switch::NamesOnly),
            ("-i", Switch::IgnoreCase),
            ("--ignore-case", Switch::IgnoreCase),
        ],
        lead: &[Role::Pattern],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        search: Some(Search {
            hidden: false,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // ack(1): recursive by default, hidden files included (its default filters skip only
        // version-control folders, backups and core dumps); `-g` lists file names.
        names: &["ack", "ack-grep"],
        valued: &[
            "-A",
            "-B",
            "-C",
            "--after-context",
            "--before-context",
            "--context",
            "-m",
            "--max-count",
            "-g",
            "--ignore-dir",
            "--ignore-directory",
            "--noignore-dir",
            "--ignore-file",
            "--type",
            "-t",
            "--type-add",
            "--type-set",
            "--type-del",
            "--output",
            "--pager",
            "--ackrc",
            "--color-filename",
            "--color-match",
            "--color-lineno",
        ],
        options: &[("--match", Role::Pattern)],
        // grep's spellings: `-r`/`-R`, `-l`/`-L`/`-c`, `-v`, `-i` mean the same in ack.
        switches: GREP_SWITCHES,
        lead: &[Role::Pattern],
        lead_options: &["--match"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        search: Some(Search {
            hidden: true,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // sift(1) (its `Options`): recursive by default (`-R` turns it off), hidden files
        // included; `-e` gives a pattern, `-f` a file of patterns.
        names: &["sift"],
        valued: &[
            "-A",
            "-B",
            "-C",
            "--context",
            "--context-after",
            "--context-before",
            "-j",
            "--cores",
            "-x",
            "--ext",
            "-X",
            "--exclude-ext",
            "-t",
            "--type",
            "-T",
            "--no-type",
            "--limit",
            "--dirs",
            "--exclude-dirs",
            "--files",
            "--exclude-files",
            "--path",
            "--ipath",
            "--exclude-path",
            "--exclude-ipath",
            "--blocksize",
            "--output-sep",
            "--output-limit",
            "--replace",
        ],
        options: &[
            ("-e", Role::Pattern),
            ("--regexp", Role::Pattern),
            ("-f", Role::Read),
            ("--regexp-file", Role::Read),
        ],
        switches: GREP_SWITCHES,
        lead: &[Role::Pattern],
        lead_options: &["-e", "--regexp", "-f", "--regexp-file"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        search: Some(Search {
            hidden: true,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // `awk 'PROGRAM' FILES`, `awk -f prog.awk FILES`; `var=value` operands are not files.
        // The program text is read by the inline-code lens.
        names: &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
        valued: &["-v", "-F", "--assign", "--field-separator", "-W"],
        options: &[
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("-e", Role::Code(Language::Awk)),
            ("--source", Role::Code(Language::Awk)),
            ("-i", Role::Read),
            ("--include", Role::Read),
        ],
        lead: &[Role::Code(Language::Awk)],
        lead_options: &["-f", "--file", "-e", "--source"],
        rest: Role::Read,
        ..ROW
    },
    // Secret scanners, read by their action: trufflehog(1) `filesystem PATH…` prints each
    // finding's raw value (`git URL` scans committed history); gitleaks(1) `dir [PATH]` and
    // `detect --no-git [--source PATH]` print the secret with `-v` / `--verbose` or write it
    // with `--report-path` (`--redact` hides it; `git`, `protect` and a bare `detect` scan
    // history). detect-secrets(1) `scan` prints a baseline of hashed secrets, no value: it
    // has no row.
    Program {
        names: &["trufflehog", "gitleaks"],
        action: Action::SecretScan,
        ..ROW
    },
    Program {
        // `sed SCRIPT FILES`, `sed -e S -f F FILES`; `-i` writes the files.
        names: &["sed", "gsed"],
        valued: &["-l", "--line-length"],
        options: &[
            ("-e", Role::EditScript),
            ("--expression", Role::EditScript),
            ("-f", Role::Read),
            ("--file", Role::Read),
        ],
        switches: &[("-i", Switch::InPlace), ("--in-place", Switch::InPlace)],
        lead: &[Role::EditScript],
        lead_options: &["-e", "--expression", "-f", "--file"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["jq", "gojq", "jaq"],
        valued: &["--indent", "--tab", "-L"],
        options: &[("-f", Role::Read), ("--from-file", Role::Read)],
        pairs: &[
            ("--arg", Role::Ignore),
            ("--argjson", Role::Ignore),
            ("--slurpfile", Role::Read),
            ("--rawfile", Role::Read),
        ],
        switches: &[
            ("--args", Switch::ArgsFollow),
            ("--jsonargs", Switch::ArgsFollow),
        ],
        lead: &[Role::Ignore],
        lead_options: &["-f", "--from-file"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `yq e '.a' f` (v4): the subcommand, then the expression.
        subs: &[&["e"], &["eval"], &["ea"], &["eval-all"]],
        ..YQ
    },
    YQ,
];

/// `yq '.a' f`: the expression, then the files read (also the row of its v4 subcommands).
const YQ: Program = Program {
    names: &["yq"],
    valued: &[
        "-o",
        "--output-format",
        "-p",
        "--input-format",
        "-I",
        "--indent",
        "--expression",
    ],
    options: &[("--from-file", Role::Read)],
    switches: &[("-i", Switch::InPlace), ("--inplace", Switch::InPlace)],
    lead: &[Role::Ignore],
    lead_options: &["--from-file", "--expression"],
    rest: Role::Read,
    ..ROW
};

/// Programs that print the whole content of the files they are given (`find . -type f |
/// xargs cat`, `find . -exec head {} +`): given every file below a folder, they print its
/// secret files too.
pub(crate) const DUMPERS: &[&str] = &[
    "cat", "tac", "head", "tail", "less", "more", "bat", "batcat", "nl", "strings", "xxd", "od",
    "hexdump", "base64", "base32", "rev", "paste", "pr", "fold", "sort", "uniq", "column",
];

/// Whether a search pattern looks for secret values: a secret-like name
/// (`API_KEY`, `SECRET`, `TOKEN`, `PASSWORD`, `client_secret`, `access_token`), a private key
/// marker (`BEGIN RSA PRIVATE KEY`) or the prefix of a known token format (`ghp_`, `sk-`,
/// `AKIA`, `xoxb-`). Upper-case names count as written (`grep -r TOKEN`; a lower-case
/// `token` is as likely a lexer's); with `ignore_case` (`-i`) the lower-case ones too.
pub(crate) fn secret_pattern(pattern: &str, ignore_case: bool) -> bool {
    static ANY_CASE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(api[_-]?key|secret[_-]?(key|access)|client[_-]?secret|access[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer\s|passw(or)?d|passphrase|aws_secret|begin [a-z ]*private key|-----begin|\bgh[pousr]_|github_pat_|\bxox[abpr]-|\bsk-|\b[sr]k_live_|\bakia|\baiza|\bglpat-|\bnpm_[a-z0-9]|\bdop_v1_|\bpypi-ageichlwas5vcmc)",
        )
        .ok()
    });
    static UPPER: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(SECRET|TOKEN|PASSW|PASSPHRASE|APIKEY|API_KEY|_KEY|KEY_|\bKEY\b|CREDENTIAL|PRIVATE|\bAUTH(_|\b))").ok()
    });
    static LOWER: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)(secret|token|\bkey\b|\bauth\b)").ok());
    // A regular expression is judged by the words it spells as well (`api[_-]?key`,
    // `pass(word)?`): its classes, groups and quantifiers dropped.
    let spelled = spelled(pattern);
    // Each regex is compiled (a case-insensitive one costs millions of instructions, in a
    // process that judges one call) only when a text holds a word every one of its matches
    // holds: `grep -rn TODO src` compiles none of them.
    let folded = [folded(pattern), folded(&spelled)];
    let upper = [pattern, spelled.as_str()];
    let hit = |re: &LazyLock<Option<Regex>>, anchors: &[&str], texts: &[&str]| {
        texts.iter().any(|t| anchors.iter().any(|a| t.contains(a)))
            && re
                .as_ref()
                .is_some_and(|r| r.is_match(pattern) || r.is_match(&spelled))
    };
    let folded = [folded[0].as_str(), folded[1].as_str()];
    hit(&ANY_CASE, ANY_CASE_ANCHORS, &folded)
        || hit(&UPPER, UPPER_ANCHORS, &upper)
        || (ignore_case && hit(&LOWER, LOWER_ANCHORS, &folded))
}

/// Words one of which every match of the case-insensitive secret-name regex holds, in lower
/// case (each alternative of the regex holds one).
const ANY_CASE_ANCHORS: &[&str] = &[
    "key",
    "secret",
    "token",
    "bearer",
    "passw",
    "passphrase",
    "begin",
    "gh",
    "xox",
    "sk-",
    "k_live_",
    "akia",
    "aiza",
    "glpat-",
    "npm_",
    "dop_v1_",
    "pypi-",
];

/// Words one of which every match of the upper-case secret-name regex holds, as written.
const UPPER_ANCHORS: &[&str] = &[
    "SECRET",
    "TOKEN",
    "PASSW",
    "KEY",
    "CREDENTIAL",
    "PRIVATE",
    "AUTH",
];

/// The same for the lower-case names `-i` adds, in lower case.
const LOWER_ANCHORS: &[&str] = &["secret", "token", "key", "auth"];

/// `text` in lower case as a case-insensitive regex compares it: Rust's lower case, and the
/// long s (`ſ`, which `(?i)` matches as `s`; the Kelvin sign already lowers to `k`).
fn folded(text: &str) -> String {
    text.to_lowercase().replace('\u{17F}', "s")
}

/// The letters a search pattern spells once its regular-expression syntax is dropped:
/// bracket classes (`[_-]`), groups and alternations, quantifiers, escapes and anchors
/// (`api[_-]?key` spells `apikey`, `pass(word)?` spells `password`; an alternation's
/// branches are separate words).
fn spelled(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut class = false;
    let mut chars = pattern.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '[' if !class => class = true,
            ']' if class => class = false,
            _ if class => {}
            '\\' => {
                // `\s`, `\w`, `\.`: an escape spells a separator.
                chars.next();
                out.push(' ');
            }
            '(' | ')' | '?' | '*' | '+' | '^' | '$' | '.' => {}
            '{' => {
                // `{2,3}`: a count.
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            '|' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// Whether a search root is a home itself (`~`, `$HOME`, `/home/dev`, `/root`): a search
/// that walks its hidden folders reaches every settings folder in it.
pub(crate) fn home_root(root: &str) -> bool {
    let t = root.trim_end_matches('/');
    if matches!(t, "~" | "$HOME" | "${HOME}" | "/root") {
        return true;
    }
    t.strip_prefix("/home/")
        .or_else(|| t.strip_prefix("/Users/"))
        .is_some_and(|user| !user.is_empty() && !user.contains('/'))
}

/// Whether a search root is a hidden folder of a home, or inside one (`~/.config`,
/// `~/.local/share`, `$HOME/.docker`, `/home/dev/.aws`): the folders where tools keep their
/// settings and the credentials they log in with, in files of any name (`hosts.yml`,
/// `credentials.json`, `config`). A search there is not a search of code: a lower-case
/// `token` or `password` is a credential's key.
pub(crate) fn home_settings_folder(root: &str) -> bool {
    let t = root.trim_end_matches('/');
    let rest = if let Some(r) = t
        .strip_prefix("~/")
        .or_else(|| t.strip_prefix("$HOME/"))
        .or_else(|| t.strip_prefix("${HOME}/"))
        .or_else(|| t.strip_prefix("/root/"))
    {
        r
    } else if let Some(r) = t
        .strip_prefix("/home/")
        .or_else(|| t.strip_prefix("/Users/"))
    {
        match r.split_once('/') {
            Some((_user, r)) => r,
            None => return false,
        }
    } else {
        return false;
    };
    rest.split('/')
        .next()
        .is_some_and(|first| first.len() > 1 && first.starts_with('.') && first != "..")
}

/// Whether a search pattern matches (nearly) every line, so the search prints whole files:
/// empty, `.`, `.*`, `^`, `$`, `=` (every assignment of an env file), `\w`.
pub(crate) fn dump_pattern(pattern: &str) -> bool {
    let t = pattern.trim();
    t.chars()
        .all(|ch| matches!(ch, '.' | '*' | '+' | '?' | '^' | '$'))
        || matches!(
            t,
            "=" | "\\w" | "\\S" | "[^ ]" | "[a-zA-Z]" | "[A-Z]" | "[A-Z_]+=" | "^[A-Z]"
        )
}

/// Source folders that hold code, not a project's secret files: a search below one of them
/// (`grep -r API_KEY src/`) finds where the code reads a key, not the key.
const SOURCE_FOLDERS: &[&str] = &[
    "src",
    "lib",
    "libs",
    "test",
    "tests",
    "spec",
    "specs",
    "__tests__",
    "docs",
    "doc",
    "include",
    "examples",
    "example",
    "pkg",
    "cmd",
    "internal",
    "components",
    "pages",
    "app",
    "crates",
    "node_modules",
    "vendor",
    "dist",
    "build",
    "target",
];

/// Whether a search root may hold secret files below it (the project root, the working
/// directory, the home or any folder of it, an absolute folder): not a source folder of a
/// project (`src/`, `tests/`) and not a file (`main.py`, `config.yaml`).
pub(crate) fn may_hold_secrets(root: &str) -> bool {
    let t = root.trim_end_matches('/');
    let t = t.strip_prefix("./").unwrap_or(t);
    if t.is_empty() || matches!(t, "." | ".." | "~" | "/") || t.starts_with("$HOME") {
        return true;
    }
    let relative = !t.starts_with(['/', '~', '$']);
    if relative
        && t.split('/')
            .next()
            .is_some_and(|first| SOURCE_FOLDERS.contains(&first))
    {
        return false;
    }
    // A file: a last component with an extension (`main.py`), not a dot-folder (`.config`).
    let last = t.rsplit('/').next().unwrap_or(t);
    !(last.contains('.') && !last.starts_with('.') && !last.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::secret_pattern;

    #[test]
    fn a_search_for_a_secret_name_is_found_by_any_spelling_and_others_compile_nothing() {
        for (pattern, ignore_case) in [
            ("API_KEY", false),
            ("api[_-]?key", false),
            ("client_secret", false),
            ("-----BEGIN RSA PRIVATE KEY", false),
            ("ghp_", false),
            ("AKIA", false),
            ("pass(word)?", false),
            ("TOKEN", false),
            ("token", true),
            // Case variants a case-insensitive regex matches: the long s and the Kelvin sign.
            ("PAſſWORD", false),
            ("api_\u{212A}ey", false),
        ] {
            assert!(secret_pattern(pattern, ignore_case), "{pattern}");
        }
        for (pattern, ignore_case) in [
            ("TODO", false),
            ("fn main", true),
            ("token", false),
            ("import .* from", true),
        ] {
            assert!(!secret_pattern(pattern, ignore_case), "{pattern}");
        }
    }
}
