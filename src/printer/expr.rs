//! Expressions with the fewest parentheses that keep their meaning.
//!
//! Precedence, loosest to tightest (spec section 6): `or`, `and`, `not`,
//! comparisons (non-associative), `+ -`, `* / %`, unary `-`, then atoms
//! (literals, variables, calls, lists). Binary operators are left-associative,
//! so a right operand of the same level keeps its parentheses
//! (`a - (b - c)`) and a left one drops them (`a - b - c`). Both operands of
//! a comparison need a tighter operator (`(a < b) < c`).
//!
//! Expressions are written straight into a `String`: one small recursive
//! frame per nesting level (grown onto the heap by `stack::ensure`), so
//! 200,000-deep expressions print on any stack in linear time.

use super::float::format_float;
use crate::ir::{BinaryOp, Call, ExprId, ExprKind, Function, Module, UnaryOp};
use std::fmt::Write as _;

const OR: u8 = 1;
const AND: u8 = 2;
pub(crate) const NOT: u8 = 3;
const CMP: u8 = 4;
const ADD: u8 = 5;
const MUL: u8 = 6;
pub(crate) const NEG: u8 = 7;
const ATOM: u8 = 8;

fn binary_prec(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => OR,
        BinaryOp::And => AND,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            CMP
        }
        BinaryOp::Add | BinaryOp::Sub => ADD,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => MUL,
    }
}

/// How tightly the printed form of `e` binds.
pub(crate) fn prec(f: &Function, e: ExprId) -> u8 {
    match &f.exprs[e].kind {
        ExprKind::Binary(op, ..) => binary_prec(*op),
        ExprKind::Unary(UnaryOp::Not, _) => NOT,
        ExprKind::Unary(UnaryOp::Neg, _) => NEG,
        // A negative literal prints with a leading `-` (lowering never makes
        // one, but a pass might): treat it like a negation.
        ExprKind::Int(n) if n.get() < 0 => NEG,
        ExprKind::Float(x) if x.get().is_sign_negative() && !x.get().is_nan() => NEG,
        _ => ATOM,
    }
}

/// Appends `e` to `out` at the loosest level (no outer parentheses).
pub fn write_expr(m: &Module, f: &Function, e: ExprId, out: &mut String) {
    write_at(m, f, e, 0, out);
}

/// Appends `e` to `out`, parenthesised when it binds looser than `min`.
fn write_at(m: &Module, f: &Function, e: ExprId, min: u8, out: &mut String) {
    crate::stack::ensure(|| write_at_here(m, f, e, min, out))
}

/// [`write_at`], on the stack [`crate::stack::ensure`] left.
fn write_at_here(m: &Module, f: &Function, e: ExprId, min: u8, out: &mut String) {
    let p = prec(f, e);
    let paren = p < min;
    if paren {
        out.push('(');
    }
    match &f.exprs[e].kind {
        ExprKind::Binary(..) => {
            if let Some((op, (l, left_min), (r, right_min))) = binary_operands(f, e) {
                write_at(m, f, l, left_min, out);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                write_at(m, f, r, right_min, out);
            }
        }
        ExprKind::Unary(UnaryOp::Not, x) => {
            out.push_str("not ");
            write_at(m, f, *x, NOT, out);
        }
        ExprKind::Unary(UnaryOp::Neg, x) => {
            out.push('-');
            write_at(m, f, *x, NEG, out);
        }
        ExprKind::Call(call) => write_call(m, f, &f.calls[*call], out),
        ExprKind::List(items) => write_list(m, f, f.list(*items), out),
        _ => write_leaf(f, e, out),
    }
    if paren {
        out.push(')');
    }
}

/// An operand of a binary expression and the level it is written at.
pub type Operand = (ExprId, u8);

/// The operator and operands of binary expression `e`, each operand with
/// the level it is written at (parenthesised when it binds looser, see
/// [`write_operand`]). Left-associative: the left operand may sit at the
/// same level, the right one must bind tighter; comparisons chain neither
/// way.
pub fn binary_operands(f: &Function, e: ExprId) -> Option<(BinaryOp, Operand, Operand)> {
    let ExprKind::Binary(op, l, r) = f.exprs[e].kind else {
        return None;
    };
    let p = binary_prec(op);
    let left_min = if op.is_comparison() { p + 1 } else { p };
    Some((op, (l, left_min), (r, p + 1)))
}

/// Whether `e`, written at level `min`, is parenthesised.
pub fn parenthesised(f: &Function, e: ExprId, min: u8) -> bool {
    prec(f, e) < min
}

/// Appends `e` written at level `min` (an operand of [`binary_operands`]).
pub fn write_operand(m: &Module, f: &Function, e: ExprId, min: u8, out: &mut String) {
    write_at(m, f, e, min, out);
}

/// Literals and variables.
fn write_leaf(f: &Function, e: ExprId, out: &mut String) {
    match &f.exprs[e].kind {
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Float(x) => out.push_str(&format_float(x.get())),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::None => out.push_str("none"),
        ExprKind::Dtype(s) => out.push_str(s.name()),
        ExprKind::Var(v) => out.push_str(f.var_name(*v)),
        ExprKind::Unresolved(s) => out.push_str(f.names.get(*s)),
        _ => unreachable!("write_leaf called on a compound expression"),
    }
}

/// `[a, b]`.
pub fn write_list(m: &Module, f: &Function, items: &[ExprId], out: &mut String) {
    out.push('[');
    write_comma_separated(m, f, items, out);
    out.push(']');
}

/// `a, b, c` (each at the loosest level).
pub fn write_comma_separated(m: &Module, f: &Function, items: &[ExprId], out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(m, f, *item, out);
    }
}

/// `callee(args, deps=[...], kw=value)`: positional arguments, then the
/// manual dependency edges of a `system.task_dummy` barrier (when it has
/// any), then the other keyword arguments in their stored order.
fn write_call(m: &Module, f: &Function, call: &Call, out: &mut String) {
    out.push_str(f.callee_name(m, call.callee));
    out.push('(');
    let mut sep = ArgSeparator::default();
    for arg in f.list(call.args) {
        sep.next(out);
        write_expr(m, f, *arg, out);
    }
    if !call.manual_dep_edges.is_empty() {
        sep.next(out);
        out.push_str("deps=");
        write_list(m, f, f.list(call.manual_dep_edges), out);
    }
    for kw in f.list(call.kwargs) {
        sep.next(out);
        write_kwarg(m, f, f.names.get(kw.name), kw.value, out);
    }
    out.push(')');
}

/// `name=value` (`value` alone without a name: a positional argument a
/// module with errors keeps where it was written, after keyword arguments).
pub fn write_kwarg(m: &Module, f: &Function, name: &str, value: ExprId, out: &mut String) {
    if name.is_empty() {
        write_expr(m, f, value, out);
        return;
    }
    out.push_str(name);
    out.push('=');
    write_expr(m, f, value, out);
}

/// Writes `, ` before every argument but the first.
#[derive(Default)]
pub struct ArgSeparator {
    started: bool,
}

impl ArgSeparator {
    pub fn next(&mut self, out: &mut String) {
        if self.started {
            out.push_str(", ");
        }
        self.started = true;
    }
}
