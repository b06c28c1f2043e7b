//! Interpreters: the first operand is a script file, read; its arguments are its own.
//! `-c CODE` / `-e CODE` is code the inline-code lens reads; `deno` and `bun` may run a
//! script from the network. Also the languages runtimes read from standard input.

use super::row::{Action, Program, ROW, Role, Switch};
use crate::effects::language::Language;

/// `deno`'s options that take a value.
const DENO_VALUED: &[&str] = &[
    "--config",
    "-c",
    "--import-map",
    "--env-file",
    "--location",
    "--seed",
    "--lock",
    "--cert",
    "-n",
    "--name",
    "--root",
    "--v8-flags",
    "--ext",
];

/// Options of `node`-like runtimes that take a value the effect model ignores.
const NODE_VALUED: &[&str] = &[
    "-r",
    "--require",
    "--loader",
    "--import",
    "--experimental-loader",
    "--inspect-port",
    "--title",
    "--conditions",
    "-C",
];

/// The runtimes rows, in the order they are tried.
/// The options of a JavaScript runtime that take code or load an environment file.
const JS_RUNTIME_OPTIONS: &[(&str, Role)] = &[
    ("-e", Role::Code(Language::JavaScript)),
    ("--eval", Role::Code(Language::JavaScript)),
    ("-p", Role::Code(Language::JavaScript)),
    ("--print", Role::Code(Language::JavaScript)),
    ("--env-file", Role::Load),
    ("--env-file-if-exists", Role::Load),
];

/// [`JS_RUNTIME_OPTIONS`] of a TypeScript runtime (`tsx`, `ts-node`).
const TS_RUNTIME_OPTIONS: &[(&str, Role)] = &[
    ("-e", Role::Code(Language::TypeScript)),
    ("--eval", Role::Code(Language::TypeScript)),
    ("-p", Role::Code(Language::TypeScript)),
    ("--print", Role::Code(Language::TypeScript)),
    ("--env-file", Role::Load),
    ("--env-file-if-exists", Role::Load),
];

/// The names the Lua interpreter is called by: lua(1) and its versioned names, LuaJIT, and
/// LuaTeX's `texlua` (a Lua interpreter with the same `-e` / `-l` options). The program row
/// and the shell-escape row share them.
pub(crate) const LUA_NAMES: &[&str] = &[
    "lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4", "texlua",
];

/// The options after which a runtime's first operand is not a script (`node -e CODE ARG`).
/// The names the Python interpreter is called by (the program row and the shell-escape row
/// share them).
pub(crate) const PYTHON_NAMES: &[&str] = &[
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "python3.8",
    "python3.9",
    "python3.10",
    "python3.11",
    "python3.12",
    "python3.13",
];

const EVAL_OPTIONS: &[&str] = &["-e", "--eval", "-p", "--print"];

/// The options of osascript(1) that take a value besides `-e`: the language (`-l
/// JavaScript`) and the output flags (`-s h`).
pub(crate) const OSASCRIPT_VALUED: &[&str] = &["-l", "-s"];

/// julia(1)'s options that take a separate value (threads, worker processes, a system
/// image, the optimisation level, the target CPU).
pub(crate) const JULIA_VALUED: &[&str] = &[
    "-t",
    "--threads",
    "-p",
    "--procs",
    "-J",
    "--sysimage",
    "-O",
    "-C",
];

/// Rscript(1)'s options that take a separate value.
pub(crate) const RSCRIPT_VALUED: &[&str] = &["--default-packages"];

/// The rows of interpreters called `PROG [-r X] [-e X] [-c X] SCRIPT` (php, lua, Rscript,
/// tclsh): the script is read, unless one of those options gave the code.
const SCRIPT_RUNNER: Program = Program {
    lead: &[Role::Read],
    lead_options: &["-r", "-e", "-c"],
    ..ROW
};

pub(super) static ROWS: &[Program] = &[
    Program {
        // nix-shell(1): `--run CMD` / `--command CMD` runs CMD through the shell in the
        // environment it builds.
        names: &["nix-shell"],
        valued: &[
            "-I",
            "-A",
            "--attr",
            "--option",
            "-j",
            "--max-jobs",
            "--cores",
        ],
        options: &[("--run", Role::Shell), ("--command", Role::Shell)],
        ..ROW
    },
    // Interpreters: the first operand is a script file, read; its arguments are its own.
    // `source FILE` runs the file's lines in this shell: a dotenv file's assignments are
    // loaded, not shown.
    Program {
        names: &["source", "."],
        lead: &[Role::Load],
        ..ROW
    },
    Program {
        names: PYTHON_NAMES,
        valued: &["-W", "-X", "--check-hash-based-pycs"],
        options: &[("-c", Role::Code(Language::Python)), ("-m", Role::Ignore)],
        lead: &[Role::Read],
        lead_options: &["-c", "-m"],
        ..ROW
    },
    // `dotenv -e .env -- CMD`, `dotenvx run -f .env -- CMD`: the env files are loaded into
    // the command's environment (the command itself is unwrapped like `env`'s).
    Program {
        names: &["dotenv"],
        valued: &["-c", "-v", "-p"],
        options: &[("-e", Role::Load)],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["dotenvx"],
        subs: &[&["run"]],
        valued: &["-e", "--env", "--convention"],
        options: &[("-f", Role::Load), ("--env-file", Role::Load)],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["node", "nodejs"],
        valued: NODE_VALUED,
        options: JS_RUNTIME_OPTIONS,
        lead: &[Role::Read],
        lead_options: EVAL_OPTIONS,
        ..ROW
    },
    Program {
        // `bun x.ts`, `bun https://…/x.js`: a script that may be fetched.
        names: &["bun"],
        valued: NODE_VALUED,
        options: JS_RUNTIME_OPTIONS,
        lead: &[Role::Script],
        lead_options: EVAL_OPTIONS,
        ..ROW
    },
    Program {
        names: &["tsx", "ts-node"],
        valued: NODE_VALUED,
        options: TS_RUNTIME_OPTIONS,
        lead: &[Role::Read],
        lead_options: EVAL_OPTIONS,
        ..ROW
    },
    Program {
        // `deno x.ts`, `deno https://…/x.ts`: `deno run`'s short form.
        names: &["deno"],
        valued: DENO_VALUED,
        options: &[
            ("-e", Role::Code(Language::TypeScript)),
            ("--eval", Role::Code(Language::TypeScript)),
            ("-p", Role::Code(Language::TypeScript)),
            ("--print", Role::Code(Language::TypeScript)),
        ],
        lead: &[Role::Script],
        lead_options: EVAL_OPTIONS,
        ..ROW
    },
    Program {
        // `deno eval CODE`.
        names: &["deno"],
        subs: &[&["eval"]],
        valued: DENO_VALUED,
        lead: &[Role::Code(Language::TypeScript)],
        ..ROW
    },
    Program {
        // `deno run -A x.ts`, `deno run npm:cowsay`, `bun run x.ts`: the script (or a
        // package script's name).
        names: &["deno", "bun"],
        subs: &[&["run"]],
        valued: DENO_VALUED,
        lead: &[Role::Script],
        ..ROW
    },
    Program {
        // `deno install [-g] URL|npm:x|jsr:@s/x`, `deno add jsr:@std/path`: packages (or a
        // script, by URL) installed; with none, the project's dependencies.
        names: &["deno"],
        subs: &[&["install"], &["i"], &["add"]],
        action: Action::Install,
        valued: DENO_VALUED,
        options: &[("--entrypoint", Role::Read)],
        rest: Role::Package,
        ..ROW
    },
    Program {
        // `deno serve x.ts`, `deno test`, `deno bench`: the scripts they run.
        names: &["deno"],
        subs: &[&["serve"], &["test"], &["bench"]],
        valued: DENO_VALUED,
        rest: Role::Script,
        ..ROW
    },
    Program {
        // `deno task build`, `deno fmt`, `deno lint`, `deno check`, …: a task name, files
        // formatted or checked, nothing run from a script operand. (`deno publish` uploads:
        // a publisher's row.)
        names: &["deno"],
        subs: &[
            &["task"],
            &["fmt"],
            &["lint"],
            &["check"],
            &["doc"],
            &["info"],
            &["cache"],
            &["compile"],
            &["upgrade"],
            &["repl"],
            &["init"],
            &["clean"],
            &["coverage"],
            &["types"],
            &["completions"],
            &["outdated"],
            &["remove"],
            &["uninstall"],
            &["jupyter"],
        ],
        valued: DENO_VALUED,
        ..ROW
    },
    Program {
        // `deno x npm:cowsay`: fetch a package and run it, as `npx` does.
        names: &["deno"],
        subs: &[&["x"]],
        action: Action::Install,
        valued: DENO_VALUED,
        lead: &[Role::Package],
        ..ROW
    },
    Program {
        // `perl -ne 'print' .env` reads `.env`; `perl -i -pe … f` writes it; `-e` / `-E`
        // code is read by the inline-code lens.
        names: &["perl", "perl5"],
        valued: &["-I", "-M", "-m", "-r", "-F"],
        options: &[
            ("-e", Role::Code(Language::Perl)),
            ("-E", Role::Code(Language::Perl)),
        ],
        switches: &[("-i", Switch::InPlace)],
        lead: &[Role::Read],
        lead_options: &["-e", "-E"],
        rest_given: Some(Role::Read),
        ..ROW
    },
    Program {
        // `ruby -ne 'print' .env` reads `.env`; `ruby -i -pe … f` writes it; `-e` code is
        // read by the inline-code lens (`-E ext:int` is the encoding).
        names: &["ruby"],
        valued: &["-I", "-M", "-m", "-r", "-F", "-E"],
        options: &[("-e", Role::Code(Language::Ruby))],
        switches: &[("-i", Switch::InPlace)],
        lead: &[Role::Read],
        lead_options: &["-e"],
        rest_given: Some(Role::Read),
        ..ROW
    },
    Program {
        // `php -r CODE` (no `<?php` tag): read by the inline-code lens.
        names: &["php"],
        options: &[
            ("-r", Role::Code(Language::Php)),
            ("-e", Role::Ignore),
            ("-c", Role::Ignore),
        ],
        ..SCRIPT_RUNNER
    },
    Program {
        // `lua -e CODE`: read by the inline-code lens.
        names: LUA_NAMES,
        options: &[
            ("-r", Role::Ignore),
            ("-e", Role::Code(Language::Lua)),
            ("-c", Role::Ignore),
        ],
        ..SCRIPT_RUNNER
    },
    Program {
        // osascript(1): the `-e` lines and a script given on standard input are code the
        // inline-code lens reads (`code_runs`), in the language `-l` names; the first operand
        // is a script file, read, and the words after it its arguments.
        names: &["osascript"],
        valued: OSASCRIPT_VALUED,
        options: &[("-e", Role::Ignore)],
        lead: &[Role::Read],
        lead_options: &["-e"],
        ..ROW
    },
    Program {
        // `Rscript -e EXPR`, `R -e EXPR`, `R --vanilla -e EXPR`: read by the inline-code lens.
        names: &["Rscript", "R"],
        valued: RSCRIPT_VALUED,
        options: &[("-e", Role::Code(Language::R))],
        lead_options: &["-e"],
        ..SCRIPT_RUNNER
    },
    Program {
        // `julia -e CODE` (`-E`: the value printed too), `--eval`, `--print`: read by the
        // inline-code lens; `-L FILE` loads a file first.
        names: &["julia"],
        valued: JULIA_VALUED,
        options: &[
            ("-e", Role::Code(Language::Julia)),
            ("-E", Role::Code(Language::Julia)),
            ("--eval", Role::Code(Language::Julia)),
            ("--print", Role::Code(Language::Julia)),
            ("-L", Role::Read),
            ("--load", Role::Read),
        ],
        lead_options: &["-e", "-E", "--eval", "--print"],
        ..SCRIPT_RUNNER
    },
    Program {
        names: &["tclsh", "wish"],
        options: &[
            ("-r", Role::Ignore),
            ("-e", Role::Ignore),
            ("-c", Role::Ignore),
        ],
        ..SCRIPT_RUNNER
    },
    Program {
        // PowerShell and cmd.exe: their command lines (`-Command`, `-File`, `/c`) are read
        // by the PowerShell lens (`inline::powershell`), with their own option syntax.
        names: &["pwsh", "powershell", "cmd"],
        ..ROW
    },
    Program {
        names: &["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"],
        valued: &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"],
        options: &[("-c", Role::Ignore)],
        // `-s`: the script is standard input and the operands are its arguments.
        switches: &[("-s", Switch::StdinScript)],
        lead: &[Role::Read],
        lead_options: &["-c"],
        ..ROW
    },
];

/// The language an interpreter reads as code from standard input when it is given no script
/// (`python3 - <<EOF`, `node <<EOF`), if it is one the inline-code lens reads.
pub(crate) fn stdin_language(program: &str) -> Option<Language> {
    if program.starts_with("python") || program.starts_with("pypy") {
        Some(Language::Python)
    } else if matches!(program, "node" | "nodejs" | "bun") {
        Some(Language::JavaScript)
    } else if matches!(program, "tsx" | "ts-node") {
        Some(Language::TypeScript)
    } else if matches!(program, "perl" | "perl5") {
        Some(Language::Perl)
    } else if program == "ruby" {
        Some(Language::Ruby)
    } else if program == "php" {
        Some(Language::Php)
    } else if LUA_NAMES.contains(&program) {
        Some(Language::Lua)
    } else if matches!(program, "R" | "Rscript") {
        // `R --vanilla < x.R`, `Rscript -` (`Rscript` with no file only prints its usage).
        Some(Language::R)
    } else if program == "julia" {
        Some(Language::Julia)
    } else {
        None
    }
}
