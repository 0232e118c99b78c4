//! Code actions:
//!
//! - a quick fix for every suggestion of a diagnostic in the requested
//!   range (machine-applicable ones preferred, maybe-incorrect ones offered
//!   too; suggestions with placeholders are not edits);
//! - "Add `expected-error` comment" for an error (as mlir-lsp-server): a
//!   `// expected-error@+1 {{...}}` line above the error's line, so the
//!   file becomes a `--verify-diagnostics` test;
//! - "Update CHECK lines" (`source.updateChecks.pfir`): the CHECK lines
//!   regenerated from the output of the first RUN line that pipes into
//!   FileCheck, exactly as `pfir test --update` would write them
//!   ([`crate::testing::update_checks`]), run on the text in the editor.

use super::diagnostics::{check_document, to_lsp};
use super::documents::Document;
use super::output::source_path;
use super::producer;
use crate::diagnostics::{Applicability, Diagnostic, Severity};
use crate::testing::update_checks;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Url, WorkspaceEdit};
use std::collections::HashMap;

/// The kind of the "Update CHECK lines" action.
pub const UPDATE_CHECKS_KIND: &str = "source.updateChecks.pfir";

/// The code actions for the byte range `range` of `doc` (at `uri`).
pub fn code_actions(
    uri: &Url,
    doc: &Document,
    range: std::ops::Range<usize>,
    only: Option<&[CodeActionKind]>,
    invoked: bool,
) -> Vec<CodeActionOrCommand> {
    let wants = |kind: &CodeActionKind| {
        only.is_none_or(|only| {
            only.iter().any(|k| {
                kind.as_str() == k.as_str()
                    || kind.as_str().starts_with(&format!("{}.", k.as_str()))
            })
        })
    };
    let mut actions = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        let text = &*doc.text;
        for d in check_document(&doc.analysis(), false) {
            let span = d.primary.span.range();
            let touches = span.start <= range.end && range.start <= span.end;
            if !touches {
                continue;
            }
            let lsp = to_lsp(&d, uri, text, &doc.lines);
            actions.extend(quick_fixes(uri, doc, &d, &lsp));
            if d.severity == Severity::Error
                && let Some(action) = expected_error_comment(uri, doc, &d, &lsp)
            {
                actions.push(action);
            }
        }
    }
    // Updating runs the test's command: only when asked for (the source
    // action menu, or an explicit request), not on every cursor move.
    if (invoked || only.is_some())
        && wants(&CodeActionKind::from(UPDATE_CHECKS_KIND))
        && let Some(action) = update_checks_action(uri, doc)
    {
        actions.push(action);
    }
    actions
        .into_iter()
        .map(CodeActionOrCommand::CodeAction)
        .collect()
}

fn edit(uri: &Url, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

fn quick_fixes(
    uri: &Url,
    doc: &Document,
    d: &Diagnostic,
    lsp: &lsp_types::Diagnostic,
) -> Vec<CodeAction> {
    d.suggestions
        .iter()
        .filter(|s| s.applicability != Applicability::HasPlaceholders)
        .map(|s| CodeAction {
            title: capitalize(&s.help_text()),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp.clone()]),
            edit: Some(edit(
                uri,
                vec![TextEdit {
                    range: doc.range(s.span.range()),
                    new_text: s.replacement.clone(),
                }],
            )),
            is_preferred: Some(s.applicability == Applicability::MachineApplicable),
            ..CodeAction::default()
        })
        .collect()
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `// expected-error@+1 {{message}}` above the error's line, indented as
/// that line; `None` when the message cannot be written between `{{ }}`.
fn expected_error_comment(
    uri: &Url,
    doc: &Document,
    d: &Diagnostic,
    lsp: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    let message = d.message.lines().next().unwrap_or("");
    if message.is_empty() || message.contains("}}") {
        return None;
    }
    let text = &*doc.text;
    let line = doc.lines.line_of(d.primary.span.start().min(text.len()));
    let line_range = doc.lines.line_range(line)?;
    let indent: String = text[line_range.clone()]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let eol = if crate::format::uses_crlf(text) {
        "\r\n"
    } else {
        "\n"
    };
    let start = doc.range(line_range.start..line_range.start).start;
    Some(CodeAction {
        title: "Add `expected-error` comment".to_string(),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![lsp.clone()]),
        edit: Some(edit(
            uri,
            vec![TextEdit {
                range: lsp_types::Range::new(start, start),
                new_text: format!("{indent}// expected-error@+1 {{{{{message}}}}}{eol}"),
            }],
        )),
        is_preferred: Some(false),
        ..CodeAction::default()
    })
}

/// The document with its CHECK lines regenerated, as one edit; `None`
/// when there is nothing to update or the command fails.
pub fn updated_checks(doc: &Document, uri: &Url) -> Option<String> {
    let text = &*doc.text;
    let source = source_path(uri);
    // The command may write `%t`: a private scratch directory, as the
    // runner gives every test.
    let scratch = lit::ScratchDir::create(&source).ok()?;
    let subs = producer::substitutions(&source, scratch.temp.clone());
    let found = update_checks::find_producer(text, &subs).ok()??;
    let produced = producer::run(&found.pipeline.stages, text, &source, &producer::tools());
    if !produced.passed || update_checks::unattributed_line(&produced.stdout, found.split).is_some()
    {
        return None;
    }
    let new_text = update_checks::generate(text, &produced.stdout, &found.prefix, found.split);
    (new_text != text).then_some(new_text)
}

fn update_checks_action(uri: &Url, doc: &Document) -> Option<CodeAction> {
    let new_text = updated_checks(doc, uri)?;
    let text = &*doc.text;
    Some(CodeAction {
        title: "Update CHECK lines".to_string(),
        kind: Some(CodeActionKind::from(UPDATE_CHECKS_KIND)),
        edit: Some(edit(
            uri,
            vec![TextEdit {
                range: doc.range(0..text.len()),
                new_text,
            }],
        )),
        ..CodeAction::default()
    })
}
