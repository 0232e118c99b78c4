//! `pfir lsp`: the language server, over stdio, on `lsp-server` and
//! `lsp-types` (rust-analyzer's synchronous crates).
//!
//! One concept per file: [`server`] (the main loop, lifecycle,
//! cancellation, panic safety), [`requests`] (dispatch), [`capabilities`],
//! [`documents`] (the store: text, version, line index, analysis),
//! [`positions`] (byte offsets to and from UTF-8/16/32 positions),
//! [`settings`], [`worker`] (debounced checking, tests on save,
//! publishing), [`diagnostics`] (pfir's diagnostics as LSP's),
//! [`code_actions`], [`formatting`], [`commands`] (what a RUN line's `pfir`
//! command does, read by the CLI's parser), [`producer`] (RUN-line commands on
//! the editor's text), [`tests_on_save`], [`output`] (`pfir/viewOutput`
//! and `pfir-output:` documents) and [`features`] (the handlers that ask
//! `pfir::ide`), [`trust`] (what runs without the user's consent). The
//! stdio framing, with its limits, is the server's own [`transport`].
//! User-facing behaviour: `docs/editors.md`.

pub mod capabilities;
pub mod code_actions;
pub mod commands;
pub mod diagnostics;
pub mod documents;
pub mod features;
pub mod formatting;
pub mod output;
pub mod positions;
pub mod producer;
pub mod requests;
pub mod semantic_tokens;
pub mod server;
pub mod settings;
pub mod tests_on_save;
pub mod transport;
pub mod trust;
pub mod worker;

pub use server::ServerOptions;

/// Runs the server on stdin/stdout until `exit`; returns the exit status.
pub fn run_stdio(options: ServerOptions) -> u8 {
    // Processes that RUN lines start and that leave their process group
    // are re-parented to the server, which kills them with the pipeline.
    lit::orphans::adopt_orphans();
    let limits = transport::Limits {
        max_message_bytes: options.max_message_bytes,
    };
    let transport = match transport::Transport::start(std::io::stdin(), std::io::stdout(), limits) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("pfir lsp: cannot start: {e}");
            return 1;
        }
    };
    let incoming = transport.incoming.clone();
    let out = transport.outgoing.clone();
    let cancellations = transport.cancellations.clone();
    let status = server::run(incoming, out, cancellations, options);
    transport.finish();
    status
}
