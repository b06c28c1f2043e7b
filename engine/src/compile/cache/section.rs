//! One section of a snapshot: the rules of one seam and matcher bucket, as stored and as a
//! call reads them (issue 29).
//!
//! In: the resolved rules of a bucket (with their position in the whole set) and the required
//! literals known for their regex lists, when a snapshot is built; a section's bytes, the
//! length and hash of its table, and the call's [`Probe`], when one is read. Out: the section's
//! bytes; the rules the call opens the gate of, with the required literals of their regexes.
//!
//! A section is its **table** ([`Section`]: the payload fields its gates test, one
//! [`StoredRule`] per rule with its gate and [`Item`], and the items of its long lists), then
//! each rule's bytes, then each list's ([`interned`](super::interned)). Every call reads the
//! whole table, which is checked whole; a rule's bytes are checked and decoded only when the
//! call opens its gate, and a list's only when a decoded rule names it. A rule's bytes hold the
//! required literals of its regex tests and regex matcher (the prefilter that lets a regex stay
//! uncompiled), so a call presets the literals of the rules it decodes, not of the section.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::check::{Item, hash_bytes};
use super::gate::{self, Gate, Probe, StoredRule};
use super::interned::{Interner, ListTable, Lists};
use crate::compile::literals::{Required, derive_required_literals};
use crate::matcher::Matcher;
use crate::policy::{Field, Pred, Rule, Test};

/// Required literals by regex list, as stored.
pub(super) type LiteralMap = HashMap<Vec<String>, Option<(Vec<String>, bool)>>;

/// The required literals of every regex test of `rules`, and of each regex matcher
/// (`tool = '^mcp__.+__'`, stored as a list of one: a seam's matchers are combined per call),
/// taken from `known` where it has them.
pub(super) fn literals_of<'a>(
    rules: impl Iterator<Item = &'a Rule>,
    known: &LiteralMap,
) -> Vec<StoredLiterals> {
    let mut tests = Vec::new();
    let mut pats: Vec<Vec<String>> = Vec::new();
    for r in rules {
        for p in r.when.iter().chain(r.unless.iter()) {
            regex_tests(p, &mut tests);
        }
        if let Matcher::Regex(src) = &r.matcher {
            pats.push(vec![src.clone()]);
        }
    }
    pats.extend(tests.into_iter().cloned());
    let mut seen = std::collections::HashSet::new();
    pats.into_iter()
        .filter(|p| seen.insert(p.clone()))
        .map(|p| StoredLiterals {
            required: match known.get(&p) {
                Some(r) => r.clone(),
                None => derive_required_literals(&p).map(|r| (r.any, r.fold)),
            },
            patterns: p,
        })
        .collect()
}

/// The required literals of one regex test, as stored.
#[derive(Serialize, Deserialize, Clone)]
pub(super) struct StoredLiterals {
    /// The regex list.
    pub(super) patterns: Vec<String>,
    /// `(literals, case-insensitive)`, or `None`: no literal is required.
    pub(super) required: Option<(Vec<String>, bool)>,
}

/// Every regex test of a predicate.
fn regex_tests<'a>(p: &'a Pred, out: &mut Vec<&'a Vec<String>>) {
    match p {
        Pred::All(v) | Pred::Any(v) => v.iter().for_each(|c| regex_tests(c, out)),
        Pred::Not(c) | Pred::Sure(c) => regex_tests(c, out),
        Pred::Leaf(l) => {
            if let Test::Regex(pats) = &l.test {
                out.push(pats);
            }
        }
    }
}

/// A section's table: the payload fields its gates test, its rules (position in the whole
/// set, gate, stored item) and the items of its long lists. The rules' own bytes follow the
/// table, one after the other, then the lists', so a call decodes (and hash-checks) only the
/// rules its payload opens the gate of ([`gate`]) and the lists those rules name.
#[derive(Serialize, Deserialize)]
pub(super) struct Section<'a> {
    /// The payload fields the gates test, by position.
    pub(super) fields: Vec<Field>,
    /// The rules, in the order their bytes follow the table.
    #[serde(borrow)]
    pub(super) rules: Vec<StoredRule<'a>>,
    /// The long lists its rules refer to, each once.
    pub(super) lists: ListTable,
}

/// The required literals of one regex list, as stored: `(literals, case-insensitive)`, or
/// `None`: no literal is required.
type Stored = Option<(Vec<String>, bool)>;

/// One rule as its item stores it: the rule (its long lists as references into the section's
/// table) and the required literals of each list [`regex_lists`] gives for it, in that order.
#[derive(Serialize, Deserialize)]
struct RuleItem {
    rule: Rule,
    literals: Vec<Stored>,
}

/// The regex lists of a rule whose required literals its item stores, in order: its regex
/// tests (`when`, then `unless`), then its regex matcher as a list of one.
fn regex_lists(r: &Rule) -> Vec<Vec<String>> {
    let mut tests = Vec::new();
    for p in r.when.iter().chain(r.unless.iter()) {
        regex_tests(p, &mut tests);
    }
    let mut out: Vec<Vec<String>> = tests.into_iter().cloned().collect();
    if let Matcher::Regex(src) = &r.matcher {
        out.push(vec![src.clone()]);
    }
    out
}

/// The bytes of one section of `rules`, the length of its table and the table's check hash;
/// `None` when an item is too long to store.
pub(super) fn encode(rules: &[(u32, &Rule)], known: &LiteralMap) -> Option<(Vec<u8>, u64, u64)> {
    let literals = literals_of(rules.iter().map(|(_, r)| *r), known);
    let found = |ps: &[String]| literals.iter().find(|l| l.patterns.as_slice() == ps);
    let required = |ps: &[String]| {
        found(ps)
            .and_then(|l| l.required.as_ref())
            .map(|(any, fold)| (any.as_slice(), *fold))
    };
    let mut fields = Vec::new();
    let mut stored = Vec::with_capacity(rules.len());
    let mut tail = Vec::new();
    let mut interner = Interner::default();
    for &(ordinal, r) in rules {
        let item = RuleItem {
            rule: interner.intern(r),
            literals: regex_lists(r)
                .iter()
                .map(|ps| found(ps).and_then(|l| l.required.clone()))
                .collect(),
        };
        let b = postcard::to_stdvec(&item).ok()?;
        stored.push(StoredRule {
            ordinal,
            gate: Gate::of_rule(r, &required, &mut fields),
            changes_input: gate::changes_input(r),
            item: Item::of(&b)?,
        });
        tail.extend_from_slice(&b);
    }
    let (lists, list_bytes) = interner.table()?;
    let section = Section {
        fields,
        rules: stored,
        lists,
    };
    let mut bytes = postcard::to_stdvec(&section).ok()?;
    let (head, hash) = (bytes.len() as u64, hash_bytes(&bytes));
    bytes.extend_from_slice(&tail);
    bytes.extend_from_slice(&list_bytes);
    Some((bytes, head, hash))
}

/// A section being read: its table, the bytes of its rules and the reader of its lists.
pub(super) struct Opened<'a> {
    fields: Vec<Field>,
    rules: Vec<StoredRule<'a>>,
    bytes: &'a [u8],
    lists: Lists<'a>,
}

/// A section's bytes opened: its table (the first `head` bytes) checked against `hash` and
/// decoded; `None` when the table is damaged or its items do not add up to the section's bytes.
pub(super) fn open(buf: &[u8], head: u64, hash: u64) -> Option<Opened<'_>> {
    let (table, tail) = buf.split_at_checked(usize::try_from(head).ok()?)?;
    if hash_bytes(table) != hash {
        return None;
    }
    let sec: Section<'_> = postcard::from_bytes(table).ok()?;
    let rules_len = sec
        .rules
        .iter()
        .try_fold(0usize, |n, r| n.checked_add(r.item.len as usize))?;
    let (bytes, lists) = tail.split_at_checked(rules_len)?;
    Some(Opened {
        fields: sec.fields,
        rules: sec.rules,
        bytes,
        lists: sec.lists.reader(lists)?,
    })
}

impl Opened<'_> {
    /// Whether a rule of the section can change the payload later rules see (the gates then
    /// do not apply to the call).
    pub(super) fn changes_input(&self) -> bool {
        self.rules.iter().any(|r| r.changes_input)
    }

    /// Decode the rules whose gate `probe` opens (every rule when `None`), each checked
    /// against its item first, into `rules` (with their position in the whole set) and the
    /// required literals of their regex lists into `literals`; `None` when a rule or list it
    /// decodes is damaged.
    pub(super) fn decode(
        &mut self,
        probe: Option<&Probe<'_>>,
        rules: &mut Vec<(u32, Rule)>,
        literals: &mut Vec<(Vec<String>, Option<Required>)>,
    ) -> Option<()> {
        let mut rest = self.bytes;
        for r in &self.rules {
            let (bytes, tail) = rest.split_at_checked(r.item.len as usize)?;
            rest = tail;
            if probe.is_some_and(|p| !r.gate.opens(&self.fields, p)) {
                continue;
            }
            let RuleItem {
                mut rule,
                literals: lits,
            } = postcard::from_bytes(r.item.check(bytes)?).ok()?;
            self.lists.restore(&mut rule)?;
            let lists = regex_lists(&rule);
            if lists.len() != lits.len() {
                return None;
            }
            literals.extend(lists.into_iter().zip(lits).map(|(ps, l)| {
                let required = l.map(|(any, fold)| Required { any, fold });
                (ps, required)
            }));
            rules.push((r.ordinal, rule));
        }
        Some(())
    }
}
