//! A list of a rule's test (globs, hosts, path specs, …), shared between the rules that name
//! the same `"@name"` list (issue 29).
//!
//! In: the items of a list as a policy writes them, or a list already shared by another rule.
//! Out: [`List`], read as a `Vec` through `Deref`. Cloning a list takes a reference, not a
//! copy of its items: a snapshot read decodes a named list once per section and hands the
//! same items to every rule that refers to it. Changing a list (`DerefMut`) copies it first
//! when another rule shares it, so a list behaves as the value it holds.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The items of one list of a test, shared on clone and copied on first change.
///
/// It encodes (and compares, hashes and prints) as the `Vec` it holds, so a policy file, a
/// snapshot and `{:?}` read the same as a plain list. An empty list holds no allocation (most
/// lists of an effect test are empty, and a snapshot read decodes every one of them).
#[derive(Clone)]
pub struct List<T>(Option<Arc<Vec<T>>>);

impl<T> List<T> {
    /// A list of `items`.
    pub fn new(items: Vec<T>) -> Self {
        List((!items.is_empty()).then(|| Arc::new(items)))
    }

    /// Whether `self` and `other` are one shared list (not only equal items); two empty
    /// lists are.
    pub fn shares(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl<T> Default for List<T> {
    fn default() -> Self {
        List(None)
    }
}

impl<T> Deref for List<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        match &self.0 {
            Some(items) => items,
            None => const { &Vec::new() },
        }
    }
}

impl<T: Clone> DerefMut for List<T> {
    /// The items to change, copied first when another rule shares them.
    fn deref_mut(&mut self) -> &mut Vec<T> {
        Arc::make_mut(self.0.get_or_insert_with(|| Arc::new(Vec::new())))
    }
}

impl<T> From<Vec<T>> for List<T> {
    fn from(items: Vec<T>) -> Self {
        List::new(items)
    }
}

impl<T> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        List::new(iter.into_iter().collect())
    }
}

impl<'a, T> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for List<T> {}

impl<T: PartialEq<U>, U> PartialEq<Vec<U>> for List<T> {
    fn eq(&self, other: &Vec<U>) -> bool {
        **self == *other
    }
}

impl<T: PartialEq<U>, U> PartialEq<[U]> for List<T> {
    fn eq(&self, other: &[U]) -> bool {
        **self == *other
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for List<T> {
    fn eq(&self, other: &[U; N]) -> bool {
        **self == *other
    }
}

impl<T: Hash> Hash for List<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: fmt::Debug> fmt::Debug for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Serialize> Serialize for List<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    /// Decoded as a `Vec` and kept in one allocation (not a `Box` moved into an `Arc`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::deserialize(d).map(List::new)
    }
}
