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
    /// Each symbol with the hash of its string, computed once: growing the
    /// table moves entries by their stored hash and never reads a string.
    table: HashTable<(Symbol, u32)>,
    hasher: hashbrown::DefaultHashBuilder,
}

/// The table hash of a stored 32-bit string hash: the multiply spreads its
/// bits over the low bits (which pick a bucket) and the top 7 bits (which
/// filter a probe group), so the table needs nothing but the stored hash.
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }

    /// An interner sized for the names of `source_bytes` of source text
    /// (a cheap estimate: about one distinct name per 32 bytes), so that
    /// interning a large function does not grow the table many times.
    pub fn for_source_bytes(source_bytes: usize) -> Interner {
        let names = source_bytes / 32;
        Interner {
            text: String::with_capacity(names * 4),
            ranges: Vec::with_capacity(names),
            table: HashTable::with_capacity(names),
            hasher: hashbrown::DefaultHashBuilder::default(),
        }
    }

    /// The 32-bit hash of `name` that the table stores.
    fn hash(&self, name: &str) -> u32 {
        // The high half of the 64-bit hash (the better mixed half of a
        // multiply-based hasher).
        (self.hasher.hash_one(name) >> 32) as u32
    }

    /// The symbol of `name`, adding it when it is new.
    pub fn intern(&mut self, name: &str) -> Symbol {
        let hash = self.hash(name);
        if let Some(s) = self.find(hash, name) {
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
        self.table
            .insert_unique(spread(hash), (symbol, hash), |&(_, h)| spread(h));
        symbol
    }

    /// The symbol whose string is `name`, whose hash is `hash`.
    fn find(&self, hash: u32, name: &str) -> Option<Symbol> {
        self.table
            .find(spread(hash), |&(s, h)| h == hash && self.get(s) == name)
            .map(|&(s, _)| s)
    }

    /// The symbol of `name` if it was interned.
    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        self.find(self.hash(name), name)
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

    #[test]
    fn names_survive_the_table_growing_past_its_estimate() {
        // Sized for 64 bytes of source (two names), then given thousands:
        // the table grows many times by its stored hashes.
        let mut i = Interner::for_source_bytes(64);
        let names: Vec<String> = (0..5000).map(|k| format!("a{k}_{}", k % 8)).collect();
        let symbols: Vec<_> = names.iter().map(|n| i.intern(n)).collect();
        assert_eq!(i.len(), 5000);
        for (n, &s) in names.iter().zip(&symbols) {
            assert_eq!(i.get(s), n);
            assert_eq!(i.lookup(n), Some(s));
            assert_eq!(i.intern(n), s);
        }
        assert_eq!(i.lookup("a5000_0"), None);
    }
}
