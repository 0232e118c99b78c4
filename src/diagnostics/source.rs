//! A source file: its display name, its text, and line lookup.

use crate::span::Span;

#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name diagnostics show (`-` reads as `<stdin>`).
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 0-based line index of a byte offset (clamped to the text).
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// 1-based `(line, column)` of a byte offset; the column counts
    /// characters, as editors do.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self.text[start..offset].chars().count() + 1;
        (line + 1, col)
    }

    /// The byte offset where 0-based line `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len())
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
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
        Ok(self
            .line_starts
            .binary_search(&byte_index)
            .unwrap_or_else(|next_line| next_line - 1))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let start = |i: usize| match i.cmp(&self.line_starts.len()) {
            std::cmp::Ordering::Less => Ok(self.line_starts[i]),
            std::cmp::Ordering::Equal => Ok(self.text.len()),
            std::cmp::Ordering::Greater => Err(codespan_reporting::files::Error::LineTooLarge {
                given: i,
                max: self.line_starts.len() - 1,
            }),
        };
        Ok(start(line_index)?..start(line_index + 1)?)
    }
}
