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
//!
//! Comments written between the items of a list (kept by
//! [`super::attach`] as the statement's inner comments) stay after their
//! item, which forces that list, and the lists around it, to break; the
//! ones no list claims are printed above the statement by the printer.

use super::notes::InnerNote;
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

/// The comments inside a statement that the layout may keep in its lists.
struct Cx<'a> {
    inner: &'a [InnerNote<'a>],
    /// Per comment of `inner`: may it be placed (else it stays above).
    placeable: Vec<bool>,
    /// Per comment of `inner`: placed in a list.
    placed: Vec<bool>,
}

impl Cx<'_> {
    /// Claims the placeable comments in `from..to` (`inner` is in source
    /// order: a binary search, then the comments in the range).
    fn claim(&mut self, from: usize, to: usize) -> Vec<(bool, String)> {
        let mut out = Vec::new();
        let first = self.inner.partition_point(|c| c.at < from);
        for (i, c) in self.inner.iter().enumerate().skip(first) {
            if c.at >= to {
                break;
            }
            if !self.placed[i] && self.placeable[i] {
                self.placed[i] = true;
                out.push((c.own_line, c.note.text.trim_end().to_string()));
            }
        }
        out
    }
}

/// `line` (the canonical text of statement `s`, which starts at column
/// `indent`) laid out within `width` columns: `None` when it fits and no
/// comment of `inner` (those inside the statement's source but test
/// directives, whose offsets name lines) can be kept in one of its lists, or when it has
/// no list to break; else broken over several lines, each after the first
/// starting with `indent` spaces plus its own indentation, and which of
/// `inner` it holds (a list holding a comment is always broken, the
/// comment after its item, or on its own line before the next one when it
/// was on a line of its own).
pub fn fit_statement(
    m: &Module,
    f: &Function,
    s: StmtId,
    line: &str,
    indent: usize,
    width: usize,
    inner: &[InnerNote],
) -> Option<(String, Vec<bool>)> {
    let room = width.saturating_sub(indent).max(MIN_ROOM.min(width)).max(1);
    // Bytes count at least the characters: a shorter line fits.
    let fits = line.len() <= room || line.chars().count() <= room;
    let placeable: Vec<bool> = inner
        .iter()
        .map(|c| !super::print::is_directive(c.note.text))
        .collect();
    if fits && !placeable.iter().any(|p| *p) {
        return None;
    }
    let mut cx = Cx {
        inner,
        placeable,
        placed: vec![false; inner.len()],
    };
    let doc = statement(m, f, s, &mut cx)?;
    if fits && !cx.placed.iter().any(|p| *p) {
        return None;
    }
    let mut out = Vec::new();
    doc.render(room, &mut out).ok()?;
    let text = String::from_utf8(out).ok()?;
    let pad = " ".repeat(indent);
    Some((text.replace('\n', &format!("\n{pad}")), cx.placed))
}

fn text(s: impl Into<String>) -> Doc {
    RcDoc::text(s.into())
}

/// A list item: its document and the source bytes it was read from
/// (`None`: not known, e.g. made by lowering).
struct Item<'a> {
    doc: Box<dyn FnOnce(&mut Cx) -> Doc + 'a>,
    span: Option<(usize, usize)>,
}

fn item<'a>(span: Option<(usize, usize)>, doc: impl FnOnce(&mut Cx) -> Doc + 'a) -> Item<'a> {
    Item {
        doc: Box::new(doc),
        span,
    }
}

fn expr_span(f: &Function, e: ExprId) -> Option<(usize, usize)> {
    let sp = f.exprs[e].span;
    (sp.start() < sp.end()).then_some((sp.start(), sp.end()))
}

/// The span from the first to the last of `es`.
fn exprs_span(f: &Function, es: &[ExprId]) -> Option<(usize, usize)> {
    let first = expr_span(f, *es.first()?)?;
    let last = expr_span(f, *es.last()?)?;
    (first.0 <= last.1).then_some((first.0, last.1))
}

/// `open items close`, flat or one item per line. The comments of `cx`
/// between an item and the next one (after the last one: before `limit`)
/// are kept after that item, and break the list; the items' spans must
/// be known and in order, else no comment is claimed here.
fn bracketed(
    open: &'static str,
    items: Vec<Item>,
    close: &'static str,
    limit: usize,
    cx: &mut Cx,
) -> Doc {
    if items.is_empty() {
        return text(open).append(text(close));
    }
    let spans: Option<Vec<(usize, usize)>> = items.iter().map(|i| i.span).collect();
    let ordered = spans.as_ref().is_some_and(|sp| {
        sp.windows(2).all(|w| w[0].1 <= w[1].0) && sp.last().is_some_and(|l| l.1 <= limit)
    });
    // Claimed before the items are built: a comment between two items of
    // this list is this list's, not its last item's inner list's.
    let n = items.len();
    let comments: Vec<Vec<(bool, String)>> = match (&spans, ordered) {
        (Some(sp), true) => (0..n)
            .map(|i| {
                let to = if i + 1 < n { sp[i + 1].0 } else { limit };
                cx.claim(sp[i].1, to)
            })
            .collect(),
        _ => vec![Vec::new(); n],
    };
    let broken = comments.iter().any(|c| !c.is_empty());
    let mut body = RcDoc::line_();
    let mut tail = RcDoc::line_();
    for (i, (it, cs)) in items.into_iter().zip(comments).enumerate() {
        body = body.append((it.doc)(cx));
        if i + 1 < n {
            body = body.append(text(","));
        }
        for (k, (own_line, c)) in cs.iter().enumerate() {
            if k == 0 && !own_line {
                body = body.append(text(format!(" {c}")));
            } else {
                body = body.append(RcDoc::hardline()).append(text(c.clone()));
            }
        }
        if i + 1 < n {
            body = body.append(if cs.is_empty() {
                RcDoc::line()
            } else {
                RcDoc::hardline()
            });
        } else if !cs.is_empty() {
            tail = RcDoc::hardline();
        }
    }
    let doc = text(open)
        .append(body.nest(2))
        .append(tail)
        .append(text(close));
    if broken { doc } else { doc.group() }
}

/// Items separated by `, `, or one per line with a hanging indent.
fn hanging(items: Vec<Doc>) -> Doc {
    RcDoc::intersperse(items, RcDoc::text(",").append(RcDoc::line()))
        .nest(2)
        .group()
}

/// An expression: calls and lists are groups, anything else its text.
/// `limit`: where the comments after it may reach.
fn expr(m: &Module, f: &Function, e: ExprId, cx: &mut Cx) -> Doc {
    let limit = expr_span(f, e).map_or(0, |s| s.1);
    match f.exprs[e].kind {
        ExprKind::Call(c) => {
            let call = &f.calls[c];
            let mut items: Vec<Item> = f
                .list(call.args)
                .iter()
                .map(|&a| item(expr_span(f, a), move |cx: &mut Cx| expr(m, f, a, cx)))
                .collect();
            if !call.manual_dep_edges.is_empty() {
                items.push(deps_item(m, f, f.list(call.manual_dep_edges)));
            }
            for kw in f.list(call.kwargs) {
                items.push(item(expr_span(f, kw.value), move |cx: &mut Cx| {
                    kwarg(m, f, f.names.get(kw.name), kw.value, cx)
                }));
            }
            text(f.callee_name(m, call.callee).to_string())
                .append(bracketed("(", items, ")", limit, cx))
        }
        ExprKind::List(items) => list(m, f, f.list(items), limit, cx),
        _ => {
            let mut s = String::new();
            write_expr(m, f, e, &mut s);
            text(s)
        }
    }
}

/// `deps=[...]` as an item: comments after its last dependency are the
/// enclosing list's.
fn deps_item<'a>(m: &'a Module, f: &'a Function, deps: &'a [ExprId]) -> Item<'a> {
    let span = exprs_span(f, deps);
    let limit = span.map_or(0, |s| s.1);
    item(span, move |cx: &mut Cx| {
        text("deps=").append(list(m, f, deps, limit, cx))
    })
}

fn list(m: &Module, f: &Function, items: &[ExprId], limit: usize, cx: &mut Cx) -> Doc {
    let items = items
        .iter()
        .map(|&e| item(expr_span(f, e), move |cx: &mut Cx| expr(m, f, e, cx)))
        .collect();
    bracketed("[", items, "]", limit, cx)
}

/// `name=value` (the value alone without a name, as the printer writes it).
fn kwarg(m: &Module, f: &Function, name: &str, value: ExprId, cx: &mut Cx) -> Doc {
    if name.is_empty() {
        return expr(m, f, value, cx);
    }
    text(format!("{name}=")).append(expr(m, f, value, cx))
}

/// ` iter(x = init, ...)`.
fn iter_args(m: &Module, f: &Function, kind: &StmtKind, cx: &mut Cx) -> Doc {
    let ias = f.iter_args(kind);
    if ias.is_empty() {
        return RcDoc::nil();
    }
    let items = ias
        .iter()
        .map(|ia| {
            item(expr_span(f, ia.init), move |cx: &mut Cx| {
                text(format!("{} = ", iter_arg_binding(f, ia))).append(expr(m, f, ia.init, cx))
            })
        })
        .collect();
    text(" iter").append(bracketed("(", items, ")", usize::MAX, cx))
}

/// The document of statement `s`'s first line (as `stmt_head` prints it);
/// `None` for a head with no list to break (`if`, scopes).
fn statement(m: &Module, f: &Function, s: StmtId, cx: &mut Cx) -> Option<Doc> {
    let kind = &f.stmts[s].kind;
    let bindings = binding_texts(m, f, kind);
    let head = if bindings.is_empty() {
        RcDoc::nil()
    } else {
        hanging(bindings.into_iter().map(text).collect()).append(text(" = "))
    };
    let body = match kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => expr(m, f, *value, cx),
        StmtKind::Submit(sub) => {
            let sub = &f.submits[*sub];
            let mut items: Vec<Item> = f
                .list(sub.args)
                .iter()
                .map(|&a| item(expr_span(f, a), move |cx: &mut Cx| expr(m, f, a, cx)))
                .collect();
            if !sub.deps.is_empty() {
                items.push(deps_item(m, f, f.list(sub.deps)));
            }
            let optional = [
                ("core_num", sub.core_num),
                ("sync_start", sub.sync_start),
                ("allow_early_resolve", sub.allow_early_resolve),
            ];
            for (name, value) in optional {
                if let Some(v) = value {
                    items.push(item(expr_span(f, v), move |cx: &mut Cx| {
                        kwarg(m, f, name, v, cx)
                    }));
                }
            }
            if let Some(p) = sub.predicate {
                let mut s = String::new();
                write_expr(m, f, p, &mut s);
                items.push(item(expr_span(f, p), move |_: &mut Cx| {
                    text(format!("predicate=({s})"))
                }));
            }
            for kw in f.list(sub.rejected_kwargs) {
                items.push(item(expr_span(f, kw.value), move |cx: &mut Cx| {
                    kwarg(m, f, f.names.get(kw.name), kw.value, cx)
                }));
            }
            text(format!("submit {}", f.callee_name(m, sub.callee))).append(bracketed(
                "(",
                items,
                ")",
                usize::MAX,
                cx,
            ))
        }
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            // The bounds' comments end where the iter-args begin.
            let limit = f
                .iter_args(kind)
                .first()
                .and_then(|ia| expr_span(f, ia.init))
                .map_or(usize::MAX, |s| s.0);
            let bounds = f
                .written_bounds(l)
                .iter()
                .map(|&b| item(expr_span(f, b), move |cx: &mut Cx| expr(m, f, b, cx)))
                .collect();
            text(format!("for {} in {}", f.var_name(l.var), l.kind.keyword()))
                .append(bracketed("(", bounds, ")", limit, cx))
                .append(iter_args(m, f, kind, cx))
                .append(text(" {"))
        }
        StmtKind::While(w) => text("while ")
            .append(expr(m, f, f.whiles[*w].cond, cx))
            .append(iter_args(m, f, kind, cx))
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
                    .append(hanging(values.iter().map(|v| expr(m, f, *v, cx)).collect()))
            }
        }
        // Heads with no list to break: the canonical text stays.
        StmtKind::If(_) | StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {
            return None;
        }
    };
    Some(head.append(body))
}
