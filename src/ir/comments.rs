//! Source comments carried through the IR as metadata.
//!
//! Comments are not IR: they never change what a program means, structural
//! equality ([`super::equality`]) ignores them, and a module built by hand
//! has none. They live in side tables keyed by what they are attached to
//! (see `docs/formatting.md` for the attachment rules):
//!
//! - a statement ([`StmtId`]): comments on their own lines above it
//!   (*leading*), the comment after it on its line (*trailing*), and whether
//!   a blank line preceded it;
//! - a function's header line (`func f(...) {`);
//! - an `} else {` line ([`Anchor::Else`], keyed by the `if` it belongs to);
//! - a block's closing `}` ([`Anchor::Close`]): comments above it are the
//!   last lines of the block;
//! - the end of the file ([`super::Module::end_comments`]).
//!
//! Passes keep comments for free: a statement rewritten in place keeps its
//! id and so its comments; a statement a pass inserts (a barrier) has a new
//! id and none.

use super::StmtId;
use hashbrown::HashMap;

/// One `// ...` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The comment from `//` to the end of its line (no newline, no `\r`).
    pub text: String,
    /// Whether a blank line separated it from what came before it.
    pub blank_before: bool,
    /// Its 0-based line in the source file (for `expected-*@+N` offsets).
    pub line: u32,
}

/// The comments attached to one printed line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attached {
    /// Comments printed on their own lines above it, in source order.
    pub leading: Vec<Comment>,
    /// The comment printed after it on the same line.
    pub trailing: Option<Comment>,
    /// Whether a blank line preceded it (or its first leading comment).
    pub blank_before: bool,
    /// Comments inside its code (a statement written over several lines),
    /// in source order: kept next to their list item when the formatter
    /// breaks that list, else printed above it after `leading`.
    pub inner: Vec<Inner>,
}

impl Attached {
    pub fn is_empty(&self) -> bool {
        self.leading.is_empty()
            && self.trailing.is_none()
            && !self.blank_before
            && self.inner.is_empty()
    }
}

/// A comment inside a statement's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inner {
    pub comment: Comment,
    /// Its byte offset in the source (compared with expression spans).
    pub at: usize,
    /// Whether nothing but whitespace precedes it on its line.
    pub own_line: bool,
}

/// What a printed line of a function is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// The header line `func f(...) {`.
    Head,
    /// A statement (its whole line, or its head up to `{`).
    Stmt(StmtId),
    /// The `} else {` / `} else if c {` line after the `then` block of this `if`.
    Else(StmtId),
    /// The `}` closing the last block of this statement (`None`: the function body).
    Close(Option<StmtId>),
}

/// The comments of one function, by the line they belong to.
#[derive(Clone, Debug, Default)]
pub struct CommentTable {
    pub by_anchor: HashMap<Anchor, Attached>,
}

impl CommentTable {
    pub fn get(&self, anchor: Anchor) -> Option<&Attached> {
        self.by_anchor.get(&anchor)
    }

    pub fn is_empty(&self) -> bool {
        self.by_anchor.is_empty()
    }

    /// Every comment of the table (in no particular order).
    pub fn all(&self) -> impl Iterator<Item = &Comment> {
        self.by_anchor
            .values()
            .flat_map(|a| a.leading.iter().chain(a.trailing.iter()))
    }
}
