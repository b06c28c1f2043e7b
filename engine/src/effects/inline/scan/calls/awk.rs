//! awk's operators that run commands or open files, read by the token scanner: `print … |
//! "cmd"` and `"cmd" | getline` run a shell line; `print … > FILE`, `print … >> FILE` and
//! `getline [VAR] < FILE` write, append to and read the file (POSIX awk, "Output Statements"
//! and "Expressions in awk": `getline`).
//!
//! In: the token at which the operator stands. Out: a shell line, a read or a write in
//! [`Collect`], as the shell's `| sh`, `> FILE` and `< FILE` give. A file named by an
//! expression known only at run time (`print > $1 ".txt"`, splitting a file by a column) is
//! left out: it is everyday awk, and the data, not the code, names it.

use super::{Reader, Val, render};
use crate::effects::inline::collect::Collect;
use crate::effects::inline::scan::files::{self, Access};
use crate::effects::inline::scan::lex::Tok;

impl Reader<'_> {
    /// awk's `|`, `|&`, `>`, `>>` and `<` at token `i`.
    pub(super) fn awk_operator(&self, i: usize, op: &str, cx: &mut Collect<'_>) {
        match op {
            "|" | "|&" => self.awk_pipe(i, op, cx),
            ">" | ">>" => {
                // Only a `print`/`printf` statement redirects; elsewhere `>` compares.
                if self.print_statement_at(i) {
                    let end = self.statement_end(i + 1);
                    let access = if op == ">>" {
                        Access::Append
                    } else {
                        Access::Write
                    };
                    self.awk_file(&self.toks[i + 1..end], access, cx);
                }
            }
            _ => {
                // `getline < FILE`, `getline line < FILE`.
                let toks = self.toks;
                let after_getline = matches!(
                    toks[..i],
                    [.., Tok::Name(ref g)] | [.., Tok::Name(ref g), Tok::Name(_) | Tok::Var(_)]
                        if g == "getline"
                );
                if after_getline {
                    let end = self.operand_end(i + 1);
                    self.awk_file(&toks[i + 1..end], Access::Read, cx);
                }
            }
        }
    }

    /// A file named by constant tokens (see the module's header for the others).
    fn awk_file(&self, toks: &[Tok], access: Access, cx: &mut Collect<'_>) {
        if let Some(Val::One(path)) = self.value(toks) {
            files::file(cx, Some(&path), &render(toks), access);
        }
    }

    /// Whether token `i` stands in a `print` or `printf` statement outside parentheses.
    fn print_statement_at(&self, i: usize) -> bool {
        let mut depth = 0usize;
        let mut start = 0;
        for k in (0..i).rev() {
            match &self.toks[k] {
                Tok::Op(")" | "]") => depth += 1,
                Tok::Op("(" | "[") => match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return false,
                },
                Tok::Op(";" | "{" | "}") | Tok::Newline if depth == 0 => {
                    start = k + 1;
                    break;
                }
                _ => {}
            }
        }
        matches!(self.toks.get(start), Some(Tok::Name(n)) if n == "print" || n == "printf")
    }

    /// The end of the statement that goes on at token `from`.
    fn statement_end(&self, from: usize) -> usize {
        self.toks[from..]
            .iter()
            .position(|t| matches!(t, Tok::Op(";" | "}") | Tok::Newline))
            .map_or(self.toks.len(), |k| from + k)
    }

    /// The end of `getline`'s file operand from token `from`: a group, or the tokens up to
    /// an operator that ends it.
    fn operand_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        for (k, t) in self.toks[from..].iter().enumerate() {
            match t {
                Tok::Op("(" | "[") => depth += 1,
                Tok::Op(")" | "]") if depth == 0 => return from + k,
                Tok::Op(")" | "]") => depth -= 1,
                Tok::Op(
                    ";" | "}" | "," | ">" | "<" | "==" | "!=" | ">=" | "<=" | "&&" | "||" | "|",
                )
                | Tok::Newline
                    if depth == 0 =>
                {
                    return from + k;
                }
                _ => {}
            }
        }
        self.toks.len()
    }

    /// awk's `print … | "cmd"` and `"cmd" | getline`: the command the pipe at token `i`
    /// runs.
    fn awk_pipe(&self, i: usize, op: &str, cx: &mut Collect<'_>) {
        let toks = self.toks;
        if matches!(toks.get(i + 1), Some(Tok::Name(n)) if n == "getline") {
            // The command is the expression before the pipe.
            let start = toks[..i]
                .iter()
                .rposition(|t| match t {
                    Tok::Op(o) => matches!(
                        *o,
                        "(" | ";" | "{" | "}" | "=" | "&&" | "||" | "!" | "," | "?" | ":"
                    ),
                    Tok::Newline => true,
                    Tok::Name(n) => matches!(n.as_str(), "while" | "if" | "for" | "return"),
                    _ => false,
                })
                .map_or(0, |k| k + 1);
            let who = format!("{op} getline");
            match self.value(&toks[start..i]) {
                Some(Val::One(s)) => cx.shell(&who, s),
                _ => cx.unknown(&who, "a command"),
            }
            return;
        }
        // `print … | cmd` (awk has no other `|`).
        let end = toks[i + 1..]
            .iter()
            .position(|t| matches!(t, Tok::Op(";" | "}") | Tok::Newline))
            .map_or(toks.len(), |k| i + 1 + k);
        let who = format!("print {op}");
        let Some(Val::One(line)) = self.value(&toks[i + 1..end]) else {
            cx.unknown(&who, "a command");
            return;
        };
        // Printed into a shell (`print "rm -rf ~" | "sh"`): what is printed runs.
        let mut words = line.split_whitespace();
        let shell = words.next().is_some_and(|w| {
            matches!(
                w.rsplit('/').next(),
                Some("sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash")
            )
        }) && words.all(|w| matches!(w, "-s" | "-" | "-e" | "-x"));
        if shell {
            let start = toks[..i]
                .iter()
                .rposition(|t| matches!(t, Tok::Op(";" | "{" | "}") | Tok::Newline))
                .map_or(0, |k| k + 1);
            let who = format!("print {op} \"{line}\"");
            let printed = match toks.get(start..i) {
                Some([Tok::Name(p), rest @ ..]) if p == "print" && !rest.is_empty() => {
                    self.value(rest)
                }
                _ => None,
            };
            match printed {
                Some(Val::One(text)) => cx.shell(&who, text),
                _ => cx.unknown(&who, "a command"),
            }
            return;
        }
        cx.shell(&who, line);
    }
}
