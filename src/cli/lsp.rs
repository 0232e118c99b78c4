//! `pfir lsp`: the language server, speaking JSON-RPC over stdin/stdout
//! (see `docs/editors.md`).

use clap::Args;

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
    })
}
