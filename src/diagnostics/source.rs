//! A source file: its display name, its text, and line lookup.

use crate::span::Span;
use fsutil::lines::{Encoding, LineIndex};

#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name diagnostics show (`-` reads as `<stdin>`).
    pub name: String,
    pub text: String,
    /// Where each line of `text` starts (`fsutil::lines`, the one
    /// definition of a line): indexed by the first query (a diagnostic to
    /// render), so a file read without one never pays for it.
    lines: std::sync::OnceLock<LineIndex>,
    /// For text decoded lossily from bytes that were not UTF-8: where each
    /// U+FFFD stands for an invalid byte sequence, as (offset in `text`,
    /// total bytes the text has gained up to and including it). Empty for
    /// ordinary text, whose offsets are the file's.
    replacements: Vec<(usize, usize)>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            lines: std::sync::OnceLock::new(),
            replacements: Vec::new(),
        }
    }

    /// A file read from `bytes` that may not be UTF-8: each invalid byte
    /// sequence becomes U+FFFD in `text`, and [`SourceFile::file_offset`]
    /// maps offsets back to the bytes. Also returns the offset of the first
    /// invalid byte, if any.
    pub fn from_bytes_lossy(name: impl Into<String>, bytes: &[u8]) -> (SourceFile, Option<usize>) {
        let mut text = String::with_capacity(bytes.len());
        let mut replacements = Vec::new();
        let mut first_bad = None;
        let mut consumed = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            consumed += chunk.valid().len();
            let invalid = chunk.invalid();
            if !invalid.is_empty() {
                first_bad.get_or_insert(consumed);
                let at = text.len();
                text.push(char::REPLACEMENT_CHARACTER);
                consumed += invalid.len();
                // How far `text` now runs ahead of (or behind) the bytes.
                replacements.push((at, text.len() - consumed));
            }
        }
        let mut file = SourceFile::new(name, text);
        file.replacements = replacements;
        (file, first_bad)
    }

    /// The byte offset in the file as read of `offset` in `text` (they
    /// differ only after an invalid byte sequence of lossily decoded text;
    /// an offset inside a U+FFFD maps to the end of the sequence it stands
    /// for). Never past the end of the file.
    pub fn file_offset(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let i = self.replacements.partition_point(|&(at, _)| at < offset);
        if i == 0 {
            return offset;
        }
        let (at, gained) = self.replacements[i - 1];
        // Inside the U+FFFD (`at < offset`): the end of its sequence.
        offset.max(at + char::REPLACEMENT_CHARACTER.len_utf8()) - gained
    }

    /// The length of the file as read, in bytes.
    pub fn file_len(&self) -> usize {
        self.file_offset(self.text.len())
    }

    /// The line index (built on first use).
    fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// 0-based line index of a byte offset (clamped to the text).
    pub fn line_index(&self, offset: usize) -> usize {
        self.lines().line_of(offset.min(self.text.len()))
    }

    /// 1-based `(line, column)` of a byte offset; the column counts
    /// characters, as editors do (an offset inside a line break is the end
    /// of its line).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let (line, col) = self.lines().line_col(&self.text, offset, Encoding::Utf32);
        (line + 1, col + 1)
    }

    /// The byte offset where 0-based line `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.lines().line_start(line).unwrap_or(self.text.len())
    }

    pub fn line_count(&self) -> usize {
        self.lines().line_count()
    }

    /// The text a span covers (clamped to the file).
    pub fn slice(&self, span: Span) -> &str {
        let end = span.end().min(self.text.len());
        let start = span.start().min(end);
        self.text.get(start..end).unwrap_or("")
    }
}

/// The file as codespan-reporting's file database: one value, built once
/// with its line table, serves every diagnostic of a run (a new database per
/// diagnostic would rescan the whole text each time).
impl<'a> codespan_reporting::files::Files<'a> for SourceFile {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(
        &'a self,
        (): (),
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.lines().line_of(byte_index))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        self.lines().line_with_break(&self.text, line_index).ok_or(
            codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: self.lines().line_count() - 1,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        use codespan_reporting::files::Files;
        let file = SourceFile::new("f", "ab\r\nc\rd\u{e9}x\ne");
        let at = |c: char| file.text.find(c).unwrap();
        assert_eq!(file.line_col(at('c')), (2, 1));
        assert_eq!(file.line_col(at('d')), (3, 1));
        assert_eq!(file.line_col(at('x')), (3, 3), "columns count characters");
        // Inside the `\r\n`: the end of the first line.
        assert_eq!(file.line_col(3), (1, 3));
        assert_eq!(file.line_col(999), (4, 2));
        assert_eq!(file.line_count(), 4);
        assert_eq!(
            (file.line_start(2), file.line_start(9)),
            (at('d'), file.text.len())
        );
        assert_eq!(file.line_range((), 1).unwrap(), at('c')..at('d'));
        assert_eq!(file.line_range((), 3).unwrap(), at('e')..file.text.len());
        assert!(file.line_range((), 4).is_err());
        assert_eq!(Files::line_index(&file, (), at('d')).unwrap(), 2);
    }

    #[test]
    fn lossy_offsets_map_back_to_the_bytes() {
        // `printf 'func f() {\n}\n\xff'`: 14 bytes.
        let bytes = b"func f() {\n}\n\xff";
        let (file, bad) = SourceFile::from_bytes_lossy("f", bytes);
        assert_eq!(bad, Some(13));
        assert_eq!(file.text.len(), 16);
        assert_eq!(file.file_offset(13), 13);
        assert_eq!(file.file_offset(14), 14);
        assert_eq!(file.file_offset(16), 14);
        assert_eq!(file.file_len(), 14);
        // Two sequences of different lengths, text after them.
        let bytes = b"a\xffb\xe2\x82c";
        let (file, bad) = SourceFile::from_bytes_lossy("f", bytes);
        assert_eq!(bad, Some(1));
        assert_eq!(file.text, "a\u{fffd}b\u{fffd}c");
        let b_at = file.text.find('b').unwrap();
        let c_at = file.text.find('c').unwrap();
        assert_eq!(file.file_offset(b_at), 2);
        assert_eq!(file.file_offset(b_at + 1), 3, "the second sequence starts");
        assert_eq!(file.file_offset(c_at), 5);
        assert_eq!(file.file_len(), bytes.len());
        // Valid text is its own map.
        let (file, bad) = SourceFile::from_bytes_lossy("f", "é\n".as_bytes());
        assert_eq!((bad, file.file_offset(2), file.file_len()), (None, 2, 3));
    }
}
