//! The library API: pfir in five calls, for programs that embed it.
//!
//! [`parse`] reads `.pfir` text into a [`Module`] (lexing, parsing,
//! lowering and verifying it), [`run_passes`] runs a pass pipeline over a
//! module, [`print()`] writes a module in the canonical printed form (the
//! output of `pfir opt`), [`format()`] formats text the way `pfir fmt` does
//! (comments kept), and [`check`] returns every diagnostic of a text, as
//! `pfir check` does. Beside them: [`opt`] is `pfir opt` on a whole file
//! (with `--split-input-file`), [`split_input`] cuts a file at its
//! `// -----` lines, and [`format_with_width`] formats at a given width.
//! The stage modules (parser, lowering, printer, formatter, driver) are the
//! command's internals and are not public.
//!
//! **Stack safety.** Input may nest up to [`crate::lexer::MAX_NESTING`]
//! levels, and what recurses once per level grows the stack onto the heap
//! where it recurses (the project's one stack strategy, `src/stack.rs`).
//! Each call here runs on the calling thread and is safe on any caller's
//! stack, the 8 MiB main thread or a 256 KiB spawned thread alike; deeper
//! input gets a diagnostic.
//!
//! ```
//! // Read a module; errors come back as diagnostics, never as a panic.
//! let text = "// A task.\nfunc k() -> task_id {\n  return system.task_invalid()\n}\n";
//! let parsed = pfir::parse(text);
//! assert!(parsed.diagnostics.is_empty());
//! let mut module = parsed.module.expect("no errors, so a module");
//!
//! // Run the pass the command runs, with its default options.
//! let pipeline = pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
//! let report = pfir::run_passes(&mut module, &pipeline).expect("a known pass");
//! assert!(!report.diagnostics.iter().any(|d| d.is_error()));
//!
//! // Print it canonically (comments are the formatter's), and format
//! // text with its comments.
//! let printed = pfir::print(&module);
//! assert!(printed.starts_with("func k() -> task_id {"));
//! assert_eq!(pfir::format(text).expect("it parses"), text);
//!
//! // An unknown pass is a typed error, not a string.
//! let bad = pfir::PipelineOptions::with_passes(&["no-such-pass"]);
//! assert!(matches!(
//!     pfir::run_passes(&mut module, &bad),
//!     Err(pfir::PipelineError::UnknownPass(_))
//! ));
//!
//! // Every diagnostic of a text, with its position.
//! let diagnostics = pfir::check("func k() -> task_id {\n  return nowhere\n}\n");
//! assert!(diagnostics.iter().any(|d| d.is_error()));
//! assert!(matches!(pfir::format("func {"), Err(pfir::FormatError { .. })));
//! ```

#![warn(missing_docs)]

use crate::diagnostics::{Diagnostic, SourceFile, has_errors};
pub use crate::driver::{OptOptions, OptOutcome};
use crate::ir::Module;
use crate::passes::{PipelineOptions, UnknownPass};
use crate::stack::ensure;

/// A text read by [`parse`].
#[derive(Debug)]
pub struct Parsed {
    /// The module, when the text has no error.
    pub module: Option<Module>,
    /// Every diagnostic (errors, and warnings when there is a module).
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// The module and the diagnostics, as a pair.
    pub fn into_parts(self) -> (Option<Module>, Vec<Diagnostic>) {
        (self.module, self.diagnostics)
    }
}

/// What a pipeline run by [`run_passes`] reported.
#[derive(Debug, Default)]
pub struct Report {
    /// Remarks and warnings of the passes (no errors: those are
    /// [`PipelineError::Failed`]).
    pub diagnostics: Vec<Diagnostic>,
    /// What the command would write to standard error: IR dumps
    /// (`print_ir_after`), timings and statistics, when asked for.
    pub stderr: String,
}

/// Why [`run_passes`] did not complete.
#[derive(Debug)]
pub enum PipelineError {
    /// The pipeline names a pass that does not exist; nothing ran.
    UnknownPass(UnknownPass),
    /// A pass or a verifier (`verify_each`) reported errors; the module
    /// may be partly transformed.
    Failed(Report),
}

impl std::fmt::Display for PipelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PipelineError::UnknownPass(e) => e.fmt(f),
            PipelineError::Failed(report) => {
                let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
                write!(f, "the pipeline reported {errors} error(s)")
            }
        }
    }
}

impl std::error::Error for PipelineError {}

/// Text that [`format()`] could not format: the diagnostics of the parts
/// that do not parse.
#[derive(Debug)]
pub struct FormatError {
    /// The syntax errors (with positions) that stopped formatting.
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the text does not parse ({} diagnostic(s))",
            self.diagnostics.len()
        )
    }
}

impl std::error::Error for FormatError {}

/// Reads `text`: lexes, parses, lowers and verifies it.
pub fn parse(text: &str) -> Parsed {
    let options = crate::frontend::ReadOptions::default();
    let (module, diagnostics) = ensure(|| crate::frontend::read_module(text, options).into_parts());
    Parsed {
        module,
        diagnostics,
    }
}

/// Runs the passes of `pipeline` over `module`, in order.
pub fn run_passes(
    module: &mut Module,
    pipeline: &PipelineOptions,
) -> Result<Report, PipelineError> {
    crate::passes::check_pipeline(pipeline).map_err(PipelineError::UnknownPass)?;
    let file = SourceFile::new("<module>", "");
    let result = ensure(|| crate::passes::run_pipeline(module, &file, pipeline));
    let report = Report {
        diagnostics: result.diagnostics,
        stderr: result.stderr,
    };
    if has_errors(&report.diagnostics) {
        return Err(PipelineError::Failed(report));
    }
    Ok(report)
}

/// `module` in the canonical printed form (`pfir opt`'s output).
pub fn print(module: &Module) -> String {
    ensure(|| crate::printer::print_module(module))
}

/// `text` formatted as `pfir fmt` formats it: the canonical form with its
/// comments, at the default line width.
pub fn format(text: &str) -> Result<String, FormatError> {
    ensure(|| crate::format::format_text(text)).map_err(|diagnostics| FormatError { diagnostics })
}

/// Every diagnostic of `text` (none when it is a valid module), as
/// `pfir check` reports them.
pub fn check(text: &str) -> Vec<Diagnostic> {
    parse(text).diagnostics
}

/// [`format()`] with statements laid out within `width` columns (`pfir fmt
/// --line-width`).
pub fn format_with_width(text: &str, width: usize) -> Result<String, FormatError> {
    ensure(|| crate::format::format_text_with(text, width))
        .map_err(|diagnostics| FormatError { diagnostics })
}

/// What `pfir opt` does with a whole `file`: read it (chunk by chunk under
/// `split_input_file`), run the pipeline, and gather the modules to print
/// ([`OptOutcome::write_output`]) and every diagnostic.
pub fn opt(file: &SourceFile, options: &OptOptions) -> OptOutcome {
    ensure(|| crate::driver::run_opt(file, options))
}

/// The chunks of `text` under `--split-input-file`, each with its byte
/// offset: the text is cut at lines that are exactly `// -----` (trailing
/// spaces allowed), which belong to no chunk. One chunk when there is no
/// such line.
pub fn split_input(text: &str) -> Vec<(usize, &str)> {
    crate::split_input::split_chunks(text)
}
