//! Lexing: source text to `(start, token, end)` triples for the parser.
//!
//! Lexing never fails: a character that starts no token becomes a
//! [`Tok::Error`] token, which the parser reports (with the tokens it
//! expected) and recovers from. Spans are byte offsets into the whole file:
//! `base` is added so that a `// -----` chunk keeps its place in the file.
//!
//! The lexer also enforces the nesting limit on brackets (`(`, `[`, `{`),
//! so that nothing after it ever sees an input nested deeper than
//! [`MAX_NESTING`].

pub mod token;

use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use logos::Logos;
pub use token::{LexError, Tok};

/// The deepest nesting pfir accepts, counted in brackets (blocks, calls,
/// lists, parentheses, type brackets) and in expression / `else if` depth.
/// Deeper input is rejected with a diagnostic instead of exhausting the stack.
pub const MAX_NESTING: usize = 200_000;

/// One lexed token with its byte range.
pub type Spanned<'input> = (usize, Tok<'input>, usize);

/// Input nested deeper than [`MAX_NESTING`]; its span is the first bracket
/// past the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    pub span: Span,
}

impl TooDeep {
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(
            format!("nesting is deeper than the limit of {MAX_NESTING} levels"),
            self.span,
        )
        .with_code(Code::TooDeep)
        .with_label("too deeply nested here")
        .with_note(format!(
            "pfir accepts at most {MAX_NESTING} nested brackets, blocks or operators"
        ))
    }
}

/// The tokens of `text` (which starts at byte `base` of its file), produced
/// lazily so that the parser never needs the whole token list at once. The
/// first bracket nested deeper than [`MAX_NESTING`] yields `Err` (and the
/// stream ends there).
pub fn tokens(text: &str, base: usize) -> impl Iterator<Item = Result<Spanned<'_>, TooDeep>> {
    // A UTF-8 byte order mark at the start of the file is skipped; offsets
    // stay those of the whole file.
    let (text, base) = match text.strip_prefix('\u{FEFF}') {
        Some(rest) if base == 0 => (rest, '\u{FEFF}'.len_utf8()),
        _ => (text, base),
    };
    let mut lexer = Tok::lexer(text);
    let mut depth = 0usize;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let result = lexer.next()?;
        let range = lexer.span();
        let (start, end) = (range.start + base, range.end + base);
        let tok = result.unwrap_or_else(Tok::Error);
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                depth += 1;
                if depth > MAX_NESTING {
                    failed = true;
                    return Some(Err(TooDeep {
                        span: Span::new(start, end),
                    }));
                }
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {}
        }
        Some(Ok((start, tok, end)))
    })
}

/// All tokens of `text` at once, or the diagnostic for input nested deeper
/// than [`MAX_NESTING`].
pub fn lex(text: &str, base: usize) -> Result<Vec<Spanned<'_>>, Diagnostic> {
    tokens(text, base)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.diagnostic())
}
