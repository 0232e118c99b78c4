//! Request dispatch: the method name to its handler, parameters decoded
//! from JSON and results encoded back. Handlers of the language features
//! live in [`super::features`] (those that ask `pfir::ide`) and in the
//! modules of their concern (formatting, code actions, output, tests).
//!
//! A request about a document that is not open answers an empty result
//! (`null`), not an error: editors send requests while documents close.

use super::output::{self, ViewOutputParams, ViewOutputResult};
use super::server::Server;
use super::{code_actions, features, formatting};
use lsp_server::{ErrorCode, Request};
use lsp_types::{
    CodeAction, CodeActionParams, CodeLens, CodeLensParams, Command, DocumentFormattingParams,
    DocumentRangeFormattingParams,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The method of the `pfir/explain` request: `{ code }` to `{ text }`, the
/// explanation `pfir explain` prints (the target of the `pfir-explain:`
/// links in diagnostics).
pub const EXPLAIN: &str = "pfir/explain";

/// The test-only request that panics (see [`super::server::ServerOptions`]).
pub const TEST_PANIC: &str = "pfir/testPanic";

/// The test-only request that keeps the main loop busy for `{ "ms": N }`
/// milliseconds (at most one second), then checks for its cancellation as
/// a long handler does between phases: so that a test can queue requests
/// behind it and cancel them, or cancel it while it runs.
pub const TEST_BUSY: &str = "pfir/testBusy";

/// The test-only request that answers `{ "text": ... }`, the server's
/// text of `{ "textDocument": { "uri" } }` (`null` when it is not open):
/// for the tests of incremental sync.
pub const TEST_TEXT: &str = "pfir/testText";

/// An error answer.
#[derive(Debug)]
pub struct RequestError {
    pub code: ErrorCode,
    pub message: String,
}

impl RequestError {
    pub fn failed(message: impl Into<String>) -> RequestError {
        RequestError {
            code: ErrorCode::RequestFailed,
            message: message.into(),
        }
    }
}

pub type Answer = Result<Value, RequestError>;

fn params<P: DeserializeOwned>(request: &Request) -> Result<P, RequestError> {
    serde_json::from_value(request.params.clone()).map_err(|e| RequestError {
        code: ErrorCode::InvalidParams,
        message: format!("invalid parameters for `{}`: {e}", request.method),
    })
}

fn json(value: impl Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| RequestError {
        code: ErrorCode::InternalError,
        message: e.to_string(),
    })
}

/// Answers `request`: the language features first, then the document
/// edits and tests, then pfir's own requests.
pub fn handle(server: &mut Server, request: Request) -> Answer {
    if let Some(answer) = features::handle(server, &request) {
        return answer;
    }
    match request.method.as_str() {
        "textDocument/formatting" => formatting(server, &request),
        "textDocument/rangeFormatting" => range_formatting(server, &request),
        "textDocument/codeAction" => code_action(server, &request),
        "codeAction/resolve" => resolve_code_action(server, &request),
        "textDocument/codeLens" => {
            let p: CodeLensParams = params(&request)?;
            json(code_lenses(server, &p.text_document.uri))
        }
        output::VIEW_OUTPUT => view_output(server, &request),
        EXPLAIN => explain(&request),
        _ => test_request(server, &request),
    }
}

fn formatting(server: &Server, request: &Request) -> Answer {
    let p: DocumentFormattingParams = params(request)?;
    let Some(doc) = server.documents.get(&p.text_document.uri) else {
        return Ok(Value::Null);
    };
    json(formatting::format_edits(&p.text_document.uri, doc, None).map_err(RequestError::failed)?)
}

fn range_formatting(server: &Server, request: &Request) -> Answer {
    let p: DocumentRangeFormattingParams = params(request)?;
    let Some(doc) = server.documents.get(&p.text_document.uri) else {
        return Ok(Value::Null);
    };
    let range = doc.lines.byte_range(&doc.text, p.range);
    json(
        formatting::format_edits(&p.text_document.uri, doc, Some(range))
            .map_err(RequestError::failed)?,
    )
}

fn code_action(server: &Server, request: &Request) -> Answer {
    let p: CodeActionParams = params(request)?;
    let Some(doc) = server.documents.get(&p.text_document.uri) else {
        return Ok(Value::Null);
    };
    let range = doc.lines.byte_range(&doc.text, p.range);
    json(code_actions::code_actions(
        &p.text_document.uri,
        doc,
        range,
        p.context.only.as_deref(),
        p.context.trigger_kind,
    ))
}

fn resolve_code_action(server: &Server, request: &Request) -> Answer {
    let action: CodeAction = params(request)?;
    if action.kind.as_ref().map(|k| k.as_str()) != Some(code_actions::UPDATE_CHECKS_KIND) {
        // Every other action comes with its edit.
        return json(action);
    }
    let policy =
        super::trust::RunPolicy::from_settings(&server.settings, server.options.read_command);
    let documents = &server.documents;
    json(
        code_actions::resolve_update_checks(action, |u| documents.get(u), &policy)
            .map_err(RequestError::failed)?,
    )
}

fn view_output(server: &Server, request: &Request) -> Answer {
    let p: ViewOutputParams = params(request)?;
    let Some(doc) = server.documents.get(&p.text_document.uri) else {
        return Err(RequestError::failed(format!(
            "{} is not open",
            p.text_document.uri
        )));
    };
    let source = output::source_path(&p.text_document.uri);
    let policy =
        super::trust::RunPolicy::from_settings(&server.settings, server.options.read_command);
    let text =
        output::view_output(&doc.text, &source, p.run, &policy).map_err(RequestError::failed)?;
    json(ViewOutputResult { text })
}

fn explain(request: &Request) -> Answer {
    let invalid = |message: String| RequestError {
        code: ErrorCode::InvalidParams,
        message,
    };
    let code = request
        .params
        .get("code")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid(format!(
                "`{EXPLAIN}` needs {{\"code\": \"E0010\"}}: an error code as a string"
            ))
        })?;
    let code = crate::diagnostics::Code::parse(code).ok_or_else(|| {
        invalid(format!(
            "no error code `{}` (codes look like E0010)",
            super::server::shorten(code)
        ))
    })?;
    json(serde_json::json!({ "text": crate::diagnostics::codes::explain(code) }))
}

/// The test-only requests (when the server was started with them), else
/// "unknown request".
fn test_request(server: &Server, request: &Request) -> Answer {
    match request.method.as_str() {
        TEST_PANIC if server.options.test_requests => {
            panic!("pfir/testPanic: a handler panicked on purpose")
        }
        TEST_BUSY if server.options.test_requests => {
            let ms = request
                .params
                .get("ms")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            std::thread::sleep(std::time::Duration::from_millis(ms.min(1000)));
            // A phase ends: a cancellation that came meanwhile is seen.
            server.check_cancelled()?;
            Ok(Value::Null)
        }
        TEST_TEXT if server.options.test_requests => {
            let uri = request
                .params
                .pointer("/textDocument/uri")
                .and_then(Value::as_str)
                .and_then(|u| lsp_types::Url::parse(u).ok());
            let doc = uri.and_then(|u| server.documents.get(&u));
            Ok(doc.map_or(Value::Null, |d| serde_json::json!({ "text": &*d.text })))
        }
        _ => Err(RequestError {
            code: ErrorCode::MethodNotFound,
            message: format!(
                "unknown request `{}`",
                super::server::shorten(&request.method)
            ),
        }),
    }
}

/// A lens above each CHECK line of the last test run of this version: the
/// output line it matched (or why it did not).
fn code_lenses(server: &Server, uri: &lsp_types::Url) -> Vec<CodeLens> {
    let Some(doc) = server.documents.get(uri) else {
        return Vec::new();
    };
    let Ok(reports) = server.reports.lock() else {
        return Vec::new();
    };
    let Some(report) = reports.get(uri).filter(|r| r.version == doc.version) else {
        return Vec::new();
    };
    report
        .checks
        .iter()
        .filter_map(|check| {
            let range = doc.lines.line_range(&doc.text, check.line)?;
            let title = features::check_lens_title(check);
            Some(CodeLens {
                range: doc.range(range),
                command: Some(Command {
                    title,
                    command: String::new(),
                    arguments: None,
                }),
                data: None,
            })
        })
        .collect()
}
