//! pfir: a toolchain for the `.pfir` textual orchestration IR.
//!
//! The pipeline, one module per stage:
//! [`lexer`] (text to tokens) -> [`parser`] (tokens to the surface AST) ->
//! [`lower`] (AST to the typed [`ir`], names resolved, types inferred,
//! verified) -> [`passes`] (rewrites such as `expand-manual-phase-fence`) ->
//! [`printer`] (IR back to canonical text). [`diagnostics`] carries every
//! error; [`testing`] holds the FileCheck and lit-style tooling; [`cli`] is
//! the `pfir` command.

pub mod api;
pub use api::{
    FormatError, Parsed, PipelineError, Report, check, format, parse, print, run_passes,
};
pub use passes::{PipelineOptions, UnknownPass};

pub mod analysis;
pub mod cli;
pub mod diagnostics;
pub mod driver;
pub mod format;
pub mod frontend;
pub mod graph;
pub mod ide;
pub mod io;
pub mod ir;
pub mod lexer;
pub mod lower;
pub mod lsp;
pub mod parser;
pub mod passes;
pub mod printer;
pub mod span;
pub mod stack;
pub mod testing;
pub mod vocab;
