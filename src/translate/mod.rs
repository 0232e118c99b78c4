//! `pfir translate`: `.pfir` to PyPTO's Python DSL and back
//! (`docs/pypto.md`).
//!
//! - [`to_pypto()`]: each `// -----` chunk becomes one `@pl.program` class
//!   of a Python module that PyPTO's parser (`pl.parse`) reads; comments
//!   carry over as `#` comments ([`to_pypto`](mod@to_pypto)).
//! - [`from_pypto()`]: every `@pl.program` class of a Python file, as
//!   PyPTO's printer prints it or its tests write it, becomes one chunk of
//!   canonical `.pfir` ([`py_lexer`], [`py_parser`] read the Python,
//!   [`from_py`] writes `.pfir`, which the front end then reads and the
//!   canonical printer prints).
//!
//! A construct with no form on the other side is an error (`E0029`) at
//! its position, never dropped. Names shared by both directions live in
//! [`names`].

pub mod from_py;
pub mod names;
pub mod py_ast;
pub mod py_expr;
pub mod py_lexer;
pub mod py_parser;
pub mod to_pypto;

use crate::diagnostics::{Diagnostic, has_errors};

/// What a translation produced: the text, when there was no error, and
/// every diagnostic (positions in the input).
#[derive(Debug, Default)]
pub struct Translation {
    pub output: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// `.pfir` text to a Python module in PyPTO's DSL.
pub fn to_pypto(text: &str) -> Translation {
    to_pypto_here(text)
}

fn to_pypto_here(text: &str) -> Translation {
    let lines = fsutil::lines::LineIndex::new(text);
    let mut diagnostics = Vec::new();
    let mut modules = Vec::new();
    for (base, chunk) in crate::split_input::split_chunks(text) {
        let (module, diags) = crate::format::read_with_comments(text, &lines, base, chunk);
        diagnostics.extend(diags);
        if let Some(m) = module {
            modules.push(m);
        }
    }
    if has_errors(&diagnostics) {
        return Translation {
            output: None,
            diagnostics,
        };
    }
    // The DSL indents four spaces per level, inside the class: twice the
    // canonical form's indentation and four more bytes a line, counted
    // against the printer's bound before anything is written.
    let mut budget = crate::printer::OutputBudget::default();
    for f in modules.iter().flat_map(|m| m.functions()) {
        for _ in 0..2 {
            if let Err(d) = budget.add(f, crate::printer::lines::Lines::of(f), |_| 2) {
                diagnostics.push(d);
                return Translation {
                    output: None,
                    diagnostics,
                };
            }
        }
    }
    let mut out = String::from("import pypto.language as pl\n");
    let mut dynamic = Vec::new();
    for m in &modules {
        to_pypto::dynamic_names(m, &mut dynamic);
    }
    if !dynamic.is_empty() {
        out.push('\n');
        for name in &dynamic {
            out.push_str(&format!("{name} = pl.dynamic(\"{name}\")\n"));
        }
    }
    for (i, m) in modules.iter().enumerate() {
        out.push_str("\n\n");
        let name = if i == 0 {
            "Program".to_string()
        } else {
            format!("Program{i}")
        };
        to_pypto::write_program(m, &name, &mut out, &mut diagnostics);
    }
    let output = (!has_errors(&diagnostics)).then_some(out);
    Translation {
        output,
        diagnostics,
    }
}

/// A Python module in PyPTO's DSL to canonical `.pfir`: each
/// `@pl.program` class a chunk, chunks joined by `// -----` lines.
pub fn from_pypto(text: &str) -> Translation {
    from_py::translate(text)
}
