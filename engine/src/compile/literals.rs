//! Regex-literal analysis for the prefilter: a literal every match of a pattern contains,
//! read from its syntax tree without compiling it.
//!
//! In: regex sources. Out: the literals one of which every match contains ([`Required`], or
//! none), so that a text without any of them is known not to match and the regex need not
//! be compiled (Unicode classes make compiling the dominant start-up cost of a hook process).

/// What every match of a regex list contains: one of `any` (compared case-insensitively when
/// `fold`). A text with none of them cannot match, so the regex need not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Required {
    /// The literals, lower-cased when `fold`.
    pub(crate) any: Vec<String>,
    /// Compare case-insensitively (a pattern under `(?i)`).
    pub(crate) fold: bool,
}

impl Required {
    /// Whether `text` contains one of the literals.
    pub(crate) fn found_in(&self, text: &str) -> bool {
        if self.fold {
            self.found_in_lower(&text.to_lowercase())
        } else {
            self.any.iter().any(|l| text.contains(l.as_str()))
        }
    }

    /// [`Required::found_in`] given the text and its lower-case form (made once by the
    /// caller for every test of the same text).
    pub(crate) fn found_in_lower(&self, lower: &str) -> bool {
        self.any.iter().any(|l| lower.contains(l.as_str()))
    }
}

/// The most characters a bracket class may have to count as a set of one-character literals.
const CLASS_MAX: usize = 16;

use regex_syntax::ast::{Ast, RepetitionKind, RepetitionRange};

// How good a set is as a prefilter: its shortest literal (longer is rarer).
fn score(set: &[String]) -> usize {
    set.iter().map(|l| l.chars().count()).min().unwrap_or(0)
}
fn better(best: &mut Option<Vec<String>>, cand: Vec<String>) {
    if cand.is_empty() || cand.iter().any(String::is_empty) {
        return;
    }
    if best.as_ref().is_none_or(|b| score(&cand) > score(b)) {
        *best = Some(cand);
    }
}
/// Whether a group's flags only switch case-insensitive matching on (`(?i:…)`).
fn only_case_insensitive(f: &regex_syntax::ast::Flags) -> bool {
    use regex_syntax::ast::{Flag, FlagsItemKind};
    matches!(
        f.items.as_slice(),
        [item] if item.kind == FlagsItemKind::Flag(Flag::CaseInsensitive)
    )
}
/// The literal sets of a sequence, in order: each run of literal characters and each element's
/// set (empty sets and sets holding an empty literal left out); every match of the sequence
/// holds a literal of each. `None` when inline flags change the matching midway.
fn concat_sets(asts: &[Ast], fold: &mut bool) -> Option<Vec<Vec<String>>> {
    let mut sets = Vec::new();
    let mut keep = |set: Vec<String>| {
        if !set.is_empty() && !set.iter().any(String::is_empty) {
            sets.push(set);
        }
    };
    let mut run = String::new();
    for a in asts {
        match a {
            Ast::Literal(l) => run.push(l.c),
            Ast::Flags(_) => return None,
            other => {
                keep(vec![std::mem::take(&mut run)]);
                if let Some(s) = set(other, fold) {
                    keep(s);
                }
            }
        }
    }
    keep(vec![run]);
    Some(sets)
}

fn set(ast: &Ast, fold: &mut bool) -> Option<Vec<String>> {
    match ast {
        Ast::Literal(l) => Some(vec![l.c.to_string()]),
        Ast::Group(g) => match g.flags() {
            None => set(&g.ast, fold),
            Some(f) if only_case_insensitive(f) => {
                let found = set(&g.ast, fold)?;
                *fold = true;
                Some(found)
            }
            Some(_) => None,
        },
        Ast::ClassBracketed(c) if !c.negated => class_chars(&c.kind),
        Ast::Alternation(a) => {
            let mut all = Vec::new();
            for b in &a.asts {
                all.extend(set(b, fold)?);
            }
            Some(all)
        }
        Ast::Repetition(r) => {
            let at_least_one = match &r.op.kind {
                RepetitionKind::OneOrMore => true,
                RepetitionKind::Range(RepetitionRange::Exactly(n))
                | RepetitionKind::Range(RepetitionRange::AtLeast(n))
                | RepetitionKind::Range(RepetitionRange::Bounded(n, _)) => *n >= 1,
                _ => false,
            };
            if at_least_one {
                set(&r.ast, fold)
            } else {
                None
            }
        }
        Ast::Concat(c) => {
            let mut best: Option<Vec<String>> = None;
            for s in concat_sets(&c.asts, fold)? {
                better(&mut best, s);
            }
            best
        }
        _ => None,
    }
}
/// The characters of a small bracket class (`[;&|]`, `[\x{200B}\x{202A}-\x{202E}]`), each
/// a one-character literal: every match of the class is one of them. `None` for a class
/// of more than [`CLASS_MAX`] characters, with a Perl or Unicode class or a set operation
/// inside, or with a character that has another case (a case-insensitive class matches
/// case variants the lower-cased text comparison could miss).
fn class_chars(class: &regex_syntax::ast::ClassSet) -> Option<Vec<String>> {
    use regex_syntax::ast::{ClassSet, ClassSetItem};
    fn caseless(c: char) -> bool {
        c.is_ascii() || (c.to_lowercase().eq([c]) && c.to_uppercase().eq([c]))
    }
    let items = match class {
        ClassSet::Item(ClassSetItem::Union(u)) => u.items.as_slice(),
        ClassSet::Item(i) => std::slice::from_ref(i),
        ClassSet::BinaryOp(_) => return None,
    };
    let mut out = Vec::new();
    for item in items {
        let (start, end) = match item {
            ClassSetItem::Literal(l) => (l.c, l.c),
            ClassSetItem::Range(r) => (r.start.c, r.end.c),
            _ => return None,
        };
        for c in start..=end {
            if out.len() >= CLASS_MAX || !caseless(c) {
                return None;
            }
            out.push(c.to_string());
        }
    }
    Some(out)
}

/// The literals one of which every match of `pattern` contains, read from its syntax tree:
/// runs of literal characters in a sequence, and alternations whose every branch has such
/// a set (`\b(passwd|useradd)\b`, `(sv\s+down|s6-svc\s+-d)\s+x`), choosing in a sequence the
/// set whose shortest literal is longest. A leading `(?i)`, or a literal taken from a
/// case-insensitive group (`(?i:disableAllHooks)`), makes the comparison case-insensitive (for
/// every literal of the set: a looser prefilter, never a missed match). `None` when no such set
/// exists. The second value: case-insensitive.
fn required_any(pattern: &str) -> Option<(Vec<String>, bool)> {
    let (body, fold) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    let ast = regex_syntax::ast::parse::Parser::new().parse(body).ok()?;
    let mut fold = fold;
    let found = set(&ast, &mut fold)?;
    (score(&found) >= 1 && found.len() <= 64).then_some((found, fold))
}

/// What every match of a regex list contains, or `None` if some pattern has no literal.
pub(crate) fn required_literals(patterns: &[String]) -> Option<Required> {
    if let Ok(g) = PRESET.read()
        && let Some(r) = g.as_ref().and_then(|m| m.get(patterns))
    {
        return r.clone();
    }
    derive_required_literals(patterns)
}

/// Every literal set each pattern of a list requires: a text that a pattern can match holds
/// one literal of *every* set of that pattern (the sets of the elements of its top-level
/// sequence, [`Required`] keeps only the best of them). `npm test` holds `npm`, the best set of
/// `\b(npm|yarn)\s+(install|add)\b…(github:|git\+)`, but no literal of its other two, so the
/// regex need not be compiled to know it does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conjunctions {
    /// Per pattern, its literal sets (lower-cased when `fold`).
    patterns: Vec<Vec<Vec<String>>>,
    /// Compare case-insensitively.
    fold: bool,
}

impl Conjunctions {
    /// The sets of `patterns`; `None` when a pattern does not parse, starts with flags other
    /// than `(?i)`, or requires no literal (then nothing can be ruled out).
    pub(crate) fn of(patterns: &[String]) -> Option<Conjunctions> {
        let mut fold = false;
        let mut out = Vec::with_capacity(patterns.len());
        for p in patterns {
            let (body, f) = match p.strip_prefix("(?i)") {
                Some(rest) => (rest, true),
                None => (p.as_str(), false),
            };
            fold |= f;
            let parsed = regex_syntax::ast::parse::Parser::new().parse(body).ok()?;
            // A group without flags around the whole pattern is the pattern.
            let mut ast = &parsed;
            while let Ast::Group(g) = ast {
                if g.flags().is_some() {
                    return None;
                }
                ast = &g.ast;
            }
            let sets: Vec<Vec<String>> = match ast {
                Ast::Concat(c) => concat_sets(&c.asts, &mut fold)?,
                other => set(other, &mut fold)
                    .filter(|s| !s.is_empty() && !s.iter().any(String::is_empty))
                    .into_iter()
                    .collect(),
            };
            if sets.is_empty() {
                return None;
            }
            out.push(sets);
        }
        if fold {
            for sets in &mut out {
                for set in sets.iter_mut() {
                    for l in set.iter_mut() {
                        *l = l.to_lowercase();
                    }
                }
            }
        }
        Some(Conjunctions {
            patterns: out,
            fold,
        })
    }

    /// Whether the sets are compared in lower case.
    pub(crate) fn folds(&self) -> bool {
        self.fold
    }

    /// Whether a pattern of the list may match `text`: one of them has a literal of each of
    /// its sets in it. `lower` is the text in lower case, made by the caller when it has it.
    pub(crate) fn may_match(&self, text: &str, lower: Option<&str>) -> bool {
        let owned;
        let text = if self.fold {
            match lower {
                Some(l) => l,
                None => {
                    owned = text.to_lowercase();
                    &owned
                }
            }
        } else {
            text
        };
        self.patterns.iter().any(|sets| {
            sets.iter()
                .all(|set| set.iter().any(|l| text.contains(l.as_str())))
        })
    }
}

/// [`required_literals`] of a list of patterns, each looked up (or derived) on its own and
/// then combined as [`derive_required_literals`] combines them: the matcher regexes of a seam
/// are stored in the snapshot one by one (which of them a call's seam holds depends on its
/// part), so a call finds each of them there instead of parsing the regexes again.
pub(crate) fn required_literals_each(patterns: &[String]) -> Option<Required> {
    let mut parts = Vec::with_capacity(patterns.len());
    for p in patterns {
        parts.push(required_literals(std::slice::from_ref(p))?);
    }
    let fold = parts.iter().any(|r| r.fold);
    let any = parts
        .into_iter()
        .flat_map(|r| r.any)
        .map(|l| if fold { l.to_lowercase() } else { l })
        .collect();
    Some(Required { any, fold })
}

/// Literals read from a compiled policy snapshot (`cache`), by regex list: what
/// [`derive_required_literals`] of the same build returned for it.
static PRESET: std::sync::RwLock<Option<std::collections::HashMap<Vec<String>, Option<Required>>>> =
    std::sync::RwLock::new(None);

/// Install literals stored in a snapshot, so [`required_literals`] does not derive them again.
pub(crate) fn preset_literals(entries: Vec<(Vec<String>, Option<Required>)>) {
    if entries.is_empty() {
        return;
    }
    if let Ok(mut g) = PRESET.write() {
        g.get_or_insert_with(std::collections::HashMap::new)
            .extend(entries);
    }
}

/// [`required_literals`] read from the patterns' syntax trees.
pub(crate) fn derive_required_literals(patterns: &[String]) -> Option<Required> {
    let mut any = Vec::new();
    let mut fold = false;
    let mut parts = Vec::new();
    for p in patterns {
        let (lits, f) = required_any(p)?;
        fold |= f;
        parts.push((lits, f));
    }
    for (lits, _) in parts {
        // Mixed lists compare every literal folded: a looser prefilter, never a missed match.
        any.extend(
            lits.into_iter()
                .map(|l| if fold { l.to_lowercase() } else { l }),
        );
    }
    Some(Required { any, fold })
}

#[cfg(test)]
mod tests {

    #[test]
    fn literals_looked_up_one_by_one_are_the_literals_of_the_list() {
        let lists: [&[&str]; 4] = [
            &[r"^mcp__.+__(delete|drop)$", r"(?i)Terminal"],
            &[r"^mcp__.+__", r"rm\s+-rf"],
            &[r"^mcp__.+__", r".*"],
            &[r"(?i)Shell|Exec"],
        ];
        for l in lists {
            let v: Vec<String> = l.iter().map(|s| s.to_string()).collect();
            assert_eq!(
                super::required_literals_each(&v),
                super::derive_required_literals(&v),
                "{l:?}"
            );
        }
    }

    #[test]
    fn required_literals_come_from_the_syntax_tree() {
        let lit = |p: &str| super::required_any(p).map(|(l, fold)| (l.join("|"), fold));
        let plain = |l: &str| Some((l.to_string(), false));
        assert_eq!(
            lit(r"\bdocker-credential-[\w-]+\s+get\b"),
            plain("docker-credential-")
        );
        assert_eq!(lit(r"^mcp__.+__(a|b)$"), plain("mcp__"));
        assert_eq!(lit(r"/proc/[a-z]+/environ"), plain("/environ"));
        assert_eq!(lit(r"(?i)secret"), Some(("secret".to_string(), true)));
        // A case-insensitive group's literals count, compared in lower case (the longer set).
        assert_eq!(lit(r"x(?i:secret)"), Some(("secret".to_string(), true)));
        assert_eq!(lit(r"ab|cd"), plain("ab|cd"));
        assert_eq!(lit(r"(abc)?x"), plain("x"));
        assert_eq!(lit(r"(abc)+x"), plain("abc"));
        assert_eq!(lit(r"\x27ab"), plain("'ab"));
        assert_eq!(lit(r"[a-z]+"), None);
        assert_eq!(lit(r"a|[b-c]+"), plain("a|b|c"));
        assert_eq!(lit(r"a|[^b-c]+"), None);
        assert_eq!(lit(r"x[\w;]"), plain("x"));
        assert_eq!(lit(r"[\w;]"), None);
        assert_eq!(lit(r"(?i)[a-b]"), Some(("a|b".to_string(), true)));
        assert_eq!(lit(r"(?i)[ſ]"), None);
        assert_eq!(lit(r"[a-q]"), None);
        assert_eq!(
            lit(r"[\x{200B}\x{2060}\x{202A}-\x{202C}]"),
            plain("\u{200B}|\u{2060}|\u{202A}|\u{202B}|\u{202C}")
        );
    }

    #[test]
    fn alternations_and_case_folding_give_any_of_sets() {
        use super::required_literals as lits;
        let r = lits(&[r"\b(passwd|useradd|visudo)\b".to_string()]).unwrap();
        assert_eq!(r.any, ["passwd", "useradd", "visudo"]);
        assert!(!r.fold);
        assert!(r.found_in("sudo visudo -f x") && !r.found_in("git status"));
        let r = lits(&[r"(?i)settings|\.claude|config\.toml".to_string()]).unwrap();
        assert_eq!(r.any, ["settings", ".claude", "config.toml"]);
        assert!(r.fold && r.found_in("edit ~/.CLAUDE/x") && !r.found_in("git status"));
        let r =
            lits(&[r"(?i)(^|[\s;])/etc/(rc\.d/)?init\.d/(sshd?|cron)\s+stop".to_string()]).unwrap();
        assert!(r.found_in("/ETC/init.d/cron stop") && !r.found_in("git status"));
        assert_eq!(lits(&[r"a|[^b-c]+".to_string()]), None);
        // Invisible characters: a small class and a joiner are literals, so a command without
        // any of them never compiles the emoji classes around the joiner.
        let r = lits(&[
            r"[\x{200B}\x{200C}\x{2060}\x{FEFF}\x{202A}-\x{202E}\x{2066}-\x{2069}]".to_string(),
            r"(^|[^\p{Extended_Pictographic}\x{FE0F}\x{1F3FB}-\x{1F3FF}])\x{200D}".to_string(),
        ])
        .unwrap();
        assert_eq!(r.any.len(), 14);
        assert!(r.found_in("r\u{200D}m -rf build") && r.found_in("echo \u{202E}x"));
        assert!(!r.found_in("git status"));
        assert_eq!(
            lits(&[r"^Bash$".to_string()]).map(|r| r.any),
            Some(vec!["Bash".to_string()])
        );
    }

    #[test]
    fn every_set_of_a_pattern_must_be_held_before_it_can_match() {
        use super::Conjunctions;
        let npm = [
            r"\b(npm|pnpm|yarn|bun)\s+(-\S+\s+)*(install|i|add)\b[^;&|\n]*\s(github:|git\+|[\w.-]+/[\w.-]+)".to_string(),
            r"\b(npm|pnpm)\s+(exec|x|dlx)\s+(https?://|git\+)".to_string(),
        ];
        let c = Conjunctions::of(&npm).unwrap();
        // The best set (`npm`…) is in every npm line; the other sets rule these out.
        for text in ["npm test", "npm run build", "pnpm dev"] {
            assert!(!c.may_match(text, None), "{text}");
        }
        // A text a pattern matches always holds a literal of each of its sets.
        for text in [
            "npm i github:me/x",
            "yarn add some/pkg",
            "pnpm dlx https://x",
        ] {
            assert!(c.may_match(text, None), "{text}");
            let re = regex::RegexSet::new(&npm).unwrap();
            assert!(re.is_match(text), "{text}");
        }
        // Case-insensitive parts compare the whole set in lower case.
        let c = Conjunctions::of(&[r"(?i)\bcurl\b.*\s-d\s*@".to_string()]).unwrap();
        assert!(
            c.folds() && c.may_match("CURL -D @x h", None) && !c.may_match("curl -o f h", None)
        );
        // Nothing required, inline flags mid-pattern, or a parse error: nothing ruled out.
        assert_eq!(Conjunctions::of(&["a".to_string(), ".*".to_string()]), None);
        assert_eq!(Conjunctions::of(&["a(?s)b".to_string()]), None);
        assert_eq!(Conjunctions::of(&["(unclosed".to_string()]), None);
        // A group around the whole pattern is the pattern; an optional part requires nothing.
        let c = Conjunctions::of(&[r"(rm\s+(-rf\s+)?/)".to_string()]).unwrap();
        assert!(c.may_match("rm /", None) && !c.may_match("rm x", None));
    }

    #[test]
    fn a_case_insensitive_group_gives_literals_compared_in_lower_case() {
        use super::required_literals as lits;
        // The settings rule's pattern: before, a group with flags had no literal, so every
        // `cat` or `echo` line compiled it.
        let r = lits(&[r"(?i:disableAllHooks)\W{0,6}(?i:true|1)\b".to_string()]).unwrap();
        assert_eq!(r.any, ["disableallhooks"]);
        assert!(r.fold);
        assert!(
            r.found_in(r#"echo '{"DISABLEALLHOOKS": true}'"#) && !r.found_in("cat src/main.rs")
        );
        // A case-sensitive run beside the group is compared folded too (looser, never a miss).
        let r = lits(&[r"hooks\s*=\s*(?i:false)".to_string()]).unwrap();
        assert!(r.fold && r.found_in("HOOKS = false") && r.found_in("hooks=False"));
        // Any other flag (or one switched off) gives no literal, as before.
        assert_eq!(lits(&[r"(?s:abc.)".to_string()]), None);
        assert_eq!(lits(&[r"(?-i:abc)".to_string()]), None);
        assert_eq!(lits(&[r"(?ix:abc)".to_string()]), None);
    }
}
