//! Moving a call into the iter-arg it initialises: `a = array.create(1,
//! task_id)` then `for ... iter(x = a)` becomes `for ... iter(x =
//! array.create(1, task_id))` (a call may initialise an iter-arg), and
//! the binding goes.
//!
//! The elements are the iter-args, in source order, whose initial value
//! is a variable bound alone to a call and read nowhere else.

use super::edit::{count_per_function, edit_per_function, reachable_exprs, statements};
use crate::ir::{ExprId, ExprKind, Function, IterArg, Module, StmtId, StmtKind, VarId};
use hashbrown::{HashMap, HashSet};

/// An iter-arg to initialise with a call: the loop, the iter-arg's
/// position, the binding and the call.
#[derive(Clone, Copy)]
struct Site {
    owner: StmtId,
    index: usize,
    binding: StmtId,
    call: ExprId,
}

fn sites(f: &Function) -> Vec<Site> {
    let stmts = statements(f);
    // The variables bound alone to a call, with their binding.
    let mut calls: HashMap<VarId, (StmtId, ExprId)> = HashMap::new();
    for &(s, _) in &stmts {
        if let StmtKind::Assign { results, value } = f.stmts[s].kind
            && let &[x] = f.list(results)
            && matches!(f.exprs[value].kind, ExprKind::Call(_))
        {
            calls.insert(x, (s, value));
        }
    }
    let mut reads: HashMap<VarId, usize> = HashMap::new();
    for e in reachable_exprs(f, |k| matches!(k, ExprKind::Var(_))) {
        if let ExprKind::Var(v) = f.exprs[e].kind {
            *reads.entry(v).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for &(s, _) in &stmts {
        for (index, arg) in f.iter_args(&f.stmts[s].kind).iter().enumerate() {
            if let ExprKind::Var(v) = f.exprs[arg.init].kind
                && reads.get(&v) == Some(&1)
                && let Some(&(binding, call)) = calls.get(&v)
            {
                out.push(Site {
                    owner: s,
                    index,
                    binding,
                    call,
                });
            }
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    count_per_function(m, sites)
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    edit_per_function(m, chosen, sites, |f, picked| {
        for site in &picked {
            let list = match f.stmts[site.owner].kind {
                StmtKind::For(l) => f.fors[l].iter_args,
                StmtKind::While(w) => f.whiles[w].iter_args,
                _ => continue,
            };
            let mut args: Vec<IterArg> = f.list(list).to_vec();
            args[site.index].init = site.call;
            let new = f.replace_list(list, &args);
            match f.stmts[site.owner].kind {
                StmtKind::For(l) => f.fors[l].iter_args = new,
                StmtKind::While(w) => f.whiles[w].iter_args = new,
                _ => {}
            }
        }
        let removed: HashSet<StmtId> = picked.iter().map(|s| s.binding).collect();
        super::edit::remove_statements(f, &removed);
    });
}
