//! The outline (document symbols) and the symbols a workspace search finds.
//!
//! The index keeps outline nodes flat, each with its parent; the tree is
//! assembled here bottom-up (children always come after their parent), so
//! no step recurses. Its depth is bounded by
//! [`crate::ide::index::MAX_OUTLINE_DEPTH`]. A document with several
//! `// -----` chunks gets one `Chunk` node per chunk, as mlir-lsp-server
//! shows split files.

use crate::ide::document::Document;
use crate::ide::index::{FlatSymbol, NONE};
use std::ops::Range;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A `// -----` chunk.
    Chunk,
    Function,
    /// A `manual` or `auto` scope.
    Scope,
    /// A `for` or `while` loop.
    Loop,
    Variable,
    Parameter,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolNode {
    pub name: String,
    /// A function's signature, a variable's type.
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: Range<usize>,
    /// The part to select when it is picked (its name or header); inside
    /// `range`.
    pub selection_range: Range<usize>,
    pub children: Vec<SymbolNode>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub range: Range<usize>,
    pub selection_range: Range<usize>,
    /// The enclosing function of a scope.
    pub container: Option<String>,
}

fn tree(flat: &[FlatSymbol]) -> Vec<SymbolNode> {
    let mut nodes: Vec<Option<SymbolNode>> = flat
        .iter()
        .map(|s| {
            Some(SymbolNode {
                name: s.name.clone(),
                detail: s.detail.clone(),
                kind: s.kind,
                range: s.range.start.min(s.selection.start)..s.range.end.max(s.selection.end),
                selection_range: s.selection.clone(),
                children: Vec::new(),
            })
        })
        .collect();
    let mut roots = Vec::new();
    for i in (0..flat.len()).rev() {
        let Some(mut node) = nodes[i].take() else {
            continue;
        };
        node.children.sort_by_key(|c| c.range.start);
        let parent = flat[i].parent;
        match nodes.get_mut(parent as usize) {
            Some(Some(p)) if parent != NONE && (parent as usize) < i => p.children.push(node),
            _ => roots.push(node),
        }
    }
    roots.sort_by_key(|c| c.range.start);
    roots
}

pub fn document_symbols(doc: &Document) -> Vec<SymbolNode> {
    if doc.chunks.len() <= 1 {
        return doc
            .chunks
            .first()
            .map(|c| tree(&c.index.symbols))
            .unwrap_or_default();
    }
    doc.chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let text = doc.text.get(c.range.clone()).unwrap_or("");
            let lead = text.len() - text.trim_start().len();
            let first = text.trim_start().lines().next().unwrap_or("").trim_end();
            let start = c.range.start + lead;
            SymbolNode {
                name: format!("chunk {}", i + 1),
                detail: (!first.is_empty()).then(|| first.to_string()),
                kind: SymbolKind::Chunk,
                range: c.range.clone(),
                selection_range: start..start + first.len(),
                children: tree(&c.index.symbols),
            }
        })
        .collect()
}

/// Whether every character of `query` appears in `name` in order, ignoring
/// case.
pub fn fuzzy_match(name: &str, query: &str) -> bool {
    let mut chars = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| chars.any(|c| c == q))
}

pub fn symbols_matching(doc: &Document, query: &str) -> Vec<WorkspaceSymbol> {
    let mut out = Vec::new();
    for c in &doc.chunks {
        let mut function = None;
        for s in &c.index.symbols {
            if s.kind == crate::ide::SymbolKind::Function {
                function = Some(s.name.clone());
            }
            let named_scope = s.kind == SymbolKind::Scope && s.name.contains('"');
            if (s.kind == SymbolKind::Function || named_scope) && fuzzy_match(&s.name, query) {
                out.push(WorkspaceSymbol {
                    name: s.name.clone(),
                    kind: s.kind,
                    range: s.range.clone(),
                    selection_range: s.selection.clone(),
                    container: if named_scope { function.clone() } else { None },
                });
            }
        }
    }
    out
}
