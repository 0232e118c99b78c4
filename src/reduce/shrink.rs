//! Shrinking integer constants and the extents of types.
//!
//! Constants: the elements are the integer literals the functions reach
//! whose value is not 0 or 1, in source order; each becomes 1 (a positive
//! one: trip counts and sizes stay non-empty) or 0. Extents: the elements
//! are the array and tensor types with a literal extent above 1, per
//! function in order of first use; every such extent becomes 1 wherever
//! the function uses the type (shapes are not compared between functions,
//! spec section 6).

use super::edit::{count_per_function, edit_per_function, reachable_exprs};
use crate::ir::{ExprId, ExprKind, Extent, Function, I64, Module, Type, TypeId};
use hashbrown::HashMap;

fn literals(f: &Function) -> Vec<ExprId> {
    reachable_exprs(
        f,
        |k| matches!(k, ExprKind::Int(n) if !matches!(n.get(), 0 | 1)),
    )
}

pub fn count_constants(m: &Module) -> usize {
    count_per_function(m, literals)
}

pub fn apply_constants(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, literals, |f, picked| {
        for e in picked {
            if let ExprKind::Int(n) = f.exprs[e].kind {
                let small = if n.get() > 1 { 1 } else { 0 };
                f.exprs[e].kind = ExprKind::Int(I64::new(small));
            }
        }
    });
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
    count_per_function(m, shrinkable)
}

pub fn apply_extents(m: &mut Module, chosen: &[bool]) {
    let positions = |f: &Function| (0..shrinkable(f).len()).collect::<Vec<usize>>();
    edit_per_function(m, chosen, positions, |f, positions| {
        let types = shrinkable(f);
        let picked: Vec<&Type> = positions.iter().map(|&i| &types[i]).collect();
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
    });
}
