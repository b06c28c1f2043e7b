//! The names a piece of code binds once (`my $c = "ls"`, R's `d <- "~"`, Julia's `for f in
//! readdir(d)`, R's `f <- unlink`), read before its calls so each call sees their values.
//!
//! In: the reader's tokens. Out: the reader's bindings (a name to its constant value) and
//! aliases (a name to one of the language's calls).

use std::collections::HashMap;

use super::tables::table;
use super::{Reader, Tok, Val, ends_statement};
use crate::effects::language::Language;

impl Reader<'_> {
    /// Bind each name assigned exactly once, to a constant, at the start of a statement
    /// (`my $c = "ls";`, `cmd = "date"`, `local c = "ls"`).
    pub(super) fn bind(&mut self) {
        let toks = self.toks;
        let mut count: HashMap<&str, usize> = HashMap::new();
        for (k, t) in toks.iter().enumerate() {
            let (Tok::Var(n) | Tok::Name(n)) = t else {
                continue;
            };
            let assigned = matches!(
                toks.get(k + 1),
                Some(Tok::Op(
                    "=" | "<-" | ".=" | "+=" | "-=" | "||=" | "&&=" | "*=" | "/=" | "%="
                ))
            );
            let looped = (k > 0
                && matches!(&toks[k - 1], Tok::Name(p) if matches!(p.as_str(), "for" | "foreach" | "getline" | "my" | "local" | "our"))
                && !assigned)
                || self.loop_items(k).is_some();
            let param = matches!(toks.get(k + 1), Some(Tok::Op("|" | ",")))
                && matches!(
                    k.checked_sub(1).and_then(|p| toks.get(p)),
                    Some(Tok::Op("|" | ","))
                );
            if assigned || looped || param {
                *count.entry(n.as_str()).or_default() += 1;
            }
        }
        for (k, t) in toks.iter().enumerate() {
            let (Tok::Var(n) | Tok::Name(n)) = t else {
                continue;
            };
            if count.get(n.as_str()) != Some(&1) {
                continue;
            }
            // R's `for (f in X)`, Julia's `for f in X`: over a listing or a pattern (one
            // value: `list.files("out", full.names = TRUE)` is `out/*`), each `f` is a path it
            // names; a list of several values is left unbound.
            if let Some(items) = self.loop_items(k) {
                if let Some(v @ Val::One(_)) = self.value(items) {
                    self.bindings.insert(n.clone(), v);
                }
                continue;
            }
            if !matches!(toks.get(k + 1), Some(Tok::Op("=" | "<-"))) {
                continue;
            }
            let start_ok = match k.checked_sub(1).and_then(|p| toks.get(p)) {
                None | Some(Tok::Newline | Tok::Op(";" | "{" | "}")) => true,
                Some(Tok::Name(p)) => matches!(p.as_str(), "my" | "our" | "local"),
                _ => false,
            };
            if !start_ok {
                continue;
            }
            let end = toks[k + 2..]
                .iter()
                .position(|t| ends_statement(self.lang, t) || matches!(t, Tok::Op("}")))
                .map_or(toks.len(), |e| k + 2 + e);
            if let Some(v) = self.value(&toks[k + 2..end]) {
                self.bindings.insert(n.clone(), v);
            } else if let Some(f) = self.function_name(&toks[k + 2..end])
                && table(self.lang).iter().any(|(t, _)| *t == f)
                && matches!(self.lang, Language::R | Language::Julia)
            {
                self.aliases.insert(n.clone(), f);
            }
        }
    }
}
