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

/// Lexes `text` (which starts at byte `base` of its file). Returns the tokens,
/// or the diagnostic for input nested deeper than [`MAX_NESTING`].
pub fn lex(text: &str, base: usize) -> Result<Vec<Spanned<'_>>, Diagnostic> {
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    let mut lexer = Tok::lexer(text);
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        let (start, end) = (range.start + base, range.end + base);
        let tok = match result {
            Ok(tok) => tok,
            Err(e) => Tok::Error(e),
        };
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(
                        format!("nesting is deeper than the limit of {MAX_NESTING} levels"),
                        Span::new(start, end),
                    )
                    .with_label("this bracket is too deeply nested")
                    .with_note(format!(
                        "pfir accepts at most {MAX_NESTING} nested brackets, blocks or operators"
                    )));
                }
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {}
        }
        tokens.push((start, tok, end));
    }
    Ok(tokens)
}
