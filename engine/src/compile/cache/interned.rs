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

/// The distinct long lists of one section, by position.
#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
pub(super) struct ListTable {
    /// Lists of strings (globs, regexes, hosts, programs, …).
    pub(super) strings: Vec<Vec<String>>,
    /// Lists of path specs (`path_inside`, `body_from`, …).
    pub(super) specs: Vec<Vec<PathSpec>>,
}

/// Builds a section's [`ListTable`], one entry per distinct content.
#[derive(Default)]
pub(super) struct Interner {
    table: ListTable,
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

    /// The table of every list interned so far.
    pub(super) fn finish(self) -> ListTable {
        self.table
    }
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
        let i = match self.strings_at.get(&list) {
            Some(i) => *i,
            None => {
                let i = self.table.strings.len();
                self.strings_at.insert(list.clone(), i);
                self.table.strings.push(list);
                i
            }
        };
        *v = reference(i).into();
    }

    fn specs(&mut self, v: &mut Vec<PathSpec>) {
        let marked = matches!(v.first(), Some(PathSpec::Glob(g)) if g == MARK);
        if v.len() < MIN_ITEMS && !marked {
            return;
        }
        let list = std::mem::take(v);
        let i = match self.specs_at.iter().find(|(l, _)| *l == list) {
            Some((_, i)) => *i,
            None => {
                let i = self.table.specs.len();
                self.specs_at.push((list.clone(), i));
                self.table.specs.push(list);
                i
            }
        };
        *v = reference(i).map(PathSpec::Glob).into();
    }
}

impl ListTable {
    /// Put the lists `r` refers to back in place; `None` when a reference is not in the
    /// table (a snapshot of another build: it is not trusted).
    pub(super) fn restore(&self, r: &mut Rule) -> Option<()> {
        let mut x = Restorer {
            table: self,
            bad: false,
        };
        visit_rule(r, &mut x);
        (!x.bad).then_some(())
    }
}

/// Replaces references by the table's lists.
struct Restorer<'t> {
    table: &'t ListTable,
    bad: bool,
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

impl ListSlots for Restorer<'_> {
    fn strings(&mut self, v: &mut Vec<String>) {
        if let Some(i) = index_of(v.iter().map(|s| Some(s.as_str()))) {
            match i.and_then(|i| self.table.strings.get(i)) {
                Some(list) => v.clone_from(list),
                None => self.bad = true,
            }
        }
    }

    fn specs(&mut self, v: &mut Vec<PathSpec>) {
        if let Some(i) = index_of(v.iter().map(glob_text)) {
            match i.and_then(|i| self.table.specs.get(i)) {
                Some(list) => v.clone_from(list),
                None => self.bad = true,
            }
        }
    }
}
