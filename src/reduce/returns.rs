//! Replacing `return` values with simpler values of the same type, so that
//! the statements that computed them can go.
//!
//! The elements are the values of the `return`s the functions reach, in
//! source order, that are not already the simplest value of their type:
//! a task id becomes `system.task_invalid()`, an integer `0`, a float
//! `0.0`, a `bool` `false`. Values of other types (arrays, tensors) are
//! left as they are. The statements that computed the old value go with
//! it when nothing else uses what they define.

use super::edit::{count_per_function, edit_per_function, own_uses, remove_statements, statements};
use crate::ir::builder::Builder;
use crate::ir::{
    BuiltinOp, ExprId, ExprKind, F64, Function, I64, Module, ScalarType, StmtKind, Type, VarId,
};
use hashbrown::{HashMap, HashSet};

/// Whether `ty` has a simplest value (see [`simplest`]).
fn has_simplest(ty: &Type) -> bool {
    matches!(ty, Type::Scalar(_))
}

/// The simplest value of the type of `e`, made in `f`.
fn simplest(f: &mut Function, e: ExprId) -> ExprKind {
    match f.ty(e) {
        Type::Scalar(s) if s.is_integer() => ExprKind::Int(I64::new(0)),
        Type::Scalar(s) if s.is_float() => ExprKind::Float(F64::new(0.0)),
        Type::Scalar(ScalarType::Bool) => ExprKind::Bool(false),
        _ => {
            let span = f.exprs[e].span;
            let invalid =
                Builder::edit_at(f, span).builtin(BuiltinOp::TaskInvalid, [], Type::TASK_ID);
            f.exprs[invalid].kind
        }
    }
}

/// Whether `e` is already the simplest value of its type.
fn is_simplest(f: &Function, e: ExprId) -> bool {
    match f.exprs[e].kind {
        ExprKind::Int(n) => n.get() == 0,
        ExprKind::Float(x) => x.get() == 0.0,
        ExprKind::Bool(b) => !b,
        ExprKind::Call(c) => f.calls[c].builtin == Some(BuiltinOp::TaskInvalid),
        _ => false,
    }
}

fn values(f: &Function) -> Vec<ExprId> {
    let mut out = Vec::new();
    for (s, _) in statements(f) {
        if let StmtKind::Return(list) = f.stmts[s].kind {
            out.extend(
                f.list(list)
                    .iter()
                    .copied()
                    .filter(|&e| has_simplest(f.ty(e)) && !is_simplest(f, e)),
            );
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    count_per_function(m, values)
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, values, |f, picked| {
        let mut freed = Vec::new();
        let mut work = Vec::new();
        for e in picked {
            own_uses(f, &StmtKind::Eval(e), &mut work, |v| freed.push(v));
            f.exprs[e].kind = simplest(f, e);
        }
        remove_unused_producers(f, freed);
    });
}

/// Removes the statements that defined the variables of `freed` (and,
/// in turn, those that defined what they used) once nothing uses any
/// variable they define; a removed statement takes its nested blocks.
fn remove_unused_producers(f: &mut Function, mut freed: Vec<VarId>) {
    let stmts = statements(f);
    let mut index = HashMap::new();
    let mut children = vec![Vec::new(); stmts.len()];
    let mut uses: HashMap<VarId, usize> = HashMap::new();
    let mut defined_by = HashMap::new();
    let mut work = Vec::new();
    for (i, &(s, site)) in stmts.iter().enumerate() {
        index.insert(s, i);
        if let Some(&o) = site.owner.and_then(|o| index.get(&o)) {
            children[o].push(i);
        }
        let kind = f.stmts[s].kind;
        own_uses(f, &kind, &mut work, |v| *uses.entry(v).or_default() += 1);
        for &r in f.results(&kind) {
            defined_by.insert(r, i);
        }
    }
    let used = |uses: &HashMap<VarId, usize>, v: &VarId| uses.get(v).is_some_and(|&n| n > 0);
    let mut removed = HashSet::new();
    while let Some(v) = freed.pop() {
        let Some(&i) = defined_by.get(&v) else {
            continue;
        };
        let s = stmts[i].0;
        if removed.contains(&s) || f.results(&f.stmts[s].kind).iter().any(|r| used(&uses, r)) {
            continue;
        }
        let mut nested = vec![i];
        while let Some(j) = nested.pop() {
            let s = stmts[j].0;
            if !removed.insert(s) {
                // Already gone (and its uses already uncounted).
                continue;
            }
            let kind = f.stmts[s].kind;
            own_uses(f, &kind, &mut work, |u| {
                if let Some(n) = uses.get_mut(&u) {
                    *n = n.saturating_sub(1);
                }
                freed.push(u);
            });
            nested.extend_from_slice(&children[j]);
        }
    }
    remove_statements(f, &removed);
}
