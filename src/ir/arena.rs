//! A typed arena: a `Vec` of nodes addressed by small, copyable ids.
//!
//! Every IR node lives in an arena owned by its [`Function`](super::Function);
//! nodes refer to each other by id, never by pointer, so the IR has no
//! `Rc<RefCell<..>>` webs and can be cloned, compared and rewritten freely.

use std::fmt;
use std::marker::PhantomData;

/// An id type usable as an arena index.
pub trait ArenaId: Copy + Eq + std::hash::Hash + fmt::Debug {
    fn from_index(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares a 4-byte id implementing [`ArenaId`]. The id of the `i`-th node
/// stores `i + 1` in a `NonZeroU32`, so `Option<Id>` is 4 bytes too (the
/// niche is the "no id" value) and optional ids cost no more than ids.
/// Ids also implement [`ListItem`](crate::ir::list_pool::ListItem), so they
/// can be pooled in lists.
#[macro_export]
macro_rules! define_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(std::num::NonZeroU32);

        impl $name {
            /// The id of the `index`-th node (`index` below `u32::MAX`).
            pub const fn from_u32(index: u32) -> Self {
                match std::num::NonZeroU32::new(index.wrapping_add(1)) {
                    Some(n) => $name(n),
                    None => panic!("arena holds more than u32::MAX - 1 nodes"),
                }
            }

            /// The node's position in its arena.
            pub const fn as_u32(self) -> u32 {
                self.0.get() - 1
            }
        }

        impl $crate::ir::arena::ArenaId for $name {
            fn from_index(index: usize) -> Self {
                match u32::try_from(index) {
                    Ok(i) if i < u32::MAX => $name::from_u32(i),
                    _ => panic!("arena holds more than u32::MAX - 1 nodes"),
                }
            }
            fn index(self) -> usize {
                self.as_u32() as usize
            }
        }

        impl $crate::ir::list_pool::ListItem for $name {
            fn from_u32(n: u32) -> Self {
                $name::from_u32(n)
            }
            fn to_u32(self) -> u32 {
                self.as_u32()
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", stringify!($name), self.as_u32())
            }
        }
    };
}

/// A growable store of `T` addressed by `I`.
#[derive(Clone)]
pub struct Arena<I, T> {
    items: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I: ArenaId, T> Arena<I, T> {
    pub fn new() -> Self {
        Arena {
            items: Vec::new(),
            _id: PhantomData,
        }
    }

    /// Stores `value` and returns its id.
    pub fn alloc(&mut self, value: T) -> I {
        let id = I::from_index(self.items.len());
        self.items.push(value);
        id
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The node `id`, or `None` when `id` is past the end (an id of
    /// another function: see [`crate::ir::verify`]).
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Reserves room for `additional` more nodes.
    pub fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }

    /// All `(id, node)` pairs in allocation order.
    pub fn iter(&self) -> impl Iterator<Item = (I, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }
}

impl<I: ArenaId, T> Default for Arena<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Indexing a table whose `items` vector is indexed by `I`.
macro_rules! index_by_id {
    ($table:ident) => {
        impl<I: ArenaId, T> std::ops::Index<I> for $table<I, T> {
            type Output = T;
            fn index(&self, id: I) -> &T {
                &self.items[id.index()]
            }
        }

        impl<I: ArenaId, T> std::ops::IndexMut<I> for $table<I, T> {
            fn index_mut(&mut self, id: I) -> &mut T {
                &mut self.items[id.index()]
            }
        }
    };
}

index_by_id!(Arena);

impl<I: ArenaId, T: fmt::Debug> fmt::Debug for Arena<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A dense side table: one `V` for every id of an arena (Cranelift's
/// `SecondaryMap`, without growth on access). Passes and analyses keep
/// per-node facts here instead of raw vectors indexed by `.index()`, so an
/// id of the wrong kind does not compile.
#[derive(Clone)]
pub struct SecondaryMap<I, V> {
    items: Vec<V>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I: ArenaId, V: Clone> SecondaryMap<I, V> {
    /// A table of `len` entries (the arena's length), each `value`.
    pub fn filled(len: usize, value: V) -> Self {
        SecondaryMap {
            items: vec![value; len],
            _id: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// All `(id, value)` pairs in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (I, &V)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (I::from_index(i), v))
    }
}

impl<I: ArenaId, V> SecondaryMap<I, V> {
    /// A table of `len` entries, the entry of id `i` being `value(i)`.
    pub fn from_fn(len: usize, value: impl FnMut(I) -> V) -> Self {
        SecondaryMap {
            items: (0..len).map(I::from_index).map(value).collect(),
            _id: PhantomData,
        }
    }
}

index_by_id!(SecondaryMap);

impl<I: ArenaId, V: fmt::Debug> fmt::Debug for SecondaryMap<I, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (I::from_index(i), v)),
            )
            .finish()
    }
}

impl<I: ArenaId, T> Arena<I, T> {
    /// The ids of all nodes, in allocation order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + use<I, T> {
        (0..self.items.len()).map(I::from_index)
    }

    /// A side table with one `value` per node of this arena.
    pub fn secondary<V: Clone>(&self, value: V) -> SecondaryMap<I, V> {
        SecondaryMap::filled(self.items.len(), value)
    }
}
