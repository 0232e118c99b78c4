//! Removing functions.
//!
//! The elements are the module's functions. The module is rebuilt without
//! the removed ones and every call and `submit` is renumbered; one that
//! names a removed function keeps its name unresolved, so the candidate
//! does not read back and is not tried.

use crate::ir::{ArenaId, Callee, FuncId, Function, Module, StmtKind, SubmitId};

pub fn count(m: &Module) -> usize {
    m.functions().len()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let mut new_id = Vec::with_capacity(m.functions().len());
    let mut next = 0;
    for i in 0..m.functions().len() {
        if chosen.get(i).copied().unwrap_or(false) {
            new_id.push(None);
        } else {
            new_id.push(Some(FuncId::from_index(next)));
            next += 1;
        }
    }
    let names: Vec<String> = m.functions().iter().map(|f| f.name.clone()).collect();
    let end_comments = std::mem::take(&mut m.end_comments);
    let functions: Vec<Function> = std::mem::take(m)
        .functions_mut()
        .iter_mut()
        .zip(&new_id)
        .filter(|(_, id)| id.is_some())
        .map(|(f, _)| {
            let mut f = std::mem::replace(f, Function::new("", f.kind));
            renumber(&mut f, &new_id, &names);
            f
        })
        .collect();
    *m = Module::new(functions);
    m.end_comments = end_comments;
}

/// Renumbers `f`'s callees after the removal (`new_id[old]`).
pub fn renumber(f: &mut Function, new_id: &[Option<FuncId>], names: &[String]) {
    let map = |callee: Callee, f: &mut Function| match callee {
        Callee::Function(id) => match new_id.get(id.index()).copied().flatten() {
            Some(new) => Callee::Function(new),
            None => Callee::Unresolved(f.names.add(&names[id.index()])),
        },
        other => other,
    };
    let calls: Vec<_> = f.calls.iter().map(|(id, c)| (id, c.callee)).collect();
    for (id, callee) in calls {
        let new = map(callee, f);
        f.calls[id].callee = new;
    }
    let submits: Vec<_> = f.submits.iter().map(|(id, s)| (id, s.callee)).collect();
    for (id, callee) in submits {
        let new = map(callee, f);
        f.submits[id].callee = new;
    }
}

/// The `submit`s of `f` (function `me` of the module) that launch
/// another function, in source order.
fn foreign_submits(f: &Function, me: FuncId) -> Vec<SubmitId> {
    super::edit::statements(f)
        .into_iter()
        .filter_map(|(s, _)| match f.stmts[s].kind {
            StmtKind::Submit(id) => match f.submits[id].callee {
                Callee::Function(callee) if callee != me => Some(id),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The elements of [`apply_callees`]: the `submit`s that launch another
/// function than the one they stand in.
pub fn count_callees(m: &Module) -> usize {
    (0..m.functions().len())
        .map(|i| foreign_submits(&m.functions()[i], FuncId::from_index(i)).len())
        .sum()
}

/// Makes the chosen `submit`s launch the function they stand in (which
/// reads back when its signature fits the arguments and bindings), and
/// removes the functions that no call or `submit` launches any more but
/// did before, so that a kernel that only gave a `submit` its callee
/// goes with it.
pub fn apply_callees(m: &mut Module, chosen: &[bool]) {
    let before = launched(m);
    let mut offset = 0;
    for (i, f) in m.functions_mut().iter_mut().enumerate() {
        let me = FuncId::from_index(i);
        let found = foreign_submits(f, me);
        for (k, id) in found.iter().enumerate() {
            if chosen.get(offset + k).copied().unwrap_or(false) {
                f.submits[*id].callee = Callee::Function(me);
            }
        }
        offset += found.len();
    }
    let after = launched(m);
    let unused: Vec<bool> = before.iter().zip(&after).map(|(&b, &a)| b && !a).collect();
    if unused.contains(&true) {
        apply(m, &unused);
    }
}

/// Which functions of `m` a call or `submit` of the module names.
fn launched(m: &Module) -> Vec<bool> {
    let mut out = vec![false; m.functions().len()];
    let mut mark = |c: Callee| {
        if let Callee::Function(id) = c
            && let Some(slot) = out.get_mut(id.index())
        {
            *slot = true;
        }
    };
    for f in m.functions() {
        f.calls.iter().for_each(|(_, c)| mark(c.callee));
        f.submits.iter().for_each(|(_, s)| mark(s.callee));
    }
    out
}
