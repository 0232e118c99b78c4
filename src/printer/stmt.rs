//! Statements and blocks, laid out with the `pretty` crate.
//!
//! Every statement is one line of text (lines are never wrapped, so output
//! is stable whatever its width); the `pretty` document only arranges those
//! lines: each block's statements sit in a `nest(2)` after hard line breaks,
//! its `}` on a line of its own. Documents live in a [`pretty::Arena`], whose
//! nodes are freed in a flat loop (no recursive drop), and `pretty` renders
//! them with an explicit command stack, so deeply nested input costs one
//! small recursive frame per block here and nothing worse elsewhere.
//!
//! `else` branches holding only an `if` without results print as
//! `} else if cond {`; such chains are walked in a loop, not by recursion.

use super::binding::{write_bindings, write_iter_args};
use super::expr::{ArgSeparator, write_comma_separated, write_expr, write_kwarg, write_list};
use crate::ir::{Block, ExprId, ExprKind, Function, Module, StmtId, StmtKind, Submit};
use pretty::{Arena, DocAllocator, DocBuilder};

/// A document of the printer's arena.
pub type Doc<'a> = DocBuilder<'a, Arena<'a>>;

/// Builds the documents of one function's statements.
pub struct StmtPrinter<'a, 'ir> {
    pub arena: &'a Arena<'a>,
    pub module: &'ir Module,
    pub func: &'ir Function,
}

impl<'a, 'ir> StmtPrinter<'a, 'ir> {
    /// `head` + the block's statements indented + a closing `}` line.
    pub fn braced(&self, head: String, block: &Block) -> Doc<'a> {
        self.arena
            .text(head)
            .append(self.block_body(block))
            .append(self.arena.hardline())
            .append("}")
    }

    /// The statements of `block`, each on a new line, two spaces deeper.
    fn block_body(&self, block: &Block) -> Doc<'a> {
        let mut doc = self.arena.nil();
        for s in &block.stmts {
            doc = doc.append(self.arena.hardline()).append(self.stmt(*s));
        }
        doc.nest(2)
    }

    /// One statement (with its nested blocks).
    fn stmt(&self, s: StmtId) -> Doc<'a> {
        let kind = &self.func.stmts[s].kind;
        match kind {
            StmtKind::If { .. } => self.if_chain(s),
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Scope { body, .. } => {
                self.braced(stmt_head(self.module, self.func, s), body)
            }
            _ => self.arena.text(stmt_head(self.module, self.func, s)),
        }
    }

    /// `[bindings = ]if c {` ... `} else if d {` ... `} else {` ... `}`.
    fn if_chain(&self, s: StmtId) -> Doc<'a> {
        let arena = self.arena;
        let mut doc = arena.text(stmt_head(self.module, self.func, s));
        let mut current = s;
        loop {
            let StmtKind::If {
                then_body,
                else_body,
                ..
            } = &self.func.stmts[current].kind
            else {
                unreachable!("if_chain walks `if` statements only")
            };
            doc = doc.append(self.block_body(then_body));
            let Some(else_body) = else_body else {
                break;
            };
            if let Some(next) = else_if(self.func, else_body) {
                let line = format!("}} else {}", if_head(self.func, next));
                doc = doc.append(arena.hardline()).append(line);
                current = next;
            } else {
                doc = doc
                    .append(arena.hardline())
                    .append("} else {")
                    .append(self.block_body(else_body));
                break;
            }
        }
        doc.append(arena.hardline()).append("}")
    }
}

/// The `if` of an `else` branch that prints as `} else if`: the branch holds
/// exactly one statement, an `if` without results.
fn else_if(f: &Function, else_body: &Block) -> Option<StmtId> {
    match else_body.stmts.as_slice() {
        [only] => match &f.stmts[*only].kind {
            StmtKind::If { results, .. } if results.is_empty() => Some(*only),
            _ => None,
        },
        _ => None,
    }
}

/// `if cond {` (without bindings).
fn if_head(f: &Function, s: StmtId) -> String {
    let StmtKind::If { cond, .. } = &f.stmts[s].kind else {
        unreachable!("if_head of a statement that is not an `if`")
    };
    let mut out = String::from("if ");
    write_expr(f, *cond, &mut out);
    out.push_str(" {");
    out
}

/// The first line of a statement: the whole statement when it has no
/// block, else everything up to and including the opening `{`.
pub fn stmt_head(m: &Module, f: &Function, s: StmtId) -> String {
    let kind = &f.stmts[s].kind;
    let mut out = String::new();
    write_bindings(m, f, kind, &mut out);
    match kind {
        StmtKind::Assign { value, .. } => write_expr(f, *value, &mut out),
        StmtKind::Submit(submit) => write_submit(f, submit, &mut out),
        StmtKind::Eval(e) => write_expr(f, *e, &mut out),
        StmtKind::For {
            kind: loop_kind,
            var,
            start,
            stop,
            step,
            iter_args,
            ..
        } => {
            out.push_str("for ");
            out.push_str(&f.vars[*var].name);
            out.push_str(" in ");
            out.push_str(loop_kind.keyword());
            out.push('(');
            let bounds: &[ExprId] = if !is_int(f, *step, 1) {
                &[*start, *stop, *step]
            } else if !is_int(f, *start, 0) {
                &[*start, *stop]
            } else {
                &[*stop]
            };
            write_comma_separated(f, bounds, &mut out);
            out.push(')');
            write_iter_args(f, iter_args, &mut out);
            out.push_str(" {");
        }
        StmtKind::While {
            cond, iter_args, ..
        } => {
            out.push_str("while ");
            write_expr(f, *cond, &mut out);
            write_iter_args(f, iter_args, &mut out);
            out.push_str(" {");
        }
        StmtKind::If { .. } => out.push_str(&if_head(f, s)),
        StmtKind::Scope { manual, name, .. } => {
            out.push_str(if *manual { "manual" } else { "auto" });
            if let Some(name) = name {
                out.push(' ');
                write_string(name, &mut out);
            }
            out.push_str(" {");
        }
        StmtKind::Yield(values) => write_keyword_values("yield", f, values, &mut out),
        StmtKind::Return(values) => write_keyword_values("return", f, values, &mut out),
        StmtKind::Break => out.push_str("break"),
        StmtKind::Continue => out.push_str("continue"),
    }
    out
}

/// Whether `e` is the integer literal `value`.
fn is_int(f: &Function, e: ExprId, value: i64) -> bool {
    matches!(f.exprs[e].kind, ExprKind::Int(n) if n == value)
}

/// `yield a, b` / `yield`.
fn write_keyword_values(keyword: &str, f: &Function, values: &[ExprId], out: &mut String) {
    out.push_str(keyword);
    if !values.is_empty() {
        out.push(' ');
        write_comma_separated(f, values, out);
    }
}

/// `submit callee(args, deps=[..], core_num=.., sync_start=..,
/// allow_early_resolve=.., predicate=(..))`.
fn write_submit(f: &Function, s: &Submit, out: &mut String) {
    out.push_str("submit ");
    out.push_str(&s.callee);
    out.push('(');
    let mut sep = ArgSeparator::default();
    for arg in &s.args {
        sep.next(out);
        write_expr(f, *arg, out);
    }
    if !s.deps.is_empty() {
        sep.next(out);
        out.push_str("deps=");
        write_list(f, &s.deps, out);
    }
    let optional = [
        ("core_num", s.core_num),
        ("sync_start", s.sync_start),
        ("allow_early_resolve", s.allow_early_resolve),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            sep.next(out);
            write_kwarg(f, name, value, out);
        }
    }
    if let Some(p) = s.predicate {
        sep.next(out);
        out.push_str("predicate=(");
        write_expr(f, p, out);
        out.push(')');
    }
    out.push(')');
}

/// A string literal with `"` and `\` escaped.
fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}
