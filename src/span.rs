//! Byte-offset spans into one source file.
//!
//! Every AST and IR node carries the span of the text it came from, so that
//! diagnostics can point at it. Offsets are relative to the whole file, even
//! when only one `// -----` chunk of it is parsed.

/// A half-open byte range `start..end` in the source file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
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
        self.start..self.end
    }
}
