//! What the server announces in its `initialize` answer.

use super::code_actions::UPDATE_CHECKS_KIND;
use super::positions::Encoding;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions, OneOf,
    SaveOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

/// The capabilities, with the negotiated position encoding.
pub fn server_capabilities(encoding: Encoding) -> ServerCapabilities {
    let mut caps = ServerCapabilities {
        position_encoding: Some(super::positions::kind(encoding)),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(UPDATE_CHECKS_KIND),
            ]),
            // "Update CHECK lines" runs its command only when resolved.
            resolve_provider: Some(true),
            ..CodeActionOptions::default()
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    super::features::add_capabilities(&mut caps);
    caps
}
