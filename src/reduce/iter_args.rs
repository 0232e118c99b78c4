//! Removing loop iter-args together with their results and yields.
//!
//! The elements are the iter-args of every `for` and `while`, in source
//! order. A removed iter-arg's variable is bound to its initial value just
//! before the loop (so the body's uses still read a value), its slot goes
//! from the loop's trailing `yield`, and its result is bound to that
//! variable just after the loop (unused bindings go with statement
//! removal).

use super::edit::{assign, picked, splice, statements, use_of};
use crate::ir::walk::Site;
use crate::ir::{Function, Module, StmtId, StmtKind};

fn elements(m: &Module) -> Vec<(usize, StmtId, Site, usize)> {
    let mut out = Vec::new();
    for (i, f) in m.functions().iter().enumerate() {
        for (s, site) in statements(f) {
            let n = f.iter_args(&f.stmts[s].kind).len();
            out.extend((0..n).map(|k| (i, s, site, k)));
        }
    }
    out
}

pub fn count(m: &Module) -> usize {
    elements(m).len()
}

pub fn apply(m: &mut Module, chosen: &[bool]) {
    let elements = elements(m);
    let mut groups: Vec<(usize, StmtId, Site, Vec<usize>)> = Vec::new();
    for &(i, s, site, k) in picked(&elements, chosen) {
        match groups.last_mut() {
            Some((j, last, _, ks)) if *j == i && *last == s => ks.push(k),
            _ => groups.push((i, s, site, vec![k])),
        }
    }
    // Inner loops first, so that a site's block is still where it was.
    for (i, s, site, ks) in groups.into_iter().rev() {
        remove(&mut m.functions_mut()[i], s, site, &ks);
    }
}

fn remove(f: &mut Function, s: StmtId, site: Site, ks: &[usize]) {
    let kind = f.stmts[s].kind;
    let (args_list, results_list, body) = match kind {
        StmtKind::For(l) => (f.fors[l].iter_args, f.fors[l].results, f.fors[l].body),
        StmtKind::While(w) => (f.whiles[w].iter_args, f.whiles[w].results, f.whiles[w].body),
        _ => return,
    };
    let args = f.list(args_list).to_vec();
    let results = f.list(results_list).to_vec();
    let mut before = Vec::new();
    let mut after = Vec::new();
    for &k in ks {
        let Some(arg) = args.get(k) else { continue };
        before.push(assign(f, &[arg.var], arg.init));
        if let Some(&r) = results.get(k) {
            let value = use_of(f, arg.var);
            after.push(assign(f, &[r], value));
        }
    }
    let keep = |i: &usize| !ks.contains(i);
    let kept_args: Vec<_> = (0..args.len()).filter(keep).map(|i| args[i]).collect();
    let kept_results: Vec<_> = (0..results.len())
        .filter(keep)
        .map(|i| results[i])
        .collect();
    let new_args = f.replace_list(args_list, &kept_args);
    let new_results = f.replace_list(results_list, &kept_results);
    match kind {
        StmtKind::For(l) => {
            f.fors[l].iter_args = new_args;
            f.fors[l].results = new_results;
        }
        StmtKind::While(w) => {
            f.whiles[w].iter_args = new_args;
            f.whiles[w].results = new_results;
        }
        _ => {}
    }
    if let Some(&last) = f.block_stmts(&body).last()
        && let StmtKind::Yield(values) = f.stmts[last].kind
    {
        let vals = f.list(values).to_vec();
        let kept: Vec<_> = (0..vals.len()).filter(keep).map(|i| vals[i]).collect();
        if kept.is_empty() {
            let inside = Site {
                owner: Some(s),
                block: 0,
                index: 0,
            };
            splice(f, inside, last, &[]);
        } else {
            let new = f.replace_list(values, &kept);
            f.stmts[last].kind = StmtKind::Yield(new);
        }
    }
    let mut with = before;
    with.push(s);
    with.extend(after);
    splice(f, site, s, &with);
}
