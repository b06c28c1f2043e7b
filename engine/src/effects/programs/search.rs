//! Search tools: the first operand is the pattern unless an option gives it (`grep -e
//! PAT`, `sed -f FILE`); `awk`, `sed`, `jq` and `yq` read their files the same way.

use super::row::{Fallback, Program, RECURSIVE, ROW, Role, Switch};

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
    "-t",
    "-T",
    "--type",
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
            ("-e", Role::Ignore),
            ("--regexp", Role::Ignore),
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("--include", Role::Glob),
        ],
        switches: RECURSIVE,
        lead: &[Role::Ignore],
        lead_options: &["-e", "--regexp", "-f", "--file"],
        rest: Role::Read,
        fallback: Fallback::CwdIfRecursive,
        ..ROW
    },
    Program {
        names: &["rg"],
        valued: SEARCH_VALUED,
        options: &[
            ("-e", Role::Ignore),
            ("--regexp", Role::Ignore),
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("-g", Role::Glob),
            ("--glob", Role::Glob),
            ("--iglob", Role::Glob),
            ("--pre", Role::Shell),
            ("--ignore-file", Role::Read),
        ],
        lead: &[Role::Ignore],
        lead_options: &["-e", "--regexp", "-f", "--file"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        ..ROW
    },
    Program {
        names: &["ag", "pt", "ack", "ack-grep"],
        valued: &[
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
            "--type",
            "--type-add",
            "--type-set",
            "--ignore-file",
            "--output",
            "--match",
        ],
        options: &[("-p", Role::Read), ("--path-to-ignore", Role::Read)],
        lead: &[Role::Ignore],
        lead_options: &["--match"],
        rest: Role::Read,
        fallback: Fallback::Cwd,
        ..ROW
    },
    Program {
        // `awk 'PROGRAM' FILES`, `awk -f prog.awk FILES`; `var=value` operands are not files.
        names: &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
        valued: &["-v", "-F", "--assign", "--field-separator", "-W"],
        options: &[
            ("-f", Role::Read),
            ("--file", Role::Read),
            ("-e", Role::Ignore),
            ("--source", Role::Ignore),
            ("-i", Role::Read),
            ("--include", Role::Read),
        ],
        lead: &[Role::Ignore],
        lead_options: &["-f", "--file", "-e", "--source"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `sed SCRIPT FILES`, `sed -e S -f F FILES`; `-i` writes the files.
        names: &["sed", "gsed"],
        valued: &["-l", "--line-length"],
        options: &[
            ("-e", Role::Ignore),
            ("--expression", Role::Ignore),
            ("-f", Role::Read),
            ("--file", Role::Read),
        ],
        switches: &[("-i", Switch::InPlace), ("--in-place", Switch::InPlace)],
        lead: &[Role::Ignore],
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
