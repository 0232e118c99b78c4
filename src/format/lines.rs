//! The printed lines of a function, in order, with the source they came from.
//!
//! [`walk`] visits exactly the lines the canonical printer writes (the
//! header, each statement or statement head, `} else {` lines and closing
//! braces), in output order, with an explicit work stack (nesting depth
//! costs heap, not stack). Each [`Line`] carries the byte range of the
//! source it was read from, so comments can be attached to it by position
//! ([`super::attach`]) and `expected-*@+N` offsets mapped ([`super::offsets`]).

use crate::ir::if_chain::{ElseArm, if_chain};
use crate::ir::{Anchor, Block, Function, StmtId, StmtKind};

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
    Block {
        stmts: &'ir [StmtId],
        next: usize,
        depth: usize,
    },
    Line(Line),
}

pub use crate::ir::if_chain::else_if;

/// The byte just past a block's `{`, and the offset of its `}`.
fn open_end(b: &Block) -> usize {
    b.span.start() + 1
}
fn close_start(b: &Block) -> usize {
    b.span.end().saturating_sub(1)
}

/// Calls `visit` for every printed line of `f`, in output order.
pub fn walk(f: &Function, mut visit: impl FnMut(Line)) {
    visit(Line {
        anchor: Anchor::Head,
        depth: 0,
        start: f.span.start(),
        end: open_end(&f.body).max(f.span.start()),
    });
    let mut work = vec![
        Work::Line(Line {
            anchor: Anchor::Close(None),
            depth: 0,
            start: close_start(&f.body),
            end: f.body.span.end(),
        }),
        Work::Block {
            stmts: f.block_stmts(&f.body),
            next: 0,
            depth: 1,
        },
    ];
    while let Some(item) = work.pop() {
        match item {
            Work::Line(line) => visit(line),
            Work::Block { stmts, next, depth } => {
                let Some(&s) = stmts.get(next) else {
                    continue;
                };
                work.push(Work::Block {
                    stmts,
                    next: next + 1,
                    depth,
                });
                let stmt = &f.stmts[s];
                let start = stmt.span.start();
                match &stmt.kind {
                    StmtKind::If(i) => {
                        visit(Line {
                            anchor: Anchor::Stmt(s),
                            depth,
                            start,
                            end: open_end(&f.ifs[*i].then_body).max(start),
                        });
                        push_if_chain(f, s, depth, &mut work);
                    }
                    kind @ (StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_)) => {
                        let body = f.nested_block(kind, 0).expect("a loop or scope has a body");
                        visit(Line {
                            anchor: Anchor::Stmt(s),
                            depth,
                            start,
                            end: open_end(body).max(start),
                        });
                        work.push(Work::Line(Line {
                            anchor: Anchor::Close(Some(s)),
                            depth,
                            start: close_start(body),
                            end: body.span.end(),
                        }));
                        work.push(Work::Block {
                            stmts: f.block_stmts(body),
                            next: 0,
                            depth: depth + 1,
                        });
                    }
                    _ => visit(Line {
                        anchor: Anchor::Stmt(s),
                        depth,
                        start,
                        end: stmt.span.end().max(start),
                    }),
                }
            }
        }
    }
}

/// Queues the bodies of the `if` chain starting at `s` (whose head is
/// visited): `then` bodies, `} else` lines, the final block and `}`.
fn push_if_chain<'ir>(f: &'ir Function, s: StmtId, depth: usize, work: &mut Vec<Work<'ir>>) {
    let mut items = Vec::new();
    let mut last_close = None;
    for link in if_chain(f, s) {
        let then_body = link.then_body;
        items.push(Work::Block {
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
                items.push(Work::Line(Line {
                    anchor: Anchor::Else(link.stmt),
                    depth,
                    start,
                    end: end.max(start),
                }));
            }
            ElseArm::Else(else_body) => {
                items.push(Work::Line(Line {
                    anchor: Anchor::Else(link.stmt),
                    depth,
                    start,
                    end: open_end(else_body).max(start),
                }));
                items.push(Work::Block {
                    stmts: f.block_stmts(else_body),
                    next: 0,
                    depth: depth + 1,
                });
                last_close = Some(else_body);
            }
        }
    }
    let (start, end) = last_close.map_or((0, 0), |b| (close_start(b), b.span.end()));
    items.push(Work::Line(Line {
        anchor: Anchor::Close(Some(s)),
        depth,
        start,
        end,
    }));
    work.extend(items.into_iter().rev());
}
