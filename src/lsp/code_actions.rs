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
//!   It runs the test's command, so it is offered only when the user asks
//!   (the request is invoked, or names the kind in `only`, and is not an
//!   automatic trigger), without an edit: the command runs when the client
//!   resolves the action (`codeAction/resolve`, [`resolve_update_checks`]),
//!   under the consent rules of [`super::trust`].

use super::diagnostics::{check_document, to_lsp};
use super::documents::Document;
use super::output::source_path;
use super::producer;
use super::trust::{self, RunPolicy};
use crate::diagnostics::{Applicability, Diagnostic, Severity};
use crate::testing::update_checks;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionTriggerKind, TextEdit, Url,
    WorkspaceEdit,
};
use std::collections::HashMap;

/// The kind of the "Update CHECK lines" action.
pub const UPDATE_CHECKS_KIND: &str = "source.updateChecks.pfir";

/// The code actions for the byte range `range` of `doc` (at `uri`).
pub fn code_actions(
    uri: &Url,
    doc: &Document,
    range: std::ops::Range<usize>,
    only: Option<&[CodeActionKind]>,
    trigger: Option<CodeActionTriggerKind>,
) -> Vec<CodeActionOrCommand> {
    let invoked = trigger == Some(CodeActionTriggerKind::INVOKED);
    let automatic = trigger == Some(CodeActionTriggerKind::AUTOMATIC);
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
            let fixing = Fixing {
                uri,
                doc,
                d: &d,
                lsp: to_lsp(&d, uri, text, &doc.lines),
            };
            actions.extend(fixing.suggestions());
            if d.severity == Severity::Error
                && let Some(action) = fixing.expected_error_comment()
            {
                actions.push(action);
            }
        }
    }
    // Updating runs the test's command: offered only when asked for (the
    // source action menu, or an explicit request), never on an automatic
    // trigger; and computed only when resolved.
    if !automatic
        && (invoked || only.is_some())
        && wants(&CodeActionKind::from(UPDATE_CHECKS_KIND))
        && has_producer(uri, doc)
    {
        actions.push(update_checks_action(uri, doc));
    }
    actions
        .into_iter()
        .map(CodeActionOrCommand::CodeAction)
        .collect()
}

/// `uri` with `range` replaced by `new_text`.
fn edit(uri: &Url, range: lsp_types::Range, new_text: String) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(
            uri.clone(),
            vec![TextEdit { range, new_text }],
        )])),
        ..WorkspaceEdit::default()
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A diagnostic of `doc` (`lsp` as the editor sees it) and the quick
/// fixes offered for it.
struct Fixing<'a> {
    uri: &'a Url,
    doc: &'a Document,
    d: &'a Diagnostic,
    lsp: lsp_types::Diagnostic,
}

impl Fixing<'_> {
    /// A quick fix of the diagnostic: `range` replaced by `new_text`.
    fn action(
        &self,
        title: String,
        range: lsp_types::Range,
        new_text: String,
        preferred: bool,
    ) -> CodeAction {
        CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![self.lsp.clone()]),
            edit: Some(edit(self.uri, range, new_text)),
            is_preferred: Some(preferred),
            ..CodeAction::default()
        }
    }

    /// The diagnostic's suggestions (not those with placeholders).
    fn suggestions(&self) -> Vec<CodeAction> {
        self.d
            .suggestions
            .iter()
            .filter(|s| s.applicability != Applicability::HasPlaceholders)
            .map(|s| {
                self.action(
                    capitalize(&s.help_text()),
                    self.doc.range(s.span.range()),
                    s.replacement.clone(),
                    s.applicability == Applicability::MachineApplicable,
                )
            })
            .collect()
    }

    /// `// expected-error@+1 {{message}}` above the error's line, indented
    /// as that line; `None` when the message cannot be written between
    /// `{{ }}`.
    fn expected_error_comment(&self) -> Option<CodeAction> {
        let (doc, d) = (self.doc, self.d);
        let message = fsutil::lines::lines(&d.message).next().unwrap_or("");
        if message.is_empty() || message.contains("}}") {
            return None;
        }
        let text = &*doc.text;
        let line = doc.lines.line_of(d.primary.span.start().min(text.len()));
        let line_range = doc.lines.line_range(text, line)?;
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
        Some(self.action(
            "Add `expected-error` comment".to_string(),
            lsp_types::Range::new(start, start),
            format!("{indent}// expected-error@+1 {{{{{message}}}}}{eol}"),
            false,
        ))
    }
}

/// Whether the document has a RUN line whose checks can be regenerated
/// (nothing is run to know).
fn has_producer(uri: &Url, doc: &Document) -> bool {
    let source = source_path(uri);
    let subs = producer::substitutions(&source, source.with_extension("pfir-lsp.tmp"));
    matches!(update_checks::find_producer(&doc.text, &subs), Ok(Some(_)))
}

/// The document with its CHECK lines regenerated, run under `policy`;
/// an error says why not (a command that needs consent, a failing
/// command, nothing to update).
pub fn updated_checks(doc: &Document, uri: &Url, policy: &RunPolicy) -> Result<String, String> {
    let text = &*doc.text;
    let source = source_path(uri);
    // The command may write `%t`: a private scratch directory, as the
    // runner gives every test.
    let scratch = lit::ScratchDir::create(&source)
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let subs = producer::substitutions(&source, scratch.temp.clone());
    let found = update_checks::find_producer(text, &subs)?
        .ok_or("no RUN line pipes a command's output into FileCheck")?;
    for (run, expanded) in lit::define::expanded_run_lines(text, &subs.custom)? {
        trust::check_substitutions(&expanded, &subs.custom, policy)
            .map_err(|b| format!("line {}: {}", run.line, b.message()))?;
    }
    trust::check_stages(
        &found.pipeline.stages,
        &trust::scratch_dir(&subs.temp),
        policy,
    )
    .map_err(|b| b.message())?;
    let produced = producer::run(
        &found.pipeline.stages,
        text,
        &source,
        &producer::runner(policy),
    );
    if !produced.passed {
        return Err(format!("`{}` failed", produced.command));
    }
    if produced.dropped > 0 {
        return Err(format!(
            "the output of `{}` is larger than the editor keeps",
            produced.command
        ));
    }
    if let Some(line) = update_checks::unattributed_line(&produced.stdout, found.split) {
        return Err(format!(
            "an output line cannot be attributed to a function: {line}"
        ));
    }
    let new_text = update_checks::generate(text, &produced.stdout, &found.prefix, found.split);
    if new_text == text {
        return Err("the CHECK lines are up to date".into());
    }
    Ok(new_text)
}

/// The action, without its edit: `data` names the document and version
/// that [`resolve_update_checks`] computes it for.
fn update_checks_action(uri: &Url, doc: &Document) -> CodeAction {
    CodeAction {
        title: "Update CHECK lines".to_string(),
        kind: Some(CodeActionKind::from(UPDATE_CHECKS_KIND)),
        data: Some(serde_json::json!({ "uri": uri, "version": doc.version })),
        ..CodeAction::default()
    }
}

/// `codeAction/resolve` of "Update CHECK lines": runs the command (under
/// `policy`) and fills in the edit. `lookup` finds the open document.
pub fn resolve_update_checks<'a>(
    mut action: CodeAction,
    lookup: impl Fn(&Url) -> Option<&'a Document>,
    policy: &RunPolicy,
) -> Result<CodeAction, String> {
    let data = action.data.clone().unwrap_or_default();
    let uri = data
        .get("uri")
        .and_then(serde_json::Value::as_str)
        .and_then(|u| Url::parse(u).ok())
        .ok_or("the code action does not name its document (`data.uri`)")?;
    let doc = lookup(&uri).ok_or_else(|| format!("{uri} is not open"))?;
    if data.get("version").and_then(serde_json::Value::as_i64) != Some(i64::from(doc.version)) {
        return Err("the document changed since the action was offered; ask again".into());
    }
    let new_text = updated_checks(doc, &uri, policy)?;
    action.edit = Some(edit(&uri, doc.range(0..doc.text.len()), new_text));
    Ok(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comment quotes the message's first line as the editor shows
    /// it: a lone `\r` ends it (the rest would become code of the file).
    #[test]
    fn the_expected_error_comment_quotes_the_first_line_lone_cr_included() {
        let uri = Url::parse("file:///t.pfir").unwrap();
        let doc = Document::new("  x = 1\n", 1, super::super::positions::Encoding::Utf16);
        let d = Diagnostic::error("first\rsecond", crate::span::Span::new(2, 3));
        let fixing = Fixing {
            uri: &uri,
            doc: &doc,
            d: &d,
            lsp: lsp_types::Diagnostic::default(),
        };
        let action = fixing.expected_error_comment().unwrap();
        let mut changes = action.edit.unwrap().changes.unwrap();
        let edits = changes.remove(&uri).unwrap();
        assert_eq!(edits[0].new_text, "  // expected-error@+1 {{first}}\n");
    }
}
