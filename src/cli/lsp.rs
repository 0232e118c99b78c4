//! `pfir lsp`: the language server, speaking JSON-RPC over stdin/stdout
//! (see `docs/editors.md`).

use super::Command;
use crate::driver::OptOptions;
use crate::lsp::commands::{OptCommand, PfirCommand};
use clap::{Args, Parser};

#[derive(Args, Debug, Clone)]
pub struct LspArgs {
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,

    /// The largest message accepted, in bytes (a longer one is answered
    /// with an error and skipped).
    #[arg(long = "max-message-bytes", value_name = "BYTES", default_value_t = crate::lsp::transport::DEFAULT_MAX_MESSAGE_BYTES)]
    pub max_message_bytes: usize,

    /// Answer the test-only requests `pfir/testPanic` and `pfir/testBusy`,
    /// so that tests can check panic safety and cancellation.
    #[arg(long = "enable-test-requests", hide = true)]
    pub enable_test_requests: bool,
}

pub fn run(args: LspArgs) -> u8 {
    crate::lsp::run_stdio(crate::lsp::ServerOptions {
        test_requests: args.enable_test_requests,
        max_message_bytes: args.max_message_bytes,
        read_command,
    })
}

/// Reads a RUN line's `pfir` command line for the server, with the same
/// clap definitions as the `pfir` command itself.
pub fn read_command(argv: &[String]) -> PfirCommand {
    let Ok(super::Cli { command }) = super::Cli::try_parse_from(argv) else {
        return PfirCommand::Rejected;
    };
    match command {
        Command::Opt(args) => PfirCommand::Opt(OptCommand {
            options: OptOptions {
                split_input_file: args.split_input_file,
                keep_comments: args.keep_comments,
                pipeline: args.pipeline.options(),
            },
            verify_diagnostics: args.verify_diagnostics,
            diagnostic_format: args.diagnostics.diagnostic_format,
            error_limit: args.diagnostics.error_limit(),
            input: args.input,
            output: args.output,
        }),
        Command::Graph(args) => PfirCommand::Graph {
            output: args.output,
        },
        Command::Fmt(args) => PfirCommand::Fmt {
            in_place: args.in_place,
        },
        Command::Fix(args) => PfirCommand::Fix {
            in_place: args.in_place,
        },
        // `pfir reduce` runs commands and writes files, as `pfir test` does.
        Command::Test(_) | Command::Reduce(_) => PfirCommand::Test,
        Command::Lsp(_) => PfirCommand::Lsp,
        Command::Check(_) | Command::Explain(_) | Command::Filecheck(_) | Command::Translate(_) => {
            PfirCommand::ReadOnly
        }
    }
}
