//! pfir: a toolchain for the `.pfir` textual orchestration IR.
//!
//! The pipeline, one module per stage:
//! [`lexer`] (text to tokens) -> [`parser`] (tokens to the surface AST) ->
//! [`lower`] (AST to the typed [`ir`], names resolved, types inferred,
//! verified) -> [`passes`] (rewrites such as `expand-manual-phase-fence`) ->
//! [`printer`] (IR back to canonical text). [`diagnostics`] carries every
//! error; [`ide`] answers an editor's questions about a document
//! ([`ide::Analysis`]). The command line, the language server and the test
//! tooling are the `pfir` binary's internals, private to the crate; the
//! binary enters through [`run_command_line`].

pub mod api;
pub use api::{
    FormatError, Parsed, PipelineError, Report, check, format, parse, print, run_passes,
};
pub use passes::{PipelineOptions, UnknownPass};

pub mod analysis;
pub(crate) mod cli;
pub mod diagnostics;
pub mod driver;
pub mod format;
pub(crate) mod frontend;
pub mod graph;
pub mod ide;
pub mod io;
pub mod ir;
pub mod lexer;
pub mod lower;
pub(crate) mod lsp;
pub mod parser;
pub mod passes;
pub mod printer;
pub(crate) mod reduce;
pub mod span;
pub(crate) mod split_input;
pub(crate) mod stack;
pub(crate) mod testing;
pub mod translate;
pub mod vocab;

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
