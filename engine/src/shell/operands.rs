//! What seamguard knows about individual programs' command lines, as data: which `git`
//! options take a value before the subcommand, which search and edit tools take a pattern or
//! script before their files, which `git push` options force, delete or push every ref.
//!
//! In: one analysed [`SimpleCommand`]. Out: its flags, its positional arguments and the
//! operands a path or argument test should look at.

use crate::shell::{Arg, SimpleCommand};

/// `git` global options that take the next argument as their value (`git -C dir push`):
/// that value is not the subcommand.
pub(crate) const GIT_GLOBAL_OPTIONS_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
];

/// Programs that read a shell script (`bash -c '…'`, `bash file`, `… | bash`).
pub(crate) const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox"];

/// Search and edit tools that take a pattern or script before their files (case PP-01:
/// `grep -n '.env' .gitignore` reads .gitignore, not .env).
pub(crate) const PATTERN_FIRST_PROGRAMS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk",
];

/// Options that give a [`PATTERN_FIRST_PROGRAMS`] tool its pattern or script, so that its
/// first operand is a file again.
pub(crate) const PATTERN_OPTIONS: &[&str] = &["-e", "-f", "--regexp", "--file", "--expression"];

/// `git push` options that overwrite remote history.
pub(crate) const GIT_PUSH_FORCE_FLAGS: &[&str] = &[
    "--force",
    "-f",
    "--force-with-lease",
    "--mirror",
    "--force-if-includes",
];

/// `git push` options that overwrite remote history without checking it is what was seen
/// (no lease).
pub(crate) const GIT_PUSH_UNLEASED_FLAGS: &[&str] = &["--force", "-f", "--mirror"];

/// `git push` options that delete remote refs.
pub(crate) const GIT_PUSH_DELETE_FLAGS: &[&str] = &["--delete", "-d"];

/// `git push` options that update refs not named on the command line.
pub(crate) const GIT_PUSH_ALL_REFS_FLAGS: &[&str] = &["--mirror", "--all"];

/// The last component of a program path (`/usr/bin/git` → `git`).
pub(crate) fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// The flags of a command, one per letter for bundled short flags (`-rf` → `-r`, `-f`), long
/// flags without their `=value`; nothing after `--`.
pub(crate) fn cmd_flags(c: &SimpleCommand) -> Vec<String> {
    let mut out = Vec::new();
    for a in &c.args {
        let t = a.text.as_str();
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            if !long.is_empty() {
                out.push(format!("--{}", long.split('=').next().unwrap_or(long)));
            }
        } else if t.len() > 1 && t.starts_with('-') {
            out.extend(t.chars().skip(1).map(|ch| format!("-{ch}")));
        }
    }
    out
}

/// The positional arguments of a command: everything that is not a flag, everything after
/// `--`, and not the values of `git`'s global options.
pub(crate) fn positionals(c: &SimpleCommand) -> Vec<&Arg> {
    let mut out = Vec::new();
    let mut after = false;
    let git = base(&c.program) == "git";
    let mut skip_next = false;
    for a in &c.args {
        if skip_next {
            skip_next = false;
            continue;
        }
        let t = a.text.as_str();
        if after {
            out.push(a);
            continue;
        }
        if t == "--" {
            after = true;
            continue;
        }
        if git && out.is_empty() && GIT_GLOBAL_OPTIONS_WITH_VALUE.contains(&t) {
            skip_next = true;
            continue;
        }
        // A flag word holding `$IFS` (`rm -rf${IFS}$HOME`) splits into more words at run
        // time: what follows the split is an operand, only known then.
        if t.starts_with('-') && t.len() > 1 && !(a.dynamic && t.contains("IFS")) {
            continue;
        }
        out.push(a);
    }
    out
}

/// The operands a path or argument test looks at: the positionals after the subcommand (when
/// the test names one), without the pattern or script of a search or edit tool.
pub(crate) fn operands<'c>(
    c: &SimpleCommand,
    positionals: &[&'c Arg],
    has_subcommand: bool,
) -> Vec<&'c Arg> {
    let mut operands: Vec<&Arg> = if has_subcommand {
        positionals.iter().skip(1).copied().collect()
    } else {
        positionals.to_vec()
    };
    if PATTERN_FIRST_PROGRAMS.contains(&base(&c.program))
        && !cmd_flags(c)
            .iter()
            .any(|f| PATTERN_OPTIONS.contains(&f.as_str()))
        && !operands.is_empty()
    {
        operands.remove(0);
    }
    operands
}
