//! Document and range formatting through `pfir fmt` ([`crate::format`](mod@crate::format)):
//! the canonical form with every comment kept.
//!
//! The whole document is formatted (formatting needs the whole module);
//! the answer is one edit per changed run of lines (the line diff of
//! [`crate::format::diff::line_changes`]), and range formatting keeps the
//! runs that touch the requested lines. A document that does not read
//! without error is not formatted: the request fails with the reason.
//!
//! The line width is `pfir fmt`'s: `[fmt] line-width` of the nearest
//! `pfir.toml` above a `file:` document ([`crate::format::config`]), else
//! 100; a `pfir.toml` that does not read fails the request, as it stops
//! `pfir fmt`.

use super::documents::Document;
use crate::format::diff::line_changes;
use lsp_types::{TextEdit, Url};

/// The edits that format `doc`, restricted to the byte range `only` when
/// given.
pub fn format_edits(
    uri: &Url,
    doc: &Document,
    only: Option<std::ops::Range<usize>>,
) -> Result<Vec<TextEdit>, String> {
    let text = &*doc.text;
    let width = line_width(uri).map_err(|e| format!("cannot format the document: {e}"))?;
    let formatted = crate::format::format_text_with(text, width).map_err(|diags| {
        let first = diags
            .iter()
            .find(|d| d.is_error())
            .map_or("it has errors".to_string(), |d| d.message.clone());
        format!("cannot format the document: {first}")
    })?;
    if formatted == text {
        return Ok(Vec::new());
    }
    let old: Vec<&str> = text.split_inclusive('\n').collect();
    let new: Vec<&str> = formatted.split_inclusive('\n').collect();
    let mut old_starts = Vec::with_capacity(old.len() + 1);
    let mut at = 0;
    for line in &old {
        old_starts.push(at);
        at += line.len();
    }
    old_starts.push(at);
    let lines = only.map(|r| doc.lines.line_of(r.start)..=doc.lines.line_of(r.end));
    let mut edits = Vec::new();
    for (a0, a1, b0, b1) in line_changes(&old, &new) {
        if let Some(lines) = &lines {
            // An insertion touches the line it is inserted before.
            let last = a1.max(a0 + 1) - 1;
            if last < *lines.start() || a0 > *lines.end() {
                continue;
            }
        }
        let range = doc.range(old_starts[a0]..old_starts[a1]);
        edits.push(TextEdit {
            range,
            new_text: new[b0..b1].concat(),
        });
    }
    Ok(edits)
}

/// The line width for the document at `uri`.
fn line_width(uri: &Url) -> Result<usize, String> {
    let dir = uri
        .to_file_path()
        .ok()
        .and_then(|p| p.parent().map(std::path::Path::to_path_buf));
    let width = match dir {
        Some(dir) => crate::format::config::line_width(&dir)?,
        None => None,
    };
    Ok(width.unwrap_or(crate::format::layout::DEFAULT_LINE_WIDTH))
}
