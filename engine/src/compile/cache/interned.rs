//! The named lists of a snapshot section, stored once (issue 29).
//!
//! In: the resolved rules of one section when a snapshot is built; a decoded rule and its
//! section's [`ListTable`] when one is read. Out: the rules with each long list (a resolved
//! `"@secret_paths"` of a hundred globs, named by eight rules) replaced by a reference into the
//! section's table, and back.
//!
//! Lists are interned by **content**, not by name: two scopes may see different contents of one
//! name (a project file's extension only changes its own rules), and then the table holds both.
//! A reference is the list `[MARK, "<index>"]` (for path specs, both as globs); a list whose
//! first item is [`MARK`] is always interned, so a stored list that starts with it is always a
//! reference. The section's table holds each list's length and check hash, and its bytes
//! follow the section's rules; a list that fails its check or a reference out of the table
//! makes the snapshot unreadable for the call (it is then rebuilt), never a rule with an
//! empty list.
//!
//! A call decodes and hash-checks each list once per section, and only the lists of the rules
//! it decodes, instead of once per rule that names it; the globs and regexes of a list are
//! then built once per process by content (`GlobList::build`, the regex table), whichever rule
//! asks first.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::check::{Item, split};
use crate::lists::{ListSlots, visit_rule};
use crate::policy::{List, PathSpec, Rule};

/// The first item of a reference into a [`ListTable`]: a text no policy writes (a TOML
/// string would have to spell the NUL).
pub(super) const MARK: &str = "\u{0}@list";

/// Lists shorter than this stay in their rule: a reference is two items.
const MIN_ITEMS: usize = 3;

/// The distinct long lists of one section, by position: the stored item (length and check
/// hash) of each list's encoding; the encodings follow the section's rules, lists of strings
/// first.
#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
pub(super) struct ListTable {
    /// Lists of strings (globs, regexes, hosts, programs, …).
    pub(super) strings: Vec<Item>,
    /// Lists of path specs (`path_inside`, `body_from`, …).
    pub(super) specs: Vec<Item>,
}

/// Builds a section's [`ListTable`], one entry per distinct content.
#[derive(Default)]
pub(super) struct Interner {
    strings: Vec<Vec<u8>>,
    specs: Vec<Vec<u8>>,
    strings_at: HashMap<Vec<String>, usize>,
    specs_at: Vec<(Vec<PathSpec>, usize)>,
}

impl Interner {
    /// `r` with its long lists replaced by references into the table.
    pub(super) fn intern(&mut self, r: &Rule) -> Rule {
        let mut out = r.clone();
        visit_rule(&mut out, self);
        out
    }

    /// The table of every list interned so far, and the encodings it describes (stored
    /// after the section's rules); `None` when a list is too long to store.
    pub(super) fn table(&self) -> Option<(ListTable, Vec<u8>)> {
        let items = |v: &[Vec<u8>]| v.iter().map(|b| Item::of(b)).collect::<Option<Vec<_>>>();
        let table = ListTable {
            strings: items(&self.strings)?,
            specs: items(&self.specs)?,
        };
        Some((table, [self.strings.concat(), self.specs.concat()].concat()))
    }
}

/// The index of `list`: `found`, or a new entry of `table` holding its encoding.
fn slot_of<L: Serialize>(list: &L, found: Option<usize>, table: &mut Vec<Vec<u8>>) -> usize {
    found.unwrap_or_else(|| {
        // A list of strings or specs always encodes; an empty encoding could not be read
        // back, and the snapshot would be rebuilt, never trusted.
        table.push(postcard::to_stdvec(list).unwrap_or_default());
        table.len() - 1
    })
}

/// A reference to entry `i`.
fn reference(i: usize) -> [String; 2] {
    [MARK.to_string(), i.to_string()]
}

impl ListSlots for Interner {
    fn strings(&mut self, v: &mut List<String>) {
        if v.len() < MIN_ITEMS && v.first().is_none_or(|s| s != MARK) {
            return;
        }
        let list = std::mem::take(v).to_vec();
        let found = self.strings_at.get(&list).copied();
        let i = slot_of(&list, found, &mut self.strings);
        self.strings_at.insert(list, i);
        *v = Vec::from(reference(i)).into();
    }

    fn specs(&mut self, v: &mut List<PathSpec>) {
        let marked = matches!(v.first(), Some(PathSpec::Glob(g)) if g == MARK);
        if v.len() < MIN_ITEMS && !marked {
            return;
        }
        let list = std::mem::take(v).to_vec();
        let found = self
            .specs_at
            .iter()
            .find(|(l, _)| *l == list)
            .map(|(_, i)| *i);
        let i = slot_of(&list, found, &mut self.specs);
        if found.is_none() {
            self.specs_at.push((list, i));
        }
        *v = Vec::from(reference(i).map(PathSpec::Glob)).into();
    }
}

impl ListTable {
    /// A reader of the table over `bytes` (the section's bytes after its rules), checking and
    /// decoding each list on its first reference; `None` when the lengths of the table's
    /// items do not add up to `bytes`.
    pub(super) fn reader(self, bytes: &[u8]) -> Option<Lists<'_>> {
        let (strings, specs) = bytes.split_at_checked(
            self.strings
                .iter()
                .try_fold(0usize, |n, i| n.checked_add(i.len as usize))?,
        )?;
        Some(Lists {
            strings: Stored::new(&self.strings, strings)?,
            specs: Stored::new(&self.specs, specs)?,
            bad: false,
        })
    }
}

/// One kind of list of a section: each entry's item and bytes, and its decoded list once a
/// rule has referred to it.
struct Stored<'a, L> {
    entries: Vec<(Item, &'a [u8])>,
    decoded: Vec<Option<L>>,
}

impl<'a, L: serde::de::DeserializeOwned> Stored<'a, L> {
    fn new(items: &[Item], bytes: &'a [u8]) -> Option<Self> {
        let entries: Vec<(Item, &'a [u8])> =
            items.iter().copied().zip(split(items, bytes)?).collect();
        let decoded = entries.iter().map(|_| None).collect();
        Some(Stored { entries, decoded })
    }

    /// Entry `i`, checked against its hash and decoded on first use; `None` when `i` is not
    /// in the table, or its bytes are damaged or do not decode.
    fn entry(&mut self, i: Option<usize>) -> Option<&L> {
        let i = i?;
        let slot = self.decoded.get_mut(i)?;
        if slot.is_none() {
            let (item, bytes) = self.entries.get(i)?;
            *slot = Some(postcard::from_bytes(item.check(bytes)?).ok()?);
        }
        slot.as_ref()
    }
}

/// A section's lists as a call reads them: each checked and decoded once, on first use, then
/// shared by every rule that refers to it (a [`List`] clone copies no item).
pub(super) struct Lists<'a> {
    strings: Stored<'a, List<String>>,
    specs: Stored<'a, List<PathSpec>>,
    bad: bool,
}

impl Lists<'_> {
    /// Put the lists `r` refers to back in place; `None` when a reference is not in the
    /// table or does not decode (a damaged or foreign snapshot: it is not trusted).
    pub(super) fn restore(&mut self, r: &mut Rule) -> Option<()> {
        self.bad = false;
        visit_rule(r, self);
        (!self.bad).then_some(())
    }
}

/// The index of a reference `[MARK, "<index>"]`, or `None` for a list that is no reference.
fn index_of<'a>(mut items: impl Iterator<Item = Option<&'a str>>) -> Option<Option<usize>> {
    if items.next()?? != MARK {
        return None;
    }
    Some(items.next().flatten().and_then(|i| i.parse().ok()))
}

/// The text of a glob spec (`None` for a keyword).
fn glob_text(s: &PathSpec) -> Option<&str> {
    match s {
        PathSpec::Glob(g) => Some(g.as_str()),
        _ => None,
    }
}

impl ListSlots for Lists<'_> {
    fn strings(&mut self, v: &mut List<String>) {
        if let Some(i) = index_of(v.iter().map(|s| Some(s.as_str()))) {
            match self.strings.entry(i) {
                Some(list) => *v = list.clone(),
                None => self.bad = true,
            }
        }
    }

    fn specs(&mut self, v: &mut List<PathSpec>) {
        if let Some(i) = index_of(v.iter().map(glob_text)) {
            match self.specs.entry(i) {
                Some(list) => *v = list.clone(),
                None => self.bad = true,
            }
        }
    }
}
