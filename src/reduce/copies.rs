//! Forwarding copies: `x = y` goes, and every use of `x` reads `y`.
//!
//! The elements are the statements binding one variable to another, in
//! source order. `y` is defined before `x`, in the same block or an
//! enclosing one, so it is in scope wherever `x` is used.

use super::edit::{count_per_function, edit_per_function, remove_statements, statements};
use crate::ir::{ExprKind, Function, Module, StmtId, StmtKind, VarId};
use hashbrown::{HashMap, HashSet};

/// The copies of `f`: the statement, the copy and the original.
fn copies(f: &Function) -> Vec<(StmtId, VarId, VarId)> {
    statements(f)
        .into_iter()
        .filter_map(|(s, _)| match f.stmts[s].kind {
            StmtKind::Assign { results, value } => match (f.list(results), f.exprs[value].kind) {
                (&[x], ExprKind::Var(y)) => Some((s, x, y)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

pub fn count(m: &Module) -> usize {
    count_per_function(m, copies)
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, copies, |f, picked| {
        let mut to: HashMap<VarId, VarId> = HashMap::new();
        for &(_, x, y) in &picked {
            // A copy of a copy reads the first original.
            let y = to.get(&y).copied().unwrap_or(y);
            to.insert(x, y);
        }
        for id in f.exprs.ids() {
            if let ExprKind::Var(v) = f.exprs[id].kind
                && let Some(&y) = to.get(&v)
            {
                f.exprs[id].kind = ExprKind::Var(y);
                f.exprs[id].ty = f.vars[y].ty;
            }
        }
        let removed: HashSet<StmtId> = picked.iter().map(|&(s, _, _)| s).collect();
        remove_statements(f, &removed);
    });
}
