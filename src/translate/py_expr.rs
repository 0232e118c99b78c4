//! `.pfir` expressions written in PyPTO's DSL. Python's precedence for
//! `or`, `and`, `not`, comparisons, `+ -`, `* / %` and unary `-` is the
//! order `.pfir`'s is, so the printer's precedence
//! (`crate::printer::expr::prec`) decides the parentheses; only the
//! spellings differ (`True`, `pl.TASK_ID`, `self.f(x)`, `pl.array.create`).
//! Python chains comparisons, so both operands of one that are
//! comparisons keep their parentheses, as in `.pfir`.

use super::names::{self, PL};
use super::to_pypto::no_form;
use crate::diagnostics::Diagnostic;
use crate::ir::{Callee, ExprId, ExprKind, Function, Module, ScalarType, Type, UnaryOp};
use crate::printer::expr::{NEG, NOT, prec};
use crate::printer::float::format_float;
use crate::vocab::{BinaryOp, BuiltinOp};
use std::fmt::Write as _;

pub struct ExprWriter<'a> {
    m: &'a Module,
    f: &'a Function,
    diags: &'a mut Vec<Diagnostic>,
}

impl<'a> ExprWriter<'a> {
    pub fn new(m: &'a Module, f: &'a Function, diags: &'a mut Vec<Diagnostic>) -> Self {
        ExprWriter { m, f, diags }
    }

    /// Appends `e` at the loosest level.
    pub fn write(&mut self, e: ExprId, out: &mut String) {
        self.write_at(e, 0, out);
    }

    /// `a, b`.
    pub fn comma_separated(&mut self, items: &[ExprId], out: &mut String) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write(*item, out);
        }
    }

    /// `[a, b]`.
    pub fn list(&mut self, items: &[ExprId], out: &mut String) {
        out.push('[');
        self.comma_separated(items, out);
        out.push(']');
    }

    fn write_at(&mut self, e: ExprId, min: u8, out: &mut String) {
        crate::stack::ensure(|| self.write_at_here(e, min, out))
    }

    fn write_at_here(&mut self, e: ExprId, min: u8, out: &mut String) {
        let f = self.f;
        let p = prec(f, e);
        let paren = p < min;
        if paren {
            out.push('(');
        }
        match f.exprs[e].kind {
            ExprKind::Binary(op, l, r) => {
                self.check_operands(e, op, l, r);
                let left_min = if op.is_comparison() { p + 1 } else { p };
                self.write_at(l, left_min, out);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                self.write_at(r, p + 1, out);
            }
            ExprKind::Unary(UnaryOp::Not, x) => {
                out.push_str("not ");
                self.write_at(x, NOT, out);
            }
            ExprKind::Unary(UnaryOp::Neg, x) => {
                out.push('-');
                self.write_at(x, NEG, out);
            }
            ExprKind::Int(n) => {
                let _ = write!(out, "{n}");
            }
            ExprKind::Float(x) => out.push_str(&format_float(x.get())),
            ExprKind::Bool(b) => out.push_str(if b { "True" } else { "False" }),
            ExprKind::None => self
                .diags
                .push(no_form("`none` as a value", f.exprs[e].span)),
            ExprKind::Dtype(s) => match names::dtype_name(s) {
                Some(n) => {
                    let _ = write!(out, "{PL}.{n}");
                }
                None => self.diags.push(no_form(
                    format_args!("the type `{}`", s.name()),
                    f.exprs[e].span,
                )),
            },
            ExprKind::Var(v) => out.push_str(f.var_name(v)),
            ExprKind::Unresolved(s) => out.push_str(f.names.get(s)),
            ExprKind::List(items) => self.list(f.list(items), out),
            ExprKind::Call(c) => self.call(e, c, out),
        }
        if paren {
            out.push(')');
        }
    }

    /// PyPTO's scalar operators other than `and` / `or` take numbers of
    /// one category (integers, or floats), never `bool`.
    fn check_operands(&mut self, e: ExprId, op: BinaryOp, l: ExprId, r: ExprId) {
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            return;
        }
        let scalar = |x: ExprId| match self.f.ty(x) {
            Type::Scalar(s) => Some(*s),
            _ => None,
        };
        let (Some(a), Some(b)) = (scalar(l), scalar(r)) else {
            return;
        };
        let span = self.f.exprs[e].span;
        if a == ScalarType::Bool || b == ScalarType::Bool {
            self.diags.push(
                no_form(format_args!("`{}` on `bool` operands", op.symbol()), span).with_note(
                    "PyPTO's scalar operators other than `and` and `or` do not take `bool`",
                ),
            );
        } else if a.is_float() != b.is_float() {
            self.diags.push(
                no_form(
                    format_args!("`{}` on an integer and a float", op.symbol()),
                    span,
                )
                .with_note(
                    "PyPTO's scalar operators take operands of one category: integers, or floats",
                ),
            );
        }
    }

    /// `self.f(x)` / `pl.ns.op(x, key=v)` / `pl.system.task_dummy(deps=[t])`.
    fn call(&mut self, e: ExprId, c: crate::ir::CallId, out: &mut String) {
        let f = self.f;
        let call = &f.calls[c];
        if call.builtin == Some(BuiltinOp::ArrayCreate)
            && let Some(n) = f.list(call.args).first()
            && !matches!(f.exprs[*n].kind, ExprKind::Int(k) if k.get() > 0)
        {
            self.diags.push(
                no_form(
                    "an `array.create` whose size is not a positive integer literal",
                    f.exprs[e].span,
                )
                .with_note("PyPTO's `pl.array.create` takes a constant, positive extent"),
            );
        }
        match call.callee {
            Callee::Function(id) => {
                out.push_str("self.");
                out.push_str(self.m.func_name(id));
            }
            Callee::Op(_) | Callee::Unresolved(_) => {
                out.push_str(PL);
                let name = f.callee_name(self.m, call.callee);
                let parts: Vec<&str> = name.split('.').collect();
                for (i, part) in parts.iter().enumerate() {
                    out.push('.');
                    if i + 1 < parts.len() && names::is_python_keyword(part) {
                        self.diags.push(
                            no_form(format_args!("the op name `{name}`"), f.exprs[e].span)
                                .with_note(format!("`{part}` is a Python keyword")),
                        );
                    }
                    out.push_str(&names::op_part_to_dsl(part));
                }
            }
        }
        out.push('(');
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !first {
                out.push_str(", ");
            }
            first = false;
        };
        for arg in f.list(call.args) {
            sep(out);
            self.write(*arg, out);
        }
        // PyPTO's `pl.system.task_dummy` needs `deps=`, even empty.
        if !call.manual_dep_edges.is_empty() || call.builtin == Some(BuiltinOp::TaskDummy) {
            sep(out);
            out.push_str("deps=");
            self.list(f.list(call.manual_dep_edges), out);
        }
        for kw in f.list(call.kwargs) {
            sep(out);
            let _ = write!(out, "{}=", f.names.get(kw.name));
            self.write(kw.value, out);
        }
        out.push(')');
    }
}
