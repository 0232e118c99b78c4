//! The editor's view of a `.pfir` document, with no protocol and no I/O.
//!
//! [`Analysis::new`] reads one version of a document once: it splits it into
//! `// -----` chunks the way `pfir opt --split-input-file` does, runs pfir's
//! own front end on each chunk (lexer, parser, lowering to the IR) and, when
//! a chunk has no error and a decision is first asked for, the
//! `expand-manual-phase-fence` pass through the pass manager with remarks
//! on, so the editor and `pfir opt` never disagree: the diagnostics
//! ([`Analysis::diagnostics`]) come from that same reading. Everything it learns is flattened into tables of byte ranges
//! (the `index` module); each query then reads those tables without recursion.
//!
//! Every range is a `Range<usize>` of byte offsets into the whole document
//! text, on `char` boundaries. The language server (`src/lsp/`) converts
//! them to its position encoding. Nothing here panics on any input or
//! offset: an offset past the end or inside a character finds nothing.
//!
//! **What is public.** As in rust-analyzer's `ide` crate, the API is
//! [`Analysis`] and the plain types its methods return, re-exported here;
//! the modules that compute them are private to pfir (`pub(crate)`), so
//! they can change without breaking a user. Module map: `document`
//! (chunks, offsets, building), `index` (definitions,
//! uses, scopes, loops, outline from the IR), `decisions` (the pass's
//! remark per loop), `directives` (RUN / CHECK / `expected-*` inside
//! comments), `builtins` (the vocabulary editors offer), and one module per
//! feature: `navigate`, `outline`, `folding`, `hover`, `completion`,
//! `tokens`.

pub(crate) mod builtins;
pub(crate) mod completion;
pub(crate) mod decisions;
pub(crate) mod directives;
pub(crate) mod document;
pub(crate) mod folding;
pub(crate) mod hover;
pub(crate) mod index;
pub(crate) mod navigate;
pub(crate) mod outline;
pub(crate) mod tokens;

use crate::diagnostics::Diagnostic;
use std::ops::Range;

pub use completion::{Completion, CompletionKind};
pub use folding::{Fold, FoldKind};
pub use hover::{HoverInfo, InlayHint, InlayHintKind};
pub use index::MAX_OUTLINE_DEPTH;
pub use navigate::{Access, Highlight, RenameError};
pub use outline::{Outline, SymbolKind, SymbolNode, WorkspaceSymbol};
pub use tokens::{SemanticToken, TokenKind, TokenModifiers};

/// Everything the editor asks about one version of one document.
#[derive(Debug)]
pub struct Analysis {
    pub(crate) doc: document::Document,
}

impl Analysis {
    /// Reads `text` once. Never panics, whatever the input.
    pub fn new(text: &str) -> Analysis {
        Analysis::shared(text.into())
    }

    /// [`Analysis::new`] on a text the caller shares: the analysis keeps
    /// it, not a copy of it.
    pub fn shared(text: std::sync::Arc<str>) -> Analysis {
        Analysis {
            doc: document::Document::build(text),
        }
    }

    /// Every diagnostic `pfir opt --passes=expand-manual-phase-fence
    /// --remarks` reports for the document (`--split-input-file` when it
    /// has `// -----` lines), in the same order: per chunk, the front
    /// end's, then, when it read without error, the pass pipeline's. The
    /// front end ran when the analysis was built; the pass runs here on the
    /// chunks that have not run it yet (once per chunk, shared with the
    /// decisions hover and inlay hints show).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics_where(|_| true)
    }

    /// The diagnostics of [`Analysis::diagnostics`] that `keep` keeps
    /// (only those are copied: the editor leaves remarks out unless asked).
    pub fn diagnostics_where(&self, keep: impl Fn(&Diagnostic) -> bool) -> Vec<Diagnostic> {
        let mut all = Vec::new();
        for chunk in &self.doc.chunks {
            all.extend(chunk.front_end.iter().filter(|d| keep(d)).cloned());
            if !chunk.has_errors {
                let pass = &chunk.decisions().diagnostics;
                all.extend(pass.iter().filter(|d| keep(d)).cloned());
            }
        }
        all
    }

    /// The document text this analysis was built from.
    pub fn text(&self) -> &str {
        &self.doc.text
    }

    /// Where the name at `offset` is defined (a variable's binding,
    /// parameter, loop variable or iter-arg; a function's name).
    pub fn definition(&self, offset: usize) -> Option<Range<usize>> {
        navigate::definition(&self.doc, offset)
    }

    /// Every occurrence of the name at `offset` (its uses, and its
    /// definition when `include_declaration`), in document order.
    pub fn references(&self, offset: usize, include_declaration: bool) -> Vec<Range<usize>> {
        navigate::references(&self.doc, offset, include_declaration)
    }

    /// Every occurrence of the name at `offset`, each marked read or write.
    pub fn highlights(&self, offset: usize) -> Vec<Highlight> {
        navigate::highlights(&self.doc, offset)
    }

    /// The edits that rename the variable or function at `offset` to
    /// `new_name`, or why it cannot be renamed.
    pub fn rename(
        &self,
        offset: usize,
        new_name: &str,
    ) -> Result<Vec<(Range<usize>, String)>, RenameError> {
        navigate::rename(&self.doc, offset, new_name)
    }

    /// The range of the name at `offset` that a rename would replace, or
    /// why nothing there can be renamed.
    pub fn prepare_rename(&self, offset: usize) -> Result<Range<usize>, RenameError> {
        navigate::prepare_rename(&self.doc, offset)
    }

    /// The outline: chunks (when the document has several), functions,
    /// scopes, loops and variables, nested as written.
    pub fn document_symbols(&self) -> Vec<SymbolNode> {
        outline::document_symbols(&self.doc)
    }

    /// The first `max` symbols of [`Analysis::document_symbols`] (depth
    /// first), each counting the symbols left out below it; only those are
    /// built, so a huge document's outline costs the limit.
    pub fn document_symbols_within(&self, max: usize) -> Outline {
        outline::document_symbols_within(&self.doc, max)
    }

    /// Foldable regions: functions, blocks, comment runs, runs of CHECK
    /// lines and `// -----` chunks.
    pub fn folding_ranges(&self) -> Vec<Fold> {
        folding::folding_ranges(&self.doc)
    }

    /// What the thing at `offset` is: a value's type, a callee's signature,
    /// a built-in op, or the pass's decision for a loop.
    pub fn hover(&self, offset: usize) -> Option<HoverInfo> {
        hover::hover(&self.doc, offset)
    }

    /// Inferred types of bindings and iter-args, and the barrier the pass
    /// would insert before a loop, for hints starting inside `range`.
    pub fn inlay_hints(&self, range: Range<usize>) -> Vec<InlayHint> {
        hover::inlay_hints(&self.doc, range)
    }

    /// What may be typed at `offset`.
    pub fn completions(&self, offset: usize) -> Vec<Completion> {
        completion::completions(&self.doc, offset)
    }

    /// Every token worth colouring, sorted and non-overlapping.
    pub fn semantic_tokens(&self) -> Vec<SemanticToken> {
        tokens::semantic_tokens(&self.doc)
    }

    /// The tokens of [`Analysis::semantic_tokens`] that overlap `range`
    /// (for a client that colours what it shows first), at a cost
    /// proportional to what the range holds.
    pub fn semantic_tokens_in(&self, range: Range<usize>) -> Vec<SemanticToken> {
        tokens::semantic_tokens_in(&self.doc, range)
    }

    /// Functions and named scopes whose names match `query` (every
    /// character of the query, in order, case-insensitively).
    pub fn symbols_matching(&self, query: &str) -> Vec<WorkspaceSymbol> {
        outline::symbols_matching(&self.doc, query)
    }
}
