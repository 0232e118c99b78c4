//! Layout by width for `pfir fmt`: a statement line that does not fit in
//! the line width is broken at its lists, with the `pretty` crate (Wadler's
//! "prettier printer") deciding where.
//!
//! A line that fits is the canonical printer's line, untouched (the common
//! case costs one length check). A longer one is rebuilt as a `pretty`
//! document in which every bracketed list (a call's or `submit`'s
//! arguments, `deps=[...]` and other list literals, a loop's bounds and
//! `iter(...)`) is a group: flat when it fits, else one item per line, two
//! spaces further in than the line it opens on, with its closing bracket
//! on a line of its own. Result bindings and the values of `yield` and
//! `return` are groups too (one per line, with a hanging indent). `pretty`
//! tries the outermost group first, so inner lists stay flat whenever they
//! fit. The text is the canonical line's with line breaks and indentation
//! added: reading it back gives the same IR (the parser does not care about
//! line breaks), so `pfir opt` of a formatted file is `pfir opt` of the
//! original.

use crate::ir::{ExprId, ExprKind, Function, Module, StmtId, StmtKind};
use crate::printer::binding::{binding_texts, iter_arg_binding};
use crate::printer::expr::write_expr;
use pretty::RcDoc;

/// The line width `pfir fmt` uses unless told otherwise.
pub const DEFAULT_LINE_WIDTH: usize = 100;

type Doc = RcDoc<'static, ()>;

/// The room a statement always has, however deep it is indented: past
/// `width - MIN_ROOM` columns of indentation (deep nesting), a statement is
/// laid out as if `MIN_ROOM` columns (or `width`, if less) were left, so
/// that it is not broken into one-word lines.
pub const MIN_ROOM: usize = 40;

/// `line` (the canonical text of statement `s`, which starts at column
/// `indent`) laid out within `width` columns: `None` when it fits (or has
/// no list to break), else broken over several lines, each after the
/// first starting with `indent` spaces plus its own indentation.
pub fn fit_statement(
    m: &Module,
    f: &Function,
    s: StmtId,
    line: &str,
    indent: usize,
    width: usize,
) -> Option<String> {
    let room = width.saturating_sub(indent).max(MIN_ROOM.min(width)).max(1);
    if line.chars().count() <= room {
        return None;
    }
    let doc = statement(m, f, s)?;
    let mut out = Vec::new();
    doc.render(room, &mut out).ok()?;
    let text = String::from_utf8(out).ok()?;
    let pad = " ".repeat(indent);
    Some(text.replace('\n', &format!("\n{pad}")))
}

fn text(s: impl Into<String>) -> Doc {
    RcDoc::text(s.into())
}

/// `open items close`, flat or one item per line.
fn bracketed(open: &'static str, items: Vec<Doc>, close: &'static str) -> Doc {
    if items.is_empty() {
        return text(open).append(text(close));
    }
    text(open)
        .append(
            RcDoc::line_()
                .append(RcDoc::intersperse(
                    items,
                    RcDoc::text(",").append(RcDoc::line()),
                ))
                .nest(2),
        )
        .append(RcDoc::line_())
        .append(text(close))
        .group()
}

/// Items separated by `, `, or one per line with a hanging indent.
fn hanging(items: Vec<Doc>) -> Doc {
    RcDoc::intersperse(items, RcDoc::text(",").append(RcDoc::line()))
        .nest(2)
        .group()
}

/// An expression: calls and lists are groups, anything else its text.
fn expr(m: &Module, f: &Function, e: ExprId) -> Doc {
    match f.exprs[e].kind {
        ExprKind::Call(c) => {
            let call = &f.calls[c];
            let mut items: Vec<Doc> = f.list(call.args).iter().map(|a| expr(m, f, *a)).collect();
            if !call.manual_dep_edges.is_empty() {
                items.push(text("deps=").append(list(m, f, f.list(call.manual_dep_edges))));
            }
            for kw in f.list(call.kwargs) {
                items.push(kwarg(m, f, f.names.get(kw.name), kw.value));
            }
            text(f.callee_name(m, call.callee).to_string()).append(bracketed("(", items, ")"))
        }
        ExprKind::List(items) => list(m, f, f.list(items)),
        _ => {
            let mut s = String::new();
            write_expr(m, f, e, &mut s);
            text(s)
        }
    }
}

fn list(m: &Module, f: &Function, items: &[ExprId]) -> Doc {
    bracketed("[", items.iter().map(|e| expr(m, f, *e)).collect(), "]")
}

/// `name=value` (the value alone without a name, as the printer writes it).
fn kwarg(m: &Module, f: &Function, name: &str, value: ExprId) -> Doc {
    if name.is_empty() {
        return expr(m, f, value);
    }
    text(format!("{name}=")).append(expr(m, f, value))
}

/// ` iter(x = init, ...)`.
fn iter_args(m: &Module, f: &Function, kind: &StmtKind) -> Doc {
    let ias = f.iter_args(kind);
    if ias.is_empty() {
        return RcDoc::nil();
    }
    let items = ias
        .iter()
        .map(|ia| text(format!("{} = ", iter_arg_binding(f, ia))).append(expr(m, f, ia.init)))
        .collect();
    text(" iter").append(bracketed("(", items, ")"))
}

/// The document of statement `s`'s first line (as `stmt_head` prints it);
/// `None` for a head with no list to break (`if`, scopes).
fn statement(m: &Module, f: &Function, s: StmtId) -> Option<Doc> {
    let kind = &f.stmts[s].kind;
    let bindings = binding_texts(m, f, kind);
    let head = if bindings.is_empty() {
        RcDoc::nil()
    } else {
        hanging(bindings.into_iter().map(text).collect()).append(text(" = "))
    };
    let body = match kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => expr(m, f, *value),
        StmtKind::Submit(sub) => {
            let sub = &f.submits[*sub];
            let mut items: Vec<Doc> = f.list(sub.args).iter().map(|a| expr(m, f, *a)).collect();
            if !sub.deps.is_empty() {
                items.push(text("deps=").append(list(m, f, f.list(sub.deps))));
            }
            let optional = [
                ("core_num", sub.core_num),
                ("sync_start", sub.sync_start),
                ("allow_early_resolve", sub.allow_early_resolve),
            ];
            for (name, value) in optional {
                if let Some(v) = value {
                    items.push(kwarg(m, f, name, v));
                }
            }
            if let Some(p) = sub.predicate {
                let mut s = String::new();
                write_expr(m, f, p, &mut s);
                items.push(text(format!("predicate=({s})")));
            }
            for kw in f.list(sub.rejected_kwargs) {
                items.push(kwarg(m, f, f.names.get(kw.name), kw.value));
            }
            text(format!("submit {}", f.callee_name(m, sub.callee)))
                .append(bracketed("(", items, ")"))
        }
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            let bounds = f.written_bounds(l).iter().map(|b| expr(m, f, *b)).collect();
            text(format!("for {} in {}", f.var_name(l.var), l.kind.keyword()))
                .append(bracketed("(", bounds, ")"))
                .append(iter_args(m, f, kind))
                .append(text(" {"))
        }
        StmtKind::While(w) => text("while ")
            .append(expr(m, f, f.whiles[*w].cond))
            .append(iter_args(m, f, kind))
            .append(text(" {")),
        StmtKind::Yield(values) | StmtKind::Return(values) => {
            let word = if matches!(kind, StmtKind::Yield(_)) {
                "yield"
            } else {
                "return"
            };
            let values = f.list(*values);
            if values.is_empty() {
                text(word)
            } else {
                text(format!("{word} "))
                    .append(hanging(values.iter().map(|v| expr(m, f, *v)).collect()))
            }
        }
        // Heads with no list to break: the canonical text stays.
        StmtKind::If(_) | StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {
            return None;
        }
    };
    Some(head.append(body))
}
