//! Position encoding: byte offsets (what pfir and `pfir::ide` speak) to and
//! from LSP positions (a 0-based line and a column counted in the code
//! units of the negotiated encoding: UTF-16 by default, UTF-8 or UTF-32
//! when the client offers them in `general.positionEncodings`).
//!
//! Lines and columns are `fsutil::lines`'s: the one definition of a line
//! (`\n`, `\r\n` or a lone `\r`, as the protocol says) that the lexer and
//! diagnostics share, and its one [`fsutil::lines::LineIndex`]. A column
//! past the end of its line means the end of the line, a line past the end
//! of the text means the end of the text, and an offset inside a character
//! or a line break is moved back to where that character starts. Each
//! conversion costs a binary search plus the length of one line.

use fsutil::lines;
pub use fsutil::lines::Encoding;
use lsp_types::{Position, PositionEncodingKind, Range};

/// The encoding to use for a client that offers `offered` (in its order of
/// preference): UTF-8 when offered (offsets need no conversion), else
/// UTF-32, else the protocol's default UTF-16.
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

/// The name of `encoding` announced in the server's capabilities.
pub fn kind(encoding: Encoding) -> PositionEncodingKind {
    match encoding {
        Encoding::Utf8 => PositionEncodingKind::UTF8,
        Encoding::Utf16 => PositionEncodingKind::UTF16,
        Encoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// The line index of one text with the negotiated encoding, for
/// converting positions in it (every method takes the text it was built
/// from).
#[derive(Clone, Debug)]
pub struct LineIndex {
    lines: lines::LineIndex,
    encoding: Encoding,
}

impl LineIndex {
    pub fn new(text: &str, encoding: Encoding) -> LineIndex {
        LineIndex {
            lines: lines::LineIndex::new(text),
            encoding,
        }
    }

    /// The byte range of line `line`'s content (without its line break);
    /// `None` past the last line.
    pub fn line_range(&self, text: &str, line: usize) -> Option<std::ops::Range<usize>> {
        self.lines.line_range(text, line)
    }

    /// The 0-based line that byte `offset` is on.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset)
    }

    /// The position of byte `offset` of `text` (clamped into the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let (line, column) = self.lines.line_col(text, offset, self.encoding);
        Position::new(to_u32(line), to_u32(column))
    }

    /// The byte offset of `position` in `text` (clamped as the module doc says).
    pub fn offset(&self, text: &str, position: Position) -> usize {
        self.lines.offset(
            text,
            position.line as usize,
            position.character as usize,
            self.encoding,
        )
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
    let start = match position.line as usize {
        0 => 0,
        n => match lines::line_starts(text).nth(n - 1) {
            Some(start) => start,
            None => return text.len(),
        },
    };
    let line = lines::strip_line_break(lines::lines_inclusive(&text[start..]).next().unwrap_or(""));
    lines::column_offset(
        text,
        start..start + line.len(),
        position.character as usize,
        encoding,
    )
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
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
        assert_eq!(index.lines.line_count(), 3);
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
        assert_eq!(negotiate(None), Encoding::Utf16);
        assert_eq!(negotiate(Some(&[K::UTF16, K::UTF32])), Encoding::Utf32);
        assert_eq!(negotiate(Some(&[K::UTF16, K::UTF8])), Encoding::Utf8);
        assert_eq!(negotiate(Some(&[K::UTF16])), Encoding::Utf16);
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
