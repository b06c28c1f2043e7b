//! What seamguard knows about individual programs' command lines, as data: which global
//! options of a CLI take a value (the program table's [`globals`]), which search and edit tools take a pattern or
//! script before their files, which `git push` options force, delete or push every ref.
//!
//! In: one analysed [`SimpleCommand`]. Out: its flags, its positional arguments and the
//! operands a path or argument test should look at.

use crate::effects::programs::globals;
use crate::shell::{Arg, SimpleCommand};

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
/// `--`, and not the values of the CLI's global options (`kubectl --context prod delete`,
/// `git -C dir push`; the program table's [`globals`]) nor a `cargo +toolchain` word, so
/// that the first positional is the subcommand.
pub(crate) fn positionals(c: &SimpleCommand) -> Vec<&Arg> {
    let mut out = Vec::new();
    let mut after = false;
    let globals = globals::of(c.basename());
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
        if let Some(g) = globals
            && (out.is_empty() || g.anywhere)
        {
            if g.valued.contains(&t) {
                skip_next = true;
                continue;
            }
            if g.toolchain && out.is_empty() && t.starts_with('+') {
                continue;
            }
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
    if PATTERN_FIRST_PROGRAMS.contains(&c.basename()) {
        if !cmd_flags(c)
            .iter()
            .any(|f| PATTERN_OPTIONS.contains(&f.as_str()))
            && !operands.is_empty()
        {
            operands.remove(0);
        }
        // The word after `-e` / `--regexp` / `--expression` is a pattern or script, never a
        // file (`grep -e .env notes.txt` reads notes.txt only); `-f FILE` names a file it
        // reads. A word known only at run time stays an operand: unquoted, it can split into
        // more words.
        let patterns: Vec<&Arg> = c
            .args
            .windows(2)
            .filter(|w| matches!(w[0].text.as_str(), "-e" | "--regexp" | "--expression"))
            .filter(|w| !w[1].dynamic)
            .map(|w| &w[1])
            .collect();
        operands.retain(|o| !patterns.iter().any(|p| std::ptr::eq(*p, *o)));
    }
    operands
}

#[cfg(test)]
mod tests {
    use super::{operands, positionals};
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    /// The positionals of the first command of `line`, as text.
    fn pos(line: &str) -> Vec<String> {
        let a = BrushAnalyzer.analyze(line, None);
        let c = a.commands.first().expect("a command");
        positionals(c).iter().map(|a| a.text.clone()).collect()
    }

    #[test]
    fn global_option_values_are_not_the_subcommand() {
        assert_eq!(
            pos("kubectl --context prod delete ns payments"),
            ["delete", "ns", "payments"]
        );
        assert_eq!(
            pos("kubectl -n prod delete namespace prod"),
            ["delete", "namespace", "prod"]
        );
        // cobra takes global flags after the subcommand too.
        assert_eq!(
            pos("kubectl delete -n prod deploy web"),
            ["delete", "deploy", "web"]
        );
        assert_eq!(pos("helm -n prod uninstall web"), ["uninstall", "web"]);
        assert_eq!(
            pos("git -C /tmp/x push origin main"),
            ["push", "origin", "main"]
        );
        assert_eq!(
            pos("docker -H tcp://h:2375 volume rm d"),
            ["volume", "rm", "d"]
        );
        assert_eq!(
            pos("aws --profile prod ec2 terminate-instances --instance-ids i-1"),
            ["ec2", "terminate-instances", "i-1"]
        );
        assert_eq!(
            pos("gcloud --project p compute instances delete vm1"),
            ["compute", "instances", "delete", "vm1"]
        );
        assert_eq!(
            pos("az --subscription s group delete -n rg"),
            ["group", "delete", "rg"]
        );
        assert_eq!(pos("npm --prefix web install"), ["install"]);
        assert_eq!(pos("cargo +nightly -Z unstable-options build"), ["build"]);
        assert_eq!(pos("terraform -chdir=infra destroy"), ["destroy"]);
    }

    #[test]
    fn a_subcommand_option_after_the_subcommand_is_its_own() {
        // `git commit -C HEAD`: `-C` reuses a message; HEAD is the subcommand's operand.
        assert_eq!(pos("git commit -C HEAD"), ["commit", "HEAD"]);
        // `docker run -c 512 img`: after the subcommand it is `run`'s cpu shares.
        assert_eq!(pos("docker run -c 512 img"), ["run", "512", "img"]);
    }

    #[test]
    fn the_word_after_a_pattern_option_is_no_operand_unless_it_can_split() {
        let ops = |line: &str| -> Vec<String> {
            let a = BrushAnalyzer.analyze(line, None);
            let c = a.commands.first().expect("a command");
            let pos = positionals(c);
            operands(c, &pos, false)
                .iter()
                .map(|a| a.text.clone())
                .collect()
        };
        assert_eq!(ops("grep -e .env -e token notes.txt"), ["notes.txt"]);
        assert_eq!(ops("grep -f ~/.ssh/id_rsa x"), ["~/.ssh/id_rsa", "x"]);
        assert_eq!(ops("grep -e $P notes.txt"), ["$P", "notes.txt"]);
    }
}
