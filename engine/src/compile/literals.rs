//! Regex-literal analysis for the prefilter: a literal every match of a pattern contains,
//! read from its syntax tree without compiling it.
//!
//! In: regex sources. Out: one required literal per pattern (or none), so that a text
//! without any of them is known not to match and the regex need not be compiled (Unicode
//! classes make compiling the dominant start-up cost of a hook process).

/// A literal every match of `pattern` contains, read from its syntax tree (no compile): the
/// longest run of literal characters in its top-level sequence, looking into groups and
/// `+` / `{n,}` repetitions. `None` when there is none (alternations at the top, flags such as
/// `(?i)`, classes only). A haystack without the literal cannot match, so a hook process can
/// skip compiling the regex (Unicode classes make that the dominant start-up cost).
pub(crate) fn required_literal(pattern: &str) -> Option<String> {
    use regex_syntax::ast::{Ast, RepetitionKind, RepetitionRange};
    fn runs(ast: &Ast, cur: &mut String, best: &mut String) -> bool {
        let flush = |cur: &mut String, best: &mut String| {
            if cur.chars().count() > best.chars().count() {
                *best = cur.clone();
            }
            cur.clear();
        };
        match ast {
            Ast::Literal(l) => {
                cur.push(l.c);
                true
            }
            Ast::Concat(c) => c.asts.iter().all(|a| runs(a, cur, best)),
            Ast::Group(g) => {
                if g.flags().is_some() {
                    return false;
                }
                flush(cur, best);
                let ok = runs(&g.ast, cur, best);
                flush(cur, best);
                ok
            }
            Ast::Repetition(r) => {
                let at_least_one = match &r.op.kind {
                    RepetitionKind::OneOrMore => true,
                    RepetitionKind::Range(RepetitionRange::Exactly(n))
                    | RepetitionKind::Range(RepetitionRange::AtLeast(n))
                    | RepetitionKind::Range(RepetitionRange::Bounded(n, _)) => *n >= 1,
                    _ => false,
                };
                flush(cur, best);
                if at_least_one {
                    let ok = runs(&r.ast, cur, best);
                    flush(cur, best);
                    ok
                } else {
                    true
                }
            }
            Ast::Flags(_) => false,
            _ => {
                flush(cur, best);
                true
            }
        }
    }
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .ok()?;
    let (mut cur, mut best) = (String::new(), String::new());
    if !runs(&ast, &mut cur, &mut best) {
        return None;
    }
    if cur.chars().count() > best.chars().count() {
        best = cur;
    }
    (!best.is_empty()).then_some(best)
}

/// One required literal per pattern of a regex list, or `None` if any pattern has none.
pub(crate) fn required_literals(patterns: &[String]) -> Option<Vec<String>> {
    patterns.iter().map(|p| required_literal(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::required_literal as lit;

    #[test]
    fn required_literals_come_from_the_syntax_tree() {
        assert_eq!(
            lit(r"\bdocker-credential-[\w-]+\s+get\b").as_deref(),
            Some("docker-credential-")
        );
        assert_eq!(lit(r"^mcp__.+__(a|b)$").as_deref(), Some("mcp__"));
        assert_eq!(lit(r"/proc/[a-z]+/environ").as_deref(), Some("/environ"));
        assert_eq!(lit(r"(?i)secret"), None);
        assert_eq!(lit(r"x(?i:secret)"), None);
        assert_eq!(lit(r"a|b"), None);
        assert_eq!(lit(r"(abc)?x").as_deref(), Some("x"));
        assert_eq!(lit(r"(abc)+x").as_deref(), Some("abc"));
        assert_eq!(lit(r"\x27ab").as_deref(), Some("'ab"));
        assert_eq!(lit(r"[a-z]+"), None);
    }
}
