//! `pretty` documents built in a bump arena, for [`super::layout`].
//!
//! The nodes are `pretty`'s own (`pretty::Doc` over `RefDoc` pointers) and
//! `pretty` renders them; this file only builds them. It allocates each
//! node once, straight into the arena, where `pretty`'s `DocBuilder` moves
//! whole nodes around by value before it allocates them. The simplifications
//! that `DocBuilder` makes are made here too (appending nothing, grouping a
//! text or nesting nothing give the document unchanged; a text that is not
//! ASCII is measured by `pretty`), so a document means what `DocBuilder`
//! would have built. The line breaks are built once per arena and shared
//! by every node that holds one: a node is never changed once built.

use bumpalo::Bump;
use pretty::{Doc as Node, DocAllocator, DocPtr, RefDoc};

/// A document: a node in the arena.
pub type Doc<'a> = &'a Node<'a, RefDoc<'a>>;

/// `pretty`'s document allocator over a [`Bump`] arena (for what only
/// `pretty` knows how to build: the measured text of a non-ASCII string).
/// Its documents hold borrowed text only, as the arena runs no
/// destructors.
pub struct Docs<'a>(pub &'a Bump);

impl<'a> DocAllocator<'a> for Docs<'a> {
    type Doc = RefDoc<'a>;

    fn alloc(&'a self, doc: Node<'a, Self::Doc>) -> Self::Doc {
        RefDoc(self.0.alloc(doc))
    }

    fn alloc_column_fn(
        &'a self,
        f: impl Fn(usize) -> Self::Doc + 'a,
    ) -> <Self::Doc as DocPtr<'a, ()>>::ColumnFn {
        self.0.alloc(f)
    }

    fn alloc_width_fn(
        &'a self,
        f: impl Fn(isize) -> Self::Doc + 'a,
    ) -> <Self::Doc as DocPtr<'a, ()>>::WidthFn {
        self.0.alloc(f)
    }
}

/// Builds documents in the arena of a [`Docs`].
pub struct Builder<'a> {
    docs: &'a Docs<'a>,
    nil: Doc<'a>,
    hardline: Doc<'a>,
    line: Doc<'a>,
    line_: Doc<'a>,
    mark: Doc<'a>,
}

impl<'a> Builder<'a> {
    pub fn new(docs: &'a Docs<'a>) -> Builder<'a> {
        let bump = docs.0;
        let nil = &*bump.alloc(Node::Nil);
        let hardline = &*bump.alloc(Node::Hardline);
        let space = &*bump.alloc(Node::BorrowedText(" "));
        let mark = &*bump.alloc(Node::BorrowedText(bump.alloc_str("|")));
        Builder {
            docs,
            nil,
            hardline,
            line: bump.alloc(Node::FlatAlt(RefDoc(hardline), RefDoc(space))),
            line_: bump.alloc(Node::FlatAlt(RefDoc(hardline), RefDoc(nil))),
            mark: bump.alloc(Node::RenderLen(0, RefDoc(mark))),
        }
    }

    fn node(&self, node: Node<'a, RefDoc<'a>>) -> Doc<'a> {
        self.docs.0.alloc(node)
    }

    /// Nothing.
    pub fn nil(&self) -> Doc<'a> {
        self.nil
    }

    /// A line break, in a group laid out flat too.
    pub fn hardline(&self) -> Doc<'a> {
        self.hardline
    }

    /// A line break, or a space in a group laid out flat.
    pub fn line(&self) -> Doc<'a> {
        self.line
    }

    /// A line break, or nothing in a group laid out flat.
    pub fn line_(&self) -> Doc<'a> {
        self.line_
    }

    /// A text of no width that nothing else is: [`Builder::mark_text`]
    /// tells it apart by its address (it must not be written).
    pub fn mark(&self) -> Doc<'a> {
        self.mark
    }

    /// The text of [`Builder::mark`].
    pub fn mark_text(&self) -> &'a str {
        match self.mark {
            Node::RenderLen(_, RefDoc(Node::BorrowedText(s))) => s,
            _ => "",
        }
    }

    /// `s` (which holds no line break), copied into the arena.
    pub fn text(&self, s: &str) -> Doc<'a> {
        self.text_in(self.docs.0.alloc_str(s))
    }

    /// `a` and `b` as one text (`pretty` lays out adjacent texts as one:
    /// fewer nodes, the same layout).
    pub fn text2(&self, a: &str, b: &str) -> Doc<'a> {
        let mut s = bumpalo::collections::String::with_capacity_in(a.len() + b.len(), self.docs.0);
        s.push_str(a);
        s.push_str(b);
        self.text_in(s.into_bump_str())
    }

    /// `s` (which holds no line break), borrowed.
    pub fn borrowed(&self, s: &'a str) -> Doc<'a> {
        self.text_in(s)
    }

    fn text_in(&self, s: &'a str) -> Doc<'a> {
        if s.is_empty() {
            self.nil
        } else if s.is_ascii() {
            self.node(Node::BorrowedText(s))
        } else {
            // Its width on screen, as `pretty` measures it.
            self.docs.text(s).into_doc().0
        }
    }

    /// `a` then `b`.
    pub fn cat(&self, a: Doc<'a>, b: Doc<'a>) -> Doc<'a> {
        match (a, b) {
            (Node::Nil, _) => b,
            (_, Node::Nil) => a,
            _ => self.node(Node::Append(RefDoc(a), RefDoc(b))),
        }
    }

    /// `docs` one after the other.
    pub fn concat<const N: usize>(&self, docs: [Doc<'a>; N]) -> Doc<'a> {
        docs.into_iter().fold(self.nil, |a, b| self.cat(a, b))
    }

    /// `doc` laid out flat when it fits, else with its line breaks.
    pub fn group(&self, doc: Doc<'a>) -> Doc<'a> {
        match doc {
            Node::Group(_)
            | Node::OwnedText(_)
            | Node::BorrowedText(_)
            | Node::SmallText(_)
            | Node::Nil => doc,
            _ => self.node(Node::Group(RefDoc(doc))),
        }
    }

    /// `doc` with its line breaks indented `by` columns further.
    pub fn nest(&self, doc: Doc<'a>, by: isize) -> Doc<'a> {
        match doc {
            Node::Nil => doc,
            _ if by == 0 => doc,
            _ => self.node(Node::Nest(by, RefDoc(doc))),
        }
    }
}
