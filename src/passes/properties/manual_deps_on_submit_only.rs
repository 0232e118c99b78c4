//! ManualDepsOnSubmitOnly: manual dependency edges live on `submit`s.
//!
//! No plain call carries `manual_dep_edges`, except a `system.task_dummy`
//! barrier whose `dummy_task` attribute is set.

use super::Violation;
use crate::ir::{BuiltinOp, Call, Function, Module};
use crate::span::Span;

/// The op that submits a dependency-only barrier task.
pub const TASK_DUMMY: BuiltinOp = BuiltinOp::TaskDummy;

/// The property's check on one call expression of `f` (fed by the
/// verifiers' shared walk, [`super::verify_all`]).
pub(super) fn check_call(
    module: &Module,
    f: &Function,
    call: &Call,
    span: Span,
    out: &mut Vec<Violation>,
) {
    if call.manual_dep_edges.is_empty() {
        return;
    }
    let barrier = call.dummy_task && call.builtin == Some(TASK_DUMMY);
    if !barrier {
        out.push(Violation::new(
            span,
            format!(
                "plain call to `{}` carries manual dependency edges; only `submit` and `system.task_dummy` barriers may",
                f.callee_name(module, call.callee)
            ),
        ));
    }
}
