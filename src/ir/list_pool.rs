//! Pooled lists: many short lists of small `Copy` items in one `Vec`
//! (Cranelift's `ListPool` / `EntityList` idea, written for pfir).
//!
//! A list is an [`EntityList`]: a 4-byte handle, `0` for the empty list
//! (which owns nothing). A non-empty list of `n` items lives in a *block*
//! of the pool's buffer of `2 << class` slots, `class = ilog2(n)`: the first
//! slot holds the length, the items follow, the rest is spare. So a list
//! of one item takes 2 slots, two or three items 4 slots, four to seven 8.
//! A list whose length crosses a power of two moves to a block of the next
//! (or previous) class; freed blocks go onto a free list per class (linked
//! through their length slot) and are reused first, so a list that grows
//! and shrinks does not leak.
//!
//! Reading a list needs its pool (`list.as_slice(&pool)`; the IR wraps this
//! as `Function::list`). Handles are not reference-counted: copying a
//! handle aliases the list, and a list freed through one handle must not
//! be read through another (the IR never keeps two handles to one list).
//!
//! Item types implement [`ListItem`]: they must round-trip a `u32` (the
//! length and free-list links are stored as items).

use std::fmt;
use std::marker::PhantomData;

/// An item of a pooled list: `Copy`, and able to hold a `u32` (the pool
/// stores lengths and free-list links in item slots).
pub trait ListItem: Copy {
    /// An item standing for `n` (only read back with [`ListItem::to_u32`]).
    fn from_u32(n: u32) -> Self;
    /// The `n` of an item made by [`ListItem::from_u32`].
    fn to_u32(self) -> u32;
}

impl ListItem for u32 {
    fn from_u32(n: u32) -> Self {
        n
    }
    fn to_u32(self) -> u32 {
        self
    }
}

/// The storage of many [`EntityList`]s of `T`.
#[derive(Clone)]
pub struct ListPool<T> {
    data: Vec<T>,
    /// Per class, `1 +` the start of the first free block (0: none).
    free: Vec<u32>,
}

/// A list of `T` stored in a [`ListPool<T>`]: 4 bytes, empty by default.
pub struct EntityList<T> {
    /// `1 +` the position of the length slot of the list's block; 0 when empty.
    index: u32,
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for EntityList<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for EntityList<T> {}

impl<T> Default for EntityList<T> {
    fn default() -> Self {
        EntityList::new()
    }
}

impl<T> PartialEq for EntityList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<T> Eq for EntityList<T> {}

impl<T> fmt::Debug for EntityList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EntityList({})", self.index)
    }
}

impl<T> fmt::Debug for ListPool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ListPool({} slots)", self.data.len())
    }
}

/// The class of a block that holds `len >= 1` items.
fn class_of(len: usize) -> usize {
    len.ilog2() as usize
}

/// The slots of a block of `class` (the length slot included).
fn block_size(class: usize) -> usize {
    2 << class
}

impl<T: ListItem> Default for ListPool<T> {
    fn default() -> Self {
        ListPool::new()
    }
}

impl<T: ListItem> ListPool<T> {
    pub fn new() -> Self {
        ListPool {
            data: Vec::new(),
            free: Vec::new(),
        }
    }

    /// A pool with room for `slots` slots before it grows.
    pub fn with_capacity(slots: usize) -> Self {
        ListPool {
            data: Vec::with_capacity(slots),
            free: Vec::new(),
        }
    }

    /// Slots in use or free (what the pool's buffer holds).
    pub fn slots(&self) -> usize {
        self.data.len()
    }

    /// Reserves room for `slots` more slots.
    pub fn reserve(&mut self, slots: usize) {
        self.data.reserve(slots);
    }

    /// A block of `class`, its length slot set to 0; returns its start.
    fn alloc(&mut self, class: usize) -> usize {
        if let Some(head) = self.free.get_mut(class)
            && *head != 0
        {
            let block = (*head - 1) as usize;
            *head = self.data[block].to_u32();
            return block;
        }
        let block = self.data.len();
        let end = block + block_size(class);
        // Handles store `1 + block`, so every block start stays below u32::MAX.
        assert!(
            end < u32::MAX as usize,
            "list pool holds more than u32::MAX items"
        );
        self.data.resize(end, T::from_u32(0));
        block
    }

    /// Returns a block of `class` to its free list.
    fn free_block(&mut self, block: usize, class: usize) {
        if self.free.len() <= class {
            self.free.resize(class + 1, 0);
        }
        self.data[block] = T::from_u32(self.free[class]);
        self.free[class] = block as u32 + 1;
    }

    /// Moves the block at `block` (of `from` class) holding `len` items to
    /// a block of class `to`; returns the new start.
    fn realloc(&mut self, block: usize, from: usize, to: usize, len: usize) -> usize {
        let new = self.alloc(to);
        self.data.copy_within(block..block + 1 + len, new);
        self.free_block(block, from);
        new
    }
}

impl<T> EntityList<T> {
    /// The empty list.
    pub const fn new() -> Self {
        EntityList {
            index: 0,
            _item: PhantomData,
        }
    }

    /// Whether the list is empty (needs no pool).
    pub fn is_empty(&self) -> bool {
        self.index == 0
    }
}

impl<T: ListItem> EntityList<T> {
    /// A new list holding `items`, in a block of the exact class.
    pub fn from_slice(items: &[T], pool: &mut ListPool<T>) -> Self {
        if items.is_empty() {
            return EntityList::new();
        }
        let block = pool.alloc(class_of(items.len()));
        pool.data[block] = T::from_u32(items.len() as u32);
        pool.data[block + 1..block + 1 + items.len()].copy_from_slice(items);
        EntityList {
            index: block as u32 + 1,
            _item: PhantomData,
        }
    }

    /// The start of the list's block (the length slot); `None` when empty.
    fn block(&self) -> Option<usize> {
        (self.index != 0).then(|| (self.index - 1) as usize)
    }

    pub fn len(&self, pool: &ListPool<T>) -> usize {
        match self.block() {
            // A handle into another pool (or a freed list) reads as empty
            // rather than panicking.
            Some(b) => pool.data.get(b).map_or(0, |x| x.to_u32() as usize),
            None => 0,
        }
    }

    /// Whether the handle is empty or names a block that lies wholly
    /// inside `pool` (a handle of another pool may not).
    pub fn is_valid(&self, pool: &ListPool<T>) -> bool {
        match self.block() {
            None => true,
            Some(b) => b < pool.data.len() && b + 1 + self.len(pool) <= pool.data.len(),
        }
    }

    /// The position of the list's block in its pool (`None` when empty):
    /// two handles with the same position alias one list.
    pub fn position(&self) -> Option<usize> {
        self.block()
    }

    /// The items, in order.
    pub fn as_slice<'p>(&self, pool: &'p ListPool<T>) -> &'p [T] {
        let Some(b) = self.block() else {
            return &[];
        };
        let len = self.len(pool);
        pool.data.get(b + 1..b + 1 + len).unwrap_or(&[])
    }

    /// The items, to change in place.
    pub fn as_mut_slice<'p>(&self, pool: &'p mut ListPool<T>) -> &'p mut [T] {
        let Some(b) = self.block() else {
            return &mut [];
        };
        let len = self.len(pool);
        pool.data.get_mut(b + 1..b + 1 + len).unwrap_or(&mut [])
    }

    pub fn get(&self, i: usize, pool: &ListPool<T>) -> Option<T> {
        self.as_slice(pool).get(i).copied()
    }

    /// Appends `item` (amortised O(1): the list moves when its length
    /// reaches a power of two).
    pub fn push(&mut self, item: T, pool: &mut ListPool<T>) {
        let len = self.len(pool);
        let block = match self.block() {
            None => pool.alloc(0),
            // Full when len + 1 (the length slot included) is the block size.
            Some(b) if (len + 1).is_power_of_two() => {
                pool.realloc(b, class_of(len), class_of(len + 1), len)
            }
            Some(b) => b,
        };
        pool.data[block + 1 + len] = item;
        pool.data[block] = T::from_u32((len + 1) as u32);
        self.index = block as u32 + 1;
    }

    /// Appends every item of `items`.
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>, pool: &mut ListPool<T>) {
        for item in items {
            self.push(item, pool);
        }
    }

    /// Inserts `item` at position `i` (at most the length), shifting the
    /// rest up: O(length).
    pub fn insert(&mut self, i: usize, item: T, pool: &mut ListPool<T>) {
        let len = self.len(pool);
        assert!(i <= len, "insert position {i} past the end ({len})");
        self.push(item, pool);
        self.as_mut_slice(pool)[i..].rotate_right(1);
    }

    /// Removes and returns the item at `i`, shifting the rest down:
    /// O(length). The list moves to a smaller block when its length drops
    /// below a power of two, and frees its block when it becomes empty.
    pub fn remove(&mut self, i: usize, pool: &mut ListPool<T>) -> T {
        let len = self.len(pool);
        assert!(i < len, "remove position {i} past the end ({len})");
        let slice = self.as_mut_slice(pool);
        let item = slice[i];
        slice[i..].rotate_left(1);
        let b = self.block().expect("a non-empty list has a block");
        let new_len = len - 1;
        if new_len == 0 {
            pool.free_block(b, 0);
            self.index = 0;
            return item;
        }
        pool.data[b] = T::from_u32(new_len as u32);
        let (from, to) = (class_of(len), class_of(new_len));
        if from != to {
            self.index = pool.realloc(b, from, to, new_len) as u32 + 1;
        }
        item
    }

    /// Empties the list, returning its block to the pool.
    pub fn clear(&mut self, pool: &mut ListPool<T>) {
        if let Some(b) = self.block() {
            let len = self.len(pool);
            if len > 0 {
                pool.free_block(b, class_of(len));
            }
        }
        self.index = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::{EntityList, ListPool};

    fn list(items: &[u32], pool: &mut ListPool<u32>) -> EntityList<u32> {
        EntityList::from_slice(items, pool)
    }

    #[test]
    fn empty_lists_own_nothing() {
        let mut pool = ListPool::<u32>::new();
        let l = EntityList::<u32>::new();
        assert!(l.is_empty());
        assert_eq!(l.len(&pool), 0);
        assert_eq!(l.as_slice(&pool), &[] as &[u32]);
        assert_eq!(pool.slots(), 0);
        let e = list(&[], &mut pool);
        assert!(e.is_empty());
        assert_eq!(pool.slots(), 0);
        assert_eq!(std::mem::size_of::<EntityList<u32>>(), 4);
    }

    #[test]
    fn push_reads_back_across_growth() {
        let mut pool = ListPool::new();
        let mut a = EntityList::new();
        let mut b = EntityList::new();
        for i in 0..100u32 {
            a.push(i, &mut pool);
            b.push(1000 + i, &mut pool);
            assert_eq!(a.len(&pool), i as usize + 1);
        }
        assert_eq!(a.as_slice(&pool), (0..100).collect::<Vec<_>>().as_slice());
        assert_eq!(
            b.as_slice(&pool),
            (1000..1100).collect::<Vec<_>>().as_slice()
        );
        assert_eq!(a.get(99, &pool), Some(99));
        assert_eq!(a.get(100, &pool), None);
    }

    #[test]
    fn insert_and_remove_keep_order() {
        let mut pool = ListPool::new();
        let mut l = list(&[1, 2, 4], &mut pool);
        l.insert(2, 3, &mut pool);
        l.insert(0, 0, &mut pool);
        l.insert(5, 5, &mut pool);
        assert_eq!(l.as_slice(&pool), &[0, 1, 2, 3, 4, 5]);
        assert_eq!(l.remove(0, &mut pool), 0);
        assert_eq!(l.remove(4, &mut pool), 5);
        assert_eq!(l.remove(1, &mut pool), 2);
        assert_eq!(l.as_slice(&pool), &[1, 3, 4]);
        for _ in 0..3 {
            l.remove(0, &mut pool);
        }
        assert!(l.is_empty());
        assert_eq!(l.as_slice(&pool), &[] as &[u32]);
    }

    #[test]
    fn mutable_slices_write_through() {
        let mut pool = ListPool::new();
        let l = list(&[1, 2, 3], &mut pool);
        l.as_mut_slice(&mut pool)[1] = 20;
        assert_eq!(l.as_slice(&pool), &[1, 20, 3]);
    }

    #[test]
    fn cleared_blocks_are_reused() {
        let mut pool = ListPool::new();
        let mut a = list(&[1, 2, 3], &mut pool);
        let keep = list(&[9], &mut pool);
        let used = pool.slots();
        a.clear(&mut pool);
        assert!(a.is_empty());
        // Same class (two or three items): the freed block is taken again.
        let b = list(&[7, 8], &mut pool);
        assert_eq!(pool.slots(), used);
        assert_eq!(b.as_slice(&pool), &[7, 8]);
        assert_eq!(keep.as_slice(&pool), &[9]);
        // Lists that grow leave their small blocks to later small lists.
        let mut grown = EntityList::new();
        for i in 0..64 {
            grown.push(i, &mut pool);
        }
        let used = pool.slots();
        for n in [1u32, 2, 4, 8, 16, 32] {
            let items: Vec<u32> = (0..n).collect();
            let l = list(&items, &mut pool);
            assert_eq!(l.as_slice(&pool), items.as_slice());
        }
        assert_eq!(pool.slots(), used, "every class had a freed block");
        assert_eq!(grown.len(&pool), 64);
    }

    #[test]
    fn shrinking_moves_to_smaller_blocks_and_frees_the_larger() {
        let mut pool = ListPool::new();
        let mut l = list(&(0..8).collect::<Vec<u32>>(), &mut pool);
        while l.len(&pool) > 1 {
            l.remove(0, &mut pool);
        }
        assert_eq!(l.as_slice(&pool), &[7]);
        let used = pool.slots();
        // The blocks of 16, 8 and 4 slots it left are reused.
        let a = list(&(0..8).collect::<Vec<u32>>(), &mut pool);
        let b = list(&[1, 2, 3, 4], &mut pool);
        let c = list(&[5, 6], &mut pool);
        assert_eq!(pool.slots(), used);
        assert_eq!(a.len(&pool) + b.len(&pool) + c.len(&pool), 14);
        assert_eq!(l.as_slice(&pool), &[7]);
    }

    #[test]
    fn many_lists_interleaved_stay_independent() {
        let mut pool = ListPool::new();
        let mut lists: Vec<(EntityList<u32>, Vec<u32>)> = Vec::new();
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            seed >> 8
        };
        for _ in 0..20 {
            lists.push((EntityList::new(), Vec::new()));
        }
        for _ in 0..5000 {
            let k = next() as usize % lists.len();
            let (l, model) = &mut lists[k];
            match next() % 5 {
                0 | 1 => {
                    let x = next();
                    l.push(x, &mut pool);
                    model.push(x);
                }
                2 if !model.is_empty() => {
                    let i = next() as usize % model.len();
                    assert_eq!(l.remove(i, &mut pool), model.remove(i));
                }
                3 => {
                    let i = next() as usize % (model.len() + 1);
                    let x = next();
                    l.insert(i, x, &mut pool);
                    model.insert(i, x);
                }
                4 if next() % 8 == 0 => {
                    l.clear(&mut pool);
                    model.clear();
                }
                _ => {}
            }
            for (l, model) in &lists {
                assert_eq!(l.as_slice(&pool), model.as_slice());
            }
        }
    }
}
