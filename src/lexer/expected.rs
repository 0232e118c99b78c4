//! The one reader of `expected-*` directives, after MLIR's
//! `-verify-diagnostics`: `--verify-diagnostics` (what a directive
//! expects), the formatter (which offsets to rewrite, which comments are
//! directives) and the editor (highlighting) all read comments with
//! [`scan`], so they agree on what is a directive.
//!
//! The grammar (`docs/testing.md`), inside one `//` comment:
//!
//! ```text
//! directive := "expected-" KIND [ "@" LINE ] BLANKS "{{" TEXT "}}"
//! KIND      := "error" | "warning" | "note" | "remark"
//! LINE      := "+" DIGITS | "-" DIGITS | DIGITS | "above" | "below"
//! ```
//!
//! - `expected-` starts a directive only at a word boundary: the character
//!   before it is not a letter, digit, `_` or `-` (`unexpected-error` and
//!   `not-expected-error` are prose).
//! - `KIND` must end at a word boundary too: `expected-errors`,
//!   `expected-foo`, `expected-*` are prose and ignored. So is
//!   `expected-error-re`, unless followed by `{{` (below).
//! - A known kind is a directive whatever follows it; a malformed tail is
//!   then an error with its fix: no `{{` ([`Problem::NoText`]), no closing
//!   `}}` ([`Problem::Unterminated`]), a `@` suffix that is not a line
//!   ([`Problem::BadLine`]).
//! - A word `expected-WORD` with an unknown `WORD` directly followed (after
//!   an optional `@...` and blanks) by `{{` can only be a misspelt
//!   directive (`expected-eror {{x}}`, `expected-error-re {{a.*}}`): it is
//!   returned as [`Found::Unknown`], which `--verify-diagnostics` reports.
//!
//! Scanning is linear in the comment's length; ranges are byte ranges of
//! the scanned text.

use crate::diagnostics::Severity;
use std::ops::Range;

/// The kinds, as written after `expected-`.
pub const KINDS: [&str; 4] = ["error", "warning", "note", "remark"];

/// The line a directive names, as written after `@`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// No suffix: the directive's own line.
    Here,
    /// `@+N` / `@-N`: that many lines below (positive) or above.
    Relative(i64),
    /// `@N`: line `N` of the file (1-based).
    Absolute(u64),
    /// `@above`: the line above.
    Above,
    /// `@below`: the line below.
    Below,
}

impl Line {
    /// The 0-based line named from the directive's 0-based `line`, if it
    /// is not before the file's start.
    pub fn target(self, line: usize) -> Option<usize> {
        let line = line as i64;
        let t = match self {
            Line::Here => line,
            Line::Relative(n) => line.checked_add(n)?,
            Line::Absolute(n) => i64::try_from(n).ok()?.checked_sub(1)?,
            Line::Above => line - 1,
            Line::Below => line + 1,
        };
        usize::try_from(t).ok()
    }
}

/// What is wrong with a directive of a known kind (a missing or unclosed
/// text is named before a bad line).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// No `{{` after the kind (and suffix).
    NoText,
    /// `{{` without a closing `}}`.
    Unterminated,
    /// A `@` suffix that is not `+N`, `-N`, `N`, `above` or `below`.
    BadLine,
}

/// A directive of a known kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// `error`, `warning`, `note` or `remark`.
    pub kind: &'static str,
    /// `expected-KIND` and its `@` suffix, if any: the part an editor
    /// colours as the directive.
    pub head: Range<usize>,
    /// The `@...` suffix, `@` included (empty at the end of the kind when
    /// there is none).
    pub suffix: Range<usize>,
    /// The line named (`Line::Here` when the suffix is malformed).
    pub line: Line,
    /// `{{text}}`, braces included, when closed.
    pub braces: Option<Range<usize>>,
    /// The whole directive as far as it reads: to the closing `}}`, or to
    /// the end of the comment when it is unterminated, or the head.
    pub range: Range<usize>,
    pub problem: Option<Problem>,
}

impl Directive {
    /// The severity the directive expects.
    pub fn severity(&self) -> Severity {
        match self.kind {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "note" => Severity::Note,
            _ => Severity::Remark,
        }
    }

    /// The expected text (inside the braces), when closed.
    pub fn text<'t>(&self, comment: &'t str) -> Option<&'t str> {
        let b = self.braces.clone()?;
        comment.get(b.start + 2..b.end - 2)
    }
}

/// What [`scan`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Directive(Directive),
    /// `expected-WORD ... {{` with an unknown `WORD`: a misspelt or
    /// unsupported directive. `word` is the range of `expected-WORD`.
    Unknown {
        word: Range<usize>,
    },
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Every directive of `comment` (the text of one `//` comment, or any text
/// with no code in it), in order.
pub fn scan(comment: &str) -> Vec<Found> {
    const PREFIX: &str = "expected-";
    let bytes = comment.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = comment.get(from..).and_then(|c| c.find(PREFIX)) {
        let start = from + i;
        let after = start + PREFIX.len();
        from = after;
        if start > 0 && is_word_byte(bytes[start - 1]) {
            continue;
        }
        let word_end = after
            + bytes[after..]
                .iter()
                .take_while(|b| is_word_byte(**b))
                .count();
        let word = &comment[after..word_end];
        let Some(kind) = KINDS.iter().find(|k| **k == word) else {
            // Prose, unless `{{` follows: then a misspelt directive.
            let (_, open) = suffix_and_open(comment, word_end);
            if !word.is_empty() && comment[open..].starts_with("{{") {
                out.push(Found::Unknown {
                    word: start..word_end,
                });
                from = open + 2;
            }
            continue;
        };
        let (suffix, open) = suffix_and_open(comment, word_end);
        let line = match comment.get(suffix.start + 1..suffix.end) {
            _ if suffix.is_empty() => Some(Line::Here),
            Some(s) => parse_line(s),
            None => None,
        };
        let head = start..suffix.end;
        let mut d = Directive {
            kind,
            head: head.clone(),
            suffix,
            line: line.unwrap_or(Line::Here),
            braces: None,
            range: head.clone(),
            problem: line.is_none().then_some(Problem::BadLine),
        };
        if !comment[open..].starts_with("{{") {
            d.problem = Some(Problem::NoText);
            from = head.end;
        } else if let Some(j) = comment[open + 2..].find("}}") {
            let close = open + 2 + j + 2;
            d.braces = Some(open..close);
            d.range = start..close;
            from = close;
        } else {
            d.problem = Some(Problem::Unterminated);
            d.range = start..comment.len();
            from = comment.len();
        }
        out.push(Found::Directive(d));
    }
    out
}

/// The `@...` suffix starting at `at` (empty when there is none: it runs
/// to the first blank or `{`), and where the blanks after it end.
fn suffix_and_open(comment: &str, at: usize) -> (Range<usize>, usize) {
    let rest = &comment[at..];
    let len = if rest.starts_with('@') {
        rest.find(|c: char| c.is_whitespace() || c == '{')
            .unwrap_or(rest.len())
    } else {
        0
    };
    let end = at + len;
    let open = end + (comment[end..].len() - comment[end..].trim_start().len());
    (at..end, open)
}

/// The line of a suffix written after `@`.
fn parse_line(s: &str) -> Option<Line> {
    let number = |n: &str| {
        (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| n.parse::<u64>().ok())
            .flatten()
    };
    match s {
        "above" => Some(Line::Above),
        "below" => Some(Line::Below),
        _ => {
            if let Some(n) = s.strip_prefix('+') {
                Some(Line::Relative(i64::try_from(number(n)?).ok()?))
            } else if let Some(n) = s.strip_prefix('-') {
                Some(Line::Relative(-i64::try_from(number(n)?).ok()?))
            } else {
                Some(Line::Absolute(number(s)?))
            }
        }
    }
}

/// The directives of the `//` comment on `line` (a `//` inside a string
/// literal starts none), with ranges in `line`.
pub fn scan_line(line: &str) -> (usize, Vec<Found>) {
    match crate::lexer::line_comment_start(line) {
        Some(at) => {
            let mut found = scan(&line[at..]);
            for f in &mut found {
                shift(f, at);
            }
            (at, found)
        }
        None => (line.len(), Vec::new()),
    }
}

fn shift(f: &mut Found, by: usize) {
    let s = |r: &mut Range<usize>| *r = r.start + by..r.end + by;
    match f {
        Found::Unknown { word } => s(word),
        Found::Directive(d) => {
            s(&mut d.head);
            s(&mut d.suffix);
            s(&mut d.range);
            if let Some(b) = &mut d.braces {
                s(b);
            }
        }
    }
}

/// Whether `comment` holds a directive of a known kind (well formed or
/// not): the test directives `pfir opt --keep-comments` leaves out, and
/// the comments whose offsets the formatter rewrites.
pub fn has_directive(comment: &str) -> bool {
    // The common comment holds no `expected-` at all.
    comment.contains("expected-")
        && scan(comment)
            .iter()
            .any(|f| matches!(f, Found::Directive(_)))
}

#[cfg(test)]
mod tests;
