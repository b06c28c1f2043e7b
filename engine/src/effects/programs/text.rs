//! Readers: every operand is read. Rows differ in which options take a value (`cat -n`
//! is a switch, `nl -n ln` is not). Pagers, dumps, sorters, differs.

use super::row::{Program, ROW, Role};

/// The text rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // Readers: every operand is read. Rows differ in which options take a value
    // (`cat -n` is a switch, `nl -n ln` is not).
    Program {
        names: &[
            "cat",
            "rev",
            "zcat",
            "bzcat",
            "xzcat",
            "zstdcat",
            "lzcat",
            "zmore",
            "more",
            "most",
            "pg",
            "tsort",
            "readlink",
            "realpath",
            "md5sum",
            "sha1sum",
            "sha224sum",
            "sha256sum",
            "sha384sum",
            "sha512sum",
            "b2sum",
            "cksum",
            "sum",
            "md5",
            "nano",
            "emacs",
            "code",
            "ed",
            "xmllint",
            "dos2unix",
            "unix2dos",
            "gunzip",
            "bunzip2",
            "unxz",
            "unzstd",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["tac"],
        valued: &["-s", "--separator"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["shasum"],
        valued: &["-a", "--algorithm"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // vim(1): `-c CMD` / `--cmd CMD` / `+CMD` are ex commands run at start-up; `:!CMD`
        // (and the other shell escapes) runs CMD through the shell.
        names: &["vim", "vi", "nvim", "view", "ex", "gvim"],
        options: &[("-c", Role::Escape), ("--cmd", Role::Escape)],
        plus: Role::Escape,
        rest: Role::Read,
        ..ROW
    },
    Program {
        // man(1): `-P PAGER` / `--pager PAGER` is a command line man runs the page through.
        names: &["man"],
        valued: &[
            "-M",
            "--manpath",
            "-S",
            "-s",
            "--sections",
            "-L",
            "--locale",
            "-m",
            "--systems",
            "-e",
            "--extension",
            "-C",
            "--config-file",
            "-r",
            "--prompt",
            "-E",
            "--encoding",
            "-R",
            "--recode",
        ],
        options: &[("-P", Role::Shell), ("--pager", Role::Shell)],
        ..ROW
    },
    Program {
        // less(1): `+CMD` runs a less command at start-up; `!CMD` runs CMD through the shell.
        plus: Role::Escape,
        names: &["less", "zless"],
        valued: &[
            "-b",
            "-h",
            "-j",
            "-p",
            "-P",
            "-t",
            "-x",
            "-y",
            "-z",
            "-#",
            "--pattern",
            "--prompt",
            "--tag",
            "--tabs",
            "--window",
            "--shift",
        ],
        options: &[
            ("-o", Role::Write),
            ("-O", Role::Write),
            ("--log-file", Role::Write),
            ("--LOG-FILE", Role::Write),
            ("-k", Role::Read),
            ("-T", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["nl"],
        valued: &["-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["od"],
        valued: &[
            "-A",
            "-j",
            "-N",
            "-S",
            "-t",
            "--address-radix",
            "--skip-bytes",
            "--read-bytes",
            "--strings",
            "--format",
            "--endian",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["hexdump", "hd"],
        valued: &["-n", "-s", "-e", "--length", "--skip"],
        options: &[("-f", Role::Read)],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["strings"],
        valued: &[
            "-n",
            "-t",
            "-e",
            "-s",
            "--bytes",
            "--radix",
            "--encoding",
            "--output-separator",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["base64", "base32", "basenc"],
        valued: &["-w", "--wrap"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["wc"],
        options: &[("--files0-from", Role::Read)],
        rest: Role::Measured,
        ..ROW
    },
    Program {
        names: &["file"],
        valued: &["-F", "--separator", "-P", "--parameter", "-e", "--exclude"],
        options: &[
            ("-m", Role::Read),
            ("--magic-file", Role::Read),
            ("-f", Role::Read),
            ("--files-from", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["stat", "gstat"],
        valued: &["-c", "--format", "--printf", "-f"],
        rest: Role::Measured,
        ..ROW
    },
    Program {
        names: &["fold", "fmt"],
        valued: &["-w", "--width", "-p", "--prefix", "-g", "--goal"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["expand", "unexpand"],
        valued: &["-t", "--tabs"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["iconv"],
        valued: &["-f", "-t", "--from-code", "--to-code"],
        options: &[("-o", Role::Write), ("--output", Role::Write)],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["column"],
        valued: &[
            "-s",
            "-c",
            "-o",
            "-N",
            "-R",
            "-H",
            "-O",
            "-E",
            "-d",
            "-W",
            "-l",
            "--separator",
            "--output-separator",
            "--output-width",
            "--table-columns",
            "--table-name",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["bat", "batcat"],
        valued: &[
            "-l",
            "--language",
            "-H",
            "--highlight-line",
            "-r",
            "--line-range",
            "--style",
            "--theme",
            "-m",
            "--map-syntax",
            "--tabs",
            "--wrap",
            "--terminal-width",
            "--file-name",
            "--diff-context",
            "--color",
            "--decorations",
            "--paging",
            "--pager",
            "--italic-text",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `head -n 100 f`, `tail -c 5 f`.
        names: &["head", "tail"],
        valued: &[
            "-n",
            "-c",
            "--lines",
            "--bytes",
            "-s",
            "--sleep-interval",
            "--pid",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `xxd IN [OUT]`: a second operand is written.
        names: &["xxd"],
        valued: &[
            "-c",
            "-g",
            "-l",
            "-s",
            "-o",
            "-n",
            "--cols",
            "--groupsize",
            "--len",
            "--seek",
            "--name",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `uniq IN [OUT]`: a second operand is written.
        names: &["uniq"],
        valued: &[
            "-f",
            "-s",
            "-w",
            "--skip-fields",
            "--skip-chars",
            "--check-chars",
            "--group",
            "--all-repeated",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["sort"],
        valued: &[
            "-k",
            "--key",
            "-t",
            "--field-separator",
            "-S",
            "--buffer-size",
            "-T",
            "--temporary-directory",
            "--parallel",
            "--batch-size",
            "--compress-program",
            "--sort",
            "--random-source",
        ],
        options: &[
            ("-o", Role::Write),
            ("--output", Role::Write),
            ("--files0-from", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["cut"],
        valued: &[
            "-d",
            "--delimiter",
            "-f",
            "--fields",
            "-c",
            "--characters",
            "-b",
            "--bytes",
            "--output-delimiter",
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["paste"],
        valued: &["-d", "--delimiters"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["join"],
        valued: &["-t", "-1", "-2", "-j", "-o", "-e", "-a", "-v"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["comm"],
        valued: &["--output-delimiter"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["diff", "diff3", "sdiff", "colordiff", "vimdiff"],
        valued: &[
            "-U",
            "--unified",
            "-C",
            "--context",
            "--label",
            "-L",
            "-I",
            "--ignore-matching-lines",
            "-x",
            "--exclude",
            "-F",
            "--show-function-line",
            "-W",
            "--width",
            "--line-format",
            "--old-line-format",
            "--new-line-format",
            "--unchanged-line-format",
            "--color",
            "--palette",
            "--tabsize",
            "-D",
            "--ifdef",
            "--horizon-lines",
        ],
        options: &[
            ("-X", Role::Read),
            ("--exclude-from", Role::Read),
            ("--from-file", Role::Read),
            ("--to-file", Role::Read),
            ("-o", Role::Write),
            ("--output", Role::Write),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["cmp"],
        valued: &["-i", "--ignore-initial", "-n", "--bytes"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["delta", "difft", "difftastic"],
        rest: Role::Read,
        ..ROW
    },
];
