//! The line structure of the parsed text, for syntax-error recovery: which
//! line a byte offset is on, and how deeply that line is indented.
//!
//! The grammar ignores line breaks, but people do not: a statement is a
//! line, a block's lines are indented under its header, and a `}` sits at
//! the indentation of the line that opened it. Recovery (`recovery.rs`,
//! `delimiters.rs`) reads these facts from here. Offsets are file offsets;
//! the text starts at byte `base` of the file. Lines are the lexer's and
//! every editor's: they end at `\n`, `\r\n` or a lone `\r`
//! (`fsutil::lines`).

use fsutil::lines::LineIndex;

/// Line starts of one text, found once (linear), queried by binary search.
pub struct Layout<'a> {
    text: &'a str,
    base: usize,
    /// Where each line of `text` starts (offsets within `text`).
    lines: LineIndex,
}

impl<'a> Layout<'a> {
    pub fn new(text: &'a str, base: usize) -> Layout<'a> {
        Layout {
            text,
            base,
            lines: LineIndex::new(text),
        }
    }

    /// The 0-based line of the file offset `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.lines.line_of(offset.saturating_sub(self.base))
    }

    /// The indentation (leading spaces and tabs, in bytes) of line `line`.
    pub fn indent(&self, line: usize) -> usize {
        let start = self.lines.line_start(line).unwrap_or(self.text.len());
        self.text.as_bytes()[start..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    }

    /// The indentation of the line the file offset `offset` is on.
    pub fn indent_at(&self, offset: usize) -> usize {
        self.indent(self.line(offset))
    }

    /// The 1-based line number of a file offset, for messages.
    pub fn line_number(&self, offset: usize) -> usize {
        self.line(offset) + 1
    }

    /// The text of the file range `start..end` (empty when out of range).
    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        let (s, e) = (
            start.saturating_sub(self.base),
            end.saturating_sub(self.base),
        );
        self.text.get(s..e).unwrap_or("")
    }

    /// The file offset of the end of the line `offset` is on (before its
    /// line break, or the end of the text).
    pub fn line_end(&self, offset: usize) -> usize {
        let line = self.line(offset);
        let end = self
            .lines
            .line_range(self.text, line)
            .map_or(self.text.len(), |r| r.end);
        end + self.base
    }
}

#[cfg(test)]
mod tests {
    use super::Layout;

    /// Lines, indentation and line ends at file offsets (the text starts
    /// at byte 10), whichever line break ends the lines: `\n`, `\r\n`
    /// or a lone `\r`, as the lexer reads them.
    #[test]
    fn lines_and_indentation() {
        for br in ["\n", "\r\n", "\r"] {
            let text = format!("a{br}  b{br}\tc");
            let l = Layout::new(&text, 10);
            let at = |s: &str| 10 + text.find(s).unwrap();
            assert_eq!([l.line(10), l.line(at("b")), l.line(at("c"))], [0, 1, 2]);
            // The line break belongs to the line it ends.
            assert_eq!(l.line(at("b") + 1), 1, "{br:?}");
            assert_eq!([l.indent_at(at("b")), l.indent(2)], [2, 1]);
            assert_eq!(l.line_number(at("c")), 3);
            assert_eq!(l.line_end(at("b")), at("b") + 1, "{br:?}");
            assert_eq!(l.line_end(10), 11, "{br:?}");
            assert_eq!(l.slice(at(" "), at("b") + 1), "  b");
        }
    }
}
