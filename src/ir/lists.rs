//! A function's pooled lists: the list types of the IR and the pools that
//! hold them ([`Lists`], one per function, like its arenas).
//!
//! Every list of the IR (statement results, call and `submit` arguments,
//! `deps`, keyword arguments, list literals, `yield`/`return` values,
//! iter-args, `manual_dep_edges`, block statements) is a 4-byte
//! [`EntityList`] into one of the function's pools; read one with
//! [`Function::list`](super::Function::list). Argument directions are
//! packed two bits each ([`DirList`], read with
//! [`Function::directions`](super::Function::directions)).

use super::list_pool::{EntityList, ListItem, ListPool};
use super::{Direction, ExprId, StmtId, Symbol, VarId};
use std::fmt;

/// Variables (statement results).
pub type VarList = EntityList<VarId>;
/// Expressions (arguments, `deps`, list items, yielded or returned values).
pub type ExprList = EntityList<ExprId>;
/// The statements of a block.
pub type StmtList = EntityList<StmtId>;
/// The iter-args of a loop.
pub type IterArgList = EntityList<IterArg>;
/// The keyword arguments of an op call.
pub type KwargList = EntityList<Kwarg>;

/// `iter(var = init)`: a loop-carried value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IterArg {
    pub var: VarId,
    pub init: ExprId,
}

/// [`ListItem`] for a pair of an id and an [`ExprId`]: the id holds the
/// `u32`.
macro_rules! list_item_in_first_id {
    ($pair:ident { $id:ident: $Id:ident, $expr:ident }) => {
        impl ListItem for $pair {
            fn from_u32(n: u32) -> Self {
                $pair {
                    $id: $Id::from_u32(n),
                    $expr: ExprId::from_u32(0),
                }
            }
            fn to_u32(self) -> u32 {
                self.$id.as_u32()
            }
        }
    };
}

list_item_in_first_id!(IterArg { var: VarId, init });

/// `name=value`: a keyword argument of an op call. The name is a symbol of
/// the function's [`NameTable`](super::NameTable).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kwarg {
    pub name: Symbol,
    pub value: ExprId,
}

list_item_in_first_id!(Kwarg {
    name: Symbol,
    value
});

/// The argument directions of a call or `submit`: one per positional
/// argument, packed 16 to a word (the first word holds the count).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DirList(EntityList<u32>);

impl DirList {
    /// No directions (needs no pool).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The handle of the packed words in [`Lists::dirs`] (for checks of
    /// range and aliasing).
    pub fn words(self) -> EntityList<u32> {
        self.0
    }
}

const PER_WORD: usize = 16;

fn dir_bits(d: Direction) -> u32 {
    match d {
        Direction::In => 0,
        Direction::Out => 1,
        Direction::InOut => 2,
    }
}

fn bits_dir(b: u32) -> Direction {
    match b & 3 {
        0 => Direction::In,
        1 => Direction::Out,
        _ => Direction::InOut,
    }
}

/// The directions of a [`DirList`], read from its pool.
#[derive(Copy, Clone)]
pub struct Directions<'a> {
    /// The count, then the packed words.
    words: &'a [u32],
}

impl<'a> Directions<'a> {
    pub fn len(&self) -> usize {
        self.words.first().map_or(0, |&n| n as usize)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The direction of argument `i`.
    pub fn get(&self, i: usize) -> Option<Direction> {
        if i >= self.len() {
            return None;
        }
        let word = self.words.get(1 + i / PER_WORD)?;
        Some(bits_dir(word >> (2 * (i % PER_WORD))))
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Direction> + 'a {
        let this = *self;
        (0..this.len()).map(move |i| this.get(i).unwrap_or(Direction::In))
    }

    pub fn to_vec(&self) -> Vec<Direction> {
        self.iter().collect()
    }
}

impl PartialEq for Directions<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Directions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The list pools of one function.
#[derive(Clone, Debug, Default)]
pub struct Lists {
    pub vars: ListPool<VarId>,
    pub exprs: ListPool<ExprId>,
    pub stmts: ListPool<StmtId>,
    pub iter_args: ListPool<IterArg>,
    pub kwargs: ListPool<Kwarg>,
    /// Packed directions (see [`DirList`]).
    pub dirs: ListPool<u32>,
}

impl Lists {
    /// Pools with room for about `stmts` statements' lists: a statement
    /// usually has a result list of one or two variables (a block of 2 or
    /// 4 slots), a one-entry `deps` or argument list (2 slots) and a place
    /// in a block (blocks round up to a power of two: up to 2 slots each).
    pub fn with_estimate(stmts: usize) -> Lists {
        Lists {
            vars: ListPool::with_capacity(stmts * 4),
            exprs: ListPool::with_capacity(stmts * 2),
            stmts: ListPool::with_capacity(stmts * 2),
            ..Lists::default()
        }
    }

    /// The directions of `d`.
    pub fn directions(&self, d: DirList) -> Directions<'_> {
        Directions {
            words: d.0.as_slice(&self.dirs),
        }
    }

    /// A new direction list.
    pub fn new_directions(&mut self, dirs: impl IntoIterator<Item = Direction>) -> DirList {
        let dirs: Vec<Direction> = dirs.into_iter().collect();
        if dirs.is_empty() {
            return DirList::default();
        }
        let mut words = Vec::with_capacity(1 + dirs.len().div_ceil(PER_WORD));
        words.push(dirs.len() as u32);
        for chunk in dirs.chunks(PER_WORD) {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u32, |w, (i, &d)| w | dir_bits(d) << (2 * i));
            words.push(word);
        }
        DirList(EntityList::from_slice(&words, &mut self.dirs))
    }

    /// Frees `d`'s storage (the handle must not be read again).
    pub fn free_directions(&mut self, mut d: DirList) {
        d.0.clear(&mut self.dirs);
    }
}

/// A list item type with a pool in [`Lists`].
pub trait Pooled: ListItem {
    fn pool(lists: &Lists) -> &ListPool<Self>;
    fn pool_mut(lists: &mut Lists) -> &mut ListPool<Self>;
}

macro_rules! pooled {
    ($t:ty, $field:ident) => {
        impl Pooled for $t {
            fn pool(lists: &Lists) -> &ListPool<Self> {
                &lists.$field
            }
            fn pool_mut(lists: &mut Lists) -> &mut ListPool<Self> {
                &mut lists.$field
            }
        }
    };
}

pooled!(VarId, vars);
pooled!(ExprId, exprs);
pooled!(StmtId, stmts);
pooled!(IterArg, iter_args);
pooled!(Kwarg, kwargs);

#[cfg(test)]
mod tests {
    use super::{Direction, Lists};

    #[test]
    fn directions_round_trip_packed() {
        let mut lists = Lists::default();
        let all = [Direction::In, Direction::Out, Direction::InOut];
        let long: Vec<Direction> = (0..40).map(|i| all[i % 3]).collect();
        let d = lists.new_directions(long.iter().copied());
        let e = lists.new_directions([]);
        let short = lists.new_directions([Direction::InOut]);
        assert_eq!(lists.directions(d).to_vec(), long);
        assert_eq!(lists.directions(d).len(), 40);
        assert_eq!(lists.directions(d).get(40), None);
        assert!(lists.directions(e).is_empty());
        assert_eq!(lists.directions(short).to_vec(), vec![Direction::InOut]);
        assert_ne!(lists.directions(short), lists.directions(d));
        // 40 directions: the count and three words (a block of 8 slots);
        // one direction: the count and one word (a block of 4).
        assert_eq!(lists.dirs.slots(), 8 + 4);
    }
}
