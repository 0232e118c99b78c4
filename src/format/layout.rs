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

use super::doc::{Builder, Doc, Docs};
use super::notes::InnerNote;
use crate::ir::if_chain::else_if_arm;
use crate::ir::{Anchor, ExprId, ExprKind, Function, IterArg, Module, StmtId, StmtKind};
use crate::printer::binding::{each_binding_text, unannotated_bindings, write_iter_arg_binding};
use crate::printer::expr::{binary_operands, parenthesised, write_expr, write_operand};
use crate::printer::{write_function_close, write_function_open, write_param};
use bumpalo::Bump;
use smallvec::SmallVec;
use std::ops::Range;

/// The line width `pfir fmt` uses unless told otherwise.
pub const DEFAULT_LINE_WIDTH: usize = 100;

/// What laying out statements reuses from one to the next (the printer
/// keeps one), so that laying one out allocates next to nothing: the
/// arena its document is built in (`format::doc`) and buffers.
#[derive(Default)]
pub struct Scratch {
    bump: Bump,
    text: String,
    placeable: Vec<bool>,
}

/// The items of a list (most have a few).
type Items<'a> = SmallVec<[Item<'a>; 4]>;

/// The room a statement always has, however deep it is indented: past
/// `width - MIN_ROOM` columns of indentation (deep nesting), a statement is
/// laid out as if `MIN_ROOM` columns (or `width`, if less) were left, so
/// that it is not broken into one-word lines.
pub const MIN_ROOM: usize = 40;

/// The statement being laid out: its function, the builder of its
/// document, and the comments inside it that the layout may keep in its
/// lists.
struct Cx<'a, 's> {
    m: &'a Module,
    f: &'a Function,
    b: &'a Builder<'a>,
    /// Reused for the text of expressions before it is copied into the
    /// arena.
    scratch: &'s mut String,
    inner: &'a [InnerNote<'a>],
    /// Per comment of `inner`: may it be placed (else it stays above).
    placeable: &'s [bool],
    /// Per comment of `inner`: placed in a list.
    placed: &'s mut [bool],
}

impl<'a> Cx<'a, '_> {
    /// The text `write` appends to an empty string, as a document.
    fn written(&mut self, write: impl FnOnce(&mut String)) -> Doc<'a> {
        self.scratch.clear();
        write(self.scratch);
        self.b.text(self.scratch)
    }

    /// Claims the placeable comments in `from..to` (`inner` is in source
    /// order: a binary search, then the comments in the range).
    fn claim(&mut self, from: usize, to: usize) -> Vec<(bool, &'a str)> {
        let mut out = Vec::new();
        let first = self.inner.partition_point(|c| c.at < from);
        for (i, c) in self.inner.iter().enumerate().skip(first) {
            if c.at >= to {
                break;
            }
            if !self.placed[i] && self.placeable[i] {
                self.placed[i] = true;
                out.push((c.own_line, c.note.text.trim_end()));
            }
        }
        out
    }
}

/// Whether statement `kind`'s head has a bracketed list (the only place a
/// comment inside it can be kept).
fn has_list(f: &Function, kind: &StmtKind) -> bool {
    let is_list = |e: ExprId| matches!(f.exprs[e].kind, ExprKind::Call(_) | ExprKind::List(_));
    match kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => is_list(*value),
        StmtKind::Submit(_) | StmtKind::For(_) => true,
        StmtKind::While(w) => is_list(f.whiles[*w].cond) || !f.iter_args(kind).is_empty(),
        StmtKind::Yield(values) | StmtKind::Return(values) => {
            f.list(*values).iter().any(|&v| is_list(v))
        }
        StmtKind::If(_) | StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => false,
    }
}

/// A line to lay out: what it prints (a statement, the function header, an
/// `} else if c {` line), its canonical text (which starts at column
/// `indent`), and the comments inside its source ([`InnerNote`]).
pub struct Request<'r> {
    /// The line: a statement's, the function header or an `} else` line.
    pub anchor: Anchor,
    pub line: &'r str,
    pub indent: usize,
    pub inner: &'r [InnerNote<'r>],
    /// Not broken by width (an `expected-*` directive names the line):
    /// laid out only where a comment keeps a list broken.
    pub pinned: bool,
}

/// A statement laid out by [`fit_statements`]: where its text is in the
/// output buffer (its lines after the first start with its indentation),
/// how many line breaks the text holds, and where the flags of its
/// `placed` comments are (one per comment of its request's `inner`: kept
/// in one of its lists).
#[derive(Clone, Debug)]
pub struct Laid {
    pub text: Range<usize>,
    pub breaks: usize,
    pub placed: Range<usize>,
}

/// Lays out the statements of `requests` (`None`: a line that is not a
/// statement) within `width` columns, into `out` and `placed`, with what
/// `scratch` holds. `laid` gets one entry per request: `None` when the
/// line stays as it is, because it fits and no comment inside it (but a
/// test directive, whose offsets name lines) can be kept in one of its
/// lists, or because it has no list to break. Else the statement broken
/// over several lines (a list holding a comment is always broken, the
/// comment after its item, or on its own line before the next one when it
/// was on a line of its own).
///
/// The statements are built into one arena and laid out by one `pretty`
/// render per room (see [`MIN_ROOM`]): a render of several statements,
/// each followed by a zero-width mark and a line break, lays each out as
/// a render of its own would (a group looks no further than the next line
/// break), and the mark tells where each ends.
pub fn fit_statements<'r>(
    (m, f): (&Module, &Function),
    width: usize,
    requests: impl Iterator<Item = Option<Request<'r>>>,
    scratch: &mut Scratch,
    (out, placed): (&mut String, &mut Vec<bool>),
    laid: &mut Vec<Option<Laid>>,
) {
    out.clear();
    placed.clear();
    laid.clear();
    scratch.bump.reset();
    let docs = Docs(&scratch.bump);
    let b = Builder::new(&docs);
    // The statements to render: room, index in `laid`, indentation, document.
    let mut built = Vec::new();
    for request in requests {
        let Some(r) = request else {
            laid.push(None);
            continue;
        };
        let room = if r.pinned {
            // Wider than any line (and than `pretty`'s arithmetic needs).
            u32::MAX as usize
        } else {
            width
                .saturating_sub(r.indent)
                .max(MIN_ROOM.min(width))
                .max(1)
        };
        // Bytes count at least the characters: a shorter line fits.
        let fits = r.line.len() <= room || r.line.chars().count() <= room;
        let keeps_comments = match r.anchor {
            Anchor::Stmt(s) => has_list(f, &f.stmts[s].kind),
            Anchor::Head | Anchor::Else(_) | Anchor::Close(_) => false,
        };
        if fits && (r.inner.is_empty() || !keeps_comments) {
            laid.push(None);
            continue;
        }
        let placeable = &mut scratch.placeable;
        placeable.clear();
        placeable.extend(
            r.inner
                .iter()
                .map(|c| !super::print::is_directive(c.note.text)),
        );
        if fits && !placeable.iter().any(|p| *p) {
            laid.push(None);
            continue;
        }
        let from = placed.len();
        placed.resize(from + r.inner.len(), false);
        let mut cx = Cx {
            m,
            f,
            b: &b,
            scratch: &mut scratch.text,
            inner: r.inner,
            placeable,
            placed: &mut placed[from..],
        };
        let doc = match r.anchor {
            Anchor::Stmt(s) => statement(s, r.line, &mut cx),
            Anchor::Head => header(&mut cx),
            Anchor::Else(s) => else_if(s, &mut cx),
            Anchor::Close(_) => None,
        };
        match doc {
            Some(doc) if !fits || placed[from..].iter().any(|p| *p) => {
                built.push((room, laid.len(), r.indent, doc));
                laid.push(Some(Laid {
                    text: 0..0,
                    breaks: 0,
                    placed: from..placed.len(),
                }));
            }
            _ => {
                placed.truncate(from);
                laid.push(None);
            }
        }
    }
    built.sort_by_key(|&(room, ..)| room);
    let mark = b.mark();
    for run in built.chunk_by(|x, y| x.0 == y.0) {
        let mut doc = b.nil();
        for &(.., d) in run {
            doc = b.concat([doc, d, mark, b.hardline()]);
        }
        let mut w = Marked {
            out: &mut *out,
            mark: b.mark_text(),
            run,
            next: 0,
            start: 0,
            breaks: 0,
            after_mark: false,
            laid: &mut *laid,
        };
        w.start = w.out.len();
        if doc.render_raw(run[0].0, &mut w).is_err() {
            for &(_, index, ..) in run {
                laid[index] = None;
            }
        }
    }
}

/// The writer of a render of several statements (a run of
/// [`fit_statements`]): each statement's text, with its indentation added
/// after every line break, into `out`, and where it ends into `laid` at
/// its mark (the line break after a mark separates two statements and is
/// not written).
struct Marked<'o, 'd> {
    out: &'o mut String,
    mark: &'d str,
    run: &'o [(usize, usize, usize, Doc<'d>)],
    /// The statement being written (its index in `run`).
    next: usize,
    start: usize,
    breaks: usize,
    after_mark: bool,
    laid: &'o mut [Option<Laid>],
}

impl pretty::Render for Marked<'_, '_> {
    type Error = ();

    fn write_str(&mut self, s: &str) -> Result<usize, ()> {
        self.write_str_all(s).map(|()| s.len())
    }

    fn write_str_all(&mut self, s: &str) -> Result<(), ()> {
        const SPACES: &str = "                                ";
        if std::ptr::eq(s, self.mark) {
            let &(_, index, ..) = self.run.get(self.next).ok_or(())?;
            if let Some(Some(laid)) = self.laid.get_mut(index) {
                laid.text = self.start..self.out.len();
                laid.breaks = self.breaks;
            }
            self.next += 1;
            self.breaks = 0;
            self.after_mark = true;
            return Ok(());
        }
        // `pretty` writes each line break on its own (texts hold none).
        if s != "\n" {
            self.out.push_str(s);
            return Ok(());
        }
        if std::mem::take(&mut self.after_mark) {
            self.start = self.out.len();
            return Ok(());
        }
        self.out.push('\n');
        self.breaks += 1;
        let mut spaces = self.run.get(self.next).map_or(0, |r| r.2);
        while spaces > 0 {
            let n = spaces.min(SPACES.len());
            self.out.push_str(&SPACES[..n]);
            spaces -= n;
        }
        Ok(())
    }

    fn fail_doc(&self) {}
}

impl pretty::RenderAnnotated<'_, ()> for Marked<'_, '_> {
    fn push_annotation(&mut self, _: &()) -> Result<(), ()> {
        Ok(())
    }

    fn pop_annotation(&mut self) -> Result<(), ()> {
        Ok(())
    }
}

/// What a list item is.
#[derive(Copy, Clone)]
enum Piece<'a> {
    Expr(ExprId),
    /// `deps=[...]`.
    Deps(&'a [ExprId]),
    /// `name=value` (the value alone for no name).
    Kwarg(&'a str, ExprId),
    /// `predicate=(...)`.
    Predicate(ExprId),
    /// `x = init` of `iter(...)`.
    IterArg(&'a IterArg),
    /// A parameter of the function header (by index).
    Param(usize),
}

/// A list item: what it is and the source bytes it was read from (`None`:
/// not known, e.g. made by lowering).
struct Item<'a> {
    piece: Piece<'a>,
    span: Option<(usize, usize)>,
}

impl<'a> Cx<'a, '_> {
    fn expr_span(&self, e: ExprId) -> Option<(usize, usize)> {
        let sp = self.f.exprs[e].span;
        (sp.start() < sp.end()).then_some((sp.start(), sp.end()))
    }

    /// The span from the first to the last of `es`.
    fn exprs_span(&self, es: &[ExprId]) -> Option<(usize, usize)> {
        let first = self.expr_span(*es.first()?)?;
        let last = self.expr_span(*es.last()?)?;
        (first.0 <= last.1).then_some((first.0, last.1))
    }

    fn item(&self, piece: Piece<'a>) -> Item<'a> {
        let span = match piece {
            Piece::Expr(e) | Piece::Kwarg(_, e) | Piece::Predicate(e) => self.expr_span(e),
            Piece::Deps(deps) => self.exprs_span(deps),
            Piece::IterArg(ia) => self.expr_span(ia.init),
            // Comments inside a header move above it.
            Piece::Param(_) => None,
        };
        Item { piece, span }
    }

    fn exprs(&self, es: &[ExprId]) -> Items<'a> {
        es.iter().map(|&e| self.item(Piece::Expr(e))).collect()
    }

    /// A list item followed by `suffix` (its comma, if any).
    fn piece(&mut self, piece: Piece<'a>, suffix: &str) -> Doc<'a> {
        match piece {
            Piece::Expr(e) => self.expr(e, suffix),
            Piece::Deps(deps) => {
                // Comments after its last dependency are the enclosing list's.
                let limit = self.exprs_span(deps).map_or(0, |s| s.1);
                self.list("deps=[", deps, limit, suffix)
            }
            Piece::Kwarg(name, value) => self.kwarg(name, value, suffix),
            Piece::Predicate(p) => {
                let (m, f) = (self.m, self.f);
                self.written(|s| {
                    s.push_str("predicate=(");
                    write_expr(m, f, p, s);
                    s.push(')');
                    s.push_str(suffix);
                })
            }
            Piece::IterArg(ia) => {
                let f = self.f;
                let binding = self.written(|s| {
                    write_iter_arg_binding(f, ia, s);
                    s.push_str(" = ");
                });
                let init = self.expr(ia.init, suffix);
                self.b.cat(binding, init)
            }
            Piece::Param(i) => {
                let f = self.f;
                self.written(|s| {
                    write_param(f, &f.params[i], s);
                    s.push_str(suffix);
                })
            }
        }
    }

    /// Condition `e` of an `if`, `} else if` or `while`, then ` {`. A chain
    /// of one operator at its top (`a and b and c`, `x + y < n`) breaks
    /// before each operator, two spaces further in, with the `{` on a line
    /// of its own (so that the body stands apart); an operand that is a
    /// call breaks at its arguments.
    fn condition(&mut self, e: ExprId, brace: bool) -> Doc<'a> {
        let b = self.b;
        // The left spine of the top operator's level, walked without
        // recursion (conditions may be deep): operands, last first.
        let mut operands: SmallVec<[(Option<&'static str>, ExprId, u8); 4]> = SmallVec::new();
        let mut at = (e, 0u8);
        let top = binary_operands(self.f, e).map(|(op, ..)| op);
        loop {
            match binary_operands(self.f, at.0) {
                Some((op, left, (r, rmin)))
                    if Some(op) == top && !parenthesised(self.f, at.0, at.1) =>
                {
                    operands.push((Some(op.symbol()), r, rmin));
                    at = left;
                }
                _ => {
                    operands.push((None, at.0, at.1));
                    break;
                }
            }
        }
        let end = if brace { " {" } else { "" };
        if operands.len() < 2 {
            let cond = self.expr(e, "");
            return b.cat(cond, b.text(end));
        }
        let mut doc = b.nil();
        for &(op, x, min) in operands.iter().rev() {
            let operand = if parenthesised(self.f, x, min) {
                let (m, f) = (self.m, self.f);
                self.written(|s| write_operand(m, f, x, min, s))
            } else {
                self.expr(x, "")
            };
            doc = match op {
                None => operand,
                Some(op) => b.concat([doc, b.line(), b.text2(op, " "), operand]),
            };
        }
        let doc = b.nest(doc, 2);
        if brace {
            b.group(b.concat([doc, b.line(), b.text("{")]))
        } else {
            b.group(doc)
        }
    }

    /// `open items close`, flat or one item per line. The comments of `cx`
    /// between an item and the next one (after the last one: before
    /// `limit`) are kept after that item, and break the list; the items'
    /// spans must be known and in order, else no comment is claimed here.
    fn bracketed(
        &mut self,
        open: Doc<'a>,
        items: Items<'a>,
        close: Doc<'a>,
        limit: usize,
    ) -> Doc<'a> {
        if items.is_empty() {
            return self.b.cat(open, close);
        }
        let n = items.len();
        let may_claim = self.placeable.iter().any(|p| *p)
            && items.iter().all(|i| i.span.is_some())
            && items.windows(2).all(|w| match (w[0].span, w[1].span) {
                (Some(a), Some(b)) => a.1 <= b.0,
                _ => false,
            })
            && items
                .last()
                .and_then(|l| l.span)
                .is_some_and(|l| l.1 <= limit);
        // Claimed before the items are built: a comment between two items of
        // this list is this list's, not its last item's inner list's.
        let comments: Vec<Vec<(bool, &'a str)>> = if may_claim {
            (0..n)
                .map(|i| {
                    let to = match items.get(i + 1) {
                        Some(next) => next.span.map_or(limit, |s| s.0),
                        None => limit,
                    };
                    let from = items[i].span.map_or(0, |s| s.1);
                    self.claim(from, to)
                })
                .collect()
        } else {
            Vec::new()
        };
        let none: &[(bool, &str)] = &[];
        let broken = comments.iter().any(|c| !c.is_empty());
        let b = self.b;
        let mut body = b.line_();
        let mut tail = b.line_();
        for (i, it) in items.into_iter().enumerate() {
            let cs = comments.get(i).map_or(none, |c| &c[..]);
            let item = self.piece(it.piece, if i + 1 < n { "," } else { "" });
            body = b.cat(body, item);
            for (k, &(own_line, c)) in cs.iter().enumerate() {
                if k == 0 && !own_line {
                    body = b.cat(body, b.text2(" ", c));
                } else {
                    body = b.concat([body, b.hardline(), b.text(c)]);
                }
            }
            if i + 1 < n {
                body = b.cat(
                    body,
                    if cs.is_empty() {
                        b.line()
                    } else {
                        b.hardline()
                    },
                );
            } else if !cs.is_empty() {
                tail = b.hardline();
            }
        }
        let doc = b.concat([open, b.nest(body, 2), tail, close]);
        if broken { doc } else { b.group(doc) }
    }

    /// Items (each but the last ending in its comma) separated by spaces,
    /// or one per line with a hanging indent.
    fn hanging(&self, items: SmallVec<[Doc<'a>; 4]>) -> Doc<'a> {
        let b = self.b;
        let mut doc = b.nil();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                doc = b.cat(doc, b.line());
            }
            doc = b.cat(doc, item);
        }
        b.group(b.nest(doc, 2))
    }

    /// An expression followed by `suffix`: calls and lists are groups,
    /// anything else its text.
    fn expr(&mut self, e: ExprId, suffix: &str) -> Doc<'a> {
        crate::stack::ensure(|| self.expr_here(e, suffix))
    }

    /// [`Self::expr`], on the stack [`crate::stack::ensure`] left.
    fn expr_here(&mut self, e: ExprId, suffix: &str) -> Doc<'a> {
        let (m, f) = (self.m, self.f);
        let limit = self.expr_span(e).map_or(0, |s| s.1);
        match f.exprs[e].kind {
            ExprKind::Call(c) => {
                let call = &f.calls[c];
                let mut items = self.exprs(f.list(call.args));
                if !call.manual_dep_edges.is_empty() {
                    items.push(self.item(Piece::Deps(f.list(call.manual_dep_edges))));
                }
                for kw in f.list(call.kwargs) {
                    items.push(self.item(Piece::Kwarg(f.names.get(kw.name), kw.value)));
                }
                let open = self.b.text2(f.callee_name(m, call.callee), "(");
                let close = self.b.text2(")", suffix);
                self.bracketed(open, items, close, limit)
            }
            ExprKind::List(items) => self.list("[", f.list(items), limit, suffix),
            // As `write_expr` writes it: its name.
            ExprKind::Var(v) => self.b.text2(f.var_name(v), suffix),
            _ => self.written(|s| {
                write_expr(m, f, e, s);
                s.push_str(suffix);
            }),
        }
    }

    /// `open` (which ends in `[`), the items, `]` and `suffix`.
    fn list(&mut self, open: &str, items: &'a [ExprId], limit: usize, suffix: &str) -> Doc<'a> {
        let items = self.exprs(items);
        let (open, close) = (self.b.text(open), self.b.text2("]", suffix));
        self.bracketed(open, items, close, limit)
    }

    /// `name=value` (the value alone without a name, as the printer writes
    /// it), then `suffix`.
    fn kwarg(&mut self, name: &'a str, value: ExprId, suffix: &str) -> Doc<'a> {
        if name.is_empty() {
            return self.expr(value, suffix);
        }
        let value = self.expr(value, suffix);
        self.b.cat(self.b.text2(name, "="), value)
    }

    /// ` iter(x = init, ...)`.
    fn iter_args(&mut self, kind: &StmtKind) -> Doc<'a> {
        let ias = self.f.iter_args(kind);
        if ias.is_empty() {
            return self.b.nil();
        }
        let items = ias.iter().map(|ia| self.item(Piece::IterArg(ia))).collect();
        let (open, close) = (self.b.text(" iter("), self.b.text(")"));
        self.bracketed(open, items, close, usize::MAX)
    }
}

/// The document of statement `s`'s first line, whose canonical text is
/// `line` (as `printer::stmt::stmt_head_into` prints it); `None` for a head with no list to
/// break (`if`, scopes).
fn statement<'a>(s: StmtId, line: &'a str, cx: &mut Cx<'a, '_>) -> Option<Doc<'a>> {
    let (m, f, b) = (cx.m, cx.f, cx.b);
    let kind = &f.stmts[s].kind;
    let mut bindings = SmallVec::new();
    // The last binding ends in ` = ` (no line break can come before it).
    // Most are written without their types: the text of the canonical line.
    if unannotated_bindings(f, kind, line, |binding| bindings.push(b.borrowed(binding))).is_none() {
        bindings.clear();
        let mut buffer = std::mem::take(&mut *cx.scratch);
        let count = f.results(kind).len();
        each_binding_text((m, f, kind), &mut buffer, |binding| {
            let end = if bindings.len() + 1 < count {
                ","
            } else {
                " = "
            };
            bindings.push(b.text2(binding, end));
        });
        *cx.scratch = buffer;
    }
    let head = if bindings.is_empty() {
        b.nil()
    } else {
        cx.hanging(bindings)
    };
    let body = match kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => cx.expr(*value, ""),
        StmtKind::Submit(sub) => {
            let sub = &f.submits[*sub];
            let mut items = cx.exprs(f.list(sub.args));
            if !sub.deps.is_empty() {
                items.push(cx.item(Piece::Deps(f.list(sub.deps))));
            }
            for (name, value) in sub.value_kwargs() {
                if let Some(v) = value {
                    items.push(cx.item(Piece::Kwarg(name, v)));
                }
            }
            if let Some(p) = sub.predicate {
                items.push(cx.item(Piece::Predicate(p)));
            }
            for kw in f.list(sub.rejected_kwargs) {
                items.push(cx.item(Piece::Kwarg(f.names.get(kw.name), kw.value)));
            }
            let open = cx.written(|s| {
                s.push_str("submit ");
                s.push_str(f.callee_name(m, sub.callee));
                s.push('(');
            });
            let close = b.text(")");
            cx.bracketed(open, items, close, usize::MAX)
        }
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            // The bounds' comments end where the iter-args begin.
            let limit = f
                .iter_args(kind)
                .first()
                .and_then(|ia| cx.expr_span(ia.init))
                .map_or(usize::MAX, |s| s.0);
            let bounds = cx.exprs(&f.written_bounds(l));
            let open = cx.written(|s| {
                s.push_str("for ");
                s.push_str(f.var_name(l.var));
                s.push_str(" in ");
                s.push_str(l.kind.keyword());
                s.push('(');
            });
            let close = b.text(")");
            let bounds = cx.bracketed(open, bounds, close, limit);
            let iter = cx.iter_args(kind);
            b.concat([bounds, iter, b.text(" {")])
        }
        StmtKind::While(w) => {
            let cond = f.whiles[*w].cond;
            if f.iter_args(kind).is_empty() {
                b.cat(b.text("while "), cx.condition(cond, true))
            } else {
                let cond = cx.condition(cond, false);
                let iter = cx.iter_args(kind);
                b.concat([b.text("while "), cond, iter, b.text(" {")])
            }
        }
        StmtKind::If(i) => b.cat(b.text("if "), cx.condition(f.ifs[*i].cond, true)),
        StmtKind::Yield(values) | StmtKind::Return(values) => {
            let word = if matches!(kind, StmtKind::Yield(_)) {
                "yield"
            } else {
                "return"
            };
            let values = f.list(*values);
            if values.is_empty() {
                b.text(word)
            } else {
                let n = values.len();
                let values = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| cx.expr(*v, if i + 1 < n { "," } else { "" }))
                    .collect();
                b.cat(b.text2(word, " "), cx.hanging(values))
            }
        }
        // Heads with no list to break: the canonical text stays.
        StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {
            return None;
        }
    };
    Some(b.cat(head, body))
}

/// The document of the function header: its parameters are a list
/// (`func f(` ... `) -> R {`); `None` without parameters.
fn header<'a>(cx: &mut Cx<'a, '_>) -> Option<Doc<'a>> {
    let f = cx.f;
    if f.params.is_empty() {
        return None;
    }
    let open = cx.written(|s| write_function_open(f, s));
    let close = cx.written(|s| write_function_close(f, s));
    let items = (0..f.params.len())
        .map(|i| cx.item(Piece::Param(i)))
        .collect();
    Some(cx.bracketed(open, items, close, 0))
}

/// The document of the `} else if c {` line after the `then` block of `s`;
/// `None` for `} else {`.
fn else_if<'a>(s: StmtId, cx: &mut Cx<'a, '_>) -> Option<Doc<'a>> {
    let f = cx.f;
    let StmtKind::If(i) = f.stmts[else_if_arm(f, Some(s), 1)?].kind else {
        return None;
    };
    let cond = cx.condition(f.ifs[i].cond, true);
    Some(cx.b.cat(cx.b.text("} else if "), cond))
}
