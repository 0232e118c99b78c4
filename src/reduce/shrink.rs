//! Shrinking integer constants and the extents of types.
//!
//! Constants: the elements are the integer literals the functions reach
//! whose value is not 0 or 1, in source order; each becomes 1 (a positive
//! one: trip counts and sizes stay non-empty) or 0. Extents: the elements
//! are the array and tensor types with a literal extent above 1, per
//! function in order of first use; every such extent becomes 1 wherever
//! the function uses the type (shapes are not compared between functions,
//! spec section 6).

use super::edit::{picked, statements};
use crate::ir::walk::{for_each_expr, for_each_own_expr};
use crate::ir::{ExprId, ExprKind, Extent, Function, I64, Module, Type, TypeId};
use hashbrown::HashMap;

fn literals(f: &Function) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut work = Vec::new();
    for (s, _) in statements(f) {
        let mut roots = Vec::new();
        for_each_own_expr(f, &f.stmts[s].kind, |e| roots.push(e));
        for root in roots {
            for_each_expr(f, root, &mut work, |e| {
                if let ExprKind::Int(n) = f.exprs[e].kind
                    && !matches!(n.get(), 0 | 1)
                {
                    out.push(e);
                }
            });
        }
    }
    out
}

pub fn count_constants(m: &Module) -> usize {
    m.functions().iter().map(|f| literals(f).len()).sum()
}

pub fn apply_constants(m: &mut Module, chosen: &[bool]) {
    let mut offset = 0;
    for f in m.functions_mut() {
        let lits = literals(f);
        let mine = &chosen[offset.min(chosen.len())..(offset + lits.len()).min(chosen.len())];
        offset += lits.len();
        for &e in picked(&lits, mine) {
            if let ExprKind::Int(n) = f.exprs[e].kind {
                let small = if n.get() > 1 { 1 } else { 0 };
                f.exprs[e].kind = ExprKind::Int(I64::new(small));
            }
        }
    }
}

/// `ty` with every literal extent above 1 made 1, if it has one.
fn shrunk(ty: &Type) -> Option<Type> {
    let small = |e: &Extent| match e {
        Extent::Const(n) if *n > 1 => (Extent::Const(1), true),
        other => (other.clone(), false),
    };
    match ty {
        Type::Array { elem, extent } => {
            let (extent, changed) = small(extent);
            changed.then_some(Type::Array {
                elem: *elem,
                extent,
            })
        }
        Type::Tensor { dims, elem } => {
            let dims: Vec<(Extent, bool)> = dims.iter().map(small).collect();
            dims.iter().any(|d| d.1).then(|| Type::Tensor {
                dims: dims.into_iter().map(|d| d.0).collect(),
                elem: *elem,
            })
        }
        _ => None,
    }
}

/// The types of `f` that can shrink, in order of first use (variables,
/// then results).
fn shrinkable(f: &Function) -> Vec<Type> {
    let mut out: Vec<Type> = Vec::new();
    let mut push = |ty: &Type| {
        if shrunk(ty).is_some() && !out.contains(ty) {
            out.push(ty.clone());
        }
    };
    for (_, v) in f.vars.iter() {
        push(&f.types[v.ty]);
    }
    for ty in &f.results {
        push(ty);
    }
    out
}

pub fn count_extents(m: &Module) -> usize {
    m.functions().iter().map(|f| shrinkable(f).len()).sum()
}

pub fn apply_extents(m: &mut Module, chosen: &[bool]) {
    let mut offset = 0;
    for f in m.functions_mut() {
        let types = shrinkable(f);
        let mine = &chosen[offset.min(chosen.len())..(offset + types.len()).min(chosen.len())];
        offset += types.len();
        let picked: Vec<&Type> = picked(&types, mine).collect();
        if picked.is_empty() {
            continue;
        }
        let mut map: HashMap<TypeId, TypeId> = HashMap::new();
        let ids: Vec<TypeId> = f
            .vars
            .iter()
            .map(|(_, v)| v.ty)
            .chain(f.exprs.iter().map(|(_, e)| e.ty))
            .collect();
        for id in ids {
            if map.contains_key(&id) || !picked.contains(&&f.types[id]) {
                continue;
            }
            if let Some(small) = shrunk(&f.types[id]) {
                let new = f.types.intern(small);
                map.insert(id, new);
            }
        }
        for id in f.vars.ids() {
            if let Some(&new) = map.get(&f.vars[id].ty) {
                f.vars[id].ty = new;
            }
        }
        for id in f.exprs.ids() {
            if let Some(&new) = map.get(&f.exprs[id].ty) {
                f.exprs[id].ty = new;
            }
        }
        for ty in f.results.iter_mut() {
            if picked.contains(&&*ty)
                && let Some(small) = shrunk(ty)
            {
                *ty = small;
            }
        }
    }
}
