//! Interned names: a [`Symbol`] is a `u32` handle to a string of a
//! function's [`Interner`].
//!
//! The strings of an interner live back to back in one buffer, so naming a
//! variable allocates nothing once the buffer has grown, and equal names get
//! the same symbol (a name is stored once however many variables share it).

use hashbrown::HashTable;
use std::hash::BuildHasher;

/// A name of one function's [`Interner`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

/// The strings of one function, each stored once.
#[derive(Clone, Default)]
pub struct Interner {
    /// Every string, back to back.
    text: String,
    /// `(start, end)` of each symbol's string in `text`.
    ranges: Vec<(u32, u32)>,
    /// Symbols by the hash of their string.
    table: HashTable<Symbol>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The symbol of `name`, adding it when it is new.
    pub fn intern(&mut self, name: &str) -> Symbol {
        let hash = self.hasher.hash_one(name);
        let (text, ranges) = (&self.text, &self.ranges);
        let get = |s: Symbol| {
            let (a, b) = ranges[s.0 as usize];
            &text[a as usize..b as usize]
        };
        if let Some(&s) = self.table.find(hash, |&s| get(s) == name) {
            return s;
        }
        // A function's names come from a source file of at most 4 GiB (or
        // from passes naming a few values each), so they fit in `u32`s;
        // saturate rather than wrap if they ever did not.
        let start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push_str(name);
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        let symbol = Symbol(u32::try_from(self.ranges.len()).unwrap_or(u32::MAX));
        self.ranges.push((start, end));
        let (text, ranges, hasher) = (&self.text, &self.ranges, &self.hasher);
        self.table.insert_unique(hash, symbol, |&s| {
            let (a, b) = ranges[s.0 as usize];
            hasher.hash_one(&text[a as usize..b as usize])
        });
        symbol
    }

    /// The symbol of `name` if it was interned.
    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        let hash = self.hasher.hash_one(name);
        self.table.find(hash, |&s| self.get(s) == name).copied()
    }

    /// The string of `symbol` (empty for a symbol of another interner that
    /// is out of range).
    pub fn get(&self, symbol: Symbol) -> &str {
        self.ranges
            .get(symbol.0 as usize)
            .and_then(|&(a, b)| self.text.get(a as usize..b as usize))
            .unwrap_or("")
    }

    /// How many distinct strings are interned.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}

impl std::fmt::Debug for Interner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..self.ranges.len()).map(|i| self.get(Symbol(i as u32))))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    #[test]
    fn equal_names_share_a_symbol() {
        let mut i = Interner::new();
        let a = i.intern("tids");
        let b = i.intern("a0_0");
        assert_ne!(a, b);
        assert_eq!(i.intern("tids"), a);
        assert_eq!((i.get(a), i.get(b)), ("tids", "a0_0"));
        assert_eq!(i.lookup("a0_0"), Some(b));
        assert_eq!(i.lookup("nope"), None);
        assert_eq!(i.len(), 2);
        let empty = i.intern("");
        assert_eq!(i.get(empty), "");
    }
}
