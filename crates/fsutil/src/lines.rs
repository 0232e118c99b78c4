//! The one definition of a line, as the Language Server Protocol has it: a
//! line ends at `\n`, at `\r\n` or at a lone `\r`; and the one line index
//! ([`LineIndex`]) built on it, with columns in UTF-8, UTF-16 or UTF-32
//! units ([`Encoding`]). pfir's lexer, diagnostics (`SourceFile`),
//! formatter and editor positions and the test runner's RUN lines and
//! directives all read lines with it, so a line break that an editor shows
//! is one for every reader. (`str::lines` differs: it does not end a line
//! at a lone `\r`.)

/// The byte offsets where a line starts after a line break, in order (the
/// first line's start, 0, is not included).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter_map(move |(i, &b)| match b {
        b'\n' => Some(i + 1),
        b'\r' if bytes.get(i + 1) != Some(&b'\n') => Some(i + 1),
        _ => None,
    })
}

/// The lines of `text`, each with its line break (the last one may have
/// none); like `str::split_inclusive('\n')` but for every line break. An
/// empty text has no lines.
pub fn lines_inclusive(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut start = 0;
    line_starts(text)
        .chain(std::iter::once(text.len()))
        .filter_map(move |end| {
            let line = (end > start).then(|| &text[start..end]);
            start = end;
            line
        })
}

/// The lines of `text` without their line breaks; like `str::lines` but
/// for every line break.
pub fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    lines_inclusive(text).map(strip_line_break)
}

/// `line` without its line break (`\r\n`, `\n` or `\r`).
pub fn strip_line_break(line: &str) -> &str {
    line.strip_suffix("\r\n")
        .or_else(|| line.strip_suffix('\n'))
        .or_else(|| line.strip_suffix('\r'))
        .unwrap_or(line)
}

/// The start of the line that holds byte `offset` of `text` (an offset
/// inside a line break belongs to the line it ends), by a scan back from it.
pub fn line_start_of(text: &str, offset: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = offset.min(bytes.len());
    while i > 0 {
        match bytes[i - 1] {
            b'\n' => return i,
            b'\r' if bytes.get(i) != Some(&b'\n') => return i,
            _ => i -= 1,
        }
    }
    0
}

/// A position in a [`LineIndex`] for queries in (mostly) increasing
/// order ([`LineIndex::cursor`]).
#[derive(Clone, Debug)]
pub struct LineCursor<'a> {
    index: &'a LineIndex,
    /// The line of the last answer.
    line: usize,
}

impl LineCursor<'_> {
    /// [`LineIndex::line_of`]`(offset)`, searched for from the line of the
    /// query before (a binary search of the lines before it when `offset`
    /// is behind it).
    pub fn line_of(&mut self, offset: usize) -> usize {
        let here = self.index.line_start(self.line).unwrap_or(0);
        self.line = if offset >= here {
            self.index.first_start_after(offset, self.line).max(1) - 1
        } else {
            self.index.first_start_after(offset, 0).max(1) - 1
        };
        self.line
    }
}

/// The units a column is counted in: UTF-8 bytes, UTF-16 code units (what
/// the Language Server Protocol counts by default) or characters (UTF-32).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// How many units of this encoding `c` takes.
    pub fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// Where each line of one text starts, by [the one definition](self) of
/// a line, for going from byte offsets to (line, column) and back with a
/// binary search plus the length of one line. It keeps the line starts
/// only (4 bytes a line for a text under 4 GiB, 8 above), not the text:
/// every query takes the text it was built from.
///
/// Lines and columns are 0-based. An offset past the end of the text means
/// its end; an offset inside a character (or between the `\r` and the `\n`
/// of a `\r\n`) counts as the start of that character (the end of its
/// line's content); a column past the end of its line means the end of the
/// line's content, and a line past the last means the end of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    starts: Starts,
}

/// The line starts, the first (0) included: as `u32`s when the text allows.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Starts {
    Narrow(Vec<u32>),
    Wide(Vec<usize>),
}

impl LineIndex {
    /// The index of `text` (one scan for its line breaks).
    pub fn new(text: &str) -> LineIndex {
        // Without a `\r`, a line starts after each `\n`: one plain scan.
        if memchr::memchr(b'\r', text.as_bytes()).is_none() && u32::try_from(text.len()).is_ok() {
            let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1);
            let starts = std::iter::once(0).chain(breaks).collect();
            return LineIndex {
                starts: Starts::Narrow(starts),
            };
        }
        let starts = match u32::try_from(text.len()) {
            Ok(_) => Starts::Narrow(
                std::iter::once(0)
                    .chain(line_starts(text).map(|s| s as u32))
                    .collect(),
            ),
            Err(_) => Starts::Wide(std::iter::once(0).chain(line_starts(text)).collect()),
        };
        LineIndex { starts }
    }

    /// The number of lines: one more than the line breaks (a text ending
    /// in a line break has an empty last line; an empty text has one line).
    pub fn line_count(&self) -> usize {
        match &self.starts {
            Starts::Narrow(s) => s.len(),
            Starts::Wide(s) => s.len(),
        }
    }

    /// The byte offset where 0-based line `line` starts; `None` past the
    /// last line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        match &self.starts {
            Starts::Narrow(s) => s.get(line).map(|&o| o as usize),
            Starts::Wide(s) => s.get(line).copied(),
        }
    }

    /// The 0-based line that byte `offset` is on (the last line for an
    /// offset past the end).
    pub fn line_of(&self, offset: usize) -> usize {
        let after = match &self.starts {
            Starts::Narrow(s) => {
                let o = u32::try_from(offset).unwrap_or(u32::MAX);
                s.partition_point(|&x| x <= o)
            }
            Starts::Wide(s) => s.partition_point(|&x| x <= offset),
        };
        after.max(1) - 1
    }

    /// A cursor for [`LineIndex::line_of`] queries that mostly move
    /// forward (a walk of a file in order): each answer is the same as
    /// `line_of`'s, found by a search that starts at the line of the query
    /// before, so a walk costs time in the distance it covers instead of a
    /// binary search of the whole index per query.
    pub fn cursor(&self) -> LineCursor<'_> {
        LineCursor {
            index: self,
            line: 0,
        }
    }

    /// The first line at or after `from` that starts after `offset` (the
    /// line count when there is none), by an exponential search from
    /// `from`.
    fn first_start_after(&self, offset: usize, from: usize) -> usize {
        fn search<T: Copy>(
            s: &[T],
            start: impl Fn(T) -> usize,
            offset: usize,
            from: usize,
        ) -> usize {
            let from = from.min(s.len());
            let mut step = 1;
            let mut lo = from;
            // Invariant: every line before `lo` starts at or before `offset`.
            while let Some(&x) = s.get(lo + step - 1) {
                if start(x) > offset {
                    break;
                }
                lo += step;
                step *= 2;
            }
            let hi = (lo + step - 1).min(s.len());
            lo + s[lo..hi].partition_point(|&x| start(x) <= offset)
        }
        match &self.starts {
            Starts::Narrow(s) => search(s, |x| x as usize, offset, from),
            Starts::Wide(s) => search(s, |x| x, offset, from),
        }
    }

    /// Line `line` of `text` with its line break; `None` past the last line.
    pub fn line_with_break(&self, text: &str, line: usize) -> Option<std::ops::Range<usize>> {
        let start = self.line_start(line)?.min(text.len());
        let end = self
            .line_start(line + 1)
            .unwrap_or(text.len())
            .min(text.len());
        Some(start..end.max(start))
    }

    /// Line `line` of `text` without its line break; `None` past the last
    /// line.
    pub fn line_range(&self, text: &str, line: usize) -> Option<std::ops::Range<usize>> {
        let whole = self.line_with_break(text, line)?;
        let content = strip_line_break(&text[whole.clone()]);
        Some(whole.start..whole.start + content.len())
    }

    /// The 0-based (line, column) of byte `offset` of `text`, the column in
    /// units of `encoding` (clamped as the type's documentation says).
    pub fn line_col(&self, text: &str, offset: usize, encoding: Encoding) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let content = self.line_range(text, line).unwrap_or(offset..offset);
        let end = floor_char_boundary(text, offset.clamp(content.start, content.end));
        let column = text[content.start..end]
            .chars()
            .map(|c| encoding.units(c))
            .sum();
        (line, column)
    }

    /// The byte offset of 0-based `line` and `column` (in units of
    /// `encoding`) in `text` (clamped as the type's documentation says).
    pub fn offset(&self, text: &str, line: usize, column: usize, encoding: Encoding) -> usize {
        match self.line_range(text, line) {
            Some(content) => column_offset(text, content, column, encoding),
            None => text.len(),
        }
    }
}

/// The byte offset of `column` (in units of `encoding`) on the line whose
/// content is `text[line]`: the start of the character the column falls
/// in, or the line's end for a column past it.
pub fn column_offset(
    text: &str,
    line: std::ops::Range<usize>,
    column: usize,
    encoding: Encoding,
) -> usize {
    let mut units = 0;
    for (i, c) in text[line.clone()].char_indices() {
        units += encoding.units(c);
        if units > column {
            return line.start + i;
        }
    }
    line.end
}

/// The 1-based line and column (in characters) of byte `offset` of `text`,
/// by one pass over the text up to it: for a single message, where building
/// a [`LineIndex`] would cost more.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let (mut line, mut start) = (0, 0);
    for s in line_starts(text).take_while(|&s| s <= offset) {
        line += 1;
        start = s;
    }
    let mut content = &text[start..offset];
    // Between the `\r` and the `\n` of a `\r\n`: the end of the line.
    if content.ends_with('\r') && text[offset..].starts_with('\n') {
        content = &content[..content.len() - 1];
    }
    (line + 1, content.chars().count() + 1)
}

/// The largest char boundary of `text` at or before `offset` (the end for
/// an offset past it).
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
    fn every_line_break_ends_a_line() {
        let text = "a\nb\r\nc\rd\r\re";
        assert_eq!(line_starts(text).collect::<Vec<_>>(), [2, 5, 7, 9, 10]);
        assert_eq!(
            lines_inclusive(text).collect::<Vec<_>>(),
            ["a\n", "b\r\n", "c\r", "d\r", "\r", "e"]
        );
        assert_eq!(
            lines(text).collect::<Vec<_>>(),
            ["a", "b", "c", "d", "", "e"]
        );
    }

    #[test]
    fn like_str_lines_where_it_is_right() {
        for text in ["", "\n", "a", "a\n", "a\n\nb", "a\r\nb\r\n", "\r\n\r\n"] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
            assert_eq!(lines_inclusive(text).collect::<String>(), text, "{text:?}");
        }
        // Where it is not: a lone `\r`.
        assert_eq!(lines("a\rb").count(), 2);
        assert_eq!("a\rb".lines().count(), 1);
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    const ALL: [Encoding; 3] = [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32];

    #[test]
    fn a_cursor_answers_as_line_of_in_any_order() {
        let texts = [
            String::new(),
            "\n\n\n".to_string(),
            "ab\ncd\r\nef\rgh\n\r\n".to_string(),
            (0..300).map(|i| "x".repeat(i % 7) + "\n").collect(),
        ];
        for text in &texts {
            let index = LineIndex::new(text);
            let offsets: Vec<usize> = (0..=text.len() + 2).collect();
            // Forward, backward, and jumping both ways by uneven steps.
            let mut orders = vec![offsets.clone(), offsets.iter().rev().copied().collect()];
            orders.push(
                (0..offsets.len())
                    .map(|i| (i * 37) % offsets.len())
                    .collect(),
            );
            orders.push(vec![0, text.len() + 1, 1, text.len(), 2, usize::MAX, 3]);
            for order in orders {
                let mut cursor = index.cursor();
                for offset in order {
                    assert_eq!(
                        cursor.line_of(offset),
                        index.line_of(offset),
                        "{text:?} at {offset}"
                    );
                }
            }
        }
    }

    #[test]
    fn lf_crlf_and_lone_cr_each_end_a_line() {
        let text = "ab\ncd\r\nef\rgh";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        let starts: Vec<_> = (0..4).map(|l| index.line_start(l).unwrap()).collect();
        assert_eq!(starts, [0, 3, 7, 10]);
        assert_eq!(index.line_start(4), None);
        assert_eq!(index.line_range(text, 1), Some(3..5));
        assert_eq!(index.line_with_break(text, 1), Some(3..7));
        assert_eq!(index.line_range(text, 2), Some(7..9));
        assert_eq!(index.line_range(text, 3), Some(10..12));
        assert_eq!(index.line_range(text, 4), None);
        for enc in ALL {
            assert_eq!(index.line_col(text, 8, enc), (2, 1));
            assert_eq!(index.line_col(text, 10, enc), (3, 0));
            assert_eq!(index.offset(text, 3, 1, enc), 11);
        }
        // Between the `\r` and the `\n`: the end of the line's content.
        assert_eq!(index.line_col(text, 6, Encoding::Utf16), (1, 2));
        assert_eq!(line_col(text, 6), (2, 3));
        // A text ending in a line break has an empty last line; an empty
        // text has one line.
        assert_eq!(LineIndex::new("a\r").line_count(), 2);
        assert_eq!(LineIndex::new("").line_count(), 1);
        assert_eq!(LineIndex::new("").line_range("", 0), Some(0..0));
    }

    #[test]
    fn columns_count_units_of_the_encoding_surrogates_included() {
        // U+1F600 is 4 UTF-8 bytes, a UTF-16 surrogate pair, 1 character.
        let text = "x\n\u{e9}\u{1F600}b";
        let b = text.find('b').unwrap();
        let index = LineIndex::new(text);
        for (enc, col) in [
            (Encoding::Utf8, 6),
            (Encoding::Utf16, 3),
            (Encoding::Utf32, 2),
        ] {
            assert_eq!(index.line_col(text, b, enc), (1, col));
            assert_eq!(index.offset(text, 1, col, enc), b);
        }
        // A column between the two halves of the pair, or an offset inside
        // the character: where the character starts.
        let smiley = text.find('\u{1F600}').unwrap();
        assert_eq!(index.offset(text, 1, 2, Encoding::Utf16), smiley);
        assert_eq!(index.line_col(text, smiley + 2, Encoding::Utf16), (1, 1));
        assert_eq!(line_col(text, smiley + 2), (2, 2));
    }

    #[test]
    fn past_the_end_is_the_end() {
        let text = "ab\ncd";
        let index = LineIndex::new(text);
        for enc in ALL {
            assert_eq!(index.line_col(text, 99, enc), (1, 2));
            assert_eq!(index.offset(text, 0, 99, enc), 2, "the line's end");
            assert_eq!(index.offset(text, 9, 0, enc), text.len());
        }
        assert_eq!(index.line_of(99), 1);
        assert_eq!(line_col(text, 99), (2, 3));
    }

    /// Every text of up to four pieces: the index agrees with a reading of
    /// the text line by line ([`lines_inclusive`]), offsets round-trip,
    /// and the one-pass [`line_col`] agrees with the index.
    #[test]
    fn agrees_with_the_lines_on_every_small_text() {
        let pieces = ["a", "\n", "\r", "\r\n", "\u{e9}", "\u{1F600}"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            texts.extend(longer);
        }
        for text in &texts {
            let index = LineIndex::new(text);
            let mut expected = Vec::new();
            let mut start = 0;
            for line in lines_inclusive(text) {
                expected.push(start..start + strip_line_break(line).len());
                start += line.len();
            }
            if text.is_empty() || line_starts(text).last() == Some(text.len()) {
                expected.push(text.len()..text.len());
            }
            let got: Vec<_> = (0..index.line_count())
                .map(|l| index.line_range(text, l).unwrap())
                .collect();
            assert_eq!(got, expected, "{text:?}");
            for offset in 0..=text.len() + 1 {
                for enc in ALL {
                    let (line, col) = index.line_col(text, offset, enc);
                    let back = index.offset(text, line, col, enc);
                    let content = &expected[line];
                    if text.is_char_boundary(offset) && offset <= content.end {
                        assert_eq!(back, offset, "{text:?} {offset} {enc:?}");
                    } else {
                        assert!(back <= offset.min(text.len()), "{text:?} {offset}");
                    }
                    if offset <= text.len() {
                        let start = index.line_start(index.line_of(offset));
                        assert_eq!(line_start_of(text, offset), start.unwrap(), "{text:?}");
                    }
                    if enc == Encoding::Utf32 {
                        assert_eq!(line_col(text, offset), (line + 1, col + 1), "{text:?}");
                    }
                }
            }
        }
    }
}
