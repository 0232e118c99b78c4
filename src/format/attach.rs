//! Attaching comments to the printed lines of a module (the rules are in
//! `docs/formatting.md`).
//!
//! One merge of two sorted sequences: the comments of the chunk (from
//! [`crate::lexer::comments`]) and the printed lines of its functions in
//! source order ([`crate::printer::lines::Lines`]), into
//! [`super::notes`]: comment text borrowed from the source, no table.
//! Linear in both: the source lines of comments and line ends are found
//! with a cursor into the project's one line index
//! (`fsutil::lines::LineIndex`), which moves forward as the merge does.

use super::notes::{FunctionNotes, InnerNote, ModuleNotes, Note};
use crate::ir::Anchor;
use crate::printer::lines::Line;
use crate::span::Span;
use fsutil::lines::{LineCursor, LineIndex};

/// Whether the whitespace `text[from..to]` holds a blank line.
fn blank_between(text: &str, from: usize, to: usize) -> bool {
    from < to
        && text
            .get(from..to)
            .is_some_and(|gap| crate::span::line_starts(gap).nth(1).is_some())
}

/// Whether `s` is empty once trimmed (`str::trim`), without decoding it
/// when it is ASCII.
fn only_whitespace(s: &str) -> bool {
    for &b in s.as_bytes() {
        if !b.is_ascii() {
            return s.trim().is_empty();
        }
        if !matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r') {
            return false;
        }
    }
    true
}

/// The attachment state: the line printed last, whose trailing comment may
/// still come, and the comments waiting for the next line.
#[derive(Clone)]
struct State<'t> {
    text: &'t str,
    lines: &'t LineIndex,
    cursor: LineCursor<'t>,
    comments: &'t [Span],
    next: usize,
    /// Byte just past the last thing consumed (a line or a comment).
    last_end: usize,
    /// The line printed last: its function, index, anchor, whether it has
    /// a trailing comment, and the 0-based source line of its end.
    prev: Option<(usize, usize, Anchor, bool, usize)>,
    pending: Vec<Note<'t>>,
    /// Scratch for a line's inner comments.
    inner: Vec<InnerNote<'t>>,
    notes: ModuleNotes<'t>,
}

impl<'t> State<'t> {
    /// The note of comment `span`, and whether only whitespace precedes
    /// it on its line.
    fn note(&mut self, span: Span, blank_before: bool) -> (Note<'t>, bool) {
        let line = self.cursor.line_of(span.start());
        let line_start = self.lines.line_start(line).unwrap_or(0);
        let own_line = self
            .text
            .get(line_start..span.start())
            .is_some_and(only_whitespace);
        let note = Note {
            text: &self.text[span.range()],
            blank_before,
            line: u32::try_from(line).unwrap_or(u32::MAX),
        };
        (note, own_line)
    }

    /// Consumes the comments that start before `before`: trailing ones
    /// (code before them on their line, the line printed last) go to that
    /// line, the rest wait as leading comments of the next line.
    fn take_before(&mut self, before: usize) {
        while let Some(&c) = self.comments.get(self.next) {
            if c.start() >= before {
                break;
            }
            self.next += 1;
            let blank = blank_between(self.text, self.last_end, c.start());
            let (note, own_line) = self.note(c, blank);
            self.last_end = self.last_end.max(c.end());
            match &mut self.prev {
                Some((fi, index, anchor, trailing, end_line))
                    if !own_line && *end_line == note.line as usize && !*trailing =>
                {
                    *trailing = true;
                    self.notes.functions[*fi].set_trailing(*index, *anchor, note);
                }
                _ => self.pending.push(note),
            }
        }
    }

    fn line(&mut self, fi: usize, index: usize, line: Line) {
        self.take_before(line.start);
        let blank_before = blank_between(self.text, self.last_end, line.start);
        // Comments inside the line's code (a statement written over several
        // lines): the printer keeps them next to their list item when it
        // breaks that list, else moves them above the statement.
        while let Some(&c) = self.comments.get(self.next) {
            if c.start() >= line.end {
                break;
            }
            self.next += 1;
            let (note, own_line) = self.note(c, false);
            let inner = InnerNote {
                note,
                at: c.start(),
                own_line,
            };
            self.inner.push(inner);
        }
        self.notes.functions[fi].push_line(
            index,
            line.anchor,
            &mut self.pending,
            blank_before,
            &mut self.inner,
        );
        self.last_end = self.last_end.max(line.end);
        let end_line = self
            .cursor
            .line_of(line.end.saturating_sub(1).max(line.start));
        self.prev = Some((fi, index, line.anchor, false, end_line));
    }
}

/// Attaches `comments` (sorted spans into `text`, the whole file) to the
/// `printed` lines of a module's functions (collected from
/// [`crate::printer::lines::Lines`]), read from `text[chunk.0..chunk.1]`;
/// comments after the last function are the notes' `end`.
pub fn attach<'t>(
    printed: &[Vec<Line>],
    text: &'t str,
    lines: &'t LineIndex,
    comments: &'t [Span],
    (chunk_start, chunk_end): (usize, usize),
) -> ModuleNotes<'t> {
    let mut state = State {
        text,
        lines,
        cursor: lines.cursor(),
        comments,
        next: 0,
        last_end: chunk_start,
        prev: None,
        pending: Vec::new(),
        inner: Vec::new(),
        notes: ModuleNotes {
            functions: vec![FunctionNotes::default(); printed.len()],
            end: Vec::new(),
        },
    };
    for (fi, f) in printed.iter().enumerate() {
        for (i, &line) in f.iter().enumerate() {
            state.line(fi, i, line);
        }
    }
    state.take_before(chunk_end.max(state.last_end));
    let mut end = std::mem::take(&mut state.pending);
    // Whatever is left (nothing, for spans inside the chunk) stays too.
    while state.next < comments.len() {
        let c = comments[state.next];
        state.next += 1;
        end.push(state.note(c, false).0);
    }
    state.notes.end = end;
    state.notes
}

#[cfg(test)]
mod tests {
    /// The byte scan agrees with `str::trim`, which it stands for.
    #[test]
    fn the_whitespace_scan_agrees_with_trim() {
        let texts = [
            "",
            " ",
            "\n",
            "\r\n",
            "\t \r",
            "\u{a0}",
            " \u{a0}\n",
            "\u{2028}x",
            "\x0b\x0c",
            "  x ",
            "\u{3000}\n\n",
            "// c",
        ];
        for text in texts {
            assert_eq!(
                super::only_whitespace(text),
                text.trim().is_empty(),
                "{text:?}"
            );
        }
    }
}
