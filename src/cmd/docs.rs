//! `seamguard docs` (hidden): the book's generated reference pages and the check that keeps
//! them current.
//!
//! In: the command line definition (clap) and the policy library built into the binary
//! ([`crate::library`]). Out: `cli.md` (every subcommand, its usage, arguments, defaults and
//! possible values) and `rules.md` (every bundled rule: id, kind, seam, decision, reason, the
//! `[[test]]` examples that name it) in the book's `reference/` folder; `--check` compares
//! instead of writing and exits 1 naming every page that is out of date. `seamguard docs args
//! -- ARGS…` only parses `seamguard ARGS…` (exit 0, or clap's error and exit 2), so the
//! book's test can check every command line it shows without running it.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Arg;
use serde_json::Value;

use seamguard_engine::{LoadOptions, LoadedPolicy, PolicyTest, RuleKind, Scope, load_str_with};

use crate::library::{self, PolicyFile};

/// The whole command line, handed down by `main`: its clap definition and a parse that runs
/// nothing (the pages describe it; `docs args` checks command lines against it).
#[derive(Clone, Copy)]
pub(crate) struct Root {
    /// The clap command of `seamguard`, every subcommand in it.
    pub(crate) command: fn() -> clap::Command,
    /// Parse `seamguard ARGS…` (the program name first) and run nothing.
    pub(crate) parse: fn(Vec<String>) -> Result<(), clap::Error>,
}

/// Generate or check the book's reference pages (for the project's own tests and CI).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

/// What `seamguard docs` does.
#[derive(clap::Subcommand, Debug)]
enum What {
    /// Write the reference pages into DIR (`--check`: compare, exit 1 when out of date).
    Gen {
        /// The book's reference folder (`docs/src/reference`).
        dir: PathBuf,
        /// Also write the man pages (`seamguard.1`, one per subcommand) into this folder.
        #[arg(long, value_name = "DIR")]
        man: Option<PathBuf>,
        /// Compare with the files in DIR instead of writing them.
        #[arg(long)]
        check: bool,
    },
    /// Parse `seamguard ARGS…` with the real command line and run nothing (exit 0 or 2).
    Args {
        /// The arguments after `seamguard`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Run `seamguard docs`.
pub(super) fn run(a: Args, root: Root) -> ExitCode {
    match a.what {
        What::Gen { dir, man, check } => generate(root, &dir, man.as_deref(), check),
        What::Args { args } => {
            let argv = std::iter::once("seamguard".to_string()).chain(args);
            match (root.parse)(argv.collect()) {
                Ok(_) => ExitCode::SUCCESS,
                // `seamguard --version`, `seamguard try --help`: valid command lines.
                Err(e)
                    if matches!(
                        e.kind(),
                        clap::error::ErrorKind::DisplayHelp
                            | clap::error::ErrorKind::DisplayVersion
                    ) =>
                {
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    let _ = e.print();
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// The generated pages: (file name, text).
pub(crate) fn pages(root: Root) -> Result<Vec<(String, String)>, String> {
    Ok(vec![
        ("cli.md".into(), cli_page(root)),
        ("rules.md".into(), rules_page()),
        ("policy-keys.md".into(), keys_page()?),
        ("programs.md".into(), programs_page()),
    ])
}

/// The man pages: `seamguard.1` and `seamguard-SUB.1` for every visible subcommand.
fn man_pages(root: Root) -> Result<Vec<(String, String)>, String> {
    let mut root = (root.command)();
    root.build();
    let mut out = Vec::new();
    let render = |cmd: clap::Command, name: &str| -> Result<(String, String), String> {
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd)
            .title(name.to_string())
            .render(&mut buf)
            .map_err(|e| format!("{name}: {e}"))?;
        let text = String::from_utf8(buf).map_err(|e| format!("{name}: {e}"))?;
        Ok((format!("{name}.1"), text))
    };
    out.push(render(root.clone(), "seamguard")?);
    for sub in root
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
    {
        let name = format!("seamguard-{}", sub.get_name());
        out.push(render(sub.clone(), &name)?);
    }
    Ok(out)
}

/// Write (or with `check`, compare) every page in `dir`, and the man pages in `man`.
fn generate(
    root: Root,
    dir: &std::path::Path,
    man: Option<&std::path::Path>,
    check: bool,
) -> ExitCode {
    let mut stale = Vec::new();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let made = pages(root).and_then(|p| {
        let mut all: Vec<(PathBuf, String)> =
            p.into_iter().map(|(n, t)| (dir.join(n), t)).collect();
        if let Some(m) = man {
            all.extend(man_pages(root)?.into_iter().map(|(n, t)| (m.join(n), t)));
        }
        Ok(all)
    });
    match made {
        Ok(f) => files.extend(f),
        Err(e) => {
            eprintln!("seamguard: cannot generate the reference: {e}");
            return ExitCode::from(3);
        }
    }
    for (path, text) in files {
        if check {
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            if on_disk != text {
                stale.push(path.display().to_string());
            }
        } else if let Err(e) = std::fs::write(&path, text) {
            eprintln!("seamguard: {}: {e}", path.display());
            return ExitCode::from(3);
        }
    }
    if stale.is_empty() {
        return ExitCode::SUCCESS;
    }
    for p in &stale {
        eprintln!("seamguard: {p} is out of date");
    }
    eprintln!(
        "seamguard: regenerate with `cargo run -- docs gen docs/src/reference --man docs/man` (or SEAMGUARD_DOCS_REWRITE=1 cargo test --test it book_)"
    );
    ExitCode::from(1)
}

const GENERATED: &str = "<!-- Generated by `seamguard docs gen docs/src/reference`: do not edit; `cargo test` fails when it is out of date. -->\n\n";

// ---------------------------------------------------------------------------------------------
// The policy keys

/// `policy-keys.md`: every key of the format, from the loader's own key lists
/// ([`seamguard_engine::policy_keys`]).
fn keys_page() -> Result<String, String> {
    let tables = seamguard_engine::policy_keys::tables().map_err(|e| e.join("; "))?;
    let mut out = String::from(GENERATED);
    out.push_str("# Policy keys\n\n");
    out.push_str(
        "Every key a policy file may hold, table by table, in the order the loader reads them: \
         its type, what holds without it, the seams it may be written at (where that is not \
         every seam) and an example. The list is made from the loader's own key lists, so a \
         key missing here does not load. A tutorial: [Policy files](../policy-files.md).\n\n",
    );
    for t in &tables {
        let _ = writeln!(out, "## `{}`\n", t.name);
        let _ = writeln!(out, "{}\n", prose(&t.about));
        for k in &t.keys {
            let _ = writeln!(out, "### `{}`\n", k.key);
            let _ = writeln!(out, "{}\n", prose(k.meaning));
            let _ = writeln!(out, "* type: {}", prose(k.kind));
            if !k.default.is_empty() {
                let _ = writeln!(out, "* default: {}", prose(k.default));
            }
            if !k.seams.is_empty() {
                let seams: Vec<String> = k.seams.iter().map(|s| code(s)).collect();
                let _ = writeln!(out, "* seams: {}", seams.join(", "));
            }
            let example: Vec<String> = k.example.lines().map(code).collect();
            let _ = writeln!(out, "* example: {}\n", example.join(" with "));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// The program table

/// `programs.md`: every row of the effect model's program table
/// ([`seamguard_engine::program_table`]).
fn programs_page() -> String {
    let mut out = String::from(GENERATED);
    out.push_str("# Programs the effect model knows\n\n");
    out.push_str(
        "Every row of the shell lens's program table, in the order rows are tried: a \
         program with subcommands has one row per subcommand family, then its general row. \
         A program without a row only runs: none of its operands is guessed at. See \
         [Effects and named lists](../effects.md).\n\n",
    );
    for r in seamguard_engine::program_table::rows() {
        let names: Vec<String> = r.names.iter().map(|n| code(n)).collect();
        let title = if r.subcommands.is_empty() {
            names.join(", ")
        } else {
            let subs: Vec<String> = r.subcommands.iter().map(|s| code(s)).collect();
            format!("{} {}", names.join(", "), subs.join(", "))
        };
        let _ = writeln!(out, "## {title}\n");
        let mut family = r.family.chars();
        let family: String = family
            .next()
            .map(|c| c.to_uppercase().chain(family).collect())
            .unwrap_or_default();
        let _ = writeln!(out, "{}.\n", prose(&family));
        if !r.global_options.is_empty() {
            let g: Vec<String> = r.global_options.iter().map(|o| code(o)).collect();
            let _ = writeln!(
                out,
                "* before the subcommand, taking a value: {}",
                g.join(", ")
            );
        }
        for (which, role) in &r.lead {
            let _ = writeln!(out, "* {which}: {}", prose(role));
        }
        if let Some(o) = r.operands {
            let lead = if r.lead.is_empty() {
                "operands"
            } else {
                "other operands"
            };
            let _ = writeln!(out, "* {lead}: {}", prose(o));
        }
        if let Some(o) = r.operands_after_lead_option {
            let _ = writeln!(
                out,
                "* operands when an option gave the leading one: {}",
                prose(o)
            );
        }
        if let Some(w) = r.without_operands {
            let _ = writeln!(out, "* with no operand: {}", prose(w));
        }
        for (k, role) in &r.assignments {
            let _ = writeln!(out, "* {}: {}", code(k), prose(role));
        }
        for (o, what) in &r.options {
            let spell: Vec<String> = o.split(", ").map(code).collect();
            let _ = writeln!(out, "* {}: {}", spell.join(", "), prose(what));
        }
        for (s, what) in &r.switches {
            let _ = writeln!(out, "* switch {}: {}", code(s), prose(what));
        }
        if let Some(s) = &r.search {
            let _ = writeln!(out, "* search: {}", prose(s));
        }
        out.push('\n');
    }
    wrappers_section(&mut out);
    out
}

/// The wrappers section of `programs.md` ([`seamguard_engine::program_table::wrappers`]).
fn wrappers_section(out: &mut String) {
    out.push_str(
        "# Wrappers\n\nPrograms that run another program given as their trailing words. The \
         shell lens peels each one and judges the command it runs as if it were run directly \
         (`sudo rm -rf ~` is judged as `rm -rf ~`, run as root). `env` (options, `NAME=value` \
         words and `-S`) and `find -exec`/`-execdir`/`-ok`/`-okdir` (whose `{}` stands for the files \
         found) are peeled by routines of their own. Leading `NAME=value` words of the \
         wrapped command are its environment.\n\n",
    );
    for w in seamguard_engine::program_table::wrappers() {
        let names: Vec<String> = w.names.iter().map(|n| code(n)).collect();
        let _ = writeln!(out, "## {}\n", names.join(", "));
        if !w.subcommands.is_empty() {
            let s: Vec<String> = w.subcommands.iter().map(|s| code(s)).collect();
            let _ = writeln!(out, "* a wrapper only as: {}", s.join(", "));
        }
        if !w.valued_options.is_empty() {
            let v: Vec<String> = w.valued_options.iter().map(|o| code(o)).collect();
            let _ = writeln!(out, "* options taking a value: {}", v.join(", "));
        }
        match w.operands {
            0 => {}
            1 => out.push_str("* reads one word before the command\n"),
            n => {
                let _ = writeln!(out, "* reads {n} words before the command");
            }
        }
        if !w.queries.is_empty() {
            let q: Vec<String> = w.queries.iter().map(|o| code(o)).collect();
            let _ = writeln!(out, "* runs nothing with: {}", q.join(", "));
        }
        if w.lone_word_is_script {
            out.push_str("* a lone remaining word is a shell line\n");
        }
        if w.input_as_args {
            out.push_str("* the command gets its standard input as arguments\n");
        }
        if w.runs_package {
            out.push_str(
                "* the first word is a package, run by its command name (its scope, version and extras dropped)\n",
            );
        }
        out.push('\n');
    }
}

/// A Markdown code span holding `text` on one line, whatever backticks it contains.
fn code(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut run = 0;
    let mut longest = 0;
    for c in one.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if one.starts_with('`') || one.ends_with('`') || longest > 0 {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{one}{pad}{fence}")
}

/// Text for a Markdown paragraph: `<` and `>` outside code spans escaped, so a `<PATH>` is
/// shown, not taken for HTML.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            '>' if !in_code => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The command line

/// `cli.md`: every visible subcommand of `seamguard`.
fn cli_page(root: Root) -> String {
    let mut root = (root.command)();
    root.build();
    let mut out = String::from(GENERATED);
    out.push_str("# Command line\n\n");
    out.push_str(
        "The same, as man pages: `docs/man/seamguard.1` and `docs/man/seamguard-COMMAND.1` \
         (`man -l docs/man/seamguard-init.1`).\n\n",
    );
    if let Some(about) = root.get_about() {
        let _ = writeln!(out, "{}\n", prose(&about.to_string()));
    }
    out.push_str("```text\n");
    out.push_str(root.render_usage().to_string().trim_end());
    out.push_str("\n```\n\n");
    let names: Vec<String> = root
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        if let Some(sub) = root.find_subcommand_mut(&name) {
            command_section(&mut out, sub, &format!("seamguard {name}"), 2);
        }
    }
    out
}

/// One subcommand (and its own subcommands, a level deeper).
fn command_section(out: &mut String, cmd: &mut clap::Command, path: &str, level: usize) {
    let _ = writeln!(out, "{} `{path}`\n", "#".repeat(level));
    let about = cmd
        .get_long_about()
        .or_else(|| cmd.get_about())
        .map(|s| s.to_string());
    if let Some(about) = about {
        let _ = writeln!(out, "{}\n", prose(about.trim_end()));
    }
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ").trim_end();
    let _ = writeln!(out, "```text\n{usage}\n```\n");
    let args: Vec<Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && a.get_id() != "help" && a.get_id() != "version")
        .cloned()
        .collect();
    if !args.is_empty() {
        for a in &args {
            let _ = writeln!(out, "* {}", argument_line(a));
        }
        out.push('\n');
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        if let Some(sub) = cmd.find_subcommand_mut(&name) {
            command_section(out, sub, &format!("{path} {name}"), level + 1);
        }
    }
}

/// `` `--flag <VALUE>`: help (default: x; one of: a, b) ``.
fn argument_line(a: &Arg) -> String {
    let value = a
        .get_value_names()
        .map(|v| {
            v.iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| format!("<{}>", a.get_id().as_str().to_uppercase()));
    let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
    let mut spelling = match (a.get_short(), a.get_long()) {
        (Some(s), Some(l)) => format!("-{s}, --{l}"),
        (None, Some(l)) => format!("--{l}"),
        (Some(s), None) => format!("-{s}"),
        (None, None) => value.clone(),
    };
    if takes_value && (a.get_long().is_some() || a.get_short().is_some()) {
        spelling.push(' ');
        spelling.push_str(&value);
    }
    let help = a
        .get_long_help()
        .or_else(|| a.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut notes = Vec::new();
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && takes_value {
        notes.push(format!("default: {}", code(&defaults.join(", "))));
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| code(p.get_name()))
        .collect();
    if !possible.is_empty() && takes_value {
        notes.push(format!("one of: {}", possible.join(", ")));
    }
    let mut line = code(&spelling);
    if !help.is_empty() {
        line.push_str(": ");
        line.push_str(&prose(&help));
    }
    if !notes.is_empty() {
        let _ = write!(line, " ({})", notes.join("; "));
    }
    line
}

// ---------------------------------------------------------------------------------------------
// The bundled rules

/// A library file loaded with its examples (named lists left unresolved: only listed here).
fn load(file: &PolicyFile, dir: &str, i: usize) -> LoadedPolicy {
    load_str_with(
        file.text,
        &format!("policies/{dir}{}", file.name),
        Scope::Embedded,
        i,
        LoadOptions::default(),
    )
}

/// What an example is about, on one line: its command, path, URL, MCP call or event.
fn example_subject(t: &PolicyTest) -> String {
    let p = &t.payload;
    let input = p.get("tool_input");
    let field = |k: &str| input.and_then(|i| i.get(k)).and_then(Value::as_str);
    let tool = p.get("tool_name").and_then(Value::as_str).unwrap_or("");
    if let Some(c) = field("command") {
        return code(c);
    }
    if let Some(f) = field("file_path").or_else(|| field("path")) {
        return format!("{tool} {}", code(f));
    }
    if let Some(u) = field("url") {
        return format!("{tool} {}", code(u));
    }
    if tool.starts_with("mcp__") {
        let args = input.map(Value::to_string).unwrap_or_default();
        return format!("{} {}", code(tool), code(&args));
    }
    if let Some(prompt) = p.get("prompt").and_then(Value::as_str) {
        return format!("prompt {}", code(prompt));
    }
    let event = p
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("event");
    if tool.is_empty() {
        event.to_string()
    } else {
        format!(
            "{event} {tool} {}",
            code(&input.map(Value::to_string).unwrap_or_default())
        )
    }
}

/// `rules.md`: every rule of the balanced and strict library, file by file.
fn rules_page() -> String {
    let mut out = String::from(GENERATED);
    out.push_str("# Bundled rules\n\n");
    out.push_str(
        "Every rule of the library built into the binary (`policies/*.toml`, the balanced \
         profile; `policies/strict/*.toml`, added by the strict profile), with the examples of \
         its file that name it: what it must catch (`rules = [...]`) and the look-alikes it \
         must leave alone (`not_rules = [...]`). See [The bundled library](../library.md).\n\n",
    );
    let sets: [(&str, &str, &[PolicyFile]); 2] = [
        ("Balanced profile", "", library::BALANCED),
        ("Strict profile additions", "strict/", library::STRICT),
    ];
    for (title, dir, files) in sets {
        let _ = writeln!(out, "## {title}\n");
        for (i, f) in files.iter().enumerate() {
            let p = load(f, dir, i);
            if p.rules.is_empty() {
                continue;
            }
            let _ = writeln!(out, "### `policies/{dir}{}`\n", f.name);
            if let Some(d) = &p.meta.description {
                let _ = writeln!(out, "{}\n", prose(d));
            }
            for r in &p.rules {
                let kind = match r.kind {
                    RuleKind::Hook => "rule",
                    RuleKind::Guard => "guard",
                };
                let decision = match (r.kind, r.action.decision) {
                    (RuleKind::Guard, _) => "deny".to_string(),
                    (_, Some(d)) => d.name().to_string(),
                    (_, None) if r.action.context.is_some() => "context".to_string(),
                    (_, None) if r.action.continue_with.is_some() => "continue".to_string(),
                    (_, None) if r.action.halt.is_some() => "halt".to_string(),
                    (_, None) if !r.action.redact.is_empty() => "redact".to_string(),
                    (_, None) if r.action.observe => "observe".to_string(),
                    (_, None) => "none".to_string(),
                };
                let _ = writeln!(out, "#### `{}`\n", r.id);
                // No line number: the page changes when a rule does, not when one is added
                // above it.
                let _ = writeln!(
                    out,
                    "{kind} · seam `{}` · decision **{decision}**\n",
                    r.seam
                );
                if let Some(reason) = &r.action.reason {
                    let _ = writeln!(out, "> {}\n", prose(reason));
                }
                let catches: Vec<&PolicyTest> =
                    p.tests.iter().filter(|t| t.rules.contains(&r.id)).collect();
                let spares: Vec<&PolicyTest> = p
                    .tests
                    .iter()
                    .filter(|t| t.not_rules.contains(&r.id))
                    .collect();
                for (label, list) in [("Catches", &catches), ("Leaves alone", &spares)] {
                    if list.is_empty() {
                        continue;
                    }
                    let _ = writeln!(out, "{label}:\n");
                    for t in list.iter() {
                        let _ = writeln!(out, "* {} → {}", example_subject(t), t.expect);
                    }
                    out.push('\n');
                }
            }
        }
    }
    out
}
