//! How PowerShell code reaches the lens besides a command line (whose `powershell.exe` /
//! `cmd.exe` words are read in [`code_runs`](crate::effects::code_runs)): the `PowerShell`
//! tool of Claude Code and Copilot CLI, whose command is PowerShell code, a Codex shell call
//! on Windows whose line is PowerShell, and a shell call on any host whose line runs a command
//! only PowerShell has (`iwr … | iex`); and the commands PowerShell code runs, as a shell
//! analysis for the rules that test a command line.

use serde_json::Value;

use super::cmdlets::cmdlet;
use super::pipeline::effects;
use super::syntax::{first_error, parse_code, refused};
use crate::effects::inline::{Collect, Found};
use crate::effects::model::What;
use crate::shell::program_name;
use crate::shell::{ShellAnalysis, ShellAnalyzer, analyze_words};

/// Whether a hook payload's `command` is PowerShell code, not a POSIX line: a call of the
/// `PowerShell` tool (Claude Code; Copilot CLI's `powershell`), or a Codex shell call on
/// Windows that reads as PowerShell, or a shell call on any host whose line runs a command
/// only PowerShell has ([`codex_runs_powershell`]).
pub(crate) fn is_powershell_call(payload: &Value) -> bool {
    let tool = payload
        .get("tool_name")
        .or_else(|| payload.get("toolName"))
        .and_then(Value::as_str)
        .unwrap_or("");
    tool == "PowerShell" || tool == "powershell" || codex_runs_powershell(payload)
}

/// The aliases only PowerShell defines (`Get-Alias`): no POSIX system has a program by these
/// names (`gc`, `sc`, `type`, `del` are left out: POSIX programs or shell words have them).
const POWERSHELL_ONLY_ALIASES: &[&str] = &[
    "iwr", "irm", "iex", "icm", "saps", "sls", "gci", "gcm", "rni", "spps",
];

/// Whether a command word is one no POSIX system has: an alias of
/// [`POWERSHELL_ONLY_ALIASES`] or a `Verb-Noun` name with PowerShell's capitals
/// (`Invoke-WebRequest`, `Remove-Item`; lower-case `update-alternatives` is a POSIX program).
fn foreign_to_posix(word: &str) -> bool {
    let w = word.trim_matches(['\'', '"']);
    POWERSHELL_ONLY_ALIASES.contains(&w.to_ascii_lowercase().as_str())
        || (verb_noun(w) && w.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// Whether a shell call runs its command in PowerShell, though the host names the tool
/// `Bash` or `shell`. Two routes:
/// - Codex runs a shell command in the user's shell, PowerShell on Windows (HOOKS.md B2);
///   its payloads carry `turn_id`. A call from a Windows working folder (`C:\…`, `g:\…`) is
///   read as PowerShell when its command parses as PowerShell and uses syntax only
///   PowerShell gives that meaning ([`powershell_only`]); a line both shells read alike (`git
///   status`, `rg -n x src`) or one that only a POSIX shell reads stays a POSIX line (Codex
///   can be set to run Git Bash).
/// - On any host and folder (agents on Windows run their shell tool through PowerShell), a
///   line that runs a command no POSIX system has ([`foreign_to_posix`]: `iwr … | iex`,
///   `Remove-Item -Recurse x`) and parses as PowerShell: a POSIX shell could only fail on it.
///
/// A line that names its shell (`pwsh -Command '…'`, `bash -lc '…'`) is an argv quoted for a
/// POSIX shell: the shell lens reads it and peels the named shell.
fn codex_runs_powershell(payload: &Value) -> bool {
    let shell_tool = matches!(
        payload.get("tool_name").and_then(Value::as_str),
        Some("Bash" | "shell" | "shell_command" | "exec_command" | "local_shell")
    );
    let Some(code) = payload
        .get("tool_input")
        .and_then(|i| i.get("command"))
        .and_then(Value::as_str)
    else {
        return false;
    };
    let windows_codex = payload.get("turn_id").is_some()
        && payload
            .get("cwd")
            .and_then(Value::as_str)
            .is_some_and(crate::paths::is_windows_path);
    let foreign = || command_words(code).iter().any(|w| foreign_to_posix(w));
    if !shell_tool || !(windows_codex || foreign()) {
        return false;
    }
    let first = code.split_whitespace().next().unwrap_or_default();
    let named_shell = matches!(
        program_name(first.trim_matches(['\'', '"'])).as_ref(),
        "powershell" | "pwsh" | "cmd" | "bash" | "sh" | "zsh" | "wsl"
    );
    if named_shell {
        return false;
    }
    let Ok(tree) = parse_code(code) else {
        return false;
    };
    let root = tree.root_node();
    !refused(root, code)
        && first_error(root, code).is_none()
        && (foreign() || powershell_only(root, code))
}

/// The approved verbs of PowerShell command names (`Get-Verb`): a `Verb-Noun` command
/// word is a cmdlet, a function or a script of PowerShell's.
const VERBS: &[&str] = &[
    "add",
    "approve",
    "assert",
    "backup",
    "block",
    "build",
    "checkpoint",
    "clear",
    "close",
    "compare",
    "complete",
    "compress",
    "confirm",
    "connect",
    "convert",
    "convertfrom",
    "convertto",
    "copy",
    "debug",
    "deny",
    "deploy",
    "disable",
    "disconnect",
    "dismount",
    "edit",
    "enable",
    "enter",
    "exit",
    "expand",
    "export",
    "find",
    "format",
    "get",
    "grant",
    "group",
    "hide",
    "import",
    "initialize",
    "install",
    "invoke",
    "join",
    "limit",
    "lock",
    "measure",
    "merge",
    "mount",
    "move",
    "new",
    "open",
    "optimize",
    "out",
    "ping",
    "pop",
    "protect",
    "publish",
    "push",
    "read",
    "receive",
    "redo",
    "register",
    "remove",
    "rename",
    "repair",
    "request",
    "reset",
    "resize",
    "resolve",
    "restart",
    "restore",
    "resume",
    "revoke",
    "save",
    "search",
    "select",
    "send",
    "set",
    "show",
    "skip",
    "split",
    "start",
    "step",
    "stop",
    "submit",
    "suspend",
    "switch",
    "sync",
    "test",
    "trace",
    "unblock",
    "undo",
    "uninstall",
    "unlock",
    "unprotect",
    "unpublish",
    "unregister",
    "update",
    "use",
    "wait",
    "watch",
    "write",
];

/// Whether parsed PowerShell code uses syntax a POSIX shell reads otherwise or not at all:
/// a cmdlet by a name no POSIX program has (`Get-Content`, `iwr`), an assignment (`$x = …`), a
/// here-string (`@' … '@`), a type literal (`[IO.File]::…`), a member of an expression
/// (`(…).Lines`), a hash table, or a statement with a parenthesized condition (`if (…) {…}`,
/// `foreach ($f in $files) {…}`, `try {…}`).
fn powershell_only(root: tree_sitter::Node<'_>, code: &str) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "assignment_expression"
            | "expandable_here_string_literal"
            | "verbatim_here_string_characters"
            | "type_literal"
            | "member_access"
            | "hash_literal_expression"
            | "if_statement"
            | "foreach_statement"
            | "while_statement"
            | "try_statement"
            | "switch_statement"
            | "function_statement" => return true,
            "command_name" if powershell_command(crate::effects::inline::text(n, code)) => {
                return true;
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    false
}

/// The commands PowerShell code runs, as a shell analysis for the rules that test a command
/// line: the programs it starts (`git status`) and the POSIX commands its cmdlets equal
/// (`Remove-Item -Recurse x` is `rm -r -f -- x`); code that cannot be read is its `unsure`.
pub(crate) fn powershell_analysis(code: &str, cwd: Option<&str>) -> ShellAnalysis {
    let mut out = ShellAnalysis::default();
    let tree = match parse_code(code) {
        Ok(t) => t,
        Err(why) => {
            out.unsure = Some(format!("the PowerShell code {why}"));
            return out;
        }
    };
    if let Some(at) = first_error(tree.root_node(), code) {
        if posix_alike(code) {
            return crate::shell::BrushAnalyzer.analyze(code, cwd);
        }
        out.unsure = Some(format!(
            "the PowerShell code does not parse (line {}, column {})",
            at.row + 1,
            at.column + 1
        ));
    }
    let mut cx = Collect::new(cwd, false, &[], true);
    effects(&tree, code, &mut cx);
    for f in cx.found {
        match f {
            Found::Words {
                words, stdin, dir, ..
            } => {
                let a = analyze_words(words, stdin, dir.as_deref());
                out.commands.extend(a.commands);
                if out.unsure.is_none() {
                    out.unsure = a.unsure;
                }
            }
            Found::What(w) => {
                if let What::Unsure(u) = *w
                    && out.unsure.is_none()
                {
                    out.unsure = Some(u);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether PowerShell code means the same as a POSIX shell line, word for word: each
/// character outside quotes is a letter, a digit, a blank or one of `-_./:=+*?~^%#!`, `;`,
/// `|`, `>`, `&&`, or `@` before a name (`npm i @scope/pkg`); single-quoted text holds no
/// `''`, double-quoted text no `$`, backtick or backslash. Such code (`rg -n x -g"*.rs"`,
/// `npm i @angular/core`), when the PowerShell grammar does not take it, is read by the
/// shell lens rather than asked about: both shells run the same program with the same words.
pub(crate) fn posix_alike(code: &str) -> bool {
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next() {
                    None => return false,
                    Some('\'') if chars.peek() == Some(&'\'') => return false,
                    Some('\'') => break,
                    Some(_) => {}
                }
            },
            '"' => loop {
                match chars.next() {
                    None | Some('$' | '`' | '\\') => return false,
                    Some('"') => break,
                    Some(_) => {}
                }
            },
            '&' => {
                if chars.next() != Some('&') {
                    return false;
                }
            }
            '@' => {
                if !chars.peek().is_some_and(|n| n.is_ascii_alphanumeric()) {
                    return false;
                }
            }
            c if c.is_alphanumeric() || c.is_whitespace() => {}
            '-' | '_' | '.' | '/' | ':' | '=' | '+' | '*' | '?' | '~' | '^' | '%' | '#' | '!'
            | ';' | '|' | '>' => {}
            _ => return false,
        }
    }
    !command_words(code).iter().any(|w| powershell_command(w))
}

/// The aliases of cmdlets that do what the POSIX program of the same name does, so the shell
/// lens's reading of them is no weaker (`cat` reads, `rm` deletes, `curl` fetches).
const SAME_AS_POSIX: &[&str] = &[
    "cd", "ls", "cat", "echo", "pwd", "sort", "sleep", "clear", "pushd", "popd", "mkdir", "rm",
    "rmdir", "cp", "mv", "curl", "wget", "kill", "ps", "tee", "diff",
];

/// The first word of each command of a line whose quotes all close (`;`, `|`, `&&`, `||`
/// and line ends separate commands).
fn command_words(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in code.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ';' | '|' | '&' | '\n') => {
                if let Some(w) = code.get(start..i).and_then(|p| p.split_whitespace().next()) {
                    out.push(w);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if let Some(w) = code.get(start..).and_then(|p| p.split_whitespace().next()) {
        out.push(w);
    }
    out
}

/// Whether a command word names a cmdlet in a way no POSIX program is named: `Verb-Noun`
/// (`Get-Content`), or an alias of the table whose POSIX namesake, if any, does something
/// else (`iwr`, `iex`, `gc`, `type`, `del`).
fn powershell_command(word: &str) -> bool {
    let w = word.trim().trim_matches(['\'', '"']).to_ascii_lowercase();
    verb_noun(&w) || (cmdlet(&w).is_some() && !SAME_AS_POSIX.contains(&w.as_str()))
}

/// Whether a command word is a `Verb-Noun` name with an approved verb (`Get-Content`).
fn verb_noun(name: &str) -> bool {
    name.split_once('-').is_some_and(|(verb, noun)| {
        !noun.is_empty()
            && noun.bytes().all(|b| b.is_ascii_alphanumeric())
            && VERBS.contains(&verb.to_ascii_lowercase().as_str())
    })
}
