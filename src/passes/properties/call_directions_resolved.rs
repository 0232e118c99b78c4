//! CallDirectionsResolved: every call-like node knows its argument directions.
//!
//! Every call and `submit` has exactly one direction per positional
//! argument. When the callee is a function of the module, the directions are
//! the callee's parameter directions, in order (so the argument count also
//! matches the parameter count). Ops take `in` arguments only.

use super::Violation;
use crate::diagnostics::count;
use crate::ir::{ArenaId, Callee, Direction, ExprKind, FuncId, Module};
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
                 dirs: &[Direction],
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
                Some(params) if params.as_slice() != dirs => out.push(Violation::new(
                    span,
                    format!(
                        "{what}: argument directions ({}) do not match the parameters of `{}` ({})",
                        spell(dirs),
                        module.func_name(id),
                        spell(params)
                    ),
                )),
                Some(_) => {}
            },
            None => {
                if let Some(d) = dirs.iter().find(|d| **d != Direction::In) {
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
                if let crate::ir::StmtKind::Submit(sub) = &stmt.kind {
                    check(
                        What::Submit(module.func_name(sub.callee)),
                        Some(sub.callee),
                        sub.args.len(),
                        &sub.arg_directions,
                        stmt.span,
                        out,
                    );
                }
                roots.clear();
                own_exprs(&stmt.kind, &mut roots);
                for &r in &roots {
                    for_each_expr(f, r, &mut work, |e| {
                        let node = &f.exprs[e];
                        if let ExprKind::Call(c) = &node.kind {
                            let callee = match &c.callee {
                                Callee::Function(id) => Some(*id),
                                Callee::Op(_) => None,
                            };
                            check(
                                What::Call(c.callee.name(module)),
                                callee,
                                c.args.len(),
                                &c.arg_directions,
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

fn spell(dirs: &[Direction]) -> String {
    if dirs.is_empty() {
        return "none".into();
    }
    dirs.iter()
        .map(|d| d.keyword())
        .collect::<Vec<_>>()
        .join(", ")
}
