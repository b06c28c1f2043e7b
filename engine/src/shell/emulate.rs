//! Emulation of bash's `echo` and `printf` builtins.
//!
//! In: the literal argument words of an `echo` or `printf` command. Out: the text it writes,
//! which the walk reads as the script of a shell it is piped, redirected or
//! process-substituted into (`printf 'rm -rf ~' | sh`). `printf` directives and options that
//! are not modelled are reported (`Err`), never guessed.

use super::limits::MAX_SCRIPT_BYTES;

/// How a backslash escape is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// `printf`'s format: `\NNN` (1-3 octal digits), `\'`, `\"` and `\?` decoded, `\c` kept.
    Format,
    /// `printf %b`: `\0NNN` or `\NNN`, `\c` ends all output.
    PercentB,
    /// `echo -e`: `\0NNN` only (`\101` is kept), `\c` ends all output.
    Echo,
}

/// Decode one escape after a backslash (already consumed). `Err(())` means `\c`: all
/// output ends here.
fn escape(
    it: &mut std::iter::Peekable<std::str::Chars<'_>>,
    mode: Esc,
    out: &mut String,
) -> Result<(), ()> {
    let Some(e) = it.next() else {
        out.push('\\');
        return Ok(());
    };
    let digits = |it: &mut std::iter::Peekable<std::str::Chars<'_>>, max: usize, radix: u32| {
        let mut v: u32 = 0;
        let mut n = 0;
        while n < max {
            match it.peek().and_then(|c| c.to_digit(radix)) {
                Some(d) => {
                    v = v * radix + d;
                    n += 1;
                    it.next();
                }
                None => break,
            }
        }
        (v, n)
    };
    match e {
        'a' => out.push('\x07'),
        'b' => out.push('\x08'),
        'e' | 'E' => out.push('\x1b'),
        'f' => out.push('\x0c'),
        'n' => out.push('\n'),
        'r' => out.push('\r'),
        't' => out.push('\t'),
        'v' => out.push('\x0b'),
        '\\' => out.push('\\'),
        '\'' | '"' | '?' if mode == Esc::Format => out.push(e),
        'c' if mode != Esc::Format => return Err(()),
        'x' | 'u' | 'U' => {
            let max = match e {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            match digits(it, max, 16) {
                (_, 0) => {
                    out.push('\\');
                    out.push(e);
                }
                (v, _) if e == 'x' => out.extend(char::from_u32(v)),
                (v, _) => out.push(char::from_u32(v).unwrap_or('\u{FFFD}')),
            }
        }
        '0'..='7' if mode != Esc::Echo || e == '0' => {
            let first = e.to_digit(8).unwrap_or(0);
            let more = if e == '0' && mode != Esc::Format {
                3
            } else {
                2
            };
            let (v, n) = digits(it, more, 8);
            let v = first * 8u32.pow(n as u32) + v;
            out.extend(char::from_u32(v & 0xFF));
        }
        other => {
            out.push('\\');
            out.push(other);
        }
    }
    Ok(())
}

/// Decode the escapes of `s`; `false` when `\c` ended the output.
fn decode_escapes(s: &str, mode: Esc, out: &mut String) -> bool {
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            if escape(&mut it, mode, out).is_err() {
                return false;
            }
        } else {
            out.push(c);
        }
    }
    true
}

/// What bash's `echo` builtin writes (`xpg_echo` off): leading `-n`/`-e`/`-E` words are
/// options (the last of `-e`/`-E` wins), the rest joined by spaces, a newline unless `-n`.
pub(super) fn echo_output(args: &[String]) -> String {
    let mut escapes = false;
    let mut newline = true;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let Some(flags) = a.strip_prefix('-') else {
            break;
        };
        if flags.is_empty() || !flags.chars().all(|c| matches!(c, 'n' | 'e' | 'E')) {
            break;
        }
        for c in flags.chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        i += 1;
    }
    let text = args.get(i..).unwrap_or(&[]).join(" ");
    if !escapes {
        return if newline { text + "\n" } else { text };
    }
    let mut out = String::new();
    if decode_escapes(&text, Esc::Echo, &mut out) && newline {
        out.push('\n');
    }
    out
}

/// A `printf %d` argument: decimal, `0x` hex, `0` octal, `'c` (the character's code).
fn printf_number(a: &str) -> Result<i64, String> {
    let bad = || format!("`{a}` is not a number");
    let t = a.trim_start();
    if t.is_empty() {
        return Ok(0);
    }
    if let Some(c) = t.strip_prefix(['\'', '"']).and_then(|r| r.chars().next()) {
        return Ok(i64::from(u32::from(c)));
    }
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(bad());
    }
    let v = i64::from_str_radix(digits, radix).map_err(|_| bad())?;
    Ok(if neg { -v } else { v })
}

/// What bash's `printf` builtin writes for `%s`, `%b`, `%d`, `%i`, `%%` and the escapes of
/// the format, which is reused while arguments remain. `Err` says what is not modelled.
pub(super) fn printf_output(args: &[String]) -> Result<String, String> {
    let mut args = args;
    match args.first().map(String::as_str) {
        Some("--") => args = &args[1..],
        // `printf -v NAME …` assigns NAME and writes nothing.
        Some("-v") => return Ok(String::new()),
        Some(o) if o.starts_with('-') && o.len() > 1 => {
            return Err(format!("the option `{o}` is not modelled"));
        }
        _ => {}
    }
    let Some((format, values)) = args.split_first() else {
        return Err("no format".into());
    };
    let mut out = String::new();
    let mut next = 0;
    loop {
        let start = next;
        let mut it = format.chars().peekable();
        while let Some(c) = it.next() {
            match c {
                '\\' => {
                    // `\c` is not special in the format.
                    let _ = escape(&mut it, Esc::Format, &mut out);
                }
                '%' => {
                    let d = it.next();
                    let mut arg = || {
                        let v = values.get(next).map(String::as_str).unwrap_or("");
                        next += 1;
                        v
                    };
                    match d {
                        Some('%') => out.push('%'),
                        Some('s') => out.push_str(arg()),
                        Some('b') => {
                            if !decode_escapes(arg(), Esc::PercentB, &mut out) {
                                return Ok(out);
                            }
                        }
                        Some('d' | 'i') => out.push_str(&printf_number(arg())?.to_string()),
                        other => {
                            let mut d = String::from('%');
                            d.extend(other);
                            // Flags, width and precision: show the directive up to its letter.
                            if other.is_some_and(|c| !c.is_ascii_alphabetic()) {
                                for c in it.by_ref() {
                                    d.push(c);
                                    if c.is_ascii_alphabetic() {
                                        break;
                                    }
                                }
                            }
                            return Err(format!("the directive `{d}` is not modelled"));
                        }
                    }
                }
                c => out.push(c),
            }
            if out.len() > MAX_SCRIPT_BYTES {
                return Err(format!("the output is over {MAX_SCRIPT_BYTES} bytes"));
            }
        }
        if next == start || next >= values.len() {
            return Ok(out);
        }
    }
}
