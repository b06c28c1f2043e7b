//! `git`: one row per subcommand family; the global options (`-C DIR`) come before the
//! subcommand.

use super::globals::GIT;
use super::row::{Action, Fallback, Program, ROW, Role, Search, Switch};
use super::search::GREP_VALUED;

/// Options of `git log` / `show` / `diff` / `blame` that take a value.
const GIT_HISTORY_VALUED: &[&str] = &[
    "-n",
    "--max-count",
    "--skip",
    "--since",
    "--until",
    "--after",
    "--before",
    "--author",
    "--committer",
    "--grep",
    "-S",
    "-G",
    "-L",
    "-U",
    "--unified",
    "--format",
    "--pretty",
    "--date",
    "-M",
    "-C",
    "-B",
    "-l",
    "--encoding",
    "--abbrev",
    "--stat",
    "--src-prefix",
    "--dst-prefix",
    "--diff-filter",
    "-O",
    "--relative",
    "--word-diff",
    "--color",
    "--contents",
    "-w",
];

/// The git rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // git.
    Program {
        // `git clean` deletes untracked files below the working directory.
        names: &["git"],
        subs: &[&["clean"]],
        global: GIT,
        valued: &["-e", "--exclude"],
        switches: &[("-n", Switch::DryRun), ("--dry-run", Switch::DryRun)],
        rest: Role::Delete,
        fallback: Fallback::Cwd,
        ..ROW
    },
    Program {
        // git-update-ref(1): `git update-ref -d REF` deletes the ref (the file under `.git`
        // that holds it); `git update-ref REF NEWVALUE` moves it.
        names: &["git"],
        subs: &[&["update-ref"]],
        global: GIT,
        valued: &["-m"],
        switches: &[("-d", Switch::Delete)],
        ..ROW
    },
    Program {
        names: &["git"],
        subs: &[&["rm"]],
        global: GIT,
        switches: &[("-r", Switch::Recursive)],
        options: &[("--pathspec-from-file", Role::Read)],
        rest: Role::Delete,
        ..ROW
    },
    Program {
        // `git diff --no-index A B`, `git log -p -- .env`, `git show HEAD:.env`: the paths
        // (and `REV:path` blobs) they print are read.
        names: &["git"],
        subs: &[
            &["diff"],
            &["log"],
            &["show"],
            &["blame"],
            &["annotate"],
            &["cat-file"],
            &["whatchanged"],
            &["archive"],
            &["apply"],
            &["am"],
            &["hash-object"],
            &["difftool"],
        ],
        global: GIT,
        valued: GIT_HISTORY_VALUED,
        options: &[
            ("-o", Role::Write),
            ("--output", Role::Write),
            ("-e", Role::Ignore),
            ("-f", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `git grep PATTERN -- PATHS`.
        names: &["git"],
        subs: &[&["grep"]],
        global: GIT,
        valued: GREP_VALUED,
        options: &[("-e", Role::Pattern), ("-f", Role::Read)],
        // `--no-index` searches the folder as files, ignored ones too; `--untracked
        // --no-exclude-standard` adds untracked and ignored files (git-grep(1)).
        switches: &[
            ("--no-index", Switch::Hidden),
            ("--no-exclude-standard", Switch::Hidden),
            ("-l", Switch::NamesOnly),
            ("--files-with-matches", Switch::NamesOnly),
            ("--name-only", Switch::NamesOnly),
            ("-L", Switch::NamesOnly),
            ("--files-without-match", Switch::NamesOnly),
            ("-c", Switch::NamesOnly),
            ("--count", Switch::NamesOnly),
            ("-q", Switch::NamesOnly),
            ("--quiet", Switch::NamesOnly),
            ("-v", Switch::Invert),
            ("--invert-match", Switch::Invert),
            ("-i", Switch::IgnoreCase),
            ("--ignore-case", Switch::IgnoreCase),
        ],
        lead: &[Role::Pattern],
        lead_options: &["-e", "-f"],
        rest: Role::Read,
        search: Some(Search {
            hidden: false,
            needs_recursive: false,
            cwd: true,
        }),
        ..ROW
    },
    Program {
        // `git checkout -- f`, `git restore f`, `git reset --hard` overwrite files.
        names: &["git"],
        subs: &[&["checkout"], &["restore"], &["reset"]],
        global: GIT,
        valued: &["-b", "-B", "--orphan", "-s", "--source", "--conflict"],
        rest: Role::Write,
        ..ROW
    },
    Program {
        // Remote operations: URL operands are sent to.
        names: &["git"],
        subs: &[
            &["push"],
            &["fetch"],
            &["pull"],
            &["clone"],
            &["ls-remote"],
            &["submodule", "add"],
        ],
        global: GIT,
        action: Action::Send,
        valued: &[
            "-o",
            "--push-option",
            "--depth",
            "--branch",
            "-b",
            "--origin",
            "--reference",
            "--jobs",
            "-j",
            "--filter",
            "--shallow-since",
            "--shallow-exclude",
            "--recurse-submodules",
            "--repo",
            "--receive-pack",
            "--upload-pack",
            "--exec",
            "-u",
            "--template",
            "--separate-git-dir",
            "--config",
            "-c",
            "--name",
        ],
        ..ROW
    },
];
