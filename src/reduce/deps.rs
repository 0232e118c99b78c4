//! Removing `deps=[...]` entries and the optional keyword arguments of
//! `submit` (`core_num`, `sync_start`, `allow_early_resolve`, the
//! predicate).
//!
//! The elements are, in source order, every entry of every `submit`'s
//! `deps` list, then every optional keyword argument written.

use super::edit::{picked, statements};
use crate::ir::{Module, StmtKind, SubmitId};

/// What one element is: a `deps` entry (its position) or a keyword
/// argument (0 to 3, in [`crate::ir::Submit`]'s field order).
#[derive(Clone, Copy)]
enum Element {
    Dep(usize, SubmitId, usize),
    Kwarg(usize, SubmitId, u8),
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
    }
    out
}

pub fn count(m: &Module) -> usize {
    elements(m).len()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let elements = elements(m);
    let mut drops: Vec<(usize, SubmitId, Vec<usize>)> = Vec::new();
    for e in picked(&elements, chosen) {
        match *e {
            Element::Dep(i, id, k) => match drops.last_mut() {
                Some((j, last, ks)) if *j == i && *last == id => ks.push(k),
                _ => drops.push((i, id, vec![k])),
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
        let deps = f.submits[id].deps;
        let kept: Vec<_> = f
            .list(deps)
            .iter()
            .enumerate()
            .filter(|(k, _)| !ks.contains(k))
            .map(|(_, &e)| e)
            .collect();
        let new = f.replace_list(deps, &kept);
        f.submits[id].deps = new;
    }
}
