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
use super::context::LineAnalysis;
use super::quote::{decode_ansi_c, strip_ansi_quotes, strip_single_quotes, unescape_backquoted};

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
                WordPiece::ParameterExpansion(pe) => {
                    let name = match pe {
                        ParameterExpr::Parameter {
                            parameter: Parameter::Named(n),
                            indirect: false,
                        } => Some(n.clone()),
                        _ => None,
                    };
                    match name {
                        Some(n) if self.vars.contains_key(&n) => {
                            let v = self.vars.get(&n).map(String::as_str).unwrap_or("");
                            // Unquoted, a value is split at the characters of IFS into several
                            // words at run time (`R="rm -rf /"; $R`, `IFS=,; x=cat,f; $x`):
                            // not modelled, so the word is unknown.
                            let ifs = self.vars.get("IFS").map_or(" \t\n", String::as_str);
                            if !in_dq && v.contains(|c: char| ifs.contains(c)) {
                                out.dynamic = true;
                            }
                            out.text.push_str(v);
                        }
                        Some(n) if n == "HOME" => out.text.push('~'),
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
                    self.script(&script, &v, depth + 1);
                    self.cwd = saved;
                    out.text.push_str("$(…)");
                    out.dynamic = true;
                }
                WordPiece::ArithmeticExpression(_) => {
                    out.text.push_str("$((…))");
                    out.dynamic = true;
                }
            }
        }
    }

    /// Expand one word; a word the word parser cannot read makes the line unsure and is kept
    /// as written, dynamic.
    pub(super) fn word(&mut self, w: &ast::Word, via: &[String], depth: usize) -> Arg {
        let mut out = Arg {
            text: String::new(),
            dynamic: false,
        };
        match word::parse(&w.value, &self.options) {
            Ok(pieces) => self.pieces(&pieces, false, via, depth, &mut out),
            Err(_) => {
                self.mark_unsure(format!("cannot read the word `{}`", w.value));
                out.text = w.value.clone();
                out.dynamic = true;
            }
        }
        out
    }
}
