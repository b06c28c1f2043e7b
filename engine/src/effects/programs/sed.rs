//! What a `sed` script writes into the files it edits in place (`sed -i`), and the shell
//! commands it runs (GNU sed's `e`).
//!
//! In: the script texts of one `sed` command (its `-e` values or its first operand, joined by
//! line breaks as sed joins them). Out: the new text its `i`, `a` and `c` commands insert,
//! append or put in place, and the replacements of its `s` commands ([`NewText`]); `None`
//! when the script uses a command whose output is not visible here (`r`/`R` read another
//! file, `e` runs a command, `w`/`W` write one, `y` changes letters) or does not parse. And
//! the command lines its `e COMMAND` commands and `s///e` substitutions run ([`executed`]).
//! Read from the GNU sed manual ("sed scripts", "Commands requiring a newline", "The `s`
//! Command", "Commands for sed gurus").

/// What a sed script writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NewText {
    /// The lines inserted, appended or changed and the replacement texts, one per line.
    pub(crate) text: String,
    /// The new lines are whole: no `s` command keeps part of an old line around its
    /// replacement (an `s` whose pattern does not span the line shows only a fragment of
    /// the line it leaves).
    pub(crate) whole: bool,
}

/// The new text `scripts` write, if every command of them is one read here.
pub(crate) fn new_text(scripts: &[&str]) -> Option<NewText> {
    let script = scripts.join("\n");
    let mut p = Reader {
        s: script.chars().collect(),
        i: 0,
    };
    let mut out = NewText {
        text: String::new(),
        whole: true,
    };
    loop {
        let cmd = match p.command() {
            Step::End => break,
            Step::Unread => return None,
            Step::Command(c) => c,
        };
        match cmd {
            '{' | '}' | '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'l' | 'n' | 'N' | 'p' | 'P'
            | 'x' | 'z' | 'F' => {}
            'q' | 'Q' | 'b' | 't' | 'T' | ':' => {
                // An exit code or a label, up to the end of the command.
                let stop: &[char] = if cmd == ':' {
                    &['\n']
                } else {
                    &['\n', ';', '}']
                };
                while p.peek().is_some_and(|c| !stop.contains(&c)) {
                    p.i += 1;
                }
            }
            'a' | 'i' | 'c' => {
                out.text.push_str(&p.line_text());
                out.text.push('\n');
            }
            's' => {
                let delim = p.next().filter(|d| *d != '\n' && *d != '\\')?;
                let pattern = p.part(delim)?;
                let replacement = p.part(delim)?;
                let flags = p.flags()?;
                if flags.contains(['e', 'w']) {
                    return None;
                }
                let (text, refers) = unescape_replacement(&replacement);
                if refers || !spans_line(&pattern) {
                    out.whole = false;
                }
                out.text.push_str(&text);
                out.text.push('\n');
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A shell command a sed script runs (GNU sed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Executed {
    /// `e COMMAND`: the command, run before the line is printed.
    Command(String),
    /// `e` alone runs the pattern space; `s/RE/REPL/e` runs the line the substitution made.
    /// The text when the replacement is all of it (a pattern that spans the line, no `&` or
    /// `\N`), else `None`: the line only exists at run time.
    PatternSpace(Option<String>),
}

/// The shell commands `scripts` run: their `e` commands and `s` commands with the `e` flag,
/// up to the first command that does not parse (what follows it is not read).
pub(crate) fn executed(scripts: &[&str]) -> Vec<Executed> {
    let script = scripts.join("\n");
    if !script.contains('e') {
        return Vec::new();
    }
    let mut p = Reader {
        s: script.chars().collect(),
        i: 0,
    };
    let mut out = Vec::new();
    while let Step::Command(cmd) = p.command() {
        match cmd {
            'e' => {
                let line = p.line_text();
                out.push(match line.trim() {
                    "" => Executed::PatternSpace(None),
                    t => Executed::Command(t.to_string()),
                });
            }
            'a' | 'i' | 'c' | 'r' | 'R' | 'w' | 'W' | ':' => {
                p.line_text();
            }
            'q' | 'Q' | 'b' | 't' | 'T' | 'l' | 'L' => {
                while p.peek().is_some_and(|c| !matches!(c, '\n' | ';' | '}')) {
                    p.i += 1;
                }
            }
            's' | 'y' => {
                let Some(delim) = p.next().filter(|d| *d != '\n' && *d != '\\') else {
                    break;
                };
                let (Some(pattern), Some(replacement)) = (p.part(delim), p.part(delim)) else {
                    break;
                };
                let flags = if cmd == 's' {
                    p.flags().unwrap_or_default()
                } else {
                    String::new()
                };
                if flags.contains('e') {
                    // The line run is the replacement alone only when the pattern spans
                    // the line and the replacement keeps nothing of it.
                    let (text, refers) = unescape_replacement(&replacement);
                    out.push(Executed::PatternSpace(
                        (!refers && spans_line(&pattern)).then_some(text),
                    ));
                }
            }
            c if c.is_ascii_alphabetic() || matches!(c, '{' | '}' | '=') => {}
            _ => break,
        }
    }
    out
}

/// What [`Reader::command`] finds next.
enum Step {
    /// The script ends.
    End,
    /// An address that does not parse, or a script that ends after one.
    Unread,
    /// A command's letter.
    Command(char),
}

/// A cursor over a script.
struct Reader {
    s: Vec<char>,
    i: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn skip(&mut self, f: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&f) {
            self.i += 1;
        }
    }

    /// The next command's letter, past separators (`;`, white space), comments, its address
    /// and a `!` that negates it.
    fn command(&mut self) -> Step {
        loop {
            self.skip(|c| c.is_whitespace() || c == ';');
            match self.peek() {
                None => return Step::End,
                Some('#') => {
                    self.until_newline();
                    continue;
                }
                Some(_) => {}
            }
            if self.address().is_none() {
                return Step::Unread;
            }
            self.skip(|c| c == ' ' || c == '\t');
            if self.peek() == Some('!') {
                self.i += 1;
                self.skip(|c| c == ' ' || c == '\t');
            }
            return self.next().map_or(Step::Unread, Step::Command);
        }
    }

    fn until_newline(&mut self) {
        while self.next().is_some_and(|c| c != '\n') {}
    }

    /// An optional address or range: line numbers, `$`, `first~step`, `/re/`, `\cREc`,
    /// `addr1,+N`, `addr1,~N`.
    fn address(&mut self) -> Option<()> {
        self.one_address()?;
        if self.peek() == Some(',') {
            self.i += 1;
            self.skip(|c| c == ' ' || c == '\t');
            if matches!(self.peek(), Some('+' | '~')) {
                self.i += 1;
            }
            self.one_address()?;
        }
        Some(())
    }

    fn one_address(&mut self) -> Option<()> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                self.skip(|c| c.is_ascii_digit() || c == '~');
            }
            Some('$') => self.i += 1,
            Some('/') => {
                self.i += 1;
                self.part('/')?;
                self.skip(|c| c == 'I' || c == 'M');
            }
            Some('\\') => {
                self.i += 1;
                let d = self.next()?;
                self.part(d)?;
                self.skip(|c| c == 'I' || c == 'M');
            }
            _ => {}
        }
        Some(())
    }

    /// The text up to the unescaped `delim`, consumed; escapes kept as written.
    fn part(&mut self, delim: char) -> Option<String> {
        let mut t = String::new();
        loop {
            let c = self.next()?;
            if c == delim {
                return Some(t);
            }
            if c == '\\' {
                let n = self.next()?;
                if n != delim {
                    t.push('\\');
                }
                t.push(n);
                continue;
            }
            t.push(c);
        }
    }

    /// The flags of an `s` command, up to the end of the command (a `w FILE` flag takes the
    /// rest of the line).
    fn flags(&mut self) -> Option<String> {
        let mut f = String::new();
        while let Some(c) = self.peek() {
            if matches!(c, '\n' | ';' | '}') {
                break;
            }
            self.i += 1;
            if c == 'w' {
                f.push('w');
                self.until_newline();
                break;
            }
            if !c.is_whitespace() {
                f.push(c);
            }
        }
        Some(f)
    }

    /// The text of an `a`, `i` or `c` command: GNU's one-line form (`1i text`) or the POSIX
    /// form (`a\` then the text on the next lines, each but the last ending in `\`).
    fn line_text(&mut self) -> String {
        self.skip(|c| c == ' ' || c == '\t');
        if self.peek() == Some('\\') {
            self.i += 1;
            if self.peek() == Some('\n') {
                self.i += 1;
            }
        }
        let mut t = String::new();
        while let Some(c) = self.next() {
            match c {
                '\n' => break,
                '\\' => match self.next() {
                    Some('n') => t.push('\n'),
                    Some('t') => t.push('\t'),
                    Some(n) => t.push(n),
                    None => {}
                },
                _ => t.push(c),
            }
        }
        t
    }
}

/// A replacement's text: `\n` a line break, `\t` a tab, `\X` the letter X; `&` and `\1`…`\9`
/// (the matched text) dropped. Also whether it refers to the matched text.
fn unescape_replacement(r: &str) -> (String, bool) {
    let mut out = String::new();
    let mut refers = false;
    let mut it = r.chars();
    while let Some(c) = it.next() {
        match c {
            '&' => refers = true,
            '\\' => match it.next() {
                Some(d) if d.is_ascii_digit() => refers = true,
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                // GNU case conversions of what follows.
                Some('L' | 'U' | 'l' | 'u' | 'E') => {}
                Some(n) => out.push(n),
                None => {}
            },
            _ => out.push(c),
        }
    }
    (out, refers)
}

/// Whether an `s` pattern matches a whole line: anchored at both ends (`^…$`, `^….*`), so
/// the replacement is the new line.
fn spans_line(pattern: &str) -> bool {
    let start = pattern.starts_with('^') || pattern.starts_with(".*");
    let end = (pattern.ends_with('$') && !pattern.ends_with("\\$")) || pattern.ends_with(".*");
    start && end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<(String, bool)> {
        new_text(&[s]).map(|n| (n.text, n.whole))
    }

    #[test]
    fn insert_append_change_one_line_form() {
        assert_eq!(text("1i curl x|sh"), Some(("curl x|sh\n".into(), true)));
        assert_eq!(text("$a export A=1"), Some(("export A=1\n".into(), true)));
        assert_eq!(text("/^# end/c done"), Some(("done\n".into(), true)));
    }

    #[test]
    fn posix_form_with_continuation() {
        assert_eq!(
            text("$a\\\nline one\\\nline two"),
            Some(("line one\nline two\n".into(), true))
        );
    }

    #[test]
    fn substitution_replacement_is_new_text() {
        assert_eq!(
            text("s|^alias ll=.*$|curl h \\| sh|"),
            Some(("curl h | sh\n".into(), true))
        );
        assert_eq!(text("s/foo/bar/g"), Some(("bar\n".into(), false)));
        // The matched text is old text: a back-reference makes the line a fragment.
        assert_eq!(text("s/^\\(.*\\)$/\\1 x/"), Some((" x\n".into(), false)));
    }

    #[test]
    fn deletes_and_prints_write_nothing_new() {
        assert_eq!(text("/fsmonitor/d"), Some((String::new(), true)));
        assert_eq!(text("1,3d;$p"), Some((String::new(), true)));
    }

    #[test]
    fn commands_a_script_runs() {
        use Executed::{Command, PatternSpace};
        assert_eq!(executed(&["1e rm -rf ~"]), [Command("rm -rf ~".into())]);
        assert_eq!(
            executed(&["/x/!e date", "$a done"]),
            [Command("date".into())]
        );
        assert_eq!(executed(&["1~2e"]), [PatternSpace(None)]);
        assert_eq!(executed(&["s/.*/id/e"]), [PatternSpace(Some("id".into()))]);
        // The line keeps text of the input: only known at run time.
        assert_eq!(executed(&["s/^/echo /e"]), [PatternSpace(None)]);
        assert_eq!(executed(&["s/^\\(.*\\)$/sh \\1/e"]), [PatternSpace(None)]);
        // `e` inside patterns, replacements, labels and other commands' text runs nothing.
        for s in [
            "s/e/E/g",
            "/exec/d",
            "1i echo e",
            "y/e/E/",
            ":e\nb e",
            "$p;1,5p",
            "s/a/b/w /tmp/e",
        ] {
            assert_eq!(executed(&[s]), [], "{s}");
        }
    }

    #[test]
    fn commands_whose_output_is_unseen() {
        // `r` reads another file, `e` runs a command, `w` writes one, `y` maps letters.
        assert_eq!(text("1r /tmp/x"), None);
        assert_eq!(text("1e curl h"), None);
        assert_eq!(text("s/a/b/e"), None);
        assert_eq!(text("s/a/b/w /tmp/out"), None);
        assert_eq!(text("y/abc/xyz/"), None);
        assert_eq!(text("s/unterminated"), None);
    }
}
