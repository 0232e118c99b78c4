//! The canonical printer with comments: the lines of
//! [`crate::printer::lines::Lines`] written as `crate::printer` writes them, each with its leading comments
//! above it and its trailing comment after it, and blank lines kept
//! (at most one) where the source had them between statements.
//!
//! When asked to ([`Printer::tracking`]), it also records which output line
//! each source line went to, so that `expected-*@+N` offsets can be
//! rewritten afterwards ([`super::offsets`]).

use super::notes::{FunctionNotes, LineComments, ModuleNotes, Note};
use crate::ir::{Anchor, Function, Module};
use crate::printer::lines::{Line, line_text};
use crate::printer::render::TrimWriter;
use std::ops::Range;

/// Which comments are printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every comment (`pfir fmt`).
    All,
    /// All but test directives: RUN / CHECK-like lines and `expected-*`
    /// (`pfir opt --keep-comments`).
    NotDirectives,
}

/// Whether `text` (a comment) is a test directive: `// WORD:` or
/// `// WORD-SUFFIX:` in capitals (RUN, CHECK, CHECK-NEXT, any FileCheck
/// prefix), or an `expected-*` diagnostic expectation (as
/// [`crate::testing::expected`] reads them).
pub fn is_directive(text: &str) -> bool {
    let body = text.trim_start_matches('/').trim_start();
    let word_end = body
        .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_'))
        .unwrap_or(body.len());
    let capital = body.starts_with(|c: char| c.is_ascii_uppercase());
    (capital && word_end > 0 && body[word_end..].starts_with(':'))
        || crate::lexer::expected::has_directive(text)
}

/// A directive comment printed at output line `out_line`, read from source
/// line `source_line`.
pub struct Directive {
    pub out_line: usize,
    pub source_line: usize,
}

/// The mapping of source lines to output lines.
pub struct Tracking {
    /// Per 0-based source line, its output line (`u32::MAX`: none).
    pub out_of: Vec<u32>,
    pub directives: Vec<Directive>,
    /// Per source line, what set its output line (see [`Source`]).
    set_by: Vec<Source>,
    /// Per source line, whether an `expected-*` directive names it: a line
    /// of code read from it is never broken by width (only where a comment
    /// keeps a list broken, as written), so its diagnostics stay on the
    /// line the directive names.
    pinned: Vec<bool>,
}

/// What a source line's output line was taken from, in increasing
/// priority. A source line that went to several output lines (a line
/// holding two statements, or a whole one-line function) maps to the first
/// statement printed from it, else to the last other line of code (a
/// header, `} else {`, `}`), else to its comment.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Nothing,
    Comment,
    Code,
    Statement,
}

pub struct Printer {
    w: TrimWriter<Vec<u8>>,
    out_line: usize,
    /// Nothing printed yet in this block (or file): no blank line here.
    fresh: bool,
    keep: Keep,
    pub tracking: Option<Tracking>,
    /// The line width statements are laid out in (`None`: one line each,
    /// as the canonical printer writes them).
    width: Option<usize>,
    /// Reused buffer for the canonical text of a window of lines.
    text: String,
    /// Reused for what laying out the statements of a window gives
    /// ([`super::layout::fit_statements`]): their text, which of their
    /// inner comments they hold, and where each is; and what the layout
    /// itself reuses.
    wrapped: String,
    placed: Vec<bool>,
    laid: Vec<Option<super::layout::Laid>>,
    scratch: super::layout::Scratch,
    /// The number of lines printed at a time ([`WINDOW_LINES`]; others in
    /// tests).
    window_lines: usize,
}

/// The number of lines printed at a time, their statements laid out
/// together ([`super::layout::fit_statements`]).
pub const WINDOW_LINES: usize = 128;

/// The depth of the comment lines printed above `line`: inside the block
/// that a `}` or `} else {` line closes.
fn comment_depth(line: &Line) -> usize {
    line.depth + usize::from(matches!(line.anchor, Anchor::Else(_) | Anchor::Close(_)))
}

/// The indentation bytes of the comment lines printed with `line` (its
/// leading comments and those inside it, the kept ones): what the output
/// size bound counts beside the code's own lines.
pub fn comment_indentation(line: &Line, c: &LineComments, keep: Keep) -> u64 {
    let kept = |n: &&Note| keep == Keep::All || !is_directive(n.text);
    let count = c.leading.iter().filter(kept).count()
        + c.inner.iter().map(|i| &i.note).filter(kept).count();
    (count as u64).saturating_mul(2 * comment_depth(line) as u64)
}

impl Printer {
    pub fn new(keep: Keep) -> Printer {
        Printer {
            w: TrimWriter::new(Vec::new()),
            out_line: 0,
            fresh: true,
            keep,
            tracking: None,
            width: None,
            text: String::new(),
            wrapped: String::new(),
            scratch: super::layout::Scratch::default(),
            placed: Vec::new(),
            laid: Vec::new(),
            window_lines: WINDOW_LINES,
        }
    }

    /// Lays statements out within `width` columns ([`super::layout`]).
    pub fn line_width(mut self, width: usize) -> Printer {
        self.width = Some(width);
        self
    }

    /// Prints `n` lines at a time (the default is [`WINDOW_LINES`]), their
    /// statements laid out together.
    pub fn window_lines(mut self, n: usize) -> Printer {
        self.window_lines = n.max(1);
        self
    }

    /// Records output lines for `source` (of `source_lines` lines).
    pub fn tracking(mut self, source: &str, source_lines: usize) -> Printer {
        let mut pinned = vec![false; source_lines];
        let starts: Vec<usize> = std::iter::once(0)
            .chain(crate::span::line_starts(source))
            .collect();
        for (n, &start) in starts.iter().enumerate() {
            let end = starts.get(n + 1).copied().unwrap_or(source.len());
            let (_, found) = crate::lexer::expected::scan_line(&source[start..end]);
            for f in found {
                if let crate::lexer::expected::Found::Directive(d) = f
                    && let Some(slot) = d.line.target(n).and_then(|t| pinned.get_mut(t))
                {
                    *slot = true;
                }
            }
        }
        self.tracking = Some(Tracking {
            out_of: vec![u32::MAX; source_lines],
            directives: Vec::new(),
            set_by: vec![Source::Nothing; source_lines],
            pinned,
        });
        self
    }

    /// The output and the tracking of its lines.
    pub fn finish(self) -> (Vec<u8>, Option<Tracking>) {
        (self.w.finish().unwrap_or_default(), self.tracking)
    }

    pub fn blank(&mut self) {
        let _ = self.w.newline();
        self.out_line += 1;
    }

    fn kept(&self, c: &Note) -> bool {
        self.keep == Keep::All || !is_directive(c.text)
    }

    fn map(&mut self, from: usize, to: usize, by: Source) {
        let out = u32::try_from(self.out_line).unwrap_or(u32::MAX);
        if let Some(t) = &mut self.tracking {
            for l in from..=to {
                let (Some(slot), Some(was)) = (t.out_of.get_mut(l), t.set_by.get_mut(l)) else {
                    continue;
                };
                // A statement keeps the first one; other code the last.
                let replace = match by {
                    Source::Statement => *was < Source::Statement,
                    Source::Code => *was <= Source::Code,
                    Source::Comment | Source::Nothing => *was == Source::Nothing,
                };
                if replace {
                    *slot = out;
                    *was = by;
                }
            }
        }
    }

    fn note_directive(&mut self, c: &Note) {
        if let Some(t) = &mut self.tracking
            && crate::lexer::expected::has_directive(c.text)
        {
            t.directives.push(Directive {
                out_line: self.out_line,
                source_line: c.line as usize,
            });
        }
    }

    /// A raw line (a `// -----` separator) read from `source_line`.
    pub fn raw_line(&mut self, text: &str, source_line: Option<usize>) {
        if let Some(l) = source_line {
            self.map(l, l, Source::Statement);
        }
        let _ = self.w.line(0, text);
        let _ = self.w.newline();
        self.out_line += 1;
        self.fresh = true;
    }

    /// A comment on its own line at `depth`.
    pub fn comment_line(&mut self, depth: usize, c: &Note) {
        if !self.kept(c) {
            return;
        }
        if c.blank_before && !self.fresh {
            self.blank();
        }
        self.map(c.line as usize, c.line as usize, Source::Comment);
        self.note_directive(c);
        let _ = self.w.line(depth, c.text);
        let _ = self.w.newline();
        self.out_line += 1;
        self.fresh = false;
    }

    /// A line of code, its text (holding `breaks` line breaks, when laid
    /// out by width); `placed` says which of its inner comments the text
    /// holds (the others are printed above it, after its leading ones).
    fn code_line(
        &mut self,
        line: &Line,
        source: (usize, usize),
        c: &LineComments,
        placed: &[bool],
        (text, breaks): (&str, usize),
    ) {
        let depth = comment_depth(line);
        for l in c.leading {
            self.comment_line(depth, l);
        }
        // A blank line before the code comes before the comments moved out
        // of it.
        let mut blank_before = c.blank_before;
        for (i, l) in c.inner.iter().enumerate() {
            if !placed.get(i).copied().unwrap_or(false) {
                let comment = Note {
                    blank_before: std::mem::take(&mut blank_before),
                    ..l.note
                };
                self.comment_line(depth, &comment);
            }
        }
        // A line broken over several keeps a trailing `expected-*` naming
        // its first line: above it (its offset then names the line below).
        let mut trailing = c.trailing;
        if breaks > 0
            && let Some(t) = trailing.take_if(|t| crate::lexer::expected::has_directive(t.text))
        {
            let blank_before = std::mem::take(&mut blank_before);
            self.comment_line(depth, &Note { blank_before, ..*t });
        }
        if blank_before && depth == line.depth && !self.fresh {
            self.blank();
        }
        if self.tracking.is_some() && source.0 <= source.1 {
            let by = match line.anchor {
                Anchor::Stmt(_) => Source::Statement,
                _ => Source::Code,
            };
            self.map(source.0, source.1, by);
        }
        let _ = self.w.line(line.depth, text);
        if let Some(t) = trailing
            && self.kept(t)
        {
            self.map(t.line as usize, t.line as usize, Source::Comment);
            self.note_directive(t);
            let _ = self.w.line(0, " ");
            let _ = self.w.line(0, t.text);
        }
        let _ = self.w.newline();
        self.out_line += 1 + breaks;
        self.fresh = text.ends_with('{');
    }

    /// Prints `module`'s functions (a blank line between two), each from
    /// its `printed` lines (collected from [`crate::printer::lines::Lines::of`]), with the
    /// comments of `notes`, then its end comments. `source_line` maps a
    /// byte offset to its source line (used only when tracking).
    pub fn module(
        &mut self,
        module: &Module,
        printed: &[Vec<Line>],
        notes: &ModuleNotes,
        source_line: &dyn Fn(usize) -> usize,
    ) {
        let none = FunctionNotes::default();
        for (i, (f, lines)) in module.functions().iter().zip(printed).enumerate() {
            if i > 0 {
                self.blank();
                self.fresh = true;
            }
            let notes = notes.functions.get(i).unwrap_or(&none);
            self.function(module, f, lines, notes, source_line);
        }
        for c in &notes.end {
            self.comment_line(0, c);
        }
    }

    /// Prints the `lines` of `f`, each with its comments (found with a
    /// cursor: `notes` are in the lines' order).
    fn function(
        &mut self,
        module: &Module,
        f: &Function,
        lines: &[Line],
        notes: &FunctionNotes,
        source_line: &dyn Fn(usize) -> usize,
    ) {
        let lines = lines.iter().copied().enumerate();
        self.lines(module, f, notes, lines, source_line);
    }

    /// Prints `lines` (each with its index among the function's printed
    /// lines) with their comments, from `notes`, a window of lines at a
    /// time (their statements are laid out together).
    fn lines(
        &mut self,
        module: &Module,
        f: &Function,
        notes: &FunctionNotes,
        lines: impl Iterator<Item = (usize, Line)>,
        source_line: &dyn Fn(usize) -> usize,
    ) {
        let mut lines = lines.peekable();
        let first = lines.peek().map_or(0, |(index, _)| *index);
        let from = notes
            .lines()
            .partition_point(|l| (l.index as usize) < first);
        let mut with_notes = notes.lines()[from..].iter().peekable();
        let mut window = Vec::with_capacity(self.window_lines);
        let mut texts = std::mem::take(&mut self.text);
        texts.clear();
        for (index, line) in lines {
            let c = match with_notes.next_if(|l| l.index as usize == index) {
                Some(l) => notes.comments(l),
                None => LineComments::default(),
            };
            let start = texts.len();
            line_text(module, f, &line, &mut texts);
            window.push((line, c, start..texts.len()));
            if window.len() >= self.window_lines {
                self.window(module, f, &window, &texts, source_line);
                window.clear();
                texts.clear();
            }
        }
        self.window(module, f, &window, &texts, source_line);
        self.text = texts;
    }

    /// Prints a window of lines: each line, its comments and where its
    /// canonical text is in `texts`.
    fn window(
        &mut self,
        module: &Module,
        f: &Function,
        window: &[(Line, LineComments, Range<usize>)],
        texts: &str,
        source_line: &dyn Fn(usize) -> usize,
    ) {
        let mut laid = std::mem::take(&mut self.laid);
        let (mut wrapped, mut placed) = (
            std::mem::take(&mut self.wrapped),
            std::mem::take(&mut self.placed),
        );
        laid.clear();
        if let Some(width) = self.width {
            let pinned = |line: &Line| {
                self.tracking.as_ref().is_some_and(|t| {
                    let last = line.end.saturating_sub(1).max(line.start);
                    let lines = source_line(line.start)..=source_line(last);
                    t.pinned.get(lines).is_some_and(|p| p.contains(&true))
                })
            };
            let requests = window.iter().map(|(line, c, text)| match line.anchor {
                Anchor::Close(_) => None,
                anchor => Some(super::layout::Request {
                    anchor,
                    line: &texts[text.clone()],
                    indent: 2 * line.depth,
                    inner: c.inner,
                    pinned: pinned(line),
                }),
            });
            super::layout::fit_statements(
                (module, f),
                width,
                requests,
                &mut self.scratch,
                (&mut wrapped, &mut placed),
                &mut laid,
            );
        }
        for (i, (line, c, text)) in window.iter().enumerate() {
            let (text, breaks, placed) = match laid.get(i) {
                Some(Some(l)) => (
                    &wrapped[l.text.clone()],
                    l.breaks,
                    &placed[l.placed.clone()],
                ),
                _ => (&texts[text.clone()], 0, &[][..]),
            };
            let source = if self.tracking.is_some() {
                let last = line.end.saturating_sub(1).max(line.start);
                (source_line(line.start), source_line(last))
            } else {
                (1, 0)
            };
            self.code_line(line, source, c, placed, (text, breaks));
        }
        self.laid = laid;
        self.wrapped = wrapped;
        self.placed = placed;
    }
}
