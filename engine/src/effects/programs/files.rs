//! Programs that change files: crypto and archive tools, writers (`tee`, `cp`, `mv`, `dd`,
//! `tar`), deleters (`rm`, `shred`, `find -delete`) and copies to other hosts (`rsync`,
//! `scp`).

use super::network::SSH_OPTIONS;
use super::row::{Action, Program, RECURSIVE, ROW, Role, Switch};

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

/// The files rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
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
        // zip(1): `-T` tests the new archive with `unzip -tqq`, or with the command line
        // `-TT CMD` / `--unzip-command CMD` gives (run only with `-T`); `-m`, `--move`
        // delete the original files once zipped.
        options: &[("-TT", Role::Shell), ("--unzip-command", Role::Shell)],
        switches: &[
            ("-T", Switch::Test),
            ("--test", Switch::Test),
            ("-m", Switch::RemovesInputs),
            ("--move", Switch::RemovesInputs),
        ],
        scripts_need: Some(Switch::Test),
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
        // `install -m 4755 a b`: the mode of what it writes.
        options: &[
            ("-t", Role::Dest),
            ("--target-directory", Role::Dest),
            ("-m", Role::Mode),
            ("--mode", Role::Mode),
        ],
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
        ],
        // tar(1): a compressor, a command fed each member, a script run at each new volume,
        // and `--checkpoint-action=exec=CMD` run the command they are given.
        options: &[
            ("-f", Role::Ignore),
            ("--file", Role::Ignore),
            ("-C", Role::Ignore),
            ("--directory", Role::Ignore),
            ("-T", Role::Read),
            ("--files-from", Role::Read),
            ("--use-compress-program", Role::Shell),
            ("-I", Role::Shell),
            ("--to-command", Role::Shell),
            ("--info-script", Role::Shell),
            ("--new-volume-script", Role::Shell),
            ("-F", Role::Shell),
            ("--checkpoint-action", Role::ShellSetting),
        ],
        // tar(1): `--remove-files` removes files after adding them to the archive.
        switches: &[("--remove-files", Switch::RemovesInputs)],
        rest: Role::Read,
        ..ROW
    },
    Program {
        // `7z a out.7z files`: the archive written, the files read.
        names: &["7z", "7za", "7zz", "rar"],
        subs: &[&["a"], &["u"]],
        // 7z `-sdel`: delete files after compression; rar `m` is its own subcommand.
        switches: &[("-sdel", Switch::RemovesInputs)],
        // 7z switches are words (`-mx9`, `-sdel`), not bundles of letters.
        word_options: true,
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
        // sqlite3(1): the SQL and dot-commands after the database (and `-cmd`'s) run;
        // `.shell CMD` and `.system CMD` run CMD through the shell.
        names: &["sqlite3", "sqlite", "duckdb"],
        valued: &["-separator", "-newline", "-nullvalue"],
        options: &[("-init", Role::Read), ("-cmd", Role::Escape)],
        word_options: true,
        lead: &[Role::Read],
        rest: Role::Escape,
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
        // Node's deleters (`rimraf DIR…`, `del-cli GLOB…`): each operand goes with
        // everything below it, as `rm -rf` (their READMEs).
        names: &["rimraf", "del-cli"],
        valued: &[
            "--tmp",
            "--impl",
            "--max-retries",
            "--retry-delay",
            "--backoff",
        ],
        rest: Role::Wipe,
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
];
