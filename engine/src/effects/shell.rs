//! The shell lens: a command line through the shell analyser, each simple command through
//! the program knowledge table.
//!
//! In: a command value (a command line string, or an argv array) and its working directory.
//! Out: a `run` effect per simple command, the effects the program knowledge table gives for
//! its operands and redirections, and `unsure` for what the analyser could not see.
//!
//! A program the table does not know only runs: its operands are not guessed at. Shell text
//! a program runs itself (`git -c alias.x='!sh …'`, `rg --pre CMD`, `rsync -e CMD`,
//! `socat … EXEC:CMD`) is analysed as a command line of its own.

use serde_json::Value;

use super::programs::{Action, Fallback, Parsed, Role, Switch, is_remote, parse};
use super::{BodySource, Effect, Effects, Lens, PathRef, Route, Send, What};
use crate::shell::{
    Arg, BrushAnalyzer, MAX_DEPTH, PROCSUB, RedirectMode, ShellAnalysis, ShellAnalyzer,
    SimpleCommand, analyze_command,
};
use crate::table::ShellEnv;

/// The command value of a shell tool call (`Bash`, Codex `shell` / `exec_command` /
/// `local_shell` / `write_stdin`).
pub(crate) fn command_of<'v>(tool: &str, input: &'v Value) -> Option<&'v Value> {
    match tool {
        "write_stdin" => input.get("chars"),
        _ => input.get("command").or_else(|| input.get("cmd")),
    }
}

/// The effects of a command value found at `argument` of a `tool` call.
pub(crate) fn lens_value(
    tool: &str,
    argument: &str,
    v: &Value,
    cwd: Option<&str>,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    if let Some(a) = analyze_command(v, cwd) {
        lens_analysis(tool, argument, &a, env, fx);
    }
}

/// The effects of an analysed command line.
pub(crate) fn lens_analysis(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    env: &ShellEnv,
    fx: &mut Effects,
) {
    lens_commands(tool, argument, a, &[], env, 0, fx);
}

/// The effects of a command line run by something else at `depth` (a command inline code
/// runs, `subprocess.run([...])`), each route's `via` starting with `via`.
pub(crate) fn lens_nested(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    via: &[String],
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    lens_commands(tool, argument, a, via, env, depth, fx);
}

/// The effects of every command of an analysis; `via` is prefixed to each command's wrapper
/// path (shell text run by a program, analysed on its own, `depth` levels down).
fn lens_commands(
    tool: &str,
    argument: &str,
    a: &ShellAnalysis,
    via: &[String],
    env: &ShellEnv,
    depth: usize,
    fx: &mut Effects,
) {
    // Files programs wrote earlier on the line (`curl -o i.sh`, `cp x i.sh`): running one
    // runs content that is not visible. (Redirections are the analyser's to follow.)
    let mut downloaded: Vec<String> = Vec::new();
    // A command seen before on the line (same words, redirections, folder and wrappers) has
    // the same effects: a long generated line repeats a few commands thousands of times.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    // The effects each command added (`fx.list` index range), for the pipes between them.
    let mut spans: Vec<std::ops::Range<usize>> = vec![0..0; a.commands.len()];
    for (ci, c) in a.commands.iter().enumerate() {
        // (A file downloaded since makes the same words run something new.)
        let key = format!(
            "{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{}",
            c.program,
            c.args,
            c.redirections,
            c.cwd,
            c.via,
            downloaded.len()
        );
        if !seen.insert(key) {
            continue;
        }
        let mut full_via = via.to_vec();
        full_via.extend(c.via.iter().cloned());
        // The words as run; the wrapper path is the route's `via`.
        let mut command = SimpleCommand {
            via: Vec::new(),
            ..c.clone()
        }
        .display_words();
        if command.is_empty() {
            command = redirections_text(c);
        }
        let route = Route {
            tool: tool.to_string(),
            lens: Some(Lens::Shell),
            argument: argument.to_string(),
            command: Some(command.clone()),
            via: full_via.clone(),
        };
        let mut out = Out::default();
        if !c.program.is_empty() {
            out.push(What::Run(c.clone()));
        }
        if let Some(why) = disguised_name(&c.program) {
            out.push(What::Unsure(format!(
                "`{command}` runs a program whose name {why}: a shell splits words on ASCII blanks only, so it is one word naming a program seamguard does not know"
            )));
        }
        program_effects(c, &mut out);
        // `tee f <<EOF`: the text is what `tee` writes.
        if c.basename() == "tee"
            && let Some(text) = c.stdin_text()
        {
            for w in &mut out.list {
                if let What::Write { content, .. } = w {
                    *content = Some(text.to_string());
                }
            }
        }
        if let Some(file) = runs_downloaded(c, &out, &downloaded) {
            out.push(What::Unsure(format!(
                "`{command}` runs `{file}`, written earlier on the same line by a program whose output is not visible"
            )));
        }
        for w in &out.list {
            if let What::Write { path, .. } = w
                && !path.dynamic
            {
                downloaded.push(plain(&path.text).to_string());
            }
        }
        let redirected = out.list.len();
        redirect_effects(c, &mut out);
        // `nc host 80 <<< "$TOKEN"`: a request whose body is standard input sends the
        // variables of the text fed to it.
        if let Some(r) = c
            .redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
        {
            let vars = variables(&r.target.text);
            for w in &mut out.list {
                if let What::Send(s) = w
                    && s.body.contains(&BodySource::Stdin)
                {
                    for v in &vars {
                        let src = BodySource::Env(v.clone());
                        if !s.body.contains(&src) {
                            s.body.push(src);
                        }
                    }
                }
            }
        }
        let start = fx.list.len();
        for (i, w) in out.list.into_iter().enumerate() {
            // What a redirection does names it: `writes ~/.bashrc (Bash: `echo x >> ~/.bashrc`)`.
            let r = match (i >= redirected).then(|| redirect_shown(c, &w)).flatten() {
                Some(shown) if command != shown && !c.program.is_empty() => Route {
                    command: Some(format!("{command} {shown}")),
                    ..route.clone()
                },
                _ => route.clone(),
            };
            fx.push(w, r);
        }
        if let Some(span) = spans.get_mut(ci) {
            *span = start..fx.list.len();
        }
        // Shell text the program runs itself, analysed as a line of its own.
        for (who, text) in out.scripts {
            let mut nested = full_via.clone();
            nested.push(who);
            if text.dynamic {
                fx.push(
                    What::Unsure(format!(
                        "`{command}` runs shell text that is only known at run time"
                    )),
                    route.clone(),
                );
                continue;
            }
            if depth >= MAX_DEPTH {
                fx.push(
                    What::Unsure(format!(
                        "`{command}` runs shell text nested deeper than {MAX_DEPTH} levels"
                    )),
                    route.clone(),
                );
                continue;
            }
            let inner = BrushAnalyzer.analyze(&text.text, c.cwd.as_deref());
            lens_commands(tool, argument, &inner, &nested, env, depth + 1, fx);
        }
        // Code an interpreter runs (`python3 -c`, `node -e`, `python3 - <<EOF`), read by the
        // inline-code lens.
        for run in out.codes {
            let mut nested = full_via.clone();
            nested.push(run.who.clone());
            let r = Route {
                via: nested,
                ..route.clone()
            };
            super::inline::run_code(&run, &r, c.cwd.as_deref(), env, depth, fx);
        }
    }
    through_pipes(a, &spans, fx);
    if let Some(u) = &a.unsure {
        fx.push(
            What::Unsure(u.clone()),
            Route {
                tool: tool.to_string(),
                lens: Some(Lens::Shell),
                argument: argument.to_string(),
                command: None,
                via: via.to_vec(),
            },
        );
    }
}

/// What disguises a program name, if anything: a blank that is not an ASCII blank
/// (`rm\u{a0}-rf`, `|\u{a0}sh`), an invisible or direction-changing character, or Latin
/// letters mixed with Cyrillic or Greek ones in one name (`сurl` with a Cyrillic `с`). Each
/// makes a name that reads as a known program but is another one (a file an attacker may
/// have put on `PATH` under that name). Names in one script (`générer.sh`, `сборка`) are
/// not flagged.
fn disguised_name(program: &str) -> Option<String> {
    let name = program.rsplit('/').next().unwrap_or(program);
    for ch in program.chars() {
        let invisible = matches!(ch,
            '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
        if (ch.is_whitespace() && !ch.is_ascii()) || invisible {
            return Some(format!(
                "holds the invisible character U+{:04X}",
                u32::from(ch)
            ));
        }
    }
    let latin = name.chars().any(|c| c.is_ascii_alphabetic());
    let other = name
        .chars()
        .find(|c| matches!(u32::from(*c), 0x0370..=0x03FF | 0x0400..=0x052F | 0x1F00..=0x1FFF));
    match (latin, other) {
        (true, Some(ch)) => Some(format!(
            "mixes Latin letters with `{ch}` (U+{:04X}), a Cyrillic or Greek letter that looks like a Latin one",
            u32::from(ch)
        )),
        _ => None,
    }
}

/// Whether a command prints every environment variable: `env` / `printenv` with no operand
/// (options only: `env -0`, `printenv --null`), `export -p`, `declare -x` / `-p`, `typeset
/// -x`, `compgen -v`, `set` with no argument.
fn prints_environment(c: &SimpleCommand) -> bool {
    if c.dynamic_program {
        return false;
    }
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    let only_options = words.iter().all(|w| w.starts_with('-'));
    match c.basename() {
        "env" | "printenv" => only_options,
        "set" => words.is_empty(),
        "export" => words == ["-p"],
        "declare" | "typeset" => {
            only_options
                && words
                    .iter()
                    .any(|w| matches!(*w, "-x" | "-p" | "-px" | "-xp"))
        }
        "compgen" => words == ["-v"],
        _ => code_reads_environment(c),
    }
}

/// What a language's code writes to read the whole environment, not one variable: a marker,
/// and the texts that, right after it, make it one variable instead (`ENVIRON["HOME"]`,
/// `os.environ.get('X')`).
type EnvironmentMarker = (&'static str, &'static [&'static str]);

/// The markers of reading the whole environment, by program.
fn environment_markers(base: &str) -> &'static [EnvironmentMarker] {
    match base {
        "awk" | "gawk" | "mawk" | "nawk" | "busybox" => &[("ENVIRON", &["["])],
        "perl" | "perl5" => &[("%ENV", &[])],
        "ruby" => &[("ENV", &["[", ".fetch", ".key?", ".include?", "_", "\""])],
        "php" => &[("getenv()", &[]), ("$_ENV", &["["]), ("$_SERVER", &["["])],
        b if b.starts_with("python") || b.starts_with("pypy") => &[
            (
                "os.environ",
                &[
                    "[",
                    ".get(",
                    ".setdefault(",
                    ".pop(",
                    ".__setitem__",
                    ".update(",
                ],
            ),
            ("environ.copy()", &[]),
        ],
        "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node" => &[
            ("process.env", &[".", "["]),
            ("Bun.env", &[".", "["]),
            ("Deno.env.toObject", &[]),
        ],
        _ => &[],
    }
}

/// Whether a command's inline program reads the whole environment (`awk 'BEGIN{for (k in
/// ENVIRON) print k}'`, `perl -e 'print %ENV'`, `ruby -e 'p ENV.to_h'`, `php -r
/// 'print_r(getenv());'`, `python3 -c 'print(dict(os.environ))'`): what it prints down a
/// pipe is every variable.
fn code_reads_environment(c: &SimpleCommand) -> bool {
    let markers = environment_markers(c.basename());
    c.args.iter().any(|a| {
        markers.iter().any(|(marker, narrowing)| {
            a.text.match_indices(marker).any(|(k, _)| {
                let after = &a.text[k + marker.len()..];
                // A longer name (`ENVIRONMENT`, `process.envs`) is not the marker.
                let longer = marker.chars().last().is_some_and(|l| l.is_alphanumeric())
                    && after
                        .chars()
                        .next()
                        .is_some_and(|n| n.is_alphanumeric() || n == '_');
                !longer && !narrowing.iter().any(|n| after.trim_start().starts_with(n))
            })
        })
    })
}

/// Whether an awk program runs the lines it reads as commands: `system()` of a field
/// (`awk '{system($0)}'`), or lines printed into a shell (`awk '{print | "sh"}'`).
fn awk_runs_input(c: &SimpleCommand) -> bool {
    if !matches!(c.basename(), "awk" | "gawk" | "mawk" | "nawk") || c.dynamic_program {
        return false;
    }
    let Some(program) = c.args.iter().find(|a| !a.text.starts_with('-')) else {
        return false;
    };
    let t = program.text.replace(char::is_whitespace, "");
    let system_of_field = t.match_indices("system(").any(|(k, _)| {
        t[k + "system(".len()..]
            .split(')')
            .next()
            .is_some_and(|arg| arg.contains('$'))
    });
    let into_shell = SHELLS_C.iter().any(|sh| t.contains(&format!("|\"{sh}\"")));
    system_of_field || into_shell
}

/// What code in a language without a parser here writes to open a network connection.
const UNPARSED_NETWORK_MARKERS: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "Net::HTTP",
    "Net::FTP",
    "Net::SMTP",
    "URI.open",
    "open-uri",
    "TCPSocket",
    "UDPSocket",
    "Socket.",
    "IO::Socket",
    "LWP",
    "HTTP::Tiny",
    "curl_",
    "fsockopen",
    "stream_socket_client",
    "socket_connect",
    "socket(",
    "Invoke-WebRequest",
    "Invoke-RestMethod",
    "iwr ",
    "iwr(",
    "irm ",
    "irm(",
    "Net.WebClient",
    "DownloadString",
];

/// What code in a language without a parser here writes to run text as code.
const UNPARSED_EVAL_MARKERS: &[&str] = &[
    "eval",
    "instance_eval",
    "class_eval",
    "Invoke-Expression",
    "iex ",
    "iex(",
    "IEX ",
    "IEX(",
    "create_function",
    "assert(",
];

/// Ruby, Perl, PHP and PowerShell code is not parsed here: code that names a network
/// connection and also reads the whole environment (`ruby -e 'Net::HTTP.post(URI("https://…"),
/// ENV.to_h.to_s)'`) may send it, and code that names one and evaluates text (`php -r
/// "eval(file_get_contents('https://…'));"`, `pwsh -c 'iex (iwr https://…)'`) may run what it
/// fetches: both are unsure.
fn unparsed_code_effects(c: &SimpleCommand, out: &mut Out) {
    let lang = match c.basename() {
        "ruby" => "Ruby",
        "perl" | "perl5" => "Perl",
        "php" => "PHP",
        "pwsh" | "powershell" | "powershell.exe" | "pwsh.exe" => "PowerShell",
        _ => return,
    };
    let has = |markers: &[&str]| {
        c.args
            .iter()
            .any(|a| markers.iter().any(|m| a.text.contains(m)))
    };
    if !has(UNPARSED_NETWORK_MARKERS) {
        return;
    }
    if code_reads_environment(c) {
        out.push(What::Unsure(format!(
            "{lang} code that reads the whole environment and opens a network connection \
             (seamguard does not parse {lang})"
        )));
    }
    if has(UNPARSED_EVAL_MARKERS) {
        out.push(What::Unsure(format!(
            "{lang} code that opens a network connection and evaluates text as code \
             (seamguard does not parse {lang})"
        )));
    }
}

/// Programs that run what they read on standard input as code when given no script
/// (`… | sh`, `… | python3 -`).
const STDIN_RUNNERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "busybox",
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "pwsh",
    "powershell",
    "osascript",
    "source",
    ".",
    "tclsh",
    "lua",
    "Rscript",
];

/// Whether `c` runs its standard input as code: a shell or interpreter with no script operand
/// and no inline code (`sh`, `sudo bash -s -- --flag`, `python3 -`, `source /dev/stdin`).
fn runs_stdin(c: &SimpleCommand) -> bool {
    if awk_runs_input(c) {
        return true;
    }
    let b = c.basename();
    let b = b.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    if !STDIN_RUNNERS.contains(&b) && !STDIN_RUNNERS.contains(&c.basename()) {
        return false;
    }
    for a in &c.args {
        let t = a.text.as_str();
        if t == "-" || t == "/dev/stdin" || t == "--" || t == "-s" {
            return true;
        }
        if t.starts_with('-') {
            // Inline code (`-c`, `-e`, `--eval`, `-r`) or a module (`-m`): not standard input.
            if matches!(
                t,
                "-c" | "-e" | "-E" | "--eval" | "-r" | "-m" | "-p" | "--print" | "-Command"
            ) || (t.len() > 1
                && !t.starts_with("--")
                && t.contains('c')
                && SHELLS_C.contains(&b))
            {
                return false;
            }
            continue;
        }
        // A script operand.
        return false;
    }
    true
}

/// Shells whose `-c` may be bundled with other flags (`-xc`).
const SHELLS_C: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"];

/// The commands a pipeline element runs: the first one recorded for it and those it wraps
/// (`sudo bash` is `sudo`, then `bash` through `sudo`).
fn element(a: &ShellAnalysis, first: usize) -> std::ops::Range<usize> {
    let Some(head) = a.commands.get(first) else {
        return first..first;
    };
    let depth = head.via.len();
    let mut end = first + 1;
    while a
        .commands
        .get(end)
        .is_some_and(|c| c.via.len() > depth && c.via.starts_with(&head.via))
    {
        end += 1;
    }
    first..end
}

/// What flows through the pipes of a line: a request whose response is piped into a shell or
/// interpreter runs that response as code (`curl … | sh`); a request whose body is standard
/// input sends what the commands before it read or print (`cat .env | curl -d @- …`,
/// `printf %s "$TOKEN" | nc host 80`), through filters (`| base64 |`).
fn through_pipes(a: &ShellAnalysis, spans: &[std::ops::Range<usize>], fx: &mut Effects) {
    if a.pipes.is_empty() {
        return;
    }
    let effects_of = |r: std::ops::Range<usize>| -> Vec<usize> {
        r.filter_map(|k| spans.get(k))
            .flat_map(Clone::clone)
            .collect()
    };
    // What an element reads or prints, and what was piped into it, transitively.
    let mut fed: std::collections::HashMap<usize, Vec<BodySource>> =
        std::collections::HashMap::new();
    for &(from, to) in &a.pipes {
        let producer = element(a, from);
        let mut sources: Vec<BodySource> = fed.get(&from).cloned().unwrap_or_default();
        for k in producer.clone() {
            let Some(c) = a.commands.get(k) else { continue };
            match c.basename() {
                "echo" | "printf" | "print" => {
                    for arg in &c.args {
                        sources.extend(variables(&arg.text).into_iter().map(BodySource::Env));
                    }
                }
                // `env`, `printenv`, `export -p`, `declare -x`, `set`, `compgen -v` with no
                // name print every variable.
                _ if prints_environment(c) => sources.push(BodySource::Environment),
                "printenv" => sources.extend(
                    c.args
                        .iter()
                        .filter(|x| !x.text.starts_with('-') && !x.dynamic)
                        .map(|x| BodySource::Env(x.text.clone())),
                ),
                _ => {}
            }
            if let Some(text) = c.stdin_text() {
                sources.extend(variables(text).into_iter().map(BodySource::Env));
            }
        }
        for i in effects_of(producer.clone()) {
            if let Some(Effect {
                what: What::Read(p),
                ..
            }) = fx.list.get(i)
            {
                sources.push(BodySource::File(p.clone()));
            }
        }
        let consumer = element(a, to);
        let runs = consumer
            .clone()
            .any(|k| a.commands.get(k).is_some_and(runs_stdin));
        // A request whose response is run as code.
        if runs {
            for i in effects_of(producer) {
                if let Some(Effect {
                    what: What::Send(s),
                    ..
                }) = fx.list.get_mut(i)
                {
                    s.runs_response = true;
                }
            }
        }
        // A request whose body is standard input sends what was fed into it.
        for i in effects_of(consumer) {
            if let Some(Effect {
                what: What::Send(s),
                ..
            }) = fx.list.get_mut(i)
                && s.body.contains(&BodySource::Stdin)
            {
                for src in &sources {
                    if !s.body.contains(src) {
                        s.body.push(src.clone());
                    }
                }
            }
        }
        fed.entry(to).or_default().extend(sources);
    }
}

/// Programs that run a script file named by their first operand.
const SCRIPT_RUNNERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "source", ".", "python", "python2",
    "python3", "node", "deno", "bun", "ruby", "perl", "php", "Rscript", "lua",
];

/// A path without a leading `./`.
fn plain(t: &str) -> &str {
    t.strip_prefix("./").unwrap_or(t)
}

/// The file a command runs that a program wrote earlier on the line: its program
/// (`./i.sh`) or the script an interpreter reads (`bash i.sh`).
fn runs_downloaded(c: &SimpleCommand, out: &Out, downloaded: &[String]) -> Option<String> {
    if downloaded.is_empty() || c.dynamic_program {
        return None;
    }
    if downloaded.iter().any(|d| d == plain(&c.program)) {
        return Some(c.program.clone());
    }
    if !SCRIPT_RUNNERS.contains(&c.basename()) {
        return None;
    }
    out.list.iter().find_map(|w| match w {
        What::Read(p) if !p.dynamic && downloaded.iter().any(|d| d == plain(&p.text)) => {
            Some(p.text.clone())
        }
        _ => None,
    })
}

/// `> /etc/hosts`, `< .env`: how a command with no program shows in a route.
fn redirections_text(c: &SimpleCommand) -> String {
    c.redirections
        .iter()
        .map(redirection_text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One redirection as written: `>> ~/.bashrc`, `2> log`, `< .env`.
fn redirection_text(r: &crate::shell::Redirect) -> String {
    let op = match r.mode {
        RedirectMode::Read => "<",
        RedirectMode::Write => ">",
        RedirectMode::Append => ">>",
        RedirectMode::ReadWrite => "<>",
        RedirectMode::Text => "<<",
    };
    let fd = r.fd.map(|n| n.to_string()).unwrap_or_default();
    format!("{fd}{op} {}", r.target.text)
}

/// The redirection of `c` an effect of [`redirect_effects`] came from, as written (the file
/// it reads or writes, the `/dev/tcp` connection it opens).
fn redirect_shown(c: &SimpleCommand, w: &What) -> Option<String> {
    let target = match w {
        What::Read(p) | What::Write { path: p, .. } => Some(p.text.as_str()),
        _ => None,
    };
    c.redirections
        .iter()
        .filter(|r| r.mode != RedirectMode::Text)
        .find(|r| match target {
            Some(t) => r.target.text == t,
            None => {
                r.target.text.starts_with("/dev/tcp/") || r.target.text.starts_with("/dev/udp/")
            }
        })
        .map(redirection_text)
}

/// The effects of one command, without repeats, and the shell text it runs.
#[derive(Default)]
struct Out {
    /// The effects, in order.
    list: Vec<What>,
    /// Shell text the program runs (who runs it, the text).
    scripts: Vec<(String, Arg)>,
    /// Code an interpreter runs (who runs it, its language, the text).
    codes: Vec<super::inline::CodeRun>,
}

impl Out {
    /// Add an effect unless the same one is there already (every `send` is kept: two
    /// destinations only known by host can look alike before they are resolved).
    fn push(&mut self, w: What) {
        if matches!(w, What::Send(_)) || !self.list.contains(&w) {
            self.list.push(w);
        }
    }
}

/// Paths that are not files: reading or writing them touches nothing.
const PSEUDO_FILES: &[&str] = &[
    "/dev/null",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
    "-",
];

/// A path operand of `c`, or `None` for a pseudo-file (`/dev/null`, `-`) or a process
/// substitution (`diff <(sort a) b`: what it reads is the substitution's own commands').
fn path(a: &Arg, c: &SimpleCommand) -> Option<PathRef> {
    let pseudo = if a.dynamic {
        a.text == PROCSUB
    } else {
        PSEUDO_FILES.contains(&a.text.as_str())
    };
    (!pseudo).then(|| PathRef::from_arg(a, c.cwd.as_deref()))
}

fn read(a: &Arg, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Read(p));
    }
}

/// Registry specifiers a runtime installs a package from and runs (`npm:cowsay`,
/// `jsr:@std/http/file-server`).
const SCRIPT_SPECIFIERS: &[&str] = &["npm:", "jsr:"];

/// The script a runtime runs ([`Role::Script`]): fetched and run when it is an `http(s)`
/// URL (`deno run https://…/x.ts`, `bun https://…/x.js`), installed from its registry and
/// run when it is a specifier (`deno run npm:cowsay`), read otherwise.
fn script(a: &Arg, c: &SimpleCommand, out: &mut Out) {
    let lower = a.text.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        let mut w = send_url(a, Some("GET".into()), Vec::new());
        if let What::Send(s) = &mut w {
            s.runs_response = true;
        }
        out.push(w);
    } else if SCRIPT_SPECIFIERS.iter().any(|p| lower.starts_with(p)) {
        out.push(What::Install {
            manager: c.basename().to_string(),
            packages: vec![a.clone()],
            source: None,
        });
    } else {
        read(a, c, out);
    }
}

fn write(a: &Arg, append: bool, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Write {
            path: p,
            append,
            content: None,
        });
    }
}

fn delete(a: &Arg, recursive: bool, c: &SimpleCommand, out: &mut Out) {
    if let Some(p) = path(a, c) {
        out.push(What::Delete { path: p, recursive });
    }
}

/// The file a command's redirections read, write or append to; what a literal `echo` /
/// `printf` writes is the content of its writes. Bash's `/dev/tcp/HOST/PORT` and
/// `/dev/udp/HOST/PORT` are connections: a `send` whose body is what the command reads.
fn redirect_effects(c: &SimpleCommand, out: &mut Out) {
    // `echo …`, `printf …`, `cat <<EOF`, `tee f <<< …`: what is written is visible.
    let content = c.literal_output().or_else(|| {
        matches!(c.basename(), "cat" | "tee")
            .then(|| c.stdin_text().map(str::to_string))
            .flatten()
    });
    for r in &c.redirections {
        if let Some(rest) = (!r.target.dynamic)
            .then(|| {
                r.target
                    .text
                    .strip_prefix("/dev/tcp/")
                    .or_else(|| r.target.text.strip_prefix("/dev/udp/"))
            })
            .flatten()
        {
            let (host, port) = rest.split_once('/').unwrap_or((rest, ""));
            let mut body: Vec<BodySource> = out
                .list
                .iter()
                .filter_map(|w| match w {
                    What::Read(p) => Some(BodySource::File(p.clone())),
                    _ => None,
                })
                .collect();
            if body.is_empty() && r.mode != RedirectMode::Read {
                body.push(if content.is_some() {
                    BodySource::Literal
                } else {
                    BodySource::Stdin
                });
            }
            let host = Arg {
                text: host.to_string(),
                dynamic: false,
            };
            out.push(send_host(&host, (!port.is_empty()).then_some(port), body));
            continue;
        }
        match r.mode {
            RedirectMode::Read => read(&r.target, c, out),
            RedirectMode::Write | RedirectMode::Append => {
                if let Some(p) = path(&r.target, c) {
                    out.push(What::Write {
                        path: p,
                        append: r.mode == RedirectMode::Append,
                        content: content.clone(),
                    });
                }
            }
            RedirectMode::ReadWrite => {
                read(&r.target, c, out);
                write(&r.target, false, c, out);
            }
            RedirectMode::Text => {}
        }
    }
}

/// The file standard input is redirected from, if any (`nc host 80 < file`).
fn stdin_file(c: &SimpleCommand) -> Option<&Arg> {
    c.redirections
        .iter()
        .rev()
        .find(|r| r.mode == RedirectMode::Read && r.fd.is_none_or(|fd| fd == 0))
        .map(|r| &r.target)
}

/// The variable names a word expands (`$AWS_KEY`, `${TOKEN}`, `${TOKEN:-x}`), in order.
fn variables(t: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let braced = b.get(i + 1) == Some(&b'{');
            let start = if braced { i + 2 } else { i + 1 };
            let mut end = start;
            while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                end += 1;
            }
            if end > start
                && !b[start].is_ascii_digit()
                && let Some(name) = t.get(start..end)
                && !out.iter().any(|n| n == name)
            {
                out.push(name.to_string());
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The body sources of a request data word (`@file`, `@-`, `$VAR`, literal text).
fn data_sources(v: &Arg, c: &SimpleCommand) -> Vec<BodySource> {
    let mut body = Vec::new();
    if let Some(f) = v.text.strip_prefix('@') {
        if f == "-" {
            body.push(BodySource::Stdin);
        } else {
            body.push(BodySource::File(PathRef::from_arg(
                &Arg {
                    text: f.to_string(),
                    dynamic: v.dynamic,
                },
                c.cwd.as_deref(),
            )));
        }
        return body;
    }
    let vars = variables(&v.text);
    if vars.is_empty() {
        body.push(BodySource::Literal);
    }
    body.extend(vars.into_iter().map(BodySource::Env));
    body
}

/// The body sources of a form field (`name=@file`, `name=<file`, `name=value`).
fn form_sources(v: &Arg, c: &SimpleCommand) -> Vec<BodySource> {
    match v.text.split_once('=') {
        Some((_, value)) if value.starts_with(['@', '<']) => {
            let f = value.get(1..).unwrap_or_default();
            let f = f.split(';').next().unwrap_or(f);
            if f == "-" {
                vec![BodySource::Stdin]
            } else {
                vec![BodySource::File(PathRef::from_arg(
                    &Arg {
                        text: f.to_string(),
                        dynamic: v.dynamic,
                    },
                    c.cwd.as_deref(),
                ))]
            }
        }
        Some((_, value)) => data_sources(
            &Arg {
                text: value.to_string(),
                dynamic: v.dynamic,
            },
            c,
        ),
        None => data_sources(v, c),
    }
}

/// Add body sources, keeping each once.
fn add_body(body: &mut Vec<BodySource>, more: Vec<BodySource>) {
    for b in more {
        if !body.contains(&b) {
            body.push(b);
        }
    }
}

/// Whether the destination part of a URL (`scheme://authority`, or a bare host) is only
/// known at run time.
fn destination_dynamic(a: &Arg) -> bool {
    if !a.dynamic {
        return false;
    }
    let t = a.text.as_str();
    let rest = t.split_once("://").map_or(t, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    t.starts_with('$')
        || authority.contains(['$', '`'])
        || t.split_once("://").is_some_and(|(s, _)| s.contains('$'))
}

/// A `send` to a URL word; variables in the URL itself are sent too.
fn send_url(url: &Arg, method: Option<String>, mut body: Vec<BodySource>) -> What {
    let dynamic = destination_dynamic(url);
    add_body(
        &mut body,
        variables(&url.text)
            .into_iter()
            .map(BodySource::Env)
            .collect(),
    );
    What::Send(Send {
        url: Some(url.text.clone()),
        endpoint: if dynamic {
            None
        } else {
            super::url::parse(&url.text)
        },
        method,
        body,
        dynamic,
        runs_response: false,
    })
}

/// A `send` to a host (`nc host 80`, `ssh user@host`): no URL, the endpoint parsed from
/// `host[:port]`.
fn send_host(host: &Arg, port: Option<&str>, body: Vec<BodySource>) -> What {
    let h = host
        .text
        .rsplit_once('@')
        .map_or(host.text.as_str(), |(_, h)| h);
    let target = match port {
        Some(p) if h.contains(':') && !h.starts_with('[') => format!("[{h}]:{p}"),
        Some(p) => format!("{h}:{p}"),
        None => h.to_string(),
    };
    let dynamic = host.dynamic;
    What::Send(Send {
        url: None,
        endpoint: if dynamic {
            None
        } else {
            super::url::parse(&target)
        },
        method: None,
        body,
        dynamic,
        runs_response: false,
    })
}

/// A `send` to a remote copy operand (`host:path`, `user@host:path`, `rsync://host/x`).
fn send_remote(a: &Arg, body: Vec<BodySource>) -> What {
    if a.text.contains("://") {
        return send_url(a, None, body);
    }
    let host = a.text.split_once(':').map_or(a.text.as_str(), |(h, _)| h);
    let h = host.rsplit_once('@').map_or(host, |(_, h)| h);
    What::Send(Send {
        url: Some(a.text.clone()),
        endpoint: if a.dynamic {
            None
        } else {
            super::url::parse(h)
        },
        method: None,
        body,
        dynamic: a.dynamic,
        runs_response: false,
    })
}

/// The effects a program's row gives one command.
fn program_effects(c: &SimpleCommand, out: &mut Out) {
    if c.dynamic_program || c.program.is_empty() {
        return;
    }
    match c.basename() {
        "git" => git_config(c, out),
        "crontab" | "at" | "batch" => scheduled_jobs(c, out),
        "ruby" | "perl" | "perl5" | "php" | "pwsh" | "powershell" | "powershell.exe"
        | "pwsh.exe" => unparsed_code_effects(c, out),
        _ => {}
    }
    if let Some(inner) = python_module(c) {
        program_effects(&inner, out);
        return;
    }
    let Some(p) = parse(c) else {
        return;
    };
    let recursive = p.has(Switch::Recursive);
    // Option values with a path or script role.
    for (role, v) in &p.values {
        match role {
            Role::Read => read(v, c, out),
            Role::Write => write(v, false, c, out),
            Role::Append => write(v, true, c, out),
            Role::Delete => delete(v, recursive, c, out),
            Role::Mount => mount(v, c, out),
            Role::Host if v.text.contains("://") => out.push(send_url(v, None, Vec::new())),
            Role::Host => out.push(send_host(v, None, Vec::new())),
            _ => {}
        }
    }
    for (option, text) in &p.scripts {
        out.scripts
            .push((format!("{} {option}", c.basename()), text.clone()));
    }
    out.codes.extend(super::inline::code_runs(c, &p));
    match p.row.action {
        Action::Files => files(c, &p, out),
        Action::Copy { moves } => copy(c, &p, moves, out),
        Action::Send => send(c, &p, out),
        Action::Connect => connect(c, &p, out),
        Action::HttpItems => http_items(c, &p, out),
        Action::Socat => socat(c, &p, out),
        Action::Signal => signal(c, &p, out),
        Action::Service => service(&p, out),
        Action::Permission => permission(c, &p, out),
        Action::Chattr => chattr(c, out),
        Action::Install => install(c, &p, out),
        Action::Find => find(c, &p, out),
        Action::Resolve => {
            // Record types (`TXT`, `ANY`) and ports are not names.
            for a in p.operands_of(Role::Host) {
                let h = a.text.trim_start_matches('@');
                if a.dynamic || h.contains(['.', ':']) {
                    out.push(send_host(
                        &Arg {
                            text: h.to_string(),
                            dynamic: a.dynamic,
                        },
                        None,
                        Vec::new(),
                    ));
                }
            }
        }
    }
}

/// `-v HOST:CONTAINER[:ro]`: a host path (not a named volume) is read, and written unless
/// mounted read-only.
fn mount(v: &Arg, c: &SimpleCommand, out: &mut Out) {
    let mut parts = v.text.split(':');
    let host = parts.next().unwrap_or_default();
    let read_only = parts
        .nth(1)
        .is_some_and(|o| o.split(',').any(|x| x == "ro"));
    if !host.starts_with(['/', '~', '.', '$']) {
        return;
    }
    let a = Arg {
        text: host.to_string(),
        dynamic: v.dynamic,
    };
    read(&a, c, out);
    if !read_only {
        write(&a, false, c, out);
    }
}

/// `python -m pip install x`: a module the table knows, run as that program.
fn python_module(c: &SimpleCommand) -> Option<SimpleCommand> {
    if !c.basename().starts_with("python") {
        return None;
    }
    let k = c.args.iter().position(|a| a.text == "-m")?;
    let module = c.args.get(k + 1)?;
    if module.dynamic || !matches!(module.text.as_str(), "pip" | "pip3" | "pipx" | "uv") {
        return None;
    }
    Some(SimpleCommand {
        program: module.text.clone(),
        args: c.args.get(k + 2..).unwrap_or_default().to_vec(),
        ..c.clone()
    })
}

/// The search roots of a command: its read operands, or the working directory it falls
/// back to.
fn roots(p: &Parsed) -> Vec<Arg> {
    let read: Vec<Arg> = p.operands_of(Role::Read).cloned().collect();
    let falls_back = match p.row.fallback {
        Fallback::None => false,
        Fallback::Cwd => true,
        Fallback::CwdIfRecursive => p.has(Switch::Recursive),
    };
    if read.is_empty() && falls_back {
        vec![Arg {
            text: ".".into(),
            dynamic: false,
        }]
    } else {
        read
    }
}

/// Operands with path roles, switches applied; the program-specific readings of `tar`,
/// `truncate` and `git`.
fn files(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let base = c.basename();
    if matches!(base, "tar" | "gtar" | "bsdtar") {
        tar(c, p, out);
        return;
    }
    if base == "git" && git_files(c, p, out) {
        return;
    }
    let in_place = p.has(Switch::InPlace);
    let append = p.has(Switch::Append);
    let recursive =
        p.has(Switch::Recursive) || (base == "git" && p.sub.first().is_some_and(|s| s == "clean"));
    // `truncate -s 0 f` (and `-s0`, `--size=0`, `0K`) empties the file.
    let empties = p.values_of(Role::Size).any(|s| {
        !s.dynamic
            && s.text.starts_with('0')
            && s.text
                .trim_start_matches('0')
                .chars()
                .all(|ch| ch.is_ascii_alphabetic())
    });
    // `git clean -n` only lists.
    let dry = base == "git" && dry_run(p);
    // `uniq IN OUT`, `xxd IN OUT`: the second operand is written.
    let second_written = matches!(base, "uniq" | "xxd");
    let roots = roots(p);
    let mut reads = 0;
    for (role, a) in &p.operands {
        match role {
            Role::Read => {
                reads += 1;
                if second_written && reads == 2 {
                    write(a, false, c, out);
                    continue;
                }
                // An awk `var=value` operand is an assignment, not a file.
                if matches!(base, "awk" | "gawk" | "mawk" | "nawk") && is_assignment(&a.text) {
                    continue;
                }
                read(a, c, out);
                if in_place {
                    write(a, false, c, out);
                }
            }
            Role::Write if empties => delete(a, false, c, out),
            Role::Write => write(a, append, c, out),
            Role::Append => write(a, true, c, out),
            Role::Wipe => delete(a, true, c, out),
            Role::Script => script(a, c, out),
            Role::Delete if dry => {}
            Role::Delete => delete(a, recursive, c, out),
            _ => {}
        }
    }
    if p.row.rest == Role::Read && p.operands.iter().all(|(r, _)| *r != Role::Read) {
        for r in &roots {
            read(r, c, out);
        }
    }
    if p.row.fallback == Fallback::Cwd
        && p.operands_of(Role::Delete).next().is_none()
        && p.row.rest == Role::Delete
    {
        // `git clean`: everything untracked below the working directory.
        if !dry {
            delete(
                &Arg {
                    text: ".".into(),
                    dynamic: false,
                },
                true,
                c,
                out,
            );
        }
    }
    // `rg -g '*.env'`, `grep --include=.env*`: the glob joined onto each search root.
    for g in p.values_of(Role::Glob) {
        if g.text.starts_with('!') {
            continue;
        }
        for r in &roots {
            let joined = join_glob(&r.text, &g.text);
            read(
                &Arg {
                    text: joined,
                    dynamic: r.dynamic || g.dynamic,
                },
                c,
                out,
            );
        }
    }
}

/// Whether a word is a `NAME=value` assignment.
fn is_assignment(t: &str) -> bool {
    t.split_once('=').is_some_and(|(n, _)| {
        !n.is_empty()
            && !n.starts_with(|ch: char| ch.is_ascii_digit())
            && n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    })
}

/// A search glob joined onto a root: `./**/*.env`, an absolute glob as is.
fn join_glob(root: &str, g: &str) -> String {
    let base = root.trim_end_matches('/');
    if g.starts_with('/') || g.starts_with('~') {
        g.to_string()
    } else if g.starts_with("**/") {
        format!("{base}/{g}")
    } else {
        format!("{base}/**/{g}")
    }
}

/// `-n` / `--dry-run` among the flags (`git clean -n`).
fn dry_run(p: &Parsed) -> bool {
    p.other_flags
        .iter()
        .any(|f| f.text == "--dry-run" || (!f.text.starts_with("--") && f.text.contains('n')))
}

/// `tar`: the archive (`-f`) is written when creating (`c`, `r`, `u`), read otherwise; the
/// other operands are read when creating and written (extracted) otherwise, `-C DIR` the
/// same way; listing (`t`) writes nothing. The old form `tar czf out.tgz dir` too.
fn tar(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut flags = String::new();
    let mut archives: Vec<Arg> = Vec::new();
    let mut dirs: Vec<Arg> = Vec::new();
    let mut operands: Vec<&Arg> = Vec::new();
    // Values owed by the letters of a bundle (`czf out.tgz`: `f` takes the next word).
    let mut owed: Vec<char> = Vec::new();
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        i += 1;
        let t = a.text.as_str();
        let part = |v: &str| Arg {
            text: v.to_string(),
            dynamic: a.dynamic,
        };
        if let Some(letter) = (!owed.is_empty()).then(|| owed.remove(0)) {
            if letter == 'f' {
                archives.push(a.clone());
            } else {
                dirs.push(a.clone());
            }
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(part(v))),
                None => (long, None),
            };
            let value = || value.clone().or_else(|| c.args.get(i).cloned());
            match name {
                "file" | "directory" => {
                    if let Some(v) = value() {
                        if name == "file" {
                            archives.push(v);
                        } else {
                            dirs.push(v);
                        }
                    }
                    if !long.contains('=') {
                        i += 1;
                    }
                }
                "create" | "append" | "update" => flags.push('c'),
                "list" => flags.push('t'),
                _ if !long.contains('=') && p.row.valued.contains(&t) => i += 1,
                _ => {}
            }
            continue;
        }
        let bundle = if let Some(b) = t.strip_prefix('-') {
            Some(b)
        } else if i == 1 && !t.is_empty() && t.chars().all(|ch| ch.is_ascii_alphabetic()) {
            // `tar czf …`: a first word of letters is a bundle.
            Some(t)
        } else {
            None
        };
        match bundle {
            Some(b) if !b.is_empty() => {
                for (k, ch) in b.char_indices() {
                    flags.push(ch);
                    if ch == 'f' || ch == 'C' {
                        let rest = &b[k + 1..];
                        if t.starts_with('-') && !rest.is_empty() {
                            let v = part(rest);
                            if ch == 'f' {
                                archives.push(v)
                            } else {
                                dirs.push(v)
                            }
                            break;
                        }
                        owed.push(ch);
                    }
                }
                if t.starts_with('-') && p.row.valued.contains(&t) {
                    i += 1;
                }
            }
            _ => operands.push(a),
        }
    }
    let creates = flags.contains(['c', 'r', 'u']);
    let lists = flags.contains('t') && !creates;
    for a in &archives {
        if creates {
            write(a, false, c, out);
        } else {
            read(a, c, out);
        }
    }
    if lists {
        return;
    }
    for a in dirs.iter().chain(operands.iter().copied()) {
        if creates {
            read(a, c, out);
        } else {
            write(a, false, c, out);
        }
    }
}

/// `git checkout`: the paths it overwrites. `git diff|log|show|blame|cat-file|archive …`:
/// the paths they print. A `REV:path`
/// operand names the blob at `path`; `show` and `cat-file` read only those and the paths
/// after `--`, the others every operand (a revision read as a path names nothing).
/// Returns whether the subcommand was one of these.
fn git_files(c: &SimpleCommand, p: &Parsed, out: &mut Out) -> bool {
    let Some(sub) = p.sub.first().map(String::as_str) else {
        return false;
    };
    if sub == "reset" {
        // `git reset --hard` overwrites the working tree.
        if c.args
            .iter()
            .any(|a| matches!(a.text.as_str(), "--hard" | "--merge" | "--keep"))
        {
            write(
                &Arg {
                    text: ".".into(),
                    dynamic: false,
                },
                false,
                c,
                out,
            );
        }
        return true;
    }
    if sub == "checkout" {
        // `git checkout REV -- PATHS`, `git checkout REV PATHS`, `git checkout .`: the paths
        // are overwritten; a lone `git checkout main` switches branches.
        for (k, (_, a)) in p.operands.iter().enumerate() {
            let is_path = if p.before_dashes == usize::MAX {
                k > 0 || a.text == "."
            } else {
                k >= p.before_dashes
            };
            if is_path {
                write(a, false, c, out);
            }
        }
        return true;
    }
    let history = matches!(
        sub,
        "diff"
            | "log"
            | "show"
            | "blame"
            | "annotate"
            | "cat-file"
            | "whatchanged"
            | "archive"
            | "difftool"
    );
    if !history {
        return false;
    }
    // `show` and `cat-file` name revisions and blobs; `archive TREE PATHS…` names paths
    // after its tree.
    let blobs_only = matches!(sub, "show" | "cat-file");
    for (k, (role, a)) in p.operands.iter().enumerate() {
        if *role != Role::Read {
            continue;
        }
        if let Some((_, path_part)) = a.text.split_once(':') {
            if !path_part.is_empty() {
                read(
                    &Arg {
                        text: path_part.to_string(),
                        dynamic: a.dynamic,
                    },
                    c,
                    out,
                );
            }
        } else if (sub == "archive" && k > 0)
            || (sub != "archive" && !blobs_only)
            || k >= p.before_dashes
        {
            read(a, c, out);
        }
    }
    true
}

/// `git -c KEY=VALUE`: a config value that is shell text (`alias.x=!sh …`,
/// `core.sshCommand`, `core.pager`, `core.editor`, `core.fsmonitor`, a filter or diff
/// driver) runs when git uses it; it is analysed as a command line.
fn git_config(c: &SimpleCommand, out: &mut Out) {
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        // `--config-env KEY=ENVVAR`: the value comes from the environment.
        let from_env = t == "--config-env" || t.starts_with("--config-env=");
        let kv = if t == "-c" || t == "--config-env" {
            i += 1;
            c.args.get(i).cloned()
        } else if let Some(v) = t.strip_prefix("--config-env=") {
            Some(Arg {
                text: v.to_string(),
                dynamic: a.dynamic,
            })
        } else if matches!(
            t,
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" | "--exec-path"
        ) {
            // A global option's value, not the subcommand.
            i += 2;
            continue;
        } else if !t.starts_with('-') {
            // The subcommand: `-c` after it is the subcommand's own option.
            break;
        } else {
            None
        };
        i += 1;
        let Some(mut kv) = kv else { continue };
        kv.dynamic |= from_env;
        let kv = &kv;
        let Some((key, value)) = kv.text.split_once('=') else {
            continue;
        };
        if git_key_runs_shell(key, value) {
            out.scripts.push((
                format!("git -c {key}"),
                Arg {
                    text: value.trim_start_matches('!').to_string(),
                    dynamic: kv.dynamic,
                },
            ));
        } else if matches!(
            key.to_ascii_lowercase().as_str(),
            "core.hookspath" | "include.path"
        ) {
            // Hooks or config from a folder the call names.
            out.push(What::Read(PathRef::new(value, c.cwd.as_deref())));
        }
    }
    if c.args.get(i).is_some_and(|a| a.text == "config") {
        git_config_set(c.args.get(i + 1..).unwrap_or(&[]), out);
    }
}

/// `git config [--global] KEY VALUE`, `git config set KEY VALUE`: a value that is shell text
/// ([`git_key_runs_shell`]) runs whenever git later uses it (`alias.x '!curl … | sh'`), so it
/// is analysed as a command line the way `git -c` is.
fn git_config_set(rest: &[Arg], out: &mut Out) {
    // Options that take a value.
    const VALUED: &[&str] = &["-f", "--file", "--blob", "--type", "--default", "--comment"];
    // Modes that read or remove instead of setting.
    const NOT_SETTING: &[&str] = &[
        "get",
        "unset",
        "list",
        "rename-section",
        "remove-section",
        "edit",
        "-l",
        "--list",
        "-e",
        "--edit",
    ];
    let mut words: Vec<&Arg> = Vec::new();
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        let t = a.text.as_str();
        if NOT_SETTING.contains(&t)
            || t.starts_with("--get")
            || t.starts_with("--unset")
            || t.starts_with("--rename")
            || t.starts_with("--remove")
        {
            return;
        }
        if VALUED.contains(&t) {
            k += 2;
            continue;
        }
        // `git config set KEY VALUE` (git 2.46): the mode word is not the key.
        let mode = words.is_empty() && t == "set";
        if !t.starts_with('-') && !mode {
            words.push(a);
        }
        k += 1;
    }
    let (Some(key), Some(value)) = (words.first(), words.get(1)) else {
        return;
    };
    if git_key_runs_shell(&key.text, &value.text) {
        out.scripts.push((
            format!("git config {}", key.text),
            Arg {
                text: value.text.trim_start_matches('!').to_string(),
                dynamic: key.dynamic || value.dynamic,
            },
        ));
    }
}

/// `crontab -`, `at now + 1 minute`, `batch`: the jobs they install from standard input run
/// later without anyone asking, so text known now (`echo '* * * * * curl … | sh' | crontab
/// -`, a here-document) is analysed as command lines: the command of every cron line, or
/// the whole `at` script. (A cron table written to a file runs through the content lens.)
fn scheduled_jobs(c: &SimpleCommand, out: &mut Out) {
    // Jobs known now are judged even when more come from a source only known at run time
    // (`(crontab -l; echo '* * * * * curl … | sh') | crontab -` keeps the existing table).
    let Some((text, _complete)) = c.stdin_known_text() else {
        return;
    };
    let words: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
    // Listing, removing or editing; or a job file named instead of standard input: a short
    // option letter among `letters`, alone or in a cluster (`-lu`).
    let other = |letters: &str| {
        words.iter().any(|w| {
            w.strip_prefix('-')
                .filter(|o| !o.starts_with('-'))
                .is_some_and(|o| o.chars().any(|ch| letters.contains(ch)))
        })
    };
    if c.basename() == "crontab" {
        // `crontab [-u USER] [-]`: a named file is the table instead.
        let file = words.iter().enumerate().any(|(k, w)| {
            !w.starts_with('-') && k.checked_sub(1).and_then(|p| words.get(p)) != Some(&"-u")
        });
        if other("lrei") || file {
            return;
        }
        for line in super::content::cron_commands(text, false) {
            out.scripts.push((
                "crontab -".to_string(),
                Arg {
                    text: line,
                    dynamic: false,
                },
            ));
        }
    } else if !other("lrdcf") {
        out.scripts.push((
            c.basename().to_string(),
            Arg {
                text: text.to_string(),
                dynamic: false,
            },
        ));
    }
}

/// Whether git runs the value of config `key` as shell text: an alias starting with `!`,
/// `core.sshCommand`, `core.pager`, `core.editor`, `core.fsmonitor`, a filter or diff driver,
/// …
fn git_key_runs_shell(key: &str, value: &str) -> bool {
    let k = key.to_ascii_lowercase();
    (k.starts_with("alias.") && value.starts_with('!'))
        || matches!(
            k.as_str(),
            "core.sshcommand"
                | "core.pager"
                | "core.editor"
                | "core.fsmonitor"
                | "core.askpass"
                | "core.gitproxy"
                | "sequence.editor"
                | "diff.external"
                | "credential.helper"
                | "gpg.program"
                | "uploadpack.packobjectshook"
        )
        || k.starts_with("pager.")
        || (k.starts_with("filter.")
            && (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process")))
        || (k.starts_with("diff.") && (k.ends_with(".textconv") || k.ends_with(".command")))
        || (k.starts_with("merge.") && k.ends_with(".driver"))
}

/// `cp`/`install`/`ln`/`mv`/`scp`/`rsync SOURCES… DEST`: sources read (sent when the
/// destination is remote, deleted by `mv`), the destination written (fetched into when a
/// source is remote); `rsync --delete` deletes in the destination.
fn copy(c: &SimpleCommand, p: &Parsed, moves: bool, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    if p.has(Switch::AllWritten) {
        for a in ops {
            write(a, false, c, out);
        }
        return;
    }
    let dest_opt: Option<&Arg> = p.values_of(Role::Dest).next();
    let (sources, dest): (Vec<&Arg>, Option<&Arg>) = match (dest_opt, ops.split_last()) {
        (Some(d), _) => (ops.clone(), Some(d)),
        (None, Some((last, rest))) if !rest.is_empty() => (rest.to_vec(), Some(*last)),
        (None, _) => (ops.clone(), None),
    };
    let dest_remote = dest.is_some_and(|d| is_remote(&d.text));
    let removes_sources = moves || p.has(Switch::Operation);
    let mut sent: Vec<BodySource> = Vec::new();
    for s in &sources {
        if is_remote(&s.text) {
            out.push(send_remote(s, Vec::new()));
            continue;
        }
        read(s, c, out);
        if removes_sources {
            // `mv notes.txt dir/` moves one file away; `mv ~/Documents /tmp/x` a folder
            // and everything in it. `rsync --remove-source-files -a` empties source trees.
            delete(s, !moves || may_be_folder(s), c, out);
        }
        if let Some(pr) = path(s, c) {
            sent.push(BodySource::File(pr));
        }
    }
    if let Some(d) = dest {
        if dest_remote {
            out.push(send_remote(d, sent));
        } else {
            if p.has(Switch::Delete) {
                delete(d, true, c, out);
            }
            write(d, false, c, out);
        }
    }
}

/// Whether a path operand may name a folder, as far as its text shows: anything but a last
/// component with a file extension (`notes.txt`, `.env.local`, `settings.json`). A trailing
/// `/`, `.`/`..`/`~`, a glob, a part only known at run time, or a name without extension
/// (`Documents`, `.ssh`, `/usr/bin/sudo`) may be a folder.
fn may_be_folder(a: &Arg) -> bool {
    let t = a.text.as_str();
    if a.dynamic || t.ends_with('/') || t.contains(['*', '?', '[']) {
        return true;
    }
    let last = t.rsplit('/').next().unwrap_or(t);
    match last.rfind('.') {
        Some(k) if k > 0 => {
            let ext = &last[k + 1..];
            !(1..=10).contains(&ext.len()) || !ext.chars().all(|ch| ch.is_ascii_alphanumeric())
        }
        _ => true,
    }
}

/// `curl`, `wget`, `git push|fetch|clone …`: a `send` per URL with the method and body the
/// options give.
fn send(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut body: Vec<BodySource> = Vec::new();
    let mut has_data = false;
    let mut uploads = false;
    let mut headers: Vec<BodySource> = Vec::new();
    for (role, v) in &p.values {
        match role {
            Role::Data => {
                has_data = true;
                add_body(&mut body, data_sources(v, c));
            }
            Role::Form => {
                has_data = true;
                add_body(&mut body, form_sources(v, c));
            }
            Role::Urlencoded => {
                has_data = true;
                // `name@file` / `@file` read the file; `name=value` is data.
                let file = match v.text.split_once('@') {
                    Some((name, f)) if !name.contains('=') => Some(f),
                    _ => None,
                };
                match file {
                    Some(f) => add_body(
                        &mut body,
                        data_sources(
                            &Arg {
                                text: format!("@{f}"),
                                dynamic: v.dynamic,
                            },
                            c,
                        ),
                    ),
                    None => add_body(&mut body, form_sources(v, c)),
                }
            }
            Role::BodyFile => {
                uploads = true;
                if v.text == "-" || v.text == "." {
                    add_body(&mut body, vec![BodySource::Stdin]);
                } else {
                    add_body(
                        &mut body,
                        vec![BodySource::File(PathRef::from_arg(v, c.cwd.as_deref()))],
                    );
                }
            }
            Role::Header => {
                add_body(
                    &mut headers,
                    variables(&v.text)
                        .into_iter()
                        .map(BodySource::Env)
                        .collect(),
                );
            }
            _ => {}
        }
    }
    let is_git = c.basename() == "git";
    let method = if is_git {
        None
    } else if let Some(m) = p.values_of(Role::Method).next() {
        Some(m.text.to_ascii_uppercase())
    } else if p.has(Switch::Get) {
        Some("GET".to_string())
    } else if uploads && c.basename().starts_with("curl") {
        // `curl -T` uploads with PUT; `wget --post-file` posts.
        Some("PUT".to_string())
    } else if uploads || has_data {
        Some("POST".to_string())
    } else {
        Some("GET".to_string())
    };
    add_body(&mut body, headers);
    let urls: Vec<&Arg> = p
        .values_of(Role::Url)
        .chain(p.operands_of(Role::Url))
        .collect();
    if is_git {
        // Only operands written as URLs (`origin` names a configured remote).
        let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
        let mut sent_any = false;
        for a in &ops {
            if is_remote(&a.text) {
                out.push(send_remote(a, Vec::new()));
                sent_any = true;
            }
        }
        // `git clone URL DIR` writes DIR.
        if p.sub
            .first()
            .is_some_and(|s| s == "clone" || s == "submodule")
            && sent_any
            && let Some(last) = ops.last()
            && !is_remote(&last.text)
        {
            write(last, false, c, out);
        }
        return;
    }
    // `curl -O URL`, `wget URL`: the response is saved under the URL's last path segment.
    let saves = p.has(Switch::RemoteName)
        || (c.basename().starts_with("wget")
            && !c.args.iter().any(|a| {
                let t = a.text.as_str();
                t == "--spider"
                    || t.starts_with("--output-document")
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains('O'))
            }));
    let prefix = c
        .args
        .windows(2)
        .find(|w| matches!(w[0].text.as_str(), "-P" | "--directory-prefix"))
        .map(|w| w[1].clone());
    for u in urls {
        if saves && let Some(name) = remote_name(u) {
            let file = match &prefix {
                Some(d) => Arg {
                    text: format!("{}/{}", d.text.trim_end_matches('/'), name.text),
                    dynamic: d.dynamic || name.dynamic,
                },
                None => name,
            };
            write(&file, false, c, out);
        }
        out.push(send_url(u, method.clone(), body.clone()));
    }
    // `wget -i urls.txt`: the addresses are in a file.
    if c.basename().starts_with("wget")
        && c.args
            .iter()
            .any(|a| a.text == "-i" || a.text.starts_with("--input-file"))
    {
        out.push(What::Send(Send {
            url: None,
            endpoint: None,
            method,
            body,
            dynamic: true,
            runs_response: false,
        }));
    }
}

/// The file name a URL is saved under: its last path segment (`index.html` for none).
fn remote_name(u: &Arg) -> Option<Arg> {
    let rest = u.text.split_once("://").map_or(u.text.as_str(), |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let (_, path) = path.split_once('/').unwrap_or((path, ""));
    let name = path.rsplit('/').next().unwrap_or_default();
    let name = if name.is_empty() { "index.html" } else { name };
    (!name.starts_with('$')).then(|| Arg {
        text: name.to_string(),
        dynamic: u.dynamic && name.contains(['$', '`']),
    })
}

/// `nc host port`, `telnet host port`, `ssh [user@]host [cmd]`, `sftp host`: a `send` to
/// the host; `nc` and `telnet` send their standard input (a redirected file by name, text
/// written in the line as a literal).
fn connect(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let base = c.basename();
    let netcat = matches!(
        base,
        "nc" | "ncat" | "netcat" | "telnet" | "openssl-s_client"
    );
    // `nc -l 4444` listens: it connects nowhere.
    if netcat
        && p.other_flags
            .iter()
            .any(|f| !f.text.starts_with("--") && f.text.contains('l'))
    {
        return;
    }
    let Some(host) = ops.first() else { return };
    let port = if netcat {
        ops.get(1)
            .map(|a| a.text.as_str())
            .filter(|t| !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit()))
    } else {
        None
    };
    let body = match stdin_file(c) {
        Some(f) => path(f, c).map(BodySource::File).into_iter().collect(),
        // `echo hi | nc h 80`, `nc h 80 <<< hi`: text written in the line.
        None if netcat && c.stdin_text().is_some() => vec![BodySource::Literal],
        None if netcat => vec![BodySource::Stdin],
        None => Vec::new(),
    };
    out.push(send_host(host, port, body));
}

/// `http [METHOD] URL [ITEMS]` (HTTPie, xh): `k=v` / `k:=json` data, `k@file` / `k=@file`
/// files, `k==v` query, `Header:value`.
fn http_items(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let mut method: Option<String> = None;
    if let Some(first) = ops.first()
        && ops.len() > 1
        && !first.text.is_empty()
        && first.text.chars().all(|ch| ch.is_ascii_uppercase())
    {
        method = Some(first.text.clone());
        ops.remove(0);
    }
    let Some((url, items)) = ops.split_first() else {
        return;
    };
    let mut body: Vec<BodySource> = Vec::new();
    let mut has_data = false;
    for it in items {
        let t = it.text.as_str();
        let as_arg = |s: &str| Arg {
            text: s.to_string(),
            dynamic: it.dynamic,
        };
        if let Some((_, v)) = t.split_once("==") {
            add_body(
                &mut body,
                variables(v).into_iter().map(BodySource::Env).collect(),
            );
        } else if let Some((_, f)) = t.split_once(":=@").or_else(|| t.split_once("=@")) {
            has_data = true;
            add_body(
                &mut body,
                vec![BodySource::File(PathRef::from_arg(
                    &as_arg(f),
                    c.cwd.as_deref(),
                ))],
            );
        } else if let Some((_, v)) = t.split_once(":=").or_else(|| t.split_once('=')) {
            has_data = true;
            add_body(&mut body, data_sources(&as_arg(v), c));
        } else if let Some((_, f)) = t.split_once('@') {
            has_data = true;
            add_body(
                &mut body,
                vec![BodySource::File(PathRef::from_arg(
                    &as_arg(f),
                    c.cwd.as_deref(),
                ))],
            );
        } else if let Some((_, v)) = t.split_once(':') {
            add_body(
                &mut body,
                variables(v).into_iter().map(BodySource::Env).collect(),
            );
        }
    }
    if let Some(f) = stdin_file(c)
        && let Some(pr) = path(f, c)
    {
        has_data = true;
        add_body(&mut body, vec![BodySource::File(pr)]);
    }
    for h in p.values_of(Role::Header) {
        add_body(
            &mut body,
            variables(&h.text)
                .into_iter()
                .map(BodySource::Env)
                .collect(),
        );
    }
    let method = method.or_else(|| Some(if has_data { "POST" } else { "GET" }.to_string()));
    out.push(send_url(url, method, body));
}

/// `socat ADDRESS ADDRESS`: network addresses are sent to with the file or standard input
/// of the other side as body; `FILE:`/`OPEN:` read, `CREATE:` writes, `EXEC:`/`SYSTEM:` run
/// shell text.
fn socat(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut body: Vec<BodySource> = Vec::new();
    let mut targets: Vec<Arg> = Vec::new();
    for (_, a) in &p.operands {
        let t = a.text.as_str();
        let (kind, rest) = t.split_once(':').unwrap_or((t, ""));
        let rest = rest.split(',').next().unwrap_or(rest);
        let arg = |s: &str| Arg {
            text: s.to_string(),
            dynamic: a.dynamic,
        };
        match kind.to_ascii_uppercase().as_str() {
            "TCP" | "TCP4" | "TCP6" | "TCP-CONNECT" | "OPENSSL" | "OPENSSL-CONNECT" | "SSL"
            | "UDP" | "UDP4" | "UDP6" | "UDP-SENDTO" | "UDP-CONNECT" | "SCTP" | "SCTP-CONNECT"
            | "SOCKS4" | "SOCKS4A" | "SOCKS5" | "PROXY" | "DCCP" => targets.push(arg(rest)),
            "FILE" | "OPEN" | "GOPEN" => {
                read(&arg(rest), c, out);
                if let Some(pr) = path(&arg(rest), c) {
                    body.push(BodySource::File(pr));
                }
            }
            "CREATE" => write(&arg(rest), false, c, out),
            "EXEC" | "SYSTEM" => out.scripts.push(("socat EXEC".into(), arg(rest))),
            "-" | "STDIO" | "STDIN" | "STDOUT" => match stdin_file(c).and_then(|f| path(f, c)) {
                Some(pr) => body.push(BodySource::File(pr)),
                None => body.push(BodySource::Stdin),
            },
            _ => {}
        }
    }
    for t in targets {
        let (host, port) = match t.text.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p.to_string())),
            None => (t.text.clone(), None),
        };
        out.push(send_host(
            &Arg {
                text: host,
                dynamic: t.dynamic,
            },
            port.as_deref(),
            body.clone(),
        ));
    }
}

/// The signal of a `-9` / `-KILL` / `-SIGTERM` flag word.
fn signal_flag(p: &Parsed) -> Option<String> {
    p.other_flags
        .iter()
        .map(|f| f.text.trim_start_matches('-'))
        .find(|t| {
            !t.is_empty()
                && (t.chars().all(|ch| ch.is_ascii_digit())
                    || (t.len() > 1
                        && t.chars().all(|ch| {
                            ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '+' || ch == '-'
                        })))
        })
        .map(str::to_string)
}

/// `kill`, `pkill`, `killall`, `systemctl stop|kill|…`, `launchctl unload|…`, `reboot`.
/// `kill -9 -1`: after the signal, a negative number is a process group target.
fn signal(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut targets: Vec<Arg> = p.operands_of(Role::Target).cloned().collect();
    let given = p.values_of(Role::Signal).next().map(|a| a.text.clone());
    let mut signal = given.clone().or_else(|| signal_flag(p));
    // `kill -l 9` names a signal; it sends none.
    if c.basename() == "kill"
        && p.other_flags
            .iter()
            .any(|f| matches!(f.text.as_str(), "-l" | "-L" | "--list" | "--table"))
    {
        return;
    }
    if c.basename() == "kill" {
        let numeric: Vec<&Arg> = p
            .other_flags
            .iter()
            .filter(|f| f.text.len() > 1 && f.text[1..].chars().all(|ch| ch.is_ascii_digit()))
            .collect();
        let skip = usize::from(
            given.is_none()
                && signal
                    .as_deref()
                    .is_some_and(|s| s.chars().all(|ch| ch.is_ascii_digit())),
        );
        let groups: Vec<Arg> = numeric.into_iter().skip(skip).cloned().collect();
        targets.splice(0..0, groups);
    }
    let base = c.basename();
    let whole_system = matches!(base, "reboot" | "poweroff" | "halt" | "shutdown")
        || p.sub
            .first()
            .is_some_and(|s| matches!(s.as_str(), "poweroff" | "reboot" | "halt" | "suspend"));
    if whole_system && signal.is_none() {
        signal = Some(p.sub.first().cloned().unwrap_or_else(|| base.to_string()));
    }
    if signal.is_none() {
        signal = p.sub.first().cloned();
    }
    if targets.is_empty() && !whole_system {
        return;
    }
    out.push(What::Signal { targets, signal });
}

/// `service NAME stop|restart|…`.
fn service(p: &Parsed, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    if let [name, action, ..] = ops.as_slice()
        && matches!(
            action.text.as_str(),
            "stop"
                | "restart"
                | "force-reload"
                | "force-stop"
                | "kill"
                | "try-restart"
                | "condrestart"
                | "zap"
        )
    {
        out.push(What::Signal {
            targets: vec![(*name).clone()],
            signal: Some(action.text.clone()),
        });
    }
}

/// `chmod [-R] MODE PATHS`, `chown [-R] OWNER PATHS`, `setfacl -m ACL PATHS`.
fn permission(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let recursive = p.has(Switch::Recursive);
    let mut mode: Option<String> = p
        .operands_of(Role::Mode)
        .next()
        .or_else(|| p.values_of(Role::Mode).next())
        .map(|a| a.text.clone());
    let mut paths: Vec<&Arg> = p.operands_of(Role::Permission).collect();
    // `chmod -x f`: a mode spelled like an option; the word read as the mode is a path.
    if c.basename() == "chmod"
        && let Some(m) = p
            .other_flags
            .iter()
            .find(|f| f.text.len() > 1 && f.text[1..].chars().all(|ch| "rwxXst".contains(ch)))
    {
        if let Some(first) = p.operands_of(Role::Mode).next() {
            paths.insert(0, first);
        }
        mode = Some(m.text.clone());
    }
    for a in paths {
        if let Some(pr) = path(a, c) {
            out.push(What::ChangePermission {
                path: pr,
                mode: mode.clone(),
                recursive,
            });
        }
    }
}

/// `chattr [-R] [-v V] [-p P] +i|-a|=… PATHS`.
fn chattr(c: &SimpleCommand, out: &mut Out) {
    let mut recursive = false;
    let mut modes: Vec<String> = Vec::new();
    let mut paths: Vec<&Arg> = Vec::new();
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        match t {
            "-R" => recursive = true,
            "-V" | "-f" => {}
            "-v" | "-p" => i += 1,
            _ if t.starts_with(['+', '-', '=']) && t.len() > 1 => modes.push(t.to_string()),
            _ => paths.push(a),
        }
        i += 1;
    }
    let mode = (!modes.is_empty()).then(|| modes.join(" "));
    for a in paths {
        if let Some(pr) = path(a, c) {
            out.push(What::ChangePermission {
                path: pr,
                mode: mode.clone(),
                recursive,
            });
        }
    }
}

/// The source a package spec names by itself, as a URL: `git+https://h/x` → `https://h/x`,
/// `https://h/x.tgz`, `git@h:u/r` → `ssh://git@h/u/r`, `github:u/r` → `https://github.com/u/r`
/// (also `gitlab:`, `bitbucket:`); `None` for a plain name (`left-pad`, `serde@1`,
/// `@scope/pkg`, `requests>=2`) or a local path.
pub(crate) fn package_source(spec: &str) -> Option<String> {
    // A URL anywhere in the spec (`git+https://…`, `name @ https://…`, `name@https://…`):
    // from its scheme on, without a `git+` prefix.
    if let Some(at) = spec.find("://") {
        let start = spec[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '+'))
            .map_or(0, |i| i + 1);
        let url = &spec[start..];
        return Some(url.strip_prefix("git+").unwrap_or(url).to_string());
    }
    for (prefix, host) in [
        ("github:", "github.com"),
        ("gitlab:", "gitlab.com"),
        ("bitbucket:", "bitbucket.org"),
    ] {
        if let Some(rest) = spec.strip_prefix(prefix) {
            return Some(format!("https://{host}/{rest}"));
        }
    }
    // scp-like `git@host:user/repo(.git)`, with or without `git+`.
    let s = spec.strip_prefix("git+").unwrap_or(spec);
    if let Some((user_host, path)) = s.split_once(':')
        && let Some((user, host)) = user_host.split_once('@')
        && !user.is_empty()
        && host.contains('.')
    {
        return Some(format!("ssh://{user}@{host}/{path}"));
    }
    None
}

/// `npm install PKGS --registry URL`, `pip install -i URL PKGS`, `apt install PKGS`, ….
fn install(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let base = c.basename();
    // `pacman -S`, `dpkg -i`, `rpm -U`: rows with an install operation need it.
    if p.row.switches.iter().any(|(_, s)| *s == Switch::Operation) && !p.has(Switch::Operation) {
        return;
    }
    if matches!(base, "pacman" | "yay" | "paru") {
        // `-Ss`, `-Si`, `-Sl`, `-Sc`, `-Sw` only look.
        let looks = c.args.iter().any(|f| {
            f.text.starts_with("-S") && f.text.chars().skip(2).any(|ch| "silcwgp".contains(ch))
        });
        if looks {
            return;
        }
    }
    let mut packages: Vec<Arg> = p
        .values_of(Role::Package)
        .chain(p.operands_of(Role::Package))
        .cloned()
        .collect();
    let source = p
        .values_of(Role::Source)
        .chain(p.operands_of(Role::Source))
        .next()
        .map(|a| a.text.clone());
    // `apt-key add KEYFILE`: the key file is what gets trusted.
    if base == "apt-key" {
        packages = p.operands_of(Role::Read).cloned().collect();
        for a in &packages {
            read(a, c, out);
        }
    }
    // A package named by where it comes from (`git+https://…`, a tarball URL,
    // `github:user/repo`) is its own source.
    let source = source.or_else(|| packages.iter().find_map(|a| package_source(&a.text)));
    let manager = if base == "uv" && p.sub.first().is_some_and(|s| s == "pip") {
        "uv pip".to_string()
    } else {
        base.to_string()
    };
    out.push(What::Install {
        manager,
        packages,
        source,
    });
}

/// `find START… [EXPRESSION]`: with `-delete`, every start path goes, recursively.
fn find(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    if !p.has(Switch::Delete) {
        return;
    }
    let mut starts: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let dot = Arg {
        text: ".".into(),
        dynamic: false,
    };
    if starts.is_empty() {
        starts.push(&dot);
    }
    for s in starts {
        delete(s, true, c, out);
    }
}

#[cfg(test)]
mod disguised_name_tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::disguised_name;

    #[test]
    fn blanks_invisible_characters_and_mixed_scripts_disguise_a_name() {
        assert_eq!(
            disguised_name("\u{a0}sh").unwrap(),
            "holds the invisible character U+00A0"
        );
        assert_eq!(
            disguised_name("/usr/bin/s\u{200b}h").unwrap(),
            "holds the invisible character U+200B"
        );
        assert!(
            disguised_name("\u{441}url")
                .unwrap()
                .starts_with("mixes Latin letters with `\u{441}` (U+0441)")
        );
        for plain in ["curl", "./outils/générer.sh", "сборка", "/opt/x/λ", "npm"] {
            assert_eq!(disguised_name(plain), None, "{plain}");
        }
    }
}
