//! The open documents: each one's text, version, line index and (built
//! once per version, by the worker's check or by a request that comes
//! first) its `pfir::ide` analysis, which the version's diagnostics also
//! come from.
//!
//! Sync is incremental: a change with a range replaces that range (its
//! positions in the negotiated encoding, in the text as left by the
//! changes before it), a change without one replaces the whole text. The
//! work of one notification is bounded: each ranged change costs a pass
//! over the text, and a notification whose changes would cost more than
//! [`CHANGE_WORK_BYTES`] is refused (the document is then closed, since its
//! text is no longer the editor's). The analysis of
//! the current version answers every request; `pfir::ide` builds it from
//! whatever parses, so a document that does not parse still answers (from
//! its functions that do, or with nothing). A version's text is one
//! `Arc<str>`, shared with the diagnostics worker and kept by the analysis
//! itself (no copy per reader), and its line index is shared with the worker.

use super::positions::{Encoding, LineIndex, offset_by_scan};
use crate::ide::Analysis;
use lsp_types::TextDocumentContentChangeEvent;
use lsp_types::Url;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// One open document at one version.
#[derive(Debug)]
pub struct Document {
    pub text: Arc<str>,
    pub version: i32,
    /// Shared with the worker, which converts the version's diagnostics
    /// with it.
    pub lines: Arc<LineIndex>,
    analysis: AnalysisCell,
}

/// Where a version's analysis is built once, by whichever thread asks
/// first (the worker checking the version, or a request); a
/// second asker waits for the first instead of building it again.
pub type AnalysisCell = Arc<OnceLock<Arc<Analysis>>>;

impl Document {
    pub fn new(text: impl Into<Arc<str>>, version: i32, encoding: Encoding) -> Document {
        let text = text.into();
        Document {
            lines: Arc::new(LineIndex::new(&text, encoding)),
            text,
            version,
            analysis: AnalysisCell::default(),
        }
    }

    /// The analysis of this version (built on first use).
    pub fn analysis(&self) -> Arc<Analysis> {
        self.analysis
            .get_or_init(|| Arc::new(Analysis::shared(self.text.clone())))
            .clone()
    }

    /// The cell the analysis of this version is built in (the worker's
    /// check builds it there, so that requests find it ready).
    pub fn analysis_cell(&self) -> AnalysisCell {
        self.analysis.clone()
    }

    /// The byte offset of an LSP position.
    pub fn offset(&self, position: lsp_types::Position) -> usize {
        self.lines.offset(&self.text, position)
    }

    /// The LSP range of a byte range.
    pub fn range(&self, range: std::ops::Range<usize>) -> lsp_types::Range {
        self.lines.range(&self.text, range)
    }
}

/// The most bytes of text the ranged changes of one `didChange` may pass
/// over (each costs about the length of the text): 1 GiB, about a second.
pub const CHANGE_WORK_BYTES: usize = 1 << 30;

/// The open documents by URI.
#[derive(Debug, Default)]
pub struct Documents {
    open: HashMap<Url, Document>,
    encoding: Encoding,
}

impl Documents {
    pub fn new(encoding: Encoding) -> Documents {
        Documents {
            open: HashMap::new(),
            encoding,
        }
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Opens `uri`, or replaces its text (a full-document change).
    pub fn set(&mut self, uri: Url, text: String, version: i32) -> &Document {
        let doc = Document::new(text, version, self.encoding);
        self.open.insert(uri.clone(), doc);
        &self.open[&uri]
    }

    /// Applies the changes of a `didChange` to `uri`, in order. `Ok(false)`
    /// when the document is not open (nothing to change); on `Err` the
    /// document is closed and the error says why.
    pub fn change(
        &mut self,
        uri: &Url,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Result<bool, String> {
        self.change_within(uri, version, changes, CHANGE_WORK_BYTES)
    }

    /// [`Documents::change`] with a work budget of `budget` bytes.
    fn change_within(
        &mut self,
        uri: &Url,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        budget: usize,
    ) -> Result<bool, String> {
        let Some(doc) = self.open.get(uri) else {
            return Ok(false);
        };
        let mut work = 0usize;
        let mut text: Option<String> = None;
        for change in changes {
            let Some(range) = change.range else {
                text = Some(change.text);
                continue;
            };
            let current = text.get_or_insert_with(|| doc.text.to_string());
            work = work.saturating_add(current.len().max(1));
            if work > budget {
                self.open.remove(uri);
                return Err(format!(
                    "the ranged changes of one didChange would pass over more than \
                     {budget} bytes; the change was not applied"
                ));
            }
            let start = offset_by_scan(current, self.encoding, range.start);
            let end = offset_by_scan(current, self.encoding, range.end);
            current.replace_range(start.min(end)..start.max(end), &change.text);
        }
        if let Some(text) = text {
            self.set(uri.clone(), text, version);
        }
        Ok(true)
    }

    pub fn close(&mut self, uri: &Url) {
        self.open.remove(uri);
    }

    pub fn get(&self, uri: &Url) -> Option<&Document> {
        self.open.get(uri)
    }

    /// Every open document, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Url, &Document)> {
        self.open.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn insert_at_start(text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(0, 0), Position::new(0, 0))),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn ranged_changes_past_the_work_budget_close_the_document() {
        let uri = Url::parse("file:///t.pfir").unwrap();
        let mut docs = Documents::new(Encoding::Utf16);
        docs.set(uri.clone(), "x".repeat(100), 1);
        // Each change passes over about 100 bytes: 3 fit in 350, 4 do not.
        let three = vec![insert_at_start("a"); 3];
        assert_eq!(docs.change_within(&uri, 2, three, 350), Ok(true));
        assert!(docs.get(&uri).unwrap().text.starts_with("aaax"));
        let four = vec![insert_at_start("b"); 4];
        let err = docs.change_within(&uri, 3, four, 350).unwrap_err();
        assert!(err.contains("not applied"), "{err}");
        assert!(docs.get(&uri).is_none(), "the document is closed");
        // Changes to a document that is not open change nothing.
        assert_eq!(docs.change(&uri, 4, vec![insert_at_start("c")]), Ok(false));
    }
}
