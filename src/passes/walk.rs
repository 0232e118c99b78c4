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
                if s.index() >= f.stmts.len() {
                    // A dangling id (only hand-built IR has them): nothing to descend into.
                    exit(s);
                    continue;
                }
                let kind: &'a StmtKind = &f.stmts[s].kind;
                let (then_body, else_body) = (nested_block(f, kind, 0), nested_block(f, kind, 1));
                if then_body.is_none() && else_body.is_none() {
                    // Nothing nested (most statements): no frame to push.
                    exit(s);
                    continue;
                }
                stack.push(Frame::Exit(s));
                for (which, b) in [(1u8, else_body), (0, then_body)] {
                    if let Some(b) = b {
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
    for_each_own_expr(f, kind, |e| out.push(e));
}

/// Calls `visit` on each expression a statement holds itself, in source
/// order (the order of [`own_exprs`], without collecting them).
#[inline]
pub fn for_each_own_expr(f: &Function, kind: &StmtKind, mut visit: impl FnMut(ExprId)) {
    match *kind {
        StmtKind::Assign { value, .. } => visit(value),
        StmtKind::Submit(s) => {
            let s = &f.submits[s];
            f.list(s.args).iter().for_each(|&e| visit(e));
            f.list(s.deps).iter().for_each(|&e| visit(e));
            for e in [s.core_num, s.sync_start, s.allow_early_resolve, s.predicate]
                .into_iter()
                .flatten()
            {
                visit(e);
            }
            f.list(s.rejected_kwargs)
                .iter()
                .for_each(|k| visit(k.value));
        }
        StmtKind::Eval(e) => visit(e),
        StmtKind::For(l) => {
            let l = &f.fors[l];
            visit(l.start);
            visit(l.stop);
            visit(l.step);
            f.list(l.extra_bounds).iter().for_each(|&e| visit(e));
            f.list(l.iter_args).iter().for_each(|a| visit(a.init));
        }
        StmtKind::While(w) => {
            let w = &f.whiles[w];
            f.list(w.iter_args).iter().for_each(|a| visit(a.init));
            visit(w.cond);
        }
        StmtKind::If(i) => visit(f.ifs[i].cond),
        StmtKind::Yield(es) | StmtKind::Return(es) => f.list(es).iter().for_each(|&e| visit(e)),
        StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {}
    }
}

/// The direct operands of an expression node.
pub fn expr_children(f: &Function, kind: &ExprKind, out: &mut Vec<ExprId>) {
    for_each_child(f, kind, |e| out.push(e));
}

/// Calls `visit` on each direct operand of an expression node, in the
/// order of [`expr_children`].
#[inline]
pub fn for_each_child(f: &Function, kind: &ExprKind, mut visit: impl FnMut(ExprId)) {
    match *kind {
        ExprKind::Unary(_, a) => visit(a),
        ExprKind::Binary(_, a, b) => {
            visit(a);
            visit(b);
        }
        ExprKind::Call(c) => {
            let c = &f.calls[c];
            f.list(c.args).iter().for_each(|&e| visit(e));
            f.list(c.kwargs).iter().for_each(|k| visit(k.value));
            f.list(c.manual_dep_edges).iter().for_each(|&e| visit(e));
        }
        ExprKind::List(es) => f.list(es).iter().for_each(|&e| visit(e)),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Dtype(_)
        | ExprKind::Var(_)
        | ExprKind::Unresolved(_) => {}
    }
}

/// Whether an expression node has no operands (a literal or a variable).
#[inline]
pub fn is_leaf(kind: &ExprKind) -> bool {
    !matches!(
        kind,
        ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Call(_) | ExprKind::List(_)
    )
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
        let kind = &f.exprs[e].kind;
        if is_leaf(kind) {
            continue;
        }
        let before = work.len();
        for_each_child(f, kind, |k| work.push(k));
        work[before..].reverse();
    }
}
