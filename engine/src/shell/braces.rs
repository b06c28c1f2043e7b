//! Brace expansion of one word, as bash performs it.
//!
//! In: the raw text of one word (quotes, escapes and substitutions kept as written). Out: the
//! words bash writes it out to, in bash's order (`a{b,c}d` → `abd acd`, `{1..5..2}` → `1 3 5`,
//! `{c..a}` → `c b a`, `{01..3}` → `01 02 03`), still raw text: each is expanded afterwards.
//!
//! The shell parser's own brace reader gives up on words bash reads without complaint
//! (`{rm,{}}` is `rm {}` to bash; an inner `{x}` or `{1..}` is literal text), and a word it
//! cannot read would then run as a program no one knows. Bash's rules are followed here
//! instead:
//! - a `{` opens an expression only when a matching `}` follows with a `,` or a `..` between
//!   them outside inner braces; otherwise the `{` is text and the search goes on after it;
//! - a `{` with blank (or nothing) before it and a blank or `}` after it is text (`{}`, `{ x`);
//! - quotes, backslashes, `${…}`, `$(…)`, `<(…)` and `>(…)` hide what is inside them;
//! - the text between the braces splits at its top-level commas, each part expanded again;
//!   without a comma it must be a sequence (`N..M[..S]` of integers, zero-padded when an end
//!   is written with a leading zero, or `x..y[..S]` of single letters), otherwise the braces
//!   stay text and what follows them is expanded on its own.

/// One word's brace expansion: `Ok(words)` (the word itself when nothing expands), or `Err`
/// when it would make more than `max` words.
///
/// A sequence longer than `max` stands for itself by its first two and its last number
/// (`f{1..100000}` → `f1 f2 f100000`): the words differ only in that number.
pub(super) fn expand(word: &str, max: usize) -> Result<Vec<String>, TooMany> {
    Expansion { max }.word(word.as_bytes())
}

/// The expansion would make more words than allowed.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TooMany;

struct Expansion {
    max: usize,
}

impl Expansion {
    /// Bash's `brace_expand`: preamble, the first real brace expression, then the rest.
    fn word(&self, text: &[u8]) -> Result<Vec<String>, TooMany> {
        let whole = || vec![String::from_utf8_lossy(text).into_owned()];
        // The first `{` that opens an expression: one with a closing `}` it can pair with.
        let mut from = 0;
        let (open, close) = loop {
            let Some(open) = scan(text, from, Stop::Open) else {
                return Ok(whole());
            };
            match scan(text, open + 1, Stop::Close) {
                Some(close) => break (open, close),
                None => from = open + 1,
            }
        };
        let preamble = vec![lossy(&text[..open])];
        let amble = &text[open + 1..close];
        let rest = &text[close + 1..];
        let inner = if has_comma(amble) {
            self.amble(amble)?
        } else if let Some(seq) = sequence(amble, self.max) {
            seq
        } else if rest.is_empty() {
            return Ok(whole());
        } else {
            // Not an expression after all: its braces are text, the rest expands on its own.
            vec![lossy(&text[open..=close])]
        };
        let mut words = self.product(preamble, inner)?;
        if !rest.is_empty() {
            let after = self.word(rest)?;
            words = self.product(words, after)?;
        }
        Ok(words)
    }

    /// Bash's `expand_amble`: the parts between top-level commas, each expanded, in order.
    fn amble(&self, text: &[u8]) -> Result<Vec<String>, TooMany> {
        let mut out = Vec::new();
        let mut start = 0;
        loop {
            let end = scan(text, start, Stop::Comma);
            let part = &text[start..end.unwrap_or(text.len())];
            out.extend(self.word(part)?);
            if out.len() > self.max {
                return Err(TooMany);
            }
            match end {
                Some(comma) => start = comma + 1,
                None => return Ok(out),
            }
        }
    }

    /// Every word of `a` followed by every word of `b`, in that order.
    fn product(&self, a: Vec<String>, b: Vec<String>) -> Result<Vec<String>, TooMany> {
        if a.len().saturating_mul(b.len()) > self.max {
            return Err(TooMany);
        }
        Ok(a.iter()
            .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
            .collect())
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What [`scan`] looks for.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// A `{` at the top level that may open an expression.
    Open,
    /// The `}` closing the expression opened just before `from`: only once a `,` or a `..`
    /// (not right before that `}`) has been seen outside inner braces.
    Close,
    /// A `,` at the top level.
    Comma,
}

/// Bash's `brace_gobbler`: the index of the first byte at or after `from` that `stop` looks
/// for, outside quotes, escapes, `${…}` and command or process substitutions; `None` when the
/// text ends first. Every byte tested is ASCII, so indices stay on UTF-8 boundaries.
fn scan(text: &[u8], from: usize, stop: Stop) -> Option<usize> {
    let at = |i: usize| text.get(i).copied();
    let mut level = 0usize;
    let mut quoted: Option<u8> = None;
    let mut separators = usize::from(stop != Stop::Close);
    let mut i = from;
    while let Some(c) = at(i) {
        if c == b'\\' && quoted.is_none_or(|q| q == b'"' || q == b'`') {
            i += 2;
            continue;
        }
        if c == b'$' && at(i + 1) == Some(b'{') && quoted != Some(b'\'') {
            // `${` counts as an escaped `{` that still needs its `}`.
            if quoted.is_none() {
                level += 1;
            }
            i += 2;
            continue;
        }
        if let Some(q) = quoted {
            if c == q {
                quoted = None;
            } else if q == b'"' && c == b'$' && at(i + 1) == Some(b'(') {
                i = skip_group(text, i + 2);
                continue;
            }
            i += 1;
            continue;
        }
        if matches!(c, b'"' | b'\'' | b'`') {
            quoted = Some(c);
            i += 1;
            continue;
        }
        if matches!(c, b'$' | b'<' | b'>') && at(i + 1) == Some(b'(') {
            i = skip_group(text, i + 2);
            continue;
        }
        let wanted = match stop {
            Stop::Open => c == b'{',
            Stop::Close => c == b'}',
            Stop::Comma => c == b',',
        };
        if wanted && level == 0 && separators > 0 {
            let blank = |b: Option<u8>| matches!(b, None | Some(b' ' | b'\t' | b'\n'));
            let lone = c == b'{'
                && (i == 0 || blank(at(i - 1)))
                && (blank(at(i + 1)) || at(i + 1) == Some(b'}'));
            if !lone {
                return Some(i);
            }
            i += 1;
            continue;
        }
        match c {
            b'{' => level += 1,
            b'}' if level > 0 => level -= 1,
            b',' if stop == Stop::Close && level == 0 => separators += 1,
            b'.' if stop == Stop::Close
                && level == 0
                && at(i + 1) == Some(b'.')
                && at(i + 2) != Some(b'}') =>
            {
                separators += 1
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index just past the `)` that closes a `$(`, `<(` or `>(` whose text starts at `from`
/// (quotes and nested parentheses inside it followed), or the end of the text.
fn skip_group(text: &[u8], from: usize) -> usize {
    let mut depth = 1usize;
    let mut quoted: Option<u8> = None;
    let mut i = from;
    while let Some(&c) = text.get(i) {
        match (quoted, c) {
            (Some(b'\''), b'\'') => quoted = None,
            (Some(b'\''), _) => {}
            (_, b'\\') => i += 1,
            (Some(q), c) if c == q => quoted = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'' | b'`') => quoted = Some(c),
            (None, b'(') => depth += 1,
            (None, b')') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// Whether the text between braces has a `,` not escaped by a backslash (bash looks no
/// further: quotes and inner braces do not hide it here).
fn has_comma(text: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = text.get(i) {
        match c {
            b'\\' => i += 2,
            b',' => return true,
            _ => i += 1,
        }
    }
    false
}

/// The two kinds of sequence ends.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Int(i64),
    Letter(u8),
}

/// Bash's `expand_seqterm`: the words of `N..M[..S]` or `x..y[..S]`, or `None` when the text
/// is no sequence (mixed ends, a missing end, an overflow, anything after the step).
fn sequence(text: &[u8], max: usize) -> Option<Vec<String>> {
    let dots = text.windows(2).position(|w| w == b"..")?;
    let (lhs, rhs) = (&text[..dots], &text[dots + 2..]);
    if lhs.is_empty() || rhs.is_empty() {
        return None;
    }
    let first = match whole_number(lhs) {
        Some(n) => End::Int(n),
        None if lhs.len() == 1 && lhs[0].is_ascii_alphabetic() => End::Letter(lhs[0]),
        None => return None,
    };
    let signed_digit = |b: &[u8]| {
        b.first().is_some_and(u8::is_ascii_digit)
            || (matches!(b.first(), Some(b'+' | b'-')) && b.get(1).is_some_and(u8::is_ascii_digit))
    };
    let (last, rest) = if signed_digit(rhs) {
        let (n, used) = leading_number(rhs)?;
        if rhs.get(used).is_some_and(|&c| c != b'.') {
            return None;
        }
        (End::Int(n), &rhs[used..])
    } else if rhs[0].is_ascii_alphabetic() && matches!(rhs.get(1), None | Some(b'.')) {
        (End::Letter(rhs[0]), &rhs[1..])
    } else {
        return None;
    };
    let mut step = 1;
    if rest.len() > 2 && rest.starts_with(b"..") {
        let (n, used) = leading_number(&rest[2..])?;
        if used + 2 != rest.len() {
            return None;
        }
        step = n;
    } else if !rest.is_empty() {
        return None;
    }
    let rhs_len = rhs.len() - rest.len();
    match (first, last) {
        (End::Int(a), End::Int(b)) => {
            let padded =
                |s: &[u8]| (s.len() > 1 && s[0] == b'0') || (s.len() > 2 && s.starts_with(b"-0"));
            let width = if padded(lhs) || padded(&rhs[..rhs_len]) {
                lhs.len().max(rhs_len)
            } else {
                0
            };
            numbers(a, b, step, max).map(|ns| {
                ns.into_iter()
                    .map(|n| format!("{n:0width$}"))
                    .collect::<Vec<_>>()
            })
        }
        (End::Letter(a), End::Letter(b)) => {
            let ns = numbers(i64::from(a), i64::from(b), step, max)?;
            Some(
                ns.into_iter()
                    .filter_map(|n| u8::try_from(n).ok())
                    .map(|c| match c {
                        // Between `Z` and `a`: bash writes these out as text (a backquote
                        // opens nothing, a backslash is removed with the quotes).
                        b'`' => "\\`".to_string(),
                        b'\\' => "\"\"".to_string(),
                        c => char::from(c).to_string(),
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The whole text as an integer (blanks around it allowed, as bash's `legal_number`).
fn whole_number(text: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(text)
        .ok()?
        .trim_matches([' ', '\t', '\n']);
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The integer at the start of the text (leading blanks and a sign allowed) and the bytes it
/// takes; `None` without digits or beyond `i64`.
fn leading_number(text: &[u8]) -> Option<(i64, usize)> {
    let blanks = text
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n'))
        .count();
    let sign = usize::from(matches!(text.get(blanks), Some(b'+' | b'-')));
    let digits = text[blanks + sign..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let end = blanks + sign + digits;
    let n = std::str::from_utf8(&text[blanks..end]).ok()?.parse().ok()?;
    Some((n, end))
}

/// Bash's `mkseq`: from `a` to `b` by the step's size (its sign follows the direction). A
/// run longer than `max` stands for itself by its first two and its last value.
fn numbers(a: i64, b: i64, step: i64, max: usize) -> Option<Vec<i64>> {
    let size = step.unsigned_abs().max(1);
    let count = a.abs_diff(b) / size + 1;
    let size = i64::try_from(size).ok()?;
    let nth = |k: u64| -> Option<i64> {
        let d = i64::try_from(k).ok()?.checked_mul(size)?;
        if a <= b {
            a.checked_add(d)
        } else {
            a.checked_sub(d)
        }
    };
    let ks: Vec<u64> = if count > max as u64 {
        vec![0, 1, count - 1]
    } else {
        (0..count).collect()
    };
    ks.into_iter().map(nth).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn words(w: &str) -> Vec<String> {
        expand(w, 256).expect("within the bound")
    }

    #[test]
    fn what_bash_writes_out() {
        let cases: &[(&str, &[&str])] = &[
            ("{rm,{}}", &["rm", "{}"]),
            ("{rm,{x}}", &["rm", "{x}"]),
            ("{rm,{1..}}", &["rm", "{1..}"]),
            ("{.env,{}}", &[".env", "{}"]),
            ("{rm,{a,b}}", &["rm", "a", "b"]),
            ("a{b,{c}d", &["a{b,{c}d"]),
            ("{x,y}{", &["x{", "y{"]),
            ("{x}{a,b}", &["{x}a", "{x}b"]),
            ("{1..3}", &["1", "2", "3"]),
            ("{01..3}", &["01", "02", "03"]),
            ("{5..1..2}", &["5", "3", "1"]),
            ("{1..5..-2}", &["1", "3", "5"]),
            ("{c..a}", &["c", "b", "a"]),
            ("{Z..a}", &["Z", "[", "\"\"", "]", "^", "_", "\\`", "a"]),
            ("{1..a}", &["{1..a}"]),
            (
                "{1..99999999999999999999}x{a,b}",
                &["{1..99999999999999999999}xa", "{1..99999999999999999999}xb"],
            ),
            ("{1..99999999999999999999}", &["{1..99999999999999999999}"]),
            ("'{a,b}'", &["'{a,b}'"]),
            ("\\{a,b}", &["\\{a,b}"]),
            ("${x:-a,b}{c,d}", &["${x:-a,b}c", "${x:-a,b}d"]),
            ("$(echo {a,b})", &["$(echo {a,b})"]),
            ("{}", &["{}"]),
            ("-{r,f}", &["-r", "-f"]),
            ("{,x}y", &["y", "xy"]),
        ];
        for (w, want) in cases {
            assert_eq!(words(w), *want, "{w}");
        }
        assert_eq!(expand("{a,b}{c,d}{e,f}", 7), Err(TooMany));
        assert_eq!(words("f{1..100000}"), ["f1", "f2", "f100000"]);
    }

    /// Each word's expansion, as the system's bash prints it (`None` without a bash).
    fn bash(word: &str) -> Option<Vec<String>> {
        let out = std::process::Command::new("bash")
            .args([
                "--norc",
                "-c",
                &format!("for w in {word}; do printf '%s\\0' \"$w\"; done"),
            ])
            .env_clear()
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        Some(text.split_terminator('\0').map(str::to_string).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Words made of braces, commas, dots, letters and digits expand as bash expands them.
        #[test]
        fn agrees_with_bash(word in "[{},.abc10-]{1,14}") {
            if let Some(want) = bash(&word) {
                // Bash drops words that expand to nothing; the expansion here keeps them.
                let got: Vec<String> = words(&word).into_iter().filter(|w| !w.is_empty()).collect();
                prop_assert_eq!(got, want, "{}", word);
            }
        }
    }
}
