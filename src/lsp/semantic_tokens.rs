//! Semantic tokens: the legend, and `pfir::ide`'s tokens (byte ranges,
//! sorted, non-overlapping) in the protocol's relative encoding. A token
//! that spans lines is cut at line ends (clients need not support
//! multi-line tokens).

use super::documents::Document;
use crate::ide::{SemanticToken, TokenKind};
use lsp_types::{SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};

/// The token types, indexed by [`type_index`].
const TYPES: [SemanticTokenType; 13] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::TYPE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::MACRO,
    SemanticTokenType::REGEXP,
    SemanticTokenType::new("label"),
];

fn type_index(kind: TokenKind) -> u32 {
    match kind {
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
        // RUN:, CHECK-NEXT:, expected-error@+1, `// -----`.
        TokenKind::Directive => 10,
        // `{{regex}}` in a CHECK line.
        TokenKind::RegexPart => 11,
        // `[[VAR]]` in a CHECK line.
        TokenKind::VarPart => 12,
    }
}

/// The legend announced in the capabilities. Modifier bits are
/// `pfir::ide`'s (`DECLARATION` = 1, `DEFAULT_LIBRARY` = 2, `UNRESOLVED` = 4).
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::DEFAULT_LIBRARY,
            SemanticTokenModifier::new("unresolved"),
        ],
    }
}

/// `tokens` of `doc`, encoded.
pub fn encode(doc: &Document, tokens: &[SemanticToken]) -> Vec<lsp_types::SemanticToken> {
    let text = &*doc.text;
    let mut out = Vec::with_capacity(tokens.len());
    let (mut prev_line, mut prev_start) = (0u32, 0u32);
    for token in tokens {
        let mut start = token.range.start.min(text.len());
        let end = token.range.end.min(text.len());
        while start < end {
            let line = doc.lines.line_of(start);
            let Some(line_range) = doc.lines.line_range(line) else {
                break;
            };
            let piece_end = end.min(line_range.end);
            if piece_end > start {
                let a = doc.lines.position(text, start);
                let b = doc.lines.position(text, piece_end);
                let delta_line = a.line.saturating_sub(prev_line);
                let delta_start = if delta_line == 0 {
                    a.character.saturating_sub(prev_start)
                } else {
                    a.character
                };
                out.push(lsp_types::SemanticToken {
                    delta_line,
                    delta_start,
                    length: b.character.saturating_sub(a.character),
                    token_type: type_index(token.kind),
                    token_modifiers_bitset: token.modifiers.0,
                });
                (prev_line, prev_start) = (a.line, a.character);
            }
            // Continue on the next line.
            match doc.lines.line_range(line + 1) {
                Some(next) => start = next.start,
                None => break,
            }
        }
    }
    out
}
