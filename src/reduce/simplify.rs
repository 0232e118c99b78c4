//! Replacing expressions with simpler ones.
//!
//! The elements are the unary and binary operations the functions reach,
//! in source order; each is replaced by its first operand (`-x` by `x`,
//! `i + 1` by `i`). A replacement of another type makes the candidate
//! invalid, and it is not tried.

use super::edit::{picked, statements};
use crate::ir::walk::{for_each_expr, for_each_own_expr};
use crate::ir::{ExprId, ExprKind, Function, Module};

fn operations(f: &Function) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut work = Vec::new();
    for (s, _) in statements(f) {
        let mut roots = Vec::new();
        for_each_own_expr(f, &f.stmts[s].kind, |e| roots.push(e));
        for root in roots {
            for_each_expr(f, root, &mut work, |e| {
                if matches!(f.exprs[e].kind, ExprKind::Unary(..) | ExprKind::Binary(..)) {
                    out.push(e);
                }
            });
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    m.functions().iter().map(|f| operations(f).len()).sum()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let mut offset = 0;
    for f in m.functions_mut() {
        let ops = operations(f);
        let mine = &chosen[offset.min(chosen.len())..(offset + ops.len()).min(chosen.len())];
        offset += ops.len();
        // Innermost first (pre-order reversed), so that an outer operation
        // takes its operand as already simplified.
        let picked: Vec<ExprId> = picked(&ops, mine).copied().collect();
        for &e in picked.iter().rev() {
            let operand = match f.exprs[e].kind {
                ExprKind::Unary(_, a) | ExprKind::Binary(_, a, _) => a,
                _ => continue,
            };
            f.exprs[e].kind = f.exprs[operand].kind;
            f.exprs[e].ty = f.exprs[operand].ty;
        }
    }
}
