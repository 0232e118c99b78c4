//! Semantic tokens: the legend, and `pfir::ide`'s tokens (byte ranges,
//! sorted, non-overlapping) in the protocol's relative encoding. A token
//! that spans lines is cut at line ends (clients need not support
//! multi-line tokens).

use super::documents::Document;
use crate::ide::{Analysis, SemanticToken, TokenKind};
use lsp_types::{SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};

/// The token types, in the order of [`TokenKind::ALL`].
const TYPES: [SemanticTokenType; TokenKind::ALL.len()] = [
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

/// The legend position of `kind`: [`TYPES`] is in the order of
/// [`TokenKind::ALL`] (directives as macros, `{{regex}}` as regexps,
/// `[[VAR]]` as labels).
fn type_index(kind: TokenKind) -> u32 {
    kind.index() as u32
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

/// The most tokens one answer holds (`semanticTokens/full` or `/range`):
/// 250,000 tokens are at most 1,250,000 integers, a few megabytes of JSON.
/// Past it the answer covers the document (or range) up to where the cap
/// was reached, and the client colours the rest through range requests
/// (the capability advertises them) for what it shows.
pub const MAX_TOKENS: usize = 250_000;

/// How much text one step of [`collect`] asks `pfir::ide` for: the tokens
/// of the whole document are never held at once.
const WINDOW: usize = 1 << 20;

/// The tokens of `range` of `doc` in the protocol's encoding, at most
/// `max` of them (see [`MAX_TOKENS`]), taken one window of text at a time;
/// `cancelled` is asked between windows and stops the work with its error.
pub fn collect<E>(
    doc: &Document,
    analysis: &Analysis,
    range: std::ops::Range<usize>,
    max: usize,
    cancelled: impl FnMut() -> Result<(), E>,
) -> Result<Vec<lsp_types::SemanticToken>, E> {
    collect_in_windows(doc, analysis, range, max, WINDOW, cancelled)
}

fn collect_in_windows<E>(
    doc: &Document,
    analysis: &Analysis,
    range: std::ops::Range<usize>,
    max: usize,
    window: usize,
    mut cancelled: impl FnMut() -> Result<(), E>,
) -> Result<Vec<lsp_types::SemanticToken>, E> {
    let mut encoder = Encoder {
        out: Vec::new(),
        prev: (0, 0),
        max,
    };
    let end = range.end.min(doc.text.len());
    let mut from = range.start.min(end);
    let first = from;
    loop {
        let to = end.min(from.saturating_add(window.max(1)));
        let tokens = analysis.semantic_tokens_in(from..to.max(from + 1));
        // A token crossing into this window was taken whole by the last one.
        let fresh = tokens
            .iter()
            .filter(|t| from == first || t.range.start >= from);
        if !encoder.push(doc, fresh) || to >= end {
            return Ok(encoder.out);
        }
        cancelled()?;
        from = to;
    }
}

/// Encodes tokens in order, relative to the last one pushed.
struct Encoder {
    out: Vec<lsp_types::SemanticToken>,
    /// Line and start column of the last token pushed.
    prev: (u32, u32),
    max: usize,
}

impl Encoder {
    /// Pushes `tokens`; false once the cap is reached.
    fn push<'a>(
        &mut self,
        doc: &Document,
        tokens: impl Iterator<Item = &'a SemanticToken>,
    ) -> bool {
        let text = &*doc.text;
        for token in tokens {
            let mut start = token.range.start.min(text.len());
            let end = token.range.end.min(text.len());
            while start < end {
                if self.out.len() >= self.max {
                    return false;
                }
                let line = doc.lines.line_of(start);
                let Some(line_range) = doc.lines.line_range(text, line) else {
                    break;
                };
                let piece_end = end.min(line_range.end);
                if piece_end > start {
                    let a = doc.lines.position(text, start);
                    let b = doc.lines.position(text, piece_end);
                    let (prev_line, prev_start) = self.prev;
                    let delta_line = a.line.saturating_sub(prev_line);
                    let delta_start = if delta_line == 0 {
                        a.character.saturating_sub(prev_start)
                    } else {
                        a.character
                    };
                    self.out.push(lsp_types::SemanticToken {
                        delta_line,
                        delta_start,
                        length: b.character.saturating_sub(a.character),
                        token_type: type_index(token.kind),
                        token_modifiers_bitset: token.modifiers.0,
                    });
                    self.prev = (a.line, a.character);
                }
                // Continue on the next line.
                match doc.lines.line_range(text, line + 1) {
                    Some(next) => start = next.start,
                    None => break,
                }
            }
        }
        self.out.len() < self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::positions::Encoding;

    fn doc(text: &str) -> (Document, std::sync::Arc<Analysis>) {
        let doc = Document::new(text, 1, Encoding::Utf16);
        let analysis = doc.analysis();
        (doc, analysis)
    }

    const TEXT: &str = "// RUN: pfir opt %s | FileCheck %s\r\
func k(x: i64) -> i64 {\r\n  return x\r}\n\
/* a comment\nover lines */\n\
func \u{e9}t\u{e9}(y: i64) -> i64 {\n  return y\n}\n// CHECK: func k\n";

    fn all(
        doc: &Document,
        analysis: &Analysis,
        max: usize,
        window: usize,
    ) -> Vec<lsp_types::SemanticToken> {
        collect_in_windows::<()>(doc, analysis, 0..doc.text.len(), max, window, || Ok(())).unwrap()
    }

    #[test]
    fn windows_give_the_tokens_of_the_whole_text() {
        let (doc, analysis) = doc(TEXT);
        let whole = all(&doc, &analysis, usize::MAX, usize::MAX);
        assert!(whole.len() > 20, "{}", whole.len());
        // Windows that cut tokens (and characters) anywhere change nothing.
        for window in [1, 2, 3, 5, 8, 13, 40] {
            assert_eq!(
                all(&doc, &analysis, usize::MAX, window),
                whole,
                "window {window}"
            );
        }
    }

    #[test]
    fn answers_hold_at_most_the_cap() {
        let (doc, analysis) = doc(TEXT);
        let whole = all(&doc, &analysis, usize::MAX, usize::MAX);
        for max in [0, 1, 7, whole.len() - 1] {
            for window in [3, usize::MAX] {
                let capped = all(&doc, &analysis, max, window);
                assert_eq!(capped, whole[..max], "max {max} window {window}");
            }
        }
        assert_eq!(all(&doc, &analysis, whole.len(), 4), whole);
    }

    #[test]
    fn cancellation_is_asked_between_windows() {
        let (doc, analysis) = doc(TEXT);
        let mut asked = 0;
        let r = collect_in_windows(&doc, &analysis, 0..doc.text.len(), usize::MAX, 10, || {
            asked += 1;
            Err("cancelled")
        });
        assert_eq!(r, Err("cancelled"));
        assert_eq!(asked, 1);
    }
}
