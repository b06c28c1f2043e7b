//! Wrappers: programs that run another program given as their trailing words.
//!
//! In: the words after a wrapper's name (`sudo -u root -- rm -rf /` → `-u root -- rm -rf /`).
//! Out: the wrapped command, peeled and recorded in its turn with the wrapper added to its
//! [`SimpleCommand::via`](super::SimpleCommand::via) path. Most wrappers differ only in which
//! of their options take a value and what they read before the command, so they are described
//! by one [`Wrapper`] row of [`WRAPPERS`] and unwrapped by one routine. `find -exec` (whose
//! `{}` stands for the files found) has a routine of its own; `env` (its own reading of options
//! and `-S`) is with the variables it passes, in [`super::carriers`].

use super::carriers::{assignment, is_assignment};
use super::context::{Feed, Input, LineAnalysis};
use super::find::{FIND_EXEC, find_found, xargs_listed, xargs_replace};
use super::package_runners::{NPX_VALUED, UVX_VALUED, package_command};
use super::{Arg, MAX_LOOP_WORDS};
use crate::effects::programs::{SYSTEMD_RUN_VALUED, ShortValue, globals, short_options};

/// How a wrapper reads its own words before the command it runs.
#[derive(Debug)]
pub(crate) struct Wrapper {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// Its options that take the next word as their value (`sudo -u root`).
    pub(crate) valued: &'static [&'static str],
    /// How many words it reads after its options, before the command (`timeout 5`).
    pub(crate) operands: usize,
    /// Prefixes of a first word with which it runs nothing and only reports (`command -v`).
    pub(crate) queries: &'static [&'static str],
    /// Whether a lone remaining word is a shell line, not a program (`watch 'rm -rf /'`).
    pub(crate) lone_word_is_script: bool,
    /// Whether the wrapped command gets the wrapper's standard input as arguments instead
    /// (`find … | xargs bash` runs script files, it does not pipe a script into `bash`).
    pub(crate) input_as_args: bool,
    /// The subcommands that make the program a wrapper (`docker exec`), after the options
    /// in `valued`: `|`-separated alternatives of one or more words (`exec|compose exec`);
    /// empty: none.
    pub(crate) sub: &'static str,
    /// Whether the command's first word is a package to fetch, run by its command name
    /// (`npx rimraf@5 dist` runs `rimraf dist`, `uvx ruff@0.6 check` runs `ruff check`;
    /// see [`package_command`]).
    pub(crate) package_word: bool,
    /// Options that, given before the subcommand, leave out the `operands` words (`ip -all
    /// netns exec CMD` runs CMD in every namespace: no namespace name comes first).
    pub(crate) no_operands_with: &'static [&'static str],
}

impl Wrapper {
    /// A wrapper that runs the command after its options; `valued` take a value.
    const fn options(names: &'static [&'static str], valued: &'static [&'static str]) -> Self {
        Wrapper {
            names,
            valued,
            operands: 0,
            queries: &[],
            lone_word_is_script: false,
            input_as_args: false,
            sub: "",
            package_word: false,
            no_operands_with: &[],
        }
    }
}

/// Every wrapper unwrapped by [`LineAnalysis::unwrap_command`]. Leading `NAME=value` words of the
/// command are environment for all of them (`sudo FOO=1 rm …`).
static WRAPPERS: &[Wrapper] = &[
    Wrapper::options(
        &["sudo", "doas"],
        &[
            "-u", "-g", "-C", "-h", "-p", "-U", "-r", "-t", "-D", "-T", "-R",
        ],
    ),
    // `gsudo CMD` (Windows): the command runs elevated, as the user `-u` names or an
    // administrator; `--integrity`/`-i` take a level.
    Wrapper::options(&["gsudo"], &["-u", "--user", "-i", "--integrity"]),
    // `pkexec CMD`, `run0 CMD` (polkit, systemd): the command runs as root; `setpriv
    // --reuid=0 CMD` (util-linux) as the user given.
    Wrapper::options(&["pkexec"], &["--user"]),
    Wrapper::options(
        &["setpriv"],
        &["--reuid", "--regid", "--ruid", "--euid", "--groups"],
    ),
    Wrapper::options(
        &["run0"],
        &[
            "-u",
            "--user",
            "-g",
            "--group",
            "--nice",
            "-D",
            "--chdir",
            "--setenv",
            "--unit",
            "--property",
            "--description",
            "--slice",
            "--machine",
        ],
    ),
    // `nsenter -t 1 -m CMD`, `unshare -r CMD`: the command runs in other namespaces
    // (`-r`/`-w` of nsenter take their folder attached only).
    Wrapper::options(
        &["nsenter"],
        &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
    ),
    Wrapper::options(
        &["unshare"],
        &[
            "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd",
        ],
    ),
    Wrapper {
        // `command -v rm`, `command -V rm` look the name up; they do not run it.
        queries: &["-v", "-V"],
        ..Wrapper::options(&["command", "builtin"], &[])
    },
    Wrapper::options(&["exec"], &["-a"]),
    // `setsid -f CMD` forks (its options take no value); GNU `time -f FORMAT -o FILE CMD`;
    // `caffeinate -t SECONDS -w PID CMD` (macOS).
    Wrapper::options(&["nohup", "setsid"], &[]),
    Wrapper::options(&["time"], &["-f", "-o", "--format", "--output"]),
    Wrapper::options(&["caffeinate"], &["-t", "-w"]),
    Wrapper {
        // `ip netns exec NAME CMD` (ip-netns(8)) runs CMD in a network namespace; `ip -all
        // netns exec CMD` in every one. ip's global options before `netns` (`-n NAME`,
        // `-b FILE`, …) take values.
        sub: "netns exec",
        operands: 1,
        no_operands_with: &["-a", "-al", "-all"],
        ..Wrapper::options(
            &["ip"],
            &[
                "-n", "-netns", "-b", "-batch", "-rc", "-rcvbuf", "-f", "-family", "-l", "-loops",
            ],
        )
    },
    Wrapper::options(&["nice"], &["-n", "--adjustment"]),
    Wrapper {
        // `wsl [-d DISTRO] [-u USER] [--cd DIR] [-e | --exec | --] CMD…` (Windows Subsystem
        // for Linux, `wsl.exe`): the command runs in the Linux distribution, a lone word as a
        // line of its default shell (`wsl 'rm -rf ~'`). Its own verbs (`--list`,
        // `--shutdown`, `--install`, `--export`, …) run no command.
        queries: &[
            "-l",
            "--list",
            "-s",
            "--set-default",
            "-t",
            "--terminate",
            "--status",
            "--shutdown",
            "--install",
            "--update",
            "--set-version",
            "--set-default-version",
            "--unregister",
            "--export",
            "--import",
            "--mount",
            "--unmount",
            "--manage",
            "--help",
            "--version",
            "-v",
        ],
        lone_word_is_script: true,
        ..Wrapper::options(
            &["wsl"],
            &[
                "-d",
                "--distribution",
                "-u",
                "--user",
                "--cd",
                "--shell-type",
                "--distribution-id",
            ],
        )
    },
    Wrapper::options(&["ionice"], &["-c", "-n", "-p", "-P", "-u"]),
    Wrapper::options(&["stdbuf"], &["-i", "-o", "-e"]),
    // Tracers and schedulers that start the command they are given: strace(1), ltrace(1),
    // unbuffer(1) (expect), entr(1) (re-runs it when files change).
    Wrapper::options(
        &["strace"],
        &[
            "-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-S", "-P", "-X",
        ],
    ),
    Wrapper::options(
        &["ltrace"],
        &[
            "-o", "-e", "-p", "-s", "-u", "-a", "-n", "-l", "-x", "-L", "-A", "-D", "-F",
        ],
    ),
    Wrapper::options(&["unbuffer", "entr"], &[]),
    Wrapper {
        // `chrt -i 0 CMD` (a priority), `taskset -c 0 CMD` (a CPU list), `flock /tmp/l CMD`
        // (a lock file), `faketime 'now' CMD` (a time): one word, then the command.
        operands: 1,
        ..Wrapper::options(
            &["chrt", "taskset", "flock", "faketime"],
            &[
                "-T",
                "-P",
                "-D",
                "-w",
                "--timeout",
                "-E",
                "--conflict-exit-code",
                "-m",
            ],
        )
    },
    // `screen -dm CMD`, `screen -dmS name CMD`: a detached session runs the command.
    Wrapper::options(&["screen"], &["-S", "-c", "-e", "-h", "-p", "-T", "-t"]),
    Wrapper {
        // `tmux new -d 'CMD'`, `tmux new-window 'CMD'`: a new session, window or pane runs
        // the shell command (one word: a shell line).
        lone_word_is_script: true,
        sub: "new|new-session|new-window|neww|split-window|splitw",
        ..Wrapper::options(
            &["tmux"],
            &[
                "-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-L", "-S", "-f",
            ],
        )
    },
    Wrapper {
        // `chroot DIR CMD…` (chroot(8)): the command runs with DIR as its root; with no
        // command, the shell in DIR.
        operands: 1,
        ..Wrapper::options(&["chroot"], &["--userspec", "--groups"])
    },
    Wrapper {
        // `timeout 5 rm …`: the duration comes first.
        operands: 1,
        ..Wrapper::options(&["timeout"], &["-s", "-k", "--signal", "--kill-after"])
    },
    Wrapper {
        lone_word_is_script: true,
        ..Wrapper::options(&["watch"], &["-n", "-d", "--interval", "-q", "--equexit"])
    },
    Wrapper {
        input_as_args: true,
        ..Wrapper::options(
            &["xargs"],
            // (`-i[R]`, `-e[EOF]` and `-l[N]` take their value attached only: `xargs -i cat
            // {}` runs `cat`.)
            &[
                "-I",
                "-n",
                "-P",
                "-d",
                "-L",
                "-s",
                "-E",
                "-a",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
            ],
        )
    },
    // `systemd-run --user --on-calendar=hourly sh -c '…'`: a transient unit runs the command
    // (now, or on a timer); its options are the program row's.
    Wrapper::options(&["systemd-run"], SYSTEMD_RUN_VALUED),
    // `busybox cat .env`, `busybox sh -c …`: the applet is the command.
    // `shx rm -rf dist` (ShellJS's commands from npm scripts) runs its command as the program.
    Wrapper::options(&["busybox", "toybox", "shx"], &[]),
    // `dotenv -e .env -- CMD` (dotenv-cli), `dotenvx run -f .env -- CMD`: the command runs
    // with the env file's variables loaded (the load is the program row's).
    Wrapper::options(&["dotenv"], &["-e", "-c", "-v", "-p"]),
    Wrapper {
        sub: "run",
        ..Wrapper::options(
            &["dotenvx"],
            &["-f", "--env-file", "-e", "--env", "--convention"],
        )
    },
    Wrapper {
        // `pnpm exec CMD`, `yarn exec CMD`: the command runs with the project's
        // `node_modules/.bin` first on the PATH; nothing is fetched (pnpm and yarn docs).
        // `pnpm dlx PKG ARGS`, `yarn dlx PKG ARGS`: the package is fetched (its install is
        // the program row's) and its command runs with the arguments.
        sub: "exec|dlx",
        package_word: true,
        ..Wrapper::options(
            &["pnpm", "yarn"],
            &[
                "-C",
                "--dir",
                "--cwd",
                "-F",
                "--filter",
                "--workspace-concurrency",
            ],
        )
    },
    Wrapper {
        // `npx PKG ARGS`, `bunx`, `pnpx`, `npm exec|x`, `bun x`: the package is fetched (the
        // program row's install) and its command runs with the arguments; `-c CMD` is the
        // program row's shell line.
        package_word: true,
        ..Wrapper::options(&["npx", "bunx", "pnpx"], NPX_VALUED)
    },
    Wrapper {
        sub: "exec|x",
        package_word: true,
        ..Wrapper::options(&["npm"], NPX_VALUED)
    },
    Wrapper {
        sub: "x",
        package_word: true,
        ..Wrapper::options(&["bun"], NPX_VALUED)
    },
    Wrapper {
        // `uvx PKG ARGS`, `uv tool run`, `pipx run`: the same from the Python package index;
        // `uv run CMD` runs a command in the project's environment.
        package_word: true,
        ..Wrapper::options(&["uvx"], UVX_VALUED)
    },
    Wrapper {
        sub: "run|tool run",
        package_word: true,
        ..Wrapper::options(&["uv"], UVX_VALUED)
    },
    Wrapper {
        sub: "run",
        package_word: true,
        ..Wrapper::options(&["pipx"], UVX_VALUED)
    },
    Wrapper {
        // `bundle exec rails db:drop`, `poetry run alembic upgrade head`, `pipenv run`,
        // `pdm run`, `hatch run`: the command runs in the project's environment (its gems,
        // its virtual environment); nothing is fetched.
        sub: "exec",
        ..Wrapper::options(&["bundle"], &["--gemfile"])
    },
    Wrapper {
        sub: "run",
        ..Wrapper::options(
            &["poetry", "pipenv", "pdm", "hatch"],
            &["-C", "--directory", "-e", "--env"],
        )
    },
    // `sshpass -p PW ssh host 'cmd'`: the password options, then the command.
    Wrapper::options(&["sshpass"], &["-p", "-f", "-d", "-P"]),
    Wrapper {
        // `docker exec [-it] [-e X=1] CONTAINER CMD…`: the command runs in the container;
        // `docker compose [-f F] exec|run [-T] SERVICE CMD…` in a service's container.
        operands: 1,
        sub: "exec|compose exec|compose run",
        ..Wrapper::options(&["docker", "podman", "nerdctl"], CONTAINER_EXEC_VALUED)
    },
    Wrapper {
        // `docker-compose [-f F] exec|run [-T] SERVICE CMD…`.
        operands: 1,
        sub: "exec|run",
        ..Wrapper::options(&["docker-compose", "podman-compose"], CONTAINER_EXEC_VALUED)
    },
    Wrapper {
        // `kubectl exec [-n NS] POD [-c C] -- CMD…`.
        operands: 1,
        sub: "exec",
        ..Wrapper::options(
            &["kubectl", "oc"],
            &[
                "-n",
                "--namespace",
                "-c",
                "--container",
                "--context",
                "--kubeconfig",
                "-f",
                "--filename",
                "--pod-running-timeout",
                "--cluster",
                "--user",
                "-s",
                "--server",
            ],
        )
    },
];

/// Every row of [`WRAPPERS`], in order (for the program table in words,
/// [`crate::program_table::wrappers`]).
pub(crate) fn rows() -> &'static [Wrapper] {
    WRAPPERS
}

/// The row of [`WRAPPERS`] for a program's base name.
pub(super) fn wrapper(base: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.names.contains(&base))
}

/// What a wrapper runs.
#[derive(Debug)]
enum Wrapped<'a> {
    /// Nothing (`command -v rm`, no words left).
    Nothing,
    /// A command: program and arguments.
    Command(&'a [Arg]),
    /// A shell line (`watch 'rm -rf /'`).
    Script(&'a Arg),
}

impl Wrapper {
    /// Read the wrapper's own words off `rest` (the words after its name), with the
    /// subcommand that made it a wrapper (empty for none).
    fn wrapped<'a>(&self, rest: &'a [Arg]) -> (Wrapped<'a>, &'static str) {
        if rest
            .first()
            .is_some_and(|a| self.queries.iter().any(|q| a.text.starts_with(q)))
        {
            return (Wrapped::Nothing, "");
        }
        let mut matched = "";
        let whole = rest;
        let rest = if self.sub.is_empty() {
            rest
        } else {
            // `docker -H h exec …`: options may come before the subcommand.
            // The CLI's own global options count too (`kubectl --cluster c exec …`).
            let mut valued = self.valued.to_vec();
            if let Some(g) = self.names.first().and_then(|n| globals::of(n)) {
                valued.extend_from_slice(g.valued);
            }
            let found = self.sub.split('|').find_map(|alt| {
                let mut at = rest;
                for word in alt.split(' ') {
                    match skip_options(at, &valued, false).split_first() {
                        Some((s, after)) if !s.dynamic && s.text == word => at = after,
                        _ => return None,
                    }
                }
                Some((alt, at))
            });
            match found {
                Some((alt, after)) => {
                    matched = alt;
                    after
                }
                None => return (Wrapped::Nothing, matched),
            }
        };
        // The words before the subcommand (all of them without one).
        let before_sub = whole.get(..whole.len() - rest.len()).unwrap_or(&[]);
        // A package spec may look like an assignment (`ruff==0.6.0`): runners take no
        // environment words.
        let cmd = skip_options(rest, self.valued, !self.package_word);
        let operands = if self.no_operands_with.is_empty()
            || !before_sub
                .iter()
                .any(|a| self.no_operands_with.contains(&a.text.as_str()))
        {
            self.operands
        } else {
            0
        };
        let mut cmd = cmd.get(operands..).unwrap_or(&[]);
        if operands > 0
            && let Some(("--", after)) = cmd.split_first().map(|(a, r)| (a.text.as_str(), r))
        {
            cmd = after;
        }
        let wrapped = match cmd {
            [] => Wrapped::Nothing,
            [line] if self.lone_word_is_script => Wrapped::Script(line),
            _ => Wrapped::Command(cmd),
        };
        (wrapped, matched)
    }
}

/// Skip a wrapper's own options: `valued` lists the options that take a value. With
/// `env_words`, leading `NAME=value` words are skipped too (`sudo VAR=x cmd`), also after
/// `--`. What is left starts with the wrapped program.
pub(super) fn skip_options<'a>(rest: &'a [Arg], valued: &[&str], env_words: bool) -> &'a [Arg] {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if t.starts_with('-') && t.len() > 1 {
            i += if valued.contains(&t) {
                2
            } else {
                bundle_width(t, valued)
            };
            continue;
        }
        if env_words && is_assignment(t) {
            i += 1;
            continue;
        }
        break;
    }
    // `sudo -- FOO=1 rm …`: assignments may also follow the end of options.
    while env_words && rest.get(i).is_some_and(|a| is_assignment(&a.text)) {
        i += 1;
    }
    rest.get(i..).unwrap_or(&[])
}

/// How many words a bundle of short options takes (`-dmS name`, `sudo -Eu root`): two when
/// its first option that takes a value is its last letter, one when that option's value is
/// attached (`-ofile`) or none of its letters takes one (getopt(3)).
fn bundle_width(t: &str, valued: &[&str]) -> usize {
    if t.starts_with("--") {
        return 1;
    }
    match short_options(t).find(|(name, _)| valued.contains(&name.as_str())) {
        Some((_, ShortValue::NextWord)) => 2,
        _ => 1,
    }
}

/// The options taking a value of `docker exec` and of `docker compose` / `docker-compose`
/// (global and `exec`/`run` options), before the container or service.
const CONTAINER_EXEC_VALUED: &[&str] = &[
    "-e",
    "--env",
    "-u",
    "--user",
    "-w",
    "--workdir",
    "--env-file",
    "--detach-keys",
    "-f",
    "--file",
    "-p",
    "--project-name",
    "--profile",
    "--project-directory",
    "--index",
    "--name",
    "--entrypoint",
    "-l",
    "--label",
    "-v",
    "--volume",
    "--publish",
    "-H",
    "--host",
    "--context",
    "-c",
];

impl LineAnalysis {
    /// Run the command a table wrapper wraps (`sudo …`, `timeout 5 …`, `watch '…'`).
    pub(super) fn unwrap_command(
        &mut self,
        w: &Wrapper,
        base: &str,
        rest: &[Arg],
        via: &[String],
        depth: usize,
        mut input: Feed,
    ) {
        // `xargs cat <<< .env`, `echo .env | xargs cat`: input known now becomes arguments.
        let mut static_args: Option<String> = None;
        let mut listed: Option<Arg> = None;
        if w.input_as_args {
            match input.stdin.take() {
                Some(Input::Text(t)) => static_args = Some(t),
                // `find ~ | xargs rm -rf`: each name the way `find -exec` sees it.
                Some(Input::Listing { found, .. }) => listed = Some(found),
                other => input.stdin = other,
            }
        }
        let (wrapped, sub) = w.wrapped(rest);
        let name = if sub.is_empty() {
            base.to_string()
        } else {
            format!("{base} {sub}")
        };
        match wrapped {
            Wrapped::Nothing => {}
            Wrapped::Script(line) => {
                let mut v = via.to_vec();
                v.push(name);
                self.script(&line.text, &v, depth + 1);
            }
            Wrapped::Command(cmd) => {
                // `sudo PAGER='…' git log`: the environment words before the command carry
                // what they carry into it.
                let before = rest.len().saturating_sub(cmd.len());
                // A package only known at run time (`npx $PKG`) names no command: the
                // install it makes is judged as the program row's.
                if w.package_word && cmd.first().is_some_and(|a| a.dynamic) {
                    return;
                }
                let named;
                let cmd = if w.package_word {
                    named = package_command(cmd);
                    &named[..]
                } else {
                    cmd
                };
                let assignments: Vec<_> = rest
                    .get(..before)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(assignment)
                    .collect();
                if !assignments.is_empty() {
                    let mut v = via.to_vec();
                    v.push(name.clone());
                    self.carried(&assignments, Some(cmd), &v, depth + 1);
                }
                self.wrapped_command(
                    w,
                    &name,
                    rest,
                    cmd,
                    (static_args, listed),
                    via,
                    depth,
                    input,
                );
            }
        }
    }

    /// Run the command `cmd` a table wrapper `w` (shown as `name`) wraps, with what its
    /// standard input gives as arguments (`xargs`): text known now, or names listed.
    #[allow(
        clippy::too_many_arguments,
        reason = "the wrapper, its words, what its input gives, the route and the budget"
    )]
    fn wrapped_command(
        &mut self,
        w: &Wrapper,
        name: &str,
        rest: &[Arg],
        cmd: &[Arg],
        given: (Option<String>, Option<Arg>),
        via: &[String],
        depth: usize,
        input: Feed,
    ) {
        let name = name.to_string();
        match given {
            (Some(text), _) => self.xargs_static(&name, rest, cmd, &text, via, depth),
            (None, Some(found)) => {
                let inner = xargs_listed(rest, cmd, found);
                self.enter(&name, inner, via, depth, Feed::default())
            }
            // `… | xargs -I{} sh -c {}`: a shell or program named by words only known at
            // run time runs them. (File operands stay as written, `{}`: which files an
            // unknown list names is not judged, as before.)
            (None, None) if w.input_as_args => {
                let program = cmd.first().map(|a| super::program_name(&a.text));
                let runs_input = |r: &str| {
                    program
                        .as_deref()
                        .is_some_and(|p| super::operands::SHELLS.contains(&p) || p.contains(r))
                };
                let inner = match xargs_replace(rest, cmd) {
                    Some(r) if !r.is_empty() && runs_input(&r) => cmd
                        .iter()
                        .map(|a| Arg {
                            text: a.text.clone(),
                            dynamic: a.dynamic || a.text.contains(&r),
                        })
                        .collect(),
                    _ => cmd.to_vec(),
                };
                self.enter(&name, inner, via, depth, input)
            }
            (None, None) => self.enter(&name, cmd.to_vec(), via, depth, input),
        }
    }

    /// `xargs CMD` fed text known now: CMD runs with the words of the text appended, or
    /// with `-I R` once per line with R replaced (within [`MAX_LOOP_WORDS`] lines; more
    /// make the arguments only known at run time).
    fn xargs_static(
        &mut self,
        name: &str,
        rest: &[Arg],
        cmd: &[Arg],
        text: &str,
        via: &[String],
        depth: usize,
    ) {
        let replace = xargs_replace(rest, cmd);
        let word = |t: &str| Arg {
            text: t.to_string(),
            dynamic: false,
        };
        let too_many = Arg {
            text: "…".to_string(),
            dynamic: true,
        };
        match replace {
            Some(r) if !r.is_empty() => {
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                if lines.len() > MAX_LOOP_WORDS {
                    let inner = cmd
                        .iter()
                        .map(|a| {
                            if a.text.contains(&r) {
                                too_many.clone()
                            } else {
                                a.clone()
                            }
                        })
                        .collect();
                    self.enter(name, inner, via, depth, Feed::default());
                    return;
                }
                for l in lines {
                    let inner = cmd
                        .iter()
                        .map(|a| Arg {
                            text: a.text.replace(&r, l.trim()),
                            dynamic: a.dynamic,
                        })
                        .collect();
                    self.enter(name, inner, via, depth, Feed::default());
                }
            }
            _ => {
                let words: Vec<&str> = text.split_whitespace().collect();
                let mut inner = cmd.to_vec();
                if words.len() > MAX_LOOP_WORDS {
                    inner.push(too_many);
                } else {
                    inner.extend(words.into_iter().map(word));
                }
                self.enter(name, inner, via, depth, Feed::default());
            }
        }
    }

    /// Peel and record the command `inner` that `wrapper` runs, one level deeper.
    pub(super) fn enter(
        &mut self,
        wrapper: &str,
        inner: Vec<Arg>,
        via: &[String],
        depth: usize,
        input: Feed,
    ) {
        if inner.is_empty() {
            return;
        }
        let mut nested = via.to_vec();
        nested.push(wrapper.to_string());
        self.peel_with_input(inner, Vec::new(), nested, depth + 1, input);
    }

    /// `find START… -exec CMD {} ;`: every command of an `-exec`/`-execdir`/`-ok`/`-okdir`
    /// action, with `{}` replaced by what it stands for ([`find_found`]): `find . -name .env
    /// -exec cat {} \;` reads `./…/.env`, `find /tmp -exec rm -rf {} +` deletes `/tmp`.
    pub(super) fn find_exec(&mut self, rest: &[Arg], via: &[String], depth: usize) {
        let found = find_found(rest);
        let mut i = 0;
        while let Some(a) = rest.get(i) {
            if FIND_EXEC.contains(&a.text.as_str()) {
                let start = i + 1;
                let mut end = start;
                while rest
                    .get(end)
                    .is_some_and(|x| x.text != ";" && x.text != "+")
                {
                    end += 1;
                }
                let cmd: Vec<Arg> = rest
                    .get(start..end)
                    .unwrap_or(&[])
                    .iter()
                    // find replaces `{}` wherever it occurs in an argument (`f=@{}`,
                    // `sh -c 'cat {}'`), not only a whole `{}`.
                    .map(|x| {
                        if x.text == "{}" {
                            found.clone()
                        } else if x.text.contains("{}") {
                            Arg {
                                text: x.text.replace("{}", &found.text),
                                dynamic: x.dynamic || found.dynamic,
                            }
                        } else {
                            x.clone()
                        }
                    })
                    .collect();
                let mut v = via.to_vec();
                v.push(format!("find {}", a.text));
                self.peel(cmd, Vec::new(), v, depth + 1);
                i = end + 1;
            } else {
                i += 1;
            }
        }
    }
}
