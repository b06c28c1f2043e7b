//! The code a command runs, found in its words: `-c CODE` / `-e CODE` option values, `deno
//! eval CODE`, the standard input of an interpreter given no script (`python3 - <<EOF`), and the
//! command lines of `powershell.exe` / `pwsh` (`-Command`, `-EncodedCommand`, `-File`, with
//! PowerShell's parameter prefixes and either `-` or `/`), of `cmd.exe` (`/c`, `/k`) and of
//! `osascript` (`-e` lines, `-l JavaScript`, standard input).
//!
//! In: a simple command and its row's parse ([`Parsed`]). Out: a [`CodeRun`] per piece of code
//! (who runs it, its language, the code, the argument vector the code sees). The shell lens
//! pushes each as a nested item; the inline-code lens reads it. Knowledge of command lines
//! only: no lens is called here.

use super::language::Language;
use super::programs::{OSASCRIPT_VALUED, Parsed, Role, stdin_language};
use crate::shell::{Arg, RedirectMode, SimpleCommand};
use std::borrow::Cow;

/// Code an interpreter on a command line runs: who runs it, its language, the code, and the
/// argument vector the code sees.
#[derive(Debug, Clone)]
pub(crate) struct CodeRun {
    /// How it runs, for the route's `via` (`python3 -c`, `node <<stdin`, `deno eval`).
    pub(crate) who: String,
    /// Its language.
    pub(crate) lang: Language,
    /// The code as the shell passes it.
    pub(crate) code: Arg,
    /// `sys.argv` / `process.argv` as the code sees it; `None` for an argument known only at
    /// run time.
    pub(crate) argv: Vec<Option<String>>,
}

/// The code of `node -p EXPR` / `--print EXPR` (and deno's, bun's): node(1) evaluates EXPR
/// like `-e` and prints its value, so a single expression reads as `console.log((EXPR))`
/// (`node -p process.env.NPM_TOKEN` prints the token). Statements (`a; b`, several lines)
/// are left as they are: only the last one's value is printed.
fn printed_value(option: &str, lang: Language, code: &Arg) -> Arg {
    let prints = matches!(option, "-p" | "--print")
        && matches!(lang, Language::JavaScript | Language::TypeScript);
    if !prints || code.dynamic || code.text.contains([';', '\n']) || code.text.trim().is_empty() {
        return code.clone();
    }
    Arg {
        text: format!("console.log(({}))", code.text),
        dynamic: false,
    }
}

/// The code a command runs: `-c CODE` / `-e CODE` option values, `deno eval CODE`, and the
/// standard input of an interpreter given no script (`python3 - <<EOF`, `node <<< '…'`).
pub(crate) fn code_runs(c: &SimpleCommand, p: &Parsed) -> Vec<CodeRun> {
    let mut out = Vec::new();
    // `powershell -Command …`, `cmd /c …`, `osascript -e …`: their own command-line syntax.
    if let Some(run) = windows_code_run(c).or_else(|| osascript(c)) {
        out.push(run);
        return out;
    }
    let base = c.basename();
    let known = |a: &Arg| (!a.dynamic).then(|| a.text.clone());
    // The words after the code.
    let rest: Vec<Option<String>> = p
        .operands
        .iter()
        .filter(|(r, _)| !matches!(r, Role::Code(_)))
        .map(|(_, a)| known(a))
        .collect();
    for (option, lang, code) in &p.codes {
        let first = match lang {
            Language::Python => "-c",
            _ => base,
        };
        let mut argv = vec![Some(first.to_string())];
        argv.extend(rest.iter().cloned());
        out.push(CodeRun {
            who: format!("{base} {option}"),
            lang: *lang,
            code: printed_value(option, *lang, code),
            argv,
        });
    }
    for (role, code) in &p.operands {
        if let Role::Code(lang) = role {
            out.push(CodeRun {
                who: format!("{base} {}", p.sub.join(" ")).trim_end().to_string(),
                lang: *lang,
                code: code.clone(),
                argv: Vec::new(),
            });
        }
    }
    // An interpreter given no script reads its code from standard input.
    if let Some(lang) = stdin_language(base)
        && p.row.subs.is_empty()
        && !p.lead_given
        && (p
            .operands
            .first()
            .is_none_or(|(_, a)| matches!(a.text.as_str(), "-" | "/dev/stdin") && !a.dynamic)
            || r_file_is_stdin(base, &c.args))
        && (base != "Rscript" || !p.operands.is_empty())
        && let Some(text) = c
            .redirections
            .iter()
            .rev()
            .find(|r| r.mode == RedirectMode::Text)
    {
        let argv = match lang {
            // `python3 - a b`: `sys.argv` is `['-', 'a', 'b']`; with no `-`, `['']`.
            Language::Python if rest.is_empty() => vec![Some(String::new())],
            Language::Python => rest.clone(),
            _ => Vec::new(),
        };
        out.push(CodeRun {
            who: format!("{base} <<stdin"),
            lang,
            code: text.target.clone(),
            argv,
        });
    }
    out
}

/// The options of `powershell.exe` / `pwsh` that take a value (lower case, full names).
const VALUED: &[&str] = &[
    "executionpolicy",
    "ep",
    "ex",
    "windowstyle",
    "w",
    "inputformat",
    "inf",
    "if",
    "outputformat",
    "of",
    "o",
    "configurationname",
    "config",
    "workingdirectory",
    "wd",
    "settingsfile",
    "psconsolefile",
    "version",
    "v",
    "custompipename",
    "configurationfile",
    "encodedarguments",
    "ea",
];

/// `R -f /dev/stdin`, `R --file=-`: R(1) reads its code from the file `-f` names, here
/// standard input.
fn r_file_is_stdin(base: &str, args: &[Arg]) -> bool {
    base == "R"
        && args.iter().enumerate().any(|(k, a)| {
            let file = match a.text.strip_prefix("--file=") {
                Some(f) => Some(f),
                None if a.text == "-f" => args.get(k + 1).map(|n| n.text.as_str()),
                None => None,
            };
            matches!(file, Some("-" | "/dev/stdin"))
        })
}

/// The code a `powershell` / `pwsh` / `cmd` command runs, if it is one.
fn windows_code_run(c: &SimpleCommand) -> Option<CodeRun> {
    if c.dynamic_program {
        return None;
    }
    let name = c.basename();
    match name {
        "powershell" | "pwsh" => powershell(c, name),
        "cmd" => cmd(c),
        "runas" => run_as(c),
        "wmic" => wmic(c),
        _ => None,
    }
}

/// A cmd.exe line run by `who`.
fn cmd_line(who: String, text: String, dynamic: bool) -> CodeRun {
    CodeRun {
        who,
        lang: Language::Cmd,
        code: Arg { text, dynamic },
        argv: Vec::new(),
    }
}

/// `runas [/savecred] /user:NAME "PROGRAM ARGS"`: the command line (its one operand; the
/// options are `/` words) runs as NAME, read as a cmd.exe line.
fn run_as(c: &SimpleCommand) -> Option<CodeRun> {
    let line = c.args.iter().find(|a| !a.text.starts_with('/'))?;
    let user = c
        .args
        .iter()
        .find(|a| a.text.to_ascii_lowercase().starts_with("/user:"))
        .map_or_else(|| "runas".to_string(), |u| format!("runas {}", u.text));
    Some(cmd_line(user, line.text.clone(), line.dynamic))
}

/// `wmic [/node:HOST …] process call create "LINE"` (also `CommandLine="LINE"`): Win32_Process
/// Create runs LINE, read as a cmd.exe line. Other `wmic` verbs run nothing.
fn wmic(c: &SimpleCommand) -> Option<CodeRun> {
    let lower: Vec<String> = c.args.iter().map(|a| a.text.to_ascii_lowercase()).collect();
    let process = lower.iter().position(|w| w == "process")?;
    let k = lower
        .windows(2)
        .skip(process)
        .position(|w| w[0] == "call" && w[1] == "create")?
        + process;
    let rest = c.args.get(k + 2..).unwrap_or_default();
    if rest.is_empty() {
        return None;
    }
    let text: Vec<&str> = rest
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let t = a.text.as_str();
            match t.split_once('=') {
                Some((key, v)) if i == 0 && key.eq_ignore_ascii_case("commandline") => v,
                _ => t,
            }
        })
        .collect();
    Some(cmd_line(
        "wmic process call create".into(),
        text.join(" "),
        rest.iter().any(|a| a.dynamic),
    ))
}

/// `powershell.exe -NoProfile -Command "…"`: PowerShell code. The words after `-Command`
/// are joined with blanks; `-EncodedCommand` is base64 of UTF-16LE text; `-File x.ps1 a`
/// runs the script; a first operand is `-Command` for `powershell.exe` and `-File` for
/// `pwsh`.
fn powershell(c: &SimpleCommand, name: &str) -> Option<CodeRun> {
    let args = &c.args;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.to_ascii_lowercase();
        let opt = t.strip_prefix('-').or_else(|| t.strip_prefix('/'));
        let Some(opt) = opt.filter(|o| !o.is_empty() && !a.dynamic) else {
            // The first operand.
            let rest = &args[i..];
            return Some(if name == "pwsh" {
                file_run(rest, name)
            } else {
                command_run(rest, name, "-Command")
            });
        };
        if opt == "-" {
            // `--`: what follows is a script and its arguments (pwsh) or the command.
            let rest = args.get(i + 1..).unwrap_or_default();
            return Some(file_run(rest, name));
        }
        if "command".starts_with(opt) && opt.starts_with('c') {
            let rest = args.get(i + 1..).unwrap_or_default();
            // `-Command -`: the code comes from standard input (the shell lens's pipes).
            if rest.first().is_some_and(|a| a.text == "-") {
                return None;
            }
            return Some(command_run(rest, name, "-Command"));
        }
        if ("encodedcommand".starts_with(opt) && opt.starts_with('e')) || opt == "ec" {
            let value = args.get(i + 1)?;
            let code = if value.dynamic {
                value.clone()
            } else {
                match decode_utf16_base64(&value.text) {
                    Some(t) => Arg {
                        text: t,
                        dynamic: false,
                    },
                    None => Arg {
                        // Not base64 of UTF-16 text: PowerShell refuses it; read as unknown.
                        text: value.text.clone(),
                        dynamic: true,
                    },
                }
            };
            return Some(CodeRun {
                who: format!("{name} -EncodedCommand"),
                lang: Language::PowerShell,
                code,
                argv: Vec::new(),
            });
        }
        if "file".starts_with(opt) && opt.starts_with('f') {
            return Some(file_run(args.get(i + 1..).unwrap_or_default(), name));
        }
        if VALUED.contains(&opt) {
            i += 1;
        }
        i += 1;
    }
    None
}

/// Code made of the words after `-Command`.
fn command_run(rest: &[Arg], name: &str, option: &str) -> CodeRun {
    let text: Vec<&str> = rest.iter().map(|a| a.text.as_str()).collect();
    CodeRun {
        who: format!("{name} {option}"),
        lang: Language::PowerShell,
        code: Arg {
            text: text.join(" "),
            dynamic: rest
                .iter()
                .any(|a| a.dynamic && !powershell_scoped_only(&a.text)),
        },
        argv: Vec::new(),
    }
}

/// Whether every `$` of a word is a PowerShell scoped variable (`$env:PATH`, `$global:x`,
/// `$script:n`): `NAME:` right after the `$`. Written in a double-quoted shell word (`pwsh
/// -Command "$env:PATH -split ';'"`), bash would expand `$env` (a shell variable nobody sets)
/// and leave `:PATH`; the author means PowerShell's variable, so the code is read as written
/// and judged by what it names. Any other expansion (`$HOME`, `$(…)`, a backquote), and an
/// environment variable whose name says it holds a secret (`$env:GITHUB_TOKEN`: the PowerShell
/// lens does not judge what prints it), keep the code unknown until run time.
fn powershell_scoped_only(text: &str) -> bool {
    if text.contains('`') {
        return false;
    }
    text.match_indices('$').all(|(i, _)| {
        let after = &text[i + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let scope = after[..name_len].to_ascii_lowercase();
        let Some(var) = after[name_len..].strip_prefix(':') else {
            return false;
        };
        let var_len = var
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(var.len());
        let var = &var[..var_len];
        matches!(
            scope.as_str(),
            "env" | "global" | "script" | "local" | "private" | "using" | "variable"
        ) && var.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !(scope == "env" && crate::audit::secret_variable(var))
    })
}

/// `-File x.ps1 a b`: the script run by path with its arguments, as PowerShell code that
/// calls it (`& 'x.ps1' 'a' 'b'`).
fn file_run(rest: &[Arg], name: &str) -> CodeRun {
    // `-File x.ps1` runs `x.ps1` of the working folder (where `& x.ps1` would look it up
    // on `PATH`).
    let quoted: Vec<String> = rest
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let t = if i == 0 && !a.text.contains(['/', '\\']) {
                format!("./{}", a.text)
            } else {
                a.text.clone()
            };
            format!("'{}'", t.replace('\'', "''"))
        })
        .collect();
    CodeRun {
        who: format!("{name} -File"),
        lang: Language::PowerShell,
        code: Arg {
            text: format!("& {}", quoted.join(" ")),
            dynamic: rest.iter().any(|a| a.dynamic),
        },
        argv: Vec::new(),
    }
}

/// `cmd /c LINE` / `cmd /k LINE`: the rest of the words, joined, is a cmd.exe line. A lone
/// word is the line as written (`cmd /c "rd /s /q x"`: cmd strips the outer quotes). Of
/// several, a word with a blank in it is quoted again, as the C runtime's rules and Git Bash
/// pass it to a Windows program (`cmd /c reg add "HKLM\…\Windows Defender" /f` gives reg
/// one key, not two words).
fn cmd(c: &SimpleCommand) -> Option<CodeRun> {
    let k = c.args.iter().position(|a| {
        let t = a.text.to_ascii_lowercase();
        t == "/c" || t == "/k" || t == "/r"
    })?;
    let rest = c.args.get(k + 1..).unwrap_or_default();
    let text: Vec<Cow<'_, str>> = match rest {
        [one] => vec![Cow::Borrowed(one.text.as_str())],
        _ => rest
            .iter()
            .map(|a| {
                let t = a.text.as_str();
                if t.contains([' ', '\t']) && !t.contains('"') {
                    Cow::Owned(format!("\"{t}\""))
                } else {
                    Cow::Borrowed(t)
                }
            })
            .collect(),
    };
    Some(CodeRun {
        who: "cmd /c".into(),
        lang: Language::Cmd,
        code: Arg {
            text: text.join(" "),
            dynamic: rest.iter().any(|a| a.dynamic),
        },
        argv: Vec::new(),
    })
}

/// The language osascript(1) runs a script in: the one `-l` names (`-l JavaScript`: JavaScript
/// for Automation), AppleScript by default. A language only known at run time is read as
/// AppleScript, whose reader finds no call in JavaScript.
pub(crate) fn osascript_language(args: &[Arg]) -> Language {
    let mut named = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        i += 1;
        if t == "-l" {
            named = args.get(i).map(|a| a.text.as_str());
            i += 1;
        } else if let Some(l) = t.strip_prefix("-l") {
            named = Some(l);
        } else if OSASCRIPT_VALUED.contains(&t) || t == "-e" {
            i += 1;
        } else if t == "--" || !t.starts_with('-') || t == "-" {
            break;
        }
    }
    match named {
        Some(l) if l.eq_ignore_ascii_case("javascript") => Language::JavaScript,
        _ => Language::AppleScript,
    }
}

/// `osascript -e LINE [-e LINE…] [ARG…]`, `osascript -l JavaScript -e CODE`, `osascript
/// <<EOF`, `echo … | osascript`: osascript(1) runs the `-e` statements as the lines of one
/// script, or, given neither statements nor a script file (or `-` or `/dev/stdin` as the
/// file), its standard input, in the language of `-l`. A script file is the scripts lens's (`osascript x.scpt`).
fn osascript(c: &SimpleCommand) -> Option<CodeRun> {
    if c.dynamic_program || c.basename() != "osascript" {
        return None;
    }
    let lang = osascript_language(&c.args);
    let mut lines: Vec<Arg> = Vec::new();
    let mut file: Option<&Arg> = None;
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        i += 1;
        if t == "-e" {
            lines.push(c.args.get(i)?.clone());
            i += 1;
        } else if let Some(line) = t.strip_prefix("-e") {
            lines.push(Arg {
                text: line.to_string(),
                dynamic: a.dynamic,
            });
        } else if OSASCRIPT_VALUED.contains(&t) {
            i += 1;
        } else if t == "--" {
            file = c.args.get(i);
            break;
        } else if !t.starts_with('-') || t == "-" {
            file = Some(a);
            break;
        }
    }
    let shown = match lang {
        Language::JavaScript => "osascript -l JavaScript",
        _ => "osascript",
    };
    if !lines.is_empty() {
        let text: Vec<&str> = lines.iter().map(|a| a.text.as_str()).collect();
        return Some(CodeRun {
            who: format!("{shown} -e"),
            lang,
            code: Arg {
                text: text.join("\n"),
                dynamic: lines.iter().any(|a| a.dynamic),
            },
            argv: Vec::new(),
        });
    }
    // `osascript -`, `osascript /dev/stdin`: the script is standard input too.
    if file.is_some_and(|f| !matches!(f.text.as_str(), "-" | "/dev/stdin") || f.dynamic) {
        return None;
    }
    let text = c
        .redirections
        .iter()
        .rev()
        .find(|r| r.mode == RedirectMode::Text)?;
    Some(CodeRun {
        who: format!("{shown} <<stdin"),
        lang,
        code: text.target.clone(),
        argv: Vec::new(),
    })
}

/// Base64 of UTF-16LE text (`-EncodedCommand`), decoded; `None` when it is not that.
pub(crate) fn decode_utf16_base64(s: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut n = 0u32;
    let mut bytes = Vec::new();
    for c in s.trim().bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            bytes.push(((bits >> n) & 0xff) as u8);
        }
    }
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod scoped_tests {
    use super::powershell_scoped_only;

    /// PowerShell's scoped variables in a double-quoted shell word are PowerShell's; a shell
    /// expansion or a secret-named environment variable is not read as written.
    #[test]
    fn powershell_scoped_variables_are_read_as_written() {
        for t in [
            "$env:PATH -split ';'",
            "$env:TEMP\\x; $global:n = 1",
            "Write-Output $script:x",
        ] {
            assert!(powershell_scoped_only(t), "{t}");
        }
        for t in [
            "$HOME/x",
            "$env:GITHUB_TOKEN",
            "$(whoami)",
            "`id`",
            "${env:PATH}",
            "$env:",
        ] {
            assert!(!powershell_scoped_only(t), "{t}");
        }
    }
}

#[cfg(test)]
mod cmd_tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::cmd;
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    /// The cmd.exe line `cmd /c …` runs, from a bash line.
    fn line(bash: &str) -> String {
        let a = BrushAnalyzer.analyze(bash, None);
        let c = a.commands.first().unwrap();
        cmd(c).unwrap().code.text
    }

    #[test]
    fn cmd_c_quotes_a_word_with_a_blank_again_and_keeps_a_lone_line() {
        assert_eq!(
            line(r#"cmd /c reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender" /f"#),
            r#"reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender" /f"#
        );
        assert_eq!(line(r#"cmd /c "rd /s /q C:\x""#), r"rd /s /q C:\x");
        assert_eq!(line("cmd /c echo hi there"), "echo hi there");
    }
}
