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
//! reference. The section's hash covers the table, and a reference out of the table makes the
//! whole snapshot unreadable (it is then rebuilt), never a rule with an empty list.
//!
//! A call decodes and hash-checks each list once per section instead of once per rule that
//! names it; the globs and regexes of a list are then built once per process by content
//! (`GlobList::build`, the regex table), whichever rule asks first.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::lists::{ListSlots, visit_rule};
use crate::policy::{PathSpec, Rule};

/// The first item of a reference into a [`ListTable`]: a text no policy writes (a TOML
/// string would have to spell the NUL).
pub(super) const MARK: &str = "\u{0}@list";

/// Lists shorter than this stay in their rule: a reference is two items.
const MIN_ITEMS: usize = 3;

/// One stored list: its own postcard bytes, borrowed from the section's, so a call decodes
/// only the lists of the rules it decodes (a `Read` call opens the gate of few rules).
#[derive(Deserialize, Debug, Clone, PartialEq)]
pub(super) struct Encoded<'a>(#[serde(borrow)] pub(super) &'a [u8]);

impl Serialize for Encoded<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// The distinct long lists of one section, by position, each still encoded.
#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
pub(super) struct ListTable<'a> {
    /// Lists of strings (globs, regexes, hosts, programs, …).
    #[serde(borrow)]
    pub(super) strings: Vec<Encoded<'a>>,
    /// Lists of path specs (`path_inside`, `body_from`, …).
    #[serde(borrow)]
    pub(super) specs: Vec<Encoded<'a>>,
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

    /// The table of every list interned so far, borrowing the encodings.
    pub(super) fn table(&self) -> ListTable<'_> {
        fn view(v: &[Vec<u8>]) -> Vec<Encoded<'_>> {
            v.iter().map(|b| Encoded(b.as_slice())).collect()
        }
        ListTable {
            strings: view(&self.strings),
            specs: view(&self.specs),
        }
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
    fn strings(&mut self, v: &mut Vec<String>) {
        if v.len() < MIN_ITEMS && v.first().is_none_or(|s| s != MARK) {
            return;
        }
        let list = std::mem::take(v);
        let found = self.strings_at.get(&list).copied();
        let i = slot_of(&list, found, &mut self.strings);
        self.strings_at.insert(list, i);
        *v = reference(i).into();
    }

    fn specs(&mut self, v: &mut Vec<PathSpec>) {
        let marked = matches!(v.first(), Some(PathSpec::Glob(g)) if g == MARK);
        if v.len() < MIN_ITEMS && !marked {
            return;
        }
        let list = std::mem::take(v);
        let found = self
            .specs_at
            .iter()
            .find(|(l, _)| *l == list)
            .map(|(_, i)| *i);
        let i = slot_of(&list, found, &mut self.specs);
        if found.is_none() {
            self.specs_at.push((list, i));
        }
        *v = reference(i).map(PathSpec::Glob).into();
    }
}

impl<'a> ListTable<'a> {
    /// A reader of the table, decoding each list on its first reference.
    pub(super) fn reader(self) -> Lists<'a> {
        Lists {
            strings: vec![None; self.strings.len()],
            specs: vec![None; self.specs.len()],
            table: self,
            bad: false,
        }
    }
}

/// A section's lists as a call reads them: each decoded once, on first use, then cloned
/// into every rule that refers to it.
pub(super) struct Lists<'a> {
    table: ListTable<'a>,
    strings: Vec<Option<Vec<String>>>,
    specs: Vec<Option<Vec<PathSpec>>>,
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

/// Entry `i` of `decoded`, decoding it from `table` on first use.
fn entry<'d, L: serde::de::DeserializeOwned>(
    i: Option<usize>,
    table: &[Encoded<'_>],
    decoded: &'d mut [Option<L>],
) -> Option<&'d L> {
    let i = i?;
    let slot = decoded.get_mut(i)?;
    if slot.is_none() {
        *slot = Some(postcard::from_bytes(table.get(i)?.0).ok()?);
    }
    slot.as_ref()
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
    fn strings(&mut self, v: &mut Vec<String>) {
        if let Some(i) = index_of(v.iter().map(|s| Some(s.as_str()))) {
            match entry(i, &self.table.strings, &mut self.strings) {
                Some(list) => v.clone_from(list),
                None => self.bad = true,
            }
        }
    }

    fn specs(&mut self, v: &mut Vec<PathSpec>) {
        if let Some(i) = index_of(v.iter().map(glob_text)) {
            match entry(i, &self.table.specs, &mut self.specs) {
                Some(list) => v.clone_from(list),
                None => self.bad = true,
            }
        }
    }
}
