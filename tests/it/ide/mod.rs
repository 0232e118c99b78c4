//! `pfir::ide`, the protocol-free editor layer: one module per feature.
//! Offsets are found by searching the source for a piece of text, so each
//! test reads as "at this text, the editor says that".

mod completion;
mod diagnostics;
mod hover;
mod navigation;
mod outline;
mod rename;
mod robustness;
mod tokens;
mod vocabulary;

use std::ops::Range;

/// The offset of the `n`-th (from 0) occurrence of `needle` in `src`.
pub fn nth(src: &str, needle: &str, n: usize) -> usize {
    src.match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` occurs fewer than {} times", n + 1))
        .0
}

/// The offset of the first occurrence of `needle`.
pub fn at(src: &str, needle: &str) -> usize {
    nth(src, needle, 0)
}

/// The texts of `ranges`.
pub fn texts<'a>(src: &'a str, ranges: &[Range<usize>]) -> Vec<&'a str> {
    ranges.iter().map(|r| &src[r.clone()]).collect()
}

/// The 1-based lines of `ranges`' starts.
pub fn lines(src: &str, ranges: &[Range<usize>]) -> Vec<usize> {
    ranges
        .iter()
        .map(|r| src[..r.start].matches('\n').count() + 1)
        .collect()
}

/// The spec's first example, with a non-ASCII comment before the code.
pub const FIRST: &str = concat!(
    "// Ünïcödé — ✓ before everything\n",
    crate::support::section1_example!()
);
