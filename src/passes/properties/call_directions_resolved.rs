//! CallDirectionsResolved: every call-like node knows its argument directions.
//!
//! Every call and `submit` has exactly one direction per positional
//! argument. When the callee is a function of the module, the directions are
//! the callee's parameter directions, in order (so the argument count also
//! matches the parameter count). Ops take `in` arguments only.

use super::Violation;
use crate::diagnostics::count;
use crate::ir::{ArenaId, Callee, Direction, Directions, FuncId, Module};
use crate::passes::walk::{for_each_expr, own_exprs, walk_stmts};
use crate::span::Span;

/// What is checked, for messages: written only when there is a violation
/// (no string per call or `submit` otherwise).
enum What<'a> {
    Submit(&'a str),
    Call(&'a str),
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            What::Submit(name) => write!(f, "submit of `{name}`"),
            What::Call(name) => write!(f, "call of `{name}`"),
        }
    }
}

pub fn verify(module: &Module, out: &mut Vec<Violation>) {
    let signatures: Vec<Vec<Direction>> = module
        .functions()
        .iter()
        .map(|f| f.params.iter().map(|p| p.direction).collect())
        .collect();
    let check = |what: What<'_>,
                 callee: Option<FuncId>,
                 nargs: usize,
                 dirs: Directions<'_>,
                 span: Span,
                 out: &mut Vec<Violation>| {
        if dirs.len() != nargs {
            out.push(Violation::new(
                span,
                format!(
                    "{what} has {} but {}",
                    count(nargs as u64, "positional argument", "positional arguments"),
                    count(
                        dirs.len() as u64,
                        "resolved direction",
                        "resolved directions"
                    )
                ),
            ));
            return;
        }
        match callee {
            Some(id) => match signatures.get(id.index()) {
                None => out.push(Violation::new(
                    span,
                    format!("{what}: {id:?} is not a function of the module"),
                )),
                Some(params) if !dirs.iter().eq(params.iter().copied()) => out.push(Violation::new(
                    span,
                    format!(
                        "{what}: argument directions ({}) do not match the parameters of `{}` ({})",
                        spell(dirs.iter()),
                        module.func_name(id),
                        spell(params.iter().copied())
                    ),
                )),
                Some(_) => {}
            },
            None => {
                if let Some(d) = dirs.iter().find(|d| *d != Direction::In) {
                    out.push(Violation::new(
                        span,
                        format!("{what}: an op argument has direction `{}`", d.keyword()),
                    ));
                }
            }
        }
    };
    for f in module.functions() {
        let mut roots = Vec::new();
        let mut work = Vec::new();
        walk_stmts(
            f,
            |s, _| {
                let stmt = &f.stmts[s];
                if let crate::ir::StmtKind::Submit(sub) = stmt.kind {
                    let sub = &f.submits[sub];
                    check(
                        What::Submit(module.func_name(sub.callee)),
                        Some(sub.callee),
                        f.list(sub.args).len(),
                        f.directions(sub.arg_directions),
                        stmt.span,
                        out,
                    );
                }
                roots.clear();
                own_exprs(f, &stmt.kind, &mut roots);
                for &r in &roots {
                    for_each_expr(f, r, &mut work, |e| {
                        let node = &f.exprs[e];
                        if let Some(c) = f.call(e) {
                            let callee = match c.callee {
                                Callee::Function(id) => Some(id),
                                Callee::Op(_) => None,
                            };
                            check(
                                What::Call(f.callee_name(module, c.callee)),
                                callee,
                                f.list(c.args).len(),
                                f.directions(c.arg_directions),
                                node.span,
                                out,
                            );
                        }
                    });
                }
            },
            |_| {},
        );
    }
}

fn spell(dirs: impl Iterator<Item = Direction>) -> String {
    let words: Vec<&str> = dirs.map(|d| d.keyword()).collect();
    if words.is_empty() {
        return "none".into();
    }
    words.join(", ")
}
