//! The tokens of Perl, Ruby, PHP, Lua and awk code, enough to find the calls that run
//! commands: strings with their interpolations, command strings (backticks, `qx{}`, `%x{}`),
//! word lists (`qw()`, `%w[]`), regular expressions and comments skipped, names, variables and
//! operators.
//!
//! In: the code text and its [`Language`]. Out: a list of [`Tok`] in source order. Quoting
//! follows each language's manual: Perl's quote-like operators (`q`, `qq`, `qx`, `qw`, `m`,
//! `s`, `tr`, `y`, `qr`) with any delimiter, bracket delimiters nesting; Ruby's `%` literals
//! and `#{…}` interpolation; PHP's `$name` / `{$…}` interpolation and `#`, `//`, `/* */`
//! comments; Lua's long brackets (`[[…]]`, `--[==[…]==]`); awk's strings and regular
//! expressions. A `/` starts a regular expression where an operand is expected (Perl, Ruby,
//! awk) and divides after one.

use crate::effects::language::Language;

/// A part of a string: literal text or an interpolated expression as written.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Part {
    /// Literal text, escapes resolved.
    Lit(String),
    /// An interpolated expression (`$x`, `@{[…]}`, `#{…}`, `{$a['k']}`), as written.
    Expr(String),
}

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// A string; `command`: it runs as a shell line where it stands (backticks, `qx{}`,
    /// `%x{}`).
    Str {
        /// Its parts.
        parts: Vec<Part>,
        /// It is a command string.
        command: bool,
    },
    /// A literal list of words (`qw(a b)`, `%w[a b]`).
    Words(Vec<String>),
    /// A regular expression or a substitution (`/x/`, `s/a/b/`, `%r{…}`).
    Regex,
    /// A name (`system`, `os`, `Open3`, `getline`).
    Name(String),
    /// A variable with its sigil (`$x`, `@a`, `$ENV`, awk's `$1`).
    Var(String),
    /// A number.
    Num(String),
    /// An operator or punctuation (`(`, `.`, `..`, `::`, `->`, `=>`, `|`).
    Op(&'static str),
    /// A line end (it ends a statement in Ruby, Lua and awk).
    Newline,
}

/// Operators, longest first.
const OPS: &[&str] = &[
    "<=>", "...", "**=", "||=", "&&=", "//=", "..", "::", "->", "=>", "=~", "!~", "||", "&&", "|&",
    "==", "!=", "<=", ">=", ">>", "<<", "+=", "-=", ".=", "*=", "/=", "%=", "|=", "++", "--", "(",
    ")", "[", "]", "{", "}", ",", ";", ".", "=", "|", "&", "<", ">", "+", "-", "*", "/", "%", "!",
    "?", ":", "~", "^", "\\", "@", "$", "#",
];

/// Names after which a `/` starts a regular expression, not a division.
const REGEX_AFTER: &[&str] = &[
    "if", "unless", "and", "or", "not", "split", "grep", "return", "when", "while", "until",
    "print", "printf", "map", "join", "x", "lt", "gt", "le", "ge", "eq", "ne", "cmp", "in",
];

/// The tokens of `code` in `lang`.
pub(super) fn lex(lang: Language, code: &str) -> Vec<Tok> {
    let mut lx = Lexer {
        c: code.chars().collect(),
        i: 0,
        lang,
        out: Vec::new(),
    };
    lx.run();
    lx.out
}

/// The state of the tokenizer.
struct Lexer {
    /// The code.
    c: Vec<char>,
    /// The position.
    i: usize,
    /// The language.
    lang: Language,
    /// The tokens so far.
    out: Vec<Tok>,
}

impl Lexer {
    /// The character `k` places ahead.
    fn at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    /// Whether the text at the position starts with `s`.
    fn starts(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, ch)| self.at(k) == Some(ch))
    }

    /// Whether the last token is an operand (a `/` after it divides).
    fn operand_before(&self) -> bool {
        match self.out.last() {
            Some(Tok::Str { .. } | Tok::Words(_) | Tok::Regex | Tok::Var(_) | Tok::Num(_)) => true,
            Some(Tok::Op(o)) => matches!(*o, ")" | "]" | "}"),
            Some(Tok::Name(n)) if REGEX_AFTER.contains(&n.as_str()) => false,
            // A variable in awk; in Perl and Ruby a name spaced as a call's argument
            // (`split /,/`, `puts %(x)`) starts a literal, spaced as an operator divides.
            Some(Tok::Name(_)) => {
                self.lang == Language::Awk
                    || !(self.i > 0
                        && self.c.get(self.i - 1).is_some_and(|c| c.is_whitespace())
                        && self.at(1).is_some_and(|c| !c.is_whitespace()))
            }
            Some(Tok::Newline) | None => false,
        }
    }

    /// Skip to the end of the line (the newline stays).
    fn skip_line(&mut self) {
        while let Some(ch) = self.at(0) {
            if ch == '\n' {
                break;
            }
            self.i += 1;
        }
    }

    /// Skip past `end` (or to the end of the code).
    fn skip_past(&mut self, end: &str) {
        while self.at(0).is_some() && !self.starts(end) {
            self.i += 1;
        }
        self.i = (self.i + end.chars().count()).min(self.c.len());
    }

    /// Read the text after an opening delimiter `open` (already passed) up to its closing
    /// one; bracket delimiters nest. Backslashes are kept as written.
    fn delimited(&mut self, open: char) -> String {
        let close = closing(open);
        let mut depth = 0usize;
        let mut s = String::new();
        while let Some(ch) = self.at(0) {
            self.i += 1;
            if ch == '\\' {
                s.push(ch);
                if let Some(n) = self.at(0) {
                    s.push(n);
                    self.i += 1;
                }
                continue;
            }
            if ch == close && depth == 0 {
                return s;
            }
            if close != open {
                if ch == open {
                    depth += 1;
                } else if ch == close {
                    depth -= 1;
                }
            }
            s.push(ch);
        }
        s
    }

    /// A Lua long bracket at the position (`[[`, `[==[`): its level, if one starts here.
    fn long_bracket(&self) -> Option<usize> {
        if self.at(0) != Some('[') {
            return None;
        }
        let mut k = 1;
        while self.at(k) == Some('=') {
            k += 1;
        }
        (self.at(k) == Some('[')).then_some(k - 1)
    }

    /// Read a Lua long string of `level` at the position.
    fn long_string(&mut self, level: usize) -> String {
        self.i += level + 2;
        let end = format!("]{}]", "=".repeat(level));
        // A newline right after the opening bracket is skipped.
        if self.at(0) == Some('\n') {
            self.i += 1;
        }
        let start = self.i;
        while self.at(0).is_some() && !self.starts(&end) {
            self.i += 1;
        }
        let s: String = self.c[start..self.i.min(self.c.len())].iter().collect();
        self.i = (self.i + end.len()).min(self.c.len());
        s
    }

    /// Push a string read from `raw`: with interpolation or not.
    fn string(&mut self, raw: &str, interpolate: bool, command: bool) {
        let parts = if interpolate {
            interpolated(self.lang, raw)
        } else {
            vec![Part::Lit(single_quoted(self.lang, raw))]
        };
        self.out.push(Tok::Str { parts, command });
    }

    /// Read the tokens.
    fn run(&mut self) {
        while let Some(ch) = self.at(0) {
            if ch == '\n' {
                self.i += 1;
                self.out.push(Tok::Newline);
                continue;
            }
            if ch.is_whitespace() {
                self.i += 1;
                continue;
            }
            if self.comment() {
                continue;
            }
            if self.quote(ch) {
                continue;
            }
            if ch.is_alphabetic() || ch == '_' {
                self.name();
                continue;
            }
            if ch.is_ascii_digit() {
                let start = self.i;
                // A `.` is part of the number only before a digit: `1..2` is a range and
                // `46.chr` a method call.
                while self.at(0).is_some_and(|c| {
                    c.is_ascii_alphanumeric()
                        || c == '_'
                        || c == '.' && self.at(1).is_some_and(|d| d.is_ascii_digit())
                }) {
                    self.i += 1;
                }
                let n: String = self.c[start..self.i].iter().collect();
                self.out.push(Tok::Num(n));
                continue;
            }
            if self.variable(ch) {
                continue;
            }
            // R's assignment arrow (`d <- "~"`).
            if self.lang == Language::R && self.starts("<-") {
                self.i += 2;
                self.out.push(Tok::Op("<-"));
                continue;
            }
            let op = OPS.iter().find(|o| self.starts(o)).copied().unwrap_or("?");
            self.i += op.chars().count().max(1);
            self.out.push(Tok::Op(op));
        }
    }

    /// Skip a comment at the position, if one starts here.
    fn comment(&mut self) -> bool {
        let lang = self.lang;
        match self.at(0) {
            Some('#')
                if lang != Language::Lua
                    && !(lang == Language::Julia && self.at(1) == Some('=')) =>
            {
                // PHP 8 attributes (`#[…]`) are code, but hold no calls that run commands.
                self.skip_line();
                true
            }
            Some('/') if lang == Language::Php && self.at(1) == Some('/') => {
                self.skip_line();
                true
            }
            Some('/') if lang == Language::Php && self.at(1) == Some('*') => {
                self.i += 2;
                self.skip_past("*/");
                true
            }
            Some('#') if lang == Language::Julia && self.at(1) == Some('=') => {
                self.i += 2;
                self.skip_past("=#");
                true
            }
            Some('-') if lang == Language::Lua && self.at(1) == Some('-') => {
                self.i += 2;
                match self.long_bracket() {
                    Some(level) => {
                        self.long_string(level);
                    }
                    None => self.skip_line(),
                }
                true
            }
            Some('=') if lang == Language::Ruby && self.starts("=begin") && self.line_start() => {
                self.skip_past("\n=end");
                self.skip_line();
                true
            }
            Some('?') if lang == Language::Php && self.at(1) == Some('>') => {
                // `?>`: the rest up to the next `<?php` is output, not code.
                self.i += 2;
                self.skip_past("<?php");
                true
            }
            Some('<') if lang == Language::Php && self.starts("<?php") => {
                self.i += 5;
                true
            }
            _ => false,
        }
    }

    /// Whether the position is at the start of a line.
    fn line_start(&self) -> bool {
        self.i == 0 || self.c.get(self.i - 1) == Some(&'\n')
    }

    /// Read a quoted literal starting with `ch`, if one starts here.
    fn quote(&mut self, ch: char) -> bool {
        let lang = self.lang;
        match ch {
            '\'' if lang != Language::Awk => {
                self.i += 1;
                let raw = self.delimited('\'');
                let interpolate = false;
                self.string(&raw, interpolate, false);
            }
            '"' => {
                self.i += 1;
                let raw = self.delimited('"');
                self.string(&raw, true, false);
            }
            // Julia's command literals (`run(`make test`)`) interpolate `$x` and `$(…)`.
            '`' if matches!(
                lang,
                Language::Perl | Language::Ruby | Language::Php | Language::Julia
            ) =>
            {
                self.i += 1;
                let raw = self.delimited('`');
                self.string(&raw, true, true);
            }
            '[' if lang == Language::Lua && self.long_bracket().is_some() => {
                let level = self.long_bracket().unwrap_or(0);
                let s = self.long_string(level);
                self.out.push(Tok::Str {
                    parts: vec![Part::Lit(s)],
                    command: false,
                });
            }
            '/' if matches!(lang, Language::Perl | Language::Ruby | Language::Awk)
                && !self.operand_before() =>
            {
                self.i += 1;
                self.delimited('/');
                self.modifiers();
                self.out.push(Tok::Regex);
            }
            '%' if lang == Language::Ruby => return self.percent(),
            _ => return false,
        }
        true
    }

    /// Skip the modifier letters after a regular expression (`/x/gi`).
    fn modifiers(&mut self) {
        while self.at(0).is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
    }

    /// A Ruby `%` literal (`%w[…]`, `%x(…)`, `%q{…}`, `%(…)`), if one starts here.
    fn percent(&mut self) -> bool {
        let (kind, delim) = match (self.at(1), self.at(2)) {
            (Some(k), Some(d)) if "qQwWiIxrs".contains(k) && is_delimiter(d) => (Some(k), d),
            (Some(d), _) if "([{<|!/".contains(d) && !self.operand_before() => (None, d),
            _ => return false,
        };
        self.i += if kind.is_some() { 3 } else { 2 };
        let raw = self.delimited(delim);
        match kind {
            Some('w' | 'W' | 'i' | 'I') => self.out.push(Tok::Words(
                raw.split_whitespace().map(str::to_string).collect(),
            )),
            Some('x') => self.string(&raw, true, true),
            Some('q' | 's') => self.string(&raw, false, false),
            Some('r') => {
                self.modifiers();
                self.out.push(Tok::Regex);
            }
            _ => self.string(&raw, true, false),
        }
        true
    }

    /// A name; in Perl, a quote-like operator (`qx{…}`, `s/a/b/`) when a delimiter follows.
    fn name(&mut self) {
        let start = self.i;
        while self.at(0).is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.i += 1;
        }
        let name: String = self.c[start..self.i].iter().collect();
        let after_arrow = matches!(self.out.last(), Some(Tok::Op("->")));
        if self.lang == Language::Perl
            && !after_arrow
            && matches!(
                name.as_str(),
                "q" | "qq" | "qx" | "qw" | "m" | "s" | "tr" | "y" | "qr"
            )
            && self.at(0).is_some_and(is_delimiter)
            && !(self.at(0) == Some('=') && self.at(1) == Some('>'))
        {
            let open = self.at(0).unwrap_or('/');
            self.i += 1;
            let body = self.delimited(open);
            match name.as_str() {
                "q" => self.string(&body, false, false),
                "qq" => self.string(&body, true, false),
                "qx" => self.string(&body, open != '\'', true),
                "qw" => self.out.push(Tok::Words(
                    body.split_whitespace().map(str::to_string).collect(),
                )),
                "s" | "tr" | "y" => {
                    // The replacement: a second body, after its own opening bracket when the
                    // delimiters are brackets.
                    if closing(open) != open {
                        while self.at(0).is_some_and(char::is_whitespace) {
                            self.i += 1;
                        }
                        if let Some(o) = self.at(0) {
                            self.i += 1;
                            self.delimited(o);
                        }
                    } else {
                        self.delimited(open);
                    }
                    self.modifiers();
                    self.out.push(Tok::Regex);
                }
                _ => {
                    self.modifiers();
                    self.out.push(Tok::Regex);
                }
            }
            return;
        }
        if self.lang == Language::Perl && matches!(name.as_str(), "__END__" | "__DATA__") {
            self.i = self.c.len();
            return;
        }
        self.out.push(Tok::Name(name));
    }

    /// A variable with its sigil, if one starts here (`$x`, `@a`, `%h`, `$1`, `${x}`).
    fn variable(&mut self, ch: char) -> bool {
        let sigil = matches!(
            (self.lang, ch),
            (Language::Perl, '$' | '@' | '%')
                | (Language::Ruby, '$' | '@')
                | (Language::Php | Language::Awk, '$')
        );
        if !sigil {
            return false;
        }
        if self.lang == Language::Perl && ch == '%' && self.operand_before() {
            return false;
        }
        let start = self.i;
        self.i += 1;
        while self.at(0) == Some('@') || (ch == '$' && self.at(0) == Some('#')) {
            self.i += 1;
        }
        if self.at(0) == Some('{') && self.lang == Language::Perl {
            self.i += 1;
            self.delimited('{');
        } else if self
            .at(0)
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            while self
                .at(0)
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            {
                self.i += 1;
            }
        } else if self.lang == Language::Perl
            && ch == '$'
            && self.at(0).is_some_and(|c| "&`'+!@/\\,;.0_".contains(c))
        {
            self.i += 1;
        } else {
            self.i = start;
            return false;
        }
        let v: String = self.c[start..self.i].iter().collect();
        self.out.push(Tok::Var(v));
        true
    }
}

/// The closing delimiter of `open`.
fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c => c,
    }
}

/// Whether `c` can open a quote-like operator's text.
fn is_delimiter(c: char) -> bool {
    !c.is_alphanumeric()
        && !c.is_whitespace()
        && !matches!(c, '_' | ',' | ';' | ')' | ']' | '}' | '>' | '=')
}

/// The text of a string without interpolation: `\\` and an escaped quote lose their
/// backslash (Lua and awk strings resolve every escape).
fn single_quoted(lang: Language, raw: &str) -> String {
    if matches!(lang, Language::Lua | Language::Awk) {
        return escaped(raw, false);
    }
    let mut out = String::new();
    let mut it = raw.chars().peekable();
    while let Some(ch) = it.next() {
        if ch == '\\'
            && let Some(&n) = it.peek()
            && matches!(n, '\\' | '\'')
        {
            out.push(n);
            it.next();
            continue;
        }
        out.push(ch);
    }
    out
}

/// The text of `raw` with its backslash escapes resolved; `keep_unknown`: an unknown escape
/// keeps its backslash (PHP).
fn escaped(raw: &str, keep_unknown: bool) -> String {
    let mut out = String::new();
    let mut it = raw.chars().peekable();
    while let Some(ch) = it.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let Some(n) = it.next() else {
            out.push('\\');
            break;
        };
        match n {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'e' => out.push('\x1b'),
            'x' => {
                let mut hex = String::new();
                while hex.len() < 2 && it.peek().is_some_and(char::is_ascii_hexdigit) {
                    hex.extend(it.next());
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) => out.push(c),
                    None => out.push_str("\\x"),
                }
            }
            '\\' | '"' | '\'' | '$' | '`' | '/' | '#' | '@' | '{' | '}' => out.push(n),
            c if keep_unknown => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The parts of an interpolating string (`"…"`, backticks, `qq{}`, `%x()`) in `lang`.
fn interpolated(lang: Language, raw: &str) -> Vec<Part> {
    let c: Vec<char> = raw.chars().collect();
    let mut parts: Vec<Part> = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let flush = |lit: &mut String, parts: &mut Vec<Part>| {
        if !lit.is_empty() {
            parts.push(Part::Lit(escaped(lit, lang == Language::Php)));
            lit.clear();
        }
    };
    while let Some(&ch) = c.get(i) {
        if ch == '\\' {
            lit.push(ch);
            if let Some(&n) = c.get(i + 1) {
                lit.push(n);
            }
            i += 2;
            continue;
        }
        let end = match lang {
            Language::Ruby if ch == '#' => match c.get(i + 1) {
                Some('{') => Some(group_end(&c, i + 1)),
                Some('$' | '@') => Some(name_end(&c, i + 2)),
                _ => None,
            },
            Language::Perl | Language::Php
                if ch == '$' || (ch == '@' && lang == Language::Perl) =>
            {
                match c.get(i + 1) {
                    Some('{') => Some(group_end(&c, i + 1)),
                    Some(n) if n.is_alphanumeric() || *n == '_' || *n == ':' => {
                        Some(subscripts(lang, &c, name_end(&c, i + 1)))
                    }
                    _ => None,
                }
            }
            Language::Php if ch == '{' && c.get(i + 1) == Some(&'$') => Some(group_end(&c, i)),
            // Julia: `$name`, `$(expr)`.
            Language::Julia if ch == '$' => match c.get(i + 1) {
                Some('(') => Some(group_end(&c, i + 1)),
                Some(n) if n.is_alphabetic() || *n == '_' => Some(name_end(&c, i + 1)),
                _ => None,
            },
            _ => None,
        };
        match end {
            Some(e) => {
                flush(&mut lit, &mut parts);
                parts.push(Part::Expr(c[i..e.min(c.len())].iter().collect()));
                i = e;
            }
            None => {
                lit.push(ch);
                i += 1;
            }
        }
    }
    flush(&mut lit, &mut parts);
    parts
}

/// The end of the bracket group opening at `open` (one past its closing bracket).
fn group_end(c: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    let mut k = open;
    while let Some(&ch) = c.get(k) {
        match ch {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    c.len()
}

/// The end of a name starting at `k`.
fn name_end(c: &[char], mut k: usize) -> usize {
    while c
        .get(k)
        .is_some_and(|ch| ch.is_alphanumeric() || *ch == '_' || *ch == ':')
    {
        k += 1;
    }
    k
}

/// The end of the subscripts after an interpolated name at `k` (`$h{k}`, `$a[0]`,
/// `$o->{k}`, PHP `$a['k']`, `$o->p`).
fn subscripts(lang: Language, c: &[char], mut k: usize) -> usize {
    loop {
        match c.get(k) {
            Some('[') => k = group_end(c, k),
            Some('{') if lang == Language::Perl => k = group_end(c, k),
            Some('-') if c.get(k + 1) == Some(&'>') => match c.get(k + 2) {
                Some('[' | '{') if lang == Language::Perl => k = group_end(c, k + 2),
                Some(n) if lang == Language::Php && (n.is_alphabetic() || *n == '_') => {
                    return name_end(c, k + 2);
                }
                _ => return k,
            },
            _ => return k,
        }
    }
}
