//! The call into the Bash parser, with the limits and containment around it.
//!
//! In: the text of a script (the command line, or text a shell re-enters: `bash -c '…'`,
//! `eval`, a substitution, a heredoc). Out: the parsed program handed to the walk, or a reason
//! the text is undecidable — over [`MAX_SCRIPT_BYTES`], nested deeper than [`MAX_NESTING`]
//! brackets, deeper than [`MAX_DEPTH`] levels of re-entry, not parsing, or making the parser
//! panic. Text that does not parse still has the complete commands of the lines before the
//! error walked: bash has run them when it finds the error.

use brush_parser::ast::Program;
use brush_parser::{ParseError, Parser};

use super::context::LineAnalysis;
use super::limits::{MAX_DEPTH, MAX_NESTING, MAX_SCRIPT_BYTES};
use super::model::ShellAnalysis;

/// An upper bound of the nesting depth of a script: brackets and backticks counted without
/// regard to quoting (so quoted brackets can only make the estimate larger, never smaller).
pub(crate) fn bracket_depth(s: &str) -> usize {
    let mut depth: usize = 0;
    let mut max = 0;
    let mut in_backtick = false;
    for b in s.bytes() {
        match b {
            b'(' | b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b'`' => {
                if in_backtick {
                    depth = depth.saturating_sub(1);
                } else {
                    depth += 1;
                    max = max.max(depth);
                }
                in_backtick = !in_backtick;
            }
            _ => {}
        }
    }
    max
}

/// How deep compound commands nest (`if`/`for`/`while`/`until`/`case`/`select` against
/// `fi`/`done`/`esac`), counted over every word of the text: quoted words count too, since a
/// quoted script is parsed when it runs (`bash -c '…'`), and so do the words of a
/// here-document. An estimate that can only be too large.
pub(crate) fn keyword_depth(s: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for word in s.split(|c: char| c.is_whitespace() || ";|&()<>`'\"\\".contains(c)) {
        match word {
            "if" | "for" | "while" | "until" | "case" | "select" => {
                depth += 1;
                max = max.max(depth);
            }
            "fi" | "done" | "esac" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Run one analysis with the parser's panics contained: a panic makes the line undecidable.
///
/// brush-parser 0.4.0 panics on some malformed input (an `unwrap` in its tokenizer, e.g.
/// `(''<<&$(!)"\$$(` + newline + `&`). A panic would end the hook process with 101, which the
/// host reads as a non-blocking error: the tool call would go ahead unchecked.
pub(super) fn contained(run: impl FnOnce() -> ShellAnalysis) -> ShellAnalysis {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| ShellAnalysis {
        commands: Vec::new(),
        unsure: Some("the shell parser failed on this line (internal error)".to_string()),
        pipes: Vec::new(),
    })
}

impl LineAnalysis {
    /// Parse `src` and walk every complete command in it, run through `via` at re-entry
    /// level `depth`.
    pub(super) fn script(&mut self, src: &str, via: &[String], depth: usize) {
        if depth > MAX_DEPTH {
            self.mark_unsure(format!(
                "nesting deeper than {MAX_DEPTH} levels of shell re-entry"
            ));
            return;
        }
        if src.len() > MAX_SCRIPT_BYTES {
            self.mark_unsure(format!(
                "the command line is {} bytes, over the {MAX_SCRIPT_BYTES}-byte analysis limit",
                src.len()
            ));
            return;
        }
        let nesting = bracket_depth(src);
        if nesting > MAX_NESTING {
            // The parser recurses per nesting level: refuse before it can exhaust the stack.
            self.mark_unsure(format!(
                "the command line nests {nesting} levels deep, over the {MAX_NESTING}-level analysis limit"
            ));
            return;
        }
        let mut parser = Parser::new(std::io::Cursor::new(src.as_bytes()), &self.options);
        let parsed = parser.parse_program().or_else(|e| {
            // Bash runs a here-document closed by the end of the input (with a warning):
            // `apply_patch <<'PATCH'` … `*** End Patch` and no `PATCH` line. Read it the
            // same way, as if the delimiter closed it.
            match closed_heredoc(src) {
                Some(closed) => Parser::new(std::io::Cursor::new(closed.as_bytes()), &self.options)
                    .parse_program()
                    .map_err(|_| e),
                None => Err(e),
            }
        });
        match parsed {
            Ok(prog) => {
                for cc in &prog.complete_commands {
                    self.compound_list(cc, via, depth);
                }
            }
            Err(e) => {
                // `rg -n "a|b\" src -S`: a quote the input never closes. Bash reads and runs a
                // script one complete command at a time and fails on that one with "unexpected
                // EOF while looking for matching `"'": the lines before the quote's line run,
                // nothing from there on does.
                // `ls app/(auth)/login`: an unquoted `(` inside a word is a syntax error to
                // bash ("unexpected token `('"), found when the line is read: nothing on it runs.
                // PowerShell on a Windows host reads such a line its own way.
                let windows = self
                    .cwd
                    .as_deref()
                    .is_some_and(|c| c.as_bytes().get(1) == Some(&b':') || c.starts_with("\\\\"));
                let rejected = || (!windows).then(|| paren_in_word(src)).flatten();
                if let Some(open) = unterminated_quote(src).or_else(rejected) {
                    let prefix = src.get(..line_start(src, open)).unwrap_or("");
                    if prefix.trim().is_empty() {
                        return;
                    }
                    if let Ok(prog) =
                        Parser::new(std::io::Cursor::new(prefix.as_bytes()), &self.options)
                            .parse_program()
                    {
                        for cc in &prog.complete_commands {
                            self.compound_list(cc, via, depth);
                        }
                        return;
                    }
                }
                // Any other error: bash has run the complete commands of the lines before the
                // one it fails on. Those are judged; the rest stays undecided, since the parser
                // may reject a line bash accepts (so a deny among the lines before still wins).
                let msg = e.to_string();
                let first = msg.lines().next().unwrap_or("").to_string();
                self.mark_unsure(format!("the shell line does not parse ({first})"));
                if let Some(prog) = self.parsed_prefix(src, error_line(&e)) {
                    for cc in &prog.complete_commands {
                        self.compound_list(cc, via, depth);
                    }
                }
            }
        }
    }

    /// The parsed program of the longest prefix of whole lines of `src` that parses, taken
    /// from the lines before line `before` (1-based; any line but the whole text when `None`),
    /// or `None` when no such prefix holds a command.
    ///
    /// A prefix that ends inside a command (an `if` not closed, a quote across lines, a line
    /// continued by a backslash) does not parse or is skipped, so what is walked is what bash
    /// has read as complete commands. The work is bounded: the [`PREFIX_TRIES_NEAR_ERROR`]
    /// line starts nearest the error are tried one by one, then a binary search over the
    /// earlier ones finds a prefix that parses where the next longer one does not.
    fn parsed_prefix(&self, src: &str, before: Option<usize>) -> Option<Program> {
        let limit = match before {
            None => src.len(),
            Some(0 | 1) => return None,
            Some(line) => src
                .match_indices('\n')
                .nth(line - 2)
                .map_or(src.len(), |(at, _)| at + 1),
        };
        let starts: Vec<usize> = src
            .match_indices('\n')
            .map(|(at, _)| at + 1)
            .take_while(|&end| end <= limit && end < src.len())
            .filter(|&end| {
                let text = src.get(..end - 1).unwrap_or("");
                let slashes = text.len() - text.trim_end_matches('\\').len();
                slashes % 2 == 0 && !text.trim().is_empty()
            })
            .collect();
        let parse = |end: usize| {
            let text = src.get(..end)?;
            Parser::new(std::io::Cursor::new(text.as_bytes()), &self.options)
                .parse_program()
                .ok()
        };
        let near = starts.len().saturating_sub(PREFIX_TRIES_NEAR_ERROR);
        for &end in starts[near..].iter().rev() {
            if let Some(prog) = parse(end) {
                return Some(prog);
            }
        }
        // `starts[hi]` does not parse; the empty prefix (`lo == 0`) does.
        let (mut lo, mut hi) = (0usize, near);
        let mut best = None;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match parse(starts[mid]) {
                Some(prog) => {
                    best = Some(prog);
                    lo = mid + 1;
                }
                None => hi = mid,
            }
        }
        best
    }
}

/// How many line starts nearest a parse error [`LineAnalysis::parsed_prefix`] tries one by
/// one before it searches the earlier ones by halves.
const PREFIX_TRIES_NEAR_ERROR: usize = 8;

/// The 1-based line a parse error is reported on, when the parser names one.
fn error_line(e: &ParseError) -> Option<usize> {
    match e {
        ParseError::ParsingNear(at) => Some(at.line),
        ParseError::Tokenizing { position, .. } => position.as_ref().map(|at| at.line),
        ParseError::ParsingAtEndOfInput => None,
    }
}

/// What a scan of a line by bash's quoting rules ([`scan_unquoted`]) ended on.
enum Scan {
    /// A quote opened at this offset and never closed.
    Unclosed(usize),
    /// The visitor picked this offset.
    Picked(usize),
    /// The end of the text, every quote closed.
    Clean,
    /// Something the scan does not model.
    GaveUp,
}

/// Scan `src` by bash's quoting rules (`'…'` ends at the next `'`; in `"…"` a backslash
/// escapes the next character; a backslash outside quotes escapes the next one; `#` at the
/// start of a word starts a comment to the end of the line), showing `pick` each unquoted byte
/// with its offset and whether it starts a word. Gives up on what the scan does not model and
/// the parser may read differently: a command substitution (`$(`, a backquote), an ANSI-C
/// string (`$'…'`) or a here-document (`<<`).
fn scan_unquoted(src: &str, mut pick: impl FnMut(usize, u8, bool) -> bool) -> Scan {
    let b = src.as_bytes();
    let mut i = 0;
    let mut word_start = true;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => {
                i += 2;
                word_start = false;
                continue;
            }
            b'`' => return Scan::GaveUp,
            b'$' if matches!(b.get(i + 1), Some(b'(' | b'\'')) => return Scan::GaveUp,
            b'<' if b.get(i + 1) == Some(&b'<') => return Scan::GaveUp,
            b'#' if word_start => {
                while b.get(i).is_some_and(|&x| x != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'\'' => match src.get(i + 1..).and_then(|r| r.find('\'')) {
                Some(k) => i += k + 1,
                None => return Scan::Unclosed(i),
            },
            b'"' => {
                let open = i;
                i += 1;
                loop {
                    match b.get(i) {
                        None => return Scan::Unclosed(open),
                        Some(b'\\') => i += 2,
                        Some(b'"') => break,
                        Some(b'`') => return Scan::GaveUp,
                        Some(b'$') if b.get(i + 1) == Some(&b'(') => return Scan::GaveUp,
                        Some(_) => i += 1,
                    }
                }
            }
            _ if pick(i, c, word_start) => return Scan::Picked(i),
            _ => {}
        }
        word_start = c.is_ascii_whitespace() || matches!(c, b';' | b'&' | b'|' | b'(' | b')');
        i += 1;
    }
    Scan::Clean
}

/// The byte offset of a quote that `src` opens and never closes, by bash's quoting rules
/// ([`scan_unquoted`]). `None` when every quote closes, or when the text holds what the scan
/// does not model.
pub(crate) fn unterminated_quote(src: &str) -> Option<usize> {
    match scan_unquoted(src, |_, _, _| false) {
        Scan::Unclosed(at) => Some(at),
        _ => None,
    }
}

/// The byte offset of an unquoted `(` that opens a path component inside a word
/// (`app/(auth)/page.tsx`, a Next.js route group), which bash rejects as a syntax error when it
/// reads the line (and zsh reads as a glob group that matches nothing). Only after a `/`: other
/// places a `(` may follow a word character (`$(`, `a=(`, `@(x|y)`, `f()`) are valid, and
/// PowerShell's method calls (`(Get-Date).ToString("o")`) are not paths. `None` when there is
/// none, or when the text holds what this scan does not model: a conditional or arithmetic
/// command (`[[`, `((`), whose parentheses group, and what [`scan_unquoted`] gives up on.
pub(crate) fn paren_in_word(src: &str) -> Option<usize> {
    if src.contains("[[") || src.contains("((") {
        return None;
    }
    let b = src.as_bytes();
    let opens_component =
        |i: usize, c: u8, word_start: bool| c == b'(' && !word_start && i > 0 && b[i - 1] == b'/';
    match scan_unquoted(src, opens_component) {
        Scan::Picked(at) => Some(at),
        _ => None,
    }
}

/// The offset of the start of the line holding offset `at`.
fn line_start(src: &str, at: usize) -> usize {
    src.get(..at)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |n| n + 1)
}

/// `src` with the delimiter line added after its first here-document that the input ends
/// without closing (bash reads such a document up to the end of the input, with a warning),
/// or `None` when every here-document operator found is closed.
///
/// The operators are found by a plain scan (`<<WORD`, `<<-WORD`, `<<'WORD'`, `<<"WORD"`; not
/// `<<<`), so one inside quotes can be mistaken for an operator: the result is only used when
/// the input does not parse, and only if it then does.
pub(crate) fn closed_heredoc(src: &str) -> Option<String> {
    let bytes = src.as_bytes();
    let mut i = 0;
    while let Some(at) = src.get(i..).and_then(|r| r.find("<<")) {
        let start = i + at + 2;
        i = start;
        if bytes.get(start) == Some(&b'<') {
            // A here-string.
            i = start + 1;
            continue;
        }
        let mut j = start;
        let strip_tabs = bytes.get(j) == Some(&b'-');
        if strip_tabs {
            j += 1;
        }
        while matches!(bytes.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let rest = src.get(j..)?;
        let word: String = rest
            .chars()
            .take_while(|c| {
                !c.is_whitespace() && !matches!(c, ';' | '&' | '|' | '<' | '>' | '(' | ')')
            })
            .collect();
        let delim: String = word
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        if delim.is_empty() {
            continue;
        }
        // The document starts on the line after the operator.
        let Some(nl) = rest.find('\n') else {
            continue;
        };
        let body = &rest[nl + 1..];
        let closed = body.lines().any(|l| {
            let l = if strip_tabs {
                l.trim_start_matches('\t')
            } else {
                l
            };
            l == delim
        });
        if !closed {
            let sep = if src.ends_with('\n') { "" } else { "\n" };
            return Some(format!("{src}{sep}{delim}\n"));
        }
    }
    None
}
