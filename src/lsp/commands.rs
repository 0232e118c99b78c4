//! What the server needs to know of a `pfir` command line in a RUN line:
//! which subcommand it is, the files it writes, and for `pfir opt` the
//! options to run it in-process. The server does not parse command lines
//! itself (clap and the command definitions live in `src/cli/`, above the
//! server): the CLI hands it a [`ReadCommand`] when it starts the server
//! ([`super::ServerOptions::read_command`]), and every request that runs
//! RUN lines carries it in its [`super::trust::RunPolicy`].

use crate::diagnostics::render::DiagnosticFormat;
use crate::driver::OptOptions;
use std::path::PathBuf;

/// A `pfir` command line, as far as the server needs it.
#[derive(Clone, Debug)]
pub enum PfirCommand {
    /// `pfir opt`.
    Opt(OptCommand),
    /// `pfir graph`, writing to `output` when given (`-o`).
    Graph { output: Option<PathBuf> },
    /// `pfir fmt`; `in_place` with `-i`.
    Fmt { in_place: bool },
    /// `pfir fix`; `in_place` with `-i`.
    Fix { in_place: bool },
    /// `pfir test` (runs the RUN lines of other files).
    Test,
    /// `pfir lsp`.
    Lsp,
    /// A subcommand that writes no file and runs nothing (`check`,
    /// `explain`, `filecheck`).
    ReadOnly,
    /// A command line pfir rejects (it prints a usage error and runs
    /// nothing).
    Rejected,
}

/// `pfir opt`'s arguments, as plain options.
#[derive(Clone, Debug)]
pub struct OptCommand {
    /// The input file (`None` or `-`: standard input).
    pub input: Option<PathBuf>,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// What the driver does.
    pub options: OptOptions,
    /// `--verify-diagnostics`.
    pub verify_diagnostics: bool,
    /// `--diagnostic-format`.
    pub diagnostic_format: DiagnosticFormat,
    /// `--error-limit` (`None`: no limit).
    pub error_limit: Option<usize>,
}

/// Reads a command line whose `argv[0]` is `pfir`.
pub type ReadCommand = fn(&[String]) -> PfirCommand;
