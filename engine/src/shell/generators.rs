//! Shell-environment generators: programs whose output is shell code that only defines the
//! environment (variables, `PATH`, functions, completions, prompt hooks), made to be run
//! with `eval "$(pyenv init -)"` or `source <(fnm env)`.
//!
//! In: a simple command. Out: whether it is one of them. What such a line runs is the
//! generator itself (a program policies judge like any other); the text it prints is not a
//! part seamguard cannot see, so `eval` / `source` of it does not make the line unsure.

use super::model::SimpleCommand;

/// One generator: the program and the words that must follow it (options such as `-`,
/// `--path`, `-s` and shell names may come after them).
struct Generator {
    program: &'static str,
    words: &'static [&'static str],
}

/// Shorthand for a table row.
const fn g(program: &'static str, words: &'static [&'static str]) -> Generator {
    Generator { program, words }
}

/// The known generators.
const GENERATORS: &[Generator] = &[
    g("pyenv", &["init"]),
    g("pyenv", &["virtualenv-init"]),
    g("rbenv", &["init"]),
    g("nodenv", &["init"]),
    g("goenv", &["init"]),
    g("jenv", &["init"]),
    g("plenv", &["init"]),
    g("phpenv", &["init"]),
    g("scalaenv", &["init"]),
    g("ssh-agent", &[]),
    g("gpg-agent", &["--daemon"]),
    g("direnv", &["hook"]),
    g("direnv", &["export"]),
    g("brew", &["shellenv"]),
    g("conda", &["shell.bash", "hook"]),
    g("conda", &["shell.zsh", "hook"]),
    g("conda", &["shell.posix", "hook"]),
    g("mamba", &["shell", "hook"]),
    g("micromamba", &["shell", "hook"]),
    g("fnm", &["env"]),
    g("mise", &["activate"]),
    g("mise", &["env"]),
    g("rtx", &["activate"]),
    g("zoxide", &["init"]),
    g("starship", &["init"]),
    g("oh-my-posh", &["init"]),
    g("atuin", &["init"]),
    g("mcfly", &["init"]),
    g("thefuck", &["--alias"]),
    g("opam", &["env"]),
    g("opam", &["config", "env"]),
    g("luarocks", &["path"]),
    g("rustup", &["completions"]),
    g("kubectl", &["completion"]),
    g("helm", &["completion"]),
    g("gh", &["completion"]),
    g("docker", &["completion"]),
    g("npm", &["completion"]),
    g("pip", &["completion"]),
    g("uv", &["generate-shell-completion"]),
    g("register-python-argcomplete", &[]),
];

/// Shell names a generator may be told to print for.
const SHELL_NAMES: &[&str] = &["bash", "zsh", "sh", "fish", "posix", "ksh", "dash"];

/// Whether `c` prints shell code that only defines the environment (`pyenv init -`,
/// `ssh-agent -s`, `direnv hook bash`, `brew shellenv`, `conda shell.bash hook`).
pub(super) fn env_generator(c: &SimpleCommand) -> bool {
    if c.dynamic_program || c.args.iter().any(|a| a.dynamic) {
        return false;
    }
    let args: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    GENERATORS.iter().any(|row| {
        row.program == c.basename()
            && args.len() >= row.words.len()
            && args.iter().zip(row.words).all(|(a, w)| a == w)
            && args[row.words.len()..].iter().all(|a| {
                a.starts_with('-')
                    || (SHELL_NAMES.contains(a) && !row.words.is_empty())
                    // `register-python-argcomplete my-tool`, `kubectl completion bash`.
                    || (row.words.is_empty() && row.program.starts_with("register-"))
            })
    })
}
