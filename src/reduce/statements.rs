//! Removing statements, with the statements that use what they define.
//!
//! The elements are the statements every function reaches, in source
//! order. A removed statement takes its nested blocks with it, and every
//! later statement that uses a variable it defined goes too (so removing
//! a definition is not refused for its uses alone). A loop's `yield` of a
//! value that is gone yields the loop's iter-arg instead, so the loop
//! stays well formed.

use super::edit::{
    count_per_function, edit_per_function, own_uses, remove_statements, statements, use_of,
};
use crate::ir::{Function, Module, StmtKind};
use hashbrown::HashSet;

pub fn count(m: &Module) -> usize {
    count_per_function(m, statements)
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let all = |f: &Function| (0..statements(f).len()).collect::<Vec<usize>>();
    edit_per_function(m, chosen, all, |f, picked| {
        let stmts = statements(f);
        let mut mine = vec![false; stmts.len()];
        picked.iter().for_each(|&i| mine[i] = true);
        remove_with_users(f, &stmts, &mine);
    });
}

fn remove_with_users(
    f: &mut Function,
    stmts: &[(crate::ir::StmtId, crate::ir::walk::Site)],
    chosen: &[bool],
) {
    let mut removed = HashSet::new();
    let mut dead = HashSet::new();
    let mut work = Vec::new();
    let mut yields = Vec::new();
    for (i, &(s, site)) in stmts.iter().enumerate() {
        if site.owner.is_some_and(|o| removed.contains(&o)) {
            // Inside a removed statement: gone with it.
            removed.insert(s);
            dead.extend(f.results(&f.stmts[s].kind).iter().copied());
            continue;
        }
        let kind = f.stmts[s].kind;
        let mut uses_dead = false;
        own_uses(f, &kind, &mut work, |v| uses_dead |= dead.contains(&v));
        if chosen.get(i).copied().unwrap_or(false) {
            removed.insert(s);
        } else if uses_dead {
            match kind {
                StmtKind::Yield(_) => yields.push((s, site)),
                _ => {
                    removed.insert(s);
                }
            }
        }
        if removed.contains(&s) {
            dead.extend(f.results(&kind).iter().copied());
            dead.extend(f.iter_args(&kind).iter().map(|a| a.var));
        }
    }
    for (s, site) in yields {
        let StmtKind::Yield(list) = f.stmts[s].kind else {
            continue;
        };
        let Some(owner) = site.owner else { continue };
        let args: Vec<_> = f.iter_args(&f.stmts[owner].kind).to_vec();
        let values = f.list(list).to_vec();
        let mut fixed = Vec::with_capacity(values.len());
        for (k, &e) in values.iter().enumerate() {
            let mut uses_dead = false;
            let expr_stmt = StmtKind::Eval(e);
            own_uses(f, &expr_stmt, &mut work, |v| uses_dead |= dead.contains(&v));
            match args.get(k) {
                Some(arg) if uses_dead => fixed.push(use_of(f, arg.var)),
                _ => fixed.push(e),
            }
        }
        let new = f.replace_list(list, &fixed);
        f.stmts[s].kind = StmtKind::Yield(new);
    }
    remove_statements(f, &removed);
}
