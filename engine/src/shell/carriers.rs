//! Variables that carry a command: environment a program runs as shell text or loads as code.
//!
//! In: the `NAME=value` assignments one command is given (before it, through `env`, through a
//! wrapper such as `sudo`, or kept by `export`) and the words of the command they are given
//! to (none for `export`). Out: what the walk analyses in its turn, one level down with
//! `NAME=` on the wrapper path: a command variable's value as a shell line (`PAGER='…' git
//! log`), and a code-loading variable's file as the command that runs it (`LD_PRELOAD=/tmp/x.so
//! ls` runs `/tmp/x.so`, `PYTHONSTARTUP=p.py python3` runs `python3 p.py`), so every rule
//! judges it as it judges running that file. Every route meets in [`LineAnalysis::carried`];
//! `env [OPTION]… [NAME=value]… COMMAND` is read here too ([`LineAnalysis::env`]).

use super::Arg;
use super::context::{Feed, LineAnalysis};
use super::operands::SHELLS;

/// Environment variables whose value a program runs as a shell command: git(1)
/// `GIT_SSH_COMMAND`, `GIT_PAGER`, `GIT_EDITOR`, `GIT_SEQUENCE_EDITOR`, `GIT_ASKPASS`,
/// `GIT_EXTERNAL_DIFF`, `GIT_PROXY_COMMAND`; `PAGER`, `MANPAGER`, `EDITOR`, `VISUAL` (man(1),
/// less(1), crontab(1), …); ssh(1) `SSH_ASKPASS`; less(1) `LESSOPEN`, `LESSCLOSE`; `BROWSER`;
/// bash(1) `PROMPT_COMMAND` (run before each prompt of an interactive shell).
const COMMAND_VARIABLES: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_ASKPASS",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "SSH_ASKPASS",
    "LESSOPEN",
    "LESSCLOSE",
    "BROWSER",
    "PROMPT_COMMAND",
];

/// The commands a code-loading variable makes the program run, each as the words of a
/// command that runs the same file: ld.so(8) `LD_PRELOAD` / `LD_AUDIT` (libraries loaded into
/// every dynamic program: the file itself runs); python(1) `PYTHONSTARTUP` (read by an
/// interactive interpreter only); node(1) `NODE_OPTIONS` `--require`/`-r`/`--import`/
/// `--loader`/`--experimental-loader`; perlrun(1) `PERL5OPT` `-M`/`-m`; ruby(1) `RUBYOPT`
/// `-r`; bash(1) `BASH_ENV` (read by every non-interactive bash); sh(1) `ENV` (read by the
/// shell it is given to). `program` is the command the variable is given to (`None` for
/// `export`, where any later command may be). Other variables (`LD_LIBRARY_PATH`,
/// `NODE_OPTIONS=--max-old-space-size=4096`) run nothing.
pub(super) fn loaded_code(name: &str, value: &str, program: Option<&[Arg]>) -> Vec<Vec<String>> {
    let base = program
        .and_then(|w| w.first())
        .map(|a| super::program_name(&a.text).into_owned());
    let words = |v: &str| -> Vec<String> { v.split_whitespace().map(str::to_string).collect() };
    let run = |interp: &str, file: &str| -> Vec<String> {
        let mut w: Vec<String> = interp.split_whitespace().map(str::to_string).collect();
        w.push(file.to_string());
        w
    };
    match name {
        "LD_PRELOAD" | "LD_AUDIT" => value
            .split([':', ' ', '\t'])
            .filter(|f| !f.is_empty())
            .map(|f| vec![f.to_string()])
            .collect(),
        "PYTHONSTARTUP" if !value.is_empty() => {
            let interactive = program.is_some_and(|w| {
                base.as_deref().is_some_and(|b| b.starts_with("python"))
                    && w.iter().skip(1).all(|a| {
                        a.text.starts_with('-') && !matches!(a.text.as_str(), "-c" | "-m" | "-")
                    })
            });
            match (interactive, base) {
                (true, Some(b)) => vec![run(&b, value)],
                _ => Vec::new(),
            }
        }
        "NODE_OPTIONS" => option_files(
            &words(value),
            &[
                "--require",
                "-r",
                "--import",
                "--loader",
                "--experimental-loader",
            ],
        )
        .into_iter()
        .map(|f| run("node", &f))
        .collect(),
        "RUBYOPT" => option_files(&words(value), &["-r", "--require"])
            .into_iter()
            .map(|f| run("ruby", &f))
            .collect(),
        "PERL5OPT" => option_files(&words(value), &["-M", "-m"])
            .into_iter()
            .map(|m| {
                vec![
                    "perl".to_string(),
                    format!("-M{m}"),
                    "-e".into(),
                    "1".into(),
                ]
            })
            .collect(),
        "BASH_ENV" if !value.is_empty() => vec![run("bash", value)],
        "ENV" if !value.is_empty() && base.as_deref().is_some_and(|b| SHELLS.contains(&b)) => {
            vec![run("sh", value)]
        }
        _ => Vec::new(),
    }
}

/// The values of `options` in a variable's words: `--require F`, `--require=F`, `-r F`,
/// `-rF` (a short option's value may be attached).
fn option_files(words: &[String], options: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        if options.contains(&w.as_str()) {
            if let Some(v) = words.get(i) {
                out.push(v.clone());
            }
            i += 1;
            continue;
        }
        let attached = options.iter().find_map(|o| {
            if o.starts_with("--") {
                w.strip_prefix(o).and_then(|r| r.strip_prefix('='))
            } else {
                w.strip_prefix(o).filter(|r| !r.is_empty())
            }
        });
        if let Some(v) = attached {
            out.push(v.to_string());
        }
    }
    out
}

impl LineAnalysis {
    /// The commands `assignments` carry into `words` (the command they are given to; `None`
    /// for `export`, whose variables every later command sees): a command variable's value
    /// analysed as a shell line, a code-loading variable's file as the command that runs it
    /// ([`loaded_code`]). A value only known at run time (`None`) carries nothing known.
    pub(super) fn carried(
        &mut self,
        assignments: &[(String, Option<String>)],
        words: Option<&[Arg]>,
        via: &[String],
        depth: usize,
    ) {
        for (n, v) in assignments {
            let Some(v) = v else {
                continue;
            };
            let mut inner = via.to_vec();
            inner.push(format!("{n}="));
            if COMMAND_VARIABLES.contains(&n.as_str()) {
                self.script(v, &inner, depth + 1);
                continue;
            }
            for run in loaded_code(n, v, words) {
                let run = run
                    .into_iter()
                    .map(|text| Arg {
                        text,
                        dynamic: false,
                    })
                    .collect();
                self.enter(&format!("{n}="), run, via, depth, Feed::default());
            }
        }
    }
}

/// The assignment of a `NAME=value` word (`env PAGER=cat`, `sudo LD_PRELOAD=x`): its name and
/// its value, `None` when the value is only known at run time.
pub(super) fn assignment(a: &Arg) -> Option<(String, Option<String>)> {
    let (n, v) = a.text.split_once('=')?;
    is_assignment(&a.text).then(|| (n.to_string(), (!a.dynamic).then(|| v.to_string())))
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

impl LineAnalysis {
    /// `env [-i] [-u NAME] [NAME=value]… [--] command`: any word starting with `-` is an
    /// option, any word with a `=` past its start is an assignment; `env -S 'line'` runs the
    /// line as a script.
    pub(super) fn env(&mut self, rest: &[Arg], via: &[String], depth: usize, input: Feed) {
        let mut i = 0;
        let mut assignments = Vec::new();
        while let Some(a) = rest.get(i) {
            let t = a.text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            // `env -S 'rm -rf' ~`, `env -S rm -rf ~`, `--split-string=…`, `-S…`: the string is
            // split into words and the words after it follow them (env(1)).
            let split = if ENV_SPLIT.contains(&t) {
                rest.get(i + 1).map(|s| (s.text.as_str(), i + 2))
            } else {
                t.strip_prefix("--split-string=")
                    .or_else(|| t.strip_prefix("-S").filter(|v| !v.is_empty()))
                    .map(|s| (s, i + 1))
            };
            if let Some((s, next)) = split {
                let tail: Vec<&str> = rest
                    .get(next..)
                    .unwrap_or(&[])
                    .iter()
                    .map(|a| a.text.as_str())
                    .collect();
                let line = if tail.is_empty() {
                    s.to_string()
                } else {
                    let quoted =
                        shlex::try_join(tail.iter().copied()).unwrap_or_else(|_| tail.join(" "));
                    format!("{s} {quoted}")
                };
                let mut v = via.to_vec();
                v.push("env -S".into());
                self.script(&line, &v, depth + 1);
                return;
            }
            if ENV_VALUED.contains(&t) {
                i += 2;
                continue;
            }
            if t.starts_with('-') || (t.contains('=') && !t.starts_with('=')) {
                assignments.extend(assignment(a));
                i += 1;
                continue;
            }
            break;
        }
        let inner = rest.get(i..).unwrap_or(&[]).to_vec();
        if !inner.is_empty() {
            // `env PAGER='…' git log`: as the same assignments before the command.
            let mut v = via.to_vec();
            v.push("env".into());
            self.carried(&assignments, Some(&inner), &v, depth + 1);
        }
        self.enter("env", inner, via, depth, input);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Arg> {
        Arg::literal_words(words)
    }

    /// env(1) `-S STRING ARGS…`: STRING split into words, ARGS after them.
    #[test]
    fn env_split_string_runs_its_words_then_the_rest() {
        use crate::shell::ShellAnalyzer;
        // env(1) -S: the string's words, then the words after it.
        for line in [
            "env -S rm -rf /",
            "env -S 'rm -rf' /",
            "env -S'rm -rf' /",
            "env --split-string='rm' -rf /",
        ] {
            assert!(
                super::super::tests::cmds(line).contains(&"rm -rf / (via env -S)".to_string()),
                "{line}"
            );
        }
        let words = crate::shell::BrushAnalyzer
            .analyze("env -S 'echo a' 'b c'", None)
            .commands;
        assert_eq!(
            words
                .last()
                .map(|c| c.args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>()),
            Some(vec!["a", "b c"])
        );
    }

    /// ld.so(8), python(1), node(1), ruby(1), perlrun(1), bash(1): the file each variable
    /// loads, run by the interpreter that loads it; variables that load nothing run nothing.
    #[test]
    fn code_loading_variables_run_their_file() {
        let ls = args(&["ls"]);
        let py = args(&["python3"]);
        let py_script = args(&["python3", "x.py"]);
        let sh = args(&["sh", "x.sh"]);
        /// A variable, its value, the command it is given to, the commands it runs.
        type Case<'a> = (&'a str, &'a str, &'a [Arg], &'a [&'a [&'a str]]);
        let cases: &[Case] = &[
            ("LD_PRELOAD", "/tmp/x.so", &ls, &[&["/tmp/x.so"]]),
            ("LD_PRELOAD", "a.so:b.so", &ls, &[&["a.so"], &["b.so"]]),
            ("LD_AUDIT", "/tmp/a.so", &ls, &[&["/tmp/a.so"]]),
            ("LD_LIBRARY_PATH", "/opt/lib", &ls, &[]),
            (
                "PYTHONSTARTUP",
                "/tmp/p.py",
                &py,
                &[&["python3", "/tmp/p.py"]],
            ),
            ("PYTHONSTARTUP", "/tmp/p.py", &py_script, &[]),
            ("PYTHONSTARTUP", "/tmp/p.py", &ls, &[]),
            (
                "NODE_OPTIONS",
                "--require /tmp/p.js",
                &ls,
                &[&["node", "/tmp/p.js"]],
            ),
            (
                "NODE_OPTIONS",
                "-r ./a.js --import=./b.mjs",
                &ls,
                &[&["node", "./a.js"], &["node", "./b.mjs"]],
            ),
            ("NODE_OPTIONS", "--max-old-space-size=4096", &ls, &[]),
            ("RUBYOPT", "-r/tmp/x.rb", &ls, &[&["ruby", "/tmp/x.rb"]]),
            ("RUBYOPT", "-W0", &ls, &[]),
            ("PERL5OPT", "-MEvil", &ls, &[&["perl", "-MEvil", "-e", "1"]]),
            ("BASH_ENV", "/tmp/x.sh", &ls, &[&["bash", "/tmp/x.sh"]]),
            ("ENV", "/tmp/x.sh", &sh, &[&["sh", "/tmp/x.sh"]]),
            ("ENV", "production", &args(&["npm", "start"]), &[]),
        ];
        for (name, value, program, want) in cases {
            let got = loaded_code(name, value, Some(program));
            let want: Vec<Vec<String>> = want
                .iter()
                .map(|w| w.iter().map(|s| s.to_string()).collect())
                .collect();
            assert_eq!(got, want, "{name}={value} {program:?}");
        }
    }
}
