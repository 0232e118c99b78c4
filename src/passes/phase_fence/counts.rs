//! Per-loop consumer counts: array variable -> (count, first appearance).
//!
//! Counts move up the loop tree, multiplied by trip counts. To stay
//! O(n log n) on any shape:
//!
//! - maps merge small-to-large ([`CountMap::absorb`]): an entry moves only
//!   into a map at least twice the size of the one it leaves, so at most
//!   log2(n) times;
//! - multiplication by a trip count ([`CountMap::scale`]) touches only the
//!   entries not yet saturated, and a trip count of 1 touches nothing. An
//!   entry at least doubles each time it is touched, so it is touched at
//!   most 63 times before it reaches [`CAP`] and leaves the unsaturated list.
//!
//! Every count saturates at [`CAP`] (`i64::MAX`): the count is exactly
//! `min(true count, CAP)`.

use super::CAP;
use crate::ir::VarId;
use hashbrown::HashMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The weighted number of consumers, saturating at [`CAP`].
    pub count: u64,
    /// The statement number of the first consumer (source order).
    pub first: u32,
    /// The index of that first consumer.
    pub first_consumer: u32,
}

#[derive(Debug, Default, Clone)]
pub struct CountMap {
    entries: HashMap<VarId, Entry>,
    /// Keys whose count may be below [`CAP`] (may hold stale keys).
    unsaturated: Vec<VarId>,
}

impl CountMap {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds `count` consumers of `array`, the first at statement `first`.
    pub fn add(&mut self, array: VarId, count: u64, first: u32, first_consumer: u32) {
        let count = count.min(CAP);
        match self.entries.entry(array) {
            hashbrown::hash_map::Entry::Occupied(mut o) => {
                let e = o.get_mut();
                e.count = e.count.saturating_add(count).min(CAP);
                if first < e.first {
                    e.first = first;
                    e.first_consumer = first_consumer;
                }
            }
            hashbrown::hash_map::Entry::Vacant(v) => {
                v.insert(Entry {
                    count,
                    first,
                    first_consumer,
                });
                if count < CAP {
                    self.unsaturated.push(array);
                }
            }
        }
    }

    pub fn get(&self, array: VarId) -> Option<&Entry> {
        self.entries.get(&array)
    }

    pub fn remove(&mut self, array: VarId) -> Option<Entry> {
        self.entries.remove(&array)
    }

    /// Multiplies every count by `factor` (>= 1), saturating.
    pub fn scale(&mut self, factor: u64) {
        if factor <= 1 {
            return;
        }
        let entries = &mut self.entries;
        self.unsaturated.retain(|k| match entries.get_mut(k) {
            Some(e) if e.count < CAP => {
                e.count = e.count.saturating_mul(factor).min(CAP);
                e.count < CAP
            }
            _ => false,
        });
    }

    /// Moves every entry of `other` into `self`, merging equal keys; the
    /// smaller map is the one iterated.
    pub fn absorb(&mut self, mut other: CountMap) {
        if other.len() > self.len() {
            std::mem::swap(self, &mut other);
        }
        for (k, e) in other.entries {
            self.add(k, e.count, e.first, e.first_consumer);
        }
    }

    /// All entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, &Entry)> {
        self.entries.iter().map(|(k, e)| (*k, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ArenaId;

    #[test]
    fn saturating_scale_and_merge() {
        let a = VarId::from_index(0);
        let b = VarId::from_index(1);
        let mut m = CountMap::default();
        m.add(a, 1, 5, 0);
        for _ in 0..70 {
            m.scale(2);
        }
        assert_eq!(m.get(a).unwrap().count, CAP);
        assert!(m.unsaturated.is_empty());
        let mut n = CountMap::default();
        n.add(a, 3, 2, 1);
        n.add(b, 2, 9, 2);
        n.scale(3);
        m.absorb(n);
        assert_eq!(m.get(a).unwrap().count, CAP);
        assert_eq!(m.get(a).unwrap().first, 2);
        assert_eq!(m.get(b).unwrap().count, 6);
    }
}
