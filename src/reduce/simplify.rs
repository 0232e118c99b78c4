//! Replacing expressions with simpler ones.
//!
//! The elements are the unary and binary operations the functions reach,
//! in source order; each is replaced by its first operand (`-x` by `x`,
//! `i + 1` by `i`). A replacement of another type makes the candidate
//! invalid, and it is not tried.

use super::edit::{count_per_function, edit_per_function, reachable_exprs};
use crate::ir::{ExprId, ExprKind, Function, Module};

fn operations(f: &Function) -> Vec<ExprId> {
    reachable_exprs(f, |k| {
        matches!(k, ExprKind::Unary(..) | ExprKind::Binary(..))
    })
}

pub fn count(m: &Module) -> usize {
    count_per_function(m, operations)
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, operations, |f, picked| {
        // Innermost first (pre-order reversed), so that an outer operation
        // takes its operand as already simplified.
        for &e in picked.iter().rev() {
            let operand = match f.exprs[e].kind {
                ExprKind::Unary(_, a) | ExprKind::Binary(_, a, _) => a,
                _ => continue,
            };
            f.exprs[e].kind = f.exprs[operand].kind;
            f.exprs[e].ty = f.exprs[operand].ty;
        }
    });
}
