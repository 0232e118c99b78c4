//! NoNestedCalls: no call among another call's (or a `submit`'s) arguments.
//!
//! Every positional argument, keyword argument and `deps` entry of a call
//! or `submit` (including list elements and operator operands, at any
//! depth) must be free of calls. Calls may appear elsewhere: as the value of
//! a binding, as a statement, as an iter-arg's initial value, in a condition.

use super::Violation;
use crate::ir::{CallId, Callee, Function, Module};
use crate::span::Span;

/// The call or `submit` an expression is an argument of (at any depth),
/// as the verifiers' shared walk ([`super::verify_all`]) tracks it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Outer {
    /// Not inside any call's or `submit`'s arguments.
    None,
    /// Among the arguments, `deps` or options of a `submit` of this function.
    Submit(Callee),
    /// Among the arguments, keyword arguments or manual edges of this call.
    Call(CallId),
}

/// The property's check on the call `call` of `f` at `span`, found where
/// `outer` says.
pub(super) fn check_call(
    module: &Module,
    f: &Function,
    call: CallId,
    outer: Outer,
    span: Span,
    out: &mut Vec<Violation>,
) {
    let outer = match outer {
        Outer::None => return,
        Outer::Submit(callee) => f.callee_name(module, callee),
        Outer::Call(c) => f.callee_name(module, f.calls[c].callee),
    };
    out.push(Violation::new(
        span,
        format!(
            "call to `{}` nested in the arguments of `{outer}`",
            f.callee_name(module, f.calls[call].callee)
        ),
    ));
}
