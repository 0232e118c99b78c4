//! ManualDepsOnSubmitOnly: manual dependency edges live on `submit`s.
//!
//! No plain call carries `manual_dep_edges`, except a `system.task_dummy`
//! barrier whose `dummy_task` attribute is set.

use super::Violation;
use crate::ir::{Function, Module};
use crate::passes::walk::{for_each_expr, own_exprs, walk_stmts};

/// The op that submits a dependency-only barrier task.
pub const TASK_DUMMY: &str = "system.task_dummy";

pub fn verify(module: &Module, f: &Function, out: &mut Vec<Violation>) {
    let mut roots = Vec::new();
    let mut work = Vec::new();
    walk_stmts(
        f,
        |s, _| {
            roots.clear();
            own_exprs(f, &f.stmts[s].kind, &mut roots);
            for &r in &roots {
                for_each_expr(f, r, &mut work, |e| {
                    let node = &f.exprs[e];
                    if let Some(c) = f.call(e) {
                        let barrier = c.dummy_task && f.op_name(c.callee) == Some(TASK_DUMMY);
                        if !c.manual_dep_edges.is_empty() && !barrier {
                            out.push(Violation::new(
                                node.span,
                                format!(
                                    "plain call to `{}` carries manual dependency edges; only `submit` and `system.task_dummy` barriers may",
                                    f.callee_name(module, c.callee)
                                ),
                            ));
                        }
                    }
                });
            }
        },
        |_| {},
    );
}
