//! The comments of a module as the formatter prints them: borrowed (from
//! the source text, or from the IR's comment tables), in flat vectors, and
//! per function in the order of its printed lines
//! ([`crate::printer::lines::Lines`]), so that the printer finds a line's
//! comments with a cursor instead of a lookup, and nothing is allocated
//! per comment or per line.
//!
//! `pfir fmt` attaches the source's comments straight into these
//! ([`super::attach`]). `pfir opt --keep-comments` stores them in the IR's
//! tables ([`ModuleNotes::store`]), which follow statements through the
//! passes, and reads them back for printing ([`ModuleNotes::of_ir`]).

use crate::ir::{Anchor, Attached, Comment, Function, Inner, Module};
use crate::printer::lines::Lines;
use std::ops::Range;

/// One `// ...` comment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Note<'t> {
    /// From `//` to the end of its line (no newline, no `\r`).
    pub text: &'t str,
    /// Whether a blank line separated it from what came before it.
    pub blank_before: bool,
    /// Its 0-based line in the source file (for `expected-*@+N` offsets).
    pub line: u32,
}

/// A comment inside a statement's code (see [`crate::ir::Inner`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InnerNote<'t> {
    pub note: Note<'t>,
    /// Its byte offset in the source (compared with expression spans).
    pub at: usize,
    /// Whether nothing but whitespace precedes it on its line.
    pub own_line: bool,
}

/// The comments of one printed line (see [`crate::ir::Attached`]), as
/// ranges of its function's vectors.
#[derive(Clone, Debug)]
pub struct LineNotes {
    /// The line's position among its function's printed lines.
    pub index: u32,
    pub anchor: Anchor,
    leading: Range<u32>,
    trailing: Option<u32>,
    pub blank_before: bool,
    inner: Range<u32>,
}

/// The comments of one printed line, borrowed.
#[derive(Copy, Clone, Debug, Default)]
pub struct LineComments<'a, 't> {
    /// Comments printed on their own lines above it, in source order.
    pub leading: &'a [Note<'t>],
    /// The comment printed after it on the same line.
    pub trailing: Option<&'a Note<'t>>,
    /// Whether a blank line preceded it (or its first leading comment).
    pub blank_before: bool,
    /// Comments inside its code, in source order.
    pub inner: &'a [InnerNote<'t>],
}

/// The comments of one function.
#[derive(Clone, Debug, Default)]
pub struct FunctionNotes<'t> {
    notes: Vec<Note<'t>>,
    inner: Vec<InnerNote<'t>>,
    /// The lines that have comments, in printed order.
    lines: Vec<LineNotes>,
}

impl<'t> FunctionNotes<'t> {
    /// Adds the comments of the line at `index` (after those of the lines
    /// before it): `leading` and `inner` are moved out (the vectors are
    /// left empty, their memory kept); nothing is stored when it has none.
    pub fn push_line(
        &mut self,
        index: usize,
        anchor: Anchor,
        leading: &mut Vec<Note<'t>>,
        blank_before: bool,
        inner: &mut Vec<InnerNote<'t>>,
    ) {
        if leading.is_empty() && inner.is_empty() && !blank_before {
            return;
        }
        let from = self.notes.len() as u32;
        self.notes.append(leading);
        let inner_from = self.inner.len() as u32;
        self.inner.append(inner);
        self.lines.push(LineNotes {
            index: u32::try_from(index).unwrap_or(u32::MAX),
            anchor,
            leading: from..self.notes.len() as u32,
            trailing: None,
            blank_before,
            inner: inner_from..self.inner.len() as u32,
        });
    }

    /// Gives the line at `index` its trailing comment (the line is the
    /// last one pushed, or gets pushed with no other comment).
    pub fn set_trailing(&mut self, index: usize, anchor: Anchor, note: Note<'t>) {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        if self.lines.last().is_none_or(|l| l.index != index) {
            let at = self.notes.len() as u32;
            let inner_at = self.inner.len() as u32;
            self.lines.push(LineNotes {
                index,
                anchor,
                leading: at..at,
                trailing: None,
                blank_before: false,
                inner: inner_at..inner_at,
            });
        }
        let slot = self.notes.len() as u32;
        self.notes.push(note);
        if let Some(l) = self.lines.last_mut() {
            l.trailing = Some(slot);
        }
    }

    /// The lines that have comments, in printed order.
    pub fn lines(&self) -> &[LineNotes] {
        &self.lines
    }

    /// The comments of `line` (one of [`FunctionNotes::lines`]).
    pub fn comments<'a>(&'a self, line: &LineNotes) -> LineComments<'a, 't> {
        let range = |r: &Range<u32>| r.start as usize..r.end as usize;
        LineComments {
            leading: &self.notes[range(&line.leading)],
            trailing: line.trailing.map(|i| &self.notes[i as usize]),
            blank_before: line.blank_before,
            inner: &self.inner[range(&line.inner)],
        }
    }

    /// The comments of `f`'s lines from its IR table.
    fn of_ir(f: &'t Function) -> FunctionNotes<'t> {
        let mut notes = FunctionNotes::default();
        if f.comments.is_empty() {
            return notes;
        }
        let note = |c: &'t Comment| Note {
            text: &c.text,
            blank_before: c.blank_before,
            line: c.line,
        };
        let (mut leading, mut inner) = (Vec::new(), Vec::new());
        for (index, line) in Lines::of(f).enumerate() {
            let Some(a) = f.comments.get(line.anchor) else {
                continue;
            };
            leading.extend(a.leading.iter().map(note));
            inner.extend(a.inner.iter().map(|i| InnerNote {
                note: note(&i.comment),
                at: i.at,
                own_line: i.own_line,
            }));
            notes.push_line(index, line.anchor, &mut leading, a.blank_before, &mut inner);
            if let Some(t) = &a.trailing {
                notes.set_trailing(index, line.anchor, note(t));
            }
        }
        notes
    }
}

/// The comments of a module: per function, and after the last one.
#[derive(Clone, Debug, Default)]
pub struct ModuleNotes<'t> {
    pub functions: Vec<FunctionNotes<'t>>,
    pub end: Vec<Note<'t>>,
}

impl<'t> ModuleNotes<'t> {
    /// The comments `m`'s IR tables hold.
    pub fn of_ir(m: &'t Module) -> ModuleNotes<'t> {
        ModuleNotes {
            functions: m.functions().iter().map(FunctionNotes::of_ir).collect(),
            end: m
                .end_comments
                .iter()
                .map(|c| Note {
                    text: &c.text,
                    blank_before: c.blank_before,
                    line: c.line,
                })
                .collect(),
        }
    }

    /// Stores these comments (attached to `m`'s lines) in `m`'s IR tables.
    pub fn store(&self, m: &mut Module) {
        let comment = |n: &Note| Comment {
            text: n.text.to_string(),
            blank_before: n.blank_before,
            line: n.line,
        };
        for (f, notes) in m.functions_mut().iter_mut().zip(&self.functions) {
            for line in &notes.lines {
                let c = notes.comments(line);
                let attached = Attached {
                    leading: c.leading.iter().map(comment).collect(),
                    trailing: c.trailing.map(comment),
                    blank_before: c.blank_before,
                    inner: c
                        .inner
                        .iter()
                        .map(|i| Inner {
                            comment: comment(&i.note),
                            at: i.at,
                            own_line: i.own_line,
                        })
                        .collect(),
                };
                f.comments.by_anchor.insert(line.anchor, attached);
            }
        }
        m.end_comments = self.end.iter().map(comment).collect();
    }
}
