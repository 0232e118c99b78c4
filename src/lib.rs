//! pfir: a toolchain for the `.pfir` textual orchestration IR.
//!
//! The public API is the facade at the crate root ([`parse`], [`check`],
//! [`run_passes`], [`print()`], [`format()`], [`opt`], [`split_input`]; see
//! [`api`]), [`ide`] (an editor's questions about a document,
//! [`ide::Analysis`]), and the types they hand out: [`ir`] (the typed IR),
//! [`diagnostics`], [`passes`] (pipelines and the pass registry),
//! [`analysis`] (task graphs, `--verify-deps`), [`graph`], [`translate`]
//! (PyPTO's DSL), [`lexer`] (tokens and comments, for editor grammars),
//! [`vocab`] (the language's words) and [`limits`].
//!
//! Inside, one module per stage, private to the crate: `lexer` (text to
//! tokens) -> `parser` (tokens to the surface AST) -> `lower` (AST to the
//! typed IR, names resolved, types inferred, verified) -> `passes` ->
//! `printer` (IR back to canonical text); `format` is `pfir fmt`, `driver`
//! is `pfir opt` on a file. The command line, the language server and the
//! test tooling are the `pfir` binary's internals; the binary enters
//! through [`run_command_line`].

pub mod api;
pub use api::{
    FormatError, OptOptions, OptOutcome, Parsed, PipelineError, Report, check, format,
    format_with_width, opt, parse, print, run_passes, split_input,
};
pub use passes::{PipelineOptions, UnknownPass};

pub mod analysis;
pub(crate) mod cli;
pub mod diagnostics;
pub(crate) mod driver;
pub(crate) mod format;
pub(crate) mod frontend;
pub mod graph;
pub mod ide;
pub mod io;
pub mod ir;
pub mod lexer;
pub(crate) mod lower;
pub(crate) mod lsp;
pub(crate) mod parser;
pub mod passes;
pub(crate) mod printer;
pub(crate) mod reduce;
pub mod span;
pub(crate) mod split_input;
pub(crate) mod stack;
pub(crate) mod testing;
pub mod translate;
pub mod vocab;

/// The documented limits of the implementation, each defined where it
/// applies.
pub mod limits {
    pub use crate::io::read::MAX_INPUT_BYTES;
    pub use crate::lexer::MAX_NESTING;
    pub use crate::lower::MAX_SUGGESTION_SEARCHES;
}

/// Test support shared by pfir's own integration tests and benchmarks,
/// public only in a build with the `testkit` feature (which `cargo test`
/// and `cargo bench` turn on and the production binary leaves off): the
/// bounded-exhaustive checks of the pass.
#[cfg(feature = "testkit")]
pub mod testkit {
    pub use crate::testing::exhaustive;
}

/// Runs the `pfir` command line `args` (the program name first, as
/// [`std::env::args_os`] gives it) and returns the process exit status: 0
/// on success, 1 when an error diagnostic was emitted or a test or check
/// failed, 2 on a usage error. The `pfir` binary is this one call.
pub fn run_command_line<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    cli::run(args)
}
