//! Unwrapping loops, `if`s and scopes into their bodies.
//!
//! The elements are, in source order, every `for`, `while` and scope, and
//! every branch of every `if` (its `then`, then its `else`). The statement
//! is replaced by its body (or the branch) in the enclosing block: a
//! `for`'s variable is bound to the loop's start, iter-args to their
//! initial values, and the results to the values of the body's trailing
//! `yield`, which goes. A `while` runs its body once.

use super::edit::{assign, picked, splice, statements};
use crate::ir::walk::Site;
use crate::ir::{Block, ExprId, Function, IterArg, Module, StmtId, StmtKind, VarId};

/// A statement to unwrap and the block of it to keep.
fn elements(m: &Module) -> Vec<(usize, StmtId, Site, u8)> {
    let mut out = Vec::new();
    for (i, f) in m.functions().iter().enumerate() {
        for (s, site) in statements(f) {
            match f.stmts[s].kind {
                StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_) => {
                    out.push((i, s, site, 0))
                }
                StmtKind::If(id) => {
                    out.push((i, s, site, 0));
                    if f.ifs[id].else_body.is_some() {
                        out.push((i, s, site, 1));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    elements(m).len()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let elements = elements(m);
    let mut picked: Vec<_> = picked(&elements, chosen).copied().collect();
    // One branch per `if` (the first chosen).
    picked.dedup_by_key(|e| (e.0, e.1));
    // Inner statements first, so that each site's block is still there.
    for (i, s, site, which) in picked.into_iter().rev() {
        unwrap(&mut m.functions_mut()[i], s, site, which);
    }
}

fn unwrap(f: &mut Function, s: StmtId, site: Site, which: u8) {
    let kind = f.stmts[s].kind;
    let Some(&body) = f.nested_block(&kind, which) else {
        return;
    };
    let mut with = Vec::new();
    let bind = |f: &mut Function, with: &mut Vec<StmtId>, var: VarId, value: ExprId| {
        with.push(assign(f, &[var], value));
    };
    let (args, results): (Vec<IterArg>, Vec<VarId>) = match kind {
        StmtKind::For(l) => {
            let (var, start) = (f.fors[l].var, f.fors[l].start);
            bind(f, &mut with, var, start);
            (f.iter_args(&kind).to_vec(), f.results(&kind).to_vec())
        }
        StmtKind::While(_) | StmtKind::If(_) => {
            (f.iter_args(&kind).to_vec(), f.results(&kind).to_vec())
        }
        _ => (Vec::new(), Vec::new()),
    };
    for a in &args {
        bind(f, &mut with, a.var, a.init);
    }
    with.extend(body_with_results(f, &body, &results));
    splice(f, site, s, &with);
}

/// The statements of `body`, its trailing `yield` replaced by bindings of
/// `results` to the yielded values.
fn body_with_results(f: &mut Function, body: &Block, results: &[VarId]) -> Vec<StmtId> {
    let mut stmts = f.block_stmts(body).to_vec();
    if let Some(&last) = stmts.last()
        && let StmtKind::Yield(values) = f.stmts[last].kind
    {
        stmts.pop();
        let values = f.list(values).to_vec();
        for (&r, &v) in results.iter().zip(&values) {
            stmts.push(assign(f, &[r], v));
        }
    }
    stmts
}
