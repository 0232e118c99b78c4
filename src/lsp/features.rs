//! The handlers of the language features that ask `pfir::ide` (the
//! protocol-free analysis): byte offsets in, byte ranges out, converted
//! with the document's position encoder. Go to definition on a CHECK line
//! answers from the last test run instead (the matched output line, in
//! its `pfir-output:` document).

use super::documents::Document;
use super::output;
use super::positions::LineIndex;
use super::requests::{Answer, RequestError};
use super::semantic_tokens;
use super::server::Server;
use super::tests_on_save::CheckResult;
use crate::ide::{self, Access, CompletionKind, FoldKind, InlayHintKind, SymbolKind};
use filecheck::DirectiveStatus;
use lsp_server::{ErrorCode, Request};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse,
    CompletionTextEdit, DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams,
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, FoldingRange, FoldingRangeKind,
    FoldingRangeParams, FoldingRangeProviderCapability, GotoDefinitionParams, Hover, HoverContents,
    HoverParams, HoverProviderCapability, InlayHint, InlayHintLabel, InlayHintParams,
    InsertTextFormat, Location, MarkupContent, MarkupKind, OneOf, Position, PrepareRenameResponse,
    Range, ReferenceParams, RenameOptions, RenameParams, SemanticTokens, SemanticTokensFullOptions,
    SemanticTokensOptions, SemanticTokensParams, SemanticTokensRangeParams,
    SemanticTokensServerCapabilities, ServerCapabilities, SymbolInformation,
    TextDocumentPositionParams, TextEdit, Url, WorkDoneProgressOptions, WorkspaceEdit,
    WorkspaceSymbolParams,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// Answers `request` when it is a feature of this module.
pub fn handle(server: &mut Server, request: &Request) -> Option<Answer> {
    let answer = match request.method.as_str() {
        "textDocument/definition" => definition(server, request),
        "textDocument/references" => references(server, request),
        "textDocument/documentHighlight" => highlights(server, request),
        "textDocument/prepareRename" => prepare_rename(server, request),
        "textDocument/rename" => rename(server, request),
        "textDocument/documentSymbol" => document_symbols(server, request),
        "workspace/symbol" => workspace_symbols(server, request),
        "textDocument/foldingRange" => folding_ranges(server, request),
        "textDocument/hover" => hover(server, request),
        "textDocument/inlayHint" => inlay_hints(server, request),
        "textDocument/completion" => completion(server, request),
        "textDocument/semanticTokens/full" => semantic_tokens_full(server, request),
        "textDocument/semanticTokens/range" => semantic_tokens_range(server, request),
        _ => return None,
    };
    Some(answer)
}

fn params<P: DeserializeOwned>(request: &Request) -> Result<P, RequestError> {
    serde_json::from_value(request.params.clone()).map_err(|e| RequestError {
        code: ErrorCode::InvalidParams,
        message: format!("invalid parameters for `{}`: {e}", request.method),
    })
}

fn json(value: impl Serialize) -> Answer {
    serde_json::to_value(value).map_err(internal)
}

/// The open document `uri` and its analysis, built (or waited for) before
/// the request checks whether it was cancelled; `None` when `uri` is not
/// open.
fn analysed<'a>(
    server: &'a Server,
    uri: &Url,
) -> Result<Option<(&'a Document, std::sync::Arc<ide::Analysis>)>, RequestError> {
    let Some(doc) = server.documents.get(uri) else {
        return Ok(None);
    };
    let analysis = doc.analysis();
    server.check_cancelled()?;
    Ok(Some((doc, analysis)))
}

/// The document and byte offset a position request is about.
fn at<'a>(server: &'a Server, p: &TextDocumentPositionParams) -> Option<(&'a Document, usize)> {
    let doc = server.documents.get(&p.text_document.uri)?;
    Some((doc, doc.offset(p.position)))
}

fn definition(server: &Server, request: &Request) -> Answer {
    let p: GotoDefinitionParams = params(request)?;
    let p = p.text_document_position_params;
    if let Some(location) = check_line_definition(server, &p.text_document.uri, p.position) {
        return json(location);
    }
    let Some((doc, offset)) = at(server, &p) else {
        return Ok(serde_json::Value::Null);
    };
    json(
        doc.analysis()
            .definition(offset)
            .map(|r| Location::new(p.text_document.uri.clone(), doc.range(r))),
    )
}

fn references(server: &Server, request: &Request) -> Answer {
    let p: ReferenceParams = params(request)?;
    let pos = p.text_document_position;
    let Some((doc, offset)) = at(server, &pos) else {
        return Ok(serde_json::Value::Null);
    };
    let uri = &pos.text_document.uri;
    json(
        doc.analysis()
            .references(offset, p.context.include_declaration)
            .into_iter()
            .map(|r| Location::new(uri.clone(), doc.range(r)))
            .collect::<Vec<_>>(),
    )
}

fn highlights(server: &Server, request: &Request) -> Answer {
    let p: DocumentHighlightParams = params(request)?;
    let Some((doc, offset)) = at(server, &p.text_document_position_params) else {
        return Ok(serde_json::Value::Null);
    };
    json(
        doc.analysis()
            .highlights(offset)
            .into_iter()
            .map(|h| DocumentHighlight {
                range: doc.range(h.range),
                kind: Some(match h.access {
                    Access::Read => DocumentHighlightKind::READ,
                    Access::Write => DocumentHighlightKind::WRITE,
                }),
            })
            .collect::<Vec<_>>(),
    )
}

fn prepare_rename(server: &Server, request: &Request) -> Answer {
    let p: TextDocumentPositionParams = params(request)?;
    let Some((doc, offset)) = at(server, &p) else {
        return Ok(serde_json::Value::Null);
    };
    match doc.analysis().prepare_rename(offset) {
        Ok(range) => json(PrepareRenameResponse::Range(doc.range(range))),
        Err(e) => Err(RequestError::failed(e.message)),
    }
}

fn rename(server: &Server, request: &Request) -> Answer {
    let p: RenameParams = params(request)?;
    let pos = p.text_document_position;
    let Some((doc, offset)) = at(server, &pos) else {
        return Ok(serde_json::Value::Null);
    };
    let edits = doc
        .analysis()
        .rename(offset, &p.new_name)
        .map_err(|e| RequestError::failed(e.message))?;
    let edits = edits
        .into_iter()
        .map(|(range, new_text)| TextEdit {
            range: doc.range(range),
            new_text,
        })
        .collect();
    json(WorkspaceEdit {
        changes: Some(HashMap::from([(pos.text_document.uri, edits)])),
        ..WorkspaceEdit::default()
    })
}

fn symbol_kind(kind: SymbolKind) -> lsp_types::SymbolKind {
    match kind {
        SymbolKind::Chunk => lsp_types::SymbolKind::FILE,
        SymbolKind::Function => lsp_types::SymbolKind::FUNCTION,
        SymbolKind::Scope => lsp_types::SymbolKind::NAMESPACE,
        SymbolKind::Loop => lsp_types::SymbolKind::OPERATOR,
        SymbolKind::Variable => lsp_types::SymbolKind::VARIABLE,
        SymbolKind::Parameter => lsp_types::SymbolKind::TYPE_PARAMETER,
    }
}

/// The most symbols a `documentSymbol` answer lists; past it, a symbol's
/// children are left out and its detail says how many, so that the answer
/// of a huge document stays small.
pub const MAX_DOCUMENT_SYMBOLS: usize = 10_000;

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelt out.
fn document_symbol(doc: &Document, node: ide::SymbolNode) -> DocumentSymbol {
    let range = doc.range(node.range.clone());
    let mut selection_range = doc.range(node.selection_range);
    // The protocol wants the selection inside the range.
    if selection_range.start < range.start || selection_range.end > range.end {
        selection_range = Range::new(range.start, range.start);
    }
    let mut detail = node.detail;
    if node.omitted > 0 {
        let note = format!("({} symbols below not listed)", node.omitted);
        detail = Some(match detail {
            Some(d) => format!("{d} {note}"),
            None => note,
        });
    }
    let children = node
        .children
        .into_iter()
        .map(|c| document_symbol(doc, c))
        .collect();
    DocumentSymbol {
        name: if node.name.is_empty() {
            "(unnamed)".to_string()
        } else {
            node.name
        },
        detail,
        kind: symbol_kind(node.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children: Some(children),
    }
}

/// The outline, its first [`MAX_DOCUMENT_SYMBOLS`] symbols (only those are
/// built), then an entry counting the top-level ones left out.
fn document_symbols(server: &Server, request: &Request) -> Answer {
    let p: DocumentSymbolParams = params(request)?;
    let Some((doc, analysis)) = analysed(server, &p.text_document.uri)? else {
        return Ok(serde_json::Value::Null);
    };
    let outline = analysis.document_symbols_within(MAX_DOCUMENT_SYMBOLS);
    let mut symbols: Vec<DocumentSymbol> = outline
        .symbols
        .into_iter()
        .map(|n| document_symbol(doc, n))
        .collect();
    if outline.omitted > 0 {
        let start = doc.range(outline.omitted_at..outline.omitted_at).start;
        #[allow(deprecated)]
        symbols.push(DocumentSymbol {
            name: format!("({} more symbols not listed)", outline.omitted),
            detail: None,
            kind: lsp_types::SymbolKind::FILE,
            tags: None,
            deprecated: None,
            range: Range::new(start, start),
            selection_range: Range::new(start, start),
            children: None,
        });
    }
    json(DocumentSymbolResponse::Nested(symbols))
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must be spelt out.
fn workspace_symbols(server: &Server, request: &Request) -> Answer {
    let p: WorkspaceSymbolParams = params(request)?;
    let mut out: Vec<SymbolInformation> = Vec::new();
    let mut docs: Vec<(&Url, &Document)> = server.documents.iter().collect();
    docs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    for (uri, doc) in docs {
        let analysis = doc.analysis();
        server.check_cancelled()?;
        for s in analysis.symbols_matching(&p.query) {
            out.push(SymbolInformation {
                name: s.name,
                kind: symbol_kind(s.kind),
                tags: None,
                deprecated: None,
                location: Location::new(uri.clone(), doc.range(s.selection_range)),
                container_name: s.container,
            });
        }
    }
    json(out)
}

/// The most folding ranges a `foldingRange` answer lists: the first ones
/// in document order (as VS Code, whose default limit is 5,000, keeps
/// them). Each costs about 400 bytes as JSON before it is written, so the
/// answer of a huge document stays small.
pub const MAX_FOLDING_RANGES: usize = 50_000;

fn folding_ranges(server: &Server, request: &Request) -> Answer {
    let p: FoldingRangeParams = params(request)?;
    let Some((doc, analysis)) = analysed(server, &p.text_document.uri)? else {
        return Ok(serde_json::Value::Null);
    };
    let mut folds = analysis.folding_ranges();
    if folds.len() > MAX_FOLDING_RANGES {
        folds.sort_by_key(|f| f.range.start);
        folds.truncate(MAX_FOLDING_RANGES);
    }
    let folds: Vec<FoldingRange> = folds
        .into_iter()
        .filter_map(|f| {
            let start_line = doc.lines.line_of(f.range.start);
            let end_line = doc.lines.line_of(f.range.end);
            (end_line > start_line).then(|| FoldingRange {
                start_line: u32::try_from(start_line).unwrap_or(u32::MAX),
                end_line: u32::try_from(end_line).unwrap_or(u32::MAX),
                kind: match f.kind {
                    FoldKind::Comment | FoldKind::CheckLines => Some(FoldingRangeKind::Comment),
                    FoldKind::Chunk => Some(FoldingRangeKind::Region),
                    FoldKind::Function | FoldKind::Block => None,
                },
                ..FoldingRange::default()
            })
        })
        .collect();
    json(folds)
}

fn hover(server: &Server, request: &Request) -> Answer {
    let p: HoverParams = params(request)?;
    let Some((doc, offset)) = at(server, &p.text_document_position_params) else {
        return Ok(serde_json::Value::Null);
    };
    json(doc.analysis().hover(offset).map(|h| Hover {
        contents: HoverContents::Markup(if server.hover_plain_text {
            MarkupContent {
                kind: MarkupKind::PlainText,
                value: h.plain_text(),
            }
        } else {
            MarkupContent {
                kind: MarkupKind::Markdown,
                value: h.markdown,
            }
        }),
        range: Some(doc.range(h.range)),
    }))
}

fn inlay_hints(server: &Server, request: &Request) -> Answer {
    let p: InlayHintParams = params(request)?;
    let Some(doc) = server.documents.get(&p.text_document.uri) else {
        return Ok(serde_json::Value::Null);
    };
    let range = doc.lines.byte_range(&doc.text, p.range);
    let hints: Vec<InlayHint> = doc
        .analysis()
        .inlay_hints(range)
        .into_iter()
        .map(|h| InlayHint {
            position: doc.lines.position(&doc.text, h.offset),
            label: InlayHintLabel::String(h.label),
            kind: match h.kind {
                InlayHintKind::Type => Some(lsp_types::InlayHintKind::TYPE),
                InlayHintKind::Barrier => None,
            },
            text_edits: None,
            tooltip: h.tooltip.map(lsp_types::InlayHintTooltip::String),
            padding_left: Some(h.kind == InlayHintKind::Barrier),
            padding_right: None,
            data: None,
        })
        .collect();
    json(hints)
}

fn completion_kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Keyword | CompletionKind::LoopKind => CompletionItemKind::KEYWORD,
        CompletionKind::Type => CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::Op => CompletionItemKind::METHOD,
        CompletionKind::Function => CompletionItemKind::FUNCTION,
        CompletionKind::Variable | CompletionKind::Parameter => CompletionItemKind::VARIABLE,
        CompletionKind::Directive => CompletionItemKind::KEYWORD,
        CompletionKind::Option => CompletionItemKind::PROPERTY,
        CompletionKind::Pass => CompletionItemKind::MODULE,
    }
}

fn completion(server: &Server, request: &Request) -> Answer {
    let p: CompletionParams = params(request)?;
    let Some((doc, offset)) = at(server, &p.text_document_position) else {
        return Ok(serde_json::Value::Null);
    };
    let items: Vec<CompletionItem> = doc
        .analysis()
        .completions(offset)
        .into_iter()
        .map(|c| CompletionItem {
            label: c.label,
            kind: Some(completion_kind(c.kind)),
            detail: c.detail,
            insert_text_format: Some(if c.is_snippet {
                InsertTextFormat::SNIPPET
            } else {
                InsertTextFormat::PLAIN_TEXT
            }),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: doc.range(c.replace),
                new_text: c.insert_text,
            })),
            ..CompletionItem::default()
        })
        .collect();
    json(CompletionResponse::Array(items))
}

fn semantic_tokens_full(server: &Server, request: &Request) -> Answer {
    let p: SemanticTokensParams = params(request)?;
    let Some((doc, analysis)) = analysed(server, &p.text_document.uri)? else {
        return Ok(serde_json::Value::Null);
    };
    let data = semantic_tokens::collect(
        doc,
        &analysis,
        0..doc.text.len(),
        semantic_tokens::MAX_TOKENS,
        || server.check_cancelled(),
    )?;
    json(SemanticTokens {
        result_id: None,
        data,
    })
}

fn semantic_tokens_range(server: &Server, request: &Request) -> Answer {
    let p: SemanticTokensRangeParams = params(request)?;
    let Some((doc, analysis)) = analysed(server, &p.text_document.uri)? else {
        return Ok(serde_json::Value::Null);
    };
    let range = doc.offset(p.range.start)..doc.offset(p.range.end);
    let data =
        semantic_tokens::collect(doc, &analysis, range, semantic_tokens::MAX_TOKENS, || {
            server.check_cancelled()
        })?;
    json(SemanticTokens {
        result_id: None,
        data,
    })
}

/// Announces the features of this module.
pub fn add_capabilities(caps: &mut ServerCapabilities) {
    caps.definition_provider = Some(OneOf::Left(true));
    caps.references_provider = Some(OneOf::Left(true));
    caps.document_highlight_provider = Some(OneOf::Left(true));
    caps.rename_provider = Some(OneOf::Right(RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: WorkDoneProgressOptions::default(),
    }));
    caps.document_symbol_provider = Some(OneOf::Left(true));
    caps.workspace_symbol_provider = Some(OneOf::Left(true));
    caps.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
    caps.inlay_hint_provider = Some(OneOf::Left(true));
    caps.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(vec![".".into(), "-".into(), "=".into(), ":".into()]),
        ..CompletionOptions::default()
    });
    caps.semantic_tokens_provider = Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
        SemanticTokensOptions {
            legend: semantic_tokens::legend(),
            full: Some(SemanticTokensFullOptions::Bool(true)),
            range: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        },
    ));
}

fn internal(e: serde_json::Error) -> RequestError {
    RequestError {
        code: ErrorCode::InternalError,
        message: e.to_string(),
    }
}

/// On a CHECK line of the last test run (of this version): the output
/// line it matched, in the output document of its RUN line.
fn check_line_definition(server: &Server, uri: &Url, position: Position) -> Option<Location> {
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
        (_, at) => format!(
            "✗ failed{}",
            at.map(|a| format!(" at {a}")).unwrap_or_default()
        ),
    }
}
