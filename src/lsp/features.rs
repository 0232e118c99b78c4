//! The handlers of the language features that ask `pfir::ide` (the
//! protocol-free analysis): byte offsets in, byte ranges out, converted
//! with the document's position encoder. Go to definition on a CHECK line
//! answers from the last test run instead (the matched output line, in
//! its `pfir-output:` document).

use super::output;
use super::positions::LineIndex;
use super::requests::Answer;
use super::server::Server;
use super::tests_on_save::CheckResult;
use filecheck::DirectiveStatus;
use lsp_server::Request;
use lsp_types::{GotoDefinitionParams, Location, Position, Range};

/// Answers `request` when it is a feature of this module.
pub fn handle(server: &mut Server, request: &Request) -> Option<Answer> {
    match request.method.as_str() {
        "textDocument/definition" => {
            let p: GotoDefinitionParams = serde_json::from_value(request.params.clone()).ok()?;
            let uri = p.text_document_position_params.text_document.uri;
            let position = p.text_document_position_params.position;
            if let Some(location) = check_line_definition(server, &uri, position) {
                return Some(serde_json::to_value(location).map_err(internal));
            }
            Some(Ok(serde_json::Value::Null))
        }
        _ => None,
    }
}

fn internal(e: serde_json::Error) -> super::requests::RequestError {
    super::requests::RequestError {
        code: lsp_server::ErrorCode::InternalError,
        message: e.to_string(),
    }
}

/// On a CHECK line of the last test run (of this version): the output
/// line it matched, in the output document of its RUN line.
fn check_line_definition(
    server: &Server,
    uri: &lsp_types::Url,
    position: Position,
) -> Option<Location> {
    let doc = server.documents.get(uri)?;
    let reports = server.reports.lock().ok()?;
    let report = reports.get(uri).filter(|r| r.version == doc.version)?;
    let check = report.check_on_line(position.line as usize)?;
    let (line, text) = check.output_line.as_ref()?;
    let line = u32::try_from(*line).ok()?;
    let width = LineIndex::new(text, server.documents.encoding())
        .position(text, text.len())
        .character;
    Some(Location::new(
        output::output_uri(uri, Some(check.run))?,
        Range::new(Position::new(line, 0), Position::new(line, width)),
    ))
}

/// The code lens text of a CHECK line's result.
pub fn check_lens_title(check: &CheckResult) -> String {
    let shown = |(n, text): &(usize, String)| {
        let text = text.trim();
        let short: String = text.chars().take(60).collect();
        let ellipsis = if short.len() < text.len() { "…" } else { "" };
        format!("output line {}: {short}{ellipsis}", n + 1)
    };
    let at = check.output_line.as_ref().map(shown);
    match (check.status, at) {
        (DirectiveStatus::Matched, Some(at)) => format!("✓ matched {at}"),
        (DirectiveStatus::NotFound, Some(at)) => format!("✗ not found; closest {at}"),
        (DirectiveStatus::NotFound, None) => "✗ not found".to_string(),
        (DirectiveStatus::Excluded, Some(at)) => format!("✗ excluded string found at {at}"),
        (DirectiveStatus::WrongLine, Some(at)) => format!("✗ matched on the wrong line, {at}"),
        (_, at) => format!("✗ failed{}", at.map(|a| format!(" at {a}")).unwrap_or_default()),
    }
}

/// Announces the features of this module.
pub fn add_capabilities(caps: &mut lsp_types::ServerCapabilities) {
    caps.definition_provider = Some(lsp_types::OneOf::Left(true));
}
