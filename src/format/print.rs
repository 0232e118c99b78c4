//! The canonical printer with comments: the lines of [`super::lines::walk`]
//! written as `crate::printer` writes them, each with its leading comments
//! above it and its trailing comment after it, and blank lines kept
//! (at most one) where the source had them between statements.
//!
//! When asked to ([`Printer::tracking`]), it also records which output line
//! each source line went to, so that `expected-*@+N` offsets can be
//! rewritten afterwards ([`super::offsets`]).

use super::lines::{Line, else_if, walk};
use crate::ir::{Anchor, Attached, Comment, Function, Module, StmtKind};
use crate::printer::render::TrimWriter;
use crate::printer::stmt::stmt_head_into;

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
    /// Reused buffer for the lines of a function.
    lines: Vec<Line>,
    pub tracking: Option<Tracking>,
    /// The line width statements are laid out in (`None`: one line each,
    /// as the canonical printer writes them).
    width: Option<usize>,
    /// From how many lines a function is printed on two threads.
    parallel_min_lines: usize,
}

/// A function with at least this many printed lines is printed on two
/// threads ([`Printer::parallel_from`]).
pub const PARALLEL_MIN_LINES: usize = 20_000;

impl Printer {
    pub fn new(keep: Keep) -> Printer {
        Printer {
            w: TrimWriter::new(Vec::new()),
            out_line: 0,
            fresh: true,
            keep,
            lines: Vec::new(),
            tracking: None,
            width: None,
            parallel_min_lines: PARALLEL_MIN_LINES,
        }
    }

    /// Prints functions of at least `lines` printed lines on two threads
    /// (tests use small numbers).
    pub fn parallel_from(mut self, lines: usize) -> Printer {
        self.parallel_min_lines = lines.max(1);
        self
    }

    /// Lays statements out within `width` columns ([`super::layout`]).
    pub fn line_width(mut self, width: usize) -> Printer {
        self.width = Some(width);
        self
    }

    /// Records output lines for a source of `source_lines` lines.
    pub fn tracking(mut self, source_lines: usize) -> Printer {
        self.tracking = Some(Tracking {
            out_of: vec![u32::MAX; source_lines],
            directives: Vec::new(),
            set_by: vec![Source::Nothing; source_lines],
        });
        self
    }

    pub fn finish(self) -> (Vec<u8>, Option<Tracking>) {
        (self.w.finish().unwrap_or_default(), self.tracking)
    }

    pub fn blank(&mut self) {
        let _ = self.w.newline();
        self.out_line += 1;
    }

    fn kept(&self, c: &Comment) -> bool {
        self.keep == Keep::All || !is_directive(&c.text)
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

    fn note_directive(&mut self, c: &Comment) {
        if let Some(t) = &mut self.tracking
            && crate::lexer::expected::has_directive(&c.text)
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
    pub fn comment_line(&mut self, depth: usize, c: &Comment) {
        if !self.kept(c) {
            return;
        }
        if c.blank_before && !self.fresh {
            self.blank();
        }
        self.map(c.line as usize, c.line as usize, Source::Comment);
        self.note_directive(c);
        let _ = self.w.line(depth, &c.text);
        let _ = self.w.newline();
        self.out_line += 1;
        self.fresh = false;
    }

    /// A line of code; `placed` says which of its inner comments `text`
    /// holds (the others are printed above it, after its leading ones).
    fn code_line(
        &mut self,
        line: &Line,
        source: (usize, usize),
        text: &str,
        c: Option<&Attached>,
        placed: &[bool],
    ) {
        let inner = matches!(line.anchor, Anchor::Else(_) | Anchor::Close(_));
        if let Some(c) = c {
            let depth = line.depth + usize::from(inner);
            for l in &c.leading {
                self.comment_line(depth, l);
            }
            // A blank line before the code comes before the comments
            // moved out of it.
            let mut blank_before = c.blank_before;
            for (i, l) in c.inner.iter().enumerate() {
                if !placed.get(i).copied().unwrap_or(false) {
                    let mut comment = l.comment.clone();
                    comment.blank_before = std::mem::take(&mut blank_before);
                    self.comment_line(depth, &comment);
                }
            }
            if blank_before && !inner && !self.fresh {
                self.blank();
            }
        }
        if self.tracking.is_some() && source.0 <= source.1 {
            let by = match line.anchor {
                Anchor::Stmt(_) => Source::Statement,
                _ => Source::Code,
            };
            self.map(source.0, source.1, by);
        }
        let _ = self.w.line(line.depth, text);
        if let Some(t) = c.and_then(|c| c.trailing.as_ref())
            && self.kept(t)
        {
            self.map(t.line as usize, t.line as usize, Source::Comment);
            self.note_directive(t);
            let _ = self.w.line(0, " ");
            let _ = self.w.line(0, &t.text);
        }
        let _ = self.w.newline();
        self.out_line += 1 + text.bytes().filter(|&b| b == b'\n').count();
        self.fresh = text.ends_with('{');
    }

    /// Prints `module`'s functions (a blank line between two) and its end
    /// comments. `source_line` maps a byte offset to its source line (used
    /// only when tracking).
    pub fn module(&mut self, module: &Module, source_line: &(dyn Fn(usize) -> usize + Sync)) {
        for (i, f) in module.functions().iter().enumerate() {
            if i > 0 {
                self.blank();
                self.fresh = true;
            }
            let mut all = std::mem::take(&mut self.lines);
            all.clear();
            walk(f, |l| all.push(l));
            if self.tracking.is_none() && all.len() >= self.parallel_min_lines {
                self.lines_on_two_threads(module, f, &all);
            } else {
                self.print_lines(module, f, &all, source_line);
            }
            self.lines = all;
        }
        for c in &module.end_comments {
            self.comment_line(0, c);
        }
    }

    /// Prints the second half of `lines` on another thread (into memory)
    /// while this one prints the first, as `pfir opt` prints a long block;
    /// on one thread when no thread can be started. Without tracking only
    /// (the output lines of the second half are not known in advance).
    fn lines_on_two_threads(&mut self, module: &Module, f: &Function, lines: &[Line]) {
        let (first, second) = lines.split_at(lines.len() / 2);
        // What the first half leaves for the second: whether its last line
        // opened a block (no blank line after a `{`).
        let fresh = first.last().is_none_or(|l| {
            let mut text = String::new();
            line_text(module, f, l, &mut text);
            text.ends_with('{')
        }) && (!first.is_empty() || self.fresh);
        let (keep, width) = (self.keep, self.width);
        std::thread::scope(|s| {
            let ahead = std::thread::Builder::new()
                .name("pfir-fmt-print".into())
                .stack_size(crate::stack::worker_stack_bytes())
                .spawn_scoped(s, move || {
                    let mut p = Printer::new(keep);
                    p.width = width;
                    p.fresh = fresh;
                    p.print_lines(module, f, second, &|_| 0);
                    p.finish().0
                });
            let Ok(ahead) = ahead else {
                return self.print_lines(module, f, lines, &|_| 0);
            };
            self.print_lines(module, f, first, &|_| 0);
            match ahead.join() {
                Ok(bytes) => {
                    let _ = self.w.lines(&bytes);
                    self.fresh = second.last().is_some_and(|l| {
                        let mut text = String::new();
                        line_text(module, f, l, &mut text);
                        text.ends_with('{')
                    }) || (second.is_empty() && fresh);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }

    fn print_lines(
        &mut self,
        module: &Module,
        f: &Function,
        lines: &[Line],
        source_line: &dyn Fn(usize) -> usize,
    ) {
        let mut text = String::new();
        for line in lines {
            text.clear();
            line_text(module, f, line, &mut text);
            let attached = f.comments.get(line.anchor);
            let inner = attached.map_or(&[][..], |a| &a.inner[..]);
            let mut placed = Vec::new();
            if let (Some(width), Anchor::Stmt(s)) = (self.width, line.anchor) {
                // Test directives stay above: their offsets name lines.
                let placeable: Vec<bool> = inner
                    .iter()
                    .map(|c| !is_directive(&c.comment.text))
                    .collect();
                if let Some((wrapped, p)) = super::layout::fit_statement(
                    module,
                    f,
                    s,
                    &text,
                    2 * line.depth,
                    width,
                    inner,
                    &placeable,
                ) {
                    text = wrapped;
                    placed = p;
                }
            }
            let source = if self.tracking.is_some() {
                let last = line.end.saturating_sub(1).max(line.start);
                (source_line(line.start), source_line(last))
            } else {
                (1, 0)
            };
            self.code_line(line, source, &text, attached, &placed);
        }
    }
}

/// The text of one printed line.
fn line_text(m: &Module, f: &Function, line: &Line, out: &mut String) {
    match line.anchor {
        Anchor::Head => out.push_str(&crate::printer::function_head(f)),
        Anchor::Stmt(s) => stmt_head_into(m, f, s, out),
        Anchor::Close(_) => out.push('}'),
        Anchor::Else(s) => {
            out.push_str("} else ");
            let next = match f.stmts[s].kind {
                StmtKind::If(i) => f.ifs[i].else_body.as_ref().and_then(|b| else_if(f, b)),
                _ => None,
            };
            match next.map(|n| f.stmts[n].kind) {
                Some(StmtKind::If(i)) => {
                    out.push_str("if ");
                    crate::printer::expr::write_expr(m, f, f.ifs[i].cond, out);
                    out.push_str(" {");
                }
                _ => out.push('{'),
            }
        }
    }
}
