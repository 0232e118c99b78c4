//! The line structure of the parsed text, for syntax-error recovery: which
//! line a byte offset is on, and how deeply that line is indented.
//!
//! The grammar ignores line breaks, but people do not: a statement is a
//! line, a block's lines are indented under its header, and a `}` sits at
//! the indentation of the line that opened it. Recovery (`recovery.rs`,
//! `delimiters.rs`) reads these facts from here. Offsets are file offsets;
//! the text starts at byte `base` of the file.

/// Line starts of one text, found once (linear), queried by binary search.
pub struct Layout<'a> {
    text: &'a str,
    base: usize,
    /// Offsets (within `text`) where each line starts.
    line_starts: Vec<usize>,
}

impl<'a> Layout<'a> {
    pub fn new(text: &'a str, base: usize) -> Layout<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Layout {
            text,
            base,
            line_starts,
        }
    }

    /// The 0-based line of the file offset `offset`.
    pub fn line(&self, offset: usize) -> usize {
        let at = offset.saturating_sub(self.base);
        self.line_starts.partition_point(|&s| s <= at) - 1
    }

    /// The indentation (leading spaces and tabs, in bytes) of line `line`.
    pub fn indent(&self, line: usize) -> usize {
        let start = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
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
    /// `\n`, or the end of the text).
    pub fn line_end(&self, offset: usize) -> usize {
        let line = self.line(offset);
        let end = match self.line_starts.get(line + 1) {
            Some(&next) => next - 1,
            None => self.text.len(),
        };
        end + self.base
    }
}

#[cfg(test)]
mod tests {
    use super::Layout;

    #[test]
    fn lines_and_indentation() {
        let l = Layout::new("a\n  b\n\tc", 10);
        assert_eq!(l.line(10), 0);
        assert_eq!(l.line(14), 1);
        assert_eq!(l.indent_at(14), 2);
        assert_eq!(l.indent(2), 1);
        assert_eq!(l.line_number(17), 3);
        assert_eq!(l.line_end(12), 15);
        assert_eq!(l.slice(12, 15), "  b");
    }
}
