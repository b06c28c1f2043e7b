//! Lua code that runs text as code, read by the token scanner: `load(TEXT)` /
//! `loadstring(TEXT)` of a command's output or of a URL's body (Lua reference manual, `load`;
//! `io.popen`).
//!
//! In: the argument tokens of the call. Out: into [`Collect`], the command whose output runs
//! as `CMD | lua` (a shell line every pipe rule judges: a download piped to an interpreter)
//! and a URL whose body runs as a download run.

use super::{Reader, Val, ends_statement, group_end, split_args};
use crate::effects::inline::collect::Collect;
use crate::effects::inline::resolve::Res;
use crate::effects::inline::scan::lex::Tok;

impl Reader<'_> {
    /// Lua's `load(TEXT)`: where TEXT (or the one assignment of the name it is) comes from a
    /// command's output (`io.popen(CMD):read("*a")`), that output runs as Lua code, as `CMD |
    /// lua` runs it; where it names a URL (`http.request("https://…")`), the download runs.
    pub(super) fn load(&self, name: &str, arg: &[Tok], cx: &mut Collect<'_>) {
        let toks = match arg {
            [Tok::Name(v) | Tok::Var(v)] => self.assigned(v).unwrap_or(arg),
            _ => arg,
        };
        for (k, t) in toks.iter().enumerate() {
            match (t, toks.get(k + 1), toks.get(k + 2), toks.get(k + 3)) {
                (Tok::Name(io), Some(Tok::Op(".")), Some(Tok::Name(popen)), Some(Tok::Op("(")))
                    if io == "io" && popen == "popen" =>
                {
                    let end = group_end(toks, k + 3);
                    let inner = toks.get(k + 4..end.saturating_sub(1)).unwrap_or_default();
                    if let Some(Val::One(cmd)) = split_args(self.lang, inner)
                        .first()
                        .and_then(|a| self.value(a))
                    {
                        cx.shell(name, format!("{cmd} | lua"));
                    }
                }
                (Tok::Str { command: false, .. }, ..) => {
                    if let Some(Val::One(u)) = self.value(std::slice::from_ref(t))
                        && (u.starts_with("http://") || u.starts_with("https://"))
                    {
                        cx.fetch_and_run(Some(&Res::lit(u)));
                    }
                }
                _ => {}
            }
        }
    }

    /// The tokens assigned to `name` (`local s = …`, `s = …`) up to the end of that
    /// statement, when it is assigned once.
    fn assigned(&self, name: &str) -> Option<&[Tok]> {
        let mut found = None;
        for (k, t) in self.toks.iter().enumerate() {
            if matches!(t, Tok::Name(n) | Tok::Var(n) if n == name)
                && self.toks.get(k + 1) == Some(&Tok::Op("="))
            {
                if found.is_some() {
                    return None;
                }
                let start = k + 2;
                let end = self.toks[start..]
                    .iter()
                    .position(|t| ends_statement(self.lang, t))
                    .map_or(self.toks.len(), |e| start + e);
                found = self.toks.get(start..end);
            }
        }
        found
    }
}
