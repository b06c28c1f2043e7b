//! Word expansion: from a word as written to the [`Arg`] a program receives.
//!
//! In: one word of the parse tree (`"$HOME"/x`, `\rm`, `$'\x72\x6d'`, `$(…)`) and what the
//! analysis knows at that point (variables assigned earlier on the line, the working
//! directory). Out: its text after quote removal with every known expansion substituted, and
//! whether any part stays only known at run time ([`Arg::dynamic`]). A command substitution is
//! analysed as a script of its own on the way. Globs are kept as written (path tests expand
//! them against the file system, see [`crate::paths::expand_glob`]).

use brush_parser::ast;
use brush_parser::word::{
    self, Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource,
};

use super::Arg;
use super::braces;
use super::context::LineAnalysis;
use super::quote::{decode_ansi_c, strip_ansi_quotes, strip_single_quotes, unescape_backquoted};

/// IFS when the line does not set it (bash sets it at start, whatever the environment says).
const DEFAULT_IFS: &str = " \t\n";

/// Where an expansion's value splits a word into fields (NUL cannot occur in a shell word).
const FIELD_BREAK: char = '\0';

/// Most unquoted `{` in a word that brace expansion reads (see [`unquoted_braces`]).
const MAX_BRACES: usize = 6;

/// Most words one brace expansion is written out to.
const MAX_BRACE_WORDS: usize = 256;

impl LineAnalysis {
    /// Append the expansion of `pieces` to `out`; `in_dq` inside double quotes.
    fn pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        in_dq: bool,
        via: &[String],
        depth: usize,
        out: &mut Arg,
    ) {
        for p in pieces {
            match &p.piece {
                WordPiece::Text(s) => out.text.push_str(s),
                WordPiece::SingleQuotedText(s) => out.text.push_str(strip_single_quotes(s)),
                WordPiece::AnsiCQuotedText(s) => {
                    out.text.push_str(&decode_ansi_c(strip_ansi_quotes(s)))
                }
                WordPiece::DoubleQuotedSequence(v) | WordPiece::GettextDoubleQuotedSequence(v) => {
                    self.pieces(v, true, via, depth, out)
                }
                WordPiece::EscapeSequence(s) => {
                    let rest = s.strip_prefix('\\').unwrap_or(s);
                    if in_dq && !rest.starts_with(['$', '`', '"', '\\', '\n']) {
                        out.text.push_str(s);
                    } else if rest != "\n" {
                        out.text.push_str(rest);
                    }
                }
                WordPiece::TildeExpansion(t) => match t {
                    TildeExpr::Home => out.text.push('~'),
                    TildeExpr::UserHome(u) => {
                        out.text.push('~');
                        out.text.push_str(u);
                    }
                    TildeExpr::WorkingDir => match &self.cwd {
                        Some(c) => out.text.push_str(c),
                        None => {
                            out.text.push_str("~+");
                            out.dynamic = true;
                        }
                    },
                    _ => {
                        out.text.push('~');
                        out.dynamic = true;
                    }
                },
                WordPiece::ParameterExpansion(ParameterExpr::UseDefaultValues {
                    parameter: Parameter::Named(n),
                    indirect: false,
                    test_type,
                    default_value,
                })
                | WordPiece::ParameterExpansion(ParameterExpr::AssignDefaultValues {
                    parameter: Parameter::Named(n),
                    indirect: false,
                    test_type,
                    default_value,
                }) => {
                    let assign = matches!(
                        p.piece,
                        WordPiece::ParameterExpansion(ParameterExpr::AssignDefaultValues { .. })
                    );
                    let known = self.vars.get(n).cloned().filter(|v| {
                        !(v.is_empty() && matches!(test_type, word::ParameterTestType::UnsetOrNull))
                    });
                    match known {
                        Some(v) => self.push_value(&v, in_dq, out),
                        None => {
                            // `${EDITOR:-vi}`: not set on this line, so the default the line
                            // gives; the environment could still set it, which makes the word
                            // dynamic, but a command word is known by its default
                            // ([`LineAnalysis::defaulted`]).
                            let mut d = Arg {
                                text: String::new(),
                                dynamic: false,
                            };
                            let raw = default_value.as_deref().unwrap_or("");
                            match word::parse(raw, &self.options) {
                                Ok(ps) => self.pieces(&ps, in_dq, via, depth, &mut d),
                                Err(_) => {
                                    d.text = raw.to_string();
                                    d.dynamic = true;
                                }
                            }
                            if assign && !d.dynamic {
                                self.vars.insert(n.clone(), d.text.clone());
                            }
                            out.text.push_str(&d.text);
                            if d.dynamic || d.text.contains([' ', '\t', '\n']) {
                                self.resolved_by_default = false;
                            }
                            self.defaults_used += 1;
                            out.dynamic = true;
                        }
                    }
                }
                WordPiece::ParameterExpansion(pe) => {
                    let name = match pe {
                        ParameterExpr::Parameter {
                            parameter: Parameter::Named(n),
                            indirect: false,
                        }
                        // `${HOME:?}`: the value when set; unset (or null), the shell reports
                        // the message and runs nothing of the command, so only the value can
                        // reach the program.
                        | ParameterExpr::IndicateErrorIfNullOrUnset {
                            parameter: Parameter::Named(n),
                            indirect: false,
                            ..
                        } => Some(n.clone()),
                        _ => None,
                    };
                    match name {
                        Some(n) if self.vars.contains_key(&n) => {
                            if let Some(v) = self.vars.get(&n) {
                                self.push_value(v, in_dq, out);
                            }
                        }
                        // bash sets IFS itself when it starts (it does not take it from the
                        // environment): unset on the line, `$IFS` is space, tab, newline.
                        Some(n) if n == "IFS" => self.push_value(DEFAULT_IFS, in_dq, out),
                        Some(n) if n == "HOME" => out.text.push('~'),
                        // `TMP=$(mktemp); cat "$TMP"`: the substitution it was set to.
                        Some(n) if self.located.contains_key(&n) => {
                            out.text
                                .push_str(self.located.get(&n).map(String::as_str).unwrap_or(""));
                            out.dynamic = true;
                        }
                        Some(n) if n == "PWD" && self.cwd.is_some() => {
                            out.text.push_str(self.cwd.as_deref().unwrap_or(""));
                        }
                        Some(n) => {
                            out.text.push('$');
                            out.text.push_str(&n);
                            out.dynamic = true;
                        }
                        None => {
                            out.text.push_str("${…}");
                            out.dynamic = true;
                        }
                    }
                }
                WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                    let mut v = via.to_vec();
                    v.push("$(…)".to_string());
                    let saved = self.cwd.clone();
                    let script = if matches!(p.piece, WordPiece::BackquotedCommandSubstitution(_)) {
                        unescape_backquoted(s)
                    } else {
                        s.clone()
                    };
                    let before = self.out.len();
                    let unsure_before = self.unsure.clone();
                    if bodiless_function(&script) {
                        // `` `Build()` `` (Markdown in a commit message or a note): bash parses
                        // a backquoted text when it runs it, fails on a function header with
                        // no body, runs nothing of it and substitutes nothing.
                        self.cwd = saved;
                        out.text.push_str("$(…)");
                        out.dynamic = true;
                        continue;
                    }
                    self.script(&script, &v, depth + 1);
                    self.cwd = saved;
                    if let (Some(cwd), true) = (self.cwd.as_deref(), prints_working_dir(&script)) {
                        // `-v "$(pwd)":/app`: the working folder, known like `$PWD`.
                        if self.unsure == unsure_before {
                            out.text.push_str(cwd);
                            continue;
                        }
                    }
                    let written = if self.unsure == unsure_before {
                        self.locator_text(before, &v)
                    } else {
                        None
                    };
                    if let Some(text) = written {
                        // `$(command -v codex)`, `$(ls tests | head -n 1)`: written out, so
                        // path tests know its kind.
                        out.text.push_str(&text);
                    } else if self.unsure == unsure_before && self.only_generator(before, &v) {
                        // `$(pyenv init -)`: environment definitions, named for `eval`.
                        let shown = self
                            .out
                            .get(before)
                            .map(|c| {
                                std::iter::once(c.program.as_str())
                                    .chain(c.args.iter().map(|a| a.text.as_str()))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            })
                            .unwrap_or_default();
                        let text = format!("$({shown})");
                        self.generated.insert(text.clone());
                        out.text.push_str(&text);
                    } else {
                        out.text.push_str("$(…)");
                    }
                    out.dynamic = true;
                }
                WordPiece::ArithmeticExpression(_) => {
                    out.text.push_str("$((…))");
                    out.dynamic = true;
                }
            }
        }
    }

    /// The substitution whose commands were recorded from `before` on with wrapper path `via`,
    /// written out (`$(command -v codex)`, `$(ls -t logs/ | head -1)`) when it is one locator
    /// command or one listing pipeline ([`super::locators`]): every command plain (its program
    /// and words known, no substitution of its own, no redirection but of errors to
    /// `/dev/null`) and each piped into the next.
    fn locator_text(&self, before: usize, via: &[String]) -> Option<String> {
        let mine = self.out.get(before..)?;
        let plain = |w: &str| {
            !w.is_empty() && !w.contains(|c: char| c.is_whitespace() || "|()$`…;&<>".contains(c))
        };
        let mut elements: Vec<Vec<&str>> = Vec::new();
        for (k, c) in mine.iter().enumerate() {
            let piped = k == 0 || self.pipes.contains(&(before + k - 1, before + k));
            if c.via != via
                || c.dynamic_program
                || !piped
                || c.args.iter().any(|a| a.dynamic || !plain(&a.text))
                || c.redirects
                    .iter()
                    .any(|r| r.dynamic || r.text != "/dev/null")
                || !plain(c.basename())
            {
                return None;
            }
            elements.push(
                std::iter::once(c.basename())
                    .chain(c.args.iter().map(|a| a.text.as_str()))
                    .collect(),
            );
        }
        let known = match elements.as_slice() {
            [] => false,
            [one] => {
                // A locator keeps the program as written (`command -v`, `go env GOPATH`).
                super::locators::locator_path(one).is_some()
                    || super::locators::listing_pattern(&elements).is_some()
            }
            _ => super::locators::listing_pattern(&elements).is_some(),
        };
        known.then(|| {
            let shown: Vec<String> = elements.iter().map(|e| e.join(" ")).collect();
            format!("$({})", shown.join(" | "))
        })
    }

    /// Expand one word; a word the word parser cannot read makes the line unsure and is kept
    /// as written, dynamic.
    pub(super) fn word(&mut self, w: &ast::Word, via: &[String], depth: usize) -> Arg {
        self.word_with_default(w, via, depth).0
    }

    /// Append a variable's value: quoted as it is; unquoted, each character of IFS in it
    /// becomes a [`FIELD_BREAK`], where the shell splits the word into fields.
    fn push_value(&self, v: &str, in_dq: bool, out: &mut Arg) {
        let ifs = self.vars.get("IFS").map_or(DEFAULT_IFS, String::as_str);
        if in_dq {
            out.text.push_str(v);
        } else {
            out.text.extend(
                v.chars()
                    .map(|c| if ifs.contains(c) { FIELD_BREAK } else { c }),
            );
        }
    }

    /// The fields bash makes of a command's word: brace expansion first (`{rm,-rf,~}` is three
    /// words, `-{r,f}` two, `f{1..3}` three), then the expansions, each word split where an
    /// unquoted value holds a character of IFS (`R="rm -rf"; $R`, `cat${IFS}f`,
    /// `IFS=,; x=cat,f; $x`). With one field, whether it is known by the defaults it gives, as
    /// in [`LineAnalysis::word_with_default`].
    pub(super) fn fields(
        &mut self,
        w: &ast::Word,
        via: &[String],
        depth: usize,
    ) -> (Vec<Arg>, bool) {
        let mut out = Vec::new();
        let Some(braced) = self.brace_words(&w.value) else {
            let defaulted = self.push_fields(w, via, depth, &mut out) && out.len() == 1;
            return (out, defaulted);
        };
        for t in &braced {
            self.push_fields(&ast::Word::new(t), via, depth, &mut out);
        }
        (out, false)
    }

    /// Append the fields of one word (no brace expansion) to `out`; whether it is one field
    /// known by the defaults it gives.
    fn push_fields(
        &mut self,
        word: &ast::Word,
        via: &[String],
        depth: usize,
        out: &mut Vec<Arg>,
    ) -> bool {
        let (a, defaulted) = self.expand_word(word, via, depth);
        if !a.text.contains(FIELD_BREAK) {
            out.push(a);
            return defaulted;
        }
        out.extend(
            a.text
                .split(FIELD_BREAK)
                .filter(|f| !f.is_empty())
                .map(|f| Arg {
                    text: f.to_string(),
                    dynamic: a.dynamic,
                }),
        );
        false
    }

    /// The words brace expansion writes a word out to (raw shell text, quotes kept), or
    /// `None` when it has no brace expression. A word that would make more than
    /// [`MAX_BRACE_WORDS`] words stays one word, only known at run time (see
    /// [`LineAnalysis::word_with_default`]).
    fn brace_words(&mut self, raw: &str) -> Option<Vec<String>> {
        if !raw.contains('{') || !(raw.contains(',') || raw.contains("..")) {
            return None;
        }
        // A word with more unquoted braces than anyone writes by hand is not expanded but
        // reported: each brace multiplies the words and the work.
        if unquoted_braces(raw) > MAX_BRACES {
            self.mark_unsure(format!(
                "`{raw}` has more than {MAX_BRACES} braces for brace expansion"
            ));
            return None;
        }
        let Ok(words) = braces::expand(raw, MAX_BRACE_WORDS) else {
            self.mark_unsure(format!(
                "brace expansion of `{raw}` makes more than {MAX_BRACE_WORDS} words"
            ));
            return None;
        };
        if words.len() == 1 && words[0] == raw {
            return None;
        }
        // Each word is expanded (its substitutions analysed) on its own: the copies share
        // the line's unrolling budget with loops.
        let cost = raw.len().saturating_mul(words.len().saturating_sub(1));
        if cost > self.loop_budget {
            self.mark_unsure(format!(
                "brace expansion of `{raw}` repeats more of the line than seamguard unrolls"
            ));
            return None;
        }
        self.loop_budget -= cost;
        Some(words)
    }

    /// [`LineAnalysis::word`], and whether its only unknown parts are variables not set on
    /// this line whose default the word gives (`${EDITOR:-vi}`): the text is then the word
    /// with those defaults.
    pub(super) fn word_with_default(
        &mut self,
        w: &ast::Word,
        via: &[String],
        depth: usize,
    ) -> (Arg, bool) {
        let (mut a, defaulted) = self.expand_word(w, via, depth);
        if a.text.contains(FIELD_BREAK) {
            // Split into several words at run time where one is expected (a redirection
            // target, an assignment's value as a word): only known at run time.
            a.text = a.text.replace(FIELD_BREAK, " ");
            a.dynamic = true;
        }
        (a, defaulted)
    }

    /// The expansion of one word, with a [`FIELD_BREAK`] where the shell splits it.
    fn expand_word(&mut self, w: &ast::Word, via: &[String], depth: usize) -> (Arg, bool) {
        let mut out = Arg {
            text: String::new(),
            dynamic: false,
        };
        let (saved_ok, saved_n) = (self.resolved_by_default, self.defaults_used);
        self.resolved_by_default = true;
        self.defaults_used = 0;
        let mut only_defaults = false;
        match word::parse(&w.value, &self.options) {
            Ok(pieces) => {
                // Whether anything but a defaulted variable is unknown: expand without the
                // defaults' contribution to `dynamic` by checking the other pieces.
                let other_dynamic = pieces
                    .iter()
                    .any(|p| piece_is_dynamic(&p.piece, false, self));
                self.pieces(&pieces, false, via, depth, &mut out);
                only_defaults = out.dynamic
                    && self.defaults_used > 0
                    && self.resolved_by_default
                    && !other_dynamic;
            }
            Err(_) => {
                self.mark_unsure(format!("cannot read the word `{}`", w.value));
                out.text = w.value.clone();
                out.dynamic = true;
            }
        }
        self.resolved_by_default = saved_ok;
        self.defaults_used = saved_n;
        (out, only_defaults)
    }
}

/// Whether a piece is only known at run time by itself (a variable not known on the line, a
/// substitution, arithmetic), a defaulted variable (`${X:-d}`) excepted; a double-quoted
/// sequence is dynamic when one of its pieces is.
fn piece_is_dynamic(p: &WordPiece, in_dq: bool, cx: &LineAnalysis) -> bool {
    match p {
        WordPiece::DoubleQuotedSequence(v) | WordPiece::GettextDoubleQuotedSequence(v) => {
            v.iter().any(|x| piece_is_dynamic(&x.piece, true, cx))
        }
        WordPiece::ParameterExpansion(ParameterExpr::UseDefaultValues {
            parameter: Parameter::Named(_),
            indirect: false,
            ..
        })
        | WordPiece::ParameterExpansion(ParameterExpr::AssignDefaultValues {
            parameter: Parameter::Named(_),
            indirect: false,
            ..
        }) => false,
        WordPiece::ParameterExpansion(ParameterExpr::Parameter {
            parameter: Parameter::Named(n),
            indirect: false,
        }) => match cx.vars.get(n) {
            // Unquoted, a value with a blank is split (not modelled here).
            Some(v) => {
                let ifs = cx.vars.get("IFS").map_or(" \t\n", String::as_str);
                !in_dq && v.contains(|c: char| ifs.contains(c))
            }
            None => !(n == "HOME" || (n == "PWD" && cx.cwd.is_some())),
        },
        WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s)
            if cx.cwd.is_some() && prints_working_dir(s) =>
        {
            false
        }
        WordPiece::ParameterExpansion(_)
        | WordPiece::CommandSubstitution(_)
        | WordPiece::BackquotedCommandSubstitution(_)
        | WordPiece::ArithmeticExpression(_) => true,
        WordPiece::TildeExpansion(TildeExpr::WorkingDir) => cx.cwd.is_none(),
        WordPiece::TildeExpansion(TildeExpr::Home | TildeExpr::UserHome(_)) => false,
        WordPiece::TildeExpansion(_) => true,
        _ => false,
    }
}

/// Whether a script is one function header with no body (`Build()`, `obj.method()`): bash
/// rejects it with a syntax error and runs none of it.
/// Whether a substitution's script is `pwd` alone (`pwd`, `pwd -L`, `pwd -P`, builtin or
/// `/bin/pwd`): it prints the working folder, which the line knows like `$PWD`. `-P` resolves
/// links, and the path tests resolve them too.
fn prints_working_dir(script: &str) -> bool {
    let mut words = script.split_whitespace();
    matches!(words.next(), Some("pwd" | "/bin/pwd" | "/usr/bin/pwd"))
        && words.all(|w| matches!(w, "-L" | "-P"))
}

fn bodiless_function(script: &str) -> bool {
    let t = script.trim();
    let Some(name) = t
        .strip_suffix(')')
        .map(str::trim_end)
        .and_then(|r| r.strip_suffix('('))
    else {
        return false;
    };
    let name = name.trim_end();
    !name.is_empty()
        && !name.contains(|c: char| c.is_whitespace())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '-' | '/'))
}

/// The `{` of a raw word outside quotes, escapes, `${…}` and `$(…)`, where brace expansion
/// can see them.
fn unquoted_braces(raw: &str) -> usize {
    let mut n = 0;
    let mut chars = raw.chars().peekable();
    // Open `${` / `$(` groups: the closer each waits for.
    let mut groups: Vec<char> = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' if groups.is_empty() => {
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                }
            }
            '"' if groups.is_empty() => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '$' if matches!(chars.peek(), Some('{' | '(')) => {
                let open = chars.next().unwrap_or('{');
                groups.push(if open == '{' { '}' } else { ')' });
            }
            '{' if groups.is_empty() => n += 1,
            '{' | '(' => groups.push(if c == '{' { '}' } else { ')' }),
            c if groups.last() == Some(&c) => {
                groups.pop();
            }
            _ => {}
        }
    }
    n
}
