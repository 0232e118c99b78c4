//! Semantic tokens: the lexer's tokens classified with what the index knows
//! (a name is a variable, a parameter or a function; its definition is
//! marked), and comments split into their directive parts.
//!
//! Built from the token stream, so a document that does not parse is still
//! coloured (names then stay plain variables). The result is sorted and
//! non-overlapping; punctuation and brackets get no token.

use crate::ide::directives::{PieceKind, scan_comment};
use crate::ide::document::{Chunk, Document, LexClass};
use crate::ide::index::{Target, VarKind};
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
    let mut out = Vec::new();
    for chunk in &doc.chunks {
        code_tokens(doc, chunk, &mut out);
        for c in &chunk.comments {
            comment_tokens(doc, c.clone(), &mut out);
        }
    }
    for m in &doc.markers {
        out.push(token(m.clone(), TokenKind::Directive));
    }
    out.sort_by_key(|t| t.range.start);
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

fn code_tokens(doc: &Document, chunk: &Chunk, out: &mut Vec<SemanticToken>) {
    let text = doc.text.as_str();
    let ix = &chunk.index;
    for (i, t) in chunk.tokens.iter().enumerate() {
        let kind = match t.class {
            LexClass::Keyword => TokenKind::Keyword,
            LexClass::Type => TokenKind::Type,
            LexClass::Number => TokenKind::Number,
            LexClass::String => TokenKind::String,
            LexClass::Operator => TokenKind::Operator,
            LexClass::OpName => {
                out.push(SemanticToken {
                    range: t.range.clone(),
                    kind: TokenKind::Function,
                    modifiers: TokenModifiers::DEFAULT_LIBRARY,
                });
                continue;
            }
            LexClass::Ident => {
                out.push(name_token(text, chunk, i));
                continue;
            }
            _ => continue,
        };
        out.push(token(t.range.clone(), kind));
    }
    let _ = ix;
}

fn name_token(text: &str, chunk: &Chunk, i: usize) -> SemanticToken {
    let t = &chunk.tokens[i];
    let ix = &chunk.index;
    let occ = ix
        .occurrence_at(t.range.start)
        .filter(|o| o.range == t.range);
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
            range: t.range.clone(),
            kind,
            modifiers: if o.is_def {
                TokenModifiers::DECLARATION
            } else {
                TokenModifiers::NONE
            },
        };
    }
    let text_of = |j: usize| chunk.tokens.get(j).and_then(|t| text.get(t.range.clone()));
    let next = text_of(i + 1);
    let prev = i.checked_sub(1).and_then(text_of);
    let (kind, modifiers) = if next == Some("=") && matches!(prev, Some("(" | ",")) {
        (TokenKind::Property, TokenModifiers::NONE)
    } else if next == Some("(") || prev == Some("submit") {
        (TokenKind::Function, TokenModifiers::UNRESOLVED)
    } else if text.get(t.range.clone()) == Some("_") {
        (TokenKind::Variable, TokenModifiers::NONE)
    } else if prev == Some("func") {
        // A function the index skipped (a duplicate definition).
        (TokenKind::Function, TokenModifiers::DECLARATION)
    } else {
        (TokenKind::Variable, TokenModifiers::UNRESOLVED)
    };
    SemanticToken {
        range: t.range.clone(),
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
