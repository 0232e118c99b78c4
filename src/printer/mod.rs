//! The canonical printer (spec section 9): IR back to `.pfir` text.
//!
//! The output reads back to the same IR, and printing that again gives the
//! same text byte for byte. The layout of functions, blocks and statements is
//! a [`pretty`] document (see [`stmt`]); each statement is one line, never
//! wrapped. Expressions ([`expr`]) print with the fewest parentheses, floats
//! ([`float`]) in their shortest round-tripping form, and bindings
//! ([`binding`]) carry a type only where reading back would infer another.
//!
//! Entry points: [`print_module`], [`print_function`] and [`print_expr`].

pub mod binding;
pub mod expr;
pub mod float;
pub mod render;
pub mod stmt;

use crate::ir::{Direction, ExprId, FuncKind, Function, Module};
use pretty::{Arena, DocAllocator};
use stmt::{Doc, StmtPrinter};

/// Prints `module` in canonical form: functions separated by one blank line,
/// the whole ending with one newline; an empty module prints as nothing.
pub fn print_module(module: &Module) -> String {
    let arena = Arena::new();
    let mut doc = arena.nil();
    for (i, f) in module.functions.iter().enumerate() {
        if i > 0 {
            doc = doc.append(arena.hardline()).append(arena.hardline());
        }
        doc = doc.append(function_doc(&arena, module, f));
    }
    if !module.functions.is_empty() {
        doc = doc.append(arena.hardline());
    }
    render::render(&doc)
}

/// Prints one function of `module` (which gives the signatures of the
/// functions it submits), ending with a newline.
pub fn print_function(module: &Module, f: &Function) -> String {
    let arena = Arena::new();
    let doc = function_doc(&arena, module, f).append(arena.hardline());
    render::render(&doc)
}

/// Prints one expression of `f` as it appears in the canonical form (no
/// outer parentheses), e.g. for diagnostics.
pub fn print_expr(f: &Function, e: ExprId) -> String {
    let mut out = String::new();
    expr::write_expr(f, e, &mut out);
    out
}

/// Prints the first line of statement `s` of `f`: the whole statement when
/// it holds no block, else up to its opening `{` (`x = for i in range(4) {`).
pub fn print_stmt_head(module: &Module, f: &Function, s: crate::ir::StmtId) -> String {
    stmt::stmt_head(module, f, s)
}

/// `[kind ]func name(p: T, out q: T) -> R {` + body + `}`.
fn function_doc<'a>(arena: &'a Arena<'a>, module: &Module, f: &Function) -> Doc<'a> {
    let printer = StmtPrinter {
        arena,
        module,
        func: f,
    };
    printer.braced(function_head(f), &f.body)
}

/// The header line of `f`, up to and including `{`.
fn function_head(f: &Function) -> String {
    let mut out = String::new();
    if f.kind != FuncKind::Opaque {
        out.push_str(f.kind.keyword());
        out.push(' ');
    }
    out.push_str("func ");
    out.push_str(&f.name);
    out.push('(');
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if p.direction != Direction::In {
            out.push_str(p.direction.keyword());
            out.push(' ');
        }
        let v = &f.vars[p.var];
        out.push_str(&v.name);
        out.push_str(": ");
        out.push_str(&v.ty.to_string());
    }
    out.push(')');
    match f.results.as_slice() {
        [] => {}
        [one] => {
            out.push_str(" -> ");
            out.push_str(&one.to_string());
        }
        several => {
            out.push_str(" -> ");
            out.push_str(&crate::ir::Type::Tuple(several.to_vec()).to_string());
        }
    }
    out.push_str(" {");
    out
}

#[cfg(test)]
pub(crate) mod test_ir;
#[cfg(test)]
mod tests;
