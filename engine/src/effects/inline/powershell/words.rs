//! Argument words of PowerShell and cmd.exe: quote removal, variable expansion and Windows
//! paths as the effect model names them.
//!
//! In: the source text of one command argument (`'a b'`, `"$env:USERPROFILE\.ssh"`,
//! `.\target`, `a,b`, `%USERPROFILE%\x`) and the variables bound to literals earlier in the
//! same code. Out: its values as [`Arg`]s (an array argument has several), with `dynamic` set
//! when part of one is only known at run time, and paths in the effect model's spelling: `/`
//! separators, the home folder as `~` (`~`, `$HOME`, `$env:USERPROFILE`, `%USERPROFILE%`, a
//! profile folder `C:\Users\<name>`), a drive as `/c/…` (as Git Bash names it), the
//! temporary folder as `/tmp`.

use std::collections::HashMap;

use crate::shell::Arg;

/// Variables bound once to a literal value in the code (`$p = "a.txt"`), by lower-case name;
/// a name bound more than once maps to `None`.
pub(super) type Vars = HashMap<String, Option<String>>;

/// The value of a well-known variable (lower case, with its scope: `env:userprofile`).
fn known_variable(name: &str) -> Option<&'static str> {
    Some(match name {
        "home" | "env:userprofile" | "env:home" | "env:homepath" => "~",
        // `$env:HOMEDRIVE$env:HOMEPATH` is the home folder.
        "env:homedrive" => "",
        "env:temp" | "env:tmp" => "/tmp",
        "env:appdata" => "~/AppData/Roaming",
        "env:localappdata" => "~/AppData/Local",
        "env:systemroot" | "env:windir" => "C:/Windows",
        "env:programfiles" => "C:/Program Files",
        "env:programdata" | "env:allusersprofile" => "C:/ProgramData",
        "pwd" => ".",
        "true" => "True",
        "false" => "False",
        "null" => "",
        _ => return None,
    })
}

/// The value of `$name` (`name` as written, without `$`): a well-known variable, or one bound
/// once to a literal; `None` when it is only known at run time.
fn variable(name: &str, vars: &Vars) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if let Some(v) = known_variable(&lower) {
        return Some(v.to_string());
    }
    vars.get(&lower).cloned().flatten()
}

/// The values of one PowerShell argument as written.
///
/// `'…'` is verbatim (`''` is a quote); `"…"` and bare words expand `$name`, `${name}` and
/// backtick escapes; `$(…)`, `(…)`, `@(…)`, `{…}` and `[type]::…` are computed at run time.
/// Commas outside quotes and brackets make an array: `a,b` is two values.
pub(super) fn ps_values(text: &str, vars: &Vars) -> Vec<Arg> {
    split_top(text, ',')
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| ps_value(p.trim(), vars))
        .collect()
}

/// One value of a PowerShell argument (no top-level comma).
/// `(Join-Path A B)` (also `-Path A -ChildPath B`): `A/B`, its parts read as values; `None`
/// for any other text.
pub(super) fn join_path(text: &str, vars: &Vars) -> Option<Arg> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?.trim();
    let words = shell_words(inner)?;
    let (name, rest) = words.split_first()?;
    if !name.eq_ignore_ascii_case("join-path") {
        return None;
    }
    let mut parts: Vec<Arg> = Vec::new();
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        if w.starts_with('-') {
            let p = w.trim_start_matches('-').to_ascii_lowercase();
            if !matches!(p.as_str(), "path" | "childpath" | "additionalchildpath") {
                return None;
            }
            parts.push(ps_value(it.next()?, vars));
        } else {
            parts.push(ps_value(w, vars));
        }
    }
    if parts.len() < 2 {
        return None;
    }
    let dynamic = parts.iter().any(|a| a.dynamic);
    let mut out = parts[0].text.trim_end_matches(['/', '\\']).to_string();
    for p in &parts[1..] {
        out.push('/');
        out.push_str(p.text.trim_start_matches(['/', '\\']));
    }
    Some(Arg { text: out, dynamic })
}

/// The words of a command's text, split at blanks outside quotes and parentheses (`None`
/// with a quote or a parenthesis left open, a script block or a pipeline).
fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            // `Join-Path $root (Split-Path $f -Leaf)`: a parenthesized command is one word.
            (None, '(') => {
                depth += 1;
                cur.push(c);
            }
            (None, ')') if depth > 0 => {
                depth -= 1;
                cur.push(c);
            }
            (None, c) if depth > 0 => cur.push(c),
            (None, ')' | '{' | '}' | '|' | ';') => return None,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() || depth > 0 {
        return None;
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    Some(words)
}

/// `(Split-Path X -Leaf)`: the last part of `X`; `(Split-Path X)` / `-Parent`: the folder
/// above it; `None` for any other text.
fn split_path(text: &str, vars: &Vars) -> Option<Arg> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?.trim();
    let words = shell_words(inner)?;
    let (name, rest) = words.split_first()?;
    if !name.eq_ignore_ascii_case("split-path") {
        return None;
    }
    let mut path: Option<Arg> = None;
    let mut leaf = false;
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        match w.to_ascii_lowercase().as_str() {
            "-leaf" => leaf = true,
            "-parent" => leaf = false,
            "-path" | "-literalpath" => path = Some(ps_value(it.next()?, vars)),
            o if o.starts_with('-') => return None,
            _ if path.is_none() => path = Some(ps_value(w, vars)),
            _ => return None,
        }
    }
    let p = path?;
    let t = p.text.trim_end_matches('/');
    let (folder, last) = t.rsplit_once('/').unwrap_or((".", t));
    Some(Arg {
        text: if leaf { last } else { folder }.to_string(),
        dynamic: p.dynamic,
    })
}

fn ps_value(text: &str, vars: &Vars) -> Arg {
    if let Some(joined) = join_path(text, vars).or_else(|| split_path(text, vars)) {
        return joined;
    }
    if text.starts_with(['(', '@', '{', '[']) || text.starts_with("$(") {
        return Arg {
            text: text.to_string(),
            dynamic: true,
        };
    }
    let mut out = String::new();
    let mut dynamic = false;
    let mut chars = text.chars().peekable();
    // `None`: unquoted; `Some('\'')` / `Some('"')`: inside that quote.
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
                out.push('\'');
            }
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), _) => out.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (_, '`') => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => {}
                Some(e) => out.push(e),
                None => {}
            },
            (_, '$') => match chars.peek() {
                Some('(') => {
                    // `$(…)`: a subexpression, run at run time.
                    dynamic = true;
                    out.push('$');
                    let mut depth = 0usize;
                    for k in chars.by_ref() {
                        out.push(k);
                        match k {
                            '(' => depth += 1,
                            ')' => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Some('{') => {
                    chars.next();
                    let name: String = chars.by_ref().take_while(|&k| k != '}').collect();
                    let _ = expand(&name, vars, &mut out, &mut dynamic);
                }
                Some(&k) if k.is_alphanumeric() || k == '_' || k == '?' => {
                    let mut name = String::new();
                    while let Some(&k) = chars.peek() {
                        // `$env:NAME`: a scope or drive qualifier, once.
                        let scoped = k == ':'
                            && !name.contains(':')
                            && matches!(
                                name.to_ascii_lowercase().as_str(),
                                "env" | "global" | "script" | "local" | "private" | "using"
                            );
                        if k.is_alphanumeric() || k == '_' || scoped {
                            name.push(k);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    if name.is_empty() {
                        // `$?`, `$$`, `$^`: automatic variables.
                        if let Some(k) = chars.next() {
                            name.push(k);
                        }
                    }
                    let at = out.len();
                    let known = expand(&name, vars, &mut out, &mut dynamic);
                    if quote.is_none() && chars.peek() == Some(&'.') {
                        member(&mut chars, &mut out, at, known, &mut dynamic);
                    }
                }
                _ => out.push('$'),
            },
            _ => out.push(c),
        }
    }
    Arg {
        text: windows_path(&out),
        dynamic,
    }
}

/// `$f.FullName` in a bare word: the path of an item is the item; `.Name` is its last part;
/// any other member is only known at run time.
fn member(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    out: &mut String,
    at: usize,
    known: bool,
    dynamic: &mut bool,
) {
    let mut probe = chars.clone();
    probe.next();
    let name: String = probe
        .take_while(|k| k.is_alphanumeric() || *k == '_')
        .collect();
    if name.is_empty() {
        return;
    }
    chars.next();
    for _ in 0..name.chars().count() {
        chars.next();
    }
    match name.to_ascii_lowercase().as_str() {
        "fullname" | "pspath" | "path" | "providerpath" if known => {}
        "name" if known => {
            let item = out.split_off(at);
            out.push_str(item.rsplit('/').next().unwrap_or(&item));
        }
        _ => {
            *dynamic = true;
            out.push('.');
            out.push_str(&name);
        }
    }
}

/// Append the value of `$name` to `out`, or its spelling (and mark the word dynamic);
/// whether it was known.
fn expand(name: &str, vars: &Vars, out: &mut String, dynamic: &mut bool) -> bool {
    let bare = name
        .strip_prefix("script:")
        .or_else(|| name.strip_prefix("global:"))
        .or_else(|| name.strip_prefix("local:"))
        .unwrap_or(name);
    match variable(bare, vars) {
        Some(v) => {
            out.push_str(&v);
            true
        }
        None => {
            *dynamic = true;
            out.push('$');
            out.push_str(name);
            false
        }
    }
}

/// `text` split at `sep` outside quotes, brackets and braces.
pub(super) fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<char>, 0usize);
    let mut prev_tick = false;
    for (i, c) in text.char_indices() {
        if prev_tick {
            prev_tick = false;
            continue;
        }
        match (quote, c) {
            (_, '`') if quote != Some('\'') => prev_tick = true,
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '{' | '[') => depth += 1,
            (None, ')' | '}' | ']') => depth = depth.saturating_sub(1),
            (None, _) if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A Windows path in the effect model's spelling: `\\` as `/`, an absolute path as
/// [`crate::paths::windows_spelling`] spells it (a profile folder `C:\\Users\\<name>` as
/// `~`, another drive path as `/c/…`), a provider-qualified file-system path
/// (`FileSystem::C:\\x`) as the path. Text that is no path is unchanged but for its
/// separators.
pub(crate) fn windows_path(text: &str) -> String {
    if text.contains("://") {
        return text.to_string();
    }
    let mut t = text.replace('\\', "/");
    if let Some(k) = t.to_ascii_lowercase().find("filesystem::") {
        t = t[k + "filesystem::".len()..].to_string();
    }
    crate::paths::windows_spelling(&t).unwrap_or(t)
}

/// Whether a path names a PowerShell drive that is no file system (`HKCU:\…`, `Env:`,
/// `Cert:`), and which.
pub(super) fn provider(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    let lower = lower.trim_start_matches("microsoft.powershell.core/");
    for (prefix, name) in [
        ("hklm:", "registry"),
        ("hkcu:", "registry"),
        ("hkcr:", "registry"),
        ("hku:", "registry"),
        ("hkcc:", "registry"),
        ("registry::", "registry"),
        ("env:", "environment"),
        ("variable:", "variable"),
        ("function:", "function"),
        ("alias:", "alias"),
        ("cert:", "certificate"),
        ("wsman:", "WS-Management"),
    ] {
        if lower.starts_with(prefix) {
            return Some(name);
        }
    }
    None
}

/// The values of one cmd.exe word: `"…"` quotes removed, `^` escapes, `%NAME%` expanded
/// (the home, the temporary folder, variables `set` to a literal earlier on the line),
/// `!NAME!` and `%~dp0` only known at run time.
pub(super) fn cmd_value(text: &str, vars: &Vars) -> Arg {
    let mut out = String::new();
    let mut dynamic = false;
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '^' if !quoted => {
                if let Some(e) = chars.next() {
                    out.push(e);
                }
            }
            '%' => {
                let rest: String = chars.clone().collect();
                match rest.find('%') {
                    Some(end) if end > 0 && !rest.starts_with('~') => {
                        let name = &rest[..end];
                        let lower = name.to_ascii_lowercase();
                        let value = match lower.as_str() {
                            "cd" => Some(".".to_string()),
                            _ => known_variable(&format!("env:{lower}"))
                                .map(str::to_string)
                                .or_else(|| vars.get(&lower).cloned().flatten()),
                        };
                        match value {
                            Some(v) => out.push_str(&v),
                            None => {
                                dynamic = true;
                                out.push('%');
                                out.push_str(name);
                                out.push('%');
                            }
                        }
                        for _ in 0..=name.chars().count() {
                            chars.next();
                        }
                    }
                    _ => {
                        // `%~dp0`, `%1`: arguments of a batch file; `%f`, `%%f`: a `for`
                        // loop's variable.
                        if chars
                            .peek()
                            .is_some_and(|k| matches!(k, '~' | '%') || k.is_ascii_alphanumeric())
                        {
                            dynamic = true;
                        }
                        out.push('%');
                    }
                }
            }
            '!' if text.matches('!').count() >= 2 => {
                dynamic = true;
                out.push('!');
            }
            _ => out.push(c),
        }
    }
    Arg {
        text: windows_path(&out),
        dynamic,
    }
}

/// The environment variables a value names (`$env:GITHUB_TOKEN`).
pub(super) fn env_names(t: &str) -> Vec<String> {
    let lower = t.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = lower[from..]
        .find("$env:")
        .or_else(|| lower[from..].find("${env:"))
    {
        let start = from
            + k
            + if lower[from + k..].starts_with("${") {
                6
            } else {
                5
            };
        let name: String = t[start..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty()
            && !matches!(
                name.to_ascii_lowercase().as_str(),
                "userprofile" | "home" | "temp" | "tmp"
            )
        {
            out.push(name);
        }
        from = start;
    }
    out
}

/// A Windows command line split into words as programs built with the C runtime split it:
/// blanks separate words, `"…"` groups, `\"` is a quote.
pub(super) fn split_windows(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
                any = true;
            }
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}
