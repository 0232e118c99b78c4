//! The edits reductions share: finding statements and the variables they
//! use, and taking statements out of, or splicing them into, their blocks.

use crate::ir::walk::{Site, block_of_mut, for_each_expr, for_each_own_expr, walk_stmts};
use crate::ir::{ExprKind, Function, Module, StmtId, StmtKind, VarId};
use hashbrown::HashSet;

/// Every statement the body reaches, in source order, with its site.
pub fn statements(f: &Function) -> Vec<(StmtId, Site)> {
    let mut out = Vec::new();
    walk_stmts(f, |s, site| out.push((s, site)), |_| {});
    out
}

/// Calls `visit` on each variable the statement's own expressions use
/// (not those of statements nested in it).
pub fn own_uses(
    f: &Function,
    kind: &StmtKind,
    work: &mut Vec<crate::ir::ExprId>,
    mut visit: impl FnMut(VarId),
) {
    let mut roots = Vec::new();
    for_each_own_expr(f, kind, |e| roots.push(e));
    for root in roots {
        for_each_expr(f, root, work, |e| {
            if let ExprKind::Var(v) = f.exprs[e].kind {
                visit(v);
            }
        });
    }
}

/// Takes the statements of `removed` out of every block of `f`.
pub fn remove_statements(f: &mut Function, removed: &HashSet<StmtId>) {
    if removed.is_empty() {
        return;
    }
    let mut blocks = Vec::new();
    for event in crate::ir::walk::Walk::new(f) {
        if let crate::ir::walk::Event::EnterBlock { owner, which, .. } = event {
            blocks.push((owner, which));
        }
    }
    for (owner, which) in blocks {
        let list = block_of_mut(f, owner, which).stmts;
        let kept: Vec<StmtId> = f
            .list(list)
            .iter()
            .copied()
            .filter(|s| !removed.contains(s))
            .collect();
        if kept.len() != f.list(list).len() {
            let new = f.replace_list(list, &kept);
            block_of_mut(f, owner, which).stmts = new;
        }
    }
}

/// Replaces statement `s`, found in block `which` of `owner`, by `with`.
pub fn splice(f: &mut Function, site: Site, s: StmtId, with: &[StmtId]) {
    let list = block_of_mut(f, site.owner, site.block).stmts;
    let old = f.list(list);
    let Some(at) = old.iter().position(|&x| x == s) else {
        return;
    };
    let mut items = old[..at].to_vec();
    items.extend_from_slice(with);
    items.extend_from_slice(&old[at + 1..]);
    let new = f.replace_list(list, &items);
    block_of_mut(f, site.owner, site.block).stmts = new;
}

/// A new `results = value` statement.
pub fn assign(f: &mut Function, results: &[VarId], value: crate::ir::ExprId) -> StmtId {
    let span = f.exprs[value].span;
    let results = f.new_list(results);
    f.new_stmt(StmtKind::Assign { results, value }, span)
}

/// A new expression reading `v`.
pub fn use_of(f: &mut Function, v: VarId) -> crate::ir::ExprId {
    let (ty, span) = (f.vars[v].ty, f.vars[v].span);
    f.new_expr_of_type(ExprKind::Var(v), ty, span)
}

/// The `true` positions of `chosen` (see [`super::delta`]) among `items`.
pub fn picked<'a, T>(items: &'a [T], chosen: &'a [bool]) -> impl Iterator<Item = &'a T> + 'a {
    items
        .iter()
        .zip(chosen)
        .filter(|(_, c)| **c)
        .map(|(t, _)| t)
}

/// `items` without those at the positions `drop`.
pub fn without<T: Copy>(items: &[T], drop: &[usize]) -> Vec<T> {
    items
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, &x)| x)
        .collect()
}

/// The expressions the body of `f` reaches, in source order (each
/// statement's own, pre-order), that `keep` accepts.
pub fn reachable_exprs(f: &Function, keep: impl Fn(&ExprKind) -> bool) -> Vec<crate::ir::ExprId> {
    let mut out = Vec::new();
    let mut work = Vec::new();
    let mut roots = Vec::new();
    for (s, _) in statements(f) {
        roots.clear();
        for_each_own_expr(f, &f.stmts[s].kind, |e| roots.push(e));
        for &root in &roots {
            for_each_expr(f, root, &mut work, |e| {
                if keep(&f.exprs[e].kind) {
                    out.push(e);
                }
            });
        }
    }
    out
}

/// How many elements `elements` finds in all the functions of `m`.
pub fn count_per_function<T>(m: &Module, elements: impl Fn(&Function) -> Vec<T>) -> usize {
    m.functions().iter().map(|f| elements(f).len()).sum()
}

/// For each function of `m`, its elements (numbered function after
/// function, as [`count_per_function`] counts them) that `chosen` marks,
/// handed to `edit` when there is any.
pub fn edit_per_function<T: Copy>(
    m: &mut Module,
    chosen: &[bool],
    elements: impl Fn(&Function) -> Vec<T>,
    mut edit: impl FnMut(&mut Function, Vec<T>),
) {
    let mut offset = 0;
    for f in m.functions_mut() {
        let found = elements(f);
        let end = (offset + found.len()).min(chosen.len());
        let mine = &chosen[offset.min(end)..end];
        offset += found.len();
        let picked: Vec<T> = picked(&found, mine).copied().collect();
        if !picked.is_empty() {
            edit(f, picked);
        }
    }
}
