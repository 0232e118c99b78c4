//! Position encoding: byte offsets (what pfir and `pfir::ide` speak) to and
//! from LSP positions (a 0-based line and a column counted in the code
//! units of the negotiated encoding: UTF-16 by default, UTF-8 or UTF-32
//! when the client offers them in `general.positionEncodings`).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol says (the
//! definition the lexer and diagnostics share, `crate::span::line_starts`); a column
//! past the end of its line means the end of the line, a line past the end
//! of the text means the end of the text, and an offset inside a character
//! or a line break is moved back to where that character starts. Each
//! conversion costs a binary search plus the length of one line.

use lsp_types::{Position, PositionEncodingKind, Range};

/// The units columns are counted in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// The encoding to use for a client that offers `offered` (in its order
    /// of preference): UTF-8 when offered (offsets need no conversion),
    /// else UTF-32, else the protocol's default UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        let has = |kind: &PositionEncodingKind| offered.iter().any(|k| k == kind);
        if has(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if has(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    /// The name announced in the server's capabilities.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// The line starts of one text, for converting positions in it.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts; the first is 0.
    line_starts: Vec<usize>,
    /// Byte offset where each line's content ends (before its line break).
    line_ends: Vec<usize>,
    encoding: Encoding,
}

impl LineIndex {
    pub fn new(text: &str, encoding: Encoding) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(crate::span::line_starts(text));
        let line_ends = line_starts[1..]
            .iter()
            .map(|&next| {
                if next >= 2 && bytes[next - 2] == b'\r' && bytes[next - 1] == b'\n' {
                    next - 2
                } else {
                    next - 1
                }
            })
            .chain(std::iter::once(bytes.len()))
            .collect();
        LineIndex {
            line_starts,
            line_ends,
            encoding,
        }
    }

    /// The number of lines (a text ending in a line break has an empty last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte range of line `line`'s content (without its line break);
    /// `None` past the last line.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        (line < self.line_count()).then(|| self.line_starts[line]..self.line_ends[line])
    }

    /// The 0-based line that byte `offset` is on.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).max(1) - 1
    }

    /// The position of byte `offset` of `text` (clamped into the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let line = self.line_of(offset.min(text.len()));
        let start = self.line_starts[line];
        let end = offset.clamp(start, self.line_ends[line]);
        let column: usize = text[start..floor_char_boundary(text, end)]
            .chars()
            .map(|c| self.encoding.units(c))
            .sum();
        Position::new(to_u32(line), to_u32(column))
    }

    /// The byte offset of `position` in `text` (clamped as the module doc says).
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.line_count() {
            return text.len();
        }
        let (start, end) = (self.line_starts[line], self.line_ends[line]);
        column_offset(text, start..end, self.encoding, position.character)
    }

    pub fn range(&self, text: &str, range: std::ops::Range<usize>) -> Range {
        Range::new(
            self.position(text, range.start),
            self.position(text, range.end.max(range.start)),
        )
    }

    /// The byte range of an LSP range (start and end ordered).
    pub fn byte_range(&self, text: &str, range: Range) -> std::ops::Range<usize> {
        let a = self.offset(text, range.start);
        let b = self.offset(text, range.end);
        a.min(b)..a.max(b)
    }
}

/// The byte offset of `position` in `text` without an index, by one pass
/// over the text up to it (for applying a change, after which an index
/// would be stale); the same answer as [`LineIndex::offset`].
pub fn offset_by_scan(text: &str, encoding: Encoding, position: Position) -> usize {
    let bytes = text.as_bytes();
    let mut start = 0;
    for _ in 0..position.line {
        let Some(i) = bytes[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        else {
            return text.len();
        };
        let i = start + i;
        start = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
    }
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(text.len(), |i| start + i);
    column_offset(text, start..end, encoding, position.character)
}

/// The byte offset of column `character` on the line whose content is
/// `line` (a column past its end means its end).
fn column_offset(
    text: &str,
    line: std::ops::Range<usize>,
    encoding: Encoding,
    character: u32,
) -> usize {
    let wanted = character as usize;
    let mut units = 0;
    for (i, c) in text[line.clone()].char_indices() {
        let next = units + encoding.units(c);
        if next > wanted {
            return line.start + i;
        }
        units = next;
    }
    line.end
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The largest char boundary of `text` at or before `offset`.
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut i = offset.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_units_of_the_encoding() {
        let text = "a\u{e9}\u{1F600}b\n";
        let b = text.find('b').unwrap();
        for (enc, col) in [
            (Encoding::Utf8, 7),
            (Encoding::Utf16, 4),
            (Encoding::Utf32, 3),
        ] {
            let index = LineIndex::new(text, enc);
            assert_eq!(index.position(text, b), Position::new(0, col));
            assert_eq!(index.offset(text, Position::new(0, col)), b);
        }
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        let text = "ab\r\ncd\ref";
        let index = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(index.line_count(), 3);
        assert_eq!(index.position(text, 4), Position::new(1, 0));
        assert_eq!(index.position(text, 7), Position::new(2, 0));
        // Inside the `\r\n`: the end of line 0.
        assert_eq!(index.position(text, 3), Position::new(0, 2));
        // Past the end of a line: its end, not the next line.
        assert_eq!(index.offset(text, Position::new(0, 99)), 2);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn negotiation_prefers_utf8_then_utf32_then_utf16() {
        use PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF32])),
            Encoding::Utf32
        );
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF8])),
            Encoding::Utf8
        );
        assert_eq!(Encoding::negotiate(Some(&[K::UTF16])), Encoding::Utf16);
    }

    proptest::proptest! {
        /// Every char boundary survives offset -> position -> offset in
        /// every encoding, on text with astral characters, CRLF and lone CR;
        /// positions move forward with offsets.
        #[test]
        fn offsets_round_trip_in_every_encoding(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec!["a", " ", "\n", "\r\n", "\r", "\u{e9}", "\u{4e2d}", "\u{1F600}", "\u{10FFFF}", "//", "\t"]),
                0..40,
            )
        ) {
            let text: String = pieces.concat();
            for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
                let index = LineIndex::new(&text, enc);
                let mut last = Position::new(0, 0);
                for offset in 0..=text.len() {
                    let pos = index.position(&text, offset);
                    proptest::prop_assert!(pos >= last, "positions go backwards at {}", offset);
                    last = pos;
                    let back = index.offset(&text, pos);
                    proptest::prop_assert_eq!(offset_by_scan(&text, enc, pos), back);
                    let on_break = text.is_char_boundary(offset)
                        && offset > 0
                        && text.as_bytes()[offset - 1] == b'\r'
                        && text.as_bytes().get(offset) == Some(&b'\n');
                    if text.is_char_boundary(offset) && !on_break {
                        proptest::prop_assert_eq!(back, offset, "{:?} {:?}", enc, pos);
                    } else {
                        proptest::prop_assert!(back < offset && text.is_char_boundary(back));
                    }
                }
            }
        }
    }
}
