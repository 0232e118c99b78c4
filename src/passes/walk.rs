//! Iterative traversals of a function's statements and expressions.
//!
//! IR nesting can be 200,000 levels deep, so nothing here recurses: the
//! statement walk keeps an explicit stack of blocks, the expression walk an
//! explicit work list. Every node is visited once, so each walk is linear in
//! the size of the function.

use crate::ir::{ArenaId, Block, ExprId, ExprKind, Function, StmtId, StmtKind};

/// Where a statement stands: the statement whose block holds it (`None` for
/// the function body), which of that statement's blocks (0 = the body or the
/// `then` branch, 1 = the `else` branch) and its index in the block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    pub owner: Option<StmtId>,
    pub block: u8,
    pub index: usize,
}

/// The block a [`Site`] points into.
pub fn block_of(f: &Function, owner: Option<StmtId>, which: u8) -> &Block {
    match owner {
        None => &f.body,
        Some(s) => nested_block(f, &f.stmts[s].kind, which).expect("site names a block"),
    }
}

/// The block a [`Site`] points into, mutably.
pub fn block_of_mut(f: &mut Function, owner: Option<StmtId>, which: u8) -> &mut Block {
    match owner {
        None => &mut f.body,
        Some(s) => {
            let kind = f.stmts[s].kind;
            f.nested_block_mut(&kind, which)
                .expect("site names a block")
        }
    }
}

/// Block number `which` of a statement (see [`Site::block`]).
pub fn nested_block<'f>(f: &'f Function, kind: &StmtKind, which: u8) -> Option<&'f Block> {
    f.nested_block(kind, which)
}

enum Frame<'a> {
    Block {
        owner: Option<StmtId>,
        which: u8,
        stmts: &'a [StmtId],
        next: usize,
    },
    Exit(StmtId),
}

/// Walks every statement reachable from the function body in source
/// (pre-)order. `enter` sees a statement before anything nested in it,
/// `exit` after everything nested in it.
pub fn walk_stmts<'a>(
    f: &'a Function,
    mut enter: impl FnMut(StmtId, Site),
    mut exit: impl FnMut(StmtId),
) {
    let mut stack = vec![Frame::Block {
        owner: None,
        which: 0,
        stmts: f.block_stmts(&f.body),
        next: 0,
    }];
    while let Some(top) = stack.last_mut() {
        match top {
            Frame::Block {
                owner,
                which,
                stmts,
                next,
            } => {
                let Some(&s) = stmts.get(*next) else {
                    stack.pop();
                    continue;
                };
                let site = Site {
                    owner: *owner,
                    block: *which,
                    index: *next,
                };
                *next += 1;
                enter(s, site);
                stack.push(Frame::Exit(s));
                if s.index() >= f.stmts.len() {
                    // A dangling id (only hand-built IR has them): nothing to descend into.
                    continue;
                }
                let kind: &'a StmtKind = &f.stmts[s].kind;
                for which in [1u8, 0] {
                    if let Some(b) = nested_block(f, kind, which) {
                        stack.push(Frame::Block {
                            owner: Some(s),
                            which,
                            stmts: f.block_stmts(b),
                            next: 0,
                        });
                    }
                }
            }
            Frame::Exit(s) => {
                let s = *s;
                stack.pop();
                exit(s);
            }
        }
    }
}

/// The expressions a statement holds itself (not those of nested statements),
/// in source order.
pub fn own_exprs(f: &Function, kind: &StmtKind, out: &mut Vec<ExprId>) {
    match *kind {
        StmtKind::Assign { value, .. } => out.push(value),
        StmtKind::Submit(s) => {
            let s = &f.submits[s];
            out.extend(f.list(s.args));
            out.extend(f.list(s.deps));
            out.extend(s.core_num);
            out.extend(s.sync_start);
            out.extend(s.allow_early_resolve);
            out.extend(s.predicate);
        }
        StmtKind::Eval(e) => out.push(e),
        StmtKind::For(l) => {
            let l = &f.fors[l];
            out.extend([l.start, l.stop, l.step]);
            out.extend(f.list(l.iter_args).iter().map(|a| a.init));
        }
        StmtKind::While(w) => {
            let w = &f.whiles[w];
            out.extend(f.list(w.iter_args).iter().map(|a| a.init));
            out.push(w.cond);
        }
        StmtKind::If(i) => out.push(f.ifs[i].cond),
        StmtKind::Yield(es) | StmtKind::Return(es) => out.extend(f.list(es)),
        StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {}
    }
}

/// The direct operands of an expression node.
pub fn expr_children(f: &Function, kind: &ExprKind, out: &mut Vec<ExprId>) {
    match *kind {
        ExprKind::Unary(_, a) => out.push(a),
        ExprKind::Binary(_, a, b) => out.extend([a, b]),
        ExprKind::Call(c) => {
            let c = &f.calls[c];
            out.extend(f.list(c.args));
            out.extend(f.list(c.kwargs).iter().map(|k| k.value));
            out.extend(f.list(c.manual_dep_edges));
        }
        ExprKind::List(es) => out.extend(f.list(es)),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Dtype(_)
        | ExprKind::Var(_) => {}
    }
}

/// Visits every node of the expression tree under `root` (pre-order).
/// `work` is scratch space, reused across calls to avoid allocation.
pub fn for_each_expr(
    f: &Function,
    root: ExprId,
    work: &mut Vec<ExprId>,
    mut visit: impl FnMut(ExprId),
) {
    work.clear();
    work.push(root);
    while let Some(e) = work.pop() {
        visit(e);
        let before = work.len();
        expr_children(f, &f.exprs[e].kind, work);
        work[before..].reverse();
    }
}
