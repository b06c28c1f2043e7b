//! AppleScript code (`osascript -e '…'`, `osascript <<EOF`, an `.applescript` file): the
//! shell lines it runs.
//!
//! In: the code text, who runs it and the [`Collect`] of the lens. Out: into the
//! [`Collect`], each line a `do shell script` runs, each line Terminal's `do script` and
//! iTerm's `write text` type into a shell, the code `run script` runs (read again by the lens,
//! one level deeper), and an `unsure` for each of them only known at run time, with the call
//! named; code whose own words the shell only knows at run time (`osascript -e "$SCRIPT"`) is
//! `unsure` too. The lens pushes the lines through the dispatcher as nested shell lines, so
//! every shell rule judges them.
//!
//! A command is an AppleScript string expression: string literals (escapes `\"`, `\\`, `\n`,
//! `\t`, `\r` resolved), the constants `space`, `tab`, `return`, `linefeed` and `quote`, `&`
//! concatenations, parentheses, `quoted form of X` (X in single quotes, as the shell reads
//! it back), and a name given one value in the code (`set cmd to "…"`, `copy "…" to cmd`,
//! `property cmd : "…"`). Anything else (`POSIX path of x`, a handler's result, a name set
//! twice) is known only at run time.
//!
//! `do shell script` runs its line with `/bin/sh -c` (Apple's Technical Note TN2065); with
//! `with administrator privileges`, or with a `user name` (an administrator's, asked for
//! only with those privileges), it runs it as root: the call's `via` then names
//! [`ADMIN_SHELL`], an escalation of the privilege rows, judged as `sudo` is.
//!
//! The tokens follow the AppleScript Language Guide's lexical conventions: strings in
//! straight or curly double quotes, comments `-- …`, `# …` and nesting `(* … *)`, `¬`
//! continuing a line, `|…|` names, `«…»` raw codes. Code longer than [`MAX_CODE`] is
//! `unsure`.

use std::collections::HashMap;

use super::collect::Collect;
use super::parse::MAX_CODE;
pub(crate) use crate::effects::programs::ADMIN_SHELL;

/// How the `via` of a line `do shell script` runs as the caller names the call.
const SHELL: &str = "do shell script";

/// The most tokens the parameters of one `do shell script` are read over (`user name "a"
/// password "b" with administrator privileges without altering line endings` is 12).
const MAX_PARAMETER_TOKENS: usize = 32;

/// Applications that type a line into a shell of their own, with the command that does it:
/// Terminal's `do script "…"`, iTerm's `write text "…"`.
const TERMINALS: &[(&str, [&str; 2])] = &[
    ("terminal", ["do", "script"]),
    ("iterm", ["write", "text"]),
    ("iterm2", ["write", "text"]),
];

/// One token of AppleScript code.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A string literal, escapes resolved.
    Str(String),
    /// A word (a keyword or a name), in lower case; a `|…|` name as written inside.
    Word(String),
    /// Any other character (`&`, `(`, `)`, `:`, `,`).
    Op(char),
    /// A line end (a statement ends there).
    Newline,
}

/// The tokens of `code`.
fn lex(code: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut it = code.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '"' | '“' => {
                let close = if c == '"' { '"' } else { '”' };
                let mut s = String::new();
                while let Some(ch) = it.next() {
                    match ch {
                        '\\' => match it.next() {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some(e @ ('"' | '\\')) => s.push(e),
                            Some(e) => {
                                s.push('\\');
                                s.push(e);
                            }
                            None => s.push('\\'),
                        },
                        ch if ch == close => break,
                        ch => s.push(ch),
                    }
                }
                out.push(Tok::Str(s));
            }
            '-' if it.peek() == Some(&'-') => skip_line(&mut it),
            '#' => skip_line(&mut it),
            '(' if it.peek() == Some(&'*') => {
                it.next();
                let mut depth = 1usize;
                let mut prev = ' ';
                for ch in it.by_ref() {
                    match (prev, ch) {
                        ('(', '*') => {
                            depth += 1;
                            prev = ' ';
                            continue;
                        }
                        ('*', ')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            prev = ' ';
                            continue;
                        }
                        _ => prev = ch,
                    }
                }
            }
            // `¬` continues the statement on the next line.
            '¬' => {
                while it.peek().is_some_and(|ch| ch.is_whitespace()) {
                    it.next();
                }
            }
            '|' => {
                let name: String = it.by_ref().take_while(|ch| *ch != '|').collect();
                out.push(Tok::Word(name));
            }
            '«' => {
                let raw: String = it.by_ref().take_while(|ch| *ch != '»').collect();
                out.push(Tok::Word(format!("«{raw}»")));
            }
            '\n' | '\r' => {
                if out.last() != Some(&Tok::Newline) {
                    out.push(Tok::Newline);
                }
            }
            c if c.is_whitespace() => {}
            c if c.is_alphanumeric() || c == '_' => {
                let mut w = c.to_lowercase().to_string();
                while let Some(ch) = it.peek().copied() {
                    if !(ch.is_alphanumeric() || ch == '_') {
                        break;
                    }
                    w.extend(ch.to_lowercase());
                    it.next();
                }
                out.push(Tok::Word(w));
            }
            c => out.push(Tok::Op(c)),
        }
    }
    out
}

/// Skip to the end of the line (the line end itself is kept).
fn skip_line(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while it.peek().is_some_and(|ch| *ch != '\n' && *ch != '\r') {
        it.next();
    }
}

/// The text `quoted form of` gives: the string in single quotes, each `'` as `'\''`.
fn quoted_form(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The reader of one piece of code's tokens.
struct Reader<'a> {
    /// The tokens.
    toks: &'a [Tok],
    /// Names given one value in the code: the value when it is a constant, `None` when it
    /// is not (or the name is given a value more than once).
    bindings: HashMap<String, Option<String>>,
}

impl Reader<'_> {
    /// Whether the words at `i` are `words`.
    fn words_at(&self, i: usize, words: &[&str]) -> bool {
        words
            .iter()
            .enumerate()
            .all(|(k, w)| matches!(self.toks.get(i + k), Some(Tok::Word(x)) if x == w))
    }

    /// Record the names the code gives a value: `set NAME to EXPR`, `copy EXPR to NAME`,
    /// `property NAME : EXPR`.
    fn bind(&mut self) {
        let mut found: Vec<(String, Option<String>)> = Vec::new();
        for i in 0..self.toks.len() {
            let starts = i == 0 || self.toks.get(i - 1) == Some(&Tok::Newline);
            match (&self.toks[i], self.toks.get(i + 1), self.toks.get(i + 2)) {
                (Tok::Word(s), Some(Tok::Word(name)), Some(Tok::Word(to)))
                    if s == "set" && to == "to" =>
                {
                    found.push((name.clone(), self.expr(i + 3).0));
                }
                (Tok::Word(p), Some(Tok::Word(name)), Some(Tok::Op(':')))
                    if starts && (p == "property" || p == "prop") =>
                {
                    found.push((name.clone(), self.expr(i + 3).0));
                }
                (Tok::Word(c), _, _) if c == "copy" => {
                    let (value, end) = self.expr(i + 1);
                    if let (Some(Tok::Word(to)), Some(Tok::Word(name))) =
                        (self.toks.get(end), self.toks.get(end + 1))
                        && to == "to"
                    {
                        found.push((name.clone(), value));
                    }
                }
                _ => {}
            }
        }
        for (name, value) in found {
            self.bindings
                .entry(name)
                .and_modify(|v| *v = None)
                .or_insert(value);
        }
    }

    /// The value of the string expression at `i` (`None`: known only at run time) and the
    /// index after it.
    fn expr(&self, i: usize) -> (Option<String>, usize) {
        self.expr_in(i, 0)
    }

    /// The value of one term at `i` and the index after it; `depth` bounds nested
    /// parentheses and `quoted form of`.
    fn term(&self, i: usize, depth: usize) -> (Option<String>, usize) {
        if depth > 32 {
            return (None, i + 1);
        }
        match self.toks.get(i) {
            Some(Tok::Str(s)) => (Some(s.clone()), i + 1),
            Some(Tok::Op('(')) => {
                let (value, end) = self.expr_in(i + 1, depth + 1);
                match self.toks.get(end) {
                    Some(Tok::Op(')')) => (value, end + 1),
                    _ => (None, end),
                }
            }
            Some(Tok::Word(_)) if self.words_at(i, &["quoted", "form", "of"]) => {
                let (value, end) = self.term(i + 3, depth + 1);
                (value.map(|v| quoted_form(&v)), end)
            }
            Some(Tok::Word(w)) => {
                let constant = match w.as_str() {
                    "space" => Some(" "),
                    "tab" => Some("\t"),
                    "return" => Some("\r"),
                    "linefeed" => Some("\n"),
                    "quote" => Some("\""),
                    _ => None,
                };
                let value = match constant {
                    Some(c) => Some(c.to_string()),
                    None => self.bindings.get(w).cloned().flatten(),
                };
                (value, i + 1)
            }
            _ => (None, i + 1),
        }
    }

    /// [`Reader::expr`] inside parentheses, `depth` deep.
    fn expr_in(&self, i: usize, depth: usize) -> (Option<String>, usize) {
        let (mut value, mut end) = self.term(i, depth);
        while self.toks.get(end) == Some(&Tok::Op('&')) {
            let (next, after) = self.term(end + 1, depth);
            value = value.zip(next).map(|(a, b)| a + &b);
            end = after;
        }
        (value, end)
    }

    /// The index of the end of a command's parameters from `i`: a line end, a `)` that closes
    /// a parenthesis opened before `i`, or [`MAX_PARAMETER_TOKENS`] tokens on (so that a long
    /// line of many commands is read in linear time).
    fn statement_end(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut k = i;
        while let Some(t) = self.toks.get(k).filter(|_| k < i + MAX_PARAMETER_TOKENS) {
            match t {
                Tok::Newline => break,
                Tok::Op('(') => depth += 1,
                Tok::Op(')') if depth == 0 => break,
                Tok::Op(')') => depth -= 1,
                _ => {}
            }
            k += 1;
        }
        k
    }

    /// Whether the parameters of a `do shell script` in `from..to` run its line as root:
    /// `with administrator privileges` (not `without`), `administrator privileges true`, or a
    /// `user name`.
    fn as_root(&self, from: usize, to: usize) -> bool {
        (from..to).any(|k| {
            let admin = self.words_at(k, &["administrator", "privileges"]);
            let without = k > 0 && self.words_at(k - 1, &["without"]);
            let falsy = self.words_at(k + 2, &["false"]);
            (admin && !without && !falsy) || self.words_at(k, &["user", "name"])
        })
    }

    /// Whether the code speaks to the application `name` (`tell application "Terminal"`,
    /// `tell app "iTerm"`, `application id "com.apple.Terminal"`).
    fn speaks_to(&self, name: &str) -> bool {
        self.toks.windows(2).any(|w| match w {
            [Tok::Word(a), Tok::Str(s)] if a == "application" || a == "app" => {
                let s = s.to_ascii_lowercase();
                s == name || s.ends_with(&format!(".{name}"))
            }
            _ => false,
        })
    }
}

/// Add what AppleScript `code` runs to `cx`; `who` names the command that runs it.
pub(super) fn effects(code: &str, who: &str, cx: &mut Collect<'_>) {
    if code.len() > MAX_CODE {
        cx.unsure(format!(
            "the AppleScript code of `{who}` is longer than {} KiB and is not read",
            MAX_CODE / 1024
        ));
        return;
    }
    let toks = lex(code);
    // `osascript -e "$SCRIPT"`: an expansion of the shell outside any AppleScript string is
    // code known only at run time (one inside a string is that string's text).
    if cx.dynamic && toks.iter().any(|t| matches!(t, Tok::Op('$' | '`'))) {
        cx.unsure(format!(
            "`{who}` runs AppleScript code that is only known at run time"
        ));
    }
    let mut r = Reader {
        toks: &toks,
        bindings: HashMap::new(),
    };
    r.bind();
    let terminals: Vec<(&str, [&str; 2])> = TERMINALS
        .iter()
        .filter(|(app, _)| r.speaks_to(app))
        .map(|(app, words)| (*app, *words))
        .collect();
    let mut i = 0;
    while i < toks.len() {
        if r.words_at(i, &["do", "shell", "script"]) {
            let (value, end) = r.expr(i + 3);
            let stop = r.statement_end(end);
            let call = if r.as_root(end, stop) {
                ADMIN_SHELL
            } else {
                SHELL
            };
            match value {
                Some(line) => cx.shell(call, line),
                None => cx.unknown(call, "a command"),
            }
            i = end;
            continue;
        }
        if r.words_at(i, &["run", "script"]) {
            let (value, end) = r.expr(i + 2);
            match value {
                Some(text) => cx.code("run script", text),
                None => cx.unknown("run script", "code"),
            }
            i = end;
            continue;
        }
        if let Some((app, words)) = terminals.iter().find(|(_, w)| r.words_at(i, w)) {
            let (value, end) = r.expr(i + 2);
            let call = format!("{} {} ({app})", words[0], words[1]);
            match value {
                Some(line) => cx.shell(&call, line),
                None => cx.unknown(&call, "a command"),
            }
            i = end;
            continue;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{Tok, lex, quoted_form};

    /// Strings keep their escapes resolved; comments of the three kinds and `¬` are gone.
    #[test]
    fn lexes_strings_comments_and_continuations() {
        let toks = lex(
            "do shell script \"echo \\\"a\\\\b\\\"\" -- note\n(* a (* nested *) one *) set x ¬\n to “y” # end",
        );
        assert_eq!(
            toks,
            vec![
                Tok::Word("do".into()),
                Tok::Word("shell".into()),
                Tok::Word("script".into()),
                Tok::Str("echo \"a\\b\"".into()),
                Tok::Newline,
                Tok::Word("set".into()),
                Tok::Word("x".into()),
                Tok::Word("to".into()),
                Tok::Str("y".into()),
            ]
        );
    }

    /// A long line of many commands is read in linear time, each with its own parameters.
    #[test]
    fn many_commands_on_one_line_are_read_with_their_parameters() {
        use super::super::collect::{Collect, Found};
        let mut code = "do shell script \"ls\" with administrator privileges ".repeat(4_000);
        code.push_str("do shell script \"id\"");
        let mut cx = Collect::new(None, false, &[], true);
        let start = std::time::Instant::now();
        super::effects(&code, "osascript -e", &mut cx);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let whos: Vec<String> = cx
            .found
            .iter()
            .filter_map(|f| match f {
                Found::Shell { who, text, .. } => Some(format!("{who}:{text}")),
                _ => None,
            })
            .collect();
        assert_eq!(
            whos.first().map(String::as_str),
            Some("do shell script with administrator privileges:ls")
        );
    }

    /// `quoted form of` gives what the shell reads back as the same string.
    #[test]
    fn quoted_form_escapes_single_quotes() {
        assert_eq!(quoted_form("it's"), r"'it'\''s'");
        assert_eq!(quoted_form("/tmp/a b"), "'/tmp/a b'");
    }
}
