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

pub mod expected;
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
        let limit = MAX_NESTING;
        Diagnostic::error(
            format!("nesting is deeper than the limit of {limit} levels"),
            self.span,
        )
        .with_code(Code::TooDeep)
        .with_label("too deeply nested here")
        .with_note(format!(
            "pfir accepts at most {limit} nested brackets, blocks or operators"
        ))
    }
}

/// The tokens of `text` (which starts at byte `base` of its file), produced
/// lazily so that the parser never needs the whole token list at once. The
/// first bracket nested deeper than [`MAX_NESTING`] yields `Err` (and the
/// stream ends there).
pub fn tokens(text: &str, base: usize) -> impl Iterator<Item = Result<Spanned<'_>, TooDeep>> {
    Tokens::new(text, base)
}

/// The token stream of [`tokens`]. The parser pulls every token through
/// `next`, so it is kept small enough to be inlined there.
struct Tokens<'a> {
    lexer: logos::Lexer<'a, Tok<'a>>,
    base: usize,
    depth: usize,
    failed: bool,
    /// Tokens given, counted to call [`fsutil::cancel::checkpoint`] every
    /// [`CHECKPOINT_EVERY`] of them (the parser's whole loop pulls them).
    given: u32,
}

/// How many tokens the lexer gives between two cancellation checkpoints.
const CHECKPOINT_EVERY: u32 = 1024;

impl<'a> Tokens<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        // A UTF-8 byte order mark at the start of the file is skipped;
        // offsets stay those of the whole file.
        let (text, base) = match text.strip_prefix('\u{FEFF}') {
            Some(rest) if base == 0 => (rest, '\u{FEFF}'.len_utf8()),
            _ => (text, base),
        };
        Tokens {
            lexer: Tok::lexer(text),
            base,
            depth: 0,
            failed: false,
            given: 0,
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Result<Spanned<'a>, TooDeep>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.given = self.given.wrapping_add(1);
        if self.given.is_multiple_of(CHECKPOINT_EVERY) {
            fsutil::cancel::checkpoint();
        }
        let mut result = self.lexer.next()?;
        while matches!(result, Ok(Tok::Comment)) {
            result = self.lexer.next()?;
        }
        let range = self.lexer.span();
        let (start, end) = (range.start + self.base, range.end + self.base);
        let tok = result.unwrap_or_else(Tok::Error);
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    self.failed = true;
                    return Some(Err(TooDeep {
                        span: Span::new(start, end),
                    }));
                }
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                self.depth = self.depth.saturating_sub(1);
            }
            _ => {}
        }
        Some(Ok((start, tok, end)))
    }
}

/// All tokens of `text` at once, or the diagnostic for input nested deeper
/// than [`MAX_NESTING`].
pub fn lex(text: &str, base: usize) -> Result<Vec<Spanned<'_>>, Diagnostic> {
    tokens(text, base)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.diagnostic())
}

/// The comments of `text` (which starts at byte `base` of its file), as
/// trivia: the spans of every `// ...` comment, from `//` to the end of its
/// line (without the line break: `\n`, `\r\n` or a lone `\r`), in order.
///
/// The parser never sees comments (the token enum skips them); the
/// formatter (`crate::format`) takes them from here. A scan for `"` and
/// `//` that steps over string literals as the token enum reads them (to
/// the first `"` not escaped by a `\`; one left open runs to the end), so
/// a `//` inside a string literal is never mistaken for a comment: on every
/// text that lexes without error tokens the comments are exactly the
/// `//` runs between tokens (a test compares the two).
pub fn comments(text: &str, base: usize) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(start) = next_comment(text, from) {
        let rest = &text.as_bytes()[start..];
        let end = memchr::memchr2(b'\n', b'\r', rest).map_or(text.len(), |n| start + n);
        out.push(Span::new(start + base, end + base));
        from = end;
    }
    out
}

/// Where the first `//` comment at or after byte `from` starts (`from`
/// being outside any string literal): the scan of [`comments`].
fn next_comment(text: &str, mut from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    while let Some(k) = memchr::memchr2(b'"', b'/', bytes.get(from..)?) {
        let at = from + k;
        from = match bytes[at] {
            b'"' => string_end(bytes, at + 1),
            _ if bytes.get(at + 1) == Some(&b'/') => return Some(at),
            _ => at + 1,
        };
    }
    None
}

/// The byte just past the string literal whose text starts at `from`
/// (after its opening `"`): past its closing `"`, or the end of `bytes`.
fn string_end(bytes: &[u8], mut from: usize) -> usize {
    while let Some(k) = bytes
        .get(from..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        if bytes[from + k] == b'"' {
            return from + k + 1;
        }
        from += k + 2;
    }
    bytes.len()
}

/// Where the `//` comment of one line starts: its first `//` outside a
/// string literal (the scan of [`comments`], on one line). For the
/// test-directive readers (`expected-*` comments), which look at one line
/// at a time and must also read lines that do not lex.
pub fn line_comment_start(line: &str) -> Option<usize> {
    next_comment(line, 0)
}

#[cfg(test)]
mod comment_tests {
    use super::{Span, comments, line_comment_start};

    #[test]
    fn a_line_comment_starts_at_the_first_slashes_outside_strings() {
        assert_eq!(line_comment_start("x = 1 // a // b"), Some(6));
        assert_eq!(line_comment_start(r#"m "a//b\"//" // c"#), Some(13));
        assert_eq!(line_comment_start(r#"m "a\" // c"#), None);
        assert_eq!(line_comment_start("x = 1 / 2"), None);
        assert_eq!(line_comment_start(r#"m "// open"#), None);
    }

    fn texts(src: &str) -> Vec<&str> {
        comments(src, 0)
            .into_iter()
            .map(|s| &src[s.range()])
            .collect()
    }

    #[test]
    fn finds_comments_between_tokens_not_in_strings() {
        let src = "// a\r\nx = \"// no\" // b\n  //c";
        assert_eq!(texts(src), ["// a", "// b", "//c"]);
    }

    #[test]
    fn offsets_are_shifted_by_base() {
        let spans = comments("x // y\n", 10);
        assert_eq!(spans[0].range(), 12..16);
    }

    #[test]
    fn a_lone_carriage_return_ends_a_comment() {
        let src = "// a\rx = 1 // b\r\n// c\r";
        let spans = comments(src, 0);
        let texts: Vec<&str> = spans.iter().map(|s| &src[s.start()..s.end()]).collect();
        assert_eq!(texts, ["// a", "// b", "// c"]);
        use logos::Logos;
        let tokens: Vec<_> = super::Tok::lexer(src)
            .map(|t| t.unwrap())
            .filter(|t| *t != super::Tok::Comment)
            .collect();
        assert_eq!(tokens.len(), 3, "`x = 1` is code: {tokens:?}");
    }

    #[test]
    fn no_comments_no_spans() {
        assert!(texts("func f() {}\n").is_empty());
    }

    /// The comments as the lexer sees them: the `//` runs in the gaps
    /// between its tokens (which hold only whitespace and comments); `None`
    /// when the text has an error token (a character that starts none).
    fn comments_between_tokens(text: &str) -> Option<Vec<Span>> {
        use logos::Logos;
        let mut out = Vec::new();
        let mut gap_start = 0;
        let mut lexer = super::Tok::lexer(text);
        while let Some(token) = lexer.next() {
            if token.ok()? == super::Tok::Comment {
                continue;
            }
            let range = lexer.span();
            comments_in_gap(text, gap_start, range.start, &mut out);
            gap_start = range.end;
        }
        comments_in_gap(text, gap_start, text.len(), &mut out);
        Some(out)
    }

    fn comments_in_gap(text: &str, start: usize, end: usize, out: &mut Vec<Span>) {
        let bytes = text.as_bytes();
        let mut i = start;
        while i + 1 < end {
            if bytes[i] == b'/' && bytes[i + 1] == b'/' {
                let mut j = i + 2;
                while j < end && bytes[j] != b'\n' && bytes[j] != b'\r' {
                    j += 1;
                }
                out.push(Span::new(i, j));
                i = j;
            } else {
                i += 1;
            }
        }
    }

    #[test]
    fn the_scan_finds_the_comments_between_tokens() {
        for src in [
            r#"x = "a\"// b" // c"#,
            r#"manual "a\\" // c"#,
            "manual \"a\nb // no\" // yes\r\n// z",
            "a / /b //c",
            "manual \"é // ü\" // é\n\"\"",
        ] {
            assert_eq!(
                Some(comments(src, 0)),
                comments_between_tokens(src),
                "{src:?}"
            );
        }
    }

    proptest::proptest! {
        /// On every text without error tokens, the scan and the lexer find
        /// the same comments.
        #[test]
        fn the_scan_agrees_with_the_lexer(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "\"", "/", "//", "\\", "\\\"", "\n", "\r", "\r\n", " ", "a", "1", "é", "(", "=",
                ]),
                0..40,
            )
        ) {
            let src: String = parts.concat();
            if let Some(expected) = comments_between_tokens(&src) {
                proptest::prop_assert_eq!(comments(&src, 0), expected, "{:?}", src);
            }
        }
    }
}
