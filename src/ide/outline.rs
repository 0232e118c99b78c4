//! The outline (document symbols) and the symbols a workspace search finds.
//!
//! The index keeps outline nodes flat, each with its parent; the tree is
//! assembled here as indices first (children always come after their
//! parent, so sizes add up bottom-up without recursion), then built as
//! [`SymbolNode`]s depth first, as far as a limit on the number of symbols
//! allows. Its depth is bounded by [`crate::ide::index::MAX_OUTLINE_DEPTH`]. A document with several
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
    /// Symbols below this one that are not among `children` (an outline
    /// cut at a limit: `Analysis::document_symbols_within`).
    pub omitted: usize,
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

/// The outline of one chunk as a tree of indices into its flat symbols:
/// each symbol's children sorted by where they start, and the number of
/// symbols in each subtree. 12 bytes a symbol, so that an outline cut at a
/// limit costs the limit, not the document, in [`SymbolNode`]s.
struct Forest<'a> {
    flat: &'a [FlatSymbol],
    /// `children[offsets[i]..offsets[i + 1]]` are the children of `i`.
    offsets: Vec<u32>,
    children: Vec<u32>,
    roots: Vec<u32>,
    /// Symbols in the subtree of each symbol, itself included.
    sizes: Vec<u32>,
}

impl<'a> Forest<'a> {
    fn new(flat: &'a [FlatSymbol]) -> Forest<'a> {
        let n = flat.len();
        // A parent always comes before its children; anything else is a root.
        let parent = |i: usize| {
            let p = flat[i].parent;
            (p != NONE && (p as usize) < i).then_some(p as usize)
        };
        let mut offsets = vec![0u32; n + 1];
        for i in 0..n {
            if let Some(p) = parent(i) {
                offsets[p + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut children = vec![0u32; offsets[n] as usize];
        let mut roots = Vec::new();
        let mut sizes = vec![1u32; n];
        // From the last symbol back: a subtree's size is complete before
        // its parent's, and siblings that start together stay in this order.
        for i in (0..n).rev() {
            match parent(i) {
                Some(p) => {
                    children[fill[p] as usize] = i as u32;
                    fill[p] += 1;
                    sizes[p] = sizes[p].saturating_add(sizes[i]);
                }
                None => roots.push(i as u32),
            }
        }
        let start = |i: &u32| range_of(&flat[*i as usize]).start;
        for i in 0..n {
            children[offsets[i] as usize..offsets[i + 1] as usize].sort_by_key(start);
        }
        roots.sort_by_key(start);
        Forest {
            flat,
            offsets,
            children,
            roots,
            sizes,
        }
    }

    fn children(&self, i: usize) -> &[u32] {
        &self.children[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The symbols of the subtrees of `nodes`.
    fn count(&self, nodes: &[u32]) -> usize {
        nodes.iter().map(|&i| self.sizes[i as usize] as usize).sum()
    }

    /// The node of symbol `i` with as many of its descendants as `budget`
    /// allows, depth first (the depth is at most
    /// [`crate::ide::index::MAX_OUTLINE_DEPTH`]).
    fn node(&self, i: usize, budget: &mut usize) -> SymbolNode {
        *budget = budget.saturating_sub(1);
        let s = &self.flat[i];
        let (children, omitted) = self.nodes(self.children(i), budget);
        SymbolNode {
            name: s.name.clone(),
            detail: s.detail.clone(),
            kind: s.kind,
            range: range_of(s),
            selection_range: s.selection.clone(),
            children,
            omitted,
        }
    }

    /// The nodes of `nodes` within `budget`, and how many symbols are left out.
    fn nodes(&self, nodes: &[u32], budget: &mut usize) -> (Vec<SymbolNode>, usize) {
        let mut out = Vec::new();
        for (k, &c) in nodes.iter().enumerate() {
            if *budget == 0 {
                return (out, self.count(&nodes[k..]));
            }
            out.push(self.node(c as usize, budget));
        }
        (out, 0)
    }
}

/// A symbol's whole range (its selection included).
fn range_of(s: &FlatSymbol) -> Range<usize> {
    s.range.start.min(s.selection.start)..s.range.end.max(s.selection.end)
}

/// An outline cut at a number of symbols.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub symbols: Vec<SymbolNode>,
    /// Top-level symbols (with what is below them) left out.
    pub omitted: usize,
    /// Where the first top-level symbol left out starts.
    pub omitted_at: usize,
}

pub fn document_symbols(doc: &Document) -> Vec<SymbolNode> {
    document_symbols_within(doc, usize::MAX).symbols
}

/// The first `max` symbols of the outline, depth first in document order;
/// a symbol whose children are not all listed counts the symbols left out
/// below it ([`SymbolNode::omitted`]). Only the listed symbols are built.
pub fn document_symbols_within(doc: &Document, max: usize) -> Outline {
    let mut budget = max;
    if doc.chunks.len() <= 1 {
        let Some(chunk) = doc.chunks.first() else {
            return Outline::default();
        };
        let forest = Forest::new(&chunk.index.symbols);
        let (symbols, omitted) = forest.nodes(&forest.roots, &mut budget);
        let omitted_at = forest
            .roots
            .get(symbols.len())
            .map_or(0, |&i| range_of(&forest.flat[i as usize]).start);
        return Outline {
            symbols,
            omitted,
            omitted_at,
        };
    }
    let mut outline = Outline::default();
    let mut chunks = doc.chunks.iter().enumerate();
    while let Some((i, c)) = chunks.next() {
        if budget == 0 {
            let left = |c: &crate::ide::document::Chunk| 1 + c.index.symbols.len();
            outline.omitted = left(c) + chunks.map(|(_, c)| left(c)).sum::<usize>();
            outline.omitted_at = c.range.start;
            break;
        }
        budget -= 1;
        let text = doc.text.get(c.range.clone()).unwrap_or("");
        let lead = text.len() - text.trim_start().len();
        let first = fsutil::lines::lines(text.trim_start())
            .next()
            .unwrap_or("")
            .trim_end();
        let start = c.range.start + lead;
        let forest = Forest::new(&c.index.symbols);
        let (children, omitted) = forest.nodes(&forest.roots, &mut budget);
        outline.symbols.push(SymbolNode {
            name: format!("chunk {}", i + 1),
            detail: (!first.is_empty()).then(|| first.to_string()),
            kind: SymbolKind::Chunk,
            range: c.range.clone(),
            selection_range: start..start + first.len(),
            children,
            omitted,
        });
    }
    outline
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
