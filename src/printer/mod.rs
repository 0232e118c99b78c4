//! The canonical printer (spec section 9): IR back to `.pfir` text.
//!
//! The output reads back to the same IR, and printing that again gives the
//! same text byte for byte. Functions are streamed statement by statement
//! to a buffered writer (see [`stmt`]); each statement is one line, never
//! wrapped, indented two spaces per level. Expressions ([`expr`]) print with the fewest parentheses, floats
//! ([`float`]) in their shortest round-tripping form, and bindings
//! ([`binding`]) carry a type only where reading back would infer another.
//!
//! Entry points: [`print_module`], [`print_function`] and [`print_expr`].

pub mod binding;
pub mod expr;
pub mod float;
pub mod lines;
pub mod render;
pub mod stmt;

use crate::ir::{Direction, ExprId, FuncKind, Function, Module};
use render::TrimWriter;
use std::fmt::Write as _;
use std::io::{self, Write};

/// Prints `module` in canonical form: functions separated by one blank line,
/// the whole ending with one newline; an empty module prints as nothing.
pub fn print_module(module: &Module) -> String {
    let mut bytes = Vec::new();
    // Writing to a `Vec` cannot fail.
    let _ = write_module(module, &mut bytes);
    into_string(bytes)
}

/// Every piece written is a `&str`, so the bytes are UTF-8.
fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes `module` in canonical form into `out` as it is printed, through a
/// buffer: even a very large output (deep nesting indents quadratically) is
/// never held in memory whole.
pub fn write_module<W: Write>(module: &Module, out: W) -> io::Result<()> {
    let mut w = TrimWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    for (i, f) in module.functions().iter().enumerate() {
        if i > 0 {
            w.newline()?;
            w.newline()?;
        }
        write_function(module, f, &mut w)?;
    }
    if !module.functions().is_empty() {
        w.newline()?;
    }
    w.finish()?;
    Ok(())
}

/// The most indentation the canonical form of one run's output may hold.
/// Indentation is two spaces per level on every line, so it grows with the
/// square of the nesting: 100,000 nested `if`s (1.6 MB of source) would
/// print 20 GB. This allows 10,000 nested blocks (200 MB) with room to
/// spare and refuses 20,000 (800 MB).
pub const MAX_OUTPUT_INDENT_BYTES: u64 = 512 << 20;

/// Checks, before anything is printed, that the canonical form of
/// `modules` (one run's output) stays within [`MAX_OUTPUT_INDENT_BYTES`] of
/// indentation; else an error at the deepest statement of the function
/// that passes it. Costs one walk of the statements, without printing.
pub fn check_output_size<'m>(
    modules: impl IntoIterator<Item = &'m Module>,
) -> Result<(), crate::diagnostics::Diagnostic> {
    let mut budget = OutputBudget::default();
    for m in modules {
        for f in m.functions() {
            budget.add(f, lines::Lines::of(f), |_| 0)?;
        }
    }
    Ok(())
}

/// The indentation of one run's output, counted function by function
/// against [`MAX_OUTPUT_INDENT_BYTES`] ([`check_output_size`]; the
/// formatter also counts the comment lines it prints).
#[derive(Default)]
pub struct OutputBudget {
    total: u64,
}

impl OutputBudget {
    /// The bytes of indentation counted so far.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Counts the indentation of `f`'s printed `lines`, plus `extra` bytes
    /// per line (the indentation of the comment lines printed with it); an
    /// error when the total passes the limit.
    pub fn add(
        &mut self,
        f: &Function,
        lines: impl IntoIterator<Item = lines::Line>,
        extra: impl FnMut(&lines::Line) -> u64,
    ) -> Result<(), crate::diagnostics::Diagnostic> {
        let (bytes, deepest) = stmt::indentation(lines, extra);
        self.total = self.total.saturating_add(bytes);
        if self.total <= MAX_OUTPUT_INDENT_BYTES {
            return Ok(());
        }
        let (span, depth) = match deepest {
            Some((s, depth)) => (f.stmts[s].span, depth),
            None => (f.span, 0),
        };
        Err(crate::diagnostics::Diagnostic::error(
            format!(
                "the canonical form would hold more than {} MiB of indentation: too deeply nested to print",
                MAX_OUTPUT_INDENT_BYTES >> 20
            ),
            span,
        )
        .with_code(crate::diagnostics::Code::TooDeep)
        .with_label(format!("{depth} levels deep"))
        .with_note(format!(
            "every line is indented two spaces per level, so the output grows with the square of the nesting (at least {} MiB here)",
            self.total >> 20
        ))
        .with_help("split the deepest blocks into functions of their own"))
    }
}

/// Prints one function of `module` (which gives the signatures of the
/// functions it submits), ending with a newline.
#[cfg(test)]
pub fn print_function(module: &Module, f: &Function) -> String {
    let mut w = TrimWriter::new(Vec::new());
    // Writing to a `Vec` cannot fail.
    let _ = write_function(module, f, &mut w).and_then(|()| w.newline());
    into_string(w.finish().unwrap_or_default())
}

/// Prints one expression of `f` as it appears in the canonical form (no
/// outer parentheses), e.g. for diagnostics.
pub fn print_expr(m: &Module, f: &Function, e: ExprId) -> String {
    let mut out = String::new();
    expr::write_expr(m, f, e, &mut out);
    out
}

/// `[kind ]func name(p: T, out q: T) -> R {` + body + `}` (no final newline).
fn write_function<W: Write>(m: &Module, f: &Function, out: &mut TrimWriter<W>) -> io::Result<()> {
    stmt::write_function(m, f, out)
}

/// Appends the header line of `f`, up to and including `{`.
pub(crate) fn write_function_head(f: &Function, out: &mut String) {
    write_function_open(f, out);
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_param(f, p, out);
    }
    write_function_close(f, out);
}

/// `[kind ]func name(`: the header of `f` up to its parameters.
pub(crate) fn write_function_open(f: &Function, out: &mut String) {
    if f.kind != FuncKind::Opaque {
        out.push_str(f.kind.keyword());
        out.push(' ');
    }
    out.push_str("func ");
    out.push_str(&f.name);
    out.push('(');
}

/// `[direction ]name: type`: a parameter of `f`.
pub(crate) fn write_param(f: &Function, p: &crate::ir::Param, out: &mut String) {
    if p.direction != Direction::In {
        out.push_str(p.direction.keyword());
        out.push(' ');
    }
    let _ = write!(out, "{}: {}", f.var_name(p.var), f.var_ty(p.var));
}

/// `) -> R {`: the header of `f` after its parameters.
pub(crate) fn write_function_close(f: &Function, out: &mut String) {
    out.push(')');
    match f.results.as_slice() {
        [] => {}
        [one] => {
            let _ = write!(out, " -> {one}");
        }
        several => {
            let _ = write!(out, " -> {}", crate::ir::Type::Tuple(several.to_vec()));
        }
    }
    out.push_str(" {");
}

#[cfg(test)]
mod tests;
