//! Attaching comments to the printed lines of a module (the rules are in
//! `docs/formatting.md`).
//!
//! One merge of two sorted sequences: the comments of the chunk (from
//! [`crate::lexer::comments`]) and the printed lines of its functions in
//! source order ([`super::lines::walk`]). Linear in both, plus a binary
//! search per comment for its line.

use super::lines::{Line, walk};
use crate::ir::{Anchor, Attached, Comment, Inner, Module};
use crate::span::Span;

/// Line starts of a text, for offset -> 0-based line.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(crate::span::line_starts(text));
        LineIndex { starts }
    }

    /// The 0-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The byte where 0-based `line` starts.
    pub fn start(&self, line: usize) -> usize {
        self.starts[line.min(self.starts.len() - 1)]
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

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
    /// (function index, anchor, its comments, 0-based source line of its end).
    prev: Option<(usize, Anchor, Attached, usize)>,
    pending: Vec<Comment>,
}

impl State<'_> {
    fn comment(&self, span: Span, blank_before: bool) -> Comment {
        Comment {
            text: self.text[span.range()].to_string(),
            blank_before,
            line: u32::try_from(self.lines.line(span.start())).unwrap_or(u32::MAX),
        }
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
            let line = self.lines.line(c.start());
            let own_line = self.text[self.lines.start(line)..c.start()]
                .trim()
                .is_empty();
            let blank = blank_between(self.text, self.last_end, c.start());
            let comment = self.comment(c, blank);
            self.last_end = self.last_end.max(c.end());
            match &mut self.prev {
                Some((_, _, attached, end_line))
                    if !own_line && *end_line == line && attached.trailing.is_none() =>
                {
                    attached.trailing = Some(comment);
                }
                _ => self.pending.push(comment),
            }
        }
    }

    /// Stores the previous line's comments in its function's table.
    fn flush(&mut self, module: &mut Module) {
        if let Some((fi, anchor, attached, _)) = self.prev.take()
            && !attached.is_empty()
        {
            module.functions_mut()[fi]
                .comments
                .by_anchor
                .insert(anchor, attached);
        }
    }

    fn line(&mut self, module: &mut Module, fi: usize, line: Line) {
        self.take_before(line.start);
        let blank_before = blank_between(self.text, self.last_end, line.start);
        // Comments inside the line's code (a statement written over several
        // lines): the printer keeps them next to their list item when it
        // breaks that list, else moves them above the statement.
        let mut inner = Vec::new();
        while let Some(&c) = self.comments.get(self.next) {
            if c.start() >= line.end {
                break;
            }
            self.next += 1;
            let own_line = self.text[self.lines.start(self.lines.line(c.start()))..c.start()]
                .trim()
                .is_empty();
            inner.push(Inner {
                comment: self.comment(c, false),
                at: c.start(),
                own_line,
            });
        }
        self.flush(module);
        let attached = Attached {
            leading: std::mem::take(&mut self.pending),
            trailing: None,
            blank_before,
            inner,
        };
        self.last_end = self.last_end.max(line.end);
        let end_line = self.lines.line(line.end.saturating_sub(1).max(line.start));
        self.prev = Some((fi, line.anchor, attached, end_line));
    }
}

/// Attaches `comments` (sorted spans into `text`, the whole file) to the
/// lines of `module`, read from `text[chunk_start..chunk_end]`; comments
/// after the last function become [`Module::end_comments`].
pub fn attach(
    module: &mut Module,
    text: &str,
    lines: &LineIndex,
    comments: &[Span],
    chunk_start: usize,
    chunk_end: usize,
) {
    let mut state = State {
        text,
        lines,
        comments,
        next: 0,
        last_end: chunk_start,
        prev: None,
        pending: Vec::new(),
    };
    let mut all_lines = Vec::new();
    for fi in 0..module.functions().len() {
        all_lines.clear();
        walk(&module.functions()[fi], |l| all_lines.push(l));
        for l in &all_lines {
            state.line(module, fi, *l);
        }
    }
    state.take_before(chunk_end.max(state.last_end));
    state.flush(module);
    let mut end = std::mem::take(&mut state.pending);
    // Whatever is left (nothing, for spans inside the chunk) stays too.
    while state.next < comments.len() {
        let c = comments[state.next];
        state.next += 1;
        end.push(state.comment(c, false));
    }
    module.end_comments = end;
}
