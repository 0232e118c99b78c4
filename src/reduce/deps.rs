//! Removing `deps=[...]` entries (of `submit` and of
//! `system.task_dummy` barriers) and the optional keyword arguments of
//! `submit` (`core_num`, `sync_start`, `allow_early_resolve`, the
//! predicate).
//!
//! The elements are, in source order, every entry of every `submit`'s
//! `deps` list, then every optional keyword argument written; then every
//! entry of every barrier's `deps` list.

use super::edit::{picked, reachable_exprs, statements, without};
use crate::ir::{CallId, ExprKind, Function, Module, StmtKind, SubmitId};

/// What one element is: a `deps` entry of a `submit` (its position), a
/// keyword argument (0 to 3, in [`crate::ir::Submit`]'s field order), or
/// a `deps` entry of a barrier.
#[derive(Clone, Copy)]
enum Element {
    Dep(usize, SubmitId, usize),
    Kwarg(usize, SubmitId, u8),
    Barrier(usize, CallId, usize),
}

/// The `system.task_dummy` calls of `f` with `deps` entries, in source order.
fn barriers(f: &Function) -> Vec<CallId> {
    reachable_exprs(f, |k| matches!(k, ExprKind::Call(_)))
        .into_iter()
        .filter_map(|e| match f.exprs[e].kind {
            ExprKind::Call(c) if f.calls[c].dummy_task => Some(c),
            _ => None,
        })
        .collect()
}

fn elements(m: &Module) -> Vec<Element> {
    let mut out = Vec::new();
    for (i, f) in m.functions().iter().enumerate() {
        for (s, _) in statements(f) {
            if let StmtKind::Submit(id) = f.stmts[s].kind {
                let sub = &f.submits[id];
                out.extend((0..f.list(sub.deps).len()).map(|k| Element::Dep(i, id, k)));
                let kwargs = [
                    sub.core_num,
                    sub.sync_start,
                    sub.allow_early_resolve,
                    sub.predicate,
                ];
                for (k, value) in kwargs.iter().enumerate() {
                    if value.is_some() {
                        out.push(Element::Kwarg(i, id, k as u8));
                    }
                }
            }
        }
        for c in barriers(f) {
            let n = f.list(f.calls[c].manual_dep_edges).len();
            out.extend((0..n).map(|k| Element::Barrier(i, c, k)));
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    elements(m).len()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let elements = elements(m);
    let mut drops: Vec<(usize, SubmitId, Vec<usize>)> = Vec::new();
    let mut barrier_drops: Vec<(usize, CallId, Vec<usize>)> = Vec::new();
    for e in picked(&elements, chosen) {
        match *e {
            Element::Dep(i, id, k) => match drops.last_mut() {
                Some((j, last, ks)) if *j == i && *last == id => ks.push(k),
                _ => drops.push((i, id, vec![k])),
            },
            Element::Barrier(i, c, k) => match barrier_drops.last_mut() {
                Some((j, last, ks)) if *j == i && *last == c => ks.push(k),
                _ => barrier_drops.push((i, c, vec![k])),
            },
            Element::Kwarg(i, id, k) => {
                let sub = &mut m.functions_mut()[i].submits[id];
                match k {
                    0 => sub.core_num = None,
                    1 => sub.sync_start = None,
                    2 => sub.allow_early_resolve = None,
                    _ => sub.predicate = None,
                }
            }
        }
    }
    for (i, id, ks) in drops {
        let f = &mut m.functions_mut()[i];
        let kept = without(f.list(f.submits[id].deps), &ks);
        let deps = f.replace_list(f.submits[id].deps, &kept);
        f.submits[id].deps = deps;
    }
    for (i, c, ks) in barrier_drops {
        let f = &mut m.functions_mut()[i];
        let kept = without(f.list(f.calls[c].manual_dep_edges), &ks);
        let deps = f.replace_list(f.calls[c].manual_dep_edges, &kept);
        f.calls[c].manual_dep_edges = deps;
    }
}
