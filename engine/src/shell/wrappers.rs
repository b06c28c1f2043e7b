//! Wrappers: programs that run another program given as their trailing words.
//!
//! In: the words after a wrapper's name (`sudo -u root -- rm -rf /` → `-u root -- rm -rf /`).
//! Out: the wrapped command, peeled and recorded in its turn with the wrapper added to its
//! [`SimpleCommand::via`](super::SimpleCommand::via) path. Most wrappers differ only in which
//! of their options take a value and what they read before the command, so they are described
//! by one [`Wrapper`] row of [`WRAPPERS`] and unwrapped by one routine. `env` (with its own
//! reading of options and `-S`) and `find -exec` (whose `{}` stands for the files found) have
//! routines of their own.

use super::Arg;
use super::context::{Feed, LineAnalysis};

/// How a wrapper reads its own words before the command it runs.
#[derive(Debug)]
pub(super) struct Wrapper {
    /// The names it is called by.
    names: &'static [&'static str],
    /// Its options that take the next word as their value (`sudo -u root`).
    valued: &'static [&'static str],
    /// How many words it reads after its options, before the command (`timeout 5`).
    operands: usize,
    /// Prefixes of a first word with which it runs nothing and only reports (`command -v`).
    queries: &'static [&'static str],
    /// Whether a lone remaining word is a shell line, not a program (`watch 'rm -rf /'`).
    lone_word_is_script: bool,
    /// Whether the wrapped command gets the wrapper's standard input as arguments instead
    /// (`find … | xargs bash` runs script files, it does not pipe a script into `bash`).
    input_as_args: bool,
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
    Wrapper {
        // `command -v rm`, `command -V rm` look the name up; they do not run it.
        queries: &["-v", "-V"],
        ..Wrapper::options(&["command", "builtin"], &[])
    },
    Wrapper::options(&["exec"], &["-a"]),
    Wrapper::options(&["nohup", "time", "setsid", "caffeinate"], &["-f", "-o"]),
    Wrapper::options(&["nice"], &["-n", "--adjustment"]),
    Wrapper::options(&["ionice"], &["-c", "-n", "-p", "-P", "-u"]),
    Wrapper::options(&["stdbuf"], &["-i", "-o", "-e"]),
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
            &[
                "-I",
                "-i",
                "-n",
                "-P",
                "-d",
                "-L",
                "-l",
                "-s",
                "-E",
                "-e",
                "-a",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
            ],
        )
    },
];

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
    /// Read the wrapper's own words off `rest` (the words after its name).
    fn wrapped<'a>(&self, rest: &'a [Arg]) -> Wrapped<'a> {
        if rest
            .first()
            .is_some_and(|a| self.queries.iter().any(|q| a.text.starts_with(q)))
        {
            return Wrapped::Nothing;
        }
        let cmd = skip_options(rest, self.valued, true);
        let cmd = cmd.get(self.operands..).unwrap_or(&[]);
        match cmd {
            [] => Wrapped::Nothing,
            [line] if self.lone_word_is_script => Wrapped::Script(line),
            _ => Wrapped::Command(cmd),
        }
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
            if valued.contains(&t) {
                i += 2;
            } else {
                i += 1;
            }
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

/// Whether a word is a `NAME=value` assignment.
pub(super) fn is_assignment(t: &str) -> bool {
    t.split_once('=').is_some_and(|(n, _)| {
        !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `env`'s options that take a value.
const ENV_VALUED: &[&str] = &["-u", "-C", "--unset", "--chdir"];

/// `env`'s options whose value is a command line it splits into words and runs.
const ENV_SPLIT: &[&str] = &["-S", "--split-string"];

/// `find`'s actions that run a command on each file found, up to `;` or `+`.
const FIND_EXEC: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];

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
        if w.input_as_args {
            input.stdin = None;
        }
        match w.wrapped(rest) {
            Wrapped::Nothing => {}
            Wrapped::Script(line) => {
                let mut v = via.to_vec();
                v.push(base.to_string());
                self.script(&line.text, &v, depth + 1);
            }
            Wrapped::Command(cmd) => self.enter(base, cmd.to_vec(), via, depth, input),
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

    /// `env [-i] [-u NAME] [NAME=value]… [--] command`: any word starting with `-` is an
    /// option, any word with a `=` past its start is an assignment; `env -S 'line'` runs the
    /// line as a script.
    pub(super) fn env(&mut self, rest: &[Arg], via: &[String], depth: usize, input: Feed) {
        let mut i = 0;
        while let Some(a) = rest.get(i) {
            let t = a.text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if ENV_SPLIT.contains(&t) {
                if let Some(s) = rest.get(i + 1) {
                    let mut v = via.to_vec();
                    v.push("env -S".into());
                    self.script(&s.text, &v, depth + 1);
                }
                return;
            }
            if ENV_VALUED.contains(&t) {
                i += 2;
                continue;
            }
            if t.starts_with('-') || (t.contains('=') && !t.starts_with('=')) {
                i += 1;
                continue;
            }
            break;
        }
        let inner = rest.get(i..).unwrap_or(&[]).to_vec();
        self.enter("env", inner, via, depth, input);
    }

    /// `find START… -exec CMD {} ;`: every command of an `-exec`/`-execdir`/`-ok`/`-okdir`
    /// action, with `{}` replaced by what it stands for: a file somewhere under the start
    /// folder (`…` stands for the folders between), named by `-name` when given: `find . -name
    /// .env -exec cat {} \;` reads `./…/.env`, `find /tmp -exec rm -rf {} +` deletes in
    /// `/tmp/…`.
    pub(super) fn find_exec(&mut self, rest: &[Arg], via: &[String], depth: usize) {
        let start: Vec<&Arg> = rest
            .iter()
            .take_while(|a| !a.text.starts_with('-') && a.text != "(" && a.text != "!")
            .collect();
        let name = rest
            .windows(2)
            .find(|w| matches!(w[0].text.as_str(), "-name" | "-iname"))
            .map(|w| w[1].clone());
        let found = match (start.first(), start.len()) {
            (Some(s), 1) => {
                let dir = s.text.trim_end_matches('/');
                Arg {
                    text: match &name {
                        Some(n) => format!("{dir}/…/{}", n.text),
                        None => format!("{dir}/…"),
                    },
                    dynamic: s.dynamic || name.as_ref().is_some_and(|n| n.dynamic),
                }
            }
            (None, _) => Arg {
                text: "./…".to_string(),
                dynamic: false,
            },
            // Several start folders: which one a file comes from is unknown.
            _ => Arg {
                text: "{}".to_string(),
                dynamic: true,
            },
        };
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
                    .map(|x| {
                        if x.text.contains("{}") {
                            found.clone()
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
