//! Program knowledge: for each common program, which operands are read, written or deleted
//! paths, which are URLs, which options take values.
//!
//! In: one analysed [`SimpleCommand`]. Out: the [`Program`] row that describes it and its
//! words sorted by role ([`Parsed`]): option values with the role the row gives them,
//! switches that change the meaning of the operands (`-r`, `-a`, `-i`), and the operands
//! after the subcommand. The shell lens turns a [`Parsed`] into effects.
//!
//! Every program is one row of [`PROGRAMS`]; a program with subcommands (`git diff`,
//! `npm install`, `systemctl stop`) has one row per subcommand family, tried in order before
//! the program's general row. A program without a row is unknown: it only runs, and none of
//! its operands is guessed at.

use super::inline::Language;
use crate::shell::{Arg, SimpleCommand};

/// What an option value or an operand is to the effect model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Nothing the effect model tracks (a pattern, a count, a name, a script's argument).
    Ignore,
    /// A path read.
    Read,
    /// A path written.
    Write,
    /// A path appended to.
    Append,
    /// A path deleted.
    Delete,
    /// A path whose permissions or owner change.
    Permission,
    /// The mode or owner a permission change sets.
    Mode,
    /// A URL (or `host:path` / `user@host`) a request goes to.
    Url,
    /// A request method (`-X POST`).
    Method,
    /// A request body (`-d @file`, `-d "$VAR"`, `--data-binary @-`).
    Data,
    /// A form field (`-F f=@file`).
    Form,
    /// URL-encoded request data: `name@file` and `@file` read a file
    /// (`--data-urlencode k@.env`).
    Urlencoded,
    /// A host (or proxy URL) a connection goes to (`curl -x proxy`, `ssh -J jump`,
    /// `openssl s_client -connect host:443`).
    Host,
    /// A device or file wiped whole (`mkfs /dev/sda1`): deleted, recursively.
    Wipe,
    /// A file uploaded as the body (`-T file`).
    BodyFile,
    /// A header, user or cookie sent with a request: sends the variables it names.
    Header,
    /// A package installed.
    Package,
    /// A registry, index or repository packages come from.
    Source,
    /// A signal sent.
    Signal,
    /// A process, process name or service signalled.
    Target,
    /// A glob that widens a search (`rg -g '*.env'`): read joined onto the search roots.
    Glob,
    /// A size; `0` truncates (`truncate -s 0`).
    Size,
    /// The destination folder of a copy or move (`cp -t DIR`).
    Dest,
    /// Shell text the program runs (`--pre CMD`, `-e PROG`).
    Shell,
    /// A bind mount `HOST:CONTAINER[:opts]` (`docker run -v ~/.ssh:/root/.ssh`): the host
    /// path is read and written.
    Mount,
    /// Code in a language the inline-code lens reads (`python3 -c CODE`, `node -e CODE`).
    Code(Language),
    /// The script a runtime runs, which may come from the network: a path (read), an
    /// `http(s)` URL it fetches and runs (`deno run https://…`, `bun https://…`), or a
    /// registry specifier it installs and runs (`deno run npm:cowsay`, `jsr:@scope/pkg`).
    Script,
}

/// The effect family of a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Its operands and option values are paths with the roles the row gives.
    Files,
    /// Sources to a destination (`cp`, `install`, `ln`, `scp`, `rsync`): the last operand is
    /// written (or sent to when remote), the others read; `moves` deletes the sources too.
    Copy {
        /// The sources go away (`mv`).
        moves: bool,
    },
    /// A network request to its URL operands and `Url` option values.
    Send,
    /// A connection to `host [port]` (`nc`, `telnet`) whose body is standard input.
    Connect,
    /// An HTTPie-style request: `[METHOD] URL [items]`.
    HttpItems,
    /// `socat ADDRESS ADDRESS`.
    Socat,
    /// Processes or services signalled.
    Signal,
    /// `service NAME ACTION`.
    Service,
    /// Permissions or ownership change.
    Permission,
    /// `chattr [-R] +i PATHS`: the mode looks like an option.
    Chattr,
    /// Packages installed; the manager is the program's name.
    Install,
    /// `find START… EXPRESSION`: the operands end at the expression.
    Find,
    /// Names looked up or probed (`dig`, `ping`): a `send` to each host-like operand.
    Resolve,
}

/// A switch that changes what a program's operands are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Switch {
    /// Applies below the paths too (`-r`, `-R`, `--recursive`).
    Recursive,
    /// Appends instead of writing (`tee -a`).
    Append,
    /// Edits the file operands in place (`sed -i`, `perl -i`); consumes the rest of a short
    /// bundle (`-i.bak`).
    InPlace,
    /// Deletes what it acts on (`find -delete`, `rsync --delete`, `shred -u`).
    Delete,
    /// Sends the data in the query instead of a body (`curl -G`).
    Get,
    /// Every operand is created (`install -d`, `mkdir`).
    AllWritten,
    /// Selects the install operation (`pacman -S`, `pacman -U`).
    Operation,
    /// Saves each URL to the file its path ends in (`curl -O`).
    RemoteName,
    /// The remaining operands are arguments, not files (`jq --args`).
    ArgsFollow,
    /// The script is standard input and the operands are its arguments (`bash -s -- --yes`).
    StdinScript,
}

/// Which operand the program falls back to when none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// None: the program reads standard input.
    None,
    /// The working directory (`rg KEY`, `git clean`).
    Cwd,
    /// The working directory when recursive (`grep -r KEY`).
    CwdIfRecursive,
}

/// One program's command line, as data.
#[derive(Debug)]
pub(crate) struct Program {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// The subcommand words this row applies to (`["pip", "install"]` for `uv pip install`),
    /// any of `subs`; empty: any command line of the program.
    pub(crate) subs: &'static [&'static [&'static str]],
    /// Options before the subcommand that take a value (`git -C DIR`).
    pub(crate) global: &'static [&'static str],
    /// The effect family.
    pub(crate) action: Action,
    /// Options that take a value the effect model ignores.
    pub(crate) valued: &'static [&'static str],
    /// Options that take a value with a role.
    pub(crate) options: &'static [(&'static str, Role)],
    /// Options that take two values, the second with a role (`jq --rawfile NAME FILE`).
    pub(crate) pairs: &'static [(&'static str, Role)],
    /// Switches that change the meaning of the operands.
    pub(crate) switches: &'static [(&'static str, Switch)],
    /// The roles of the leading operands (a pattern, a script, a mode).
    pub(crate) lead: &'static [Role],
    /// Options that give the leading operands instead (`grep -e PAT`, `sed -f FILE`).
    pub(crate) lead_options: &'static [&'static str],
    /// The role of the other operands.
    pub(crate) rest: Role,
    /// The role of the other operands when a `lead_options` option gave the lead (`perl -ne
    /// CODE FILES` reads FILES; `perl SCRIPT ARGS` does not); `None`: `rest`.
    pub(crate) rest_given: Option<Role>,
    /// `key=value` operands with a role (`dd if=… of=…`).
    pub(crate) assigns: &'static [(&'static str, Role)],
    /// Options spelled with one dash and a whole word (`find -delete`, `-fprint`).
    pub(crate) word_options: bool,
    /// What it operates on when given no operand.
    pub(crate) fallback: Fallback,
}

/// The defaults every row starts from.
const ROW: Program = Program {
    names: &[],
    subs: &[],
    global: &[],
    action: Action::Files,
    valued: &[],
    options: &[],
    pairs: &[],
    switches: &[],
    lead: &[],
    lead_options: &[],
    rest: Role::Ignore,
    rest_given: None,
    assigns: &[],
    word_options: false,
    fallback: Fallback::None,
};

/// `-r`, `-R`, `--recursive`.
const RECURSIVE: &[(&str, Switch)] = &[
    ("-r", Switch::Recursive),
    ("-R", Switch::Recursive),
    ("--recursive", Switch::Recursive),
];

/// `git`'s options before the subcommand that take a value.
const GIT_GLOBAL: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--exec-path",
];

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

/// Options of the `grep` family that take a value the effect model ignores.
const GREP_VALUED: &[&str] = &[
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

/// `curl`'s options that take a value the effect model ignores.
const CURL_VALUED: &[&str] = &[
    "-m",
    "--max-time",
    "--connect-timeout",
    "-w",
    "--write-out",
    "-r",
    "--range",
    "-Y",
    "-y",
    "-z",
    "--retry",
    "--retry-delay",
    "--retry-max-time",
    "--limit-rate",
    "-C",
    "--continue-at",
    "-P",
    "--ftp-port",
    "--resolve",
    "--connect-to",
    "--interface",
    "--dns-servers",
    "-U",
    "--proxy-user",
    "-Q",
    "--quote",
    "--max-redirs",
    "--output-dir",
    "--ciphers",
    "--tls-max",
    "--proto",
    "--proto-redir",
    "--cert-type",
    "--key-type",
    "--pass",
    "--unix-socket",
    "--abstract-unix-socket",
    "--aws-sigv4",
    "--variable",
    "--expect100-timeout",
    "--happy-eyeballs-timeout-ms",
    "--keepalive-time",
    "--local-port",
    "--socks5",
    "--socks5-hostname",
    "--socks4",
    "--socks4a",
    "--noproxy",
    "--mail-from",
    "--mail-rcpt",
];

/// `curl`'s options whose value has a role.
const CURL_OPTIONS: &[(&str, Role)] = &[
    ("-X", Role::Method),
    ("--request", Role::Method),
    ("-d", Role::Data),
    ("--data", Role::Data),
    ("--data-ascii", Role::Data),
    ("--data-binary", Role::Data),
    ("--data-raw", Role::Data),
    ("--data-urlencode", Role::Urlencoded),
    ("--json", Role::Data),
    ("-F", Role::Form),
    ("--form", Role::Form),
    ("--form-string", Role::Form),
    ("-T", Role::BodyFile),
    ("--upload-file", Role::BodyFile),
    ("-H", Role::Header),
    ("--header", Role::Header),
    ("-u", Role::Header),
    ("--user", Role::Header),
    ("-b", Role::Header),
    ("--cookie", Role::Header),
    ("-A", Role::Header),
    ("--user-agent", Role::Header),
    ("-e", Role::Header),
    ("--referer", Role::Header),
    ("--oauth2-bearer", Role::Header),
    ("-o", Role::Write),
    ("--output", Role::Write),
    ("-c", Role::Write),
    ("--cookie-jar", Role::Write),
    ("-D", Role::Write),
    ("--dump-header", Role::Write),
    ("--trace", Role::Write),
    ("--trace-ascii", Role::Write),
    ("--stderr", Role::Write),
    ("--libcurl", Role::Write),
    ("-K", Role::Read),
    ("--config", Role::Read),
    ("-E", Role::Read),
    ("--cert", Role::Read),
    ("--key", Role::Read),
    ("--cacert", Role::Read),
    ("--capath", Role::Read),
    ("--netrc-file", Role::Read),
    ("--url", Role::Url),
    ("-x", Role::Host),
    ("--proxy", Role::Host),
    ("--preproxy", Role::Host),
];

/// `wget`'s options that take a value the effect model ignores.
const WGET_VALUED: &[&str] = &[
    "-P",
    "--directory-prefix",
    "-U",
    "--user-agent",
    "-t",
    "--tries",
    "-T",
    "--timeout",
    "-e",
    "--execute",
    "-l",
    "--level",
    "-w",
    "--wait",
    "-Q",
    "--quota",
    "-A",
    "--accept",
    "-R",
    "--reject",
    "-D",
    "--domains",
    "--limit-rate",
    "--bind-address",
    "--referer",
];

/// `wget`'s options whose value has a role.
const WGET_OPTIONS: &[(&str, Role)] = &[
    ("-O", Role::Write),
    ("--output-document", Role::Write),
    ("-o", Role::Write),
    ("--output-file", Role::Write),
    ("-a", Role::Append),
    ("--append-output", Role::Append),
    ("--save-cookies", Role::Write),
    ("--load-cookies", Role::Read),
    ("-i", Role::Read),
    ("--input-file", Role::Read),
    ("--post-data", Role::Data),
    ("--body-data", Role::Data),
    ("--post-file", Role::BodyFile),
    ("--body-file", Role::BodyFile),
    ("--method", Role::Method),
    ("--header", Role::Header),
    ("--user", Role::Header),
    ("--password", Role::Header),
    ("--http-user", Role::Header),
    ("--http-password", Role::Header),
    ("--certificate", Role::Read),
    ("--private-key", Role::Read),
    ("--ca-certificate", Role::Read),
];

/// `ssh`'s options that take a value the effect model ignores.
const SSH_VALUED: &[&str] = &[
    "-p", "-l", "-o", "-L", "-R", "-D", "-b", "-c", "-e", "-I", "-m", "-O", "-Q", "-S", "-W", "-w",
    "-B", "-P",
];

/// `ssh` / `scp` / `sftp` options that name a file read.
const SSH_OPTIONS: &[(&str, Role)] = &[
    ("-i", Role::Read),
    ("-F", Role::Read),
    ("-E", Role::Write),
    ("-J", Role::Host),
];

/// `rsync`'s options that take a value the effect model ignores.
const RSYNC_VALUED: &[&str] = &[
    "--exclude",
    "--include",
    "--filter",
    "-f",
    "--chmod",
    "--chown",
    "--usermap",
    "--groupmap",
    "--timeout",
    "--contimeout",
    "--port",
    "--bwlimit",
    "--backup-dir",
    "--suffix",
    "--temp-dir",
    "-T",
    "--compare-dest",
    "--copy-dest",
    "--link-dest",
    "--max-size",
    "--min-size",
    "--max-delete",
    "--modify-window",
    "--partial-dir",
    "--log-file-format",
    "--out-format",
    "--compress-level",
    "--iconv",
];

/// `rsync`'s options with a role (`-e` runs a remote shell program).
const RSYNC_OPTIONS: &[(&str, Role)] = &[
    ("-e", Role::Shell),
    ("--rsh", Role::Shell),
    ("--rsync-path", Role::Shell),
    ("--exclude-from", Role::Read),
    ("--include-from", Role::Read),
    ("--files-from", Role::Read),
    ("--password-file", Role::Read),
    ("--log-file", Role::Append),
];

/// `rsync`'s switches: every form of `--delete` deletes in the destination.
const RSYNC_SWITCHES: &[(&str, Switch)] = &[
    ("--delete", Switch::Delete),
    ("--delete-before", Switch::Delete),
    ("--delete-during", Switch::Delete),
    ("--delete-delay", Switch::Delete),
    ("--delete-after", Switch::Delete),
    ("--delete-excluded", Switch::Delete),
    ("--del", Switch::Delete),
    ("--remove-source-files", Switch::Operation),
];

/// `pip install`'s options.
const PIP_OPTIONS: &[(&str, Role)] = &[
    ("-i", Role::Source),
    ("--index-url", Role::Source),
    ("--extra-index-url", Role::Source),
    ("-f", Role::Source),
    ("--find-links", Role::Source),
    ("-r", Role::Read),
    ("--requirement", Role::Read),
    ("-c", Role::Read),
    ("--constraint", Role::Read),
    ("-e", Role::Package),
    ("--editable", Role::Package),
    ("-t", Role::Write),
    ("--target", Role::Write),
];

/// `pip install`'s options that take a value the effect model ignores.
const PIP_VALUED: &[&str] = &[
    "--trusted-host",
    "--python-version",
    "--platform",
    "--prefix",
    "--root",
    "--src",
    "--upgrade-strategy",
    "--progress-bar",
    "--timeout",
    "--proxy",
    "--retries",
    "--cache-dir",
    "--python",
    "-p",
    "--only-binary",
    "--no-binary",
    "--config-settings",
    "-C",
];

/// The node package managers' install options.
const NODE_INSTALL_OPTIONS: &[(&str, Role)] =
    &[("--registry", Role::Source), ("--prefix", Role::Write)];

/// Every program the effect model knows, tried in order for a program's base name.
pub(crate) static PROGRAMS: &[Program] = &[
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
            "vim",
            "vi",
            "nvim",
            "view",
            "nano",
            "emacs",
            "code",
            "ed",
            "ex",
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
        rest: Role::Read,
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
        rest: Role::Read,
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
    Program {
        // `openssl enc -in F -out G`, `openssl x509 -in cert`: options of one dash and a word.
        names: &["openssl"],
        word_options: true,
        valued: &[
            "-pass",
            "-passin",
            "-passout",
            "-k",
            "-md",
            "-cipher",
            "-subj",
            "-days",
            "-newkey",
            "-inform",
            "-outform",
            "-name",
            "-servername",
        ],
        options: &[
            ("-in", Role::Read),
            ("-out", Role::Write),
            ("-inkey", Role::Read),
            ("-key", Role::Read),
            ("-kfile", Role::Read),
            ("-CAfile", Role::Read),
            ("-cert", Role::Read),
            ("-signkey", Role::Read),
            ("-keyout", Role::Write),
            ("-connect", Role::Host),
        ],
        ..ROW
    },
    Program {
        names: &["gpg", "gpg2"],
        valued: &[
            "-r",
            "--recipient",
            "-u",
            "--local-user",
            "--default-key",
            "--homedir",
            "--keyserver",
            "--passphrase",
            "--cipher-algo",
            "--trust-model",
            "--pinentry-mode",
        ],
        options: &[
            ("-o", Role::Write),
            ("--output", Role::Write),
            ("--passphrase-file", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `zip -r out.zip dir`: the archive first.
        names: &["zip"],
        valued: &["-x", "-i", "-P", "--password", "-b", "-n", "-t", "-tt"],
        lead: &[Role::Write],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["unzip"],
        valued: &["-x", "-P"],
        options: &[("-d", Role::Write)],
        lead: &[Role::Read],
        ..ROW
    },
    Program {
        names: &["gzip", "bzip2", "xz", "zstd", "lz4", "compress", "pigz"],
        valued: &["-S", "--suffix", "-T", "--threads", "-b", "--block-size"],
        options: &[("-o", Role::Write), ("--output", Role::Write)],
        rest: Role::Read,
        ..ROW
    },
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
        names: &["yq"],
        subs: &[&["e"], &["eval"], &["ea"], &["eval-all"]],
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
    },
    Program {
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
    },
    // Interpreters: the first operand is a script file, read; its arguments are its own.
    Program {
        names: &["source", "."],
        lead: &[Role::Read],
        ..ROW
    },
    Program {
        names: &[
            "python",
            "python2",
            "python3",
            "pypy",
            "pypy3",
            "python3.8",
            "python3.9",
            "python3.10",
            "python3.11",
            "python3.12",
            "python3.13",
        ],
        valued: &["-W", "-X", "--check-hash-based-pycs"],
        options: &[("-c", Role::Code(Language::Python)), ("-m", Role::Ignore)],
        lead: &[Role::Read],
        lead_options: &["-c", "-m"],
        ..ROW
    },
    Program {
        names: &["node", "nodejs"],
        valued: NODE_VALUED,
        options: &[
            ("-e", Role::Code(Language::JavaScript)),
            ("--eval", Role::Code(Language::JavaScript)),
            ("-p", Role::Code(Language::JavaScript)),
            ("--print", Role::Code(Language::JavaScript)),
        ],
        lead: &[Role::Read],
        lead_options: &["-e", "--eval", "-p", "--print"],
        ..ROW
    },
    Program {
        // `bun x.ts`, `bun https://…/x.js`: a script that may be fetched.
        names: &["bun"],
        valued: NODE_VALUED,
        options: &[
            ("-e", Role::Code(Language::JavaScript)),
            ("--eval", Role::Code(Language::JavaScript)),
            ("-p", Role::Code(Language::JavaScript)),
            ("--print", Role::Code(Language::JavaScript)),
        ],
        lead: &[Role::Script],
        lead_options: &["-e", "--eval", "-p", "--print"],
        ..ROW
    },
    Program {
        names: &["tsx", "ts-node"],
        valued: NODE_VALUED,
        options: &[
            ("-e", Role::Code(Language::TypeScript)),
            ("--eval", Role::Code(Language::TypeScript)),
            ("-p", Role::Code(Language::TypeScript)),
            ("--print", Role::Code(Language::TypeScript)),
        ],
        lead: &[Role::Read],
        lead_options: &["-e", "--eval", "-p", "--print"],
        ..ROW
    },
    Program {
        // `deno x.ts`, `deno https://…/x.ts`: `deno run`'s short form.
        names: &["deno"],
        valued: DENO_VALUED,
        options: &[
            ("-e", Role::Code(Language::TypeScript)),
            ("--eval", Role::Code(Language::TypeScript)),
            ("-p", Role::Code(Language::TypeScript)),
            ("--print", Role::Code(Language::TypeScript)),
        ],
        lead: &[Role::Script],
        lead_options: &["-e", "--eval", "-p", "--print"],
        ..ROW
    },
    Program {
        // `deno eval CODE`.
        names: &["deno"],
        subs: &[&["eval"]],
        valued: DENO_VALUED,
        lead: &[Role::Code(Language::TypeScript)],
        ..ROW
    },
    Program {
        // `deno run -A x.ts`, `deno run npm:cowsay`, `bun run x.ts`: the script (or a
        // package script's name).
        names: &["deno", "bun"],
        subs: &[&["run"]],
        valued: DENO_VALUED,
        lead: &[Role::Script],
        ..ROW
    },
    Program {
        // `deno install [-g] URL|npm:x|jsr:@s/x`, `deno add jsr:@std/path`: packages (or a
        // script, by URL) installed; with none, the project's dependencies.
        names: &["deno"],
        subs: &[&["install"], &["i"], &["add"]],
        action: Action::Install,
        valued: DENO_VALUED,
        options: &[("--entrypoint", Role::Read)],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `deno serve x.ts`, `deno test`, `deno bench`: the scripts they run.
        names: &["deno"],
        subs: &[&["serve"], &["test"], &["bench"]],
        valued: DENO_VALUED,
        rest: Role::Script,
        ..ROW
    },
    Program {
        // `deno task build`, `deno fmt`, `deno lint`, `deno check`, …: a task name, files
        // formatted or checked, nothing run from a script operand.
        names: &["deno"],
        subs: &[
            &["task"],
            &["fmt"],
            &["lint"],
            &["check"],
            &["doc"],
            &["info"],
            &["cache"],
            &["compile"],
            &["upgrade"],
            &["repl"],
            &["init"],
            &["clean"],
            &["coverage"],
            &["types"],
            &["completions"],
            &["publish"],
            &["outdated"],
            &["remove"],
            &["uninstall"],
            &["jupyter"],
        ],
        valued: DENO_VALUED,
        ..ROW
    },
    Program {
        // `deno x npm:cowsay`: fetch a package and run it, as `npx` does.
        names: &["deno"],
        subs: &[&["x"]],
        action: Action::Install,
        valued: DENO_VALUED,
        lead: &[Role::Package],
        ..ROW
    },
    Program {
        // `perl -ne 'print' .env` reads `.env`; `perl -i -pe … f` writes it.
        names: &["perl", "ruby", "perl5"],
        valued: &["-I", "-M", "-m", "-r", "-F"],
        options: &[("-e", Role::Ignore), ("-E", Role::Ignore)],
        switches: &[("-i", Switch::InPlace)],
        lead: &[Role::Read],
        lead_options: &["-e", "-E"],
        rest_given: Some(Role::Read),
        ..ROW
    },
    Program {
        names: &[
            "php",
            "lua",
            "luajit",
            "Rscript",
            "tclsh",
            "wish",
            "osascript",
            "pwsh",
        ],
        options: &[
            ("-r", Role::Ignore),
            ("-e", Role::Ignore),
            ("-c", Role::Ignore),
            ("-Command", Role::Ignore),
        ],
        lead: &[Role::Read],
        lead_options: &["-r", "-e", "-c", "-Command"],
        ..ROW
    },
    Program {
        names: &["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"],
        valued: &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"],
        options: &[("-c", Role::Ignore)],
        // `-s`: the script is standard input and the operands are its arguments.
        switches: &[("-s", Switch::StdinScript)],
        lead: &[Role::Read],
        lead_options: &["-c"],
        ..ROW
    },
    // Writers.
    Program {
        names: &["tee"],
        switches: &[("-a", Switch::Append), ("--append", Switch::Append)],
        valued: &["--output-error"],
        rest: Role::Write,
        ..ROW
    },
    Program {
        names: &["cp", "install", "ln", "gcp", "ginstall"],
        action: Action::Copy { moves: false },
        valued: &[
            "-S",
            "--suffix",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "--backup",
            "--sparse",
            "--reflink",
            "--preserve",
            "--no-preserve",
            "--strip-program",
            "-Z",
            "--context",
        ],
        options: &[("-t", Role::Dest), ("--target-directory", Role::Dest)],
        switches: &[
            ("-d", Switch::AllWritten),
            ("--directory", Switch::AllWritten),
        ],
        ..ROW
    },
    Program {
        names: &["mv", "gmv"],
        action: Action::Copy { moves: true },
        valued: &["-S", "--suffix", "--backup", "-Z", "--context"],
        options: &[("-t", Role::Dest), ("--target-directory", Role::Dest)],
        ..ROW
    },
    Program {
        names: &["touch", "mkdir", "mkfifo", "mknod"],
        valued: &["-d", "--date", "-t", "-m", "--mode", "-Z", "--context"],
        options: &[("-r", Role::Read), ("--reference", Role::Read)],
        rest: Role::Write,
        ..ROW
    },
    Program {
        // `dd if=IN of=OUT`.
        names: &["dd"],
        assigns: &[("if", Role::Read), ("of", Role::Write)],
        ..ROW
    },
    Program {
        // `truncate -s 0 f` empties the file: a delete.
        names: &["truncate"],
        options: &[
            ("-s", Role::Size),
            ("--size", Role::Size),
            ("-r", Role::Read),
            ("--reference", Role::Read),
        ],
        rest: Role::Write,
        ..ROW
    },
    Program {
        names: &["patch"],
        valued: &[
            "-p", "--strip", "-F", "--fuzz", "-z", "--suffix", "-V", "-D",
        ],
        options: &[
            ("-i", Role::Read),
            ("--input", Role::Read),
            ("-o", Role::Write),
            ("--output", Role::Write),
            ("-d", Role::Ignore),
            ("-r", Role::Write),
        ],
        rest: Role::Write,
        ..ROW
    },
    Program {
        // `tar -czf out.tgz src`, `tar -xf in.tgz -C dir`: the archive is written when
        // creating, read otherwise; the other operands are read.
        names: &["tar", "gtar", "bsdtar"],
        valued: &[
            "--exclude",
            "-X",
            "--exclude-from",
            "--transform",
            "--owner",
            "--group",
            "--mode",
            "--strip-components",
            "-b",
            "--blocking-factor",
            "--format",
            "-H",
            "--use-compress-program",
            "-I",
        ],
        options: &[
            ("-f", Role::Ignore),
            ("--file", Role::Ignore),
            ("-C", Role::Ignore),
            ("--directory", Role::Ignore),
            ("-T", Role::Read),
            ("--files-from", Role::Read),
        ],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `7z a out.7z files`: the archive written, the files read.
        names: &["7z", "7za", "7zz", "rar"],
        subs: &[&["a"], &["u"]],
        lead: &[Role::Write],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `7z x in.7z`: the archive read.
        names: &["7z", "7za", "7zz", "rar", "unrar"],
        subs: &[&["x"], &["e"], &["l"], &["t"]],
        lead: &[Role::Read],
        ..ROW
    },
    Program {
        // `split -l 100 big.log part-`: the input, then the output prefix.
        names: &["split", "csplit", "gsplit"],
        valued: &[
            "-b",
            "--bytes",
            "-l",
            "--lines",
            "-n",
            "--number",
            "-a",
            "--suffix-length",
            "-C",
            "--line-bytes",
            "-t",
            "--separator",
            "--additional-suffix",
            "-f",
            "--prefix",
            "--suffix-format",
        ],
        lead: &[Role::Read],
        ..ROW
    },
    Program {
        // `sqlite3 app.db .dump`: the database, then SQL.
        names: &["sqlite3", "sqlite", "duckdb"],
        valued: &["-cmd", "-separator", "-newline", "-nullvalue"],
        options: &[("-init", Role::Read)],
        word_options: true,
        lead: &[Role::Read],
        ..ROW
    },
    // Deleters.
    Program {
        // Making a file system or swap erases the device.
        names: &[
            "mkfs",
            "mkfs.ext2",
            "mkfs.ext3",
            "mkfs.ext4",
            "mkfs.xfs",
            "mkfs.btrfs",
            "mkfs.vfat",
            "mkfs.fat",
            "mkfs.msdos",
            "mkfs.ntfs",
            "mkfs.exfat",
            "mke2fs",
            "mkswap",
            "wipefs",
            "blkdiscard",
        ],
        valued: &[
            "-t", "--type", "-L", "--label", "-b", "-O", "-E", "-N", "-m", "-U", "-I", "-i", "-T",
            "-C", "-n", "-o", "--offset",
        ],
        rest: Role::Wipe,
        ..ROW
    },
    Program {
        names: &[
            "rm",
            "grm",
            "srm",
            "trash",
            "trash-put",
            "rmdir",
            "unlink",
            "wipe",
        ],
        valued: &["--interactive"],
        switches: RECURSIVE,
        rest: Role::Delete,
        ..ROW
    },
    Program {
        names: &["shred"],
        valued: &[
            "-n",
            "--iterations",
            "-s",
            "--size",
            "--random-source",
            "--remove",
        ],
        rest: Role::Delete,
        ..ROW
    },
    Program {
        // `find START… -delete`: everything under the starts goes.
        names: &["find", "gfind"],
        action: Action::Find,
        word_options: true,
        options: &[
            ("-fprint", Role::Write),
            ("-fprint0", Role::Write),
            ("-fprintf", Role::Write),
            ("-fls", Role::Write),
        ],
        switches: &[("-delete", Switch::Delete)],
        ..ROW
    },
    Program {
        names: &["rsync"],
        action: Action::Copy { moves: false },
        valued: RSYNC_VALUED,
        options: RSYNC_OPTIONS,
        switches: RSYNC_SWITCHES,
        ..ROW
    },
    Program {
        names: &["scp"],
        action: Action::Copy { moves: false },
        valued: &["-P", "-o", "-c", "-l", "-S", "-X", "-D"],
        options: SSH_OPTIONS,
        ..ROW
    },
    // git.
    Program {
        // `git clean` deletes untracked files below the working directory.
        names: &["git"],
        subs: &[&["clean"]],
        global: GIT_GLOBAL,
        valued: &["-e", "--exclude"],
        rest: Role::Delete,
        fallback: Fallback::Cwd,
        ..ROW
    },
    Program {
        names: &["git"],
        subs: &[&["rm"]],
        global: GIT_GLOBAL,
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
        global: GIT_GLOBAL,
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
        global: GIT_GLOBAL,
        valued: GREP_VALUED,
        options: &[("-e", Role::Ignore), ("-f", Role::Read)],
        lead: &[Role::Ignore],
        lead_options: &["-e", "-f"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `git checkout -- f`, `git restore f`, `git reset --hard` overwrite files.
        names: &["git"],
        subs: &[&["checkout"], &["restore"], &["reset"]],
        global: GIT_GLOBAL,
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
        global: GIT_GLOBAL,
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
    // Object-store copies: `s3://…` / `gs://…` operands are remote.
    Program {
        names: &["aws"],
        subs: &[&["s3", "cp"], &["s3", "sync"], &["s3", "mv"]],
        global: &["--profile", "--region", "--endpoint-url", "--output"],
        action: Action::Copy { moves: false },
        valued: &[
            "--profile",
            "--region",
            "--endpoint-url",
            "--exclude",
            "--include",
            "--acl",
            "--storage-class",
            "--sse",
            "--content-type",
            "--expires",
            "--cache-control",
        ],
        switches: &[("--delete", Switch::Delete)],
        ..ROW
    },
    Program {
        names: &["gsutil", "gcloud"],
        subs: &[
            &["cp"],
            &["rsync"],
            &["mv"],
            &["storage", "cp"],
            &["storage", "rsync"],
            &["storage", "mv"],
        ],
        global: &["-o", "-h", "--project", "--account"],
        action: Action::Copy { moves: false },
        valued: &["-x", "-z", "-j", "-a", "--project"],
        switches: &[
            ("-d", Switch::Delete),
            ("--delete-unmatched-destination-objects", Switch::Delete),
        ],
        ..ROW
    },
    // Containers: bind mounts expose host paths.
    Program {
        names: &["docker", "podman", "nerdctl"],
        subs: &[
            &["run"],
            &["create"],
            &["container", "run"],
            &["container", "create"],
        ],
        global: &["-H", "--host", "--context", "-c", "--config"],
        valued: &[
            "-e",
            "--env",
            "-p",
            "--publish",
            "--name",
            "-w",
            "--workdir",
            "-u",
            "--user",
            "--network",
            "--net",
            "--entrypoint",
            "-h",
            "--hostname",
            "--platform",
            "-l",
            "--label",
            "--memory",
            "-m",
            "--cpus",
            "--restart",
            "--add-host",
            "--pull",
            "--log-driver",
            "--log-opt",
            "--cap-add",
            "--cap-drop",
            "--device",
            "--ulimit",
            "--security-opt",
            "--tmpfs",
            "--shm-size",
            "--gpus",
            "--pid",
            "--ipc",
            "--mount",
        ],
        options: &[
            ("-v", Role::Mount),
            ("--volume", Role::Mount),
            ("--env-file", Role::Read),
            ("--cidfile", Role::Write),
        ],
        ..ROW
    },
    // Senders.
    Program {
        names: &["curl", "curlie"],
        action: Action::Send,
        valued: CURL_VALUED,
        options: CURL_OPTIONS,
        switches: &[
            ("-G", Switch::Get),
            ("--get", Switch::Get),
            ("-O", Switch::RemoteName),
            ("--remote-name", Switch::RemoteName),
            ("--remote-name-all", Switch::RemoteName),
        ],
        rest: Role::Url,
        ..ROW
    },
    Program {
        names: &["wget", "wget2"],
        action: Action::Send,
        valued: WGET_VALUED,
        options: WGET_OPTIONS,
        rest: Role::Url,
        ..ROW
    },
    Program {
        names: &["http", "https", "httpie", "xh", "xhs"],
        action: Action::HttpItems,
        valued: &[
            "--auth-type",
            "-A",
            "--pretty",
            "-s",
            "--style",
            "-p",
            "--print",
            "--timeout",
            "--proxy",
            "--verify",
            "--cert",
            "--cert-key",
            "--session",
            "--session-read-only",
        ],
        options: &[
            ("-a", Role::Header),
            ("--auth", Role::Header),
            ("-o", Role::Write),
            ("--output", Role::Write),
        ],
        ..ROW
    },
    Program {
        names: &["nc", "ncat", "netcat", "telnet", "openssl-s_client"],
        action: Action::Connect,
        valued: &[
            "-p",
            "-s",
            "-w",
            "-i",
            "-q",
            "-x",
            "-X",
            "-I",
            "-O",
            "-T",
            "-V",
            "-P",
            "-W",
            "--source-port",
            "--source",
            "--wait",
            "--proxy",
            "--proxy-type",
        ],
        options: &[
            ("-e", Role::Shell),
            ("--exec", Role::Shell),
            ("-c", Role::Shell),
            ("--sh-exec", Role::Shell),
            ("--lua-exec", Role::Read),
            ("-o", Role::Write),
            ("--output", Role::Write),
        ],
        ..ROW
    },
    Program {
        names: &["socat"],
        action: Action::Socat,
        valued: &["-d", "-lf", "-t", "-T", "-b", "-L", "-W"],
        ..ROW
    },
    Program {
        names: &["ssh", "sftp", "mosh", "autossh", "ftp", "lftp", "tftp"],
        action: Action::Connect,
        valued: SSH_VALUED,
        options: SSH_OPTIONS,
        ..ROW
    },
    Program {
        names: &["sshpass"],
        options: &[("-f", Role::Read)],
        valued: &["-p", "-d", "-P"],
        ..ROW
    },
    Program {
        // `dig NAME`, `ping HOST`: the name is looked up (its servers see it).
        names: &[
            "dig",
            "nslookup",
            "host",
            "drill",
            "ping",
            "ping6",
            "traceroute",
            "tracepath",
            "mtr",
            "whois",
            "arping",
            "fping",
            "hping3",
            "nmap",
        ],
        action: Action::Resolve,
        valued: &[
            "-c", "-i", "-W", "-w", "-t", "-p", "-s", "-I", "-q", "-b", "-f", "-m", "-x", "-k",
            "-y", "-l", "-Q", "-S", "-T", "-h",
        ],
        rest: Role::Host,
        ..ROW
    },
    // Signals.
    Program {
        names: &["kill"],
        action: Action::Signal,
        options: &[
            ("-s", Role::Signal),
            ("-n", Role::Signal),
            ("--signal", Role::Signal),
        ],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["pkill", "killall", "pkill.exe", "skill", "slay"],
        action: Action::Signal,
        valued: &[
            "-u",
            "-U",
            "-g",
            "-G",
            "-P",
            "-t",
            "--euid",
            "--uid",
            "--pgroup",
            "--group",
            "--parent",
            "--terminal",
            "--session",
            "-o",
            "--older-than",
            "-y",
            "--younger-than",
            "-c",
            "--context",
            "-F",
            "--pidfile",
        ],
        options: &[("--signal", Role::Signal), ("-s", Role::Signal)],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["systemctl"],
        subs: &[
            &["stop"],
            &["kill"],
            &["restart"],
            &["try-restart"],
            &["reload-or-restart"],
            &["disable"],
            &["mask"],
            &["isolate"],
            &["poweroff"],
            &["reboot"],
            &["halt"],
            &["suspend"],
        ],
        global: &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "--state",
            "-p",
            "--property",
        ],
        action: Action::Signal,
        options: &[
            ("-s", Role::Signal),
            ("--signal", Role::Signal),
            ("--kill-whom", Role::Ignore),
        ],
        rest: Role::Target,
        ..ROW
    },
    Program {
        names: &["service", "rc-service"],
        action: Action::Service,
        ..ROW
    },
    Program {
        names: &["launchctl"],
        subs: &[
            &["unload"],
            &["bootout"],
            &["stop"],
            &["remove"],
            &["disable"],
            &["kill"],
        ],
        action: Action::Signal,
        rest: Role::Target,
        ..ROW
    },
    // Permissions.
    Program {
        names: &["chmod", "chown", "chgrp", "lchown", "chflags"],
        action: Action::Permission,
        valued: &["--from"],
        options: &[("--reference", Role::Read)],
        switches: RECURSIVE,
        lead: &[Role::Mode],
        lead_options: &["--reference"],
        rest: Role::Permission,
        ..ROW
    },
    Program {
        names: &["setfacl"],
        action: Action::Permission,
        options: &[
            ("-m", Role::Mode),
            ("--modify", Role::Mode),
            ("-x", Role::Mode),
            ("--remove", Role::Mode),
            ("--set", Role::Mode),
            ("-M", Role::Read),
            ("--modify-file", Role::Read),
            ("-X", Role::Read),
            ("--remove-file", Role::Read),
            ("--set-file", Role::Read),
        ],
        switches: RECURSIVE,
        rest: Role::Permission,
        ..ROW
    },
    Program {
        names: &["chattr"],
        action: Action::Chattr,
        ..ROW
    },
    // Installs.
    Program {
        names: &["npm", "pnpm", "yarn", "bun", "cnpm"],
        subs: &[
            &["install"],
            &["i"],
            &["add"],
            &["ci"],
            &["isntall"],
            &["global", "add"],
        ],
        global: &["--prefix", "-C", "--cwd", "--dir"],
        action: Action::Install,
        valued: &[
            "--tag",
            "--omit",
            "--include",
            "--workspace",
            "-w",
            "--filter",
            "--network-timeout",
        ],
        options: NODE_INSTALL_OPTIONS,
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `npx pkg`, `pnpm dlx pkg`, `uvx pkg`, `pipx run pkg`: fetch a package and run it.
        names: &["npx", "bunx", "pnpx"],
        valued: &[
            "--node-options",
            "--cache",
            "--userconfig",
            "-w",
            "--workspace",
        ],
        options: &[
            ("-p", Role::Package),
            ("--package", Role::Package),
            ("-c", Role::Shell),
            ("--call", Role::Shell),
            ("--registry", Role::Source),
        ],
        action: Action::Install,
        lead: &[Role::Package],
        lead_options: &["-p", "--package", "-c", "--call"],
        ..ROW
    },
    Program {
        names: &["npm", "pnpm", "yarn", "bun"],
        subs: &[&["dlx"], &["exec"], &["x"]],
        options: &[
            ("-p", Role::Package),
            ("--package", Role::Package),
            ("-c", Role::Shell),
            ("--call", Role::Shell),
            ("--registry", Role::Source),
        ],
        action: Action::Install,
        lead: &[Role::Package],
        lead_options: &["-p", "--package", "-c", "--call"],
        ..ROW
    },
    Program {
        names: &["uvx", "pipx", "uv"],
        subs: &[&["run"], &["tool", "run"]],
        valued: &["--python", "-p", "--spec"],
        options: &[
            ("--from", Role::Package),
            ("--with", Role::Package),
            ("--index-url", Role::Source),
            ("-i", Role::Source),
            ("--index", Role::Source),
        ],
        action: Action::Install,
        lead: &[Role::Package],
        lead_options: &["--from"],
        ..ROW
    },
    Program {
        names: &["uvx"],
        valued: &["--python", "-p"],
        options: &[
            ("--from", Role::Package),
            ("--with", Role::Package),
            ("--index-url", Role::Source),
            ("-i", Role::Source),
            ("--index", Role::Source),
        ],
        action: Action::Install,
        lead: &[Role::Package],
        lead_options: &["--from"],
        ..ROW
    },
    Program {
        // A power change signals every process.
        names: &["reboot", "poweroff", "halt", "shutdown"],
        action: Action::Signal,
        valued: &["-t"],
        ..ROW
    },
    Program {
        names: &[
            "pip", "pip3", "pip2", "pipx", "uv", "poetry", "pdm", "pipenv", "conda", "mamba",
        ],
        subs: &[
            &["install"],
            &["pip", "install"],
            &["add"],
            &["tool", "install"],
            &["inject"],
        ],
        global: &["--python", "-p", "--directory", "-n", "--name", "--prefix"],
        action: Action::Install,
        valued: PIP_VALUED,
        options: PIP_OPTIONS,
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["cargo"],
        subs: &[&["install"], &["add"], &["binstall"]],
        action: Action::Install,
        valued: &[
            "--version",
            "--vers",
            "--bin",
            "--features",
            "-F",
            "--target",
            "--root",
            "--branch",
            "--tag",
            "--rev",
            "-j",
            "--jobs",
            "--profile",
            "--rename",
            "--package",
            "-p",
        ],
        options: &[
            ("--git", Role::Source),
            ("--index", Role::Source),
            ("--registry", Role::Source),
            ("--path", Role::Package),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["gem"],
        subs: &[&["install"], &["i"]],
        action: Action::Install,
        valued: &[
            "-v",
            "--version",
            "-i",
            "--install-dir",
            "-n",
            "--bindir",
            "--platform",
        ],
        options: &[
            ("-s", Role::Source),
            ("--source", Role::Source),
            ("--clear-sources", Role::Ignore),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["go"],
        subs: &[&["install"], &["get"]],
        action: Action::Install,
        valued: &[
            "-tags", "-ldflags", "-gcflags", "-o", "-mod", "-modfile", "-p",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["brew"],
        subs: &[&["install"], &["reinstall"], &["upgrade"], &["tap"]],
        action: Action::Install,
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &[
            "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap",
            "flatpak", "port", "nix-env", "choco", "winget", "scoop",
        ],
        subs: &[
            &["install"],
            &["add"],
            &["reinstall"],
            &["localinstall"],
            &["in"],
        ],
        global: &[
            "-o",
            "-c",
            "-t",
            "--target-release",
            "--repo",
            "--setopt",
            "-X",
            "--repository",
        ],
        action: Action::Install,
        valued: &[
            "-o",
            "-t",
            "--target-release",
            "--setopt",
            "--releasever",
            "--installroot",
        ],
        options: &[
            ("--repofrompath", Role::Source),
            ("--enablerepo", Role::Source),
            ("-X", Role::Source),
            ("--repository", Role::Source),
            ("--from-repo", Role::Source),
            ("--source", Role::Source),
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        names: &["pacman", "yay", "paru"],
        action: Action::Install,
        switches: &[
            ("-S", Switch::Operation),
            ("-U", Switch::Operation),
            ("--sync", Switch::Operation),
            ("--upgrade", Switch::Operation),
        ],
        valued: &[
            "--root",
            "-r",
            "--dbpath",
            "-b",
            "--cachedir",
            "--config",
            "--arch",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `dpkg -i x.deb`, `rpm -ivh x.rpm`: only the install operation installs.
        names: &["dpkg", "rpm", "installer", "pkg"],
        action: Action::Install,
        switches: &[
            ("-i", Switch::Operation),
            ("-U", Switch::Operation),
            ("--install", Switch::Operation),
            ("--upgrade", Switch::Operation),
        ],
        valued: &[
            "--root",
            "--admindir",
            "--instdir",
            "--dbpath",
            "-target",
            "-pkg",
        ],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `apt-key add KEYFILE` trusts a signing key.
        names: &["apt-key"],
        subs: &[&["add"]],
        action: Action::Install,
        valued: &["--keyring"],
        rest: Role::Read,
        ..ROW
    },
    Program {
        names: &["add-apt-repository", "apt-add-repository"],
        action: Action::Install,
        valued: &["-k", "--keyserver", "-c", "--component", "--pocket"],
        rest: Role::Source,
        ..ROW
    },
];

/// `deno`'s options that take a value.
const DENO_VALUED: &[&str] = &[
    "--config",
    "-c",
    "--import-map",
    "--env-file",
    "--location",
    "--seed",
    "--lock",
    "--cert",
    "-n",
    "--name",
    "--root",
    "--v8-flags",
    "--ext",
];

/// Options of `node`-like runtimes that take a value the effect model ignores.
const NODE_VALUED: &[&str] = &[
    "-r",
    "--require",
    "--loader",
    "--import",
    "--experimental-loader",
    "--env-file",
    "--inspect-port",
    "--title",
    "--conditions",
    "-C",
];

/// The language an interpreter reads as code from standard input when it is given no script
/// (`python3 - <<EOF`, `node <<EOF`), if it is one the inline-code lens reads.
pub(crate) fn stdin_language(program: &str) -> Option<Language> {
    if program.starts_with("python") || program.starts_with("pypy") {
        Some(Language::Python)
    } else if matches!(program, "node" | "nodejs" | "bun") {
        Some(Language::JavaScript)
    } else if matches!(program, "tsx" | "ts-node") {
        Some(Language::TypeScript)
    } else {
        None
    }
}

/// The words of one command sorted by the role its row gives them.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The row.
    pub(crate) row: &'static Program,
    /// The subcommand words matched (`["pip", "install"]`).
    pub(crate) sub: Vec<String>,
    /// Option values (and `key=value` operands) with their roles, in order.
    pub(crate) values: Vec<(Role, Arg)>,
    /// Switches given.
    pub(crate) switches: Vec<Switch>,
    /// Short options the row does not know (`-9` of `kill`, `-SIGKILL`), as written.
    pub(crate) other_flags: Vec<Arg>,
    /// The operands after the subcommand, each with its role.
    pub(crate) operands: Vec<(Role, Arg)>,
    /// A `lead_options` option gave the lead.
    pub(crate) lead_given: bool,
    /// How many of the positional words came before `--` (all of them without one).
    pub(crate) before_dashes: usize,
    /// Shell text given to options that run it (`--pre CMD`, `-e CMD`), with the option.
    pub(crate) scripts: Vec<(String, Arg)>,
    /// Code the inline-code lens reads (`-c CODE`, `-e CODE`), with the option and language.
    pub(crate) codes: Vec<(String, Language, Arg)>,
}

impl Parsed {
    /// Record an option's value; shell text is kept with the option that runs it.
    fn value(&mut self, option: &str, role: Role, v: Arg) {
        if role == Role::Shell {
            self.scripts.push((option.to_string(), v.clone()));
        }
        if let Role::Code(lang) = role {
            self.codes.push((option.to_string(), lang, v.clone()));
        }
        self.values.push((role, v));
    }

    /// Whether the switch was given.
    pub(crate) fn has(&self, s: Switch) -> bool {
        self.switches.contains(&s)
    }

    /// The option values with a role.
    pub(crate) fn values_of(&self, role: Role) -> impl Iterator<Item = &Arg> {
        self.values
            .iter()
            .filter(move |(r, _)| *r == role)
            .map(|(_, a)| a)
    }

    /// The operands with a role.
    pub(crate) fn operands_of(&self, role: Role) -> impl Iterator<Item = &Arg> {
        self.operands
            .iter()
            .filter(move |(r, _)| *r == role)
            .map(|(_, a)| a)
    }
}

/// The row for a command and its words sorted by role; `None` for a program the table does
/// not know (or a subcommand none of its rows covers).
pub(crate) fn parse(c: &SimpleCommand) -> Option<Parsed> {
    let base = c.basename();
    let rows = || PROGRAMS.iter().filter(move |p| p.names.contains(&base));
    // A row for a subcommand wins over the program's general row (`bun install` is not
    // `bun SCRIPT`).
    rows()
        .filter(|p| !p.subs.is_empty())
        .find_map(|p| parse_row(p, &c.args))
        .or_else(|| {
            rows()
                .filter(|p| p.subs.is_empty())
                .find_map(|p| parse_row(p, &c.args))
        })
}

/// An argument word with new text (an inline option value), dynamic as its word.
fn part(a: &Arg, text: &str) -> Arg {
    Arg {
        text: text.to_string(),
        dynamic: a.dynamic,
    }
}

/// Read `args` by `row`; `None` when the row's subcommand does not match.
fn parse_row(row: &'static Program, args: &[Arg]) -> Option<Parsed> {
    // Where the words after the subcommand start, and where the subcommand starts.
    let mut i = 0;
    let mut sub_start = 0;
    let mut sub = Vec::new();
    if !row.subs.is_empty() {
        // Skip options before each subcommand word (`git -C d diff`, `apt-get -y install`,
        // `npm --registry URL install`).
        let mut words: Vec<(usize, &Arg)> = Vec::new();
        let want = row.subs.iter().map(|s| s.len()).max().unwrap_or(0);
        let mut j = 0;
        while let Some(a) = args.get(j) {
            if words.len() == want {
                break;
            }
            let t = a.text.as_str();
            if t.starts_with('-') && t.len() > 1 && !row.subs.iter().any(|s| s.first() == Some(&t))
            {
                let takes = row.global.contains(&t)
                    || row.valued.contains(&t)
                    || row.options.iter().any(|(o, _)| *o == t);
                j += if takes { 2 } else { 1 };
                continue;
            }
            words.push((j, a));
            j += 1;
        }
        let matched = row.subs.iter().find(|s| {
            s.len() <= words.len()
                && s.iter()
                    .zip(&words)
                    .all(|(w, (_, a))| !a.dynamic && a.text == *w)
        })?;
        sub_start = words.first().map_or(0, |(k, _)| *k);
        i = words
            .get(matched.len() - 1)
            .map(|(k, _)| k + 1)
            .unwrap_or(0);
        sub = matched.iter().map(|s| s.to_string()).collect();
    }
    let mut out = Parsed {
        row,
        sub,
        values: Vec::new(),
        switches: Vec::new(),
        other_flags: Vec::new(),
        operands: Vec::new(),
        lead_given: false,
        before_dashes: usize::MAX,
        scripts: Vec::new(),
        codes: Vec::new(),
    };
    let mut scan = Scan::default();
    // Options before the subcommand (its global options take values too), then the rest.
    scan.words(
        row,
        args.get(..sub_start).unwrap_or_default(),
        true,
        &mut out,
    );
    scan.words(row, args.get(i..).unwrap_or_default(), false, &mut out);
    // The leading operands, unless an option gave them.
    let mut rest = scan.positional.as_slice();
    if out.switches.contains(&Switch::StdinScript) {
        rest = &[];
    }
    if !out.lead_given {
        for r in row.lead {
            let Some((first, tail)) = rest.split_first() else {
                break;
            };
            out.operands.push((*r, first.clone()));
            rest = tail;
        }
    }
    let role = match (out.lead_given, row.rest_given) {
        (true, Some(r)) => r,
        _ => row.rest,
    };
    for a in rest {
        out.operands.push((role, a.clone()));
    }
    Some(out)
}

/// The state of reading a command's words by its row.
#[derive(Default)]
struct Scan {
    /// The positional words so far.
    positional: Vec<Arg>,
    /// `--` was seen (or `jq --args`): every word is positional.
    after_dashes: bool,
    /// In `find`, the expression started: no more operands.
    expression: bool,
}

impl Scan {
    /// Read `args` by `row` into `out`; `global`: the words before the subcommand.
    fn words(&mut self, row: &Program, args: &[Arg], global: bool, out: &mut Parsed) {
        let valued_role = |name: &str| -> Option<Role> {
            row.options
                .iter()
                .find(|(o, _)| *o == name)
                .map(|(_, r)| *r)
                .or_else(|| {
                    (row.valued.contains(&name) || (global && row.global.contains(&name)))
                        .then_some(Role::Ignore)
                })
        };
        let switch = |name: &str| -> Option<Switch> {
            row.switches
                .iter()
                .find(|(o, _)| *o == name)
                .map(|(_, s)| *s)
        };
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            let t = a.text.as_str();
            if self.after_dashes || t == "-" || !t.starts_with('-') {
                if row.action == Action::Find && (self.expression || t == "(" || t == "!") {
                    self.expression = true;
                    continue;
                }
                if let Some((k, v)) = t.split_once('=')
                    && let Some((_, r)) = row.assigns.iter().find(|(n, _)| *n == k)
                {
                    out.values.push((*r, part(a, v)));
                    continue;
                }
                self.positional.push(a.clone());
                continue;
            }
            if t == "--" {
                self.after_dashes = true;
                out.before_dashes = out.before_dashes.min(self.positional.len());
                continue;
            }
            if row.action == Action::Find {
                self.expression = true;
            }
            if let Some(long) =
                t.strip_prefix("--")
                    .or(if row.word_options { Some(t) } else { None })
            {
                let name_end = long.find('=').map(|k| k + t.len() - long.len());
                let name = name_end.map_or(t, |k| &t[..k]);
                if let Some((_, r)) = row.pairs.iter().find(|(o, _)| *o == name) {
                    if let Some(v) = args.get(i + 1) {
                        out.values.push((*r, v.clone()));
                    }
                    i += 2;
                    continue;
                }
                if let Some(r) = valued_role(name) {
                    let v = match name_end {
                        Some(k) => Some(part(a, &t[k + 1..])),
                        None => {
                            i += 1;
                            args.get(i - 1).cloned()
                        }
                    };
                    if let Some(v) = v {
                        out.lead_given |= row.lead_options.contains(&name);
                        out.value(name, r, v);
                    }
                    continue;
                }
                if let Some(s) = switch(name) {
                    out.switches.push(s);
                    if s == Switch::ArgsFollow {
                        self.after_dashes = true;
                    }
                } else if row.word_options {
                    out.other_flags.push(a.clone());
                }
                if row.word_options || t.starts_with("--") {
                    continue;
                }
            }
            // A bundle of short options: `-rf`, `-n100`, `-ne CODE`, `-i.bak`, `-s0`.
            let mut unknown = false;
            for (k, ch) in t.char_indices().skip(1) {
                let name = format!("-{ch}");
                let after = &t[k + ch.len_utf8()..];
                if let Some(r) = valued_role(&name) {
                    out.lead_given |= row.lead_options.contains(&name.as_str());
                    if after.is_empty() {
                        if let Some(v) = args.get(i) {
                            out.value(&name, r, v.clone());
                        }
                        i += 1;
                    } else {
                        out.value(&name, r, part(a, after));
                    }
                    break;
                }
                if let Some(s) = switch(&name) {
                    out.switches.push(s);
                    if s == Switch::InPlace {
                        break;
                    }
                    continue;
                }
                unknown = true;
            }
            if unknown {
                out.other_flags.push(a.clone());
            }
        }
    }
}

/// Whether an operand names a remote place: a URL (`https://…`, `ssh://…`) or an scp-style
/// `[user@]host:path` (a colon before any slash, not a Windows drive).
pub(crate) fn is_remote(t: &str) -> bool {
    if t.contains("://") {
        return true;
    }
    let Some((host, _)) = t.split_once(':') else {
        return false;
    };
    !host.is_empty() && !host.contains('/') && host.len() > 1 && !t.starts_with(['.', '~', '/'])
}
