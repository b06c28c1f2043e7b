//! Quote removal and display escaping of single words.
//!
//! In: the raw text of one quoted piece of a word (`'…'`, `$'…'`, `` `…` ``) or of a word
//! about to be shown. Out: the text the program receives (`$'\x72\x6d'` → `rm`), the inner
//! script of a backquoted substitution, or a display form where invisible and bidi control
//! characters are spelled out (`<U+200B>`).

/// Decode the backslash escapes of the body of an ANSI-C quoted word (`$'…'` without its
/// quotes), as bash does: `\n`, `\xHH`, `\uHHHH`, `\NNN` (octal), `\e`, …; an unknown escape is
/// kept as written.
pub(super) fn decode_ansi_c(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '\'' | '"' | '?' => out.push(e),
            'x' => {
                let mut h = String::new();
                while h.len() < 2 && it.peek().is_some_and(char::is_ascii_hexdigit) {
                    h.extend(it.next());
                }
                match u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push_str("\\x"),
                }
            }
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                let mut h = String::new();
                while h.len() < max && it.peek().is_some_and(char::is_ascii_hexdigit) {
                    h.extend(it.next());
                }
                match u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push('\\'),
                }
            }
            '0'..='7' => {
                let mut o = String::from(e);
                while o.len() < 3 && it.peek().is_some_and(|c| ('0'..='7').contains(c)) {
                    o.extend(it.next());
                }
                match u32::from_str_radix(&o, 8).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push('\\'),
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// `$'body'` → `body`: the quotes removed.
pub(super) fn strip_ansi_quotes(s: &str) -> &str {
    s.strip_prefix("$'")
        .and_then(|x| x.strip_suffix('\''))
        .unwrap_or(s)
}

/// `'body'` → `body`: the quotes removed.
pub(super) fn strip_single_quotes(s: &str) -> &str {
    s.strip_prefix('\'')
        .and_then(|x| x.strip_suffix('\''))
        .unwrap_or(s)
}

/// Inside backquotes a backslash keeps its meaning except before `$`, `` ` `` and `\\`
/// (bash manual, "Command Substitution"): undo those escapes before parsing the inner text.
pub(super) fn unescape_backquoted(s: &str) -> String {
    let inner = s
        .strip_prefix('`')
        .and_then(|x| x.strip_suffix('`'))
        .unwrap_or(s);
    let mut out = String::with_capacity(inner.len());
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && matches!(it.peek(), Some('$' | '`' | '\\')) {
            out.extend(it.next());
        } else {
            out.push(c);
        }
    }
    out
}
/// Invisible or bidi control characters that make a command render unlike what runs
/// (case BY-08).
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Show invisible characters as `<U+200B>`.
pub(crate) fn escape_invisible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut count = 0;
    push_escaped_invisible(&mut out, &mut count, s, usize::MAX);
    out
}

/// Append `s` to `out` with its invisible characters shown as `<U+200B>`, counting the
/// characters appended in `count`, and stop once `count` exceeds `limit` (what comes after
/// that is not appended): a caller that shows a bounded prefix need not escape the rest.
pub(crate) fn push_escaped_invisible(out: &mut String, count: &mut usize, s: &str, limit: usize) {
    use std::fmt::Write as _;
    for c in s.chars() {
        if *count > limit {
            return;
        }
        if is_invisible(c) {
            let before = out.len();
            let _ = write!(out, "<U+{:04X}>", c as u32);
            // The escape is ASCII: one character per byte.
            *count += out.len() - before;
        } else {
            out.push(c);
            *count += 1;
        }
    }
}
