//! Renaming to short names.
//!
//! Variables: one element per function; its variables are renamed `v0`,
//! `v1`, ... in order of definition. Functions: one element per function,
//! renamed `f0`, `f1`, ... by position. Named scopes (`manual "x"`): one
//! element each, the name dropped. A name that is already short enough
//! gives a candidate no smaller, which is not tried.

use super::edit::{count_per_function, edit_per_function, statements};
use crate::ir::{Function, Module, StmtKind};

pub fn count_variables(m: &Module) -> usize {
    m.functions().len()
}

pub fn apply_variables(m: &mut Module, chosen: &[bool]) {
    for (f, _) in m
        .functions_mut()
        .iter_mut()
        .zip(chosen)
        .filter(|(_, c)| **c)
    {
        let ids: Vec<_> = f.vars.ids().collect();
        for (n, id) in ids.into_iter().enumerate() {
            f.vars[id].name = f.names.add(&format!("v{n}"));
        }
    }
}

pub fn count_functions(m: &Module) -> usize {
    m.functions().len()
}

pub fn apply_functions(m: &mut Module, chosen: &[bool]) {
    let end_comments = std::mem::take(&mut m.end_comments);
    let mut functions: Vec<Function> = m.functions().to_vec();
    let taken: Vec<String> = functions.iter().map(|f| f.name.clone()).collect();
    for (i, f) in functions.iter_mut().enumerate() {
        let name = format!("f{i}");
        if chosen.get(i).copied().unwrap_or(false) && !taken.contains(&name) {
            f.name = name;
        }
    }
    *m = Module::new(functions);
    m.end_comments = end_comments;
}

fn named_scopes(f: &Function) -> Vec<crate::ir::ScopeId> {
    statements(f)
        .into_iter()
        .filter_map(|(s, _)| match f.stmts[s].kind {
            StmtKind::Scope(id) if f.scopes[id].name.is_some() => Some(id),
            _ => None,
        })
        .collect()
}

pub fn count_scope_names(m: &Module) -> usize {
    count_per_function(m, named_scopes)
}

pub fn apply_scope_names(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, named_scopes, |f, picked| {
        for id in picked {
            f.scopes[id].name = None;
        }
    });
}
