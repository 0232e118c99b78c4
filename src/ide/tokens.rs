//! Semantic tokens: the lexer's tokens classified with what the index knows
//! (a name is a variable, a parameter or a function; its definition is
//! marked), and comments split into their directive parts.
//!
//! Built from the token stream, so a document that does not parse is still
//! coloured (names then stay plain variables). The result is sorted and
//! non-overlapping; punctuation and brackets get no token.

use crate::ide::directives::{PieceKind, scan_comment};
use crate::ide::document::{Chunk, Document, LexClass};
use crate::ide::index::{Occurrence, Target, VarKind};
use std::ops::Range;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Keyword,
    Type,
    Function,
    Variable,
    Parameter,
    /// A keyword argument's name (`deps=`, `core_num=`).
    Property,
    Number,
    String,
    Comment,
    Operator,
    /// `RUN:`, `CHECK-NEXT:`, `expected-error@+1`, the `// -----` marker.
    Directive,
    /// `{{regex}}` in a CHECK line.
    RegexPart,
    /// `[[VAR]]` / `[[VAR:regex]]` in a CHECK line.
    VarPart,
}

impl TokenKind {
    /// Every kind, in the order of [`TokenKind::index`] (a server's legend).
    pub const ALL: [TokenKind; 13] = [
        TokenKind::Keyword,
        TokenKind::Type,
        TokenKind::Function,
        TokenKind::Variable,
        TokenKind::Parameter,
        TokenKind::Property,
        TokenKind::Number,
        TokenKind::String,
        TokenKind::Comment,
        TokenKind::Operator,
        TokenKind::Directive,
        TokenKind::RegexPart,
        TokenKind::VarPart,
    ];

    /// The position of this kind in [`TokenKind::ALL`].
    pub fn index(self) -> usize {
        match self {
            TokenKind::Keyword => 0,
            TokenKind::Type => 1,
            TokenKind::Function => 2,
            TokenKind::Variable => 3,
            TokenKind::Parameter => 4,
            TokenKind::Property => 5,
            TokenKind::Number => 6,
            TokenKind::String => 7,
            TokenKind::Comment => 8,
            TokenKind::Operator => 9,
            TokenKind::Directive => 10,
            TokenKind::RegexPart => 11,
            TokenKind::VarPart => 12,
        }
    }
}

/// A set of modifiers (bits).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TokenModifiers(pub u32);

impl TokenModifiers {
    pub const NONE: TokenModifiers = TokenModifiers(0);
    /// Where a variable or function is defined.
    pub const DECLARATION: TokenModifiers = TokenModifiers(1);
    /// A built-in op.
    pub const DEFAULT_LIBRARY: TokenModifiers = TokenModifiers(2);
    /// A name that resolves to nothing (an unknown variable or function).
    pub const UNRESOLVED: TokenModifiers = TokenModifiers(4);

    /// Every single modifier with its name (bit `i` is entry `i`).
    pub const ALL: [(TokenModifiers, &'static str); 3] = [
        (TokenModifiers::DECLARATION, "declaration"),
        (TokenModifiers::DEFAULT_LIBRARY, "defaultLibrary"),
        (TokenModifiers::UNRESOLVED, "unresolved"),
    ];

    pub fn contains(self, other: TokenModifiers) -> bool {
        self.0 & other.0 == other.0
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: Range<usize>,
    pub kind: TokenKind,
    pub modifiers: TokenModifiers,
}

fn token(range: Range<usize>, kind: TokenKind) -> SemanticToken {
    SemanticToken {
        range,
        kind,
        modifiers: TokenModifiers::NONE,
    }
}

pub fn semantic_tokens(doc: &Document) -> Vec<SemanticToken> {
    semantic_tokens_in(doc, 0..doc.text.len())
}

/// The tokens that overlap `range` (each whole, even where it crosses an
/// end of the range). Only that part of the token, comment and occurrence
/// tables is walked (a binary search finds where it starts), so a range
/// costs what is in it, not the whole document.
pub fn semantic_tokens_in(doc: &Document, range: Range<usize>) -> Vec<SemanticToken> {
    let overlaps = |r: &Range<usize>| r.end > range.start && r.start < range.end;
    let mut out = Vec::new();
    // Chunks, their comments and the markers between them come in document
    // order: the tokens are produced sorted, without a sort.
    for (i, chunk) in doc.chunks.iter().enumerate() {
        if chunk.range.end >= range.start && chunk.range.start < range.end {
            code_tokens(doc, chunk, &range, &mut out);
        }
        if let Some(m) = doc.markers.get(i).filter(|m| overlaps(m)) {
            out.push(token(m.clone(), TokenKind::Directive));
        }
    }
    for m in doc.markers.iter().skip(doc.chunks.len()) {
        if overlaps(m) {
            out.push(token(m.clone(), TokenKind::Directive));
        }
    }
    // A comment overlapping the range gave all its parts.
    out.retain(|t| overlaps(&t.range));
    if !out.is_sorted_by_key(|t| t.range.start) {
        out.sort_by_key(|t| t.range.start);
    }
    // Defensive: drop anything overlapping what precedes it.
    let mut end = 0;
    out.retain(|t| {
        let keep = t.range.start >= end && t.range.start < t.range.end;
        if keep {
            end = t.range.end;
        }
        keep
    });
    out
}

/// The tokens of the chunk's code and comments, in order. Tokens,
/// comments and occurrences are all sorted by position, so cursors walk
/// the comments and the occurrences beside the tokens: linear, where a
/// search per name and a sort of the result cost a logarithm of (mostly
/// cache-missing) steps per token on a large document.
fn code_tokens(doc: &Document, chunk: &Chunk, range: &Range<usize>, out: &mut Vec<SemanticToken>) {
    let text = &*doc.text;
    let occurrences = &chunk.index.occurrences;
    let mut next_occurrence = occurrences.partition_point(|o| o.range.end <= range.start);
    let first_comment = chunk.comments.partition_point(|c| c.end <= range.start);
    let mut comments = chunk.comments[first_comment..]
        .iter()
        .take_while(|c| c.start < range.end)
        .peekable();
    let first_token = chunk
        .tokens()
        .partition_point(|t| t.range().end <= range.start);
    let in_range = chunk.tokens()[first_token..]
        .iter()
        .take_while(|t| t.range().start < range.end);
    for (i, t) in in_range.enumerate() {
        let i = first_token + i;
        while let Some(c) = comments.next_if(|c| c.start < t.range().start) {
            comment_tokens(doc, c.clone(), out);
        }
        let kind = match t.class {
            LexClass::Keyword => TokenKind::Keyword,
            LexClass::Type => TokenKind::Type,
            LexClass::Number => TokenKind::Number,
            LexClass::String => TokenKind::String,
            LexClass::Operator => TokenKind::Operator,
            LexClass::OpName => {
                out.push(SemanticToken {
                    range: t.range(),
                    kind: TokenKind::Function,
                    modifiers: TokenModifiers::DEFAULT_LIBRARY,
                });
                continue;
            }
            LexClass::Ident => {
                while occurrences
                    .get(next_occurrence)
                    .is_some_and(|o| o.range.start < t.range().start)
                {
                    next_occurrence += 1;
                }
                let occurrence = occurrences
                    .get(next_occurrence)
                    .filter(|o| o.range == t.range());
                out.push(name_token(text, chunk, i, occurrence));
                continue;
            }
            _ => continue,
        };
        out.push(token(t.range(), kind));
    }
    for c in comments {
        comment_tokens(doc, c.clone(), out);
    }
}

/// The token of the name `chunk.tokens[i]`, whose occurrence in the index
/// (same range) is `occ`, if it has one.
fn name_token(text: &str, chunk: &Chunk, i: usize, occ: Option<&Occurrence>) -> SemanticToken {
    let t = &chunk.tokens()[i];
    let ix = &chunk.index;
    if let Some(o) = occ {
        let kind = match o.target {
            Target::Function(_) => TokenKind::Function,
            Target::Var(v)
                if ix.vars.get(v as usize).map(|v| v.kind) == Some(VarKind::Parameter) =>
            {
                TokenKind::Parameter
            }
            Target::Var(_) => TokenKind::Variable,
        };
        return SemanticToken {
            range: t.range(),
            kind,
            modifiers: if o.is_def {
                TokenModifiers::DECLARATION
            } else {
                TokenModifiers::NONE
            },
        };
    }
    let text_of = |j: usize| chunk.tokens().get(j).and_then(|t| text.get(t.range()));
    let next = text_of(i + 1);
    let prev = i.checked_sub(1).and_then(text_of);
    let (kind, modifiers) = if next == Some("=") && matches!(prev, Some("(" | ",")) {
        (TokenKind::Property, TokenModifiers::NONE)
    } else if next == Some("(") || prev == Some("submit") {
        (TokenKind::Function, TokenModifiers::UNRESOLVED)
    } else if text.get(t.range()) == Some("_") {
        (TokenKind::Variable, TokenModifiers::NONE)
    } else if prev == Some("func") {
        // A function the index skipped (a duplicate definition).
        (TokenKind::Function, TokenModifiers::DECLARATION)
    } else {
        (TokenKind::Variable, TokenModifiers::UNRESOLVED)
    };
    SemanticToken {
        range: t.range(),
        kind,
        modifiers,
    }
}

fn comment_tokens(doc: &Document, range: Range<usize>, out: &mut Vec<SemanticToken>) {
    let (_, pieces) = scan_comment(&doc.text, range.clone(), &doc.check_prefixes);
    let mut at = range.start;
    for (r, kind) in pieces {
        if r.start > at {
            out.push(token(at..r.start, TokenKind::Comment));
        }
        let kind = match kind {
            PieceKind::Directive => TokenKind::Directive,
            PieceKind::Regex => TokenKind::RegexPart,
            PieceKind::Var => TokenKind::VarPart,
            PieceKind::Expected => TokenKind::String,
        };
        at = r.end;
        out.push(token(r, kind));
    }
    if at < range.end {
        out.push(token(at..range.end, TokenKind::Comment));
    }
}
