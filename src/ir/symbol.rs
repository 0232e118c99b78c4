//! Variable names: a [`Symbol`] is a `u32` handle to a string of a
//! function's [`NameTable`].
//!
//! The strings of a table live back to back in one buffer, so naming a
//! variable allocates nothing once the buffer has grown. Names are not
//! deduplicated: each variable gets its own symbol, even when it repeats an
//! earlier name. A hash table over every name of a large function (17
//! million distinct names in the 10x benchmark) costs a cache miss per name,
//! which made lowering superlinear in practice, while nothing compares
//! symbols for equality: names are compared as strings
//! ([`crate::ir::Function::var_name`]).

/// A name of one function's [`NameTable`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

impl Symbol {
    /// The symbol's position in its table.
    pub const fn as_u32(self) -> u32 {
        self.0
    }

    /// The symbol at position `n` (for pooled lists, which store a `u32`
    /// in an item's place).
    pub(crate) const fn from_u32(n: u32) -> Symbol {
        Symbol(n)
    }
}

/// The names of one function's variables, in the order they were added.
#[derive(Clone, Default)]
pub struct NameTable {
    /// Every string, back to back.
    text: String,
    /// Where each symbol's string ends in `text` (it starts where the
    /// previous one ends): 4 bytes a name.
    ends: Vec<u32>,
}

impl NameTable {
    pub fn new() -> NameTable {
        NameTable::default()
    }

    /// A table with room for `names` names of `bytes` bytes in all (what
    /// the parser counted for a function).
    pub fn with_capacity(names: usize, bytes: usize) -> NameTable {
        NameTable {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(names),
        }
    }

    /// A new symbol for `name`.
    pub fn add(&mut self, name: &str) -> Symbol {
        // A function's names come from a source file of at most 4 GiB (or
        // from passes naming a few values each), so they fit in `u32`s;
        // saturate rather than wrap if they ever did not.
        self.text.push_str(name);
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        let symbol = Symbol(u32::try_from(self.ends.len()).unwrap_or(u32::MAX));
        self.ends.push(end);
        symbol
    }

    /// Where `symbol`'s string lies in `text`; `None` out of range.
    fn range(&self, symbol: Symbol) -> Option<(u32, u32)> {
        let i = symbol.0 as usize;
        let end = *self.ends.get(i)?;
        let start = match i.checked_sub(1) {
            Some(prev) => self.ends[prev],
            None => 0,
        };
        Some((start, end))
    }

    /// The string of `symbol` (empty for a symbol of another table that is
    /// out of range).
    pub fn get(&self, symbol: Symbol) -> &str {
        self.range(symbol)
            .and_then(|(a, b)| self.text.get(a as usize..b as usize))
            .unwrap_or("")
    }

    /// The length in bytes of `symbol`'s name, read from the table's
    /// ends only (the name's bytes are not touched); 0 for a symbol
    /// out of range.
    pub fn byte_len(&self, symbol: Symbol) -> usize {
        self.range(symbol)
            .map_or(0, |(a, b)| b.saturating_sub(a) as usize)
    }

    /// How many names were added.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl std::fmt::Debug for NameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..self.ends.len()).map(|i| self.get(Symbol(i as u32))))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::NameTable;

    #[test]
    fn each_added_name_reads_back() {
        let mut t = NameTable::new();
        let a = t.add("tids");
        let b = t.add("a0_0");
        let again = t.add("tids");
        let empty = t.add("");
        assert_eq!(t.len(), 4);
        assert_ne!(a, again);
        assert_eq!(
            (t.get(a), t.get(b), t.get(again), t.get(empty)),
            ("tids", "a0_0", "tids", "")
        );
    }

    #[test]
    fn names_survive_the_table_growing_past_its_estimate() {
        // Sized for two names, then given thousands.
        let mut t = NameTable::with_capacity(2, 8);
        let names: Vec<String> = (0..5000).map(|k| format!("a{k}_{}", k % 8)).collect();
        let symbols: Vec<_> = names.iter().map(|n| t.add(n)).collect();
        assert_eq!(t.len(), 5000);
        for (n, &s) in names.iter().zip(&symbols) {
            assert_eq!(t.get(s), n);
        }
    }
}
