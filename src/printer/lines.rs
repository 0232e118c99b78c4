//! The printed lines of a function, in output order: the one walk the
//! canonical printer ([`super::stmt`]), the output-size count and the
//! formatter (`crate::format`: comment attachment and printing) share.
//!
//! [`Lines`] yields the header, each statement (or statement head, up to
//! its `{`), the `} else {` / `} else if c {` lines and the closing braces,
//! with an explicit work stack: nesting depth costs heap, not stack. Each
//! [`Line`] carries the byte range of the source it was read from, so that
//! comments can be attached to it by position and `expected-*@+N` offsets
//! mapped. [`line_text`] writes a line's text.

use super::expr::write_expr;
use crate::ir::if_chain::{ElseArm, else_if, if_chain};
use crate::ir::{Anchor, Block, Function, Module, StmtId, StmtKind};

/// One printed line.
#[derive(Copy, Clone, Debug)]
pub struct Line {
    pub anchor: Anchor,
    /// Indentation level of the line itself.
    pub depth: usize,
    /// The source bytes it was read from: `start..end`.
    pub start: usize,
    pub end: usize,
}

enum Work<'ir> {
    /// The statements of a block from position `next` on, at `depth`.
    Block {
        stmts: &'ir [StmtId],
        next: usize,
        depth: usize,
    },
    Line(Line),
}

/// The byte just past a block's `{`, and the offset of its `}`.
fn open_end(b: &Block) -> usize {
    b.span.start() + 1
}
fn close_start(b: &Block) -> usize {
    b.span.end().saturating_sub(1)
}

/// An iterator over printed lines (see the module documentation).
pub struct Lines<'ir> {
    f: &'ir Function,
    work: Vec<Work<'ir>>,
}

impl<'ir> Lines<'ir> {
    /// Every line of `f`: its header, its body and its closing `}`.
    pub fn of(f: &'ir Function) -> Lines<'ir> {
        let head = Line {
            anchor: Anchor::Head,
            depth: 0,
            start: f.span.start(),
            end: open_end(&f.body).max(f.span.start()),
        };
        let close = Line {
            anchor: Anchor::Close(None),
            depth: 0,
            start: close_start(&f.body),
            end: f.body.span.end(),
        };
        let mut lines = Lines::of_stmts(f, f.block_stmts(&f.body), 1);
        lines.work.insert(0, Work::Line(close));
        lines.work.push(Work::Line(head));
        lines
    }

    /// The lines of `stmts` (a block, or part of one) at `depth`, with the
    /// blocks they hold.
    pub fn of_stmts(f: &'ir Function, stmts: &'ir [StmtId], depth: usize) -> Lines<'ir> {
        Lines {
            f,
            work: vec![Work::Block {
                stmts,
                next: 0,
                depth,
            }],
        }
    }

    /// When the next line is the first of a block of at least `min`
    /// statements, takes that block out of the walk and returns its
    /// statements and depth (the printer prints it in two halves).
    pub fn take_long_block(&mut self, min: usize) -> Option<(&'ir [StmtId], usize)> {
        match self.work.last() {
            Some(&Work::Block {
                stmts,
                next: 0,
                depth,
            }) if stmts.len() >= min => {
                self.work.pop();
                Some((stmts, depth))
            }
            _ => None,
        }
    }

    /// Queues what statement `s` (whose line is `line`) nests: an `if`
    /// chain's branches, or a loop's or scope's body and its `}`.
    fn push_nested(&mut self, s: StmtId, depth: usize) {
        let f = self.f;
        match &f.stmts[s].kind {
            StmtKind::If(_) => self.push_if_chain(s, depth),
            kind @ (StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_)) => {
                if let Some(body) = f.nested_block(kind, 0) {
                    self.work.push(Work::Line(Line {
                        anchor: Anchor::Close(Some(s)),
                        depth,
                        start: close_start(body),
                        end: body.span.end(),
                    }));
                    self.work.push(Work::Block {
                        stmts: f.block_stmts(body),
                        next: 0,
                        depth: depth + 1,
                    });
                }
            }
            _ => {}
        }
    }

    /// Queues the bodies of the `if` chain starting at `s` (whose head is
    /// yielded): `then` bodies, `} else` lines, the final block and `}`.
    fn push_if_chain(&mut self, s: StmtId, depth: usize) {
        let f = self.f;
        let from = self.work.len();
        let mut last_close = None;
        for link in if_chain(f, s) {
            let then_body = link.then_body;
            self.work.push(Work::Block {
                stmts: f.block_stmts(then_body),
                next: 0,
                depth: depth + 1,
            });
            let start = close_start(then_body);
            match link.else_arm {
                ElseArm::None => last_close = Some(then_body),
                ElseArm::ElseIf(next) => {
                    let end = match &f.stmts[next].kind {
                        StmtKind::If(i) => open_end(&f.ifs[*i].then_body),
                        _ => start,
                    };
                    self.work.push(Work::Line(Line {
                        anchor: Anchor::Else(link.stmt),
                        depth,
                        start,
                        end: end.max(start),
                    }));
                }
                ElseArm::Else(else_body) => {
                    self.work.push(Work::Line(Line {
                        anchor: Anchor::Else(link.stmt),
                        depth,
                        start,
                        end: open_end(else_body).max(start),
                    }));
                    self.work.push(Work::Block {
                        stmts: f.block_stmts(else_body),
                        next: 0,
                        depth: depth + 1,
                    });
                    last_close = Some(else_body);
                }
            }
        }
        let (start, end) = last_close.map_or((0, 0), |b| (close_start(b), b.span.end()));
        self.work.push(Work::Line(Line {
            anchor: Anchor::Close(Some(s)),
            depth,
            start,
            end,
        }));
        // Queued in output order; the stack pops the last first.
        self.work[from..].reverse();
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        let f = self.f;
        loop {
            match self.work.pop()? {
                Work::Line(line) => return Some(line),
                Work::Block { stmts, next, depth } => {
                    let Some(&s) = stmts.get(next) else {
                        continue;
                    };
                    self.work.push(Work::Block {
                        stmts,
                        next: next + 1,
                        depth,
                    });
                    let stmt = &f.stmts[s];
                    let start = stmt.span.start();
                    let end = match &stmt.kind {
                        StmtKind::If(i) => open_end(&f.ifs[*i].then_body),
                        kind @ (StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_)) => {
                            f.nested_block(kind, 0).map_or(stmt.span.end(), open_end)
                        }
                        _ => stmt.span.end(),
                    };
                    self.push_nested(s, depth);
                    return Some(Line {
                        anchor: Anchor::Stmt(s),
                        depth,
                        start,
                        end: end.max(start),
                    });
                }
            }
        }
    }
}

/// Appends the text of `line` (a line of `f`) to `out`, as the canonical
/// printer writes it.
pub fn line_text(m: &Module, f: &Function, line: &Line, out: &mut String) {
    match line.anchor {
        Anchor::Head => super::write_function_head(f, out),
        Anchor::Stmt(s) => super::stmt::stmt_head_into(m, f, s, out),
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
                    write_expr(m, f, f.ifs[i].cond, out);
                    out.push_str(" {");
                }
                _ => out.push('{'),
            }
        }
    }
}
