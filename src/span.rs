//! Byte-offset spans into one source file.
//!
//! Every AST and IR node carries the span of the text it came from, so that
//! diagnostics can point at it. Offsets are relative to the whole file, even
//! when only one `// -----` chunk of it is parsed.
//!
//! A span is two `u32`s (8 bytes): source files are limited to
//! [`MAX_SOURCE_BYTES`] (`pfir opt` rejects a larger input with a
//! diagnostic before lexing), so every offset fits.

/// Where each line after the first starts: lines end at `\n`, `\r\n` or a
/// lone `\r`, as the language server protocol (and so every editor) counts
/// them. The one definition of a line that the lexer (a `//` comment ends
/// at the line's end), diagnostics' line numbers, the formatter and the
/// editor positions share.
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    fsutil::lines::line_starts(text)
}

/// The number of line ends in `text` (see [`line_starts`]).
pub fn line_break_count(text: &str) -> usize {
    line_starts(text).count()
}

/// The largest source file pfir reads: offsets must fit in a `u32`.
pub const MAX_SOURCE_BYTES: usize = u32::MAX as usize;

/// A half-open byte range `start..end` in the source file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    start: u32,
    end: u32,
}

/// An offset as a `u32`; offsets past [`MAX_SOURCE_BYTES`] (which no
/// accepted file has) saturate.
const fn narrow(offset: usize) -> u32 {
    if offset > MAX_SOURCE_BYTES {
        u32::MAX
    } else {
        offset as u32
    }
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span {
            start: narrow(start),
            end: narrow(end),
        }
    }

    /// The byte offset where the span starts.
    pub const fn start(self) -> usize {
        self.start as usize
    }

    /// The byte offset just past the span.
    pub const fn end(self) -> usize {
        self.end as usize
    }

    /// The span that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// An empty span at the start of `self`.
    pub fn start_point(self) -> Span {
        Span {
            start: self.start,
            end: self.start,
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start()..self.end()
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_SOURCE_BYTES, Span};

    #[test]
    fn spans_are_two_u32s_and_saturate_past_the_limit() {
        assert_eq!(std::mem::size_of::<Span>(), 8);
        let s = Span::new(3, MAX_SOURCE_BYTES + 10);
        assert_eq!((s.start(), s.end()), (3, MAX_SOURCE_BYTES));
        assert_eq!(Span::new(5, 9).to(Span::new(2, 6)).range(), 2..9);
    }
}

#[cfg(test)]
mod line_tests {
    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let starts: Vec<usize> = super::line_starts("a\nb\r\nc\rd\r\r\n").collect();
        assert_eq!(starts, [2, 5, 7, 9, 11]);
        assert_eq!(super::line_break_count("\r\r\n\n"), 3);
        assert_eq!(super::line_break_count("no break"), 0);
    }
}
