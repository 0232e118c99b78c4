//! Removing parameters and results of functions, at the definition and at
//! every call and `submit` together.
//!
//! Parameters: the elements are every parameter of every function; the
//! argument at that position goes from each call and `submit` of the
//! function (a parameter the body still uses makes the candidate invalid).
//! Results: the elements are every declared result; the value goes from
//! each `return`, and the variable it was bound to from each call and
//! `submit` (a binding of a call's only result becomes a plain call).

use super::edit::{statements, without};
use crate::ir::{
    ArenaId, CallId, Callee, DirList, ExprList, Function, Module, StmtKind, SubmitId, VarList,
};

/// `(function, position)` of every parameter, or of every result.
fn positions(m: &Module, results: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, f) in m.functions().iter().enumerate() {
        let n = if results {
            f.results.len()
        } else {
            f.params.len()
        };
        out.extend((0..n).map(|k| (i, k)));
    }
    out
}

pub fn count_params(m: &Module) -> usize {
    positions(m, false).len()
}

pub fn count_results(m: &Module) -> usize {
    positions(m, true).len()
}

/// For each function, the sorted positions chosen.
fn chosen_by_function(m: &Module, results: bool, chosen: &[bool]) -> Vec<Vec<usize>> {
    let mut by = vec![Vec::new(); m.functions().len()];
    for (&(f, k), &c) in positions(m, results).iter().zip(chosen) {
        if c {
            by[f].push(k);
        }
    }
    by
}

fn drop_args(
    f: &mut Function,
    args: ExprList,
    dirs: DirList,
    drop: &[usize],
) -> (ExprList, DirList) {
    let kept = without(f.list(args), drop);
    let kept_dirs: Vec<_> = f
        .directions(dirs)
        .to_vec()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, d)| d)
        .collect();
    let args = f.replace_list(args, &kept);
    (args, f.new_directions(kept_dirs))
}

pub fn apply_params(m: &mut Module, chosen: &[bool]) {
    let by = chosen_by_function(m, false, chosen);
    let callee_drop = |callee: Callee| -> Option<&Vec<usize>> {
        let id = callee.function()?;
        by.get(id.index()).filter(|d| !d.is_empty())
    };
    for (i, f) in m.functions_mut().iter_mut().enumerate() {
        if !by[i].is_empty() {
            f.params = without_params(&f.params, &by[i]);
        }
        for (payload, callee, args, dirs) in argument_lists(f) {
            if let Some(drop) = callee_drop(callee) {
                let (args, dirs) = drop_args(f, args, dirs, drop);
                match payload {
                    Payload::Call(id) => {
                        f.calls[id].args = args;
                        f.calls[id].arg_directions = dirs;
                    }
                    Payload::Submit(id) => {
                        f.submits[id].args = args;
                        f.submits[id].arg_directions = dirs;
                    }
                }
            }
        }
    }
}

/// A call or `submit` payload.
#[derive(Clone, Copy)]
enum Payload {
    Call(CallId),
    Submit(SubmitId),
}

/// Every call and `submit` of `f` (reachable or not) with its callee,
/// arguments and directions.
fn argument_lists(f: &Function) -> Vec<(Payload, Callee, ExprList, DirList)> {
    let calls = f
        .calls
        .iter()
        .map(|(id, c)| (Payload::Call(id), c.callee, c.args, c.arg_directions));
    let submits = f
        .submits
        .iter()
        .map(|(id, s)| (Payload::Submit(id), s.callee, s.args, s.arg_directions));
    calls.chain(submits).collect()
}

fn without_params(params: &[crate::ir::Param], drop: &[usize]) -> Vec<crate::ir::Param> {
    params
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, p)| p.clone())
        .collect()
}

pub fn apply_results(m: &mut Module, chosen: &[bool]) {
    let by = chosen_by_function(m, true, chosen);
    let arity: Vec<usize> = m.functions().iter().map(|f| f.results.len()).collect();
    for (i, f) in m.functions_mut().iter_mut().enumerate() {
        let drop = &by[i];
        if !drop.is_empty() {
            f.results = f
                .results
                .iter()
                .enumerate()
                .filter(|(k, _)| !drop.contains(k))
                .map(|(_, t)| t.clone())
                .collect();
        }
        for (s, _) in statements(f) {
            match f.stmts[s].kind {
                StmtKind::Return(values) if !drop.is_empty() => {
                    let kept = without(f.list(values), drop);
                    let new = f.replace_list(values, &kept);
                    f.stmts[s].kind = StmtKind::Return(new);
                }
                StmtKind::Submit(id) => {
                    let Some(callee) = f.submits[id].callee.function() else {
                        continue;
                    };
                    let Some(d) = by.get(callee.index()).filter(|d| !d.is_empty()) else {
                        continue;
                    };
                    let results = f.submits[id].results;
                    let new = drop_vars(f, results, d);
                    f.submits[id].results = new;
                }
                StmtKind::Assign { results, value } => {
                    let Some(callee) = f.call(value).and_then(|c| c.callee.function()) else {
                        continue;
                    };
                    let Some(d) = by.get(callee.index()).filter(|d| !d.is_empty()) else {
                        continue;
                    };
                    if arity[callee.index()] == 1 {
                        f.stmts[s].kind = StmtKind::Eval(value);
                    } else {
                        let new = drop_vars(f, results, d);
                        f.stmts[s].kind = StmtKind::Assign {
                            results: new,
                            value,
                        };
                    }
                }
                _ => {}
            }
        }
    }
}

fn drop_vars(f: &mut Function, list: VarList, drop: &[usize]) -> VarList {
    let kept = without(f.list(list), drop);
    f.replace_list(list, &kept)
}
