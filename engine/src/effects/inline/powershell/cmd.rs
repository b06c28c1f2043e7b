//! The cmd.exe lens: a `cmd /c` line (`rd /s /q build && del /f /q x.log`, `type .env |
//! curl …`, `echo x > f`).
//!
//! In: the line's text. Out, through [`Collect`]: the effects of cmd.exe's own commands
//! (`rd`/`rmdir`, `del`/`erase`, `type`, `copy`, `move`, `ren`, `md`, `echo` with
//! redirections, `cd`, `set`, `start`, `call`, `if exist …`), and every other command as a
//! program for the shell lens's table (`git`, `npm`, `powershell`, `robocopy`), with a file
//! read earlier in the same pipe (`type x | prog`) as its standard input. `&`, `&&`, `||`
//! and `|` separate commands; `^` escapes; `%NAME%` expands (`%USERPROFILE%` is the home).
//! A `for` loop's command is read with its loop variable only known at run time; every line
//! of a batch file is read, so a `goto` hides nothing.

use super::model::{lit, posix, program_word};
use super::words::{Vars, cmd_value, windows_path};
use crate::effects::inline::{Collect, Res};
use crate::effects::model::{PathRef, What};
use crate::shell::Arg;

/// One command of the line: its words (quotes kept), its redirections, and whether its
/// standard input is piped from the command before it.
struct Part {
    words: Vec<String>,
    redirects: Vec<(String, String)>,
    piped: bool,
}

/// Split a cmd.exe line into commands.
fn parts(line: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut cur = Part {
        words: Vec::new(),
        redirects: Vec::new(),
        piped: false,
    };
    let mut word = String::new();
    let mut pending_redirect: Option<String> = None;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    let push_word = |word: &mut String, cur: &mut Part, pending: &mut Option<String>| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        match pending.take() {
            Some(op) => cur.redirects.push((op, w)),
            None => cur.words.push(w),
        }
    };
    while let Some(c) = chars.next() {
        if quoted {
            word.push(c);
            if c == '"' {
                quoted = false;
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                word.push(c);
            }
            '^' => {
                word.push(c);
                if let Some(e) = chars.next() {
                    word.push(e);
                }
            }
            ' ' | '\t' | '(' | ')' => {
                push_word(&mut word, &mut cur, &mut pending_redirect);
            }
            '\r' => {}
            '&' | '|' | '\n' => {
                push_word(&mut word, &mut cur, &mut pending_redirect);
                let doubled = c != '\n' && chars.peek() == Some(&c);
                if doubled {
                    chars.next();
                }
                let next_piped = c == '|' && !doubled;
                let done = std::mem::replace(
                    &mut cur,
                    Part {
                        words: Vec::new(),
                        redirects: Vec::new(),
                        piped: next_piped,
                    },
                );
                if !done.words.is_empty() || !done.redirects.is_empty() {
                    out.push(done);
                }
            }
            '>' | '<' => {
                // `2>`, `1>>`: the descriptor is the word just read.
                if word == "1" || word == "2" {
                    word.clear();
                } else {
                    push_word(&mut word, &mut cur, &mut pending_redirect);
                }
                let mut op = c.to_string();
                if chars.peek() == Some(&'>') {
                    chars.next();
                    op.push('>');
                }
                if chars.peek() == Some(&'&') {
                    // `2>&1`: no file.
                    chars.next();
                    chars.next();
                    continue;
                }
                pending_redirect = Some(op);
            }
            _ => word.push(c),
        }
    }
    push_word(&mut word, &mut cur, &mut pending_redirect);
    if !cur.words.is_empty() || !cur.redirects.is_empty() {
        out.push(cur);
    }
    out
}

/// The effects of a cmd.exe line.
pub(crate) fn effects(line: &str, cx: &mut Collect<'_>) {
    let mut vars = Vars::new();
    let mut last_read: Option<Arg> = None;
    for mut part in parts(line) {
        // `@echo off`, `if exist x rd /s /q x`: the command after the condition.
        let mut words = condition_stripped(&mut part.words);
        // `for %%f in (*.log) do del %%f`: the command of the loop, its variable only known
        // at run time.
        if words.first().is_some_and(|w| w.eq_ignore_ascii_case("for")) {
            match words.iter().position(|w| w.eq_ignore_ascii_case("do")) {
                Some(k) => {
                    let mut rest = words.split_off(k + 1);
                    words = condition_stripped(&mut rest);
                }
                None => {
                    cx.unsure("a cmd.exe `for` loop whose command cannot be read".into());
                    continue;
                }
            }
        }
        // A label (`:build`) runs nothing.
        if words.first().is_some_and(|w| w.starts_with(':')) {
            continue;
        }
        let values: Vec<Arg> = words.iter().map(|w| cmd_value(w, &vars)).collect();
        for (op, file) in &part.redirects {
            let f = cmd_value(file, &vars);
            let lower = f.text.to_ascii_lowercase();
            if lower == "nul" || lower.is_empty() {
                continue;
            }
            if op == "<" {
                cx.push(What::Read(path(&f, cx)));
                last_read = Some(f);
            } else {
                let content = (values
                    .first()
                    .is_some_and(|v| v.text.eq_ignore_ascii_case("echo")))
                .then(|| {
                    values[1..]
                        .iter()
                        .map(|v| v.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let k = cx.push(What::Write {
                    path: path(&f, cx),
                    append: op == ">>",
                    content: None,
                });
                cx.set_content(k, content);
            }
        }
        let Some(first) = values.first() else {
            continue;
        };
        let stdin = if part.piped { last_read.take() } else { None };
        let name = first.text.trim_start_matches('@').to_ascii_lowercase();
        let (switches, operands): (Vec<&Arg>, Vec<&Arg>) = values[1..].iter().partition(|a| {
            a.text.starts_with('/') && a.text.len() <= 3 && !a.text[1..].contains('/')
        });
        let has = |s: &str| switches.iter().any(|a| a.text.eq_ignore_ascii_case(s));
        let files: Vec<Arg> = operands.iter().map(|a| (*a).clone()).collect();
        match name.as_str() {
            "rd" | "rmdir" | "del" | "erase" => {
                let flags = if has("/s") {
                    vec![lit("-r"), lit("-f")]
                } else {
                    vec![lit("-f")]
                };
                posix(cx, &name, "rm", &flags, files, &[]);
            }
            "type" => {
                last_read = files.last().cloned();
                posix(cx, &name, "cat", &[], files, &[]);
            }
            "copy" | "move" | "xcopy" => {
                // `copy a+b c`: each of `a` and `b` is a source.
                let (srcs, dest) = match files.split_last() {
                    Some((d, s)) if !s.is_empty() => (s.to_vec(), d.clone()),
                    _ => (files.clone(), lit(".")),
                };
                let srcs: Vec<Arg> = srcs
                    .iter()
                    .flat_map(|s| {
                        s.text.split('+').map(|piece| Arg {
                            text: piece.to_string(),
                            dynamic: s.dynamic,
                        })
                    })
                    .collect();
                let (program, flags) = match name.as_str() {
                    "move" => ("mv", vec![]),
                    "xcopy" if has("/s") || has("/e") => ("cp", vec![lit("-r")]),
                    _ => ("cp", vec![]),
                };
                posix(cx, &name, program, &flags, srcs, &[dest]);
            }
            "robocopy" => {
                let purge = switches.iter().any(|s| {
                    s.text.eq_ignore_ascii_case("/mir") || s.text.eq_ignore_ascii_case("/purge")
                });
                let (src, dest) = (files.first().cloned(), files.get(1).cloned());
                if let (Some(src), Some(dest)) = (src, dest) {
                    if purge {
                        posix(
                            cx,
                            &name,
                            "rsync",
                            &[lit("-a"), lit("--delete")],
                            vec![src],
                            &[dest],
                        );
                    } else {
                        posix(cx, &name, "cp", &[lit("-r")], vec![src], &[dest]);
                    }
                }
            }
            "ren" | "rename" => {
                if let (Some(a), Some(b)) = (files.first(), files.get(1)) {
                    let folder = a.text.rsplit_once('/').map(|(d, _)| d);
                    let text = match folder {
                        Some(f) if !b.text.contains('/') => format!("{f}/{}", b.text),
                        _ => b.text.clone(),
                    };
                    let to = Arg {
                        text,
                        dynamic: b.dynamic,
                    };
                    posix(cx, &name, "mv", &[], vec![a.clone()], &[to]);
                }
            }
            "md" | "mkdir" => posix(cx, &name, "mkdir", &[lit("-p")], files, &[]),
            "cd" | "chdir" | "pushd" => {
                let dir = operands
                    .first()
                    .filter(|d| !d.dynamic)
                    .map(|d| Res::lit(d.text.clone()).expand_user());
                if dir.is_some() || !operands.is_empty() {
                    cx.chdir(dir, &name);
                }
            }
            "set" => {
                let rest: Vec<&str> = words[1..].iter().map(String::as_str).collect();
                let rest = rest.join(" ");
                if let Some((k, v)) = rest.trim_matches('"').split_once('=')
                    && !k.starts_with('/')
                {
                    let v = cmd_value(v, &vars);
                    let lower = k.trim().to_ascii_lowercase();
                    let value = (!v.dynamic).then_some(v.text);
                    vars.entry(lower).and_modify(|x| *x = None).or_insert(value);
                }
            }
            // Every line is read, so a jump hides nothing.
            "goto" | "echo" | "rem" | "::" | "cls" | "ver" | "title" | "pause" | "exit"
            | "setlocal" | "endlocal" | "color" | "chcp" | "dir" | "popd" | "vol" | "path"
            | "prompt" | "where" | "verify" | "break" | "shift" => {}
            "start" => {
                // `start "title" /wait prog args`: the program after the title and switches.
                let mut rest: Vec<Arg> = values[1..].to_vec();
                if words.get(1).is_some_and(|w| w.starts_with('"')) {
                    rest.remove(0);
                }
                let rest: Vec<Arg> = rest
                    .into_iter()
                    .skip_while(|a| a.text.starts_with('/'))
                    .collect();
                run(rest, None, "start", cx);
            }
            "call" => run(values[1..].to_vec(), stdin, "call", cx),
            _ => run(values.clone(), stdin, "", cx),
        }
    }
}

/// `if [/i] [not] exist X …`, `if errorlevel 1 …`, `if "a"=="b" …`, `@cmd`: the words of the
/// command the condition guards.
fn condition_stripped(words: &mut Vec<String>) -> Vec<String> {
    let mut w: Vec<String> = std::mem::take(words);
    if let Some(first) = w.first_mut()
        && first.starts_with('@')
    {
        *first = first.trim_start_matches('@').to_string();
    }
    loop {
        if !w.first().is_some_and(|f| f.eq_ignore_ascii_case("if")) {
            return w;
        }
        let mut k = 1;
        while w
            .get(k)
            .is_some_and(|x| x.eq_ignore_ascii_case("/i") || x.eq_ignore_ascii_case("not"))
        {
            k += 1;
        }
        let skip = match w.get(k).map(|x| x.to_ascii_lowercase()) {
            Some(x)
                if x == "exist" || x == "errorlevel" || x == "defined" || x == "cmdextversion" =>
            {
                2
            }
            Some(x) if x.contains("==") => 1,
            _ => match w.get(k + 1).map(|x| x.to_ascii_lowercase()) {
                Some(op)
                    if op == "=="
                        || ["equ", "neq", "lss", "leq", "gtr", "geq"].contains(&op.as_str()) =>
                {
                    3
                }
                _ => 1,
            },
        };
        w = w.split_off((k + skip).min(w.len()));
    }
}

/// A program and its words, for the shell lens's table.
fn run(values: Vec<Arg>, stdin: Option<Arg>, who: &str, cx: &mut Collect<'_>) {
    let Some(first) = values.first() else {
        return;
    };
    if first.dynamic {
        cx.unsure(format!(
            "a cmd.exe line runs `{}`, a program known only at run time",
            first.text
        ));
        return;
    }
    let mut words = vec![program_word(first)];
    words.extend(values.into_iter().skip(1));
    cx.words(who, words, stdin);
}

/// A path from a cmd.exe word.
fn path(a: &Arg, cx: &Collect<'_>) -> PathRef {
    PathRef {
        text: windows_path(&a.text),
        dynamic: a.dynamic,
        cwd: cx.cwd.clone(),
    }
}
