//! Bindings and iter-args: when a variable's type is written.
//!
//! A binding prints `name: T` only when the variable's type differs from the
//! type its right-hand side gives it (spec section 9); otherwise reading the
//! text back infers the same type. What "the type of the right-hand side" is
//! depends on the statement:
//!
//! - `a = e`: the type of `e`; `a, b = e`: the components of `e`'s tuple type;
//! - `submit f(..)`: `f`'s result types followed by `task_id`;
//! - a loop or `while`: the type of the corresponding iter-arg variable;
//! - an `if`: the type of the value the then-branch's final `yield` yields at
//!   that position.
//!
//! The discard binding `_` never carries a type.

use super::expr::write_expr;
use crate::ir::{Block, Extent, Function, IfStmt, IterArg, Module, StmtKind, Type, VarId};
use std::fmt::Write as _;

/// The name of the discard binding.
pub const DISCARD: &str = "_";

/// The task id type, for the last result of a `submit`.
static TASK_ID: Type = Type::TASK_ID;

/// The type the right-hand side of a binding statement gives its result at
/// `position` (`None` where it gives nothing known).
fn expected_type<'ir>(
    m: &'ir Module,
    f: &'ir Function,
    kind: &'ir StmtKind,
    position: usize,
) -> Option<&'ir Type> {
    match kind {
        StmtKind::Assign { results, value } => {
            let results = f.list(*results);
            let ty = f.ty(*value);
            match ty {
                Type::Tuple(parts) if results.len() != 1 => parts.get(position),
                // One result, or several from a value that is not a tuple
                // (an unknown op): each result is compared with that type.
                _ => Some(ty),
            }
        }
        StmtKind::Submit(s) => {
            let callee = m.func(f.submits[*s].callee.function()?);
            match position.cmp(&callee.results.len()) {
                std::cmp::Ordering::Less => callee.results.get(position),
                std::cmp::Ordering::Equal => Some(&TASK_ID),
                std::cmp::Ordering::Greater => None,
            }
        }
        StmtKind::For(_) | StmtKind::While(_) => {
            f.iter_args(kind).get(position).map(|ia| f.var_ty(ia.var))
        }
        StmtKind::If(i) => {
            let IfStmt {
                then_body,
                else_body,
                ..
            } = &f.ifs[*i];
            // The then-branch's final `yield`, or the else-branch's when the
            // then-branch yields nothing.
            let from_then = final_yield(f, then_body);
            let values = if from_then.is_empty() {
                else_body.as_ref().map_or(&[][..], |b| final_yield(f, b))
            } else {
                from_then
            };
            values.get(position).map(|v| f.ty(*v))
        }
        _ => None,
    }
}

/// The values a block's final `yield` yields (none without one).
fn final_yield<'ir>(f: &'ir Function, block: &Block) -> &'ir [crate::ir::ExprId] {
    match f.block_stmts(block).last().map(|s| &f.stmts[*s].kind) {
        Some(StmtKind::Yield(values)) => f.list(*values),
        _ => &[],
    }
}

/// Whether `var` must be written with its type, given the type its
/// definition would infer (`None`: nothing is inferable). A type that source
/// cannot spell (`unknown`, a dtype, an anonymous dynamic extent) is never
/// written: it could not be read back anyway.
fn needs_annotation(var_ty: &Type, inferred: Option<&Type>) -> bool {
    inferred != Some(var_ty) && is_writable(var_ty)
}

/// Whether `ty` has a source spelling.
pub fn is_writable(ty: &Type) -> bool {
    match ty {
        Type::Scalar(_) => true,
        Type::Array { extent, .. } => !matches!(extent, Extent::Dynamic(None)),
        Type::Tensor { dims, .. } => !dims.iter().any(|d| matches!(d, Extent::Dynamic(None))),
        Type::Tuple(parts) => parts.iter().all(is_writable),
        Type::Dtype | Type::Unknown => false,
    }
}

/// Appends one binding: `_`, `name` or `name: T`.
fn write_binding(f: &Function, var: VarId, inferred: Option<&Type>, out: &mut String) {
    let ty = f.var_ty(var);
    let name = f.var_name(var);
    out.push_str(name);
    if name != DISCARD && needs_annotation(ty, inferred) {
        out.push_str(": ");
        let _ = write!(out, "{ty}");
    }
}

/// Appends `a, b: T = ` for the results of `kind` (nothing when it has none).
pub fn write_bindings(m: &Module, f: &Function, kind: &StmtKind, out: &mut String) {
    let results = f.results(kind);
    if results.is_empty() {
        return;
    }
    for (i, var) in results.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let inferred = expected_type(m, f, kind, i);
        write_binding(f, *var, inferred, out);
    }
    out.push_str(" = ");
}

/// Each result binding of `kind` as [`write_bindings`] writes it (`_`,
/// `name` or `name: T`), written in `buffer` and given to `each` in
/// order, for layouts that place them one per line.
pub fn each_binding_text(
    (m, f, kind): (&Module, &Function, &StmtKind),
    buffer: &mut String,
    mut each: impl FnMut(&str),
) {
    for (i, var) in f.results(kind).iter().enumerate() {
        buffer.clear();
        write_binding(f, *var, expected_type(m, f, kind, i), buffer);
        each(buffer);
    }
}

/// The bindings at the start of `line`, the canonical text of a statement
/// of `kind` (as [`write_bindings`] wrote them), when none is written with
/// a type: each with the comma after it, the last with the ` = ` after it
/// (`a,`, `b = `), borrowed from `line`. `None` when a binding is written
/// with its type (or `line` is not what [`write_bindings`] writes).
pub fn unannotated_bindings<'l>(
    f: &Function,
    kind: &StmtKind,
    line: &'l str,
    mut each: impl FnMut(&'l str),
) -> Option<()> {
    let results = f.results(kind);
    let mut at = 0;
    for (i, var) in results.iter().enumerate() {
        let name = f.var_name(*var);
        let end = at + name.len();
        let after = if i + 1 < results.len() { ", " } else { " = " };
        if line.get(at..end)? != name || !line.get(end..)?.starts_with(after) {
            return None;
        }
        // The comma, or ` = `: the space after a comma is a line break's.
        let with = if i + 1 < results.len() { 1 } else { 3 };
        each(&line[at..end + with]);
        at = end + after.len();
    }
    Some(())
}

/// The binding of an iter-arg (`x` or `x: T`), as [`write_iter_args`]
/// writes it before ` = init`.
pub fn write_iter_arg_binding(f: &Function, ia: &IterArg, out: &mut String) {
    write_binding(f, ia.var, Some(f.ty(ia.init)), out);
}

/// Appends ` iter(x = init, y: T = init)` (nothing without iter-args).
pub fn write_iter_args(m: &Module, f: &Function, iter_args: &[IterArg], out: &mut String) {
    if iter_args.is_empty() {
        return;
    }
    out.push_str(" iter(");
    for (i, ia) in iter_args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_binding(f, ia.var, Some(f.ty(ia.init)), out);
        out.push_str(" = ");
        write_expr(m, f, ia.init, out);
    }
    out.push(')');
}
