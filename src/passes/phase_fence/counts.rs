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
//! A map of at most two arrays (the common case: one per loop) is stored
//! inline, without a heap allocation; a larger one in a hash table.
//!
//! Every count saturates at [`CAP`] (`i64::MAX`): the count is exactly
//! `min(true count, CAP)`.

use super::CAP;
use crate::ir::VarId;
use hashbrown::HashMap;
use smallvec::SmallVec;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The weighted number of consumers, saturating at [`CAP`].
    pub count: u64,
    /// The statement number of the first consumer (source order).
    pub first: u32,
    /// The index of that first consumer.
    pub first_consumer: u32,
}

/// How many entries a map holds inline before it moves them to a hash
/// table (most loops' consumers wait on one or two arrays).
const INLINE: usize = 2;

#[derive(Debug, Default, Clone)]
pub struct CountMap {
    /// The entries while there are at most [`INLINE`] of them (no heap
    /// allocation), searched linearly; empty once `large` is `Some`.
    small: SmallVec<[(VarId, Entry); INLINE]>,
    /// All entries once there are more than [`INLINE`] (boxed and
    /// optional: most maps never need it, and the pass keeps a map per loop).
    large: Option<Box<HashMap<VarId, Entry>>>,
    /// Keys whose count may be below [`CAP`] (may hold stale keys).
    unsaturated: SmallVec<[VarId; INLINE]>,
}

/// The entry of `array`, in whichever of the two stores holds it.
fn entry_mut<'a>(
    small: &'a mut SmallVec<[(VarId, Entry); INLINE]>,
    large: &'a mut Option<Box<HashMap<VarId, Entry>>>,
    array: VarId,
) -> Option<&'a mut Entry> {
    match large {
        None => small.iter_mut().find(|(k, _)| *k == array).map(|(_, e)| e),
        Some(large) => large.get_mut(&array),
    }
}

impl CountMap {
    pub fn len(&self) -> usize {
        self.small.len() + self.large.as_ref().map_or(0, |l| l.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds `count` consumers of `array`, the first at statement `first`.
    pub fn add(&mut self, array: VarId, count: u64, first: u32, first_consumer: u32) {
        let count = count.min(CAP);
        if let Some(e) = entry_mut(&mut self.small, &mut self.large, array) {
            e.count = e.count.saturating_add(count).min(CAP);
            if first < e.first {
                e.first = first;
                e.first_consumer = first_consumer;
            }
            return;
        }
        let entry = Entry {
            count,
            first,
            first_consumer,
        };
        match &mut self.large {
            None if self.small.len() < INLINE => self.small.push((array, entry)),
            Some(large) => {
                large.insert(array, entry);
            }
            None => {
                let mut large = HashMap::with_capacity(2 * INLINE + 1);
                large.extend(self.small.drain(..));
                large.insert(array, entry);
                self.large = Some(Box::new(large));
            }
        }
        if count < CAP {
            self.unsaturated.push(array);
        }
    }

    /// The entry of `array`: what the unit tests below inspect (the pass
    /// reads entries only as it removes them).
    #[cfg(test)]
    pub fn get(&self, array: VarId) -> Option<&Entry> {
        match &self.large {
            None => self.small.iter().find(|(k, _)| *k == array).map(|(_, e)| e),
            Some(large) => large.get(&array),
        }
    }

    pub fn remove(&mut self, array: VarId) -> Option<Entry> {
        match &mut self.large {
            None => {
                let i = self.small.iter().position(|(k, _)| *k == array)?;
                Some(self.small.swap_remove(i).1)
            }
            Some(large) => large.remove(&array),
        }
    }

    /// Multiplies every count by `factor` (>= 1), saturating.
    pub fn scale(&mut self, factor: u64) {
        if factor <= 1 {
            return;
        }
        let (small, large) = (&mut self.small, &mut self.large);
        self.unsaturated
            .retain(|k| match entry_mut(small, large, *k) {
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
        let large = other.large.map(|l| *l).unwrap_or_default();
        for (k, e) in other.small.into_iter().chain(large) {
            self.add(k, e.count, e.first, e.first_consumer);
        }
    }

    /// All entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, &Entry)> {
        self.small.iter().map(|(k, e)| (*k, e)).chain(
            self.large
                .iter()
                .flat_map(|l| l.iter().map(|(k, e)| (*k, e))),
        )
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

    /// Past the inline entries the map moves to its hash table and keeps
    /// every count, `first` and the saturation list.
    #[test]
    fn many_keys_spill_and_merge() {
        let keys: Vec<VarId> = (0..10).map(VarId::from_index).collect();
        let mut m = CountMap::default();
        for (i, &k) in keys.iter().enumerate() {
            m.add(k, 1, 100 - i as u32, i as u32);
            m.add(k, 2, 200, 99);
            assert_eq!(m.len(), i + 1);
        }
        m.scale(5);
        for (i, &k) in keys.iter().enumerate() {
            let e = m.get(k).unwrap();
            assert_eq!(
                (e.count, e.first, e.first_consumer),
                (15, 100 - i as u32, i as u32)
            );
        }
        let mut small = CountMap::default();
        small.add(keys[3], 1, 1, 7);
        small.add(VarId::from_index(50), 4, 60, 8);
        small.absorb(m);
        assert_eq!(small.len(), 11);
        assert_eq!(small.get(keys[3]).unwrap().count, 16);
        assert_eq!(small.get(keys[3]).unwrap().first, 1);
        assert_eq!(small.remove(keys[0]).unwrap().count, 15);
        assert!(small.get(keys[0]).is_none());
        assert_eq!(small.iter().count(), 10);
        let mut inline = CountMap::default();
        inline.add(keys[0], 1, 3, 0);
        inline.add(keys[1], 1, 4, 1);
        assert_eq!(inline.remove(keys[0]).unwrap().first, 3);
        assert_eq!(inline.len(), 1);
        assert_eq!(inline.iter().map(|(k, _)| k).collect::<Vec<_>>(), [keys[1]]);
    }
}
