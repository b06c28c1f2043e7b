//! The check hashes of the cache's entries, and the stored items of a snapshot section that
//! carry their own (issue 29).
//!
//! In: the bytes of an entry or of one item. Out: their check hash ([`hash_bytes`]), seeded
//! with this build ([`build_id`], [`LOWERED_FORMAT`]), and an [`Item`]: where an item's bytes
//! end and the hash they must have.
//!
//! A file entry and a snapshot's header are checked whole. A section's table (its fields,
//! the gates of its rules, its literals, and one [`Item`] per rule and per long list) is
//! checked whole too, since every call reads all of it; each rule and each list after the table
//! is checked on its own, when a call decodes it. A call therefore hashes what it decodes and
//! nothing else, and no byte it decodes goes unchecked: a damaged rule or list that a call
//! does not decode cannot change that call's decision, and the first call that does decode it
//! finds the damage and rebuilds the snapshot.

use std::hash::{Hash, Hasher};
use std::os::unix::fs::MetadataExt;

use serde::{Deserialize, Serialize};

/// Bumped whenever what the loader produces or the snapshot layout changes within one crate
/// version, so an entry of an older build is never reused.
/// 2: diagnostics carry `width` and `note`; one-line messages.
/// 4: effect tests carry `earlier_read_inside`.
/// 5: postcard file entries and per-seam snapshots.
/// 6: file entries carry their regex tests' literals.
/// 7: file entries and sections carry their regex matchers' literals too; a word-wise check
///    hash instead of SipHash.
/// 8: a section stores each rule's gate before the rule's own bytes.
/// 9: gates on the literals of text tests and on the programs of `runs` tests, fields in a
///    table per section.
/// 10: effect tests carry `earlier_fetch`.
/// 11: gates on the programs of shell tests on a payload field.
/// 12: a section stores each long list once, its rules refer to it ([`interned`](super::interned)).
/// 13: a section's table is checked whole, each rule and list after it on its own when a
///     call decodes it (this module); a rule's bytes carry its regexes' literals
///     ([`section`](super::section));
///     a gate's texts are one joined string.
pub(super) const LOWERED_FORMAT: u32 = 13;

/// This build: a hash of the running binary's size and modification time, so a rebuilt
/// binary (whose lowering or literal analysis may differ within one version) never reads
/// another build's entries.
pub fn build_id() -> u64 {
    static ID: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *ID.get_or_init(|| {
        let mut h = std::hash::DefaultHasher::new();
        if let Some(m) = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
        {
            (m.len(), m.mtime(), m.mtime_nsec()).hash(&mut h);
        }
        h.finish()
    })
}

/// A hasher seeded with this build: version, entry format and [`build_id`]; what the cache's
/// keys and check hashes start from.
pub(super) fn new_hasher() -> std::hash::DefaultHasher {
    let mut h = std::hash::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    LOWERED_FORMAT.hash(&mut h);
    build_id().hash(&mut h);
    h
}

/// The check hash of an entry's bytes (file entries, a snapshot's header, section tables,
/// rules and lists), seeded with this build (version, entry format, build id), so another
/// build's entry never checks out. Eight bytes per step, each step a bijection of the state
/// (xor the word, multiply by an odd constant, xor-shift): damage within one 8-byte word
/// always changes the hash, and wider damage goes unnoticed with a chance of about 2^-64.
/// Several times cheaper than SipHash, which took 7 % of a cold `Bash` call verifying its
/// sections.
pub(super) fn hash_bytes(b: &[u8]) -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    const M: u64 = 0xff51_afd7_ed55_8ccd;
    let seed = *SEED.get_or_init(|| new_hasher().finish());
    let step = |h: u64, w: u64| {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 29)
    };
    let mut h = seed ^ (b.len() as u64).wrapping_mul(M);
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        h = step(h, <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last.iter_mut().zip(rest).for_each(|(d, s)| *d = *s);
        h = step(h, u64::from_le_bytes(last));
    }
    h ^= h >> 33;
    h = h.wrapping_mul(M);
    h ^ (h >> 33)
}

/// One item stored after a section's table (a rule's or a long list's encoding): its length
/// and the check hash its bytes must have. The table holds the items in the order their
/// bytes follow it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Item {
    /// The length of the encoding.
    pub(super) len: u32,
    /// [`hash_bytes`] of the encoding.
    pub(super) hash: u64,
}

impl Item {
    /// The item of an encoding; `None` when it is too long to store.
    pub(super) fn of(bytes: &[u8]) -> Option<Item> {
        Some(Item {
            len: u32::try_from(bytes.len()).ok()?,
            hash: hash_bytes(bytes),
        })
    }

    /// `bytes` when they are this item's (its length and hash); `None` for damaged bytes,
    /// which are then never decoded.
    pub(super) fn check<'b>(&self, bytes: &'b [u8]) -> Option<&'b [u8]> {
        (bytes.len() == self.len as usize && hash_bytes(bytes) == self.hash).then_some(bytes)
    }
}

/// `bytes` cut into the encodings of `items`, in order; `None` unless their lengths add up
/// to exactly `bytes` (a truncated or foreign section). Nothing is hashed here.
pub(super) fn split<'b>(items: &[Item], mut bytes: &'b [u8]) -> Option<Vec<&'b [u8]>> {
    let mut out = Vec::with_capacity(items.len());
    for i in items {
        let (one, rest) = bytes.split_at_checked(i.len as usize)?;
        out.push(one);
        bytes = rest;
    }
    bytes.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_checks_its_own_bytes_only() {
        let a = b"the bytes of one rule".to_vec();
        let item = Item::of(&a).unwrap();
        assert_eq!(item.len, 21);
        assert_eq!(item.check(&a), Some(a.as_slice()));
        let mut flipped = a.clone();
        flipped[20] ^= 0x80;
        assert_eq!(item.check(&flipped), None);
        assert_eq!(item.check(&a[..20]), None);
        let b = b"list".to_vec();
        let items = [item, Item::of(&b).unwrap()];
        let both = [a.as_slice(), b.as_slice()].concat();
        assert_eq!(split(&items, &both), Some(vec![a.as_slice(), b.as_slice()]));
        assert_eq!(split(&items, &both[..both.len() - 1]), None);
        assert_eq!(split(&items, &[both.as_slice(), b"x"].concat()), None);
    }
}
