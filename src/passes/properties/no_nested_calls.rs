//! NoNestedCalls: no call among another call's (or a `submit`'s) arguments.
//!
//! Every positional argument, keyword argument and `deps` entry of a call
//! or `submit` (including list elements and operator operands, at any
//! depth) must be free of calls. Calls may appear elsewhere: as the value of
//! a binding, as a statement, as an iter-arg's initial value, in a condition.

use super::Violation;
use crate::ir::{ExprId, ExprKind, Function, Module, StmtKind};
use crate::passes::walk::{expr_children, own_exprs, walk_stmts};

pub fn verify(module: &Module, f: &Function, out: &mut Vec<Violation>) {
    let mut roots = Vec::new();
    // (expression, name of the call or submit whose argument it is)
    let mut work: Vec<(ExprId, Option<&str>)> = Vec::new();
    let mut kids = Vec::new();
    walk_stmts(
        f,
        |s, _| {
            let kind = &f.stmts[s].kind;
            roots.clear();
            own_exprs(f, kind, &mut roots);
            work.clear();
            let submit = match kind {
                StmtKind::Submit(sub) => Some(module.func_name(f.submits[*sub].callee)),
                _ => None,
            };
            let core_args = match kind {
                StmtKind::Submit(_) => roots.len(),
                _ => 0,
            };
            for (i, &r) in roots.iter().enumerate().rev() {
                work.push((r, if i < core_args { submit } else { None }));
            }
            while let Some((e, inside)) = work.pop() {
                let node = &f.exprs[e];
                if let ExprKind::Call(c) = node.kind {
                    let c = &f.calls[c];
                    if let Some(outer) = inside {
                        out.push(Violation::new(
                            node.span,
                            format!(
                                "call to `{}` nested in the arguments of `{outer}`",
                                f.callee_name(module, c.callee)
                            ),
                        ));
                    }
                    kids.clear();
                    expr_children(f, &node.kind, &mut kids);
                    let name = f.callee_name(module, c.callee);
                    for &k in kids.iter().rev() {
                        work.push((k, Some(name)));
                    }
                } else {
                    kids.clear();
                    expr_children(f, &node.kind, &mut kids);
                    for &k in kids.iter().rev() {
                        work.push((k, inside));
                    }
                }
            }
        },
        |_| {},
    );
}
