//! Argument-substituting runners: programs that run a command once per input, with the input
//! put into its words.
//!
//! In: the words after the runner's name (`parallel rm -rf ::: ~` → `rm -rf ::: ~`;
//! `fd . ~ -X rm -rf` → `. ~ -X rm -rf`) and its standard input. Out: the command run for each
//! input, peeled and recorded with the runner on its `via` path, the way `xargs` and
//! `find -exec` are ([`super::wrappers`]): GNU `parallel` takes its inputs from `:::` words,
//! `::::` files, `-a` files or standard input; `fd -x` / `-X` runs on the files it finds,
//! each standing for what [`fd_found`] shows. A placeholder (`{}`, `{.}`, `{/}`, `{//}`,
//! `{/.}`, `{1}`…) is replaced by the input; a command without one gets the input appended.

use super::context::{Feed, Input, LineAnalysis};
use super::{Arg, MAX_LOOP_WORDS};

/// GNU parallel's options that take the next word as their value.
const PARALLEL_VALUED: &[&str] = &[
    "-j",
    "--jobs",
    "-P",
    "--max-procs",
    "-S",
    "--sshlogin",
    "--slf",
    "--sshloginfile",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "-C",
    "--colsep",
    "-n",
    "--max-args",
    "-N",
    "-L",
    "--max-lines",
    "-l",
    "--joblog",
    "--results",
    "--res",
    "--tmpdir",
    "--workdir",
    "--wd",
    "--timeout",
    "--delay",
    "--retries",
    "--tag-string",
    "--tagstring",
    "--env",
    "--basefile",
    "--bf",
    "--return",
    "--transferfile",
    "--tf",
    "--memfree",
    "--load",
    "--shebang-wrap",
    "--halt",
    "--termseq",
    "-s",
    "--max-chars",
    "--block",
    "--blocksize",
    "--rpl",
    "--sqlmaster",
    "--sqlandworker",
    "--tmux",
    "--nice",
    "--ssh",
];

/// GNU parallel's options whose value is a file of inputs, one per line.
const PARALLEL_ARG_FILE: &[&str] = &["-a", "--arg-file", "--argfile"];

/// GNU parallel's options whose value is the replacement string (`-I ,,`).
const PARALLEL_REPLACE: &[&str] = &["-I", "--replace"];

/// The separators that start an input source: words (`:::`, `:::+` linked) or files
/// (`::::`, `::::+`).
const SOURCE_WORDS: &[&str] = &[":::", ":::+"];
const SOURCE_FILES: &[&str] = &["::::", "::::+"];

/// `fd`'s options that take the next word as their value.
const FD_VALUED: &[&str] = &[
    "-d",
    "--max-depth",
    "--maxdepth",
    "--min-depth",
    "--exact-depth",
    "-t",
    "--type",
    "-E",
    "--exclude",
    "-S",
    "--size",
    "--changed-within",
    "--change-newer-than",
    "--newer",
    "--changed-before",
    "--change-older-than",
    "--older",
    "-o",
    "--owner",
    "--path-separator",
    "-j",
    "--threads",
    "--max-results",
    "-c",
    "--color",
    "--format",
    "--ignore-file",
    "--batch-size",
    "--max-buffer-time",
    "--hyperlink",
];

/// `fd`'s options that run a command on each file found (`-x`) or once on all of them (`-X`).
const FD_EXEC: &[&str] = &["-x", "--exec", "-X", "--exec-batch"];

/// A placeholder of a runner's command, and what it makes of one input.
fn substitute(word: &str, inputs: &[Arg], replace: &str) -> Option<Arg> {
    let joined = || {
        let mut it = inputs.iter();
        let first = it.next()?;
        Some(it.fold(first.clone(), |acc, a| Arg {
            text: format!("{} {}", acc.text, a.text),
            dynamic: acc.dynamic || a.dynamic,
        }))
    };
    let mut text = word.to_string();
    let mut dynamic = false;
    let mut found = false;
    // `{1}`, `{2.}`, `{1/}`: the input of one source.
    for (k, input) in inputs.iter().enumerate() {
        let n = k + 1;
        for (suffix, f) in PLACEHOLDER_FORMS {
            let p = format!("{{{n}{suffix}}}");
            if text.contains(&p) {
                text = text.replace(&p, &f(&input.text));
                dynamic |= input.dynamic;
                found = true;
            }
        }
    }
    if let Some(all) = joined() {
        if !replace.is_empty() && replace != "{}" && text.contains(replace) {
            text = text.replace(replace, &all.text);
            dynamic |= all.dynamic;
            found = true;
        }
        for (suffix, f) in PLACEHOLDER_FORMS {
            let p = format!("{{{suffix}}}");
            if text.contains(&p) {
                text = text.replace(&p, &f(&all.text));
                dynamic |= all.dynamic;
                found = true;
            }
        }
    }
    found.then_some(Arg { text, dynamic })
}

/// A placeholder's form after the braces' number (`{}`, `{.}`, `{/}`, `{//}`, `{/.}`) and
/// what it makes of an input path: as is, without its extension, its base name, its folder,
/// its base name without extension. `{//}` is tried before `{/}` so its text is not taken
/// for the other's.
type Form = (&'static str, fn(&str) -> String);
const PLACEHOLDER_FORMS: &[Form] = &[
    ("", |s| s.to_string()),
    (".", |s| strip_extension(s).to_string()),
    ("//", |s| match s.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".to_string(),
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    }),
    ("/.", |s| strip_extension(base_name(s)).to_string()),
    ("/", |s| base_name(s).to_string()),
];

/// The last component of a path (`~` for `~`).
fn base_name(s: &str) -> &str {
    let t = s.trim_end_matches('/');
    t.rsplit('/').next().unwrap_or(t)
}

/// A path without the extension of its last component (`a/b.txt` → `a/b`; `.env` and `~`
/// keep theirs).
fn strip_extension(s: &str) -> &str {
    let base = base_name(s);
    match base.rfind('.') {
        Some(k) if k > 0 => &s[..s.len() - (base.len() - k)],
        _ => s,
    }
}

/// The command a runner runs for one set of inputs: the placeholders replaced, or the inputs
/// appended when the command has none.
fn with_inputs(cmd: &[Arg], inputs: &[Arg], replace: &str) -> Vec<Arg> {
    let mut substituted = false;
    let mut words: Vec<Arg> = cmd
        .iter()
        .map(|w| match substitute(&w.text, inputs, replace) {
            Some(s) => {
                substituted = true;
                Arg {
                    text: s.text,
                    dynamic: s.dynamic || w.dynamic,
                }
            }
            None => w.clone(),
        })
        .collect();
    if !substituted {
        words.extend(inputs.iter().cloned());
    }
    words
}

/// How an input only known at run time is written into a shell line a runner runs: a
/// variable no line sets.
const UNKNOWN_INPUT_WORD: &str = "\"${__runner_input__}\"";

/// An input only known at run time.
fn unknown_input() -> Arg {
    Arg {
        text: "{}".to_string(),
        dynamic: true,
    }
}

/// Every combination of one input from each source (GNU parallel runs the product), within
/// [`MAX_LOOP_WORDS`] combinations; past that, one combination of inputs only known at run
/// time.
fn combinations(sources: &[Vec<Arg>]) -> Vec<Vec<Arg>> {
    let mut out: Vec<Vec<Arg>> = vec![Vec::new()];
    for source in sources {
        let mut next = Vec::new();
        for prefix in &out {
            for input in source {
                let mut c = prefix.clone();
                c.push(input.clone());
                next.push(c);
            }
        }
        if next.len() > MAX_LOOP_WORDS {
            return vec![sources.iter().map(|_| unknown_input()).collect()];
        }
        out = next;
    }
    out
}

/// What `fd` reads of its own words: the search roots, what each file found stands for, and
/// the commands its `-x` / `-X` runs.
struct FdCall<'a> {
    /// The search roots (`.` when none is named).
    roots: Vec<Arg>,
    /// The pattern, when one is given.
    pattern: Option<&'a Arg>,
    /// `-g`: the pattern is a glob.
    glob: bool,
    /// `-e EXT` filters.
    extensions: Vec<Arg>,
    /// The command of `-x` / `-X` and which of the two it is.
    exec: Option<(&'a str, &'a [Arg])>,
}

/// Read `fd [OPTIONS] [PATTERN] [PATH…] [-x|-X CMD… [;]]`. Everything after `-x`/`-X` up to a
/// lone `;` is the command; options and paths may follow that `;`.
fn fd_call(rest: &[Arg]) -> FdCall<'_> {
    let mut call = FdCall {
        roots: Vec::new(),
        pattern: None,
        glob: false,
        extensions: Vec::new(),
        exec: None,
    };
    let mut positional: Vec<&Arg> = Vec::new();
    let mut base_dir: Option<&Arg> = None;
    let mut options_end = false;
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let t = a.text.as_str();
        if !options_end && FD_EXEC.contains(&t) {
            let start = i + 1;
            let mut end = start;
            while rest.get(end).is_some_and(|x| x.text != ";") {
                end += 1;
            }
            call.exec = Some((t, rest.get(start..end).unwrap_or(&[])));
            i = end + 1;
            continue;
        }
        if !options_end && t == "--" {
            options_end = true;
        } else if !options_end && t.starts_with('-') && t.len() > 1 {
            let value = rest.get(i + 1);
            match t {
                "-e" | "--extension" => call.extensions.extend(value.cloned()),
                "--search-path" => call.roots.extend(value.cloned()),
                "--base-directory" => base_dir = value,
                "-g" | "--glob" => call.glob = true,
                _ => {}
            }
            let joined = |v: &str| Arg {
                text: v.to_string(),
                dynamic: a.dynamic,
            };
            if let Some(v) = t.strip_prefix("--extension=") {
                call.extensions.push(joined(v));
            } else if let Some(v) = t.strip_prefix("--search-path=") {
                call.roots.push(joined(v));
            }
            let valued = FD_VALUED.contains(&t)
                || matches!(
                    t,
                    "-e" | "--extension" | "--search-path" | "--base-directory"
                );
            if valued {
                i += 1;
            }
        } else {
            positional.push(a);
        }
        i += 1;
    }
    let mut positional = positional.into_iter();
    call.pattern = positional.next();
    call.roots.extend(positional.cloned());
    if call.roots.is_empty() {
        call.roots.push(base_dir.cloned().unwrap_or(Arg {
            text: ".".to_string(),
            dynamic: false,
        }));
    }
    call
}

/// Whether an `fd` pattern matches every name (`fd`, `fd .`, `fd ''`, `fd '.*'`, `fd '^'`).
fn fd_matches_all(pattern: Option<&Arg>) -> bool {
    pattern.is_none_or(|p| {
        !p.dynamic && matches!(p.text.as_str(), "" | "." | ".*" | "^" | "^.*" | ".*$" | "*")
    })
}

/// What each file `fd` finds under `root` stands for: with a pattern that matches every name
/// and no extension filter, the root itself, emptied (`fd . ~ -X rm -rf` removes everything in
/// `~`); narrowed, a file somewhere under it named by the pattern when it is a plain name or a
/// glob (`fd .env -x cat` finds `./…/.env`), or by the extension (`./…/*.pem`).
fn fd_found(call: &FdCall<'_>, root: &Arg) -> Arg {
    let dir = root.text.trim_end_matches('/');
    let dir = if dir.is_empty() { "/" } else { dir };
    let sep = if dir.ends_with('/') { "" } else { "/" };
    if fd_matches_all(call.pattern) && call.extensions.is_empty() {
        return root.clone();
    }
    let plain = |p: &Arg| {
        !p.dynamic
            && p.text.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, '.' | '_' | '-')
                    || (call.glob && matches!(c, '*' | '?' | '[' | ']'))
            })
    };
    let name = match (call.pattern, call.extensions.first()) {
        (Some(p), _) if !fd_matches_all(Some(p)) && plain(p) => Some(p.text.clone()),
        (_, Some(e)) => Some(format!("*.{}", e.text.trim_start_matches('.'))),
        _ => None,
    };
    Arg {
        text: match name {
            Some(n) => format!("{dir}{sep}…/{n}"),
            None => format!("{dir}{sep}…"),
        },
        dynamic: root.dynamic
            || call.pattern.is_some_and(|p| p.dynamic)
            || call.extensions.iter().any(|e| e.dynamic),
    }
}

/// Whether `fd`'s output is the names it finds (no `-x`/`-X` of its own).
pub(super) fn fd_lists_names(rest: &[Arg]) -> bool {
    fd_call(rest).exec.is_none()
}

/// What each name `fd` lists stands for, when it searches one root (`fd . ~ | xargs rm -rf`);
/// with several roots, a name only known at run time.
pub(super) fn fd_listing(rest: &[Arg]) -> Arg {
    let call = fd_call(rest);
    match call.roots.as_slice() {
        [root] => fd_found(&call, root),
        _ => unknown_input(),
    }
}

impl LineAnalysis {
    /// `fd … -x CMD` / `-X CMD`: the command runs on what each root's files stand for
    /// ([`fd_found`]), with `{}` and its forms replaced, or the file appended.
    pub(super) fn fd_exec(&mut self, base: &str, rest: &[Arg], via: &[String], depth: usize) {
        let call = fd_call(rest);
        let Some((flag, cmd)) = call.exec else { return };
        for root in &call.roots {
            let found = fd_found(&call, root);
            let inner = with_inputs(cmd, std::slice::from_ref(&found), "{}");
            self.enter(
                &format!("{base} {flag}"),
                inner,
                via,
                depth,
                Feed::default(),
            );
        }
    }

    /// `parallel [OPTIONS] [CMD…] [::: WORDS…|:::: FILES…]…`: CMD runs once per combination
    /// of inputs, with its placeholders replaced or the inputs appended. Without CMD each input
    /// is a shell line. Without `:::`/`::::`/`-a` the inputs are the lines of standard input
    /// (text known now, or the names a `find`/`fd` lists).
    pub(super) fn parallel(&mut self, rest: &[Arg], via: &[String], depth: usize, input: Feed) {
        let mut replace = "{}".to_string();
        let mut sources: Vec<Vec<Arg>> = Vec::new();
        let mut i = 0;
        // Options.
        while let Some(a) = rest.get(i) {
            let t = a.text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if SOURCE_WORDS.contains(&t) || SOURCE_FILES.contains(&t) {
                break;
            }
            if !(t.starts_with('-') && t.len() > 1) {
                break;
            }
            if PARALLEL_ARG_FILE.contains(&t) || t.starts_with("--arg-file=") {
                sources.push(vec![unknown_input()]);
            }
            if PARALLEL_REPLACE.contains(&t) {
                if let Some(r) = rest.get(i + 1) {
                    replace = r.text.clone();
                }
            } else if let Some(r) = t.strip_prefix("-I").filter(|r| !r.is_empty()) {
                replace = r.to_string();
            } else if let Some(r) = t.strip_prefix("--replace=") {
                replace = r.to_string();
            }
            let valued = PARALLEL_VALUED.contains(&t)
                || PARALLEL_ARG_FILE.contains(&t)
                || PARALLEL_REPLACE.contains(&t);
            i += if valued { 2 } else { 1 };
        }
        let rest = rest.get(i..).unwrap_or(&[]);
        let cmd_len = rest
            .iter()
            .position(|a| {
                SOURCE_WORDS.contains(&a.text.as_str()) || SOURCE_FILES.contains(&a.text.as_str())
            })
            .unwrap_or(rest.len());
        let (cmd, mut tail) = rest.split_at(cmd_len);
        while let Some((sep, after)) = tail.split_first() {
            let n = after
                .iter()
                .position(|a| {
                    SOURCE_WORDS.contains(&a.text.as_str())
                        || SOURCE_FILES.contains(&a.text.as_str())
                })
                .unwrap_or(after.len());
            let (items, next) = after.split_at(n);
            if SOURCE_FILES.contains(&sep.text.as_str()) {
                sources.push(vec![unknown_input()]);
            } else {
                sources.push(items.to_vec());
            }
            tail = next;
        }
        if sources.is_empty() {
            // Standard input: one input per line.
            sources.push(match input.stdin {
                Some(Input::Text(t)) => t
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| Arg {
                        text: l.trim().to_string(),
                        dynamic: false,
                    })
                    .collect(),
                Some(Input::Listing { found, .. }) => vec![found],
                _ => vec![unknown_input()],
            });
        }
        for inputs in combinations(&sources) {
            match cmd {
                // No command: each input is a shell line.
                [] => {
                    let line = inputs
                        .iter()
                        .map(|a| a.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ");
                    if inputs.iter().any(|a| a.dynamic) {
                        self.mark_unsure(
                            "parallel runs input lines only known at run time as commands".into(),
                        );
                    } else {
                        let mut v = via.to_vec();
                        v.push("parallel".into());
                        self.script(&line, &v, depth + 1);
                    }
                }
                // One word: a shell line with the inputs quoted into it.
                [line] if line.text.contains(char::is_whitespace) => {
                    // An input only known at run time becomes an unset variable, so the line's
                    // analysis sees a word only known at run time.
                    let quoted: Vec<Arg> = inputs
                        .iter()
                        .map(|a| Arg {
                            text: if a.dynamic {
                                UNKNOWN_INPUT_WORD.to_string()
                            } else {
                                shlex::try_quote(&a.text)
                                    .map(|q| q.into_owned())
                                    .unwrap_or_else(|_| UNKNOWN_INPUT_WORD.to_string())
                            },
                            dynamic: a.dynamic,
                        })
                        .collect();
                    let words = with_inputs(std::slice::from_ref(line), &quoted, &replace);
                    let text = words
                        .iter()
                        .map(|a| a.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let mut v = via.to_vec();
                    v.push("parallel".into());
                    self.script(&text, &v, depth + 1);
                }
                // Inputs only known at run time: the command as written, as `xargs` fed
                // an unknown list is (which files such a list names is not judged).
                _ if inputs.iter().any(|a| *a == unknown_input()) => {
                    self.enter("parallel", cmd.to_vec(), via, depth, Feed::default());
                }
                _ => {
                    let inner = with_inputs(cmd, &inputs, &replace);
                    self.enter("parallel", inner, via, depth, Feed::default());
                }
            }
        }
    }
}
