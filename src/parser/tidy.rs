//! The character pre-pass of syntax-error recovery: characters that start
//! no token but whose intent is clear are reported once and replaced by
//! what they stand for before the brackets are matched and the parser runs,
//! so that the rest of the file reads as written.
//!
//! - `#` (a Python or shell comment): reported with `//` as the fix; the
//!   rest of its line is dropped, as a comment would be.
//! - Curly quotes around text on one line (`“phase”`): one error for the
//!   pair, with both quotes straightened as fixes; read as a string.
//! - A letter outside ASCII (`café`): read as part of the name it touches.
//! - Any other character with a known ASCII form (a no-break space, a
//!   fullwidth `(`, an en dash, a `;`...): read as that form (or dropped
//!   when it should simply go).
//!
//! Other unexpected characters stay in the stream: the parser reports them
//! with the tokens it expected, and recovery drops them.

use super::chars;
use super::layout::Layout;
use crate::diagnostics::{Applicability, Code, Diagnostic};
use crate::lexer::{LexError, Spanned, Tok};
use crate::span::Span;
use logos::Logos;

/// The character an error token stands on.
fn char_at(layout: &Layout<'_>, token: &Spanned<'_>) -> Option<char> {
    layout.slice(token.0, token.2).chars().next()
}

/// Returns the tokens with the characters above replaced, and their
/// diagnostics.
pub fn fix_characters<'i>(
    tokens: Vec<Spanned<'i>>,
    text: &'i str,
    base: usize,
    layout: &Layout<'_>,
) -> (Vec<Spanned<'i>>, Vec<Diagnostic>) {
    if !tokens
        .iter()
        .any(|t| matches!(t.1, Tok::Error(LexError::UnexpectedCharacter)))
    {
        return (tokens, Vec::new());
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut diags = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (l, tok, r) = &tokens[i];
        let (l, r) = (*l, *r);
        let c = match tok {
            Tok::Error(LexError::UnexpectedCharacter) => char_at(layout, &tokens[i]),
            _ => None,
        };
        let Some(c) = c else {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        };
        let span = Span::new(l, l + c.len_utf8());
        if c == '#' {
            diags.push(
                Diagnostic::error("`#` does not start a comment", span)
                    .with_code(Code::UnexpectedCharacter)
                    .with_label("comments start with `//`")
                    .with_suggestion(span, "//", "write `//`", Applicability::MachineApplicable)
                    .with_note("the rest of the line is read as a comment"),
            );
            let line_end = layout.line_end(l);
            while i < tokens.len() && tokens[i].0 < line_end {
                i += 1;
            }
            continue;
        }
        if chars::is_curly_quote(c)
            && let Some(close) = closing_quote(&tokens, i, layout)
        {
            let close_at = tokens[close].0;
            let close_char = char_at(layout, &tokens[close]).unwrap_or('"');
            let close_span = Span::new(close_at, close_at + close_char.len_utf8());
            let first = chars::unexpected_character(text, base, span, String::new());
            let applicability = first
                .suggestions
                .first()
                .map_or(Applicability::MaybeIncorrect, |s| s.applicability);
            diags.push(
                first
                    .with_secondary(close_span, format!("and `{close_char}` closes it"))
                    .with_suggestion(
                        close_span,
                        "\"",
                        "and replace this one with `\"`",
                        applicability,
                    )
                    .with_note("read as a string in straight quotes"),
            );
            let payload = layout.slice(l, close_span.end());
            // The payload borrows the text: take it from `text` itself.
            let payload = &text[l - base..l - base + payload.len()];
            out.push((l, Tok::Str(payload), close_span.end()));
            i = close + 1;
            continue;
        }
        if !c.is_ascii() && c.is_alphabetic() {
            // A letter outside ASCII (`café`): reported, and read as part
            // of the name it touches.
            diags.push(chars::unexpected_character(text, base, span, String::new()));
            let mut start = l;
            if let Some((pl, Tok::Ident(_), pr)) = out.last()
                && *pr == l
            {
                start = *pl;
                out.pop();
            }
            let mut end = r;
            i += 1;
            while let Some((nl, t, nr)) = tokens.get(i)
                && *nl == end
                && (matches!(t, Tok::Ident(_) | Tok::Int(_))
                    || (matches!(t, Tok::Error(LexError::UnexpectedCharacter))
                        && char_at(layout, &tokens[i])
                            .is_some_and(|c| !c.is_ascii() && c.is_alphabetic())))
            {
                end = *nr;
                i += 1;
            }
            out.push((start, Tok::Ident(&text[start - base..end - base]), end));
            continue;
        }
        let Some(replacement) = chars::ascii_replacement(c) else {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        };
        let replaced = lex_replacement(&replacement);
        let Some(replaced) = replaced else {
            // Not a clean token sequence (a lone `"`): leave it to the parser.
            out.push(tokens[i].clone());
            i += 1;
            continue;
        };
        diags.push(chars::unexpected_character(text, base, span, String::new()));
        out.extend(replaced.into_iter().map(|t| (l, t, r)));
        i += 1;
    }
    (out, diags)
}

/// The index of the curly quote that closes the one at `open`, on the same
/// line, when every token between them is plain (no string, no bracket
/// opened and left open).
fn closing_quote(tokens: &[Spanned<'_>], open: usize, layout: &Layout<'_>) -> Option<usize> {
    let line = layout.line(tokens[open].0);
    for (j, token) in tokens.iter().enumerate().skip(open + 1) {
        let (l, tok, _) = token;
        if layout.line(*l) != line {
            return None;
        }
        if let Tok::Error(LexError::UnexpectedCharacter) = tok
            && char_at(layout, token).is_some_and(chars::is_curly_quote)
        {
            return Some(j);
        }
        if matches!(
            tok,
            Tok::Str(_) | Tok::UnterminatedStr | Tok::BadEscapeStr(_) | Tok::LBrace | Tok::RBrace
        ) {
            return None;
        }
    }
    None
}

/// The tokens `text` lexes to, when it lexes cleanly (no error, no string).
fn lex_replacement(text: &str) -> Option<Vec<Tok<'static>>> {
    // The replacements are a handful of static ASCII texts.
    let text: &'static str = match text {
        "" | " " => return Some(Vec::new()),
        other => KNOWN.iter().find(|k| **k == other)?,
    };
    let mut out = Vec::new();
    for t in Tok::lexer(text) {
        match t {
            Ok(Tok::Str(_) | Tok::UnterminatedStr | Tok::BadEscapeStr(_)) | Err(_) => return None,
            Ok(t) => out.push(t),
        }
    }
    Some(out)
}

/// Every printable ASCII character, and `->`: the texts a replacement can be.
const KNOWN: [&str; 95] = [
    "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/", "0", "1", "2", "3",
    "4", "5", "6", "7", "8", "9", ":", ";", "<", "=", ">", "?", "@", "A", "B", "C", "D", "E", "F",
    "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y",
    "Z", "[", "\\", "]", "^", "_", "`", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
    "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "{", "|", "}", "~", "->",
];
