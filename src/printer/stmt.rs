//! Statements and blocks, streamed line by line.
//!
//! Every statement is one line of text (lines are never wrapped, so output
//! is stable whatever its width): its indentation (two spaces per level,
//! written in bulk) and its head (`stmt_head_into`) go straight to the writer,
//! so nothing but the line being written is ever held. The lines come from
//! [`super::lines::Lines`], the line iterator the formatter shares (over
//! `ir::walk`'s events: nesting depth costs heap, not stack).

use super::binding::{write_bindings, write_iter_args};
use super::expr::{ArgSeparator, write_comma_separated, write_expr, write_kwarg, write_list};
use super::lines::{Line, Lines, line_text};
use super::render::TrimWriter;
use crate::ir::{Anchor, ExprId, Function, Module, StmtId, StmtKind, Submit};
use std::io::{self, Write};

/// Writes every line of `f`, the header first, each line after it
/// starting with a newline (no newline after the last `}`).
pub fn write_function<W: Write>(
    m: &Module,
    f: &Function,
    out: &mut TrimWriter<W>,
) -> io::Result<()> {
    let mut lines = Lines::of(f);
    if let Some(head) = lines.next() {
        let mut text = String::new();
        line_text(m, f, &head, &mut text);
        out.line(head.depth, &text)?;
    }
    let mut text = String::new();
    for line in lines {
        fsutil::cancel::checkpoint();
        out.newline()?;
        text.clear();
        line_text(m, f, &line, &mut text);
        out.line(line.depth, &text)?;
    }
    Ok(())
}

/// What the canonical form of a function costs in indentation: the bytes
/// (two spaces per level on every line, plus what `extra` says each line
/// brings: the comments printed with it; it is called for every line, in
/// order), and the deepest statement with its depth, from its printed
/// `lines` ([`Lines::of`], or those collected from it): the walk of the
/// printer, writing nothing.
pub fn indentation(
    lines: impl IntoIterator<Item = Line>,
    mut extra: impl FnMut(&Line) -> u64,
) -> (u64, Option<(StmtId, usize)>) {
    let mut bytes = 0u64;
    let mut deepest: Option<(StmtId, usize)> = None;
    for line in lines {
        bytes = bytes
            .saturating_add(2 * line.depth as u64)
            .saturating_add(extra(&line));
        if let Anchor::Stmt(s) = line.anchor
            && deepest.is_none_or(|(_, d)| d < line.depth)
        {
            deepest = Some((s, line.depth));
        }
    }
    (bytes, deepest)
}

/// Appends `if cond {` (without bindings).
fn write_if_head(m: &Module, f: &Function, s: StmtId, out: &mut String) {
    if let StmtKind::If(i) = f.stmts[s].kind {
        out.push_str("if ");
        write_expr(m, f, f.ifs[i].cond, out);
        out.push_str(" {");
    }
}

/// Appends the first line of statement `s` to `out`: the whole statement
/// when it has no block, else everything up to and including the opening
/// `{`.
pub fn stmt_head_into(m: &Module, f: &Function, s: StmtId, out: &mut String) {
    let kind = &f.stmts[s].kind;
    write_bindings(m, f, kind, out);
    match kind {
        StmtKind::Assign { value, .. } => write_expr(m, f, *value, out),
        StmtKind::Submit(submit) => write_submit(m, f, &f.submits[*submit], out),
        StmtKind::Eval(e) => write_expr(m, f, *e, out),
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            out.push_str("for ");
            out.push_str(f.var_name(l.var));
            out.push_str(" in ");
            out.push_str(l.kind.keyword());
            out.push('(');
            write_comma_separated(m, f, &f.written_bounds(l), out);
            out.push(')');
            write_iter_args(m, f, f.list(l.iter_args), out);
            out.push_str(" {");
        }
        StmtKind::While(w) => {
            let w = &f.whiles[*w];
            out.push_str("while ");
            write_expr(m, f, w.cond, out);
            write_iter_args(m, f, f.list(w.iter_args), out);
            out.push_str(" {");
        }
        StmtKind::If(_) => write_if_head(m, f, s, out),
        StmtKind::Scope(sc) => {
            let sc = &f.scopes[*sc];
            out.push_str(sc.keyword());
            if let Some(name) = sc.name {
                out.push(' ');
                write_string(f.names.get(name), out);
            }
            out.push_str(" {");
        }
        StmtKind::Yield(values) => write_keyword_values("yield", m, f, f.list(*values), out),
        StmtKind::Return(values) => write_keyword_values("return", m, f, f.list(*values), out),
        StmtKind::Break => out.push_str("break"),
        StmtKind::Continue => out.push_str("continue"),
    }
}

/// `yield a, b` / `yield`.
fn write_keyword_values(
    keyword: &str,
    m: &Module,
    f: &Function,
    values: &[ExprId],
    out: &mut String,
) {
    out.push_str(keyword);
    if !values.is_empty() {
        out.push(' ');
        write_comma_separated(m, f, values, out);
    }
}

/// `submit callee(args, deps=[..], core_num=.., sync_start=..,
/// allow_early_resolve=.., predicate=(..))`.
fn write_submit(m: &Module, f: &Function, s: &Submit, out: &mut String) {
    out.push_str("submit ");
    out.push_str(f.callee_name(m, s.callee));
    out.push('(');
    let mut sep = ArgSeparator::default();
    for arg in f.list(s.args) {
        sep.next(out);
        write_expr(m, f, *arg, out);
    }
    if !s.deps.is_empty() {
        sep.next(out);
        out.push_str("deps=");
        write_list(m, f, f.list(s.deps), out);
    }
    for (name, value) in s.value_kwargs() {
        if let Some(value) = value {
            sep.next(out);
            write_kwarg(m, f, name, value, out);
        }
    }
    if let Some(p) = s.predicate {
        sep.next(out);
        out.push_str("predicate=(");
        write_expr(m, f, p, out);
        out.push(')');
    }
    for kw in f.list(s.rejected_kwargs) {
        sep.next(out);
        write_kwarg(m, f, f.names.get(kw.name), kw.value, out);
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
