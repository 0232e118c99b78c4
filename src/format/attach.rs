//! Attaching comments to the printed lines of a module (the rules are in
//! `docs/formatting.md`).
//!
//! One merge of two sorted sequences: the comments of the chunk (from
//! [`crate::lexer::comments`]) and the printed lines of its functions in
//! source order ([`crate::printer::lines::Lines`]), into
//! [`super::notes`]: comment text borrowed from the source, no table.
//! Linear in both, plus a binary search per comment for its line (in the
//! project's one line index, `fsutil::lines::LineIndex`).

use super::notes::{FunctionNotes, InnerNote, ModuleNotes, Note};
use crate::ir::{Anchor, Module};
use crate::printer::lines::{Line, Lines};
use crate::span::Span;
use fsutil::lines::LineIndex;

/// Whether the whitespace `text[from..to]` holds a blank line.
fn blank_between(text: &str, from: usize, to: usize) -> bool {
    from < to
        && text
            .get(from..to)
            .is_some_and(|gap| crate::span::line_starts(gap).nth(1).is_some())
}

/// The attachment state: the line printed last, whose trailing comment may
/// still come, and the comments waiting for the next line.
struct State<'t> {
    text: &'t str,
    lines: &'t LineIndex,
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
    fn note(&self, span: Span, blank_before: bool) -> Note<'t> {
        Note {
            text: &self.text[span.range()],
            blank_before,
            line: u32::try_from(self.lines.line_of(span.start())).unwrap_or(u32::MAX),
        }
    }

    /// Whether only whitespace precedes byte `at` on its line.
    fn own_line(&self, at: usize) -> bool {
        let line_start = self.lines.line_start(self.lines.line_of(at)).unwrap_or(0);
        self.text[line_start..at].trim().is_empty()
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
            let own_line = self.own_line(c.start());
            let blank = blank_between(self.text, self.last_end, c.start());
            let note = self.note(c, blank);
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
            let inner = InnerNote {
                note: self.note(c, false),
                at: c.start(),
                own_line: self.own_line(c.start()),
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
            .lines
            .line_of(line.end.saturating_sub(1).max(line.start));
        self.prev = Some((fi, index, line.anchor, false, end_line));
    }
}

/// Attaches `comments` (sorted spans into `text`, the whole file) to the
/// lines of `module`, read from `text[chunk_start..chunk_end]`; comments
/// after the last function are the notes' `end`.
pub fn attach<'t>(
    module: &Module,
    text: &'t str,
    lines: &'t LineIndex,
    comments: &'t [Span],
    chunk_start: usize,
    chunk_end: usize,
) -> ModuleNotes<'t> {
    let mut state = State {
        text,
        lines,
        comments,
        next: 0,
        last_end: chunk_start,
        prev: None,
        pending: Vec::new(),
        inner: Vec::new(),
        notes: ModuleNotes {
            functions: vec![FunctionNotes::default(); module.functions().len()],
            end: Vec::new(),
        },
    };
    for (fi, f) in module.functions().iter().enumerate() {
        for (index, line) in Lines::of(f).enumerate() {
            state.line(fi, index, line);
        }
    }
    state.take_before(chunk_end.max(state.last_end));
    let mut end = std::mem::take(&mut state.pending);
    // Whatever is left (nothing, for spans inside the chunk) stays too.
    while state.next < comments.len() {
        let c = comments[state.next];
        state.next += 1;
        end.push(state.note(c, false));
    }
    state.notes.end = end;
    state.notes
}
