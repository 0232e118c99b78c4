//! Short descriptions of IR nodes for messages (structural-equality
//! mismatches), written by the IR itself so that `ir` never calls the
//! printer. The text reads like source but is not the canonical form:
//! expressions are cut at [`MAX_DEPTH`] levels (`...`), blocks are left out.

use super::{ExprId, ExprKind, Function, Module, StmtId, StmtKind};
use std::fmt::Write as _;

/// How many levels of an expression a description shows.
pub const MAX_DEPTH: u32 = 3;

/// `e` as short source-like text (`a + f(x, ...)`), at most [`MAX_DEPTH`]
/// levels deep, fully parenthesised below the top.
pub fn describe_expr(m: &Module, f: &Function, e: ExprId) -> String {
    let mut out = String::new();
    expr_into(m, f, e, 0, &mut out);
    out
}

fn list_into(m: &Module, f: &Function, items: &[ExprId], depth: u32, out: &mut String) {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        expr_into(m, f, *x, depth, out);
    }
}

fn expr_into(m: &Module, f: &Function, e: ExprId, depth: u32, out: &mut String) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    let nested = |out: &mut String, x: ExprId| {
        let compound = depth < MAX_DEPTH
            && matches!(f.exprs[x].kind, ExprKind::Binary(..) | ExprKind::Unary(..));
        if compound {
            out.push('(');
        }
        expr_into(m, f, x, depth + 1, out);
        if compound {
            out.push(')');
        }
    };
    match &f.exprs[e].kind {
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Float(x) => {
            let _ = write!(out, "{:?}", x.get());
        }
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::None => out.push_str("none"),
        ExprKind::Dtype(s) => out.push_str(s.name()),
        ExprKind::Var(v) => out.push_str(f.var_name(*v)),
        ExprKind::Unresolved(s) => out.push_str(f.names.get(*s)),
        ExprKind::Unary(op, x) => {
            out.push_str(match op {
                super::UnaryOp::Not => "not ",
                super::UnaryOp::Neg => "-",
            });
            nested(out, *x);
        }
        ExprKind::Binary(op, l, r) => {
            nested(out, *l);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            nested(out, *r);
        }
        ExprKind::Call(call) => {
            let call = &f.calls[*call];
            out.push_str(f.callee_name(m, call.callee));
            out.push('(');
            list_into(m, f, f.list(call.args), depth + 1, out);
            out.push(')');
        }
        ExprKind::List(items) => {
            out.push('[');
            list_into(m, f, f.list(*items), depth + 1, out);
            out.push(']');
        }
    }
}

/// The first line of statement `s` as short source-like text: its bindings
/// and what it does, up to the opening `{` of a block (`y = x`,
/// `for i in parallel(4) {`).
pub fn describe_stmt(m: &Module, f: &Function, s: StmtId) -> String {
    let mut out = String::new();
    let kind = &f.stmts[s].kind;
    let results = f.results(kind);
    for (i, v) in results.iter().enumerate() {
        out.push_str(if i > 0 { ", " } else { "" });
        out.push_str(f.var_name(*v));
    }
    if !results.is_empty() {
        out.push_str(" = ");
    }
    match kind {
        StmtKind::Assign { value: e, .. } | StmtKind::Eval(e) => expr_into(m, f, *e, 0, &mut out),
        StmtKind::Submit(submit) => {
            let submit = &f.submits[*submit];
            out.push_str("submit ");
            out.push_str(f.callee_name(m, submit.callee));
            out.push('(');
            list_into(m, f, f.list(submit.args), 1, &mut out);
            out.push(')');
        }
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            let _ = write!(out, "for {} in {}(", f.var_name(l.var), l.kind.keyword());
            list_into(m, f, &f.written_bounds(l), 1, &mut out);
            out.push_str(") {");
        }
        StmtKind::While(w) => {
            out.push_str("while ");
            expr_into(m, f, f.whiles[*w].cond, 0, &mut out);
            out.push_str(" {");
        }
        StmtKind::If(i) => {
            out.push_str("if ");
            expr_into(m, f, f.ifs[*i].cond, 0, &mut out);
            out.push_str(" {");
        }
        StmtKind::Scope(sc) => {
            let sc = &f.scopes[*sc];
            out.push_str(sc.keyword());
            if let Some(name) = sc.name {
                let _ = write!(out, " {:?}", f.names.get(name));
            }
            out.push_str(" {");
        }
        StmtKind::Yield(values) | StmtKind::Return(values) => {
            out.push_str(if matches!(kind, StmtKind::Yield(_)) {
                "yield"
            } else {
                "return"
            });
            if !values.is_empty() {
                out.push(' ');
                list_into(m, f, f.list(*values), 0, &mut out);
            }
        }
        StmtKind::Break => out.push_str("break"),
        StmtKind::Continue => out.push_str("continue"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{MAX_DEPTH, describe_expr, describe_stmt};
    use crate::ir::builder::Builder;
    use crate::ir::{BinaryOp, ExprKind, FuncKind, Function, LoopKind, Module, Span, Type};

    /// A left-leaning chain `x + 1 + 1 + ...` deeper than the limit is cut
    /// with `...`, and the description stays short.
    #[test]
    fn deep_expressions_are_cut() {
        let mut f = Function::new("f", FuncKind::Opaque);
        let x = f.new_var("x", Type::I64, Span::default());
        let mut e = f.new_expr(ExprKind::Var(x), Type::I64, Span::default());
        for _ in 0..1000 {
            let one = f.new_expr(ExprKind::Int(1.into()), Type::I64, Span::default());
            e = f.new_expr(
                ExprKind::Binary(BinaryOp::Add, e, one),
                Type::I64,
                Span::default(),
            );
        }
        let text = describe_expr(&Module::default(), &f, e);
        assert!(text.contains("..."), "{text}");
        assert!(text.ends_with(" + 1"), "{text}");
        assert_eq!(text.matches('(').count() as u32, MAX_DEPTH, "{text}");
    }

    /// A loop is described with the printer's bounds: defaults left out,
    /// a start other than 0 (or a step other than 1) shown.
    #[test]
    fn loop_heads_use_the_written_bounds() {
        let head = |start: i64, step: i64| {
            let mut b = Builder::new("f", FuncKind::Opaque);
            let i = b.var("i", Type::INDEX);
            let (s, e, st) = (b.int(start), b.int(8), b.int(step));
            let l = b.for_([], LoopKind::Range, i, Some(s), e, Some(st), [], []);
            let f = b.finish([l]);
            describe_stmt(&Module::default(), &f, l)
        };
        assert_eq!(head(0, 1), "for i in range(8) {");
        assert_eq!(head(2, 1), "for i in range(2, 8) {");
        assert_eq!(head(0, 2), "for i in range(0, 8, 2) {");
    }
}
