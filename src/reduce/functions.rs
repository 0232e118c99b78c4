//! Removing functions.
//!
//! The elements are the module's functions. The module is rebuilt without
//! the removed ones and every call and `submit` is renumbered; one that
//! names a removed function keeps its name unresolved, so the candidate
//! does not read back and is not tried.

use crate::ir::{ArenaId, Callee, FuncId, Function, Module};

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
