//! Reading one command line by its row: the row for the program and subcommand, then every
//! word sorted by the role the row gives it.

use super::row::{Action, Program, Role, Switch};
use super::rows;
use crate::effects::language::Language;
use crate::shell::{Arg, SimpleCommand};
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

/// The keys of settings whose value is a command run through a shell: ssh_config(5)
/// `ProxyCommand`, `LocalCommand`, `KnownHostsCommand`; tar(1) `--checkpoint-action=exec=`.
const COMMAND_SETTINGS: &[&str] = &["proxycommand", "localcommand", "knownhostscommand", "exec"];

/// The command of a `KEY=VALUE` / `KEY VALUE` setting whose key names a command
/// ([`COMMAND_SETTINGS`], any case); `None` for any other setting.
fn setting_command(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let split = t.find(|c: char| c == '=' || c.is_whitespace())?;
    let (key, rest) = t.split_at(split);
    let value = rest.trim_start_matches(|c: char| c == '=' || c.is_whitespace());
    (COMMAND_SETTINGS.contains(&key.to_ascii_lowercase().as_str()) && !value.is_empty())
        .then_some(value)
}

/// The shell line of a command in a program's own command language ([`Role::Escape`]) when
/// it is a shell escape: vim(1)/ex `!CMD`, `:!CMD`, `:[range]!CMD` (a filter), `:r !CMD`,
/// `:w !CMD`, `:silent !CMD`, `:sh[ell]`; less(1) `!CMD`; gdb(1) `shell CMD`, `!CMD`;
/// sqlite3(1) `.shell CMD`, `.system CMD`. Each line, and each `|`-separated ex command on
/// it, is read in turn; `None` when none is a shell escape.
pub(crate) fn escape_command(text: &str) -> Option<&str> {
    for line in text.lines() {
        let mut rest = line;
        loop {
            if let Some(cmd) = escape_of(rest) {
                return Some(cmd);
            }
            match rest.split_once('|') {
                Some((_, after)) => rest = after,
                None => break,
            }
        }
    }
    None
}

/// `r` trimmed, unless it is empty.
fn nonempty(r: &str) -> Option<&str> {
    let r = r.trim();
    (!r.is_empty()).then_some(r)
}

/// The shell line of one command if it is a shell escape ([`escape_command`]).
fn escape_of(command: &str) -> Option<&str> {
    let mut t = command.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    for modifier in ["silent!", "silent", "sil!", "sil"] {
        if let Some(r) = t.strip_prefix(modifier)
            && r.starts_with([' ', '\t', '!'])
        {
            t = r.trim_start();
            break;
        }
    }
    let after_range = t.trim_start_matches(|c: char| {
        c.is_ascii_digit()
            || matches!(
                c,
                '%' | '.' | '$' | ',' | ';' | '+' | '-' | '\'' | '<' | '>'
            )
    });
    if let Some(r) = after_range.strip_prefix('!') {
        return nonempty(r.strip_prefix('!').unwrap_or(r));
    }
    let (word, r) = t
        .split_once(char::is_whitespace)
        .map_or((t.trim_end(), ""), |(w, r)| (w, r.trim_start()));
    match word {
        "r" | "read" | "w" | "write" => r.strip_prefix('!').and_then(nonempty),
        "shell" | ".shell" | ".system" => nonempty(r).or(Some("sh")),
        "sh" => Some("sh"),
        _ => None,
    }
}

/// The commands of gdb(1) and vim(1) that hand the rest of their line to an embedded
/// interpreter: gdb `python CODE` / `py`, `python-interactive CODE` / `pi` (gdb manual,
/// "Python Commands"); vim `:python3` / `:py3`, `:python` / `:py`, `:pythonx` / `:pyx`
/// (`:help python`), `:lua` (`:help lua`, nvim's too), `:perl` / `:pe` (`:help perl`),
/// `:ruby` / `:rub` (`:help ruby`).
const EMBEDDED: &[(&str, Language)] = &[
    ("python", Language::Python),
    ("py", Language::Python),
    ("python-interactive", Language::Python),
    ("pi", Language::Python),
    ("python3", Language::Python),
    ("py3", Language::Python),
    ("pythonx", Language::Python),
    ("pyx", Language::Python),
    ("lua", Language::Lua),
    ("perl", Language::Perl),
    ("pe", Language::Perl),
    ("ruby", Language::Ruby),
    ("rub", Language::Ruby),
];

/// The code of a command in a program's own command language ([`Role::Escape`]) that hands
/// it to an embedded interpreter ([`EMBEDDED`]: gdb `python import os; …`, vim `:py3 …`, nvim
/// `lua os.execute(…)`), with its language; `None` for any other command (`bt`, `set ft=x`)
/// and for an interpreter command given no code (it reads a block after it, not here).
pub(crate) fn embedded_code(text: &str) -> Option<(Language, &str)> {
    text.lines().find_map(|line| {
        let t = line.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
        let (word, code) = t.split_once(char::is_whitespace)?;
        let (_, lang) = EMBEDDED.iter().find(|(w, _)| *w == word)?;
        let code = code.trim();
        (!code.is_empty() && !code.starts_with("<<")).then_some((*lang, code))
    })
}

impl Parsed {
    /// Record an option's value; shell text is kept with the option that runs it.
    fn value(&mut self, option: &str, role: Role, v: Arg) {
        if role == Role::Shell {
            self.scripts.push((option.to_string(), v.clone()));
        }
        if role == Role::Escape {
            self.escape(option, &v);
        }
        if role == Role::ShellSetting
            && let Some(command) = setting_command(&v.text)
        {
            self.scripts.push((
                option.to_string(),
                Arg {
                    text: command.to_string(),
                    dynamic: v.dynamic,
                },
            ));
        }
        if let Role::Code(lang) = role {
            self.codes.push((option.to_string(), lang, v.clone()));
        }
        self.values.push((role, v));
    }

    /// Keep the shell lines a stream editor's script runs (GNU sed `e COMMAND`, `s///e`,
    /// [`super::sed::executed`]): a line only known at run time (the pattern space) is kept
    /// as a command read from a variable no line sets, so it is judged as such.
    fn sed_commands(&mut self) {
        let scripts: Vec<&Arg> = self
            .values_of(Role::EditScript)
            .chain(self.operands_of(Role::EditScript))
            .collect();
        if scripts.iter().any(|a| a.dynamic) {
            return;
        }
        let texts: Vec<&str> = scripts.iter().map(|a| a.text.as_str()).collect();
        for x in super::sed::executed(&texts) {
            let (text, dynamic) = match x {
                super::sed::Executed::Command(t) | super::sed::Executed::PatternSpace(Some(t)) => {
                    (t, false)
                }
                super::sed::Executed::PatternSpace(None) => {
                    ("\"$SED_PATTERN_SPACE\"".to_string(), true)
                }
            };
            self.scripts.push(("e".to_string(), Arg { text, dynamic }));
        }
    }

    /// Keep the shell line of a [`Role::Escape`] command ([`escape_command`]), or its code when
    /// an embedded interpreter runs it ([`embedded_code`]); a command only known at run time
    /// (`-c "$CMD"`) is kept as it is, so it is judged as such.
    fn escape(&mut self, option: &str, v: &Arg) {
        if let Some((lang, code)) = embedded_code(&v.text) {
            // The inline-code lens reads it as it reads `python3 -c CODE`.
            let code = Arg {
                text: code.to_string(),
                dynamic: v.dynamic,
            };
            self.codes.push((option.to_string(), lang, code));
            return;
        }
        let text = match escape_command(&v.text) {
            Some(cmd) => cmd.to_string(),
            None if v.dynamic && v.text.trim_start_matches([':', ' ']).starts_with('$') => {
                v.text.clone()
            }
            None => return,
        };
        self.scripts.push((
            option.to_string(),
            Arg {
                text,
                dynamic: v.dynamic,
            },
        ));
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

/// Where the value of a short option in a bundle is (getopt(3)): the rest of the bundle after
/// its letter (`-ofile`, `-n100`), or, when its letter ends the bundle, the next word (`-dmS
/// name`, `sudo -Eu root`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShortValue<'t> {
    /// The rest of the bundle.
    Attached(&'t str),
    /// The next word.
    NextWord,
}

/// The letters of a bundle of short options (`-rf`, `-Eu`) in order, each as its option name
/// (`-r`) with where its value is were it to take one; the first letter that takes a value
/// ends the bundle (the reader stops there).
pub(crate) fn short_options(t: &str) -> impl Iterator<Item = (String, ShortValue<'_>)> {
    t.char_indices().skip(1).map(move |(k, ch)| {
        let after = &t[k + ch.len_utf8()..];
        let value = if after.is_empty() {
            ShortValue::NextWord
        } else {
            ShortValue::Attached(after)
        };
        (format!("-{ch}"), value)
    })
}

/// The row for a command and its words sorted by role; `None` for a program the table does
/// not know (or a subcommand none of its rows covers).
pub(crate) fn parse(c: &SimpleCommand) -> Option<Parsed> {
    let base = c.basename();
    let rows = || rows().filter(move |p| p.names.contains(&base));
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

/// An option word split at its `=` when it is a long one (`--name=value` → `--name`,
/// `value`); any other word whole, with no inline value.
pub(crate) fn split_long(t: &str) -> (&str, Option<&str>) {
    match t.split_once('=') {
        Some((n, v)) if t.starts_with("--") => (n, Some(v)),
        _ => (t, None),
    }
}

/// The value of option word `a`: its `inline` value (`--name=value`), else the word of `args`
/// at `*i`, the one after it (`i` then moves past it).
pub(crate) fn option_value(
    a: &Arg,
    inline: Option<&str>,
    args: &[Arg],
    i: &mut usize,
) -> Option<Arg> {
    match inline {
        Some(v) => Some(part(a, v)),
        None => {
            *i += 1;
            args.get(*i - 1).cloned()
        }
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
    let escapes: Vec<Arg> = out.operands_of(Role::Escape).cloned().collect();
    for a in &escapes {
        out.escape("", a);
    }
    // Only a row with an edit script (sed) has commands an edit script runs.
    if row.gives(Role::EditScript) {
        out.sed_commands();
    }
    if row.scripts_need.is_some_and(|s| !out.has(s)) {
        out.scripts.clear();
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
            // `vim +CMD`, `less +CMD` (`++CMD`: for every file): a value with the row's role.
            if !self.after_dashes
                && row.plus != Role::Ignore
                && let Some(v) = t.strip_prefix('+')
            {
                out.value("+", row.plus, part(a, v.strip_prefix('+').unwrap_or(v)));
                continue;
            }
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
                if row.options_end && !global {
                    self.after_dashes = true;
                }
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
            // `killall -STOP x`, `pkill -HUP x`, `kill -SIGKILL 1`: a signal named after the
            // dash (signal(7)), not a bundle of short options.
            if row.action == Action::Signal && is_signal_name(&t[1..]) {
                out.other_flags.push(a.clone());
                continue;
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
            // A single-dash option of several letters the row names whole (`zip -TT CMD`).
            if t.len() > 2
                && let Some(r) = valued_role(t)
            {
                if let Some(v) = args.get(i) {
                    out.value(t, r, v.clone());
                }
                i += 1;
                continue;
            }
            // A bundle of short options: `-rf`, `-n100`, `-ne CODE`, `-i.bak`, `-s0`.
            let mut unknown = false;
            for (name, value) in short_options(t) {
                if let Some(r) = valued_role(&name) {
                    out.lead_given |= row.lead_options.contains(&name.as_str());
                    match value {
                        ShortValue::NextWord => {
                            if let Some(v) = args.get(i) {
                                out.value(&name, r, v.clone());
                            }
                            i += 1;
                        }
                        ShortValue::Attached(after) => out.value(&name, r, part(a, after)),
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

/// Whether a word is a signal's name as `kill -NAME` takes it (signal(7)): `STOP`, `KILL`,
/// `SIGTERM`, `USR1`, `RTMIN+3`.
fn is_signal_name(t: &str) -> bool {
    let name = t.strip_prefix("SIG").unwrap_or(t);
    const NAMES: &[&str] = &[
        "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "IOT", "BUS", "FPE", "KILL", "USR1", "SEGV",
        "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
        "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "POLL", "PWR", "SYS",
    ];
    NAMES.contains(&name) || name.starts_with("RTMIN") || name.starts_with("RTMAX")
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

#[cfg(test)]
mod tests {
    use super::{embedded_code, escape_command, parse};
    use crate::effects::language::Language;
    use crate::effects::programs::Role;
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    /// The row's edit-script role of `line`'s program, and the shell text its options run.
    fn edit_scripts(line: &str) -> Option<(bool, Vec<(String, String)>)> {
        let a = BrushAnalyzer.analyze(line, None);
        let p = parse(a.commands.first()?)?;
        let scripts = p.scripts.iter().map(|(o, v)| (o.clone(), v.text.clone()));
        Some((p.row.gives(Role::EditScript), scripts.collect()))
    }

    /// sed(1) `e COMMAND` runs COMMAND: only a row with an edit script reads one, so the
    /// same text given to another program runs nothing.
    #[test]
    fn only_an_edit_script_runs_sed_commands() {
        let id = vec![("e".to_string(), "id".to_string())];
        assert_eq!(
            edit_scripts("sed '1e id' notes.txt"),
            Some((true, id.clone()))
        );
        assert_eq!(edit_scripts("gsed -e '1e id' notes.txt"), Some((true, id)));
        assert_eq!(
            edit_scripts("grep -e '1e id' notes.txt"),
            Some((false, vec![]))
        );
        assert_eq!(edit_scripts("awk '1e id' notes.txt"), Some((false, vec![])));
    }

    /// vim(1) `:!`, `:range!`, `:r !`, `:w !`, `:silent !`, `:sh`; less(1) `!`; gdb(1)
    /// `shell` / `!`; sqlite3(1) `.shell` / `.system`: the shell line; other commands of
    /// those languages run nothing.
    #[test]
    fn shell_escapes_of_editors_pagers_debuggers_and_shells() {
        let cases: &[(&str, Option<&str>)] = &[
            ("!rm -rf ~", Some("rm -rf ~")),
            (":!sh", Some("sh")),
            ("%!jq .", Some("jq .")),
            ("r !curl x", Some("curl x")),
            ("w !sh", Some("sh")),
            ("silent !make", Some("make")),
            ("set ft=yaml | !id", Some("id")),
            (":sh", Some("sh")),
            ("shell rm -rf ~", Some("rm -rf ~")),
            (".shell rm -rf ~", Some("rm -rf ~")),
            (".tables\n.system id", Some("id")),
            ("set ft=yaml", None),
            ("42", None),
            ("G", None),
            ("/pattern", None),
            ("wq", None),
            ("bt", None),
            ("set pagination off", None),
            (".tables", None),
            ("select a || b from t where a != 1", None),
            ("%s/a/b/g", None),
            ("normal! gg", None),
            ("!", None),
        ];
        for (text, want) in cases {
            assert_eq!(escape_command(text), *want, "{text:?}");
        }
    }

    /// gdb(1) "Python Commands", vim(1) `:help python` / `:help lua` / `:help perl` /
    /// `:help ruby`: the code an embedded interpreter runs; other commands, and interpreter
    /// commands that read a block (`:py3 << EOF`) or nothing, hand it none.
    #[test]
    fn code_of_embedded_interpreters() {
        let cases: &[(&str, Option<(Language, &str)>)] = &[
            ("python import os", Some((Language::Python, "import os"))),
            ("pi print(1)", Some((Language::Python, "print(1)"))),
            ("python-interactive x()", Some((Language::Python, "x()"))),
            (":py3 import os", Some((Language::Python, "import os"))),
            (
                "pyx vim.command('q')",
                Some((Language::Python, "vim.command('q')")),
            ),
            (
                "lua os.execute('id')",
                Some((Language::Lua, "os.execute('id')")),
            ),
            (":perl system('id')", Some((Language::Perl, "system('id')"))),
            ("rub system('id')", Some((Language::Ruby, "system('id')"))),
            (
                "set ft=yaml\nlua print(1)",
                Some((Language::Lua, "print(1)")),
            ),
            ("py3 << EOF", None),
            ("python", None),
            ("bt", None),
            ("set ft=python", None),
            ("!python x.py", None),
        ];
        for (text, want) in cases {
            assert_eq!(embedded_code(text), *want, "{text:?}");
        }
    }
}
