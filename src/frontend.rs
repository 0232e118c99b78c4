//! The front end in one call (lex, parse, lower, verify: [`read_module`],
//! how it reads set by [`ReadOptions`]). It runs on the calling thread;
//! deep input grows the stack where the recursion is (`crate::stack`).
//! Below the driver and the formatter, which both read modules through it.

use crate::diagnostics::{Diagnostic, has_errors};
use crate::ir::Module;

/// How [`read_module`] reads a text.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// The byte of its file at which the text starts (a `// -----` chunk's
    /// offset); spans are offsets into the whole file.
    pub base: usize,
    /// Return the module even when there are errors (for tools that index
    /// a file being edited, and for the formatter); it is only meaningful
    /// where no error points.
    pub keep_on_error: bool,
}

impl ReadOptions {
    /// The text starts at byte `base` of its file; no module on error.
    pub fn at(base: usize) -> ReadOptions {
        ReadOptions {
            base,
            keep_on_error: false,
        }
    }

    /// These options, keeping the module when there are errors.
    pub fn keeping_on_error(self) -> ReadOptions {
        ReadOptions {
            keep_on_error: true,
            ..self
        }
    }
}

/// What [`read_module`] read.
#[derive(Debug)]
pub struct ModuleRead {
    /// The module: when there were no errors, or always with
    /// [`ReadOptions::keep_on_error`].
    pub module: Option<Module>,
    /// Every diagnostic, in order.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the text has a syntax error. Without one, the module holds
    /// everything that was written, also where there are semantic errors
    /// (unknown names and callees, wrong argument counts: lowering keeps
    /// them as nodes of their own), so it prints back what was written;
    /// that is what `pfir fmt` formats.
    pub syntax_error: bool,
}

impl ModuleRead {
    /// The module (see [`ModuleRead::module`]) and the diagnostics.
    pub fn into_parts(self) -> (Option<Module>, Vec<Diagnostic>) {
        (self.module, self.diagnostics)
    }
}

/// Parses and lowers `text` as `options` say, on the calling thread.
///
/// Functions are lowered even when another has a syntax error, so that
/// their semantic errors are reported too; a function with a syntax error
/// is reported for its syntax only (its semantic errors may be caused by
/// the parser's repair).
pub fn read_module(text: &str, options: ReadOptions) -> ModuleRead {
    let base = options.base;
    let arena = crate::parser::ast::arena_for(text.len());
    let parsed = crate::parser::parse(text, base, &arena);
    let syntax_error = has_errors(&parsed.diagnostics);
    let mut diags = parsed.diagnostics;
    let broken = parsed.broken;
    let lost = parsed.lost_functions;
    let (module, lower_diags) = crate::lower::lower(parsed.module);
    let in_broken = |d: &Diagnostic| {
        let at = d.primary.span.start();
        broken.iter().any(|r| r.start() <= at && at < r.end())
    };
    // A call of a function whose header could not be read (or of any
    // function, when a lost header's name could not be read either).
    let names_lost = |d: &Diagnostic| {
        let range =
            d.primary.span.start().saturating_sub(base)..d.primary.span.end().saturating_sub(base);
        d.code == Some(crate::diagnostics::Code::UnknownFunction)
            && d.message.starts_with("unknown function")
            && (lost.contains(&None)
                || text
                    .get(range)
                    .is_some_and(|name| lost.contains(&Some(name))))
    };
    diags.extend(
        lower_diags
            .into_iter()
            .filter(|d| !in_broken(d) && !names_lost(d)),
    );
    let keep = options.keep_on_error || !has_errors(&diags);
    ModuleRead {
        module: keep.then_some(module),
        diagnostics: diags,
        syntax_error,
    }
}
