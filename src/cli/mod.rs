//! The `pfir` command line: one subcommand per file.
//!
//! Exit status: 0 on success, 1 when an error diagnostic was emitted (or a
//! test / check failed), 2 on usage errors (clap's own convention).

pub mod filecheck;
pub mod fmt;
pub mod graph;
pub mod opt;
pub mod test;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "pfir",
    version,
    about = "A toolchain for the .pfir orchestration IR",
    long_about = "pfir reads .pfir files (a textual form of PyPTO-style orchestration IR), \
verifies them, runs passes such as expand-manual-phase-fence, and prints the result in \
canonical form. It also carries the tools its golden tests need: a FileCheck-compatible \
checker and a lit-style test runner."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse, verify, run passes and print a .pfir file (like mlir-opt).
    #[command(after_help = crate::passes::passes_help())]
    Opt(opt::OptArgs),
    /// Print .pfir files in canonical form, keeping every comment (like clang-format).
    Fmt(fmt::FmtArgs),
    /// Draw the task graph of orchestration functions, before and after
    /// passes (DOT, SVG or an HTML page).
    Graph(graph::GraphArgs),
    /// Run .pfir tests that carry `// RUN:` lines (like lit).
    Test(test::TestArgs),
    /// Match text against CHECK directives (like LLVM FileCheck).
    #[command(after_help = filecheck::HELP)]
    Filecheck(filecheck::FileCheckArgs),
}

/// Runs the command line `args` (including the program name) and returns
/// the process exit status.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let status = match cli.command {
        Command::Opt(args) => opt::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Test(args) => test::run(args),
        Command::Filecheck(args) => filecheck::run(args),
    };
    ExitCode::from(status)
}
