//! Diagnostics for the editor: the document checked by the same front end
//! and pass pipeline as `pfir opt` ([`check_document`], from the
//! document's `pfir::ide` analysis), and pfir's
//! [`Diagnostic`]s as LSP diagnostics ([`to_lsp`]).
//!
//! A document with `// -----` lines is checked chunk by chunk, as `pfir opt
//! --split-input-file` (and mlir-lsp-server) would, so an error in one
//! chunk does not hide the others. Mapping: the primary label is the range;
//! secondary labels are `relatedInformation`; the primary label's message,
//! the notes and the suggestions' help lines follow the message on lines of
//! their own; the error code is `code`, with `codeDescription` pointing at
//! `pfir-explain:<code>` (served by the `pfir/explain` request); errors,
//! warnings and notes keep their severity, remarks are information (and
//! only produced when the remarks setting is on).

use super::positions::LineIndex;
use crate::diagnostics::{Diagnostic, Severity};
use crate::ide::Analysis;
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Url,
};

/// The pass the editor runs after the front end (what `pfir opt
/// --passes=expand-manual-phase-fence` reports, remarks included).
pub const EDITOR_PASSES: &[&str] = &["expand-manual-phase-fence"];

/// The URI scheme of error-code explanations.
pub const EXPLAIN_SCHEME: &str = "pfir-explain";

/// Every diagnostic of the document `analysis` read, as `pfir opt
/// --passes=expand-manual-phase-fence` reports them: the front end's (with
/// its recovery) and, for the chunks that read without error, the pass
/// pipeline's; remarks only when `remarks`. The front end is the one the
/// analysis already ran (one reading per document version serves both the
/// diagnostics and every request).
pub fn check_document(analysis: &Analysis, remarks: bool) -> Vec<Diagnostic> {
    analysis.diagnostics_where(|d| remarks || d.severity != Severity::Remark)
}

/// The `pfir-explain:` URI of an error code.
pub fn explain_uri(code: &str) -> Option<Url> {
    format!("{EXPLAIN_SCHEME}:{code}").parse().ok()
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note | Severity::Remark => DiagnosticSeverity::INFORMATION,
    }
}

/// `d` (about `text`, whose lines `index` holds) as an LSP diagnostic of
/// the document `uri`.
pub fn to_lsp(d: &Diagnostic, uri: &Url, text: &str, index: &LineIndex) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() && d.primary.message != d.message {
        message.push('\n');
        message.push_str(&d.primary.message);
    }
    for line in d.note_lines() {
        message.push('\n');
        message.push_str(&line);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), index.range(text, label.span.range())),
            message: if label.message.is_empty() {
                "related".to_string()
            } else {
                label.message.clone()
            },
        })
        .collect();
    let code = d.code.map(|c| c.as_str());
    lsp_types::Diagnostic {
        range: index.range(text, d.primary.span.range()),
        severity: Some(severity(d.severity)),
        code: code.map(|c| NumberOrString::String(c.to_string())),
        code_description: code
            .and_then(explain_uri)
            .map(|href| CodeDescription { href }),
        source: Some("pfir".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}
